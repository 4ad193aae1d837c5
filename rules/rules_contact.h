/*
 * rules_contact: base contact, engagements and Facings, derived from
 * geometry (Combat Reforms, Pursuit).
 *
 * Base contact (glossary): two bases touch, corner to corner included,
 * within the ruleset's contact_tolerance_mm. Units are in contact when any
 * of their models are. The Facing of a unit touched by another is the side
 * of its Unit Boundary with the longest stretch within the tolerance of the
 * other boundary; when only corners meet, the Arc holding the other unit's
 * centre decides. Facings use the RULES_ARC_* bits (front, rear, left,
 * right).
 *
 * How to use:
 *   rules_formation fa, fb;  (fitted by rules_formation_fit)
 *   if (rules_contact_units(ua, ub, tol)) {
 *       unsigned fa_side = rules_contact_facing(&fa.boundary, &fb.boundary, tol);
 *       ...
 *   }
 * Everything here is pure and allocation-free.
 */
#ifndef RULES_CONTACT_H
#define RULES_CONTACT_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"
#include "rules_arcs.h"
#include "rules_snapshot.h"

/* The segment of `box`'s facing (one RULES_ARC_* bit), from one corner to the other. */
void rules_contact_facing_edge(const base_obb *box, unsigned facing, base_vec2 *a, base_vec2 *b);

/* Length of the facing of `box` lying within `tol` of `other` (0 when it does not come that close). */
double rules_contact_facing_length(const base_obb *box, unsigned facing, const base_obb *other, double tol);

/* The facing of `box` in contact with `other` (see above), or 0 when they are farther apart than `tol`. */
unsigned rules_contact_facing(const base_obb *box, const base_obb *other, double tol);

/* Two models' bases within `tol` (touching, corners included). */
bool rules_contact_models(const rules_unit *ua, const rules_model *a, const rules_unit *ub, const rules_model *b,
                          double tol);
/* Model `m` of `ua` touches some model of `ub`. */
bool rules_contact_model_unit(const rules_unit *ua, const rules_model *m, const rules_unit *ub, double tol);
/* Some model of `ua` touches some model of `ub`. */
bool rules_contact_units(const rules_unit *ua, const rules_unit *ub, double tol);
/* Models of `u` touching any unit of another side in `s` (the unit with u's id in s is skipped). */
size_t rules_contact_count_engaged(const rules_snapshot *s, const rules_unit *u, double tol);

/* Bases of two models overlap by more than `tol` (touching is not overlapping). */
bool rules_contact_overlap_models(const rules_unit *ua, const rules_model *a, const rules_unit *ub,
                                  const rules_model *b, double tol);

#endif
