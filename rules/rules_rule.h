/*
 * rules_rule: what a rule's judge is given and gives back, the signature
 * of the `judge` and `suggest` columns of the table of rules
 * (rules_moves.def). A header of types only: a rule's file pair includes
 * it, and rules_rulebook (which calls the rows' functions) stands above
 * every rule.
 *
 * How to use, writing a rule (docs/rules.md, "Adding a rule"):
 *   int rules_rule_charge(const rules_judge_input *in, rules_report *out, base_error *err)
 *   {
 *       rules_report_begin(out, in->before, in->after);
 *       ... for each unit that moved: rules_unit_report_init(&ur, id, side, RULES_MOVE_CHARGE, true);
 *           add its violations, rules_report_take_unit(out, &ur) ...
 *       return 0;   // or -1 with err naming the unit and the field (the report is then cleared)
 *   }
 * and its row in rules_moves.def names rules_rule_charge. A suggest
 * function has the same signature: it fills the `suggestion` of each
 * ILLEGAL call of `out` (rules_report.h).
 */
#ifndef RULES_RULE_H
#define RULES_RULE_H

#include <stdbool.h>

#include "base_error.h"
#include "rules_move.h"
#include "rules_report.h"
#include "rules_snapshot.h"

struct rules_combat_options;
struct rules_pursuit_input;

/* Everything a judge may need: the two snapshots and what the options named. */
typedef struct rules_judge_input {
    const rules_snapshot *before, *after;
    const rules_snapshot *mid;                  /* the table mid-move (Reform Move), may be NULL */
    rules_check_options check;                  /* the move type, one unit, the tolerances (rules_move.h) */
    bool robust;                                /* under every placement the evidence allows (rules_robust.h) */
    double jitter_mm;                           /* robust: a unit moved less than this did not move */
    const struct rules_combat_options *combat;  /* Combat Reform: who lost, who reforms (rules_combat.h) */
    const struct rules_pursuit_input *pursuit;  /* Pursuit: pursuers and direction (rules_pursuit.h) */
} rules_judge_input;

/* A rule's judge (or its nearest legal move): 0, or -1 with err for input it cannot judge. */
typedef int rules_judge_fn(const rules_judge_input *in, rules_report *out, base_error *err);

#endif
