#include "watch_show.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tableref_config.h"
#if TABLEREF_HAVE_OVERLAY
#include "ov_scene.h"
#include "ref_labels.h"
#include "watch_motion.h"
#endif

#define MAX_SIDES 8
#define MOTION_WIDTH 320  /* the tracker's motion picture */
#define MOTION_LEVEL 6.0  /* grey levels: a block changed */

struct watch_show {
    calib_file calib;
    base_image *annotated;
    char failure[640];       /* the first drawing failure */
    bool camera_failed, projector_failed;
#if TABLEREF_HAVE_OVERLAY
    ov_target *ov;
    ov_options ovo;
    uint8_t *layer;          /* premultiplied BGR of the annotation */
    uint8_t *layer_keep;     /* 255 * (1 - alpha) per pixel */
    int layer_w, layer_h;
    unsigned long layer_key;
    bool layer_drawn;
    /* The projector's own picture (calibration's "projector" section). */
    ov_target *proj_ov;
    base_image *proj_image;
    unsigned long proj_key;
    bool proj_drawn;
    /* What moves: the frame shrunk when the table last stood still, and the units under the change. */
    base_image *still;
    uint8_t *gray;
    size_t gray_cap;
    char (*faded)[RULES_ID_MAX];
    const char **faded_ids;
    size_t n_faded, cap_faded;
    unsigned long faded_hash;
    /* The players' sides, in the roster's order (point into the content's roster: one call only). */
    const char *sides[MAX_SIDES];
    size_t n_sides;
#endif
    /* A unit's reach shown until replaced (envelopes only), and whose player reads it. */
    rules_reach reach;
    bool has_reach;
    char reach_side[RULES_ID_MAX];
    unsigned long reach_generation;
};

watch_show *watch_show_new(const calib_file *calib, base_error *err)
{
    watch_show *sh = calloc(1, sizeof *sh);
    if (!sh) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    sh->calib = *calib;
#if TABLEREF_HAVE_OVERLAY
    ov_options_default(&sh->ovo);
    sh->ovo.detail = OV_DETAIL_BRIEF;
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
    base_image_free(sh->proj_image);
    base_image_free(sh->still);
    free(sh->layer);
    free(sh->layer_keep);
    free(sh->gray);
    free(sh->faded);
    free(sh->faded_ids);
#endif
    rules_reach_clear(&sh->reach);
    base_image_free(sh->annotated);
    free(sh);
}

/* A copy of what the overlay draws of a reach: everything but the sampled poses. */
static int copy_reach(rules_reach *dst, const rules_reach *src)
{
    *dst = *src;
    dst->facings = src->n_facings ? calloc(src->n_facings, sizeof *dst->facings) : NULL;
    if (src->n_facings && !dst->facings) {
        memset(dst, 0, sizeof *dst);
        return -1;
    }
    for (size_t i = 0; i < src->n_facings; i++) {
        rules_reach_facing *f = &dst->facings[i];
        *f = src->facings[i];
        f->far = f->near = NULL;
        f->n_columns = 0;
        f->envelope = f->n_envelope ? malloc(f->n_envelope * sizeof *f->envelope) : NULL;
        if (f->n_envelope && !f->envelope) {
            dst->n_facings = i;
            rules_reach_clear(dst);
            return -1;
        }
        if (f->n_envelope)
            memcpy(f->envelope, src->facings[i].envelope, f->n_envelope * sizeof *f->envelope);
    }
    return 0;
}

int watch_show_set_reach(watch_show *sh, const rules_reach *r, const char *side, base_error *err)
{
    rules_reach copy;
    memset(&copy, 0, sizeof copy);
    if (r && copy_reach(&copy, r) < 0)
        return base_error_set(err, "out of memory");
    rules_reach_clear(&sh->reach);
    sh->reach = copy;
    sh->has_reach = r != NULL;
    snprintf(sh->reach_side, sizeof sh->reach_side, "%s", r && side ? side : "");
    sh->reach_generation++;
    return 0;
}

