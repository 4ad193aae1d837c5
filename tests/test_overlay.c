/*
 * overlay: marks land on the right pixels (camera with lens distortion,
 * projector homography, report page), pixels come out in the right order,
 * the report files are real PNG/SVG/PDF, +/- comes from the snapshots'
 * sigma_mm, and a CANNOT TELL call never looks illegal.
 *
 * Landing test: a small filled disc is drawn at a board point and the
 * intensity-weighted centroid of the output is compared with where an
 * independent implementation (vis_camera_project, a hand-applied
 * homography, the page formula) puts the point. Tolerance 0.1 px: an
 * anti-aliased disc's centroid is exact to ~0.01 px; a half-pixel
 * convention slip or a missing distortion term is 0.5 px or far more.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ds_scene.h"
#include "ov_draw.h"
#include "rules_plusminus.h"
#include "rules_json.h"
#include "rules_formation.h"
#include "rules_move.h"
#include "rules_robust.h"
#include "vis_camera.h"
#include "vision_test_util.h"

#define LAND_TOL_PX 0.1

static const double WHITE[3] = {1, 1, 1};

/* Centroid of the gray image's brightness in a window around (x, y); pixel centres at integers. */
static void centroid(const uint8_t *img, int w, int h, double x, double y, int r, double out[2])
{
    double sw = 0, sx = 0, sy = 0;
    for (int j = (int)y - r; j <= (int)y + r; j++)
        for (int i = (int)x - r; i <= (int)x + r; i++) {
            if (i < 0 || j < 0 || i >= w || j >= h)
                continue;
            double v = img[(size_t)j * (size_t)w + (size_t)i];
            sw += v, sx += v * i, sy += v * j;
        }
    out[0] = sw > 0 ? sx / sw : NAN;
    out[1] = sw > 0 ? sy / sw : NAN;
}

static uint8_t *gray_of(ov_target *t, int *w, int *h)
{
    ov_target_size(t, w, h);
    uint8_t *buf = malloc((size_t)*w * (size_t)*h);
    cr_assert_not_null(buf);
    base_error err;
    cr_assert_eq(ov_target_copy_pixels(t, buf, OV_PIX_GRAY8, (size_t)*w, &err), 0, "%s", err.msg);
    return buf;
}

static calib_file demo_camera(void)
{
    /* The test scenes' camera: 1 m up, tilted 10 degrees, barrel distortion. */
    ds_camera_params p = {1280, 960, 1500, 1000, 10, 30, {350, 250}, {-0.10, 0.04, 0.0004, -0.0003, 0}};
    calib_file c;
    base_error err;
    cr_assert_eq(ds_camera_make(&p, &c, &err), 0, "%s", err.msg);
    return c;
}

Test(overlay, camera_disc_lands_on_the_distorted_pixel)
{
    calib_file c = demo_camera();
    vis_camera cam;
    vis_camera_init(&cam, &c);
    /* Centre, and near the corners where the lens bends most. */
    const base_vec2 pts[] = {{350, 250}, {40, 40}, {660, 40}, {660, 460}, {40, 460}, {200, 380}};
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
        base_error err;
        ov_target *t = ov_target_new_camera(&c, c.width, c.height, NULL, OV_PIX_GRAY8, 0, &err);
        cr_assert_not_null(t, "%s", err.msg);
        cr_assert_eq(ov_draw_disc(t, pts[k], 2.0, WHITE, &err), 0, "%s", err.msg);
        int w, h;
        uint8_t *img = gray_of(t, &w, &h);
        double want[2], got[2], pinhole[2];
        cr_assert(vis_camera_project(&cam, (double[3]){pts[k].x, pts[k].y, 0}, want));
        centroid(img, w, h, want[0], want[1], 8, got);
        cr_expect(hypot(got[0] - want[0], got[1] - want[1]) < LAND_TOL_PX,
                  "board (%.0f, %.0f): disc centroid (%.3f, %.3f), camera model says (%.3f, %.3f)", pts[k].x,
                  pts[k].y, got[0], got[1], want[0], want[1]);
        /* The test means something only where distortion moves the point. */
        if (k == 1) {
            double xy[2];
            vis_camera_project_normalised(&cam, (double[3]){pts[k].x, pts[k].y, 0}, xy);
            pinhole[0] = c.fx * xy[0] + c.cx, pinhole[1] = c.fy * xy[1] + c.cy;
            cr_expect(hypot(pinhole[0] - want[0], pinhole[1] - want[1]) > 5, "the corner point should be distorted");
        }
        free(img);
        ov_target_free(t);
    }
}

