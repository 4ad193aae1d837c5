/*
 * The hard set's 4K USB webcam table (datasets/ds_hard.h, DS_HARD_CAMERA_WEBCAM4K):
 * its frame and scale, its sensor noise against the 12 MP camera's on the
 * same light, its auto exposure, its MJPEG, and a crop of it read by
 * tableref's detector. Crops of the real camera (ds_hard_crop: the same lens,
 * pose and tag sizes in pixels) keep the test quick; every figure is from
 * fixed seeds, each with its tolerance stated.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "ds_exposure.h"
#include "ds_hard.h"
#include "ds_render.h"
#include "ds_score.h"
#include "rendered_util.h"
#include "vis_camera.h"
#include "vis_detect.h"
#include "vt_detector.h"

/* The webcam table: the last preset, which must be the webcam's. */
static ds_hard_table *webcam_table(ds_hard_params *hp)
{
    base_error err = {0};
    const int k = ds_hard_preset_count();
    ds_hard_preset(k, hp);
    cr_assert_eq(hp->camera, DS_HARD_CAMERA_WEBCAM4K, "hard table %d is the webcam's", k);
    ds_hard_table *t = ds_hard_generate(hp, &err);
    cr_assert_not_null(t, "%s", err.msg);
    return t;
}

/* The projected width (px) of a 16 mm tag lying flat at board (x, y), 4 mm up, across the frame. */
static double tag16_px(const vis_camera *cam, double x, double y)
{
    double a[3] = {x - 8, y, 4}, b[3] = {x + 8, y, 4}, pa[2], pb[2];
    cr_assert(vis_camera_project(cam, a, pa) && vis_camera_project(cam, b, pb));
    return hypot(pb[0] - pa[0], pb[1] - pa[1]);
}

/*
 * The webcam's frame is 3840x2160 and the board fills it at about 0.6 mm
 * per pixel: a 16 mm tag is 25-29 px at the board's centre, 18-30 px at
 * 100 mm from its corners (the tilt and the lens make the far ones smallest).
 */
Test(render_webcam, frame_is_16_by_9_at_0_6_mm_per_px)
{
    ds_hard_params hp;
    ds_hard_table *t = webcam_table(&hp);
    const calib_file *c = &t->scene->calib;
    cr_expect_eq(c->width, 3840);
    cr_expect_eq(c->height, 2160);
    cr_expect_eq(t->scene->render.effects.jpeg_quality, 75, "MJPEG at quality 75");
    cr_expect_float_eq(t->scene->render.auto_exposure, 100, 1e-12, "auto exposure on");
    vis_camera cam;
    vis_camera_init(&cam, c);
    const double centre = tag16_px(&cam, hp.board_width / 2, hp.board_depth / 2);
    cr_expect(centre > 25 && centre < 29, "a 16 mm tag at the centre is %.2f px", centre);
    cr_expect(fabs(16 / centre - 0.6) < 0.03, "%.3f mm/px at the centre", 16 / centre);
    for (int k = 0; k < 4; k++) {
        const double x = k & 1 ? hp.board_width - 100 : 100, y = k & 2 ? hp.board_depth - 100 : 100;
        const double e = tag16_px(&cam, x, y);
        cr_expect(e > 18 && e < 30, "corner %d: a 16 mm tag is %.2f px", k, e);
    }
    ds_hard_free(t);
}

