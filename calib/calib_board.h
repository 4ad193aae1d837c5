/*
 * calib_board: where the board is, seen from the calibrated camera. The
 * board's reference tags (listed in the roster, at known board positions)
 * are found in one overhead photo and the board-to-camera pose is fitted to
 * their corners.
 *
 * How to use:
 *   calib_board_result br;
 *   if (calib_board_measure(&calib, roster, gray, &br, &err) < 0) ...   // needs >= 3 reference tags
 *   ... br.R, br.t (the new pose), br.tags[i].residual_mm, br.moved_mm ...
 * Plain data, nothing to free.
 */
#ifndef CALIB_BOARD_H
#define CALIB_BOARD_H

#include "calib_file.h"
#include "cvshim.h"
#include "base_error.h"
#include "roster.h"

#define CALIB_BOARD_MAX_TAGS 64

typedef struct calib_board_tag {
    int id;
    double x, y;            /* roster position, board mm */
    double residual_mm;     /* RMS distance of its 4 detected corners, cast onto its plane, from the roster's */
} calib_board_tag;

typedef struct calib_board_result {
    double R[9], t[3];      /* the fitted pose: X_cam = R X_board + t */
    int n_tags;
    calib_board_tag tags[CALIB_BOARD_MAX_TAGS];
    double rms_px;          /* reprojection RMS of the corners used */
    double rms_mm, max_mm;  /* over the tags' residuals */
    /* With a previous pose in the calibration: the largest distance, over
     * the board's four corners, between where the old and the new pose put
     * the same camera-frame point. 0 when there was none. */
    double moved_mm;
} calib_board_result;

/* Needs at least 3 reference tags in the image (12 corners). The intrinsics come from `c`; its pose, when present,
 * is the starting guess and the "before" of moved_mm. Returns 0 or -1. */
int calib_board_measure(const calib_file *c, const roster_file *r, const base_image *img, calib_board_result *out,
                        base_error *err);

/* Board mm corners of a reference tag, apriltag's order (as the renderer prints it). */
void calib_board_tag_corners(const roster_board_tag *b, double out[4][3]);

#endif
