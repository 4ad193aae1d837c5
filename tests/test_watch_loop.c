/*
 * tableref watch in the closed loop (datasets/ds_loop.h): every frame of the
 * test turn (datasets/sequences/turn, short phases, supersample 1) is
 * rendered lit by what the watch itself is projecting 100 ms earlier, at
 * 2.5x the room's light, and the watch must give the same calls and the
 * same settles as with the projector off; each move after the first is made
 * while the previous call is lit on the table, and is judged.
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ds_loop.h"
#include "ds_sequence.h"
#include "ref_snapshot_vision.h"
#include "vis_camera.h"
#include "watch_echo.h"
#include "watch_loop_util.h"
#include "watch_motion.h"
#include "watch_session.h"
#include "watch_test_util.h"

#define MAX_MOVES 8

static void run_loop(double ratio, wl_run *r)
{
    char seq[2300];
    mkdir(wt_work_dir(), 0777);
    wt_path_in(seq, sizeof seq, ratio > 0 ? "loop-sequence-on.json" : "loop-sequence-off.json");
    wt_write_test_sequence(seq);
    base_error err;
    ds_sequence *q = ds_sequence_load(seq, &err);
    cr_assert_not_null(q, "%s", err.msg);
    cr_assert_leq(q->n_moves, MAX_MOVES);
    calib_file cam;
    double P[3];
    cr_assert_eq(ds_loop_calib(q, &cam, P, &err), 0, "%s", err.msg);
    wl_watch(q, &cam, P, &(wl_options){.ratio = ratio, .settle_ms = SETTLE_MS, .source_name = "simulated table"}, r);
    ds_sequence_free(q);
}

Test(watch_loop, the_projector_on_gives_the_same_calls_and_settles, .timeout = 170)
{
    wl_run off, on;
    run_loop(0, &off);
    run_loop(2.5, &on);
    cr_expect_eq(off.frames_lit, 0);
    cr_expect_gt(on.frames_lit, 10, "the watch's light reached %ld frames", on.frames_lit);
    /* The turn: 3 moves, the first two legal, the cavalry's 11" march over its 10" illegal (test_watch.c). */
    cr_expect_eq(off.settles, 4, "projector off: %d settles", off.settles);
    cr_expect_eq(on.settles, off.settles, "projector on: %d settles, off %d", on.settles, off.settles);
    cr_assert_eq(off.checks, 3);
    cr_assert_eq(on.checks, off.checks, "projector on: %d calls, off %d", on.checks, off.checks);
    for (int k = 0; k < off.checks; k++) {
        cr_expect_eq(on.legal[k], off.legal[k], "move %d: on %d, off %d", k + 1, on.legal[k], off.legal[k]);
        cr_expect_eq(on.check_frame[k], off.check_frame[k], "move %d called at frame %ld on, %ld off", k + 1,
                     on.check_frame[k], off.check_frame[k]);
    }
    cr_expect(off.legal[0] && off.legal[1] && !off.legal[2]);
    /* Where only the light changed is not searched again: each move's settle detects in the changed regions
     * as it does with the projector off, not the whole frame. */
    for (int k = 1; k < off.settles && k < on.settles; k++)
        cr_expect_eq(on.full_frame[k], off.full_frame[k], "settle %d: whole frame on %d, off %d", k, on.full_frame[k],
                     off.full_frame[k]);
    cr_expect_eq(on.status, off.status);
    /* Moves 2 and 3 start while the previous call is lit, and are judged (above). */
    cr_expect(on.lit_at_move_start[2] && on.lit_at_move_start[3], "the call was not lit when the next move began");
    /* The scene's tags are white paper at ~235/255 at the room's exposure: projected white at 2.5x clips them,
     * and the watch says so once per game (it does not know whether the projector is on). */
    cr_expect_eq(on.exposure_warnings, 1);
    cr_expect_eq(off.exposure_warnings, 1);
}

/* The exposure check: paper at 226/255 (linear 0.76) under white at 2.5x clips, at 100/255 (linear 0.13)
 * under 1.5x does not; the paper level is the median of the tags' white borders (exact on a drawn tag). */
Test(watch_loop, projected_white_on_the_tags_paper_is_checked)
{
    cr_expect(watch_echo_would_clip(226, 2.5));
    cr_expect(!watch_echo_would_clip(100, 1.5));
    cr_expect(!watch_echo_would_clip(226, 0.2)); /* 0.76 x 1.2 = 0.91 */
    base_image *g = base_image_new(200, 200, 1, 60);
    for (int y = 70; y < 130; y++)
        for (int x = 70; x < 130; x++)
            g->data[y * g->stride + x] = x < 80 || x >= 120 || y < 80 || y >= 120 ? 235 : 25;
    vis_tag_detection t = {.id = 1, .corners = {{79.5, 119.5}, {119.5, 119.5}, {119.5, 79.5}, {79.5, 79.5}},
                           .centre = {99.5, 99.5}};
    const base_view v = base_image_view(g); /* the paper level is the referee's (ref_snapshot_paper_level) */
    cr_expect_eq(ref_paper_level(&v, &t, 1), 235);
    cr_expect_eq(ref_paper_level(&v, &t, 0), 0);
    base_image_free(g);
}

