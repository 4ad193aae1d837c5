/*
 * overlay_extra: issue 14's layers. The nearest legal move of the demo's
 * ILLEGAL march drawn as a ghost: its short words on the picture, the
 * rules' whole sentence in the report's text, the ghost's ink at each
 * ghost base's first corner (where its dashes start) within 1.5 px on the
 * projector; never for a call that is not ILLEGAL. The reach of the spears
 * before they move: its labels (the rate, the largest wheel each way, to
 * the degree), the straight-on outline's vertices on the board inked within
 * 1.5 px on a report page (90% of them: labels may lie over a few; the
 * thin line on paper is antialiased: within 90 levels of its ink, which
 * neither the paper, the grid nor a blue label is). Projector and report mappings are exact (no lens).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ov_internal.h"
#include "ov_scene.h"
#include "overlay_test_util.h"
#include "rules_reach.h"

static rules_unit_report *unit_report(rules_report *r, const char *id)
{
    for (size_t i = 0; i < r->n_units; i++)
        if (strcmp(r->units[i].unit_id, id) == 0)
            return &r->units[i];
    return NULL;
}

static ov_scene *scene_of(const ot_turn *t)
{
    ov_options o;
    ov_options_default(&o);
    base_error err;
    ov_scene *sc = ov_scene_new(&o, &err);
    cr_assert_not_null(sc);
    cr_assert_eq(ov_scene_add_verdict(sc, t->before, t->after, &t->report, &err), 0, "%s", err.msg);
    return sc;
}

static size_t labels_with(const ov_scene *sc, const char *part)
{
    size_t n = 0;
    for (size_t i = 0; i < ov_scene_label_count(sc); i++)
        n += strstr(ov_scene_label_text(sc, i, NULL), part) != NULL;
    return n;
}

/* Pixels within r of (x, y) (device) whose colour is within `tol` levels of rgb (0..1) in every channel. */
static int inked_near(const uint8_t *px, int w, int h, double x, double y, double r, const double rgb[3], double tol)
{
    int n = 0;
    for (int yy = (int)floor(y - r); yy <= (int)ceil(y + r); yy++)
        for (int xx = (int)floor(x - r); xx <= (int)ceil(x + r); xx++) {
            if (xx < 0 || yy < 0 || xx >= w || yy >= h || hypot(xx - x, yy - y) > r)
                continue;
            const uint8_t *p = px + ((size_t)yy * w + xx) * 3;
            n += fabs(p[0] - 255 * rgb[0]) <= tol && fabs(p[1] - 255 * rgb[1]) <= tol && fabs(p[2] - 255 * rgb[2]) <= tol;
        }
    return n;
}

Test(overlay_extra, the_nearest_legal_move_is_a_ghost, .timeout = 60)
{
    ot_turn t;
    ot_demo_turn(&t);
    base_error err;
    const rules_unit_report *ur = unit_report(&t.report, "spears");
    cr_assert(ur && ur->suggestion.found, "the demo's march has a nearest legal move");
    ov_scene *sc = scene_of(&t);
    cr_expect_eq(labels_with(sc, "nearest legal: "), 1, "one ghost label");
    for (size_t i = 0; i < ov_scene_label_count(sc); i++) {
        const char *s = ov_scene_label_text(sc, i, NULL);
        if (strstr(s, "nearest legal: ")) {
            cr_expect_null(strstr(s, "spears"), "short: the ghost stands by the unit (\"%s\")", s);
            cr_expect_null(strstr(s, "no model moves"), "short (\"%s\")", s);
        }
    }
    /* On a projector over the demo's board: the ghost's ink at each ghost base's first corner. */
    double bw = t.after->board_width, bd = t.after->board_depth, s = fmin(1280 / bw, 800 / bd);
    double H[9] = {s, 0, (1280 - s * bw) / 2, 0, -s, (800 - s * bd) / 2 + s * bd, 0, 0, 1};
    ov_target *proj = ov_target_new_projector(H, 1280, 800, &err);
    cr_assert_not_null(proj);
    cr_assert_eq(ov_scene_draw(sc, proj, &err), 0, "%s", err.msg);
    ot_keep(proj, "ghost-projector");
    uint8_t *px = malloc(1280 * 800 * 3);
    cr_assert_eq(ov_target_copy_pixels(proj, px, OV_PIX_RGB24, 1280 * 3, &err), 0, "%s", err.msg);
    double ghost[3];
    ov_paint gp = {OV_INK_GHOST, 0, {0, 0, 0}, 1};
    ov_style_rgb(proj, &gp, ghost);
    const rules_unit *ua = rules_snapshot_find_unit(t.after, "spears");
    size_t hit = 0;
    for (size_t m = 0; m < ur->suggestion.n_models; m++) {
        rules_model md = *rules_unit_find_model(ua, ur->suggestion.models[m].id);
        md.pos = ur->suggestion.models[m].pos, md.facing = ur->suggestion.models[m].facing;
        base_obb b = rules_model_base(ua, &md);
        base_vec2 k[4];
        base_obb_corners(&b, k);
        double d[2];
        cr_assert(ov_map_point(ov_target_map(proj), k[0], d));
        hit += inked_near(px, 1280, 800, d[0] + 0.5, d[1] + 0.5, 1.5, ghost, 40) > 0;
    }
    /* A label or an arrow may lie over a corner or two. */
    cr_expect_geq(hit, ur->suggestion.n_models - 2, "ghost ink at %zu of %zu ghost bases' corners", hit,
                  ur->suggestion.n_models);
    free(px);
    ov_target_free(proj);
    ov_scene_free(sc);

    /* A call that is not ILLEGAL never shows one, even if a suggestion were left on it. */
    rules_unit_report *mut = unit_report(&t.report, "spears");
    mut->verdict = RULES_VERDICT_CANNOT_TELL;
    sc = scene_of(&t);
    cr_expect_eq(labels_with(sc, "nearest legal"), 0, "no ghost for CANNOT TELL");
    ov_scene_free(sc);
    ot_turn_clear(&t);
}

