/* calibrate_loop: `calibrate projector --camera SRC`'s live loop (calibrate_loop.h). */
#include "calibrate_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cap_source.h"
#include "calib_projector_loop.h"
#include "media.h"

/* The live loop: the --show window on the projector, the camera's frames; times on the frames' clock. */
struct calibrate_live {
    cap_source *cap;
    int sx, sy;
    double last_t_ms, last_mono_ms;
    /* One window for every picture shown: opening a display per picture (media_projector_show) races the
     * X server's teardown of the previous one when the pictures follow each other within a frame or two. */
    media_window *win;
};
typedef calibrate_live live_loop;

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int live_show(void *ctx, const base_image *pic, base_error *err)
{
    live_loop *l = ctx;
    if (!l->win && !(l->win = media_window_open("tableref projector", l->sx, l->sy, 1, err))) {
        base_error_prefix(err, "projector");
        return -1;
    }
    base_view v = base_image_view(pic);
    if (media_window_show(l->win, &v, err) < 0)
        return -1;
    media_window_key(l->win, 1); /* lets the window manager place and draw it */
    return 0;
}

static const base_image *live_grab(void *ctx, double *t_ms, base_error *err)
{
    live_loop *l = ctx;
    cap_frame f;
    int r = cap_source_read(l->cap, &f, err);
    if (r != 1) {
        if (r == 0)
            base_error_set(err, "camera: the source ended");
        return NULL;
    }
    l->last_t_ms = *t_ms = f.t_ms;
    l->last_mono_ms = mono_ms();
    return f.gray;
}

static double live_now(void *ctx)
{
    live_loop *l = ctx;
    return l->last_t_ms + (mono_ms() - l->last_mono_ms);
}

calibrate_live *calibrate_live_open(const char *source, int sx, int sy, calib_loop *loop, base_error *err)
{
    cap_source_config cfg;
    cap_source_config_default(&cfg);
    cfg.fps = 0;
    live_loop *l = calloc(1, sizeof *l);
    if (!l) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    *l = (live_loop){cap_source_open(source, &cfg, err), sx, sy, 0, mono_ms(), NULL};
    if (!l->cap) {
        free(l);
        return NULL;
    }
    *loop = (calib_loop){l, live_show, live_grab, live_now};
    media_projector_close(); /* the pattern's window (calibrate projector --show) gives way to the loop's */
    return l;
}

bool calibrate_live_is_live(const calibrate_live *l) { return cap_source_is_live(l->cap); }

void calibrate_live_close(calibrate_live *l)
{
    if (!l)
        return;
    cap_source_close(l->cap);
    media_window_free(l->win);
    free(l);
}

/* --camera: latency and brightness into c->projector. 0 or -1 (said on stderr). */
int calibrate_measure_live_loop(calib_file *c, const char *source, int sx, int sy)
{
    base_error err = {0};
    calib_loop loop;
    calibrate_live *l = calibrate_live_open(source, sx, sy, &loop, &err);
    if (!l) {
        fprintf(stderr, "tableref calibrate projector: %s\n", err.msg);
        return -1;
    }
    calib_loop_result r;
    int rc = calib_projector_measure_loop(c, &loop, 300, &r, &err);
    calibrate_live_close(l);
    if (rc < 0) {
        fprintf(stderr, "tableref calibrate projector: %s: %s\n", source, err.msg);
        return -1;
    }
    c->projector.latency_present = 1;
    c->projector.latency_frames = r.latency_frames;
    c->projector.latency_ms = r.latency_ms;
    c->projector.brightness_ratio = r.brightness_ratio;
    printf("loop: the camera sees a new projector picture %d frame(s), %.0f ms after it is shown\n", r.latency_frames,
           r.latency_ms);
    printf("loop: projected white is %.2fx the room's light at the board (levels %.1f black, %.1f white)\n",
           r.brightness_ratio, r.black_level, r.white_level);
    return 0;
}
