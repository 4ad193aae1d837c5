/*
 * The renderer's projected light (datasets/ds_light.h, cvs_sensor's light):
 * projected white at 2.5x the room's light clips a white card at the
 * room's exposure, projected black leaves the picture as it was (up to
 * the projector's own black), and a projected square lands where the
 * board -> projector mapping and the camera say, on the board and on a
 * base top. Tolerances stated per test.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cvshim.h"
#include "ds_calibview.h"
#include "ds_light.h"
#include "ds_marks.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "vis_camera.h"

static base_image *flat(int w, int h, int channels, const uint8_t *v)
{
    base_image *img = base_image_new(w, h, channels, 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            memcpy(img->data + y * img->stride + (size_t)(channels * x), v, (size_t)channels);
    return img;
}

static base_image *capture(const base_image *optical, const cvs_sensor *s)
{
    base_error err;
    base_image *out = base_image_new(optical->width, optical->height, 3, 0);
    cr_assert_eq(cvs_render_sensor(optical, s, out, &err), 0, "%s", err.msg);
    return out;
}

static const uint8_t paper[3] = {226, 234, 236}; /* the tags' white paper, BGR (ds_render.c) */

/* A white card under projected white at 2.5x the room's light, the room's exposure: every channel of every
 * pixel at 255 (exact: the ADC and the ISP both clip). Unlit, the same card stays below 250 (mean). */
Test(render_light, projected_white_clips_a_white_card)
{
    base_image *card = flat(128, 128, 3, paper), *white = flat(128, 128, 3, (const uint8_t[]){255, 255, 255});
    cvs_sensor s;
    cvs_sensor_default(&s);
    base_image *unlit = capture(card, &s);
    s.light = white, s.light_ratio = 2.5, s.light_black = DS_LIGHT_BLACK;
    base_image *lit = capture(card, &s);
    double sum = 0;
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 3 * 128; x++) {
            cr_assert_eq(lit->data[y * lit->stride + x], 255, "pixel (%d, %d) channel %d", x / 3, y, x % 3);
            sum += unlit->data[y * unlit->stride + x];
        }
    cr_assert_lt(sum / (128 * 128 * 3), 250);
    base_image_free(card), base_image_free(white), base_image_free(lit), base_image_free(unlit);
}

/* Projected black: with a perfect black the picture is byte for byte the unlit one (same noise seed); with
 * the projector's black (0.3% of its white, at 2.5x) the card brightens by under 1.5 levels on average. */
Test(render_light, projected_black_leaves_the_picture)
{
    base_image *card = flat(128, 128, 3, (const uint8_t[]){120, 140, 160}), *black = base_image_new(128, 128, 3, 0);
    cvs_sensor s;
    cvs_sensor_default(&s);
    base_image *unlit = capture(card, &s);
    s.light = black, s.light_ratio = 2.5, s.light_black = 0;
    base_image *lit = capture(card, &s);
    cr_assert_eq(memcmp(lit->data, unlit->data, lit->stride * 128), 0);
    s.light_black = DS_LIGHT_BLACK;
    base_image *grey = capture(card, &s);
    double d = 0;
    for (size_t i = 0; i < grey->stride * 128; i++)
        d += grey->data[i] - unlit->data[i];
    d /= (double)(grey->stride * 128);
    cr_assert(d > 0 && d < 1.5, "mean brightening %.3f levels", d);
    base_image_free(card), base_image_free(black), base_image_free(lit), base_image_free(unlit), base_image_free(grey);
}

/* The lit pixels' centroid (weighted by light), px. */
static void centroid(const base_image *L, double c[2])
{
    double w = 0, sx = 0, sy = 0;
    for (int y = 0; y < L->height; y++)
        for (int x = 0; x < L->width; x++) {
            const double v = L->data[y * L->stride + (size_t)(L->channels * x)];
            w += v, sx += v * x, sy += v * y;
        }
    cr_assert_gt(w, 0, "nothing lit");
    c[0] = sx / w, c[1] = sy / w;
}

static void inverse_h(const double H[9], const double px[2], double b[2])
{
    /* Board point of a projector pixel: solve H (bx, by, 1) ~ (px, py, 1) by the adjugate. */
    const double *m = H;
    const double i0 = m[4] * m[8] - m[5] * m[7], i1 = m[2] * m[7] - m[1] * m[8], i2 = m[1] * m[5] - m[2] * m[4];
    const double i3 = m[5] * m[6] - m[3] * m[8], i4 = m[0] * m[8] - m[2] * m[6], i5 = m[2] * m[3] - m[0] * m[5];
    const double i6 = m[3] * m[7] - m[4] * m[6], i7 = m[1] * m[6] - m[0] * m[7], i8 = m[0] * m[4] - m[1] * m[3];
    const double w = i6 * px[0] + i7 * px[1] + i8;
    b[0] = (i0 * px[0] + i1 * px[1] + i2) / w;
    b[1] = (i3 * px[0] + i4 * px[1] + i5) / w;
}

/*
 * A 40x40 white square in a black projector picture: its light's centroid in the camera frame is the camera
 * pixel of the board point the mapping sends it to, within 0.25 px; on a surface 8 mm up (a base top) it is
 * the pixel of the point where the projector's ray through that board point meets z = 8 mm, within 0.25 px
 * (that point is 2 to 3 px away from the board's: the test sees the parallax).
 */
