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
    return 0;
}
