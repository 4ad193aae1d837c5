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
#include "rules_reach.h"
#include "rules_reform.h"
#include "ref_judge.h"
#include "rules_suggest.h"
#include "rules_visgraph.h"

/*
 * The thread's CPU time, not the wall clock: the checks are single-threaded,
 * and on a shared machine the wall clock also counts other processes' turns.
 * On an idle machine the two agree.
 */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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

/* Every unit's cell on the bench board: units start far apart, as on a real table. */
#define CELL_W 228.6
#define CELL_D 240.0

/*
 * About `n_models` models in units of 10 (5x2) and 5 (5x1) on 20 mm bases,
 * one unit per 228.6 x 240 mm cell, sides alternating. The board is 72" x 48"
 * (8 x 5 cells) or, for more than 40 units, as large as the cells need: the
 * density of the 300-model board, kept as the table grows. `cols` > 0 packs
 * the cells into that many columns on a 72" x 48" board instead (denser).
 */
static int build_board(board_pair *b, size_t n_models, int cols)
{
    size_t n_units = 0;
    for (size_t m = 0; m < n_models; n_units++)
        m += n_units % 2 ? 5 : 10;
    double cw = CELL_W, cd = CELL_D;
    if (cols <= 0)
        cols = n_units <= 40 ? 8 : (int)ceil(sqrt(n_units * 1.5));
    else
        cw = 1828.8 / cols;
    int rows = (int)((n_units + (size_t)cols - 1) / (size_t)cols);
    if (cw < CELL_W)
        cd = 1219.2 / (rows > 5 ? rows : 5);
    double bw = fmax(1828.8, cols * cw), bd = fmax(1219.2, rows * cd);
    b->before = rules_snapshot_new(bw, bd);
    b->after = rules_snapshot_new(bw, bd);
    if (!b->before || !b->after)
        return -1;
    for (size_t k = 0; k < n_units; k++) {
        char id[32];
        snprintf(id, sizeof id, "u%03zu", k);
        int n = k % 2 ? 5 : 10;
        const char *side = k % 2 ? "blue" : "red";
        base_vec2 front = base_v2(cw / 2 + (double)(k % (size_t)cols) * cw, 60 + (double)(k / (size_t)cols) * cd);
        double heading = BASE_PI / 2;
        rules_unit *u0 = rules_snapshot_add_unit(b->before, id, side);
        rules_unit *u1 = rules_snapshot_add_unit(b->after, id, side);
        if (!u0 || !u1)
            return -1;
        u0->base_width = u1->base_width = 20;
        u0->base_depth = u1->base_depth = 20;
        u0->advance_rate = u1->advance_rate = base_in_to_mm(5);
        u0->march_rate = u1->march_rate = base_in_to_mm(10);
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

static size_t count_models(const rules_snapshot *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_units; i++)
        n += s->units[i].n_models;
    return n;
}

/* Fixed repetitions instead of a time budget (--runs N: for callgrind, whose clock runs slow). */
static int fixed_runs;

/* Milliseconds per full check of `b` with move type `move`, over about `budget_s` seconds (at least 3 runs). */
static double time_check(const board_pair *b, rules_move_type move, double budget_s, size_t *judged)
{
    rules_check_options opt;
    rules_check_options_default(&opt);
    opt.move = move;
    rules_report r;
    rules_report_init(&r);
    base_error err = {0};
    if (rules_move_check(b->before, b->after, &opt, &r, &err) < 0) { /* warm-up, and the verdict we measure */
        fprintf(stderr, "tableref bench rules: %s\n", err.msg);
        return NAN;
    }
    *judged = r.n_units;
    int n = 0;
    double t0 = now_s(), t;
    do {
        rules_move_check(b->before, b->after, &opt, &r, &err);
        n++;
    } while (fixed_runs ? n < fixed_runs : ((t = now_s() - t0) < budget_s || n < 3));
    t = now_s() - t0;
    rules_report_clear(&r);
    return t * 1e3 / n;
}

static void free_board(board_pair *b)
{
    rules_snapshot_free(b->before);
    rules_snapshot_free(b->after);
    b->before = b->after = NULL;
}

/* --packed: with --models, the packed line instead of the spread one. */
static bool only_packed;

/* How the full check grows with the number of models: 100, 300, 1000, 3000 (and 1000 packed on 72" x 48"). */
static int bench_growth(double budget_s, double only_models)
{
    static const struct {
        size_t models;
        int cols;
    } sizes[] = {{100, 0}, {300, 0}, {1000, 0}, {3000, 0}, {1000, 12}};
    printf("full check as the table grows (every unit moved forward with wheels; times are CPU time):\n");
    printf("  %7s %6s %15s %12s %12s %14s\n", "models", "units", "board (in)", "march ms", "auto ms",
           "us per model");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (only_models > 0 && (sizes[i].models != (size_t)only_models || (sizes[i].cols != 0) != only_packed))
            continue;
        rng_state = 0x9E3779B97F4A7C15ull;
        board_pair b = {0};
        if (build_board(&b, sizes[i].models, sizes[i].cols) < 0) {
            free_board(&b);
            fprintf(stderr, "tableref bench rules: out of memory\n");
            return EXIT_BAD_INPUT;
        }
        size_t judged = 0, models = count_models(b.before);
        double march = time_check(&b, RULES_MOVE_MARCH, budget_s, &judged);
        double aut = time_check(&b, RULES_MOVE_AUTO, budget_s, &judged);
        char board[32];
        snprintf(board, sizeof board, "%.0fx%.0f%s", base_mm_to_in(b.before->board_width),
                 base_mm_to_in(b.before->board_depth), sizes[i].cols ? " packed" : "");
        printf("  %7zu %6zu %15s %12.3f %12.3f %14.3f\n", models, b.before->n_units, board, march, aut,
               march * 1e3 / (double)models);
        printf("growth: models=%zu units=%zu judged=%zu packed=%d check_ms=%.3f auto_ms=%.3f\n", models,
               b.before->n_units, judged, sizes[i].cols != 0, march, aut);
        free_board(&b);
    }
    return 0;
}

