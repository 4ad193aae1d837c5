#include "vis_units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Least-squares slope of y on x; NAN when x does not vary. */
static double slope(const double *x, const double *y, size_t n)
{
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++)
        mx += x[i], my += y[i];
    mx /= n, my /= n;
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++)
        sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
    return sxx > 0.5 ? sxy / sxx : NAN;
}

/*
 * Fits the unit's formation to its seen models: the roster's slot for each
 * model, a common facing, pitches, and the front-left slot's position.
 */
static void fit_formation(const vis_roster *r, const vis_roster_unit *u, const vis_seen_model *seen, bool rough,
                          rules_formation *f)
{
    memset(f, 0, sizeof *f);
    size_t n = 0;
    double sc = 0, ss = 0;
    double *buf = malloc(6 * u->n_models * sizeof *buf);
    if (!buf)
        return;
    double *fi = buf, *rk = buf + u->n_models, *lu = buf + 2 * u->n_models, *lv = buf + 3 * u->n_models,
           *ox = buf + 4 * u->n_models, *oy = buf + 5 * u->n_models;
    for (size_t k = 0; k < u->n_models; k++) {
        const vis_seen_model *s = &seen[u->first_model + k];
        if (!(rough ? s->rough : s->seen))
            continue;
        sc += cos(s->facing), ss += sin(s->facing);
    }
    const double heading = atan2(ss, sc);
    const rules_frame f0 = {rules_v2(0, 0), heading};
    for (size_t k = 0; k < u->n_models; k++) {
        const vis_seen_model *s = &seen[u->first_model + k];
        if (!(rough ? s->rough : s->seen))
            continue;
        const vis_roster_model *m = &r->models[u->first_model + k];
        rules_vec2 q = rules_frame_to_local(f0, s->pos);
        fi[n] = m->file, rk[n] = m->rank, lu[n] = q.x, lv[n] = q.y;
        n++;
    }
    /* Measured pitch when two files (ranks) are seen and it is plausible:
     * bases touch or leave a small gap, never overlap by much. */
    double pa = slope(fi, lu, n), pd = -slope(rk, lv, n);
    if (!(pa > 0.9 * u->base_width && pa < 1.3 * u->base_width))
        pa = u->base_width;
    if (!(pd > 0.9 * u->base_depth && pd < 1.3 * u->base_depth))
        pd = u->base_depth;
    /* Origin (front-left slot): the median over seen models resists one moved model. */
    for (size_t i = 0; i < n; i++) {
        ox[i] = lu[i] - fi[i] * pa;
        oy[i] = lv[i] + rk[i] * pd;
    }
    rules_vec2 origin_local = rules_v2(median(ox, n), median(oy, n));
    f->heading = heading;
    f->pitch_across = pa;
    f->pitch_along = pd;
    f->frame.heading = heading;
    f->frame.origin = rules_frame_to_board(f0, origin_local);
    f->files = u->files;
    free(buf);
}

/* The rigid motion (rotation about the origin, then translation) taking prior to current positions. */
static bool rigid_from_prior(const vis_roster *r, const vis_roster_unit *u, const vis_seen_model *seen,
                             const rules_snapshot *prior, double *rot, rules_vec2 *shift)
{
    rules_vec2 a[256], b[256];
    double fa[256], fb[256];
    size_t n = 0;
    for (size_t k = 0; k < u->n_models && n < 256; k++) {
        const vis_seen_model *s = &seen[u->first_model + k];
        const rules_model *pm = rules_snapshot_find_model(prior, r->models[u->first_model + k].id, NULL);
        if (!s->seen || !pm)
            continue;
        a[n] = pm->pos, b[n] = s->pos, fa[n] = pm->facing, fb[n] = s->facing;
        n++;
    }
    if (n == 0)
        return false;
    /* Rotation: from facings (each tag measures it well) averaged as unit vectors. */
    double sc = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        sc += cos(fb[i] - fa[i]), ss += sin(fb[i] - fa[i]);
    *rot = atan2(ss, sc);
    rules_vec2 ma = {0, 0}, mb = {0, 0};
    for (size_t i = 0; i < n; i++)
        ma = rules_v2_add(ma, a[i]), mb = rules_v2_add(mb, b[i]);
    ma = rules_v2_scale(ma, 1.0 / n), mb = rules_v2_scale(mb, 1.0 / n);
    *shift = rules_v2_sub(mb, rules_v2_rot(ma, *rot));
    return true;
}

