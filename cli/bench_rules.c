/*
 * tableref bench rules: how long a full-board check takes.
 *
 * A 72"x48" board with 40 units and 300 models; every unit makes a forward
 * move with wheels, so the wheel-path search runs on every unit. Prints
 * figures; it is a measurement, not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_args.h"
#include "commands.h"
#include "rules_formation.h"
#include "rules_move.h"
#include "rules_path.h"
#include "rules_pursuit.h"
#include "rules_reform.h"
#include "rules_visgraph.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Small deterministic generator so every run measures the same board. */
static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static double rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (rng_state >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct {
    rules_snapshot *before, *after;
} board_pair;

/* 40 units: 20 of 10 models (5x2) and 20 of 5 models (5x1) on 20 mm bases = 300 models. */
static int build_board(board_pair *b)
{
    b->before = rules_snapshot_new(1828.8, 1219.2);
    b->after = rules_snapshot_new(1828.8, 1219.2);
    if (!b->before || !b->after)
        return -1;
    for (int k = 0; k < 40; k++) {
        char id[16];
        snprintf(id, sizeof id, "u%02d", k);
        int n = k < 20 ? 10 : 5;
        const char *side = k % 2 ? "blue" : "red";
        /* 8 columns x 5 rows, each cell 228 x 243 mm: units start far apart */
        rules_vec2 front = rules_v2(114 + (k % 8) * 228.6, 60 + (k / 8) * 240.0);
        double heading = RULES_PI / 2;
        rules_unit *u0 = rules_snapshot_add_unit(b->before, id, side);
        rules_unit *u1 = rules_snapshot_add_unit(b->after, id, side);
        if (!u0 || !u1)
            return -1;
        u0->base_width = u1->base_width = 20;
        u0->base_depth = u1->base_depth = 20;
        u0->advance_rate = u1->advance_rate = rules_in_to_mm(5);
        u0->march_rate = u1->march_rate = rules_in_to_mm(10);
        /* a forward move with a wheel each way: the path search has real work */
        rules_pose p0 = {front, heading};
        rules_path moved = {.n_steps = 3};
        moved.steps[0] = (rules_step){RULES_STEP_FORWARD, 20 + 40 * rnd(), 0};
        double turn = (rnd() - 0.5) * 1.2;
        moved.steps[1] = (rules_step){turn > 0 ? RULES_STEP_WHEEL_LEFT : RULES_STEP_WHEEL_RIGHT, 0, turn};
        moved.steps[2] = (rules_step){RULES_STEP_FORWARD, 10 + 30 * rnd(), 0};
        rules_pose p1 = rules_path_apply(p0, &moved, 100);
        if (rules_formation_place(u0, p0.front_centre, p0.heading, 5, n) < 0 ||
            rules_formation_place(u1, p1.front_centre, p1.heading, 5, n) < 0)
            return -1;
    }
    return 0;
}

/*
 * Issue 6: a Reform Move route and a Pursuit prediction with 50 obstacles
 * (impassable terrain squares of 30-60 mm) scattered over the whole board,
 * and the route again in a dense 24" x 24" field (the worst case: almost
 * every gap closed by the clearance, so the search visits most corners).
 */
static void scatter(rules_snapshot *s, rules_vec2 keep_clear_a, rules_vec2 keep_clear_b, double clear_mm,
                    bool dense)
{
    int placed = (int)s->n_terrain;
    while (placed < 50) {
        double size = 30 + 30 * rnd();
        rules_vec2 c = dense ? rules_v2(600 + 610 * rnd(), 300 + 610 * rnd())
                             : rules_v2(50 + (s->board_width - 100) * rnd(), 50 + (s->board_depth - 100) * rnd());
        if (rules_v2_dist(c, keep_clear_a) < clear_mm || rules_v2_dist(c, keep_clear_b) < clear_mm)
            continue;
        rules_vec2 q[4] = {{c.x - size / 2, c.y - size / 2}, {c.x + size / 2, c.y - size / 2},
                           {c.x + size / 2, c.y + size / 2}, {c.x - size / 2, c.y + size / 2}};
        char id[16];
        snprintf(id, sizeof id, "rock%02d", placed++);
        rules_snapshot_add_terrain(s, id, RULES_TERRAIN_IMPASSABLE, q, 4);
    }
}

static int bench_rules6(int n)
{
    /* Reform Move: one model's route (16", twice a Mobility of 8"), obstacles loaded for its unit each time. */
    rules_vec2 from = {700, 450}, to = {700 + 330, 450 + 260};
    double reform_us = 0, route_only_us = 0, dense_us = 0, len = 0, dense_len = 0, bends = 0, dense_bends = 0;
    const double clearance = 0.5 * hypot(25, 25) + rules_in_to_mm(0.5);
    int reps = n * 5;
    for (int dense = 0; dense < 2; dense++) {
        rules_snapshot *s = rules_snapshot_new(1828.8, 1219.2);
        rules_visgraph *g = rules_visgraph_new();
        if (!s || !g) {
            rules_snapshot_free(s);
            rules_visgraph_free(g);
            return EXIT_BAD_INPUT;
        }
        rules_vec2 a = dense ? rules_v2(620, 605) : from, z = dense ? rules_v2(1190, 605) : to;
        /* one rock right across the straight line, so the route must bend */
        rules_vec2 m = rules_v2_scale(rules_v2_add(a, z), 0.5);
        rules_vec2 across[4] = {{m.x - 40, m.y - 40}, {m.x + 40, m.y - 40}, {m.x + 40, m.y + 40}, {m.x - 40, m.y + 40}};
        rules_snapshot_add_terrain(s, "across", RULES_TERRAIN_IMPASSABLE, across, 4);
        scatter(s, a, z, 80, dense);
        rules_route route = {0};
        double t0 = now_s();
        for (int i = 0; i < reps; i++) {
            rules_visgraph_reset(g, s->board_width, s->board_depth);
            for (size_t k = 0; k < s->n_terrain; k++)
                rules_visgraph_add_obstacle(g, s->terrain[k].points, s->terrain[k].n_points, clearance);
            rules_visgraph_route(g, a, z, &route);
        }
        double us = (now_s() - t0) * 1e6 / reps;
        if (dense) {
            dense_us = us;
            dense_len = route.length_mm;
            dense_bends = (double)route.n_points - 2;
        } else {
            reform_us = us;
            len = route.length_mm;
            bends = (double)route.n_points - 2;
            /* with the graph loaded once, as rules_reform_check routes every model of a unit */
            t0 = now_s();
            for (int i = 0; i < reps; i++)
                rules_visgraph_route(g, a, rules_v2(z.x, z.y + (i % 7)), &route);
            route_only_us = (now_s() - t0) * 1e6 / reps;
        }
        rules_route_clear(&route);
        rules_visgraph_free(g);
        rules_snapshot_free(s);
    }

    /* Pursuit: a 5x2 unit pivots a quarter turn and pursues 8" into the field. */
    rules_snapshot *s = rules_snapshot_new(1828.8, 1219.2);
    if (!s)
        return EXIT_BAD_INPUT;
    /* a rock 5" ahead of the pivoted Front (+x): the move ahead stops there and backtracks to 1" from it */
    rules_vec2 ahead[4] = {{725 + 127, 520}, {725 + 200, 520}, {725 + 200, 720}, {725 + 127, 720}};
    rules_snapshot_add_terrain(s, "ahead", RULES_TERRAIN_IMPASSABLE, ahead, 4);
    scatter(s, rules_v2(700, 600), rules_v2(850, 600), 140, false);
    rules_unit *u = rules_snapshot_add_unit(s, "pursuer", "red");
    u->base_width = u->base_depth = 25;
    rules_formation_place(u, rules_v2(700, 625), RULES_PI / 2, 5, 10);
    rules_pursuer pu = {"pursuer", rules_in_to_mm(8), false};
    rules_pursuit_input in = {.pursuers = &pu, .n_pursuers = 1, .pursued_heading = 0, .tolerance_mm = 10};
    rules_pursuit_prediction pred;
    rules_error err = {{0}};
    const char *outcome = "?";
    double fwd = 0;
    double t0 = now_s();
    for (int i = 0; i < n; i++) {
        if (rules_pursuit_predict(s, &in, &pred, &err) < 0) {
            fprintf(stderr, "tableref bench rules: %s\n", err.msg);
            rules_snapshot_free(s);
            return EXIT_BAD_INPUT;
        }
        outcome = rules_pursuit_outcome_word(pred.outcome);
        fwd = pred.forward_mm;
        rules_pursuit_prediction_clear(&pred);
    }
    double pursuit_us = (now_s() - t0) * 1e6 / n;
    rules_snapshot_free(s);
    printf("reform-move route, 50 obstacles on the board: %.1f us with the obstacles loaded (%.1f us routing "
           "alone); %.2f\" with %.0f bends\n",
           reform_us, route_only_us, rules_mm_to_in(len), bends);
    printf("reform-move route, 50 obstacles in a dense 24\" field: %.1f us; %.2f\" with %.0f bends\n", dense_us,
           rules_mm_to_in(dense_len), dense_bends);
    printf("pursuit prediction, 50 obstacles: %.1f us (%s, %.2f\" ahead)\n", pursuit_us, outcome,
           rules_mm_to_in(fwd));
    printf("rules6: reform_path_us=%.1f route_only_us=%.1f dense_path_us=%.1f pursuit_us=%.1f obstacles=50 "
           "target_us=1000\n",
           reform_us, route_only_us, dense_us, pursuit_us);
    return 0;
}

int bench_rules(int argc, char **argv)
{
    double iterations = 2000;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r = cli_value(argc, argv, &i, "--iterations", &v);
        if (r < 0 || (r > 0 && cli_number("--iterations", v, &iterations) < 0))
            return EXIT_BAD_INPUT;
        if (r == 0) {
            printf("usage: tableref bench rules [--iterations N]\n");
            return strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0 ? 0 : EXIT_BAD_INPUT;
        }
    }
    board_pair b = {0};
    if (build_board(&b) < 0) {
        fprintf(stderr, "tableref bench rules: out of memory\n");
        return EXIT_BAD_INPUT;
    }
    size_t models = 0;
    for (size_t i = 0; i < b.before->n_units; i++)
        models += b.before->units[i].n_models;

    rules_check_options opt;
    rules_check_options_default(&opt);
    opt.move = RULES_MOVE_MARCH;
    rules_report r;
    rules_report_init(&r);
    rules_error err = {{0}};
    int n = (int)iterations;
    /* warm-up, and the verdict we measure */
    if (rules_move_check(b.before, b.after, &opt, &r, &err) < 0) {
        fprintf(stderr, "tableref bench rules: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    size_t judged = r.n_units;
    double t0 = now_s();
    for (int i = 0; i < n; i++)
        rules_move_check(b.before, b.after, &opt, &r, &err);
    double check_ms = (now_s() - t0) * 1e3 / n;

    opt.move = RULES_MOVE_AUTO;
    t0 = now_s();
    for (int i = 0; i < n; i++)
        rules_move_check(b.before, b.after, &opt, &r, &err);
    double auto_ms = (now_s() - t0) * 1e3 / n;

    /* the wheel-path search alone */
    rules_path p;
    const rules_ruleset *rs = rules_ruleset_find(RULES_DEFAULT_RULESET);
    int paths = n * 40;
    t0 = now_s();
    double sink = 0;
    for (int i = 0; i < paths; i++) {
        rules_pose a = {{0, 0}, 0}, z = {{200 * rnd(), 200 * rnd() - 100}, (rnd() - 0.5) * 6};
        rules_path_forward_wheels(a, z, 100, rs, &p);
        sink += p.length_mm;
    }
    double path_us = (now_s() - t0) * 1e6 / paths;

    printf("board: %zu units, %zu models, every unit moved forward with wheels (%zu judged)\n",
           b.before->n_units, models, judged);
    printf("full check, --move march: %.3f ms per check (%d iterations)\n", check_ms, n);
    printf("full check, --move auto:  %.3f ms per check\n", auto_ms);
    printf("wheel-path search alone, random poses up to an about-face: %.2f us per unit (checksum %.0f)\n", path_us,
           sink);
    printf("rules: units=%zu models=%zu check_ms=%.3f auto_ms=%.3f path_us=%.2f target_ms=1.0\n",
           b.before->n_units, models, check_ms, auto_ms, path_us);
    rules_report_clear(&r);
    rules_snapshot_free(b.before);
    rules_snapshot_free(b.after);
    return bench_rules6(n);
}
