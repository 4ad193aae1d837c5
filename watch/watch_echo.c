#include "watch_echo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_camera.h"
#include "watch_motion.h"

struct watch_echo {
    int bw, bh, pw, ph;
    int *box;              /* per block: projector px x0, y0, x1, y1 (inclusive), x0 > x1 when off the picture */
    base_image *last;      /* the picture shown last (gray), projector-sized */
    uint32_t *sat;         /* summed-area table of changed projector pixels, (pw + 1) x (ph + 1) */
    uint8_t *mask;         /* blocks lit by the latest changes */
    double from_ms, until_ms, latency_ms;
    int any;
};

double watch_echo_latency(const calib_file *calib)
{
    /* Measured by `calibrate projector --camera` when it was (calib_file.h); else the default. */
    if (calib && calib->projector.present && calib->projector.latency_present && calib->projector.latency_ms >= 0)
        return calib->projector.latency_ms;
    return WATCH_ECHO_LATENCY_MS;
}

/* The projector px box lighting block (bx, by): its corners' rays on the board, through H, grown by the margin. */
static void block_box(const ref_camera *vc, const double H[9], int factor, int bx, int by, int pw, int ph, int box[4])
{
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    int n = 0;
    for (int k = 0; k < 4; k++) {
        const double px[2] = {((bx + (k & 1)) * WATCH_MOTION_BLOCK) * factor - 0.5,
                              ((by + (k >> 1)) * WATCH_MOTION_BLOCK) * factor - 0.5};
        double X[3];
        if (!ref_camera_to_board(vc, px, 0, X))
            continue;
        const double w = H[6] * X[0] + H[7] * X[1] + H[8];
        if (w <= 0)
            continue;
        const double u = (H[0] * X[0] + H[1] * X[1] + H[2]) / w, v = (H[3] * X[0] + H[4] * X[1] + H[5]) / w;
        x0 = fmin(x0, u), x1 = fmax(x1, u), y0 = fmin(y0, v), y1 = fmax(y1, v);
        n++;
    }
    box[0] = 1, box[2] = 0; /* empty */
    if (n < 4)
        return;
    x0 = floor(x0) - WATCH_ECHO_MARGIN_PX, y0 = floor(y0) - WATCH_ECHO_MARGIN_PX;
    x1 = ceil(x1) + WATCH_ECHO_MARGIN_PX, y1 = ceil(y1) + WATCH_ECHO_MARGIN_PX;
    if (x1 < 0 || y1 < 0 || x0 > pw - 1 || y0 > ph - 1)
        return;
    box[0] = (int)fmax(0, x0), box[1] = (int)fmax(0, y0);
    box[2] = (int)fmin(pw - 1, x1), box[3] = (int)fmin(ph - 1, y1);
}

watch_echo *watch_echo_new(const calib_file *calib, int factor, int bw, int bh, double latency_ms, base_error *err)
{
    const calib_projector *p = &calib->projector;
    if (!p->present || p->width < 1 || p->height < 1) {
        base_error_set(err, "watch: the calibration has no projector section");
        return NULL;
    }
    watch_echo *e = calloc(1, sizeof *e);
    if (e) {
        e->bw = bw, e->bh = bh, e->pw = p->width, e->ph = p->height, e->latency_ms = latency_ms;
        e->box = malloc(sizeof(int) * 4 * (size_t)bw * (size_t)bh);
        e->mask = calloc((size_t)bw * (size_t)bh, 1);
        e->sat = calloc((size_t)(e->pw + 1) * (size_t)(e->ph + 1), sizeof *e->sat);
        e->last = base_image_new(e->pw, e->ph, 1, 0);
    }
    ref_camera *vc = e ? ref_camera_new(calib) : NULL;
    if (!e || !e->box || !e->mask || !e->sat || !e->last || !vc) {
        ref_camera_free(vc);
        watch_echo_free(e);
        base_error_set(err, "out of memory");
        return NULL;
    }
    for (int by = 0; by < bh; by++)
        for (int bx = 0; bx < bw; bx++)
            block_box(vc, p->H, factor, bx, by, e->pw, e->ph, e->box + 4 * (by * bw + bx));
    ref_camera_free(vc);
    return e;
}

void watch_echo_free(watch_echo *e)
{
    if (!e)
        return;
    free(e->box);
    free(e->mask);
    free(e->sat);
    base_image_free(e->last);
    free(e);
}

/* Marks the projector pixels that changed (any channel differing by more than 2 levels), keeps the picture. */
static int changed_pixels(watch_echo *e, const base_image *pic)
{
    const int W = e->pw, n = pic->channels;
    int any = 0;
    for (int y = 0; y < e->ph; y++) {
        const uint8_t *p = pic->data + y * pic->stride;
        uint8_t *l = e->last->data + y * e->last->stride;
        uint32_t row = 0;
        for (int x = 0; x < W; x++) {
            const uint8_t v = n == 3 ? (uint8_t)((p[3 * x] + 2 * p[3 * x + 1] + p[3 * x + 2] + 2) / 4) : p[x];
            const int ch = abs(v - l[x]) > 2;
            l[x] = v;
            row += (uint32_t)ch;
            any |= ch;
            e->sat[(size_t)(y + 1) * (size_t)(W + 1) + (size_t)(x + 1)] =
                e->sat[(size_t)y * (size_t)(W + 1) + (size_t)(x + 1)] + row;
        }
    }
    return any;
}

int watch_echo_picture(watch_echo *e, const base_image *picture, double t_ms, base_error *err)
{
    if (picture->width != e->pw || picture->height != e->ph)
        return base_error_set(err, "watch: the projector picture is %dx%d, the calibration's %dx%d", picture->width,
                              picture->height, e->pw, e->ph);
    if (!changed_pixels(e, picture))
        return 0;
    /* A change before the last one's window closed adds to it. */
    const int open = e->any && t_ms <= e->until_ms;
    if (!open)
        memset(e->mask, 0, (size_t)e->bw * (size_t)e->bh);
    const size_t W1 = (size_t)e->pw + 1;
    for (int i = 0; i < e->bw * e->bh; i++) {
        const int *b = e->box + 4 * i;
        if (b[0] > b[2])
            continue;
        const uint32_t s = e->sat[(size_t)(b[3] + 1) * W1 + (size_t)(b[2] + 1)] - e->sat[(size_t)b[1] * W1 + (size_t)(b[2] + 1)] -
                           e->sat[(size_t)(b[3] + 1) * W1 + (size_t)b[0]] + e->sat[(size_t)b[1] * W1 + (size_t)b[0]];
        if (s)
            e->mask[i] = 1;
    }
    if (!open)
        e->from_ms = t_ms;
    e->until_ms = t_ms + e->latency_ms; /* the frame period is added when asked */
    e->any = 1;
    return 0;
}

const uint8_t *watch_echo_mask(watch_echo *e, double t_ms, double period_ms)
{
    if (!e->any || t_ms <= e->from_ms || t_ms > e->until_ms + 1.5 * period_ms)
        return NULL;
    return e->mask;
}

double watch_echo_brightness(const calib_file *calib)
{
    if (calib && calib->projector.present && calib->projector.brightness_ratio > 0)
        return calib->projector.brightness_ratio;
    return WATCH_ECHO_RATIO_DEFAULT;
}

int watch_echo_would_clip(double paper_level, double ratio)
{
    const double s = paper_level / 255;
    const double lin = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
    return lin * (1 + ratio) >= 1;
}
