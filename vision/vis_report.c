#include "vis_report.h"
#include "base_array.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vadd(vis_report *r, vis_issue_kind kind, int tag_id, const char *model, const char *unit,
                const double px[2], const char *fmt, va_list ap)
{
    if (base_array_reserve((void **)&r->items, &r->cap, r->n + 1, sizeof *r->items, 16) < 0)
        return -1;
    vis_issue *it = &r->items[r->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->tag_id = tag_id;
    snprintf(it->model, sizeof it->model, "%s", model ? model : "");
    snprintf(it->unit, sizeof it->unit, "%s", unit ? unit : "");
    it->px[0] = px ? px[0] : NAN;
    it->px[1] = px ? px[1] : NAN;
    vsnprintf(it->msg, sizeof it->msg, fmt, ap);
    return 0;
}

int vis_report_add(vis_report *r, vis_issue_kind kind, int tag_id, const char *model, const double px[2],
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vadd(r, kind, tag_id, model, NULL, px, fmt, ap);
    va_end(ap);
    return rc;
}

int vis_report_add_unit(vis_report *r, vis_issue_kind kind, const char *unit, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vadd(r, kind, -1, NULL, unit, NULL, fmt, ap);
    va_end(ap);
    return rc;
}

void vis_report_clear(vis_report *r)
{
    if (!r)
        return;
    free(r->items);
    free(r->heights);
    memset(r, 0, sizeof *r);
}

int vis_report_add_height(vis_report *r, const vis_unit_height *h)
{
    vis_unit_height *grown = realloc(r->heights, (r->n_heights + 1) * sizeof *grown);
    if (!grown)
        return -1;
    r->heights = grown;
    r->heights[r->n_heights++] = *h;
    return 0;
}

const char *vis_issue_kind_word(vis_issue_kind k)
{
    switch (k) {
    case VIS_ISSUE_UNKNOWN_ID: return "unknown_id";
    case VIS_ISSUE_DUPLICATE_ID: return "duplicate_id";
    case VIS_ISSUE_OFF_BOARD: return "off_board";
    case VIS_ISSUE_BAD_SIZE: return "bad_size";
    case VIS_ISSUE_DISTORTED: return "distorted";
    case VIS_ISSUE_INFERRED: return "inferred";
    case VIS_ISSUE_MISSING: return "missing";
    case VIS_ISSUE_POSE: return "pose";
    case VIS_ISSUE_RECOVERED: return "recovered";
    case VIS_ISSUE_READ: return "read";
    case VIS_ISSUE_UNIT_UNSEEN: return "unit_unseen";
    case VIS_ISSUE_HEIGHT: return "height";
    }
    return "?";
}

bool vis_issue_is_warning(vis_issue_kind k)
{
    switch (k) {
    case VIS_ISSUE_DISTORTED:
    case VIS_ISSUE_INFERRED:
    case VIS_ISSUE_RECOVERED:
    case VIS_ISSUE_READ: return false;
    default: return true;
    }
}

cJSON *vis_report_to_json(const vis_report *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddNumberToObject(o, "tags_detected", (double)r->tags_detected);
    cJSON_AddNumberToObject(o, "board_tags_used", (double)r->board_tags_used);
    cJSON_AddBoolToObject(o, "pose_refined", r->pose_refined != 0);
    if (!isnan(r->pose_rms_px) && r->board_tags_used)
        cJSON_AddNumberToObject(o, "pose_rms_px", round(r->pose_rms_px * 1e4) / 1e4);
    cJSON_AddNumberToObject(o, "models_seen", (double)r->models_seen);
    cJSON_AddNumberToObject(o, "models_inferred", (double)r->models_inferred);
    cJSON_AddNumberToObject(o, "models_missing", (double)r->models_missing);
    cJSON_AddNumberToObject(o, "tags_read", (double)r->tags_read);
    cJSON_AddNumberToObject(o, "units_unseen", (double)r->units_unseen);
    if (r->rim_labels > 0) {
        /* Only a roster with rim labels (vis_rim_units.h): every other report is as it was. */
        cJSON_AddNumberToObject(o, "rim_labels", (double)r->rim_labels);
        cJSON_AddNumberToObject(o, "rim_models", (double)r->rim_models);
        cJSON_AddNumberToObject(o, "rim_ms", round(r->rim_ms));
    }
    cJSON *arr = cJSON_AddArrayToObject(o, "issues");
    for (size_t i = 0; i < r->n; i++) {
        const vis_issue *it = &r->items[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "kind", vis_issue_kind_word(it->kind));
        if (it->tag_id >= 0)
            cJSON_AddNumberToObject(j, "tag_id", it->tag_id);
        if (it->model[0])
            cJSON_AddStringToObject(j, "model", it->model);
        if (it->unit[0])
            cJSON_AddStringToObject(j, "unit", it->unit);
        if (!isnan(it->px[0])) {
            cJSON *p = cJSON_AddArrayToObject(j, "px");
            cJSON_AddItemToArray(p, cJSON_CreateNumber(round(it->px[0] * 10) / 10));
            cJSON_AddItemToArray(p, cJSON_CreateNumber(round(it->px[1] * 10) / 10));
        }
        cJSON_AddStringToObject(j, "message", it->msg);
        cJSON_AddItemToArray(arr, j);
    }
    return o;
}
