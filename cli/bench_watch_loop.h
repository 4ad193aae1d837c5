/*
 * bench_watch_loop: `tableref bench watch --projector` (bench_watch_loop.c says what it measures).
 *
 * How to use:
 *   bench_watch_loop_options o = {.table = 1};       // hard table 1, the whole frame, every light level
 *   return bench_watch_projector(&o);
 */
#ifndef BENCH_WATCH_LOOP_H
#define BENCH_WATCH_LOOP_H

#include <stdbool.h>

typedef struct bench_watch_loop_options {
    int table;         /* hard table 1..5 */
    const char *crop;  /* "WxH+X+Y" or NULL: the whole frame */
    int supersample;   /* > 0 overrides the scene's */
    double light;      /* > 0: off and this ratio only; 0: off, 1.5x, 2.5x and 4x */
    bool trace;        /* print every frame's state and the tracker's note (why it waits) */
} bench_watch_loop_options;

/* Prints the figures; 0, or 2 (the message said). */
int bench_watch_projector(const bench_watch_loop_options *o);

#endif
