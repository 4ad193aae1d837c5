/*
 * ds_render_params: what ds_render draws and how (ds_render.h): the style,
 * the figures and hands, the light and the camera's chain. Its own header
 * so that the renderer's parts (ds_canvas.h, ds_figures.c, ds_solid.c) read
 * the parameters without standing on ds_render.h, which calls them.
 *
 * How to use: as ds_render.h says (it includes this header):
 *   ds_render_params p; ds_render_params_default(&p); p.style = DS_STYLE_REAL; ...
 */
#ifndef DS_RENDER_PARAMS_H
#define DS_RENDER_PARAMS_H

#include <stdint.h>

#include "cvshim.h"

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
    int miniatures;           /* real: figures stand as real miniatures do (ds_figures.h): in the middle of the
                                 base on a round footing, heroic in bulk, shields held out, cloaks flaring, riders
                                 along a cavalry base, beasts over most of theirs (0: behind the printed tag) */
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

#endif
