/*
 * calib_camera: intrinsics and lens distortion from photos of a target,
 * with the checks a user needs: which photos were rejected and why, how
 * sure each parameter is, what that means in millimetres on the table, and
 * what photos to take next.
 *
 * How to use:
 *   calib_camera *cc = calib_camera_new(&target, &err);
 *   for each photo: calib_camera_add_image(cc, gray, "IMG_01.jpg", &err);   // 1 used, 0 rejected, -1 error
 *   calib_camera_options o; calib_camera_options_default(&o);
 *   if (calib_camera_solve(cc, &o, &err) < 0) ...           // cc->views[i].status / .why say what happened
 *   ... cc->res.lens, cc->res.std, cc->board_rms_mm, cc->advice[] ...
 *   calib_camera_to_file(cc, &calib);                       // intrinsics + quality; no board pose yet
 *   calib_camera_free(cc);
 * Views can also be given as point lists (calib_camera_add_points): the
 * tests and the benchmark feed exact rendered corners that way.
 */
#ifndef CALIB_CAMERA_H
#define CALIB_CAMERA_H

#include <stddef.h>
#include <stdint.h>

#include "calib_file.h"
#include "calib_target.h"
#include "cvshim.h"
#include "base_error.h"

typedef enum {
    CALIB_VIEW_USED = 0,
    CALIB_VIEW_NOT_FOUND,    /* no target in the photo */
    CALIB_VIEW_TOO_FEW,      /* target partly found: too few points */
    CALIB_VIEW_TOO_OBLIQUE,  /* seen too far off its normal: corners smear */
    CALIB_VIEW_WRONG_SIZE,   /* not the first photo's size */
    CALIB_VIEW_OUTLIER,      /* reprojection error far above the others' */
} calib_view_status;

typedef struct calib_view {
    char name[256];
    calib_view_status status;
    char why[200];           /* for a rejected view: the reason, in words */
    int n;                   /* points */
    double *obj, *img;       /* 3n target mm, 2n px */
    double foreshortening;   /* 0..1: short/long axis of the target's image (1 = frontal) */
    double rms_px;           /* after the solve (used views) */
    double tilt_deg;         /* target normal vs optical axis, after the solve */
    double R[9], t[3];       /* target -> camera, after the solve */
} calib_view;

typedef struct calib_camera_options {
    unsigned flags;              /* CVS_CALIB_* (default FIX_K3: k3 only helps fisheye-like lenses) */
    double max_tilt_deg;         /* views seen more obliquely are rejected (default 70) */
    int min_points;              /* fewer points and a view is rejected (default 12) */
    double outlier_factor;       /* view RMS above this times the median (and above 1 px) is rejected (default 3) */
    int min_views;               /* below this the solve fails (default 3) */
    int recommended_views;       /* below this the advice asks for more (default 10) */
    double table_distance_mm;    /* for the board error estimate (default 1400) */
    int samples;                 /* Monte Carlo draws for the board error (default 400) */
    uint32_t seed;
} calib_camera_options;
void calib_camera_options_default(calib_camera_options *o);

#define CALIB_CAMERA_MAX_ADVICE 8

typedef struct calib_camera {
    calib_target target;
    int width, height;           /* from the first view */
    calib_view *views;
    size_t n_views, cap_views;
    /* Results of calib_camera_solve. */
    int used;
    cvs_calib_result res;
    double board_rms_mm, board_p95_mm;  /* expected position error on the board (Monte Carlo) */
    double table_distance_mm;
    double max_tilt_deg;                /* largest tilt among used views */
    double coverage;                    /* share of a 4x4 grid over the frame that holds a used point */
    char advice[CALIB_CAMERA_MAX_ADVICE][240];
    int n_advice;
    void *priv;
} calib_camera;

calib_camera *calib_camera_new(const calib_target *t, base_error *err);
void calib_camera_free(calib_camera *cc);

/* Finds the target in a gray photo and records the view (used or rejected). 1 used, 0 rejected, -1 error. */
int calib_camera_add_image(calib_camera *cc, const base_image *img, const char *name, base_error *err);
/* Records a view from known points (copied). Same checks and return as above. */
int calib_camera_add_points(calib_camera *cc, const char *name, int width, int height, int n, const double *obj,
                            const double *img, base_error *err);

/*
 * Calibrates from the used views, rejects outlier views and re-solves,
 * then fills res, per-view results, the board error estimate and the
 * advice. Returns 0, or -1 (too few views: err says how many and why).
 */
int calib_camera_solve(calib_camera *cc, const calib_camera_options *o, base_error *err);

/* Intrinsics and quality into a calibration file with no board pose yet. */
void calib_camera_to_file(const calib_camera *cc, calib_file *out);

/* "used", "target not found", ... */
const char *calib_view_status_name(calib_view_status s);

/*
 * Board position error, in mm, of locating points with lens `est` when the
 * camera really is `truth`: a camera of that image size looks straight down
 * from `distance_mm`, the board pose is fitted (as `calibrate board` does)
 * from four reference tags near the frame's corners, and a 9x7 grid of
 * points across the frame is located on the board. *rms_mm and *max_mm over
 * the grid. Returns 0 or -1.
 */
int calib_camera_board_error(const cvs_lens *truth, const cvs_lens *est, int width, int height, double distance_mm,
                             double *rms_mm, double *max_mm, base_error *err);

/*
 * The same averaged over intrinsics drawn from N(res->lens, res->cov):
 * what the calibration's own uncertainty costs on the board. *rms_mm over
 * every draw and point, *p95_mm the 95th percentile of the draws' RMS.
 */
int calib_camera_board_error_mc(const cvs_calib_result *res, int width, int height, double distance_mm, int samples,
                                uint32_t seed, double *rms_mm, double *p95_mm, base_error *err);

#endif
