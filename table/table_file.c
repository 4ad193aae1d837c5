#include "table_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"
#include "base_file.h"
#include "base_geom.h"
#include "base_text.h"
#include "cap_rows.h"
#include "rules_json.h"

void table_file_clear(table_file *t)
{
    roster_free(t->roster);
    rules_snapshot_free(t->setting);
    memset(t, 0, sizeof *t);
}

/* dir/rel unless rel is absolute, on the heap: a path is never cut (a cut path can name another
 * file that exists). NULL only when out of memory. */
static char *resolve(const char *dir, const char *rel)
{
    return rel[0] == '/' || !dir[0] ? strdup(rel) : base_file_join(dir, rel);
}

/* A section given as a file name (read relative to dir) or inline; *owned is set when the caller must free it.
 * label (for messages) gets the file's path, cut on a character boundary when it must be. */
static const cJSON *section(const cJSON *item, const char *dir, const char *where, char *label, size_t cap,
                            cJSON **owned, base_error *err)
{
    *owned = NULL;
    if (cJSON_IsString(item)) {
        char *path = resolve(dir, item->valuestring);
        if (!path) {
            base_error_setc(err, BASE_E_NOMEM, "%s: out of memory", where);
            return NULL;
        }
        base_text_copy(label, cap, path);
        *owned = base_json_parse_file(path, err);
        free(path);
        if (!*owned)
            base_error_prefix(err, where);
        return *owned;
    }
    if (cJSON_IsObject(item)) {
        base_text_copy(label, cap, where);
        return item;
    }
    base_error_set(err, "%s: expected a file name or an object", where);
    return NULL;
}

static int army_slot(const cJSON *roster)
{
    const cJSON *slot = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(roster, "army"), "slot");
    return cJSON_IsNumber(slot) ? slot->valueint : 0;
}

static int read_calibration(const cJSON *root, const char *name, const char *dir, table_file *t, base_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "calibration");
    if (!item)
        return base_error_set(err, "%s: calibration: missing (a calibration file from `tableref calibrate`)", name);
    char where[300];
    snprintf(where, sizeof where, "%s: calibration", name);
    cJSON *owned;
    const cJSON *c = section(item, dir, where, t->calib_name, sizeof t->calib_name, &owned, err);
    int rc = c ? calib_file_from_json(c, t->calib_name, &t->calib, err) : -1;
    cJSON_Delete(owned);
    return rc;
}

/* The table's own board override, checked here so that its errors name the table file (the roster reader
 * would name the roster it replaces). */
static int check_board(const cJSON *root, const char *name, base_error *err)
{
    static const char *const board_keys[] = {"width_mm", "depth_mm", "tags", NULL};
    const cJSON *board = cJSON_GetObjectItemCaseSensitive(root, "board");
    double w = 0, d = 0;
    if (!board)
        return 0;
    if (!cJSON_IsObject(board))
        return base_error_set(err, "%s: board: expected an object", name);
    if (base_fields_known(board, "board", board_keys, err) < 0 ||
        base_fields_number(board, "width_mm", "board", true, 1, BASE_FIELDS_MAX_BOARD_MM, &w, err) < 0 ||
        base_fields_number(board, "depth_mm", "board", true, 1, BASE_FIELDS_MAX_BOARD_MM, &d, err) < 0)
        return base_error_prefix(err, name), -1;
    return 0;
}

/* Adds roster i's units to the merged roster: one tag family, no unit id twice. */
static int merge_roster(cJSON *merged, const cJSON *r, const char *name, const table_file *t, size_t i,
                        base_error *err)
{
    const cJSON *fam_a = cJSON_GetObjectItemCaseSensitive(merged, "family");
    const cJSON *fam_b = cJSON_GetObjectItemCaseSensitive(r, "family");
    const char *a = cJSON_IsString(fam_a) ? fam_a->valuestring : "tag36h11";
    const char *b = cJSON_IsString(fam_b) ? fam_b->valuestring : "tag36h11";
    if (strcmp(a, b) != 0)
        return base_error_set(err, "%s: %s prints %s tags but %s prints %s: one camera reads one family", name,
                              t->roster_names[0], a, t->roster_names[i], b);
    cJSON *units = cJSON_GetObjectItemCaseSensitive(merged, "units");
    const cJSON *u;
    cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(r, "units"))
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(u, "id"), *v;
        cJSON_ArrayForEach(v, units)
        {
            const cJSON *vid = cJSON_GetObjectItemCaseSensitive(v, "id");
            if (cJSON_IsString(id) && cJSON_IsString(vid) && strcmp(id->valuestring, vid->valuestring) == 0)
                return base_error_set(err, "%s: unit \"%s\" is in %s and in %s: import one army again with "
                                           "--prefix (e.g. --prefix b-)",
                                      name, id->valuestring, t->roster_names[0], t->roster_names[i]);
        }
        if (cJSON_IsArray(units))
            cJSON_AddItemToArray(units, cJSON_Duplicate(u, 1));
    }
    return 0;
}

