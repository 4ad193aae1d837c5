/*
 * rules_rulebook: a move judged by the rules of its type: the judge and
 * the nearest legal move named by its row of the table of rules
 * (rules_moves.def). No list of move types and no switch on them: the rows
 * say which function judges which move, as curl's Curl_handler rows say
 * which functions speak which protocol. The referee library (referee/
 * ref_judge.h) judges every move through here.
 *
 * How to use:
 *   rules_judge_input in = {.before = b, .after = a, .robust = true, .jitter_mm = 2};
 *   rules_check_options_default(&in.check);
 *   in.check.move = RULES_MOVE_PURSUIT;  in.pursuit = &pursuers;   // what the rule needs
 *   if (rules_rulebook_judge(&in, &report, &err) < 0) ... err.msg ...
 *   if (rules_rulebook_suggest(&in, &report, &err) < 0) ...         // after the judge, same input
 *
 * The judges of the rules written before the table live here as thin
 * adapters of their modules' own calls (rules_move/rules_robust,
 * rules_reform, rules_combat, rules_pursuit, rules_dynform); a new rule
 * brings its own in its file pair (rules_rule.h).
 */
#ifndef RULES_RULEBOOK_H
#define RULES_RULEBOOK_H

#include "rules_rule.h"

/* Judges before -> after by the rules of in->check.move's row into `out`. 0, or -1 with err. */
int rules_rulebook_judge(const rules_judge_input *in, rules_report *out, base_error *err);
/* The nearest legal move of each ILLEGAL call in `out`, by the row's suggest function (none: 0). */
int rules_rulebook_suggest(const rules_judge_input *in, rules_report *out, base_error *err);

/* The judges and suggest functions of the rows written before the table (rules_moves.def names them). */
rules_judge_fn rules_rule_moving_units;   /* Advance, March, Reform, auto: rules_robust / rules_move */
rules_judge_fn rules_rule_reform_move;    /* rules_reform */
rules_judge_fn rules_rule_combat_reform;  /* rules_combat */
rules_judge_fn rules_rule_pursuit;        /* rules_pursuit */
rules_judge_fn rules_rule_formation;      /* rules_dynform */
rules_judge_fn rules_nearest_moving_units; /* rules_suggest_moves */
rules_judge_fn rules_nearest_reform_move;  /* rules_suggest_reform_moves */
rules_judge_fn rules_nearest_none;         /* the rule's violations say where the unit must end */

#endif
