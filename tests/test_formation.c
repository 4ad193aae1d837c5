#include <criterion/criterion.h>
#include <stdlib.h>

#include "fixtures.h"
#include "rules_formation.h"

/* Stated tolerance of the fit: a model within 4 mm of its slot, 5 degrees of the facing. */
#define POS_TOL RULES_FORMATION_POSITION_TOLERANCE_MM

static rules_snapshot *snap;
static void setup(void) { snap = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D); }
static void teardown(void) { rules_snapshot_free(snap); }
TestSuite(formation, .init = setup, .fini = teardown);

static rules_pose pose(double x, double y, double deg)
{
    return (rules_pose){base_v2(x, y), base_deg_to_rad(deg)};
}

Test(formation, block_gives_files_ranks_boundary_and_centre)
{
    rules_unit *u = fx_block(snap, "u", "red", 25, 5, 20, pose(500, 400, 90), 5, 10);
    rules_formation f;
    cr_assert_eq(rules_formation_fit(u, NULL, &f, NULL), 0);
    cr_assert_eq(f.issues, 0u);
    cr_assert_eq(f.files, 5);
    cr_assert_eq(f.ranks, 4);
    cr_assert_eq(f.rear_rank_models, 5);
    cr_assert_float_eq(f.boundary.width, 125, 1e-9);
    cr_assert_float_eq(f.boundary.depth, 100, 1e-9);
    cr_assert_float_eq(f.front_centre.x, 500, 1e-9);
    cr_assert_float_eq(f.front_centre.y, 400, 1e-9);
    cr_assert_float_eq(f.centre.y, 350, 1e-9);
    cr_assert_float_eq(f.heading, BASE_PI / 2, 1e-9);
}

Test(formation, incomplete_rear_rank_centred)
{
    rules_unit *u = fx_block(snap, "u", "red", 20, 5, 13, pose(500, 400, 37), 5, 10);
    rules_formation f;
    rules_slot slots[13];
    rules_formation_fit(u, NULL, &f, slots);
    cr_assert_eq(f.issues, 0u);
    cr_assert_eq(f.files, 5);
    cr_assert_eq(f.ranks, 3);
    cr_assert_eq(f.rear_rank_models, 3);
    cr_assert_eq(slots[10].rank, 2);
    cr_assert_eq(slots[10].file, 1, "3 models centred behind 5 start at file 1");
    /* boundary spans the front rank's width and the full depth */
    cr_assert_float_eq(f.boundary.width, 100, 1e-9);
    cr_assert_float_eq(f.boundary.depth, 60, 1e-9);
}

Test(formation, even_rear_rank_on_half_steps)
{
    rules_unit *u = fx_block(snap, "u", "red", 20, 5, 7, pose(500, 400, 0), 5, 10);
    rules_formation f;
    rules_slot slots[7];
    rules_formation_fit(u, NULL, &f, slots);
    cr_assert_eq(f.issues, 0u);
    cr_assert_eq(f.ranks, 2);
    cr_assert_eq(f.rear_rank_models, 2);
    cr_assert_float_eq(slots[5].file + slots[5].offset, 1.5, 1e-9);
}

Test(formation, tolerates_camera_jitter)
{
    rules_unit *u = fx_block(snap, "u", "red", 25, 6, 24, pose(700, 600, 123), 5, 10);
    srand(7);
    for (size_t j = 0; j < u->n_models; j++) {
        /* +-1.5 mm and +-1 degree: what a camera and a careless hand leave */
        u->models[j].pos.x += (rand() / (double)RAND_MAX - 0.5) * 3.0;
        u->models[j].pos.y += (rand() / (double)RAND_MAX - 0.5) * 3.0;
        u->models[j].facing += base_deg_to_rad((rand() / (double)RAND_MAX - 0.5) * 2.0);
    }
    rules_formation f;
    rules_formation_fit(u, NULL, &f, NULL);
    cr_assert_eq(f.issues, 0u, "jitter within the stated tolerance is not an issue");
    cr_assert_eq(f.files, 6);
    cr_assert_eq(f.ranks, 4);
    cr_assert_float_eq(base_rad_to_deg(f.heading), 123, 0.5);
    cr_assert_float_eq(f.boundary.width, 150, 3.0);
}

