/*
 * vis_patch (see the header). A patch is GRID x GRID samples over the
 * tag's label (the black square and a little of its white border: 1.2 tag
 * sizes across, inside the 1.25 of the label), at the pixel places the
 * model's pose projects them to; the places are kept, so a later frame is
 * sampled at exactly the same points.
 *
 * Where a tag lies now: the correlation at the pose, and the best place of
 * a search 3 mm and 6 degrees about it. Measured on the hard set's 4K
 * webcam table (hard table 5: ~0.6 mm/px, 20-27 px tags, sensor noise,
 * MJPEG; tests/test_watch_patch.c, a 1600x1000 crop, 72 tags), a new frame
 * of the same table: at the pose 0.916 to 0.994, best place 0 to 0.7 mm
 * away; every tag moved 1 mm: at the pose 0.585 to 0.897, best 0.7 to 1.6 mm
 * away; moved 2 mm: 0.131 to 0.883, best 1.8 to 2.2 mm away (a big tag's
 * cells are big: the correlation alone does not tell 2 mm); the
 * neighbour's tag in its place: 0.460 to 0.725; the board where it stood:
 * under 0.17. Hence 0.85 at the pose and the best place within 1 mm (half
 * the watch's 2 mm jitter) and 2 degrees.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_sample.h"
#include "vis_patch.h"

enum { GRID = 16, POINTS = GRID * GRID };

/* The search for where the tag lies now: steps of 0.5 mm up to 3 mm each way, turns of 2 degrees up to 6. */
#define SEARCH_STEP_MM 0.5
#define SEARCH_STEPS 6
#define SEARCH_TURN_DEG 2.0
#define SEARCH_TURNS 3

/* The label's half-width sampled, in tag sizes (the label is 1.25 across: the square and a cell of border). */
#define HALF_SPAN 0.6

typedef struct patch {
    bool has;
    base_vec2 pos;
    double facing;
    double px_per_mm;     /* along the tag, in the picture */
    float px[POINTS][2];  /* where the samples were taken (full-frame px) */
    float value[POINTS];  /* grey 0..255 */
} patch;

struct vis_patches {
    size_t n;
    patch *p; /* by roster model index */
};

/* The sample places of model `m`'s tag at pose (pos, facing); false when a place falls outside the picture. */
static bool place_samples(const roster_map *r, const vis_camera *cam, const vis_relief *relief, size_t m,
                          base_vec2 pos, double facing, const base_view *gray, patch *out)
{
    const roster_tag_mount *mt = &r->units[r->models[m].unit].mount;
    const double z = vis_relief_tag_z(relief, mt, pos);
    const double c = cos(facing), s = sin(facing);
    const base_vec2 centre = {pos.x + c * mt->offset.x - s * mt->offset.y, pos.y + s * mt->offset.x + c * mt->offset.y};
    const double h = facing + mt->rotation;
    const base_vec2 u = {cos(h), sin(h)}, v = {-sin(h), cos(h)};
    const double step = 2 * HALF_SPAN * mt->size / (GRID - 1);
    for (int j = 0; j < GRID; j++)
        for (int i = 0; i < GRID; i++) {
            const double a = -HALF_SPAN * mt->size + i * step, b = -HALF_SPAN * mt->size + j * step;
            const double X[3] = {centre.x + a * u.x + b * v.x, centre.y + a * u.y + b * v.y, z};
            double px[2];
            if (!vis_camera_project(cam, X, px) || px[0] < 0 || px[1] < 0 || px[0] > gray->width - 1 ||
                px[1] > gray->height - 1)
                return false;
            out->px[j * GRID + i][0] = (float)px[0];
            out->px[j * GRID + i][1] = (float)px[1];
        }
    out->px_per_mm = hypot(out->px[GRID - 1][0] - out->px[0][0], out->px[GRID - 1][1] - out->px[0][1]) /
                     (2 * HALF_SPAN * mt->size);
    return true;
}