/* The sides a roster's units are on (up to 8 different ones; more are not compared). */
typedef struct roster_sides {
    char side[8][RULES_ID_MAX];
    size_t n;
} roster_sides;

static void sides_of(const cJSON *roster, roster_sides *out)
{
    out->n = 0;
    const cJSON *u;
    cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(roster, "units"))
    {
        const cJSON *side = cJSON_GetObjectItemCaseSensitive(u, "side");
        if (!cJSON_IsString(side) || out->n == 8)
            continue;
        bool seen = false;
        for (size_t k = 0; k < out->n && !seen; k++)
            seen = strcmp(out->side[k], side->valuestring) == 0;
        if (!seen)
            base_text_copy(out->side[out->n++], RULES_ID_MAX, side->valuestring);
    }
}

/* Two armies at one table are enemies: roster i shares no side with an earlier one. */
static int check_sides(const roster_sides *sides, size_t i, const char *name, const table_file *t, base_error *err)
{
    for (size_t k = 0; k < i; k++)
        for (size_t a = 0; a < sides[i].n; a++)
            for (size_t b = 0; b < sides[k].n; b++)
                if (strcmp(sides[i].side[a], sides[k].side[b]) == 0)
                    return base_error_set(err, "%s: %s and %s put their units on the same side \"%s\", so neither army "
                                               "would be the other's enemy (no March Test, no Unit Spacing between "
                                               "them): give one of them another side (`tableref roster import ... "
                                               "--side NAME`, or edit its units' \"side\")",
                                          name, t->roster_names[k], t->roster_names[i], sides[i].side[a]);
    return 0;
}

/* Roster i read on its own, as its file: errors name the file and the unit; values still unknown (`unresolved`)
 * are refused with the units that miss them. Its unit count goes to t->roster_units[i]. */
static int check_one_roster(const cJSON *r, size_t i, const char *name, table_file *t, base_error *err)
{
    const cJSON *unresolved = cJSON_GetObjectItemCaseSensitive(r, "unresolved"), *e;
    if (cJSON_GetArraySize(unresolved) > 0) {
        char units[400] = "";
        size_t n = 0;
        cJSON_ArrayForEach(e, unresolved)
        {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name"), *id = cJSON_GetObjectItemCaseSensitive(e, "unit");
            const char *who = cJSON_IsString(nm) && nm->valuestring[0] ? nm->valuestring
                              : cJSON_IsString(id) ? id->valuestring : "?";
            if (n + 8 < sizeof units)
                n += (size_t)snprintf(units + n, sizeof units - n, "%s\"%s\"", n ? ", " : "", who);
        }
        if (n >= sizeof units - 8) {
            base_text_trim_cut(units);
            strcat(units, "...");
        }
        return base_error_set(err, "%s: %s still has unknown values for %d unit%s (\"unresolved\"): %s: complete it "
                                   "first (`tableref roster import ... --set 'NAME:KEY=VALUE'` or --catalogue)",
                              name, t->roster_names[i], cJSON_GetArraySize(unresolved),
                              cJSON_GetArraySize(unresolved) == 1 ? "" : "s", units);
    }
    roster_file *one = roster_from_json(r, t->roster_names[i], err);
    if (!one)
        return base_error_prefix(err, name), -1;
    t->roster_units[i] = one->n_units;
    roster_free(one);
    return 0;
}

