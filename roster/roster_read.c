/*
 * roster_read: the roster format read and checked (roster.h). Every field
 * through the shared field readers, so errors name the file and the field
 * ("roster.json: units[1].tag.size_mm: missing"); ranges in docs/formats.md
 * ("Numbers and ids"). The fields written for people (the army's header, a
 * unit's mount, height and type, `unresolved`) are kept as they are, never
 * checked: a roster that holds them reads as one that does not.
 */
#include "roster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"
#include "base_json.h"

/* ---- reading ------------------------------------------------------------------------------- */

/* The keys each roster object may hold (base_fields_known). A new field is
 * one more key here and a line in docs/formats.md. */
static const char *const roster_keys[] = {"format", "version", "family", "army", "board", "units", "unresolved", NULL};
/* Written by `roster import` for people and for the table file (docs/formats.md). */
static const char *const army_keys[] = {"name", "player", "game_system", "points", "slot", "tag_ids", "source",
                                        "source_format", NULL};
static const char *const board_keys[] = {"width_mm", "depth_mm", "tags", NULL};
static const char *const board_tag_keys[] = {"id", "x_mm", "y_mm", "height_mm", "rotation_deg", "size_mm", NULL};
static const char *const unit_keys[] = {"id",     "name",  "character", "side",   "base_mm", "advance_in", "march_in",
                                        "mobility_in", "advance_dice", "march_dice", "status", "files", "loose", "tag",
                                        "models", "marks",
                                        /* for people (roster import): */ "mount", "height", "type", "round_base",
                                        NULL};
static const char *const mount_keys[] = {"layout", "offset_mm", "rotation_deg", "height_mm", "size_mm", "cell_mm", NULL};
static const char *const model_keys[] = {"id", "tag_id", "name", "attachable", "base_mm", NULL};
static const char *const mark_keys[] = {"kind",         "model",        "tag_id", "size_mm", "height_mm",
                                        "offset_mm",    "rotation_deg", "sway_mm", NULL};

#define TAG_MAX_HEIGHT_MM 200.0       /* a print on a base, or a reference tag on the board's frame */
#define BOARD_TAG_MARGIN_MM 1000.0    /* reference tags may sit on the frame around the board */

/* A roster being read: the roster, its family's code count, and where errors point. */
typedef struct reader {
    roster_file *r;
    int codes;
} reader;

static int read_rate(const cJSON *o, const char *key, const char *where, double *out, base_error *err)
{
    double in = NAN;
    if (base_fields_number(o, key, where, false, 0, BASE_FIELDS_PLAUSIBLE_RATE_IN, &in, err) < 0)
        return -1;
    *out = isnan(in) ? NAN : base_in_to_mm(in);
    return 0;
}

/* A rate that is dice ("3D6", random movement), normalised; "" when absent. */
static int read_dice(const cJSON *o, const char *key, const char *where, char *out, base_error *err)
{
    char text[32] = "";
    rules_dice d;
    out[0] = '\0';
    if (base_json_string(o, key, where, false, text, sizeof text, err) < 0)
        return -1;
    if (!text[0])
        return 0;
    if (rules_dice_parse(text, &d) < 0)
        return base_error_set(err, "%s.%s: \"%s\" is not a roll of dice (\"3D6\", \"2D6+1\")", where, key, text);
    rules_dice_format(&d, out, RULES_DICE_MAX);
    return 0;
}

static int read_tag_id(const reader *rd, const cJSON *o, const char *key, const char *where, int *out,
                       base_error *err)
{
    if (base_json_int(o, key, where, true, out, err) < 0)
        return -1;
    if (*out < 0 || *out >= rd->codes)
        return base_error_set(err, "%s.%s: %d is not a %s code (0 to %d)", where, key, *out, rd->r->family,
                               rd->codes - 1);
    return 0;
}

/* A tag's size and height: the same ranges on a base and on the board. */
static int read_tag_size(const cJSON *o, const char *where, bool height_required, double *height, double *size,
                         base_error *err)
{
    return base_fields_number(o, "height_mm", where, height_required, 0, TAG_MAX_HEIGHT_MM, height, err) < 0 ||
                   base_fields_number(o, "size_mm", where, true, 1, BASE_FIELDS_MAX_BASE_MM, size, err) < 0
               ? -1
               : 0;
}

