/*
 * rules_visgraph: the shortest route of a single model's centre around
 * obstacles, kept at a clearance (Reform Move, seed 000: "measure the path
 * the model moves, including the path winding around obstacles").
 *
 * Each obstacle (a unit boundary, a base, impassable terrain) is replaced by
 * the convex hull of the polygon grown by the clearance (model radius plus
 * Unit Spacing). The growth is a polygon circumscribing the rounded
 * Minkowski sum (every vertex disc replaced by a 12-gon drawn around it), so
 * a route never comes closer than the clearance; at the corners it keeps at
 * most 3.5% of the clearance more than needed. Non-convex terrain is taken
 * by its convex hull (a route never cuts into a bay of it): conservative.
 *
 * The shortest route among convex obstacles bends only at their vertices,
 * touching each bend tangentially, so A* over start, end and the grown
 * vertices finds it exactly; edges are tested lazily, only from expanded
 * nodes and only where a shortest route can run: tangent at both ends and
 * wrapping around the obstacle it bends at (a bend the other way could be
 * cut short). The open set is a binary heap; closed nodes leave the list of
 * candidates, so each expansion looks at fewer nodes.
 *
 * A start or end point inside a grown obstacle (a model that begins a move
 * closer than the clearance, e.g. a large base beside another unit) may
 * leave or enter that obstacle straight; no other edge may cross it.
 *
 * How to use:
 *   rules_visgraph *g = rules_visgraph_new();
 *   rules_visgraph_reset(g, board_w, board_d);          // once per set of obstacles
 *   rules_visgraph_add_obstacle(g, corners, 4, clearance_mm);
 *   rules_route r = {0};
 *   if (rules_visgraph_route(g, from, to, &r) == 0) ... r.length_mm, r.points
 *   rules_route_clear(&r); rules_visgraph_free(g);
 * The graph can answer any number of routes between resets.
 */
#ifndef RULES_VISGRAPH_H
#define RULES_VISGRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"

typedef struct rules_visgraph rules_visgraph;

/* A route as a polyline; the caller owns the struct, the struct owns `points`. */
typedef struct rules_route {
    base_vec2 *points; /* from, bends..., to */
    size_t n_points, cap_points;
    double length_mm;   /* INFINITY when there is no route */
} rules_route;

/* NULL only when out of memory. */
rules_visgraph *rules_visgraph_new(void);
/* NULL is fine. */
void rules_visgraph_free(rules_visgraph *g);
/* Removes every obstacle. Bends must lie on the board [0, w] x [0, d]; w or d <= 0: no board limit. */
void rules_visgraph_reset(rules_visgraph *g, double board_w, double board_d);
/* Adds the hull of `poly` (n >= 1 points) grown by `clearance` mm (>= 0). -1 when out of memory. */
int rules_visgraph_add_obstacle(rules_visgraph *g, const base_vec2 *poly, size_t n, double clearance);
size_t rules_visgraph_obstacle_count(const rules_visgraph *g);
/*
 * For tests: `on` makes the search try every visible edge (the plain
 * visibility graph) instead of only the edges a shortest route can use
 * (tangent at both ends, wrapping around the obstacle it bends at).
 */
void rules_visgraph_set_exhaustive(rules_visgraph *g, bool on);

/*
 * Shortest route from `from` to `to`. Returns 0 with the route in `out`
 * (replacing its contents), 1 when none exists (out holds the straight
 * segment and length INFINITY), -1 when out of memory.
 */
int rules_visgraph_route(rules_visgraph *g, base_vec2 from, base_vec2 to, rules_route *out);

/* Appends `other` (whose first point equals out's last) to `out`, summing lengths. -1 when out of memory. */
int rules_route_append(rules_route *out, const rules_route *other);
/* Frees the points and empties the route. */
void rules_route_clear(rules_route *r);

#endif
