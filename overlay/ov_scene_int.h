/*
 * ov_scene_int: the scene's insides, shared by the files that build it
 * (ov_scene.c holds them; ov_scene_layers.c and ov_scene_unit/_words/_extra.c
 * add to them), lay it out and paint it (ov_render.c) and write its text
 * (ov_panel.c, ov_report_text.c). Not for callers.
 */
#ifndef OV_SCENE_INT_H
#define OV_SCENE_INT_H

#include "ov_internal.h"
#include "ov_scene.h"
#include "ov_text.h"

typedef enum ov_mark_kind {
    OV_MARK_LINE = 0, /* polyline, stroked */
    OV_MARK_AREA,     /* closed polygon: filled (fill.alpha > 0) and stroked */
    OV_MARK_ARROW,    /* pts[0] -> pts[1], head at pts[1] */
    OV_MARK_CENTRE,   /* ring-cross at pts[0]: a unit's Centre */
    OV_MARK_FRONT,    /* diamond at pts[0]: the centre of the Front Facing */
    OV_MARK_RING,     /* small ring at pts[0]: a wheel's pivot */
} ov_mark_kind;

/* What the label placer makes of a mark. */
typedef enum ov_mark_role {
    OV_ROLE_NONE = 0,
    OV_ROLE_BASE,       /* a model's base now: labels keep off it, never on its centre */
    OV_ROLE_OLD_BASE,   /* where a model was: labels keep off it (softly) */
    OV_ROLE_LINE,       /* a line worth reading (a gap, the path): labels keep off it (softly) */
} ov_mark_role;

typedef struct ov_mark {
    ov_mark_kind kind;
    size_t p0, n;        /* points sc->pts[p0 .. p0 + n) */
    bool closed;
    ov_paint line, fill;
    double width;        /* in main line widths */
    ov_dash dash;
    int layer;           /* painted in increasing layer order */
    ov_mark_role role;
    base_vec2 centre;   /* bases: the base centre */
    bool clip_board;     /* painted only on the board (rate circles run off it) */
    bool is_base;        /* a model's base (ov_sc_base): a projector leaves out one carrying a label */
    bool around;         /* a unit's outline: a projector draws it around the unit's labels (ov_keepout.h) */
} ov_mark;

typedef enum ov_label_kind {
    OV_LABEL_PILL = 0,  /* rounded box in bg with text; placed, leader when away */
    OV_LABEL_BOX,       /* sentences in a dark box (camera and projector only: the report has its panel) */
    OV_LABEL_NAME,      /* plain text with a halo in bg's colour; placed */
    OV_LABEL_NUMBER,    /* a model's distance written in its base; dropped when it does not fit */
} ov_label_kind;

typedef struct ov_label {
    ov_label_kind kind;
    size_t text;         /* offset in sc->str */
    base_vec2 anchor;
    ov_size size;
    bool bold;
    ov_paint bg;
    double clear_mm;     /* keep this far from the anchor */
    base_obb base;      /* NUMBER: the base it must fit in */
    int priority;        /* placed in increasing order */
    int side;            /* whose it is (projector: turned to that player); -1: none */
    bool leader_ok;
} ov_label;

/* Samples of the legend: each drawn by ov_panel as a small picture. */
typedef enum ov_sample {
    OV_SAMPLE_BEFORE = 0, OV_SAMPLE_AFTER, OV_SAMPLE_CROSS, OV_SAMPLE_UNSURE, OV_SAMPLE_NOT_SEEN, OV_SAMPLE_INFERRED,
    OV_SAMPLE_ARROW, OV_SAMPLE_PATH, OV_SAMPLE_WHEEL, OV_SAMPLE_LIMIT, OV_SAMPLE_CENTRE, OV_SAMPLE_FRONT,
    OV_SAMPLE_ARCS, OV_SAMPLE_GAP, OV_SAMPLE_SIDE, OV_SAMPLE_LAYER, OV_SAMPLE_COUNT
} ov_sample;

typedef struct ov_legend {
    ov_sample sample;
    ov_paint paint;
    ov_dash dash;
    size_t text;
} ov_legend;

/* The report's text, in order. */
typedef enum ov_block_kind {
    OV_BLOCK_VERDICT = 0, /* badge (text2) in paint, then the sentence */
    OV_BLOCK_LINE,        /* a sentence, indented */
    OV_BLOCK_WARN,        /* a sentence in paint's colour, indented */
    OV_BLOCK_NOTE,        /* grey, indented */
    OV_BLOCK_ROW,         /* a table row: cells split by '\t' */
    OV_BLOCK_HEADROW,     /* its header (bold) */
} ov_block_kind;

typedef struct ov_block {
    ov_block_kind kind;
    ov_paint paint;
    size_t text, text2;
} ov_block;

#define OV_MAX_SIDES 8

