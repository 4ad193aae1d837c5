/* rules_json, the snapshot: reading (strict: every key known, every number in range); writing is rules_json_snapshot_out.c. */
#include "rules_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"

#include "rules_json_int.h"

/* ---- snapshot --------------------------------------------------------- */

/* The keys each object of a snapshot may hold (base_fields_known). A new
 * field is one more key here and a line in docs/formats.md. */
static const char *const snapshot_keys[] = {"format", "version", "board", "ruleset", "units", "terrain",
                                            "formations", "unseen_units", NULL};
static const char *const board_keys[] = {"width_mm", "depth_mm", NULL};
static const char *const unit_keys[] = {"id", "side", "base_mm", "advance_in", "march_in", "mobility_in",
                                        "advance_dice", "march_dice", "roll_in", "status",
                                        "profile", "control_area_in", "heroic", "will", "models", "alternatives",
                                        "alternatives_complete", "placement", "combat", "height", "type", "height_unsettled",
                                        NULL};
static const char *const model_keys[] = {"id",       "x_mm",     "y_mm",     "facing_deg", "status", "inferred",
                                         "attachable", "evidence", "sigma_mm", "base_mm",    NULL};
static const char *const alternative_keys[] = {"label", "models", NULL};
static const char *const placed_keys[] = {"id", "x_mm", "y_mm", "facing_deg", "sigma_mm", NULL};
static const char *const unseen_keys[] = {"id", "side", "models", NULL};
static const char *const dynform_keys[] = {"id", "models", NULL};
static const char *const unsettled_keys[] = {"seen_mm", "table_mm", NULL};

static int read_status(const cJSON *obj, const char *where, unsigned *out, base_error *err)
{
    const cJSON *arr = base_json_array(obj, "status", where, false, err);
    if (!arr)
        return base_json_field(obj, "status") ? -1 : 0;
    size_t i = 0;
    const cJSON *el;
    cJSON_ArrayForEach(el, arr)
    {
        unsigned bit = cJSON_IsString(el) ? rules_status_from_word(el->valuestring) : 0;
        if (!bit)
            return base_error_set(err, "%s.status[%zu]: expected one of \"charging\", \"engaged\", "
                                        "\"fleeing\", \"shaken\"",
                                   where, i);
        *out |= bit;
        i++;
    }
    return 0;
}

/* A rate that is dice ("3D6"), normalised; "" when absent. */
static int read_dice(const cJSON *u, const char *key, const char *where, char *out, base_error *err)
{
    char text[32] = "";
    rules_dice d;
    if (base_json_string(u, key, where, false, text, sizeof text, err) < 0)
        return -1;
    out[0] = '\0';
    if (!text[0])
        return 0;
    if (rules_dice_parse(text, &d) < 0)
        return base_error_set(err, "%s.%s: \"%s\" is not a roll of dice (\"3D6\", \"2D6+1\")", where, key, text);
    rules_dice_format(&d, out, RULES_DICE_MAX);
    return 0;
}

static int read_rate(const cJSON *u, const char *key, const char *where, double *out_mm, base_error *err)
{
    double in = NAN;
    if (base_fields_number(u, key, where, false, 0, BASE_FIELDS_MAX_RATE_IN, &in, err) < 0)
        return -1;
    *out_mm = isnan(in) ? NAN : base_in_to_mm(in);
    return 0;
}

/* "evidence" and "sigma_mm" of a model (vision); "inferred": true alone means evidence "inferred". */
static int read_evidence(const cJSON *jm, const char *where, rules_model *m, base_error *err)
{
    char word[16] = "";
    if (base_json_string(jm, "evidence", where, false, word, sizeof word, err) < 0 ||
        base_fields_number(jm, "sigma_mm", where, false, 0, BASE_FIELDS_MAX_BASE_MM, &m->sigma_mm, err) < 0)
        return -1;
    if (!word[0]) {
        m->evidence = m->inferred ? RULES_EVIDENCE_INFERRED : RULES_EVIDENCE_SEEN;
        return 0;
    }
    if (rules_evidence_from_word(word, &m->evidence) < 0)
        return base_error_set(err, "%s.evidence: expected \"seen\", \"rough\" or \"inferred\"", where);
    if (base_json_field(jm, "inferred") && m->inferred != (m->evidence == RULES_EVIDENCE_INFERRED))
        return base_error_set(err, "%s.inferred: disagrees with evidence \"%s\"", where, word);
    m->inferred = m->evidence == RULES_EVIDENCE_INFERRED;
    return 0;
}

