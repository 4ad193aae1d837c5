/*
 * ov_scene: what to draw, in board millimetres, before any target is
 * involved: marks (bases, outlines, arrows, the path, rate circles, gaps,
 * a caller's ghost or polylines), labels anchored to board points, the
 * report's text, the legend and the key. Drawing it on a target lays the
 * labels out for that target (ov_layout) and paints (ov_render), so one
 * scene can go to the camera frame, the projector and the report alike,
 * and every layer added to it is laid out together with the others.
 *
 * How to use:
 *   ov_scene *sc = ov_scene_new(&opt, &err);              // opt copied; its arrays borrowed until free
 *   ov_scene_add_verdict(sc, before, after, &report, &err);
 *   (an ILLEGAL call's nearest legal move, report.units[i].suggestion, is drawn by add_verdict as a ghost)
 *   ov_scene_add_ghost(sc, &other_position, NULL, "its other position", &err);   // a caller's own ghost
 *   ov_polyline lines = {pts, n, true};
 *   ov_scene_add_polylines(sc, &lines, 1, NULL, "a caller's lines", &err);
 *   ov_scene_add_reach(sc, &reach, "red", &err);           // rules_reach_compute's result (issue 14)
 *   ov_scene_draw(sc, camera_target, &err);
 *   ov_scene_draw(sc, report_target, &err);
 *   ov_scene_free(sc);
 * The scene copies what it needs: snapshots and report may be freed once added.
 */
#ifndef OV_SCENE_H
#define OV_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "ov_options.h"
#include "ov_target.h"
#include "rules_reach.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct ov_scene ov_scene;

ov_scene *ov_scene_new(const ov_options *opt, base_error *err);
void ov_scene_free(ov_scene *sc);

int ov_scene_add_verdict(ov_scene *sc, const rules_snapshot *before, const rules_snapshot *after,
                         const rules_report *report, base_error *err);
int ov_scene_add_snapshot(ov_scene *sc, const rules_snapshot *s, base_error *err);
/* The key's sides before any snapshot is known (a roster's). */
int ov_scene_add_sides(ov_scene *sc, const char *const *sides, size_t n, base_error *err);
int ov_scene_add_ghost(ov_scene *sc, const rules_unit *unit, const ov_layer_style *style, const char *label,
                       base_error *err);
int ov_scene_add_polylines(ov_scene *sc, const ov_polyline *lines, size_t n, const ov_layer_style *style,
                           const char *label, base_error *err);
/* The reach of a unit before it moves (rules_reach_compute): each end facing's outline of where the Front
 * Facing may end, the straight-on one bold, the largest wheel each way; its label turned to `side`'s player. */
int ov_scene_add_reach(ov_scene *sc, const rules_reach *r, const char *side, base_error *err);

/* Lays out and draws everything on `t`, over what it already shows. */
int ov_scene_draw(ov_scene *sc, ov_target *t, base_error *err);

/* Labels the last ov_scene_draw could not place anywhere (drawn nowhere; the report's text has them). */
size_t ov_scene_unplaced(const ov_scene *sc);

/* What the scene will write, for tests and callers that echo it: its labels' texts in the order added
 * (numbers written in bases included, `number` tells them apart). i < ov_scene_label_count. */
size_t ov_scene_label_count(const ov_scene *sc);
const char *ov_scene_label_text(const ov_scene *sc, size_t i, bool *number);

#endif