const char *table_file_roster_of(const table_file *t, size_t unit)
{
    for (size_t i = 0; i < t->n_rosters; i++) {
        if (unit < t->roster_units[i])
            return t->roster_names[i];
        unit -= t->roster_units[i];
    }
    return NULL;
}

/* Merges the rosters' units into the first one (a deep copy), the table's board over theirs. */
static int read_rosters(const cJSON *root, const char *name, const char *dir, table_file *t, base_error *err)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "rosters");
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return base_error_set(err, "%s: rosters: missing (a list of roster files, one per army, from `tableref "
                                    "roster import`)",
                               name);
    if (cJSON_GetArraySize(list) > TABLE_MAX_ROSTERS)
        return base_error_set(err, "%s: rosters: at most %d", name, TABLE_MAX_ROSTERS);
    cJSON *merged = NULL;
    int slots[TABLE_MAX_ROSTERS] = {0}, rc = 0;
    roster_sides sides[TABLE_MAX_ROSTERS];
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        char where[300];
        size_t i = t->n_rosters;
        snprintf(where, sizeof where, "%s: rosters[%zu]", name, i);
        cJSON *owned;
        const cJSON *r = section(item, dir, where, t->roster_names[i], sizeof t->roster_names[i], &owned, err);
        if (!r) {
            rc = -1;
            break;
        }
        slots[i] = army_slot(r);
        sides_of(r, &sides[i]);
        rc = check_one_roster(r, i, name, t, err);
        for (size_t k = 0; k < i && rc == 0; k++)
            if (slots[i] && slots[i] == slots[k])
                rc = base_error_set(err, "%s: %s and %s were both imported as army %d, so their tags collide: "
                                          "import one again with `tableref roster import ... --army %d`",
                                     name, t->roster_names[k], t->roster_names[i], slots[i], slots[i] == 1 ? 2 : 1);
        if (rc == 0)
            rc = check_sides(sides, i, name, t, err);
        if (rc == 0 && !merged) {
            merged = cJSON_Duplicate(r, 1);
        } else if (rc == 0) {
            rc = merge_roster(merged, r, name, t, i, err);
        }
        cJSON_Delete(owned);
        t->n_rosters++;
        if (rc)
            break;
    }
    const cJSON *board = cJSON_GetObjectItemCaseSensitive(root, "board");
    if (rc == 0 && board)
        cJSON_ReplaceItemInObjectCaseSensitive(merged, "board", cJSON_Duplicate(board, 1));
    if (rc == 0) {
        char label[1100];
        snprintf(label, sizeof label, "%s: rosters (merged)", name);
        if (t->n_rosters == 1)
            snprintf(label, sizeof label, "%s", t->roster_names[0]);
        t->roster = roster_from_json(merged, label, err);
        rc = t->roster ? 0 : -1;
    }
    cJSON_Delete(merged);
    return rc;
}

/* Twice the signed area of a polygon (positive counter-clockwise). */
static double twice_area(const base_vec2 *p, size_t n)
{
    double a = 0;
    for (size_t i = 0; i < n; i++)
        a += p[i].x * p[(i + 1) % n].y - p[(i + 1) % n].x * p[i].y;
    return a;
}

/* A polygon of a terrain piece simple (no two edges that are not neighbours cross) and of positive area. */
static int check_polygon(const base_vec2 *p, size_t n, const char *name, size_t t, const char *id, const char *key,
                         base_error *err)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 2; j < n; j++) {
            if (i == 0 && j == n - 1)
                continue; /* neighbours through the closing edge */
            if (base_seg_intersect(p[i], p[(i + 1) % n], p[j], p[(j + 1) % n]))
                return base_error_set(err, "%s: terrain[%zu] (\"%s\").%s: its edges %zu and %zu cross: give the "
                                           "corners in order around the piece",
                                      name, t, id, key, i, j);
        }
    if (fabs(twice_area(p, n)) / 2 < 1.0)
        return base_error_set(err, "%s: terrain[%zu] (\"%s\").%s: the polygon has no area (%.2f mm^2): give its "
                                   "corners in order",
                              name, t, id, key, fabs(twice_area(p, n)) / 2);
    return 0;
}

