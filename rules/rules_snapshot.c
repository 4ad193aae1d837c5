#include "rules_snapshot.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    unsigned bit;
    const char *word;
} status_words[] = {
    {RULES_STATUS_CHARGING, "charging"},
    {RULES_STATUS_ENGAGED, "engaged"},
    {RULES_STATUS_FLEEING, "fleeing"},
    {RULES_STATUS_SHAKEN, "shaken"},
};

unsigned rules_status_from_word(const char *word)
{
    for (size_t i = 0; i < sizeof status_words / sizeof status_words[0]; i++)
        if (strcmp(status_words[i].word, word) == 0)
            return status_words[i].bit;
    return 0;
}

const char *rules_status_word(unsigned bit)
{
    for (size_t i = 0; i < sizeof status_words / sizeof status_words[0]; i++)
        if (status_words[i].bit == bit)
            return status_words[i].word;
    return NULL;
}

const char *rules_relief_word(rules_relief r)
{
    switch (r) {
    case RULES_RELIEF_HILL: return "hill";
    case RULES_RELIEF_BUILDING: return "building";
    case RULES_RELIEF_FLAT: break;
    }
    return "flat";
}

int rules_relief_from_word(const char *word, rules_relief *out)
{
    static const rules_relief all[] = {RULES_RELIEF_FLAT, RULES_RELIEF_HILL, RULES_RELIEF_BUILDING};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(word, rules_relief_word(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    return -1;
}

bool rules_unit_height_unsettled(const rules_unit *u) { return isfinite(u->height_seen_mm); }

const char *rules_terrain_kind_word(rules_terrain_kind kind)
{
    switch (kind) {
    case RULES_TERRAIN_OBSTRUCTION: return "obstruction";
    case RULES_TERRAIN_IMPASSABLE: return "impassable";
    case RULES_TERRAIN_OPEN: break;
    }
    return "open";
}

static void copy_id(char dst[RULES_ID_MAX], const char *src)
{
    /* Callers validate length at the edges (JSON); here we only never overflow. */
    size_t n = src ? strlen(src) : 0;
    if (n >= RULES_ID_MAX)
        n = RULES_ID_MAX - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Grows *arr so that one more element of `size` fits. */
static bool grow(void **arr, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t ncap = *cap ? *cap * 2 : 8;
    void *p = realloc(*arr, ncap * size);
    if (!p)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

rules_snapshot *rules_snapshot_new(double board_width_mm, double board_depth_mm)
{
    rules_snapshot *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->board_width = board_width_mm;
    s->board_depth = board_depth_mm;
    s->ruleset = *rules_ruleset_find(RULES_DEFAULT_RULESET);
    return s;
}

const char *rules_evidence_word(rules_evidence e)
{
    switch (e) {
    case RULES_EVIDENCE_ROUGH: return "rough";
    case RULES_EVIDENCE_INFERRED: return "inferred";
    case RULES_EVIDENCE_SEEN: break;
    }
    return "seen";
}

int rules_evidence_from_word(const char *word, rules_evidence *out)
{
    static const rules_evidence all[] = {RULES_EVIDENCE_SEEN, RULES_EVIDENCE_ROUGH, RULES_EVIDENCE_INFERRED};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(word, rules_evidence_word(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    return -1;
}

void rules_unit_clear_alternatives(rules_unit *u)
{
    for (size_t k = 0; k < u->n_alternatives; k++)
        free(u->alternatives[k].models);
    free(u->alternatives);
    u->alternatives = NULL;
    u->n_alternatives = u->cap_alternatives = 0;
    u->placements_complete = true;
}

void rules_snapshot_free(rules_snapshot *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_units; i++) {
        free(s->units[i].models);
        rules_unit_clear_alternatives(&s->units[i]);
    }
    free(s->unseen);
    for (size_t i = 0; i < s->n_terrain; i++) {
        free(s->terrain[i].points);
        free(s->terrain[i].foot);
    }
    for (size_t i = 0; i < s->n_dynforms; i++)
        free(s->dynforms[i].models);
    free(s->units);
    free(s->terrain);
    free(s->dynforms);
    free(s);
}

rules_snapshot *rules_snapshot_clone(const rules_snapshot *s)
{
    rules_snapshot *c = rules_snapshot_new(s->board_width, s->board_depth);
    if (!c)
        return NULL;
    c->ruleset = s->ruleset;
    c->ruleset_given = s->ruleset_given;
    for (size_t i = 0; i < s->n_units; i++) {
        const rules_unit *src = &s->units[i];
        rules_unit *u = rules_snapshot_add_unit(c, src->id, src->side);
        if (!u)
            goto fail;
        rules_model *models = u->models;
        *u = *src;
        u->models = models;
        u->n_models = u->cap_models = 0;
        u->alternatives = NULL;
        u->n_alternatives = u->cap_alternatives = 0;
        for (size_t j = 0; j < src->n_models; j++) {
            rules_model *m = rules_unit_add_model(u, src->models[j].id, src->models[j].pos, src->models[j].facing);
            if (!m)
                goto fail;
            *m = src->models[j];
        }
        for (size_t k = 0; k < src->n_alternatives; k++) {
            const rules_placement *sp = &src->alternatives[k];
            rules_placement *p = rules_unit_add_alternative(u, sp->label);
            if (!p)
                goto fail;
            for (size_t j = 0; j < sp->n_models; j++)
                if (rules_placement_add_model(p, sp->models[j].id, sp->models[j].pos, sp->models[j].facing,
                                              sp->models[j].sigma_mm) < 0)
                    goto fail;
        }
    }
    for (size_t i = 0; i < s->n_unseen; i++)
        if (!rules_snapshot_add_unseen(c, s->unseen[i].id, s->unseen[i].side, s->unseen[i].n_models))
            goto fail;
    for (size_t i = 0; i < s->n_terrain; i++)
        if (!rules_snapshot_copy_terrain(c, &s->terrain[i]))
            goto fail;
    for (size_t i = 0; i < s->n_dynforms; i++) {
        rules_dynform_decl *f = rules_snapshot_add_dynform(c, s->dynforms[i].id);
        if (!f)
            goto fail;
        for (size_t k = 0; k < s->dynforms[i].n_models; k++)
            if (rules_dynform_decl_add_model(f, s->dynforms[i].models[k]) < 0)
                goto fail;
    }
    return c;
fail:
    rules_snapshot_free(c);
    return NULL;
}

rules_unit *rules_snapshot_add_unit(rules_snapshot *s, const char *id, const char *side)
{
    if (!grow((void **)&s->units, &s->cap_units, s->n_units, sizeof *s->units))
        return NULL;
    rules_unit *u = &s->units[s->n_units++];
    memset(u, 0, sizeof *u);
    copy_id(u->id, id);
    copy_id(u->side, side);
    u->advance_rate = u->march_rate = u->mobility = NAN;
    u->roll_mm = NAN;
    u->control_area_mm = NAN;
    u->will = -1;
    u->height = -1;
    u->placements_complete = true;
    u->height_seen_mm = u->height_table_mm = NAN;
    return u;
}

rules_model *rules_unit_add_model(rules_unit *u, const char *id, base_vec2 pos, double facing)
{
    if (!grow((void **)&u->models, &u->cap_models, u->n_models, sizeof *u->models))
        return NULL;
    rules_model *m = &u->models[u->n_models++];
    memset(m, 0, sizeof *m);
    copy_id(m->id, id);
    m->pos = pos;
    m->facing = facing;
    m->sigma_mm = NAN;
    return m;
}

rules_placement *rules_unit_add_alternative(rules_unit *u, const char *label)
{
    if (!grow((void **)&u->alternatives, &u->cap_alternatives, u->n_alternatives, sizeof *u->alternatives))
        return NULL;
    rules_placement *p = &u->alternatives[u->n_alternatives++];
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    return p;
}

int rules_placement_add_model(rules_placement *p, const char *id, base_vec2 pos, double facing, double sigma_mm)
{
    if (!grow((void **)&p->models, &p->cap_models, p->n_models, sizeof *p->models))
        return -1;
    rules_placed_model *m = &p->models[p->n_models++];
    memset(m, 0, sizeof *m);
    copy_id(m->id, id);
    m->pos = pos;
    m->facing = facing;
    m->sigma_mm = sigma_mm;
    return 0;
}

rules_unseen_unit *rules_snapshot_add_unseen(rules_snapshot *s, const char *id, const char *side, size_t n_models)
{
    if (!grow((void **)&s->unseen, &s->cap_unseen, s->n_unseen, sizeof *s->unseen))
        return NULL;
    rules_unseen_unit *u = &s->unseen[s->n_unseen++];
    memset(u, 0, sizeof *u);
    copy_id(u->id, id);
    copy_id(u->side, side);
    u->n_models = n_models;
    return u;
}

const rules_unseen_unit *rules_snapshot_find_unseen(const rules_snapshot *s, const char *id)
{
    for (size_t i = 0; i < s->n_unseen; i++)
        if (strcmp(s->unseen[i].id, id) == 0)
            return &s->unseen[i];
    return NULL;
}

rules_terrain *rules_snapshot_add_terrain(rules_snapshot *s, const char *id, rules_terrain_kind kind,
                                          const base_vec2 *points, size_t n)
{
    base_vec2 *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return NULL;
    if (!grow((void **)&s->terrain, &s->cap_terrain, s->n_terrain, sizeof *s->terrain)) {
        free(copy);
        return NULL;
    }
    if (n)
        memcpy(copy, points, n * sizeof *copy);
    rules_terrain *t = &s->terrain[s->n_terrain++];
    memset(t, 0, sizeof *t);
    copy_id(t->id, id);
    t->kind = kind;
    t->points = copy;
    t->n_points = n;
    t->height_sigma_mm = NAN;
    return t;
}

int rules_terrain_set_relief(rules_terrain *t, rules_relief relief, double height_mm, double height_sigma_mm,
                             const base_vec2 *foot, size_t n_foot)
{
    base_vec2 *copy = NULL;
    if (foot && n_foot) {
        if (!(copy = malloc(n_foot * sizeof *copy)))
            return -1;
        memcpy(copy, foot, n_foot * sizeof *copy);
    }
    free(t->foot);
    t->relief = relief;
    t->height_mm = height_mm;
    t->height_sigma_mm = height_sigma_mm;
    t->foot = copy;
    t->n_foot = copy ? n_foot : 0;
    return 0;
}

rules_terrain *rules_snapshot_copy_terrain(rules_snapshot *s, const rules_terrain *t)
{
    rules_terrain *c = rules_snapshot_add_terrain(s, t->id, t->kind, t->points, t->n_points);
    if (c && rules_terrain_set_relief(c, t->relief, t->height_mm, t->height_sigma_mm, t->foot, t->n_foot) < 0) {
        free(c->points);
        s->n_terrain--;
        return NULL;
    }
    return c;
}

rules_dynform_decl *rules_snapshot_add_dynform(rules_snapshot *s, const char *id)
{
    if (!grow((void **)&s->dynforms, &s->cap_dynforms, s->n_dynforms, sizeof *s->dynforms))
        return NULL;
    rules_dynform_decl *f = &s->dynforms[s->n_dynforms++];
    memset(f, 0, sizeof *f);
    copy_id(f->id, id);
    return f;
}

int rules_dynform_decl_add_model(rules_dynform_decl *f, const char *model_id)
{
    void *p = realloc(f->models, (f->n_models + 1) * sizeof *f->models);
    if (!p)
        return -1;
    f->models = p;
    copy_id(f->models[f->n_models++], model_id);
    return 0;
}

rules_unit *rules_snapshot_find_unit(const rules_snapshot *s, const char *id)
{
    for (size_t i = 0; i < s->n_units; i++)
        if (strcmp(s->units[i].id, id) == 0)
            return &s->units[i];
    return NULL;
}

rules_model *rules_unit_find_model(const rules_unit *u, const char *id)
{
    for (size_t j = 0; j < u->n_models; j++)
        if (strcmp(u->models[j].id, id) == 0)
            return &u->models[j];
    return NULL;
}

bool rules_unit_partly_placed(const rules_unit *u)
{
    if (u->placements_complete || u->n_alternatives || !u->n_models)
        return false;
    for (size_t j = 0; j < u->n_models; j++)
        if (u->models[j].inferred)
            return false;
    return true;
}

rules_model *rules_snapshot_find_model(const rules_snapshot *s, const char *id, rules_unit **unit_out)
{
    for (size_t i = 0; i < s->n_units; i++) {
        rules_model *m = rules_unit_find_model(&s->units[i], id);
        if (m) {
            if (unit_out)
                *unit_out = &s->units[i];
            return m;
        }
    }
    return NULL;
}

base_obb rules_model_base(const rules_unit *u, const rules_model *m)
{
    if (m->base_width > 0 && m->base_depth > 0)
        return (base_obb){m->pos, m->facing, m->base_width, m->base_depth};
    return (base_obb){m->pos, m->facing, u->base_width, u->base_depth};
}

unsigned rules_unit_status(const rules_unit *u)
{
    unsigned st = u->status;
    for (size_t j = 0; j < u->n_models; j++)
        st |= u->models[j].status;
    return st;
}

int rules_unit_declare_roll(rules_unit *u, double roll_mm, base_error *err)
{
    if (isnan(roll_mm)) {
        u->roll_mm = NAN;
        return 0;
    }
    const char *text = u->march_dice[0] ? u->march_dice : u->advance_dice;
    rules_dice d;
    if (!text[0] || rules_dice_parse(text, &d) < 0)
        return base_error_set(err, "unit %s: its Advance and March Rates are not dice: it has no roll to declare",
                              u->id);
    int lo, hi;
    rules_dice_range(&d, &lo, &hi);
    const double in = base_mm_to_in(roll_mm);
    if (!(in >= lo - 1e-6 && in <= hi + 1e-6))
        return base_error_set(err, "unit %s: a roll of %.2f\" is not one of %s (%d\" to %d\")", u->id, in, text, lo, hi);
    u->roll_mm = roll_mm;
    return 0;
}
