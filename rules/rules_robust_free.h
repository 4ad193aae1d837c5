/*
 * rules_robust_free: does a violation stand wherever the models in doubt
 * stand? rules_robust judges a unit under the placements of its unseen
 * models that vision kept; when vision could not keep them all (or more
 * pairs than max_pairs), an ILLEGAL found under every pair judged may still
 * be cleared by a placement never judged. It stands all the same when its
 * measure does not depend on where the doubted models stand: this module
 * says when that is so, and why.
 *
 * What it accepts today: MU-MODEL-DIST ("no model can end its movement with
 * its centre farther away than its rate from its starting position", seed
 * 004, Advance, March and Reform) carried by a model that is fixed, i.e.
 * measured (seen or rough) in both frames and listed in no alternative of
 * either, whose own distance is past a bound on the limit by more than the
 * rules' tolerance plus `coverage` sigmas of its own two measurements.
 * The argument is at rules_robust_free_distance (rules_robust_free.c).
 *
 * What it does not accept, and why: MU-PATH-LENGTH (the unit's shortest
 * forward-and-wheels path, from the two fitted formations: the front's
 * centre, heading and width come from every model, the doubted ones too; a
 * rear rank's placement moves the fitted centre and can widen the front),
 * MU-FORMATION-KEPT (a residual over every model) and the after-frame gaps
 * and edges. None of these is bounded from the fixed models alone here, so
 * an ILLEGAL resting only on them stays CANNOT TELL while placements are
 * left unjudged.
 *
 * How to use (rules_robust.c's classify, per violation of a pair's report):
 *   rules_robust_free_in in = {U0, U1, &pairing_params, o->check.limit_tolerance_mm, o->check.still_mm,
 *                              o->check.move};
 *   char why[RULES_TEXT_MAX];
 *   if (rules_robust_free_distance(&in, v, why, sizeof why) > 0) ... v stands under every placement ...
 *   rules_robust_free_lead(&unit_report, index_of_v, "", why);   // the ILLEGAL call says it
 */
#ifndef RULES_ROBUST_FREE_H
#define RULES_ROBUST_FREE_H

#include <stddef.h>

#include "rules_moves.h"
#include "rules_pairing.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct rules_robust_free_in {
    const rules_unit *before, *after;  /* the unit as the snapshots give it (never a working copy) */
    const rules_pairing_params *pp;    /* each model's sigma and the coverage */
    double tolerance_mm;               /* the rules' limit_tolerance_mm */
    double still_mm;                   /* the rules' still_mm: a unit whose models all moved less did not move */
    rules_move_type move;              /* the move asked: declared, or RULES_MOVE_AUTO (inferred per placement) */
} rules_robust_free_in;

/*
 * The number of fixed models that carry violation `v` whatever the doubted
 * models' placement (0: none, or `v` is not a measure this module bounds).
 * When > 0, `why` says which models, their distance and the limit's bound
 * ("red-4-1 and 2 more, seen in both pictures, ended 11.00\" (+/-0.02\") from
 * where they started, past 10.00\" ..."); "" otherwise.
 */
size_t rules_robust_free_distance(const rules_robust_free_in *in, const rules_violation *v, char *why, size_t cap);

/*
 * An ILLEGAL resting on violation `at` of `ur` (as rules_robust_free_distance said `why`): that violation leads the
 * report (so the call says it) and a note says which models carry it, after `part` (rules_words_partial) if any.
 */
void rules_robust_free_lead(rules_unit_report *ur, size_t at, const char *part, const char *why);

#endif
