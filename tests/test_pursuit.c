/*
 * Pursuit (seed 003): the simple pursuit, two units pursuing into the same
 * enemy, cases a-d of the figure, and one case per clause. Positions are
 * compared to 0.01 mm unless stated; the check's tolerance is
 * rules_pursuit_input.tolerance_mm (10 mm here).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_contact.h"
#include "rules_pursuit.h"
#include "rules_arcs.h"

static rules_snapshot *before, *after;
static rules_report report;
static rules_pursuit_prediction pred[4];
static rules_pursuer pursuers[4];
static rules_pursuit_input in;

static void setup(void)
{
    before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    after = NULL;
    before->ruleset = *rules_ruleset_find("t9a-mobility");
    before->ruleset_given = true;
    rules_report_init(&report);
    memset(pred, 0, sizeof pred);
    memset(&in, 0, sizeof in);
    in.pursuers = pursuers;
    in.tolerance_mm = 10;
}
static void teardown(void)
{
    for (int i = 0; i < 4; i++)
        rules_pursuit_prediction_clear(&pred[i]);
    rules_report_clear(&report);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}
TestSuite(pursuit, .init = setup, .fini = teardown);

#define B 25.0
#define UP (BASE_PI / 2)
#define DOWN (-BASE_PI / 2)
#define IN(x) base_in_to_mm(x)

static rules_unit *block(const char *id, const char *side, int files, int n, double fx, double fy, double heading)
{
    return fx_block(before, id, side, B, files, n, (rules_pose){{fx, fy}, heading}, 0, 0);
}

static void pursue(size_t k, const char *id, double inches)
{
    pursuers[k] = (rules_pursuer){id, IN(inches), false};
    if (in.n_pursuers < k + 1)
        in.n_pursuers = k + 1;
}

static void predict(void)
{
    base_error err = {0};
    cr_assert_eq(rules_pursuit_predict(before, &in, pred, &err), 0, "%s", err.msg);
}

static void assert_pose(rules_pose p, double x, double y, double heading)
{
    cr_assert_float_eq(p.front_centre.x, x, 0.01, "x %f, want %f", p.front_centre.x, x);
    cr_assert_float_eq(p.front_centre.y, y, 0.01, "y %f, want %f", p.front_centre.y, y);
    cr_assert_float_eq(base_angle_wrap(p.heading - heading), 0, 1e-6, "heading %f, want %f", p.heading, heading);
}

/* `after` = before with unit `id` carried to the prediction k, then moved by (dx, dy). */
static void after_as_predicted(size_t k, double dx, double dy)
{
    after = rules_snapshot_clone(before);
    rules_unit *u = rules_snapshot_find_unit(after, pred[k].unit_id);
    for (size_t j = 0; j < u->n_models; j++) {
        u->models[j].pos = base_v2_add(pred[k].models[j], base_v2(dx, dy));
        u->models[j].facing = base_angle_wrap(u->models[j].facing + pred[k].end.heading - pred[k].start.heading);
    }
}

static const rules_unit_report *check(void)
{
    base_error err = {0};
    cr_assert_eq(rules_pursuit_check(before, after, &in, NULL, &report, &err), 0, "%s", err.msg);
    return &report.units[0];
}

/* ---- simple pursuit --------------------------------------------------------------- */

Test(pursuit, simple_pursuit_moves_the_roll_straight_ahead)
{
    /* A broke and fled 10" ahead of B; B faces the same way, so no pivot, and moves its 7". */
    block("B", "red", 5, 10, 900, 300, UP);
    rules_unit *a = block("A", "blue", 5, 10, 900, 300 + IN(10) + 50, UP);
    a->status = RULES_STATUS_FLEEING;
    pursue(0, "B", 7);
    in.pursued_heading = UP;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_FORWARD);
    cr_assert_float_eq(pred[0].pivot_rad, 0, 1e-12);
    cr_assert_float_eq(pred[0].forward_mm, IN(7), 1e-6);
    assert_pose(pred[0].end, 900, 300 + IN(7), UP);
}

