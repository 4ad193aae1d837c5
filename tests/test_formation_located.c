/*
 * vis_formation with bases located but not read (VIS_FORMATION_LOCATED: a
 * base's centre from its rim label's corner blocks, its code and facing not
 * read). Exact geometry below; each test states its tolerance.
 *
 * The case of minis table 3's blue-7 (8 files, 2 full ranks of 20 mm bases
 * measured here, pitches 20.8 x 20.5 mm): one mast read over the front
 * rank's left-hand model, its facing 1 degree off the rank's line (a
 * mast's card may stand turned on its rod: its facing is held to half a
 * degree), and four bases located at the places the first fit put
 * them: files 3 of the front rank, 2, 3 and 4 of the second. Taken as
 * rough tags facing as the fit had them, the heading stays the mast's and
 * the ranks' mean offsets along it (files 0 and 3 in front, 2..4 behind)
 * shorten the pitch along under the base (a refit refused: bases do not
 * overlap). Located, the places tell the heading (the grid's turn fitted
 * on them) and the pitches are the bases' own.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "vis_formation.h"

#define FILES 8
#define N (2 * FILES)
#define BASE 20.0
#define PA 20.8
#define PD 20.5
#define HEADING 1.0 /* rad */

static const base_frame TRUE_FRAME = {{500, 400}, HEADING};

static base_vec2 slot(int file, int rank) { return base_frame_to_board(TRUE_FRAME, base_v2(file * PA, -rank * PD)); }

static void make(vis_formation_model *m, vis_formation_evidence located_as)
{
    static const int located[] = {3, 10, 11, 12};
    for (int k = 0; k < N; k++)
        m[k] = (vis_formation_model){VIS_FORMATION_NONE, {0, 0}, 0, k % FILES, k / FILES};
    /* The mast: its place exact, its facing 1 degree off the rank's line, its rod's sway 1 mm. */
    m[0] = (vis_formation_model){VIS_FORMATION_SEEN, slot(0, 0), HEADING - base_deg_to_rad(1), 0, 0, 1.0};
    for (size_t i = 0; i < sizeof located / sizeof *located; i++) {
        const int k = located[i];
        m[k].evidence = located_as;
        m[k].pos = slot(k % FILES, k / FILES);
        m[k].facing = HEADING - base_deg_to_rad(1); /* the first fit's facing, the mast's */
    }
}

static double worst_off(const vis_formation_result *res)
{
    double worst = 0;
    for (int k = 0; k < N; k++) {
        const vis_formation_place *q = &res->placements[0].models[k];
        cr_assert(q->placed, "model %d not placed", k);
        worst = fmax(worst, base_v2_dist(q->pos, slot(k % FILES, k / FILES)));
    }
    return worst;
}

Test(formation_located, rough_tags_facing_as_the_mast_shorten_the_pitch_under_the_base)
{
    vis_formation_model m[N];
    make(m, VIS_FORMATION_ROUGH);
    const vis_formation_input in = {N, m, BASE, BASE, {0, FILES}, 0};
    vis_formation_result res;
    cr_assert_eq(vis_formation_infer(&in, &res), 0);
    cr_assert_gt(res.n_placements, 0);
    /* The heading is the facings' (all 1 degree off), so along it the front rank's files 0 and 3 stand
     * 3 x 20.8 x sin(1 deg) = 1.09 mm apart and the second rank's 2..4 further still: the pitch along, fitted on the
     * ranks' weighted means, comes out under the base (19.95 mm on the real table). */
    cr_expect_lt(res.grid.pitch_along, BASE, "pitch along %.3f mm", res.grid.pitch_along);
    /* 19.66 mm (to 0.02), and the far models 2.36 mm off (to 0.02): the tail vis_units then refused to refit. */
    cr_expect_float_eq(res.grid.pitch_along, 19.659, 0.02, "pitch along %.3f mm", res.grid.pitch_along);
    cr_expect_float_eq(worst_off(&res), 2.361, 0.02, "worst model %.3f mm off", worst_off(&res));
    cr_expect_float_eq(fabs(base_angle_wrap(res.grid.heading - HEADING)), base_deg_to_rad(1), base_deg_to_rad(0.05),
                       "heading %.3f deg off", base_rad_to_deg(base_angle_wrap(res.grid.heading - HEADING)));
    vis_formation_result_clear(&res);
}