struct ov_scene {
    ov_options opt;
    double board_w, board_d;      /* from the first snapshot (0: unknown) */
    /* players */
    char sides[OV_MAX_SIDES][RULES_ID_MAX];
    ov_edge side_edge[OV_MAX_SIDES];
    int side_slot[OV_MAX_SIDES];  /* its colour (ov_style's players' colours) */
    size_t n_sides;
    /* what to draw */
    base_vec2 *pts;
    size_t n_pts, cap_pts;
    ov_mark *marks;
    size_t n_marks, cap_marks;
    ov_label *labels;
    size_t n_labels, cap_labels;
    char *str;                    /* every string, NUL-separated */
    size_t n_str, cap_str;
    /* the words */
    ov_legend *legend;
    size_t n_legend, cap_legend;
    ov_block *blocks;
    size_t n_blocks, cap_blocks;
    char ruleset[RULES_ID_MAX];
    char convention[128];
    char verdict_line[RULES_TEXT_MAX];  /* report title's second line: the overall call */
    bool verdict_illegal;               /* ... and an ILLEGAL call stands in it (its colour) */
    char not_seen[RULES_TEXT_MAX];      /* "not seen: a, b" for the key */
    bool has_verdict, has_pm;
    size_t unplaced;
    bool oom;
    rules_snapshot *relief;       /* the drawn table's hills (its terrain, copied), or NULL: flat */
};

/* ---- ov_scene.c: adding things (below every file that builds a scene) ---- */
size_t ov_sc_str(ov_scene *sc, const char *s);
size_t ov_sc_strf(ov_scene *sc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
const char *ov_sc_text(const ov_scene *sc, size_t off);
ov_mark *ov_sc_mark(ov_scene *sc, ov_mark_kind kind, const base_vec2 *p, size_t n, int layer);
ov_label *ov_sc_label(ov_scene *sc, ov_label_kind kind, const char *text, base_vec2 anchor, int priority);
void ov_sc_legend(ov_scene *sc, ov_sample sample, ov_paint paint, ov_dash dash, const char *text);
void ov_sc_block(ov_scene *sc, ov_block_kind kind, ov_paint paint, const char *text, const char *text2);
/* The side's index (added when new; -1 when there are too many sides). */
int ov_sc_side(ov_scene *sc, const char *side);
bool ov_sc_faded(const ov_scene *sc, const char *unit_id);
ov_paint ov_paint_of(ov_ink ink, double alpha);
/* A side's colour, by its index in sc->sides. */
ov_paint ov_paint_side(const ov_scene *sc, int side, double alpha);
/* A base outline (closed AREA) of a model. */
ov_mark *ov_sc_base(ov_scene *sc, const rules_unit *u, const rules_model *m, int layer, ov_mark_role role);
/* Side edges from where each side's models stand. */
void ov_sc_guess_edges(ov_scene *sc, const rules_snapshot *s);

/* ---- ov_scene_words.c: one unit's verdict (marks by ov_scene_unit.c) ---- */
void ov_sc_add_unit(ov_scene *sc, const rules_snapshot *before, const rules_snapshot *after,
                    const rules_unit_report *ur, const rules_ruleset *rs);
/* "10.38"" (ov_scene_unit.c) */
void ov_fmt_in(char *buf, size_t cap, double mm);

/* ---- ov_render.c ---- */
int ov_render(ov_scene *sc, ov_target *t, base_error *err);

/* A label measured and placed on a target. */
typedef struct ov_placed {
    const ov_label *l;
    ov_text tx;
    double bw, bh, pad_x, pad_y;  /* its box and the text's inset */
    ov_label_place at;
    double angle;                 /* reading direction, device */
} ov_placed;

/* ---- ov_label_paint.c ---- */
/* leaders == true: only its leader line; false: the label itself. */
void ov_paint_label(const ov_scene *sc, ov_target *t, const ov_placed *p, bool leaders);

/* ---- ov_panel.c ---- */
/* The report: title, legend and text flowing over the pages. */
void ov_panel_report(const ov_scene *sc, ov_target *t);
/* Camera and projector: the key (one per player's edge on a projector), placed first so labels avoid it. */
void ov_panel_key(const ov_scene *sc, ov_target *t);

/* ---- ov_render_keepout.c: a projector with a keep-out (ov_keepout.h) ---- */
/* A base carrying a label: not drawn on the projector. */
bool ov_kp_skip_mark(const ov_scene *sc, const ov_target *t, const ov_mark *m);
/* A unit's outline moved out around its labels' keep-outs (line_px: the line's width); false: draw as is. */
bool ov_kp_around(const ov_scene *sc, const ov_target *t, const ov_mark *m, double line_px, base_vec2 out[4]);
/* The keep-outs as layout obstacles: labels go elsewhere when they can. */
void ov_kp_obstacles(ov_target *t);

#endif
