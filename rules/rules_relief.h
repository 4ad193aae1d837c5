/*
 * rules_relief: the height of the table's surface, from its terrain's relief
 * (rules_snapshot.h, rules_terrain.relief). A hill is flat-topped: a point
 * on its top (`points`) stands at its `height_mm`; a point between its top
 * and its foot (`foot`, when given) on its sloped side stands at the height
 * interpolated between the two outlines (d_foot / (d_foot + d_top) of the
 * top's height, d the distance to each outline); a point beyond stands on
 * what else is there, the board (0) at last. Stacked pieces (a stepped
 * plateau given as two hills) take the highest. Buildings are not stood on
 * and count for nothing here.
 *
 * The rules measure on the board, seen from above (docs/rules.md,
 * "Relief"): this module tells where things stand in height so that the
 * camera, the overlay and the projector can find them; no distance of the
 * rules uses it.
 *
 * How to use:
 *   double sigma;
 *   double h = rules_relief_height(snap->terrain, snap->n_terrain, model->pos, &sigma);  // mm, +/- sigma
 *   double top = rules_relief_top(snap->terrain, snap->n_terrain);                      // 0 on a flat table
 */
#ifndef RULES_RELIEF_H
#define RULES_RELIEF_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"
#include "rules_snapshot.h"

/* One sigma of a height a table file states without one (measured with a ruler). */
#define RULES_RELIEF_DEFAULT_SIGMA_MM 1.0

/* The surface's height at p (mm, >= 0); *sigma_mm (optional) its 1 sigma (0 on the board). */
double rules_relief_height(const rules_terrain *t, size_t n, base_vec2 p, double *sigma_mm);
/* The height at p of piece t alone: its top's inside it, its slope's between foot and top, else -1. */
double rules_relief_piece_height(const rules_terrain *t, base_vec2 p);
/* The highest surface anything stands on (0 without hills). */
double rules_relief_top(const rules_terrain *t, size_t n);
/* Does any piece raise the surface (a hill)? */
bool rules_relief_any(const rules_terrain *t, size_t n);
/* A piece's height sigma: its stated one, else RULES_RELIEF_DEFAULT_SIGMA_MM. */
double rules_relief_sigma(const rules_terrain *t);

#endif