/* Gray noise sigma of two captures of the same light: the std of their difference / sqrt 2, unclipped pixels. */
static double noise_sigma(const base_image *optics, const ds_render_params *p)
{
    base_error err = {0};
    base_image *a = NULL, *b = NULL;
    cr_assert_eq(ds_render_capture(optics, p, 1, &a, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(ds_render_capture(optics, p, 2, &b, NULL, &err), 0, "%s", err.msg);
    double s = 0, s2 = 0;
    size_t n = 0;
    for (int y = 8; y < a->height - 8; y++)
        for (int x = 8; x < a->width - 8; x++) {
            const int va = a->data[y * a->stride + x], vb = b->data[y * b->stride + x];
            if (va < 8 || vb < 8 || va > 247 || vb > 247)
                continue;
            const double d = va - vb;
            s += d, s2 += d * d, n++;
        }
    base_image_free(a);
    base_image_free(b);
    cr_assert_gt(n, 10000, "unclipped pixels: %zu", n);
    return sqrt(fmax(0, s2 / n - (s / n) * (s / n)) / 2);
}

/*
 * The same light (a 512x512 crop at the board's centre) through both
 * cameras: the webcam's gray noise, JPEG included, is 9.8 levels (+-5%;
 * seeds fixed), over three times the 12 MP camera's (2.8 +-5%); its auto
 * exposure gives a gain of 1.2-2.5 over this crop and its mean luma lands
 * at 100 +-6 (centre-weighted metering, sharpening and clipping move the
 * plain mean a little); MJPEG 75 moves the gray by 4-8 levels rms against
 * the same frame uncompressed (6.0 here).
 */
Test(render_webcam, noise_exposure_and_mjpeg)
{
    ds_hard_params hp;
    ds_hard_table *t = webcam_table(&hp);
    ds_scene *s = t->scene;
    base_error err = {0};
    cr_assert_eq(ds_hard_crop(&s->calib, 1664, 824, 512, 512, &err), 0, "%s", err.msg);
    base_image *optics = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render_optics(s->snapshot, s->roster, &s->calib, &s->render, &optics, &truth, &err), 0, "%s",
                 err.msg);
    const double webcam = noise_sigma(optics, &s->render);
    ds_render_params hq = s->render;
    ds_hard_camera_apply(DS_HARD_CAMERA_HQ12, &hq);
    const double twelve = noise_sigma(optics, &hq);
    cr_expect(fabs(webcam / 9.8 - 1) < 0.05, "webcam noise sigma %.3f", webcam);
    cr_expect(fabs(twelve / 2.8 - 1) < 0.05, "12 MP noise sigma %.3f", twelve);
    cr_expect_gt(webcam, 3 * twelve);

    const double gain = ds_exposure_meter(optics, &s->render.sensor, s->render.auto_exposure);
    cr_expect(gain > 1.2 && gain < 2.5, "auto exposure %.3f", gain);
    base_image *g = NULL, *raw = NULL;
    cr_assert_eq(ds_render_capture(optics, &s->render, 1, &g, NULL, &err), 0, "%s", err.msg);
    ds_render_params nojpeg = s->render;
    nojpeg.effects.jpeg_quality = 0;
    cr_assert_eq(ds_render_capture(optics, &nojpeg, 1, &raw, NULL, &err), 0, "%s", err.msg);
    double mean = 0, d2 = 0;
    for (int y = 0; y < g->height; y++)
        for (int x = 0; x < g->width; x++) {
            const double v = g->data[y * g->stride + x], d = v - raw->data[y * raw->stride + x];
            mean += v, d2 += d * d;
        }
    const double npx = (double)g->width * g->height;
    cr_expect(fabs(mean / npx - 100) < 6, "mean luma %.2f", mean / npx);
    cr_expect(sqrt(d2 / npx) > 4 && sqrt(d2 / npx) < 8, "MJPEG changes the gray by %.3f rms", sqrt(d2 / npx));
    base_image_free(g);
    base_image_free(raw);
    base_image_free(optics);
    ds_truth_clear(&truth);
    ds_hard_free(t);
}

/*
 * A 1024x768 crop of the webcam's frame (the near-left quarter: infantry,
 * heavy infantry and a monster, 16-32 mm tags at 22-50 px, 4 models under a
 * hand) read by tableref's detector as `tableref detect` reads it: every one
 * of the 59 models in view that no hand hides placed within 5 mm, and no
 * wrong id, under a hand or not.
 */
Test(render_webcam, a_crop_is_read_without_a_wrong_id)
{
    ds_hard_params hp;
    ds_hard_table *t = webcam_table(&hp);
    ds_scene *s = t->scene;
    base_error err = {0};
    cr_assert_eq(ds_hard_crop(&s->calib, 500, 300, 1024, 768, &err), 0, "%s", err.msg);
    base_image *img = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err), 0, "%s", err.msg);
    vis_detector *det = vt_detector_new(s->roster, &s->calib, &err);
    cr_assert_not_null(det, "%s", err.msg);
    rules_snapshot *got = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_run(det, img->data, img->width, img->height, img->stride, NULL, &got, &rep, &err), 0,
                 "%s", err.msg);
    ds_score sc;
    ds_score_init(&sc);
    cr_assert_eq(ds_score_models(&sc, s->snapshot, &truth, got), 0);
    cr_expect_eq(sc.free_models, 59, "models in view that no hand hides: %zu", sc.free_models);
    cr_expect_eq(sc.free_placed5, 59, "of them placed within 5 mm: %zu", sc.free_placed5);
    cr_expect_eq(sc.wrong, 0, "wrong ids: %zu", sc.wrong);
    cr_expect_eq(sc.hand_wrong, 0);
    ds_score_clear(&sc);
    vis_report_clear(&rep);
    rules_snapshot_free(got);
    vis_detector_free(det);
    base_image_free(img);
    ds_truth_clear(&truth);
    ds_hard_free(t);
}