/*
 * Issue 6: a Reform Move route and a Pursuit prediction with 50 obstacles
 * (impassable terrain squares of 30-60 mm) scattered over the whole board,
 * and the route again in a dense 24" x 24" field (the worst case: almost
 * every gap closed by the clearance, so the search visits most corners).
 */
static void scatter(rules_snapshot *s, base_vec2 keep_clear_a, base_vec2 keep_clear_b, double clear_mm,
                    bool dense)
{
    int placed = (int)s->n_terrain;
    while (placed < 50) {
        double size = 30 + 30 * rnd();
        base_vec2 c = dense ? base_v2(600 + 610 * rnd(), 300 + 610 * rnd())
                             : base_v2(50 + (s->board_width - 100) * rnd(), 50 + (s->board_depth - 100) * rnd());
        if (base_v2_dist(c, keep_clear_a) < clear_mm || base_v2_dist(c, keep_clear_b) < clear_mm)
            continue;
        base_vec2 q[4] = {{c.x - size / 2, c.y - size / 2}, {c.x + size / 2, c.y - size / 2},
                           {c.x + size / 2, c.y + size / 2}, {c.x - size / 2, c.y + size / 2}};
        char id[16];
        snprintf(id, sizeof id, "rock%02d", placed++);
        rules_snapshot_add_terrain(s, id, RULES_TERRAIN_IMPASSABLE, q, 4);
    }
}

/* A Reform Move route timed on one field of 50 obstacles. */
typedef struct route_timing {
    double us, route_only_us, length_mm, bends;
} route_timing;