/* A rim label (roster_mark.h): its cells, and the base top it covers whole (no offset, no turn, no size). */
static int read_rim(const cJSON *o, const char *where, roster_tag_mount *m, base_error *err)
{
    static const char *const not_rim[] = {"offset_mm", "rotation_deg", "size_mm"};
    for (int k = 0; k < 3; k++)
        if (cJSON_GetObjectItemCaseSensitive(o, not_rim[k]))
            return base_error_set(err, "%s.%s: a rim label covers the whole base top, centred and unturned: leave "
                                       "it out", where, not_rim[k]);
    if (base_fields_number(o, "height_mm", where, true, 0, TAG_MAX_HEIGHT_MM, &m->height, err) < 0 ||
        base_fields_number(o, "cell_mm", where, true, ROSTER_RIM_MIN_CELL_MM / 2, 50, &m->cell, err) < 0)
        return -1;
    m->offset = base_v2(0, 0);
    m->rotation = 0;
    m->size = 0;
    return 0;
}

static int read_mount(const cJSON *o, const char *where, roster_tag_mount *m, bool *given, base_error *err)
{
    double off[2] = {0, 0}, rot = 0, turn = BASE_FIELDS_MAX_ANGLE_DEG;
    char layout[16] = "square";
    if (base_fields_known(o, where, mount_keys, err) < 0 ||
        base_json_string(o, "layout", where, false, layout, sizeof layout, err) < 0)
        return -1;
    const int l = roster_mark_layout_from_word(layout);
    if (l < 0)
        return base_error_set(err, "%s.layout: expected \"square\" or \"rim\", found \"%s\"", where, layout);
    m->layout = (roster_mark_layout)l;
    *given = cJSON_GetObjectItemCaseSensitive(o, "layout") != NULL;
    if (m->layout == ROSTER_MARK_RIM)
        return read_rim(o, where, m, err);
    if (cJSON_GetObjectItemCaseSensitive(o, "cell_mm"))
        return base_error_set(err, "%s.cell_mm: only a rim label (\"layout\": \"rim\") has cells", where);
    if (base_json_numbers(o, "offset_mm", where, false, off, 2, err) < 0 ||
        base_fields_number(o, "rotation_deg", where, false, -turn, turn, &rot, err) < 0 ||
        read_tag_size(o, where, true, &m->height, &m->size, err) < 0)
        return -1;
    if (!(fabs(off[0]) <= BASE_FIELDS_MAX_BASE_MM) || !(fabs(off[1]) <= BASE_FIELDS_MAX_BASE_MM))
        return base_error_set(err, "%s.offset_mm: each within %g mm of the base centre", where,
                               BASE_FIELDS_MAX_BASE_MM);
    m->offset = base_v2(off[0], off[1]);
    m->rotation = base_deg_to_rad(rot);
    return 0;
}

static int read_header(const cJSON *root, reader *rd, base_error *err)
{
    char fmt[64] = "";
    int version = 0;
    if (!cJSON_IsObject(root))
        return base_error_set(err, "expected a JSON object");
    const cJSON *army = cJSON_GetObjectItemCaseSensitive(root, "army");
    if (base_fields_known(root, "", roster_keys, err) < 0 ||
        (army && !base_json_object(root, "army", "", true, err)) || base_fields_known(army, "army", army_keys, err) < 0 ||
        base_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0)
        return -1;
    if (strcmp(fmt, ROSTER_FORMAT) != 0)
        return base_error_set(err, "format: expected \"%s\", found \"%s\"", ROSTER_FORMAT, fmt);
    if (base_json_int(root, "version", "", true, &version, err) < 0)
        return -1;
    if (version != ROSTER_VERSION)
        return base_error_set(err, "version: unknown version %d (this tableref reads %d)", version,
                               ROSTER_VERSION);
    strcpy(rd->r->family, "tag36h11");
    if (base_json_string(root, "family", "", false, rd->r->family, sizeof rd->r->family, err) < 0)
        return -1;
    /* A tag id outside the family can never be seen: the model would be inferred every time. */
    if (!(rd->codes = roster_family_codes(rd->r->family)))
        return base_error_set(err, "family: \"%s\" is not tag36h11 or tagStandard41h12", rd->r->family);
    return 0;
}

