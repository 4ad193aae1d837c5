/*
 * vis_formation: one unit's formation rebuilt from the models the camera
 * actually placed, with every placement of the unseen ones that the
 * evidence allows.
 *
 * The grid (facing, pitch across, pitch along, front-left slot) is fitted
 * to the models seen: facing from their tags, ranks and files by walking
 * neighbours (each step counts as round(step / pitch) places, so gaps
 * between bases never add up), pitches measured from neighbours, origin by
 * least squares. Seen models take the slot where they stand, never the one
 * the roster's listing order gives them.
 *
 * The evidence rarely pins everything. What it may leave open, each kept
 * as a placement (hypothesis):
 *   - where an incomplete rear rank sits (left, centred, right, on half-base
 *     steps; with gaps when the rank-mates read leave no contiguous way),
 *     as far as the rear models that were read allow;
 *   - which file (rank) a block sits in when a whole edge file (front rank)
 *     was not read.
 * The width is the first of the hints (the prior frame's, then the
 * roster's) the evidence allows, else the narrowest it allows.
 * Placements are ordered, likeliest first: most seen models in their
 * roster slot (a weak tie-break: real listings are often in another order),
 * then the rear rank nearest the centre (what players do), then the least
 * shift. Unseen models fill the free slots in listing order (front rank
 * first, left to right); rules_robust re-pairs their identities between two
 * frames, so this order never decides a call.
 *
 * How to use:
 *   vis_formation_model m[n];   // .evidence, .pos, .facing (.sway_mm: a mast's) for those seen, .pos for those
 *                               // located (VIS_FORMATION_LOCATED: a base's centre, its mark not read);
 *                               // .roster_file/_rank for all
 *   vis_formation_input in = {.n_models = n, .models = m, .base_width = 25, .base_depth = 25,
 *                             .files_hint = {prior_files, roster_files}};
 *   vis_formation_result res;
 *   if (vis_formation_infer(&in, &res) < 0) -> out of memory
 *   if (res.n_placements) ... res.placements[0].models[k].pos ...
 *   vis_formation_result_clear(&res);
 */
#ifndef VIS_FORMATION_H
#define VIS_FORMATION_H

#include "vis_formation_types.h"

/* Returns 0, or -1 when out of memory. With no evidence at all, res has no placements. */
int vis_formation_infer(const vis_formation_input *in, vis_formation_result *res);
void vis_formation_result_clear(vis_formation_result *res);

#endif