static int time_reform_route(int dense, int reps, route_timing *t)
{
    const double clearance = 0.5 * hypot(25, 25) + base_in_to_mm(0.5);
    rules_snapshot *s = rules_snapshot_new(1828.8, 1219.2);
    rules_visgraph *g = rules_visgraph_new();
    if (!s || !g) {
        rules_snapshot_free(s);
        rules_visgraph_free(g);
        return -1;
    }
    /* one model's route (16", twice a Mobility of 8") */
    base_vec2 a = dense ? base_v2(620, 605) : base_v2(700, 450), z = dense ? base_v2(1190, 605) : base_v2(1030, 710);
    /* one rock right across the straight line, so the route must bend */
    base_vec2 m = base_v2_scale(base_v2_add(a, z), 0.5);
    base_vec2 across[4] = {{m.x - 40, m.y - 40}, {m.x + 40, m.y - 40}, {m.x + 40, m.y + 40}, {m.x - 40, m.y + 40}};
    rules_snapshot_add_terrain(s, "across", RULES_TERRAIN_IMPASSABLE, across, 4);
    scatter(s, a, z, 80, dense);
    rules_route route = {0};
    double t0 = now_s();
    for (int i = 0; i < reps; i++) { /* obstacles loaded for its unit each time */
        rules_visgraph_reset(g, s->board_width, s->board_depth);
        for (size_t k = 0; k < s->n_terrain; k++)
            rules_visgraph_add_obstacle(g, s->terrain[k].points, s->terrain[k].n_points, clearance);
        rules_visgraph_route(g, a, z, &route);
    }
    t->us = (now_s() - t0) * 1e6 / reps;
    t->length_mm = route.length_mm;
    t->bends = (double)route.n_points - 2;
    /* with the graph loaded once, as rules_reform_check routes every model of a unit */
    t0 = now_s();
    for (int i = 0; i < reps; i++)
        rules_visgraph_route(g, a, base_v2(z.x, z.y + (i % 7)), &route);
    t->route_only_us = (now_s() - t0) * 1e6 / reps;
    rules_route_clear(&route);
    rules_visgraph_free(g);
    rules_snapshot_free(s);
    return 0;
}

/* Pursuit: a 5x2 unit pivots a quarter turn and pursues 8" into the field. */
static int time_pursuit(int n, double *us, const char **outcome, double *forward_mm)
{
    rules_snapshot *s = rules_snapshot_new(1828.8, 1219.2);
    if (!s)
        return -1;
    /* a rock 5" ahead of the pivoted Front (+x): the move ahead stops there and backtracks to 1" from it */
    base_vec2 ahead[4] = {{725 + 127, 520}, {725 + 200, 520}, {725 + 200, 720}, {725 + 127, 720}};
    rules_snapshot_add_terrain(s, "ahead", RULES_TERRAIN_IMPASSABLE, ahead, 4);
    scatter(s, base_v2(700, 600), base_v2(850, 600), 140, false);
    rules_unit *u = rules_snapshot_add_unit(s, "pursuer", "red");
    u->base_width = u->base_depth = 25;
    rules_formation_place(u, base_v2(700, 625), BASE_PI / 2, 5, 10);
    rules_pursuer pu = {"pursuer", base_in_to_mm(8), false};
    rules_pursuit_input in = {.pursuers = &pu, .n_pursuers = 1, .pursued_heading = 0, .tolerance_mm = 10};
    rules_pursuit_prediction pred;
    base_error err = {0};
    *outcome = "?";
    double t0 = now_s();
    for (int i = 0; i < n; i++) {
        if (rules_pursuit_predict(s, &in, &pred, &err) < 0) {
            fprintf(stderr, "tableref bench rules: %s\n", err.msg);
            rules_snapshot_free(s);
            return -1;
        }
        *outcome = rules_pursuit_outcome_word(pred.outcome);
        *forward_mm = pred.forward_mm;
        rules_pursuit_prediction_clear(&pred);
    }
    *us = (now_s() - t0) * 1e6 / n;
    rules_snapshot_free(s);
    return 0;
}