Test(overlay_extra, the_reach_before_a_move, .timeout = 120)
{
    ot_turn t;
    ot_demo_turn(&t);
    rules_reach r;
    base_error err;
    cr_assert_eq(rules_reach_compute(t.before, "spears", RULES_MOVE_MARCH, NULL, &r, &err), 0, "%s", err.msg);
    ov_options o;
    ov_options_default(&o);
    ov_scene *sc = ov_scene_new(&o, &err);
    cr_assert_eq(ov_scene_add_snapshot(sc, t.before, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_scene_add_reach(sc, &r, "red", &err), 0, "%s", err.msg);
    char want[128];
    cr_expect_eq(labels_with(sc, "spears \xC2\xB7 March reach \xC2\xB7 March Rate 10.00\""), 1);
    snprintf(want, sizeof want, "wheel left up to %.0f\xC2\xB0", r.wheel_left.angle_rad * 180 / BASE_PI);
    cr_expect_eq(labels_with(sc, want), r.wheel_left.angle_rad > 1e-3 ? 1u : 0u, "%s", want);
    snprintf(want, sizeof want, "wheel right up to %.0f\xC2\xB0", r.wheel_right.angle_rad * 180 / BASE_PI);
    cr_expect_eq(labels_with(sc, want), r.wheel_right.angle_rad > 1e-3 ? 1u : 0u, "%s", want);

    ov_target *rep = ov_target_new_report(t.before->board_width, t.before->board_depth, OV_PAPER_A4, OV_FORMAT_PNG,
                                          NULL, &err);
    cr_assert_not_null(rep, "%s", err.msg);
    cr_assert_eq(ov_scene_draw(sc, rep, &err), 0, "%s", err.msg);
    ot_keep(rep, "reach-report");
    ov_target_free(rep);
    ov_scene_free(sc);
    /* The reach alone (the units' bases are drawn over it), for its pixels. */
    sc = ov_scene_new(&o, &err);
    cr_assert_eq(ov_scene_add_reach(sc, &r, "red", &err), 0, "%s", err.msg);
    rep = ov_target_new_report(t.before->board_width, t.before->board_depth, OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(rep, "%s", err.msg);
    cr_assert_eq(ov_scene_draw(sc, rep, &err), 0, "%s", err.msg);
    int w, h;
    ov_target_size(rep, &w, &h);
    uint8_t *px = malloc((size_t)w * h * 3);
    cr_assert_eq(ov_target_copy_pixels(rep, px, OV_PIX_RGB24, (size_t)w * 3, &err), 0, "%s", err.msg);
    double ink[3];
    ov_paint lp = {OV_INK_LIMIT, 0, {0, 0, 0}, 1};
    ov_style_rgb(rep, &lp, ink);
    /* The straight-on facing's outline, vertex by vertex. */
    const rules_reach_facing *f = NULL;
    for (size_t i = 0; i < r.n_facings; i++)
        if (!f || fabs(r.facings[i].turn) < fabs(f->turn))
            f = &r.facings[i];
    cr_assert(f && f->n_envelope >= 3);
    size_t hit = 0, seen = 0;
    for (size_t k = 0; k < f->n_envelope; k++) {
        double d[2];
        base_vec2 v = f->envelope[k];
        /* The report draws the board only: an outline running off it is cut at its edge. */
        if (v.x < 1 || v.y < 1 || v.x > t.before->board_width - 1 || v.y > t.before->board_depth - 1 ||
            !ov_map_point(ov_target_map(rep), v, d))
            continue;
        seen++;
        int ok = inked_near(px, w, h, d[0] + 0.5, d[1] + 0.5, 1.5, ink, 90) > 0;
        hit += ok;
        if (!ok && getenv("OV_TEST_DEBUG")) {
            const uint8_t *p = px + ((size_t)(int)(d[1] + 0.5) * w + (int)(d[0] + 0.5)) * 3;
            printf("missed (%.1f, %.1f) mm at (%.1f, %.1f): %d %d %d\n", v.x, v.y, d[0], d[1], p[0], p[1], p[2]);
        }
    }
    printf("reach: %zu facings, straight-on outline %zu vertices, %zu inked; wheels %.1f / %.1f deg\n",
           r.n_facings, seen, hit, r.wheel_left.angle_rad * 180 / BASE_PI, r.wheel_right.angle_rad * 180 / BASE_PI);
    cr_expect_geq(hit, (size_t)(0.9 * seen), "the outline is drawn where the reach says (%zu of %zu)", hit, seen);
    free(px);
    ov_target_free(rep);
    ov_scene_free(sc);
    rules_reach_clear(&r);
    ot_turn_clear(&t);
}