Test(overlay, camera_frame_of_another_size_scales_the_intrinsics)
{
    calib_file c = demo_camera();
    vis_camera cam;
    vis_camera_init(&cam, &c);
    base_error err;
    /* A half-size video frame of the same camera. */
    ov_target *t = ov_target_new_camera(&c, 640, 480, NULL, OV_PIX_GRAY8, 0, &err);
    cr_assert_not_null(t, "%s", err.msg);
    base_vec2 p = {120, 90};
    cr_assert_eq(ov_draw_disc(t, p, 3.0, WHITE, &err), 0);
    int w, h;
    uint8_t *img = gray_of(t, &w, &h);
    double full[2], got[2];
    vis_camera_project(&cam, (double[3]){p.x, p.y, 0}, full);
    double want[2] = {(full[0] + 0.5) / 2 - 0.5, (full[1] + 0.5) / 2 - 0.5};
    centroid(img, w, h, want[0], want[1], 8, got);
    cr_expect(hypot(got[0] - want[0], got[1] - want[1]) < LAND_TOL_PX, "got (%.3f, %.3f) want (%.3f, %.3f)", got[0],
              got[1], want[0], want[1]);
    free(img);
    ov_target_free(t);
}

Test(overlay, projector_disc_lands_on_the_homography_pixel)
{
    /* A projector seen slightly in perspective: scale, rotation, keystone. */
    const double H[9] = {1.05, 0.12, 40, -0.08, -1.0, 700, 0.00012, -0.00008, 1};
    const base_vec2 pts[] = {{100, 100}, {600, 150}, {350, 400}, {50, 450}};
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
        base_error err;
        ov_target *t = ov_target_new_projector(H, 1024, 768, &err);
        cr_assert_not_null(t, "%s", err.msg);
        cr_assert_eq(ov_draw_disc(t, pts[k], 2.5, WHITE, &err), 0);
        int w, h;
        uint8_t *img = gray_of(t, &w, &h);
        double x = pts[k].x, y = pts[k].y, s = H[6] * x + H[7] * y + H[8];
        double want[2] = {(H[0] * x + H[1] * y + H[2]) / s, (H[3] * x + H[4] * y + H[5]) / s}, got[2];
        centroid(img, w, h, want[0], want[1], 8, got);
        cr_expect(hypot(got[0] - want[0], got[1] - want[1]) < LAND_TOL_PX, "got (%.3f, %.3f) want (%.3f, %.3f)",
                  got[0], got[1], want[0], want[1]);
        free(img);
        ov_target_free(t);
    }
}