static int bench_rules6(int n)
{
    rng_state = 0x853C49E6748FEA9Bull; /* the same fields whatever ran before */
    route_timing open_field, dense_field;
    double pursuit_us = 0, fwd = 0;
    const char *outcome = "?";
    if (time_reform_route(0, n * 5, &open_field) < 0 || time_reform_route(1, n * 5, &dense_field) < 0 ||
        time_pursuit(n, &pursuit_us, &outcome, &fwd) < 0)
        return EXIT_BAD_INPUT;
    printf("reform-move route, 50 obstacles on the board: %.1f us with the obstacles loaded (%.1f us routing "
           "alone); %.2f\" with %.0f bends\n",
           open_field.us, open_field.route_only_us, base_mm_to_in(open_field.length_mm), open_field.bends);
    printf("reform-move route, 50 obstacles in a dense 24\" field: %.1f us; %.2f\" with %.0f bends\n",
           dense_field.us, base_mm_to_in(dense_field.length_mm), dense_field.bends);
    printf("pursuit prediction, 50 obstacles: %.1f us (%s, %.2f\" ahead)\n", pursuit_us, outcome,
           base_mm_to_in(fwd));
    printf("rules6: reform_path_us=%.1f route_only_us=%.1f dense_path_us=%.1f pursuit_us=%.1f obstacles=50 "
           "target_us=1000\n",
           open_field.us, open_field.route_only_us, dense_field.us, pursuit_us);
    return 0;
}

/*
 * Issue 14: the nearest legal move for one illegal unit on the 300-model
 * board (its March made 12" long), and the reach of a unit on it.
 */
static int bench_beyond(int n)
{
    rng_state = 0x9E3779B97F4A7C15ull;
    board_pair b = {0};
    if (build_board(&b, 300, 0) < 0) {
        free_board(&b);
        return EXIT_BAD_INPUT;
    }
    /* unit 0 marches 12" with a wheel: 2" over its March Rate */
    rules_unit *u1 = &b.after->units[0];
    rules_formation f;
    rules_formation_fit(&b.before->units[0], NULL, &f, NULL);
    rules_path moved = {.n_steps = 2};
    moved.steps[0] = (rules_step){RULES_STEP_FORWARD, base_in_to_mm(9), 0};
    moved.steps[1] = (rules_step){RULES_STEP_WHEEL_RIGHT, 0, -0.4};
    rules_pose p0 = {f.front_centre, f.heading}, p1 = rules_path_apply(p0, &moved, f.boundary.width);
    for (size_t k = 0; k < u1->n_models; k++) {
        base_vec2 r = base_v2_sub(b.before->units[0].models[k].pos, p0.front_centre);
        u1->models[k].pos = base_v2_add(p1.front_centre, base_v2_rot(r, p1.heading - p0.heading));
        u1->models[k].facing = base_angle_wrap(b.before->units[0].models[k].facing + p1.heading - p0.heading);
    }
    /* The check on the snapshots as they are, then the nearest legal move: ref_judge's suggest_ms. */
    ref_judge_options opt;
    ref_judge_options_default(&opt);
    opt.check.move = RULES_MOVE_MARCH;
    opt.robust = false;
    ref_judgement j;
    ref_judgement_init(&j);
    base_error err = {0};
    int reps = n / 100 > 3 ? n / 100 : 3;
    double suggest_ms = 0, shift = 0;
    const char *text = "";
    for (int i = 0; i < reps; i++) {
        if (ref_judge(b.before, b.after, &opt, &j, &err) < 0) {
            fprintf(stderr, "tableref bench rules: %s\n", err.msg);
            free_board(&b);
            return EXIT_BAD_INPUT;
        }
        suggest_ms += j.suggest_ms;
    }
    const rules_report *r = &j.report;
    const rules_unit_report *ur = rules_report_find_unit(r, b.before->units[0].id);
    if (ur && ur->suggestion.found) {
        shift = ur->suggestion.shift_mm;
        text = ur->suggestion.text;
    }
    printf("nearest legal move, one illegal March on the 300-model board: %.2f ms (%s)\n", suggest_ms / reps, text);
    rules_reach reach;
    double t0 = now_s();
    int rc = 0;
    for (int i = 0; rc == 0 && i < reps; i++) {
        rc = rules_reach_compute(b.before, b.before->units[1].id, RULES_MOVE_MARCH, NULL, &reach, &err);
        if (rc == 0 && i + 1 < reps)
            rules_reach_clear(&reach);
    }
    double reach_ms = (now_s() - t0) * 1e3 / reps;
    if (rc == 0) {
        size_t samples = 0;
        for (size_t i = 0; i < reach.n_facings; i++)
            samples += reach.facings[i].n_columns;
        printf("reach of a 5-wide unit's March on it (15 degree facings, 5 mm columns): %.1f ms, %zu facings, %zu "
               "columns, largest wheel %.1f / %.1f deg\n",
               reach_ms, reach.n_facings, samples, base_rad_to_deg(reach.wheel_left.angle_rad),
               base_rad_to_deg(reach.wheel_right.angle_rad));
        rules_reach_clear(&reach);
    }
    printf("beyond: suggest_ms=%.3f suggest_shift_in=%.3f reach_ms=%.1f\n", suggest_ms / reps, base_mm_to_in(shift),
           reach_ms);
    ref_judgement_clear(&j);
    free_board(&b);
    return 0;
}

