/*
 * rules_plusminus: the +/- beside a measurement, from the snapshots' own
 * uncertainty: each model's `sigma_mm` (vision computes it), or by its
 * evidence when it states none (seen: exact; rough, inferred: rules_robust's
 * defaults). The same reach rules_robust judges with: a distance between two
 * frames has sigma hypot(before, after); +/- is `coverage` sigmas (2 by
 * default, about 95 %). Pure C; the pictures, report.json's "uncertainty"
 * and the words of a call (rules_words.h) all take their +/- from here, so they agree.
 *
 * How to use:
 *   rules_pm_params p; rules_pm_params_default(&p);
 *   double pm = rules_pm_distance(&p, before, after, "spears-7");   // mm, NAN when a frame lacks it
 *   double pv = rules_pm_violation(&p, before, after, ur, &ur->violations[0]);
 *   cJSON *j = rules_pm_to_json(&p, before, after, &report);        // report.json's "uncertainty"
 */
#ifndef RULES_PLUSMINUS_H
#define RULES_PLUSMINUS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct rules_pm_params {
    double coverage;           /* sigmas shown (default 2) */
    double sigma_rough_mm;     /* a rough model stating no sigma (rules_robust's default) */
    double sigma_inferred_mm;  /* an inferred one */
} rules_pm_params;

void rules_pm_params_default(rules_pm_params *p);
/* One sigma of a model's base centre, mm. */
double rules_pm_sigma(const rules_pm_params *p, const rules_model *m);
/* +/- of a model's distance from before to after, mm; NAN when either snapshot (or the model in it) is missing. */
double rules_pm_distance(const rules_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                         const char *model_id);
/* +/- of a violation's measured value in its own unit (lengths mm, angles rad); NAN when unknown, 0 for counts.
 * Gaps, edges and formations are measured in the after frame only. */
double rules_pm_violation(const rules_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                          const rules_unit_report *ur, const rules_violation *v);
/* |measured - limit| <= pm (false when pm is NAN). */
bool rules_pm_within(double measured, double limit, double pm);
/* report.json's "uncertainty": per unit, model and violation (docs/formats.md). Caller frees. */
cJSON *rules_pm_to_json(const rules_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                        const rules_report *r);

#endif