/* Reads one element of a list (where: its place, e.g. "units[3].models[1]") into ctx. */
typedef int (*item_reader)(const cJSON *el, const char *where, void *ctx, base_error *err);

/* Every element of arr with `reader`, each named where + name + "[i]" in errors. */
static int read_items(const cJSON *arr, const char *where, const char *name, item_reader reader, void *ctx,
                      base_error *err)
{
    size_t i = 0;
    const cJSON *el;
    cJSON_ArrayForEach(el, arr)
    {
        char item_where[192];
        /* A place too long for the buffer is cut short: it only names the place in a message. */
        if (snprintf(item_where, sizeof item_where, "%s%s[%zu]", where, name, i++) < 0)
            item_where[0] = '\0';
        if (reader(el, item_where, ctx, err) < 0)
            return -1;
    }
    return 0;
}

static int read_model(const cJSON *jm, const char *where, void *unit, base_error *err)
{
    rules_unit *u = unit;
    if (!cJSON_IsObject(jm))
        return base_error_set(err, "%s: expected an object", where);
    char id[RULES_ID_MAX];
    double x, y, facing_deg;
    const double place = BASE_FIELDS_MAX_PLACE_MM, turn = BASE_FIELDS_MAX_ANGLE_DEG;
    if (base_fields_known(jm, where, model_keys, err) < 0 ||
        base_json_string(jm, "id", where, true, id, sizeof id, err) < 0 ||
        base_fields_number(jm, "x_mm", where, true, -place, place, &x, err) < 0 ||
        base_fields_number(jm, "y_mm", where, true, -place, place, &y, err) < 0 ||
        base_fields_number(jm, "facing_deg", where, true, -turn, turn, &facing_deg, err) < 0)
        return -1;
    if (!id[0])
        return base_error_set(err, "%s.id: must not be empty", where);
    rules_model *m = rules_unit_add_model(u, id, base_v2(x, y), base_angle_wrap(base_deg_to_rad(facing_deg)));
    if (!m)
        return base_error_set(err, "%s: out of memory", where);
    if (read_status(jm, where, &m->status, err) < 0 ||
        base_json_bool(jm, "inferred", where, false, &m->inferred, err) < 0 ||
        base_json_bool(jm, "attachable", where, false, &m->attachable, err) < 0 ||
        read_evidence(jm, where, m, err) < 0)
        return -1;
    /* A model on a base of its own (a character on a larger base than its unit's). */
    double base[2] = {0, 0};
    if (base_json_numbers(jm, "base_mm", where, false, base, 2, err) < 0)
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(jm, "base_mm") &&
        !(base[0] > 0 && base[0] <= BASE_FIELDS_MAX_BASE_MM && base[1] > 0 && base[1] <= BASE_FIELDS_MAX_BASE_MM))
        return base_error_set(err, "%s.base_mm: base sizes must be > 0 and at most %g mm", where,
                               BASE_FIELDS_MAX_BASE_MM);
    m->base_width = base[0];
    m->base_depth = base[1];
    return 0;
}

/* Issue 14: "combat", "height" (0..5 or standard/large/gigantic) and "type"; each optional. */
static int read_unit_clauses(const cJSON *ju, const char *where, rules_unit *u, base_error *err)
{
    static const char *const heights[] = {"standard", "large", "gigantic"};
    static const int height_of[] = {1, 3, 5};
    static const char *const types[] = {"infantry", "beast", "cavalry", "construct"};
    if (base_json_string(ju, "combat", where, false, u->combat, sizeof u->combat, err) < 0)
        return -1;
    const cJSON *h = base_json_field(ju, "height");
    if (cJSON_IsString(h)) {
        for (size_t k = 0; k < 3 && u->height < 0; k++)
            if (strcmp(h->valuestring, heights[k]) == 0)
                u->height = height_of[k], u->height_word = true;
        if (u->height < 0)
            return base_error_set(err, "%s.height: expected 0 to 5, or \"standard\", \"large\" or \"gigantic\"",
                                   where);
    } else if (h && !cJSON_IsNull(h)) {
        if (base_json_int(ju, "height", where, true, &u->height, err) < 0)
            return -1;
        if (u->height < 0 || u->height > 5)
            return base_error_set(err, "%s.height: expected a Height from 0 to 5", where);
    }
    if (base_json_string(ju, "type", where, false, u->type, sizeof u->type, err) < 0)
        return -1;
    bool known = !u->type[0];
    for (size_t k = 0; k < 4 && !known; k++)
        known = strcmp(u->type, types[k]) == 0;
    if (!known)
        return base_error_set(err, "%s.type: expected \"infantry\", \"beast\", \"cavalry\" or \"construct\"", where);
    return 0;
}

