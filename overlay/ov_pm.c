/* ov_pm: +/- from the snapshots' sigma_mm (see the header). */
#include "ov_pm.h"

#include <math.h>
#include <string.h>

#include "rules_json.h"
#include "rules_plusminus.h"

/* The +/- itself is rules/rules_plusminus.c's: the words of a call (rules_words.h) print the same figures. */
static rules_pm_params to_rules(const ov_pm_params *p)
{
    return (rules_pm_params){p->coverage, p->sigma_rough_mm, p->sigma_inferred_mm};
}

void ov_pm_params_default(ov_pm_params *p)
{
    rules_pm_params r;
    rules_pm_params_default(&r);
    p->coverage = r.coverage;
    p->sigma_rough_mm = r.sigma_rough_mm;
    p->sigma_inferred_mm = r.sigma_inferred_mm;
}

double ov_pm_sigma(const ov_pm_params *p, const rules_model *m)
{
    rules_pm_params r = to_rules(p);
    return rules_pm_sigma(&r, m);
}

static const rules_model *find(const rules_snapshot *s, const char *id)
{
    return s ? rules_snapshot_find_model(s, id, NULL) : NULL;
}

double ov_pm_distance(const ov_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                      const char *model_id)
{
    rules_pm_params r = to_rules(p);
    return rules_pm_distance(&r, before, after, model_id);
}

double ov_pm_violation(const ov_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
                       const rules_unit_report *ur, const rules_violation *v)
{
    rules_pm_params r = to_rules(p);
    return rules_pm_violation(&r, before, after, ur, v);
}

bool ov_pm_within(double measured, double limit, double pm) { return rules_pm_within(measured, limit, pm); }

static void add_len(cJSON *o, const char *key_mm, const char *key_in, double mm)
{
    if (isfinite(mm)) {
        base_json_add_number(o, key_mm, mm, 3);
        base_json_add_number(o, key_in, base_mm_to_in(mm), 4);
    }
}

static void add_model(cJSON *o, const char *prefix, const ov_pm_params *p, const rules_model *m)
{
    char k_mm[48], k_in[48], k_ev[48];
    snprintf(k_mm, sizeof k_mm, "sigma_%s_mm", prefix);
    snprintf(k_in, sizeof k_in, "sigma_%s_in", prefix);
    snprintf(k_ev, sizeof k_ev, "evidence_%s", prefix);
    if (!m)
        return;
    add_len(o, k_mm, k_in, ov_pm_sigma(p, m));
    cJSON_AddStringToObject(o, k_ev, rules_evidence_word(m->evidence));
}

cJSON *ov_pm_to_json(const ov_pm_params *p, const rules_snapshot *before, const rules_snapshot *after,
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
            double pm = ov_pm_distance(p, before, after, mm->id);
            add_len(o, "distance_plusminus_mm", "distance_plusminus_in", pm);
            bool close = isfinite(ur->rate_mm) && ov_pm_within(mm->distance_mm, ur->rate_mm, pm);
            unit_close = unit_close || close;
            cJSON_AddBoolToObject(o, "too_close_to_call", close);
        }
        cJSON *jv = cJSON_AddArrayToObject(ju, "violations");
        for (size_t i = 0; i < ur->n_violations; i++) {
            const rules_violation *v = &ur->violations[i];
            double pm = ov_pm_violation(p, before, after, ur, v);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(jv, o);
            cJSON_AddStringToObject(o, "code", v->code);
            if (isfinite(pm)) {
                if (v->quantity == RULES_QTY_ANGLE)
                    base_json_add_number(o, "measured_plusminus_deg", base_rad_to_deg(pm), 3);
                else if (v->quantity == RULES_QTY_LENGTH)
                    add_len(o, "measured_plusminus_mm", "measured_plusminus_in", pm);
            }
            bool close = ov_pm_within(v->measured, v->limit, pm);
            unit_close = unit_close || close;
            cJSON_AddBoolToObject(o, "too_close_to_call", close);
        }
        cJSON_AddBoolToObject(ju, "too_close_to_call", unit_close);
        cJSON_AddStringToObject(ju, "verdict", rules_verdict_word(ur->verdict));
    }
    return root;
}
