/*
 * projector_keepout (issue 18): the projector picture lights no label. A
 * keep-out built from a snapshot (every model's label, every board tag) is
 * applied last, whatever is drawn: here a verdict drawn over a projector
 * picture that is white everywhere first (the worst picture there is). The
 * check is the test's own: each label square (the tag and its white
 * border, 10/8 of the tag for tag36h11), where the projector's light lands
 * on it (its height through the projector's centre when known, else grown
 * by the documented slope), grown by the calibration's error, mapped
 * through the projector calibration: 0 pixels with any channel > 0 whose
 * centre lies inside. And the picture is not simply black: most of the
 * white away from the labels is still lit.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds_calibview.h"
#include "ds_hard.h"
#include "ov_draw.h"
#include "ov_keepout.h"
#include "ov_scene.h"
#include "ov_target.h"
#include "ref_judge.h"
#include "ref_labels.h"
#include "rules_json.h"
#include "roster.h"

/* ---- the test's own geometry ---- */

static void map_px(const double H[9], double x, double y, double out[2])
{
    double w = H[6] * x + H[7] * y + H[8];
    out[0] = (H[0] * x + H[1] * y + H[2]) / w;
    out[1] = (H[3] * x + H[4] * y + H[5]) / w;
}

static bool in_convex(const double p[4][2], double x, double y)
{
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; i++) {
        const double *a = p[i], *b = p[(i + 1) % 4];
        double c = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        pos += c > 0, neg += c < 0;
    }
    return pos == 0 || neg == 0;
}

typedef struct check {
    const double *H;
    int w, h;
    const uint8_t *rgb;
    double fit_mm;
    const double *proj_pos; /* NULL: grown by OV_KEEPOUT_DEFAULT_SLOPE x height */
    size_t lit, labels;
    uint8_t *seen;          /* pixels inside some label */
} check;

/* Label square of `side` at (c, heading), `z` above the board: where light meets it on the board plane, grown. */
static void check_label(check *k, base_vec2 c, double heading, double side, double z)
{
    double half = side / 2 + k->fit_mm + (k->proj_pos ? 0 : z * OV_KEEPOUT_DEFAULT_SLOPE);
    double ux = cos(heading), uy = sin(heading), p[4][2];
    static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; i++) {
        double x = c.x + half * (sx[i] * ux - sy[i] * uy), y = c.y + half * (sx[i] * uy + sy[i] * ux);
        if (k->proj_pos) { /* the ray from the projector through (x, y, z) meets the board here */
            double s = k->proj_pos[2] / (k->proj_pos[2] - z);
            x = k->proj_pos[0] + (x - k->proj_pos[0]) * s, y = k->proj_pos[1] + (y - k->proj_pos[1]) * s;
        }
        map_px(k->H, x, y, p[i]);
    }
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int i = 0; i < 4; i++)
        x0 = fmin(x0, p[i][0]), x1 = fmax(x1, p[i][0]), y0 = fmin(y0, p[i][1]), y1 = fmax(y1, p[i][1]);
    k->labels++;
    for (int y = (int)fmax(0, floor(y0)); y <= (int)fmin(k->h - 1, ceil(y1)); y++)
        for (int x = (int)fmax(0, floor(x0)); x <= (int)fmin(k->w - 1, ceil(x1)); x++)
            if (in_convex(p, x, y)) {
                const uint8_t *px = k->rgb + 3 * ((size_t)y * k->w + x);
                k->lit += px[0] > 0 || px[1] > 0 || px[2] > 0;
                k->seen[(size_t)y * k->w + x] = 1;
            }
}

static void check_all(check *k, const roster_file *r, const rules_snapshot *s)
{
    for (size_t i = 0; i < r->n_models; i++) {
        const rules_model *m = rules_snapshot_find_model(s, r->models[i].id, NULL);
        if (!m)
            continue;
        const roster_tag_mount *mt = &r->units[r->models[i].unit].mount;
        base_vec2 c;
        double hd;
        roster_tag_mount_place(mt, m->pos, m->facing, &c, &hd);
        check_label(k, c, hd, mt->size * 10 / 8, mt->height);
    }
    for (size_t i = 0; i < r->n_board_tags; i++) {
        const roster_board_tag *b = &r->board_tags[i];
        check_label(k, base_v2(b->x, b->y), b->rotation, b->size * 10 / 8, b->z);
    }
}

