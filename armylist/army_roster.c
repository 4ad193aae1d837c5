#include "army_roster.h"
#include "army_names.h"
#include "base_text.h"
#include "roster.h"

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

/* The family's codes (roster.h's table); the options allow only the two families tableref reads. */
static int family_codes(const char *family)
{
    const int n = roster_family_codes(family);
    return n ? n : 587;
}

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

/* The board and its four corner tags. */
static void fill_board(roster_file *r, const army_roster_options *o)
{
    r->board_width = o->board_w_mm;
    r->board_depth = o->board_d_mm;
    const double in = o->corner_inset_mm;
    const double xy[4][2] = {{in, in}, {o->board_w_mm - in, in}, {o->board_w_mm - in, o->board_d_mm - in},
                             {in, o->board_d_mm - in}};
    for (int k = 0; k < 4; k++)
        /* Heading 90: the tag's top row towards the far edge, as a player at the near edge reads it. */
        r->board_tags[r->n_board_tags++] = (roster_board_tag){k, xy[k][0], xy[k][1], 0.1, base_deg_to_rad(90),
                                                              o->corner_tag_mm};
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

static void add_unresolved(roster_file *r, const char *id, const army_unit *u)
{
    roster_unresolved *un = &r->unresolved[r->n_unresolved++];
    snprintf(un->unit, sizeof un->unit, "%s", id);
    snprintf(un->name, sizeof un->name, "%s", u->name);
    un->missing = ((u->missing & ARMY_MISSING_COUNT) ? ROSTER_MISSING_MODELS : 0) |
                  ((u->missing & ARMY_MISSING_BASE) ? ROSTER_MISSING_BASE : 0) |
                  ((u->missing & ARMY_MISSING_ADV) ? ROSTER_MISSING_ADVANCE : 0) |
                  ((u->missing & ARMY_MISSING_MAR) ? ROSTER_MISSING_MARCH : 0);
    snprintf(un->why, sizeof un->why, "%s", u->note);
    snprintf(un->where, sizeof un->where, "%s", u->where);
}

/* The unit's models, each a tag of the slot's next ID. -1 with err when the slot has no ID left. */
static int add_models(roster_file *r, const army_unit *u, roster_unit *ru, const army_group *main,
                      const army_roster_options *o, int *next_tag, base_error *err)
{
    ru->first_model = r->n_models;
    for (size_t g = 0; g < u->n_groups; g++) {
        const army_group *gr = &u->groups[g];
        for (int k = 0; k < gr->count; k++) {
            int tag_id = army_tag_id(o->army_slot, (*next_tag)++, o->family);
            if (tag_id < 0)
                return base_error_set(err, "the army has more models than army slot %d holds in %s (%d): print "
                                           "tagStandard41h12 tags (--family tagStandard41h12)",
                                      o->army_slot, o->family, army_tag_capacity(o->army_slot, o->family));
            roster_model *m = &r->models[r->n_models++];
            char mid[ROSTER_ID_MAX + 24];
            snprintf(mid, sizeof mid, "%s-%zu", ru->id, ++ru->n_models);
            snprintf(m->id, sizeof m->id, "%.*s", ARMY_ID_MAX - 1, mid); /* as it always was: cut to 95 bytes */
            m->tag_id = tag_id;
            m->unit = (size_t)(ru - r->units);
            if (strcmp(gr->name, u->name) != 0)
                snprintf(m->name, sizeof m->name, "%s", gr->name);
            if (main && gr != main && gr->base.front_mm > 0 &&
                (gr->base.front_mm != main->base.front_mm || gr->base.side_mm != main->base.side_mm))
                m->base_width = gr->base.front_mm, m->base_depth = gr->base.side_mm;
            /* In T9A a character is an Attachable Model: it may join a unit during the game. */
            m->attachable = u->character;
        }
    }
    ru->files = (int)ru->n_models;
    return 0;
}

/* One unit of the list into the roster: what the list says, nothing guessed (unknown values stay 0 or NAN). */
static int add_unit(roster_file *r, const army_unit *u, const char *id, const char *side, const army_roster_options *o,
                    int *next_tag, base_error *err)
{
    roster_unit *ru = &r->units[r->n_units++];
    snprintf(ru->id, sizeof ru->id, "%s", id);
    snprintf(ru->name, sizeof ru->name, "%s", u->name);
    snprintf(ru->side, sizeof ru->side, "%s", side);
    ru->character = u->character;
    snprintf(ru->mount_name, sizeof ru->mount_name, "%s", u->mount);
    snprintf(ru->height, sizeof ru->height, "%s", u->height);
    snprintf(ru->type, sizeof ru->type, "%s", u->type);
    const army_group *main = main_group(u);
    double tag = 0;
    for (size_t g = 0; g < u->n_groups; g++) {
        double s = army_tag_size_mm(&u->groups[g].base, o->family);
        if (s > 0 && (tag == 0 || s < tag))
            tag = s; /* one tag size per unit: the smallest base's */
    }
    if (main) {
        ru->base_width = main->base.front_mm, ru->base_depth = main->base.side_mm;
        ru->round_base = main->base.round;
    }
    ru->advance_rate = isnan(u->adv_in) ? NAN : base_in_to_mm(u->adv_in);
    ru->march_rate = isnan(u->mar_in) ? NAN : base_in_to_mm(u->mar_in);
    ru->mobility = NAN;
    snprintf(ru->advance_dice, sizeof ru->advance_dice, "%s", u->adv_dice);
    snprintf(ru->march_dice, sizeof ru->march_dice, "%s", u->mar_dice);
    ru->mount = (roster_tag_mount){base_v2(0, 0), 0, o->tag_height_mm, tag};
    return add_models(r, u, ru, main, o, next_tag, err);
}

/* The army's header: the list, its player, the slot and where it came from. */
static void fill_army(roster_army *h, const army_list *a, const army_file *f, const army_roster_options *o)
{
    h->present = true;
    snprintf(h->name, sizeof h->name, "%s", a->name);
    snprintf(h->player, sizeof h->player, "%s", a->player);
    snprintf(h->game_system, sizeof h->game_system, "%s", a->game_system);
    h->points = a->points > 0 ? a->points : 0;
    h->slot = o->army_slot;
    snprintf(h->tag_ids, sizeof h->tag_ids, "%s IDs from %d, skipping 300-399", o->army_slot == 1 ? "even" : "odd",
             army_tag_id(o->army_slot, 0, o->family));
    if (f) {
        snprintf(h->source, sizeof h->source, "%s", f->path);
        snprintf(h->source_format, sizeof h->source_format, "%s", army_format_word(f->format));
    }
}

static size_t models_of(const army_list *a)
{
    size_t n = 0;
    for (size_t i = 0; i < a->n_units; i++)
        for (size_t g = 0; g < a->units[i].n_groups; g++)
            n += a->units[i].groups[g].count > 0 ? (size_t)a->units[i].groups[g].count : 0;
    return n;
}

void army_roster_side(const army_list *a, const army_roster_options *o, char *out, size_t cap)
{
    if (o->side) {
        army_name_copy(out, cap, o->side);
        return;
    }
    if (a->player[0]) { /* "Lasse Lindström" -> "lasse-lindstrom" */
        char folded[2 * ARMY_NAME_MAX];
        army_names_fold(a->player, folded, sizeof folded);
        army_slug(folded, out, cap);
        return;
    }
    snprintf(out, cap, "army-%d", o->army_slot);
}

roster_file *army_roster_of(const army_list *a, const army_file *f, const army_roster_options *o, base_error *err)
{
    if (o->army_slot != 1 && o->army_slot != 2) {
        base_error_set(err, "army slot %d: only 1 and 2 exist (two armies at a table)", o->army_slot);
        return NULL;
    }
    char side[64];
    army_roster_side(a, o, side, sizeof side);
    roster_file *r = roster_new(a->n_units, models_of(a), 4);
    char (*ids)[ARMY_ID_MAX] = malloc((a->n_units ? a->n_units : 1) * sizeof *ids);
    if (!r || !ids || !(r->unresolved = calloc(a->n_units ? a->n_units : 1, sizeof *r->unresolved)) ||
        unit_ids(a, o->prefix, ids) < 0) {
        free(ids);
        roster_free(r);
        base_error_set(err, "out of memory");
        return NULL;
    }
    snprintf(r->family, sizeof r->family, "%s", o->family);
    fill_army(&r->army, a, f, o);
    fill_board(r, o);
    int next_tag = 0;
    for (size_t i = 0; i < a->n_units; i++) {
        if (add_unit(r, &a->units[i], ids[i], side, o, &next_tag, err) < 0) {
            free(ids);
            roster_free(r);
            return NULL;
        }
        if (a->units[i].missing)
            add_unresolved(r, ids[i], &a->units[i]);
    }
    free(ids);
    /* Rim labels carry tag36h11 codes only; a unit whose base is still unknown keeps its square until known. The
     * masts' ids follow the army slot's parity above its models', skipping 300-399 (roster_layout_marks). */
    size_t changed;
    if (o->lay_out_marks && strcmp(r->family, "tag36h11") == 0 && roster_layout_marks_with(r, &(roster_layout_options){
            false, o->no_masts, 2, ROSTER_LAYOUT_SKIP_LO, ROSTER_LAYOUT_SKIP_HI}, &changed, err) < 0) {
        roster_free(r);
        return NULL;
    }
    return r;
}

cJSON *army_roster_json(const army_list *a, const army_file *f, const army_roster_options *o, base_error *err)
{
    roster_file *r = army_roster_of(a, f, o, err);
    cJSON *j = r ? roster_to_json(r) : NULL;
    if (r && !j)
        base_error_set(err, "out of memory");
    roster_free(r);
    return j;
}