/* A hill's foot holds its top: every corner of the top inside the foot, no edges crossing. */
static int check_foot(const rules_terrain *tr, const char *name, size_t t, base_error *err)
{
    for (size_t i = 0; i < tr->n_points; i++) {
        bool crosses = false;
        for (size_t j = 0; j < tr->n_foot && !crosses; j++)
            crosses = base_seg_intersect(tr->points[i], tr->points[(i + 1) % tr->n_points], tr->foot[j],
                                         tr->foot[(j + 1) % tr->n_foot]);
        if (crosses || !base_poly_contains(tr->foot, tr->n_foot, tr->points[i]))
            return base_error_set(err, "%s: terrain[%zu] (\"%s\").foot_mm: the foot must go round the top "
                                       "(points_mm): its corner %zu (%.0f, %.0f) is not inside",
                                  name, t, tr->id, i, tr->points[i].x, tr->points[i].y);
    }
    return 0;
}

/* Each terrain piece's polygons simple and of positive area, a hill's foot round its top. */
static int check_terrain(const rules_snapshot *s, const char *name, base_error *err)
{
    for (size_t t = 0; t < s->n_terrain; t++) {
        const rules_terrain *tr = &s->terrain[t];
        if (check_polygon(tr->points, tr->n_points, name, t, tr->id, "points_mm", err) < 0 ||
            (tr->foot && (check_polygon(tr->foot, tr->n_foot, name, t, tr->id, "foot_mm", err) < 0 ||
                          check_foot(tr, name, t, err) < 0)))
            return -1;
    }
    return 0;
}

/* Ruleset and terrain, read by the snapshot reader (the same names and checks as in a snapshot). */
static int read_setting(const cJSON *root, const char *name, table_file *t, base_error *err)
{
    cJSON *snap = cJSON_CreateObject();
    cJSON *board = cJSON_AddObjectToObject(snap, "board");
    cJSON_AddNumberToObject(board, "width_mm", t->roster->board_width);
    cJSON_AddNumberToObject(board, "depth_mm", t->roster->board_depth);
    const cJSON *ruleset = cJSON_GetObjectItemCaseSensitive(root, "ruleset");
    const cJSON *terrain = cJSON_GetObjectItemCaseSensitive(root, "terrain");
    if (ruleset)
        cJSON_AddItemToObject(snap, "ruleset", cJSON_Duplicate(ruleset, 1));
    if (terrain)
        cJSON_AddItemToObject(snap, "terrain", cJSON_Duplicate(terrain, 1));
    cJSON_AddItemToObject(snap, "units", cJSON_CreateArray());
    t->setting = rules_json_to_snapshot(snap, name, err);
    /* The copies were checked: so were the table's own sections. */
    base_fields_checked_as(cJSON_GetObjectItemCaseSensitive(snap, "ruleset"), ruleset);
    base_fields_checked_as(cJSON_GetObjectItemCaseSensitive(snap, "terrain"), terrain);
    cJSON_Delete(snap);
    return t->setting ? check_terrain(t->setting, name, err) : -1;
}

/* capture.source: how capture's table of sources takes it (cap_rows_arg): a device ("v4l2:/dev/video0") or a URL
 * ("rtsp://...") as written; a path (a recording, a folder, a pattern, or a scheme's path: "sim:SEQ.json") read
 * like every other file here, from the table's folder. */
static int read_source(const char *src, const char *dir, const char *where, table_file *t, base_error *err)
{
    const char *arg;
    if (cap_rows_arg(src, &arg) != CAP_ARG_PATH) {
        snprintf(t->source, sizeof t->source, "%s", src);
        return 0;
    }
    char *full = resolve(dir, arg);
    if (!full)
        return base_error_setc(err, BASE_E_NOMEM, "%s: out of memory", where);
    /* The scheme before the path, if any ("sim:"), then the path. */
    size_t scheme = (size_t)(arg - src), n = scheme + strlen(full);
    if (n < sizeof t->source)
        snprintf(t->source, sizeof t->source, "%.*s%s", (int)scheme, src, full);
    free(full);
    if (n >= sizeof t->source)
        return base_error_setc(err, BASE_E_TOO_LARGE, "%s.source: the path is %zu bytes, over the %zu this reads",
                               where, n, sizeof t->source - 1);
    return 0;
}

