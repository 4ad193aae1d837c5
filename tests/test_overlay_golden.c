/*
 * overlay_golden: the demo turn's pictures against the ones looked at and
 * kept in tests/data/golden/ (camera frame 1280x960 over black, the
 * projector fitted over the demo's board, an A4 report page at 150 dpi).
 * Tolerance: at most 0.5% of the pixels may differ by more than 48 levels
 * in a channel (font hinting, antialiasing), and the mean difference stays
 * under 2 levels. OV_GOLDEN_UPDATE=1 rewrites the golden pictures (look at
 * them before committing).
 */
#include <cairo.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ov_scene.h"
#include "overlay_test_util.h"
#include "vision_test_util.h"

static void golden_path(const char *name, char *p, size_t cap)
{
    snprintf(p, cap, "%s/tests/data/golden/%s.png", vt_source_root(), name);
}

static void compare(ov_target *t, const char *name)
{
    char p[1024];
    golden_path(name, p, sizeof p);
    base_error err;
    const char *up = getenv("OV_GOLDEN_UPDATE");
    if (up && up[0] == '1') {
        cr_assert_eq(ov_target_write_png(t, p, &err), 0, "%s", err.msg);
        cr_log_warn("%s rewritten", p);
        return;
    }
    int w, h;
    ov_target_size(t, &w, &h);
    uint8_t *mine = malloc((size_t)w * h * 3);
    cr_assert_eq(ov_target_copy_pixels(t, mine, OV_PIX_RGB24, (size_t)w * 3, &err), 0, "%s", err.msg);
    cairo_surface_t *g = cairo_image_surface_create_from_png(p);
    cr_assert_eq(cairo_surface_status(g), CAIRO_STATUS_SUCCESS, "%s: cannot read", p);
    cr_assert_eq(cairo_image_surface_get_width(g), w, "%s: width", name);
    cr_assert_eq(cairo_image_surface_get_height(g), h, "%s: height", name);
    cairo_surface_flush(g);
    const uint8_t *gd = cairo_image_surface_get_data(g);
    int gs = cairo_image_surface_get_stride(g);
    size_t off = 0;
    double total = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t px;
            memcpy(&px, gd + (size_t)y * gs + 4 * x, 4);
            int gr = (px >> 16) & 255, gg = (px >> 8) & 255, gb = px & 255; /* opaque: not premultiplied */
            const uint8_t *m = mine + ((size_t)y * w + x) * 3;
            int d = abs(m[0] - gr);
            d = abs(m[1] - gg) > d ? abs(m[1] - gg) : d;
            d = abs(m[2] - gb) > d ? abs(m[2] - gb) : d;
            total += d;
            off += d > 48;
        }
    double share = (double)off / ((double)w * h), mean = total / ((double)w * h);
    printf("golden %s: %.3f%% of pixels off by more than 48, mean difference %.3f\n", name, 100 * share, mean);
    cr_expect_leq(share, 0.005, "%s: %.3f%% of the pixels differ (run with OV_GOLDEN_UPDATE=1 after looking)",
                  name, 100 * share);
    cr_expect_leq(mean, 2.0, "%s: mean difference %.3f", name, mean);
    cairo_surface_destroy(g);
    free(mine);
}

static ov_scene *scene(const ot_turn *turn)
{
    ov_options o;
    ov_options_default(&o);
    base_error err;
    ov_scene *sc = ov_scene_new(&o, &err);
    cr_assert_not_null(sc);
    cr_assert_eq(ov_scene_add_verdict(sc, turn->before, turn->after, &turn->report, &err), 0, "%s", err.msg);
    return sc;
}

Test(overlay_golden, demo_camera_projector_report, .timeout = 60)
{
    ot_turn turn;
    ot_demo_turn(&turn);
    ov_scene *sc = scene(&turn);
    base_error err;
    ov_target *cam = ov_target_new_camera(&turn.calib, turn.width, turn.height, NULL, OV_PIX_GRAY8, 0, &err);
    cr_assert_not_null(cam, "%s", err.msg);
    cr_assert_eq(ov_scene_draw(sc, cam, &err), 0, "%s", err.msg);
    compare(cam, "demo-camera");
    ov_target_free(cam);

    double bw = turn.after->board_width, bd = turn.after->board_depth, s = fmin(1280 / bw, 800 / bd);
    double H[9] = {s, 0, (1280 - s * bw) / 2, 0, -s, (800 - s * bd) / 2 + s * bd, 0, 0, 1};
    ov_target *proj = ov_target_new_projector(H, 1280, 800, &err);
    cr_assert_not_null(proj, "%s", err.msg);
    cr_assert_eq(ov_scene_draw(sc, proj, &err), 0, "%s", err.msg);
    compare(proj, "demo-projector");
    ov_target_free(proj);

    double view[4];
    ov_report_view(turn.before, turn.after, &turn.report, NULL, false, view);
    ov_target *rep = ov_target_new_report_view(view[0], view[1], view[2], view[3], OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(rep, "%s", err.msg);
    cr_assert_eq(ov_scene_draw(sc, rep, &err), 0, "%s", err.msg);
    compare(rep, "demo-report");
    ov_target_free(rep);
    ov_scene_free(sc);
    ot_turn_clear(&turn);
}