static const cli_doc doc = {"bench rules", "usage: tableref bench rules [--iterations N] [--seconds S]\n", NULL};

int bench_rules(int argc, char **argv)
{
    double iterations = 2000, budget_s = 0.5, only_models = 0, runs = 0;
    int packed = 0;
    const cli_opt opts[] = {
        CLI_WHOLE("--iterations", &iterations, "N", 1, 1e7, "repetitions of the path search and route figures (2000)"),
        CLI_NUMBER("--seconds", &budget_s, "S", 0.001, 3600, "time spent on each full-check figure (0.5)"),
        CLI_WHOLE("--models", &only_models, "N", 1, 100000, "only the growth line for N models (100, 300, 1000 or 3000)"),
        CLI_FLAG("--packed", &packed, 1, "with --models 1000: the 1000 models packed on 72\" x 48\""),
        CLI_WHOLE("--runs", &runs, "N", 1, 1e6, "exactly N checks per figure instead of a time budget (callgrind)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    only_packed = packed;
    if (runs > 0)
        fixed_runs = (int)runs;
    if (only_models > 0)
        return bench_growth(budget_s, only_models);
    int rc = bench_growth(budget_s, 0);
    if (rc != 0)
        return rc;

    /* the 300-model board of the first build, for comparison with earlier figures */
    rng_state = 0x9E3779B97F4A7C15ull;
    board_pair b = {0};
    if (build_board(&b, 300, 0) < 0) {
        free_board(&b);
        fprintf(stderr, "tableref bench rules: out of memory\n");
        return EXIT_BAD_INPUT;
    }
    size_t judged = 0;
    double check_ms = time_check(&b, RULES_MOVE_MARCH, budget_s, &judged);
    double auto_ms = time_check(&b, RULES_MOVE_AUTO, budget_s, &judged);
    int n = (int)iterations;

    /* the wheel-path search alone */
    rules_path p;
    const rules_ruleset *rs = rules_ruleset_find(RULES_DEFAULT_RULESET);
    int paths = n * 40;
    double t0 = now_s();
    double sink = 0;
    for (int i = 0; i < paths; i++) {
        rules_pose a = {{0, 0}, 0}, z = {{200 * rnd(), 200 * rnd() - 100}, (rnd() - 0.5) * 6};
        rules_path_forward_wheels(a, z, 100, rs, &p);
        sink += p.length_mm;
    }
    double path_us = (now_s() - t0) * 1e6 / paths;

    printf("board: %zu units, %zu models, every unit moved forward with wheels (%zu judged)\n",
           b.before->n_units, count_models(b.before), judged);
    printf("full check, --move march: %.3f ms per check\n", check_ms);
    printf("full check, --move auto:  %.3f ms per check\n", auto_ms);
    printf("wheel-path search alone, random poses up to an about-face: %.2f us per unit (checksum %.0f)\n", path_us,
           sink);
    printf("rules: units=%zu models=%zu check_ms=%.3f auto_ms=%.3f path_us=%.2f target_ms=1.0\n",
           b.before->n_units, count_models(b.before), check_ms, auto_ms, path_us);
    free_board(&b);
    rc = bench_rules6(n);
    return rc ? rc : bench_beyond(n);
}
