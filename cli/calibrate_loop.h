/*
 * calibrate_loop: the projector-camera loop measured live for `tableref
 * calibrate projector --show --camera SRC`: the projector window shows
 * black then white (calib_projector_loop.h) while the camera's frames are
 * read, and the latency and brightness found go into the calibration.
 *
 * How to use:
 *   if (calibrate_measure_live_loop(&calib, "v4l2:/dev/video0", screen_x, screen_y) < 0) return 2;
 *   ... calib.projector.latency_ms, calib.projector.brightness_ratio ...  (then save the calibration)
 *   calib_loop loop; calibrate_live *l = calibrate_live_open(src, x, y, &loop, &err);  // the loop for others
 *   ... ref_proj_run(..., &loop, ...) ...; calibrate_live_close(l);
 */
#ifndef TABLEREF_CALIBRATE_LOOP_H
#define TABLEREF_CALIBRATE_LOOP_H

#include <stdbool.h>

#include "base_error.h"
#include "calib_file.h"
#include "calib_projector_loop.h"

/* Latency and brightness into c->projector, printed; 0, or -1 said on stderr. */
int calibrate_measure_live_loop(calib_file *c, const char *source, int sx, int sy);

/* The same live loop for another measurement (`table-check --projector` throws its marks through it): the
 * projector window at (sx, sy) and the camera `source`. NULL with err when the camera does not open. */
typedef struct calibrate_live calibrate_live;
calibrate_live *calibrate_live_open(const char *source, int sx, int sy, calib_loop *loop, base_error *err);
/* Whether the camera is live (its row's answer, capture/cap_rows.h): a live camera's frame time may be its
 * exposure's start, so a measurement waits one frame more (ref_proj_run's extra_frames); a recording does not. */
bool calibrate_live_is_live(const calibrate_live *l);
/* Closes the camera and the projector window; NULL is fine. */
void calibrate_live_close(calibrate_live *l);

#endif