Test(overlay, report_page_puts_board_y_up)
{
    base_error err;
    ov_target *t = ov_target_new_report_view(100, 50, 400, 300, OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(t, "%s", err.msg);
    double a[2], b[2], s = ov_map_scale(ov_target_map(t), base_v2(300, 200));
    cr_assert(ov_map_point(ov_target_map(t), base_v2(100, 50), a));
    cr_assert(ov_map_point(ov_target_map(t), base_v2(100, 350), b));
    cr_expect_float_eq(a[1] - b[1], 300.0 * s, 1e-9, "board y runs up the page");
    /* 400 mm across the A4 page's 503 pt between margins and inch numbers, at 150 dpi. */
    cr_expect_float_eq(s, (595.2756 - 72 - 20) / 400 * 150 / 72, 1e-3, "px per mm on the page");
    cr_expect_float_eq(b[0], a[0], 1e-9);
    /* A disc on an empty page: the board's background is light, so look at darkness. */
    base_vec2 p = {300, 200};
    cr_assert_eq(ov_draw_disc(t, p, 3, (const double[3]){0, 0, 0}, &err), 0);
    int w, h;
    uint8_t *img = gray_of(t, &w, &h);
    double want[2];
    ov_map_point(ov_target_map(t), p, want);
    /* Darkness relative to the page's board colour, within the disc's neighbourhood. */
    uint8_t bg = img[(size_t)((int)want[1] + 12) * (size_t)w + (size_t)want[0] + 12];
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        img[i] = img[i] < bg ? (uint8_t)(bg - img[i]) : 0;
    double got[2];
    centroid(img, w, h, want[0], want[1], 9, got);
    cr_expect(hypot(got[0] - want[0], got[1] - want[1]) < 0.25, "got (%.3f, %.3f) want (%.3f, %.3f)", got[0], got[1],
              want[0], want[1]);
    free(img);
    ov_target_free(t);
}

Test(overlay, pixels_come_out_in_the_order_asked)
{
    base_error err;
    const double H[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    ov_target *t = ov_target_new_projector(H, 64, 48, &err);
    cr_assert_not_null(t);
    cr_assert_eq(ov_draw_disc(t, base_v2(32, 24), 10, ov_colour_illegal, &err), 0);
    uint8_t rgb[64 * 48 * 3], bgr[64 * 48 * 3], rgba[64 * 48 * 4];
    cr_assert_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, 64 * 3, &err), 0);
    cr_assert_eq(ov_target_copy_pixels(t, bgr, OV_PIX_BGR24, 64 * 3, &err), 0);
    cr_assert_eq(ov_target_copy_pixels(t, rgba, OV_PIX_RGBA32, 64 * 4, &err), 0);
    size_t c = (24 * 64 + 32);
    cr_expect_eq(rgb[3 * c], 0xD5);
    cr_expect_eq(rgb[3 * c + 1], 0x5E);
    cr_expect_eq(rgb[3 * c + 2], 0x00);
    cr_expect_eq(bgr[3 * c], 0x00);
    cr_expect_eq(bgr[3 * c + 2], 0xD5);
    cr_expect_eq(rgba[4 * c + 3], 255);
    /* A stride too small is refused, not overrun. */
    cr_expect_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, 10, &err), -1);
    /* A background replaces the frame (the video path). */
    uint8_t gray[64 * 48];
    memset(gray, 77, sizeof gray);
    cr_assert_eq(ov_target_set_background(t, gray, OV_PIX_GRAY8, 64, &err), 0);
    cr_assert_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, 64 * 3, &err), 0);
    cr_expect_eq(rgb[3 * c], 77);
    ov_target_free(t);
}

