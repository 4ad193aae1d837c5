/*
 * calib_sheet_draw: what the tag sheet's parts share while one PDF is drawn:
 * the sheet being drawn, its text and its tags (calib_sheet_draw.c).
 * calib_sheet.c draws the pages, labels and rim labels, calib_sheet_mast.c
 * the masts' cards and rods, both through these. Internal to calib/:
 * callers use calib_sheet.h.
 *
 * How to use (inside calib_sheet*.c only):
 *   sheet s = {...};                                   // calib_sheet_write_pdf fills it
 *   sheet_text(&s, x, y, width, size_mm, bold, centre, "words");
 *   double mm = sheet_text_fit(&s, width, 1.5, 0.8, bold, "words");   // smaller to show whole
 *   sheet_draw_tag(&s, id, cx, cy, size_mm, rot);      // black cells only
 *   sheet_layout_tag(&s, id, cx, cy, size_mm, rot, "model", m->id);  // appended to s.tags
 *
 * The page frame (mm): origin at the page's top-left corner, x right, y down.
 */
#ifndef CALIB_SHEET_DRAW_H
#define CALIB_SHEET_DRAW_H

#include <apriltag/apriltag.h>
#include <cairo.h>
#include <cjson/cJSON.h>

/* The sheet's options (calib_sheet.h) are only carried here: naming the type, not including its header, keeps
 * the drawing below the sheet that calls it. */
struct calib_sheet_options;

typedef struct sheet {
    cairo_t *cr;
    cairo_surface_t *surface;
    const struct calib_sheet_options *o;
    apriltag_family_t *fam;
    int page;          /* 1-based, 0 before the first */
    double y;          /* next free line on the page */
    char title[256];
    cJSON *tags, *bars, *rods; /* layout, or NULL */
} sheet;

/* Text of height `size_mm` at (x, y) (top-left), at most `width` wide (ellipsized), aligned left/centre. */
void sheet_text(sheet *s, double x, double y, double width, double size_mm, int bold, int centre, const char *t);
/* The text height at most `size_mm` (and at least `min_mm`) at which `t` fits `width` on one line. */
double sheet_text_fit(sheet *s, double width, double size_mm, double min_mm, int bold, const char *t);
/* The tag's black cells, centred at (cx, cy), black square `size`, turned `rot` (rad, counter-clockwise on the board). */
void sheet_draw_tag(sheet *s, int id, double cx, double cy, double size, double rot);
/* Appends {"id", "page", "x_mm", "y_mm", "size_mm", "rotation_deg", key: who} to the layout's tags; returns it
 * (NULL without a layout). */
cJSON *sheet_layout_tag(sheet *s, int id, double cx, double cy, double size, double rot, const char *key,
                        const char *who);

#endif
