#include "ds_score.h"
#include "ds_math.h"
#include "rules_relief.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ds_score_init(ds_score *s) { memset(s, 0, sizeof *s); }

void ds_score_clear(ds_score *s)
{
    if (!s)
        return;
    free(s->err_mm);
    free(s->err_deg);
    free(s->seen_mm);
    memset(s, 0, sizeof *s);
}

static int reserve(ds_score *s, size_t more)
{
    if (s->n_err + more <= s->cap && s->n_seen + more <= s->cap)
        return 0;
    size_t cap = (s->cap + more) * 2;
    double *a = realloc(s->err_mm, cap * sizeof *a);
    if (a)
        s->err_mm = a;
    double *b = realloc(s->err_deg, cap * sizeof *b);
    if (b)
        s->err_deg = b;
    double *c = realloc(s->seen_mm, cap * sizeof *c);
    if (c)
        s->seen_mm = c;
    if (!a || !b || !c)
        return -1;
    s->cap = cap;
    return 0;
}

/* Does an alternative placement of the model's unit put it within 5 mm of where it truly stands? */
static bool alternative_holds(const rules_snapshot *detected, const rules_model *want)
{
    rules_unit *u = NULL;
    if (!rules_snapshot_find_model(detected, want->id, &u) || !u)
        return false;
    for (size_t a = 0; a < u->n_alternatives; a++)
        for (size_t k = 0; k < u->alternatives[a].n_models; k++)
            if (strcmp(u->alternatives[a].models[k].id, want->id) == 0 &&
                base_v2_dist(u->alternatives[a].models[k].pos, want->pos) <= DS_SCORE_PLACED_MM)
                return true;
    return false;
}

int ds_score_models(ds_score *s, const rules_snapshot *truth_snap, const ds_truth *truth,
                    const rules_snapshot *detected)
{
    return ds_score_models_on(s, truth_snap, truth, detected, DS_SCORE_ALL);
}

int ds_score_models_on(ds_score *s, const rules_snapshot *truth_snap, const ds_truth *truth,
                       const rules_snapshot *detected, ds_score_ground ground)
{
    if (reserve(s, truth->n_models) < 0)
        return -1;
    for (size_t i = 0; i < truth->n_models; i++) {
        const ds_truth_model *tm = &truth->models[i];
        if (tm->unit >= truth_snap->n_units || tm->model >= truth_snap->units[tm->unit].n_models)
            continue;
        const ds_truth_tag *tt = tm->tag >= 0 && (size_t)tm->tag < truth->n_tags ? &truth->tags[tm->tag] : NULL;
        if (tt && !tt->inside)
            continue;  /* out of view: nobody can place it from this frame */
        const rules_model *want = &truth_snap->units[tm->unit].models[tm->model];
        const bool raised = rules_relief_height(truth_snap->terrain, truth_snap->n_terrain, want->pos, NULL) > 0;
        if ((ground == DS_SCORE_RAISED && !raised) || (ground == DS_SCORE_FLAT && raised))
            continue;
        const rules_model *got = detected ? rules_snapshot_find_model(detected, want->id, NULL) : NULL;
        const int hand = tm->hand_hidden != 0;
        s->models++;
        s->hand_models += hand;
        s->free_models += !hand;
        if (!got) {
            s->unplaced++;
            continue;
        }
        const double e = base_v2_dist(got->pos, want->pos);
        if (e > DS_SCORE_PLACED_MM && got->inferred && alternative_holds(detected, want)) {
            s->among_alternatives++;
            continue;
        }
        if (e > DS_SCORE_PLACED_MM) {
            s->wrong++;
            s->hand_wrong += hand;
            continue;
        }
        s->placed5++;
        s->hand_placed5 += hand;
        s->free_placed5 += !hand;
        s->err_mm[s->n_err] = e;
        s->err_deg[s->n_err++] = fabs(base_rad_to_deg(base_angle_wrap(got->facing - want->facing)));
        if (got->inferred) {
            s->inferred5++;
        } else {
            s->seen5++;
            s->seen_mm[s->n_seen++] = e;
        }
    }
    return 0;
}

void ds_score_tags(ds_score *s, const ds_truth *truth, const int *ids, const double (*centres)[2], size_t n)
{
    for (size_t i = 0; i < truth->n_tags; i++) {
        const ds_truth_tag *tt = &truth->tags[i];
        if (ds_truth_tag_visible(tt) < DS_SCORE_VISIBLE)
            continue;
        s->tags90++;
        s->tags_full += tt->fully_visible != 0;
        const double tol = fmax(3, 0.1 * tt->edge_px);
        for (size_t k = 0; k < n; k++)
            if (ids[k] == tt->id && ds_hypot(centres[k][0] - tt->centre[0], centres[k][1] - tt->centre[1]) <= tol) {
                s->tags90_read++;
                s->tags_full_read += tt->fully_visible != 0;
                break;
            }
    }
    for (size_t k = 0; k < n; k++) {
        int ok = 0;
        for (size_t i = 0; i < truth->n_tags && !ok; i++) {
            const ds_truth_tag *tt = &truth->tags[i];
            ok = tt->id == ids[k] &&
                 ds_hypot(centres[k][0] - tt->centre[0], centres[k][1] - tt->centre[1]) <= fmax(3, 0.1 * tt->edge_px);
        }
        s->reads++;
        s->wrong_reads += !ok;
    }
}

double ds_score_pct(size_t a, size_t b) { return b ? 100.0 * (double)a / (double)b : 0; }

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-quantile (nearest rank) of v[0..n); NAN when n is 0. Sorts a copy. */
static double quantile(const double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double *c = malloc(n * sizeof *c);
    if (!c)
        return NAN;
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_d);
    size_t k = (size_t)ceil(p * (double)n);
    double q = c[k == 0 ? 0 : k > n ? n - 1 : k - 1];
    free(c);
    return q;
}

double ds_score_p99_mm(const ds_score *s) { return quantile(s->err_mm, s->n_err, 0.99); }
double ds_score_median_mm(const ds_score *s) { return quantile(s->err_mm, s->n_err, 0.5); }
double ds_score_max_mm(const ds_score *s) { return quantile(s->err_mm, s->n_err, 1.0); }
double ds_score_seen_p99_mm(const ds_score *s) { return quantile(s->seen_mm, s->n_seen, 0.99); }
double ds_score_facing_p99_deg(const ds_score *s) { return quantile(s->err_deg, s->n_err, 0.99); }

void ds_score_print(FILE *out, const char *label, const ds_score *s)
{
    fprintf(out,
            "%s: placed within 5 mm %.1f%% of all %zu models, %.1f%% of the %zu no hand hides; wrong ids %zu "
            "(%zu under a hand); inferred off but held by an alternative %zu; unplaced %zu; p99 %.2f mm (seen %.2f "
            "mm), facing p99 %.2f deg",
            label, ds_score_pct(s->placed5, s->models), s->models, ds_score_pct(s->free_placed5, s->free_models),
            s->free_models, s->wrong, s->hand_wrong, s->among_alternatives, s->unplaced, ds_score_p99_mm(s), ds_score_seen_p99_mm(s),
            ds_score_facing_p99_deg(s));
    if (s->tags90 > 0)
        fprintf(out, "; tags >=90%% visible read %zu/%zu", s->tags90_read, s->tags90);
    fputc('\n', out);
}
