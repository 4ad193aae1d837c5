/* rules_json, the snapshot: writing (rules_json.h); reading is rules_json_snapshot.c. */
#include "rules_json.h"

#include <math.h>

#include "rules_json_int.h"

static void add_unit_clauses(cJSON *ju, const rules_unit *u)
{
    static const char *const words[] = {"standard", "standard", "standard", "large", "large", "gigantic"};
    if (u->combat[0])
        cJSON_AddStringToObject(ju, "combat", u->combat);
    if (u->height >= 0 && u->height_word)
        cJSON_AddStringToObject(ju, "height", words[u->height]);
    else if (u->height >= 0)
        cJSON_AddNumberToObject(ju, "height", u->height);
    if (u->type[0])
        cJSON_AddStringToObject(ju, "type", u->type);
}

/* A model as {"id", "x_mm", "y_mm", "facing_deg"} (positions to 0.001 mm), the fields every model entry starts with. */
static cJSON *pose_to_json(const char *id, base_vec2 pos, double facing)
{
    cJSON *jm = cJSON_CreateObject();
    cJSON_AddStringToObject(jm, "id", id);
    base_json_add_number(jm, "x_mm", pos.x, 3);
    base_json_add_number(jm, "y_mm", pos.y, 3);
    base_json_add_number(jm, "facing_deg", base_rad_to_deg(facing), 3);
    return jm;
}

static cJSON *status_to_json(unsigned status)
{
    cJSON *arr = cJSON_CreateArray();
    for (unsigned bit = 1; bit && bit <= RULES_STATUS_SHAKEN; bit <<= 1)
        if (status & bit)
            cJSON_AddItemToArray(arr, cJSON_CreateString(rules_status_word(bit)));
    return arr;
}

static void add_rate(cJSON *o, const char *key, double mm)
{
    if (!isnan(mm))
        base_json_add_number(o, key, base_mm_to_in(mm), 4);
}

static void add_evidence(cJSON *jm, rules_evidence e, double sigma_mm)
{
    if (e != RULES_EVIDENCE_SEEN)
        cJSON_AddStringToObject(jm, "evidence", rules_evidence_word(e));
    if (!isnan(sigma_mm))
        base_json_add_number(jm, "sigma_mm", sigma_mm, 3);
}

/* One alternative placement: {"label", "models": [{"id", "x_mm", "y_mm", "facing_deg", "sigma_mm"}]}. */
static cJSON *placement_to_json(const rules_placement *p)
{
    cJSON *ja = cJSON_CreateObject();
    cJSON_AddStringToObject(ja, "label", p->label);
    cJSON *models = cJSON_AddArrayToObject(ja, "models");
    for (size_t j = 0; j < p->n_models; j++) {
        const rules_placed_model *m = &p->models[j];
        cJSON *jm = pose_to_json(m->id, m->pos, m->facing);
        if (!isnan(m->sigma_mm))
            base_json_add_number(jm, "sigma_mm", m->sigma_mm, 3);
        cJSON_AddItemToArray(models, jm);
    }
    return ja;
}

static void add_alternatives(cJSON *ju, const rules_unit *u)
{
    if (!u->placements_complete)
        cJSON_AddBoolToObject(ju, "alternatives_complete", false);
    if (u->placement_label[0])
        cJSON_AddStringToObject(ju, "placement", u->placement_label);
    if (!u->n_alternatives)
        return;
    cJSON *alts = cJSON_AddArrayToObject(ju, "alternatives");
    for (size_t k = 0; k < u->n_alternatives; k++)
        cJSON_AddItemToArray(alts, placement_to_json(&u->alternatives[k]));
}

static cJSON *model_to_json(const rules_model *m)
{
    cJSON *jm = pose_to_json(m->id, m->pos, m->facing);
    if (m->status)
        cJSON_AddItemToObject(jm, "status", status_to_json(m->status));
    if (m->inferred)
        cJSON_AddBoolToObject(jm, "inferred", true);
    if (m->attachable)
        cJSON_AddBoolToObject(jm, "attachable", true);
    add_evidence(jm, m->evidence, m->sigma_mm);
    if (m->base_width > 0 && m->base_depth > 0) {
        double b[2] = {m->base_width, m->base_depth};
        cJSON_AddItemToObject(jm, "base_mm", cJSON_CreateDoubleArray(b, 2));
    }
    return jm;
}