Test(pursuit, simple_pursuit_checked_against_the_table)
{
    block("B", "red", 5, 10, 900, 300, UP);
    block("A", "blue", 5, 10, 900, 300 + IN(10) + 50, UP)->status = RULES_STATUS_FLEEING;
    pursue(0, "B", 7);
    in.pursued_heading = UP;
    predict();
    after_as_predicted(0, 0, 9.99);
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "within the 10 mm tolerance");
    cr_assert_eq(ur->move, RULES_MOVE_PURSUIT);
    rules_report_clear(&report);
    rules_snapshot_free(after);
    after_as_predicted(0, 0, 10.5);
    const rules_violation *v = rules_unit_report_find(check(), "PU-POSITION");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured, 10.5, 1e-6);
    cr_assert_eq(v->n_models, 10);
}

Test(pursuit, the_fleeing_unit_is_an_obstruction_and_spacing_backtracks)
{
    /* A fled only 7.5": B's 7" would end 0.5" behind it, closer than Unit Spacing: back to 1" away. */
    block("B", "red", 5, 10, 900, 300, UP);
    block("A", "blue", 5, 10, 900, 300 + IN(7.5) + 50, UP)->status = RULES_STATUS_FLEEING;
    pursue(0, "B", 7);
    in.pursued_heading = UP;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_BACKTRACKED);
    cr_assert_eq(pred[0].step, 3);
    cr_assert_float_eq(pred[0].forward_mm, IN(6.5), 0.01);
}

/* ---- two units pursuing into the same enemy ------------------------------------------ */

Test(pursuit, two_units_charge_the_same_enemy_and_the_third_moves_on)
{
    /* D was destroyed (not on the table); A, B and C pursue ahead (+y). E stands 4" ahead of A and B. */
    block("A", "red", 5, 10, 762.5, 300, UP);  /* x 700 .. 825 */
    block("B", "red", 5, 10, 892.5, 300, UP);  /* x 830 .. 955 */
    block("C", "red", 5, 10, 1102.5, 300, UP); /* x 1040 .. 1165 */
    block("E", "blue", 5, 10, 802.5, 300 + IN(4), DOWN); /* x 740 .. 865, Front towards the pursuers */
    pursue(0, "A", 10);
    pursue(1, "B", 9);
    pursue(2, "C", 5);
    in.pursued_heading = UP;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_CHARGE);
    cr_assert_eq(pred[1].outcome, RULES_PURSUIT_CHARGE);
    cr_assert_str_eq(pred[0].target, "E");
    cr_assert_str_eq(pred[1].target, "E");
    cr_assert_eq(pred[0].target_facing, RULES_ARC_FRONT);
    cr_assert_lt(pred[0].order, 2, "chargers move first");
    cr_assert_lt(pred[1].order, 2);
    cr_assert_eq(pred[2].order, 2);
    /* A takes E's Front with all ten models engaged (corner contact counts, so A's left edge may be
     * anywhere from 715 to 765; the centre closest to where A first touched puts it at 715). B gets the
     * rest of E's Front: its left edge against A's right (840), 2 of its models and 2 of E's engaged.
     * Moving B first would engage 8 + 4 models, fewer than 10 + 4: the order tried first wins. */
    assert_pose(pred[0].end, 715 + 62.5, 300 + IN(4), UP);
    cr_assert_eq(pred[0].engaged_models, 10);
    assert_pose(pred[1].end, 840 + 62.5, 300 + IN(4), UP);
    cr_assert_eq(pred[1].engaged_models, 4);
    cr_assert_eq(pred[0].order, 0);
    /* C does not charge: it moves its 5" straight ahead. */
    cr_assert_eq(pred[2].outcome, RULES_PURSUIT_FORWARD);
    assert_pose(pred[2].end, 1102.5, 300 + IN(5), UP);
}

/* ---- figure: more complex cases ----------------------------------------------------------- */

/* Unit A (5 x 2) faces +y; C fled from its right Flank towards +x. */
static void flank_pursuit(void)
{
    block("A", "red", 5, 10, 900, 300, UP); /* x 837.5 .. 962.5, y 250 .. 300, centre (900, 275) */
    block("C", "blue", 5, 10, 1400, 275, 0)->status = RULES_STATUS_FLEEING;
    pursue(0, "A", 8);
    in.pursued_heading = 0;
}

