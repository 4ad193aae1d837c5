/*
 * The remaining clauses (issue 14), each against the seed texts and the
 * glossary's definitions:
 *   - seed 004: an Advance goes forwards, backwards or sideways, never two of
 *     them: MU-ONE-DIRECTION is the reason given, not a path length;
 *   - glossary [B]: the Proper Rank is 5 models at Height 0-2, 3 at 3-4, 1 at
 *     5, per unit;
 *   - seed 003, 2.2: only enemies that fled from the pursuers' combat are
 *     obstructions; any other enemy, Fleeing or not, is Charged, and "may not
 *     perform any Charge Reactions (not even if already Fleeing)";
 *   - seed 003, 2.2: the Charge is a Charge Move "following all the normal
 *     Move Chargers rules": forward, one wheel, then aligned on contact.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_json.h"
#include "rules_move.h"
#include "rules_pursuit.h"

static rules_snapshot *before, *after;
static rules_report report;

static void setup(void)
{
    before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_report_init(&report);
}
static void teardown(void)
{
    rules_report_clear(&report);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}
TestSuite(clauses, .init = setup, .fini = teardown);

#define IN(x) base_in_to_mm(x)
static const rules_pose START = {{900, 300}, BASE_PI / 2};

static const rules_unit_report *check(rules_move_type move, const char *unit)
{
    rules_check_options opt;
    rules_check_options_default(&opt);
    opt.move = move;
    base_error err = {0};
    cr_assert_eq(rules_move_check(before, after, &opt, &report, &err), 0, "%s", err.msg);
    const rules_unit_report *ur = rules_report_find_unit(&report, unit);
    cr_assert_not_null(ur);
    return ur;
}

/* A 5 x 2 unit of 25 mm bases (Advance 5") moved straight by (right, forward) in its own frame. */
static void advanced(double right_mm, double forward_mm)
{
    rules_unit *u = fx_block(before, "u", "red", 25, 5, 10, START, 5, 10);
    base_vec2 d = base_frame_to_board((base_frame){{0, 0}, START.heading}, base_v2(right_mm, forward_mm));
    fx_shifted_copy(after, u, START, d, 0);
}

/* ---- MU-ONE-DIRECTION --------------------------------------------------------- */

Test(clauses, back_and_sideways_at_once_is_one_direction_not_a_path_length)
{
    advanced(IN(1.5), -IN(1.5));
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE, "u");
    const rules_violation *v = rules_unit_report_find(ur, "MU-ONE-DIRECTION");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured, IN(1.5), 1e-6, "the second direction's length");
    cr_assert_null(rules_unit_report_find(ur, "MU-PATH-LENGTH"), "the reason is the directions, not a path");
    cr_assert_str_eq(ur->direction, "combined");
    cr_assert_eq(ur->path.n_steps, 2);
    cr_assert_eq(ur->path.steps[0].kind, RULES_STEP_BACKWARD);
    cr_assert_eq(ur->path.steps[1].kind, RULES_STEP_SIDEWAYS_RIGHT);
    cr_assert_float_eq(ur->path.length_mm, IN(3), 1e-6);
}

Test(clauses, forward_and_far_sideways_without_turning_is_one_direction)
{
    advanced(-IN(3), IN(1)); /* no wheels make 3" sideways in 1" forward within 5" */
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE, "u");
    cr_assert_not_null(rules_unit_report_find(ur, "MU-ONE-DIRECTION"));
    cr_assert_null(rules_unit_report_find(ur, "MU-PATH-LENGTH"));
    cr_assert_eq(ur->path.steps[1].kind, RULES_STEP_SIDEWAYS_LEFT);
}

Test(clauses, a_small_sideways_drift_done_by_wheels_within_the_rate_is_a_forward_advance)
{
    advanced(IN(0.3), IN(3));
    const rules_unit_report *ur = check(RULES_MOVE_ADVANCE, "u");
    cr_assert(ur->legal, "two wheels make the drift within 5\"");
    cr_assert_str_eq(ur->direction, "forward");
}

/* ---- Proper Rank by Height ------------------------------------------------------- */

