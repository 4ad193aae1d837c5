#include "army_roster.h"
#include "base_text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void army_roster_options_default(army_roster_options *o)
{
    memset(o, 0, sizeof *o);
    o->army_slot = 1;
    snprintf(o->family, sizeof o->family, "tag36h11");
    o->tag_height_mm = 3.5;
    o->board_w_mm = 72 * 25.4;
    o->board_d_mm = 48 * 25.4;
    o->corner_tag_mm = 40;
    o->corner_inset_mm = 35;
}

static int family_codes(const char *family) { return strcmp(family, "tagStandard41h12") == 0 ? 2115 : 587; }

int army_tag_id(int slot, int k, const char *family)
{
    if ((slot != 1 && slot != 2) || k < 0)
        return -1;
    /* Even (slot 1) or odd (slot 2) IDs from 10, stepping over 300-399 (the calibration target). */
    int id = 10 + (slot - 1) + 2 * k;
    if (id >= 300)
        id += 100;
    return id < family_codes(family) ? id : -1;
}

int army_tag_capacity(int slot, const char *family)
{
    int k = 0;
    while (army_tag_id(slot, k, family) >= 0)
        k++;
    return k;
}

double army_tag_extent_mm(double size, const char *family)
{
    /* tag36h11: 8 cells to the black border's outer edge, one white cell around it.
     * tagStandard41h12: 5 cells to the black border, a data ring outside it, one white cell beyond. */
    return strcmp(family, "tagStandard41h12") == 0 ? size * 11.0 / 5.0 : size * 10.0 / 8.0;
}

double army_tag_size_mm(const army_base *b, const char *family)
{
    if (!(b->front_mm > 0) || !(b->side_mm > 0))
        return 0;
    const double end = 2.5, side = 0.8;
    double avail = b->round ? (b->front_mm - 2 * end) / sqrt(2.0) : fmin(b->front_mm - 2 * side, b->side_mm - 2 * end);
    double s = avail / army_tag_extent_mm(1.0, family);
    s = floor(s * 2) / 2;
    return s > 50 ? 50 : s < 0 ? 0 : s;
}

/* The base most of the unit's models stand on (the unit's own); NULL when none is known. */
static const army_group *main_group(const army_unit *u)
{
    const army_group *best = NULL;
    for (size_t g = 0; g < u->n_groups; g++)
        if (u->groups[g].base.front_mm > 0 && (!best || u->groups[g].count > best->count))
            best = &u->groups[g];
    return best;
}

static void add_base(cJSON *o, const char *key, const army_base *b)
{
    double v[2] = {b->front_mm, b->side_mm};
    cJSON_AddItemToObject(o, key, cJSON_CreateDoubleArray(v, 2));
}

static cJSON *board_json(const army_roster_options *o)
{
    cJSON *board = cJSON_CreateObject();
    cJSON_AddNumberToObject(board, "width_mm", o->board_w_mm);
    cJSON_AddNumberToObject(board, "depth_mm", o->board_d_mm);
    cJSON *tags = cJSON_AddArrayToObject(board, "tags");
    const double in = o->corner_inset_mm;
    const double xy[4][2] = {{in, in}, {o->board_w_mm - in, in}, {o->board_w_mm - in, o->board_d_mm - in},
                             {in, o->board_d_mm - in}};
    for (int k = 0; k < 4; k++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "id", k);
        cJSON_AddNumberToObject(t, "x_mm", xy[k][0]);
        cJSON_AddNumberToObject(t, "y_mm", xy[k][1]);
        cJSON_AddNumberToObject(t, "height_mm", 0.1);
        /* Heading 90: the tag's top row towards the far edge, as a player at the near edge reads it. */
        cJSON_AddNumberToObject(t, "rotation_deg", 90);
        cJSON_AddNumberToObject(t, "size_mm", o->corner_tag_mm);
        cJSON_AddItemToArray(tags, t);
    }
    return board;
}

/* ---- unit ids: unique in the army, from any names -------------------------- */

/* An id: a prefix (cut to 32 bytes), a slug of up to 51, "-" and a number. */
#define ARMY_ID_MAX 96

/* An open-addressing set of strings, for linear time over many units. */
typedef struct id_set {
    const char **keys;
    int *shared; /* slugs: how many units have it */
    int *next;   /* slugs: the last number given to it */
    size_t cap;
} id_set;

