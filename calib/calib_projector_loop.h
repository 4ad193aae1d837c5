/*
 * calib_projector_loop: the projector and the camera in the loop. With the
 * projector's mapping known (calib_projector.h), measures
 *   - the latency from showing a new projector picture to the camera seeing
 *     it: the picture goes from black to white and frames are read until the
 *     board's level has crossed half way (frames counted from the show: 1 is
 *     the first frame read after it; ms from the show to that frame);
 *   - the projector's brightness against the room's: (white - black) / black
 *     at the board, in camera levels over the board where the projector
 *     lights it (the camera's response taken as linear; a clipped white is
 *     an error: lower the exposure and measure again).
 * The caller owns the projector and the camera: `show` puts a picture on the
 * projector from now on, `grab` reads the next camera frame and its time,
 * `now_ms` is the time on the frames' clock.
 *
 * How to use:
 *   calib_loop loop = {ctx, my_show, my_grab, my_now};
 *   calib_loop_result r;
 *   if (calib_projector_measure_loop(&calib, &loop, 300, &r, &err) == 0) {
 *       calib.projector.latency_present = 1;
 *       calib.projector.latency_frames = r.latency_frames; calib.projector.latency_ms = r.latency_ms;
 *       calib.projector.brightness_ratio = r.brightness_ratio;
 *   }
 */
#ifndef CALIB_PROJECTOR_LOOP_H
#define CALIB_PROJECTOR_LOOP_H

#include "base_error.h"
#include "base_image.h"
#include "calib_file.h"

typedef struct calib_loop {
    void *ctx;
    /* The projector shows `picture` (projector-sized, gray) from now on. 0 or -1. */
    int (*show)(void *ctx, const base_image *picture, base_error *err);
    /* The next camera frame (gray or BGR; the caller keeps it until the next grab) and its time, ms. NULL: lost. */
    const base_image *(*grab)(void *ctx, double *t_ms, base_error *err);
    /* Now, on the frames' clock, ms. */
    double (*now_ms)(void *ctx);
} calib_loop;

typedef struct calib_loop_result {
    int latency_frames;      /* frames read after the show up to the first that sees it */
    double latency_ms;       /* from the show to that frame */
    double black_level, white_level;  /* mean camera level over the lit board */
    double brightness_ratio; /* (white - black) / black */
    int samples;             /* board points averaged */
    int frames_read;
} calib_loop_result;

/* Needs c->projector (its mapping and size) and a board pose. At most `max_frames` frames per step.
 * Leaves the projector black. 0, or -1 with err. */
int calib_projector_measure_loop(const calib_file *c, const calib_loop *loop, int max_frames, calib_loop_result *out,
                                 base_error *err);

#endif