static int read_capture(const cJSON *root, const char *name, const char *dir, table_file *t, base_error *err)
{
    t->width = t->calib.width;
    t->height = t->calib.height;
    const cJSON *cap = cJSON_GetObjectItemCaseSensitive(root, "capture");
    if (!cap)
        return 0;
    char where[300];
    snprintf(where, sizeof where, "%s: capture", name);
    if (!cJSON_IsObject(cap))
        return base_error_set(err, "%s: expected an object", where);
    static const char *const capture_keys[] = {"source", "size", NULL};
    if (base_fields_known(cap, "capture", capture_keys, err) < 0)
        return base_error_prefix(err, name), -1;
    char src[512] = "";
    if (base_json_string(cap, "source", "capture", false, src, sizeof src, err) < 0) {
        base_error_prefix(err, name);
        return -1;
    }
    if (src[0] && read_source(src, dir, where, t, err) < 0)
        return -1;
    double size[2] = {0, 0};
    if (base_json_numbers(cap, "size", "capture", false, size, 2, err) < 0) {
        base_error_prefix(err, name);
        return -1;
    }
    if (cJSON_GetObjectItemCaseSensitive(cap, "size") &&
        ((int)size[0] != t->calib.width || (int)size[1] != t->calib.height))
        return base_error_set(err, "%s.size: %gx%g, but the calibration was made at %dx%d: capture at the "
                                    "calibration's size, or calibrate again at this one",
                               where, size[0], size[1], t->calib.width, t->calib.height);
    return 0;
}

int table_file_from_json(const cJSON *root, const char *name, const char *dir, table_file *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    if (!base_text_copy(out->path, sizeof out->path, name))
        return base_error_setc(err, BASE_E_TOO_LARGE, "%.*s...: the path is %zu bytes, over the %zu this reads",
                               (int)base_text_cut(name, 200), name, strlen(name), sizeof out->path - 1);
    char fmt[64] = "";
    int version = 0;
    if (!cJSON_IsObject(root))
        return base_error_set(err, "%s: expected a JSON object", name);
    /* As strict as the roster: a typo ("terain") is refused, never a section silently dropped. */
    static const char *const table_keys[] = {"format",  "version", "name",    "calibration", "rosters",
                                             "board",   "ruleset", "terrain", "capture",     NULL};
    if (base_fields_known(root, "", table_keys, err) < 0)
        return base_error_prefix(err, name), -1;
    if (base_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0 ||
        base_json_int(root, "version", "", true, &version, err) < 0 ||
        base_json_string(root, "name", "", false, out->name, sizeof out->name, err) < 0) {
        base_error_prefix(err, name);
        return -1;
    }
    if (strcmp(fmt, TABLE_FILE_FORMAT) != 0)
        return base_error_set(err, "%s: format: expected \"%s\", found \"%s\"", name, TABLE_FILE_FORMAT, fmt);
    if (version != TABLE_FILE_VERSION)
        return base_error_set(err, "%s: version: unknown version %d (this tableref reads %d)", name, version,
                               TABLE_FILE_VERSION);
    if (read_calibration(root, name, dir, out, err) < 0 || check_board(root, name, err) < 0 ||
        read_rosters(root, name, dir, out, err) < 0 ||
        read_setting(root, name, out, err) < 0 || read_capture(root, name, dir, out, err) < 0 ||
        base_fields_all_checked(root, name, err) < 0) {
        table_file_clear(out);
        return -1;
    }
    return 0;
}

int table_file_load(const char *path, table_file *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    cJSON *root = base_json_parse_file(path, err);
    if (!root)
        return -1;
    const char *slash = strrchr(path, '/');
    char *dir = strndup(path, slash ? (size_t)(slash - path) : 0);
    int rc = dir ? table_file_from_json(root, path, dir, out, err)
                 : base_error_setc(err, BASE_E_NOMEM, "%s: out of memory", path);
    free(dir);
    cJSON_Delete(root);
    return rc;
}

int table_file_apply(const table_file *t, rules_snapshot *s, base_error *err)
{
    s->ruleset = t->setting->ruleset;
    s->ruleset_given = t->setting->ruleset_given;
    for (size_t i = 0; i < t->setting->n_terrain; i++)
        if (!rules_snapshot_copy_terrain(s, &t->setting->terrain[i]))
            return base_error_set(err, "out of memory");
    return 0;
}
