#include "rules_pursuit.h"

#include <stdlib.h>
#include <string.h>

#include "rules_pursuit_sim.h"

const char *rules_pursuit_outcome_word(rules_pursuit_outcome o)
{
    switch (o) {
    case RULES_PURSUIT_OFF_BOARD: return "off-board";
    case RULES_PURSUIT_CHARGE: return "charge";
    case RULES_PURSUIT_PIVOT_BLOCKED: return "pivot-blocked";
    case RULES_PURSUIT_FORWARD: return "forward";
    case RULES_PURSUIT_BACKTRACKED: return "backtracked";
    }
    return "?";
}

void rules_pursuit_prediction_clear(rules_pursuit_prediction *p)
{
    free(p->models);
    memset(p, 0, sizeof *p);
}

static void apply(pu_unit *me, const rules_pursuit_prediction *pr)
{
    if (pr->outcome == RULES_PURSUIT_OFF_BOARD) {
        me->gone = true;
        return;
    }
    me->box = pu_box_at(me, pr->end);
    memcpy(me->pos, pr->models, me->u->n_models * sizeof *me->pos);
}

static void restore(pu_sim *S, const base_vec2 *saved_pos, const base_obb *saved_box, const bool *saved_gone)
{
    size_t off = 0;
    for (size_t i = 0; i < S->n; i++) {
        memcpy(S->units[i].pos, saved_pos + off, S->units[i].u->n_models * sizeof *saved_pos);
        off += S->units[i].u->n_models;
        S->units[i].box = saved_box[i];
        S->units[i].gone = saved_gone[i];
    }
}