/* A unit of `n` models `files` wide before and after, reformed from 4 files, Height `height` (-1: not given). */
static void reformed(const char *id, double x, int files, int n, int height)
{
    rules_pose at = {{x, 300}, BASE_PI / 2};
    rules_unit *u0 = fx_block(before, id, "red", 40, 4, n, at, 5, 10);
    rules_formation f;
    rules_formation_fit(u0, NULL, &f, NULL);
    /* the same models in a block `files` wide about the same centre */
    rules_unit *u1 = fx_block(after, id, "red", 40, files, n, at, 5, 10);
    rules_formation g;
    rules_formation_fit(u1, NULL, &g, NULL);
    for (size_t k = 0; k < u1->n_models; k++)
        u1->models[k].pos = base_v2_add(u1->models[k].pos, base_v2_sub(f.centre, g.centre));
    u0->height = u1->height = height;
}

Test(clauses, each_unit_uses_the_proper_rank_of_its_own_height)
{
    before->ruleset = *rules_ruleset_find("t9a-mobility");
    before->ruleset_given = true;
    reformed("infantry", 400, 3, 12, 1);  /* Height 1: a Proper Rank is 5; 3 x 4 has more ranks than files */
    reformed("ogres", 900, 3, 12, 3);     /* Height 3: a Proper Rank is 3; 3 wide is one */
    reformed("unknown", 1400, 3, 12, -1); /* no Height: the ruleset's standard width, 5 */
    const rules_unit_report *inf = check(RULES_MOVE_REFORM, "infantry");
    const rules_violation *v = rules_unit_report_find(inf, "MU-RANKS-FILES");
    cr_assert_not_null(v);
    cr_assert(strstr(v->message, "5 models wide (a Proper Rank of standard height)"), "%s", v->message);
    cr_assert_null(rules_unit_report_find(rules_report_find_unit(&report, "ogres"), "MU-RANKS-FILES"),
                   "3 files are a Proper Rank at Height 3");
    cr_assert_not_null(rules_unit_report_find(rules_report_find_unit(&report, "unknown"), "MU-RANKS-FILES"));
}

Test(clauses, the_height_classes_follow_the_glossary)
{
    const rules_ruleset *rs = rules_ruleset_find("t9a-mobility");
    rules_unit u = {.height = -1};
    int expect[6] = {5, 5, 5, 3, 3, 1};
    for (int h = 0; h <= 5; h++) {
        u.height = h;
        cr_assert_eq(rules_formation_proper_rank(rs, &u), expect[h], "Height %d", h);
    }
    u.height = -1;
    cr_assert_eq(rules_formation_proper_rank(rs, &u), 5);
}

Test(clauses, height_and_type_are_read_and_written_and_a_typo_is_an_error)
{
    const char *text = "{\"board\": {\"width_mm\": 1000, \"depth_mm\": 800}, \"units\": ["
                       "{\"id\": \"a\", \"side\": \"red\", \"base_mm\": [40, 40], \"height\": \"large\", "
                       "\"type\": \"cavalry\", \"combat\": \"c1\", \"models\": [{\"id\": \"a-1\", \"x_mm\": 100, "
                       "\"y_mm\": 100, \"facing_deg\": 90}]},"
                       "{\"id\": \"b\", \"side\": \"red\", \"base_mm\": [40, 40], \"height\": 4, "
                       "\"models\": [{\"id\": \"b-1\", \"x_mm\": 300, \"y_mm\": 100, \"facing_deg\": 90}]}]}";
    base_error err = {0};
    cJSON *j = cJSON_Parse(text);
    rules_snapshot *s = rules_json_to_snapshot(j, "t.json", &err);
    cJSON_Delete(j);
    cr_assert_not_null(s, "%s", err.msg);
    cr_assert_eq(s->units[0].height, 3);
    cr_assert_str_eq(s->units[0].type, "cavalry");
    cr_assert_str_eq(s->units[0].combat, "c1");
    cr_assert_eq(s->units[1].height, 4);
    cJSON *out = rules_json_from_snapshot(s);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(out, "units"), 0), "height")->valuestring,
                     "large");
    cJSON_Delete(out);
    rules_snapshot_free(s);
    const char *typo = "{\"board\": {\"width_mm\": 1000, \"depth_mm\": 800}, \"units\": ["
                       "{\"id\": \"a\", \"side\": \"red\", \"base_mm\": [40, 40], \"type\": \"cavalary\", "
                       "\"models\": [{\"id\": \"a-1\", \"x_mm\": 100, \"y_mm\": 100, \"facing_deg\": 90}]}]}";
    j = cJSON_Parse(typo);
    cr_assert_null(rules_json_to_snapshot(j, "t.json", &err));
    cr_assert(strstr(err.msg, "t.json: units[0].type"), "%s", err.msg);
    cJSON_Delete(j);
    const char *tall = "{\"board\": {\"width_mm\": 1000, \"depth_mm\": 800}, \"units\": ["
                       "{\"id\": \"a\", \"side\": \"red\", \"base_mm\": [40, 40], \"height\": 6, "
                       "\"models\": [{\"id\": \"a-1\", \"x_mm\": 100, \"y_mm\": 100, \"facing_deg\": 90}]}]}";
    j = cJSON_Parse(tall);
    cr_assert_null(rules_json_to_snapshot(j, "t.json", &err));
    cr_assert(strstr(err.msg, "units[0].height"), "%s", err.msg);
    cJSON_Delete(j);
}