/* An object of known keys with a name (`name_key`, a string, required or
 * not) and a required "models" array: an alternative placement or a
 * declared Dynamic Formation. The array, or NULL with err set. */
static const cJSON *named_model_list(const cJSON *j, const char *where, const char *const *keys, const char *name_key,
                                     bool name_required, char *name, size_t cap, base_error *err)
{
    if (!cJSON_IsObject(j)) {
        base_error_set(err, "%s: expected an object", where);
        return NULL;
    }
    if (base_fields_known(j, where, keys, err) < 0 ||
        base_json_string(j, name_key, where, name_required, name, cap, err) < 0)
        return NULL;
    return base_json_array(j, "models", where, true, err);
}

/* One model of an alternative placement: {"id", "x_mm", "y_mm", "facing_deg", "sigma_mm"}. */
static int read_placed_model(const cJSON *jm, const char *where, void *placement, base_error *err)
{
    rules_placement *p = placement;
    char id[RULES_ID_MAX];
    double x, y, facing_deg, sigma = NAN;
    if (!cJSON_IsObject(jm))
        return base_error_set(err, "%s: expected an object", where);
    const double place = BASE_FIELDS_MAX_PLACE_MM, turn = BASE_FIELDS_MAX_ANGLE_DEG;
    if (base_fields_known(jm, where, placed_keys, err) < 0 ||
        base_json_string(jm, "id", where, true, id, sizeof id, err) < 0 ||
        base_fields_number(jm, "x_mm", where, true, -place, place, &x, err) < 0 ||
        base_fields_number(jm, "y_mm", where, true, -place, place, &y, err) < 0 ||
        base_fields_number(jm, "facing_deg", where, true, -turn, turn, &facing_deg, err) < 0 ||
        base_fields_number(jm, "sigma_mm", where, false, 0, BASE_FIELDS_MAX_BASE_MM, &sigma, err) < 0)
        return -1;
    /* That it is a model of this unit, once, is checked with the other ids (rules_snapshot_check_ids). */
    if (rules_placement_add_model(p, id, base_v2(x, y), base_angle_wrap(base_deg_to_rad(facing_deg)), sigma) < 0)
        return base_error_set(err, "%s: out of memory", where);
    return 0;
}

/* One alternative placement: {"label": ..., "models": [...]}. */
static int read_alternative(const cJSON *ja, const char *where, void *unit, base_error *err)
{
    char label[RULES_LABEL_MAX] = "";
    const cJSON *models = named_model_list(ja, where, alternative_keys, "label", false, label, sizeof label, err);
    if (!models)
        return -1;
    rules_placement *p = rules_unit_add_alternative(unit, label);
    if (!p)
        return base_error_set(err, "%s: out of memory", where);
    return read_items(models, where, ".models", read_placed_model, p, err);
}

/* A unit's alternative placements: [{"label": ..., "models": [{"id", "x_mm", "y_mm", "facing_deg", "sigma_mm"}]}]. */
static int read_alternatives(const cJSON *ju, const char *where, rules_unit *u, base_error *err)
{
    if (base_json_bool(ju, "alternatives_complete", where, false, &u->placements_complete, err) < 0 ||
        base_json_string(ju, "placement", where, false, u->placement_label, sizeof u->placement_label, err) < 0)
        return -1;
    const cJSON *it = base_json_field(ju, "alternatives");
    if (!it || cJSON_IsNull(it))
        return 0;
    const cJSON *alts = base_json_array(ju, "alternatives", where, false, err);
    if (!alts)
        return -1;
    return read_items(alts, where, ".alternatives", read_alternative, u, err);
}

/* A unit the camera saw nothing of: {"id": ..., "side": ..., "models": n}. */
static int read_unseen(const cJSON *jn, const char *where, void *snapshot, base_error *err)
{
    rules_snapshot *s = snapshot;
    if (!cJSON_IsObject(jn))
        return base_error_set(err, "%s: expected an object", where);
    char id[RULES_ID_MAX], side[RULES_ID_MAX] = "";
    int n = 0;
    if (base_fields_known(jn, where, unseen_keys, err) < 0 ||
        base_json_string(jn, "id", where, true, id, sizeof id, err) < 0 ||
        base_json_string(jn, "side", where, false, side, sizeof side, err) < 0 ||
        base_fields_int(jn, "models", where, false, 0, BASE_FIELDS_MAX_MODELS, &n, err) < 0)
        return -1;
    if (!id[0])
        return base_error_set(err, "%s.id: must not be empty", where);
    /* That its id is no other unit's is checked with the other ids (rules_snapshot_check_ids). */
    return rules_snapshot_add_unseen(s, id, side, (size_t)n) ? 0 : base_error_set(err, "%s: out of memory", where);
}

