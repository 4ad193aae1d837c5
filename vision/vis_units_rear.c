/* vis_units_rear: an incomplete rear rank's place read from the picture (see the header). */
#include "vis_units_rear.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two rear places closer than this are one (mm): half-base steps are 10 mm or more apart. */
#define SAME_PLACE_MM 3.0

typedef struct place {
    base_vec2 pos;
    double facing;
    bool seen;
    double off_mm; /* seen: how far from pos the base's mark was located (0 when not measured) */
    double fit_mm; /* how well the fit pins the place (its slot sigma in the placement that put it there) */
} place;

/* TABLEREF_DEBUG_PLACED set: each rear place and placement said on stderr (vis_units.c says each model). */
static bool debug_on(void)
{
    static int on = -1;
    if (on < 0)
        on = getenv("TABLEREF_DEBUG_PLACED") != NULL;
    return on;
}

/* Is a base seen at pl's place? With opt->base_at, where it is too. */
static void look(const vis_units_options *opt, size_t first_model, place *pl)
{
    base_vec2 at;
    pl->off_mm = 0;
    if (opt->base_at) {
        pl->seen = opt->base_at(opt->base_seen_ctx, first_model, pl->pos, pl->facing, &at);
        pl->off_mm = pl->seen ? base_v2_dist(at, pl->pos) : 0;
    } else {
        pl->seen = opt->base_seen(opt->base_seen_ctx, first_model, pl->pos, pl->facing);
    }
}

static bool is_rear(const vis_formation_result *res, const vis_formation_place *q)
{
    return q->placed && q->rank == res->grid.ranks - 1;
}

static long find_place(const place *pl, size_t n, base_vec2 pos)
{
    for (size_t i = 0; i < n; i++)
        if (base_v2_dist(pl[i].pos, pos) < SAME_PLACE_MM)
            return (long)i;
    return -1;
}

/*
 * Per placement: places where a base is seen that it fills (support) and that it leaves empty (against). A place is
 * filled by any model of the placement, not only its rear rank's: placements that shift the ranks (which rank the
 * front one seen is) put one placement's rear rank where another has a full rank, and a base seen there is no
 * evidence against the one that fills it with a full rank (webcam table 4: blue-4's true placement went last so).
 */
static void score(const vis_formation_result *res, size_t n_models, const place *pl, size_t n_pl, int *support,
                  int *against)
{
    for (size_t a = 0; a < res->n_placements; a++) {
        const vis_formation_placement *p = &res->placements[a];
        support[a] = against[a] = 0;
        for (size_t i = 0; i < n_pl; i++) {
            bool occupied = false;
            for (size_t k = 0; k < n_models && !occupied; k++)
                occupied = p->models[k].placed && base_v2_dist(p->models[k].pos, pl[i].pos) < SAME_PLACE_MM;
            support[a] += occupied && pl[i].seen;
            against[a] += !occupied && pl[i].seen;
        }
    }
}

/* Stable order: not contradicted first, then most support; vis_formation's order otherwise. */
static void reorder(vis_formation_result *res, const int *support, const int *against, size_t *order)
{
    const size_t n = res->n_placements;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            const size_t x = order[j - 1], y = order[j];
            const bool after = (against[x] > 0) != (against[y] > 0) ? against[x] > 0 : support[x] < support[y];
            if (!after)
                break;
            order[j - 1] = y, order[j] = x;
        }
}

/* How many of a placement's places a base is hinted at fills, less how many it leaves empty. */
static int hint_score(const vis_formation_placement *p, size_t n_models, const place *pl, const signed char *hint,
                      size_t n_pl)
{
    int s = 0;
    for (size_t i = 0; i < n_pl; i++) {
        bool occupied = false;
        for (size_t k = 0; k < n_models && !occupied; k++)
            occupied = p->models[k].placed && base_v2_dist(p->models[k].pos, pl[i].pos) < SAME_PLACE_MM;
        s += hint[i] > 0 ? (occupied ? 1 : -1) : 0;
    }
    return s;
}

/*
 * The placements first in order that the bases seen leave equal (as many seen places filled, none or some left
 * empty alike): the places where no base is seen are asked for a hint of one (opt->base_hint: one corner block, none
 * contradicted), and the one with most hinted places filled, fewest left empty, goes first; a tie stays. Webcam
 * table 4: red-5's rear rank, left- or right-aligned, each filled the one seen place, and only the right-hand one's
 * other place showed a corner block (its label 35% visible under the figures).
 */
