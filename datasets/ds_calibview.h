/*
 * ds_calibview: synthetic calibration photos with exact truth -- a flat
 * printed target held in front of the camera, and a projector lighting the
 * board -- made the way ds_render makes a table: flat things drawn into an
 * ideal supersampled pinhole picture by the exact homography of their
 * plane, then the lens distortion per pixel, then the camera's effects.
 *
 * How to use:
 *   // A target view: the target's picture and where its pixels lie on the target (mm).
 *   double A[9];   // texture px -> target mm (affine)
 *   ds_calibview_pose(&cam, extent_mm, i, n, seed, R, t);         // a varied pose, or your own
 *   base_image *img;
 *   ds_calibview_plane(&cam, R, t, tex, A, 60, &effects, 2, &img, &err);
 *
 *   // The projector: pattern px -> board, seen by the camera.
 *   ds_projector pj; ds_projector_default(&pj, 700, 500);
 *   ds_projector_render(&pj, pattern, &cam, 700, 500, &effects, 2, &img, &err);
 *   double H[9]; ds_projector_board_to_px(&pj, H);                 // the exact mapping
 *   base_image_free(img);
 * `cam` is a calib_file: intrinsics, distortion, and (for the projector) the board pose.
 */
#ifndef DS_CALIBVIEW_H
#define DS_CALIBVIEW_H

#include <stdint.h>

#include "calib_file.h"
#include "cvshim.h"
#include "base_error.h"

/*
 * Renders a flat texture on the plane z = 0 of a frame posed X_cam = R X + t
 * (target frame: OpenCV's, z into the page). Texture pixel (u, v) lies at
 * A * (u, v, 1). Everything else is `background`. Pose in `cam` is ignored.
 */
int ds_calibview_plane(const calib_file *cam, const double R[9], const double t[3], const base_image *tex,
                       const double A[9], uint8_t background, const cvs_effects *fx, int ss, base_image **out,
                       base_error *err);

/*
 * View i of n of a target `extent_mm` wide and high, centred on
 * (extent/2, extent/2) in its frame: its centre visits a 3x3 grid over
 * the frame (the corners included), at 1.3 to 2.0 times the distance where
 * it would fill the frame's height, tilted 15 to 45 degrees in turning
 * directions and turned in its plane. The same seed gives the same poses.
 */
void ds_calibview_pose(const calib_file *cam, const double extent_mm[2], int i, int n, uint32_t seed, double R[9],
                       double t[3]);

/* A pinhole projector: X_proj = R X_board + t (z along its axis), no lens distortion. */
typedef struct ds_projector {
    int width, height;          /* px */
    double fx, fy, cx, cy;      /* px */
    double R[9], t[3];          /* board -> projector */
    double blur_px;             /* defocus of the projected picture, Gaussian sigma in projector px */
    double ambient, gain;       /* lit surface = albedo * (ambient + gain * pattern / 255) */
} ds_projector;

/* 1280x800, above the board next to the camera, aimed at the board's centre, covering it. */
void ds_projector_default(ds_projector *p, double board_w, double board_d);
/* The exact board mm (z = 0) -> projector px mapping, H[8] = 1. */
void ds_projector_board_to_px(const ds_projector *p, double H[9]);
/* The board (albedo 150, the table beyond it 60) lit by `pattern` (projector-sized), seen by `cam` (with its
 * pose). */
int ds_projector_render(const ds_projector *p, const base_image *pattern, const calib_file *cam, double board_w,
                        double board_d, const cvs_effects *fx, int ss, base_image **out, base_error *err);

#endif
