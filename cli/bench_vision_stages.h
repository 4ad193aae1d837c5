/*
 * bench_vision_stages: where one frame's detection time goes, as `tableref
 * bench vision` prints it: the picture's JPEG read (as `detect` reads a
 * file: media_image_load, grey), the first pass (the quad finder over
 * vision's plan of the frame), the predicted reads (the picture read where
 * the formations put tags: poses polished, free places, hidden units), the
 * formation fit (the units rebuilt, the unseen inferred), the rest of
 * vis_detector_run_tags (board pose, tags placed), and the pair's judging
 * (ref_judge). Each as wall clock and the process's CPU time (every
 * thread's), ms, from the detector's own counters (vis_detect_times).
 *
 * How to use:
 *   bv_stages one = {0}, sum = {0};
 *   bv_stages_time_decode(gray, colour_or_NULL, 92, reps, &one, &err);
 *   det->times = (vis_detect_times){0}; ... run ...; bv_stages_take_run(&one, &det->times, wall, cpu);
 *   bv_stages_print(stdout, "  table 1", &one);
 *   bv_stages_add(&sum, &one);  ...  bv_stages_print(stdout, "per frame", &sum);   // averaged over frames
 */
#ifndef BENCH_VISION_STAGES_H
#define BENCH_VISION_STAGES_H

#include <stdio.h>

#include "base_error.h"
#include "base_image.h"
#include "vis_detect_types.h"

typedef struct bv_stages {
    double decode, decode_cpu;   /* the JPEG read, best of the runs */
    double first, first_cpu;     /* the detection's stages, of its best run */
    double reads, reads_cpu;
    double fit, fit_cpu;
    double whole, whole_cpu;     /* vis_detector_run_tags, whole */
    double judge, judge_cpu;     /* the before/after pair judged (ref_judge), summed over `judged` pairs */
    int frames, judged;
} bv_stages;

/* The picture written as a JPEG file at `quality` (the colour picture when given, as a camera writes it),
 * then read back `reps` times as `detect` reads it: the best run into st->decode. 0 or -1 with err. */
int bv_stages_time_decode(const base_image *gray, const base_image *colour, int quality, int reps, bv_stages *st,
                          base_error *err);
/* One detection's stages (the detector's counters over that run) and its whole time: one frame. */
void bv_stages_take_run(bv_stages *st, const vis_detect_times *t, double whole, double whole_cpu);
void bv_stages_add(bv_stages *sum, const bv_stages *one);
/* One line: every stage per frame (averaged over st->frames), wall / CPU ms. */
void bv_stages_print(FILE *f, const char *label, const bv_stages *st);

#endif
