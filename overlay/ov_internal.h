/*
 * ov_internal: the target's insides, shared by ov_target.c (surfaces) and
 * ov_draw.c (drawing). Not installed, not for callers.
 */
#ifndef OV_INTERNAL_H
#define OV_INTERNAL_H

#include <stdbool.h>

#include <cairo.h>

#include "ov_draw.h"

typedef enum ov_target_kind {
    OV_TARGET_CAMERA = 0,
    OV_TARGET_PROJECTOR,
    OV_TARGET_REPORT,
} ov_target_kind;

/* A placed label's box in device px, so later labels keep clear of it. */
typedef struct ov_box {
    double x0, y0, x1, y1;
} ov_box;

struct ov_target {
    ov_target_kind kind;
    ov_map map;
    ov_format format;
    cairo_surface_t *surface; /* image (camera, projector) or recording (report) */
    cairo_t *cr;
    int width, height;        /* raster size; report: page width and the board part's height */
    double min_text_px, min_line_px;
    double font_px;           /* size of the font last selected */
    char *path;
    bool finished;
    /* report */
    double margin, board_px_w, board_px_h;
    double view_x0, view_y0, view_w, view_d;
    double panel_top, panel_bottom;
    ov_box clip;              /* where drawing and labels belong, device px (report: the board window) */
    /* labels placed so far */
    ov_box *labels;
    size_t n_labels, cap_labels;
};

/* Background, inch grid and edges of the report's board window. */
void ov_draw_report_board(ov_target *t);

#endif
