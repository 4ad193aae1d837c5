/*
 * The nearest legal move: for every illegal call, the suggested position is
 * legal by the same check, and no farther than needed (moved a little
 * further towards where the player put the unit, it is illegal).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_move.h"
#include "rules_suggest.h"

static rules_snapshot *before, *after;
static rules_report report;
static rules_check_options opt;

static void setup(void)
{
    before = after = NULL;
    rules_report_init(&report);
    rules_check_options_default(&opt);
}
static void teardown(void)
{
    rules_report_clear(&report);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}
TestSuite(suggest, .init = setup, .fini = teardown);

static const rules_pose START = {{900, 300}, BASE_PI / 2};
#define IN_MM(x) base_in_to_mm(x)

/* The check with suggestions, as `tableref check` makes it; the unit's report. */
static const rules_unit_report *judge(rules_move_type move, const char *unit)
{
    base_error err = {0};
    opt.move = move;
    cr_assert_eq(rules_move_check(before, after, &opt, &report, &err), 0, "%s", err.msg);
    cr_assert_eq(rules_suggest_moves(before, after, &opt, &report, &err), 0, "%s", err.msg);
    const rules_unit_report *ur = rules_report_find_unit(&report, unit);
    cr_assert_not_null(ur, "unit %s judged", unit);
    return ur;
}

/* `s` with unit `id`'s models at the suggestion moved a fraction `t` of the way towards the player's (in `after`). */
static rules_snapshot *towards_player(const rules_snapshot *s, const char *id, const rules_suggestion *sg, double t)
{
    rules_snapshot *c = rules_snapshot_clone(s);
    rules_unit *u = rules_snapshot_find_unit(c, id);
    rules_formation fp;
    rules_formation_fit(rules_snapshot_find_unit(after, id), NULL, &fp, NULL); /* the player's position */
    /* the rigid motion from the suggested pose to the player's, a fraction t of it */
    double dh = base_angle_wrap(fp.heading - sg->pose.heading) * t;
    base_vec2 fc = base_v2_add(sg->pose.front_centre, base_v2_scale(base_v2_sub(fp.front_centre, sg->pose.front_centre), t));
    for (size_t k = 0; k < sg->n_models; k++) {
        rules_model *m = rules_unit_find_model(u, sg->models[k].id);
        base_vec2 r = base_v2_rot(base_v2_sub(sg->models[k].pos, sg->pose.front_centre), dh);
        m->pos = base_v2_add(fc, r);
        m->facing = base_angle_wrap(sg->models[k].facing + dh);
    }
    return c;
}

static double farthest_shift(const rules_snapshot *a, const rules_snapshot *b, const char *id)
{
    const rules_unit *ua = rules_snapshot_find_unit(a, id), *ub = rules_snapshot_find_unit(b, id);
    double worst = 0;
    for (size_t k = 0; k < ua->n_models; k++)
        worst = fmax(worst, base_v2_dist(ua->models[k].pos, rules_unit_find_model(ub, ua->models[k].id)->pos));
    return worst;
}

/*
 * The two promises: (1) `tableref check BEFORE SUGGESTED` finds the unit
 * legal; (2) moved towards the player's position until the farthest model
 * has moved 0.05 mm more, it is illegal with the limits taken exactly.
 */
static void assert_nearest_and_legal(const char *id)
{
    const rules_unit_report *ur = rules_report_find_unit(&report, id);
    const rules_suggestion *sg = &ur->suggestion;
    cr_assert(sg->found, "%s: a suggestion (%s)", id, sg->text);
    rules_snapshot *fixed = rules_suggest_apply(after, &report);
    rules_report again;
    rules_report_init(&again);
    base_error err = {0};
    cr_assert_eq(rules_move_check(before, fixed, &opt, &again, &err), 0, "%s", err.msg);
    const rules_unit_report *now = rules_report_find_unit(&again, id);
    cr_assert(!now || now->verdict == RULES_VERDICT_LEGAL, "%s: the suggestion is legal (%s)", id,
              now && now->n_violations ? now->violations[0].message : "");
    cr_assert_float_eq(farthest_shift(fixed, after, id), sg->shift_mm, 1e-6, "the shift reported is the one made");
    if (sg->shift_mm > 0.05) {
        double t = 0.05 / sg->shift_mm; /* about 0.05 mm more for the farthest model */
        rules_snapshot *further = towards_player(fixed, id, sg, t);
        rules_check_options strict = opt;
        strict.limit_tolerance_mm = 0;
        cr_assert_eq(rules_move_check(before, further, &strict, &again, &err), 0, "%s", err.msg);
        now = rules_report_find_unit(&again, id);
        cr_assert(now && now->verdict == RULES_VERDICT_ILLEGAL,
                  "%s: 0.05 mm further towards the player's position is illegal (suggestion: %s)", id, sg->text);
        rules_snapshot_free(further);
    }
    rules_report_clear(&again);
    rules_snapshot_free(fixed);
}

