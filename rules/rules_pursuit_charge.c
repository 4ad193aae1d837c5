/* A Pursuit Charge: the Pursuing unit placed in base contact with its target (seed 003, 1 and 2.2). */
#include "rules_pursuit_sim.h"

#include <stdlib.h>
#include <string.h>

#include "rules_contact.h"

static rules_unit shadow(const rules_unit *u, rules_model *models, const rules_vec2 *pos, double heading0, double turn)
{
    rules_unit s = *u;
    s.models = models;
    for (size_t j = 0; j < u->n_models; j++) {
        models[j] = u->models[j];
        models[j].pos = pos[j];
        models[j].facing = rules_angle_wrap(heading0 + turn + (u->models[j].facing - heading0));
    }
    return s;
}

/* Models of both units in contact with each other. */
static size_t engaged_between(const rules_unit *a, const rules_unit *b, double tol)
{
    size_t n = 0;
    for (size_t i = 0; i < a->n_models; i++)
        n += rules_contact_model_unit(a, &a->models[i], b, tol);
    for (size_t j = 0; j < b->n_models; j++)
        n += rules_contact_model_unit(b, &b->models[j], a, tol);
    return n;
}

/* The current target unit with its current model positions. */
static rules_unit current_unit(const pu_unit *o, rules_model *buf)
{
    rules_unit t = *o->u;
    t.models = buf;
    for (size_t j = 0; j < o->u->n_models; j++) {
        buf[j] = o->u->models[j];
        buf[j].pos = o->pos[j];
    }
    return t;
}

/*
 * Front Facing in base contact with `target`'s `facing`, aligned, maximising
 * engaged models, then keeping the centre closest to `ref`; not overlapping
 * any other unit or impassable terrain. When `from`/`range` are given, the
 * position must be reachable by forward moves and wheels within `range`.
 */
pu_placement pu_place_in_contact(const pu_sim *S, const pu_unit *me, const pu_unit *target, unsigned facing,
                                  rules_vec2 ref, const rules_pose *from, double range)
{
    pu_placement best = {0};
    rules_vec2 a, b;
    rules_contact_facing_edge(&target->box, facing, &a, &b);
    rules_vec2 e = rules_v2_sub(b, a);
    double L = rules_v2_len(e);
    if (L <= 0)
        return best;
    e = rules_v2_scale(e, 1.0 / L);
    rules_vec2 inward = rules_v2_sub(target->box.centre, rules_v2_scale(rules_v2_add(a, b), 0.5));
    inward = rules_v2_sub(inward, rules_v2_scale(e, rules_v2_dot(inward, e))); /* normal to the facing */
    double heading = atan2(inward.y, inward.x);
    const double W = me->f.boundary.width;
    const size_t nm = me->u->n_models, nt = target->u->n_models;
    rules_vec2 *pos = malloc((nm ? nm : 1) * sizeof *pos);
    rules_model *mbuf = malloc((nm + nt + 1) * sizeof *mbuf);
    /* candidate offsets: the pursuer's model edges meeting the target's base corners along the facing, and ref */
    size_t cap = 4 * nt * (size_t)(me->f.files + 1) + 8, n_cand = 0;
    double *cand = malloc(cap * sizeof *cand);
    if (!pos || !mbuf || !cand)
        goto done;
    for (size_t j = 0; j < nt; j++) {
        rules_obb base = rules_model_base(target->u, &target->u->models[j]);
        base.centre = target->pos[j];
        rules_vec2 k[4];
        rules_obb_corners(&base, k);
        for (int q = 0; q < 4; q++) {
            double t = rules_v2_dot(rules_v2_sub(k[q], a), e);
            for (int f = 0; f <= me->f.files && n_cand + 2 < cap; f++) {
                double edge = -W / 2 + f * me->f.pitch_across;
                cand[n_cand++] = t - edge;
            }
        }
    }
    cand[n_cand++] = rules_v2_dot(rules_v2_sub(ref, a), e);
    cand[n_cand++] = L / 2;
    rules_unit tu = current_unit(target, mbuf + nm);
    for (size_t c = 0; c < n_cand; c++) {
        double s = fmin(fmax(cand[c], -W / 2), L + W / 2); /* keep some overlap with the facing */
        rules_pose p = {rules_v2_add(a, rules_v2_scale(e, s)), heading};
        rules_obb box = pu_box_at(me, p);
        double cd = rules_v2_dist(box.centre, ref);
        pu_carry(me, p, pos);
        rules_unit mu = shadow(me->u, mbuf, pos, me->f.heading, heading - me->f.heading);
        size_t eng = engaged_between(&mu, &tu, S->tol);
        if (eng == 0)
            continue;
        if (best.ok && (eng < best.engaged || (eng == best.engaged && cd >= best.centre_dist)))
            continue;
        /* room: no overlap with other units (touching is fine when charging) or impassable terrain */
        bool room = true;
        for (size_t i = 0; i < S->n && room; i++) {
            const pu_unit *o = &S->units[i];
            if (o == me || o == target || o->gone)
                continue;
            rules_obb shrunk = o->box;
            shrunk.width = fmax(0.0, shrunk.width - 2 * S->tol);
            shrunk.depth = fmax(0.0, shrunk.depth - 2 * S->tol);
            if (rules_obb_dist(&box, &shrunk) <= 0)
                room = false;
        }
        for (size_t i = 0; i < S->s->n_terrain && room; i++) {
            const rules_terrain *t = &S->s->terrain[i];
            if (t->kind == RULES_TERRAIN_IMPASSABLE && pu_box_poly_gap(&box, t->points, t->n_points) <= 0)
                room = false;
        }
        if (!room)
            continue;
        if (from) {
            rules_path path;
            rules_path_forward_wheels(*from, p, W, &S->s->ruleset, &path);
            if (path.length_mm > range + 1e-6)
                continue;
        }
        best = (pu_placement){true, p, eng, cd};
    }
done:
    free(pos);
    free(mbuf);
    free(cand);
    return best;
}
