/*
 * Reform Move (seed 000) and the route search behind it (rules_visgraph).
 * Every clause has a case that fails if the clause is dropped; limits are
 * tested exactly at the limit (legal) and just over (illegal). Tolerance:
 * rules_check_options.limit_tolerance_mm = 0.5 mm.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_reform.h"

static rules_snapshot *before, *mid, *after;
static rules_report report;
static rules_check_options opt;

static void setup(void)
{
    before = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    after = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    mid = NULL;
    /* Reform Move is a rule of the Mobility text [B]. */
    before->ruleset = after->ruleset = *rules_ruleset_find("t9a-mobility");
    before->ruleset_given = after->ruleset_given = true;
    rules_report_init(&report);
    rules_check_options_default(&opt);
}
static void teardown(void)
{
    rules_report_clear(&report);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    rules_snapshot_free(mid);
}
TestSuite(reform_move, .init = setup, .fini = teardown);

static const base_vec2 C = {900, 300}; /* unit centre, well inside the board */
#define BASE 25.0

/* A block of `files` x ... 25 mm bases whose boundary centre is `centre`, facing `heading`. */
static rules_unit *block_at(rules_snapshot *s, const char *id, int files, int n, base_vec2 centre, double heading,
                            double mobility_in)
{
    int ranks = (n + files - 1) / files;
    base_vec2 front = base_v2_add(centre, base_v2_scale(base_v2_dir(heading), ranks * BASE / 2));
    rules_unit *u = fx_block(s, id, "red", BASE, files, n, (rules_pose){front, heading}, 0, 0);
    u->mobility = base_in_to_mm(mobility_in);
    return u;
}

/* `u` copied into `s`, rotated by `angle` about `pivot`, then moved by `shift`. */
static rules_unit *rigid_copy(rules_snapshot *s, const rules_unit *u, base_vec2 pivot, double angle, base_vec2 shift)
{
    rules_unit *c = rules_snapshot_add_unit(s, u->id, u->side);
    rules_model *keep = c->models;
    *c = *u;
    c->models = keep;
    c->n_models = c->cap_models = 0;
    for (size_t j = 0; j < u->n_models; j++) {
        base_vec2 p = base_v2_add(base_v2_add(pivot, base_v2_rot(base_v2_sub(u->models[j].pos, pivot), angle)), shift);
        rules_unit_add_model(c, u->models[j].id, p, base_angle_wrap(u->models[j].facing + angle));
    }
    return c;
}

static const rules_unit_report *check(void)
{
    base_error err = {0};
    cr_assert_eq(rules_reform_check(before, mid, after, &opt, &report, &err), 0, "%s", err.msg);
    cr_assert_eq(report.n_units, 1, "one unit should have been judged, got %zu", report.n_units);
    return &report.units[0];
}

static bool has(const rules_unit_report *ur, const char *code)
{
    return rules_unit_report_find(ur, code) != NULL;
}

static double measure(const rules_unit_report *ur, const char *name)
{
    for (size_t i = 0; i < ur->n_measures; i++)
        if (strcmp(ur->measures[i].name, name) == 0)
            return ur->measures[i].value;
    cr_assert_fail("no measure %s", name);
    return NAN;
}

static const rules_model_path *route_of(const rules_unit_report *ur, const char *id)
{
    for (size_t i = 0; i < ur->n_model_paths; i++)
        if (strcmp(ur->model_paths[i].id, id) == 0)
            return &ur->model_paths[i];
    cr_assert_fail("no route for %s", id);
    return NULL;
}

