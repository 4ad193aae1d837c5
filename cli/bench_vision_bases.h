/*
 * bench_vision_bases: `tableref bench vision --set minis`, the miniatures
 * set (datasets/ds_hard.h, ds_hard_minis_preset: figures standing as real
 * miniatures do, marks laid out by `tags layout` as the sheet prints them)
 * measured per base size and camera (tables 1-3 the 12 MP camera, table 4
 * the 4K webcam): units placed, models within 5 mm, p99, models placed off,
 * the calls on each table's before/after pair, and the smallest mark read
 * at 99%. Prints figures; not a test. The marks: rim labels and masts
 * (ds_hard.h, DS_HARD_MARKS_MAST); --no-masts the rim labels alone.
 *
 * Measured (one core, CPU time; the machine shared, so wall time means
 * little), rim labels alone -> with masts:
 *   12 MP (tables 1-3): units with a model placed 35 -> 66 of 70, whole
 *     27 -> 53; models within 5 mm 566 -> 720 of 795 (71.2% -> 90.6%); off
 *     26 -> 38 (partial rear ranks placed in their first-choice formation,
 *     and units whose carrier's mast is not read); p99 1.28 -> 4.15 mm;
 *     reading 1.84 -> 2.43 s CPU a frame;
 *   4K webcam (table 4): units 3 -> 21 of 21, whole 1 -> 16; models
 *     51 -> 269 of 277 (18.4% -> 97.1%); 20x20 infantry 25 -> 178 of 181;
 *     off 4 -> 8; p99 0.55 -> 2.96 mm; 13.2 -> 13.9 s CPU a frame;
 *   pairs: false ILLEGAL 0 -> 0, the march caught 1 -> 1 of 4 (the others
 *     CANNOT TELL), units not seen 58 -> 6.
 * Since (masts read where predicted, pitches of one model seen, then an
 * incomplete rear rank's place from its corner blocks, vis_units_rear.h):
 * 12 MP models within 5 mm 774 of 795 (97.4%), off 5 (each a whole pitch
 * or more: unseen models' identities in listing order, or placements cut
 * off), p99 2.87 mm, units 66 of 70; the 4 not placed have none of their
 * base marks clear of hands (each listed, with how many are; "units with a
 * base mark in view that no hand covers": 66 of 66). Webcam 268 of 277,
 * off 6, p99 1.64 mm, units 21 of 21. Each model placed over 5 mm off is
 * listed with its evidence and sigma.
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
