/*
 * rules_suggest: the nearest legal move, for every ILLEGAL call of a Moving
 * Units check (seed 004: Advance, March, Reform) and of a Reform Move check
 * (seed 000). A Pursuit's is its prediction (rules_pursuit fills it).
 *
 * What "nearest" means (docs/rules.md, "The nearest legal move"): the
 * distance between the player's end position M and a candidate S is the
 * farthest any one model must be moved to go from M to S, max_k |S_k - M_k|.
 * Candidates are end positions of the same move type (declared, or the one
 * the check inferred) that keep the formation: an Advance or March carries
 * the block as it stood before the move; a Reform or Reform Move keeps the
 * formation the player made (each model in its fitted slot). The suggestion is the legal
 * candidate with the smallest distance the search finds, judged by the very
 * code of the check with the limits taken exactly (no 0.5 mm allowance), so
 * the check with its allowance finds it legal too.
 *
 * The search: seeds on the player's own path cut short, on the straight
 * line back to the start and at the start; a pattern search on the end
 * pose (position and facing) from the best of them; then a bisection
 * towards the player's position, so that a step of 0.01 mm further that way
 * is illegal. It is a local search: with several obstacles around, a
 * farther-off legal pocket can be closer than the one it finds.
 *
 * A unit that may not move at all (Charging, Engaged, Fleeing, Shaken) is
 * told to go back where it started.
 *
 * How to use:
 *   rules_move_check(before, after, &opt, &report, &err);
 *   rules_suggest_moves(before, after, &opt, &report, &err);  // fills report.units[i].suggestion
 *   rules_snapshot *fixed = rules_suggest_apply(after, &report); // tableref check --suggest OUT.json
 */
#ifndef RULES_SUGGEST_H
#define RULES_SUGGEST_H

#include "rules_move.h"

/*
 * Suggestions for every ILLEGAL unit of `r` (made by rules_move_check on
 * before/after with `opt`). Each is searched with the earlier suggestions
 * already in place, so that together they are legal; the result is then
 * checked by rules_move_check, and a suggestion that did not hold would be
 * dropped (its text says so). 0, or -1 with err (out of memory).
 */
int rules_suggest_moves(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt,
                        rules_report *r, base_error *err);

/* The search for one unit, as `type` (ADVANCE, MARCH or REFORM), against the table as it stands in `after`. */
int rules_suggest_unit(const rules_snapshot *before, const rules_snapshot *after, const char *unit_id,
                       rules_move_type type, const rules_check_options *opt, rules_suggestion *out,
                       base_error *err);

/*
 * The same for the ILLEGAL calls of a Reform Move check (seed 000; `r` made
 * by rules_reform_check on before/mid/after with `opt`): the player's new
 * formation, moved and turned as a block, judged by rules_reform_check.
 */
int rules_suggest_reform_moves(const rules_snapshot *before, const rules_snapshot *mid, const rules_snapshot *after,
                               const rules_check_options *opt, rules_report *r, base_error *err);
/* The search for one unit's Reform Move against the table as it stands in `after`. */
int rules_suggest_reform_move(const rules_snapshot *before, const rules_snapshot *mid, const rules_snapshot *after,
                              const char *unit_id, const rules_check_options *opt, rules_suggestion *out,
                              base_error *err);

/*
 * A copy of `after` with every found suggestion of an ILLEGAL call of `r`
 * applied (models moved, or the unit taken off the table). A suggested
 * position is a prescription, not a measurement: its models are written as
 * seen and exact (no sigma), and the unit's alternative placements (which
 * were of where the player put it) are dropped. NULL when out of memory.
 */
rules_snapshot *rules_suggest_apply(const rules_snapshot *after, const rules_report *r);

#endif
