/*
 * rules_formation: a unit's formation rebuilt from its model positions.
 *
 * Ranks run across the width, files along the depth; every rank is as wide
 * as the front one except the last, which may be shorter (and may sit
 * anywhere along the rank on half-base steps, e.g. centred). The unit
 * boundary is the rectangle spanned by the front rank's width and the full
 * depth, the incomplete rear rank included; the centre is its centre
 * (docs/rules.md records this as our decision: no published source).
 *
 * Jitter: a camera places each base to a few tenths of a millimetre, a hand
 * leaves gaps of a millimetre or two. The fit estimates the spacing between
 * models (pitch) from the data, so gaps do not accumulate, and accepts a
 * model within `position_tolerance_mm` (default 4 mm) of its slot and within
 * `facing_tolerance_rad` (default 5 degrees) of the unit's facing.
 *
 * How to use:
 *   rules_formation f;
 *   rules_formation_fit(unit, NULL, &f, NULL);   // NULL: default tolerances
 *   if (f.issues) ... ; use f.files, f.ranks, f.boundary, f.centre
 */
#ifndef RULES_FORMATION_H
#define RULES_FORMATION_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"
#include "rules_arcs.h"
#include "rules_snapshot.h"

typedef struct rules_formation_params {
    double position_tolerance_mm;
    double facing_tolerance_rad;
} rules_formation_params;

#define RULES_FORMATION_POSITION_TOLERANCE_MM 4.0
#define RULES_FORMATION_FACING_TOLERANCE_RAD (5.0 * BASE_PI / 180.0)

/* Problems found while fitting; 0 means a regular, legal block. */
enum {
    RULES_FORMATION_MIXED_FACING = 1u << 0, /* a model faces away from the unit's facing */
    RULES_FORMATION_OFF_GRID = 1u << 1,     /* a model is not in line with its rank or file */
    RULES_FORMATION_GAP = 1u << 2,          /* an empty place in a rank other than the last */
    RULES_FORMATION_STACKED = 1u << 3,      /* two models in one place */
    RULES_FORMATION_OVERLAP = 1u << 4,      /* bases overlap (pitch smaller than the base) */
};

/* Where one model sits in the fitted formation. */
typedef struct rules_slot {
    int file;            /* 0 = leftmost file, seen from behind the unit */
    int rank;            /* 0 = front rank */
    double offset;       /* last rank only: extra shift across, in pitches (0 or 0.5 steps) */
    double residual_mm;  /* distance from the ideal slot position */
} rules_slot;

typedef struct rules_formation {
    unsigned issues;         /* RULES_FORMATION_* */
    double heading;          /* unit facing, rad */
    int files;               /* width of the front rank, in models */
    int ranks;               /* number of ranks */
    int rear_rank_models;    /* models in the last rank (== files when it is complete) */
    double pitch_across;     /* measured centre-to-centre spacing along a rank, mm */
    double pitch_along;      /* measured spacing between ranks, mm */
    base_obb boundary;      /* the unit boundary */
    base_vec2 centre;       /* the boundary's centre */
    base_vec2 front_centre; /* centre of the Front Facing */
    double max_residual_mm;  /* worst model's distance from its slot */
    size_t worst_model;      /* its index in the unit */
    base_frame frame;       /* local frame: origin at the front-left slot, heading = facing */
} rules_formation;

/*
 * Fits the formation of `u`. `params` may be NULL for the defaults. `slots`,
 * when non-NULL, receives u->n_models entries, one per model in order.
 * Returns 0, or -1 when the unit has no models.
 */
int rules_formation_fit(const rules_unit *u, const rules_formation_params *params, rules_formation *out,
                        rules_slot *slots);

/* Board position of a slot's model centre in a fitted formation. */
base_vec2 rules_formation_slot_position(const rules_formation *f, int file, int rank, double offset);

/* The formation's arcs containing point p (see rules_obb_arcs_of). */
unsigned rules_formation_arcs_of(const rules_formation *f, base_vec2 p, double tol_mm);

/*
 * The inverse of a fit: appends `n_models` models to `u` in a regular block
 * `files` wide whose Front Facing is centred on `front_centre`, facing
 * `heading`, bases touching. Models are named "<unit id>-<k>" (k from 1),
 * front rank first, left to right; an incomplete last rank is centred
 * (on half-base steps). Returns 0, or -1 when out of memory.
 */
int rules_formation_place(rules_unit *u, base_vec2 front_centre, double heading, int files, int n_models);

/*
 * The Proper (Full) Rank width of unit `u` under ruleset `rs`: by its Height
 * class (glossary: Height 0-2 five models, 3-4 three, 5 one), or the
 * ruleset's standard width when the snapshot gives no Height.
 */
int rules_formation_proper_rank(const rules_ruleset *rs, const rules_unit *u);
/* Whether formation f of unit u breaks the ruleset's "no more ranks than files" rule (ranks_at_most_files):
 * more ranks than files and narrower than a Proper Rank (*proper: that width, when not NULL). */
bool rules_formation_too_deep(const rules_ruleset *rs, const rules_unit *u, const rules_formation *f, int *proper);
/* "standard", "large" or "gigantic" for the unit's Height class; "" when unknown. */
const char *rules_formation_height_class(const rules_ruleset *rs, const rules_unit *u);

/* One-line description of issues, e.g. "a model is out of line (7.1 mm)". */
void rules_formation_describe(const rules_formation *f, const rules_unit *u, char *buf, size_t cap);

#endif
