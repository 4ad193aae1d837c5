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

/* One prediction's working state: the table, what it was before anything moved, the pursuers. */
typedef struct pu_run {
    pu_sim S;
    const rules_pursuit_input *in;
    size_t np;                        /* pursuers */
    size_t total_models;
    base_vec2 *pos, *saved_pos;       /* every model's position, now and untouched */
    base_obb *saved_box;
    bool *saved_gone;
    unsigned *facing_of;              /* [k * S.n + i]: pursuer k's Facing on unit i, decided before moving */
    size_t *idx;                      /* pursuer k is S.units[idx[k]] */
    size_t *chargers, *best_order;
    rules_pursuit_prediction *trial;  /* trial runs, their own model buffers */
} pu_run;

static int run_alloc(pu_run *R, const rules_snapshot *before, base_error *err)
{
    const size_t np = R->np, n = R->S.n;
    for (size_t i = 0; i < before->n_units; i++)
        R->total_models += before->units[i].n_models;
    R->S.units = calloc(n ? n : 1, sizeof *R->S.units);
    R->pos = malloc((R->total_models ? R->total_models : 1) * sizeof *R->pos);
    R->saved_pos = malloc((R->total_models ? R->total_models : 1) * sizeof *R->pos);
    R->saved_box = calloc(n ? n : 1, sizeof *R->saved_box);
    R->saved_gone = calloc(n ? n : 1, sizeof *R->saved_gone);
    R->facing_of = malloc((n ? n : 1) * np * sizeof *R->facing_of + 1);
    R->idx = malloc((np ? np : 1) * sizeof *R->idx);
    R->chargers = malloc((np ? np : 1) * sizeof *R->chargers);
    R->best_order = malloc((np ? np : 1) * sizeof *R->best_order);
    R->trial = calloc(np ? np : 1, sizeof *R->trial);
    if (!R->S.units || !R->pos || !R->saved_pos || !R->saved_box || !R->saved_gone || !R->facing_of || !R->idx ||
        !R->chargers || !R->best_order || !R->trial)
        return base_error_set(err, "out of memory");
    return 0;
}

static void run_free(pu_run *R)
{
    for (size_t k = 0; R->trial && k < R->np; k++)
        free(R->trial[k].models);
    free(R->trial);
    free(R->S.units);
    free(R->pos);
    free(R->saved_pos);
    free(R->saved_box);
    free(R->saved_gone);
    free(R->facing_of);
    free(R->idx);
    free(R->chargers);
    free(R->best_order);
}

/* Every unit of the table with its fitted formation and its models' positions. */
static int load_units(pu_run *R, const rules_snapshot *before, base_error *err)
{
    size_t off = 0;
    for (size_t i = 0; i < R->S.n; i++) {
        pu_unit *su = &R->S.units[i];
        su->u = &before->units[i];
        if (rules_formation_fit(su->u, NULL, &su->f, NULL) < 0)
            return base_error_set(err, "unit %s has no models", su->u->id);
        su->box = su->f.boundary;
        su->pos = R->pos + off;
        for (size_t j = 0; j < su->u->n_models; j++)
            su->pos[j] = su->u->models[j].pos;
        off += su->u->n_models;
        su->pursuer = pu_pursuer_of(R->in, su->u->id) != NULL;
    }
    return 0;
}

/* Each pursuer's unit, its prediction's buffers (out[k] and a trial's) and its Facings on every unit. */
static int load_pursuers(pu_run *R, const rules_snapshot *before, rules_pursuit_prediction *out, base_error *err)
{
    for (size_t k = 0; k < R->np; k++) {
        const rules_unit *u = rules_snapshot_find_unit(before, R->in->pursuers[k].unit_id);
        if (!u)
            return base_error_set(err, "pursuing unit %s is not in the before snapshot", R->in->pursuers[k].unit_id);
        R->idx[k] = (size_t)(u - before->units);
        out[k].models = calloc(u->n_models ? u->n_models : 1, sizeof *out[k].models);
        R->trial[k].models = calloc(u->n_models ? u->n_models : 1, sizeof *R->trial[k].models);
        if (!out[k].models || !R->trial[k].models)
            return base_error_set(err, "out of memory");
        out[k].n_models = R->trial[k].n_models = u->n_models;
        snprintf(out[k].unit_id, sizeof out[k].unit_id, "%s", u->id);
        snprintf(R->trial[k].unit_id, sizeof R->trial[k].unit_id, "%s", u->id);
        /* Facings decided before anything moves: where the pursuer is located relative to each enemy. */
        for (size_t i = 0; i < R->S.n; i++)
            R->facing_of[k * R->S.n + i] = pu_located_facing(&R->S.units[R->idx[k]], &R->S.units[i]);
    }
    return 0;
}

