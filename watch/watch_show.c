#include "watch_show.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tableref_config.h"
#if TABLEREF_HAVE_OVERLAY
#include "ov_draw.h"
#endif

struct watch_show {
    calib_file calib;
    cvs_image *annotated;
    char failure[640];       /* the first drawing failure */
    bool camera_failed, projector_failed;
#if TABLEREF_HAVE_OVERLAY
    ov_target *ov;
    ov_options ovo;
    uint8_t *layer;          /* premultiplied BGR of the annotation */
    uint8_t *layer_keep;     /* 255 * (1 - alpha) per pixel */
    int layer_w, layer_h;
    long layer_key;
    /* The projector's own picture (calibration's "projector" section). */
    ov_target *proj_ov;
    cvs_image *proj_image;
    long proj_key;
#endif
};

watch_show *watch_show_new(const calib_file *calib, rules_error *err)
{
    watch_show *sh = calloc(1, sizeof *sh);
    if (!sh) {
        rules_error_set(err, "out of memory");
        return NULL;
    }
    sh->calib = *calib;
#if TABLEREF_HAVE_OVERLAY
    ov_options_default(&sh->ovo);
    sh->layer_key = sh->proj_key = -1;
#endif
    return sh;
}

void watch_show_free(watch_show *sh)
{
    if (!sh)
        return;
#if TABLEREF_HAVE_OVERLAY
    ov_target_free(sh->ov);
    ov_target_free(sh->proj_ov);
    cvs_image_free(sh->proj_image);
    free(sh->layer);
    free(sh->layer_keep);
#endif
    cvs_image_free(sh->annotated);
    free(sh);
}

const char *watch_show_failure(const watch_show *sh) { return sh->failure[0] ? sh->failure : NULL; }

#if TABLEREF_HAVE_OVERLAY
static void fail(watch_show *sh, bool *flag, const char *what, const char *msg)
{
    *flag = true;
    if (!sh->failure[0])
        snprintf(sh->failure, sizeof sh->failure, "%s: %s", what, msg);
}

/* Draws the content on target t (its background already set). */
static int draw_content(watch_show *sh, ov_target *t, const watch_show_content *c, rules_error *err)
{
    if (c->before && c->after && c->report)
        return ov_draw_verdict(t, c->before, c->after, c->report, &sh->ovo, err);
    if (c->table)
        return ov_draw_snapshot(t, c->table, &sh->ovo, err);
    return 0;
}

/* The annotation layer at w x h over black and over white (see the header). */
static int draw_layer(watch_show *sh, int w, int h, const watch_show_content *c, rules_error *err)
{
    const size_t n = (size_t)w * h * 3;
    uint8_t *black = calloc(n, 1), *white = malloc(n);
    uint8_t *keep = realloc(sh->layer_keep, (size_t)w * h);
    if (keep)
        sh->layer_keep = keep;
    if (!black || !white || !keep) {
        free(black);
        free(white);
        return rules_error_set(err, "out of memory");
    }
    memset(white, 255, n);
    uint8_t *bufs[2] = {black, white};
    int rc = 0;
    for (int k = 0; k < 2 && rc == 0; k++) {
        if (!sh->ov) {
            if (!(sh->ov = ov_target_new_camera(&sh->calib, w, h, bufs[k], OV_PIX_BGR24, (size_t)w * 3, err)))
                rc = -1;
        } else {
            rc = ov_target_set_background(sh->ov, bufs[k], OV_PIX_BGR24, (size_t)w * 3, err);
        }
        if (rc == 0)
            rc = draw_content(sh, sh->ov, c, err);
        if (rc == 0)
            rc = ov_target_copy_pixels(sh->ov, bufs[k], OV_PIX_BGR24, (size_t)w * 3, err);
    }
    if (rc == 0) {
        for (size_t i = 0; i < (size_t)w * h; i++) {
            int d = white[3 * i + 1] - black[3 * i + 1];
            sh->layer_keep[i] = (uint8_t)(d < 0 ? 0 : d);
        }
        free(sh->layer);
        sh->layer = black;
        black = NULL;
        sh->layer_w = w, sh->layer_h = h;
    }
    free(black);
    free(white);
    return rc;
}

