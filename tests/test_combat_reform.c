/*
 * Combat Reforms (seed 001): the figure example (a: A engaged with B and C;
 * b: A adds a file on its right and its Character moves to the front-right
 * corner) and one case per clause that fails if the clause is dropped.
 * Contact tolerance: the ruleset's contact_tolerance_mm (1 mm); alignment:
 * alignment_tolerance_rad (2 degrees).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_combat.h"
#include "rules_contact.h"
#include "rules_arcs.h"

static rules_snapshot *before, *after;
static rules_report report;
static rules_check_options opt;
static rules_combat_options co;

static void setup(void)
{
    before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    before->ruleset = after->ruleset = *rules_ruleset_find("t9a-mobility");
    before->ruleset_given = after->ruleset_given = true;
    rules_report_init(&report);
    rules_check_options_default(&opt);
    memset(&co, 0, sizeof co);
}
static void teardown(void)
{
    rules_report_clear(&report);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}
TestSuite(combat_reform, .init = setup, .fini = teardown);

#define B 25.0
#define UP (BASE_PI / 2)
#define DOWN (-BASE_PI / 2)
static const char *const ONLY_A[] = {"A"};

static rules_unit *block(rules_snapshot *s, const char *id, const char *side, int files, int n, double fx, double fy,
                         double heading)
{
    return fx_block(s, id, side, B, files, n, (rules_pose){{fx, fy}, heading}, 0, 0);
}

static void swap_ids(rules_unit *u, size_t i, size_t j)
{
    char t[RULES_ID_MAX];
    memcpy(t, u->models[i].id, sizeof t);
    memcpy(u->models[i].id, u->models[j].id, sizeof t);
    memcpy(u->models[j].id, t, sizeof t);
}

/*
 * Figure a: unit A (15 models, 5 wide, facing +y, front at y = 300, x from
 * 837.5 to 962.5), its Character A-1 at the front-left. Enemy B (5 wide)
 * touches A's left part, enemy C (4 wide) its right part, both Front to Front.
 */
static void figure_a(rules_snapshot *s)
{
    rules_unit *a = block(s, "A", "red", 5, 15, 900, 300, UP);
    a->models[0].attachable = true;
    block(s, "B", "blue", 5, 10, 825, 300, DOWN);  /* x 762.5 .. 887.5 */
    block(s, "C", "blue", 4, 8, 962.5, 300, DOWN); /* x 912.5 .. 1012.5 */
}

/* Figure b: A is 6 wide (a file added on its right), the Character at the front-right corner. */
static rules_unit *figure_b(rules_snapshot *s)
{
    rules_unit *a = block(s, "A", "red", 6, 15, 912.5, 300, UP);
    swap_ids(a, 0, 5); /* A-1, the Character, is now the sixth model of the front rank */
    a->models[5].attachable = true;
    block(s, "B", "blue", 5, 10, 825, 300, DOWN);
    block(s, "C", "blue", 4, 8, 962.5, 300, DOWN);
    return a;
}

