/*
 * roster_write: the roster format written (roster.h), complete or not: a
 * value still unknown (a base or a tag size of 0, a rate NAN, a unit with no
 * models) is left out rather than guessed, `unresolved` says what is
 * missing, and the army's header is written when the roster has one. Lengths
 * with 3 decimals (mm), rates with 4 (inches). `files` is written when it is
 * not its default (every model in one rank). A unit's `marks` (masts) are
 * written when it has any, every field given.
 */
#include "roster.h"

#include <math.h>
#include <stdio.h>

#include "base_json.h"

static void add_rate(cJSON *o, const char *key, double mm)
{
    if (!isnan(mm))
        base_json_add_number(o, key, base_mm_to_in(mm), 4);
}

static void add_pair(cJSON *o, const char *key, double a, double b)
{
    const double v[2] = {a, b};
    cJSON_AddItemToObject(o, key, cJSON_CreateDoubleArray(v, 2));
}

static cJSON *army_json(const roster_army *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", a->name);
    if (a->player[0])
        cJSON_AddStringToObject(o, "player", a->player);
    if (a->game_system[0])
        cJSON_AddStringToObject(o, "game_system", a->game_system);
    if (a->points > 0)
        cJSON_AddNumberToObject(o, "points", a->points);
    if (a->slot > 0)
        cJSON_AddNumberToObject(o, "slot", a->slot);
    if (a->tag_ids[0])
        cJSON_AddStringToObject(o, "tag_ids", a->tag_ids);
    if (a->source[0])
        cJSON_AddStringToObject(o, "source", a->source);
    if (a->source_format[0])
        cJSON_AddStringToObject(o, "source_format", a->source_format);
    return o;
}

static cJSON *board_json(const roster_file *r)
{
    cJSON *board = cJSON_CreateObject();
    base_json_add_number(board, "width_mm", r->board_width, 3);
    base_json_add_number(board, "depth_mm", r->board_depth, 3);
    cJSON *tags = cJSON_AddArrayToObject(board, "tags");
    for (size_t i = 0; i < r->n_board_tags; i++) {
        const roster_board_tag *t = &r->board_tags[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", t->id);
        base_json_add_number(o, "x_mm", t->x, 3);
        base_json_add_number(o, "y_mm", t->y, 3);
        base_json_add_number(o, "height_mm", t->z, 3);
        base_json_add_number(o, "rotation_deg", base_rad_to_deg(t->rotation), 3);
        base_json_add_number(o, "size_mm", t->size, 3);
        cJSON_AddItemToArray(tags, o);
    }
    return board;
}

static cJSON *mount_json(const roster_tag_mount *m, bool layout_given)
{
    cJSON *o = cJSON_CreateObject();
    if (layout_given && m->layout == ROSTER_MARK_SQUARE)
        cJSON_AddStringToObject(o, "layout", roster_mark_layout_word(m->layout));
    if (m->layout == ROSTER_MARK_RIM) {
        /* A rim label covers the base top: its cells and its height say all (docs/formats.md). */
        cJSON_AddStringToObject(o, "layout", roster_mark_layout_word(m->layout));
        base_json_add_number(o, "height_mm", m->height, 3);
        base_json_add_number(o, "cell_mm", m->cell, 3);
        return o;
    }
    add_pair(o, "offset_mm", m->offset.x, m->offset.y);
    base_json_add_number(o, "rotation_deg", base_rad_to_deg(m->rotation), 3);
    base_json_add_number(o, "height_mm", m->height, 3);
    if (m->size > 0)
        base_json_add_number(o, "size_mm", m->size, 3);
    return o;
}

static cJSON *model_json(const roster_model *m)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", m->id);
    cJSON_AddNumberToObject(o, "tag_id", m->tag_id);
    if (m->name[0])
        cJSON_AddStringToObject(o, "name", m->name);
    if (m->base_width > 0)
        add_pair(o, "base_mm", m->base_width, m->base_depth);
    if (m->attachable)
        cJSON_AddBoolToObject(o, "attachable", true);
    return o;
}

/* A mast (roster.h, roster_unit_mark): every field, the sway too (a reader's default would follow the height). */
static cJSON *mark_json(const roster_file *r, const roster_unit_mark *k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", "mast");
    cJSON_AddStringToObject(o, "model", r->models[k->model].id);
    cJSON_AddNumberToObject(o, "tag_id", k->tag_id);
    base_json_add_number(o, "size_mm", k->mount.size, 3);
    base_json_add_number(o, "height_mm", k->mount.height, 3);
    add_pair(o, "offset_mm", k->mount.offset.x, k->mount.offset.y);
    base_json_add_number(o, "rotation_deg", base_rad_to_deg(k->mount.rotation), 3);
    base_json_add_number(o, "sway_mm", k->sway, 3);
    return o;
}