const char *watch_show_failure(const watch_show *sh) { return sh->failure[0] ? sh->failure : NULL; }

#if TABLEREF_HAVE_OVERLAY
static void fail(watch_show *sh, bool *flag, const char *what, const char *msg)
{
    *flag = true;
    if (!sh->failure[0])
        snprintf(sh->failure, sizeof sh->failure, "%s: %s", what, msg);
}

static void collect_sides(watch_show *sh, const roster_file *r)
{
    sh->n_sides = 0;
    for (size_t i = 0; r && i < r->n_units && sh->n_sides < MAX_SIDES; i++) {
        bool known = false;
        for (size_t k = 0; k < sh->n_sides; k++)
            known |= strcmp(sh->sides[k], r->units[i].side) == 0;
        if (!known && r->units[i].side[0])
            sh->sides[sh->n_sides++] = r->units[i].side;
    }
}

/* Draws the content on target t (its background already set). */
static int draw_content(watch_show *sh, ov_target *t, const watch_show_content *c, base_error *err)
{
    ov_options o = sh->ovo;
    o.sides = sh->n_sides ? sh->sides : NULL;
    o.n_sides = sh->n_sides;
    o.faded = sh->faded_ids;
    o.n_faded = sh->n_faded;
    ov_scene *sc = ov_scene_new(&o, err);
    if (!sc)
        return -1;
    int rc;
    if (c->before && c->after && c->report)
        rc = ov_scene_add_verdict(sc, c->before, c->after, c->report, err);
    else if (c->table)
        rc = ov_scene_add_snapshot(sc, c->table, err);
    else
        rc = ov_scene_add_sides(sc, o.sides, o.n_sides, err);
    /* The reach under the call's labels: laid out together, so neither covers the other. */
    if (rc == 0 && sh->has_reach)
        rc = ov_scene_add_reach(sc, &sh->reach, sh->reach_side[0] ? sh->reach_side : NULL, err);
    if (rc == 0)
        rc = ov_scene_draw(sc, t, err);
    ov_scene_free(sc);
    return rc;
}

/* ---- what moves ---- */

static const uint8_t *gray_of(watch_show *sh, const base_image *f, size_t *stride)
{
    if (f->channels == 1) {
        *stride = f->stride;
        return f->data;
    }
    size_t n = (size_t)f->width * f->height;
    if (n > sh->gray_cap) {
        uint8_t *g = realloc(sh->gray, n);
        if (!g)
            return NULL;
        sh->gray = g, sh->gray_cap = n;
    }
    for (int r = 0; r < f->height; r++) {
        const uint8_t *s = f->data + (size_t)r * f->stride;
        uint8_t *d = sh->gray + (size_t)r * f->width;
        for (int x = 0; x < f->width; x++)
            d[x] = (uint8_t)((s[3 * x] * 29 + s[3 * x + 1] * 150 + s[3 * x + 2] * 77 + 128) >> 8);
    }
    *stride = (size_t)f->width;
    return sh->gray;
}

static int add_faded(watch_show *sh, const char *id)
{
    if (sh->n_faded == sh->cap_faded) {
        size_t cap = sh->cap_faded ? 2 * sh->cap_faded : 16;
        char(*f)[RULES_ID_MAX] = realloc(sh->faded, cap * sizeof *f);
        if (!f)
            return -1;
        sh->faded = f;
        const char **ids = realloc(sh->faded_ids, cap * sizeof *ids);
        if (!ids)
            return -1;
        sh->faded_ids = ids;
        sh->cap_faded = cap;
    }
    snprintf(sh->faded[sh->n_faded], RULES_ID_MAX, "%s", id);
    sh->n_faded++;
    for (size_t i = 0; i < sh->n_faded; i++)
        sh->faded_ids[i] = sh->faded[i];
    return 0;
}

