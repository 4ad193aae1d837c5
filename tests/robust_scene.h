/*
 * robust_scene: the units the robust judge's tests share (test_robust.c,
 * test_robust_free.c), built from exact geometry: a block of spears whose
 * rear models vision could not see, as it writes them (inferred, with the
 * other placements of their rear rank as alternatives).
 *
 * How to use:
 *   rules_unit *u = robust_spears(before, ROBUST_START);      // 10 models, 4 files, 25 mm, Advance 5", March 10"
 *   robust_ambiguous_rear(u, 1);                              // spears-9/10 inferred, centred (left/right as alternatives)
 *   rules_unit *c = robust_translated(after, u, robust_ahead(ROBUST_START.heading, 11));
 */
#ifndef ROBUST_SCENE_H
#define ROBUST_SCENE_H

#include "base_geom.h"
#include "rules_path.h"
#include "rules_snapshot.h"

#define ROBUST_SEEN_SIGMA 0.25     /* mm: a model whose tag was read */
#define ROBUST_INFERRED_SIGMA 1.6  /* mm: a model placed from its formation */

static const rules_pose ROBUST_START = {{600, 400}, BASE_PI / 2};

/* "spears": 10 models, 4 files, 25 mm bases: ranks of 4, 4 and 2, the rear two centred (files 1 and 2); every
 * model seen (sigma ROBUST_SEEN_SIGMA). */
rules_unit *robust_spears(rules_snapshot *s, rules_pose pose);
/* The model `id` of `u` inferred (sigma ROBUST_INFERRED_SIGMA). */
void robust_infer(rules_unit *u, const char *id);
/* As vision writes an incomplete rear rank it could not pin: spears-9/10 inferred, at rear-rank file `primary` (0
 * left-aligned, 1 centred, 2 right-aligned) in `models`, the other two as alternatives. */
void robust_ambiguous_rear(rules_unit *u, double primary);
/* A copy of `u` in `after`, every model translated by d (evidence and sigma carried; no alternatives). */
rules_unit *robust_translated(rules_snapshot *after, const rules_unit *u, base_vec2 d);
/* `inches` along `heading`, in mm. */
base_vec2 robust_ahead(double heading, double inches);

#endif