Test(overlay, bad_targets_are_refused_with_a_message)
{
    base_error err = {0};
    const double singular[9] = {1, 2, 3, 2, 4, 6, 0, 0, 0};
    cr_expect_null(ov_target_new_projector(singular, 100, 100, &err));
    cr_expect(strstr(err.msg, "singular") != NULL, "%s", err.msg);
    cr_expect_null(ov_target_new_report(700, 500, OV_PAPER_A4, OV_FORMAT_PDF, NULL, &err));
    cr_expect(strstr(err.msg, "path") != NULL, "%s", err.msg);
    calib_file c = demo_camera();
    c.pose_missing = 1;
    cr_expect_null(ov_target_new_camera(&c, 1280, 960, NULL, OV_PIX_GRAY8, 0, &err));
    cr_expect(strstr(err.msg, "board_pose") != NULL, "%s", err.msg);
    cr_expect_null(ov_target_new_report(0, 500, OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err));
    ov_target_free(NULL);
    ov_target *t = ov_target_new_report(100, 100, OV_PAPER_LETTER, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(t);
    cr_expect_eq(ov_target_set_background(t, NULL, OV_PIX_GRAY8, 0, &err), -1, "a report has no camera frame");
    cr_expect_eq(ov_target_write_png(t, "/nonexistent-dir/x.png", &err), -1);
    cr_expect(strstr(err.msg, "/nonexistent-dir/x.png") != NULL, "%s", err.msg);
    ov_target_free(t);
}

/* The bundled wheel example's verdict, for drawing tests. */
static void load_turn(rules_snapshot **b, rules_snapshot **a, rules_report *r)
{
    char pb[1024], pa[1024];
    snprintf(pb, sizeof pb, "%s/datasets/examples/turn/before.json", vt_source_root());
    snprintf(pa, sizeof pa, "%s/datasets/examples/turn/after.json", vt_source_root());
    base_error err;
    *b = rules_json_load_snapshot(pb, &err);
    cr_assert_not_null(*b, "%s", err.msg);
    *a = rules_json_load_snapshot(pa, &err);
    cr_assert_not_null(*a, "%s", err.msg);
    rules_check_options o;
    rules_check_options_default(&o);
    rules_report_init(r);
    cr_assert_eq(rules_move_check(*b, *a, &o, r, &err), 0, "%s", err.msg);
    cr_assert_not(r->legal, "the bundled turn has an illegal march");
}

Test(overlay, report_files_are_real_png_svg_pdf)
{
    rules_snapshot *b, *a;
    rules_report r;
    load_turn(&b, &a, &r);
    char dir[] = "/tmp/tableref-ovtest-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const struct {
        ov_format f;
        const char *name, *magic;
    } kinds[] = {{OV_FORMAT_PNG, "r.png", "\x89PNG"}, {OV_FORMAT_SVG, "r.svg", "<?xml"}, {OV_FORMAT_PDF, "r.pdf", "%PDF-"}};
    for (size_t k = 0; k < 3; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, kinds[k].name);
        base_error err;
        ov_target *t = ov_target_new_report(a->board_width, a->board_depth, OV_PAPER_A4, kinds[k].f, path, &err);
        cr_assert_not_null(t, "%s", err.msg);
        cr_assert_eq(ov_draw_verdict(t, b, a, &r, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(ov_target_finish(t, &err), 0, "%s", err.msg);
        int w, h;
        ov_target_size(t, &w, &h);
        /* A4: 595 x 842 pt; PNG at 150 dpi. */
        double dpu = kinds[k].f == OV_FORMAT_PNG ? 150.0 / 72 : 1.0;
        cr_expect_eq(w, (int)ceil(595.2756 * dpu), "%s: A4 wide (%d)", kinds[k].name, w);
        cr_expect_geq(h, (int)(841.89 * dpu), "%s: at least one A4 page tall (%d)", kinds[k].name, h);
        ov_target_free(t);
        char head[16];
        long size = vt_file_head(path, head, sizeof head);
        cr_expect_gt(size, 5000, "%s is %ld bytes", kinds[k].name, size);
        cr_expect_eq(memcmp(head, kinds[k].magic, strlen(kinds[k].magic)), 0, "%s starts wrong", kinds[k].name);
        remove(path);
    }
    rmdir(dir);
    rules_report_clear(&r);
    rules_snapshot_free(a);
    rules_snapshot_free(b);
}

Test(overlay, illegal_models_are_drawn_in_vermillion)
{
    rules_snapshot *b, *a;
    rules_report r;
    load_turn(&b, &a, &r);
    base_error err;
    ov_target *t = ov_target_new_report(a->board_width, a->board_depth, OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(t);
    cr_assert_eq(ov_draw_verdict(t, b, a, &r, NULL, &err), 0, "%s", err.msg);
    int w, h;
    ov_target_size(t, &w, &h);
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    cr_assert_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, (size_t)w * 3, &err), 0);
    size_t vermillion = 0, green = 0;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        const uint8_t *p = rgb + 3 * i;
        vermillion += p[0] == 0xD5 && p[1] == 0x5E && p[2] == 0x00;
        green += p[0] == 0x00 && p[1] == 0x9E && p[2] == 0x73;
    }
    cr_expect_gt(vermillion, 200, "an illegal move shows vermillion (%zu px)", vermillion);
    cr_expect_gt(green, 200, "legal moves show bluish green (%zu px)", green);
    free(rgb);
    ov_target_free(t);
    rules_report_clear(&r);
    rules_snapshot_free(a);
    rules_snapshot_free(b);
}

