/*
 * Dynamic Formations (seed 002): the seed's examples (Sylvan Knights, Goblin
 * WILL 3 against 3 models, Slathaai split, Orc Barbarian Combined
 * Formation) and one case per requirement, at and just over each limit.
 * Bases are 25 mm squares; a Control Area of 1" about the centre makes
 * models 1" apart (edge to edge: 50.4 mm between centres) touch.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_dynform.h"

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
TestSuite(dynform, .init = setup, .fini = teardown);

#define IN(x) base_in_to_mm(x)
#define PITCH (25.0 + IN(1)) /* centre to centre, 1" between bases */

static rules_unit *card(rules_snapshot *s, const char *id, const char *side, const char *profile, double move_in)
{
    rules_unit *u = rules_snapshot_add_unit(s, id, side);
    u->base_width = u->base_depth = 25;
    snprintf(u->profile, sizeof u->profile, "%s", profile);
    u->control_area_mm = IN(1);
    u->mobility = IN(move_in);
    return u;
}

static void model(rules_unit *u, const char *id, double x, double y)
{
    rules_unit_add_model(u, id, base_v2(x, y), BASE_PI / 2);
}

static void declare(rules_snapshot *s, const char *id, const char *const *ids, size_t n)
{
    rules_dynform_decl *f = rules_snapshot_add_dynform(s, id);
    for (size_t i = 0; i < n; i++)
        rules_dynform_decl_add_model(f, ids[i]);
}

/* Three models in a row along x, `gap_in` between bases, from x0. */
static rules_unit *row(rules_snapshot *s, const char *cid, const char *profile, double x0, double gap_in,
                       const char *const *ids)
{
    rules_unit *u = card(s, cid, "red", profile, 5);
    for (int i = 0; i < 3; i++)
        model(u, ids[i], x0 + i * (25 + IN(gap_in)), 500);
    return u;
}

