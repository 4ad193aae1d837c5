/* Every clause of seed 004 (Moving Units), each with a case that fails if the clause is dropped. */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_move.h"

static rules_snapshot *before, *after;
static rules_report report;
static rules_check_options opt;

static void setup(void)
{
    before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_report_init(&report);
    rules_check_options_default(&opt);
}
static void teardown(void)
{
    rules_report_clear(&report);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}
TestSuite(move, .init = setup, .fini = teardown);

static const rules_pose START = {{900, 300}, BASE_PI / 2}; /* facing +y, well inside the board */

static const rules_unit_report *check(rules_move_type move)
{
    base_error err = {0};
    opt.move = move;
    cr_assert_eq(rules_move_check(before, after, &opt, &report, &err), 0, "%s", err.msg);
    cr_assert_geq(report.n_units, 1, "a unit should have been judged");
    return &report.units[0];
}

static bool has(const rules_unit_report *ur, const char *code)
{
    return rules_unit_report_find(ur, code) != NULL;
}

static bool has_note(const rules_unit_report *ur, const char *needle)
{
    for (size_t i = 0; i < ur->n_notes; i++)
        if (strstr(ur->notes[i], needle))
            return true;
    return false;
}

/* A 5x2 unit of 25 mm bases (Advance 5", March 10") moved straight by (dx, dy) in its own frame. */
static void shifted(double right_mm, double forward_mm, double turn_deg)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 5, 10);
    base_vec2 d = base_frame_to_board((base_frame){{0, 0}, START.heading}, base_v2(right_mm, forward_mm));
    fx_shifted_copy(after, u, START, d, base_deg_to_rad(turn_deg));
}

/* ---- Advance ---------------------------------------------------------- */

Test(move, advance_forward_exactly_at_the_rate_is_legal)
{
    shifted(0, base_in_to_mm(5), 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(ur->legal);
    cr_assert_str_eq(ur->direction, "forward");
    cr_assert_float_eq(ur->path.length_mm, base_in_to_mm(5), 1e-6);
}

Test(move, advance_forward_one_mm_over_is_illegal)
{
    shifted(0, base_in_to_mm(5) + 1.0, 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert_not(ur->legal);
    cr_assert(has(ur, "MU-PATH-LENGTH"));
    cr_assert(has(ur, "MU-MODEL-DIST"));
    const rules_violation *v = rules_unit_report_find(ur, "MU-PATH-LENGTH");
    cr_assert_float_eq(v->measured - v->limit, 1.0, 1e-6);
}

Test(move, advance_with_wheels_is_forward)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 8, 16);
    rules_step s[] = {fx_forward(2), fx_wheel(RULES_STEP_WHEEL_LEFT, 2, 125), fx_forward(1),
                      fx_wheel(RULES_STEP_WHEEL_RIGHT, 1, 125)};
    rules_path p = fx_path(4, s);
    fx_moved_copy(after, u, START, &p);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(ur->legal);
    cr_assert_leq(ur->path.length_mm, base_in_to_mm(6) + 1e-6);
}