Test(overlay, plus_minus_comes_from_the_snapshots_sigma)
{
    rules_snapshot *s0 = rules_snapshot_new(700, 500), *s1 = rules_snapshot_new(700, 500);
    rules_unit *u0 = rules_snapshot_add_unit(s0, "u", "red"), *u1 = rules_snapshot_add_unit(s1, "u", "red");
    u0->base_width = u1->base_width = 25;
    u0->base_depth = u1->base_depth = 25;
    const char *ids[4] = {"seen", "stated", "rough", "guessed"};
    for (int i = 0; i < 4; i++) {
        rules_model *a = rules_unit_add_model(u0, ids[i], base_v2(300 + 25 * i, 200), 0);
        rules_model *b = rules_unit_add_model(u1, ids[i], base_v2(300 + 25 * i, 300), 0);
        if (i == 1)
            a->sigma_mm = 0.3, b->sigma_mm = 0.4;
        if (i == 2)
            b->evidence = RULES_EVIDENCE_ROUGH;
        if (i == 3)
            b->evidence = RULES_EVIDENCE_INFERRED, b->inferred = true;
    }
    rules_pm_params p;
    rules_pm_params_default(&p);
    cr_expect_float_eq(p.coverage, 2.0, 1e-12, "2 sigma, as rules_robust judges");
    cr_expect_float_eq(rules_pm_distance(&p, s0, s1, "seen"), 0.0, 1e-12, "a seen model stating no sigma is exact");
    cr_expect_float_eq(rules_pm_distance(&p, s0, s1, "stated"), 2 * hypot(0.3, 0.4), 1e-12, "its own sigma_mm");
    cr_expect_float_eq(rules_pm_distance(&p, s0, s1, "rough"), 2 * p.sigma_rough_mm, 1e-12, "rough: the default");
    cr_expect_float_eq(rules_pm_distance(&p, s0, s1, "guessed"), 2 * p.sigma_inferred_mm, 1e-12, "inferred: the default");
    cr_expect(isnan(rules_pm_distance(&p, s0, s1, "nobody")));
    cr_expect(rules_pm_within(254.2, 254.0, 0.5), "0.2 mm over is within +/- 0.5 mm");
    cr_expect_not(rules_pm_within(260.0, 254.0, 0.5));
    cr_expect_not(rules_pm_within(254.2, 254.0, NAN), "no uncertainty, no flag");
    rules_snapshot_free(s0);
    rules_snapshot_free(s1);
}

/* Unit a advances towards unit b, which faces it; a's front ends `gap_mm` from b's front. */
static void facing_units(double gap_mm, rules_snapshot **before, rules_snapshot **after, rules_report *r)
{
    rules_snapshot *s[2];
    for (int k = 0; k < 2; k++) {
        s[k] = rules_snapshot_new(700, 500);
        rules_unit *b = rules_snapshot_add_unit(s[k], "b", "blue");
        b->base_width = b->base_depth = 25;
        b->advance_rate = base_in_to_mm(5);
        b->march_rate = base_in_to_mm(10);
        cr_assert_eq(rules_formation_place(b, base_v2(300, 300), -BASE_PI / 2, 3, 6), 0);
        rules_unit *a = rules_snapshot_add_unit(s[k], "a", "red");
        a->base_width = a->base_depth = 25;
        a->advance_rate = base_in_to_mm(5);
        a->march_rate = base_in_to_mm(10);
        double front = k == 0 ? 180 : 300 - gap_mm;
        cr_assert_eq(rules_formation_place(a, base_v2(300, front), BASE_PI / 2, 3, 6), 0);
    }
    *before = s[0];
    *after = s[1];
    rules_check_options o;
    rules_check_options_default(&o);
    o.unit_id = "a";
    rules_report_init(r);
    base_error err;
    cr_assert_eq(rules_move_check(s[0], s[1], &o, r, &err), 0, "%s", err.msg);
}