/* "height_unsettled": {"seen_mm", "table_mm"}: vision read the unit's tags at another height than the table's. */
static int read_unsettled(const cJSON *ju, const char *where, rules_unit *u, base_error *err)
{
    const cJSON *h = base_json_object(ju, "height_unsettled", where, false, err);
    if (!h)
        return base_json_field(ju, "height_unsettled") ? -1 : 0;
    char w[160];
    snprintf(w, sizeof w, "%s.height_unsettled", where);
    const double tall = BASE_FIELDS_MAX_BASE_MM;
    if (base_fields_known(h, w, unsettled_keys, err) < 0 ||
        base_fields_number(h, "seen_mm", w, true, -tall, tall, &u->height_seen_mm, err) < 0 ||
        base_fields_number(h, "table_mm", w, true, 0, tall, &u->height_table_mm, err) < 0)
        return -1;
    return 0;
}

static int read_unit(const cJSON *ju, const char *where, void *snapshot, base_error *err)
{
    rules_snapshot *s = snapshot;
    if (!cJSON_IsObject(ju))
        return base_error_set(err, "%s: expected an object", where);
    char id[RULES_ID_MAX], side[RULES_ID_MAX];
    double base[2];
    if (base_fields_known(ju, where, unit_keys, err) < 0 ||
        base_json_string(ju, "id", where, true, id, sizeof id, err) < 0 ||
        base_json_string(ju, "side", where, true, side, sizeof side, err) < 0 ||
        base_json_numbers(ju, "base_mm", where, true, base, 2, err) < 0)
        return -1;
    if (!id[0])
        return base_error_set(err, "%s.id: must not be empty", where);
    if (!(base[0] > 0 && base[0] <= BASE_FIELDS_MAX_BASE_MM) || !(base[1] > 0 && base[1] <= BASE_FIELDS_MAX_BASE_MM))
        return base_error_set(err, "%s.base_mm: base sizes must be > 0 and at most %g mm", where,
                               BASE_FIELDS_MAX_BASE_MM);
    rules_unit *u = rules_snapshot_add_unit(s, id, side);
    if (!u)
        return base_error_set(err, "%s: out of memory", where);
    u->base_width = base[0];
    u->base_depth = base[1];
    if (read_rate(ju, "advance_in", where, &u->advance_rate, err) < 0 ||
        read_rate(ju, "march_in", where, &u->march_rate, err) < 0 ||
        read_rate(ju, "mobility_in", where, &u->mobility, err) < 0 ||
        read_dice(ju, "advance_dice", where, u->advance_dice, err) < 0 ||
        read_dice(ju, "march_dice", where, u->march_dice, err) < 0 ||
        read_rate(ju, "roll_in", where, &u->roll_mm, err) < 0 || read_status(ju, where, &u->status, err) < 0)
        return -1;
    /* Dynamic Formations (seed 002): optional, absent in older files. */
    if (base_json_string(ju, "profile", where, false, u->profile, sizeof u->profile, err) < 0 ||
        read_rate(ju, "control_area_in", where, &u->control_area_mm, err) < 0 ||
        base_json_bool(ju, "heroic", where, false, &u->heroic, err) < 0 ||
        base_fields_int(ju, "will", where, false, 0, BASE_FIELDS_MAX_WILL, &u->will, err) < 0)
        return -1;
    if (read_unit_clauses(ju, where, u, err) < 0 || read_unsettled(ju, where, u, err) < 0)
        return -1;
    const cJSON *models = base_json_array(ju, "models", where, true, err);
    if (!models)
        return -1;
    if (read_items(models, where, ".models", read_model, u, err) < 0)
        return -1;
    if (u->n_models == 0)
        return base_error_set(err, "%s.models: a unit needs at least one model", where);
    return read_alternatives(ju, where, u, err);
}

