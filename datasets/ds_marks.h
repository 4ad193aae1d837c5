/*
 * ds_marks: a rim label (roster/roster_mark.h) drawn on its base and its
 * truth measured, for ds_render. Everything comes from the roster: the
 * label's cells from the base's size and the mount's cell, each code
 * cell's colour from the tag36h11 bitmap of the model's tag ID. The inside
 * of the label (the figure's place) shows the base top's own colour.
 * Internal to datasets/.
 *
 * And masts (roster.h, roster_unit_mark): a square tag, white border
 * included, held flat at its height above the surface its carrier's base
 * stands on by a thin clear rod from the base, drawn in perspective over
 * the figures (ds_figures.c draws them after its level's figures), its rod
 * leaning it a random 0..sway off its declared place (seeded by the render's
 * seed and the tag id). Both hide what lies below them (the figure mask).
 * The truth is not theirs: the models' base centres stay the truth.
 *
 * How to use (ds_render.c, among the flat things, before the figures):
 *   ds_rim_mark mk = {.tag_id = 17, .centre = c, .facing = f, .width = 20, .depth = 20, .cell = 2, .z = 4,
 *                     .ground = base_colour};
 *   if (ds_marks_draw_rim(&canvas, fam, &mk) < 0) ... canvas.err says why
 *   ... figures and hands drawn ...
 *   ds_marks_truth_rim(&canvas, &mk, width, height, &truth_tag);
 *   ds_mast_mark mast = {.tag_id = 600, .base_centre = c, .facing = f, .ground = 0, .base_top = 4,
 *                        .mount = roster_mast, .sway = 1, .seed = p->seed};
 *   ds_marks_draw_mast(&canvas, fam, &mast);                       // after the figures
 */
#ifndef DS_MARKS_H
#define DS_MARKS_H

#include <apriltag/apriltag.h>

#include "ds_canvas.h"
#include "ds_truth.h"

typedef struct ds_rim_mark {
    int tag_id;
    base_vec2 centre;        /* the label's centre (the base's), board mm */
    double facing;           /* rad: the label's front (the model's facing) */
    double width, depth;     /* the base, mm */
    double cell;             /* mm */
    double z;                /* the label's height above the board, mm */
    cvs_colour ground;       /* the base top's colour, shown inside the label */
} ds_rim_mark;

/* The 6 x 6 printed data cells (row 0 the top, 1 white) of tag36h11 code `id`; false when it has none. */
bool ds_marks_data(apriltag_family_t *fam, int id, unsigned char data[36]);

/* A mast where it stands: its carrier's base centre and facing, the surface under the base, the mount. */
typedef struct ds_mast_mark {
    int tag_id;
    base_vec2 base_centre;   /* board mm */
    double facing;           /* rad: the carrier's */
    double ground;           /* the surface under the base, mm */
    double base_top;         /* the base's top above that surface, mm (where the rod stands) */
    roster_tag_mount mount;  /* the mast's: offset, rotation, height above `ground`, size */
    double sway;             /* mm */
    uint64_t seed;           /* the render's seed */
} ds_mast_mark;

/* Where the rod holds the tag: its centre (the declared place moved by the lean) and heading, board mm and rad. */
void ds_marks_mast_place(const ds_mast_mark *mk, base_vec2 *centre, double *heading);
/* The roster's mast k (roster->marks[k]) where its carrier stands on `snap`, leaning as a render of `seed` leans it;
 * false when the carrier is not on the table. */
bool ds_marks_mast_on(const rules_snapshot *snap, const roster_file *roster, size_t k, uint64_t seed,
                      ds_mast_mark *out);
/* Its printed tag (white border included: `printed_side` mm a side) where the rod holds it: corners, board mm, at
 * the height *z (mm above the board). */
void ds_marks_mast_card(const ds_mast_mark *mk, double printed_side, base_vec2 corners[4], double *z);
/* Draws the mast (rod, then tag) into the canvas, into the figure mask too. -1 with c->err set. */
int ds_marks_draw_mast(ds_canvas *c, apriltag_family_t *fam, const ds_mast_mark *mk);

/* Draws the label into the canvas (3 channels real style, 1 classic). -1 with c->err set. */
int ds_marks_draw_rim(ds_canvas *c, apriltag_family_t *fam, const ds_rim_mark *mk);

/*
 * The label's truth: its outer corners (px, apriltag's order with "up" the
 * front), its centre, edge_px the cell's side in pixels, and the share of
 * its printed band (rings 0 and 1) hidden, by what (the masks as they are
 * now: call it after the figures and hands are drawn).
 */
void ds_marks_truth_rim(ds_canvas *c, const ds_rim_mark *mk, int width, int height, ds_truth_tag *tt);

/* The share of a base's top (w x d at `z`, centre and facing) its figure and the hands hide, from the masks. */
double ds_marks_base_covered(ds_canvas *c, base_vec2 centre, double facing, double w, double d, double z);

#endif