/* Every model must come back at least as far as it ended beyond the rate: a lower bound on the shift. */
static double shift_lower_bound(const char *id, double rate)
{
    const rules_unit *u0 = rules_snapshot_find_unit(before, id), *u1 = rules_snapshot_find_unit(after, id);
    double lb = 0;
    for (size_t k = 0; k < u0->n_models; k++)
        lb = fmax(lb, base_v2_dist(u0->models[k].pos, rules_unit_find_model(u1, u0->models[k].id)->pos) - rate);
    return lb;
}

/* ---- the seed's wheel figures ---------------------------------------------- */

Test(suggest, seed_figure_b_is_brought_back_within_the_march_rate)
{
    fx_seed_wheel_example('b', &before, &after);
    const rules_unit_report *ur = judge(RULES_MOVE_MARCH, "regiment");
    cr_assert_eq(ur->verdict, RULES_VERDICT_ILLEGAL);
    assert_nearest_and_legal("regiment");
    double lb = shift_lower_bound("regiment", base_in_to_mm(10));
    cr_assert_float_eq(lb, base_in_to_mm(11.81 - 10), 0.2, "regiment-16 ends 11.81\" away");
    cr_assert_geq(ur->suggestion.shift_mm, lb - 0.01);
    cr_assert(strstr(ur->suggestion.text, "no model moves more than"), "%s", ur->suggestion.text);
}

Test(suggest, seed_figure_a_with_a_ten_inch_march_rate)
{
    fx_seed_wheel_example('a', &before, &after);
    before->units[0].march_rate = after->units[0].march_rate = base_in_to_mm(10); /* its path is 10.14" */
    const rules_unit_report *ur = judge(RULES_MOVE_MARCH, "regiment");
    cr_assert(rules_unit_report_find(ur, "MU-PATH-LENGTH"));
    assert_nearest_and_legal("regiment");
    /* cutting the path 0.14" short moves no model more than the wheel swings it: at most about 0.3" */
    cr_assert_leq(ur->suggestion.shift_mm, base_in_to_mm(0.3));
}

Test(suggest, seed_figure_c_with_an_eleven_and_a_half_inch_march_rate)
{
    fx_seed_wheel_example('c', &before, &after);
    before->units[0].march_rate = after->units[0].march_rate = base_in_to_mm(11.5); /* its path is 11.84" */
    const rules_unit_report *ur = judge(RULES_MOVE_MARCH, "regiment");
    cr_assert_eq(ur->verdict, RULES_VERDICT_ILLEGAL);
    assert_nearest_and_legal("regiment");
}

Test(suggest, legal_calls_get_no_suggestion)
{
    fx_seed_wheel_example('a', &before, &after);
    const rules_unit_report *ur = judge(RULES_MOVE_MARCH, "regiment");
    cr_assert(ur->legal);
    cr_assert_not(ur->suggestion.found);
    cr_assert_eq(ur->suggestion.text[0], '\0');
}

/* ---- exact answers ------------------------------------------------------------ */

static void moved(const char *id, const char *side, double right_mm, double forward_mm, double turn_deg,
                  double advance_in, double march_in)
{
    if (!before) {
        before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    }
    rules_pose at = START;
    at.front_centre.x += 400 * (double)before->n_units;
    rules_unit *u = fx_block(before, id, side, 25, 5, 10, at, advance_in, march_in);
    base_vec2 d = base_frame_to_board((base_frame){{0, 0}, at.heading}, base_v2(right_mm, forward_mm));
    fx_shifted_copy(after, u, at, d, base_deg_to_rad(turn_deg));
}

Test(suggest, a_march_one_inch_too_long_goes_back_one_inch_along_its_path)
{
    moved("spears", "red", 0, base_in_to_mm(11), 0, 5, 10);
    const rules_unit_report *ur = judge(RULES_MOVE_MARCH, "spears");
    cr_assert_float_eq(ur->suggestion.shift_mm, base_in_to_mm(1), 0.02);
    cr_assert_float_eq(ur->suggestion.back_along_path_mm, base_in_to_mm(1), 0.02);
    cr_assert(strstr(ur->suggestion.text, "move the spears back 1.00\" along their path"), "%s",
              ur->suggestion.text);
    assert_nearest_and_legal("spears");
}