Test(pursuit, case_a_a_friendly_unit_stops_the_pivot_one_inch_away)
{
    flank_pursuit();
    /* friendly B, not in the combat, in the way of A's pivoted Front (x = 925, y 212.5 .. 337.5) */
    rules_unit *b = block("B", "red", 4, 8, 950, 380, UP); /* x 900 .. 1000, y 330 .. 380: 30 mm from A */
    (void)b;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_PIVOT_BLOCKED);
    cr_assert_eq(pred[0].step, 1);
    cr_assert_lt(pred[0].pivot_rad, -0.01, "turned some way clockwise");
    cr_assert_gt(pred[0].pivot_rad, -BASE_PI / 2 + 0.01, "but not all the way");
    cr_assert_float_eq(pred[0].forward_mm, 0, 1e-6, "moves no farther");
    /* the pivot is about the centre and stops at Unit Spacing (1") from B */
    rules_formation f;
    rules_unit moved = *rules_snapshot_find_unit(before, "A");
    rules_model ms[10];
    for (int j = 0; j < 10; j++) {
        ms[j] = moved.models[j];
        ms[j].pos = pred[0].models[j];
        ms[j].facing = pred[0].end.heading;
    }
    moved.models = ms;
    rules_formation_fit(&moved, NULL, &f, NULL);
    cr_assert_float_eq(f.centre.x, 900, 0.01);
    cr_assert_float_eq(f.centre.y, 275, 0.01);
    rules_formation fb;
    rules_formation_fit(rules_snapshot_find_unit(before, "B"), NULL, &fb, NULL);
    cr_assert_float_eq(base_obb_dist(&f.boundary, &fb.boundary), IN(1), 0.01);
}

Test(pursuit, case_a_listed_as_in_the_combat_the_friend_is_open_terrain)
{
    flank_pursuit();
    block("B", "red", 4, 8, 950, 380, UP);
    static const char *const combat[] = {"B"};
    in.combat = combat;
    in.n_combat = 1;
    predict();
    cr_assert_neq(pred[0].outcome, RULES_PURSUIT_PIVOT_BLOCKED);
    cr_assert_float_eq(pred[0].pivot_rad, -BASE_PI / 2, 1e-9);
}

Test(pursuit, case_b_the_pivot_meets_an_enemy_and_charges_its_front)
{
    flank_pursuit();
    /* enemy D faces the pursuer (-y), its Front at y = 326, x 915 .. 1040: A is in its Front arc */
    block("D", "blue", 5, 10, 977.5, 326, DOWN);
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_CHARGE);
    cr_assert_eq(pred[0].step, 1);
    cr_assert_str_eq(pred[0].target, "D");
    cr_assert_eq(pred[0].target_facing, RULES_ARC_FRONT);
    /* Front to Front, aligned. Ten models engaged (corner contact counts) for A's left edge anywhere from
     * x 890 to 940; the centre closest to where it started (x 900) puts that edge at 890. */
    assert_pose(pred[0].end, 890 + 62.5, 326, UP);
    cr_assert_eq(pred[0].engaged_models, 10);
}

Test(pursuit, case_b_a_post_combat_reform_makes_the_enemy_an_obstruction)
{
    flank_pursuit();
    block("D", "blue", 5, 10, 977.5, 326, DOWN);
    pursuers[0].post_combat_reform = true;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_PIVOT_BLOCKED);
}

/* Unit E (5 x 2) faces +y; G fled straight ahead out of reach. */
static void ahead_pursuit(double roll)
{
    block("E", "red", 5, 10, 900, 300, UP); /* x 837.5 .. 962.5 */
    pursue(0, "E", roll);
    in.pursued_heading = UP;
}

