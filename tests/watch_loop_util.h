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
 * TABLEREF_LOOP_FRAMES=DIR (an existing folder) writes every frame the watch sees there, to look at.
 * A crop of a generated turn: wl_turn_crop(whole, 160, crop, sizeof crop) on the uncropped sequence, then
 * q = ds_sequence_hard(1, crop, &err); wl_keep_whole_units(q) before ds_loop_calib.
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
    size_t models_read[WL_MAX_EVENTS];         /* the settle's models placed from a mark read, not inferred */
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

/* A model whose centre is nearer a crop's edge than this has its mark cut (tags are 35-70 px on the hard set). */
#define WL_EDGE_PX 40

/* The crop "WxH+X+Y" of q's (whole) frame holding its turn's moving units at every keyframe and the principal
 * point, grown by margin_px (at least WL_EDGE_PX + 8). */
void wl_turn_crop(const ds_sequence *q, double margin_px, char *crop, size_t cap);

/*
 * Only whole units on q's (cropped) frame: a unit the crop's edge cuts through is taken off the table (the roster
 * still lists it: never seen, never judged). A tag the edge cuts in two is read at one settle and not at the next,
 * which makes the watch wait for it (the hidden-tag rule): the crop's doing, not the light's, and no table has it
 * (the board lies within the camera's frame). Fails the test when the crop cuts a moving unit. Returns the units
 * left.
 */
size_t wl_keep_whole_units(ds_sequence *q);

/* Watches sequence q (camera cam, projector centre P) in the closed loop; *r gets what the watch said. */
void wl_watch(const ds_sequence *q, const calib_file *cam, const double P[3], const wl_options *o, wl_run *r);

#endif