static uint64_t hash_text(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The slot holding `key`, or the empty slot where it goes (the set is never more than half full). */
static size_t id_slot(const id_set *set, const char *key)
{
    size_t i = (size_t)hash_text(key) & (set->cap - 1);
    while (set->keys[i] && strcmp(set->keys[i], key) != 0)
        i = (i + 1) & (set->cap - 1);
    return i;
}

static int id_set_init(id_set *set, size_t n)
{
    set->cap = 16;
    while (set->cap < 2 * n + 2)
        set->cap *= 2;
    set->keys = calloc(set->cap, sizeof *set->keys);
    set->shared = calloc(set->cap, sizeof *set->shared);
    set->next = calloc(set->cap, sizeof *set->next);
    return set->keys && set->shared && set->next ? 0 : -1;
}

static void id_set_free(id_set *set)
{
    free(set->keys);
    free(set->shared);
    free(set->next);
}

/*
 * ids[i] (ARMY_ID_MAX bytes each) for every unit: the name's slug, numbered "-1", "-2", ... when
 * several units share a slug ("Goblins!" and "Goblins?", names of emoji only), a number skipped when
 * another unit's own slug holds it ("Goblins 2" is "goblins-2"). The names themselves are kept.
 */
static int unit_ids(const army_list *a, const char *prefix, char (*ids)[ARMY_ID_MAX])
{
    id_set slugs = {0}, taken = {0};
    char pre[33];
    base_text_copy(pre, sizeof pre, prefix ? prefix : "");
    char (*slug)[52] = malloc((a->n_units ? a->n_units : 1) * sizeof *slug);
    int rc = slug && id_set_init(&slugs, a->n_units) == 0 && id_set_init(&taken, a->n_units) == 0 ? 0 : -1;
    for (size_t i = 0; i < a->n_units && rc == 0; i++) {
        army_slug(a->units[i].name, slug[i], sizeof slug[i]);
        size_t k = id_slot(&slugs, slug[i]);
        slugs.keys[k] = slug[i];
        slugs.shared[k]++;
    }
    for (size_t i = 0; i < a->n_units && rc == 0; i++) { /* a slug of its own keeps it */
        snprintf(ids[i], ARMY_ID_MAX, "%s%s", pre, slug[i]);
        if (slugs.shared[id_slot(&slugs, slug[i])] == 1)
            taken.keys[id_slot(&taken, ids[i])] = ids[i];
    }
    for (size_t i = 0; i < a->n_units && rc == 0; i++) {
        size_t k = id_slot(&slugs, slug[i]);
        if (slugs.shared[k] == 1)
            continue;
        for (;;) {
            snprintf(ids[i], ARMY_ID_MAX, "%s%s-%d", pre, slug[i], ++slugs.next[k]);
            size_t t = id_slot(&taken, ids[i]);
            if (!taken.keys[t]) {
                taken.keys[t] = ids[i];
                break;
            }
        }
    }
    free(slug);
    id_set_free(&slugs);
    id_set_free(&taken);
    return rc;
}

static void add_missing(cJSON *unresolved, const char *id, const army_unit *u)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "unit", id);
    cJSON_AddStringToObject(o, "name", u->name);
    cJSON *m = cJSON_AddArrayToObject(o, "missing");
    if (u->missing & ARMY_MISSING_COUNT)
        cJSON_AddItemToArray(m, cJSON_CreateString("models"));
    if (u->missing & ARMY_MISSING_BASE)
        cJSON_AddItemToArray(m, cJSON_CreateString("base_mm"));
    if (u->missing & ARMY_MISSING_ADV)
        cJSON_AddItemToArray(m, cJSON_CreateString("advance_in"));
    if (u->missing & ARMY_MISSING_MAR)
        cJSON_AddItemToArray(m, cJSON_CreateString("march_in"));
    if (u->note[0])
        cJSON_AddStringToObject(o, "why", u->note);
    cJSON_AddStringToObject(o, "where", u->where);
    cJSON_AddItemToArray(unresolved, o);
}