Test(formation_located, located_bases_tell_the_heading_and_the_pitches)
{
    vis_formation_model m[N];
    make(m, VIS_FORMATION_LOCATED);
    const vis_formation_input in = {N, m, BASE, BASE, {0, FILES}, 0};
    vis_formation_result res;
    cr_assert_eq(vis_formation_infer(&in, &res), 0);
    cr_assert_gt(res.n_placements, 0);
    cr_expect(res.understood);
    cr_expect_eq(res.grid.files, FILES);
    cr_expect_eq(res.grid.ranks, 2);
    /* The places' turn (exact here, held to the fit's 0.3 mm floor: 0.3 degree or so over these files) and the mast's
     * facing (0.5 degree: one facing does not measure its scatter) weighed by their variances: the heading ends
     * 0.27 degree off, was 1 (to 0.02 degree); the pitches 20.82 x 20.35 mm (true 20.8 x 20.5; to 0.02 mm), no
     * shorter than the base; every model within 0.56 mm of its true place (to 0.02 mm; 2.36 mm read as rough tags). */
    const double off_deg = base_rad_to_deg(base_angle_wrap(res.grid.heading - HEADING));
    cr_expect_float_eq(off_deg, -0.272, 0.02, "heading %.3f deg off", off_deg);
    cr_expect_float_eq(res.grid.pitch_across, 20.819, 0.02, "pitch across %.3f mm", res.grid.pitch_across);
    cr_expect_float_eq(res.grid.pitch_along, 20.352, 0.02, "pitch along %.3f mm", res.grid.pitch_along);
    cr_expect_geq(res.grid.pitch_along, BASE);
    const double worst = worst_off(&res);
    cr_expect_float_eq(worst, 0.562, 0.02, "worst model %.3f mm off", worst);
    vis_formation_result_clear(&res);
}

/*
 * Two masts over a front rank's end models (minis table 1's blue-11: cavalry 25 x 50 mm, 3 files, 3 ranks, true gaps
 * 0.13 mm across and 0.6 along), their places 50.00 mm apart: the pitch across measured 25.00, a gap of 0. Nothing
 * measures the pitch along, which borrows the gap: all of it once (50.00 mm, the third rank 1.2 mm short). A mast
 * leans up to its rod's sway (1 mm here), so two of them measure the pitch across to sqrt(2) x 1 / 2 = 0.71 mm, and
 * their gap of 0 weighs against the 0.5 +- 0.5 mm a hand leaves by their variances: (0 / 0.5 + 0.5 / 0.25) /
 * (1 / 0.5 + 1 / 0.25) = 1/3 mm (to 1e-6). Marks on the bases (no sway) measure it to 0.3 x sqrt(2) / 2 = 0.21 mm:
 * (0.5 / 0.25) / (1 / 0.045 + 4) = 0.0763 mm. The fit's spread, and so the slot sigma of the models placed from it,
 * is at least the masts' sway, 0.3 mm without: the third rank's slot sigma grows with it.
 */
#define CAV_W 25.0
#define CAV_D 50.0

static void make_masts(vis_formation_model *m, double sway)
{
    const base_frame f = {{600, 500}, HEADING};
    for (int k = 0; k < 9; k++)
        m[k] = (vis_formation_model){VIS_FORMATION_NONE, {0, 0}, 0, k % 3, k / 3, 0};
    m[0] = (vis_formation_model){VIS_FORMATION_SEEN, base_frame_to_board(f, base_v2(0, 0)), HEADING, 0, 0, sway};
    m[2] = (vis_formation_model){VIS_FORMATION_SEEN, base_frame_to_board(f, base_v2(2 * CAV_W, 0)), HEADING, 2, 0, sway};
}

static double masts_case(double sway, double want_gap)
{
    vis_formation_model m[9];
    make_masts(m, sway);
    const vis_formation_input in = {9, m, CAV_W, CAV_D, {0, 3}, 0};
    vis_formation_result res;
    cr_assert_eq(vis_formation_infer(&in, &res), 0);
    cr_assert_gt(res.n_placements, 0);
    cr_expect_float_eq(res.grid.pitch_across, CAV_W, 1e-6, "pitch across %.4f mm", res.grid.pitch_across);
    cr_expect_float_eq(res.grid.pitch_along, CAV_D + want_gap, 1e-3, "sway %.1f: pitch along %.4f mm", sway,
                       res.grid.pitch_along);
    const vis_formation_place *rear = &res.placements[0].models[7];
    cr_assert(rear->placed && rear->inferred && rear->rank == 2);
    const double fit = rear->fit_mm;
    vis_formation_result_clear(&res);
    return fit;
}

Test(formation_located, two_masts_borrow_their_gap_by_how_well_they_measure_it)
{
    const double swaying = masts_case(1.0, 1.0 / 3), fixed = masts_case(0.0, 0.5 / 0.25 / (1 / 0.045 + 4));
    /* The third rank's slot sigma: 1.2247 mm with swaying masts (sqrt(1.5), to 1e-3), 1.0223 without (to 1e-3). */
    cr_expect_float_eq(swaying, sqrt(1.5), 1e-3, "the third rank's slot sigma %.4f mm, swaying masts", swaying);
    cr_expect_float_eq(fixed, 1.0223, 1e-3, "the third rank's slot sigma %.4f mm, no sway", fixed);
}