static void add_square(rules_snapshot *s, const char *id, rules_terrain_kind kind, double x0, double y0, double x1,
                       double y1)
{
    base_vec2 sq[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    rules_snapshot_add_terrain(s, id, kind, sq, 4);
}

/* Exact shortest length from a to b around a disc (centre c, radius r) that the segment ab cuts. */
static double around_disc(base_vec2 a, base_vec2 b, base_vec2 c, double r)
{
    base_vec2 ca = base_v2_sub(a, c), cb = base_v2_sub(b, c);
    double la = base_v2_len(ca), lb = base_v2_len(cb);
    double between = acos(base_v2_dot(ca, cb) / (la * lb));
    double arc = between - acos(r / la) - acos(r / lb);
    return sqrt(la * la - r * r) + sqrt(lb * lb - r * r) + r * arc;
}

/* ---- route search ------------------------------------------------------ */

Test(reform_move, route_is_straight_when_nothing_is_in_the_way)
{
    rules_visgraph *g = rules_visgraph_new();
    rules_visgraph_reset(g, 1000, 1000);
    base_vec2 sq[4] = {{400, 400}, {500, 400}, {500, 500}, {400, 500}};
    rules_visgraph_add_obstacle(g, sq, 4, 10);
    rules_route r = {0};
    cr_assert_eq(rules_visgraph_route(g, base_v2(100, 100), base_v2(300, 100), &r), 0);
    cr_assert_eq(r.n_points, 2);
    cr_assert_float_eq(r.length_mm, 200, 1e-9);
    rules_route_clear(&r);
    rules_visgraph_free(g);
}

Test(reform_move, route_around_a_thin_wall_bends_at_its_ends_exactly)
{
    /* Zero clearance: the shortest way past a wall goes through its two end corners. */
    rules_visgraph *g = rules_visgraph_new();
    rules_visgraph_reset(g, 0, 0);
    base_vec2 wall[4] = {{-1, -100}, {1, -100}, {1, 100}, {-1, 100}};
    rules_visgraph_add_obstacle(g, wall, 4, 0);
    rules_route r = {0};
    cr_assert_eq(rules_visgraph_route(g, base_v2(-50, 10), base_v2(50, 10), &r), 0);
    double expect = hypot(49, 90) + 2 + hypot(49, 90);
    cr_assert_float_eq(r.length_mm, expect, 1e-6, "got %f want %f", r.length_mm, expect);
    cr_assert_eq(r.n_points, 4);
    cr_assert_float_eq(r.points[1].y, 100, 1e-9);
    rules_route_clear(&r);
    rules_visgraph_free(g);
}

Test(reform_move, route_keeps_the_clearance_and_is_near_the_exact_rounded_length)
{
    rules_visgraph *g = rules_visgraph_new();
    rules_visgraph_reset(g, 0, 0);
    base_vec2 sq[4] = {{0, 0}, {100, 0}, {100, 100}, {0, 100}};
    const double r = 30;
    rules_visgraph_add_obstacle(g, sq, 4, r);
    rules_route route = {0};
    base_vec2 a = {-60, 40}, b = {40, 160};
    cr_assert_eq(rules_visgraph_route(g, a, b, &route), 0);
    double exact = around_disc(a, b, base_v2(0, 100), r);
    cr_assert_geq(route.length_mm, exact - 1e-6);
    cr_assert_leq(route.length_mm, exact * 1.01, "route %f, exact rounded %f", route.length_mm, exact);
    /* sample the polyline: never closer than the clearance to the square */
    for (size_t i = 0; i + 1 < route.n_points; i++)
        for (int k = 0; k <= 50; k++) {
            base_vec2 p = base_v2_add(route.points[i],
                                        base_v2_scale(base_v2_sub(route.points[i + 1], route.points[i]), k / 50.0));
            base_vec2 pt[1] = {p};
            cr_assert_geq(base_poly_dist(pt, 1, sq, 4), r - 1e-6);
        }
    rules_route_clear(&route);
    rules_visgraph_free(g);
}

Test(reform_move, route_reports_no_way_out_of_a_closed_ring)
{
    rules_visgraph *g = rules_visgraph_new();
    rules_visgraph_reset(g, 1000, 1000);
    base_vec2 walls[4][4] = {
        {{300, 300}, {700, 300}, {700, 320}, {300, 320}},
        {{300, 680}, {700, 680}, {700, 700}, {300, 700}},
        {{300, 300}, {320, 300}, {320, 700}, {300, 700}},
        {{680, 300}, {700, 300}, {700, 700}, {680, 700}},
    };
    for (int i = 0; i < 4; i++)
        rules_visgraph_add_obstacle(g, walls[i], 4, 5);
    rules_route r = {0};
    cr_assert_eq(rules_visgraph_route(g, base_v2(500, 500), base_v2(900, 500), &r), 1);
    cr_assert(isinf(r.length_mm));
    rules_route_clear(&r);
    rules_visgraph_free(g);
}

Test(reform_move, route_may_leave_an_obstacle_it_starts_inside)
{
    rules_visgraph *g = rules_visgraph_new();
    rules_visgraph_reset(g, 0, 0);
    base_vec2 sq[4] = {{0, 0}, {100, 0}, {100, 100}, {0, 100}};
    rules_visgraph_add_obstacle(g, sq, 4, 20);
    rules_route r = {0};
    /* 10 mm from the square: inside its 20 mm growth, and walking away */
    cr_assert_eq(rules_visgraph_route(g, base_v2(110, 50), base_v2(300, 50), &r), 0);
    cr_assert_float_eq(r.length_mm, 190, 1e-9);
    rules_route_clear(&r);
    rules_visgraph_free(g);
}

/* ---- centre ------------------------------------------------------------ */

Test(reform_move, centre_exactly_half_the_mobility_is_legal)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    rigid_copy(after, u, C, 0, base_v2(base_in_to_mm(4), 0));
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
    cr_assert_eq(ur->move, RULES_MOVE_REFORM_MOVE);
    cr_assert_float_eq(measure(ur, "centre_travel"), base_in_to_mm(4), 1e-6);
}