/* ---- Pursuit: which combat each unit fled from -------------------------------------------- */

static rules_pursuer pursuers[1];
static rules_pursuit_input pin;
static rules_pursuit_prediction pred;

/*
 * E pursues 7" straight ahead (facing +y); G, an enemy whose boundary is 4"
 * ahead of E's Front, is Fleeing. G's combat and E's are set by the test.
 */
static void pursuit_with_fleeing_enemy_ahead(const char *e_combat, const char *g_combat)
{
    before->ruleset = *rules_ruleset_find("t9a-mobility");
    before->ruleset_given = true;
    rules_unit *e = fx_block(before, "E", "red", 25, 5, 10, START, 0, 0);
    snprintf(e->combat, sizeof e->combat, "%s", e_combat);
    rules_pose g = {base_v2(START.front_centre.x, START.front_centre.y + IN(4)), -BASE_PI / 2};
    rules_unit *gu = fx_block(before, "G", "blue", 25, 5, 10, g, 0, 0);
    gu->status = RULES_STATUS_FLEEING;
    snprintf(gu->combat, sizeof gu->combat, "%s", g_combat);
    memset(&pin, 0, sizeof pin);
    pursuers[0] = (rules_pursuer){"E", IN(7), false};
    pin.pursuers = pursuers;
    pin.n_pursuers = 1;
    pin.pursued_heading = BASE_PI / 2;
    pin.tolerance_mm = 10;
    memset(&pred, 0, sizeof pred);
}

static void predict(void)
{
    base_error err = {0};
    rules_pursuit_prediction_clear(&pred);
    cr_assert_eq(rules_pursuit_predict(before, &pin, &pred, &err), 0, "%s", err.msg);
}

Test(clauses, a_unit_fled_from_this_combat_is_an_obstruction)
{
    pursuit_with_fleeing_enemy_ahead("c1", "c1");
    predict();
    cr_assert_neq(pred.outcome, RULES_PURSUIT_CHARGE);
    cr_assert_float_eq(pred.forward_mm, IN(3), 0.01, "4\" to G, back to 1\" from it (step 3)");
    rules_pursuit_prediction_clear(&pred);
}

Test(clauses, a_unit_fled_from_another_combat_is_charged_and_may_not_react)
{
    pursuit_with_fleeing_enemy_ahead("c1", "c2");
    predict();
    cr_assert_eq(pred.outcome, RULES_PURSUIT_CHARGE);
    cr_assert_str_eq(pred.target, "G");
    cr_assert_float_eq(pred.end.front_centre.y, START.front_centre.y + IN(4), 0.01);
    /* the check's note says G may not react although it is Fleeing */
    after = rules_snapshot_clone(before);
    rules_unit *u = rules_snapshot_find_unit(after, "E");
    for (size_t j = 0; j < u->n_models; j++)
        u->models[j].pos = pred.models[j];
    base_error err = {0};
    cr_assert_eq(rules_pursuit_check(before, after, &pin, NULL, &report, &err), 0, "%s", err.msg);
    const rules_unit_report *ur = &report.units[0];
    cr_assert(ur->legal);
    bool said = false;
    for (size_t i = 0; i < ur->n_notes; i++)
        said |= strstr(ur->notes[i], "not even though it is already Fleeing") != NULL;
    cr_assert(said, "a note says the Fleeing target may not react");
    rules_pursuit_prediction_clear(&pred);
}

Test(clauses, listed_as_fled_it_is_an_obstruction_without_combat_ids)
{
    pursuit_with_fleeing_enemy_ahead("", "");
    const char *fled[] = {"G"};
    pin.fled = fled;
    pin.n_fled = 1;
    predict();
    cr_assert_neq(pred.outcome, RULES_PURSUIT_CHARGE);
    char names[64];
    cr_assert_eq(rules_pursuit_unknown_fleeing(before, &pin, names, sizeof names), 0);
    rules_pursuit_prediction_clear(&pred);
}

