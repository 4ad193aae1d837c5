/* rule_dummy: the test build's rule, a March called a Dummy Move (see the header). */
#include "rule_dummy.h"

int rules_rule_dummy_move(const rules_judge_input *in, rules_report *out, base_error *err)
{
    rules_check_options o = in->check;
    o.move = RULES_MOVE_MARCH;
    if (rules_move_check(in->before, in->after, &o, out, err) < 0)
        return -1;
    for (size_t i = 0; i < out->n_units; i++)
        if (out->units[i].move == RULES_MOVE_MARCH)
            out->units[i].move = RULES_MOVE_DUMMY_MOVE;
    return 0;
}
