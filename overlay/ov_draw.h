/*
 * ov_draw: the referee's verdict drawn from board coordinates onto a
 * target (ov_target.h): a camera frame, a projector frame, or report pages.
 *
 * The overlay is three steps, one file group each:
 *   what to draw   ov_scene (ov_scene.h): marks in board mm and labels, from
 *                  a verdict, a snapshot, or a caller's own layers (a ghost
 *                  of a unit's other position, polylines such as a reach)
 *   where it goes  ov_layout (ov_layout.h): labels kept off bases, base
 *                  centres, numbers, each other and the picture's edges
 *   how it looks   ov_render / ov_style: widths and text sizes per target
 *                  (pixels on a camera frame, millimetres on the table for
 *                  a projector, points on paper), Pango text, colours
 * The functions here do all three for the common cases.
 *
 * How to use (one picture):
 *   ov_options o; ov_options_default(&o);
 *   ov_draw_verdict(t, before, after, &report, &o, &err);     // report from rules_robust_check
 *   ov_draw_reach(t, &reach, "red", &err);   // optional layers: a unit's reach before it moves (rules_reach.h)
 * An ILLEGAL call whose report carries the nearest legal move (rules_suggest_moves) shows it as a ghost:
 * the unit's bases where it would be legal, dashed, with the sentence ("move the spears back 0.38\"").
 * Several layers laid out together (labels of each avoid the others'): build an ov_scene.
 *
 * Each model's +/- comes from the snapshots (rules_model.sigma_mm, by
 * evidence when a model states none; rules_plusminus.h), and the verdict's colour and
 * words from the report: LEGAL (bluish green, ✓), ILLEGAL (vermillion, ✗),
 * CANNOT TELL (orange, "?", with the reason: never drawn as illegal), NOT
 * SEEN (grey: "not seen, cannot judge"). Okabe-Ito colours, with a shape
 * cue for each so colour is never the only sign.
 */
#ifndef OV_DRAW_H
#define OV_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "ov_target.h"
#include "base_error.h"
#include "rules_reach.h"
#include "rules_report.h"
#include "rules_snapshot.h"

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

void ov_options_default(ov_options *o);

/* The verdict on `report`; the snapshots give bases and the other units. Draws over what the target holds. */
int ov_draw_verdict(ov_target *t, const rules_snapshot *before, const rules_snapshot *after,
                    const rules_report *report, const ov_options *opt, base_error *err);
/* One snapshot: every unit in its player's colour with its name, and the key (tracking, no verdict). */
int ov_draw_snapshot(ov_target *t, const rules_snapshot *s, const ov_options *opt, base_error *err);
/* Just the key (sides and conventions), e.g. before the first snapshot. `sides` may be NULL. */
int ov_draw_key(ov_target *t, const char *const *sides, size_t n_sides, const ov_options *opt, base_error *err);

/*
 * Extra layers, laid out around whatever the target already shows:
 *   a ghost: every model of `unit` (its poses and bases), outlined dashed
 *     and faintly filled, with an optional label (style NULL: OV_INK_GHOST);
 *   polylines in board mm (style NULL: OV_INK_LIMIT, dashed), with an
 *     optional label at the first line's middle.
 */
typedef struct ov_polyline {
    const base_vec2 *points;
    size_t n;
    bool closed;
} ov_polyline;
int ov_draw_ghost(ov_target *t, const rules_unit *unit, const ov_layer_style *style, const char *label,
                  base_error *err);
int ov_draw_polylines(ov_target *t, const ov_polyline *lines, size_t n, const ov_layer_style *style,
                      const char *label, base_error *err);
/* The reach of a unit before it moves (rules_reach.h; ov_scene_add_reach), its label turned to `side`. */
int ov_draw_reach(ov_target *t, const rules_reach *r, const char *side, base_error *err);

/*
 * The board window a report shows (x0, y0, w, d in mm): the judged units
 * (only `unit_id` when given), before and after, with 3" of room, at least
 * 12" each way, grown until no unit it touches is cut; or, with
 * `whole_board`, the board.
 */
void ov_report_view(const rules_snapshot *before, const rules_snapshot *after, const rules_report *report,
                    const char *unit_id, bool whole_board, double view[4]);

/* A filled disc of radius_mm at `centre`, mapped point by point (callers' marks, landing tests). rgb 0..1. */
int ov_draw_disc(ov_target *t, base_vec2 centre, double radius_mm, const double rgb[3], base_error *err);

/* The colours (Okabe-Ito, colour-blind safe), RGB 0..1, as drawn on camera frames and reports. */
extern const double ov_colour_illegal[3];  /* vermillion #D55E00 */
extern const double ov_colour_legal[3];    /* bluish green #009E73 */
extern const double ov_colour_unsure[3];   /* orange #E69F00: cannot tell */
extern const double ov_colour_path[3];     /* blue #0072B2 */
extern const double ov_colour_limit[3];    /* yellow #F0E442 */

#endif
