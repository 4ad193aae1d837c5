/*
 * ds_render: a synthetic overhead photo of a table, with its exact truth.
 *
 * The picture is made the way a camera would see it: every flat thing (the
 * board, terrain, bases, printed tags at their own height) is drawn into an
 * ideal pinhole picture by the exact homography of its plane, supersampled;
 * miniatures, spears, banners and hands are projected 3D shapes drawn on
 * top; then the lens distortion is applied per pixel (inverse mapping with
 * Newton-undistorted rays), then light, defocus, noise and JPEG. Tag corners
 * in the truth are the same 3D points pushed through the same camera model,
 * so the truth is exact up to the rasteriser's 1/32 px sampling grid.
 *
 * How to use:
 *   ds_render_params p; ds_render_params_default(&p);
 *   cvs_image *img = NULL; ds_truth truth = {0};
 *   if (ds_render(snapshot, roster, &calib, &p, &img, &truth, &err) < 0) ...
 *   cJSON *j = ds_truth_to_json(&truth, snapshot, roster);
 *   ds_truth_clear(&truth); cvs_image_free(img);
 * The same parameters and seed give the same picture.
 */
#ifndef DS_RENDER_H
#define DS_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "calib_file.h"
#include "cvshim.h"
#include "rules_error.h"
#include "rules_snapshot.h"
#include "vis_roster.h"

typedef struct ds_render_params {
    uint32_t seed;
    int supersample;          /* sub-pixels per pixel side (2: good edges, 4x the work of 1) */
    int textures;             /* wood/cloth-like board texture, bases with grain */
    int figures;              /* miniatures standing on the bases */
    double figure_min_mm, figure_max_mm;  /* figure height range (25..35) */
    double figure_radius_mm;  /* body radius (6) */
    double figure_back_mm;    /* figure stands this far behind the base centre (11) */
    double spear_fraction;    /* share of figures with a spear leaning forward over neighbours */
    double banner_fraction;   /* share with a banner */
    int hands;                /* hands over the table */
    cvs_effects effects;      /* light, vignetting, blur, noise, JPEG */
} ds_render_params;

void ds_render_params_default(ds_render_params *p);

typedef struct ds_truth_tag {
    int id;
    long model;               /* index into roster->models, -1 for a board tag */
    double corners[4][2];     /* px (OpenCV convention), apriltag's corner order */
    double centre[2];         /* px */
    double occluded;          /* fraction of the black square hidden by figures/hands */
    double border_occluded;   /* the same for the whole printed tag, white border included */
    int inside;               /* all corners at least 2 px inside the frame */
    int fully_visible;        /* inside and nothing of the printed tag (white border too) hidden */
} ds_truth_tag;

typedef struct ds_truth {
    ds_truth_tag *tags;
    size_t n_tags;
    int width, height;
} ds_truth;

/*
 * Renders `truth_snap` (model positions; each model must be in the roster by
 * id) through `cam`. *out_image and *truth are the caller's. Returns 0 or -1.
 */
int ds_render(const rules_snapshot *truth_snap, const vis_roster *roster, const calib_file *cam,
              const ds_render_params *p, cvs_image **out_image, ds_truth *truth, rules_error *err);
void ds_truth_clear(ds_truth *t);

/* Ground truth JSON ("tableref.truth" v1, docs/formats.md). Caller frees. */
cJSON *ds_truth_to_json(const ds_truth *t, const rules_snapshot *snap, const vis_roster *roster,
                        const calib_file *cam, const char *image_name);

/* Tag bitmap corners, tag-local, in apriltag's order: (a, b) with a right and b up, in half-sizes. */
extern const double ds_tag_corner_local[4][2];

#endif
