/*
 * rules_snapshot_check_ids: every id rule of a snapshot in O(n log n), so a
 * table of 100,000 models is checked in milliseconds (a pairwise check took
 * seconds). Messages name both places, in the file's own terms.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"
#include "rules_snapshot.h"

/* A place "units[u].models[m]" as one ordered number. */
_Static_assert(sizeof(size_t) >= 8, "places pack two 32-bit indices");
#define PLACE(hi, lo) (((size_t)(hi) << 32) | (size_t)(lo))
#define HI(p) ((p) >> 32)
#define LO(p) ((p) & 0xffffffffu)

static int by_text(const void *a, const void *b)
{
    return strcmp(((const base_fields_id *)a)->text, ((const base_fields_id *)b)->text);
}

/* Model ids must be unique across the table; on success `ids` holds them sorted by text. */
static int check_models(const rules_snapshot *s, base_fields_id *ids, size_t *n, base_error *err)
{
    size_t k = 0, a, b;
    for (size_t u = 0; u < s->n_units; u++)
        for (size_t m = 0; m < s->units[u].n_models; m++)
            ids[k++] = (base_fields_id){s->units[u].models[m].id, 0, PLACE(u, m)};
    *n = k;
    if (!base_fields_duplicate(ids, k, true, &a, &b))
        return 0;
    return base_error_set(err, "units[%zu].models[%zu].id: duplicate model id \"%s\" (also units[%zu].models[%zu].id)",
                           HI(b), LO(b), s->units[HI(b)].models[LO(b)].id, HI(a), LO(a));
}

/* Each formation member names a model on the table, and no model is in two places of the formations. */
static int check_members(const rules_snapshot *s, const base_fields_id *models, size_t n_models,
                         base_fields_id *ids, base_error *err)
{
    size_t k = 0, a, b;
    for (size_t f = 0; f < s->n_dynforms; f++)
        for (size_t m = 0; m < s->dynforms[f].n_models; m++) {
            const char *id = s->dynforms[f].models[m];
            base_fields_id key = {id, 0, 0};
            if (!bsearch(&key, models, n_models, sizeof *models, by_text))
                return base_error_set(err, "formations[%zu].models[%zu]: no model \"%s\" on the table", f, m, id);
            ids[k++] = (base_fields_id){id, 0, PLACE(f, m)};
        }
    if (!base_fields_duplicate(ids, k, true, &a, &b))
        return 0;
    return base_error_set(err, "formations[%zu].models[%zu]: model \"%s\" is also formations[%zu].models[%zu]",
                           HI(b), LO(b), s->dynforms[HI(b)].models[LO(b)], HI(a), LO(a));
}

/* Each alternative placement names models of its own unit, each once. `models` is sorted by text. */
static int check_alternatives(const rules_snapshot *s, const base_fields_id *models, size_t n_models,
                              base_fields_id *ids, base_error *err)
{
    for (size_t u = 0; u < s->n_units; u++)
        for (size_t k = 0; k < s->units[u].n_alternatives; k++) {
            const rules_placement *p = &s->units[u].alternatives[k];
            size_t a, b;
            for (size_t j = 0; j < p->n_models; j++) {
                base_fields_id key = {p->models[j].id, 0, 0};
                const base_fields_id *m = bsearch(&key, models, n_models, sizeof *models, by_text);
                if (!m || HI(m->order) != u)
                    return base_error_set(err, "units[%zu].alternatives[%zu].models[%zu].id: \"%s\" is not a model "
                                                "of unit \"%s\"",
                                           u, k, j, p->models[j].id, s->units[u].id);
                ids[j] = (base_fields_id){p->models[j].id, 0, j};
            }
            if (base_fields_duplicate(ids, p->n_models, true, &a, &b))
                return base_error_set(err, "units[%zu].alternatives[%zu].models[%zu].id: \"%s\" is also models[%zu]",
                                       u, k, b, p->models[b].id, a);
        }
    return 0;
}

/* Unit ids, on the table and listed unseen, name one unit each. */
static int check_units(const rules_snapshot *s, base_fields_id *ids, base_error *err)
{
    size_t a, b;
    for (size_t u = 0; u < s->n_units; u++)
        ids[u] = (base_fields_id){s->units[u].id, 0, u};
    for (size_t i = 0; i < s->n_unseen; i++)
        ids[s->n_units + i] = (base_fields_id){s->unseen[i].id, 0, s->n_units + i};
    if (!base_fields_duplicate(ids, s->n_units + s->n_unseen, true, &a, &b))
        return 0;
    if (b < s->n_units)
        return base_error_set(err, "units[%zu].id: duplicate unit id \"%s\" (also units[%zu].id)", b, s->units[b].id,
                               a);
    b -= s->n_units;
    if (a < s->n_units)
        return base_error_set(err, "unseen_units[%zu].id: unit \"%s\" is listed unseen but is also units[%zu].id", b,
                               s->unseen[b].id, a);
    return base_error_set(err, "unseen_units[%zu].id: unit \"%s\" is listed unseen twice (also unseen_units[%zu].id)",
                           b, s->unseen[b].id, a - s->n_units);
}

int rules_snapshot_check_ids(const rules_snapshot *s, base_error *err)
{
    size_t n_models = 0, n_members = 0, n_placed = 0, a, b;
    for (size_t u = 0; u < s->n_units; u++) {
        n_models += s->units[u].n_models;
        for (size_t k = 0; k < s->units[u].n_alternatives; k++)
            n_placed = s->units[u].alternatives[k].n_models > n_placed ? s->units[u].alternatives[k].n_models : n_placed;
    }
    for (size_t f = 0; f < s->n_dynforms; f++)
        n_members += s->dynforms[f].n_models;
    size_t cap = s->n_units + s->n_unseen + s->n_terrain + s->n_dynforms + n_members + n_placed + 1;
    base_fields_id *models = malloc((n_models + 1) * sizeof *models), *ids = malloc(cap * sizeof *ids);
    int rc = 0;
    if (!models || !ids) {
        rc = base_error_set(err, "out of memory");
        goto done;
    }
    if (check_units(s, ids, err) < 0) {
        rc = -1;
        goto done;
    }
    size_t k = 0;
    for (size_t t = 0; t < s->n_terrain; t++)
        if (s->terrain[t].id[0])
            ids[k++] = (base_fields_id){s->terrain[t].id, 0, t};
    if (base_fields_duplicate(ids, k, true, &a, &b)) {
        rc = base_error_set(err, "terrain[%zu].id: duplicate terrain id \"%s\" (also terrain[%zu].id)", b,
                             s->terrain[b].id, a);
        goto done;
    }
    for (size_t f = 0; f < s->n_dynforms; f++)
        ids[f] = (base_fields_id){s->dynforms[f].id, 0, f};
    if (base_fields_duplicate(ids, s->n_dynforms, true, &a, &b)) {
        rc = base_error_set(err, "formations[%zu].id: duplicate formation id \"%s\" (also formations[%zu].id)", b,
                             s->dynforms[b].id, a);
        goto done;
    }
    if (check_models(s, models, &n_models, err) < 0 || check_members(s, models, n_models, ids, err) < 0 ||
        check_alternatives(s, models, n_models, ids, err) < 0)
        rc = -1;
done:
    free(models);
    free(ids);
    return rc;
}
