/*
 * ref_camera: the calibrated camera as the referee reads the board through
 * it, for a program that must map a pixel onto the board without holding
 * vision's camera model: the watch's own light (watch_echo) finds where a
 * motion block lies on the board, to know which projector pixels light it.
 * An opaque handle over vision/vis_camera.
 *
 * How to use:
 *   ref_camera *cam = ref_camera_new(&calib);             // NULL: out of memory
 *   double X[3];
 *   if (ref_camera_to_board(cam, px, 0, X)) ... X[0], X[1] board mm ...
 *   ref_camera_free(cam);
 */
#ifndef REF_CAMERA_H
#define REF_CAMERA_H

#include <stdbool.h>

#include "calib_file.h"

typedef struct ref_camera ref_camera;

/* The calibration's camera (intrinsics, distortion, board pose); the calibration may go after. */
ref_camera *ref_camera_new(const calib_file *calib);
void ref_camera_free(ref_camera *cam);
/* Where pixel px's ray (OpenCV's convention: the top-left pixel's centre is (0, 0)) meets the plane z =
 * height_mm above the board, board mm. False when it never does. */
bool ref_camera_to_board(const ref_camera *cam, const double px[2], double height_mm, double out[3]);

#endif