/* ---- the picture as `tableref referee` draws it ---- */

static uint8_t *draw_projector(const roster_file *r, const rules_snapshot *before, const rules_snapshot *after,
                               const double H[9], int w, int h, const calib_projector *cal)
{
    base_error err = {0};
    ref_judgement j;
    ref_judgement_init(&j);
    ref_judge_options jo;
    ref_judge_options_default(&jo);
    cr_assert_eq(ref_judge(before, after, &jo, &j, &err), 0, "%s", err.msg);
    ov_options o;
    ov_options_default(&o);
    ov_scene *sc = ov_scene_new(&o, &err);
    cr_assert_not_null(sc);
    cr_assert_eq(ov_scene_add_verdict(sc, before, after, &j.report, &err), 0, "%s", err.msg);
    ov_target *t = ov_target_new_projector(H, w, h, &err);
    cr_assert_not_null(t, "%s", err.msg);
    uint8_t *rgb = malloc((size_t)w * h * 3);
    memset(rgb, 255, (size_t)w * h * 3);
    cr_assert_eq(ov_target_set_background(t, rgb, OV_PIX_RGB24, (size_t)w * 3, &err), 0, "%s", err.msg);

    base_label *labels;
    size_t n;
    cr_assert_eq(ref_labels_of(r, after, &labels, &n, &err), 0, "%s", err.msg);
    cr_assert_gt(n, r->n_board_tags);
    /* The keep-out as the referee and the watch set it. */
    cr_assert_eq(ov_target_keep_labels_dark(t, cal, labels, n, &err), 0, "%s", err.msg);
    /* Drawn after the keep-out was set: applied last all the same. */
    cr_assert_eq(ov_scene_draw(sc, t, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, (size_t)w * 3, &err), 0, "%s", err.msg);
    free(labels);
    ov_target_free(t);
    ov_scene_free(sc);
    ref_judgement_clear(&j);
    return rgb;
}

/* 0 lit label pixels; and at least `min_lit` of the pixels outside every label still lit (not blacked out). */
static void expect_dark_labels(const roster_file *r, const rules_snapshot *after, const double H[9], int w, int h,
                               const calib_projector *cal, const double *proj_pos, const uint8_t *rgb, double min_lit,
                               const char *what)
{
    check k = {H, w, h, rgb, cal && cal->max_mm > 0 ? cal->max_mm : OV_KEEPOUT_DEFAULT_FIT_MM, proj_pos, 0, 0,
               calloc((size_t)w * h, 1)};
    check_all(&k, r, after);
    cr_assert_gt(k.labels, 0);
    cr_expect_eq(k.lit, 0, "%s: %zu label pixels lit (of %zu labels)", what, k.lit, k.labels);
    size_t out = 0, lit = 0;
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (!k.seen[i]) {
            out++;
            lit += rgb[3 * i] > 0 || rgb[3 * i + 1] > 0 || rgb[3 * i + 2] > 0;
        }
    cr_expect_geq((double)lit / (double)out, min_lit, "%s: only %zu of %zu pixels off the labels lit", what, lit, out);
    free(k.seen);
}

/* A projector over the board at (pos), as calibrate projector would store it. */
static void sim_projector(double bw, double bd, double H[9], calib_projector *cal, double pos[3])
{
    ds_projector pj;
    ds_projector_default(&pj, bw, bd);
    ds_projector_board_to_px(&pj, H);
    for (int i = 0; i < 3; i++) /* C = -R^T t */
        pos[i] = -(pj.R[i] * pj.t[0] + pj.R[3 + i] * pj.t[1] + pj.R[6 + i] * pj.t[2]);
    memset(cal, 0, sizeof *cal);
    cal->present = 1;
    cal->width = pj.width, cal->height = pj.height;
    memcpy(cal->H, H, sizeof cal->H);
    cal->rms_mm = 0.4, cal->max_mm = 1.2;
    cal->position_present = 1;
    memcpy(cal->position_mm, pos, sizeof cal->position_mm);
}

