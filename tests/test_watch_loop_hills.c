/*
 * The closed loop on a table with hills (issue 28): ds_sequence_climb's turn
 * (a 50 mm hill towards the edge of hard table 1's view; the spears advance
 * 3.5" onto it, 3.9" along its top, then march 8.5" down off its far side;
 * two units stand by) rendered frame by frame in the real style, every frame
 * lit at 2.5x the room's light by what the watch itself projects 100 ms
 * earlier, the watch set up with the table's terrain. It gives the same
 * calls as the referee gives on the still keyframes (legal, legal, ILLEGAL),
 * settles once per move plus the first at the frames a still table settles
 * (no stall), and its projector lit the table.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ds_loop.h"
#include "ds_render.h"
#include "ds_sequence.h"
#include "ref_judge.h"
#include "ref_snapshot.h"
#include "watch_loop_util.h"
#include "watch_session.h"

#define SETTLE_MS 800
/* The set-up a table file with the hill gives: the camera, the roster, the terrain. */
static ref_setup *hill_setup(const ds_sequence *q, const calib_file *cam)
{
    base_error err = {0};
    ref_setup *s = ref_setup_wrap(cam, q->scene->roster, "the camera", "the roster", &err);
    cr_assert_not_null(s, "%s", err.msg);
    const rules_snapshot *t = q->scene->snapshot;
    cr_assert_eq(ref_setup_set_terrain(s, t->terrain, t->n_terrain, &err), 0, "%s", err.msg);
    return s;
}

/* The referee on the still keyframes: each picture read through its door, each move judged (auto). */
static void referee_calls(const ds_sequence *q, const calib_file *cam, rules_verdict *calls)
{
    base_error err = {0};
    ref_setup *s = hill_setup(q, cam);
    ref_snapshot *shot[4] = {NULL};
    for (size_t k = 0; k <= q->n_moves; k++) {
        rules_snapshot *key = ds_sequence_keyframe(q, k, &err);
        cr_assert_not_null(key, "%s", err.msg);
        ds_render_params p = q->scene->render;
        p.hands = 0, p.supersample = 1, p.frame_seed = 100 + (uint32_t)k;
        base_image *img = NULL;
        ds_truth truth = {0};
        cr_assert_eq(ds_render(key, q->scene->roster, cam, &p, &img, &truth, &err), 0, "%s", err.msg);
        ref_read_options o;
        ref_read_options_default(&o);
        o.patches = false;
        const base_view v = base_image_view(img);
        shot[k] = ref_snapshot_read(s, &v, &o, &err);
        cr_assert_not_null(shot[k], "%s", err.msg);
        ds_truth_clear(&truth);
        base_image_free(img);
        rules_snapshot_free(key);
    }
    for (size_t k = 1; k <= q->n_moves; k++) {
        ref_judge_options o;
        ref_judge_options_default(&o);
        o.check.unit_id = q->moves[k - 1].unit;
        ref_judgement j;
        ref_judgement_init(&j);
        cr_assert_eq(ref_judge(shot[k - 1]->snap, shot[k]->snap, &o, &j, &err), 0, "%s", err.msg);
        const rules_unit_report *u = rules_report_find_unit(&j.report, q->moves[k - 1].unit);
        cr_assert_not_null(u);
        calls[k - 1] = u->verdict;
        ref_judgement_clear(&j);
    }
    for (size_t k = 0; k <= q->n_moves; k++)
        ref_snapshot_free(shot[k]);
    ref_setup_free(s);
}

/* The watch over the turn in the closed loop, the projector at `ratio` the room's light. */
static void watch_turn(const ds_sequence *q, const calib_file *cam, const double P[3], double ratio, wl_run *r)
{
    ref_setup *setup = hill_setup(q, cam);
    const wl_options o = {.ratio = ratio, .settle_ms = SETTLE_MS, .source_name = "simulated hill table", .setup = setup};
    wl_watch(q, cam, P, &o, r);
    ref_setup_free(setup);
}

/* The turn's 39 frames (5 fps): still 0-5, the climb 6-10, still 11-16, along the top 17-21, still 22-27, the
 * march off 28-32, still 33-38. A settle comes 800 ms (4 frames) after the first still frame. */
static const long expected_settles[4] = {4, 15, 26, 37};

Test(watch_loop_hills, the_watch_on_a_hill_table_calls_as_the_referee_lit_without_a_stall, .timeout = 900)
{
    base_error err = {0};
    ds_sequence *q = ds_sequence_climb(true, &err);
    cr_assert_not_null(q, "%s", err.msg);
    cr_assert_eq(q->n_moves, 3);
    calib_file cam;
    double P[3];
    cr_assert_eq(ds_loop_calib(q, &cam, P, &err), 0, "%s", err.msg);
    cr_expect(cam.projector.position_present, "a table with hills: the projector's place is known");
    rules_verdict ref[3];
    referee_calls(q, &cam, ref);
    cr_expect(ref[0] == RULES_VERDICT_LEGAL && ref[1] == RULES_VERDICT_LEGAL && ref[2] == RULES_VERDICT_ILLEGAL,
              "the referee: %s, %s, %s", rules_verdict_word(ref[0]), rules_verdict_word(ref[1]),
              rules_verdict_word(ref[2]));
    wl_run lit;
    watch_turn(q, &cam, P, 2.5, &lit);
    cr_expect_eq(lit.settles, 4, "%d settles (one per move plus the first)", lit.settles);
    for (int k = 0; k < lit.settles && k < 4; k++)
        cr_expect_eq(lit.settle_frame[k], expected_settles[k], "settle %d at frame %ld, not %ld (a stall?)", k + 1,
                     lit.settle_frame[k], expected_settles[k]);
    cr_expect_eq(lit.checks, 3, "%d calls", lit.checks);
    for (int k = 0; k < lit.checks && k < 3; k++) {
        cr_expect_eq(lit.legal[k], ref[k] == RULES_VERDICT_LEGAL, "call %d: the watch says %s, the referee %s",
                     k + 1, lit.legal[k] ? "legal" : "not legal", rules_verdict_word(ref[k]));
        cr_expect_eq(lit.check_frame[k], expected_settles[k + 1], "call %d at frame %ld", k + 1, lit.check_frame[k]);
    }
    cr_expect_eq(lit.status, WATCH_EXIT_ILLEGAL, "exit status %d", lit.status);
    cr_expect_gt(lit.frames_lit, 30, "%ld frames lit", lit.frames_lit);
    ds_sequence_free(q);
}
