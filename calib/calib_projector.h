/*
 * calib_projector: where the projector's pixels land on the board. The
 * projector shows a grid of AprilTags (its pattern); the calibrated camera
 * (intrinsics and board pose) sees them on the table, each corner is cast
 * onto the board plane, and a homography board mm -> projector px is fitted
 * (RANSAC against misdetections, then least squares on the inliers). The
 * board is flat and a projector is a pinhole, so a homography is the exact
 * model short of the projector's own lens distortion.
 *
 * How to use:
 *   calib_projector_pattern pat; calib_projector_pattern_default(&pat, 1280, 800);
 *   base_image *p = calib_projector_pattern_draw(&pat, &err);   // show it full-screen (or save it)
 *   ... take a camera photo of the table ...
 *   calib_projector_result res;
 *   if (calib_projector_fit(&calib, &pat, photo, &res, &err) < 0) ...
 *   calib.projector = res.mapping;                               // then calib_file_save
 *   base_image_free(p);
 */
#ifndef CALIB_PROJECTOR_H
#define CALIB_PROJECTOR_H

#include "calib_file.h"
#include "calib_target.h"
#include "cvshim.h"
#include "base_error.h"

typedef struct calib_projector_pattern {
    int width, height;      /* projector frame, px */
    /* The tag grid, laid out as a calib_target whose "mm" are projector
     * pixels (page = frame): its corner (x, y) is projector pixel
     * (x - 0.5, y - 0.5) in OpenCV's convention. */
    calib_target grid;
} calib_projector_pattern;

/* tag36h11 IDs from 400, tags of 1/7 of the frame's short side, spaced half a tag, centred. */
void calib_projector_pattern_default(calib_projector_pattern *p, int width, int height);
/* The pattern as the projector shows it: black (no light) with the tags' white borders lit. Caller frees. */
base_image *calib_projector_pattern_draw(const calib_projector_pattern *p, base_error *err);
/* Projector pixel (OpenCV convention) of corner k of the pattern's tag `id`; -1 when not on the pattern. */
int calib_projector_pattern_corners(const calib_projector_pattern *p, int id, double out[4][2]);

typedef struct calib_projector_result {
    calib_projector mapping;  /* H, size, residuals: store into calib_file.projector */
    int tags_found;
    int points, inliers;
    double rms_mm, max_mm;    /* inliers' residual on the table */
    double px_mm;             /* side of one projector pixel on the board, near the pattern's centre */
} calib_projector_result;

/* Needs a calibration with a board pose and at least 4 pattern tags in the photo. Returns 0 or -1. */
int calib_projector_fit(const calib_file *c, const calib_projector_pattern *p, const base_image *photo,
                        calib_projector_result *out, base_error *err);

/* Board mm -> projector px through a mapping; false when the point maps to infinity. */
int calib_projector_map(const double H[9], const double board[2], double px[2]);

#endif
