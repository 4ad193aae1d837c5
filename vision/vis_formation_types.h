/*
 * vis_formation_types: what a formation problem and its answer are (the
 * models' evidence, the input, the fitted grid, the placements), shared by
 * vis_formation (which infers a unit's placements) and vis_formation_fit
 * (the grid fit it calls), so that the fit needs nothing of its caller.
 *
 * How to use: include vis_formation.h to infer a formation; this header
 * alone to read one (vis_formation_input, vis_formation_result).
 */
#ifndef VIS_FORMATION_TYPES_H
#define VIS_FORMATION_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"
#include "rules_snapshot.h"

typedef enum vis_formation_evidence {
    VIS_FORMATION_NONE = 0,  /* not seen: to be placed */
    VIS_FORMATION_SEEN,      /* tag read cleanly */
    VIS_FORMATION_ROUGH,     /* tag read partly hidden */
    VIS_FORMATION_PRIOR,     /* not seen now: its earlier position carried with its unit's motion */
    VIS_FORMATION_LOCATED,   /* its base's centre located (a mark's corners), its ID and facing not read */
} vis_formation_evidence;

typedef struct vis_formation_model {
    vis_formation_evidence evidence;
    base_vec2 pos;                 /* base centre, mm (evidence != NONE) */
    double facing;                  /* rad */
    int roster_file, roster_rank;   /* the roster's listing slot */
    double sway_mm;                 /* how far its place may stand off its base beyond the mark's error (a mast's
                                       rod), mm; 0 for a mark on the base */
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
    double pitch_across, pitch_along;  /* mm, measured (the base plus 0.5 mm when not measurable) */
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

#endif