Test(render_light, a_projected_square_lands_where_the_mapping_says)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    ds_scene *s = ds_scene_generate(&g, &err);
    cr_assert_not_null(s, "%s", err.msg);
    ds_projector pj;
    ds_projector_default(&pj, g.board_width, g.board_depth);
    double H[9], P[3];
    ds_projector_board_to_px(&pj, H);
    for (int i = 0; i < 3; i++) /* the projector's lens: -R^T t */
        P[i] = -(pj.R[i] * pj.t[0] + pj.R[3 + i] * pj.t[1] + pj.R[6 + i] * pj.t[2]);
    base_image *pic = base_image_new(pj.width, pj.height, 3, 0);
    for (int y = 380; y < 420; y++)
        memset(pic->data + y * pic->stride + 3 * 600, 255, 3 * 40);
    const double sq[2] = {619.5, 399.5};
    double b[2];
    inverse_h(H, sq, b);
    vis_camera vc;
    vis_camera_init(&vc, &s->calib);
    const double h = 8;
    base_image *heights = base_image_new(s->calib.width, s->calib.height, 1, (uint8_t)(h / DS_LIGHT_HEIGHT_STEP_MM));
    for (int up = 0; up < 2; up++) {
        ds_light_map *m = ds_light_map_new(&s->calib, H, P, up ? heights : NULL, &err);
        cr_assert_not_null(m, "%s", err.msg);
        base_image *L = ds_light_map_apply(m, pic, &err);
        cr_assert_not_null(L, "%s", err.msg);
        const double k = up ? (P[2] - h) / P[2] : 1; /* along the ray from the lens to the board point */
        const double X[3] = {P[0] + (b[0] - P[0]) * k, P[1] + (b[1] - P[1]) * k, up ? h : 0};
        double want[2], got[2], flat_px[2];
        cr_assert(vis_camera_project(&vc, X, want));
        vis_camera_project(&vc, (const double[3]){b[0], b[1], 0}, flat_px);
        centroid(L, got);
        cr_assert_lt(hypot(got[0] - want[0], got[1] - want[1]), 0.25, "%s: got (%.2f, %.2f), want (%.2f, %.2f)",
                     up ? "8 mm up" : "board", got[0], got[1], want[0], want[1]);
        if (up)
            cr_assert_gt(hypot(want[0] - flat_px[0], want[1] - flat_px[1]), 1.0, "no parallax to see");
        base_image_free(L);
        ds_light_map_free(m);
    }
    base_image_free(pic), base_image_free(heights);
    ds_scene_free(s);
}

/* The height map: a base centre's pixel holds its base's height in DS_LIGHT_HEIGHT_STEP_MM steps (exact), the board 0. */
Test(render_light, the_height_map_holds_the_base_tops)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    ds_scene *s = ds_scene_generate(&g, &err);
    cr_assert_not_null(s, "%s", err.msg);
    base_image *hm = NULL;
    cr_assert_eq(ds_render_heights(s->snapshot, s->roster, &s->calib, 0, &hm, &err), 0, "%s", err.msg);
    vis_camera vc;
    vis_camera_init(&vc, &s->calib);
    const rules_unit *u = &s->snapshot->units[0];
    const roster_unit *ru = &s->roster->units[0];
    cr_assert_str_eq(ru->id, u->id);
    double px[2];
    cr_assert(vis_camera_project(&vc, (const double[3]){u->models[0].pos.x, u->models[0].pos.y, ru->mount.height}, px));
    const int want = (int)(ru->mount.height / DS_LIGHT_HEIGHT_STEP_MM + 0.5);
    cr_assert_gt(want, 0);
    cr_assert_eq(hm->data[(int)lround(px[1]) * hm->stride + (size_t)lround(px[0])], want);
    cr_assert_eq(hm->data[2 * hm->stride + 2], 0, "the frame's corner is board (or beyond)");
    base_image_free(hm);
    ds_scene_free(s);
}

/* A mast's tag above the figures is lit at its height: the pixel of its centre, seen at that height, holds it in
 * DS_LIGHT_HEIGHT_STEP_MM steps (exact), as the render of the same seed leans it. */
Test(render_light, the_height_map_holds_the_masts_tags)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    ds_scene *s = ds_scene_generate(&g, &err);
    cr_assert_not_null(s, "%s", err.msg);
    size_t changed = 0;
    cr_assert_eq(roster_layout_marks(s->roster, true, &changed), 0);
    cr_assert_gt(s->roster->n_marks, 0, "tags layout gave no masts");
    base_image *hm = NULL;
    cr_assert_eq(ds_render_heights(s->snapshot, s->roster, &s->calib, 7, &hm, &err), 0, "%s", err.msg);
    vis_camera vc;
    vis_camera_init(&vc, &s->calib);
    size_t checked = 0;
    for (size_t k = 0; k < s->roster->n_marks; k++) {
        ds_mast_mark mk;
        if (!ds_marks_mast_on(s->snapshot, s->roster, k, 7, &mk))
            continue;
        base_vec2 card[4], mid = {0, 0};
        double z, px[2];
        ds_marks_mast_card(&mk, mk.mount.size * 10 / 8, card, &z);
        for (int c = 0; c < 4; c++)
            mid = base_v2_add(mid, base_v2_scale(card[c], 0.25));
        cr_assert_gt(z, 20, "mast %zu at %.1f mm", k, z);
        cr_assert(vis_camera_project(&vc, (const double[3]){mid.x, mid.y, z}, px));
        if (px[0] < 0 || px[1] < 0 || px[0] > hm->width - 1 || px[1] > hm->height - 1)
            continue;
        cr_expect_eq(hm->data[(int)lround(px[1]) * hm->stride + (size_t)lround(px[0])],
                     (int)(z / DS_LIGHT_HEIGHT_STEP_MM + 0.5), "mast %zu at %.1f mm", k, z);
        checked++;
    }
    cr_expect_gt(checked, 0, "no mast in view");
    base_image_free(hm);
    ds_scene_free(s);
}
