#include "vis_roster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_json.h"

void vis_tag_mount_place(const vis_tag_mount *m, rules_vec2 pos, double facing, rules_vec2 *tag_centre,
                         double *tag_heading)
{
    *tag_centre = rules_v2_add(pos, rules_v2_rot(m->offset, facing));
    *tag_heading = rules_angle_wrap(facing + m->rotation);
}

void vis_tag_mount_unplace(const vis_tag_mount *m, rules_vec2 tag_centre, double tag_heading, rules_vec2 *pos,
                           double *facing)
{
    *facing = rules_angle_wrap(tag_heading - m->rotation);
    *pos = rules_v2_sub(tag_centre, rules_v2_rot(m->offset, *facing));
}

void vis_roster_model_apply(const vis_roster_model *rm, rules_model *m)
{
    m->base_width = rm->base_width;
    m->base_depth = rm->base_depth;
    m->attachable = m->attachable || rm->attachable;
}

void vis_roster_free(vis_roster *r)
{
    if (!r)
        return;
    free(r->units);
    free(r->models);
    free(r->board_tags);
    free(r);
}

const vis_roster_model *vis_roster_find_model_tag(const vis_roster *r, int id)
{
    for (size_t i = 0; i < r->n_models; i++)
        if (r->models[i].tag_id == id)
            return &r->models[i];
    return NULL;
}

const vis_board_tag *vis_roster_find_board_tag(const vis_roster *r, int id)
{
    for (size_t i = 0; i < r->n_board_tags; i++)
        if (r->board_tags[i].id == id)
            return &r->board_tags[i];
    return NULL;
}

static int read_rate(const cJSON *o, const char *key, const char *where, double *out, rules_error *err)
{
    double in = NAN;
    if (rules_json_number(o, key, where, false, &in, err) < 0)
        return -1;
    *out = isnan(in) ? NAN : rules_in_to_mm(in);
    return 0;
}

static int read_mount(const cJSON *o, const char *where, vis_tag_mount *m, rules_error *err)
{
    double off[2] = {0, 0}, rot = 0;
    if (rules_json_numbers(o, "offset_mm", where, false, off, 2, err) < 0 ||
        rules_json_number(o, "rotation_deg", where, false, &rot, err) < 0 ||
        rules_json_number(o, "height_mm", where, true, &m->height, err) < 0 ||
        rules_json_number(o, "size_mm", where, true, &m->size, err) < 0)
        return -1;
    if (!(m->size > 0))
        return rules_error_set(err, "%s.size_mm: must be positive", where);
    if (m->height < 0 || m->height > 200)
        return rules_error_set(err, "%s.height_mm: must be 0..200", where);
    m->offset = rules_v2(off[0], off[1]);
    m->rotation = rules_deg_to_rad(rot);
    return 0;
}

static int id_taken(const vis_roster *r, int id)
{
    return vis_roster_find_model_tag(r, id) || vis_roster_find_board_tag(r, id);
}

