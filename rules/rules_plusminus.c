/* rules_plusminus: +/- from the snapshots' sigma_mm (see the header). */
#include "rules_plusminus.h"

#include <stdio.h>

#include "base_geom.h"
#include "base_json.h"

#include <math.h>
#include <string.h>

#include "rules_pairing.h"

/* rules_robust's defaults (rules_pairing.h holds them for both): the +/- shown is the reach judged. */
void rules_pm_params_default(rules_pm_params *p)
{
    p->coverage = RULES_COVERAGE_DEFAULT;
    p->sigma_rough_mm = RULES_SIGMA_ROUGH_MM_DEFAULT;
    p->sigma_inferred_mm = RULES_SIGMA_INFERRED_MM_DEFAULT;
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

static void add_len(cJSON *o, const char *key_mm, const char *key_in, double mm)
{
    if (isfinite(mm)) {
        base_json_add_number(o, key_mm, mm, 3);
        base_json_add_number(o, key_in, base_mm_to_in(mm), 4);
    }
}

static void add_model(cJSON *o, const char *prefix, const rules_pm_params *p, const rules_model *m)
{
    char k_mm[48], k_in[48], k_ev[48];
    snprintf(k_mm, sizeof k_mm, "sigma_%s_mm", prefix);
    snprintf(k_in, sizeof k_in, "sigma_%s_in", prefix);
    snprintf(k_ev, sizeof k_ev, "evidence_%s", prefix);
    if (!m)
        return;
    add_len(o, k_mm, k_in, rules_pm_sigma(p, m));
    cJSON_AddStringToObject(o, k_ev, rules_evidence_word(m->evidence));
}

cJSON *rules_pm_to_json(const rules_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                     const rules_report *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    base_json_add_number(root, "coverage_sigmas", p->coverage, 2);
    cJSON_AddStringToObject(root, "source", "snapshot sigma_mm (by evidence when a model states none)");
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t ui = 0; r && ui < r->n_units; ui++) {
        const rules_unit_report *ur = &r->units[ui];
        cJSON *ju = cJSON_CreateObject();
        cJSON_AddItemToArray(units, ju);
        cJSON_AddStringToObject(ju, "unit", ur->unit_id);
        bool unit_close = ur->verdict == RULES_VERDICT_CANNOT_TELL;
        cJSON *jm = cJSON_AddArrayToObject(ju, "models");
        for (size_t i = 0; i < ur->n_models; i++) {
            const rules_model_move *mm = &ur->models[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(jm, o);
            cJSON_AddStringToObject(o, "id", mm->id);
            add_model(o, "before", p, find(before, mm->id));
            add_model(o, "after", p, find(after, mm->id));
            double pm = rules_pm_distance(p, before, after, mm->id);
            add_len(o, "distance_plusminus_mm", "distance_plusminus_in", pm);
            bool close = isfinite(ur->rate_mm) && rules_pm_within(mm->distance_mm, ur->rate_mm, pm);
            unit_close = unit_close || close;
            cJSON_AddBoolToObject(o, "too_close_to_call", close);
        }
        cJSON *jv = cJSON_AddArrayToObject(ju, "violations");
        for (size_t i = 0; i < ur->n_violations; i++) {
            const rules_violation *v = &ur->violations[i];
            double pm = rules_pm_violation(p, before, after, ur, v);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(jv, o);
            cJSON_AddStringToObject(o, "code", v->code);
            if (isfinite(pm)) {
                if (v->quantity == RULES_QTY_ANGLE)
                    base_json_add_number(o, "measured_plusminus_deg", base_rad_to_deg(pm), 3);
                else if (v->quantity == RULES_QTY_LENGTH)
                    add_len(o, "measured_plusminus_mm", "measured_plusminus_in", pm);
            }
            bool close = rules_pm_within(v->measured, v->limit, pm);
            unit_close = unit_close || close;
            cJSON_AddBoolToObject(o, "too_close_to_call", close);
        }
        cJSON_AddBoolToObject(ju, "too_close_to_call", unit_close);
        cJSON_AddStringToObject(ju, "verdict", rules_verdict_word(ur->verdict));
    }
    return root;
}