int vis_units_build(const vis_roster *r, const vis_seen_model *seen, const rules_snapshot *prior,
                    rules_snapshot **out, vis_report *rep, rules_error *err)
{
    rules_snapshot *s = vis_roster_new_snapshot(r);
    if (!s)
        return rules_error_set(err, "out of memory");
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const vis_roster_unit *ru = &r->units[ui];
        rules_unit *u = &s->units[ui];
        size_t nseen = 0, nrough = 0;
        for (size_t k = 0; k < ru->n_models; k++) {
            nseen += seen[ru->first_model + k].seen;
            nrough += seen[ru->first_model + k].rough;
        }
        double rot = 0;
        rules_vec2 shift = {0, 0};
        bool have_motion = prior && nseen > 0 && rigid_from_prior(r, ru, seen, prior, &rot, &shift);
        rules_formation form;
        if (nseen > 0 || nrough > 0)
            fit_formation(r, ru, seen, nseen == 0, &form);
        for (size_t k = 0; k < ru->n_models; k++) {
            const vis_roster_model *rm = &r->models[ru->first_model + k];
            const vis_seen_model *sm = &seen[ru->first_model + k];
            const rules_model *pm = prior ? rules_snapshot_find_model(prior, rm->id, NULL) : NULL;
            rules_vec2 pos;
            double facing;
            const char *how;
            if (sm->seen) {
                pos = sm->pos, facing = sm->facing, how = NULL;
            } else if (pm && have_motion) {
                pos = rules_v2_add(rules_v2_rot(pm->pos, rot), shift);
                facing = rules_angle_wrap(pm->facing + rot);
                how = "moved with its unit from the prior snapshot";
            } else if (nseen > 0) {
                pos = rules_formation_slot_position(&form, rm->file, rm->rank, 0);
                facing = form.heading;
                how = "placed in its unit's fitted formation";
            } else if (nrough > 0 && !pm) {
                pos = rules_formation_slot_position(&form, rm->file, rm->rank, 0);
                facing = form.heading;
                how = "placed in a formation fitted to partly hidden tags";
            } else if (pm) {
                pos = pm->pos, facing = pm->facing;
                how = "kept at its prior position (no unit-mate seen)";
            } else {
                rep->models_missing++;
                vis_report_add(rep, VIS_ISSUE_MISSING, rm->tag_id, rm->id, NULL,
                               "model %s (tag %d) not seen and no unit-mate seen: left out", rm->id, rm->tag_id);
                continue;
            }
            rules_model *m = rules_unit_add_model(u, rm->id, pos, facing);
            if (!m) {
                rules_snapshot_free(s);
                return rules_error_set(err, "out of memory");
            }
            vis_roster_model_apply(rm, m);
            if (how) {
                m->inferred = true;
                rep->models_inferred++;
                vis_report_add(rep, VIS_ISSUE_INFERRED, rm->tag_id, rm->id, NULL, "model %s (tag %d) not seen: %s",
                               rm->id, rm->tag_id, how);
            } else {
                rep->models_seen++;
            }
        }
    }
    /* A unit with no model at all cannot be judged; it is reported above and left out. */
    size_t w = 0;
    for (size_t i = 0; i < s->n_units; i++) {
        if (s->units[i].n_models == 0) {
            free(s->units[i].models);
            continue;
        }
        s->units[w++] = s->units[i];
    }
    s->n_units = w;
    *out = s;
    return 0;
}