static int parse(const cJSON *root, vis_roster *r, rules_error *err)
{
    char fmt[64] = "";
    int version = 0;
    if (!cJSON_IsObject(root))
        return rules_error_set(err, "expected a JSON object");
    if (rules_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0)
        return -1;
    if (strcmp(fmt, VIS_ROSTER_FORMAT) != 0)
        return rules_error_set(err, "format: expected \"%s\", found \"%s\"", VIS_ROSTER_FORMAT, fmt);
    if (rules_json_int(root, "version", "", true, &version, err) < 0)
        return -1;
    if (version != VIS_ROSTER_VERSION)
        return rules_error_set(err, "version: unknown version %d (this tableref reads %d)", version,
                               VIS_ROSTER_VERSION);
    strcpy(r->family, "tag36h11");
    if (rules_json_string(root, "family", "", false, r->family, sizeof r->family, err) < 0)
        return -1;
    if (strcmp(r->family, "tag36h11") != 0 && strcmp(r->family, "tagStandard41h12") != 0)
        return rules_error_set(err, "family: \"%s\" is not tag36h11 or tagStandard41h12", r->family);
    const cJSON *board = rules_json_object(root, "board", "", true, err);
    if (!board || rules_json_number(board, "width_mm", "board", true, &r->board_width, err) < 0 ||
        rules_json_number(board, "depth_mm", "board", true, &r->board_depth, err) < 0)
        return -1;
    if (!(r->board_width > 0) || !(r->board_depth > 0))
        return rules_error_set(err, "board: width_mm and depth_mm must be positive");
    const cJSON *tags = rules_json_array(board, "tags", "board", false, err);
    if (!tags && cJSON_GetObjectItemCaseSensitive(board, "tags"))
        return -1;
    size_t nt = tags ? (size_t)cJSON_GetArraySize(tags) : 0;
    r->board_tags = calloc(nt ? nt : 1, sizeof *r->board_tags);
    const cJSON *units = rules_json_array(root, "units", "", true, err);
    if (!units)
        return -1;
    size_t nu = (size_t)cJSON_GetArraySize(units), nm = 0;
    const cJSON *ju;
    cJSON_ArrayForEach(ju, units)
    {
        const cJSON *ms = cJSON_GetObjectItemCaseSensitive(ju, "models");
        nm += cJSON_IsArray(ms) ? (size_t)cJSON_GetArraySize(ms) : 0;
    }
    r->units = calloc(nu ? nu : 1, sizeof *r->units);
    r->models = calloc(nm ? nm : 1, sizeof *r->models);
    if (!r->board_tags || !r->units || !r->models)
        return rules_error_set(err, "out of memory");
    char where[96];
    const cJSON *jt;
    cJSON_ArrayForEach(jt, tags)
    {
        vis_board_tag *t = &r->board_tags[r->n_board_tags];
        snprintf(where, sizeof where, "board.tags[%zu]", r->n_board_tags);
        double rot = 0;
        t->z = 0;
        if (rules_json_int(jt, "id", where, true, &t->id, err) < 0 ||
            rules_json_number(jt, "x_mm", where, true, &t->x, err) < 0 ||
            rules_json_number(jt, "y_mm", where, true, &t->y, err) < 0 ||
            rules_json_number(jt, "height_mm", where, false, &t->z, err) < 0 ||
            rules_json_number(jt, "rotation_deg", where, false, &rot, err) < 0 ||
            rules_json_number(jt, "size_mm", where, true, &t->size, err) < 0)
            return -1;
        if (!(t->size > 0))
            return rules_error_set(err, "%s.size_mm: must be positive", where);
        if (t->id < 0 || id_taken(r, t->id))
            return rules_error_set(err, "%s.id: %d is negative or used twice", where, t->id);
        t->rotation = rules_deg_to_rad(rot);
        r->n_board_tags++;
    }
    cJSON_ArrayForEach(ju, units)
    {
        vis_roster_unit *u = &r->units[r->n_units];
        snprintf(where, sizeof where, "units[%zu]", r->n_units);
        double base[2];
        u->files = 0;
        if (rules_json_string(ju, "id", where, true, u->id, sizeof u->id, err) < 0 ||
            rules_json_string(ju, "name", where, false, u->name, sizeof u->name, err) < 0 ||
            rules_json_bool(ju, "character", where, false, &u->character, err) < 0 ||
            rules_json_string(ju, "side", where, true, u->side, sizeof u->side, err) < 0 ||
            rules_json_numbers(ju, "base_mm", where, true, base, 2, err) < 0 ||
            read_rate(ju, "advance_in", where, &u->advance_rate, err) < 0 ||
            read_rate(ju, "march_in", where, &u->march_rate, err) < 0 ||
            read_rate(ju, "mobility_in", where, &u->mobility, err) < 0 ||
            rules_json_int(ju, "files", where, false, &u->files, err) < 0)
            return -1;
        if (!(base[0] > 0) || !(base[1] > 0))
            return rules_error_set(err, "%s.base_mm: must be positive", where);
        u->base_width = base[0];
        u->base_depth = base[1];
        const cJSON *st = rules_json_array(ju, "status", where, false, err);
        if (!st && cJSON_GetObjectItemCaseSensitive(ju, "status"))
            return -1;
        const cJSON *w;
        cJSON_ArrayForEach(w, st)
        {
            unsigned bit = cJSON_IsString(w) ? rules_status_from_word(w->valuestring) : 0;
            if (!bit)
                return rules_error_set(err, "%s.status: unknown status word", where);
            u->status |= bit;
        }
        const cJSON *mount = rules_json_object(ju, "tag", where, true, err);
        char mwhere[112];
        snprintf(mwhere, sizeof mwhere, "%s.tag", where);
        if (!mount || read_mount(mount, mwhere, &u->mount, err) < 0)
            return -1;
        for (size_t k = 0; k < r->n_units; k++)
            if (strcmp(r->units[k].id, u->id) == 0)
                return rules_error_set(err, "%s.id: \"%s\" used twice", where, u->id);
        const cJSON *ms = rules_json_array(ju, "models", where, true, err);
        if (!ms)
            return -1;
        if (cJSON_GetArraySize(ms) == 0)
            return rules_error_set(err, "%s.models: a unit needs at least one model", where);
        u->first_model = r->n_models;
        if (u->files <= 0)
            u->files = cJSON_GetArraySize(ms);
        const cJSON *jm;
        cJSON_ArrayForEach(jm, ms)
        {
            vis_roster_model *m = &r->models[r->n_models];
            char w2[128];
            snprintf(w2, sizeof w2, "%s.models[%zu]", where, u->n_models);
            double mb[2] = {0, 0};
            if (rules_json_string(jm, "id", w2, true, m->id, sizeof m->id, err) < 0 ||
                rules_json_int(jm, "tag_id", w2, true, &m->tag_id, err) < 0 ||
                rules_json_string(jm, "name", w2, false, m->name, sizeof m->name, err) < 0 ||
                rules_json_bool(jm, "attachable", w2, false, &m->attachable, err) < 0 ||
                rules_json_numbers(jm, "base_mm", w2, false, mb, 2, err) < 0)
                return -1;
            if (cJSON_GetObjectItemCaseSensitive(jm, "base_mm") && !(mb[0] > 0 && mb[1] > 0))
                return rules_error_set(err, "%s.base_mm: must be positive", w2);
            m->base_width = mb[0];
            m->base_depth = mb[1];
            if (m->tag_id < 0 || id_taken(r, m->tag_id))
                return rules_error_set(err, "%s.tag_id: %d is negative or used twice", w2, m->tag_id);
            m->unit = r->n_units;
            m->file = (int)(u->n_models % (size_t)u->files);
            m->rank = (int)(u->n_models / (size_t)u->files);
            u->n_models++;
            r->n_models++;
        }
        r->n_units++;
    }
    return 0;
}