Test(suggest, a_backward_advance_half_an_inch_too_long_comes_half_an_inch_forward)
{
    moved("spears", "red", 0, -base_in_to_mm(3), 0, 5, 10); /* backwards: half of 5" */
    const rules_unit_report *ur = judge(RULES_MOVE_ADVANCE, "spears");
    cr_assert_str_eq(ur->direction, "backward");
    cr_assert_float_eq(ur->suggestion.shift_mm, base_in_to_mm(0.5), 0.02);
    assert_nearest_and_legal("spears");
}

Test(suggest, a_unit_half_an_inch_inside_unit_spacing_moves_half_an_inch_away)
{
    /* marches 6" straight at an enemy whose boundary starts 6.5" ahead: it ends 0.5" from it */
    moved("spears", "red", 0, base_in_to_mm(6), 0, 5, 10);
    rules_pose front = {base_v2(START.front_centre.x, START.front_centre.y + base_in_to_mm(6.5)), -BASE_PI / 2};
    rules_unit *e = fx_block(before, "orcs", "blue", 25, 5, 5, front, 5, 10);
    fx_shifted_copy(after, e, front, base_v2(0, 0), 0);
    const rules_unit_report *ur = judge(RULES_MOVE_MARCH, "spears");
    cr_assert(rules_unit_report_find(ur, "MU-SPACING-UNIT"));
    cr_assert_float_eq(ur->suggestion.shift_mm, base_in_to_mm(0.5), 0.02);
    assert_nearest_and_legal("spears");
}

Test(suggest, a_reform_that_moved_its_centre_is_put_back_within_the_tolerance)
{
    /* turned to face the other way, but the centre moved 10 mm: back by 5 mm (5 mm is accepted) */
    moved("spears", "red", 0, 0, 0, 5, 10);
    rules_unit *u = &after->units[0];
    rules_formation f;
    rules_formation_fit(&before->units[0], NULL, &f, NULL);
    for (size_t k = 0; k < u->n_models; k++) {
        base_vec2 r = base_v2_sub(u->models[k].pos, f.centre);
        u->models[k].pos = base_v2_add(f.centre, base_v2_add(base_v2_scale(r, -1), base_v2(10, 0)));
        u->models[k].facing = base_angle_wrap(u->models[k].facing + BASE_PI);
    }
    const rules_unit_report *ur = judge(RULES_MOVE_REFORM, "spears");
    cr_assert(rules_unit_report_find(ur, "MU-REFORM-CENTRE"));
    cr_assert_float_eq(ur->suggestion.shift_mm, 5.0, 0.02);
    assert_nearest_and_legal("spears");
}

Test(suggest, a_unit_that_may_not_move_is_sent_back_where_it_started)
{
    moved("spears", "red", 0, base_in_to_mm(3), 0, 5, 10);
    before->units[0].status = RULES_STATUS_FLEEING;
    const rules_unit_report *ur = judge(RULES_MOVE_ADVANCE, "spears");
    cr_assert(rules_unit_report_find(ur, "MU-ELIGIBLE"));
    cr_assert(strstr(ur->suggestion.text, "may not move"), "%s", ur->suggestion.text);
    cr_assert_float_eq(ur->suggestion.shift_mm, base_in_to_mm(3), 1e-6);
    for (size_t k = 0; k < ur->suggestion.n_models; k++)
        cr_assert_float_eq(base_v2_dist(ur->suggestion.models[k].pos, before->units[0].models[k].pos), 0, 1e-9);
}

/* ---- random illegal moves (deterministic) ------------------------------------------ */

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static double rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (rng >> 11) * (1.0 / 9007199254740992.0);
}

