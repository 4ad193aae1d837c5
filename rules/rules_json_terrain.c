/* rules_json, a snapshot's terrain: its rules' kind, its outline and its relief (docs/formats.md, "Terrain"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"
#include "base_json.h"
#include "rules_json_int.h"

/* The keys a terrain piece may hold (base_fields_known). */
static const char *const terrain_keys[] = {"id",        "kind",   "points_mm", "relief", "height_mm",
                                           "height_sigma_mm", "foot_mm", NULL};

/* The tallest relief a table takes: a hill or a building over a 6x4 ft board is well under a metre. */
#define MAX_RELIEF_MM 1000.0

/* A polygon "key": [[x, y], ...] of 3 to BASE_FIELDS_MAX_POLYGON points, on the heap (*out; caller frees). */
static int read_polygon(const cJSON *jt, const char *key, const char *where, base_vec2 **out, size_t *n_out,
                        base_error *err)
{
    *out = NULL;
    *n_out = 0;
    const cJSON *pts = base_json_array(jt, key, where, true, err);
    if (!pts)
        return -1;
    size_t n = (size_t)cJSON_GetArraySize(pts);
    if (n < 3 || n > BASE_FIELDS_MAX_POLYGON)
        return base_error_set(err, "%s.%s: a polygon needs 3 to %d points", where, key, BASE_FIELDS_MAX_POLYGON);
    base_vec2 *p = malloc(n * sizeof *p);
    if (!p)
        return base_error_set(err, "%s: out of memory", where);
    size_t i = 0;
    const cJSON *el;
    cJSON_ArrayForEach(el, pts)
    {
        if (cJSON_GetArraySize(el) != 2 || !cJSON_IsArray(el) || !cJSON_IsNumber(el->child) ||
            !cJSON_IsNumber(el->child->next) || !(fabs(el->child->valuedouble) <= BASE_FIELDS_MAX_PLACE_MM) ||
            !(fabs(el->child->next->valuedouble) <= BASE_FIELDS_MAX_PLACE_MM)) {
            free(p);
            return base_error_set(err, "%s.%s[%zu]: expected [x, y] in millimetres, each within %g", where, key, i,
                                  BASE_FIELDS_MAX_PLACE_MM);
        }
        p[i++] = base_v2(el->child->valuedouble, el->child->next->valuedouble);
    }
    *out = p;
    *n_out = n;
    return 0;
}

/* "relief", "height_mm", "height_sigma_mm", "foot_mm": a hill needs its height, a flat piece has none. */
static int read_relief(const cJSON *jt, const char *where, rules_terrain *t, base_error *err)
{
    char word[32] = "flat";
    double height = 0, sigma = NAN;
    if (base_json_string(jt, "relief", where, false, word, sizeof word, err) < 0)
        return -1;
    rules_relief relief;
    if (rules_relief_from_word(word, &relief) < 0)
        return base_error_set(err, "%s.relief: expected \"flat\", \"hill\" (models stand on it) or \"building\" "
                                   "(they cannot)",
                              where);
    const bool raised = relief != RULES_RELIEF_FLAT;
    if (!raised && (base_json_field(jt, "height_mm") || base_json_field(jt, "height_sigma_mm")))
        return base_error_set(err, "%s.height_mm: a height needs \"relief\": \"hill\" (models stand on it) or "
                                   "\"building\" (they cannot)",
                              where);
    if (base_fields_number(jt, "height_mm", where, raised, 0, MAX_RELIEF_MM, &height, err) < 0 ||
        base_fields_number(jt, "height_sigma_mm", where, false, 0, MAX_RELIEF_MM, &sigma, err) < 0)
        return -1;
    if (raised && !(height > 0))
        return base_error_set(err, "%s.height_mm: a %s stands above the board (> 0 mm)", where, word);
    base_vec2 *foot = NULL;
    size_t n_foot = 0;
    if (base_json_field(jt, "foot_mm")) {
        if (relief != RULES_RELIEF_HILL)
            return base_error_set(err, "%s.foot_mm: only a hill has a foot (the outline its sides slope down to)",
                                  where);
        if (read_polygon(jt, "foot_mm", where, &foot, &n_foot, err) < 0)
            return -1;
    }
    const int rc = rules_terrain_set_relief(t, relief, height, sigma, foot, n_foot);
    free(foot);
    return rc < 0 ? base_error_set(err, "%s: out of memory", where) : 0;
}

int rules_json_read_terrain(const cJSON *jt, const char *where, void *snapshot, base_error *err)
{
    rules_snapshot *s = snapshot;
    if (!cJSON_IsObject(jt))
        return base_error_set(err, "%s: expected an object", where);
    char id[RULES_ID_MAX] = "", kind[32];
    if (base_fields_known(jt, where, terrain_keys, err) < 0 ||
        base_json_string(jt, "id", where, false, id, sizeof id, err) < 0 ||
        base_json_string(jt, "kind", where, true, kind, sizeof kind, err) < 0)
        return -1;
    rules_terrain_kind k;
    if (strcmp(kind, "impassable") == 0)
        k = RULES_TERRAIN_IMPASSABLE;
    else if (strcmp(kind, "obstruction") == 0)
        k = RULES_TERRAIN_OBSTRUCTION;
    else if (strcmp(kind, "open") == 0)
        k = RULES_TERRAIN_OPEN;
    else
        return base_error_set(err, "%s.kind: expected \"impassable\", \"obstruction\" or \"open\" (a hill is a "
                                   "\"relief\": \"hill\", of any kind)",
                              where);
    base_vec2 *p;
    size_t n;
    if (read_polygon(jt, "points_mm", where, &p, &n, err) < 0)
        return -1;
    rules_terrain *t = rules_snapshot_add_terrain(s, id, k, p, n);
    free(p);
    if (!t)
        return base_error_set(err, "%s: out of memory", where);
    return read_relief(jt, where, t, err);
}

static cJSON *polygon_to_json(const base_vec2 *p, size_t n)
{
    cJSON *pts = cJSON_CreateArray();
    for (size_t k = 0; k < n; k++) {
        double xy[2] = {round(p[k].x * 1000) / 1000, round(p[k].y * 1000) / 1000};
        cJSON_AddItemToArray(pts, cJSON_CreateDoubleArray(xy, 2));
    }
    return pts;
}

cJSON *rules_json_terrain_out(const rules_terrain *t)
{
    cJSON *jt = cJSON_CreateObject();
    if (t->id[0])
        cJSON_AddStringToObject(jt, "id", t->id);
    cJSON_AddStringToObject(jt, "kind", rules_terrain_kind_word(t->kind));
    cJSON_AddItemToObject(jt, "points_mm", polygon_to_json(t->points, t->n_points));
    if (t->relief == RULES_RELIEF_FLAT)
        return jt; /* a flat piece is written as before relief was known */
    cJSON_AddStringToObject(jt, "relief", rules_relief_word(t->relief));
    base_json_add_number(jt, "height_mm", t->height_mm, 2);
    if (isfinite(t->height_sigma_mm))
        base_json_add_number(jt, "height_sigma_mm", t->height_sigma_mm, 2);
    if (t->foot)
        cJSON_AddItemToObject(jt, "foot_mm", polygon_to_json(t->foot, t->n_foot));
    return jt;
}
