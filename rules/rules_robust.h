/*
 * rules_robust: the verdict on a move that holds under every placement of
 * the models the evidence allows. A judge forgives "cannot tell"; a wrong
 * ILLEGAL, never.
 *
 * Snapshots from a camera carry, per model, how it was known (`evidence`:
 * seen, rough, inferred) and one sigma of its position (`sigma_mm`), per
 * unit the other placements of its inferred models vision could not rule
 * out (`alternatives`), and the units it saw nothing of (`unseen`). For
 * each unit this module judges the move (rules_move_check) under every pair
 * of placements, before x after, and combines:
 *   - LEGAL when legal under every pair;
 *   - ILLEGAL when, under every pair, a violation stands: its measured
 *     value is past the limit by more than the rules' own tolerance plus
 *     `coverage` sigmas of the models it concerns;
 *   - CANNOT_TELL otherwise (legal under some pairs and not others, or
 *     past the limit only within the measurement's reach, or judged under
 *     only some of the placements), `why` naming the models and the reason;
 *     but judged under only some placements, a violation that stands
 *     wherever the doubted models stand (rules_robust_free.h: a model
 *     measured in both frames past the largest rate its move could be
 *     judged by, beyond its own reach) is ILLEGAL all the same: that
 *     violation leads the unit's report and a note names its models;
 *   - NOT_SEEN for a unit listed unseen in either snapshot.
 * A unit whose every model moved less than max(jitter_mm, coverage sigmas)
 * and turned less than jitter_rad did not move (the watch's settle rule,
 * docs/formats.md "When the table is settled"); it is not judged.
 *
 * Identities of models not seen in a frame (rules_pairing.h). Models of one unit are
 * interchangeable on the table, and a camera tells them apart only by
 * their tags, but the rules measure each model's own distance. Decision: a
 * block keeps its slots. Before judging a pair, the models inferred in a
 * frame are re-paired with that frame's inferred places so that each
 * stands where the unit's motion (fitted to the models measured in both
 * frames; without any, to the two fitted formations) carries its place in
 * the other frame (least squares over the pairing); for a unit that did not
 * move as a block, where each one stood before. And when the unit moved as
 * a block as far as its measured models show, only pairs of placements
 * under which its unseen models kept their slots are judged (a rear rank
 * hidden in both pictures is taken to have moved with its unit, not to
 * have been rearranged unseen). Where identities still decide a call, it
 * is explicit: an ILLEGAL that rests only on the distance of models not
 * seen in both frames is judged again pairing them by their own nearest
 * places; if that clears it, the call is CANNOT_TELL ("it depends on which
 * unseen model stands where").
 *
 * A model without a stated sigma counts as exact when seen (a snapshot
 * written by hand), `sigma_rough_mm` when rough and `sigma_inferred_mm`
 * when inferred.
 *
 * How to use (in place of rules_move_check):
 *   rules_robust_options o;
 *   rules_robust_options_default(&o);
 *   o.check.move = RULES_MOVE_MARCH;        // the rules' own options
 *   rules_report r; rules_report_init(&r);
 *   if (rules_robust_check(before, after, &o, &r, &err) < 0) -> bad input (err names unit/model/field)
 *   r.legal: no ILLEGAL call stands; r.units[i].verdict / .why per unit
 *   rules_report_clear(&r);
 */
#ifndef RULES_ROBUST_H
#define RULES_ROBUST_H

#include <stddef.h>

#include "base_error.h"
#include "rules_move.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct rules_robust_options {
    rules_check_options check;  /* move type, --unit, the rules' tolerances */
    double coverage;            /* sigmas a measurement may be off by; default 2 (about 95 %) */
    double jitter_mm;           /* default 2.0 (the watch's --jitter-mm) */
    double jitter_rad;          /* default 1 degree */
    double sigma_rough_mm;      /* for a rough model with no sigma stated; default 1.0 */
    double sigma_inferred_mm;   /* for an inferred model with no sigma stated; default 1.5 */
    size_t max_pairs;           /* placement pairs judged per unit; default 64 (beyond: CANNOT_TELL) */
} rules_robust_options;

void rules_robust_options_default(rules_robust_options *o);

/*
 * Judges every unit as above (or only o->check.unit_id). Returns 0 with the
 * verdict in `out`, or -1 for input that cannot be judged (as
 * rules_move_check), with `err` naming the unit, model and field.
 */
int rules_robust_check(const rules_snapshot *before, const rules_snapshot *after, const rules_robust_options *o,
                       rules_report *out, base_error *err);

#endif