Test(suggest, random_illegal_moves_get_legal_suggestions_no_farther_than_needed, .timeout = 120)
{
    int illegal = 0;
    for (int k = 0; k < 60; k++) {
        rules_report_clear(&report);
        rules_snapshot_free(before);
        rules_snapshot_free(after);
        before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        int files = 2 + (int)(4 * rnd()), n = files * (1 + (int)(4 * rnd()));
        rules_unit *u = fx_block(before, "u", "red", 20 + 10 * rnd(), files, n, START, 5, 10);
        rules_path p;
        rules_move_type type = RULES_MOVE_MARCH;
        if (k % 4 == 3) { /* a straight step back or sideways, too long or combined, as an Advance */
            type = RULES_MOVE_ADVANCE;
            base_vec2 d = base_frame_to_board((base_frame){{0, 0}, START.heading},
                                                base_v2((rnd() - 0.5) * 150, -(20 + 80 * rnd())));
            fx_shifted_copy(after, u, START, d, 0);
        } else { /* forward, a wheel, forward: often past 10" or with the rear too far */
            double w = u->base_width * files;
            rules_step s[3] = {fx_forward(2 + 6 * rnd()),
                               fx_wheel(rnd() < 0.5 ? RULES_STEP_WHEEL_LEFT : RULES_STEP_WHEEL_RIGHT, 1 + 5 * rnd(), w),
                               fx_forward(3 * rnd())};
            p = fx_path(3, s);
            fx_moved_copy(after, u, START, &p);
        }
        if (k % 3 == 0) { /* an enemy unit near where it ends */
            rules_formation f;
            rules_formation_fit(&after->units[0], NULL, &f, NULL);
            rules_pose e = {base_v2_add(f.front_centre, base_v2_scale(base_v2_dir(f.heading), 20 + 40 * rnd())),
                            f.heading + BASE_PI};
            rules_unit *en = fx_block(before, "e", "blue", 25, 4, 8, e, 5, 10);
            fx_shifted_copy(after, en, e, base_v2(0, 0), 0);
        }
        base_error err = {0};
        opt.move = type;
        cr_assert_eq(rules_move_check(before, after, &opt, &report, &err), 0, "%s", err.msg);
        cr_assert_eq(rules_suggest_moves(before, after, &opt, &report, &err), 0, "%s", err.msg);
        const rules_unit_report *ur = rules_report_find_unit(&report, "u");
        if (!ur || ur->verdict != RULES_VERDICT_ILLEGAL)
            continue;
        illegal++;
        assert_nearest_and_legal("u");
        double rate = type == RULES_MOVE_MARCH ? base_in_to_mm(10) : base_in_to_mm(5);
        cr_assert_geq(ur->suggestion.shift_mm, shift_lower_bound("u", rate) - 0.01, "case %d", k);
    }
    cr_assert_geq(illegal, 25, "most random cases are illegal (%d)", illegal);
}

/* ---- Reform Move (seed 000) ---------------------------------------------------------- */

#include "rules_reform.h"

Test(suggest, a_reform_move_half_an_inch_too_far_comes_back_half_an_inch)
{
    /* Mobility 2": the centre may travel 1"; the player carried the unit 1.5" sideways */
    moved("spears", "red", IN_MM(1.5), 0, 0, 5, 10);
    before->units[0].mobility = after->units[0].mobility = IN_MM(2);
    base_error err = {0};
    opt.move = RULES_MOVE_REFORM_MOVE;
    cr_assert_eq(rules_reform_check(before, NULL, after, &opt, &report, &err), 0, "%s", err.msg);
    cr_assert_eq(rules_suggest_reform_moves(before, NULL, after, &opt, &report, &err), 0, "%s", err.msg);
    const rules_unit_report *ur = rules_report_find_unit(&report, "spears");
    cr_assert(rules_unit_report_find(ur, "RM-CENTRE"));
    cr_assert(ur->suggestion.found, "%s", ur->suggestion.text);
    cr_assert_float_eq(ur->suggestion.shift_mm, IN_MM(0.5), 0.02, "%s", ur->suggestion.text);
    rules_snapshot *fixed = rules_suggest_apply(after, &report);
    rules_report again;
    rules_report_init(&again);
    cr_assert_eq(rules_reform_check(before, NULL, fixed, &opt, &again, &err), 0, "%s", err.msg);
    cr_assert(again.legal, "the suggestion is a legal Reform Move");
    rules_report_clear(&again);
    rules_snapshot_free(fixed);
}

Test(suggest, a_call_found_unsure_later_drops_its_suggestion)
{
    fx_seed_wheel_example('b', &before, &after);
    judge(RULES_MOVE_MARCH, "regiment");
    rules_unit_report *ur = rules_report_find_unit(&report, "regiment");
    cr_assert(ur->suggestion.found);
    rules_unit_report_set_verdict(ur, RULES_VERDICT_CANNOT_TELL, "a model's tag was hidden");
    rules_report_refresh(&report);
    cr_assert_not(ur->suggestion.found, "suggestions belong to ILLEGAL calls only");
    cJSON *j = rules_report_to_json(&report);
    cr_assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0), "suggestion"));
    cJSON_Delete(j);
}

/* ---- calls judged robustly (rules_robust, as check and referee make them) ------------- */

#include "rules_robust.h"

/* Every model of `u` measured with one sigma of `sigma_mm`. */
static void measured(rules_unit *u, double sigma_mm)
{
    for (size_t k = 0; k < u->n_models; k++)
        u->models[k].sigma_mm = sigma_mm;
}