Test(move, advance_backward_up_to_half_the_rate)
{
    shifted(0, -base_in_to_mm(2.5), 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(ur->legal);
    cr_assert_str_eq(ur->direction, "backward");
    cr_assert_float_eq(ur->rate_mm, base_in_to_mm(2.5), 1e-9);
}

Test(move, advance_backward_one_mm_over_half_is_illegal)
{
    shifted(0, -base_in_to_mm(2.5) - 1.0, 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert_not(ur->legal);
    cr_assert_str_eq(ur->direction, "backward");
    cr_assert(has(ur, "MU-PATH-LENGTH"));
}

Test(move, advance_sideways_up_to_half_the_rate)
{
    shifted(-base_in_to_mm(2.5), 0, 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(ur->legal);
    cr_assert_str_eq(ur->direction, "sideways");
    cr_assert_eq(ur->path.steps[0].kind, RULES_STEP_SIDEWAYS_LEFT);
}

Test(move, advance_sideways_one_mm_over_half_is_illegal)
{
    shifted(base_in_to_mm(2.5) + 1.0, 0, 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert_not(ur->legal);
    cr_assert_str_eq(ur->direction, "sideways");
}

Test(move, advance_backward_and_sideways_at_once_is_illegal)
{
    shifted(base_in_to_mm(1.5), -base_in_to_mm(1.5), 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert_not(ur->legal);
    cr_assert(has(ur, "MU-ONE-DIRECTION"));
}

Test(move, advance_may_not_reshuffle_the_block)
{
    shifted(0, 50, 0);
    rules_unit *u = &after->units[0];
    base_vec2 t = u->models[0].pos; /* swap a front-rank model with one in the second rank */
    u->models[0].pos = u->models[5].pos;
    u->models[5].pos = t;
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(has(ur, "MU-FORMATION-KEPT"));
}

/* ---- March ------------------------------------------------------------ */

Test(move, march_forward_with_wheels_at_the_rate_is_legal)
{
    shifted(0, base_in_to_mm(10), 0);
    const rules_unit_report *ur = check(RULES_MOVE_MARCH);
    cr_assert(ur->legal);
    cr_assert(has_note(ur, "cannot shoot"));
}

Test(move, march_one_mm_over_is_illegal)
{
    shifted(0, base_in_to_mm(10) + 1.0, 0);
    cr_assert_not(check(RULES_MOVE_MARCH)->legal);
}

Test(move, march_backwards_is_not_a_march)
{
    shifted(0, -base_in_to_mm(2), 0);
    const rules_unit_report *ur = check(RULES_MOVE_MARCH);
    cr_assert_not(ur->legal, "only forwards: going back needs two about-face wheels, far beyond 10\"");
    cr_assert(has(ur, "MU-PATH-LENGTH"));
}

Test(move, seed_figure_a_is_legal)
{
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    fx_seed_wheel_example('a', &before, &after);
    const rules_unit_report *ur = check(RULES_MOVE_MARCH);
    cr_assert(ur->legal);
    cr_assert_leq(ur->path.length_mm, base_in_to_mm(11) + 1.0);
    cr_assert_eq(ur->path.steps[0].kind == RULES_STEP_WHEEL_RIGHT || ur->path.steps[1].kind == RULES_STEP_WHEEL_RIGHT, 1);
}

Test(move, seed_figure_b_models_end_too_far)
{
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    fx_seed_wheel_example('b', &before, &after);
    const rules_unit_report *ur = check(RULES_MOVE_MARCH);
    cr_assert_not(ur->legal);
    cr_assert_leq(ur->path.length_mm, base_in_to_mm(8) + 1.0, "the corner moved only 8\"");
    cr_assert_not(has(ur, "MU-PATH-LENGTH"));
    const rules_violation *v = rules_unit_report_find(ur, "MU-MODEL-DIST");
    cr_assert_not_null(v);
    cr_assert_gt(v->measured, base_in_to_mm(10));
    cr_assert_geq(v->n_models, 1);
}

Test(move, seed_figure_c_is_legal_though_models_pass_beyond_the_rate)
{
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    fx_seed_wheel_example('c', &before, &after);
    const rules_unit_report *ur = check(RULES_MOVE_MARCH);
    cr_assert(ur->legal);
    cr_assert_leq(ur->path.length_mm, base_in_to_mm(15.5) + 1.0);
    cr_assert_gt(fabs(base_rad_to_deg(ur->rotation_rad)), 150);
}

/* ---- Reform ----------------------------------------------------------- */

Test(move, reform_keeps_the_centre_and_may_change_formation_and_facing)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 5, 10);
    rules_formation f0;
    rules_formation_fit(u, NULL, &f0, NULL);
    /* 2 files x 5 ranks facing right (-x), centre unchanged */
    rules_unit *v = rules_snapshot_add_unit(after, "u", "red");
    v->base_width = v->base_depth = 25;
    v->advance_rate = u->advance_rate;
    v->march_rate = u->march_rate;
    base_vec2 front = base_v2_add(f0.centre, base_v2(62.5, 0));
    rules_formation_place(v, front, 0.0, 2, 10);
    const rules_unit_report *ur = check(RULES_MOVE_REFORM);
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
    cr_assert_eq(ur->files_after, 2);
    cr_assert_eq(ur->ranks_after, 5);
    cr_assert(has_note(ur, "cannot shoot"));
}

Test(move, reform_that_moves_the_centre_is_illegal)
{
    shifted(20, 0, 90);
    const rules_unit_report *ur = check(RULES_MOVE_REFORM);
    cr_assert(has(ur, "MU-REFORM-CENTRE"));
}

Test(move, reform_model_farther_than_march_rate_is_illegal)
{
    /* a 12-model line (Advance 2", March 4") turned into a column: its end models travel far */
    rules_unit *u = fx_block(before, "u", "red", 25, 12, 12, START, 2, 4);
    rules_formation f0;
    rules_formation_fit(u, NULL, &f0, NULL);
    rules_unit *v = rules_snapshot_add_unit(after, "u", "red");
    v->base_width = v->base_depth = 25;
    v->march_rate = u->march_rate;
    v->advance_rate = u->advance_rate;
    rules_formation_place(v, base_v2_add(f0.centre, base_v2(0, 150)), BASE_PI / 2, 1, 12);
    const rules_unit_report *ur = check(RULES_MOVE_REFORM);
    cr_assert(has(ur, "MU-MODEL-DIST"));
    cr_assert_not(has(ur, "MU-REFORM-CENTRE"));
}

Test(move, reform_must_end_in_a_legal_formation)
{
    shifted(0, 0, 0);
    rules_unit *v = &after->units[0];
    v->models[3].pos.x += 12; /* one model pulled out of line */
    const rules_unit_report *ur = check(RULES_MOVE_REFORM);
    cr_assert(has(ur, "MU-FORMATION"));
}

/* ---- single models ------------------------------------------------------ */

Test(move, single_model_pivots_freely_during_an_advance)
{
    rules_unit *u = fx_block(before, "hero", "red", 40, 1, 1, START, 5, 10);
    /* 4" straight to its right, then facing back: pivots are free */
    rules_unit *v = fx_shifted_copy(after, u, START, base_v2(base_in_to_mm(4), 0), 0);
    v->models[0].facing = base_angle_wrap(v->models[0].facing + BASE_PI);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(ur->legal);
    cr_assert_float_eq(ur->path.length_mm, base_in_to_mm(4), 1e-6);
}

Test(move, single_model_without_free_pivots_must_wheel)
{
    before->ruleset.single_model_free_pivot = false;
    rules_unit *u = fx_block(before, "hero", "red", 40, 1, 1, START, 5, 10);
    rules_unit *v = fx_shifted_copy(after, u, START, base_v2(base_in_to_mm(4), 0), 0);
    v->models[0].facing = base_angle_wrap(v->models[0].facing + BASE_PI);
    cr_assert_not(check(RULES_MOVE_ADVANCE)->legal);
}

/* ---- eligibility and March Test ------------------------------------------ */

static void check_ineligible(unsigned unit_status, unsigned model_status)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 5, 10);
    u->status = unit_status;
    u->models[4].status = model_status;
    fx_shifted_copy(after, u, START, base_v2(0, 25), 0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(has(ur, "MU-ELIGIBLE"), "status %u/%u", unit_status, model_status);
}

Test(move, charging_unit_cannot_move) { check_ineligible(RULES_STATUS_CHARGING, 0); }
Test(move, engaged_unit_cannot_move) { check_ineligible(RULES_STATUS_ENGAGED, 0); }
Test(move, fleeing_unit_cannot_move) { check_ineligible(RULES_STATUS_FLEEING, 0); }
Test(move, unit_with_a_shaken_model_cannot_move) { check_ineligible(0, RULES_STATUS_SHAKEN); }

static void enemy_at(double gap_in, const char *side, unsigned status)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 5, 10);
    fx_shifted_copy(after, u, START, base_v2(0, 25), 0);
    /* enemy directly ahead, facing us: front edges gap_in apart */
    rules_pose ep = {base_v2(START.front_centre.x, START.front_centre.y + base_in_to_mm(gap_in)), -BASE_PI / 2};
    rules_unit *e = fx_block(before, "e", side, 25, 5, 10, ep, 5, 10);
    e->status = status;
    fx_shifted_copy(after, e, ep, base_v2(0, 0), 0);
}

