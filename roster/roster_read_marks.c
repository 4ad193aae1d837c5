/* roster_read_marks: a unit's `marks` read and checked (see the header). */
#include "roster_read_marks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base_fields.h"
#include "base_json.h"

static const char *const mark_keys[] = {"kind",      "model",        "tag_id",  "size_mm", "height_mm",
                                        "offset_mm", "rotation_deg", "sway_mm", NULL};

/* One of a unit's `marks` (roster.h, roster_unit_mark): a mast on one of the unit's models (read already). */
static int read_mark(const roster_file *r, int codes, const cJSON *jk, const char *where, const roster_unit *u,
                     roster_unit_mark *k, base_error *err)
{
    char kind[16] = "", model[ROSTER_ID_MAX] = "";
    double off[2] = {0, 0}, rot = 0, turn = BASE_FIELDS_MAX_ANGLE_DEG, reach = BASE_FIELDS_PLAUSIBLE_BASE_MM;
    if (!cJSON_IsObject(jk))
        return base_error_set(err, "%s: expected an object", where);
    if (base_fields_known(jk, where, mark_keys, err) < 0 ||
        base_json_string(jk, "kind", where, true, kind, sizeof kind, err) < 0)
        return -1;
    if (strcmp(kind, "mast") != 0)
        return base_error_set(err, "%s.kind: expected \"mast\", found \"%s\"", where, kind);
    *k = (roster_unit_mark){.kind = ROSTER_UNIT_MARK_MAST, .unit = r->n_units};
    k->mount.layout = ROSTER_MARK_SQUARE;
    k->sway = NAN;
    if (base_json_string(jk, "model", where, true, model, sizeof model, err) < 0 ||
        base_json_int(jk, "tag_id", where, true, &k->tag_id, err) < 0 ||
        base_fields_number(jk, "size_mm", where, true, 1, reach, &k->mount.size, err) < 0 ||
        base_fields_number(jk, "height_mm", where, true, 0, ROSTER_MAST_MAX_HEIGHT_MM, &k->mount.height, err) < 0 ||
        base_json_numbers(jk, "offset_mm", where, false, off, 2, err) < 0 ||
        base_fields_number(jk, "rotation_deg", where, false, -turn, turn, &rot, err) < 0 ||
        base_fields_number(jk, "sway_mm", where, false, 0, ROSTER_MAST_MAX_SWAY_MM, &k->sway, err) < 0)
        return -1;
    if (!(fabs(off[0]) <= reach) || !(fabs(off[1]) <= reach))
        return base_error_set(err, "%s.offset_mm: each within %g mm of the carrier's base centre", where, reach);
    if (k->tag_id < 0 || k->tag_id >= codes)
        return base_error_set(err, "%s.tag_id: %d is not a %s code (0 to %d)", where, k->tag_id, r->family, codes - 1);
    size_t i = 0;
    while (i < u->n_models && strcmp(r->models[u->first_model + i].id, model) != 0)
        i++;
    if (i == u->n_models)
        return base_error_set(err, "%s.model: \"%s\" is none of the unit's models", where, model);
    k->model = u->first_model + i;
    k->mount.offset = base_v2(off[0], off[1]);
    k->mount.rotation = base_deg_to_rad(rot);
    if (isnan(k->sway))
        k->sway = ROSTER_MAST_SWAY_PER_MM * k->mount.height;
    return 0;
}

int roster_read_marks(roster_file *r, const cJSON *ju, const char *where, const roster_unit *u, int codes,
                      base_error *err)
{
    const cJSON *ks = base_json_array(ju, "marks", where, false, err), *jk;
    if (!ks && cJSON_GetObjectItemCaseSensitive(ju, "marks"))
        return -1;
    size_t n = 0;
    cJSON_ArrayForEach(jk, ks)
    {
        char w2[128];
        snprintf(w2, sizeof w2, "%s.marks[%zu]", where, n++);
        if (read_mark(r, codes, jk, w2, u, &r->marks[r->n_marks], err) < 0)
            return -1;
        r->n_marks++;
    }
    return 0;
}
