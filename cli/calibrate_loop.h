/*
 * calibrate_loop: the projector-camera loop measured live for `tableref
 * calibrate projector --show --camera SRC`: the projector window shows
 * black then white (calib_projector_loop.h) while the camera's frames are
 * read, and the latency and brightness found go into the calibration.
 *
 * How to use:
 *   if (calibrate_measure_live_loop(&calib, "v4l2:/dev/video0", screen_x, screen_y) < 0) return 2;
 *   ... calib.projector.latency_ms, calib.projector.brightness_ratio ...  (then save the calibration)
 */
#ifndef TABLEREF_CALIBRATE_LOOP_H
#define TABLEREF_CALIBRATE_LOOP_H

#include "calib_file.h"

/* Latency and brightness into c->projector, printed; 0, or -1 said on stderr. */
int calibrate_measure_live_loop(calib_file *c, const char *source, int sx, int sy);

#endif
