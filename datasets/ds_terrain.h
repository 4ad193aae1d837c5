/*
 * ds_terrain: the table's terrain drawn into ds_render's canvas
 * (ds_canvas.h): flat pieces as coloured patches on the board, and relief
 * as solids: a hill (rules_relief.h) as its flat top at its height and its
 * sides down to its foot (sheer without one), a building likewise with
 * sheer sides; sides far from the camera first, then the tops. Internal to
 * datasets/.
 *
 * The renderer draws in painter's order: the board and the flat terrain,
 * what stands on the board (bases, tags, figures), then the relief, then
 * what stands on the relief, then hands. So a hill hides what stands behind
 * it on the board, never what stands on it; ds_terrain_hides says which
 * board points a piece hides from the camera (the truth's occlusion).
 *
 * How to use (ds_render.c):
 *   ds_terrain_draw_flat(&canvas, snap, p, &rng);
 *   ... what stands on the board ...
 *   ds_terrain_draw_relief(&canvas, snap, p);
 *   ... what stands on the relief (ds_terrain_height under each base) ...
 */
#ifndef DS_TERRAIN_H
#define DS_TERRAIN_H

#include <stdbool.h>

#include "ds_canvas.h"

/* Flat pieces (relief "flat"): their own colour; scattered tufts when textured. */
int ds_terrain_draw_flat(ds_canvas *c, const rules_snapshot *snap, const ds_render_params *p, ds_rng *r);
/* Hills and buildings as solids. */
int ds_terrain_draw_relief(ds_canvas *c, const rules_snapshot *snap, const ds_render_params *p);
/* The height of what a model stands on at p (the board or a hill: rules_relief_height). */
double ds_terrain_height(const rules_snapshot *snap, base_vec2 p);
/* Does any piece of relief stand between the camera and board point X (z up)? */
bool ds_terrain_hides(const ds_canvas *c, const rules_snapshot *snap, const double X[3]);
/*
 * Is a base at p, `above_mm` tall, drawn with the relief (after it: on a hill's top or a slope the camera
 * sees) rather than with the board (before it: on the board, or on a far slope the hill itself hides)?
 */
bool ds_terrain_drawn_raised(const ds_canvas *c, const rules_snapshot *snap, base_vec2 p, double above_mm);
/* The same for the heights picture's pixel fill (ds_render_heights): each hill's top and sides at their heights,
 * `value` per mm of height. */
int ds_terrain_fill_heights(ds_canvas *c, const rules_snapshot *snap, double step_mm);

#endif
