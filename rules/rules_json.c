#include "rules_json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_fields.h"

#define MAX_FILE_BYTES (64u << 20) /* a snapshot is kilobytes; refuse to slurp a disk image */

static char *read_whole_file(const char *path, rules_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        rules_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            if (cap >= MAX_FILE_BYTES) {
                rules_error_set(err, "%s: larger than %u MiB, not a tableref JSON file", path,
                                MAX_FILE_BYTES >> 20);
                free(buf);
                buf = NULL;
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                rules_error_set(err, "%s: read error", path);
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    if (!buf && err && !err->msg[0])
        rules_error_set(err, "%s: out of memory", path);
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

cJSON *rules_json_parse_string(const char *text, const char *name, rules_error *err)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, true);
    if (!root) {
        const char *at = end ? end : cJSON_GetErrorPtr();
        int line = 1, col = 1;
        for (const char *p = text; at && p < at && *p; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        if (!*text)
            rules_error_set(err, "%s: empty file, expected a JSON object", name);
        else
            rules_error_set(err, "%s: malformed JSON at line %d, column %d", name, line, col);
    }
    return root;
}

cJSON *rules_json_parse_file(const char *path, rules_error *err)
{
    if (err)
        err->msg[0] = '\0';
    char *text = read_whole_file(path, err);
    if (!text)
        return NULL;
    if (strlen(text) == 0) {
        free(text);
        rules_error_set(err, "%s: empty file, expected a JSON object", path);
        return NULL;
    }
    cJSON *root = rules_json_parse_string(text, path, err);
    free(text);
    return root;
}

int rules_json_write_file(const cJSON *root, const char *path, rules_error *err)
{
    char *text = cJSON_Print(root);
    if (!text)
        return rules_error_set(err, "%s: out of memory while formatting JSON", path);
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) {
        free(text);
        return rules_error_set(err, "%s: cannot write: %s", path, strerror(errno));
    }
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    ok = (to_stdout ? fflush(f) : fclose(f)) == 0 && ok;
    free(text);
    if (!ok)
        return rules_error_set(err, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

const cJSON *rules_json_field(const cJSON *obj, const char *key)
{
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static const cJSON *field(const cJSON *obj, const char *key)
{
    return rules_json_field(obj, key);
}

static int missing(const char *where, const char *key, rules_error *err)
{
    return rules_error_set(err, "%s%s%s: missing required field", where, *where ? "." : "", key);
}

static int wrong(const char *where, const char *key, const char *expected, rules_error *err)
{
    return rules_error_set(err, "%s%s%s: expected %s", where, *where ? "." : "", key, expected);
}

int rules_json_number(const cJSON *obj, const char *key, const char *where, bool required,
                      double *out, rules_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return wrong(where, key, "a finite number", err);
    *out = it->valuedouble;
    return 0;
}

int rules_json_int(const cJSON *obj, const char *key, const char *where, bool required, int *out,
                   rules_error *err)
{
    double v = 0;
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (rules_json_number(obj, key, where, required, &v, err) < 0)
        return -1;
    if (v != floor(v) || fabs(v) > 1e9)
        return wrong(where, key, "a whole number", err);
    *out = (int)v;
    return 0;
}

int rules_json_bool(const cJSON *obj, const char *key, const char *where, bool required, bool *out,
                    rules_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsBool(it))
        return wrong(where, key, "true or false", err);
    *out = cJSON_IsTrue(it);
    return 0;
}

int rules_json_string(const cJSON *obj, const char *key, const char *where, bool required, char *out,
                      size_t cap, rules_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsString(it) || !it->valuestring)
        return wrong(where, key, "a string", err);
    size_t n = strlen(it->valuestring);
    if (n >= cap)
        return rules_error_set(err, "%s%s%s: longer than %zu characters", where, *where ? "." : "", key,
                               cap - 1);
    memcpy(out, it->valuestring, n + 1);
    return 0;
}

int rules_json_numbers(const cJSON *obj, const char *key, const char *where, bool required, double *out,
                       size_t n, rules_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsArray(it) || (size_t)cJSON_GetArraySize(it) != n) {
        char what[64];
        snprintf(what, sizeof what, "an array of %zu numbers", n);
        return wrong(where, key, what, err);
    }
    size_t i = 0;
    const cJSON *el;
    cJSON_ArrayForEach(el, it)
    {
        if (!cJSON_IsNumber(el) || !isfinite(el->valuedouble))
            return rules_error_set(err, "%s%s%s[%zu]: expected a finite number", where, *where ? "." : "",
                                   key, i);
        out[i++] = el->valuedouble;
    }
    return 0;
}

const cJSON *rules_json_array(const cJSON *obj, const char *key, const char *where, bool required,
                              rules_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it) {
        if (required)
            missing(where, key, err);
        return NULL;
    }
    if (!cJSON_IsArray(it)) {
        wrong(where, key, "an array", err);
        return NULL;
    }
    return it;
}

