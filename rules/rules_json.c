#include "rules_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"

/* ---- ruleset ---------------------------------------------------------- */

typedef enum { RS_LENGTH_IN, RS_FRACTION, RS_ANGLE_DEG, RS_INT, RS_BOOL, RS_LENGTH_MM } rs_kind;

static const struct {
    const char *key;
    rs_kind kind;
    size_t offset;
} ruleset_fields[] = {
    {"march_test_radius_in", RS_LENGTH_IN, offsetof(rules_ruleset, march_test_radius_mm)},
    {"unit_spacing_in", RS_LENGTH_IN, offsetof(rules_ruleset, unit_spacing_mm)},
    {"unit_spacing_during_in", RS_LENGTH_IN, offsetof(rules_ruleset, unit_spacing_during_mm)},
    {"backward_fraction", RS_FRACTION, offsetof(rules_ruleset, backward_fraction)},
    {"sideways_fraction", RS_FRACTION, offsetof(rules_ruleset, sideways_fraction)},
    {"wheel_chord_max_deg", RS_ANGLE_DEG, offsetof(rules_ruleset, wheel_chord_max_rad)},
    {"single_model_free_pivot", RS_BOOL, offsetof(rules_ruleset, single_model_free_pivot)},
    {"max_file_change", RS_INT, offsetof(rules_ruleset, max_file_change)},
    {"ranks_at_most_files", RS_BOOL, offsetof(rules_ruleset, ranks_at_most_files)},
    {"proper_rank_width", RS_INT, offsetof(rules_ruleset, proper_rank_width)},
    {"proper_rank_width_large", RS_INT, offsetof(rules_ruleset, proper_rank_width_large)},
    {"proper_rank_width_gigantic", RS_INT, offsetof(rules_ruleset, proper_rank_width_gigantic)},
    {"height_large_from", RS_INT, offsetof(rules_ruleset, height_large_from)},
    {"height_gigantic_from", RS_INT, offsetof(rules_ruleset, height_gigantic_from)},
    {"contact_tolerance_mm", RS_LENGTH_MM, offsetof(rules_ruleset, contact_tolerance_mm)},
    {"alignment_tolerance_deg", RS_ANGLE_DEG, offsetof(rules_ruleset, alignment_tolerance_rad)},
    {"charge_max_wheel_deg", RS_ANGLE_DEG, offsetof(rules_ruleset, charge_max_wheel_rad)},
    {"formation_min_models", RS_INT, offsetof(rules_ruleset, formation_min_models)},
    {"formation_widen_max_in", RS_LENGTH_IN, offsetof(rules_ruleset, formation_widen_max_mm)},
    {"formation_adjust_cost_in", RS_LENGTH_IN, offsetof(rules_ruleset, formation_adjust_cost_mm)},
    {"formation_will_test_at_equal", RS_BOOL, offsetof(rules_ruleset, formation_will_test_at_equal)},
};

#define N_RULESET_FIELDS (sizeof ruleset_fields / sizeof ruleset_fields[0])

/* The override object's keys: "name", "wheel_measure" and every ruleset field. */
static int check_ruleset_keys(const cJSON *item, const char *where, base_error *err)
{
    const char *keys[N_RULESET_FIELDS + 3] = {"name", "wheel_measure"};
    for (size_t i = 0; i < N_RULESET_FIELDS; i++)
        keys[2 + i] = ruleset_fields[i].key;
    keys[N_RULESET_FIELDS + 2] = NULL;
    return base_fields_known(item, where, keys, err);
}

/* The largest value each kind of override may take (all are >= 0). */
static double ruleset_max(rs_kind kind)
{
    switch (kind) {
    case RS_FRACTION: return 1;
    case RS_ANGLE_DEG: return 360;
    case RS_LENGTH_MM: return BASE_FIELDS_MAX_BASE_MM;
    case RS_INT: return 1000;
    default: return BASE_FIELDS_MAX_RATE_IN;
    }
}

