/*
 * vis_camera: the calibrated camera as geometry: board point -> pixel
 * (with lens distortion), pixel -> ray, and a ray's crossing with the
 * horizontal plane at a given height (where a tag lies).
 *
 * How to use:
 *   vis_camera cam;
 *   vis_camera_init(&cam, &calib);      // copies what it needs; calib may go
 *   double px[2]; vis_camera_project(&cam, (double[3]){x, y, z}, px);
 *   double p[3]; vis_camera_pixel_to_plane(&cam, px, 4.0, p);   // tag 4 mm above the board
 * Pixels use OpenCV's convention (centre of the top-left pixel = (0, 0)).
 * Why rays and not one board homography: a tag 5 mm above the board, seen
 * 35 degrees off-axis, lands 3.5 mm away from where a board-plane
 * homography puts it.
 */
#ifndef VIS_CAMERA_H
#define VIS_CAMERA_H

#include <stdbool.h>

#include "calib_file.h"

typedef struct vis_camera {
    calib_file c;
    double centre[3];  /* camera centre, board mm */
} vis_camera;

void vis_camera_init(vis_camera *cam, const calib_file *c);

/* Board point (mm, z up) -> distorted pixel. False when behind the camera. */
bool vis_camera_project(const vis_camera *cam, const double X[3], double px[2]);
/* Same without lens distortion, as normalised image coordinates (x/z, y/z). */
bool vis_camera_project_normalised(const vis_camera *cam, const double X[3], double xy[2]);

/* Distorted pixel -> undistorted normalised coordinates (Newton; 1e-12 converged). */
void vis_camera_undistort(const vis_camera *cam, const double px[2], double xy[2]);
/* OpenCV's distortion of normalised coordinates. */
void vis_camera_distort(const double dist[5], const double xy[2], double out[2]);

/* Where the pixel's ray meets the plane z = height_mm (board frame). False when it never does. */
bool vis_camera_pixel_to_plane(const vis_camera *cam, const double px[2], double height_mm, double out[3]);

#endif
