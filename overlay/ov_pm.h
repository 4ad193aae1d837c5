/*
 * ov_pm: the +/- that pictures and reports print beside a measurement,
 * from the snapshots' own uncertainty: each model's `sigma_mm` (vision
 * computes it, vision/vis_uncert.h), or by its evidence when it states
 * none (seen: exact; rough, inferred: rules_robust's defaults). The same
 * reach rules_robust judges with: a distance between two frames has sigma
 * hypot(before, after); +/- is `coverage` sigmas (2 by default, ~95 %).
 *
 * How to use:
 *   ov_pm_params p; ov_pm_params_default(&p);
 *   double pm = ov_pm_distance(&p, before, after, "spears-7");   // mm, NAN when a frame lacks it
 *   cJSON *j = ov_pm_to_json(&p, before, after, &report);        // report.json's "uncertainty"
 */
#ifndef OV_PM_H
#define OV_PM_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct ov_pm_params {
    double coverage;           /* sigmas shown (default 2) */
    double sigma_rough_mm;     /* a rough model stating no sigma (rules_robust's default) */
    double sigma_inferred_mm;  /* an inferred one */
} ov_pm_params;

void ov_pm_params_default(ov_pm_params *p);
/* One sigma of a model's base centre, mm. */
double ov_pm_sigma(const ov_pm_params *p, const rules_model *m);
/* +/- of a model's distance from before to after, mm; NAN when either snapshot lacks the model. */
double ov_pm_distance(const ov_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                      const char *model_id);
/* +/- of a violation's measured value in its own unit (lengths mm, angles rad); NAN when unknown, 0 for counts.
 * Gaps, edges and formations are measured in the after frame only. */
double ov_pm_violation(const ov_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                       const rules_unit_report *ur, const rules_violation *v);
/* |measured - limit| <= pm (false when pm is NAN). */
bool ov_pm_within(double measured, double limit, double pm);
/* report.json's "uncertainty": per unit, model and violation (docs/formats.md). Caller frees. */
cJSON *ov_pm_to_json(const ov_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                     const rules_report *r);

#endif
