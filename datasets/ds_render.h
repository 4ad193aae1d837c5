/*
 * ds_render: a synthetic overhead photo of a table, with its exact truth.
 *
 * The picture is made the way a camera would see it: every flat thing (the
 * board, terrain, bases, printed tags with their white border, at their own
 * height) is drawn into an ideal pinhole picture by the exact homography of
 * its plane, supersampled; miniatures and hands are projected 3D shapes
 * drawn on top (far ones first); then the lens distortion is applied per
 * pixel (inverse mapping with Newton-undistorted rays); then the camera.
 * Tag corners in the truth are the same 3D points pushed through the same
 * camera model, so the truth is exact up to the rasteriser's 1/32 px grid.
 *
 * Two styles:
 *  - DS_STYLE_CLASSIC (the default; the normal scene set): a gray scene,
 *    figures as stacked discs with spears and banners, flat hands, then
 *    light, blur, noise and JPEG on the gray picture.
 *  - DS_STYLE_REAL (the hard set, datasets/ds_hard.h): a colour scene;
 *    figures as 3D men, riders and ogres with shields, spears, halberds and
 *    banners, leaning, seen off-axis over their neighbours' tags; hands with
 *    their arms reaching in from the player's edge of the board; soft
 *    shadows; then the camera's own chain (cvshim.h, "sensor"): RGGB
 *    mosaic, shot and read noise, demosaicing, white balance, sRGB gamma,
 *    sharpening, JPEG with 4:2:0 chroma. The gray picture is the JPEG's
 *    luma, what `tableref detect` reads from the written file.
 *
 * How to use:
 *   ds_render_params p; ds_render_params_default(&p);
 *   base_image *img = NULL; ds_truth truth = {0};
 *   if (ds_render(snapshot, roster, &calib, &p, &img, &truth, &err) < 0) ...
 *   cJSON *j = ds_truth_to_json(&truth, snapshot, roster, &calib, "image.jpg");
 *   ds_truth_clear(&truth); base_image_free(img);
 * The same parameters and seed give the same picture. A sequence of frames
 * of one still table: ds_render_optics once, then ds_render_capture per
 * frame with a new frame seed (new sensor noise, same light).
 */
#ifndef DS_RENDER_H
#define DS_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "calib_file.h"
#include "cvshim.h"
#include "base_error.h"
#include "rules_snapshot.h"
#include "vis_roster.h"

typedef enum ds_style { DS_STYLE_CLASSIC = 0, DS_STYLE_REAL = 1 } ds_style;

enum { DS_MAX_HANDS = 10 };

/* A hand put where a test wants it (real style). */
typedef struct ds_hand_place {
    double x, y;          /* palm centre, board mm */
    double height;        /* palm centre above the board, mm */
    double curl;          /* 0 flat .. 1 grabbing */
} ds_hand_place;

typedef struct ds_render_params {
    uint32_t seed;
    ds_style style;
    int supersample;          /* sub-pixels per pixel side (2: good edges, 4x the work of 1) */
    int textures;             /* wood/cloth-like board texture, bases with grain */
    int figures;              /* miniatures standing on the bases */
    double figure_min_mm, figure_max_mm;  /* figure height range (25..35) */
    double figure_radius_mm;  /* classic: body radius (6) */
    double figure_back_mm;    /* classic: figure stands this far behind the base centre (11) */
    double spear_fraction;    /* classic: share of figures with a spear leaning forward over neighbours */
    double banner_fraction;   /* classic: share with a banner */
    double figure_lean_max_deg; /* real: posed figures lean up to this far from vertical (12) */
    int weapons;              /* real: figures carry spears, shields, halberds, banners (1) */
    int figures_one_colour;   /* real, tests: every figure magenta (shaded), told apart from any tag pixel (0) */
    int hands;                /* hands over the table (at random places unless hand_at is given) */
    ds_hand_place hand_at[DS_MAX_HANDS];  /* real: when n_hand_at > 0, hands here instead */
    int n_hand_at;
    uint32_t frame_seed;      /* real: this frame's hands and sensor noise (0: from seed) */
    int shadows;              /* real: soft shadows of figures and hands from the lamp */
    double lamp[3];           /* real: the lamp over the table, board mm */
    int palette;              /* real: board 0 grass mat, 1 desert, 2 grey */
    cvs_effects effects;      /* classic: light, vignetting, blur, noise; both: JPEG quality */
    double auto_exposure;     /* real: > 0, the camera meters each frame and sets sensor.exposure so the
                                 frame's mean 8-bit luma (after the gamma curve, before sharpening) lands
                                 here, as a webcam's auto exposure does (~115); 0: sensor.exposure as given */
    cvs_sensor sensor;        /* real: optics, sensor and image processor (seed from frame_seed);
                                 both styles: sensor.light, light_ratio, light_black are the projector's light
                                 (ds_light.h; the classic camera clips at white) */
} ds_render_params;

