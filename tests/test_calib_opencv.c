/*
 * Camera calibration on OpenCV's own chessboard photos (tests/data/opencv-chessboard,
 * left01..left14 without left10: 13 views, 9x6 inner corners), compared with
 * OpenCV's published calibration of them (fixed aspect ratio):
 * fx = fy = 535.9, cx = 342.3, cy = 235.6, RMS 0.39 px.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calib_camera.h"
#include "calib_target.h"
#include "cvshim.h"
#include "media_image_read.h"
#include "vision_test_util.h"

static const char *const views[] = {"left01", "left02", "left03", "left04", "left05", "left06", "left07",
                                    "left08", "left09", "left11", "left12", "left13", "left14"};
#define N_VIEWS (int)(sizeof views / sizeof views[0])

static calib_camera *load_views(void)
{
    base_error err;
    calib_target t;
    cr_assert_eq(calib_target_chessboard(&t, 9, 6, 25.0, &err), 0, "%s", err.msg);
    calib_camera *cc = calib_camera_new(&t, &err);
    cr_assert_not_null(cc, "%s", err.msg);
    for (int i = 0; i < N_VIEWS; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/data/opencv-chessboard/%s.jpg", vt_source_root(), views[i]);
        base_image *img = media_image_load(path, MEDIA_IMAGE_GRAY, &err);
        cr_assert_not_null(img, "%s", err.msg);
        cr_assert_eq(calib_camera_add_image(cc, img, views[i], &err), 1, "%s: %s", views[i],
                     cc->views[cc->n_views - 1].why);
        base_image_free(img);
    }
    return cc;
}

/* OpenCV's setup: all 13 views, fixed aspect ratio, k3 free, no view dropped. */
Test(calib, opencv_samples_match_published_calibration, .timeout = 60)
{
    calib_camera *cc = load_views();
    calib_camera_options o;
    calib_camera_options_default(&o);
    o.flags = CVS_CALIB_FIX_ASPECT;
    o.outlier_factor = 0;
    o.samples = 50;
    base_error err;
    cr_assert_eq(calib_camera_solve(cc, &o, &err), 0, "%s", err.msg);
    cr_expect_eq(cc->used, 13);
    const cvs_lens *L = &cc->res.lens;
    /* Tolerances: about one standard deviation of each parameter (1.3-1.5 px here). */
    cr_expect(fabs(L->fx - 535.9) < 1.5, "fx %.3f", L->fx);
    cr_expect(fabs(L->fy - 535.9) < 1.5, "fy %.3f", L->fy);
    cr_expect(fabs(L->cx - 342.3) < 1.5, "cx %.3f", L->cx);
    cr_expect(fabs(L->cy - 235.6) < 1.5, "cy %.3f", L->cy);
    cr_expect(fabs(cc->res.rms_px - 0.39) < 0.05, "rms %.3f", cc->res.rms_px);
    cr_expect(fabs(L->fy / L->fx - 1) < 1e-9, "aspect held");
    calib_camera_free(cc);
}

/* The covariance tableref propagates must agree with OpenCV's own standard deviations. */
Test(calib, covariance_diagonal_matches_opencv_std, .timeout = 60)
{
    calib_camera *cc = load_views();
    calib_camera_options o;
    calib_camera_options_default(&o);
    o.samples = 10;
    base_error err;
    cr_assert_eq(calib_camera_solve(cc, &o, &err), 0, "%s", err.msg);
    for (int i = 0; i < 8; i++) {
        double s = sqrt(cc->res.cov[i * CVS_CALIB_NPARAM + i]);
        cr_expect(fabs(s - cc->res.std[i]) <= 0.02 * cc->res.std[i] + 1e-12, "param %d: cov %.6g, opencv %.6g", i,
                  s, cc->res.std[i]);
        cr_expect(cc->res.std[i] > 0, "param %d free", i);
    }
    cr_expect_eq(cc->res.std[8], 0, "k3 fixed by default");
    calib_camera_free(cc);
}

/* The default solve drops left02, whose corners reproject 5x worse than the others, and says why. */
Test(calib, opencv_samples_outlier_view_named, .timeout = 60)
{
    calib_camera *cc = load_views();
    calib_camera_options o;
    calib_camera_options_default(&o);
    o.samples = 50;
    base_error err;
    cr_assert_eq(calib_camera_solve(cc, &o, &err), 0, "%s", err.msg);
    cr_expect_eq(cc->used, 12);
    cr_expect_eq(cc->views[1].status, CALIB_VIEW_OUTLIER, "left02: %s", cc->views[1].why);
    cr_expect(strstr(cc->views[1].why, "reprojection error") != NULL);
    cr_expect(cc->res.rms_px < 0.3, "rms without the outlier %.3f", cc->res.rms_px);
    /* Still the same camera. */
    cr_expect(fabs(cc->res.lens.fx - 535.9) < 3 && fabs(cc->res.lens.cx - 342.3) < 3);
    /* The photos never reach the left corners: the advice must say so. */
    int corners = 0;
    for (int i = 0; i < cc->n_advice; i++)
        corners |= strstr(cc->advice[i], "image corners") != NULL;
    cr_expect(corners, "advice about the image corners");
    cr_expect(cc->board_rms_mm > 0 && isfinite(cc->board_rms_mm));
    calib_camera_free(cc);
}

/* A photo without the chessboard is rejected by name, not fatal. */
Test(calib, view_without_target_rejected, .timeout = 30)
{
    base_error err;
    calib_target t;
    calib_target_chessboard(&t, 9, 6, 25.0, &err);
    calib_camera *cc = calib_camera_new(&t, &err);
    base_image *blank = base_image_new(640, 480, 1, 128);
    cr_expect_eq(calib_camera_add_image(cc, blank, "blank.png", &err), 0);
    cr_expect_eq(cc->views[0].status, CALIB_VIEW_NOT_FOUND);
    cr_expect(strstr(cc->views[0].why, "9x6") != NULL, "%s", cc->views[0].why);
    /* Too few views: the solve fails and says how many. */
    calib_camera_options o;
    calib_camera_options_default(&o);
    cr_expect_eq(calib_camera_solve(cc, &o, &err), -1);
    cr_expect(strstr(err.msg, "0 usable views") != NULL, "%s", err.msg);
    base_image_free(blank);
    calib_camera_free(cc);
}