Test(clauses, when_the_table_does_not_say_the_call_is_cannot_tell)
{
    pursuit_with_fleeing_enemy_ahead("", "");
    char names[64];
    cr_assert_eq(rules_pursuit_unknown_fleeing(before, &pin, names, sizeof names), 1);
    cr_assert_str_eq(names, "G");
    predict(); /* as an obstruction: 3" ahead */
    after = rules_snapshot_clone(before);
    rules_unit *u = rules_snapshot_find_unit(after, "E");
    for (size_t j = 0; j < u->n_models; j++)
        u->models[j].pos = pred.models[j];
    base_error err = {0};
    cr_assert_eq(rules_pursuit_check(before, after, &pin, NULL, &report, &err), 0, "%s", err.msg);
    const rules_unit_report *ur = &report.units[0];
    cr_assert_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "legal if G fled from this combat, not if from another");
    cr_assert(strstr(ur->why, "G is Fleeing but the table does not say which combat it fled from"), "%s", ur->why);
    cr_assert(report.legal, "no illegal call stands");
    cr_assert_not(ur->suggestion.found, "no suggestion without an illegal call");
    rules_pursuit_prediction_clear(&pred);
}

Test(clauses, friends_of_the_same_combat_by_id_are_open_terrain)
{
    pursuit_with_fleeing_enemy_ahead("c1", "c1");
    /* a friend 2" ahead, of the same combat: open terrain in steps 1 and 2, so E goes on to G */
    rules_pose f = {base_v2(START.front_centre.x + 200, START.front_centre.y + IN(2)), BASE_PI / 2};
    snprintf(fx_block(before, "F", "red", 25, 2, 2, f, 0, 0)->combat, RULES_ID_MAX, "c1");
    predict();
    cr_assert_float_eq(pred.forward_mm, IN(3), 0.01);
    snprintf(rules_snapshot_find_unit(before, "F")->combat, RULES_ID_MAX, "c9"); /* another combat: obstruction */
    rules_snapshot_find_unit(before, "F")->models[0].pos.x -= 200; /* now straight ahead */
    rules_snapshot_find_unit(before, "F")->models[1].pos.x -= 200;
    predict();
    cr_assert_lt(pred.forward_mm, IN(2));
    rules_pursuit_prediction_clear(&pred);
}

/* ---- Pursuit: the Charge as a Charge Move ---------------------------------------------------- */

Test(clauses, a_charge_touches_with_a_corner_and_is_aligned_about_it)
{
    /*
     * E's Front is 125 mm wide; the Front Facing of the enemy H runs at 45
     * degrees through the point 4" ahead of E's front centre. Straight on,
     * E's right front corner touches it after 4" - 62.5 mm; turned about
     * that corner it is flush. A Charge Move of exactly that distance (one
     * wheel of none) reaches it; the old forward-and-wheels placement would
     * have needed a 45 degree wheel on top.
     */
    pursuit_with_fleeing_enemy_ahead("c1", "c1");
    rules_snapshot_free(before);
    before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    fx_block(before, "E", "red", 25, 5, 10, START, 0, 0);
    double d = IN(4), contact = d - 62.5;
    base_vec2 t = base_v2(START.front_centre.x, START.front_centre.y + d);
    /* H faces down-left (225 deg): its Front centre a little down the 45 degree line from t */
    base_vec2 along = base_v2_dir(base_deg_to_rad(-45));
    rules_pose h = {base_v2_add(t, base_v2_scale(along, 40)), base_deg_to_rad(225)};
    fx_block(before, "H", "blue", 25, 6, 6, h, 0, 0);
    pursuers[0].distance_mm = contact + 0.5;
    predict();
    cr_assert_eq(pred.outcome, RULES_PURSUIT_CHARGE, "outcome %s", rules_pursuit_outcome_word(pred.outcome));
    cr_assert_str_eq(pred.target, "H");
    cr_assert_float_eq(base_angle_wrap(pred.end.heading - base_deg_to_rad(45)), 0, 1e-6, "aligned with H's Front");
    pursuers[0].distance_mm = contact - 1; /* short of the corner: no Charge */
    predict();
    cr_assert_neq(pred.outcome, RULES_PURSUIT_CHARGE);
    rules_pursuit_prediction_clear(&pred);
}