void ds_render_params_default(ds_render_params *p);

typedef struct ds_truth_tag {
    int id;
    long model;               /* index into roster->models, -1 for a board tag */
    double corners[4][2];     /* px (OpenCV convention), apriltag's corner order */
    double centre[2];         /* px */
    double edge_px;           /* mean side of the black square, px */
    double occluded;          /* fraction of the black square hidden (by anything) */
    double occluded_figure;   /* ... by figures, their weapons and banners (its own figure included) */
    double occluded_hand;     /* ... by hands and arms */
    double border_occluded;   /* fraction of the whole printed tag, white border included, hidden */
    int inside;               /* all corners at least 2 px inside the frame */
    int fully_visible;        /* inside and nothing of the printed tag (white border too) hidden */
} ds_truth_tag;

/* Share of a tag's black square that can be seen (0 when it is not inside the frame). */
double ds_truth_tag_visible(const ds_truth_tag *t);

typedef struct ds_truth_model {
    size_t unit, model;       /* indices into the snapshot rendered */
    long roster_model;        /* index into roster->models */
    long tag;                 /* index into the truth's tags, -1 when none */
    int hand_hidden;          /* a hand or an arm hides some of its tag's black square */
} ds_truth_model;

typedef struct ds_truth {
    ds_truth_tag *tags;
    size_t n_tags;
    ds_truth_model *models;   /* every model of the snapshot, in its order */
    size_t n_models;
    int width, height;
} ds_truth;

/*
 * Renders `truth_snap` (model positions; each model must be in the roster by
 * id) through `cam`: the camera's gray picture. *out_image and *truth are the
 * caller's. Returns 0 or -1.
 */
int ds_render(const rules_snapshot *truth_snap, const vis_roster *roster, const calib_file *cam,
              const ds_render_params *p, base_image **out_image, ds_truth *truth, base_error *err);
/* The same, and for the real style the colour picture too (*out_colour NULL for the classic style). */
int ds_render_colour(const rules_snapshot *truth_snap, const vis_roster *roster, const calib_file *cam,
                     const ds_render_params *p, base_image **out_gray, base_image **out_colour, ds_truth *truth,
                     base_error *err);
/* The light reaching the sensor (1 channel classic, 3 real) and the truth, which no camera step changes. */
int ds_render_optics(const rules_snapshot *truth_snap, const vis_roster *roster, const calib_file *cam,
                     const ds_render_params *p, base_image **out_optics, ds_truth *truth, base_error *err);
/* The camera's picture of `optics` for frame seed `frame_seed`; *out_colour may be NULL (not wanted). */
int ds_render_capture(const base_image *optics, const ds_render_params *p, uint32_t frame_seed,
                      base_image **out_gray, base_image **out_colour, base_error *err);
/*
 * What the projector lights (ds_light.h): each camera pixel's surface height, base tops at their height
 * in DS_LIGHT_HEIGHT_STEP_MM steps, the board 0 (1 channel, the camera's size). Caller frees.
 */
int ds_render_heights(const rules_snapshot *truth_snap, const vis_roster *roster, const calib_file *cam,
                      base_image **out_heights, base_error *err);
void ds_truth_clear(ds_truth *t);

/* Ground truth JSON ("tableref.truth" v2, docs/formats.md). Caller frees. */
cJSON *ds_truth_to_json(const ds_truth *t, const rules_snapshot *snap, const vis_roster *roster,
                        const calib_file *cam, const char *image_name);

/* Tag bitmap corners, tag-local, in apriltag's order: (a, b) with a right and b up, in half-sizes. */
extern const double ds_tag_corner_local[4][2];

#endif