static cJSON *unit_json(const army_unit *u, const char *id, const char *side, const army_roster_options *o,
                        int *next_tag, base_error *err)
{
    cJSON *ju = cJSON_CreateObject();
    cJSON_AddStringToObject(ju, "id", id);
    cJSON_AddStringToObject(ju, "name", u->name);
    cJSON_AddStringToObject(ju, "side", side);
    if (u->character)
        cJSON_AddBoolToObject(ju, "character", true);
    if (u->mount[0])
        cJSON_AddStringToObject(ju, "mount", u->mount);
    if (u->height[0])
        cJSON_AddStringToObject(ju, "height", u->height);
    if (u->type[0])
        cJSON_AddStringToObject(ju, "type", u->type);
    const army_group *main = main_group(u);
    double tag = 0;
    for (size_t g = 0; g < u->n_groups; g++) {
        double s = army_tag_size_mm(&u->groups[g].base, o->family);
        if (s > 0 && (tag == 0 || s < tag))
            tag = s; /* one tag size per unit: the smallest base's */
    }
    if (main)
        add_base(ju, "base_mm", &main->base);
    if (main && main->base.round)
        cJSON_AddBoolToObject(ju, "round_base", true);
    if (!isnan(u->adv_in))
        cJSON_AddNumberToObject(ju, "advance_in", u->adv_in);
    if (!isnan(u->mar_in))
        cJSON_AddNumberToObject(ju, "march_in", u->mar_in);
    cJSON_AddItemToObject(ju, "status", cJSON_CreateArray());
    cJSON *mount = cJSON_AddObjectToObject(ju, "tag");
    double off[2] = {0, 0};
    cJSON_AddItemToObject(mount, "offset_mm", cJSON_CreateDoubleArray(off, 2));
    cJSON_AddNumberToObject(mount, "rotation_deg", 0);
    cJSON_AddNumberToObject(mount, "height_mm", o->tag_height_mm);
    if (tag > 0)
        cJSON_AddNumberToObject(mount, "size_mm", tag);
    cJSON *models = cJSON_AddArrayToObject(ju, "models");
    int n = 0;
    for (size_t g = 0; g < u->n_groups; g++) {
        const army_group *gr = &u->groups[g];
        for (int k = 0; k < gr->count; k++) {
            int tag_id = army_tag_id(o->army_slot, (*next_tag)++, o->family);
            if (tag_id < 0) {
                base_error_set(err, "the army has more models than army slot %d holds in %s (%d): print "
                                     "tagStandard41h12 tags (--family tagStandard41h12)",
                                o->army_slot, o->family, army_tag_capacity(o->army_slot, o->family));
                cJSON_Delete(ju);
                return NULL;
            }
            cJSON *jm = cJSON_CreateObject();
            char mid[96];
            snprintf(mid, sizeof mid, "%s-%d", id, ++n);
            cJSON_AddStringToObject(jm, "id", mid);
            cJSON_AddNumberToObject(jm, "tag_id", tag_id);
            if (strcmp(gr->name, u->name) != 0)
                cJSON_AddStringToObject(jm, "name", gr->name);
            if (main && gr != main && gr->base.front_mm > 0 &&
                (gr->base.front_mm != main->base.front_mm || gr->base.side_mm != main->base.side_mm))
                add_base(jm, "base_mm", &gr->base);
            /* In T9A a character is an Attachable Model: it may join a unit during the game. */
            if (u->character)
                cJSON_AddBoolToObject(jm, "attachable", true);
            cJSON_AddItemToArray(models, jm);
        }
    }
    return ju;
}

cJSON *army_roster_json(const army_list *a, const army_file *f, const army_roster_options *o, base_error *err)
{
    if (o->army_slot != 1 && o->army_slot != 2) {
        base_error_set(err, "army slot %d: only 1 and 2 exist (two armies at a table)", o->army_slot);
        return NULL;
    }
    char side[64];
    if (o->side)
        army_name_copy(side, sizeof side, o->side);
    else
        army_slug(a->name[0] ? a->name : "army", side, sizeof side);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "tableref.roster");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "family", o->family);
    cJSON *army = cJSON_AddObjectToObject(root, "army");
    cJSON_AddStringToObject(army, "name", a->name);
    if (a->player[0])
        cJSON_AddStringToObject(army, "player", a->player);
    if (a->game_system[0])
        cJSON_AddStringToObject(army, "game_system", a->game_system);
    if (a->points > 0)
        cJSON_AddNumberToObject(army, "points", a->points);
    cJSON_AddNumberToObject(army, "slot", o->army_slot);
    char tag_ids[96];
    snprintf(tag_ids, sizeof tag_ids, "%s IDs from %d, skipping 300-399", o->army_slot == 1 ? "even" : "odd",
             army_tag_id(o->army_slot, 0, o->family));
    cJSON_AddStringToObject(army, "tag_ids", tag_ids);
    if (f) {
        cJSON_AddStringToObject(army, "source", f->path);
        cJSON_AddStringToObject(army, "source_format", army_format_word(f->format));
    }
    cJSON_AddItemToObject(root, "board", board_json(o));
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    cJSON *unresolved = cJSON_CreateArray();
    int next_tag = 0;
    char (*ids)[ARMY_ID_MAX] = malloc((a->n_units ? a->n_units : 1) * sizeof *ids);
    if (!ids || unit_ids(a, o->prefix, ids) < 0) {
        free(ids);
        cJSON_Delete(unresolved);
        cJSON_Delete(root);
        base_error_set(err, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < a->n_units; i++) {
        const army_unit *u = &a->units[i];
        cJSON *ju = unit_json(u, ids[i], side, o, &next_tag, err);
        if (!ju) {
            free(ids);
            cJSON_Delete(unresolved);
            cJSON_Delete(root);
            return NULL;
        }
        cJSON_AddItemToArray(units, ju);
        if (u->missing)
            add_missing(unresolved, ids[i], u);
    }
    free(ids);
    if (cJSON_GetArraySize(unresolved) > 0)
        cJSON_AddItemToObject(root, "unresolved", unresolved);
    else
        cJSON_Delete(unresolved);
    return root;
}
