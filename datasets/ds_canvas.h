/*
 * ds_canvas: the ideal (distortion-free, supersampled) picture the renderer
 * draws into, shared by ds_render.c and ds_solid.c. Internal to datasets/.
 *
 * Every board point (mm, z up) maps to the canvas through the calibrated
 * camera without its lens distortion; ds_render applies the distortion when
 * it turns the canvas into the camera's frame. Two masks of the canvas's
 * size record what hides what lies below: figures (and their weapons,
 * banners) and hands (with their arms). The truth's occlusion figures are
 * measured on them.
 *
 * How to use (inside datasets/): ds_render.c makes one canvas per picture
 * (camera, ideal K, the picture and both masks), ds_solid.c and
 * ds_figures.c (ds_figures.h) draw into it through its camera, and
 * ds_render.c distorts it into the camera's frame and frees it. The helpers
 * below (ds_canvas.c) are what all three share: they stand beneath them, so
 * ds_render.c calls ds_figures.c, which calls ds_solid.c, and none calls
 * back up.
 */
#ifndef DS_CANVAS_H
#define DS_CANVAS_H

#include <stdint.h>

#include "cvshim.h"
#include "ds_render_params.h"
#include "base_error.h"
#include "rules_snapshot.h"
#include "vis_camera.h"
#include "roster.h"

typedef struct ds_canvas {
    vis_camera cam;
    double K[9];                /* ideal pinhole of the canvas (supersampled, padded) */
    base_image *img;             /* 1 channel (classic style) or 3 (BGR, real style) */
    base_image *mask_figure;     /* 255 where a figure hides what is below */
    base_image *mask_hand;       /* 255 where a hand or an arm does */
    base_error *err;
    double ground_mm;            /* the height shadows fall at (ds_solids_shadow): 0, a hill's top under a figure on it */
} ds_canvas;

/* What an occluder is, for the masks. */
typedef enum ds_occluder { DS_OCC_NONE = 0, DS_OCC_FIGURE = 1, DS_OCC_HAND = 2 } ds_occluder;

/* The mask an occluder of this kind paints, or NULL. */
static inline base_image *ds_canvas_mask(const ds_canvas *c, ds_occluder k)
{
    return k == DS_OCC_FIGURE ? c->mask_figure : k == DS_OCC_HAND ? c->mask_hand : NULL;
}

/* Canvas pixel of a board point; 0 when it is behind the camera. */
static inline int ds_canvas_point(const ds_canvas *c, const double X[3], double px[2])
{
    double xy[2];
    if (!vis_camera_project_normalised(&c->cam, X, xy))
        return 0;
    px[0] = c->K[0] * xy[0] + c->K[2];
    px[1] = c->K[4] * xy[1] + c->K[5];
    return 1;
}

/* splitmix64: small, seedable, the same everywhere.
 * DS_RND_ORDER: never two draws in one unsequenced expression (a function's arguments, an initializer list, the
 * operands of +): C leaves their order to the compiler, and GCC draws them right to left on x86-64, left to right
 * on aarch64: another table from the same seed. Such a pair is drawn into a local first, in the order x86-64
 * drew it, so that the tables drawn before stay the same (scripts/arm64-generate-hash.sh checks both machines). */
typedef struct ds_rng {
    uint64_t s;
} ds_rng;
static inline double ds_rnd(ds_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (z >> 11) * (1.0 / 9007199254740992.0);
}
static inline double ds_rnd_in(ds_rng *r, double a, double b) { return a + (b - a) * ds_rnd(r); }

/* The roster entry of a snapshot model, or NULL (ds_canvas.c). */
const roster_model *ds_roster_model(const roster_file *roster, const char *id);

/* Convex hull (monotone chain) of n canvas points (x, y pairs; sorted in place) into out; returns its size
 * (ds_canvas.c). */
int ds_canvas_hull(double *pts, int n, double *out);

#endif