/* out = layer + frame * keep, per pixel (frame gray or BGR). */
static void composite(const watch_show *sh, const cvs_image *f, cvs_image *out)
{
    const int w = f->width, h = f->height;
    for (int r = 0; r < h; r++) {
        const uint8_t *s = f->data + (size_t)r * f->stride;
        uint8_t *d = out->data + (size_t)r * out->stride;
        const uint8_t *L = sh->layer ? sh->layer + (size_t)r * w * 3 : NULL;
        const uint8_t *K = sh->layer ? sh->layer_keep + (size_t)r * w : NULL;
        for (int x = 0; x < w; x++)
            for (int ch = 0; ch < 3; ch++) {
                int v = f->channels == 3 ? s[3 * x + ch] : s[x];
                d[3 * x + ch] = L ? (uint8_t)(L[3 * x + ch] + (v * K[x] + 127) / 255) : (uint8_t)v;
            }
    }
}
#endif

const cvs_image *watch_show_camera(watch_show *sh, const cvs_image *frame, const watch_show_content *c)
{
#if TABLEREF_HAVE_OVERLAY
    const int w = frame->width, h = frame->height;
    if (!sh->annotated || sh->annotated->width != w || sh->annotated->height != h) {
        cvs_image_free(sh->annotated);
        if (!(sh->annotated = cvs_image_new(w, h, 3, 0)))
            return frame;
    }
    if (!sh->camera_failed && (!sh->layer || c->generation != sh->layer_key || sh->layer_w != w || sh->layer_h != h)) {
        rules_error err;
        if (draw_layer(sh, w, h, c, &err) < 0) {
            /* Never show a stale call: record the frames plain from now on. */
            fail(sh, &sh->camera_failed, "overlay", err.msg);
            free(sh->layer);
            sh->layer = NULL;
        }
        sh->layer_key = c->generation;
    }
    composite(sh, frame, sh->annotated);
    return sh->annotated;
#else
    (void)sh;
    (void)c;
    return frame;
#endif
}

const cvs_image *watch_show_projector(watch_show *sh, const cvs_image *camera, const watch_show_content *c)
{
#if TABLEREF_HAVE_OVERLAY
    const calib_projector *p = &sh->calib.projector;
    if (!p->present || sh->projector_failed)
        return camera;
    rules_error err;
    if (!sh->proj_ov) {
        sh->proj_ov = ov_target_new_projector(p->H, p->width, p->height, &err);
        sh->proj_image = sh->proj_ov ? cvs_image_new(p->width, p->height, 3, 0) : NULL;
        if (!sh->proj_ov || !sh->proj_image) {
            fail(sh, &sh->projector_failed, "projector picture", sh->proj_ov ? "out of memory" : err.msg);
            return camera;
        }
    }
    if (c->generation != sh->proj_key) {
        memset(sh->proj_image->data, 0, (size_t)sh->proj_image->stride * sh->proj_image->height);
        int rc = ov_target_set_background(sh->proj_ov, sh->proj_image->data, OV_PIX_BGR24, sh->proj_image->stride,
                                          &err);
        if (rc == 0)
            rc = draw_content(sh, sh->proj_ov, c, &err);
        if (rc == 0)
            rc = ov_target_copy_pixels(sh->proj_ov, sh->proj_image->data, OV_PIX_BGR24, sh->proj_image->stride, &err);
        if (rc < 0) {
            fail(sh, &sh->projector_failed, "projector picture", err.msg);
            return camera;
        }
        sh->proj_key = c->generation;
    }
    return sh->proj_image;
#else
    (void)sh;
    (void)c;
    return camera;
#endif
}