static cJSON *unit_json(const roster_file *r, const roster_unit *u)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", u->id);
    if (u->name[0])
        cJSON_AddStringToObject(o, "name", u->name);
    cJSON_AddStringToObject(o, "side", u->side);
    if (u->character)
        cJSON_AddBoolToObject(o, "character", true);
    if (u->mount_name[0])
        cJSON_AddStringToObject(o, "mount", u->mount_name);
    if (u->height[0])
        cJSON_AddStringToObject(o, "height", u->height);
    if (u->type[0])
        cJSON_AddStringToObject(o, "type", u->type);
    if (u->base_width > 0)
        add_pair(o, "base_mm", u->base_width, u->base_depth);
    if (u->base_width > 0 && u->round_base)
        cJSON_AddBoolToObject(o, "round_base", true);
    add_rate(o, "advance_in", u->advance_rate);
    add_rate(o, "march_in", u->march_rate);
    add_rate(o, "mobility_in", u->mobility);
    if (u->advance_dice[0])
        cJSON_AddStringToObject(o, "advance_dice", u->advance_dice);
    if (u->march_dice[0])
        cJSON_AddStringToObject(o, "march_dice", u->march_dice);
    cJSON *st = cJSON_AddArrayToObject(o, "status");
    for (unsigned bit = 1; bit && bit <= u->status; bit <<= 1)
        if ((u->status & bit) && rules_status_word(bit))
            cJSON_AddItemToArray(st, cJSON_CreateString(rules_status_word(bit)));
    if (u->files > 0 && (size_t)u->files != u->n_models)
        cJSON_AddNumberToObject(o, "files", u->files);
    if (u->loose)
        cJSON_AddBoolToObject(o, "loose", true);
    cJSON_AddItemToObject(o, "tag", mount_json(&u->mount, u->layout_given));
    cJSON *ms = cJSON_AddArrayToObject(o, "models");
    for (size_t k = 0; k < u->n_models; k++)
        cJSON_AddItemToArray(ms, model_json(&r->models[u->first_model + k]));
    const size_t ui = (size_t)(u - r->units);
    if (roster_unit_mark_count(r, ui)) {
        cJSON *ks = cJSON_AddArrayToObject(o, "marks");
        for (size_t k = 0; k < r->n_marks; k++)
            if (r->marks[k].unit == ui)
                cJSON_AddItemToArray(ks, mark_json(r, &r->marks[k]));
    }
    return o;
}

static cJSON *unresolved_json(const roster_unresolved *u)
{
    static const char *const words[] = {"models", "base_mm", "advance_in", "march_in"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "unit", u->unit);
    cJSON_AddStringToObject(o, "name", u->name);
    cJSON *m = cJSON_AddArrayToObject(o, "missing");
    for (unsigned k = 0; k < 4; k++)
        if (u->missing & (1u << k))
            cJSON_AddItemToArray(m, cJSON_CreateString(words[k]));
    if (u->why[0])
        cJSON_AddStringToObject(o, "why", u->why);
    cJSON_AddStringToObject(o, "where", u->where);
    return o;
}

cJSON *roster_to_json(const roster_file *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "format", ROSTER_FORMAT);
    cJSON_AddNumberToObject(root, "version", ROSTER_VERSION);
    cJSON_AddStringToObject(root, "family", r->family);
    if (r->army.present)
        cJSON_AddItemToObject(root, "army", army_json(&r->army));
    cJSON_AddItemToObject(root, "board", board_json(r));
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t i = 0; i < r->n_units; i++)
        cJSON_AddItemToArray(units, unit_json(r, &r->units[i]));
    if (r->n_unresolved) {
        cJSON *un = cJSON_AddArrayToObject(root, "unresolved");
        for (size_t i = 0; i < r->n_unresolved; i++)
            cJSON_AddItemToArray(un, unresolved_json(&r->unresolved[i]));
    }
    return root;
}

int roster_save(const roster_file *r, const char *path, base_error *err)
{
    cJSON *root = roster_to_json(r);
    if (!root)
        return base_error_set(err, "%s: out of memory", path);
    int rc = base_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}
