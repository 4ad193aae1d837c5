/* roster: the roster in memory, and what it hands on (see the header; reading: roster_read.c, writing:
 * roster_write.c). */
#include "roster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

roster_file *roster_new(size_t units, size_t models, size_t board_tags)
{
    roster_file *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->family, sizeof r->family, "tag36h11");
    r->units = calloc(units ? units : 1, sizeof *r->units);
    r->models = calloc(models ? models : 1, sizeof *r->models);
    r->board_tags = calloc(board_tags ? board_tags : 1, sizeof *r->board_tags);
    if (!r->units || !r->models || !r->board_tags) {
        roster_free(r);
        return NULL;
    }
    return r;
}

void roster_free(roster_file *r)
{
    if (!r)
        return;
    free(r->units);
    free(r->models);
    free(r->board_tags);
    free(r->marks);
    free(r->unresolved);
    free(r);
}

/* A copy of n items of `size` bytes (room for one when n is 0); NULL when out of memory. */
static void *copy_of(const void *from, size_t n, size_t size)
{
    void *to = malloc((n ? n : 1) * size);
    if (to && n)
        memcpy(to, from, n * size);
    return to;
}

roster_file *roster_clone(const roster_file *r)
{
    roster_file *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *r;
    c->units = copy_of(r->units, r->n_units, sizeof *r->units);
    c->models = copy_of(r->models, r->n_models, sizeof *r->models);
    c->board_tags = copy_of(r->board_tags, r->n_board_tags, sizeof *r->board_tags);
    c->unresolved = copy_of(r->unresolved, r->n_unresolved, sizeof *r->unresolved);
    c->marks = copy_of(r->marks, r->n_marks, sizeof *r->marks);
    if (!c->units || !c->models || !c->board_tags || !c->unresolved || !c->marks) {
        roster_free(c);
        return NULL;
    }
    return c;
}

const roster_model *roster_find_model_tag(const roster_file *r, int id)
{
    for (size_t i = 0; i < r->n_models; i++)
        if (r->models[i].tag_id == id)
            return &r->models[i];
    return NULL;
}

int roster_add_mark(roster_file *r, const roster_unit_mark *m)
{
    roster_unit_mark *to = realloc(r->marks, (r->n_marks + 1) * sizeof *to);
    if (!to)
        return -1;
    r->marks = to;
    r->marks[r->n_marks++] = *m;
    return 0;
}

size_t roster_unit_mark_count(const roster_file *r, size_t unit)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_marks; i++)
        n += r->marks[i].unit == unit;
    return n;
}

const roster_unit_mark *roster_find_mark_tag(const roster_file *r, int id)
{
    for (size_t i = 0; i < r->n_marks; i++)
        if (r->marks[i].tag_id == id)
            return &r->marks[i];
    return NULL;
}

const roster_board_tag *roster_find_board_tag(const roster_file *r, int id)
{
    for (size_t i = 0; i < r->n_board_tags; i++)
        if (r->board_tags[i].id == id)
            return &r->board_tags[i];
    return NULL;
}

void roster_model_apply(const roster_model *rm, rules_model *m)
{
    m->base_width = rm->base_width;
    m->base_depth = rm->base_depth;
    m->attachable = m->attachable || rm->attachable;
}

rules_snapshot *roster_new_snapshot(const roster_file *r)
{
    rules_snapshot *s = rules_snapshot_new(r->board_width, r->board_depth);
    if (!s)
        return NULL;
    for (size_t i = 0; i < r->n_units; i++) {
        const roster_unit *ru = &r->units[i];
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
        snprintf(u->advance_dice, sizeof u->advance_dice, "%s", ru->advance_dice);
        snprintf(u->march_dice, sizeof u->march_dice, "%s", ru->march_dice);
        u->status = ru->status;
    }
    return s;
}

roster_map *roster_map_new(const roster_file *r, base_error *err)
{
    roster_map *m = calloc(1, sizeof *m);
    if (!m || !(m->units = calloc(r->n_units ? r->n_units : 1, sizeof *m->units)) ||
        !(m->models = calloc(r->n_models ? r->n_models : 1, sizeof *m->models)) ||
        !(m->board_tags = calloc(r->n_board_tags ? r->n_board_tags : 1, sizeof *m->board_tags)) ||
        !(m->marks = calloc(r->n_marks ? r->n_marks : 1, sizeof *m->marks)) ||
        !(m->start = roster_new_snapshot(r))) {
        roster_map_free(m);
        base_error_set(err, "out of memory");
        return NULL;
    }
    snprintf(m->family, sizeof m->family, "%s", r->family);
    m->board_width = r->board_width, m->board_depth = r->board_depth;
    for (size_t i = 0; i < r->n_units; i++) {
        const roster_unit *u = &r->units[i];
        roster_map_unit *mu = &m->units[i];
        snprintf(mu->id, sizeof mu->id, "%s", u->id);
        snprintf(mu->side, sizeof mu->side, "%s", u->side);
        mu->base_width = u->base_width, mu->base_depth = u->base_depth;
        mu->files = u->files;
        mu->loose = u->loose;
        mu->mount = u->mount;
        mu->first_model = u->first_model, mu->n_models = u->n_models;
    }
    for (size_t i = 0; i < r->n_models; i++) {
        const roster_model *rm = &r->models[i];
        roster_map_model *mm = &m->models[i];
        snprintf(mm->id, sizeof mm->id, "%s", rm->id);
        mm->tag_id = rm->tag_id, mm->unit = rm->unit, mm->file = rm->file, mm->rank = rm->rank;
        mm->base_width = rm->base_width, mm->base_depth = rm->base_depth;
        mm->attachable = rm->attachable;
    }
    if (r->n_board_tags)
        memcpy(m->board_tags, r->board_tags, r->n_board_tags * sizeof *r->board_tags);
    for (size_t i = 0; i < r->n_marks; i++)
        m->marks[i] = (roster_map_mark){r->marks[i].tag_id, r->marks[i].model, r->marks[i].mount, r->marks[i].sway};
    m->n_units = r->n_units, m->n_models = r->n_models, m->n_board_tags = r->n_board_tags, m->n_marks = r->n_marks;
    return m;
}
