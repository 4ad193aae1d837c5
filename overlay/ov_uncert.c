#include "ov_uncert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ov_map.h"
#include "rules_json.h"

void ov_uncert_source_default(ov_uncert_source *s, const calib_file *calib, double pose_rms_px)
{
    memset(s, 0, sizeof *s);
    s->calib = calib;
    s->pose_rms_px = pose_rms_px;
    s->corner_px = 0.1;
    s->calib_mm = calib && calib->quality.present && isfinite(calib->quality.board_error_mm)
                      ? calib->quality.board_error_mm
                      : 0.0;
    s->mount_mm = 0.2;
    s->formation_mm = 1.5;
}

void ov_uncert_init(ov_uncert *u)
{
    memset(u, 0, sizeof *u);
    u->coverage = 2.0;
}

void ov_uncert_clear(ov_uncert *u)
{
    double k = u->coverage;
    free(u->models);
    ov_uncert_init(u);
    u->coverage = k;
}

static ov_model_uncert *find(const ov_uncert *u, const char *id)
{
    for (size_t i = 0; i < u->n; i++)
        if (strcmp(u->models[i].id, id) == 0)
            return &u->models[i];
    return NULL;
}

int ov_uncert_add_snapshot(ov_uncert *u, const rules_snapshot *s, int which, const ov_uncert_source *src,
                           rules_error *err)
{
    if (which != OV_UNCERT_BEFORE && which != OV_UNCERT_AFTER) {
        rules_error_set(err, "ov_uncert_add_snapshot: frame must be before or after");
        return -1;
    }
    ov_map cam;
    if (src->calib)
        ov_map_init_camera(&cam, src->calib);
    double pose = isfinite(src->pose_rms_px) ? src->pose_rms_px : 0.3;
    for (size_t ui = 0; ui < s->n_units; ui++) {
        const rules_unit *un = &s->units[ui];
        for (size_t mi = 0; mi < un->n_models; mi++) {
            const rules_model *m = &un->models[mi];
            ov_model_uncert *e = find(u, m->id);
            if (!e) {
                if (u->n == u->cap) {
                    size_t cap = u->cap ? 2 * u->cap : 32;
                    ov_model_uncert *nm = realloc(u->models, cap * sizeof *nm);
                    if (!nm) {
                        rules_error_set(err, "out of memory");
                        return -1;
                    }
                    u->models = nm;
                    u->cap = cap;
                }
                e = &u->models[u->n++];
                memset(e, 0, sizeof *e);
                snprintf(e->id, sizeof e->id, "%s", m->id);
                e->sigma_mm[0] = e->sigma_mm[1] = NAN;
            }
            double px_per_mm = src->calib ? ov_map_scale(&cam, m->pos) : 1.0;
            double s_mm = px_per_mm > 0 ? 1.0 / px_per_mm : 1.0;
            double a = s_mm * src->corner_px / 2, b = s_mm * pose;
            double seen2 = a * a + b * b + src->calib_mm * src->calib_mm + src->mount_mm * src->mount_mm;
            double v = m->inferred ? seen2 + src->formation_mm * src->formation_mm : seen2;
            e->sigma_mm[which] = sqrt(v);
            e->inferred[which] = m->inferred;
        }
    }
    return 0;
}

double ov_uncert_sigma(const ov_uncert *u, const char *model_id, int which)
{
    const ov_model_uncert *e = find(u, model_id);
    return e && (which == 0 || which == 1) ? e->sigma_mm[which] : NAN;
}

double ov_uncert_distance(const ov_uncert *u, const char *model_id)
{
    const ov_model_uncert *e = find(u, model_id);
    if (!e || !isfinite(e->sigma_mm[0]) || !isfinite(e->sigma_mm[1]))
        return NAN;
    return u->coverage * hypot(e->sigma_mm[0], e->sigma_mm[1]);
}