/* The patch's places turned by `turn` (rad) about their centre and shifted by (dx, dy) px, sampled in `gray`. */
static void sample_moved(const base_view *gray, const patch *p, double dx, double dy, double turn, float out[POINTS])
{
    double cx = 0, cy = 0;
    for (int k = 0; k < POINTS; k++)
        cx += p->px[k][0], cy += p->px[k][1];
    cx /= POINTS, cy /= POINTS;
    const double c = cos(turn), s = sin(turn);
    for (int k = 0; k < POINTS; k++) {
        const double x = p->px[k][0] - cx, y = p->px[k][1] - cy;
        out[k] = (float)vis_sample_bilinear(gray, cx + c * x - s * y + dx, cy + s * x + c * y + dy);
    }
}

static void sample(const base_view *gray, const patch *p, float out[POINTS])
{
    for (int k = 0; k < POINTS; k++)
        out[k] = (float)vis_sample_bilinear(gray, p->px[k][0], p->px[k][1]);
}

/* Zero-mean normalised correlation; NAN when `a` has no contrast (under 4 grey levels' spread). */
static double correlation(const float a[POINTS], const float b[POINTS])
{
    double ma = 0, mb = 0;
    for (int k = 0; k < POINTS; k++)
        ma += a[k], mb += b[k];
    ma /= POINTS, mb /= POINTS;
    double saa = 0, sbb = 0, sab = 0;
    for (int k = 0; k < POINTS; k++) {
        const double x = a[k] - ma, y = b[k] - mb;
        saa += x * x, sbb += y * y, sab += x * y;
    }
    if (saa < 16.0 * POINTS)
        return NAN;
    return sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

vis_patches *vis_patches_take(const roster_map *r, const vis_camera *cam, const vis_relief *relief,
                              const rules_snapshot *s, const base_view *gray, const vis_patches *keep)
{
    vis_patches *w = calloc(1, sizeof *w);
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
        p->has = place_samples(r, cam, relief, m, sm->pos, sm->facing, gray, p);
        if (!p->has)
            continue;
        p->pos = sm->pos, p->facing = sm->facing;
        sample(gray, p, p->value);
    }
    return w;
}

double vis_patches_match(const vis_patches *w, size_t model, const base_view *gray)
{
    if (!w || model >= w->n || !w->p[model].has)
        return NAN;
    float now[POINTS];
    sample(gray, &w->p[model], now);
    return correlation(w->p[model].value, now);
}

bool vis_patches_still(const vis_patches *w, size_t model, const base_view *gray, vis_patch_fit *fit)
{
    *fit = (vis_patch_fit){NAN, NAN, 0, 0};
    if (!w || model >= w->n || !w->p[model].has)
        return false;
    const patch *p = &w->p[model];
    float now[POINTS];
    fit->at_pose = vis_patches_match(w, model, gray);
    fit->best = -2;
    if (isnan(fit->at_pose))
        return false;
    /* The best of the tag moved up to SEARCH_MM each way and turned up to SEARCH_DEG: is it where it was? */
    const double step = SEARCH_STEP_MM * p->px_per_mm;
    for (int t = -SEARCH_TURNS; t <= SEARCH_TURNS; t++)
        for (int j = -SEARCH_STEPS; j <= SEARCH_STEPS; j++)
            for (int i = -SEARCH_STEPS; i <= SEARCH_STEPS; i++) {
                const double turn = t * base_deg_to_rad(SEARCH_TURN_DEG);
                sample_moved(gray, p, i * step, j * step, turn, now);
                const double c = correlation(p->value, now);
                if (c > fit->best)
                    fit->best = c, fit->shift_mm = hypot(i, j) * SEARCH_STEP_MM, fit->turn_rad = turn;
            }
    return fit->at_pose >= VIS_PATCH_SAME && fit->shift_mm <= VIS_PATCH_SHIFT_MM &&
           fabs(fit->turn_rad) <= base_deg_to_rad(VIS_PATCH_TURN_DEG);
}

bool vis_patches_pose(const vis_patches *w, size_t model, base_vec2 *pos, double *facing)
{
    if (!w || model >= w->n || !w->p[model].has)
        return false;
    *pos = w->p[model].pos, *facing = w->p[model].facing;
    return true;
}

void vis_patches_free(vis_patches *w)
{
    if (!w)
        return;
    free(w->p);
    free(w);
}
