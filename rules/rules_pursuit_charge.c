/* A Pursuit Charge: the Pursuing unit placed in base contact with its target (seed 003, 1 and 2.2). */
#include "rules_pursuit_sim.h"

#include <stdlib.h>
#include <string.h>

#include "rules_contact.h"

static rules_unit shadow(const rules_unit *u, rules_model *models, const base_vec2 *pos, double heading0, double turn)
{
    rules_unit s = *u;
    s.models = models;
    for (size_t j = 0; j < u->n_models; j++) {
        models[j] = u->models[j];
        models[j].pos = pos[j];
        models[j].facing = base_angle_wrap(heading0 + turn + (u->models[j].facing - heading0));
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

/* ---- the Charge Move ---------------------------------------------------------- */

/* How far the centre of the Front moves over a wheel of `w` (left > 0) begun at heading h, front W wide. */
static base_vec2 wheel_shift(double h, double w, double W)
{
    double side = w > 0 ? 1.0 : -1.0;
    return base_v2_scale(base_v2_sub(base_v2_dir(h + BASE_PI / 2), base_v2_dir(h + w + BASE_PI / 2)), side * W / 2);
}

/* The distance of forward, at most one wheel, forward from s to q (each forward >= 0); INFINITY if none. */
static double one_wheel(const rules_ruleset *rs, double W, rules_pose s, rules_pose q)
{
    double w = base_angle_wrap(q.heading - s.heading);
    if (fabs(w) > rs->charge_max_wheel_rad + 1e-9)
        return INFINITY;
    base_vec2 v = base_v2_sub(q.front_centre, s.front_centre);
    if (fabs(w) > 1e-9)
        v = base_v2_sub(v, wheel_shift(s.heading, w, W));
    base_vec2 h1 = base_v2_dir(s.heading), h2 = base_v2_dir(q.heading);
    double det = base_v2_cross(h1, h2), a, b;
    if (fabs(det) < 1e-9) { /* no turn: straight ahead, within half a millimetre across */
        if (fabs(base_v2_cross(h1, v)) > 0.5)
            return INFINITY;
        a = base_v2_dot(v, h1);
        b = 0;
    } else {
        a = base_v2_cross(v, h2) / det;
        b = base_v2_cross(h1, v) / det;
    }
    if (a < -1e-6 || b < -1e-6)
        return INFINITY;
    return fmax(a, 0) + rules_path_wheel_cost(w, W, rs) + fmax(b, 0);
}

/*
 * Move Chargers (seed 003, 2.2: "following all the normal Move Chargers
 * rules"; glossary [A]): forward, one wheel of at most charge_max_wheel,
 * forward, until the Front touches the Facing, then aligned by turning about
 * the point of contact. So the aligned placement `p` is reached when some
 * pose q = p turned about one of its front corners by beta (the other corner
 * swung back from the Facing; beta = 0: arriving aligned) is one wheel's
 * distance within `range` from `from`. beta is scanned every degree up to
 * 90 and refined about the best by golden section.
 */
static bool charge_reaches(const rules_ruleset *rs, double W, rules_pose from, rules_pose p, double range)
{
    if (one_wheel(rs, W, from, p) <= range + 1e-6)
        return true;
    base_vec2 left = base_v2_dir(p.heading + BASE_PI / 2);
    for (int corner = 0; corner < 2; corner++) {
        /* about the left front corner the unit arrives turned right (beta < 0), about the right one left */
        base_vec2 k = base_v2_add(p.front_centre, base_v2_scale(left, corner ? -W / 2 : W / 2));
        double sgn = corner ? 1.0 : -1.0, best = INFINITY, best_b = 0;
        for (int d = 1; d <= 90; d++) {
            double beta = sgn * base_deg_to_rad(d);
            rules_pose q = {base_v2_add(k, base_v2_rot(base_v2_sub(p.front_centre, k), beta)), p.heading + beta};
            double c = one_wheel(rs, W, from, q);
            if (c < best)
                best = c, best_b = d;
        }
        if (best <= range + 1e-6)
            return true;
        if (!isfinite(best))
            continue;
        double lo = fmax(best_b - 1, 0), hi = fmin(best_b + 1, 90);
        const double g = 0.6180339887498949;
        for (int it = 0; it < 40; it++) {
            double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
            rules_pose q1 = {base_v2_add(k, base_v2_rot(base_v2_sub(p.front_centre, k), sgn * base_deg_to_rad(x1))),
                             p.heading + sgn * base_deg_to_rad(x1)};
            rules_pose q2 = {base_v2_add(k, base_v2_rot(base_v2_sub(p.front_centre, k), sgn * base_deg_to_rad(x2))),
                             p.heading + sgn * base_deg_to_rad(x2)};
            double c1 = one_wheel(rs, W, from, q1), c2 = one_wheel(rs, W, from, q2);
            if (fmin(c1, c2) <= range + 1e-6)
                return true;
            if (c1 < c2)
                hi = x2;
            else
                lo = x1;
        }
    }
    return false;
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

/* The Facing a unit charges: its edge from a along the unit vector e, L long. */
typedef struct facing_line {
    base_vec2 a, e;
    double L;
} facing_line;

/* Arriving straight on from `from`, a front corner touches the Facing first
 * and the unit aligns about it: the offsets along the Facing that put either
 * front corner there (at most 4, into cand; returns how many). */
static size_t arrival_offsets(const facing_line *fl, const rules_pose *from, double W, double *cand, size_t room)
{
    size_t n = 0;
    base_vec2 fwd = base_v2_dir(from->heading), lft = base_v2_dir(from->heading + BASE_PI / 2);
    for (int c = -1; c <= 1 && n + 2 <= room; c += 2) {
        base_vec2 corner = base_v2_add(from->front_centre, base_v2_scale(lft, c * W / 2));
        double den = base_v2_cross(fwd, fl->e);
        if (fabs(den) < 1e-12)
            continue;
        double along = base_v2_cross(base_v2_sub(fl->a, corner), fl->e) / den; /* corner + along fwd on the line */
        if (along < 0)
            continue;
        double tk = base_v2_dot(base_v2_sub(base_v2_add(corner, base_v2_scale(fwd, along)), fl->a), fl->e);
        cand[n++] = tk - W / 2;
        cand[n++] = tk + W / 2;
    }
    return n;
}

/* Candidate offsets along the Facing: the pursuer's model edges meeting the
 * target's base corners, ref, the middle, and (from given) the arrival
 * offsets. Returns their count (at most cap). */
static size_t contact_offsets(const pu_unit *me, const pu_unit *target, const facing_line *fl, base_vec2 ref,
                              const rules_pose *from, double *cand, size_t cap)
{
    const double W = me->f.boundary.width;
    size_t n_cand = 0;
    for (size_t j = 0; j < target->u->n_models; j++) {
        base_obb base = rules_model_base(target->u, &target->u->models[j]);
        base.centre = target->pos[j];
        base_vec2 k[4];
        base_obb_corners(&base, k);
        for (int q = 0; q < 4; q++) {
            double t = base_v2_dot(base_v2_sub(k[q], fl->a), fl->e);
            for (int f = 0; f <= me->f.files && n_cand + 2 < cap; f++) {
                double edge = -W / 2 + f * me->f.pitch_across;
                cand[n_cand++] = t - edge;
            }
        }
    }
    cand[n_cand++] = base_v2_dot(base_v2_sub(ref, fl->a), fl->e);
    cand[n_cand++] = fl->L / 2;
    if (from)
        n_cand += arrival_offsets(fl, from, W, cand + n_cand, cap - n_cand);
    return n_cand;
}

/* Room at `box`: no overlap with another unit (touching is fine when
 * charging); *extra counts the other enemy units it would touch (Maximising
 * Contact's first priority is to touch as few as possible). */
static bool room_among_units(const pu_sim *S, const pu_unit *me, const pu_unit *target, const base_obb *box,
                             size_t *extra)
{
    *extra = 0;
    for (size_t i = 0; i < S->n; i++) {
        const pu_unit *o = &S->units[i];
        if (o == me || o == target || o->gone)
            continue;
        base_obb shrunk = o->box;
        shrunk.width = fmax(0.0, shrunk.width - 2 * S->tol);
        shrunk.depth = fmax(0.0, shrunk.depth - 2 * S->tol);
        if (base_obb_dist(box, &shrunk) <= 0)
            return false;
        if (o->role == PU_ENEMY && base_obb_dist(box, &o->box) <= S->tol)
            (*extra)++;
    }
    return true;
}

static bool clear_of_impassable(const pu_sim *S, const base_obb *box)
{
    for (size_t i = 0; i < S->s->n_terrain; i++) {
        const rules_terrain *t = &S->s->terrain[i];
        if (t->kind == RULES_TERRAIN_IMPASSABLE && pu_box_poly_gap(box, t->points, t->n_points) <= 0)
            return false;
    }
    return true;
}

/* Whether a placement (extra other enemies touched, eng models engaged, cd from ref) is no better than best. */
static bool no_better(const pu_placement *best, size_t extra, size_t eng, double cd)
{
    return best->ok && (extra > best->extra_enemies ||
                        (extra == best->extra_enemies &&
                         (eng < best->engaged || (eng == best->engaged && cd >= best->centre_dist))));
}

/*
 * Front Facing in base contact with `target`'s `facing`, aligned, touching
 * as few other enemy units as possible, then maximising engaged models, then
 * keeping the centre closest to `ref`; not overlapping any other unit or
 * impassable terrain. When `from`/`range` are given, the position must be
 * reachable as a Charge Move within `range` (charge_reaches).
 */
pu_placement pu_place_in_contact(const pu_sim *S, const pu_unit *me, const pu_unit *target, unsigned facing,
                                  base_vec2 ref, const rules_pose *from, double range)
{
    pu_placement best = {0};
    facing_line fl;
    base_vec2 b;
    rules_contact_facing_edge(&target->box, facing, &fl.a, &b);
    fl.e = base_v2_sub(b, fl.a);
    fl.L = base_v2_len(fl.e);
    if (fl.L <= 0)
        return best;
    fl.e = base_v2_scale(fl.e, 1.0 / fl.L);
    base_vec2 inward = base_v2_sub(target->box.centre, base_v2_scale(base_v2_add(fl.a, b), 0.5));
    inward = base_v2_sub(inward, base_v2_scale(fl.e, base_v2_dot(inward, fl.e))); /* normal to the facing */
    double heading = atan2(inward.y, inward.x);
    const double W = me->f.boundary.width;
    const size_t nm = me->u->n_models, nt = target->u->n_models;
    base_vec2 *pos = malloc((nm ? nm : 1) * sizeof *pos);
    rules_model *mbuf = malloc((nm + nt + 1) * sizeof *mbuf);
    size_t cap = 4 * nt * (size_t)(me->f.files + 1) + 12;
    double *cand = malloc(cap * sizeof *cand);
    if (!pos || !mbuf || !cand)
        goto done;
    size_t n_cand = contact_offsets(me, target, &fl, ref, from, cand, cap);
    rules_unit tu = current_unit(target, mbuf + nm);
    for (size_t c = 0; c < n_cand; c++) {
        double s = fmin(fmax(cand[c], -W / 2), fl.L + W / 2); /* keep some overlap with the facing */
        rules_pose p = {base_v2_add(fl.a, base_v2_scale(fl.e, s)), heading};
        base_obb box = pu_box_at(me, p);
        double cd = base_v2_dist(box.centre, ref);
        pu_carry(me, p, pos);
        rules_unit mu = shadow(me->u, mbuf, pos, me->f.heading, heading - me->f.heading);
        size_t eng = engaged_between(&mu, &tu, S->tol), extra;
        if (eng == 0 || !room_among_units(S, me, target, &box, &extra) || no_better(&best, extra, eng, cd) ||
            !clear_of_impassable(S, &box))
            continue;
        if (from && !charge_reaches(&S->s->ruleset, W, *from, p, range))
            continue;
        best = (pu_placement){true, p, eng, cd, extra};
    }
done:
    free(pos);
    free(mbuf);
    free(cand);
    return best;
}
