/* rules_rulebook: a move judged by its row's functions (see the header). */
#include "rules_rulebook.h"

#include "rules_combat.h"
#include "rules_dynform.h"
#include "rules_pursuit.h"
#include "rules_reform.h"
#include "rules_robust.h"
#include "rules_suggest.h"

/* Every row's judge and suggest function, declared from the rows themselves: a new rule's are found by its row. */
#define RULES_MOVE_ROW(ID, token, word, title, limit, rate, key, flags, judge, suggest) rules_judge_fn judge, suggest;
#include "rules_moves.def"
#undef RULES_MOVE_ROW

static const struct {
    rules_judge_fn *judge, *suggest;
} rows[RULES_MOVE_COUNT] = {
#define RULES_MOVE_ROW(ID, token, word, title, limit, rate, key, flags, judge, suggest)                               \
    [RULES_MOVE_##ID] = {judge, suggest},
#include "rules_moves.def"
#undef RULES_MOVE_ROW
};

static bool is_row(rules_move_type t)
{
    return (int)t >= 0 && t < RULES_MOVE_COUNT;
}

int rules_rulebook_judge(const rules_judge_input *in, rules_report *out, base_error *err)
{
    if (!is_row(in->check.move))
        return base_error_set(err, "move type %d is not in the table of rules", (int)in->check.move);
    return rows[in->check.move].judge(in, out, err);
}

int rules_rulebook_suggest(const rules_judge_input *in, rules_report *out, base_error *err)
{
    if (!is_row(in->check.move))
        return base_error_set(err, "move type %d is not in the table of rules", (int)in->check.move);
    return rows[in->check.move].suggest(in, out, err);
}

/* ---- the judges of the rules written before the table ---- */

/* Advance, March, Reform (and auto): under every placement the evidence allows, or the snapshots as they are. */
int rules_rule_moving_units(const rules_judge_input *in, rules_report *out, base_error *err)
{
    if (!in->robust)
        return rules_move_check(in->before, in->after, &in->check, out, err);
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    ro.check = in->check;
    ro.jitter_mm = in->jitter_mm;
    return rules_robust_check(in->before, in->after, &ro, out, err);
}

int rules_rule_reform_move(const rules_judge_input *in, rules_report *out, base_error *err)
{
    return rules_reform_check(in->before, in->mid, in->after, &in->check, out, err);
}

int rules_rule_combat_reform(const rules_judge_input *in, rules_report *out, base_error *err)
{
    if (!in->combat)
        return base_error_set(err, "a Combat Reform is judged with the losing side and the reforming units");
    return rules_combat_reform_check(in->before, in->after, &in->check, in->combat, out, err);
}

int rules_rule_pursuit(const rules_judge_input *in, rules_report *out, base_error *err)
{
    if (!in->pursuit)
        return base_error_set(err, "a Pursuit is judged with its pursuers and the direction pursued");
    return rules_pursuit_check(in->before, in->after, in->pursuit, &in->check, out, err);
}

int rules_rule_formation(const rules_judge_input *in, rules_report *out, base_error *err)
{
    return rules_dynform_check(in->before, in->after, &in->check, out, err);
}

int rules_nearest_moving_units(const rules_judge_input *in, rules_report *out, base_error *err)
{
    return rules_suggest_moves(in->before, in->after, &in->check, out, err);
}

int rules_nearest_reform_move(const rules_judge_input *in, rules_report *out, base_error *err)
{
    return rules_suggest_reform_moves(in->before, in->mid, in->after, &in->check, out, err);
}

int rules_nearest_none(const rules_judge_input *in, rules_report *out, base_error *err)
{
    (void)in, (void)out, (void)err;
    return 0;
}
