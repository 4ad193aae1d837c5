/*
 * bench_watch_loop: `tableref bench watch --projector` (bench_watch_loop.c says what it measures).
 *
 * How to use: return bench_watch_projector(1, NULL, 0);   // hard table 1, the whole frame, the scene's supersampling
 */
#ifndef BENCH_WATCH_LOOP_H
#define BENCH_WATCH_LOOP_H

/* Prints the figures; 0, or 2 (the message said). `crop` "WxH+X+Y" or NULL; supersample > 0 overrides. */
int bench_watch_projector(int table, const char *crop, int supersample);

#endif