/* Whether the gap's middle is drawn in vermillion on a report of the move. */
static bool gap_drawn(double gap_mm, bool gaps_layer, bool *legal)
{
    rules_snapshot *b, *a;
    rules_report r;
    facing_units(gap_mm, &b, &a, &r);
    *legal = r.legal;
    base_error err;
    ov_target *t = ov_target_new_report_view(150, 100, 300, 300, OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(t);
    ov_options o;
    ov_options_default(&o);
    /* Only the gap layer: nothing else may pass for the gap's line. */
    o.legend = o.bases = o.arrows = o.outlines = o.arcs = o.path = o.limits = o.others = false;
    o.gaps = gaps_layer;
    cr_assert_eq(ov_draw_verdict(t, b, a, &r, &o, &err), 0, "%s", err.msg);
    if (getenv("OV_TEST_KEEP")) {
        char p[64];
        snprintf(p, sizeof p, "/tmp/ov-gap-%.0f%s.png", gap_mm, gaps_layer ? "" : "-off");
        ov_target_write_png(t, p, NULL);
    }
    int w, h;
    ov_target_size(t, &w, &h);
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    cr_assert_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, (size_t)w * 3, &err), 0);
    /* The gap line runs across the gap between the fronts; look a quarter of the way across (its
     * label's leader leaves from the middle). */
    double px[2];
    ov_map_point(ov_target_map(t), base_v2(300, 300 - gap_mm / 4), px);
    bool found = false;
    for (int dx = -260; dx <= 260 && !found; dx++) {
        int x = (int)px[0] + dx, y = (int)px[1];
        const uint8_t *p = rgb + 3 * ((size_t)y * (size_t)w + (size_t)x);
        /* A vertical vermillion line segment at this column, across the gap. */
        int run = 0;
        for (int j = -3; j <= 3; j++) {
            const uint8_t *q = p + (ptrdiff_t)j * w * 3;
            run += q[0] == 0xD5 && q[1] == 0x5E && q[2] == 0x00;
        }
        found = run == 7;
    }
    free(rgb);
    ov_target_free(t);
    rules_report_clear(&r);
    rules_snapshot_free(a);
    rules_snapshot_free(b);
    return found;
}

Test(overlay, gap_under_unit_spacing_is_drawn)
{
    bool legal;
    cr_expect(gap_drawn(12.0, true, &legal), "a 12 mm gap (under 1\") is drawn across");
    cr_expect_not(legal, "and the rules call it");
    cr_expect_not(gap_drawn(12.0, false, &legal), "(control: without the gap layer nothing is there)");
    cr_expect_not(gap_drawn(40.0, true, &legal), "a 40 mm gap is not drawn");
    cr_expect(legal);
}

/* Orange (#E69F00) and vermillion (#D55E00) pixels on a report of a unit that advances its rate plus 1.2 mm (over the rules' 0.5 mm tolerance),
 * judged robustly, its models measured to sigma_mm each. */
static void unsure_pixels(double sigma_mm, bool *cannot_tell, size_t *orange, size_t *vermillion)
{
    rules_snapshot *s[2];
    for (int k = 0; k < 2; k++) {
        s[k] = rules_snapshot_new(700, 500);
        rules_unit *u = rules_snapshot_add_unit(s[k], "u", "red");
        u->base_width = u->base_depth = 25;
        u->advance_rate = base_in_to_mm(5);
        u->march_rate = base_in_to_mm(10);
        cr_assert_eq(rules_formation_place(u, base_v2(300, k ? 150 + base_in_to_mm(5) + 1.2 : 150), BASE_PI / 2, 3, 3), 0);
        for (size_t m = 0; m < u->n_models; m++)
            u->models[m].sigma_mm = sigma_mm;
    }
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    ro.check.move = RULES_MOVE_ADVANCE;
    rules_report r;
    rules_report_init(&r);
    base_error err;
    cr_assert_eq(rules_robust_check(s[0], s[1], &ro, &r, &err), 0, "%s", err.msg);
    *cannot_tell = r.units[0].verdict == RULES_VERDICT_CANNOT_TELL;
    ov_target *t = ov_target_new_report(700, 500, OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(t);
    cr_assert_eq(ov_draw_verdict(t, s[0], s[1], &r, NULL, &err), 0, "%s", err.msg);
    if (getenv("OV_TEST_KEEP"))
        ov_target_write_png(t, sigma_mm > 0 ? "/tmp/ov-cannot-tell.png" : "/tmp/ov-illegal.png", NULL);
    int w, h;
    ov_target_size(t, &w, &h);
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    cr_assert_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, (size_t)w * 3, &err), 0);
    *orange = *vermillion = 0;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        *orange += rgb[3 * i] == 0xE6 && rgb[3 * i + 1] == 0x9F && rgb[3 * i + 2] == 0x00;
        *vermillion += rgb[3 * i] == 0xD5 && rgb[3 * i + 1] == 0x5E && rgb[3 * i + 2] == 0x00;
    }
    free(rgb);
    ov_target_free(t);
    rules_report_clear(&r);
    rules_snapshot_free(s[0]);
    rules_snapshot_free(s[1]);
}