static const rules_unit_report *check(void)
{
    base_error err = {0};
    cr_assert_eq(rules_combat_reform_check(before, after, &opt, &co, &report, &err), 0, "%s", err.msg);
    cr_assert_geq(report.n_units, 1);
    return rules_report_find_unit(&report, "A") ? rules_report_find_unit(&report, "A") : &report.units[0];
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

static const char *first(const rules_unit_report *ur)
{
    return ur->n_violations ? ur->violations[0].message : "";
}

/* ---- contact geometry -------------------------------------------------- */

Test(combat_reform, facings_come_from_geometry)
{
    base_obb a = {{0, 0}, UP, 100, 50};          /* front edge at y = 25 */
    base_obb front = {{0, 50.5}, DOWN, 100, 50}; /* 0.5 mm gap: in contact */
    base_obb flank = {{75.5, 0}, BASE_PI, 50, 50};
    cr_assert_eq(rules_contact_facing(&a, &front, 1.0), RULES_ARC_FRONT);
    cr_assert_eq(rules_contact_facing(&front, &a, 1.0), RULES_ARC_FRONT);
    cr_assert_eq(rules_contact_facing(&a, &flank, 1.0), RULES_ARC_RIGHT);
    cr_assert_eq(rules_contact_facing(&flank, &a, 1.0), RULES_ARC_FRONT);
    base_obb far = {{0, 52}, DOWN, 100, 50}; /* 2 mm gap */
    cr_assert_eq(rules_contact_facing(&a, &far, 1.0), 0);
    cr_assert_float_eq(rules_contact_facing_length(&a, RULES_ARC_FRONT, &front, 1.0), 100, 1e-6);
}

/* ---- the figure ---------------------------------------------------------- */

Test(combat_reform, figure_b_is_a_legal_combat_reform)
{
    figure_a(before);
    figure_b(after);
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", first(ur));
    cr_assert_eq(ur->files_before, 5);
    cr_assert_eq(ur->files_after, 6);
    cr_assert_eq(report.n_units, 1, "only A moved");
}

Test(combat_reform, figure_a_counts_the_models_in_contact)
{
    figure_a(before);
    figure_b(after);
    const rules_unit_report *ur = check();
    double c0 = -1, c1 = -1;
    for (size_t i = 0; i < ur->n_measures; i++) {
        if (strcmp(ur->measures[i].name, "models_in_contact_before") == 0)
            c0 = ur->measures[i].value;
        if (strcmp(ur->measures[i].name, "models_in_contact_after") == 0)
            c1 = ur->measures[i].value;
    }
    cr_assert_eq(c0, 5, "all five front models touch B or C (the middle one at the corners)");
    cr_assert_eq(c1, 6);
    cr_assert_eq(rules_contact_count_engaged(before, rules_snapshot_find_unit(before, "B"), 1.0), 3);
    cr_assert_eq(rules_contact_count_engaged(after, rules_snapshot_find_unit(after, "C"), 1.0), 4);
}

/* ---- clauses --------------------------------------------------------------- */

Test(combat_reform, the_character_must_stay_in_contact)
{
    figure_a(before);
    rules_unit *a = figure_b(after);
    swap_ids(a, 5, 14); /* the Character ends in the rear rank */
    a->models[14].attachable = true;
    a->models[5].attachable = false;
    const rules_unit_report *ur = check();
    const rules_violation *v = rules_unit_report_find(ur, "CR-ATTACHABLE");
    cr_assert_not_null(v);
    cr_assert_str_eq(v->models[0], "A-1");
}

Test(combat_reform, an_enemy_character_must_stay_in_contact_too)
{
    figure_a(before);
    figure_b(after);
    /* B-1 (B faces -y, so its first model stands at x 875, touching A) is a Character */
    rules_snapshot_find_unit(before, "B")->models[0].attachable = true;
    rules_snapshot_find_unit(after, "B")->models[0].attachable = true;
    cr_assert_not(has(check(), "CR-ATTACHABLE"), "still touched by A");
    rules_report_clear(&report);
    /* A slides 60 mm right: B's Character no longer touches it */
    rules_unit *a = rules_snapshot_find_unit(after, "A");
    for (size_t j = 0; j < a->n_models; j++)
        a->models[j].pos.x += 60;
    const rules_unit_report *ur = check();
    bool b1 = false;
    for (size_t i = 0; i < ur->n_violations; i++)
        b1 |= strcmp(ur->violations[i].code, "CR-ATTACHABLE") == 0 && strcmp(ur->violations[i].models[0], "B-1") == 0;
    cr_assert(b1, "B's Character lost contact");
}

Test(combat_reform, files_may_change_by_three_but_not_four)
{
    figure_a(before);
    block(after, "A", "red", 8, 15, 925 + 12.5, 300, UP); /* 8 wide, x 837.5 .. 1037.5 */
    block(after, "B", "blue", 5, 10, 825, 300, DOWN);
    block(after, "C", "blue", 4, 8, 962.5, 300, DOWN);
    rules_snapshot_find_unit(after, "A")->models[0].attachable = true;
    const rules_unit_report *ur = check();
    cr_assert_not(has(ur, "CR-FILES"), "%s", first(ur));
    teardown();
    setup();
    figure_a(before);
    block(after, "A", "red", 9, 15, 950, 300, UP); /* 9 wide */
    block(after, "B", "blue", 5, 10, 825, 300, DOWN);
    block(after, "C", "blue", 4, 8, 962.5, 300, DOWN);
    rules_snapshot_find_unit(after, "A")->models[0].attachable = true;
    const rules_violation *v = rules_unit_report_find(check(), "CR-FILES");
    cr_assert_not_null(v);
    cr_assert_eq(v->measured, 4);
}

Test(combat_reform, the_reforming_unit_keeps_as_many_models_in_contact)
{
    figure_a(before);
    rules_unit *a = block(after, "A", "red", 4, 15, 900, 300, UP); /* 4 wide: x 850 .. 950 */
    a->models[0].attachable = true;
    block(after, "B", "blue", 5, 10, 825, 300, DOWN);
    block(after, "C", "blue", 4, 8, 962.5, 300, DOWN);
    const rules_unit_report *ur = check();
    const rules_violation *v = rules_unit_report_find(ur, "CR-CONTACT-COUNT");
    cr_assert_not_null(v);
    cr_assert_eq(v->measured, 4);
    cr_assert_eq(v->limit, 5);
}

Test(combat_reform, the_units_it_touched_keep_as_many_models_in_contact)
{
    figure_a(before);
    rules_unit *a = figure_b(after);
    /* 6 wide but shifted 25 mm right: x 862.5 .. 1012.5; B keeps only 2 models touching */
    for (size_t j = 0; j < a->n_models; j++)
        a->models[j].pos.x += 25;
    const rules_unit_report *ur = check();
    bool about_b = false;
    for (size_t i = 0; i < ur->n_violations; i++)
        about_b |= strcmp(ur->violations[i].code, "CR-CONTACT-COUNT") == 0 && strstr(ur->violations[i].message, "B,");
    cr_assert(about_b, "%s", first(ur));
}

Test(combat_reform, no_new_enemy_contact)
{
    figure_a(before);
    figure_b(after);
    /* enemy D (one file of two, facing -y, y 250..300) beside A's new right file: its edge at x 988,
     * 25.5 mm from A before (A ends at 962.5), 0.5 mm after (A ends at 987.5) */
    block(before, "D", "blue", 1, 2, 987.5 + 0.5 + 12.5, 300, DOWN);
    block(after, "D", "blue", 1, 2, 987.5 + 0.5 + 12.5, 300, DOWN);
    cr_assert(has(check(), "CR-NEW-CONTACT"));
}

Test(combat_reform, no_overlap_with_other_units)
{
    figure_a(before);
    figure_b(after);
    /* a friendly unit behind A's new right file (whose models stand at y 250..300, the third rank being
     * only 3 models, centred): its front edge 10 mm inside them */
    block(before, "F", "red", 2, 2, 975, 260 - 60, UP);
    block(after, "F", "red", 2, 2, 975, 260, UP);
    co.reforming = ONLY_A;
    co.n_reforming = 1;
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "CR-OVERLAP"));
}