int rules_json_to_ruleset(const cJSON *item, const char *where, rules_ruleset *out, base_error *err)
{
    char name[RULES_NAME_MAX] = RULES_DEFAULT_RULESET;
    if (cJSON_IsString(item)) {
        if (strlen(item->valuestring) >= sizeof name)
            return base_error_set(err, "%s: ruleset name too long", where);
        strcpy(name, item->valuestring);
    } else if (cJSON_IsObject(item)) {
        if (base_json_string(item, "name", where, false, name, sizeof name, err) < 0)
            return -1;
    } else {
        return base_error_set(err, "%s: expected a ruleset name or an object", where);
    }
    const rules_ruleset *base = rules_ruleset_find(name);
    if (!base) {
        char known[256] = "";
        for (size_t i = 0; rules_ruleset_at(i); i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, rules_ruleset_at(i)->name, sizeof known - strlen(known) - 1);
        }
        return base_error_set(err, "%s: unknown ruleset \"%s\" (known: %s)", where, name, known);
    }
    *out = *base;
    if (!cJSON_IsObject(item))
        return 0;
    if (check_ruleset_keys(item, where, err) < 0)
        return -1;

    char wm[16] = "";
    if (base_json_string(item, "wheel_measure", where, false, wm, sizeof wm, err) < 0)
        return -1;
    if (wm[0]) {
        if (strcmp(wm, "arc") == 0)
            out->wheel_measure = RULES_WHEEL_ARC;
        else if (strcmp(wm, "chord") == 0)
            out->wheel_measure = RULES_WHEEL_CHORD;
        else
            return base_error_set(err, "%s.wheel_measure: expected \"arc\" or \"chord\"", where);
    }
    for (size_t i = 0; i < N_RULESET_FIELDS; i++) {
        const char *key = ruleset_fields[i].key;
        char *dst = (char *)out + ruleset_fields[i].offset;
        if (!base_json_field(item, key))
            continue;
        double v = 0;
        int iv = 0;
        bool b = false;
        switch (ruleset_fields[i].kind) {
        case RS_BOOL:
            if (base_json_bool(item, key, where, true, &b, err) < 0)
                return -1;
            *(bool *)dst = b;
            continue;
        case RS_INT:
            if (base_fields_int(item, key, where, true, 0, (int)ruleset_max(RS_INT), &iv, err) < 0)
                return -1;
            *(int *)dst = iv;
            continue;
        default:
            if (base_fields_number(item, key, where, true, 0, ruleset_max(ruleset_fields[i].kind), &v, err) < 0)
                return -1;
            break;
        }
        switch (ruleset_fields[i].kind) {
        case RS_LENGTH_IN: v = base_in_to_mm(v); break;
        case RS_ANGLE_DEG: v = base_deg_to_rad(v); break;
        default: break;
        }
        *(double *)dst = v;
    }
    return 0;
}

cJSON *rules_json_document(const char *format, int version)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", format);
    cJSON_AddNumberToObject(root, "version", version);
    return root;
}

cJSON *rules_json_from_ruleset(const rules_ruleset *rs)
{
    const rules_ruleset *base = rules_ruleset_find(rs->name);
    if (base && memcmp(base, rs, sizeof *rs) == 0)
        return cJSON_CreateString(rs->name);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", rs->name);
    cJSON_AddStringToObject(o, "wheel_measure", rs->wheel_measure == RULES_WHEEL_CHORD ? "chord" : "arc");
    for (size_t i = 0; i < sizeof ruleset_fields / sizeof ruleset_fields[0]; i++) {
        const char *src = (const char *)rs + ruleset_fields[i].offset;
        const char *key = ruleset_fields[i].key;
        switch (ruleset_fields[i].kind) {
        case RS_BOOL: cJSON_AddBoolToObject(o, key, *(const bool *)src); break;
        case RS_INT: cJSON_AddNumberToObject(o, key, *(const int *)src); break;
        case RS_LENGTH_IN: base_json_add_number(o, key, base_mm_to_in(*(const double *)src), 4); break;
        case RS_ANGLE_DEG: base_json_add_number(o, key, base_rad_to_deg(*(const double *)src), 4); break;
        default: base_json_add_number(o, key, *(const double *)src, 4); break;
        }
    }
    return o;
}

