/*
 * bench_vision_bases: `tableref bench vision --set minis`, the miniatures
 * set (datasets/ds_hard.h, ds_hard_minis_preset: figures standing as real
 * miniatures do, marks laid out by `tags layout` as the sheet prints them)
 * measured per base size and camera (tables 1-3 the 12 MP camera, table 4
 * the 4K webcam): units placed, models within 5 mm, p99, models placed off,
 * the calls on each table's before/after pair, and the smallest mark read
 * at 99%. Prints figures; not a test.
 *
 * How to use (cli/bench_vision.c):
 *   if (o.minis) rc = bv_bases_run(&o);   // its tables: o.tables within 1..ds_hard_minis_count()
 */
#ifndef BENCH_VISION_BASES_H
#define BENCH_VISION_BASES_H

#include "bench_vision_options.h"

/* The minis set run and printed: 0, or EXIT_BAD_INPUT with a message on stderr. */
int bv_bases_run(const bv_options *o);

#endif