Test(reform_move, centre_one_mm_over_half_the_mobility_is_illegal)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    rigid_copy(after, u, C, 0, base_v2(base_in_to_mm(4) + 1, 0));
    const rules_unit_report *ur = check();
    const rules_violation *v = rules_unit_report_find(ur, "RM-CENTRE");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured - v->limit, 1.0, 1e-6);
    cr_assert_eq(ur->n_violations, 1, "only the centre rule is broken");
}

Test(reform_move, the_unit_may_turn_to_face_any_way_about_its_centre)
{
    /* An about-face: the centre stays, every model's route is within 2x Mobility. */
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 4);
    rigid_copy(after, u, C, BASE_PI, base_v2(0, 0));
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
    cr_assert_float_eq(measure(ur, "centre_travel"), 0, 1e-6);
}

/* ---- files and ranks ---------------------------------------------------- */

Test(reform_move, files_may_change_by_three)
{
    block_at(before, "u", 9, 18, C, BASE_PI / 2, 8);
    block_at(after, "u", 6, 18, C, BASE_PI / 2, 8);
    const rules_unit_report *ur = check();
    cr_assert_not(has(ur, "RM-FILES"));
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
    cr_assert_eq(ur->files_before, 9);
    cr_assert_eq(ur->files_after, 6);
}

Test(reform_move, files_changing_by_four_is_illegal)
{
    block_at(before, "u", 9, 18, C, BASE_PI / 2, 8);
    block_at(after, "u", 5, 18, C, BASE_PI / 2, 8);
    const rules_unit_report *ur = check();
    const rules_violation *v = rules_unit_report_find(ur, "RM-FILES");
    cr_assert_not_null(v);
    cr_assert_eq(v->measured, 4);
    cr_assert_eq(v->limit, 3);
}

Test(reform_move, more_ranks_than_files_is_illegal_unless_a_proper_rank_wide)
{
    block_at(before, "u", 6, 12, C, BASE_PI / 2, 8);
    block_at(after, "u", 3, 12, C, BASE_PI / 2, 8); /* 3 files, 4 ranks */
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "RM-RANKS-FILES"));
    cr_assert_not(has(ur, "RM-FILES"));
}

Test(reform_move, more_ranks_than_files_is_fine_when_five_wide)
{
    block_at(before, "u", 8, 30, C, BASE_PI / 2, 8);
    block_at(after, "u", 5, 30, C, BASE_PI / 2, 8); /* 5 files, 6 ranks: a Proper Rank */
    const rules_unit_report *ur = check();
    cr_assert_not(has(ur, "RM-RANKS-FILES"));
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
}

Test(reform_move, ranks_versus_files_follows_the_ruleset)
{
    before->ruleset = after->ruleset = *rules_ruleset_find("t9a-2ed"); /* [A]: no such restriction */
    block_at(before, "u", 6, 12, C, BASE_PI / 2, 8);
    block_at(after, "u", 3, 12, C, BASE_PI / 2, 8);
    cr_assert_not(has(check(), "RM-RANKS-FILES"));
}

Test(reform_move, the_unit_must_end_in_a_viable_formation)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    rules_unit *a = rigid_copy(after, u, C, 0, base_v2(0, 0));
    a->models[3].pos.x += 15; /* out of line */
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "RM-FORMATION"));
}

/* ---- each model's own route -------------------------------------------- */