/* A declared Dynamic Formation: {"id": "f1", "models": ["orc-1", ...]}; every model must exist. */
static int read_dynform(const cJSON *jf, const char *where, void *snapshot, base_error *err)
{
    rules_snapshot *s = snapshot;
    char id[RULES_ID_MAX];
    const cJSON *models = named_model_list(jf, where, dynform_keys, "id", true, id, sizeof id, err);
    if (!models)
        return -1;
    rules_dynform_decl *f = rules_snapshot_add_dynform(s, id);
    if (!f)
        return base_error_set(err, "%s: out of memory", where);
    size_t k = 0;
    const cJSON *el;
    cJSON_ArrayForEach(el, models)
    {
        if (!cJSON_IsString(el) || strlen(el->valuestring) >= RULES_ID_MAX)
            return base_error_set(err, "%s.models[%zu]: expected a model id", where, k);
        /* That it names a model on the table is checked with the other ids (rules_snapshot_check_ids). */
        if (rules_dynform_decl_add_model(f, el->valuestring) < 0)
            return base_error_set(err, "%s: out of memory", where);
        k++;
    }
    return 0;
}

/* Reads every element of the array `key` (absent or null is fine unless required) with `reader`. */
static int read_list(const cJSON *root, const char *key, bool required, item_reader reader, rules_snapshot *s,
                     base_error *err)
{
    const cJSON *it = base_json_field(root, key);
    if (!required && (!it || cJSON_IsNull(it)))
        return 0;
    const cJSON *arr = base_json_array(root, key, "", required, err);
    if (!arr)
        return -1;
    return read_items(arr, "", key, reader, s, err);
}

rules_snapshot *rules_json_to_snapshot(const cJSON *root, const char *name, base_error *err)
{
    if (err)
        err->msg[0] = '\0';
    if (!cJSON_IsObject(root)) {
        base_error_set(err, "%s: expected a JSON object at the top level", name);
        return NULL;
    }
    int version = RULES_SNAPSHOT_VERSION;
    double w, d;
    char fmt[32] = RULES_SNAPSHOT_FORMAT;
    const cJSON *board = base_json_object(root, "board", "", true, err);
    if (base_fields_known(root, "", snapshot_keys, err) < 0 || !board ||
        base_fields_known(board, "board", board_keys, err) < 0 ||
        base_json_string(root, "format", "", false, fmt, sizeof fmt, err) < 0 ||
        base_json_int(root, "version", "", false, &version, err) < 0 ||
        base_fields_number(board, "width_mm", "board", true, 1, BASE_FIELDS_MAX_BOARD_MM, &w, err) < 0 ||
        base_fields_number(board, "depth_mm", "board", true, 1, BASE_FIELDS_MAX_BOARD_MM, &d, err) < 0)
        goto fail_noalloc;
    if (strcmp(fmt, RULES_SNAPSHOT_FORMAT) != 0) {
        base_error_set(err, "format: expected \"%s\", found \"%s\"", RULES_SNAPSHOT_FORMAT, fmt);
        goto fail_noalloc;
    }
    if (version != RULES_SNAPSHOT_VERSION) {
        base_error_set(err, "version: this tableref reads snapshot version %d, not %d", RULES_SNAPSHOT_VERSION,
                        version);
        goto fail_noalloc;
    }
    if (w <= 0 || d <= 0) {
        base_error_set(err, "board: width_mm and depth_mm must be > 0");
        goto fail_noalloc;
    }
    rules_snapshot *s = rules_snapshot_new(w, d);
    if (!s) {
        base_error_set(err, "out of memory");
        goto fail_noalloc;
    }
    const cJSON *rs = base_json_field(root, "ruleset");
    if (rs && !cJSON_IsNull(rs)) {
        if (rules_json_to_ruleset(rs, "ruleset", &s->ruleset, err) < 0)
            goto fail;
        s->ruleset_given = true;
    }
    if (read_list(root, "units", true, read_unit, s, err) < 0 ||
        read_list(root, "terrain", false, rules_json_read_terrain, s, err) < 0 ||
        read_list(root, "formations", false, read_dynform, s, err) < 0 ||
        read_list(root, "unseen_units", false, read_unseen, s, err) < 0 || rules_snapshot_check_ids(s, err) < 0 ||
        base_fields_all_checked(root, NULL, err) < 0)
        goto fail;
    return s;
fail:
    rules_snapshot_free(s);
fail_noalloc:
    base_error_prefix(err, name);
    return NULL;
}

rules_snapshot *rules_json_load_snapshot(const char *path, base_error *err)
{
    cJSON *root = base_json_parse_file(path, err);
    if (!root)
        return NULL;
    rules_snapshot *s = rules_json_to_snapshot(root, path, err);
    cJSON_Delete(root);
    return s;
}