Test(projector_keepout, hard_set_lights_no_label)
{
    for (int K = 1; K <= ds_hard_preset_count(); K++) {
        ds_hard_params hp;
        ds_hard_preset(K, &hp);
        base_error err = {0};
        ds_hard_table *t = ds_hard_generate(&hp, &err);
        cr_assert_not_null(t, "%s", err.msg);
        const rules_snapshot *s = t->scene->snapshot;
        double H[9], pos[3];
        calib_projector cal;
        sim_projector(s->board_width, s->board_depth, H, &cal, pos);
        char what[64];
        /* With the projector's position: parallax as a shift. */
        uint8_t *rgb = draw_projector(t->scene->roster, s, s, H, cal.width, cal.height, &cal);
        snprintf(what, sizeof what, "hard:%d, projector position known", K);
        expect_dark_labels(t->scene->roster, s, H, cal.width, cal.height, &cal, pos, rgb, 0.5, what);
        free(rgb);
        /* Without it: parallax as a margin; and checked with the shifted squares too. */
        cal.position_present = 0;
        rgb = draw_projector(t->scene->roster, s, s, H, cal.width, cal.height, &cal);
        snprintf(what, sizeof what, "hard:%d, position unknown", K);
        expect_dark_labels(t->scene->roster, s, H, cal.width, cal.height, &cal, NULL, rgb, 0.4, what);
        expect_dark_labels(t->scene->roster, s, H, cal.width, cal.height, &cal, pos, rgb, 0.4, what);
        free(rgb);
        ds_hard_free(t);
    }
}

static char *demo_path(const char *name)
{
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    char *p = malloc(4096);
    snprintf(p, 4096, "%s/datasets/demo/%s", root ? root : ".", name);
    return p;
}

Test(projector_keepout, demo_lights_no_label)
{
    base_error err = {0};
    char *rp = demo_path("roster.json"), *bp = demo_path("before.json"), *ap = demo_path("after.json");
    roster_file *r = roster_load(rp, &err);
    cr_assert_not_null(r, "%s", err.msg);
    rules_snapshot *before = rules_json_load_snapshot(bp, &err), *after = rules_json_load_snapshot(ap, &err);
    cr_assert(before && after, "%s", err.msg);
    double H[9], pos[3];
    calib_projector cal;
    sim_projector(after->board_width, after->board_depth, H, &cal, pos);
    uint8_t *rgb = draw_projector(r, before, after, H, cal.width, cal.height, &cal);
    expect_dark_labels(r, after, H, cal.width, cal.height, &cal, pos, rgb, 0.5, "demo");
    free(rgb);
    /* The referee's uncalibrated fit (1280x800 over the board): no residual, no position. */
    double s = fmin(1280 / after->board_width, 800 / after->board_depth);
    double Hf[9] = {s, 0, (1280 - s * after->board_width) / 2, 0, -s, (800 - s * after->board_depth) / 2 + s * after->board_depth,
                    0, 0, 1};
    rgb = draw_projector(r, before, after, Hf, 1280, 800, NULL);
    expect_dark_labels(r, after, Hf, 1280, 800, NULL, NULL, rgb, 0.5, "demo, uncalibrated fit");
    free(rgb);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    roster_free(r);
    free(rp), free(bp), free(ap);
}

/* ---- a small synthetic picture: the keep-out's own numbers ---- */

Test(projector_keepout, margins_are_the_documented_ones)
{
    ov_keepout_params p;
    ov_keepout_params_from_calib(&p, NULL);
    /* No calibration: 2 mm fit, 2 sigma, 1 mm per mm of height. */
    cr_expect_float_eq(ov_keepout_margin_mm(&p, 20, 4, 0.5), 2.0 + 1.0 + 4.0, 1e-12);
    cr_expect_float_eq(ov_keepout_margin_mm(&p, 20, 4, NAN), 6.0, 1e-12);
    calib_projector c = {.present = 1, .rms_mm = 0.5};
    ov_keepout_params_from_calib(&p, &c);
    cr_expect_float_eq(p.fit_error_mm, 1.5, 1e-12); /* 3 x rms without a max */
    c.max_mm = 0.9;
    c.position_present = 1;
    c.position_mm[2] = 1000;
    ov_keepout_params_from_calib(&p, &c);
    cr_expect_float_eq(p.fit_error_mm, 0.9, 1e-12);
    cr_expect_float_eq(ov_keepout_margin_mm(&p, 20, 4, NAN), 0.9, 1e-12); /* parallax is a shift now */
}

