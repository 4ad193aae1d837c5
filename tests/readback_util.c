#include "readback_util.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "media.h"
#include "rules_json.h"
#include "vt_detector.h"

cJSON *rb_pair(double a, double b)
{
    const double v[2] = {a, b};
    return cJSON_CreateDoubleArray(v, 2);
}

void rb_table_start(cJSON **roster, cJSON **snap, double w, double d, double inset, double tag_mm, cJSON **ru,
                    cJSON **su)
{
    *roster = rules_json_document("tableref.roster", 1);
    *snap = rules_json_document("tableref.snapshot", 1);
    cJSON_AddStringToObject(*roster, "family", "tag36h11");
    cJSON *board = cJSON_AddObjectToObject(*roster, "board"), *sb = cJSON_AddObjectToObject(*snap, "board");
    cJSON_AddNumberToObject(board, "width_mm", w), cJSON_AddNumberToObject(board, "depth_mm", d);
    cJSON_AddNumberToObject(sb, "width_mm", w), cJSON_AddNumberToObject(sb, "depth_mm", d);
    cJSON *bt = cJSON_AddArrayToObject(board, "tags");
    const double corners[4][2] = {{inset, inset}, {w - inset, inset}, {w - inset, d - inset}, {inset, d - inset}};
    for (int i = 0; i < 4; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "id", i), cJSON_AddNumberToObject(t, "x_mm", corners[i][0]);
        cJSON_AddNumberToObject(t, "y_mm", corners[i][1]), cJSON_AddNumberToObject(t, "height_mm", 0);
        cJSON_AddNumberToObject(t, "rotation_deg", 0), cJSON_AddNumberToObject(t, "size_mm", tag_mm);
        cJSON_AddItemToArray(bt, t);
    }
    cJSON_AddStringToObject(*snap, "ruleset", "t9a-2ed");
    *ru = cJSON_AddArrayToObject(*roster, "units");
    *su = cJSON_AddArrayToObject(*snap, "units");
}

void rb_unit_start(cJSON *ru, cJSON *su, const char *id, double w, double d, cJSON **unit, cJSON **snap_unit)
{
    cJSON *u = cJSON_CreateObject(), *s = cJSON_CreateObject();
    cJSON_AddStringToObject(u, "id", id), cJSON_AddStringToObject(s, "id", id);
    cJSON_AddStringToObject(u, "side", "red"), cJSON_AddStringToObject(s, "side", "red");
    cJSON_AddItemToObject(u, "base_mm", rb_pair(w, d)), cJSON_AddItemToObject(s, "base_mm", rb_pair(w, d));
    cJSON_AddNumberToObject(u, "advance_in", 5), cJSON_AddNumberToObject(s, "advance_in", 5);
    cJSON_AddNumberToObject(u, "march_in", 10), cJSON_AddNumberToObject(s, "march_in", 10);
    cJSON_AddArrayToObject(u, "status"), cJSON_AddArrayToObject(s, "status");
    cJSON_AddItemToArray(ru, u), cJSON_AddItemToArray(su, s);
    *unit = u, *snap_unit = s;
}

void rb_old_square_tag(cJSON *unit, double size)
{
    cJSON *tg = cJSON_AddObjectToObject(unit, "tag");
    cJSON_AddItemToObject(tg, "offset_mm", rb_pair(0, 0));
    cJSON_AddNumberToObject(tg, "rotation_deg", 0), cJSON_AddNumberToObject(tg, "height_mm", 3.5);
    cJSON_AddNumberToObject(tg, "size_mm", size);
}

void rb_model(cJSON *models, cJSON *snap_models, const char *id, int tag_id, double x, double y, double facing_deg)
{
    cJSON *m = cJSON_CreateObject(), *t = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "id", id), cJSON_AddNumberToObject(m, "tag_id", tag_id);
    cJSON_AddStringToObject(t, "id", id), cJSON_AddNumberToObject(t, "x_mm", x);
    cJSON_AddNumberToObject(t, "y_mm", y), cJSON_AddNumberToObject(t, "facing_deg", facing_deg);
    cJSON_AddItemToArray(models, m), cJSON_AddItemToArray(snap_models, t);
}

roster_file *rb_laid_out(const cJSON *rj, const char *name, size_t *changed)
{
    base_error err = {0};
    roster_file *r = roster_from_json(rj, name, &err);
    cr_assert_not_null(r, "%s", err.msg);
    size_t laid = 0;
    cr_assert_eq(roster_layout_marks(r, false, &laid), 0);
    if (changed)
        *changed = laid;
    cJSON *written = roster_to_json(r);
    roster_free(r);
    r = roster_from_json(written, "laid-out roster", &err);
    cJSON_Delete(written);
    cr_assert_not_null(r, "%s", err.msg);
    return r;
}

rules_snapshot *rb_truth(const cJSON *sj)
{
    base_error err = {0};
    rules_snapshot *s = rules_json_to_snapshot(sj, "readback snapshot", &err);
    cr_assert_not_null(s, "%s", err.msg);
    return s;
}

void rb_render_and_read(const roster_file *r, const rules_snapshot *truth, const ds_camera_params *cp,
                        const ds_render_params *p, rb_read *out)
{
    *out = (rb_read){0};
    base_error err = {0};
    calib_file cal;
    cr_assert_eq(ds_camera_make(cp, &cal, &err), 0, "%s", err.msg);
    cr_assert_eq(ds_render(truth, r, &cal, p, &out->img, &out->truth, &err), 0, "%s", err.msg);
    if (getenv("READBACK_SAVE")) /* to look at it */
        media_image_save(out->img, getenv("READBACK_SAVE"), 0, &err);
    vis_detector *det = vt_detector_new(r, &cal, &err);
    cr_assert_not_null(det, "%s", err.msg);
    const base_image *im = out->img;
    cr_assert_eq(vis_detector_run(det, im->data, im->width, im->height, im->stride, NULL, &out->got, &out->rep, &err),
                 0, "%s", err.msg);
    vis_detector_free(det);
    ds_score_init(&out->sc);
    cr_assert_eq(ds_score_models(&out->sc, truth, &out->truth, out->got), 0);
}

void rb_read_clear(rb_read *rd)
{
    ds_score_clear(&rd->sc);
    vis_report_clear(&rd->rep);
    rules_snapshot_free(rd->got);
    base_image_free(rd->img);
    ds_truth_clear(&rd->truth);
    *rd = (rb_read){0};
}
