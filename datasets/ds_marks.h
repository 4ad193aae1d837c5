/*
 * ds_marks: a rim label (roster/roster_mark.h) drawn on its base and its
 * truth measured, for ds_render. Everything comes from the roster: the
 * label's cells from the base's size and the mount's cell, each code
 * cell's colour from the tag36h11 bitmap of the model's tag ID. The inside
 * of the label (the figure's place) shows the base top's own colour.
 * Internal to datasets/.
 *
 * How to use (ds_render.c, among the flat things, before the figures):
 *   ds_rim_mark mk = {.tag_id = 17, .centre = c, .facing = f, .width = 20, .depth = 20, .cell = 2, .z = 4,
 *                     .ground = base_colour};
 *   if (ds_marks_draw_rim(&canvas, fam, &mk) < 0) ... canvas.err says why
 *   ... figures and hands drawn ...
 *   ds_marks_truth_rim(&canvas, &mk, width, height, &truth_tag);
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