static int read_board_tag(const reader *rd, const cJSON *jt, const char *where, roster_board_tag *t, base_error *err)
{
    const roster_file *r = rd->r;
    const double m = BOARD_TAG_MARGIN_MM, turn = BASE_FIELDS_MAX_ANGLE_DEG;
    double rot = 0;
    t->z = 0;
    if (!cJSON_IsObject(jt))
        return base_error_set(err, "%s: expected an object", where);
    if (base_fields_known(jt, where, board_tag_keys, err) < 0 || read_tag_id(rd, jt, "id", where, &t->id, err) < 0 ||
        base_fields_number(jt, "x_mm", where, true, -m, r->board_width + m, &t->x, err) < 0 ||
        base_fields_number(jt, "y_mm", where, true, -m, r->board_depth + m, &t->y, err) < 0 ||
        base_fields_number(jt, "rotation_deg", where, false, -turn, turn, &rot, err) < 0 ||
        read_tag_size(jt, where, false, &t->z, &t->size, err) < 0)
        return -1;
    t->rotation = base_deg_to_rad(rot);
    return 0;
}

static int read_board(const cJSON *root, reader *rd, base_error *err)
{
    roster_file *r = rd->r;
    const cJSON *board = base_json_object(root, "board", "", true, err);
    if (!board || base_fields_known(board, "board", board_keys, err) < 0 ||
        base_fields_number(board, "width_mm", "board", true, 1, BASE_FIELDS_MAX_BOARD_MM, &r->board_width, err) < 0 ||
        base_fields_number(board, "depth_mm", "board", true, 1, BASE_FIELDS_MAX_BOARD_MM, &r->board_depth, err) < 0)
        return -1;
    if (!(r->board_width > 0) || !(r->board_depth > 0))
        return base_error_set(err, "board: width_mm and depth_mm must be positive");
    const cJSON *tags = base_json_array(board, "tags", "board", false, err);
    if (!tags && cJSON_GetObjectItemCaseSensitive(board, "tags"))
        return -1;
    size_t nt = tags ? (size_t)cJSON_GetArraySize(tags) : 0;
    if (!(r->board_tags = calloc(nt ? nt : 1, sizeof *r->board_tags)))
        return base_error_set(err, "out of memory");
    const cJSON *jt;
    cJSON_ArrayForEach(jt, tags)
    {
        char where[48];
        snprintf(where, sizeof where, "board.tags[%zu]", r->n_board_tags);
        if (read_board_tag(rd, jt, where, &r->board_tags[r->n_board_tags], err) < 0)
            return -1;
        r->n_board_tags++;
    }
    return 0;
}

static int read_status(const cJSON *ju, const char *where, unsigned *status, base_error *err)
{
    const cJSON *st = base_json_array(ju, "status", where, false, err);
    if (!st && cJSON_GetObjectItemCaseSensitive(ju, "status"))
        return -1;
    size_t i = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, st)
    {
        unsigned bit = cJSON_IsString(w) ? rules_status_from_word(w->valuestring) : 0;
        if (!bit)
            return base_error_set(err, "%s.status[%zu]: expected one of \"charging\", \"engaged\", \"fleeing\", "
                                        "\"shaken\"", where, i);
        *status |= bit;
        i++;
    }
    return 0;
}

static int read_model(const reader *rd, const cJSON *jm, const char *where, roster_model *m, base_error *err)
{
    if (!cJSON_IsObject(jm))
        return base_error_set(err, "%s: expected an object", where);
    double mb[2] = {0, 0};
    if (base_fields_known(jm, where, model_keys, err) < 0 ||
        base_json_string(jm, "id", where, true, m->id, RULES_ID_MAX, err) < 0 ||
        read_tag_id(rd, jm, "tag_id", where, &m->tag_id, err) < 0 ||
        base_json_string(jm, "name", where, false, m->name, RULES_ID_MAX, err) < 0 ||
        base_json_bool(jm, "attachable", where, false, &m->attachable, err) < 0 ||
        base_json_numbers(jm, "base_mm", where, false, mb, 2, err) < 0)
        return -1;
    if (!m->id[0])
        return base_error_set(err, "%s.id: must not be empty", where);
    /* A model on a base of its own (a character on a larger base than its unit's). */
    if (cJSON_GetObjectItemCaseSensitive(jm, "base_mm") &&
        !(mb[0] > 0 && mb[0] <= BASE_FIELDS_PLAUSIBLE_BASE_MM && mb[1] > 0 && mb[1] <= BASE_FIELDS_PLAUSIBLE_BASE_MM))
        return base_error_set(err, "%s.base_mm: %g x %g mm: base sizes must be > 0 and at most %g mm", where, mb[0],
                               mb[1], BASE_FIELDS_PLAUSIBLE_BASE_MM);
    m->base_width = mb[0];
    m->base_depth = mb[1];
    return 0;
}

