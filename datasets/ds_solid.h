/*
 * ds_solid: miniatures, hands and arms as 3D shapes for the renderer.
 *
 * Every shape is a convex solid (a tapered capsule, an ellipsoid or a disc),
 * drawn as the convex hull of its projected surface points: the exact
 * silhouette a camera sees, whatever the angle. A miniature seen off-axis
 * from a tilted camera therefore covers its neighbours' tags exactly as far
 * as its height, lean and weapons reach; the masks record it (ds_canvas.h).
 *
 * How to use (inside datasets/):
 *   ds_solid s[DS_FIGURE_MAX_SOLIDS];
 *   int n = ds_figure_solids(&fig, s, DS_FIGURE_MAX_SOLIDS);
 *   ds_solids_shadow(canvas, s, n, lamp, 0.8);          // optional, before any figure is drawn
 *   ds_solids_draw(canvas, s, n, DS_OCC_FIGURE, lamp);
 * Figures are drawn far ones first (painter's order); within a figure the
 * solids are sorted the same way.
 */
#ifndef DS_SOLID_H
#define DS_SOLID_H

#include "ds_canvas.h"

typedef enum ds_solid_kind { DS_SOLID_CAPSULE, DS_SOLID_ELLIPSOID, DS_SOLID_DISC } ds_solid_kind;

typedef struct ds_solid {
    ds_solid_kind kind;
    double a[3], b[3];        /* capsule: the two end centres; ellipsoid, disc: a = centre */
    double ra, rb;            /* capsule: radii at a and b; disc: radius (ra) and thickness (rb) */
    double u[3], v[3], w[3];  /* ellipsoid: semi-axes; disc: w = unit normal */
    cvs_colour colour;
    double shine;             /* highlight strength, 0 (cloth) .. 1 (metal) */
} ds_solid;

enum { DS_FIGURE_MAX_SOLIDS = 32, DS_HAND_MAX_SOLIDS = 12 };

/* A monster is an ogre (a man of bulk ~1.8); a beast a creature on four legs sized to its base. */
typedef enum ds_figure_kind { DS_FIG_INFANTRY, DS_FIG_CAVALRY, DS_FIG_MONSTER, DS_FIG_BEAST } ds_figure_kind;
typedef enum ds_weapon {
    DS_WEAPON_NONE, DS_WEAPON_SPEAR, DS_WEAPON_SWORD_SHIELD, DS_WEAPON_HALBERD, DS_WEAPON_BANNER, DS_WEAPON_CLUB
} ds_weapon;

typedef struct ds_figure {
    double foot[3];           /* where it stands: base top, board mm */
    double facing;            /* rad */
    double height;            /* mm, feet to the top of the head (a rider's head on a horse) */
    double lean, lean_dir;    /* rad: the whole figure tilted from vertical, towards lean_dir (board) */
    double bulk;              /* width scale: 1 a man, ~1.8 an ogre */
    double stride;            /* -1..1: which foot is forward, how far */
    ds_figure_kind kind;
    ds_weapon weapon;
    double weapon_elev;       /* rad above horizontal of a spear or a lance */
    int cloak;                /* 1 a cloak down the back; 2 one that flares out over the base behind */
    double shield_tilt;       /* rad: a shield's face turned up from vertical (held out, seen from above) */
    double footing_r;         /* mm: the figure's own round base (cast or sculpted ground) under its feet; 0 none */
    double length, width;     /* a beast's base, mm (DS_FIG_BEAST) */
    int wings;                /* a beast's wings spread over its base */
    cvs_colour skin, cloth, cloth2, metal, wood, coat, ground;  /* coat: a horse's or a beast's; ground: footing */
} ds_figure;

typedef struct ds_hand {
    double palm[3];           /* palm centre, board mm */
    double dir;               /* rad: where the fingers point, on the board */
    double shoulder[3];       /* where the arm comes from: the player beyond the board's edge */
    double curl;              /* 0 flat .. 1 fingers bent down, grabbing */
    double scale;             /* hand size, ~0.9 .. 1.15 */
    cvs_colour skin, sleeve;
} ds_hand;

/* Fills out (at most cap) with the figure's solids, board frame; returns how many. */
int ds_figure_solids(const ds_figure *f, ds_solid *out, int cap);
/* Fills out with the hand's, forearm's and upper arm's solids; returns how many. */
int ds_hand_solids(const ds_hand *h, ds_solid *out, int cap);

/* Draws the solids far-first (reorders them), shaded from `lamp` (board mm); paints `occ`'s mask. */
int ds_solids_draw(ds_canvas *c, ds_solid *s, int n, ds_occluder occ, const double lamp[3]);
/*
 * Their soft shadow on the board (z = 0) from a lamp of `lamp_size_mm`:
 * the canvas is multiplied by `factor` (0..1, in coded values) under them.
 */
int ds_solids_shadow(ds_canvas *c, const ds_solid *s, int n, const double lamp[3], double lamp_size_mm,
                     double factor);

#endif
