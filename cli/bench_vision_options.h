/*
 * bench_vision_options: what `tableref bench vision` is asked to do (its
 * sets, tables, repetitions, the detector's overrides, the cores it is
 * pinned to), read from its command line with its usage text.
 *
 * How to use:
 *   bv_options o;
 *   int r = bv_options_parse(argc, argv, &o);   // CLI_DONE (--help) or CLI_ERROR (said on stderr), else 0
 *   if (o.hard) ... o.tables[0 .. o.n_tables) ...
 */
#ifndef BENCH_VISION_OPTIONS_H
#define BENCH_VISION_OPTIONS_H

typedef struct bv_options {
    int normal, hard, hills, frames, reps, pairs, relief;
    int minis;               /* --set minis: the miniatures set per base size and camera (bench_vision_bases.h) */
    int no_masts;            /* --no-masts: the minis set's rim labels alone, without masts */
    double tail_mm;          /* --tail MM: the minis set names every model placed more than MM off (0: over 5 mm) */
    unsigned seed;
    int tables[8], n_tables;
    double decimate, sigma;
    int hamming;
    const char *crop;
    int cores;               /* --cores N: pinned to N CPUs, N threads on both sides; 0: not pinned, 2 threads */
} bv_options;

/* The options into *o: a count of positionals (0), or CLI_DONE / CLI_ERROR as cli_parse answers. */
int bv_options_parse(int argc, char **argv, bv_options *o);

#endif
