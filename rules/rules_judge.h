/*
 * rules_judge: one unit's move judged again and again for end positions
 * that are not on the table: the nearest legal move (rules_suggest), the
 * reach before a move (rules_reach), a "what if" from the overlay.
 *
 * It runs the very code of rules_move_check (Moving Units, seed 004): the
 * same move types, the same checks against the rest of the table. The rest
 * of the table is indexed once; each call only places the unit's models,
 * fits its formation and judges it, so a call costs about one unit's share
 * of a full check (a path search and a few neighbours).
 *
 * How to use:
 *   rules_judge *j = rules_judge_new(before, after, "spears", &opt, &err);  // after NULL: the table as it
 *                                                                          // stands (a move not made yet)
 *   base_vec2 pos[n]; double turn;
 *   rules_judge_place(j, pose, pos, &turn);       // the unit carried rigidly so its Front is at `pose`
 *   bool ok = rules_judge_legal(j, pos, turn, RULES_MOVE_MARCH);
 *   rules_unit_report ur; rules_judge_report(j, pos, turn, RULES_MOVE_MARCH, &ur, &err); ... clear
 *   rules_judge_free(j);
 * The snapshots must stay alive and unchanged while the judge is used.
 */
#ifndef RULES_JUDGE_H
#define RULES_JUDGE_H

#include <stdbool.h>

#include "rules_move.h"

typedef struct rules_judge rules_judge;

/*
 * A judge for unit `unit_id` of `before`, the other units standing as in
 * `after` (or as in `before` when after is NULL). `opt` (NULL: defaults) is
 * copied; its move and unit_id are ignored. NULL with `err` set when the
 * unit is unknown, has no models, or out of memory.
 */
rules_judge *rules_judge_new(const rules_snapshot *before, const rules_snapshot *after, const char *unit_id,
                             const rules_check_options *opt, base_error *err);
void rules_judge_free(rules_judge *j);

/* The unit before the move, its fitted formation, and the ruleset the judge applies. */
const rules_unit *rules_judge_unit(const rules_judge *j);
const rules_formation *rules_judge_formation(const rules_judge *j);
const rules_ruleset *rules_judge_ruleset(const rules_judge *j);
/* The unit's pose before the move: the centre of its Front Facing and its facing. */
rules_pose rules_judge_start(const rules_judge *j);

/*
 * The unit's models carried rigidly from where they stood before so that
 * the centre of the Front Facing is at `p` (facing p.heading): pos[k] for
 * model k of rules_judge_unit, and the turn of every facing.
 */
void rules_judge_place(const rules_judge *j, rules_pose p, base_vec2 *pos, double *turn);

/*
 * Judges the move ending with model k at pos[k], every facing turned by
 * `turn`, as `type` (ADVANCE, MARCH or REFORM; AUTO infers as a check does).
 * Fills `ur` (initialised here; the caller clears it). -1 when the unit's
 * profile lacks the rate the type needs, or out of memory.
 */
int rules_judge_report(rules_judge *j, const base_vec2 *pos, double turn, rules_move_type type,
                       rules_unit_report *ur, base_error *err);
/* The same, only whether the call is LEGAL (false also when it cannot be judged). */
bool rules_judge_legal(rules_judge *j, const base_vec2 *pos, double turn, rules_move_type type);

#endif