Test(combat_reform, contact_with_the_same_enemy_units)
{
    figure_a(before);
    rules_unit *a = figure_b(after);
    for (size_t j = 0; j < a->n_models; j++)
        a->models[j].pos.x -= 100; /* x 737.5 .. 887.5: C is left behind */
    const rules_unit_report *ur = check();
    const rules_violation *v = rules_unit_report_find(ur, "CR-LOST-CONTACT");
    cr_assert_not_null(v);
    cr_assert(strstr(v->message, "C"));
}

Test(combat_reform, contact_with_the_same_facing_of_the_enemy)
{
    /* A (4 wide) in front of E (4 wide); after, A stands against E's left Flank. */
    block(before, "A", "red", 4, 8, 900, 300, UP);
    block(before, "E", "blue", 4, 8, 900, 300, DOWN); /* E: x 850..950, y 300..350 */
    /* E faces -y, so its left Flank is on +x (x = 950). A faces -x, front at x = 950, centred on E's depth. */
    block(after, "A", "red", 4, 8, 950, 325, BASE_PI);
    block(after, "E", "blue", 4, 8, 900, 300, DOWN);
    const rules_unit_report *ur = check();
    const rules_violation *v = rules_unit_report_find(ur, "CR-FACING");
    cr_assert_not_null(v, "%s", first(ur));
    cr_assert(strstr(v->message, "Front") && strstr(v->message, "left Flank"), "%s", v->message);
}

static void turned_about_front_left(double degrees)
{
    block(before, "A", "red", 4, 8, 900, 300, UP);
    block(before, "E", "blue", 6, 12, 900, 300, DOWN);
    rules_unit *a = block(after, "A", "red", 4, 8, 900, 300, UP);
    base_vec2 pivot = {850, 300};
    double t = base_deg_to_rad(-degrees); /* clockwise: the front-right corner drops away from E */
    for (size_t j = 0; j < a->n_models; j++) {
        a->models[j].pos = base_v2_add(pivot, base_v2_rot(base_v2_sub(a->models[j].pos, pivot), t));
        a->models[j].facing += t;
    }
    block(after, "E", "blue", 6, 12, 900, 300, DOWN);
    co.reforming = ONLY_A;
    co.n_reforming = 1;
}

