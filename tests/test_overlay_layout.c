/*
 * overlay_layout: where labels go. The placer on its own (a hard obstacle
 * is never covered, a label pushed away gets a leader, one that fits
 * nowhere is not placed), then the geometry of whole pictures: on the demo
 * turn and on the vision bench's crowded board (250 models, every unit
 * moved), on a camera frame, a projector frame and a report page, no two
 * label boxes overlap, no label covers a model's base centre (mapped here
 * from the snapshots, not taken from the layout's own record) or a number
 * written in a base, and every label lies inside the picture. Tolerance:
 * 0.5 px (or point) of overlap.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "ov_layout.h"
#include "ov_scene.h"
#include "overlay_test_util.h"

Test(overlay_layout, a_label_keeps_off_hard_obstacles_and_leaves_a_leader_when_pushed)
{
    ov_layout *L = ov_layout_new((ov_box){0, 0, 400, 300}, NULL);
    cr_assert_not_null(L);
    /* A ring of base centres and a number around the anchor (200, 150): the nearest free place is beyond. */
    for (int k = 0; k < 16; k++)
        ov_layout_add_point(L, 200 + 40 * cos(k * BASE_PI / 8), 150 + 40 * sin(k * BASE_PI / 8), 6, OV_OBST_CENTRE);
    ov_quad number = ov_quad_rect(200, 150, 30, 12, 0);
    ov_layout_add(L, &number, OV_OBST_NUMBER);
    ov_label_req q = {200, 150, 80, 20, 0, 0, true, 7};
    ov_label_place p;
    cr_assert_eq(ov_layout_place(L, &q, &p), 0);
    cr_assert(p.placed);
    for (size_t i = 0; i < ov_layout_count(L) - 1; i++)
        cr_expect_not(ov_quad_overlap(&p.box, &ov_layout_get(L, i)->q, 0.25), "covers obstacle %zu", i);
    cr_expect(p.leader, "placed away from what it names: a leader");
    cr_expect_eq(ov_layout_get(L, ov_layout_count(L) - 1)->owner, 7, "the owner is kept");
    /* A second label never overlaps the first. */
    ov_label_place p2;
    cr_assert_eq(ov_layout_place(L, &q, &p2), 0);
    cr_assert(p2.placed);
    cr_expect_not(ov_quad_overlap(&p.box, &p2.box, 0.25));
    ov_layout_free(L);
}

Test(overlay_layout, a_label_that_fits_nowhere_is_not_placed)
{
    ov_layout *L = ov_layout_new((ov_box){0, 0, 100, 40}, NULL);
    ov_label_req wide = {50, 20, 140, 20, 0, 0, true, -1};
    ov_label_place p;
    cr_assert_eq(ov_layout_place(L, &wide, &p), 0);
    cr_expect_not(p.placed, "wider than the picture");
    ov_quad all = ov_quad_box((ov_box){0, 0, 100, 40});
    ov_layout_add(L, &all, OV_OBST_NUMBER);
    ov_label_req small = {50, 20, 20, 10, 0, 0, true, -1};
    cr_assert_eq(ov_layout_place(L, &small, &p), 0);
    cr_expect_not(p.placed, "everything taken");
    ov_layout_free(L);
}

Test(overlay_layout, turned_labels_are_boxes_turned_too)
{
    ov_layout *L = ov_layout_new((ov_box){0, 0, 400, 300}, NULL);
    ov_label_req q = {200, 150, 100, 20, BASE_PI, 10, true, 1};
    ov_label_place p;
    cr_assert_eq(ov_layout_place(L, &q, &p), 0);
    cr_assert(p.placed);
    /* Reading frame turned half a turn: its top-left corner is right of its top-right. */
    cr_expect_gt(p.box.x[0], p.box.x[1]);
    cr_expect_float_eq(ov_quad_area(&p.box), 2000, 1e-6);
    ov_layout_free(L);
}

static void check(const char *what, ov_target *t, const ot_turn *turn, size_t max_unplaced, size_t unplaced)
{
    const rules_snapshot *now[1] = {turn->after};
    ot_geometry g = ot_check_geometry(t, now, 1);
    printf("%s: %zu labels, %zu numbers, %zu base centres checked, %zu labels not placed\n", what, g.labels,
           g.numbers, g.centres_checked, unplaced);
    cr_expect_gt(g.labels, 0, "%s: labels were placed", what);
    cr_expect_eq(g.label_overlaps, 0, "%s: %zu pairs of labels overlap", what, g.label_overlaps);
    cr_expect_eq(g.label_on_number, 0, "%s: %zu labels cover a number", what, g.label_on_number);
    cr_expect_eq(g.label_on_centre, 0, "%s: %zu labels cover a base centre", what, g.label_on_centre);
    cr_expect_eq(g.number_overlaps, 0, "%s: %zu numbers overlap", what, g.number_overlaps);
    cr_expect_eq(g.outside, 0, "%s: %zu labels leave the picture", what, g.outside);
    cr_expect_leq(unplaced, max_unplaced, "%s: %zu labels found no room", what, unplaced);
}