Test(move, march_test_required_within_8_inches_of_an_enemy)
{
    enemy_at(8.0 - 0.01, "blue", 0);
    cr_assert(has_note(check(RULES_MOVE_AUTO), "March Test required"));
}

Test(move, no_march_test_beyond_8_inches)
{
    enemy_at(8.0 + 0.05, "blue", 0);
    cr_assert_not(has_note(check(RULES_MOVE_AUTO), "March Test required"));
}

Test(move, fleeing_or_friendly_units_need_no_march_test)
{
    enemy_at(3, "blue", RULES_STATUS_FLEEING);
    cr_assert_not(has_note(check(RULES_MOVE_AUTO), "March Test required"));
}

Test(move, friendly_units_need_no_march_test)
{
    enemy_at(3, "red", 0);
    cr_assert_not(has_note(check(RULES_MOVE_AUTO), "March Test required"));
}

/* ---- spacing and board edge ---------------------------------------------- */

static void neighbour_after_move(double gap_in)
{
    shifted(0, 50, 0);
    /* a friendly unit to the right; our right edge after the move is at x = 900 + 62.5 */
    rules_pose np = {base_v2(900 + 62.5 + base_in_to_mm(gap_in) + 62.5, 350), BASE_PI / 2};
    rules_unit *n = fx_block(before, "n", "red", 25, 5, 10, np, 5, 10);
    fx_shifted_copy(after, n, np, base_v2(0, 0), 0);
}

