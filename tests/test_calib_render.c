/*
 * Camera calibration on rendered photos of tableref's own target (the
 * AprilTag grid `tableref target` prints), where the true intrinsics are
 * known exactly: the calibration must recover them; too-oblique views and
 * frontal-only sets must be reported.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calib_camera.h"
#include "calib_target.h"
#include "cvshim.h"
#include "ds_calibview.h"
#include "vis_camera.h"

/* The camera under test: 1280x960, slightly non-square pixels, off-centre principal point, barrel distortion. */
static void true_camera(calib_file *c)
{
    memset(c, 0, sizeof *c);
    c->width = 1280, c->height = 960;
    c->fx = 1100, c->fy = 1104, c->cx = 652.7, c->cy = 471.2;
    const double d[5] = {-0.14, 0.09, 0.0006, -0.0004, 0};
    memcpy(c->dist, d, sizeof d);
    c->pose_missing = 1;
}

static const double PX_PER_MM = 6.0;

static base_image *target_texture(const calib_target *t, double A[9])
{
    base_error err;
    base_image *tex = calib_target_raster(t, PX_PER_MM, 3, &err);
    cr_assert_not_null(tex, "%s", err.msg);
    /* Texture px (u, v) has its centre at page mm (u + 0.5) / k; the target frame starts at origin_mm. */
    const double k = PX_PER_MM;
    const double a[9] = {1 / k, 0, 0.5 / k - t->origin_mm[0], 0, 1 / k, 0.5 / k - t->origin_mm[1], 0, 0, 1};
    memcpy(A, a, sizeof a);
    return tex;
}

static cvs_effects camera_effects(uint32_t seed)
{
    cvs_effects fx = {0};
    fx.light_gradient = 0.2;
    fx.vignetting = 0.2;
    fx.blur_sigma_px = 0.6;
    fx.noise_sigma = 1.5;
    fx.jpeg_quality = 95;
    fx.seed = seed;
    return fx;
}

Test(calib, rendered_target_views_recover_true_intrinsics, .timeout = 120)
{
    base_error err;
    calib_file cam;
    true_camera(&cam);
    calib_target t;
    calib_target_tags_default(&t);
    cr_assert_eq(calib_target_fit_page(&t, 210, 297, 15, &err), 0, "%s", err.msg);
    double A[9], ext[2];
    base_image *tex = target_texture(&t, A);
    calib_target_extent(&t, ext);
    calib_camera *cc = calib_camera_new(&t, &err);
    cr_assert_not_null(cc, "%s", err.msg);
    const int n = 12;
    for (int i = 0; i < n; i++) {
        double R[9], tv[3];
        ds_calibview_pose(&cam, ext, i, n, 7, R, tv);
        cvs_effects fx = camera_effects(100 + i);
        base_image *img = NULL;
        cr_assert_eq(ds_calibview_plane(&cam, R, tv, tex, A, 70, &fx, 2, &img, &err), 0, "%s", err.msg);
        char name[32];
        snprintf(name, sizeof name, "view%02d", i);
        cr_assert_geq(calib_camera_add_image(cc, img, name, &err), 0, "%s", err.msg);
        base_image_free(img);
    }
    calib_camera_options o;
    calib_camera_options_default(&o);
    o.samples = 100;
    cr_assert_eq(calib_camera_solve(cc, &o, &err), 0, "%s", err.msg);
    const cvs_lens *L = &cc->res.lens;
    fprintf(stderr, "rendered: %d views, rms %.3f px, fx %.2f fy %.2f cx %.2f cy %.2f k1 %.4f k2 %.4f p1 %.5f p2 %.5f\n",
            cc->used, cc->res.rms_px, L->fx, L->fy, L->cx, L->cy, L->dist[0], L->dist[1], L->dist[2], L->dist[3]);
    cr_expect_eq(cc->used, n, "every view usable");
    /* Tolerances: 0.3% on the focal lengths, 3 px on the principal point, 0.02 on k1 and 0.05 on k2. */
    cr_expect(fabs(L->fx / cam.fx - 1) < 0.003, "fx %.2f (true %.2f)", L->fx, cam.fx);
    cr_expect(fabs(L->fy / cam.fy - 1) < 0.003, "fy %.2f (true %.2f)", L->fy, cam.fy);
    cr_expect(fabs(L->cx - cam.cx) < 3, "cx %.2f (true %.2f)", L->cx, cam.cx);
    cr_expect(fabs(L->cy - cam.cy) < 3, "cy %.2f (true %.2f)", L->cy, cam.cy);
    cr_expect(fabs(L->dist[0] - cam.dist[0]) < 0.02, "k1 %.4f", L->dist[0]);
    cr_expect(fabs(L->dist[1] - cam.dist[1]) < 0.05, "k2 %.4f", L->dist[1]);
    cr_expect(cc->res.rms_px < 0.3, "rms %.3f", cc->res.rms_px);
    /* What matters on the table: the error the estimate causes 1.4 m up, against the truth. */
    cvs_lens truth = {cam.fx, cam.fy, cam.cx, cam.cy, {0}};
    memcpy(truth.dist, cam.dist, sizeof truth.dist);
    double rms_mm, max_mm;
    cr_assert_eq(calib_camera_board_error(&truth, L, cam.width, cam.height, 1400, &rms_mm, &max_mm, &err), 0, "%s",
                 err.msg);
    fprintf(stderr, "rendered: board error against the truth at 1400 mm: %.3f mm RMS, %.3f mm max; predicted %.3f\n",
            rms_mm, max_mm, cc->board_rms_mm);
    cr_expect(rms_mm < 0.5, "board error %.3f mm", rms_mm);
    cr_expect(cc->board_rms_mm > 0 && cc->board_rms_mm < 1.0, "predicted %.3f mm", cc->board_rms_mm);
    calib_camera_free(cc);
    base_image_free(tex);
}