/* ---- the fields written for people: kept as read, never checked (a roster reads the same without them) ---- */

/* A string member copied when it is one (cut to fit); anything else leaves `out` as it is. */
static void keep_text(const cJSON *o, const char *key, char *out, size_t cap)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsString(it) && it->valuestring)
        snprintf(out, cap, "%s", it->valuestring);
}

static void keep_int(const cJSON *o, const char *key, int *out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNumber(it) && fabs(it->valuedouble) < 1e9)
        *out = (int)it->valuedouble;
}

/* A unit's mount, height, type and round base (`roster import`). */
static void read_people_fields(const cJSON *ju, roster_unit *u)
{
    keep_text(ju, "mount", u->mount_name, sizeof u->mount_name);
    keep_text(ju, "height", u->height, sizeof u->height);
    keep_text(ju, "type", u->type, sizeof u->type);
    u->round_base = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ju, "round_base"));
}

static void read_army(const cJSON *root, roster_army *a)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(root, "army");
    if (!cJSON_IsObject(j))
        return;
    a->present = true;
    keep_text(j, "name", a->name, sizeof a->name);
    keep_text(j, "player", a->player, sizeof a->player);
    keep_text(j, "game_system", a->game_system, sizeof a->game_system);
    keep_int(j, "points", &a->points);
    keep_int(j, "slot", &a->slot);
    keep_text(j, "tag_ids", a->tag_ids, sizeof a->tag_ids);
    keep_text(j, "source", a->source, sizeof a->source);
    keep_text(j, "source_format", a->source_format, sizeof a->source_format);
}

/* The words of roster_unresolved.missing, in its bits' order. */
static const char *const missing_words[] = {"models", "base_mm", "advance_in", "march_in"};

/* What `roster import` writes of a value it could not find (roster_write.c): kept as written, its keys checked as
 * every object's (a typo is no note silently dropped). */
static const char *const unresolved_keys[] = {"unit", "name", "missing", "why", "where", NULL};

static int read_unresolved(const cJSON *root, roster_file *r, base_error *err)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "unresolved");
    size_t n = cJSON_IsArray(list) ? (size_t)cJSON_GetArraySize(list) : 0;
    if (n == 0)
        return 0;
    if (!(r->unresolved = calloc(n, sizeof *r->unresolved)))
        return base_error_set(err, "out of memory");
    const cJSON *e;
    cJSON_ArrayForEach(e, list)
    {
        char where[40];
        snprintf(where, sizeof where, "unresolved[%zu]", r->n_unresolved);
        if (base_fields_known(e, where, unresolved_keys, err) < 0)
            return -1;
        roster_unresolved *u = &r->unresolved[r->n_unresolved++];
        keep_text(e, "unit", u->unit, sizeof u->unit);
        keep_text(e, "name", u->name, sizeof u->name);
        keep_text(e, "why", u->why, sizeof u->why);
        keep_text(e, "where", u->where, sizeof u->where);
        const cJSON *w;
        cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(e, "missing"))
            for (unsigned k = 0; k < 4; k++)
                if (cJSON_IsString(w) && strcmp(w->valuestring, missing_words[k]) == 0)
                    u->missing |= 1u << k;
    }
    return 0;
}

/* One of a unit's `marks` (roster.h, roster_unit_mark): a mast on one of the unit's models (read already). */
static int read_mark(const reader *rd, const cJSON *jk, const char *where, const roster_unit *u, roster_unit_mark *k,
                     base_error *err)
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
    *k = (roster_unit_mark){.kind = ROSTER_UNIT_MARK_MAST, .unit = rd->r->n_units};
    k->mount.layout = ROSTER_MARK_SQUARE;
    k->sway = NAN;
    if (base_json_string(jk, "model", where, true, model, sizeof model, err) < 0 ||
        read_tag_id(rd, jk, "tag_id", where, &k->tag_id, err) < 0 ||
        base_fields_number(jk, "size_mm", where, true, 1, reach, &k->mount.size, err) < 0 ||
        base_fields_number(jk, "height_mm", where, true, 0, ROSTER_MAST_MAX_HEIGHT_MM, &k->mount.height, err) < 0 ||
        base_json_numbers(jk, "offset_mm", where, false, off, 2, err) < 0 ||
        base_fields_number(jk, "rotation_deg", where, false, -turn, turn, &rot, err) < 0 ||
        base_fields_number(jk, "sway_mm", where, false, 0, ROSTER_MAST_MAX_SWAY_MM, &k->sway, err) < 0)
        return -1;
    if (!(fabs(off[0]) <= reach) || !(fabs(off[1]) <= reach))
        return base_error_set(err, "%s.offset_mm: each within %g mm of the carrier's base centre", where, reach);
    size_t i = 0;
    while (i < u->n_models && strcmp(rd->r->models[u->first_model + i].id, model) != 0)
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

