/* The renderer's truth: clearing it and writing it as "tableref.truth" JSON (docs/formats.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds_truth.h"

#include <stdio.h>

#include "base_fields.h"
#include "rules_relief.h"
#include "rules_json.h"
#include "vis_camera.h"

void ds_truth_clear(ds_truth *t)
{
    if (!t)
        return;
    free(t->tags);
    free(t->models);
    memset(t, 0, sizeof *t);
}

double ds_truth_tag_visible(const ds_truth_tag *t)
{
    return t->inside ? 1 - t->occluded : 0;
}

static const char *const truth_keys[] = {"format", "version", "image", "pixel_convention", "models", "tags", "units",
                                         NULL};
static const char *const model_keys[] = {"unit",      "id",        "tag_id",   "x_mm",
                                         "y_mm",      "facing_deg", "centre_px", "tag_fully_visible",
                                         "tag_visible_fraction", "hand_hides_tag", "slot_file_rank", NULL};
static const char *const tag_keys[] = {"id",
                                       "model",
                                       "corners_px",
                                       "edge_px",
                                       "occluded_fraction",
                                       "occluded_by_figure",
                                       "occluded_by_hand",
                                       "printed_occluded_fraction",
                                       "inside_frame",
                                       "fully_visible",
                                       NULL};
static const char *const unit_keys[] = {"id", "kind", "rear_rank", NULL};

/* Every object of the array `key` against `keys`. */
static int check_items(const cJSON *root, const char *key, const char *const *keys, base_error *err)
{
    const cJSON *it, *list = base_json_field(root, key);
    int i = 0;
    if (!cJSON_IsArray(list))
        list = NULL;
    cJSON_ArrayForEach(it, list)
    {
        char where[48];
        snprintf(where, sizeof where, "%s[%d]", key, i++);
        if (base_fields_known(it, where, keys, err) < 0)
            return -1;
    }
    return 0;
}

int ds_truth_check_keys(const cJSON *root, base_error *err)
{
    if (base_fields_known(root, "", truth_keys, err) < 0 || check_items(root, "models", model_keys, err) < 0 ||
        check_items(root, "tags", tag_keys, err) < 0 || check_items(root, "units", unit_keys, err) < 0)
        return -1;
    return base_fields_all_checked(root, NULL, err);
}

cJSON *ds_truth_to_json(const ds_truth *t, const rules_snapshot *snap, const roster_file *roster,
                        const calib_file *cam, const char *image_name)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    vis_camera vc;
    vis_camera_init(&vc, cam);
    cJSON_AddStringToObject(root, "format", "tableref.truth");
    cJSON_AddNumberToObject(root, "version", 2);
    if (image_name)
        cJSON_AddStringToObject(root, "image", image_name);
    cJSON_AddStringToObject(root, "pixel_convention", "opencv (centre of the top-left pixel is 0,0)");
    cJSON *models = cJSON_AddArrayToObject(root, "models");
    for (size_t ui = 0; ui < snap->n_units; ui++)
        for (size_t mi = 0; mi < snap->units[ui].n_models; mi++) {
            const rules_model *m = &snap->units[ui].models[mi];
            const roster_model *rm = NULL;
            for (size_t k = 0; k < roster->n_models && !rm; k++)
                if (strcmp(roster->models[k].id, m->id) == 0)
                    rm = &roster->models[k];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "unit", snap->units[ui].id);
            cJSON_AddStringToObject(o, "id", m->id);
            if (rm)
                cJSON_AddNumberToObject(o, "tag_id", rm->tag_id);
            base_json_add_number(o, "x_mm", m->pos.x, 4);
            base_json_add_number(o, "y_mm", m->pos.y, 4);
            base_json_add_number(o, "facing_deg", base_rad_to_deg(m->facing), 4);
            /* The base centre at its tag's height: over the surface it stands on (a hill's, or the board). */
            double h = rm ? rules_relief_height(snap->terrain, snap->n_terrain, m->pos, NULL) +
                                roster->units[rm->unit].mount.height
                          : 0;
            double X[3] = {m->pos.x, m->pos.y, h}, px[2];
            if (vis_camera_project(&vc, X, px)) {
                cJSON *a = cJSON_AddArrayToObject(o, "centre_px");
                cJSON_AddItemToArray(a, cJSON_CreateNumber(round(px[0] * 1e4) / 1e4));
                cJSON_AddItemToArray(a, cJSON_CreateNumber(round(px[1] * 1e4) / 1e4));
            }
            for (size_t k = 0; rm && k < t->n_tags; k++)
                if (t->tags[k].id == rm->tag_id) {
                    cJSON_AddBoolToObject(o, "tag_fully_visible", t->tags[k].fully_visible != 0);
                    base_json_add_number(o, "tag_visible_fraction", ds_truth_tag_visible(&t->tags[k]), 4);
                    cJSON_AddBoolToObject(o, "hand_hides_tag", t->tags[k].occluded_hand > 0);
                }
            cJSON_AddItemToArray(models, o);
        }
    cJSON *tags = cJSON_AddArrayToObject(root, "tags");
    for (size_t i = 0; i < t->n_tags; i++) {
        const ds_truth_tag *tt = &t->tags[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", tt->id);
        if (tt->model >= 0)
            cJSON_AddStringToObject(o, "model", roster->models[tt->model].id);
        else
            cJSON_AddStringToObject(o, "model", "board");
        cJSON *cs = cJSON_AddArrayToObject(o, "corners_px");
        for (int k = 0; k < 4; k++) {
            cJSON *pt = cJSON_CreateArray();
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(tt->corners[k][0] * 1e4) / 1e4));
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(tt->corners[k][1] * 1e4) / 1e4));
            cJSON_AddItemToArray(cs, pt);
        }
        base_json_add_number(o, "edge_px", tt->edge_px, 3);
        base_json_add_number(o, "occluded_fraction", tt->occluded, 4);
        base_json_add_number(o, "occluded_by_figure", tt->occluded_figure, 4);
        base_json_add_number(o, "occluded_by_hand", tt->occluded_hand, 4);
        base_json_add_number(o, "printed_occluded_fraction", tt->border_occluded, 4);
        cJSON_AddBoolToObject(o, "inside_frame", tt->inside != 0);
        cJSON_AddBoolToObject(o, "fully_visible", tt->fully_visible != 0);
        cJSON_AddItemToArray(tags, o);
    }
    return root;
}
