/* calib_projector_loop: latency and brightness of the projector as the camera sees them (see the header). */
#include "calib_projector_loop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib_projector.h"
#include "vis_camera.h"

#define GRID 24               /* board points per side sampled */
#define EDGE_PX 24.0          /* keep off the projected picture's soft edge, projector px */
#define STABLE_LEVELS 1.0     /* three frames within this: the level has settled */
#define MIN_STEP_LEVELS 3.0   /* white must stand this far above black to be seen */
#define CLIPPED_LEVEL 250.0

/* Camera pixels of the board points the projector lights well inside its picture. */
typedef struct samples {
    int n;
    int *xy; /* 2n */
} samples;

static int find_samples(const calib_file *c, int frame_w, int frame_h, samples *s, base_error *err)
{
    vis_camera cam;
    vis_camera_init(&cam, c);
    const calib_projector *p = &c->projector;
    /* The board's extent is not in the calibration: walk the projector's picture back onto the board instead. */
    const double *H = p->H;
    double Hi[9], det = H[0] * (H[4] * H[8] - H[5] * H[7]) - H[1] * (H[3] * H[8] - H[5] * H[6]) + H[2] * (H[3] * H[7] - H[4] * H[6]);
    if (!(fabs(det) > 0))
        return base_error_set(err, "projector.board_to_projector: singular mapping");
    Hi[0] = (H[4] * H[8] - H[5] * H[7]) / det, Hi[1] = (H[2] * H[7] - H[1] * H[8]) / det;
    Hi[2] = (H[1] * H[5] - H[2] * H[4]) / det, Hi[3] = (H[5] * H[6] - H[3] * H[8]) / det;
    Hi[4] = (H[0] * H[8] - H[2] * H[6]) / det, Hi[5] = (H[2] * H[3] - H[0] * H[5]) / det;
    Hi[6] = (H[3] * H[7] - H[4] * H[6]) / det, Hi[7] = (H[1] * H[6] - H[0] * H[7]) / det;
    Hi[8] = (H[0] * H[4] - H[1] * H[3]) / det;
    if (!(s->xy = malloc(2 * GRID * GRID * sizeof *s->xy)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    s->n = 0;
    for (int j = 0; j < GRID; j++)
        for (int i = 0; i < GRID; i++) {
            double px[2] = {EDGE_PX + (p->width - 2 * EDGE_PX) * i / (GRID - 1.0),
                            EDGE_PX + (p->height - 2 * EDGE_PX) * j / (GRID - 1.0)}, b[2], cpx[2];
            if (!calib_projector_map(Hi, px, b))
                continue;
            double X[3] = {b[0], b[1], 0};
            if (!vis_camera_project(&cam, X, cpx))
                continue;
            int x = (int)lround(cpx[0]), y = (int)lround(cpx[1]);
            if (x < 1 || y < 1 || x >= frame_w - 1 || y >= frame_h - 1)
                continue;
            s->xy[2 * s->n] = x, s->xy[2 * s->n + 1] = y;
            s->n++;
        }
    if (s->n < 4)
        return base_error_set(err, "projector: its picture is not in the camera's view (%d board points)", s->n);
    return 0;
}

/* Mean level over the samples; *clipped: the share of them at the camera's ceiling. */
static double level(const base_image *img, const samples *s, double *clipped)
{
    double sum = 0;
    int top = 0;
    for (int k = 0; k < s->n; k++) {
        const uint8_t *px = img->data + (size_t)s->xy[2 * k + 1] * img->stride + (size_t)s->xy[2 * k] * img->channels;
        double v = img->channels >= 3 ? 0.114 * px[0] + 0.587 * px[1] + 0.299 * px[2] : px[0];
        sum += v;
        top += v >= CLIPPED_LEVEL;
    }
    *clipped = (double)top / s->n;
    return sum / s->n;
}

typedef struct run {
    const calib_file *c;
    const calib_loop *loop;
    samples s;
    int max_frames, frames;
    double *levels, *times;
    double clipped; /* of the last frame read */
} run;

/* Shows `pic`, then reads frames until the level settles away from `from` by at least `min_step` (0: any
 * settled level). The levels and times read go to r->levels / r->times; returns how many, or -1. */
static int show_and_settle(run *r, const base_image *pic, double from, double min_step, double *t_show,
                           base_error *err)
{
    if (r->loop->show(r->loop->ctx, pic, err) < 0)
        return -1;
    *t_show = r->loop->now_ms(r->loop->ctx);
    for (int n = 0; n < r->max_frames; n++) {
        double t;
        const base_image *f = r->loop->grab(r->loop->ctx, &t, err);
        if (!f)
            return -1;
        r->frames++;
        if (!r->s.n && find_samples(r->c, f->width, f->height, &r->s, err) < 0)
            return -1;
        r->levels[n] = level(f, &r->s, &r->clipped), r->times[n] = t;
        if (n >= 2 && fabs(r->levels[n] - r->levels[n - 1]) <= STABLE_LEVELS &&
            fabs(r->levels[n - 1] - r->levels[n - 2]) <= STABLE_LEVELS && fabs(r->levels[n] - from) >= min_step)
            return n + 1;
    }
    return base_error_set(err, "projector: the camera's level did not settle%s in %d frames",
                          min_step > 0 ? " on the projected white" : "", r->max_frames);
}

int calib_projector_measure_loop(const calib_file *c, const calib_loop *loop, int max_frames, calib_loop_result *out,
                                 base_error *err)
{
    memset(out, 0, sizeof *out);
    if (!c->projector.present || c->pose_missing)
        return base_error_set(err, "projector: the loop needs the projector's mapping and the board's pose");
    run r = {c, loop, {0, NULL}, max_frames < 3 ? 3 : max_frames, 0, NULL, NULL, 0};
    base_image *black = base_image_new(c->projector.width, c->projector.height, 1, 0);
    base_image *white = base_image_new(c->projector.width, c->projector.height, 1, 255);
    r.levels = malloc(r.max_frames * sizeof *r.levels);
    r.times = malloc(r.max_frames * sizeof *r.times);
    int rc = -1;
    double t_show;
    if (!black || !white || !r.levels || !r.times) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        goto done;
    }
    int n = show_and_settle(&r, black, 0, 0, &t_show, err);
    if (n < 0)
        goto done;
    const double B = r.levels[n - 1];
    if ((n = show_and_settle(&r, white, B, MIN_STEP_LEVELS, &t_show, err)) < 0)
        goto done;
    const double W = r.levels[n - 1];
    if (r.clipped > 0.01) {
        base_error_set(err, "projector: projected white clips the camera (%.0f %% of the board at level %.0f or "
                            "more): lower the exposure", 100 * r.clipped, CLIPPED_LEVEL);
        goto done;
    }
    if (!(B > 0.5)) {
        base_error_set(err, "projector: the board is black without the projector (level %.1f): no room light to "
                            "compare with", B);
        goto done;
    }
    int first = 0;
    while (first < n && r.levels[first] <= (B + W) / 2)
        first++;
    out->latency_frames = first + 1;
    out->latency_ms = r.times[first] - t_show;
    out->black_level = B, out->white_level = W;
    out->brightness_ratio = (W - B) / B;
    out->samples = r.s.n;
    rc = loop->show(loop->ctx, black, err);
done:
    out->frames_read = r.frames;
    free(r.s.xy);
    free(r.levels);
    free(r.times);
    base_image_free(black);
    base_image_free(white);
    return rc;
}