/*
 * A 7x1 line turns 90 degrees about its centre. Its right-hand model goes
 * from (75, 0) to (0, 75) relative to the centre; a square obstruction at
 * [40, 70]^2 sits across that straight line, 27.5 mm from both placements.
 */
static rules_unit *quarter_turn_past(bool terrain, double mobility_mm)
{
    rules_unit *u = block_at(before, "u", 7, 7, C, BASE_PI / 2, 1);
    u->mobility = mobility_mm;
    rigid_copy(after, u, C, BASE_PI / 2, base_v2(0, 0));
    if (terrain) {
        add_square(before, "rock", RULES_TERRAIN_IMPASSABLE, C.x + 40, C.y + 40, C.x + 70, C.y + 70);
        add_square(after, "rock", RULES_TERRAIN_IMPASSABLE, C.x + 40, C.y + 40, C.x + 70, C.y + 70);
    }
    return u;
}

static double expected_detour(void)
{
    double r = 0.5 * hypot(BASE, BASE) + base_in_to_mm(0.5);
    return around_disc(base_v2(75, 0), base_v2(0, 75), base_v2(40, 40), r);
}

Test(reform_move, model_route_goes_around_impassable_terrain)
{
    quarter_turn_past(true, 56.5); /* 2 x Mobility = 113 mm: the straight 106 mm would fit */
    const rules_unit_report *ur = check();
    const rules_model_path *mp = route_of(ur, "u-7");
    double exact = expected_detour();
    cr_assert_gt(mp->n_points, 2, "the route bends around the rock");
    cr_assert_geq(mp->length_mm, exact - 1e-6);
    cr_assert_leq(mp->length_mm, exact + 1.0, "route %f mm, exact rounded %f mm", mp->length_mm, exact);
    cr_assert_lt(ur->models[6].distance_mm, 113 - 1, "straight it would be legal");
    const rules_violation *v = rules_unit_report_find(ur, "RM-MODEL-PATH");
    cr_assert_not_null(v, "the detour is longer than 2 x Mobility");
    cr_assert_float_eq(v->limit, 113, 1e-9);
    bool named = false;
    for (size_t i = 0; i < v->n_models; i++)
        named |= strcmp(v->models[i], "u-7") == 0;
    cr_assert(named);
    cr_assert_not(has(ur, "RM-SPACING"), "27.5 mm from the rock at the end is more than 1\" - tolerance");
}

Test(reform_move, model_route_exactly_at_twice_the_mobility_is_legal)
{
    quarter_turn_past(true, 56.5);
    double needed = route_of(check(), "u-7")->length_mm;
    teardown();
    setup();
    quarter_turn_past(true, needed / 2);
    const rules_unit_report *ur = check();
    cr_assert_not(has(ur, "RM-MODEL-PATH"));
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
}

Test(reform_move, model_route_one_mm_over_twice_the_mobility_is_illegal)
{
    quarter_turn_past(true, 56.5);
    double needed = route_of(check(), "u-7")->length_mm;
    teardown();
    setup();
    quarter_turn_past(true, (needed - 1.0) / 2);
    const rules_violation *v = rules_unit_report_find(check(), "RM-MODEL-PATH");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured - v->limit, 1.0, 1e-6);
}

Test(reform_move, without_the_obstruction_the_same_move_is_legal)
{
    quarter_turn_past(false, 56.5);
    const rules_unit_report *ur = check();
    cr_assert(ur->legal, "%s", ur->n_violations ? ur->violations[0].message : "");
    cr_assert_eq(route_of(ur, "u-7")->n_points, 2);
}

Test(reform_move, models_of_other_units_are_obstructions_too)
{
    quarter_turn_past(false, 56.5);
    /* a friendly single-model unit on a 30 mm base where the rock was */
    base_vec2 at = base_v2(C.x + 55, C.y + 55);
    for (int k = 0; k < 2; k++) {
        rules_unit *o = rules_snapshot_add_unit(k ? after : before, "post", "red");
        o->base_width = o->base_depth = 30;
        rules_unit_add_model(o, "post-1", at, BASE_PI / 2);
    }
    opt.unit_id = "u";
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "RM-MODEL-PATH"));
    cr_assert_gt(route_of(ur, "u-7")->n_points, 2);
}

