/*
 * rules_reform: the Reform Move of the Mobility rules (seed 000), checked on
 * a before and an after snapshot, with an optional mid-move snapshot.
 *
 * A Reform Move lifts the unit and puts it back. We check:
 *   RM-CENTRE       the centre travels at most half the unit's Mobility
 *   RM-FILES        the number of files changes by at most max_file_change
 *   RM-RANKS-FILES  no more ranks than files unless a Proper Rank wide
 *   RM-FORMATION    the unit ends in a viable formation
 *   RM-MODEL-PATH   each model's own route, around other units and impassable
 *                   terrain kept at Unit Spacing (during a move), is at most
 *                   2 x Mobility; the unit's own models are ignored
 *   RM-NO-ROUTE     a model has no route at all (boxed in)
 *   RM-MID-FORMATION / RM-MID-SPACING  the mid-move placement (Sweeping
 *                   Attack, Dangerous Terrain Test) is a viable formation at
 *                   Unit Spacing; routes run start -> mid -> end
 *   RM-SPACING      the unit ends at Unit Spacing from other units and
 *                   impassable terrain
 *   RM-BOARD-EDGE   every model ends on the board
 *   RM-ELIGIBLE     the unit was not Charging, Engaged, Fleeing or Shaken
 * Each model's route is reported as a polyline (rules_unit_report.model_paths)
 * for the overlay, with its length.
 *
 * A model is a disc of its base's half-diagonal for routing (any facing fits
 * through the gap); other units are their Unit Boundaries in the before
 * snapshot (a model cannot slip between the ranks of another unit).
 *
 * How to use:
 *   rules_check_options opt; rules_check_options_default(&opt);
 *   rules_report r; rules_report_init(&r);
 *   rules_reform_check(before, NULL, after, &opt, &r, &err);   // mid may be NULL
 *   ... rules_report_clear(&r);
 */
#ifndef RULES_REFORM_H
#define RULES_REFORM_H

#include "base_error.h"
#include "rules_move.h"
#include "rules_report.h"
#include "rules_snapshot.h"
#include "rules_visgraph.h"

/*
 * Judges every unit that moved (or opt->unit_id) as a Reform Move. `mid`,
 * when non-NULL, is the table at the moment a model's position mattered
 * mid-move; units absent from it are measured start -> end. Returns 0, or
 * -1 for input that cannot be judged (no Mobility, unknown unit).
 */
int rules_reform_check(const rules_snapshot *before, const rules_snapshot *mid, const rules_snapshot *after,
                       const rules_check_options *opt, rules_report *out, base_error *err);

/*
 * Loads `g` with the obstacles a model of unit `self` walks around in `s`:
 * every other unit's boundary and every impassable terrain piece, grown by
 * `clearance` mm. `fits` holds s's fitted formations (one per unit).
 * Returns 0 or -1 when out of memory.
 */
int rules_reform_load_obstacles(rules_visgraph *g, const rules_snapshot *s, const rules_formation *fits,
                                const rules_unit *self, double clearance);

/* Half the diagonal of the unit's base: the radius a model needs to pass in any facing. */
double rules_reform_model_radius(const rules_unit *u);

#endif