static int read_marks(reader *rd, const cJSON *ju, const char *where, const roster_unit *u, base_error *err)
{
    roster_file *r = rd->r;
    const cJSON *ks = base_json_array(ju, "marks", where, false, err), *jk;
    if (!ks && cJSON_GetObjectItemCaseSensitive(ju, "marks"))
        return -1;
    size_t n = 0;
    cJSON_ArrayForEach(jk, ks)
    {
        char w2[128];
        snprintf(w2, sizeof w2, "%s.marks[%zu]", where, n++);
        if (read_mark(rd, jk, w2, u, &r->marks[r->n_marks], err) < 0)
            return -1;
        r->n_marks++;
    }
    return 0;
}

static int read_unit(reader *rd, const cJSON *ju, const char *where, base_error *err)
{
    roster_file *r = rd->r;
    roster_unit *u = &r->units[r->n_units];
    double base[2];
    if (!cJSON_IsObject(ju))
        return base_error_set(err, "%s: expected an object", where);
    const cJSON *ms = base_json_array(ju, "models", where, true, err);
    if (base_fields_known(ju, where, unit_keys, err) < 0 || !ms ||
        base_json_string(ju, "id", where, true, u->id, RULES_ID_MAX, err) < 0 ||
        base_json_string(ju, "name", where, false, u->name, sizeof u->name, err) < 0 ||
        base_json_bool(ju, "character", where, false, &u->character, err) < 0 ||
        base_json_string(ju, "side", where, true, u->side, RULES_ID_MAX, err) < 0 ||
        base_json_numbers(ju, "base_mm", where, true, base, 2, err) < 0 ||
        read_rate(ju, "advance_in", where, &u->advance_rate, err) < 0 ||
        read_rate(ju, "march_in", where, &u->march_rate, err) < 0 ||
        read_rate(ju, "mobility_in", where, &u->mobility, err) < 0 ||
        read_dice(ju, "advance_dice", where, u->advance_dice, err) < 0 ||
        read_dice(ju, "march_dice", where, u->march_dice, err) < 0 || read_status(ju, where, &u->status, err) < 0)
        return -1;
    if (!u->id[0] || !u->side[0])
        return base_error_set(err, "%s.%s: must not be empty", where, u->id[0] ? "side" : "id");
    if (!(base[0] > 0 && base[0] <= BASE_FIELDS_PLAUSIBLE_BASE_MM) ||
        !(base[1] > 0 && base[1] <= BASE_FIELDS_PLAUSIBLE_BASE_MM))
        return base_error_set(err, "%s.base_mm: %g x %g mm: base sizes must be > 0 and at most %g mm", where, base[0],
                               base[1], BASE_FIELDS_PLAUSIBLE_BASE_MM);
    const int n = cJSON_GetArraySize(ms);
    if (n == 0)
        return base_error_set(err, "%s.models: a unit needs at least one model", where);
    u->files = n;
    if (base_fields_int(ju, "files", where, false, 1, n, &u->files, err) < 0)
        return -1;
    u->base_width = base[0];
    u->base_depth = base[1];
    const cJSON *mount = base_json_object(ju, "tag", where, true, err);
    char mwhere[112];
    snprintf(mwhere, sizeof mwhere, "%s.tag", where);
    if (!mount || read_mount(mount, mwhere, &u->mount, &u->layout_given, err) < 0 ||
        base_json_bool(ju, "loose", where, false, &u->loose, err) < 0)
        return -1;
    if (u->mount.layout == ROSTER_MARK_RIM && strcmp(r->family, "tag36h11") != 0)
        return base_error_set(err, "%s.layout: rim labels carry tag36h11 codes only (the roster's family is %s)",
                              mwhere, r->family);
    if (u->mount.layout == ROSTER_MARK_RIM && !roster_rim_fits(u->base_width, u->base_depth, u->mount.cell))
        return base_error_set(err, "%s.cell_mm: a rim label of %g mm cells does not fit the %g x %g mm base (at least "
                                   "%d cells a side)", mwhere, u->mount.cell, u->base_width, u->base_depth,
                              ROSTER_RIM_MIN_CELLS);
    read_people_fields(ju, u);
    u->first_model = r->n_models;
    const cJSON *jm;
    cJSON_ArrayForEach(jm, ms)
    {
        roster_model *m = &r->models[r->n_models];
        char w2[128];
        snprintf(w2, sizeof w2, "%s.models[%zu]", where, u->n_models);
        if (read_model(rd, jm, w2, m, err) < 0)
            return -1;
        if (u->mount.layout == ROSTER_MARK_RIM && m->base_width > 0 &&
            !roster_rim_fits(m->base_width, m->base_depth, u->mount.cell))
            return base_error_set(err, "%s.base_mm: the unit's rim label of %g mm cells does not fit its %g x %g mm "
                                       "base", w2, u->mount.cell, m->base_width, m->base_depth);
        m->unit = r->n_units;
        m->file = (int)(u->n_models % (size_t)u->files);
        m->rank = (int)(u->n_models / (size_t)u->files);
        u->n_models++;
        r->n_models++;
    }
    if (read_marks(rd, ju, where, u, err) < 0)
        return -1;
    r->n_units++;
    return 0;
}

