/*
 * rules_path: the shortest sequence of forward moves and wheels that takes
 * a unit from one pose to another.
 *
 * A wheel turns the unit about one of its front corners; its distance is the
 * outer front corner's arc (or, by ruleset option, its chord). The camera
 * sees only the start and end poses, so we solve for the cheapest path.
 *
 * Why this is exact: track the centre of the Front Facing. Moving forward
 * moves it straight; a wheel moves it on a circle of radius W/2 (W = front
 * width) at a cost of W per radian, i.e. twice its own arc length. Any path
 * is then a curve of curvature at most 2/W costing (length + W/2 * total
 * turning). Pontryagin's principle makes optimal curves bang-bang: arcs of
 * the tightest radius and straights, the same candidate words as Dubins'
 * car (LSL, RSR, LSR, RSL, LRL, RLR). We solve each word in closed form,
 * verify it by simulation, and keep the cheapest. Tests compare against a
 * brute-force search.
 *
 * How to use:
 *   rules_path p;
 *   rules_path_forward_wheels(start, end, front_width_mm, ruleset, &p);
 *   p.length_mm is the distance moved; p.steps says how.
 */
#ifndef RULES_PATH_H
#define RULES_PATH_H

#include <stddef.h>

#include "base_geom.h"
#include "rules_ruleset.h"

typedef enum rules_step_kind {
    RULES_STEP_FORWARD = 0,
    RULES_STEP_WHEEL_LEFT,  /* about the left front corner: the unit turns left */
    RULES_STEP_WHEEL_RIGHT, /* about the right front corner: the unit turns right */
    RULES_STEP_BACKWARD,
    RULES_STEP_SIDEWAYS_LEFT,
    RULES_STEP_SIDEWAYS_RIGHT,
    RULES_STEP_PIVOT,       /* single-model units: free turn on the spot */
} rules_step_kind;

typedef struct rules_step {
    rules_step_kind kind;
    double length_mm; /* distance this step counts for (wheels: by the ruleset's measure) */
    double angle_rad; /* wheels and pivots: signed turn, counter-clockwise positive */
} rules_step;

#define RULES_PATH_MAX_STEPS 8

typedef struct rules_path {
    rules_step steps[RULES_PATH_MAX_STEPS];
    size_t n_steps;
    double length_mm; /* sum of the steps' lengths */
} rules_path;

/* A unit pose: the centre of its Front Facing and its facing. */
typedef struct rules_pose {
    base_vec2 front_centre;
    double heading;
} rules_pose;

/*
 * Shortest forward-and-wheels path from `from` to `to` for a unit whose
 * front is `front_width` mm wide. Always succeeds for front_width > 0.
 */
void rules_path_forward_wheels(rules_pose from, rules_pose to, double front_width, const rules_ruleset *rs,
                               rules_path *out);

/* A single model: pivot, straight line, pivot. The length is the straight line. */
void rules_path_single_model(base_vec2 from, double from_facing, base_vec2 to, double to_facing,
                             rules_path *out);

/* The distance a wheel of `angle` (either sign) counts for, front `width` wide, by the ruleset's measure. */
double rules_path_wheel_cost(double angle, double width, const rules_ruleset *rs);

/* Pose after applying `step` (lengths as moved, not as counted) for a unit of front width W. */
rules_pose rules_path_apply_step(rules_pose p, const rules_step *step, double front_width);
/* Pose after the whole path (steps applied in order). */
rules_pose rules_path_apply(rules_pose p, const rules_path *path, double front_width);

/* "forward 3.00\"", "wheel 2.10\" about the left front corner", ... */
void rules_step_describe(const rules_step *step, char *buf, size_t cap);
/* Stable machine word for a step kind: "forward", "wheel_left", ... */
const char *rules_step_word(rules_step_kind kind);

#endif
