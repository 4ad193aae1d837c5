/*
 * watch_patch (see the header). A patch is GRID x GRID samples over the
 * tag's label (the black square and a little of its white border: 1.2 tag
 * sizes across, inside the 1.25 of the label), at the pixel places the
 * model's pose projects them to; the places are kept, so a later frame is
 * sampled at exactly the same points.
 *
 * The threshold (WATCH_PATCH_SAME, 0.9), measured on the hard set's 4K
 * webcam table (hard table 5: ~0.6 mm/px, 20-27 px tags, sensor noise,
 * MJPEG) between two settles of its turn, lit and unlit: tags that stayed
 * correlate at 0.96 or more; moved by 1 mm, at most 0.8; an empty board or
 * a hand far lower. tests/test_watch_patch.c holds these cases.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_sample.h"
#include "watch_patch.h"

enum { GRID = 16, POINTS = GRID * GRID };

/* The label's half-width sampled, in tag sizes (the label is 1.25 across: the square and a cell of border). */
#define HALF_SPAN 0.6

typedef struct patch {
    bool has;
    base_vec2 pos;
    double facing;
    float px[POINTS][2];  /* where the samples were taken (full-frame px) */
    float value[POINTS];  /* grey 0..255 */
} patch;

struct watch_patches {
    size_t n;
    patch *p; /* by roster model index */
};

/* The sample places of model `m`'s tag at pose (pos, facing); false when a place falls outside the picture. */
static bool place_samples(const vis_roster *r, const vis_camera *cam, size_t m, base_vec2 pos, double facing,
                          const base_view *gray, patch *out)
{
    const vis_tag_mount *mt = &r->units[r->models[m].unit].mount;
    const double c = cos(facing), s = sin(facing);
    const base_vec2 centre = {pos.x + c * mt->offset.x - s * mt->offset.y, pos.y + s * mt->offset.x + c * mt->offset.y};
    const double h = facing + mt->rotation;
    const base_vec2 u = {cos(h), sin(h)}, v = {-sin(h), cos(h)};
    const double step = 2 * HALF_SPAN * mt->size / (GRID - 1);
    for (int j = 0; j < GRID; j++)
        for (int i = 0; i < GRID; i++) {
            const double a = -HALF_SPAN * mt->size + i * step, b = -HALF_SPAN * mt->size + j * step;
            const double X[3] = {centre.x + a * u.x + b * v.x, centre.y + a * u.y + b * v.y, mt->height};
            double px[2];
            if (!vis_camera_project(cam, X, px) || px[0] < 0 || px[1] < 0 || px[0] > gray->width - 1 ||
                px[1] > gray->height - 1)
                return false;
            out->px[j * GRID + i][0] = (float)px[0];
            out->px[j * GRID + i][1] = (float)px[1];
        }
    return true;
}

static void sample(const base_view *gray, const patch *p, float out[POINTS])
{
    for (int k = 0; k < POINTS; k++)
        out[k] = (float)vis_sample_bilinear(gray, p->px[k][0], p->px[k][1]);
}

watch_patches *watch_patches_take(const vis_roster *r, const vis_camera *cam, const rules_snapshot *s,
                                  const base_view *gray, const watch_patches *keep)
{
    watch_patches *w = calloc(1, sizeof *w);
    if (!w || !(w->p = calloc(r->n_models + 1, sizeof *w->p))) {
        free(w);
        return NULL;
    }
    w->n = r->n_models;
    if (keep && keep->n == w->n)
        memcpy(w->p, keep->p, w->n * sizeof *w->p);
    for (size_t m = 0; m < r->n_models; m++) {
        const rules_unit *un = rules_snapshot_find_unit(s, r->units[r->models[m].unit].id);
        const rules_model *sm = un ? rules_unit_find_model(un, r->models[m].id) : NULL;
        if (!sm || sm->inferred)
            continue;
        patch *p = &w->p[m];
        p->has = place_samples(r, cam, m, sm->pos, sm->facing, gray, p);
        if (!p->has)
            continue;
        p->pos = sm->pos, p->facing = sm->facing;
        sample(gray, p, p->value);
    }
    return w;
}

double watch_patches_match(const watch_patches *w, size_t model, const base_view *gray)
{
    if (!w || model >= w->n || !w->p[model].has)
        return NAN;
    const patch *p = &w->p[model];
    float now[POINTS];
    sample(gray, p, now);
    double ma = 0, mb = 0;
    for (int k = 0; k < POINTS; k++)
        ma += p->value[k], mb += now[k];
    ma /= POINTS, mb /= POINTS;
    double saa = 0, sbb = 0, sab = 0;
    for (int k = 0; k < POINTS; k++) {
        const double a = p->value[k] - ma, b = now[k] - mb;
        saa += a * a, sbb += b * b, sab += a * b;
    }
    /* A patch with no contrast (under 4 grey levels' spread) says nothing about which tag lies there. */
    if (saa < 16.0 * POINTS || sbb <= 0)
        return saa < 16.0 * POINTS ? NAN : 0;
    return sab / sqrt(saa * sbb);
}

bool watch_patches_pose(const watch_patches *w, size_t model, base_vec2 *pos, double *facing)
{
    if (!w || model >= w->n || !w->p[model].has)
        return false;
    *pos = w->p[model].pos, *facing = w->p[model].facing;
    return true;
}

void watch_patches_free(watch_patches *w)
{
    if (!w)
        return;
    free(w->p);
    free(w);
}
