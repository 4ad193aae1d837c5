/*
 * watch_echo: the referee's own light. When the projector picture changes,
 * the camera sees the table change where the new light falls, one latency
 * later: that is not the table moving. This module maps a change of the
 * projector picture into the camera's motion blocks (watch_motion.h) through
 * the calibration (board -> projector homography, the camera model as the
 * referee reads the board through it: referee/ref_camera.h) and
 * says which blocks to discount, for how long.
 *
 * Model: a motion block's board footprint (its pixels' rays meeting the
 * board) is lit by a box of projector pixels; the block is echo when any
 * projector pixel in that box, grown by WATCH_ECHO_MARGIN_PX (the
 * projector's blur, base heights, calibration error), changed. The echo is
 * expected from t + latency, and discounted in every frame up to
 * t + latency + 1.5 frame periods (a frame exposed across the switch sees
 * half of it; the next one all of it).
 *
 * How to use (the tracker does this; watch_tracker_projected):
 *   watch_echo *e = watch_echo_new(&calib, factor, bw, bh, latency_ms, &err);   // calib with a projector
 *   watch_echo_picture(e, picture, t_ms, &err);        // each projector picture shown at t_ms
 *   const uint8_t *skip = watch_echo_mask(e, t_ms, period_ms);   // per frame: 1 = echo block, NULL: none
 *   watch_echo_free(e);
 */
#ifndef WATCH_ECHO_H
#define WATCH_ECHO_H

#include <stdint.h>

#include "base_error.h"
#include "base_image.h"
#include "calib_file.h"

/* Projector px around a changed pixel that still count (blur, a base's height, calibration error). */
#define WATCH_ECHO_MARGIN_PX 6
/* The projector's latency when the calibration does not say: picture to camera, ms. */
#define WATCH_ECHO_LATENCY_MS 100.0

typedef struct watch_echo watch_echo;

/* calib must have a projector section; bw x bh motion blocks of factor x 8 px each. NULL with err. */
watch_echo *watch_echo_new(const calib_file *calib, int factor, int bw, int bh, double latency_ms, base_error *err);
void watch_echo_free(watch_echo *e);
/* A projector picture shown at t_ms (the first one is compared with black). 0 or -1 (out of memory). */
int watch_echo_picture(watch_echo *e, const base_image *picture, double t_ms, base_error *err);
/* The blocks to discount in the frame at t_ms (one byte per block, row-major), NULL when none. */
const uint8_t *watch_echo_mask(watch_echo *e, double t_ms, double period_ms);
/* The projector's latency the calibration gives, or WATCH_ECHO_LATENCY_MS. */
double watch_echo_latency(const calib_file *calib);

/*
 * The exposure against projected white: the tags' white paper, median grey
 * of their borders in a frame (8-bit, sRGB-coded as cameras give it), lit
 * by projected white at `ratio` x the room's light, reaches
 * linear(paper) x (1 + ratio); from 1 on it clips and the tag under the
 * light cannot be read.
 */
#define WATCH_ECHO_RATIO_DEFAULT 2.5
/* The projector's brightness against the room's the calibration gives, or WATCH_ECHO_RATIO_DEFAULT. */
double watch_echo_brightness(const calib_file *calib);
/* (The tags' white borders in a frame are measured by the referee: ref_snapshot_paper_level.) */
/* Projected white at `ratio` over paper of grey `paper_level` clips. */
int watch_echo_would_clip(double paper_level, double ratio);

#endif
