/*
 * calib_loop (issue 18): `calibrate projector` in the loop on the simulated
 * projector (datasets/ds_calibview.h), as tests/test_calib_board.c sets it
 * up. The simulation: a camera at `fps` whose frame k shows the projector
 * picture that was on `lag` frames earlier (what the projector and the
 * camera's pipeline delay), each frame rendered by ds_projector_render
 * (board albedo 150 lit by ambient + gain x picture). The measurement must
 * come out as the simulation's truth: latency `lag` frames, lag / fps
 * seconds; brightness gain / ambient (levels chosen whole so the camera's
 * rounding is exact: +/- 0.01).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib_projector_loop.h"
#include "ds_calibview.h"
#include "ds_scene.h"

#define MAX_LAG 8

typedef struct sim {
    ds_projector pj;
    calib_file cam;
    double board_w, board_d, fps;
    int lag;
    long frame;                        /* frames read so far */
    const base_image *shown[MAX_LAG + 1]; /* shown[i]: the picture on at frame (frame - i) */
    base_image *black;
    base_image *img;                   /* the last frame */
    const base_image *img_of;          /* the picture it shows */
    int renders;
} sim;

static int sim_show(void *ctx, const base_image *picture, base_error *err)
{
    (void)err;
    sim *s = ctx;
    s->shown[0] = picture; /* on from now: frames after the current one see it `lag` frames later */
    return 0;
}

static const base_image *sim_grab(void *ctx, double *t_ms, base_error *err)
{
    sim *s = ctx;
    for (int i = MAX_LAG; i > 0; i--)
        s->shown[i] = s->shown[i - 1];
    s->frame++;
    *t_ms = s->frame * 1000.0 / s->fps;
    const base_image *pic = s->shown[s->lag] ? s->shown[s->lag] : s->black;
    if (pic != s->img_of) { /* the same picture renders the same frame */
        base_image_free(s->img);
        s->img = NULL;
        cvs_effects fx = {0};
        if (ds_projector_render(&s->pj, pic, &s->cam, s->board_w, s->board_d, &fx, 1, &s->img, err) < 0)
            return NULL;
        s->img_of = pic;
        s->renders++;
    }
    return s->img;
}

static double sim_now(void *ctx)
{
    sim *s = ctx;
    return s->frame * 1000.0 / s->fps;
}

static void run(int lag, double fps, double ambient, double gain)
{
    sim s = {0};
    base_error err = {0};
    ds_gen_params g;
    ds_gen_params_small(&g);
    cr_assert_eq(ds_camera_make(&g.camera, &s.cam, &err), 0, "%s", err.msg);
    s.board_w = g.board_width, s.board_d = g.board_depth;
    ds_projector_default(&s.pj, s.board_w, s.board_d);
    s.pj.ambient = ambient, s.pj.gain = gain;
    s.fps = fps, s.lag = lag;
    s.black = base_image_new(s.pj.width, s.pj.height, 1, 0);
    /* The mapping as calibrate projector stores it (here the exact one: the loop is what is measured). */
    s.cam.projector.present = 1;
    s.cam.projector.width = s.pj.width, s.cam.projector.height = s.pj.height;
    ds_projector_board_to_px(&s.pj, s.cam.projector.H);
    calib_loop loop = {&s, sim_show, sim_grab, sim_now};
    calib_loop_result r;
    cr_assert_eq(calib_projector_measure_loop(&s.cam, &loop, 100, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.latency_frames, lag, "latency %d frames, truth %d", r.latency_frames, lag);
    cr_expect_float_eq(r.latency_ms, lag * 1000.0 / fps, 1e-9, "latency %.3f ms", r.latency_ms);
    cr_expect_float_eq(r.brightness_ratio, gain / ambient, 0.01, "brightness %.4f, truth %.4f (black %.2f, white %.2f)",
                       r.brightness_ratio, gain / ambient, r.black_level, r.white_level);
    cr_expect_gt(r.samples, 100);
    base_image_free(s.black);
    base_image_free(s.img);
}

Test(calib_loop, latency_and_brightness_are_the_simulations, .timeout = 120)
{
    run(3, 30, 0.2, 0.5);  /* 3 frames at 30 fps: 100 ms; projected white 2.5x the room */
    run(1, 10, 0.4, 0.6);  /* the next frame at 10 fps: 100 ms; 1.5x */
    run(6, 15, 0.2, 0.8);  /* 400 ms; 4x */
}

Test(calib_loop, clipped_white_is_refused, .timeout = 60)
{
    sim s = {0};
    base_error err = {0};
    ds_gen_params g;
    ds_gen_params_small(&g);
    cr_assert_eq(ds_camera_make(&g.camera, &s.cam, &err), 0, "%s", err.msg);
    s.board_w = g.board_width, s.board_d = g.board_depth;
    ds_projector_default(&s.pj, s.board_w, s.board_d);
    s.pj.ambient = 0.5, s.pj.gain = 1.5; /* 150 x 2 = 300: clipped at 255 */
    s.fps = 30, s.lag = 2;
    s.black = base_image_new(s.pj.width, s.pj.height, 1, 0);
    s.cam.projector.present = 1;
    s.cam.projector.width = s.pj.width, s.cam.projector.height = s.pj.height;
    ds_projector_board_to_px(&s.pj, s.cam.projector.H);
    calib_loop loop = {&s, sim_show, sim_grab, sim_now};
    calib_loop_result r;
    cr_expect_eq(calib_projector_measure_loop(&s.cam, &loop, 100, &r, &err), -1);
    cr_expect(strstr(err.msg, "clips"), "%s", err.msg);
    base_image_free(s.black);
    base_image_free(s.img);
}
