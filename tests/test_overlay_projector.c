/*
 * overlay_projector: the projector as the players see it, at the mapping of
 * a real 1280x800 projector fitted over a 6' x 4' table (1828.8 x 1219.2
 * mm, the table's long side across the projector's width: 0.656 px per
 * table mm). The demo turn sits in the table's corner, at the projector's
 * edge. Lines are 2 mm wide on the table (+/- 0.1 px), a unit's verdict is
 * at least 20 mm tall, labels face the player whose unit they name (the
 * far edge's player reads them turned half a turn), no label is clipped or
 * left out, and every ink is bright and carries letters of WCAG AAA
 * contrast (>= 7:1).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "ov_internal.h"
#include "ov_scene.h"
#include "overlay_test_util.h"

#define TABLE_W 1828.8
#define TABLE_D 1219.2

static double px_per_mm(void) { return fmin(1280 / TABLE_W, 800 / TABLE_D); }

/* Board mm -> projector px: the table fitted and centred, board y up (the near edge at the bottom). */
static void table_H(double H[9])
{
    double s = px_per_mm();
    double h[9] = {s, 0, (1280 - s * TABLE_W) / 2, 0, -s, (800 - s * TABLE_D) / 2 + s * TABLE_D, 0, 0, 1};
    for (int i = 0; i < 9; i++)
        H[i] = h[i];
}

static ov_target *projector(void)
{
    double H[9];
    table_H(H);
    base_error err;
    ov_target *t = ov_target_new_projector(H, 1280, 800, &err);
    cr_assert_not_null(t, "%s", err.msg);
    return t;
}

Test(overlay_projector, lines_are_2mm_wide_on_the_table)
{
    ov_target *t = projector();
    base_vec2 line[2] = {{300, 600}, {1500, 600}};
    ov_polyline pl = {line, 2, false};
    ov_layer_style st = {.line = {OV_INK_NEUTRAL, 0, {0, 0, 0}, 1}, .width = 1, .dash = OV_DASH_SOLID};
    base_error err;
    cr_assert_eq(ov_draw_polylines(t, &pl, 1, &st, NULL, &err), 0, "%s", err.msg);
    uint8_t *g = malloc(1280 * 800);
    cr_assert_eq(ov_target_copy_pixels(t, g, OV_PIX_GRAY8, 1280, &err), 0, "%s", err.msg);
    /* Ink summed down the column at board x = 900: the line's width in px (antialiased edges included). */
    double col = px_per_mm() * 900 + (1280 - px_per_mm() * TABLE_W) / 2, sum = 0;
    double rgb[3];
    ov_paint p = st.line;
    ov_style_rgb(t, &p, rgb);
    double lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
    for (int y = 0; y < 800; y++)
        sum += g[y * 1280 + (int)col] / 255.0;
    double width_mm = sum / lum / px_per_mm();
    cr_expect_float_eq(width_mm, 2.0, 0.1 / px_per_mm(), "the line is %.2f mm wide on the table", width_mm);
    free(g);
    ov_target_free(t);
}

static ov_scene *demo_scene(const ot_turn *turn)
{
    static const char *const sides[2] = {"red", "blue"};
    ov_options o;
    ov_options_default(&o);
    o.sides = sides, o.n_sides = 2;
    base_error err;
    ov_scene *sc = ov_scene_new(&o, &err);
    cr_assert_not_null(sc);
    cr_assert_eq(ov_scene_add_verdict(sc, turn->before, turn->after, &turn->report, &err), 0, "%s", err.msg);
    return sc;
}

/* The demo's table, stretched to 6' x 4' (its units stay in the near left corner). */
static void demo_on_the_table(ot_turn *turn)
{
    ot_demo_turn(turn);
    turn->before->board_width = turn->after->board_width = TABLE_W;
    turn->before->board_depth = turn->after->board_depth = TABLE_D;
}

