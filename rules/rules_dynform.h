/*
 * rules_dynform: Dynamic Formations (seed 002), a skirmish rule: groups of
 * at least 3 identical single models declared to move and act as one.
 *
 * A formation is declared in a snapshot ("formations" in JSON, rules_snapshot
 * .dynforms); each model's unit is its card, whose "profile" names the
 * model (identical models share it; cards without one compare by card id),
 * "control_area_in" is the Control Area radius about the base centre, and
 * "heroic" marks Heroes, Heroic Mounts and Heroic Beasts. Codes:
 *   DF-TOO-FEW      fewer than formation_min_models members (broken)
 *   DF-IDENTICAL    members are not identical models
 *   DF-HEROIC       a Hero or heroic mount/beast in a formation
 *   DF-COHESION     a declared member whose Control Area touches no other member's
 *   DF-WIDEN        members farther apart than formation_widen_max_mm (Widen limit)
 *   DF-EVEN-SPACING members not at the same distance from their nearest neighbour
 *   DF-MOVE         a formation moved farther than the Movement of its slowest member,
 *                   counting formation_adjust_cost_mm when it Tightened or Widened
 * Notes: models leaving (their Control Area no longer touching), a formation
 * broken below 3, the movement left after Moving into Formation (Sylvan
 * Knights), Combined Formations across cards, and a WILL Test needed by a
 * single model charging a formation of more models than its WILL (of as many,
 * when the ruleset's formation_will_test_at_equal follows the seed's example).
 * The formation's centre (used for ranged measurement) is a measurement.
 *
 * Movement: a card's "mobility_in" is its models' Movement (DEX in the seed).
 *
 * How to use:
 *   rules_dynform_check(before, after, &opt, &report, &err);   // before may equal after
 *   base_vec2 c; rules_dynform_centre(snapshot, &snapshot->dynforms[0], &c);
 */
#ifndef RULES_DYNFORM_H
#define RULES_DYNFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "rules_move.h"
#include "rules_report.h"
#include "rules_snapshot.h"

/* Centre of the members present in `s` (mean of base centres); -1 when none is. */
int rules_dynform_centre(const rules_snapshot *s, const rules_dynform_decl *f, base_vec2 *out);

/* Range for shooting: from the formation's centre to `target` (a point, e.g. another formation's centre). */
double rules_dynform_range(const rules_snapshot *s, const rules_dynform_decl *f, base_vec2 target);

/* Two models' Control Areas touch or overlap (within tol mm). */
bool rules_dynform_areas_touch(const rules_unit *ua, const rules_model *a, const rules_unit *ub,
                               const rules_model *b, double tol);

/* True when a single model of WILL `will` must pass a WILL Test to charge a formation of `n` models. */
bool rules_dynform_will_test(const rules_ruleset *rs, int will, size_t n);

/*
 * Judges the formations declared in `after` (or, when it declares none,
 * those of `before` as they now stand). Returns 0, or -1 for input that
 * cannot be judged (a member without Control Area).
 */
int rules_dynform_check(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt,
                        rules_report *out, base_error *err);

#endif