static const rules_unit_report *check(void)
{
    base_error err = {0};
    cr_assert_eq(rules_dynform_check(before, after, &opt, &report, &err), 0, "%s", err.msg);
    cr_assert_geq(report.n_units, 1);
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

static double measure(const rules_unit_report *ur, const char *name)
{
    for (size_t i = 0; i < ur->n_measures; i++)
        if (strcmp(ur->measures[i].name, name) == 0)
            return ur->measures[i].value;
    cr_assert_fail("no measure %s", name);
    return NAN;
}

static const char *first(const rules_unit_report *ur)
{
    return ur->n_violations ? ur->violations[0].message : "";
}

static const char *const K[] = {"k1", "k2", "k3"};

/* ---- the seed's examples -------------------------------------------------------------- */

Test(dynform, sylvan_knights_form_up_with_two_inches_left)
{
    /* DEX 5; the knights moved 1", 2" and 3" to stand 1" apart: the Formation has 2" left. */
    rules_unit *b = card(before, "sylvan", "red", "Sylvan Knight", 5);
    model(b, "k1", 500, 500 - IN(1));
    model(b, "k2", 500 + PITCH, 500 - IN(2));
    model(b, "k3", 500 + 2 * PITCH, 500 - IN(3));
    row(after, "sylvan", "Sylvan Knight", 500, 1, K);
    declare(after, "knights", K, 3);
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", first(ur));
    cr_assert_float_eq(measure(ur, "movement_left"), IN(2), 1e-6);
    cr_assert_eq(measure(ur, "members"), 3);
}

static void goblin_charges(int will, bool at_equal)
{
    row(before, "orcs", "Orc", 500, 1, K);
    row(after, "orcs", "Orc", 500, 1, K);
    declare(before, "f", K, 3);
    declare(after, "f", K, 3);
    rules_unit *g0 = card(before, "goblin", "blue", "Goblin", 5), *g1 = card(after, "goblin", "blue", "Goblin", 5);
    g0->will = g1->will = will;
    model(g0, "gob", 500, 500 + 200);
    model(g1, "gob", 500, 500 + 25); /* base to base with k1 */
    before->ruleset.formation_will_test_at_equal = after->ruleset.formation_will_test_at_equal = at_equal;
}

Test(dynform, goblin_will_3_charging_3_models_takes_a_will_test)
{
    goblin_charges(3, true);
    cr_assert(has_note(check(), "needed to pass a WILL Test"));
}

Test(dynform, goblin_will_4_charging_3_models_needs_no_test)
{
    goblin_charges(4, true);
    cr_assert_not(has_note(check(), "WILL Test"));
}

Test(dynform, strictly_greater_reading_spares_will_3_against_3)
{
    goblin_charges(3, false);
    cr_assert_not(has_note(check(), "WILL Test"));
    cr_assert(rules_dynform_will_test(&before->ruleset, 2, 3));
}

Test(dynform, slathaai_split_into_a_formation_of_3_and_2_single_models)
{
    static const char *const all[] = {"s1", "s2", "s3", "s4", "s5"};
    rules_unit *b = card(before, "slathaai", "red", "Slathaai Psionic", 5);
    for (int i = 0; i < 5; i++)
        model(b, all[i], 500 + i * PITCH, 500);
    declare(before, "psionics", all, 5);
    rules_unit *a = card(after, "slathaai", "red", "Slathaai Psionic", 5);
    for (int i = 0; i < 3; i++)
        model(a, all[i], 450 + i * PITCH, 500);
    model(a, "s4", 900, 500);
    model(a, "s5", 900 + PITCH, 500);
    declare(after, "left", all, 3);
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", first(ur));
    rules_report_clear(&report);
    /* the two on the right cannot be a Formation of their own */
    declare(after, "right", all + 3, 2);
    opt.unit_id = "right";
    const rules_violation *v = rules_unit_report_find(check(), "DF-TOO-FEW");
    cr_assert_not_null(v);
    cr_assert_eq(v->measured, 2);
    cr_assert_eq(v->limit, 3);
}

Test(dynform, orc_barbarians_combined_formation_of_four_from_two_cards)
{
    static const char *const ids[] = {"a1", "a2", "a3", "b1"};
    rules_unit *a = card(after, "orc-card-1", "red", "Orc Barbarian", 5);
    rules_unit *b = card(after, "orc-card-2", "red", "Orc Barbarian", 5);
    for (int i = 0; i < 3; i++)
        model(a, ids[i], 500 + i * PITCH, 500);
    model(b, "b1", 500 + 3 * PITCH, 500);
    model(b, "b2", 900, 700); /* kept out of the Formation */
    model(b, "b3", 900 + PITCH, 700);
    declare(after, "horde", ids, 4);
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", first(ur));
    cr_assert_eq(measure(ur, "members"), 4);
    cr_assert(has_note(ur, "Combined Formation: cards orc-card-1, orc-card-2"));
}

/* ---- requirements ----------------------------------------------------------------------- */

Test(dynform, only_identical_models)
{
    static const char *const ids[] = {"a1", "a2", "b1"};
    rules_unit *a = card(after, "orcs", "red", "Orc Barbarian", 5);
    rules_unit *b = card(after, "goblins", "red", "Goblin", 5);
    model(a, "a1", 500, 500);
    model(a, "a2", 500 + PITCH, 500);
    model(b, "b1", 500 + 2 * PITCH, 500);
    declare(after, "mixed", ids, 3);
    cr_assert(has(check(), "DF-IDENTICAL"));
}

Test(dynform, heroes_cannot_enter_a_formation)
{
    row(after, "champions", "Champion", 500, 1, K)->heroic = true;
    declare(after, "f", K, 3);
    cr_assert(has(check(), "DF-HEROIC"));
}

Test(dynform, control_areas_exactly_touching_hold_together)
{
    /* centres 2 x 1" apart: the Control Areas just touch (gap between bases 2" - 25 mm) */
    rules_unit *a = card(after, "c", "red", "Orc", 5);
    for (int i = 0; i < 3; i++)
        model(a, K[i], 500 + i * IN(2), 500);
    declare(after, "f", K, 3);
    const rules_unit_report *ur = check();
    cr_assert_not(has(ur, "DF-COHESION"), "%s", first(ur));
}

Test(dynform, a_declared_member_out_of_touch_breaks_cohesion)
{
    rules_unit *a = card(after, "c", "red", "Orc", 5);
    model(a, "k1", 500, 500);
    model(a, "k2", 500 + IN(2), 500);
    model(a, "k3", 500 + IN(4) + IN(2) + 1, 500); /* 1 mm too far from k2's area */
    static const char *const four[] = {"k1", "k2", "k3"};
    declare(after, "f", four, 3);
    const rules_violation *v = rules_unit_report_find(check(), "DF-COHESION");
    cr_assert_not_null(v);
    cr_assert_str_eq(v->models[0], "k3");
}

Test(dynform, a_straying_model_leaves_and_below_three_the_formation_breaks)
{
    row(before, "c", "Orc", 500, 1, K);
    declare(before, "f", K, 3);
    rules_unit *a = card(after, "c", "red", "Orc", 5);
    model(a, "k1", 500, 500);
    model(a, "k2", 500 + PITCH, 500);
    model(a, "k3", 500 + PITCH + IN(4), 500); /* wandered off */
    const rules_unit_report *ur = check();
    cr_assert(has_note(ur, "k3 moved away"));
    cr_assert(has_note(ur, "the Formation is broken"));
    cr_assert_eq(measure(ur, "members"), 2);
}

Test(dynform, widen_up_to_two_inches)
{
    row(after, "c", "Orc", 500, 2, K);
    after->units[0].control_area_mm = IN(2); /* wide enough to touch at 2" */
    declare(after, "f", K, 3);
    cr_assert_not(has(check(), "DF-WIDEN"));
    rules_report_clear(&report);
    for (int i = 1; i < 3; i++)
        after->units[0].models[i].pos.x += i * 1.0; /* 2" + 1 mm */
    const rules_violation *v = rules_unit_report_find(check(), "DF-WIDEN");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured - v->limit, 1.0, 1e-6);
}