/* The verdict drawn on the turn's camera (at w x h), a 1280x800 projector fitted over its board, a report. */
static void draw_all(const char *name, const ot_turn *turn, int w, int h, size_t max_unplaced[3])
{
    base_error err;
    ov_options o;
    ov_options_default(&o);
    ov_scene *sc = ov_scene_new(&o, &err);
    cr_assert_not_null(sc);
    cr_assert_eq(ov_scene_add_verdict(sc, turn->before, turn->after, &turn->report, &err), 0, "%s", err.msg);
    char what[128];
    clock_t c0 = clock();
    ov_target *cam = ov_target_new_camera(&turn->calib, w, h, NULL, OV_PIX_GRAY8, 0, &err);
    cr_assert_not_null(cam, "%s", err.msg);
    cr_assert_eq(ov_scene_draw(sc, cam, &err), 0, "%s", err.msg);
    snprintf(what, sizeof what, "%s camera %dx%d (%.0f ms)", name, w, h, 1000.0 * (clock() - c0) / CLOCKS_PER_SEC);
    check(what, cam, turn, max_unplaced[0], ov_scene_unplaced(sc));
    snprintf(what, sizeof what, "%s-camera-%d", name, w);
    ot_keep(cam, what);
    ov_target_free(cam);

    double bw = turn->after->board_width, bd = turn->after->board_depth, s = fmin(1280 / bw, 800 / bd);
    double H[9] = {s, 0, (1280 - s * bw) / 2, 0, -s, (800 - s * bd) / 2 + s * bd, 0, 0, 1};
    ov_target *proj = ov_target_new_projector(H, 1280, 800, &err);
    cr_assert_not_null(proj);
    cr_assert_eq(ov_scene_draw(sc, proj, &err), 0, "%s", err.msg);
    snprintf(what, sizeof what, "%s projector", name);
    check(what, proj, turn, max_unplaced[1], ov_scene_unplaced(sc));
    snprintf(what, sizeof what, "%s-projector", name);
    ot_keep(proj, what);
    ov_target_free(proj);

    double view[4];
    ov_report_view(turn->before, turn->after, &turn->report, NULL, false, view);
    ov_target *rep = ov_target_new_report_view(view[0], view[1], view[2], view[3], OV_PAPER_A4, OV_FORMAT_PNG, NULL, &err);
    cr_assert_not_null(rep);
    cr_assert_eq(ov_scene_draw(sc, rep, &err), 0, "%s", err.msg);
    snprintf(what, sizeof what, "%s report", name);
    check(what, rep, turn, max_unplaced[2], ov_scene_unplaced(sc));
    snprintf(what, sizeof what, "%s-report", name);
    ot_keep(rep, what);
    ov_target_free(rep);
    ov_scene_free(sc);
}

Test(overlay_layout, demo_turn_labels_overlap_nothing, .timeout = 60)
{
    ot_turn turn;
    ot_demo_turn(&turn);
    size_t none[3] = {0, 0, 0};
    draw_all("demo", &turn, turn.width, turn.height, none);
    ot_turn_clear(&turn);
}

Test(overlay_layout, crowded_board_labels_overlap_nothing, .timeout = 120)
{
    ot_turn turn;
    ot_crowded_turn(&turn);
    size_t illegal = 0;
    for (size_t i = 0; i < turn.report.n_units; i++)
        illegal += turn.report.units[i].verdict == RULES_VERDICT_ILLEGAL;
    cr_assert_geq(turn.report.n_units, 20, "most of the 25 units were judged (%zu)", turn.report.n_units);
    cr_assert_gt(illegal, 5, "the 11\" moves are illegal (%zu)", illegal);
    /* Most units break a rule at once, many by ending on each other: about 120 labels for 250 models. A
     * few find no room (measured: 12 of 119 on a camera frame, 12 of 118 on the projector, 20 of 92 on
     * an A4 page); their words stay in the report's text. What is placed never overlaps. */
    size_t full[3] = {15, 15, 25};
    draw_all("crowded", &turn, turn.width, turn.height, full);
    size_t small[3] = {15, 15, 25};
    draw_all("crowded", &turn, 1280, 960, small);
    ot_turn_clear(&turn);
}
