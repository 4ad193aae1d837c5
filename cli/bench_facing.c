#include "bench_facing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"

static void push(double **v, size_t *n, size_t *cap, double x)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 256;
        double *g = realloc(*v, c * sizeof *g);
        if (!g)
            return; /* a figure short of one sample rather than none */
        *v = g, *cap = c;
    }
    (*v)[(*n)++] = x;
}

static double err_deg(double got, double want) { return fabs(base_rad_to_deg(base_angle_wrap(got - want))); }

/* A unit's heading as the rules take it: its fitted formation's (all its models together). */
static bool unit_heading(const rules_unit *u, double *h)
{
    rules_formation f;
    if (!u || u->n_models == 0 || rules_formation_fit(u, NULL, &f, NULL) < 0)
        return false;
    *h = f.heading;
    return true;
}

void bf_facing_add(bf_facing *f, const rules_snapshot *truth_snap, const ds_truth *truth,
                   const rules_snapshot *detected)
{
    for (size_t i = 0; i < truth->n_models; i++) {
        const ds_truth_model *tm = &truth->models[i];
        if (tm->unit >= truth_snap->n_units || tm->model >= truth_snap->units[tm->unit].n_models)
            continue;
        const ds_truth_tag *tt = tm->tag >= 0 && (size_t)tm->tag < truth->n_tags ? &truth->tags[tm->tag] : NULL;
        if (tt && !tt->inside)
            continue;
        const rules_unit *tu = &truth_snap->units[tm->unit];
        const rules_model *want = &tu->models[tm->model];
        const rules_model *got = detected ? rules_snapshot_find_model(detected, want->id, NULL) : NULL;
        const bool placed = got && base_v2_dist(got->pos, want->pos) <= 5.0;
        if (placed && got->evidence != RULES_EVIDENCE_INFERRED)
            push(&f->tag_deg, &f->n_tag, &f->cap_tag, err_deg(got->facing, want->facing));
        if (tu->n_models == 1) {
            f->single++, f->single_placed += placed;
            f->single_free += !tm->hand_hidden, f->single_free_placed += placed && !tm->hand_hidden;
        }
    }
    for (size_t u = 0; detected && u < truth_snap->n_units; u++) {
        double hw, hg;
        if (unit_heading(&truth_snap->units[u], &hw) &&
            unit_heading(rules_snapshot_find_unit(detected, truth_snap->units[u].id), &hg))
            push(&f->unit_deg, &f->n_unit, &f->cap_unit, err_deg(hg, hw));
    }
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-quantile (nearest rank) of v[0..n), sorting v; NAN when n is 0. */
static double quantile(double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_d);
    size_t k = (size_t)ceil(p * (double)n);
    return v[k == 0 ? 0 : k > n ? n - 1 : k - 1];
}

void bf_facing_print(FILE *out, const char *label, const bf_facing *f)
{
    fprintf(out,
            "%s: facing of the %zu models placed from their own tag p99 %.2f deg (max %.2f); a unit's facing "
            "(its fitted formation, %zu units) p99 %.2f deg (max %.2f); units of one model placed %zu/%zu "
            "(no hand over it %zu/%zu)\n",
            label, f->n_tag, quantile(f->tag_deg, f->n_tag, 0.99), quantile(f->tag_deg, f->n_tag, 1.0), f->n_unit,
            quantile(f->unit_deg, f->n_unit, 0.99), quantile(f->unit_deg, f->n_unit, 1.0), f->single_placed,
            f->single, f->single_free_placed, f->single_free);
}

void bf_facing_clear(bf_facing *f)
{
    free(f->tag_deg);
    free(f->unit_deg);
    memset(f, 0, sizeof *f);
}