Test(overlay, a_cannot_tell_call_never_looks_illegal)
{
    bool cannot_tell;
    size_t orange, vermillion;
    unsure_pixels(0.5, &cannot_tell, &orange, &vermillion);
    cr_assert(cannot_tell, "1.2 mm over the rate with 0.5 mm sigmas is CANNOT TELL");
    cr_expect_gt(orange, 300, "orange marks the call (%zu px)", orange);
    cr_expect_eq(vermillion, 0, "and nothing of it is vermillion (%zu px)", vermillion);
    unsure_pixels(NAN, &cannot_tell, &orange, &vermillion);
    cr_assert_not(cannot_tell, "(control) exact positions: ILLEGAL");
    cr_expect_gt(vermillion, 300, "(control) an illegal call is vermillion (%zu px)", vermillion);
}

/* Pixels of the key drawn on a blank camera frame for `sides`, with what GLib and Pango said on
 * stderr in `said`. */
static size_t key_pixels(const char *const *sides, size_t n, char *said, size_t cap)
{
    calib_file c = demo_camera();
    base_error err;
    ov_target *t = ov_target_new_camera(&c, c.width, c.height, NULL, OV_PIX_GRAY8, 0, &err);
    cr_assert_not_null(t, "%s", err.msg);
    ov_options o;
    ov_options_default(&o);
    char errfile[] = "/tmp/tableref-key-XXXXXX";
    int fd = mkstemp(errfile);
    cr_assert(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    int rc = ov_draw_key(t, sides, n, &o, &err);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t got = pread(fd, said, cap - 1, 0);
    said[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(errfile);
    cr_assert_eq(rc, 0, "%s", err.msg);
    int w, h;
    uint8_t *img = gray_of(t, &w, &h);
    size_t lit = 0;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        lit += img[i] != 0;
    free(img);
    ov_target_free(t);
    return lit;
}

/* Names with & < controls, invalid UTF-8 and 5000 non-ASCII characters: the key is drawn whole (its
 * markup escaped, names cut on character boundaries) and Pango says nothing. */
Test(overlay, the_key_survives_hostile_side_names)
{
    char said[4096];
    const char *plain[] = {"Orcs and Goblins", "Undying Dynasties", "Sylvan Elves"};
    size_t want = key_pixels(plain, 3, said, sizeof said);
    cr_expect_str_empty(said);
    char *long_name = malloc(10001);
    for (int i = 0; i < 5000; i++)
        memcpy(long_name + 2 * i, "\xc3\xa9", 2);
    long_name[10000] = '\0';
    const char *hostile[] = {long_name, "Orcs & <Goblins> \x1b[31m\x07", "bad \xff\xfe bytes"};
    size_t got = key_pixels(hostile, 3, said, sizeof said);
    free(long_name);
    cr_expect_str_empty(said, "no GLib or Pango warning");
    cr_expect_gt(got, want / 2, "the key is drawn: %zu lit pixels against %zu with plain names", got, want);
}
