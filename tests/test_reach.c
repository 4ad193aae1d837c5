/*
 * The reach before a move: every sampled pose inside the reach is legal by
 * `check`, poses just outside it are not, and the largest wheel each way is
 * the exact limit.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_move.h"
#include "rules_reach.h"

static rules_snapshot *table;
static rules_reach reach;

static void setup(void)
{
    table = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    memset(&reach, 0, sizeof reach);
}
static void teardown(void)
{
    rules_reach_clear(&reach);
    rules_snapshot_free(table);
}
TestSuite(reach, .init = setup, .fini = teardown);

static const rules_pose START = {{900, 300}, BASE_PI / 2};

/* `table` with unit `id` carried rigidly so that the centre of its Front is at `p`. */
static rules_snapshot *moved_to(const char *id, rules_pose p)
{
    rules_snapshot *s = rules_snapshot_clone(table);
    rules_unit *u = rules_snapshot_find_unit(s, id);
    rules_formation f;
    rules_formation_fit(u, NULL, &f, NULL);
    double turn = p.heading - f.heading;
    for (size_t k = 0; k < u->n_models; k++) {
        u->models[k].pos = base_v2_add(p.front_centre, base_v2_rot(base_v2_sub(u->models[k].pos, f.front_centre), turn));
        u->models[k].facing = base_angle_wrap(u->models[k].facing + turn);
    }
    return s;
}

/* The call `tableref check` makes on moving unit `id` there (with the limits exact when `strict`). */
static bool legal_at(const char *id, rules_pose p, rules_move_type move, bool strict)
{
    rules_snapshot *after = moved_to(id, p);
    rules_check_options opt;
    rules_check_options_default(&opt);
    opt.move = move;
    if (strict)
        opt.limit_tolerance_mm = 0;
    rules_report r;
    rules_report_init(&r);
    base_error err = {0};
    cr_assert_eq(rules_move_check(table, after, &opt, &r, &err), 0, "%s", err.msg);
    const rules_unit_report *ur = rules_report_find_unit(&r, id);
    bool legal = !ur || ur->verdict == RULES_VERDICT_LEGAL; /* absent: it did not move */
    rules_report_clear(&r);
    rules_snapshot_free(after);
    return legal;
}

static rules_pose along(rules_pose p, double mm)
{
    p.front_centre = base_v2_add(p.front_centre, base_v2_scale(base_v2_dir(p.heading), mm));
    return p;
}

/* Every sample legal (the check as it is), 0.15 mm beyond it illegal (limits exact), for every facing. */
static void assert_samples_hold(const char *id, rules_move_type move, size_t every, size_t at_least)
{
    size_t tested = 0;
    for (size_t i = 0; i < reach.n_facings; i++) {
        const rules_reach_facing *f = &reach.facings[i];
        cr_assert_gt(f->n_columns, 0);
        cr_assert_geq(f->n_envelope, 4, "an outline to draw");
        for (size_t k = 0; k < f->n_columns; k += every) {
            cr_assert(legal_at(id, f->far[k], move, false), "facing %.0f column %zu: the far sample is legal",
                      base_rad_to_deg(f->turn), k);
            cr_assert(legal_at(id, f->near[k], move, false), "facing %.0f column %zu: the near sample is legal",
                      base_rad_to_deg(f->turn), k);
            cr_assert_not(legal_at(id, along(f->far[k], 0.15), move, true),
                          "facing %.0f column %zu: just beyond the far sample is illegal", base_rad_to_deg(f->turn), k);
            cr_assert_not(legal_at(id, along(f->near[k], -0.15), move, true),
                          "facing %.0f column %zu: just short of the near sample is illegal", base_rad_to_deg(f->turn),
                          k);
            tested++;
        }
    }
    cr_assert_geq(tested, at_least, "samples tested (%zu)", tested);
}

Test(reach, a_march_of_the_seed_regiment_every_sample_legal_and_just_outside_not)
{
    /* the regiment of seed figure b: 3 x 6 on 25 mm bases, March Rate 10" */
    fx_block(table, "regiment", "red", 25, 3, 18, START, 5, 10);
    base_error err = {0};
    cr_assert_eq(rules_reach_compute(table, "regiment", RULES_MOVE_MARCH, NULL, &reach, &err), 0, "%s", err.msg);
    cr_assert_gt(reach.n_facings, 10);
    assert_samples_hold("regiment", RULES_MOVE_MARCH, 3, 100);
    /* straight on, the Front goes exactly the March Rate */
    for (size_t i = 0; i < reach.n_facings; i++)
        if (reach.facings[i].turn == 0) {
            double far = 0;
            for (size_t k = 0; k < reach.facings[i].n_columns; k++)
                far = fmax(far, reach.facings[i].far[k].front_centre.y - START.front_centre.y);
            cr_assert_float_eq(far, base_in_to_mm(10), 0.1);
        }
}