/*
 * The blind first pass (no roster position, no prediction) on a 1024x768 crop of the webcam's far left
 * corner, where a 16 mm tag is 22-24 px: its plan predicts tags under 22 px (plan_full_res_px) there and
 * searches the whole crop at full resolution, with sigma_full 0.5 and a contrast floor of 80, and reads 29
 * of its 36 clear tags. Searched as the first pass searched it before (full resolution only for tags under
 * 19.5 px, a 335 px strip, decimate 1.5 for the rest; sigma 0.6; contrast 60) the same crop gave 5. Exact
 * counts: fixed seed, deterministic renderer and detector; no wrong read either way.
 */
Test(render_webcam, the_blind_pass_reads_the_far_sides_small_tags)
{
    ds_hard_params hp;
    ds_hard_table *t = webcam_table(&hp);
    ds_scene *s = t->scene;
    base_error err = {0};
    cr_assert_eq(ds_hard_crop(&s->calib, 433, 0, 1024, 768, &err), 0, "%s", err.msg);
    base_image *img = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err), 0, "%s", err.msg);
    vis_detector *det = vt_detector_new(s->roster, &s->calib, &err);
    cr_assert_not_null(det, "%s", err.msg);
    cr_assert_eq(det->plan.n, 1, "one region");
    cr_expect_eq(det->plan.regions[0].decimate, 1.0, "at full resolution");
    cr_expect_float_eq(det->tags->cfg.sigma_full, 0.5, 1e-12);
    cr_expect_eq(det->tags->cfg.min_contrast, 80);
    size_t clear = 0, now = 0, before = 0;
    rendered_blind_reads(det, img, &truth, &clear, &now);
    det->cfg.plan_full_res_px = 0, det->tags->cfg.sigma_full = 0, det->tags->cfg.min_contrast = 60;
    rendered_blind_reads(det, img, &truth, &clear, &before);
    cr_expect_eq(det->plan.n, 2, "the plan as before: %zu regions", det->plan.n);
    cr_expect_eq(clear, 36, "clear tags in the crop: %zu", clear);
    cr_expect_eq(now, 29, "read blind now: %zu", now);
    cr_expect_eq(before, 5, "read blind as before: %zu", before);
    vis_detector_free(det);
    base_image_free(img);
    ds_truth_clear(&truth);
    ds_hard_free(t);
}