Test(move, ending_exactly_the_unit_spacing_away_is_legal)
{
    neighbour_after_move(1.0);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
}

Test(move, ending_closer_than_the_unit_spacing_is_illegal)
{
    neighbour_after_move(1.0 - 1.0 / 25.4);
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE);
    cr_assert(has(ur, "MU-SPACING-UNIT"));
    cr_assert_geq(rules_unit_report_find(ur, "MU-SPACING-UNIT")->n_models, 1);
}

Test(move, unit_spacing_is_ruleset_data)
{
    neighbour_after_move(0.75);
    before->ruleset.unit_spacing_mm = base_in_to_mm(0.5);
    before->ruleset_given = true;
    cr_assert(check(RULES_MOVE_ADVANCE)->legal);
}

Test(move, keep_away_from_impassable_terrain)
{
    shifted(0, 50, 0);
    double front = START.front_centre.y + 50;
    base_vec2 rock[4] = {{850, front + 20}, {950, front + 20}, {950, front + 80}, {850, front + 80}};
    rules_snapshot_add_terrain(after, "rock", RULES_TERRAIN_IMPASSABLE, rock, 4);
    cr_assert(has(check(RULES_MOVE_ADVANCE), "MU-SPACING-TERRAIN"));
}

Test(move, open_terrain_does_not_count_for_spacing)
{
    shifted(0, 50, 0);
    double front = START.front_centre.y + 50;
    base_vec2 field[4] = {{850, front + 5}, {950, front + 5}, {950, front + 80}, {850, front + 80}};
    rules_snapshot_add_terrain(after, "field", RULES_TERRAIN_OPEN, field, 4);
    cr_assert(check(RULES_MOVE_ADVANCE)->legal);
}

Test(move, ending_off_the_board_is_illegal)
{
    rules_pose edge = {{900, FX_BOARD_D - 60}, BASE_PI / 2};
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, edge, 5, 10);
    fx_shifted_copy(after, u, edge, base_v2(0, 80), 0);
    cr_assert(has(check(RULES_MOVE_ADVANCE), "MU-BOARD-EDGE"));
}

/* ---- inference and the report --------------------------------------------- */

Test(move, auto_prefers_advance_then_march)
{
    shifted(0, base_in_to_mm(4), 0);
    const rules_unit_report *ur = check(RULES_MOVE_AUTO);
    cr_assert_eq(ur->move, RULES_MOVE_ADVANCE);
    cr_assert_not(ur->declared);
    rules_report_clear(&report);
    rules_snapshot_free(after);
    after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    fx_shifted_copy(after, &before->units[0], START, base_v2(0, base_in_to_mm(8)), 0);
    ur = check(RULES_MOVE_AUTO);
    cr_assert_eq(ur->move, RULES_MOVE_MARCH);
    cr_assert(ur->legal);
}

