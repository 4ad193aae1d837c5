#include "rules_pairing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_assign.h"
#include "rules_formation.h"

double rules_pairing_sigma(const rules_pairing_params *o, const rules_model *m)
{
    if (!isnan(m->sigma_mm))
        return m->sigma_mm;
    switch (m->evidence) {
    case RULES_EVIDENCE_ROUGH: return o->sigma_rough_mm;
    case RULES_EVIDENCE_INFERRED: return o->sigma_inferred_mm;
    case RULES_EVIDENCE_SEEN: break;
    }
    return 0;
}

bool rules_pairing_measured(const rules_model *m) { return m->evidence != RULES_EVIDENCE_INFERRED; }

base_vec2 rules_motion_carry(const rules_motion *mo, base_vec2 p)
{
    return base_v2_add(base_v2_rot(p, mo->rot), mo->trans);
}

base_vec2 rules_motion_uncarry(const rules_motion *mo, base_vec2 p)
{
    return base_v2_rot(base_v2_sub(p, mo->trans), -mo->rot);
}

/* The unit's motion from the models measured in both frames (2-D Kabsch); without any, from its two formations. */
void rules_motion_fit(const rules_pairing_params *p, const rules_unit *u0, const rules_unit *u1, rules_motion *mo)
{
    memset(mo, 0, sizeof *mo);
    base_vec2 c0 = {0, 0}, c1 = {0, 0};
    double fc = 0, fs = 0;
    for (size_t j = 0; j < u0->n_models; j++) {
        const rules_model *a = &u0->models[j], *b = rules_unit_find_model(u1, a->id);
        if (!b || !rules_pairing_measured(a) || !rules_pairing_measured(b))
            continue;
        c0 = base_v2_add(c0, a->pos), c1 = base_v2_add(c1, b->pos);
        fc += cos(b->facing - a->facing), fs += sin(b->facing - a->facing);
        mo->n_measured++;
    }
    if (mo->n_measured == 0) {
        rules_formation f0, f1;
        if (rules_formation_fit(u0, NULL, &f0, NULL) < 0 || rules_formation_fit(u1, NULL, &f1, NULL) < 0)
            return;
        mo->rot = base_angle_wrap(f1.heading - f0.heading);
        mo->trans = base_v2_sub(f1.centre, base_v2_rot(f0.centre, mo->rot));
        mo->rigid = f0.files == f1.files && f0.ranks == f1.ranks;
        return;
    }
    c0 = base_v2_scale(c0, 1.0 / mo->n_measured), c1 = base_v2_scale(c1, 1.0 / mo->n_measured);
    double sc = 0, sd = 0;
    for (size_t j = 0; j < u0->n_models; j++) {
        const rules_model *a = &u0->models[j], *b = rules_unit_find_model(u1, a->id);
        if (!b || !rules_pairing_measured(a) || !rules_pairing_measured(b))
            continue;
        base_vec2 da = base_v2_sub(a->pos, c0), db = base_v2_sub(b->pos, c1);
        sc += base_v2_cross(da, db), sd += base_v2_dot(da, db);
    }
    mo->rot = mo->n_measured == 1 ? atan2(fs, fc) : atan2(sc, sd);
    mo->trans = base_v2_sub(c1, base_v2_rot(c0, mo->rot));
    mo->rigid = true;
    for (size_t j = 0; j < u0->n_models && mo->rigid; j++) {
        const rules_model *a = &u0->models[j], *b = rules_unit_find_model(u1, a->id);
        if (!b || !rules_pairing_measured(a) || !rules_pairing_measured(b))
            continue;
        double reach = p->rigid_mm +
                       p->coverage * hypot(rules_pairing_sigma(p, a), rules_pairing_sigma(p, b));
        mo->rigid = base_v2_dist(rules_motion_carry(mo, a->pos), b->pos) <= reach;
    }
}

/*
 * Re-pairs the inferred models of `u` with its inferred places: each takes
 * the place nearest where its counterpart in `other` puts it (through the
 * motion when `through_motion`). `measured_targets_only`: a model inferred
 * in `other` too has no target yet.
 */
static int repair_side(rules_unit *u, const rules_unit *other, bool other_is_after, const rules_motion *mo,
                       bool through_motion, bool measured_targets_only)
{
    size_t n = 0;
    for (size_t j = 0; j < u->n_models; j++)
        n += !rules_pairing_measured(&u->models[j]);
    if (n < 2)
        return 0;
    size_t *idx = malloc(n * (2 * sizeof(size_t) + sizeof(rules_model)) + n * n * sizeof(double));
    if (!idx)
        return -1;
    size_t *col = idx + n;
    rules_model *place = (rules_model *)(col + n);
    double *cost = (double *)(place + n);
    n = 0;
    for (size_t j = 0; j < u->n_models; j++)
        if (!rules_pairing_measured(&u->models[j]))
            place[n] = u->models[j], idx[n++] = j;
    for (size_t i = 0; i < n; i++) {
        const rules_model *om = rules_unit_find_model(other, u->models[idx[i]].id);
        bool target = om && !(measured_targets_only && !rules_pairing_measured(om));
        base_vec2 t = {0, 0};
        if (target)
            t = !through_motion  ? om->pos
                : other_is_after ? rules_motion_uncarry(mo, om->pos)
                                 : rules_motion_carry(mo, om->pos);
        for (size_t j = 0; j < n; j++) {
            double d = target ? base_v2_dist(place[j].pos, t) : 0;
            cost[i * n + j] = d * d;
        }
    }
    int rc = rules_assign_min_cost(cost, n, col);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rules_model *m = &u->models[idx[i]];
        m->pos = place[col[i]].pos, m->facing = place[col[i]].facing, m->sigma_mm = place[col[i]].sigma_mm;
    }
    free(idx);
    return rc;
}

int rules_pairing_pair(rules_unit *w0, rules_unit *w1, const rules_motion *mo, bool through_motion)
{
    if (repair_side(w0, w1, true, mo, through_motion, true) < 0)
        return -1;
    return repair_side(w1, w0, false, mo, through_motion, false);
}

bool rules_pairing_slots_kept(const rules_pairing_params *p, const rules_unit *w0, const rules_unit *w1,
                              const rules_motion *mo)
{
    for (size_t j = 0; j < w0->n_models; j++) {
        const rules_model *a = &w0->models[j], *b = rules_unit_find_model(w1, a->id);
        if (!b || (rules_pairing_measured(a) && rules_pairing_measured(b)))
            continue;
        double reach = p->rigid_mm +
                       p->coverage * hypot(rules_pairing_sigma(p, a), rules_pairing_sigma(p, b));
        if (base_v2_dist(rules_motion_carry(mo, a->pos), b->pos) > reach)
            return false;
    }
    return true;
}

/* The watch's jitter rule (docs/formats.md, "When the table is settled"), with each model's reach. */
bool rules_pairing_still(const rules_pairing_params *p, const rules_unit *w0, const rules_unit *w1,
                         const rules_motion *mo)
{
    if (fabs(mo->rot) > p->jitter_rad)
        return false;
    size_t n = 0;
    for (size_t j = 0; j < w0->n_models; j++) {
        const rules_model *a = &w0->models[j], *b = rules_unit_find_model(w1, a->id);
        if (!b)
            continue;
        double reach = fmax(p->jitter_mm, p->coverage * hypot(rules_pairing_sigma(p, a), rules_pairing_sigma(p, b)));
        if (base_v2_dist(a->pos, b->pos) > reach)
            return false;
        n++;
    }
    return n > 0;
}