static const rules_unit_report *judge_robust(rules_move_type move, const char *unit)
{
    base_error err = {0};
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    opt.move = move;
    ro.check = opt;
    cr_assert_eq(rules_robust_check(before, after, &ro, &report, &err), 0, "%s", err.msg);
    cr_assert_eq(rules_suggest_moves(before, after, &opt, &report, &err), 0, "%s", err.msg);
    const rules_unit_report *ur = rules_report_find_unit(&report, unit);
    cr_assert_not_null(ur, "unit %s judged", unit);
    return ur;
}

Test(suggest, a_cannot_tell_call_is_never_told_to_move)
{
    /* 10.03" on a 10" March Rate: 0.76 mm over, within 0.5 mm + 2 sigma of 2 mm (both frames): cannot tell */
    moved("spears", "red", 0, IN_MM(10.03), 0, 5, 10);
    measured(&before->units[0], 2.0);
    measured(&after->units[0], 2.0);
    const rules_unit_report *ur = judge_robust(RULES_MOVE_MARCH, "spears");
    cr_assert_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "%s", ur->why);
    cr_assert_not(ur->suggestion.found);
    cr_assert_eq(ur->suggestion.n_models, 0);
    cr_assert_eq(ur->suggestion.text[0], '\0', "no suggestion at all: %s", ur->suggestion.text);
    rules_snapshot *same = rules_suggest_apply(after, &report);
    cr_assert_float_eq(farthest_shift(same, after, "spears"), 0, 1e-12, "--suggest leaves the unit where it is");
    rules_snapshot_free(same);
}

Test(suggest, a_robust_illegal_call_gets_its_nearest_legal_move)
{
    /* 11" on a 10" March Rate with 2 mm sigma: 25 mm over stands under every placement */
    moved("spears", "red", 0, IN_MM(11), 0, 5, 10);
    measured(&before->units[0], 2.0);
    measured(&after->units[0], 2.0);
    const rules_unit_report *ur = judge_robust(RULES_MOVE_MARCH, "spears");
    cr_assert_eq(ur->verdict, RULES_VERDICT_ILLEGAL);
    cr_assert(ur->suggestion.found, "%s", ur->suggestion.text);
    cr_assert_float_eq(ur->suggestion.shift_mm, IN_MM(1), 0.02);
    assert_nearest_and_legal("spears");
}

Test(suggest, the_suggested_snapshot_is_exact_where_the_camera_was_not)
{
    /* 11" on a 10" March Rate; the after picture hid the rear rank: inferred, with a second placement */
    moved("spears", "red", 0, IN_MM(11), 0, 5, 10);
    rules_unit *u = &after->units[0];
    measured(u, 0.5);
    rules_placement *alt = rules_unit_add_alternative(u, "rear rank shifted");
    for (size_t k = 5; k < u->n_models; k++) {
        u->models[k].evidence = RULES_EVIDENCE_INFERRED;
        u->models[k].inferred = true;
        u->models[k].sigma_mm = 1.5;
        cr_assert_eq(rules_placement_add_model(alt, u->models[k].id, base_v2_add(u->models[k].pos, base_v2(10, 0)),
                                               u->models[k].facing, 1.5),
                     0);
    }
    const rules_unit_report *ur = judge_robust(RULES_MOVE_MARCH, "spears");
    cr_assert_eq(ur->verdict, RULES_VERDICT_ILLEGAL, "%s", ur->why);
    cr_assert(ur->suggestion.found, "%s", ur->suggestion.text);
    rules_snapshot *fixed = rules_suggest_apply(after, &report);
    const rules_unit *fu = rules_snapshot_find_unit(fixed, "spears");
    cr_assert_eq(fu->n_alternatives, 0, "the alternatives were of the player's position");
    for (size_t k = 0; k < fu->n_models; k++) {
        cr_assert_eq(fu->models[k].evidence, RULES_EVIDENCE_SEEN);
        cr_assert(isnan(fu->models[k].sigma_mm), "a prescription is exact");
    }
    /* judged as check judges it (robustly), the suggestion is LEGAL, not merely not ILLEGAL */
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    ro.check = opt;
    rules_report again;
    rules_report_init(&again);
    base_error err = {0};
    cr_assert_eq(rules_robust_check(before, fixed, &ro, &again, &err), 0, "%s", err.msg);
    const rules_unit_report *now = rules_report_find_unit(&again, "spears");
    cr_assert(!now || now->verdict == RULES_VERDICT_LEGAL, "%s", now ? now->why : "");
    rules_report_clear(&again);
    rules_snapshot_free(fixed);
}