double ov_uncert_violation(const ov_uncert *u, const rules_unit_report *ur, const rules_violation *v)
{
    double worst = NAN;
    if (v->n_models) {
        for (size_t i = 0; i < v->n_models; i++) {
            double d = ov_uncert_distance(u, v->models[i]);
            if (isfinite(d) && !(d <= worst))
                worst = d;
        }
    } else {
        for (size_t i = 0; i < ur->n_models; i++) {
            double d = ov_uncert_distance(u, ur->models[i].id);
            if (isfinite(d) && !(d <= worst))
                worst = d;
        }
    }
    switch (v->quantity) {
    case RULES_QTY_LENGTH:
        return worst;
    case RULES_QTY_ANGLE:
        /* A facing comes from where the front corners are: two ends a front width apart. */
        return ur->front_width_mm > 0 && isfinite(worst) ? worst / ur->front_width_mm : NAN;
    default:
        return NAN;
    }
}

bool ov_uncert_too_close(double measured, double limit, double plusminus)
{
    return isfinite(plusminus) && isfinite(measured) && isfinite(limit) && fabs(measured - limit) <= plusminus;
}

bool ov_uncert_unit_too_close(const ov_uncert *u, const rules_unit_report *ur)
{
    if (!u)
        return false;
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        if (ov_uncert_too_close(v->measured, v->limit, ov_uncert_violation(u, ur, v)))
            return true;
    }
    if (ur->rate_mm > 0 && isfinite(ur->rate_mm))
        for (size_t i = 0; i < ur->n_models; i++)
            if (ov_uncert_too_close(ur->models[i].distance_mm, ur->rate_mm, ov_uncert_distance(u, ur->models[i].id)))
                return true;
    return false;
}

static void add_len(cJSON *o, const char *key_mm, const char *key_in, double mm)
{
    if (isfinite(mm)) {
        rules_json_add_number(o, key_mm, mm, 3);
        rules_json_add_number(o, key_in, rules_mm_to_in(mm), 4);
    }
}

cJSON *ov_uncert_to_json(const ov_uncert *u, const rules_report *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    rules_json_add_number(root, "coverage_sigmas", u->coverage, 2);
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t ui = 0; r && ui < r->n_units; ui++) {
        const rules_unit_report *ur = &r->units[ui];
        cJSON *ju = cJSON_CreateObject();
        cJSON_AddItemToArray(units, ju);
        cJSON_AddStringToObject(ju, "unit", ur->unit_id);
        cJSON_AddBoolToObject(ju, "too_close_to_call", ov_uncert_unit_too_close(u, ur));
        cJSON *jm = cJSON_AddArrayToObject(ju, "models");
        for (size_t i = 0; i < ur->n_models; i++) {
            const rules_model_move *mm = &ur->models[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(jm, o);
            cJSON_AddStringToObject(o, "id", mm->id);
            const ov_model_uncert *e = find(u, mm->id);
            if (e) {
                add_len(o, "sigma_before_mm", "sigma_before_in", e->sigma_mm[0]);
                add_len(o, "sigma_after_mm", "sigma_after_in", e->sigma_mm[1]);
                cJSON_AddBoolToObject(o, "inferred_before", e->inferred[0]);
                cJSON_AddBoolToObject(o, "inferred_after", e->inferred[1]);
            }
            double pm = ov_uncert_distance(u, mm->id);
            add_len(o, "distance_plusminus_mm", "distance_plusminus_in", pm);
            cJSON_AddBoolToObject(o, "too_close_to_call",
                                  isfinite(ur->rate_mm) && ov_uncert_too_close(mm->distance_mm, ur->rate_mm, pm));
        }
        cJSON *jv = cJSON_AddArrayToObject(ju, "violations");
        for (size_t i = 0; i < ur->n_violations; i++) {
            const rules_violation *v = &ur->violations[i];
            double pm = ov_uncert_violation(u, ur, v);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(jv, o);
            cJSON_AddStringToObject(o, "code", v->code);
            if (isfinite(pm)) {
                if (v->quantity == RULES_QTY_ANGLE)
                    rules_json_add_number(o, "measured_plusminus_deg", rules_rad_to_deg(pm), 3);
                else
                    add_len(o, "measured_plusminus_mm", "measured_plusminus_in", pm);
            }
            cJSON_AddBoolToObject(o, "too_close_to_call", ov_uncert_too_close(v->measured, v->limit, pm));
        }
    }
    return root;
}