vis_roster *vis_roster_from_json(const cJSON *root, const char *name, rules_error *err)
{
    vis_roster *r = calloc(1, sizeof *r);
    if (!r) {
        rules_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    if (err)
        err->msg[0] = '\0';
    if (parse(root, r, err) < 0) {
        rules_error_prefix(err, name);
        vis_roster_free(r);
        return NULL;
    }
    return r;
}

vis_roster *vis_roster_load(const char *path, rules_error *err)
{
    cJSON *root = rules_json_parse_file(path, err);
    if (!root)
        return NULL;
    vis_roster *r = vis_roster_from_json(root, path, err);
    cJSON_Delete(root);
    return r;
}

static void add_rate(cJSON *o, const char *key, double mm)
{
    if (!isnan(mm))
        rules_json_add_number(o, key, rules_mm_to_in(mm), 4);
}

cJSON *vis_roster_to_json(const vis_roster *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "format", VIS_ROSTER_FORMAT);
    cJSON_AddNumberToObject(root, "version", VIS_ROSTER_VERSION);
    cJSON_AddStringToObject(root, "family", r->family);
    cJSON *board = cJSON_AddObjectToObject(root, "board");
    rules_json_add_number(board, "width_mm", r->board_width, 3);
    rules_json_add_number(board, "depth_mm", r->board_depth, 3);
    cJSON *tags = cJSON_AddArrayToObject(board, "tags");
    for (size_t i = 0; i < r->n_board_tags; i++) {
        const vis_board_tag *t = &r->board_tags[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", t->id);
        rules_json_add_number(o, "x_mm", t->x, 3);
        rules_json_add_number(o, "y_mm", t->y, 3);
        rules_json_add_number(o, "height_mm", t->z, 3);
        rules_json_add_number(o, "rotation_deg", rules_rad_to_deg(t->rotation), 3);
        rules_json_add_number(o, "size_mm", t->size, 3);
        cJSON_AddItemToArray(tags, o);
    }
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t i = 0; i < r->n_units; i++) {
        const vis_roster_unit *u = &r->units[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", u->id);
        if (u->name[0])
            cJSON_AddStringToObject(o, "name", u->name);
        if (u->character)
            cJSON_AddBoolToObject(o, "character", true);
        cJSON_AddStringToObject(o, "side", u->side);
        double base[2] = {u->base_width, u->base_depth};
        cJSON_AddItemToObject(o, "base_mm", cJSON_CreateDoubleArray(base, 2));
        add_rate(o, "advance_in", u->advance_rate);
        add_rate(o, "march_in", u->march_rate);
        add_rate(o, "mobility_in", u->mobility);
        cJSON *st = cJSON_AddArrayToObject(o, "status");
        for (unsigned bit = 1; bit && bit <= u->status; bit <<= 1)
            if ((u->status & bit) && rules_status_word(bit))
                cJSON_AddItemToArray(st, cJSON_CreateString(rules_status_word(bit)));
        cJSON_AddNumberToObject(o, "files", u->files);
        cJSON *m = cJSON_AddObjectToObject(o, "tag");
        double off[2] = {u->mount.offset.x, u->mount.offset.y};
        cJSON_AddItemToObject(m, "offset_mm", cJSON_CreateDoubleArray(off, 2));
        rules_json_add_number(m, "rotation_deg", rules_rad_to_deg(u->mount.rotation), 3);
        rules_json_add_number(m, "height_mm", u->mount.height, 3);
        rules_json_add_number(m, "size_mm", u->mount.size, 3);
        cJSON *ms = cJSON_AddArrayToObject(o, "models");
        for (size_t k = 0; k < u->n_models; k++) {
            const vis_roster_model *vm = &r->models[u->first_model + k];
            cJSON *jm = cJSON_CreateObject();
            cJSON_AddStringToObject(jm, "id", vm->id);
            cJSON_AddNumberToObject(jm, "tag_id", vm->tag_id);
            if (vm->name[0])
                cJSON_AddStringToObject(jm, "name", vm->name);
            if (vm->attachable)
                cJSON_AddBoolToObject(jm, "attachable", true);
            if (vm->base_width > 0) {
                double b[2] = {vm->base_width, vm->base_depth};
                cJSON_AddItemToObject(jm, "base_mm", cJSON_CreateDoubleArray(b, 2));
            }
            cJSON_AddItemToArray(ms, jm);
        }
        cJSON_AddItemToArray(units, o);
    }
    return root;
}

int vis_roster_save(const vis_roster *r, const char *path, rules_error *err)
{
    cJSON *root = vis_roster_to_json(r);
    if (!root)
        return rules_error_set(err, "%s: out of memory", path);
    int rc = rules_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}

rules_snapshot *vis_roster_new_snapshot(const vis_roster *r)
{
    rules_snapshot *s = rules_snapshot_new(r->board_width, r->board_depth);
    if (!s)
        return NULL;
    for (size_t i = 0; i < r->n_units; i++) {
        const vis_roster_unit *ru = &r->units[i];
        rules_unit *u = rules_snapshot_add_unit(s, ru->id, ru->side);
        if (!u) {
            rules_snapshot_free(s);
            return NULL;
        }
        u->base_width = ru->base_width;
        u->base_depth = ru->base_depth;
        u->advance_rate = ru->advance_rate;
        u->march_rate = ru->march_rate;
        u->mobility = ru->mobility;
        u->status = ru->status;
    }
    return s;
}