static void break_tie(const vis_units_options *opt, size_t first_model, size_t n_models, vis_formation_result *res,
                      place *pl, size_t n_pl, const int *support, const int *against, size_t *order)
{
    const size_t o0 = order[0];
    size_t tied = 1;
    while (tied < res->n_placements && support[order[tied]] == support[o0] &&
           (against[order[tied]] > 0) == (against[o0] > 0))
        tied++;
    signed char *hint = opt->base_hint && tied >= 2 ? malloc(n_pl + 1) : NULL;
    if (!hint)
        return;
    for (size_t i = 0; i < n_pl; i++) {
        hint[i] = pl[i].seen ? 0 : opt->base_hint(opt->base_seen_ctx, first_model, pl[i].pos, pl[i].facing);
        if (debug_on())
            fprintf(stderr, "rear hint of model %zu: (%.1f, %.1f) %d\n", first_model, pl[i].pos.x, pl[i].pos.y,
                    hint[i]);
    }
    size_t best = 0;
    int top = hint_score(&res->placements[o0], n_models, pl, hint, n_pl);
    for (size_t t = 1; t < tied; t++) {
        const int s = hint_score(&res->placements[order[t]], n_models, pl, hint, n_pl);
        if (debug_on())
            fprintf(stderr, "rear tie of model %zu: %s hint %d against %s %d\n", first_model,
                    res->placements[order[t]].label, s, res->placements[o0].label, top);
        if (s > top)
            top = s, best = t;
    }
    free(hint);
    /* Only the first moves: the rest keep their order (what rules_robust judges as the other places). */
    const size_t pick = order[best];
    for (size_t t = best; t > 0; t--)
        order[t] = order[t - 1];
    order[0] = pick;
}

double vis_units_rear_spread(const vis_formation_result *res, size_t allowed, size_t k)
{
    double spread = 0;
    const vis_formation_place *p0 = &res->placements[0].models[k];
    for (size_t a = 1; a < allowed && a < res->n_placements && p0->placed; a++) {
        const vis_formation_place *q = &res->placements[a].models[k];
        if (q->placed)
            spread = fmax(spread, base_v2_dist(q->pos, p0->pos));
    }
    return spread;
}

int vis_units_rear_settle(const vis_units_options *opt, size_t first_model, size_t n_models,
                          vis_formation_result *res, size_t *allowed)
{
    if (allowed)
        *allowed = res->n_placements;
    if (!opt || (!opt->base_seen && !opt->base_at) || res->n_placements < 2 || res->grid.ranks < 2 ||
        res->grid.rear_models >= res->grid.files)
        return 0;
    const size_t n = res->n_placements;
    place *pl = malloc((n * n_models + 1) * sizeof *pl);
    int *support = malloc(2 * n * sizeof *support);
    size_t *order = malloc(n * sizeof *order);
    vis_formation_placement *copy = malloc(n * sizeof *copy);
    int rc = -1;
    if (!pl || !support || !order || !copy)
        goto out;
    int *against = support + n;
    size_t n_pl = 0, n_seen = 0;
    for (size_t a = 0; a < n; a++)
        for (size_t k = 0; k < n_models; k++) {
            const vis_formation_place *q = &res->placements[a].models[k];
            if (!is_rear(res, q) || find_place(pl, n_pl, q->pos) >= 0)
                continue;
            pl[n_pl] = (place){q->pos, q->facing, false, 0, q->fit_mm};
            look(opt, first_model, &pl[n_pl]);
            if (debug_on())
                fprintf(stderr, "rear place of model %zu: (%.1f, %.1f) seen %d off %.2f mm fit %.2f\n", first_model,
                        pl[n_pl].pos.x, pl[n_pl].pos.y, pl[n_pl].seen, pl[n_pl].off_mm, pl[n_pl].fit_mm);
            n_seen += pl[n_pl++].seen;
        }
    rc = 0;
    if (n_seen == 0)
        goto out;
    score(res, n_models, pl, n_pl, support, against);
    if (debug_on())
        for (size_t a = 0; a < n; a++)
            fprintf(stderr, "rear placement of model %zu: %s support %d against %d\n", first_model,
                    res->placements[a].label, support[a], against[a]);
    reorder(res, support, against, order);
    break_tie(opt, first_model, n_models, res, pl, n_pl, support, against, order);
    memcpy(copy, res->placements, n * sizeof *copy);
    for (size_t i = 0; i < n; i++)
        res->placements[i] = copy[order[i]];
    rc = order[0] != 0;
    if (allowed)
        for (*allowed = 0; *allowed < n && against[order[*allowed]] == 0; (*allowed)++)
            ;
out:
    free(pl);
    free(support);
    free(order);
    free(copy);
    return rc;
}

size_t vis_units_rear_locate(const vis_units_options *opt, size_t first_model, size_t n_models,
                             const vis_formation_result *res, vis_formation_model *fm, bool *located)
{
    memset(located, 0, n_models * sizeof *located);
    if (!opt || !opt->base_at || res->n_placements == 0)
        return 0;
    const vis_formation_placement *p0 = &res->placements[0];
    bool loose = false;
    for (size_t k = 0; k < n_models && !loose; k++)
        loose = fm[k].evidence == VIS_FORMATION_NONE && p0->models[k].placed &&
                p0->models[k].fit_mm > VIS_UNITS_LOOSE_FIT_MM;
    if (!loose)
        return 0;
    size_t n = 0;
    for (size_t k = 0; k < n_models; k++) {
        const vis_formation_place *q = &p0->models[k];
        base_vec2 at;
        /* An incomplete rear rank's places differ between the placements: vis_units_rear_settle looks at those. */
        if (fm[k].evidence != VIS_FORMATION_NONE || !q->placed || (res->n_placements > 1 && is_rear(res, q)) ||
            !opt->base_at(opt->base_seen_ctx, first_model + k, q->pos, q->facing, &at))
            continue;
        fm[k].evidence = VIS_FORMATION_ROUGH, fm[k].pos = at, fm[k].facing = q->facing;
        located[k] = true;
        n++;
    }
    return n;
}