Test(reach, the_largest_wheel_is_where_the_rear_corner_model_reaches_the_march_rate)
{
    fx_block(table, "regiment", "red", 25, 3, 18, START, 5, 10);
    base_error err = {0};
    cr_assert_eq(rules_reach_compute(table, "regiment", RULES_MOVE_MARCH, NULL, &reach, &err), 0, "%s", err.msg);
    /* wheeling left about the left front corner, the rear-right model (62.5 mm across, 137.5 mm back from the
     * pivot) moves a chord 2 r sin(a / 2): it reaches 10" at a = 2 asin(127 / r) */
    double r = hypot(62.5, 137.5), expect = 2 * asin(base_in_to_mm(10) / 2 / r);
    cr_assert_float_eq(reach.wheel_left.angle_rad, expect, 1e-3);
    cr_assert_float_eq(reach.wheel_right.angle_rad, expect, 1e-3);
    cr_assert_float_eq(reach.wheel_left.distance_mm, 75 * reach.wheel_left.angle_rad, 1e-6, "measured on the arc");
    rules_step w = {RULES_STEP_WHEEL_LEFT, 0, reach.wheel_left.angle_rad};
    cr_assert(legal_at("regiment", rules_path_apply_step(START, &w, 75), RULES_MOVE_MARCH, false));
    w.angle_rad += base_deg_to_rad(0.2);
    cr_assert_not(legal_at("regiment", rules_path_apply_step(START, &w, 75), RULES_MOVE_MARCH, true));
}

Test(reach, an_enemy_ahead_stops_the_reach_at_unit_spacing)
{
    fx_block(table, "spears", "red", 25, 5, 10, START, 5, 10);
    /* an enemy whose boundary begins 6" ahead of the spears' Front */
    rules_pose e = {base_v2(START.front_centre.x, START.front_centre.y + base_in_to_mm(6)), -BASE_PI / 2};
    fx_block(table, "orcs", "blue", 25, 8, 16, e, 5, 10);
    base_error err = {0};
    rules_reach_options o;
    rules_reach_options_default(&o);
    o.facing_step_rad = base_deg_to_rad(30);
    cr_assert_eq(rules_reach_compute(table, "spears", RULES_MOVE_ADVANCE, &o, &reach, &err), 0, "%s", err.msg);
    const rules_reach_facing *ahead = NULL;
    for (size_t i = 0; i < reach.n_facings; i++)
        if (reach.facings[i].turn == 0)
            ahead = &reach.facings[i];
    cr_assert_not_null(ahead);
    double far_mid = -1;
    for (size_t k = 0; k < ahead->n_columns; k++)
        if (fabs(ahead->far[k].front_centre.x - START.front_centre.x) < 1e-6)
            far_mid = ahead->far[k].front_centre.y - START.front_centre.y;
    cr_assert_float_eq(far_mid, base_in_to_mm(5), 0.1, "straight on: 6\" to the enemy less 1\" of Unit Spacing");
    assert_samples_hold("spears", RULES_MOVE_ADVANCE, 2, 20);
}

Test(reach, only_advance_and_march_have_a_reach)
{
    fx_block(table, "spears", "red", 25, 5, 10, START, 5, 10);
    base_error err = {0};
    cr_assert_eq(rules_reach_compute(table, "spears", RULES_MOVE_REFORM, NULL, &reach, &err), -1);
    cr_assert_eq(rules_reach_compute(table, "nobody", RULES_MOVE_MARCH, NULL, &reach, &err), -1);
    cr_assert(strstr(err.msg, "nobody"), "%s", err.msg);
    table->units[0].march_rate = NAN;
    cr_assert_eq(rules_reach_compute(table, "spears", RULES_MOVE_MARCH, NULL, &reach, &err), -1);
    cr_assert(strstr(err.msg, "march_in"), "%s", err.msg);
}

Test(reach, the_boundary_at_a_sample_is_the_units_own_outline)
{
    fx_block(table, "regiment", "red", 25, 3, 18, START, 5, 10);
    base_error err = {0};
    cr_assert_eq(rules_reach_compute(table, "regiment", RULES_MOVE_MARCH, NULL, &reach, &err), 0, "%s", err.msg);
    /* at the start, the boundary is the one the formation fit finds: 75 x 150 mm behind the Front */
    base_obb b = rules_reach_boundary(&reach, START);
    rules_formation f;
    rules_formation_fit(&table->units[0], NULL, &f, NULL);
    cr_assert_float_eq(b.width, 75, 1e-9);
    cr_assert_float_eq(b.depth, 150, 1e-9);
    cr_assert_float_eq(b.centre.x, f.centre.x, 1e-6);
    cr_assert_float_eq(b.centre.y, f.centre.y, 1e-6);
    cr_assert_float_eq(base_angle_wrap(b.heading - f.heading), 0, 1e-9);
    /* turned: its front edge is centred on the pose */
    rules_pose p = {base_v2(800, 500), base_deg_to_rad(30)};
    b = rules_reach_boundary(&reach, p);
    base_vec2 fc = base_obb_front_centre(&b);
    cr_assert_float_eq(fc.x, 800, 1e-9);
    cr_assert_float_eq(fc.y, 500, 1e-9);
}