Test(overlay_projector, labels_face_their_player_and_none_is_clipped, .timeout = 60)
{
    ot_turn turn;
    demo_on_the_table(&turn);
    /* The archers (blue) stand at the far edge for this test: their player reads from there. */
    rules_unit *arch = rules_snapshot_find_unit(turn.after, "archers");
    cr_assert_not_null(arch);
    for (size_t m = 0; m < arch->n_models; m++) {
        arch->models[m].pos.y += TABLE_D - 700;
        arch->models[m].pos.x += 600;
        arch->models[m].facing += BASE_PI;
        rules_model *b = rules_unit_find_model(rules_snapshot_find_unit(turn.before, "archers"), arch->models[m].id);
        if (b)
            *b = arch->models[m];
    }
    ov_scene *sc = demo_scene(&turn);
    ov_target *t = projector();
    base_error err;
    cr_assert_eq(ov_scene_draw(sc, t, &err), 0, "%s", err.msg);
    ot_keep(t, "projector-6x4");
    cr_expect_eq(ov_scene_unplaced(sc), 0, "every label found room");
    const rules_snapshot *now[1] = {turn.after};
    ot_geometry g = ot_check_geometry(t, now, 1);
    cr_expect_eq(g.outside, 0, "no label is clipped at the projector's edge");
    cr_expect_eq(g.label_overlaps, 0);
    const ov_layout *L = ov_target_layout(t);
    size_t red = 0, blue = 0;
    double tallest = 0;
    for (size_t i = 0; i < ov_layout_count(L); i++) {
        const ov_obstacle *o = ov_layout_get(L, i);
        if (o->kind != OV_OBST_LABEL)
            continue;
        ov_box b = ov_quad_bbox(&o->q);
        cr_expect(b.x0 >= 0 && b.y0 >= 0 && b.x1 <= 1280 && b.y1 <= 800, "inside the frame");
        tallest = fmax(tallest, hypot(o->q.x[3] - o->q.x[0], o->q.y[3] - o->q.y[0]));
        /* Reading direction: corner 0 (top-left) to corner 1 (top-right) of the label's own frame. */
        double dx = o->q.x[1] - o->q.x[0];
        if (o->owner == 0) {
            red++;
            cr_expect_gt(dx, 0, "red's labels read left to right from the near edge");
        } else if (o->owner == 1) {
            blue++;
            cr_expect_lt(dx, 0, "blue's labels are turned to the far edge");
        }
    }
    cr_expect_geq(red, 5, "the spears' and knights' labels (%zu)", red);
    cr_expect_geq(blue, 1, "the archers' name (%zu)", blue);
    /* The verdict's card: 20 mm text, so the card is taller still. */
    cr_expect_geq(tallest / px_per_mm(), 20.0, "the tallest label is %.1f mm on the table", tallest / px_per_mm());
    ov_target_free(t);
    ov_scene_free(sc);
    ot_turn_clear(&turn);
}

static double linear(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
static double luminance(const double c[3])
{
    return 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
}

Test(overlay_projector, inks_are_bright_and_their_letters_contrast)
{
    ov_target *t = projector();
    for (int k = 0; k < 12; k++) {
        ov_paint p = k < 8 ? (ov_paint){(ov_ink)k, 0, {0, 0, 0}, 1} : (ov_paint){OV_INK_SIDE, k - 8, {0, 0, 0}, 1};
        double bg[3], fg[3];
        ov_style_rgb(t, &p, bg);
        ov_style_ink_on(bg, fg);
        double lb = luminance(bg), lf = luminance(fg);
        double ratio = (fmax(lb, lf) + 0.05) / (fmin(lb, lf) + 0.05);
        /* A projector only adds light: a dim ink vanishes on a lit table. */
        cr_expect_geq(lb, 0.3, "ink %d is bright enough on a lit table (luminance %.2f)", k, lb);
        cr_expect_geq(ratio, 7.0, "ink %d: letters at %.1f:1", k, ratio);
    }
    ov_target_free(t);
}
