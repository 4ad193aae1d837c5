/*
 * ov_internal: the target's insides and the drawing helpers shared by the
 * overlay's files. Not installed, not for callers.
 * Its types come from ov_options.h (shared with the entry points in
 * ov_draw.h, which stand above every file here).
 *   ov_target.c  surfaces (camera, projector), pixels in and out
 *   ov_page.c    report pages (A4/Letter), PDF/SVG/PNG files
 *   ov_svg_text.c  the SVG report's lines of text, kept as drawn
 *   ov_style.c   colours, line widths and text sizes per target
 *   ov_text.c    Pango text
 *   ov_paint.c   mapped paths and strokes (board mm -> device)
 *   ov_scene*.c  what to draw (ov_scene.c the scene itself, below the files adding to it);  ov_layout.c where labels go;  ov_render.c how to draw it
 *   ov_panel.c   the report's legend and text panel, the key on camera and projector
 */
#ifndef OV_INTERNAL_H
#define OV_INTERNAL_H

#include <stdbool.h>

#include <cairo.h>
#include <pango/pangocairo.h>

#include "base_error.h"
#include "ov_layout.h"
#include "ov_map.h"
#include "ov_options.h"
#include "rules_snapshot.h"

typedef enum ov_target_kind {
    OV_TARGET_CAMERA = 0,
    OV_TARGET_PROJECTOR,
    OV_TARGET_REPORT,
} ov_target_kind;

/* One line of text kept for an SVG report's <text> elements. */
typedef struct ov_svg_run {
    int page;
    double m[6];       /* cairo matrix xx yx xy yy x0 y0 */
    double x, y;       /* baseline start, user space of m */
    char *text;
    double px;
    bool bold;
    double fg[3], alpha;
    double halo[4], halo_w;
} ov_svg_run;

struct ov_target {
    ov_target_kind kind;
    ov_map map;
    ov_format format;
    cairo_surface_t *surface;  /* camera, projector: the image; report: the current page (recording) */
    cairo_t *cr;
    PangoContext *pango;
    int width, height;         /* raster px; report: one page, device units */
    double unit;               /* camera: height / 960; report: device units per point; projector: 1 */
    double table_px_per_mm;    /* projector: px per table mm where the board is smallest (0 until drawn) */
    char *path;
    bool finished;
    ov_layout *layout;         /* what is on the picture so far: labels keep off it */
    struct ov_keepout *keepout; /* projector: labels left dark, applied whenever pixels leave (owned) */
    rules_snapshot *relief;    /* the table's terrain the map draws over (ov_target_set_relief; owned), or NULL */
    /* The players as the last scene drawn here knew them, for layers drawn on their own after it. */
    double board_w, board_d;
    char sides[8][RULES_ID_MAX];
    ov_edge side_edge[8];
    size_t n_sides;
    ov_box clip;               /* where the board's drawing and its labels belong, device units */
    /* report */
    ov_paper paper;
    double png_dpi;            /* a PNG report's pixels per inch (OV_REPORT_DPI unless asked) */
    double page_w, page_h, margin;
    double view_x0, view_y0, view_w, view_d;
    cairo_surface_t **pages;   /* recordings, one per page */
    size_t n_pages;
    double flow_y;             /* where the text continues on the last page */
    ov_svg_run *svg;
    size_t n_svg, cap_svg;
};

/* ---- ov_page.c ---- */
/* Report target set-up (pages, figure window) and files. */
int ov_page_init(ov_target *t, double x0, double y0, double w, double d, base_error *err);
/* Starts a new page; t->cr draws on it. -1 when out of memory. */
int ov_page_next(ov_target *t);
int ov_page_finish(ov_target *t, base_error *err);
/* All pages stacked into one image surface (caller destroys), for PNG and pixel copies. */
cairo_surface_t *ov_page_raster(ov_target *t, base_error *err);
/* The pages stacked, every device unit `scale` pixels (a vector report in points at dpi / 72). */
cairo_surface_t *ov_page_raster_at(ov_target *t, double scale, base_error *err);
void ov_page_free(ov_target *t);
/* ---- ov_svg_text.c ---- */
/* Keeps a line of text for the SVG file (ov_text draws, ov_page writes them). */
void ov_target_svg_text(ov_target *t, const cairo_matrix_t *m, double x, double y, const char *s, size_t len,
                        double px, bool bold, const double fg[3], double alpha, const double halo[4], double halo_w);
/* The report page's device size of the whole output (every page stacked). */
void ov_page_total_size(const ov_target *t, int *w, int *h);

/* ---- ov_style.c ---- */
typedef enum ov_size {
    OV_SIZE_HEADLINE = 0, /* a unit's verdict */
    OV_SIZE_LABEL,        /* distances, path, gaps */
    OV_SIZE_SMALL,        /* numbers in bases, names of other units */
    OV_SIZE_BODY,         /* sentences (boxes, the report's panel) */
    OV_SIZE_TITLE,        /* the report's title */
} ov_size;
double ov_style_text(const ov_target *t, ov_size s, double factor);
/* The main line width, device units (factor: ov_options.size). */
double ov_style_line(const ov_target *t, double factor);
/* The smallest text that stays legible on this target, device units. */
double ov_style_min_text(const ov_target *t);
void ov_style_rgb(const ov_target *t, const ov_paint *p, double rgb[3]);
/* The under-stroke that keeps marks readable on the target's background (alpha 0: none). */
void ov_style_halo(const ov_target *t, double rgba[4]);
/* Dash pattern for a line `w` device units wide; n = 0 for solid. */
void ov_style_dash(const ov_target *t, ov_dash d, double w, double pat[2], int *n);
/* Text on a label's pill: black or white, whichever reads on `bg`. */
void ov_style_ink_on(const double bg[3], double fg[3]);

/* ---- ov_paint.c ---- */
/* Board point -> device (cairo's pixel centres are at +0.5 on rasters). */
bool ov_dev(const ov_target *t, base_vec2 b, double *x, double *y);
double ov_scale_at(const ov_target *t, base_vec2 p);
/* Adds the board polyline to cairo's path, subdivided so a lens bends it right. */
void ov_path_poly(ov_target *t, const base_vec2 *p, size_t n, bool closed);
/* Strokes the current path: a halo (when the target has one), then the colour. */
void ov_stroke(ov_target *t, const double rgb[3], double alpha, double w, ov_dash dash);
void ov_rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r);

/* ov_output: writing through base_file (ov_output.c). The cairo write function takes a
 * base_file_writer *; ov_output_png writes a raster surface to path. */
cairo_status_t ov_output_write(void *writer, const unsigned char *data, unsigned int len);
int ov_output_png(cairo_surface_t *img, const char *path, base_error *err);

#endif