Test(dynform, members_stand_at_the_same_distance)
{
    rules_unit *a = card(after, "c", "red", "Orc", 5);
    model(a, "k1", 500, 500);
    model(a, "k2", 500 + PITCH, 500);
    model(a, "k3", 500 + PITCH + 25 + IN(1.5), 500); /* 1" then 1.5" */
    a->control_area_mm = IN(1.5);
    declare(after, "f", K, 3);
    cr_assert(has(check(), "DF-EVEN-SPACING"));
}

static void formation_moves(double forward_in, double new_gap_in)
{
    row(before, "c", "Orc", 500, 1, K);
    row(after, "c", "Orc", 500, new_gap_in, K);
    before->units[0].control_area_mm = after->units[0].control_area_mm = IN(2);
    for (size_t j = 0; j < 3; j++)
        after->units[0].models[j].pos.y += IN(forward_in);
    declare(before, "f", K, 3);
    declare(after, "f", K, 3);
}

Test(dynform, a_formation_moves_up_to_its_movement)
{
    formation_moves(5, 1);
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", first(ur));
    cr_assert_float_eq(measure(ur, "movement_used"), IN(5), 1e-6);
}

Test(dynform, widening_costs_one_inch_of_movement)
{
    /* the rightmost model moves 4" ahead and 2 x 1" aside: with the 1" cost it is just within 5" */
    formation_moves(4, 1.5);
    const rules_unit_report *ur = check();
    double used = measure(ur, "movement_used");
    double expect = hypot(IN(4), IN(1)) + IN(1);
    cr_assert_float_eq(used, expect, 1e-6);
    cr_assert(has(ur, "DF-MOVE"), "%.2f\" used of 5\"", base_mm_to_in(used));
    cr_assert(has_note(ur, "Widened"));
    teardown();
    setup();
    formation_moves(3.5, 1.5);
    cr_assert_not(has(check(), "DF-MOVE"));
}

Test(dynform, ranges_are_measured_from_the_formation_centre)
{
    row(after, "c", "Orc", 500, 1, K);
    declare(after, "f", K, 3);
    base_vec2 c;
    cr_assert_eq(rules_dynform_centre(after, &after->dynforms[0], &c), 0);
    cr_assert_float_eq(c.x, 500 + PITCH, 1e-9);
    cr_assert_float_eq(c.y, 500, 1e-9);
    cr_assert_float_eq(rules_dynform_range(after, &after->dynforms[0], base_v2(500 + PITCH, 800)), 300, 1e-9);
    const rules_unit_report *ur = check();
    cr_assert_float_eq(measure(ur, "centre_x"), 500 + PITCH, 1e-9);
}

Test(dynform, a_card_without_control_area_cannot_be_judged)
{
    row(after, "c", "Orc", 500, 1, K)->control_area_mm = NAN;
    declare(after, "f", K, 3);
    base_error err = {0};
    cr_assert_eq(rules_dynform_check(before, after, &opt, &report, &err), -1);
    cr_assert(strstr(err.msg, "control_area_in"));
}
