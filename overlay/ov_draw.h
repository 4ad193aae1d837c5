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
 * The options, inks and layer styles are ov_options.h's (this header
 * includes it).
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

#include "ov_options.h"
#include "ov_target.h"
#include "base_error.h"
#include "rules_reach.h"
#include "rules_report.h"
#include "rules_snapshot.h"

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
 *   polylines in board mm (ov_polyline, ov_options.h; style NULL:
 *     OV_INK_LIMIT, dashed), with an optional label at the first line's middle.
 */
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

#endif
