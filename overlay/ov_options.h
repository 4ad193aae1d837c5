/*
 * ov_options: what every part of the overlay shares, below them all: the
 * target's type and its formats, pixel layouts and papers, what a colour
 * means (ov_ink, ov_paint), dashes, a caller's layer style and polylines,
 * the drawing options and their defaults, and the colours themselves. ov_draw.h (the entry points) and ov_scene.h include it;
 * the overlay's own files (ov_internal.h) take their types from here, not
 * from the entry points above them.
 *
 * How to use:
 *   ov_options o;
 *   ov_options_default(&o);      // every layer on, +/- at 2 sigmas, size 1
 *   o.detail = OV_DETAIL_BRIEF;  // then ov_draw_verdict(t, before, after, &report, &o, &err) (ov_draw.h)
 */
#ifndef OV_OPTIONS_H
#define OV_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"

/* What the overlay draws on (ov_target.h: its functions; ov_internal.h: its insides). */
typedef struct ov_target ov_target;

typedef enum ov_format {
    OV_FORMAT_PNG = 0, /* raster, written by ov_target_write_png or ov_target_finish */
    OV_FORMAT_SVG,
    OV_FORMAT_PDF,
} ov_format;

/* Layout of caller pixel buffers (8 bits per channel, rows `stride` bytes apart). */
typedef enum ov_pixfmt {
    OV_PIX_GRAY8 = 0,
    OV_PIX_RGB24,
    OV_PIX_BGR24,  /* OpenCV's order: what cv::VideoWriter takes */
    OV_PIX_RGBA32, /* straight (not premultiplied) alpha */
} ov_pixfmt;

typedef enum ov_paper {
    OV_PAPER_A4 = 0, /* 210 x 297 mm */
    OV_PAPER_LETTER, /* 8.5 x 11 in */
} ov_paper;

/* What a colour means; each target turns it into its own shade (a projector's are brighter). */
typedef enum ov_ink {
    OV_INK_NEUTRAL = 0, /* before positions, plain marks */
    OV_INK_LEGAL,       /* bluish green #009E73 */
    OV_INK_ILLEGAL,     /* vermillion #D55E00 */
    OV_INK_UNSURE,      /* orange #E69F00: cannot tell */
    OV_INK_NOT_SEEN,    /* grey */
    OV_INK_PATH,        /* blue #0072B2: the shortest legal path */
    OV_INK_LIMIT,       /* yellow #F0E442: rate circles, reach */
    OV_INK_GHOST,       /* a unit's other position (nearest legal: bluish green, pale) */
    OV_INK_SIDE,        /* a player's colour: ov_paint.side is the side's index */
    OV_INK_RGB,         /* ov_paint.rgb as given */
} ov_ink;

typedef struct ov_paint {
    ov_ink ink;
    int side;        /* OV_INK_SIDE */
    double rgb[3];   /* OV_INK_RGB, 0..1 */
    double alpha;    /* 0: not painted */
} ov_paint;

typedef enum ov_dash {
    OV_DASH_SOLID = 0,
    OV_DASH_DASHED,
    OV_DASH_DOTTED,
    OV_DASH_FINE,    /* short dashes: construction lines (Arcs) */
} ov_dash;

/* How a caller's layer looks (ov_draw_ghost, ov_draw_polylines). */
typedef struct ov_layer_style {
    ov_paint line;
    ov_paint fill;   /* closed shapes; alpha 0: not filled */
    double width;    /* in main line widths (1: the target's main line) */
    ov_dash dash;
    const char *side;  /* whose it is: a projector turns the label to that player (NULL: none) */
} ov_layer_style;

typedef enum ov_detail {
    OV_DETAIL_FULL = 0, /* every model's distance in its base where it reads, wheel and path lengths */
    OV_DETAIL_BRIEF,    /* the video: labels only for the farthest model, models over their limit, and what broke a rule */
} ov_detail;

/* The long edge a player stands at: NEAR is the board's y = 0 edge. */
typedef enum ov_edge {
    OV_EDGE_AUTO = 0,  /* the edge nearer the side's models in the first snapshot drawn */
    OV_EDGE_NEAR,
    OV_EDGE_FAR,
} ov_edge;

typedef struct ov_side_edge {
    const char *side;
    ov_edge edge;
} ov_side_edge;

typedef struct ov_options {
    const char *unit_id;    /* only this unit's verdict (NULL: every unit in the report) */
    const char *title;      /* report title (NULL: "tableref referee") */
    ov_detail detail;
    double coverage;        /* +/- shown as this many sigmas (default 2, as rules_robust) */
    double sigma_rough_mm, sigma_inferred_mm;  /* for models stating no sigma (rules_robust's defaults) */
    double size;            /* text and line size factor (default 1) */
    bool bases, arrows, outlines, arcs, path, limits, gaps, legend, others;  /* layers, all on by default */
    const char *const *sides;  /* player sides in colour order (NULL: order of first appearance) */
    size_t n_sides;
    const ov_side_edge *edges; /* which edge each side's player stands at (projector text faces them) */
    size_t n_edges;
    const char *const *faded;  /* units being moved: drawn faint and unlabelled (their marks are stale) */
    size_t n_faded;
} ov_options;

/* Every layer on, the +/- at rules_robust's 2 sigmas, size 1. */
void ov_options_default(ov_options *o);

/* A caller's polyline in board mm (ov_draw_polylines, ov_scene_add_polylines). */
typedef struct ov_polyline {
    const base_vec2 *points;
    size_t n;
    bool closed;
} ov_polyline;

/* The colours (Okabe-Ito, colour-blind safe), RGB 0..1, as drawn on camera frames and reports. */
extern const double ov_colour_illegal[3];  /* vermillion #D55E00 */
extern const double ov_colour_legal[3];    /* bluish green #009E73 */
extern const double ov_colour_unsure[3];   /* orange #E69F00: cannot tell */
extern const double ov_colour_path[3];     /* blue #0072B2 */
extern const double ov_colour_limit[3];    /* yellow #F0E442 */

#endif