Test(move, auto_infers_reform)
{
    shifted(0, 0, 0);
    rules_unit *v = &after->units[0];
    rules_formation f0;
    rules_formation_fit(&before->units[0], NULL, &f0, NULL);
    v->n_models = 0;
    rules_formation_place(v, base_v2_add(f0.centre, base_v2(-62.5, 0)), BASE_PI, 2, 10);
    const rules_unit_report *ur = check(RULES_MOVE_AUTO);
    cr_assert_eq(ur->move, RULES_MOVE_REFORM);
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
}

Test(move, auto_reports_the_closest_when_nothing_is_legal)
{
    shifted(0, base_in_to_mm(11), 0);
    const rules_unit_report *ur = check(RULES_MOVE_AUTO);
    cr_assert_eq(ur->move, RULES_MOVE_MARCH);
    cr_assert_not(ur->legal);
    cr_assert_not(report.legal);
}

Test(move, units_that_did_not_move_are_not_reported)
{
    rules_unit *u = fx_block(before, "still", "red", 25, 5, 10, START, 5, 10);
    fx_shifted_copy(after, u, START, base_v2(0.3, 0.2), 0); /* camera jitter only */
    base_error err = {0};
    cr_assert_eq(rules_move_check(before, after, &opt, &report, &err), 0);
    cr_assert_eq(report.n_units, 0);
    cr_assert(report.legal);
}

Test(move, model_changing_units_is_an_input_error)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 5, 10);
    fx_shifted_copy(after, u, START, base_v2(0, 10), 0);
    rules_unit *w = rules_snapshot_add_unit(after, "w", "red");
    w->base_width = w->base_depth = 25;
    rules_unit_add_model(w, "u-3", base_v2(100, 100), 0);
    after->units[0].models[2].id[0] = 'x'; /* u-3 now lives only in w */
    base_error err = {0};
    cr_assert_eq(rules_move_check(before, after, &opt, &report, &err), -1);
    cr_assert(strstr(err.msg, "u-3") && strstr(err.msg, "cannot change units"), "%s", err.msg);
}

Test(move, missing_rate_for_a_declared_move_is_an_input_error)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 5, 0);
    fx_shifted_copy(after, u, START, base_v2(0, 10), 0);
    base_error err = {0};
    opt.move = RULES_MOVE_MARCH;
    cr_assert_eq(rules_move_check(before, after, &opt, &report, &err), -1);
    cr_assert(strstr(err.msg, "march_in"), "%s", err.msg);
}

Test(move, report_json_carries_every_field)
{
    shifted(0, base_in_to_mm(5) + 10, 0);
    check(RULES_MOVE_ADVANCE);
    cJSON *j = rules_report_to_json(&report);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "legal")));
    cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "move")->valuestring, "advance");
    cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(u, "models"), 0);
    cr_assert_not_null(cJSON_GetObjectItem(m, "distance_mm"));
    cr_assert_not_null(cJSON_GetObjectItem(m, "distance_in"));
    cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(u, "centre"), "displacement_in"));
    cr_assert_not_null(cJSON_GetObjectItem(u, "rotation_deg"));
    cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(u, "formation"), "after"), "files")->valueint, 5);
    cJSON *steps = cJSON_GetObjectItem(cJSON_GetObjectItem(u, "path"), "steps");
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(steps, 0), "kind")->valuestring, "forward");
    cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItem(u, "violations"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(v, "code")->valuestring, "MU-PATH-LENGTH");
    cr_assert_not_null(cJSON_GetObjectItem(v, "measured_in"));
    cr_assert_not_null(cJSON_GetObjectItem(v, "limit_in"));
    cr_assert_not_null(cJSON_GetObjectItem(v, "message"));
    cr_assert(cJSON_IsArray(cJSON_GetObjectItem(u, "notes")));
    cJSON_Delete(j);
}