/* A block of the motion picture changed, or one next to it (a figure leans over a tag's edge). */
static bool changed_near(const uint8_t *mask, int bw, int bh, int bx, int by)
{
    for (int y = by - 1; y <= by + 1; y++)
        for (int x = bx - 1; x <= bx + 1; x++)
            if (x >= 0 && y >= 0 && x < bw && y < bh && mask[(size_t)y * bw + x])
                return true;
    return false;
}

/*
 * While the table is still the reference picture follows it; while it moves, the units with a model
 * where the picture changed since then are the ones being moved (or under a hand): they fade.
 */
static void update_faded(watch_show *sh, const base_image *frame, const watch_show_content *c)
{
    base_error err;
    size_t stride;
    const uint8_t *gray = gray_of(sh, frame, &stride);
    int factor = watch_motion_factor(frame->width, MOTION_WIDTH);
    base_image *small = gray ? watch_motion_shrink(gray, frame->width, frame->height, stride, factor, &err) : NULL;
    sh->n_faded = 0;
    if (!small)
        return;
    if (!c->moving || !sh->still) {
        if (!c->moving) {
            base_image_free(sh->still);
            sh->still = small;
            return;
        }
        base_image_free(small);
        return;
    }
    const rules_snapshot *s = c->table ? c->table : c->after;
    const int bw = small->width / WATCH_MOTION_BLOCK, bh = small->height / WATCH_MOTION_BLOCK;
    uint8_t *mask = bw > 0 && bh > 0 ? calloc((size_t)bw * bh, 1) : NULL;
    if (s && mask && small->width == sh->still->width && small->height == sh->still->height &&
        watch_motion_moving_blocks(small, sh->still, MOTION_LEVEL, mask) > 0) {
        ov_map map;
        ov_map_init_camera_sized(&map, &sh->calib, frame->width, frame->height);
        const double per_block = (double)factor * WATCH_MOTION_BLOCK;
        for (size_t u = 0; u < s->n_units; u++) {
            bool touched = false;
            for (size_t m = 0; m < s->units[u].n_models && !touched; m++) {
                double px[2];
                if (ov_map_point(&map, s->units[u].models[m].pos, px))
                    touched = changed_near(mask, bw, bh, (int)(px[0] / per_block), (int)(px[1] / per_block));
            }
            if (touched && add_faded(sh, s->units[u].id) < 0)
                break;
        }
    }
    free(mask);
    base_image_free(small);
}

static unsigned long faded_hash(const watch_show *sh)
{
    unsigned long h = 5381;
    for (size_t i = 0; i < sh->n_faded; i++)
        for (const char *p = sh->faded[i]; *p; p++)
            h = h * 33 + (unsigned char)*p;
    return h * 31 + sh->n_faded;
}

/* ---- the camera's layer ---- */

