/*
 * ov_unit_int: one unit's verdict while it is turned into scene marks
 * (ov_scene_unit.c) and words (ov_scene_words.c). Not for callers.
 */
#ifndef OV_UNIT_INT_H
#define OV_UNIT_INT_H

#include "rules_plusminus.h"
#include "ov_scene_int.h"
#include "rules_formation.h"

#define TICK "\xE2\x9C\x93"
#define CROSS "\xE2\x9C\x97"
#define MIN_WHEEL_MM 1.0   /* shorter wheels are noise: not drawn */
#define CIRCLE_SHARE 0.75  /* a rate circle is drawn when the farthest model reaches this share of it */

/* Layers, bottom to top. */
enum { L_ARCS = 10, L_LIMIT = 15, L_BEFORE = 20, L_PATH = 30, L_AFTER = 40, L_CROSS = 42, L_OUTLINE = 45,
       L_ARROWS = 50, L_GAP = 55 };
/* Labels, most important first. */
enum { P_HEADLINE = 0, P_BOX = 8, P_BAD = 10, P_GAP = 12, P_PATH_BAD = 14, P_FAR = 20, P_LIMIT = 40, P_PATH = 45,
       P_WHEEL = 50 };

typedef enum { M_FINE = 0, M_UNSURE, M_BAD } model_state;

typedef struct unit_ctx {
    ov_scene *sc;
    const rules_snapshot *before, *after;
    const rules_unit_report *ur;
    const rules_unit *ub, *ua;
    rules_formation fb, fa;
    bool have_fb, have_fa;
    const rules_ruleset *rs;
    ov_ink ink;
    int side;
    double fade;        /* 1, or faint for a unit being moved */
    bool labels;        /* false while the unit is being moved */
    rules_pm_params pm;
    long far;           /* the farthest model in ur->models, -1 when none */
    double limit_mm;    /* each model's distance limit (NAN: none) */
    const char *limit_name;
    bool brief;
} unit_ctx;


/* The verdict's colour (its words and the move's are rules_words'). */
ov_ink ovu_verdict_ink(rules_verdict v);
void ovu_unit_limit(unit_ctx *u);
/* A violation lists the model (dist_only: one about how far models went). */
bool ovu_named(const rules_unit_report *ur, const char *id, bool dist_only);
const rules_model_move *ovu_model_move(const rules_unit_report *ur, const char *id);
double ovu_model_pm(const unit_ctx *u, const char *id);
bool ovu_over_limit(const unit_ctx *u, const rules_model_move *mm);
model_state ovu_state_of(const unit_ctx *u, const char *id);
ov_ink ovu_state_ink(const unit_ctx *u, model_state s);
ov_paint ovu_paint(const unit_ctx *u, ov_ink ink, double alpha);
/* A label of the unit (NULL while it is being moved); text set by the caller. */
ov_label *ovu_label(unit_ctx *u, ov_label_kind kind, const char *text, base_vec2 at, int prio, ov_ink bg);

void ovu_arcs(unit_ctx *u);
void ovu_limit_circle(unit_ctx *u);
void ovu_before_bases(unit_ctx *u);
void ovu_path_marks(unit_ctx *u);
void ovu_after_bases(unit_ctx *u);
void ovu_outline(unit_ctx *u);
void ovu_arrows(unit_ctx *u);
void ovu_gap(unit_ctx *u);

/* ov_scene_extra.c: the nearest legal move of an ILLEGAL call as a ghost (labels: with its sentence). */
void ov_sc_add_suggestion(ov_scene *sc, const rules_unit *ua, const rules_unit_report *ur, bool labels, double fade);

#endif