Test(projector_keepout, parallax_moves_the_square_away_from_the_projector)
{
    calib_projector c = {.present = 1, .max_mm = 2, .position_present = 1, .position_mm = {0, 0, 1000}};
    ov_keepout_params p;
    ov_keepout_params_from_calib(&p, &c);
    ov_keepout *k = ov_keepout_new(&p);
    cr_assert_eq(ov_keepout_add_label(k, base_v2(500, 0), 0, 20, 5, NAN), 0);
    /* Half side 10 + 2 mm, scaled about the projector's foot by 1000 / 995. */
    const double s = 1000.0 / 995.0;
    cr_expect_float_eq(k->quads[0].c[0].x, (500 - 12) * s, 1e-9);
    cr_expect_float_eq(k->quads[0].c[2].x, (500 + 12) * s, 1e-9);
    cr_expect_float_eq(k->quads[0].c[0].y, -12 * s, 1e-9);
    cr_expect_float_eq(k->quads[0].c[2].y, 12 * s, 1e-9);
    ov_keepout_free(k);
}

/* 1 px per mm, board y down the picture, a label turned 0.3 rad at (60, 50), over a white picture and a line. */
Test(projector_keepout, applied_last_pure_black_and_nothing_more)
{
    const int W = 160, Hh = 120;
    double H[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    base_error err = {0};
    ov_target *t = ov_target_new_projector(H, W, Hh, &err);
    cr_assert_not_null(t);
    uint8_t *rgb = malloc((size_t)W * Hh * 3);
    memset(rgb, 255, (size_t)W * Hh * 3);
    cr_assert_eq(ov_target_set_background(t, rgb, OV_PIX_RGB24, (size_t)W * 3, &err), 0, "%s", err.msg);
    ov_keepout *k = ov_keepout_new(NULL);
    cr_assert_eq(ov_keepout_add_label(k, base_v2(60, 50), 0.3, 20, 4, NAN), 0); /* half 10 + 2 + 4 = 16 */
    cr_assert_eq(ov_target_set_keepout(t, k, &err), 0, "%s", err.msg);
    ov_keepout_free(k); /* the target holds its own copy */
    /* Drawn after: a coloured line straight through the label. */
    base_vec2 line[2] = {{0, 50}, {160, 50}};
    ov_polyline pl = {line, 2, false};
    ov_layer_style st = {.line = {OV_INK_ILLEGAL, 0, {0, 0, 0}, 1}, .width = 3, .dash = OV_DASH_SOLID};
    cr_assert_eq(ov_draw_polylines(t, &pl, 1, &st, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, (size_t)W * 3, &err), 0, "%s", err.msg);
    const double c = cos(0.3), s = sin(0.3);
    size_t in = 0, far_white = 0, far = 0;
    for (int y = 0; y < Hh; y++)
        for (int x = 0; x < W; x++) {
            double dx = x - 60, dy = y - 50, u = fabs(dx * c + dy * s), v = fabs(-dx * s + dy * c);
            const uint8_t *px = rgb + 3 * ((size_t)y * W + x);
            if (u <= 16 && v <= 16) {
                in++;
                cr_expect(px[0] == 0 && px[1] == 0 && px[2] == 0, "(%d, %d) lit: %d %d %d", x, y, px[0], px[1], px[2]);
            } else if ((u > 17.5 || v > 17.5) && fabs(y - 50.0) > 6) {
                far++;
                far_white += px[0] == 255 && px[1] == 255 && px[2] == 255;
            }
        }
    cr_expect_geq(in, 32 * 32 - 70, "%zu pixels inside", in);
    cr_expect_eq(far_white, far, "%zu of %zu pixels away from the label and the line blacked", far - far_white, far);
    cr_expect_lt(ov_target_set_keepout(NULL, NULL, &err), 0);
    ov_target_free(t);
    free(rgb);
}
