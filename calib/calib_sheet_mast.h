/*
 * calib_sheet_mast: a mast's print on the tag sheet (docs/formats.md, "Marks
 * on the bases"). A mast is a square tag carried above the figures on a
 * clear rod standing on its model's base. It prints as a card and a rod
 * guide, side by side:
 *
 *   +---------+ |-   the rod guide: a bar exactly L mm long down the card's
 *   |  [tag]  | |    side, ticks every 5 mm, and beside it, read upwards,
 *   |         | |-   "rod L mm + its hole" and "mast H - base top t mm"
 *   +- fold --+ |
 *   | id, H   | |-
 *   |    +    | |    the backing: folded under the card along the dash-dot
 *   | hole at | |-   line, the rod's tip glued on the cross (the tag's
 *   +---------+      centre); where the hole goes in the base
 *
 * The card is the tag's black square `size_mm`, its white border and a
 * quiet zone of one more cell on each side: (total_width + 2) cells of
 * size_mm / width_at_border (1.5 x size_mm for tag36h11), cut on its grey
 * line. The page's top is the model's front: the tag is drawn turned by the
 * mast's rotation as a square label's tag is, and the fold is at its rear.
 * L, the rod above the base, is the mast's height_mm minus the base top's
 * height (the unit's tag.height_mm: base thickness and paper); the depth of
 * the rod's hole is added when cutting. The block is as tall as the card
 * and backing or the rod, whichever is longer; a rod longer than a page
 * holds is given in words only.
 *
 * How to use (inside calib_sheet.c, which owns the page and its packing):
 *   calib_sheet_mast m = {.model = "spears-1", .tag_id = 401, .size = 20, .height = 48, .base_top = 3.5};
 *   double w, h;
 *   calib_sheet_mast_size(&s, &m, max_h_mm, &w, &h);    // the block's footprint (max_h: what a page holds)
 *   calib_sheet_mast_draw(&s, &m, x, y, max_h_mm);       // at its top-left corner; adds its layout entries
 */
#ifndef CALIB_SHEET_MAST_H
#define CALIB_SHEET_MAST_H

#include "calib_sheet_draw.h"

typedef struct calib_sheet_mast {
    const char *model;       /* the carrier's model id */
    int tag_id;
    double size;             /* mm, the black square */
    double height;           /* mm, the tag above the surface the base stands on */
    double base_top;         /* mm, the base's top above that surface (the unit's tag.height_mm) */
    double offset_x, offset_y; /* mm, the tag's centre from the base centre, base frame (x forward, y left) */
    double rotation;         /* rad, the tag's heading minus the carrier's facing */
} calib_sheet_mast;

/* The card's side (mm): the tag, its white border and one cell of quiet zone round it. */
double calib_sheet_mast_card(const sheet *s, double size);
/* The block's width and height on the page; `max_h`: the tallest block a page holds (a longer rod: no bar). */
void calib_sheet_mast_size(const sheet *s, const calib_sheet_mast *m, double max_h, double *w, double *h);
/* Draws the block with its top-left corner at (x, y); appends the tag ("mast": model) and the rod
 * ("rods": {page, x_mm, y_mm, length_mm, model, tag_id}: the bar's top end, its middle across) to the layout when
 * there is one. */
void calib_sheet_mast_draw(sheet *s, const calib_sheet_mast *m, double x, double y, double max_h);

#endif
