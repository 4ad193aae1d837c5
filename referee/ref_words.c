/* ref_words: a judged move in words, once (see the header). */
#include "ref_words.h"

void ref_words_unit(const ref_judgement *j, size_t i, char *buf, size_t cap)
{
    if (i >= j->report.n_units) {
        if (cap)
            buf[0] = 0;
        return;
    }
    rules_words_call(&j->report.units[i], j->before, j->after, buf, cap);
}

void ref_words_print(const ref_judgement *j, FILE *out)
{
    rules_report_print_judged(&j->report, j->before, j->after, out);
}

cJSON *ref_words_json(const ref_judgement *j) { return rules_report_to_json_judged(&j->report, j->before, j->after); }
