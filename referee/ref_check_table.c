/* ref_check_table: the pre-round table check's verdict (see the header). */
#include "ref_check_table.h"
#include "ref_check_parts.h"
#include "ref_table_parts.h"
#include "ref_roster_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* go and reason from the parts: the self-checks first, then resolution, units, projector. */
static void decide(ref_table_check *tc)
{
    const ref_checks *c = &tc->checks;
    tc->go = true;
    tc->reason[0] = 0;
    const ref_check_result *f = ref_checks_first_failure(c);
    if (f) {
        tc->go = false;
        snprintf(tc->reason, sizeof tc->reason, "%s", f->msg);
        return;
    }
    if (!tc->resolution_ok) {
        tc->go = false;
        snprintf(tc->reason, sizeof tc->reason,
                 "the smallest tag has %.2f px per cell (limit %.1f): move the camera closer or use a larger picture",
                 c->min_cell_px, REF_TABLE_MIN_CELL_PX);
        return;
    }
    for (size_t i = 0; !tc->units_optional && i < tc->n_units; i++)
        if (tc->units[i].seen == 0) {
            tc->go = false;
            snprintf(tc->reason, sizeof tc->reason,
                     "no model of unit %s%s%s is seen (0/%zu placed from its tags): is it on the table? A hand or a "
                     "figure over its tags? Clear the table and check again",
                     tc->units[i].id, tc->units[i].roster ? " of " : "", tc->units[i].roster ? tc->units[i].roster : "",
                     tc->units[i].total);
            return;
        }
    if (tc->projector_status == REF_PROJ_CHECKED && !tc->projector.ok) {
        tc->go = false;
        snprintf(tc->reason, sizeof tc->reason, "%s", tc->projector.msg);
    }
}

void ref_table_check_decide(ref_table_check *tc) { decide(tc); }

int ref_table_check_parts(const vis_detector *det, const ref_check_names *names, const base_view *image,
                          const vis_tag_detection *tags, size_t n_tags, const vis_report *rep,
                          const rules_snapshot *snap, ref_table_check *out)
{
    memset(out, 0, sizeof *out);
    ref_check_parts(det, names, image, tags, n_tags, rep, &out->checks);
    const roster_map *r = det->map;
    out->resolution_ok = !isnan(out->checks.min_cell_px) && out->checks.min_cell_px >= REF_TABLE_MIN_CELL_PX;
    if (!(out->units = calloc(r->n_units ? r->n_units : 1, sizeof *out->units)))
        return -1;
    out->n_units = r->n_units;
    for (size_t i = 0; i < r->n_units; i++)
        out->units[i] = (ref_table_unit){r->units[i].id, NULL, ref_unit_models_seen(snap, r->units[i].id),
                                         r->units[i].n_models};
    decide(out);
    return 0;
}

void ref_table_check_set_projector(ref_table_check *tc, ref_proj_status status, bool simulated,
                                   const ref_proj_result *r)
{
    tc->projector_status = status;
    tc->projector_simulated = simulated;
    if ((status == REF_PROJ_CHECKED || status == REF_PROJ_NOT_SEEN) && r)
        tc->projector = *r;
    decide(tc);
}

void ref_table_check_units_optional(ref_table_check *tc)
{
    tc->units_optional = true;
    decide(tc);
}

void ref_table_check_clear(ref_table_check *tc)
{
    free(tc->units);
    tc->units = NULL;
    tc->n_units = 0;
}

static const char *const status_words[] = {"not mapped", "not checked", "checked", "not seen"};

cJSON *ref_table_check_to_json(const ref_table_check *tc)
{
    const ref_checks *c = &tc->checks;
    cJSON *root = ref_checks_to_json(c);
    if (!root)
        return NULL;
    cJSON_AddBoolToObject(root, "go", tc->go);
    if (!tc->go)
        cJSON_AddStringToObject(root, "reason", tc->reason);
    cJSON *res = cJSON_AddObjectToObject(root, "resolution");
    if (!isnan(c->min_cell_px))
        cJSON_AddNumberToObject(res, "cell_px", round(c->min_cell_px * 1e3) / 1e3);
    cJSON_AddNumberToObject(res, "limit", REF_TABLE_MIN_CELL_PX);
    cJSON_AddBoolToObject(res, "ok", tc->resolution_ok);
    cJSON *ex = cJSON_AddObjectToObject(root, "exposure");
    if (!isnan(c->clipped_share))
        cJSON_AddNumberToObject(ex, "clipped_share", round(c->clipped_share * 1e4) / 1e4);
    if (!isnan(c->dark_white_level))
        cJSON_AddNumberToObject(ex, "white_level", c->dark_white_level);
    cJSON_AddBoolToObject(root, "units_required", !tc->units_optional);
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t i = 0; i < tc->n_units; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "unit", tc->units[i].id);
        cJSON_AddNumberToObject(j, "tags_seen", (double)tc->units[i].seen); /* the name it had: models seen */
        cJSON_AddNumberToObject(j, "models_seen", (double)tc->units[i].seen);
        if (tc->units[i].roster)
            cJSON_AddStringToObject(j, "roster", tc->units[i].roster);
        cJSON_AddNumberToObject(j, "models", (double)tc->units[i].total);
        cJSON_AddBoolToObject(j, "ok", tc->units[i].seen > 0);
        cJSON_AddItemToArray(units, j);
    }
    const bool thrown = tc->projector_status == REF_PROJ_CHECKED || tc->projector_status == REF_PROJ_NOT_SEEN;
    cJSON *pj = thrown ? ref_proj_result_to_json(&tc->projector) : cJSON_CreateObject();
    if (pj) {
        cJSON_AddStringToObject(pj, "status", status_words[tc->projector_status]);
        if (thrown)
            cJSON_AddBoolToObject(pj, "simulated", tc->projector_simulated);
        else
            cJSON_AddBoolToObject(pj, "ok", true);
        cJSON_AddItemToObject(root, "projector", pj);
    }
    return root;
}
