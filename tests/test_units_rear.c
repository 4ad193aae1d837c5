/*
 * Where an incomplete rear rank stands, read from the picture
 * (vis_units_rear.h): a unit of 13 models in 5 files, its two full ranks
 * seen exactly on a 20.5 mm grid, its 3 rear models not read. The models
 * alone allow the rear rank left, centred, right or with gaps (centred
 * first); a base seen at the left-hand slot contradicts every placement that
 * leaves it empty. Exact slots (the grid is exact: to 1e-6 mm).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "vis_formation.h"
#include "vis_units_rear.h"

enum { FILES = 5, N = 13 };
#define PITCH 20.5

/* Front-left model at (300, 400) facing +y (its left is -x): file f at x = 300 + f * pitch, rank q at y - q * pitch. */
static base_vec2 slot(int rank, double file) { return base_v2(300 + file * PITCH, 400 - rank * PITCH); }

static void unit(vis_formation_model *m)
{
    for (int k = 0; k < N; k++) {
        const int f = k % FILES, q = k / FILES;
        m[k] = (vis_formation_model){q < 2 ? VIS_FORMATION_SEEN : VIS_FORMATION_NONE, slot(q, f), BASE_PI / 2, f, q};
    }
}

typedef struct look {
    base_vec2 at[4];
    int n, asked;
} look;

static bool base_seen(void *ctx, size_t model, base_vec2 pos, double facing)
{
    look *l = ctx;
    (void)model, (void)facing;
    l->asked++;
    for (int i = 0; i < l->n; i++)
        if (base_v2_dist(pos, l->at[i]) < 1)
            return true;
    return false;
}

static int rear_count_at(const vis_formation_placement *p, base_vec2 at)
{
    int c = 0;
    for (int k = 0; k < N; k++)
        c += p->models[k].placed && p->models[k].rank == 2 && base_v2_dist(p->models[k].pos, at) < 1e-6;
    return c;
}

/* A base seen at the rear rank's left-hand slot: left-aligned first, every placement leaving that slot empty last. */
Test(units_rear, a_base_seen_at_the_left_slot_puts_the_rear_rank_left)
{
    vis_formation_model m[N];
    unit(m);
    const vis_formation_input in = {N, m, 20, 20, {0, FILES}, 0};
    vis_formation_result res;
    cr_assert_eq(vis_formation_infer(&in, &res), 0);
    cr_assert_geq(res.n_placements, 3);
    cr_expect_str_eq(res.placements[0].label, "rear rank centred");
    const size_t n0 = res.n_placements;
    look l = {{slot(2, 0)}, 1, 0};
    const vis_units_options o = {.base_seen = base_seen, .base_seen_ctx = &l};
    size_t allowed = 0;
    cr_assert_eq(vis_units_rear_settle(&o, 0, N, &res, &allowed), 1);
    cr_expect_eq(res.n_placements, n0, "no placement dropped");
    cr_expect(allowed >= 2 && allowed < n0, "%zu of %zu placements not contradicted", allowed, n0);
    /* The left-hand rear model stands at file 0 in every placement the picture allows: its sigma need hold nothing
     * more (exactly 0); the next one may stand a half or whole base further right (the gapped ranks). */
    cr_expect_float_eq(vis_units_rear_spread(&res, allowed, 10), 0, 1e-9);
    cr_expect_gt(vis_units_rear_spread(&res, allowed, 11), 10);
    cr_expect_str_eq(res.placements[0].label, "rear rank left-aligned");
    for (int f = 0; f < 3; f++)
        cr_expect_eq(rear_count_at(&res.placements[0], slot(2, f)), 1, "file %d of the rear rank taken", f);
    /* Every placement with the left slot taken before every one without it. */
    bool left_empty_seen = false;
    for (size_t a = 0; a < res.n_placements; a++) {
        const bool taken = rear_count_at(&res.placements[a], slot(2, 0)) == 1;
        cr_expect(!(taken && left_empty_seen), "placement %zu (%s) takes the left slot after one that does not", a,
                  res.placements[a].label);
        left_empty_seen |= !taken;
    }
    cr_expect(left_empty_seen, "the centred and right-aligned ranks are kept, last");
    vis_formation_result_clear(&res);
}

/* Nothing seen at any rear place (every base covered): the order the models read gave, centred first, unchanged. */
Test(units_rear, nothing_seen_changes_nothing)
{
    vis_formation_model m[N];
    unit(m);
    const vis_formation_input in = {N, m, 20, 20, {0, FILES}, 0};
    vis_formation_result res;
    cr_assert_eq(vis_formation_infer(&in, &res), 0);
    look l = {{{0, 0}}, 0, 0};
    const vis_units_options o = {.base_seen = base_seen, .base_seen_ctx = &l};
    size_t allowed = 0;
    cr_assert_eq(vis_units_rear_settle(&o, 0, N, &res, &allowed), 0);
    cr_expect_str_eq(res.placements[0].label, "rear rank centred");
    cr_expect_eq(allowed, res.n_placements);
    /* Centred, the left-hand rear model is at file 1: left-aligned puts it at file 0, right-aligned at file 2, a
     * whole pitch (20.5 mm, to 1e-6) either way; its sigma must hold that within two sigma. The front ranks, seen,
     * stand alike in every placement (0). */
    cr_expect_float_eq(vis_units_rear_spread(&res, allowed, 10), PITCH, 1e-6);
    cr_expect_float_eq(vis_units_rear_spread(&res, allowed, 0), 0, 1e-9);
    /* Each rear place asked once: whole and half-base steps from file 0 to 4 (9 places). */
    cr_expect_eq(l.asked, 9, "asked %d times", l.asked);
    vis_formation_result_clear(&res);
}