/* The annotation layer at w x h over black and over white (see the header). */
static int draw_layer(watch_show *sh, int w, int h, const watch_show_content *c, base_error *err)
{
    const size_t n = (size_t)w * h * 3;
    uint8_t *black = calloc(n, 1), *white = malloc(n);
    uint8_t *keep = realloc(sh->layer_keep, (size_t)w * h);
    if (keep)
        sh->layer_keep = keep;
    if (!black || !white || !keep) {
        free(black);
        free(white);
        return base_error_set(err, "out of memory");
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
static void composite(const watch_show *sh, const base_image *f, base_image *out)
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

/* What the layer shows: the content's generation and the units fading now. */
static unsigned long content_key(const watch_show *sh, const watch_show_content *c)
{
    return (unsigned long)c->generation * 1000003ul + sh->faded_hash + sh->reach_generation * 7919ul;
}
#endif

void watch_show_follow(watch_show *sh, const base_image *frame, const watch_show_content *c)
{
#if TABLEREF_HAVE_OVERLAY
    collect_sides(sh, c->roster);
    update_faded(sh, frame, c);
    sh->faded_hash = faded_hash(sh);
#else
    (void)sh;
    (void)frame;
    (void)c;
#endif
}

const base_image *watch_show_camera(watch_show *sh, const base_image *frame, const watch_show_content *c)
{
#if TABLEREF_HAVE_OVERLAY
    const int w = frame->width, h = frame->height;
    if (!sh->annotated || sh->annotated->width != w || sh->annotated->height != h) {
        base_image_free(sh->annotated);
        if (!(sh->annotated = base_image_new(w, h, 3, 0)))
            return frame;
    }
    watch_show_follow(sh, frame, c);
    unsigned long key = content_key(sh, c);
    if (!sh->camera_failed && (!sh->layer_drawn || key != sh->layer_key || sh->layer_w != w || sh->layer_h != h)) {
        base_error err;
        if (draw_layer(sh, w, h, c, &err) < 0) {
            /* Never show a stale call: record the frames plain from now on. */
            fail(sh, &sh->camera_failed, "overlay", err.msg);
            free(sh->layer);
            sh->layer = NULL;
        }
        sh->layer_key = key;
        sh->layer_drawn = true;
    }
    composite(sh, frame, sh->annotated);
    return sh->annotated;
#else
    (void)sh;
    (void)c;
    return frame;
#endif
}

#if TABLEREF_HAVE_OVERLAY
/* The projector never lights a label: every label of the table as last seen and every board tag (the
 * referee's rule: ov_target_keep_labels_dark), remade whenever the content changes. */
static int set_keepout(watch_show *sh, const watch_show_content *c, base_error *err)
{
    const rules_snapshot *seen = c->after ? c->after : c->table;
    if (!c->roster || !seen)
        return 0; /* nothing placed yet: nothing drawn on a unit either */
    base_label *labels = NULL;
    size_t n = 0;
    int rc = ref_labels_of(c->roster, seen, &labels, &n, err);
    if (rc == 0)
        rc = ov_target_keep_labels_dark(sh->proj_ov, &sh->calib.projector, labels, n, err);
    free(labels);
    return rc;
}
#endif

const base_image *watch_show_projector(watch_show *sh, const base_image *camera, const watch_show_content *c)
{
#if TABLEREF_HAVE_OVERLAY
    const calib_projector *p = &sh->calib.projector;
    if (!p->present || sh->projector_failed)
        return camera;
    base_error err;
    if (!sh->proj_ov) {
        sh->proj_ov = ov_target_new_projector(p->H, p->width, p->height, &err);
        if (sh->proj_ov && p->position_present) /* a label on a hill is lit along the projector's ray */
            ov_target_set_light_source(sh->proj_ov, p->position_mm);
        sh->proj_image = sh->proj_ov ? base_image_new(p->width, p->height, 3, 0) : NULL;
        if (!sh->proj_ov || !sh->proj_image) {
            fail(sh, &sh->projector_failed, "projector picture", sh->proj_ov ? "out of memory" : err.msg);
            return camera;
        }
    }
    /* The units fading are the camera's (watch_show_camera or watch_show_follow runs first on the same frame). */
    collect_sides(sh, c->roster);
    unsigned long key = content_key(sh, c);
    if (!sh->proj_drawn || key != sh->proj_key) {
        memset(sh->proj_image->data, 0, (size_t)sh->proj_image->stride * sh->proj_image->height);
        int rc = ov_target_set_background(sh->proj_ov, sh->proj_image->data, OV_PIX_BGR24, sh->proj_image->stride,
                                          &err);
        if (rc == 0)
            rc = set_keepout(sh, c, &err);
        if (rc == 0)
            rc = draw_content(sh, sh->proj_ov, c, &err);
        if (rc == 0)
            rc = ov_target_copy_pixels(sh->proj_ov, sh->proj_image->data, OV_PIX_BGR24, sh->proj_image->stride, &err);
        if (rc < 0) {
            fail(sh, &sh->projector_failed, "projector picture", err.msg);
            return camera;
        }
        sh->proj_key = key;
        sh->proj_drawn = true;
    }
    return sh->proj_image;
#else
    (void)sh;
    (void)c;
    return camera;
#endif
}