/* Board point of projector pixel px (H's inverse by the adjugate). */
static void board_of_projector_px(const double *m, const double px[2], double b[2])
{
    const double i0 = m[4] * m[8] - m[5] * m[7], i1 = m[2] * m[7] - m[1] * m[8], i2 = m[1] * m[5] - m[2] * m[4];
    const double i3 = m[5] * m[6] - m[3] * m[8], i4 = m[0] * m[8] - m[2] * m[6], i5 = m[2] * m[3] - m[0] * m[5];
    const double i6 = m[3] * m[7] - m[4] * m[6], i7 = m[1] * m[6] - m[0] * m[7], i8 = m[0] * m[4] - m[1] * m[3];
    const double w = i6 * px[0] + i7 * px[1] + i8;
    b[0] = (i0 * px[0] + i1 * px[1] + i2) / w, b[1] = (i3 * px[0] + i4 * px[1] + i5) / w;
}

/*
 * The echo of a 40x40 projector square switched on at t = 1000 ms (latency 100 ms, frames 200 ms apart):
 * no block before the switch or after 1000 + 100 + 1.5 x 200 ms; in between the block where the camera sees
 * the square's centre is discounted, one 200 projector px away is not, and under 2% of the blocks are.
 */
Test(watch_loop, a_projector_change_is_discounted_where_it_lands_and_when)
{
    char seq[2300];
    mkdir(wt_work_dir(), 0777);
    wt_path_in(seq, sizeof seq, "loop-sequence-echo.json");
    wt_write_test_sequence(seq);
    base_error err;
    ds_sequence *q = ds_sequence_load(seq, &err);
    cr_assert_not_null(q, "%s", err.msg);
    calib_file cam;
    double P[3];
    cr_assert_eq(ds_loop_calib(q, &cam, P, &err), 0, "%s", err.msg);
    const int factor = watch_motion_factor(cam.width, 320);
    const int bw = cam.width / factor / WATCH_MOTION_BLOCK, bh = cam.height / factor / WATCH_MOTION_BLOCK;
    watch_echo *e = watch_echo_new(&cam, factor, bw, bh, 100, &err);
    cr_assert_not_null(e, "%s", err.msg);
    base_image *pic = base_image_new(cam.projector.width, cam.projector.height, 3, 0);
    cr_assert_eq(watch_echo_picture(e, pic, 800, &err), 0);
    cr_expect_null(watch_echo_mask(e, 1000, 200), "black after black changes nothing");
    for (int y = 380; y < 420; y++)
        memset(pic->data + y * pic->stride + 3 * 600, 255, 3 * 40);
    cr_assert_eq(watch_echo_picture(e, pic, 1000, &err), 0, "%s", err.msg);
    cr_expect_null(watch_echo_mask(e, 1000, 200));
    cr_expect_null(watch_echo_mask(e, 1401, 200));
    const uint8_t *m = watch_echo_mask(e, 1200, 200);
    cr_assert_not_null(m);
    vis_camera vc;
    vis_camera_init(&vc, &cam);
    double b[2], px[2];
    board_of_projector_px(cam.projector.H, (const double[2]){619.5, 399.5}, b);
    cr_assert(vis_camera_project(&vc, (const double[3]){b[0], b[1], 0}, px));
    const int bx = (int)(px[0] / factor) / WATCH_MOTION_BLOCK, by = (int)(px[1] / factor) / WATCH_MOTION_BLOCK;
    cr_expect_eq(m[by * bw + bx], 1, "the square's block (%d, %d)", bx, by);
    board_of_projector_px(cam.projector.H, (const double[2]){819.5, 399.5}, b);
    cr_assert(vis_camera_project(&vc, (const double[3]){b[0], b[1], 0}, px));
    const int fx = (int)(px[0] / factor) / WATCH_MOTION_BLOCK, fy = (int)(px[1] / factor) / WATCH_MOTION_BLOCK;
    cr_expect_eq(m[fy * bw + fx], 0, "a block 200 projector px away (%d, %d)", fx, fy);
    int n = 0;
    for (int i = 0; i < bw * bh; i++)
        n += m[i];
    cr_expect(n >= 1 && n < bw * bh / 50, "%d of %d blocks discounted", n, bw * bh);
    base_image_free(pic);
    watch_echo_free(e);
    ds_sequence_free(q);
}
