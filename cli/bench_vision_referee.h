/*
 * bench_vision_referee: what `tableref referee` costs on one hard table's
 * 12 MP before/after pair, and detection's share of it. The pair is written
 * as `tableref render --generate hard:K --pair` writes it (colour JPEG 92,
 * calibration, roster) into a temporary folder, then `tableref referee` runs
 * on it in this process, whole: pictures read, detection, judgement, the
 * drawings and the report written. Detection is timed in a second pass: the
 * referee's own set-up and detector (ref_setup) on the same two pictures,
 * each read from its file (JPEG decode) and then vis_detector_run (tags,
 * poses, formations: picture to snapshot); half of that is "one detect".
 * After each referee run, one whole `tableref detect` command on the AFTER
 * picture (set-up, reading, detection, its snapshot written), in this process
 * as the referee was: the referee's CPU time over its CPU time is the ratio
 * issue 33 bounds (at most 2.5x). Both run BV_REFEREE_RUNS times; the figures
 * are their medians. The folder is removed afterwards.
 *
 * How to use:
 *   bv_referee_time t;
 *   if (bv_referee_measure(1, &t, &err) == 0)
 *       printf("referee: %.1f s, detection %.0f%%\n", t.wall_s, 100 * t.detect_s / t.wall_s);
 *   bv_referee_print(1);                            // or measured and printed as `bench vision` does
 */
#ifndef BENCH_VISION_REFEREE_H
#define BENCH_VISION_REFEREE_H

#include "base_error.h"

enum { BV_REFEREE_RUNS = 3 }; /* the referee and the detect command, each timed this many times */

typedef struct bv_referee_time {
    int width, height;   /* the pictures' size in pixels */
    int exit_status;     /* the referee's: 0 every move legal, 1 an ILLEGAL call */
    double wall_s;       /* the whole referee run, wall clock */
    double cpu_s;        /* its user + system time, all threads */
    double detect_s;     /* the referee's detector on both pictures, wall clock */
    double detect_cpu_s; /* ... its CPU time */
    double decode_s;     /* both pictures read from their JPEG files (grey, as the referee reads them), wall */
    double decode_cpu_s; /* ... its CPU time */
    double detect_cmd_s;     /* one whole `tableref detect` command on the AFTER picture, in this process, wall */
    double detect_cmd_cpu_s; /* ... its CPU time (what the referee's ratio is measured against) */
    double run_ratio[BV_REFEREE_RUNS]; /* each run's referee CPU over its detect command's */
} bv_referee_time;

/* Renders hard table `table`'s pair, referees it and times it (wall_s, cpu_s, detect_cmd_*: medians of
 * BV_REFEREE_RUNS runs). -1 with err when a step fails. */
int bv_referee_measure(int table, bv_referee_time *t, base_error *err);
/* Measures and prints one line: the referee's wall and CPU time beside one detect's, or why it was not timed. */
void bv_referee_print(int table);

#endif
