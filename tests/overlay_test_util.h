/*
 * overlay_test_util: what the overlay suites share. The demo turn judged
 * from its ground truth, a crowded board (the vision bench's 250 models,
 * moved and judged), and the geometric check of a drawn picture's labels.
 */
#ifndef OVERLAY_TEST_UTIL_H
#define OVERLAY_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "calib_file.h"
#include "ov_draw.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct ot_turn {
    rules_snapshot *before, *after;
    rules_report report;
    calib_file calib;   /* the camera that saw it */
    int width, height;  /* its frames */
} ot_turn;

/* datasets/demo: the true snapshots, judged robustly, with the nearest legal move of the ILLEGAL march, and the
 * demo camera. */
void ot_demo_turn(ot_turn *t);
/* ds_gen_params_bench's board (25 units of 10 models, 1500 x 1100 mm): every unit moved forward 3-11"
 * (some wheeling), judged; the bench camera (4056 x 3040). */
void ot_crowded_turn(ot_turn *t);
void ot_turn_clear(ot_turn *t);

typedef struct ot_geometry {
    size_t labels, numbers, centres_checked;
    size_t label_overlaps;     /* pairs of labels that overlap */
    size_t label_on_number;    /* label-number pairs that overlap */
    size_t label_on_centre;    /* labels covering a base centre (mapped from the snapshots here) */
    size_t number_overlaps;    /* pairs of numbers that overlap */
    size_t outside;            /* labels not wholly inside the layout's bounds */
} ot_geometry;

/* Checks the labels placed on t against each other, the numbers, every base centre of `snaps` (mapped by
 * the target) and the bounds. Tolerance: 0.5 device units of overlap. */
ot_geometry ot_check_geometry(const ov_target *t, const rules_snapshot *const *snaps, size_t n_snaps);
/* Writes the target's picture to $OV_TEST_KEEP/<name>.png when OV_TEST_KEEP names a folder. */
void ot_keep(ov_target *t, const char *name);

#endif