/* A unit the reader refused, named as people know it: its name written by `roster import` (a roster written by
 * hand, without names, keeps the message as it is), and whether `unresolved` lists it as still unknown. */
static void name_refused_unit(const cJSON *root, const cJSON *ju, base_error *err)
{
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ju, "name"), *id = cJSON_GetObjectItemCaseSensitive(ju, "id"), *e;
    if (!err || !cJSON_IsString(nm) || !nm->valuestring[0])
        return;
    bool unknown = false;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "unresolved"))
    {
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(e, "unit");
        unknown |= cJSON_IsString(u) && cJSON_IsString(id) && strcmp(u->valuestring, id->valuestring) == 0;
    }
    size_t n = strlen(err->msg);
    snprintf(err->msg + n, sizeof err->msg - n, " (unit \"%s\"%s)", nm->valuestring,
             unknown ? ", still unknown: listed under \"unresolved\"; give it with `tableref roster import ... --set` "
                       "or --catalogue"
                     : "");
}

/* "units[u].models[m]" of a model by its index in r->models. */
static void model_place(const roster_file *r, size_t k, char *buf, size_t cap)
{
    const roster_model *m = &r->models[k];
    snprintf(buf, cap, "units[%zu].models[%zu]", m->unit, k - r->units[m->unit].first_model);
}

/* "units[u].marks[k]" of a mark by its index in r->marks. */
static void mark_place(const roster_file *r, size_t k, char *buf, size_t cap)
{
    const roster_unit_mark *m = &r->marks[k];
    size_t nth = 0;
    for (size_t i = 0; i < k; i++)
        nth += r->marks[i].unit == m->unit;
    snprintf(buf, cap, "units[%zu].marks[%zu]", m->unit, nth);
}

/* A tag id's place: board tags first, then the models, in file order, then the marks. */
static void tag_place(const roster_file *r, size_t order, char *buf, size_t cap)
{
    if (order < r->n_board_tags) {
        snprintf(buf, cap, "board.tags[%zu].id", order);
        return;
    }
    order -= r->n_board_tags;
    if (order < r->n_models)
        model_place(r, order, buf, cap);
    else
        mark_place(r, order - r->n_models, buf, cap);
    strncat(buf, ".tag_id", cap - strlen(buf) - 1);
}

static int tag_at(const roster_file *r, size_t order)
{
    if (order < r->n_board_tags)
        return r->board_tags[order].id;
    order -= r->n_board_tags;
    return order < r->n_models ? r->models[order].tag_id : r->marks[order - r->n_models].tag_id;
}