static cJSON *unit_to_json(const rules_unit *u)
{
    cJSON *ju = cJSON_CreateObject();
    cJSON_AddStringToObject(ju, "id", u->id);
    cJSON_AddStringToObject(ju, "side", u->side);
    double base[2] = {u->base_width, u->base_depth};
    cJSON_AddItemToObject(ju, "base_mm", cJSON_CreateDoubleArray(base, 2));
    add_rate(ju, "advance_in", u->advance_rate);
    add_rate(ju, "march_in", u->march_rate);
    add_rate(ju, "mobility_in", u->mobility);
    if (u->advance_dice[0])
        cJSON_AddStringToObject(ju, "advance_dice", u->advance_dice);
    if (u->march_dice[0])
        cJSON_AddStringToObject(ju, "march_dice", u->march_dice);
    add_rate(ju, "roll_in", u->roll_mm);
    cJSON_AddItemToObject(ju, "status", status_to_json(u->status));
    if (u->profile[0])
        cJSON_AddStringToObject(ju, "profile", u->profile);
    add_rate(ju, "control_area_in", u->control_area_mm);
    if (u->heroic)
        cJSON_AddBoolToObject(ju, "heroic", true);
    if (u->will >= 0)
        cJSON_AddNumberToObject(ju, "will", u->will);
    add_unit_clauses(ju, u);
    cJSON *models = cJSON_AddArrayToObject(ju, "models");
    for (size_t j = 0; j < u->n_models; j++)
        cJSON_AddItemToArray(models, model_to_json(&u->models[j]));
    add_alternatives(ju, u);
    if (rules_unit_height_unsettled(u)) {
        cJSON *h = cJSON_AddObjectToObject(ju, "height_unsettled");
        base_json_add_number(h, "seen_mm", u->height_seen_mm, 1);
        base_json_add_number(h, "table_mm", u->height_table_mm, 1);
    }
    return ju;
}

/* The units a snapshot knows of but did not see, and its declared Dynamic Formations (each only when there are any). */
static void add_unseen_and_formations(cJSON *root, const rules_snapshot *s)
{
    if (s->n_unseen) {
        cJSON *unseen = cJSON_AddArrayToObject(root, "unseen_units");
        for (size_t i = 0; i < s->n_unseen; i++) {
            cJSON *jn = cJSON_CreateObject();
            cJSON_AddStringToObject(jn, "id", s->unseen[i].id);
            cJSON_AddStringToObject(jn, "side", s->unseen[i].side);
            cJSON_AddNumberToObject(jn, "models", (double)s->unseen[i].n_models);
            cJSON_AddItemToArray(unseen, jn);
        }
    }
    cJSON *terrain = cJSON_AddArrayToObject(root, "terrain");
    for (size_t i = 0; i < s->n_terrain; i++)
        cJSON_AddItemToArray(terrain, rules_json_terrain_out(&s->terrain[i]));
    if (!s->n_dynforms)
        return;
    cJSON *forms = cJSON_AddArrayToObject(root, "formations");
    for (size_t i = 0; i < s->n_dynforms; i++) {
        cJSON *jf = cJSON_CreateObject();
        cJSON_AddStringToObject(jf, "id", s->dynforms[i].id);
        cJSON *ids = cJSON_AddArrayToObject(jf, "models");
        for (size_t k = 0; k < s->dynforms[i].n_models; k++)
            cJSON_AddItemToArray(ids, cJSON_CreateString(s->dynforms[i].models[k]));
        cJSON_AddItemToArray(forms, jf);
    }
}

cJSON *rules_json_from_snapshot(const rules_snapshot *s)
{
    cJSON *root = rules_json_document(RULES_SNAPSHOT_FORMAT, RULES_SNAPSHOT_VERSION);
    cJSON *board = cJSON_AddObjectToObject(root, "board");
    base_json_add_number(board, "width_mm", s->board_width, 3);
    base_json_add_number(board, "depth_mm", s->board_depth, 3);
    cJSON_AddItemToObject(root, "ruleset", rules_json_from_ruleset(&s->ruleset));
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t i = 0; i < s->n_units; i++)
        cJSON_AddItemToArray(units, unit_to_json(&s->units[i]));
    add_unseen_and_formations(root, s);
    return root;
}

int rules_json_save_snapshot(const rules_snapshot *s, const char *path, base_error *err)
{
    cJSON *root = rules_json_from_snapshot(s);
    if (!root)
        return base_error_set(err, "%s: out of memory", path);
    int rc = base_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}
