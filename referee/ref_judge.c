/* ref_judge: two snapshots judged as the referee judges them (see the header). */
#include "ref_judge.h"

#include <stdlib.h>
#include <time.h>

#include "rules_robust.h"
#include "rules_rulebook.h"

void ref_judge_options_default(ref_judge_options *o)
{
    *o = (ref_judge_options){0};
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    o->check = ro.check;
    o->robust = true;
    o->suggest = true;
    o->jitter_mm = ro.jitter_mm;
}

void ref_judgement_init(ref_judgement *j)
{
    *j = (ref_judgement){0};
    rules_report_init(&j->report);
}

void ref_judgement_clear(ref_judgement *j)
{
    rules_report_clear(&j->report);
    ref_judgement_init(j);
}

ref_judgement *ref_judgement_new(void)
{
    ref_judgement *j = malloc(sizeof *j);
    if (j)
        ref_judgement_init(j);
    return j;
}

void ref_judgement_free(ref_judgement *j)
{
    if (!j)
        return;
    rules_report_clear(&j->report);
    free(j);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* What the rules' judges take (rules_rule.h), from the referee's options. */
static rules_judge_input judge_input(const rules_snapshot *before, const rules_snapshot *after,
                                     const ref_judge_options *o)
{
    return (rules_judge_input){.before = before, .after = after, .mid = o->mid, .check = o->check,
                               .robust = o->robust, .jitter_mm = o->jitter_mm, .combat = o->combat,
                               .pursuit = o->pursuit};
}

int ref_judge(const rules_snapshot *before, const rules_snapshot *after, const ref_judge_options *o, ref_judgement *j,
              base_error *err)
{
    ref_judgement_clear(j);
    ref_judge_options dflt;
    if (!o) {
        ref_judge_options_default(&dflt);
        o = &dflt;
    }
    j->before = before, j->after = after;
    /* the call and the nearest legal move, by the rules of the move asked: its row (rules_rulebook.h) */
    const rules_judge_input in = judge_input(before, after, o);
    double t0 = now_ms();
    if (rules_rulebook_judge(&in, &j->report, err) < 0) {
        ref_judgement_clear(j);
        return -1;
    }
    double t1 = now_ms();
    j->check_ms = t1 - t0;
    if (o->suggest && rules_rulebook_suggest(&in, &j->report, err) < 0) {
        ref_judgement_clear(j);
        return -1;
    }
    j->suggest_ms = now_ms() - t1;
    return 0;
}

int ref_judge_reach(const rules_snapshot *table, const char *unit_id, rules_move_type move, rules_reach *out,
                    base_error *err)
{
    return rules_reach_compute(table, unit_id, move, NULL, out, err);
}