Test(reform_move, models_of_the_same_unit_are_ignored)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    add_square(before, "rock", RULES_TERRAIN_IMPASSABLE, 100, 100, 150, 150);
    rules_formation fits[1];
    rules_formation_fit(u, NULL, &fits[0], NULL);
    rules_visgraph *g = rules_visgraph_new();
    cr_assert_eq(rules_reform_load_obstacles(g, before, fits, u, 30), 0);
    cr_assert_eq(rules_visgraph_obstacle_count(g), 1, "only the rock, not the unit itself");
    cr_assert_eq(rules_reform_load_obstacles(g, before, fits, NULL, 30), 0);
    cr_assert_eq(rules_visgraph_obstacle_count(g), 2);
    rules_visgraph_free(g);
}

Test(reform_move, a_boxed_in_model_has_no_route)
{
    /* a single model inside a closed ring of impassable terrain, placed back outside it */
    rules_unit *u = block_at(before, "u", 1, 1, C, BASE_PI / 2, 40);
    rigid_copy(after, u, C, 0, base_v2(300, 0));
    add_square(before, "ring-n", RULES_TERRAIN_IMPASSABLE, C.x - 120, C.y + 100, C.x + 120, C.y + 120);
    add_square(before, "ring-s", RULES_TERRAIN_IMPASSABLE, C.x - 120, C.y - 120, C.x + 120, C.y - 100);
    add_square(before, "ring-w", RULES_TERRAIN_IMPASSABLE, C.x - 120, C.y - 120, C.x - 100, C.y + 120);
    add_square(before, "ring-e", RULES_TERRAIN_IMPASSABLE, C.x + 100, C.y - 120, C.x + 120, C.y + 120);
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "RM-NO-ROUTE"));
    cr_assert(isinf(route_of(ur, "u-1")->length_mm));
}

Test(reform_move, a_route_never_crosses_the_terrain_itself_even_from_close_by)
{
    /* start and end both within the wall's grown margin, on opposite sides: no straight crossing */
    rules_visgraph *g = rules_visgraph_new();
    rules_visgraph_reset(g, 0, 0);
    base_vec2 wall[4] = {{-200, 0}, {200, 0}, {200, 10}, {-200, 10}};
    rules_visgraph_add_obstacle(g, wall, 4, 30);
    rules_route r = {0};
    cr_assert_eq(rules_visgraph_route(g, base_v2(0, -20), base_v2(0, 30), &r), 0);
    cr_assert_gt(r.length_mm, 400, "must go around an end of the 400 mm wall, got %f", r.length_mm);
    rules_route_clear(&r);
    rules_visgraph_free(g);
}

/* ---- mid-move placement ------------------------------------------------- */

Test(reform_move, mid_move_routes_go_through_the_mid_placement)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 4);
    rigid_copy(after, u, C, 0, base_v2(0, 0)); /* ends where it started (a turn away and back) */
    mid = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    mid->ruleset = before->ruleset;
    rigid_copy(mid, u, C, 0, base_v2(base_in_to_mm(1), 0));
    const rules_unit_report *ur = check();
    cr_assert_float_eq(route_of(ur, "u-1")->length_mm, base_in_to_mm(2), 1e-6);
    cr_assert_float_eq(measure(ur, "centre_travel"), base_in_to_mm(2), 1e-6);
    cr_assert(ur->legal, "2\" of centre travel is exactly half of Mobility 4\"");
}

Test(reform_move, mid_move_detour_counts_against_the_limits)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 4);
    rigid_copy(after, u, C, 0, base_v2(0, 0));
    mid = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    mid->ruleset = before->ruleset;
    rigid_copy(mid, u, C, 0, base_v2(base_in_to_mm(1) + 1, 0));
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "RM-CENTRE"), "start -> mid -> end is 2\" + 2 mm");
    cr_assert_float_eq(ur->centre_displacement_mm, 0, 1e-6, "straight, the centre did not move");
}

Test(reform_move, mid_move_placement_must_be_a_viable_formation)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    rigid_copy(after, u, C, 0, base_v2(10, 0));
    mid = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *m = rigid_copy(mid, u, C, 0, base_v2(5, 0));
    m->models[2].pos.y += 12; /* half a base out of its rank */
    const rules_unit_report *ur = check();
    cr_assert(has(ur, "RM-MID-FORMATION"));
    cr_assert_not(has(ur, "RM-FORMATION"), "the end placement is fine");
}

