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
 *   vis_formation_model m[n];   // .evidence, .pos, .facing for those seen; .roster_file/_rank for all
 *   vis_formation_input in = {.n_models = n, .models = m, .base_width = 25, .base_depth = 25,
 *                             .files_hint = {prior_files, roster_files}};
 *   vis_formation_result res;
 *   if (vis_formation_infer(&in, &res) < 0) -> out of memory
 *   if (res.n_placements) ... res.placements[0].models[k].pos ...
 *   vis_formation_result_clear(&res);
 */
#ifndef VIS_FORMATION_H
#define VIS_FORMATION_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"
#include "rules_snapshot.h"

typedef enum vis_formation_evidence {
    VIS_FORMATION_NONE = 0,  /* not seen: to be placed */
    VIS_FORMATION_SEEN,      /* tag read cleanly */
    VIS_FORMATION_ROUGH,     /* tag read partly hidden */
    VIS_FORMATION_PRIOR,     /* not seen now: its earlier position carried with its unit's motion */
} vis_formation_evidence;

typedef struct vis_formation_model {
    vis_formation_evidence evidence;
    base_vec2 pos;                 /* base centre, mm (evidence != NONE) */
    double facing;                  /* rad */
    int roster_file, roster_rank;   /* the roster's listing slot */
} vis_formation_model;

typedef struct vis_formation_input {
    size_t n_models;
    const vis_formation_model *models;
    double base_width, base_depth;  /* mm */
    int files_hint[2];              /* widths to try first (prior, roster); 0 = none */
    size_t max_placements;          /* 0: VIS_FORMATION_MAX_PLACEMENTS */
} vis_formation_input;

#define VIS_FORMATION_MAX_PLACEMENTS 16

typedef struct vis_formation_grid {
    double heading;                 /* rad */
    double pitch_across, pitch_along;  /* mm, measured (base size when not measurable) */
    int files, ranks, rear_models;
    double residual_mm;             /* RMS distance of the fitted models from their slots */
    int fitted_models;              /* models the grid was fitted to */
} vis_formation_grid;

/* Where one model stands in one placement. */
typedef struct vis_formation_place {
    base_vec2 pos;
    double facing;
    bool placed;       /* false: no free slot was left for it (the evidence disagrees with the roster) */
    bool inferred;     /* placed in a slot, not measured */
    double fit_mm;     /* inferred: how well the fit pins its slot (1 sigma, mm) */
    int file, rank;    /* its slot (file may be x.5 in the rear rank: see offset) */
    double offset;
} vis_formation_place;

typedef struct vis_formation_placement {
    char label[RULES_LABEL_MAX];       /* e.g. "rear rank centred" */
    vis_formation_place *models;       /* n_models, in input order */
    base_frame frame;                 /* origin at the front-left slot, heading = facing */
} vis_formation_placement;

typedef struct vis_formation_result {
    vis_formation_grid grid;
    vis_formation_placement *placements;  /* [0] the likeliest; none when nothing was seen */
    size_t n_placements;
    size_t n_possible;                 /* placements the evidence allows (>= n_placements) */
    bool understood;                   /* false: the seen models fit no formation of this many models */
} vis_formation_result;

/* Returns 0, or -1 when out of memory. With no evidence at all, res has no placements. */
int vis_formation_infer(const vis_formation_input *in, vis_formation_result *res);
void vis_formation_result_clear(vis_formation_result *res);

#endif
