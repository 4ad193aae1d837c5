/*
 * watch_test_util: what the watch suites share. The test turn
 * (datasets/sequences/turn, shortened: spearmen advance 3", archers reform,
 * cavalry march 11" with a March Rate of 10") is rendered once per build
 * directory at test time and watched once with a recording
 * (wt_ensure_run); suites read its outputs in wt_work_dir().
 */
#ifndef WATCH_TEST_UTIL_H
#define WATCH_TEST_UTIL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "ds_sequence.h"

#define SETTLE_MS 600

/* A shell command line; the test fails rather than run a truncated one. */
void wt_cmdf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* BUILD_ROOT/tests/watch-turn: the rendered turn (seq/) and the recorded run (game.*). */
const char *wt_work_dir(void);
void wt_path_in(char *out, size_t cap, const char *name);
/* system(), as an exit status (-1 when killed). */
int wt_run(const char *cmd);
void wt_write_test_sequence(const char *path);
/* Renders the turn and runs one recorded watch over it, once per build directory (a lock serialises suites). */
void wt_ensure_run(void);
ds_sequence *wt_load_sequence(void);
/* The turn's 33 frames, then its last frame `tail` more times (the table standing still), as links in
   WORK/name (one per test: tests run side by side); its path into dir. */
void wt_make_long_turn(char *dir, size_t cap, int tail, const char *name);
/* Every line of a JSONL file, parsed; the test fails on an incomplete or invalid line. */
cJSON **wt_read_jsonl(const char *path, size_t *n);
void wt_free_jsonl(cJSON **l, size_t n);
const char *wt_event_of(const cJSON *e);
double wt_num_of(const cJSON *e, const char *k);
/* "2026-11-23T03:31:59.519Z" (an event's "wall") as ms since the epoch; the test fails on another form. */
double wt_wall_ms(const char *iso);

#endif