/* Unit ids, model ids and tag ids unique across the whole roster, in O(n log n), naming both places. */
static int check_ids(const roster_file *r, base_error *err)
{
    size_t n = r->n_units + r->n_models + r->n_board_tags + r->n_marks, a, b;
    base_fields_id *ids = malloc((n ? n : 1) * sizeof *ids);
    char pa[96], pb[96];
    int rc = 0;
    if (!ids)
        return base_error_set(err, "out of memory");
    for (size_t i = 0; i < r->n_units; i++)
        ids[i] = (base_fields_id){r->units[i].id, 0, i};
    if (base_fields_duplicate(ids, r->n_units, true, &a, &b)) {
        rc = base_error_set(err, "units[%zu].id: \"%s\" is also units[%zu].id", b, r->units[b].id, a);
        goto done;
    }
    for (size_t i = 0; i < r->n_models; i++)
        ids[i] = (base_fields_id){r->models[i].id, 0, i};
    if (base_fields_duplicate(ids, r->n_models, true, &a, &b)) {
        model_place(r, a, pa, sizeof pa);
        model_place(r, b, pb, sizeof pb);
        rc = base_error_set(err, "%s.id: \"%s\" is also %s.id (a model id names one model)", pb, r->models[b].id, pa);
        goto done;
    }
    for (size_t i = 0; i < r->n_board_tags; i++)
        ids[i] = (base_fields_id){NULL, r->board_tags[i].id, i};
    for (size_t i = 0; i < r->n_models; i++)
        ids[r->n_board_tags + i] = (base_fields_id){NULL, r->models[i].tag_id, r->n_board_tags + i};
    for (size_t i = 0, at = r->n_board_tags + r->n_models; i < r->n_marks; i++)
        ids[at + i] = (base_fields_id){NULL, r->marks[i].tag_id, at + i};
    if (base_fields_duplicate(ids, r->n_board_tags + r->n_models + r->n_marks, false, &a, &b)) {
        tag_place(r, a, pa, sizeof pa);
        tag_place(r, b, pb, sizeof pb);
        rc = base_error_set(err, "%s: tag %d is also %s (a tag is on one base or the board)", pb, tag_at(r, b), pa);
    }
done:
    free(ids);
    return rc;
}

static int parse(const cJSON *root, roster_file *r, base_error *err)
{
    reader rd = {r, 0};
    if (read_header(root, &rd, err) < 0 || read_board(root, &rd, err) < 0)
        return -1;
    const cJSON *units = base_json_array(root, "units", "", true, err);
    if (!units)
        return -1;
    size_t nu = (size_t)cJSON_GetArraySize(units), nm = 0, nk = 0;
    const cJSON *ju;
    cJSON_ArrayForEach(ju, units)
    {
        const cJSON *ms = cJSON_GetObjectItemCaseSensitive(ju, "models"), *ks = cJSON_GetObjectItemCaseSensitive(ju, "marks");
        nm += cJSON_IsArray(ms) ? (size_t)cJSON_GetArraySize(ms) : 0;
        nk += cJSON_IsArray(ks) ? (size_t)cJSON_GetArraySize(ks) : 0;
    }
    r->units = calloc(nu ? nu : 1, sizeof *r->units);
    r->models = calloc(nm ? nm : 1, sizeof *r->models);
    r->marks = calloc(nk ? nk : 1, sizeof *r->marks);
    if (!r->units || !r->models || !r->marks)
        return base_error_set(err, "out of memory");
    cJSON_ArrayForEach(ju, units)
    {
        char where[48];
        snprintf(where, sizeof where, "units[%zu]", r->n_units);
        if (read_unit(&rd, ju, where, err) < 0)
            return name_refused_unit(root, ju, err), -1;
    }
    if (check_ids(r, err) < 0)
        return -1;
    read_army(root, &r->army);
    return read_unresolved(root, r, err);
}

roster_file *roster_from_json(const cJSON *root, const char *name, base_error *err)
{
    roster_file *r = calloc(1, sizeof *r);
    if (!r) {
        base_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    if (err)
        err->msg[0] = '\0';
    if (parse(root, r, err) < 0 || base_fields_all_checked(root, NULL, err) < 0) {
        base_error_prefix(err, name);
        roster_free(r);
        return NULL;
    }
    return r;
}

roster_file *roster_load(const char *path, base_error *err)
{
    cJSON *root = base_json_parse_file(path, err);
    if (!root)
        return NULL;
    roster_file *r = roster_from_json(root, path, err);
    cJSON_Delete(root);
    return r;
}