static void predict(pu_run *R, size_t k, rules_pursuit_prediction *pr)
{
    pu_predict_one(&R->S, &R->S.units[R->idx[k]], &R->in->pursuers[k], R->facing_of + k * R->S.n, pr);
}

/* Which pursuers would Charge, each judged on the untouched table (when
 * there are several). Returns their count, in R->chargers. */
static size_t find_chargers(pu_run *R)
{
    size_t nc = 0;
    for (size_t k = 0; k < R->np && R->np > 1; k++) {
        base_vec2 *keep = R->trial[k].models;
        predict(R, k, &R->trial[k]);
        R->trial[k].models = keep;
        if (R->trial[k].outcome == RULES_PURSUIT_CHARGE)
            R->chargers[nc++] = k;
    }
    return nc;
}

/* Chargers first, in the order that brings most chargers, then most models,
 * into contact (every order tried, up to 5 chargers): into R->best_order. */
static void best_charge_order(pu_run *R, size_t nc)
{
    memcpy(R->best_order, R->chargers, nc * sizeof *R->chargers);
    if (nc <= 1 || nc > 5)
        return;
    long best_score = -1;
    do {
        restore(&R->S, R->saved_pos, R->saved_box, R->saved_gone);
        long in_contact = 0, models = 0;
        for (size_t q = 0; q < nc; q++) {
            size_t k = R->chargers[q];
            predict(R, k, &R->trial[k]);
            if (R->trial[k].outcome == RULES_PURSUIT_CHARGE) {
                in_contact++;
                models += (long)R->trial[k].engaged_models;
            }
            apply(&R->S.units[R->idx[k]], &R->trial[k]);
        }
        long score = in_contact * 100000 + models;
        if (score > best_score) {
            best_score = score;
            memcpy(R->best_order, R->chargers, nc * sizeof *R->chargers);
        }
    } while (next_perm(R->chargers, nc));
}

int rules_pursuit_predict(const rules_snapshot *before, const rules_pursuit_input *in,
                          rules_pursuit_prediction *out, base_error *err)
{
    const size_t np = in->n_pursuers;
    pu_run R = {.S = {.s = before, .in = in, .n = before->n_units, .spacing = before->ruleset.unit_spacing_mm,
                      .tol = before->ruleset.contact_tolerance_mm, .combat_id = pu_combat_of(before, in)},
                .in = in, .np = np};
    for (size_t k = 0; k < np; k++)
        memset(&out[k], 0, sizeof out[k]);
    int rc = run_alloc(&R, before, err);
    if (rc == 0)
        rc = load_units(&R, before, err);
    if (rc == 0)
        rc = load_pursuers(&R, before, out, err);
    if (rc < 0)
        goto done;
    for (size_t i = 0; i < R.S.n; i++) {
        R.saved_box[i] = R.S.units[i].box;
        R.saved_gone[i] = false;
    }
    memcpy(R.saved_pos, R.pos, R.total_models * sizeof *R.pos);

    size_t nc = find_chargers(&R);
    best_charge_order(&R, nc);
    restore(&R.S, R.saved_pos, R.saved_box, R.saved_gone);
    /* The chargers in their best order, then every other pursuer in the input's order. */
    int order = 0;
    for (size_t q = 0; q < nc; q++) {
        size_t k = R.best_order[q];
        predict(&R, k, &out[k]);
        out[k].order = order++;
        apply(&R.S.units[R.idx[k]], &out[k]);
    }
    for (size_t k = 0; k < np; k++) {
        bool done_already = false;
        for (size_t q = 0; q < nc; q++)
            done_already |= R.best_order[q] == k;
        if (done_already)
            continue;
        predict(&R, k, &out[k]);
        out[k].order = order++;
        apply(&R.S.units[R.idx[k]], &out[k]);
    }
done:
    run_free(&R);
    if (rc < 0)
        for (size_t k = 0; k < np; k++)
            rules_pursuit_prediction_clear(&out[k]);
    return rc;
}
