/*
 * bench_facing: the facing and single-model figures of `tableref bench
 * vision` (issue 19 part 4), beside ds_score's headline:
 *   - facing of the models placed within 5 mm from their own tag (evidence
 *     seen or rough, not inferred): p99 and max, degrees;
 *   - a unit's facing: its fitted formation's heading (rules_formation_fit,
 *     all its placed models together) against the true unit's, for every
 *     unit with a model placed: p99 and max;
 *   - units of one model (a character, a chariot, a monster) in view: how
 *     many placed within 5 mm, of all and of those no hand hides.
 * Frames add up.
 *
 * How to use:
 *   bf_facing f = {0};
 *   bf_facing_add(&f, truth_snapshot, &truth, detected);   // per frame
 *   bf_facing_print(stdout, "hard set", &f);
 *   bf_facing_clear(&f);
 */
#ifndef BENCH_FACING_H
#define BENCH_FACING_H

#include <stddef.h>
#include <stdio.h>

#include "ds_render.h"
#include "rules_snapshot.h"

typedef struct bf_facing {
    double *tag_deg;      /* per model placed within 5 mm from its own tag: |facing error| */
    size_t n_tag, cap_tag;
    double *unit_deg;     /* per unit with a model placed: |its formation's heading error| */
    size_t n_unit, cap_unit;
    size_t single, single_placed, single_free, single_free_placed;
} bf_facing;

/* Adds one frame. `detected` may be NULL (nothing placed). */
void bf_facing_add(bf_facing *f, const rules_snapshot *truth_snap, const ds_truth *truth,
                   const rules_snapshot *detected);
void bf_facing_print(FILE *out, const char *label, const bf_facing *f);
void bf_facing_clear(bf_facing *f);

#endif
