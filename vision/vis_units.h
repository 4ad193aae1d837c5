/*
 * vis_units: units rebuilt from the models the camera placed, every unseen
 * model placed with an honest uncertainty, and no unit lost silently.
 *
 * From 1.4 m, figures lean over their neighbours' tags, so most frames lose
 * a good share of tags: inference is the normal path, not an edge case.
 * Per unit:
 *   1. models whose tag was read stand where they were read (`rough` ones,
 *      partly hidden tags, with a larger sigma);
 *   2. with a prior snapshot (the previous frame, when a tracker has one),
 *      an unseen model that was measured then is carried by the rigid
 *      motion its unit-mates made since, when they moved as a block;
 *   3. the rest are placed in the unit's formation fitted to the models
 *      above (vis_formation): every slot a seen model stands in is its own,
 *      whatever the roster's listing says, and every other placement the
 *      evidence allows (rear rank left, centred, right...) is written to
 *      the unit's `alternatives`; where an incomplete rear rank stands is
 *      looked at in the picture when the caller can (options.base_seen:
 *      vis_units_rear.h), the placements the picture contradicts last;
 *   4. a unit flagged `partial` (too little of it read to tell its
 *      formation) has only its measured models placed, the rest reported
 *      not seen, its placements marked incomplete;
 *   5. a unit with nothing seen keeps its prior positions when there is a
 *      prior, and is otherwise listed in the snapshot's `unseen` units and
 *      reported (VIS_ISSUE_UNIT_UNSEEN): never silently dropped.
 * Every model gets its evidence and sigma_mm (vis_uncert).
 *
 * How to use:
 *   vis_seen_model seen[map->n_models];      // .seen/.rough, .pos, .facing per roster model
 *   vis_uncert_source unc; vis_uncert_source_default(&unc, &calib, rep.pose_rms_px);
 *   vis_units_options o = {.uncert = &unc};
 *   rules_snapshot *s = NULL;
 *   vis_units_build_ex(map, seen, prior_or_NULL, &o, &s, &report, &err);
 *   ... rules_snapshot_free(s);
 * vis_units_build() is the same with default options (no camera: sigmas
 * from a nominal 0.5 mm per pixel).
 */
#ifndef VIS_UNITS_H
#define VIS_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "rules_snapshot.h"
#include "vis_report.h"
#include "roster_map.h"
#include "vis_uncert.h"

typedef struct vis_seen_model {
    bool seen;
    /* A tag read but with corners off its square (partly hidden): its
     * position is only good to a millimetre or so. Used when `seen` is
     * false, as evidence of the model's place and of its unit's grid. */
    bool rough;
    base_vec2 pos;      /* base centre, mm */
    double facing;       /* rad */
    double residual_mm;  /* rough: the corners' miss of a square on the board (0: not measured) */
    /* Its ID beyond doubt: decoded by the quad finder, or read by its pattern
     * past the one-read bar (vis_detect_config.one_read_*). A unit whose
     * formation cannot be told keeps only such models (vis_recover_confirm). */
    bool certain;
    /* Its tag was decoded more than once in the picture ("all copies ignored"): nothing read of its ID places it,
     * so the snapshot gives it as its unit's formation infers it, or not seen. */
    bool doubted;
    /* A tag decoded cleanly by the quad finder, measured for its height (vis_height.h): the plane it was
     * placed on (tag_z: the table's surface under its base plus its mount's height, vis_relief.h), its
     * size there against the roster's (size_ratio: 1 when it stands where the table says) and its edge in
     * the picture (edge_px). */
    bool sized;
    double tag_z, size_ratio, edge_px;
    /* Placed by a mast (vis_mast.h): its tag's height above the base (mark_height_mm; 0 for the base's own mark)
     * and how far its rod may lean it (sway_mm), added to the model's position sigma. */
    double mark_height_mm, sway_mm;
} vis_seen_model;

typedef struct vis_units_options {
    const vis_uncert_source *uncert;  /* NULL: vis_uncert_source_default(NULL, NAN) */
    size_t max_placements;            /* per unit; 0: VIS_FORMATION_MAX_PLACEMENTS */
    /* One flag per roster unit (NULL: none): a unit whose formation cannot be
     * told from the models read. Only its measured models are placed, where
     * they were measured; every other model is reported not seen and left
     * out, and the unit's placements are marked incomplete (no call may rest
     * on the models not placed: rules_robust.h). */
    const unsigned char *partial;
    /* What the picture shows of a base (NULL: nothing asked): true when a base carrying roster model `model`'s kind
     * of mark is seen standing at pos facing `facing` (vis_detect: its rim label's corner blocks). Tells where an
     * incomplete rear rank stands among the placements its models read allow (vis_units_rear.h). */
    bool (*base_seen)(void *ctx, size_t model, base_vec2 pos, double facing);
    /* The same, measuring (NULL: nothing asked): true and *at the seen base's centre (vis_detect: where its rim
     * label's corner blocks place it; its code not read). Where a unit's fit leaves its inferred places loose by
     * more than a millimetre, the bases seen at them pin its grid; the models stay inferred (vis_units_rear.h).
     * Used instead of base_seen at an incomplete rear rank's places when given. Called with base_seen_ctx. */
    bool (*base_at)(void *ctx, size_t model, base_vec2 pos, double facing, base_vec2 *at);
    /* Less than a base seen (NULL: nothing asked; vis_detect: one corner block, none contradicted): asked only to
     * break a tie between rear-rank placements the bases seen leave equal (vis_units_rear.h). With base_seen_ctx. */
    bool (*base_hint)(void *ctx, size_t model, base_vec2 pos, double facing);
    void *base_seen_ctx;
    /* An estimate to read around (vis_mast_read.h searches each mast within its carrier's sigma): an inferred
     * model's sigma is its own slot's in the likeliest placement, not widened to hold the places the other
     * placements give it (vis_units_rear_spread). Never for a snapshot a call may rest on. */
    bool likeliest_sigma;
} vis_units_options;

/* Builds *out (caller frees) from one entry per roster model. Returns 0 or -1. */
int vis_units_build(const roster_map *r, const vis_seen_model *seen, const rules_snapshot *prior,
                    rules_snapshot **out, vis_report *rep, base_error *err);
int vis_units_build_ex(const roster_map *r, const vis_seen_model *seen, const rules_snapshot *prior,
                       const vis_units_options *opt, rules_snapshot **out, vis_report *rep, base_error *err);

#endif