Test(combat_reform, must_end_perfectly_aligned)
{
    turned_about_front_left(5);
    const rules_violation *v = rules_unit_report_find(check(), "CR-ALIGNED");
    cr_assert_not_null(v);
    cr_assert_float_eq(base_rad_to_deg(v->measured), 5, 0.05);
}

Test(combat_reform, alignment_within_the_tolerance_counts_as_perfect)
{
    turned_about_front_left(0.01);
    cr_assert_not(has(check(), "CR-ALIGNED"));
}

Test(combat_reform, alignment_just_over_the_tolerance_is_not_perfect)
{
    turned_about_front_left(2.1);
    cr_assert(has(check(), "CR-ALIGNED"));
}

Test(combat_reform, engaged_in_two_facings_can_never_reform)
{
    block(before, "A", "red", 4, 8, 900, 300, UP);
    block(before, "E", "blue", 4, 8, 900, 300, DOWN);
    /* a second enemy against A's right Flank (A spans x 850..950, y 250..300) */
    block(before, "G", "blue", 2, 2, 950, 275, BASE_PI);
    block(after, "A", "red", 4, 8, 900, 300, UP);
    block(after, "E", "blue", 4, 8, 900, 300, DOWN);
    block(after, "G", "blue", 2, 2, 950, 275, BASE_PI);
    co.reforming = ONLY_A;
    co.n_reforming = 1;
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "CR-MULTI-FACING"));
    cr_assert(has_note(ur, "Command Test"), "engaged in a Flank");
}

Test(combat_reform, one_facing_engaged_may_reform)
{
    figure_a(before);
    figure_b(after);
    cr_assert_not(has(check(), "CR-MULTI-FACING"), "B and C are both on A's Front");
}

Test(combat_reform, the_losing_side_needs_a_command_test)
{
    figure_a(before);
    figure_b(after);
    cr_assert_not(has_note(check(), "Command Test"), "winning, engaged in the Front: no test");
    rules_report_clear(&report);
    co.losing_side = "red";
    const rules_unit_report *ur = check();
    cr_assert(has_note(ur, "Command Test required (on the losing side"));
}

Test(combat_reform, a_unit_not_in_contact_cannot_combat_reform)
{
    block(before, "A", "red", 4, 8, 900, 300, UP);
    block(after, "A", "red", 4, 8, 900, 320, UP);
    cr_assert_eq(rules_combat_reform_check(before, after, &opt, &(rules_combat_options){.reforming = ONLY_A,
                                                                                         .n_reforming = 1},
                                           &report, &(base_error){0}),
                 0);
    cr_assert(has(&report.units[0], "CR-NOT-ENGAGED"));
}

Test(combat_reform, several_reforms_are_checked_at_the_end_of_all)
{
    /* A and A2 side by side against a wide enemy E swap places: each alone would overlap the other. */
    block(before, "A", "red", 3, 6, 850, 300, UP);  /* x 812.5 .. 887.5 */
    block(before, "A2", "red", 3, 6, 950, 300, UP); /* x 912.5 .. 987.5 */
    block(before, "E", "blue", 8, 16, 900, 300, DOWN);
    block(after, "A", "red", 3, 6, 950, 300, UP);
    block(after, "A2", "red", 3, 6, 850, 300, UP);
    block(after, "E", "blue", 8, 16, 900, 300, DOWN);
    const rules_unit_report *ur = check();
    cr_assert_eq(report.n_units, 2);
    cr_assert(report.legal, "%s", first(ur));
    /* the same move of A alone (A2 not yet moved) would overlap A2 */
    rules_report_clear(&report);
    rules_unit *a2 = rules_snapshot_find_unit(after, "A2");
    for (size_t j = 0; j < a2->n_models; j++)
        a2->models[j].pos.x += 100;
    co.reforming = ONLY_A;
    co.n_reforming = 1;
    cr_assert(has(check(), "CR-OVERLAP"));
}

Test(combat_reform, a_misaligned_unit_that_did_not_reform_is_noted)
{
    turned_about_front_left(5);
    /* swap roles: the turned A is the table as it stands; nobody reforms */
    rules_snapshot *t = before;
    before = after;
    after = rules_snapshot_clone(before);
    rules_snapshot_free(t);
    co.reforming = NULL;
    co.n_reforming = 0;
    base_error err = {0};
    cr_assert_eq(rules_combat_reform_check(before, after, &opt, &co, &report, &err), 0);
    cr_assert_eq(report.n_units, 0);
    bool noted = false;
    for (size_t i = 0; i < report.n_notes; i++)
        noted |= strstr(report.notes[i], "had to attempt a Combat Reform") != NULL;
    cr_assert(noted);
}
