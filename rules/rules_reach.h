/*
 * rules_reach: where a unit can legally end, before it moves.
 *
 * For a March or an Advance of one unit on the table as it stands, for each
 * end facing (every `facing_step` from the start facing, as far as any
 * legal end exists each way), the reach is the set of legal end positions
 * with that facing. It is found column by column across the facing: for
 * each lateral offset of the Front Facing's centre (every `lateral_step`),
 * the farthest and the nearest legal position along the facing, each to
 * 0.1 mm, judged by the check's own code (rules_judge) with the limits taken
 * exactly. Those are the samples; the envelope of the Front Facing is the
 * outline of every front edge the samples allow (far side, then near side),
 * a closed polyline in board mm that the overlay draws.
 *
 * It also names the largest legal wheel each way: one wheel from the start
 * about the left (right) front corner, every smaller wheel legal too.
 *
 * Limits: the columns follow the outline from a legal seed (a single wheel
 * to the facing, or forward then wheel), so a legal pocket cut off from it
 * (beyond an obstacle) is not drawn, and a sliver narrower than the search
 * step (about 5 mm) can be missed; every sample returned is legal.
 *
 * How to use (the overlay draws the reach from this struct; it is stable):
 *   rules_reach_options o; rules_reach_options_default(&o);
 *   rules_reach r;
 *   if (rules_reach_compute(table, "spears", RULES_MOVE_MARCH, &o, &r, &err) < 0) ...
 *   for (size_t i = 0; i < r.n_facings; i++) {
 *       const rules_reach_facing *f = &r.facings[i];
 *       // the envelope: a closed polyline, board mm (docs/formats.md, "Reach")
 *       draw_polygon(f->envelope, f->n_envelope);
 *       // a whole unit at one sampled end (e.g. the farthest straight on):
 *       base_obb b = rules_reach_boundary(&r, f->far[k]);   // k < f->n_columns
 *       base_vec2 c[4]; base_obb_corners(&b, c);
 *   }
 *   r.wheel_left.angle_rad / r.wheel_right.angle_rad: the largest single wheel each way
 *   (about the left / right front corner of r.start), r.wheel_*.distance_mm what it counts for
 *   rules_reach_clear(&r);
 * Everything is in board mm and radians (docs/formats.md, "Board
 * coordinates"); a pose is the centre of the Front Facing and the facing.
 */
#ifndef RULES_REACH_H
#define RULES_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "rules_move.h"

typedef struct rules_reach_options {
    double facing_step_rad;   /* between end facings (default 15 degrees) */
    double lateral_step_mm;   /* between columns across the facing (default 5 mm) */
    rules_check_options check;/* tolerances of the check; its limit tolerance is not used (limits are exact) */
} rules_reach_options;

void rules_reach_options_default(rules_reach_options *o);

/* The legal ends with one end facing. */
typedef struct rules_reach_facing {
    double heading;           /* the end facing, rad */
    double turn;              /* heading minus the start facing, counter-clockwise positive */
    rules_pose *far, *near;   /* per column: the farthest and nearest legal pose (centre of the Front Facing) */
    size_t n_columns;
    base_vec2 *envelope;     /* closed outline of the front edges the samples allow, board mm */
    size_t n_envelope;
} rules_reach_facing;

/* The largest legal single wheel from the start, one way. */
typedef struct rules_reach_wheel {
    double angle_rad;         /* >= 0 */
    double distance_mm;       /* what it counts for (the outer front corner's arc, or chord by ruleset) */
} rules_reach_wheel;

typedef struct rules_reach {
    char unit_id[RULES_ID_MAX];
    rules_move_type move;
    double rate_mm;
    rules_pose start;
    double front_width_mm, depth_mm;
    rules_reach_wheel wheel_left, wheel_right;
    double facing_step_rad, lateral_step_mm;
    rules_reach_facing *facings;  /* by turn, rightmost (most negative) first */
    size_t n_facings;
} rules_reach;

/*
 * The reach of unit `unit_id` of `table` for `move`, a row flagged
 * RULES_MOVE_REACH (rules_moves.def: Advance, March; such a row names the
 * profile rate that limits it). `o` may be NULL (defaults). Returns 0 with `out` filled
 * (free with rules_reach_clear), or -1 with err (unknown unit, a profile
 * without the rate, a move type without a reach, out of memory).
 */
int rules_reach_compute(const rules_snapshot *table, const char *unit_id, rules_move_type move,
                        const rules_reach_options *o, rules_reach *out, base_error *err);
void rules_reach_clear(rules_reach *r);

/* The unit boundary (front_width_mm x depth_mm) whose Front Facing is centred at `front`. */
base_obb rules_reach_boundary(const rules_reach *r, rules_pose front);

/* The reach as JSON (docs/formats.md, "Reach"); caller frees with cJSON_Delete. */
cJSON *rules_reach_to_json(const rules_reach *r);
/* A short readable summary in inches and degrees. */
void rules_reach_print(const rules_reach *r, FILE *out);

#endif