Test(formation, gaps_between_bases_do_not_accumulate)
{
    /* 10 files on 20 mm bases but placed 21.5 mm apart: 13.5 mm of gap across the unit */
    rules_unit *u = rules_snapshot_add_unit(snap, "u", "red");
    u->base_width = u->base_depth = 20;
    for (int k = 0; k < 20; k++)
        rules_unit_add_model(u, k < 10 ? "a" : "b", base_v2(100 + (k % 10) * 21.5, 300 - (k / 10) * 20.5),
                             BASE_PI / 2);
    rules_formation f;
    rules_formation_fit(u, NULL, &f, NULL);
    cr_assert_eq(f.issues, 0u);
    cr_assert_eq(f.files, 10);
    cr_assert_eq(f.ranks, 2);
    cr_assert_float_eq(f.pitch_across, 21.5, 1e-6);
}

Test(formation, model_out_of_line_is_found)
{
    rules_unit *u = fx_block(snap, "u", "red", 25, 5, 10, pose(500, 400, 90), 5, 10);
    u->models[7].pos.y += 9.0;
    rules_formation f;
    rules_formation_fit(u, NULL, &f, NULL);
    cr_assert(f.issues & RULES_FORMATION_OFF_GRID);
    cr_assert_eq(f.worst_model, 7);
    cr_assert_gt(f.max_residual_mm, POS_TOL);
}

Test(formation, mixed_facing_and_gap_and_stacking)
{
    rules_unit *u = fx_block(snap, "u", "red", 25, 5, 10, pose(500, 400, 90), 5, 10);
    u->models[2].facing += base_deg_to_rad(30);
    rules_formation f;
    rules_formation_fit(u, NULL, &f, NULL);
    cr_assert(f.issues & RULES_FORMATION_MIXED_FACING);

    rules_unit *g = fx_block(snap, "g", "red", 25, 5, 15, pose(900, 400, 90), 5, 10);
    g->models[2].pos = g->models[12].pos; /* front rank loses its middle model to the rear */
    rules_formation_fit(g, NULL, &f, NULL);
    cr_assert(f.issues & RULES_FORMATION_STACKED);
    cr_assert(f.issues & RULES_FORMATION_GAP);
}

Test(formation, single_model)
{
    rules_unit *u = fx_block(snap, "hero", "red", 50, 1, 1, pose(500, 400, 10), 5, 10);
    rules_formation f;
    rules_formation_fit(u, NULL, &f, NULL);
    cr_assert_eq(f.issues, 0u);
    cr_assert_eq(f.files, 1);
    cr_assert_eq(f.ranks, 1);
    cr_assert_float_eq(f.centre.x, u->models[0].pos.x, 1e-9);
}

Test(formation, slot_positions_reproduce_models)
{
    rules_unit *u = fx_block(snap, "u", "red", 25, 4, 11, pose(321, 456, -71), 5, 10);
    rules_formation f;
    rules_slot s[11];
    rules_formation_fit(u, NULL, &f, s);
    for (size_t j = 0; j < u->n_models; j++) {
        base_vec2 p = rules_formation_slot_position(&f, s[j].file, s[j].rank, s[j].offset);
        cr_assert_float_eq(base_v2_dist(p, u->models[j].pos), 0, 1e-6, "model %zu", j);
    }
}

Test(formation, large_unit_beyond_the_stack_scratch)
{
    rules_unit *u = fx_block(snap, "horde", "green", 20, 10, 83, pose(900, 600, 45), 4, 8);
    rules_formation f;
    rules_slot slots[83];
    cr_assert_eq(rules_formation_fit(u, NULL, &f, slots), 0);
    cr_assert_eq(f.issues, 0u);
    cr_assert_eq(f.files, 10);
    cr_assert_eq(f.ranks, 9);
    cr_assert_eq(f.rear_rank_models, 3);
    cr_assert_eq(slots[82].rank, 8);
}