Test(reform_move, mid_move_placement_must_keep_half_inch_spacing)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    rigid_copy(after, u, C, 0, base_v2(0, 0));
    mid = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rigid_copy(mid, u, C, 0, base_v2(0, 40));
    /* the unit's front is at C.y + 25 + 40 = C.y + 65 mid-move; an enemy 5 mm beyond it */
    rules_unit *e = block_at(mid, "enemy", 5, 5, base_v2(C.x, C.y + 65 + 5 + 12.5), -BASE_PI / 2, 4);
    (void)e;
    const rules_unit_report *ur = check();
    const rules_violation *v = rules_unit_report_find(ur, "RM-MID-SPACING");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured, 5, 1e-6);
    cr_assert_float_eq(v->limit, base_in_to_mm(0.5), 1e-9);
}

Test(reform_move, mid_move_placement_at_exactly_half_inch_is_legal)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    rigid_copy(after, u, C, 0, base_v2(0, 0));
    mid = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rigid_copy(mid, u, C, 0, base_v2(0, 40));
    block_at(mid, "enemy", 5, 5, base_v2(C.x, C.y + 65 + base_in_to_mm(0.5) + 12.5), -BASE_PI / 2, 4);
    cr_assert_not(has(check(), "RM-MID-SPACING"));
}

/* ---- end of the move ---------------------------------------------------- */

Test(reform_move, the_unit_ends_at_unit_spacing)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    rigid_copy(after, u, C, 0, base_v2(0, 40));
    rules_unit *e = block_at(before, "enemy", 5, 5, base_v2(C.x, C.y + 200), -BASE_PI / 2, 4);
    rigid_copy(after, e, C, 0, base_v2(0, 0));
    /* the enemy's front edge is at C.y + 187.5; the unit's front ends at C.y + 65 */
    opt.unit_id = "u";
    cr_assert_not(has(check(), "RM-SPACING"));
    rules_report_clear(&report);
    /* now move the enemy to 10 mm away */
    for (size_t j = 0; j < after->units[1].n_models; j++)
        after->units[1].models[j].pos.y -= 187.5 - 65 - 10;
    const rules_violation *v = rules_unit_report_find(check(), "RM-SPACING");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured, 10, 1e-6);
    cr_assert_float_eq(v->limit, base_in_to_mm(1), 1e-9);
}

Test(reform_move, the_unit_ends_on_the_board)
{
    base_vec2 near_edge = {70, 300};
    rules_unit *u = block_at(before, "u", 5, 10, near_edge, BASE_PI / 2, 8);
    rigid_copy(after, u, near_edge, 0, base_v2(-20, 0)); /* left end at 70 - 62.5 - 20 = -12.5 */
    const rules_violation *v = rules_unit_report_find(check(), "RM-BOARD-EDGE");
    cr_assert_not_null(v);
    cr_assert_float_eq(v->measured, 12.5, 1e-6);
}

Test(reform_move, an_engaged_unit_cannot_reform_move)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    u->status = RULES_STATUS_ENGAGED;
    rigid_copy(after, u, C, 0, base_v2(10, 0));
    cr_assert(has(check(), "RM-ELIGIBLE"));
}

/* ---- inputs and outputs -------------------------------------------------- */

Test(reform_move, a_unit_without_mobility_cannot_be_judged)
{
    rules_unit *u = block_at(before, "u", 5, 10, C, BASE_PI / 2, 8);
    u->mobility = NAN;
    rigid_copy(after, u, C, 0, base_v2(10, 0));
    base_error err = {0};
    cr_assert_eq(rules_reform_check(before, NULL, after, &opt, &report, &err), -1);
    cr_assert(strstr(err.msg, "mobility_in"), "%s", err.msg);
}

Test(reform_move, routes_are_in_the_json_report)
{
    quarter_turn_past(true, 56.5);
    check();
    cJSON *j = rules_report_to_json(&report);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "move")->valuestring, "reform-move");
    const cJSON *mps = cJSON_GetObjectItem(u, "model_paths");
    cr_assert(cJSON_IsArray(mps));
    cr_assert_eq(cJSON_GetArraySize(mps), 7);
    const cJSON *last = cJSON_GetArrayItem(mps, 6);
    cr_assert_str_eq(cJSON_GetObjectItem(last, "id")->valuestring, "u-7");
    cr_assert_gt(cJSON_GetArraySize(cJSON_GetObjectItem(last, "points_mm")), 2);
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(last, "length_in")));
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(u, "measurements"), "centre_travel_in")));
    cJSON_Delete(j);
}