const cJSON *rules_json_object(const cJSON *obj, const char *key, const char *where, bool required,
                               rules_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it) {
        if (required)
            missing(where, key, err);
        return NULL;
    }
    if (!cJSON_IsObject(it)) {
        wrong(where, key, "an object", err);
        return NULL;
    }
    return it;
}

cJSON *rules_json_add_number(cJSON *obj, const char *key, double value, int decimals)
{
    double scale = pow(10.0, decimals);
    double r = round(value * scale) / scale;
    if (r == 0)
        r = 0; /* no "-0" in output */
    return cJSON_AddNumberToObject(obj, key, r);
}

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
static int check_ruleset_keys(const cJSON *item, const char *where, rules_error *err)
{
    const char *keys[N_RULESET_FIELDS + 3] = {"name", "wheel_measure"};
    for (size_t i = 0; i < N_RULESET_FIELDS; i++)
        keys[2 + i] = ruleset_fields[i].key;
    keys[N_RULESET_FIELDS + 2] = NULL;
    return rules_fields_known(item, where, keys, err);
}

/* The largest value each kind of override may take (all are >= 0). */
static double ruleset_max(rs_kind kind)
{
    switch (kind) {
    case RS_FRACTION: return 1;
    case RS_ANGLE_DEG: return 360;
    case RS_LENGTH_MM: return RULES_FIELDS_MAX_BASE_MM;
    case RS_INT: return 1000;
    default: return RULES_FIELDS_MAX_RATE_IN;
    }
}

int rules_json_to_ruleset(const cJSON *item, const char *where, rules_ruleset *out, rules_error *err)
{
    char name[RULES_NAME_MAX] = RULES_DEFAULT_RULESET;
    if (cJSON_IsString(item)) {
        if (strlen(item->valuestring) >= sizeof name)
            return rules_error_set(err, "%s: ruleset name too long", where);
        strcpy(name, item->valuestring);
    } else if (cJSON_IsObject(item)) {
        if (rules_json_string(item, "name", where, false, name, sizeof name, err) < 0)
            return -1;
    } else {
        return rules_error_set(err, "%s: expected a ruleset name or an object", where);
    }
    const rules_ruleset *base = rules_ruleset_find(name);
    if (!base) {
        char known[256] = "";
        for (size_t i = 0; rules_ruleset_at(i); i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, rules_ruleset_at(i)->name, sizeof known - strlen(known) - 1);
        }
        return rules_error_set(err, "%s: unknown ruleset \"%s\" (known: %s)", where, name, known);
    }
    *out = *base;
    if (!cJSON_IsObject(item))
        return 0;
    if (check_ruleset_keys(item, where, err) < 0)
        return -1;

    char wm[16] = "";
    if (rules_json_string(item, "wheel_measure", where, false, wm, sizeof wm, err) < 0)
        return -1;
    if (wm[0]) {
        if (strcmp(wm, "arc") == 0)
            out->wheel_measure = RULES_WHEEL_ARC;
        else if (strcmp(wm, "chord") == 0)
            out->wheel_measure = RULES_WHEEL_CHORD;
        else
            return rules_error_set(err, "%s.wheel_measure: expected \"arc\" or \"chord\"", where);
    }
    for (size_t i = 0; i < N_RULESET_FIELDS; i++) {
        const char *key = ruleset_fields[i].key;
        char *dst = (char *)out + ruleset_fields[i].offset;
        if (!field(item, key))
            continue;
        double v = 0;
        int iv = 0;
        bool b = false;
        switch (ruleset_fields[i].kind) {
        case RS_BOOL:
            if (rules_json_bool(item, key, where, true, &b, err) < 0)
                return -1;
            *(bool *)dst = b;
            continue;
        case RS_INT:
            if (rules_fields_int(item, key, where, true, 0, (int)ruleset_max(RS_INT), &iv, err) < 0)
                return -1;
            *(int *)dst = iv;
            continue;
        default:
            if (rules_fields_number(item, key, where, true, 0, ruleset_max(ruleset_fields[i].kind), &v, err) < 0)
                return -1;
            break;
        }
        switch (ruleset_fields[i].kind) {
        case RS_LENGTH_IN: v = rules_in_to_mm(v); break;
        case RS_ANGLE_DEG: v = rules_deg_to_rad(v); break;
        default: break;
        }
        *(double *)dst = v;
    }
    return 0;
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
        case RS_LENGTH_IN: rules_json_add_number(o, key, rules_mm_to_in(*(const double *)src), 4); break;
        case RS_ANGLE_DEG: rules_json_add_number(o, key, rules_rad_to_deg(*(const double *)src), 4); break;
        default: rules_json_add_number(o, key, *(const double *)src, 4); break;
        }
    }
    return o;
}