Test(pursuit, case_c_the_first_obstacle_ahead_is_an_enemy_unit_charge_it)
{
    ahead_pursuit(7);
    block("F", "blue", 5, 10, 912.5, 300 + IN(4), DOWN); /* x 850 .. 975 */
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_CHARGE);
    cr_assert_eq(pred[0].step, 2);
    cr_assert_str_eq(pred[0].target, "F");
    cr_assert_eq(pred[0].engaged_models, 10, "maximising contact: every front model of both units");
    cr_assert_float_eq(pred[0].end.front_centre.y, 300 + IN(4), 0.01);
    cr_assert_float_eq(base_angle_wrap(pred[0].end.heading - UP), 0, 1e-9);
}

Test(pursuit, case_c_an_enemy_beyond_the_roll_is_not_charged)
{
    ahead_pursuit(3.9);
    block("F", "blue", 5, 10, 912.5, 300 + IN(4), DOWN);
    predict();
    cr_assert_neq(pred[0].outcome, RULES_PURSUIT_CHARGE);
}

Test(pursuit, case_c_exactly_at_the_roll_is_charged)
{
    ahead_pursuit(4);
    block("F", "blue", 5, 10, 900, 300 + IN(4), DOWN);
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_CHARGE);
}

Test(pursuit, case_d_impassable_terrain_ahead_backtracks_to_unit_spacing)
{
    ahead_pursuit(6);
    base_vec2 rock[4] = {{800, 300 + IN(4)}, {1000, 300 + IN(4)}, {1000, 600}, {800, 600}};
    rules_snapshot_add_terrain(before, "rock", RULES_TERRAIN_IMPASSABLE, rock, 4);
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_BACKTRACKED);
    cr_assert_eq(pred[0].step, 3);
    cr_assert_float_eq(pred[0].forward_mm, IN(3), 0.01, "4\" to the rock, back to 1\" from it");
}

Test(pursuit, a_friend_of_the_combat_ahead_is_passed_through_but_spacing_counts_at_the_end)
{
    ahead_pursuit(6);
    block("H", "red", 5, 5, 900, 300 + IN(2), UP); /* 1 rank, 1" to 2" ahead */
    static const char *const combat[] = {"H"};
    in.combat = combat;
    in.n_combat = 1;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_FORWARD, "open terrain: E moves its full 6\"");
    cr_assert_float_eq(pred[0].forward_mm, IN(6), 1e-6);
    teardown();
    setup();
    ahead_pursuit(6);
    block("H", "red", 5, 5, 900, 300 + IN(2), UP);
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_BACKTRACKED, "not in the combat: an obstruction");
    cr_assert_lt(pred[0].forward_mm, IN(2));
}

/* ---- board edge -------------------------------------------------------------------------- */

Test(pursuit, step_1_front_over_the_board_edge_pursues_off_the_board)
{
    /* A near the far long edge (y = depth); pivoting to +x swings its 125 mm Front across it */
    block("A", "red", 5, 10, 900, FX_BOARD_D - 20, UP);
    pursue(0, "A", 5);
    in.pursued_heading = 0;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_OFF_BOARD);
    cr_assert_eq(pred[0].step, 1);
}

Test(pursuit, step_2_board_edge_ahead_moves_to_it_and_off)
{
    block("A", "red", 5, 10, 900, FX_BOARD_D - IN(3), UP);
    pursue(0, "A", 5);
    in.pursued_heading = UP;
    predict();
    cr_assert_eq(pred[0].outcome, RULES_PURSUIT_OFF_BOARD);
    cr_assert_eq(pred[0].step, 2);
    assert_pose(pred[0].end, 900, FX_BOARD_D, UP);
    /* still on the table afterwards: illegal */
    after = rules_snapshot_clone(before);
    cr_assert_not_null(rules_unit_report_find(check(), "PU-OFF-BOARD"));
}

Test(pursuit, a_unit_removed_though_its_pursuit_ends_on_the_board)
{
    ahead_pursuit(5);
    after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    cr_assert_not_null(rules_unit_report_find(check(), "PU-MISSING"));
}

Test(pursuit, an_unknown_pursuer_is_bad_input)
{
    pursue(0, "nobody", 5);
    base_error err = {0};
    cr_assert_eq(rules_pursuit_predict(before, &in, pred, &err), -1);
    cr_assert(strstr(err.msg, "nobody"));
}