static bool next_perm(size_t *a, size_t n)
{
    if (n < 2)
        return false;
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return false;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    size_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (size_t l = i, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return true;
}

int rules_pursuit_predict(const rules_snapshot *before, const rules_pursuit_input *in,
                          rules_pursuit_prediction *out, base_error *err)
{
    const size_t np = in->n_pursuers;
    pu_sim S = {.s = before, .in = in, .n = before->n_units, .spacing = before->ruleset.unit_spacing_mm,
             .tol = before->ruleset.contact_tolerance_mm, .combat_id = pu_combat_of(before, in)};
    for (size_t k = 0; k < np; k++)
        memset(&out[k], 0, sizeof out[k]);
    size_t total_models = 0;
    for (size_t i = 0; i < before->n_units; i++)
        total_models += before->units[i].n_models;
    S.units = calloc(S.n ? S.n : 1, sizeof *S.units);
    base_vec2 *pos = malloc((total_models ? total_models : 1) * sizeof *pos);
    base_vec2 *saved_pos = malloc((total_models ? total_models : 1) * sizeof *pos);
    base_obb *saved_box = calloc(S.n ? S.n : 1, sizeof *saved_box);
    bool *saved_gone = calloc(S.n ? S.n : 1, sizeof *saved_gone);
    unsigned *facing_of = malloc((S.n ? S.n : 1) * np * sizeof *facing_of + 1);
    size_t *idx = malloc((np ? np : 1) * sizeof *idx), *chargers = malloc((np ? np : 1) * sizeof *chargers);
    size_t *best_order = malloc((np ? np : 1) * sizeof *best_order);
    rules_pursuit_prediction *trial = calloc(np ? np : 1, sizeof *trial);
    int rc = 0;
    if (!S.units || !pos || !saved_pos || !saved_box || !saved_gone || !facing_of || !idx || !chargers ||
        !best_order || !trial) {
        rc = base_error_set(err, "out of memory");
        goto done;
    }
    size_t off = 0;
    for (size_t i = 0; i < S.n; i++) {
        pu_unit *su = &S.units[i];
        su->u = &before->units[i];
        if (rules_formation_fit(su->u, NULL, &su->f, NULL) < 0) {
            rc = base_error_set(err, "unit %s has no models", su->u->id);
            goto done;
        }
        su->box = su->f.boundary;
        su->pos = pos + off;
        for (size_t j = 0; j < su->u->n_models; j++)
            su->pos[j] = su->u->models[j].pos;
        off += su->u->n_models;
        su->pursuer = pu_pursuer_of(in, su->u->id) != NULL;
    }
    for (size_t k = 0; k < np; k++) {
        const rules_unit *u = rules_snapshot_find_unit(before, in->pursuers[k].unit_id);
        if (!u) {
            rc = base_error_set(err, "pursuing unit %s is not in the before snapshot", in->pursuers[k].unit_id);
            goto done;
        }
        idx[k] = (size_t)(u - before->units);
        out[k].models = calloc(u->n_models ? u->n_models : 1, sizeof *out[k].models);
        trial[k].models = calloc(u->n_models ? u->n_models : 1, sizeof *trial[k].models);
        if (!out[k].models || !trial[k].models) {
            rc = base_error_set(err, "out of memory");
            goto done;
        }
        out[k].n_models = trial[k].n_models = u->n_models;
        snprintf(out[k].unit_id, sizeof out[k].unit_id, "%s", u->id);
        snprintf(trial[k].unit_id, sizeof trial[k].unit_id, "%s", u->id);
        /* Facings decided before anything moves: where the pursuer is located relative to each enemy. */
        for (size_t i = 0; i < S.n; i++)
            facing_of[k * S.n + i] = pu_located_facing(&S.units[idx[k]], &S.units[i]);
    }
    for (size_t i = 0; i < S.n; i++) {
        saved_box[i] = S.units[i].box;
        saved_gone[i] = false;
    }
    memcpy(saved_pos, pos, total_models * sizeof *pos);

    /* Which pursuers would Charge, each judged on the untouched table. */
    size_t nc = 0;
    for (size_t k = 0; k < np && np > 1; k++) {
        base_vec2 *keep = trial[k].models;
        pu_predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &trial[k]);
        trial[k].models = keep;
        if (trial[k].outcome == RULES_PURSUIT_CHARGE)
            chargers[nc++] = k;
    }
    /* Chargers first, in the order that brings most chargers, then most models, into contact. */
    memcpy(best_order, chargers, nc * sizeof *chargers);
    if (nc > 1 && nc <= 5) {
        long best_score = -1;
        do {
            restore(&S, saved_pos, saved_box, saved_gone);
            long in_contact = 0, models = 0;
            for (size_t q = 0; q < nc; q++) {
                size_t k = chargers[q];
                pu_predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &trial[k]);
                if (trial[k].outcome == RULES_PURSUIT_CHARGE) {
                    in_contact++;
                    models += (long)trial[k].engaged_models;
                }
                apply(&S.units[idx[k]], &trial[k]);
            }
            long score = in_contact * 100000 + models;
            if (score > best_score) {
                best_score = score;
                memcpy(best_order, chargers, nc * sizeof *chargers);
            }
        } while (next_perm(chargers, nc));
    }
    restore(&S, saved_pos, saved_box, saved_gone);
    int order = 0;
    for (size_t q = 0; q < nc; q++) {
        size_t k = best_order[q];
        pu_predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &out[k]);
        out[k].order = order++;
        apply(&S.units[idx[k]], &out[k]);
    }
    for (size_t k = 0; k < np; k++) {
        bool done_already = false;
        for (size_t q = 0; q < nc; q++)
            done_already |= best_order[q] == k;
        if (done_already)
            continue;
        pu_predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &out[k]);
        out[k].order = order++;
        apply(&S.units[idx[k]], &out[k]);
    }
done:
    for (size_t k = 0; trial && k < np; k++)
        free(trial[k].models);
    free(trial);
    free(S.units);
    free(pos);
    free(saved_pos);
    free(saved_box);
    free(saved_gone);
    free(facing_of);
    free(idx);
    free(chargers);
    free(best_order);
    if (rc < 0)
        for (size_t k = 0; k < np; k++)
            rules_pursuit_prediction_clear(&out[k]);
    return rc;
}