/* Exact corner pixels of the target seen from a pose (no picture needed). */
static int project_target(const calib_file *cam, const calib_target *t, const double R[9], const double tv[3],
                          double *obj, double *img)
{
    calib_file c = *cam;
    memcpy(c.R, R, sizeof c.R);
    memcpy(c.t, tv, sizeof c.t);
    vis_camera vc;
    vis_camera_init(&vc, &c);
    int n = 0;
    for (int k = 0; k < t->cols * t->rows; k++) {
        double q[4][2];
        calib_target_tag_corners(t, t->first_id + k, q);
        for (int j = 0; j < 4; j++) {
            double X[3] = {q[j][0], q[j][1], 0}, px[2];
            if (!vis_camera_project(&vc, X, px) || px[0] < 0 || px[1] < 0 || px[0] > cam->width - 1 ||
                px[1] > cam->height - 1)
                continue;
            obj[3 * n] = X[0], obj[3 * n + 1] = X[1], obj[3 * n + 2] = 0;
            img[2 * n] = px[0], img[2 * n + 1] = px[1];
            n++;
        }
    }
    return n;
}

Test(calib, too_oblique_view_rejected_by_name, .timeout = 60)
{
    base_error err;
    calib_file cam;
    true_camera(&cam);
    calib_target t;
    calib_target_tags_default(&t);
    calib_target_fit_page(&t, 210, 297, 15, &err);
    double A[9], ext[2];
    base_image *tex = target_texture(&t, A);
    calib_target_extent(&t, ext);
    calib_camera *cc = calib_camera_new(&t, &err);
    /* The target seen 78 degrees off its normal, about its x axis, in the frame's centre. */
    const double a = 78 * 3.14159265358979323846 / 180;
    const double R[9] = {1, 0, 0, 0, cos(a), -sin(a), 0, sin(a), cos(a)};
    const double d = 420, m[2] = {ext[0] / 2, ext[1] / 2};
    double tv[3];
    for (int k = 0; k < 3; k++)
        tv[k] = (k == 2 ? d : 0) - (R[3 * k] * m[0] + R[3 * k + 1] * m[1]);
    cvs_effects fx = camera_effects(5);
    fx.jpeg_quality = 0;
    base_image *img = NULL;
    cr_assert_eq(ds_calibview_plane(&cam, R, tv, tex, A, 70, &fx, 2, &img, &err), 0, "%s", err.msg);
    cr_assert_geq(calib_camera_add_image(cc, img, "oblique.png", &err), 0, "%s", err.msg);
    base_image_free(img);
    /* Enough good views (exact points) for the solve to run. */
    double obj[3 * 96], px[2 * 96];
    for (int i = 0; i < 6; i++) {
        double Rv[9], tvv[3];
        ds_calibview_pose(&cam, ext, i, 6, 3, Rv, tvv);
        int n = project_target(&cam, &t, Rv, tvv, obj, px);
        cr_assert_eq(calib_camera_add_points(cc, "exact", cam.width, cam.height, n, obj, px, &err), 1);
    }
    calib_camera_options o;
    calib_camera_options_default(&o);
    o.samples = 20;
    cr_assert_eq(calib_camera_solve(cc, &o, &err), 0, "%s", err.msg);
    const calib_view *v = &cc->views[0];
    cr_expect(v->n >= 12, "the oblique target was found (%d points), so the rejection is about the angle", v->n);
    cr_expect_eq(v->status, CALIB_VIEW_TOO_OBLIQUE, "status %s: %s", calib_view_status_name(v->status), v->why);
    cr_expect(strstr(v->why, "deg off") != NULL, "%s", v->why);
    cr_expect_eq(cc->used, 6);
    calib_camera_free(cc);
    base_image_free(tex);
}

Test(calib, frontal_and_few_views_give_advice, .timeout = 60)
{
    base_error err;
    calib_file cam;
    true_camera(&cam);
    calib_target t;
    calib_target_tags_default(&t);
    calib_target_fit_page(&t, 210, 297, 15, &err);
    double ext[2];
    calib_target_extent(&t, ext);
    calib_camera *cc = calib_camera_new(&t, &err);
    double obj[3 * 96], px[2 * 96];
    /* Four frontal views near the centre: too few, frontal, corners never reached. */
    for (int i = 0; i < 4; i++) {
        const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        double tv[3] = {-ext[0] / 2 + 20 * i, -ext[1] / 2 - 10 * i, 600 + 30 * i};
        int n = project_target(&cam, &t, R, tv, obj, px);
        cr_assert_eq(calib_camera_add_points(cc, "frontal", cam.width, cam.height, n, obj, px, &err), 1);
    }
    calib_camera_options o;
    calib_camera_options_default(&o);
    o.samples = 20;
    cr_assert_eq(calib_camera_solve(cc, &o, &err), 0, "%s", err.msg);
    int few = 0, frontal = 0, corners = 0;
    for (int i = 0; i < cc->n_advice; i++) {
        few |= strstr(cc->advice[i], "too few views") != NULL;
        frontal |= strstr(cc->advice[i], "all views frontal") != NULL;
        corners |= strstr(cc->advice[i], "image corners") != NULL;
    }
    cr_expect(few && frontal && corners, "advice: few %d frontal %d corners %d", few, frontal, corners);
    calib_camera_free(cc);
}
