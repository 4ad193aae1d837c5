/*
 * Writes the bundled example moves in datasets/examples/ from exact
 * geometry: the seed's three wheel figures and a short demo turn.
 * Usage: make_examples OUTDIR. The `examples` test regenerates them and
 * compares, so the committed files never drift from this source.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "fixtures.h"
#include "rules_json.h"

static int save_pair(const char *dir, const char *name, rules_snapshot *before, rules_snapshot *after)
{
    char path[1024];
    base_error err = {0};
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/before.json", dir, name);
    if (rules_json_save_snapshot(before, path, &err) < 0)
        goto fail;
    snprintf(path, sizeof path, "%s/%s/after.json", dir, name);
    if (rules_json_save_snapshot(after, path, &err) < 0)
        goto fail;
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    return 0;
fail:
    fprintf(stderr, "make_examples: %s\n", err.msg);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    return -1;
}

/* One player turn: an Advance with a wheel, a Reform, and a March 1" too long. */
static void demo_turn(rules_snapshot **before, rules_snapshot **after)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    base_vec2 hill[5] = {{700, 700}, {820, 680}, {880, 760}, {800, 840}, {690, 800}};
    base_vec2 rocks[4] = {{1300, 250}, {1420, 250}, {1420, 330}, {1300, 330}};
    rules_snapshot_add_terrain(b, "hill", RULES_TERRAIN_OPEN, hill, 5);
    rules_snapshot_add_terrain(a, "hill", RULES_TERRAIN_OPEN, hill, 5);
    rules_snapshot_add_terrain(b, "rocks", RULES_TERRAIN_IMPASSABLE, rocks, 4);
    rules_snapshot_add_terrain(a, "rocks", RULES_TERRAIN_IMPASSABLE, rocks, 4);

    /* Spearmen advance 2" and wheel 1.5" to the left: 3.5" of an Advance Rate of 4". */
    rules_pose sp = {{400, 250}, BASE_PI / 2};
    rules_unit *spear = fx_block(b, "spearmen", "red", 25, 5, 15, sp, 4, 8);
    rules_step s1[] = {fx_forward(2), fx_wheel(RULES_STEP_WHEEL_LEFT, 1.5, 125)};
    rules_path p1 = fx_path(2, s1);
    fx_moved_copy(a, spear, sp, &p1);

    /* Archers reform from 5x2 facing north to 2x5 facing east, about the same centre. */
    rules_pose ap = {{950, 200}, BASE_PI / 2};
    rules_unit *arch = fx_block(b, "archers", "red", 20, 5, 10, ap, 5, 10);
    rules_formation f;
    rules_formation_fit(arch, NULL, &f, NULL);
    rules_unit *arch2 = rules_snapshot_add_unit(a, "archers", "red");
    arch2->base_width = arch2->base_depth = 20;
    arch2->advance_rate = arch->advance_rate;
    arch2->march_rate = arch->march_rate;
    rules_formation_place(arch2, base_v2_add(f.centre, base_v2(50, 0)), 0.0, 2, 10);
    for (size_t j = 0; j < arch2->n_models; j++) /* same models, new places */
        snprintf(arch2->models[j].id, sizeof arch2->models[j].id, "%s", arch->models[j].id);

    /* Knights march 17" straight ahead with a March Rate of 16". */
    rules_pose kp = {{1600, 420}, BASE_PI / 2};
    rules_unit *kn = rules_snapshot_add_unit(b, "knights", "red");
    kn->base_width = 30;
    kn->base_depth = 60;
    kn->advance_rate = base_in_to_mm(8);
    kn->march_rate = base_in_to_mm(16);
    rules_formation_place(kn, kp.front_centre, kp.heading, 5, 5);
    fx_shifted_copy(a, kn, kp, base_v2(0, base_in_to_mm(17)), 0);

    /* The enemy, standing still across the table. */
    rules_pose op = {{900, 1150}, -BASE_PI / 2};
    rules_unit *orcs = fx_block(b, "orcs", "blue", 25, 6, 18, op, 4, 8);
    fx_shifted_copy(a, orcs, op, base_v2(0, 0), 0);
    *before = b;
    *after = a;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_examples OUTDIR\n");
        return 2;
    }
    const char *dir = argv[1];
    mkdir(dir, 0755);
    const char *names[3] = {"wheel-a", "wheel-b", "wheel-c"};
    for (int k = 0; k < 3; k++) {
        rules_snapshot *b, *a;
        fx_seed_wheel_example((char)('a' + k), &b, &a);
        if (save_pair(dir, names[k], b, a) < 0)
            return 1;
    }
    rules_snapshot *b, *a;
    demo_turn(&b, &a);
    return save_pair(dir, "turn", b, a) < 0 ? 1 : 0;
}
