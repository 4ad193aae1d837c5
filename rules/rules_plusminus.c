/* rules_plusminus: +/- from the snapshots' sigma_mm (see the header). */
#include "rules_plusminus.h"

#include <math.h>
#include <string.h>

#include "rules_pairing.h"
#include "rules_robust.h"

void rules_pm_params_default(rules_pm_params *p)
{
    rules_robust_options o;
    rules_robust_options_default(&o);
    p->coverage = o.coverage;
    p->sigma_rough_mm = o.sigma_rough_mm;
    p->sigma_inferred_mm = o.sigma_inferred_mm;
}

double rules_pm_sigma(const rules_pm_params *p, const rules_model *m)
{
    rules_pairing_params pp = {0};
    pp.sigma_rough_mm = p->sigma_rough_mm;
    pp.sigma_inferred_mm = p->sigma_inferred_mm;
    return rules_pairing_sigma(&pp, m);
}

static const rules_model *find(const rules_snapshot *s, const char *id)
{
    return s ? rules_snapshot_find_model(s, id, NULL) : NULL;
}

double rules_pm_distance(const rules_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                         const char *model_id)
{
    const rules_model *a = find(before, model_id), *b = find(after, model_id);
    if (!a || !b)
        return NAN;
    return p->coverage * hypot(rules_pm_sigma(p, a), rules_pm_sigma(p, b));
}

static bool after_frame_only(const char *code)
{
    return strncmp(code, "MU-SPACING", 10) == 0 || strcmp(code, "MU-BOARD-EDGE") == 0 ||
           strcmp(code, "MU-FORMATION") == 0;
}

/* One model's reach for a violation: both frames, or twice the after frame's (measured against a neighbour). */
static double reach(const rules_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                    const char *id, bool after_only)
{
    const rules_model *b = find(after, id);
    if (after_only)
        return b ? p->coverage * sqrt(2.0) * rules_pm_sigma(p, b) : NAN;
    return rules_pm_distance(p, before, after, id);
}

double rules_pm_violation(const rules_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                          const rules_unit_report *ur, const rules_violation *v)
{
    if (v->quantity == RULES_QTY_COUNT)
        return 0;
    const bool ao = after_frame_only(v->code);
    double s = NAN;
    if (v->n_models) {
        for (size_t i = 0; i < v->n_models; i++) {
            double r = reach(p, before, after, v->models[i], ao);
            if (isfinite(r) && !(r <= s))
                s = r;
        }
    } else {
        /* A unit-wide figure (path, centre) comes from the fitted formation: the models' RMS. */
        double s2 = 0;
        size_t n = 0;
        for (size_t i = 0; i < ur->n_models; i++) {
            double r = reach(p, before, after, ur->models[i].id, ao);
            if (isfinite(r))
                s2 += r * r, n++;
        }
        if (n)
            s = sqrt(s2 / n);
    }
    if (v->quantity == RULES_QTY_ANGLE)
        return ur->front_width_mm > 0 && isfinite(s) ? s / ur->front_width_mm : NAN;
    return s;
}

bool rules_pm_within(double measured, double limit, double pm)
{
    return isfinite(pm) && isfinite(measured) && isfinite(limit) && fabs(measured - limit) <= pm;
}
