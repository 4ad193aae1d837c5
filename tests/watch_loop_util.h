/*
 * watch_loop_util: what the closed-loop watch suites share (test_watch_loop.c,
 * test_watch_loop_hard.c, test_watch_loop_hills.c): a sequence watched
 * frame by frame through datasets/ds_loop.h, every frame lit by what the
 * watch itself projects, and what its events said.
 *
 * How to use:
 *   wl_options o = {.ratio = 2.5, .settle_ms = 800, .source_name = "simulated table"};
 *   wl_run r;
 *   wl_watch(q, &cam, P, &o, &r);        // q, cam, P as ds_loop_calib gives them; fails the test on an error
 *   cr_expect_eq(r.settles, 3); ... r.settle_frame[k], r.legal[k], r.check_frame[k], r.frames_lit
 */
#ifndef WATCH_LOOP_UTIL_H
#define WATCH_LOOP_UTIL_H

#include <stddef.h>

#include "calib_file.h"
#include "ds_sequence.h"
#include "ref_setup.h"

/* Settles and calls recorded at the most (later ones are counted in neither table). */
#define WL_MAX_EVENTS 10

typedef struct wl_run {
    size_t units;                              /* the caller's: left as 0 by wl_watch */
    int settles;                               /* "settled" events */
    long settle_frame[WL_MAX_EVENTS];
    int full_frame[WL_MAX_EVENTS];             /* the settle detected over the whole frame */
    int checks;                                /* "move_checked" events */
    int legal[WL_MAX_EVENTS];
    long check_frame[WL_MAX_EVENTS];
    int exposure_warnings;                     /* "warning" events of what "exposure" */
    long frames_lit;                           /* frames the projector lit (ds_loop_frames_lit) */
    int lit_at_move_start[WL_MAX_EVENTS];      /* [k], k = 1..moves: lit at move k's first frame (the hand over it) */
    int status;                                /* watch_session_run's exit status */
} wl_run;

typedef struct wl_options {
    double ratio;                  /* the projector's light over the room's (0: off) */
    double settle_ms;              /* the tracker's settle time */
    const char *source_name;       /* the capture source's name */
    ref_setup *setup;              /* the watch's set-up (borrowed); NULL: made from q's roster and the camera */
} wl_options;

/* Watches sequence q (camera cam, projector centre P) in the closed loop; *r gets what the watch said. */
void wl_watch(const ds_sequence *q, const calib_file *cam, const double P[3], const wl_options *o, wl_run *r);

#endif
