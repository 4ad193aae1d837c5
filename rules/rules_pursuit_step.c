/* One Pursuing unit's Pursuit Move: Pivot, Forward Ahead, Legal Position (seed 003). */
#include "rules_pursuit_sim.h"

#include <string.h>

static rules_pose forward_pose(rules_pose p, double d)
{
    return (rules_pose){base_v2_add(p.front_centre, base_v2_scale(base_v2_dir(p.heading), d)), p.heading};
}

/* Pose at progress lambda: [0,1] the pivot about the centre, [1,2] the move ahead. */
static rules_pose along(const pu_unit *me, rules_pose start, double turn, double forward, double lambda)
{
    base_vec2 c = me->f.boundary.centre;
    double frac = fmin(lambda, 1.0);
    double h = start.heading + turn * frac;
    base_vec2 fc = base_v2_add(c, base_v2_scale(base_v2_dir(h), me->f.boundary.depth / 2));
    rules_pose p = {fc, h};
    if (lambda > 1)
        p = forward_pose(p, forward * (lambda - 1));
    return p;
}

static void finish(const pu_unit *me, rules_pursuit_prediction *pr)
{
    pr->forward_mm = base_v2_dist(pr->pivoted.front_centre, pr->end.front_centre);
    pu_carry(me, pr->end, pr->models);
}

int pu_predict_one(pu_sim *S, pu_unit *me, const rules_pursuer *pu, const unsigned *facing_of,
                       rules_pursuit_prediction *pr)
{
    pu_assign_roles(S, me);
    rules_pose start = pu_pose_of(&me->box);
    double turn = base_angle_wrap(S->in->pursued_heading - start.heading);
    pr->start = start;
    pr->pivot_rad = turn;
    rules_pose piv = along(me, start, turn, 0, 1);
    pr->pivoted = piv;
    pr->end = piv;
    pr->target[0] = '\0';
    const pu_unit *as_obstruction = NULL; /* an enemy that could not be charged */
    base_vec2 fa, fb;
    pu_front_edge(me, piv, &fa, &fb);

    /* ---- step 1 ---- */
    pr->step = 1;
    if (pu_front_off_board(S, fa, fb)) {
        pr->outcome = RULES_PURSUIT_OFF_BOARD;
        finish(me, pr);
        return 0;
    }
    pu_placement best = {0};
    const pu_unit *best_t = NULL;
    for (size_t i = 0; i < S->n; i++) {
        const pu_unit *o = &S->units[i];
        if (o == me || o->role != PU_ENEMY || o->gone || !pu_seg_hits_box(fa, fb, &o->box, S->tol))
            continue;
        if (pu->post_combat_reform) {
            as_obstruction = o;
            continue;
        }
        pu_placement p = pu_place_in_contact(S, me, o, facing_of[i], me->f.boundary.centre, NULL, 0);
        if (p.ok && (!best.ok || p.engaged > best.engaged ||
                     (p.engaged == best.engaged && p.centre_dist < best.centre_dist))) {
            best = p;
            best_t = o;
        } else if (!p.ok) {
            as_obstruction = o; /* not enough room: an obstruction instead */
        }
    }
    if (best.ok) {
        pr->outcome = RULES_PURSUIT_CHARGE;
        pr->end = best.pose;
        pr->pivoted = best.pose;
        snprintf(pr->target, sizeof pr->target, "%s", best_t->u->id);
        pr->target_facing = facing_of[best_t - S->units];
        pr->engaged_models = best.engaged;
        finish(me, pr);
        pr->forward_mm = 0;
        return 0;
    }
    bool blocked = false;
    for (size_t i = 0; i < S->n && !blocked; i++) {
        const pu_unit *o = &S->units[i];
        if (o != me && !o->gone && (o->role == PU_OBSTRUCTION || o == as_obstruction))
            blocked = pu_seg_hits_box(fa, fb, &o->box, S->tol);
    }
    for (size_t i = 0; i < S->s->n_terrain && !blocked; i++) {
        const rules_terrain *t = &S->s->terrain[i];
        blocked = t->kind == RULES_TERRAIN_IMPASSABLE && pu_seg_hits_poly(fa, fb, t->points, t->n_points);
    }
    if (blocked) {
        /* Pivot only as far as Unit Spacing allows (or the gap it started with, if already closer).
         * Conservative advancement: turning by da moves no point of the boundary more than R da, so
         * with a slack of s the next da = s / R cannot skip a contact. */
        const double R = pu_radius_of(&me->box), speed = R * fabs(turn) + 1e-12;
        double limit = fmin(S->spacing, pu_gap_below(S, me, &me->box, NULL, true, as_obstruction, S->spacing)) - 1e-9;
        double good = 0, bad = 1, l = 0;
        for (;;) {
            base_obb b = pu_box_at(me, along(me, start, turn, 0, l));
            double gap = pu_gap_below(S, me, &b, NULL, true, as_obstruction, limit + speed);
            if (gap < limit) {
                bad = l;
                break;
            }
            good = l;
            if (l >= 1)
                break;
            l = fmin(1.0, l + fmax((gap - limit) / speed, 1e-4));
        }
        for (int k = 0; k < 40 && good < 1 && bad - good > 1e-9; k++) {
            double m = (good + bad) / 2;
            base_obb b = pu_box_at(me, along(me, start, turn, 0, m));
            if (pu_gap_below(S, me, &b, NULL, true, as_obstruction, limit) < limit)
                bad = m;
            else
                good = m;
        }
        pr->outcome = RULES_PURSUIT_PIVOT_BLOCKED;
        pr->pivot_rad = turn * good;
        pr->pivoted = pr->end = along(me, start, turn, 0, good);
        finish(me, pr);
        return 0;
    }

    /* ---- step 2 ---- */
    pr->step = 2;
    const double D = pu->distance_mm;
    base_vec2 dir = base_v2_dir(piv.heading);
    double d_edge = pu_sweep_to_edge(S, fa, fb, dir);
    double d_enemy = INFINITY, d_obst = INFINITY;
    const pu_unit *enemy = NULL;
    for (int pass = 0; pass < 2; pass++) {
        d_enemy = INFINITY;
        d_obst = INFINITY;
        enemy = NULL;
        for (size_t i = 0; i < S->n; i++) {
            const pu_unit *o = &S->units[i];
            if (o == me || o->gone || o->role == PU_OPEN)
                continue;
            double d = pu_sweep_to_box(fa, fb, dir, &o->box);
            if (o->role == PU_ENEMY && o != as_obstruction && !pu->post_combat_reform) {
                if (d < d_enemy) {
                    d_enemy = d;
                    enemy = o;
                }
            } else {
                d_obst = fmin(d_obst, d);
            }
        }
        for (size_t i = 0; i < S->s->n_terrain; i++) {
            const rules_terrain *t = &S->s->terrain[i];
            if (t->kind == RULES_TERRAIN_IMPASSABLE)
                d_obst = fmin(d_obst, pu_sweep_to_poly(fa, fb, dir, t->points, t->n_points));
        }
        double first = fmin(d_edge, fmin(d_enemy, d_obst));
        if (first > D + 1e-6) { /* rounding: an obstacle exactly at the roll is reached */
            enemy = NULL;
            break;
        }
        if (d_edge <= first) {
            /* 2.1 Board Edge (uppermost when tied) */
            pr->outcome = RULES_PURSUIT_OFF_BOARD;
            pr->end = forward_pose(piv, d_edge);
            finish(me, pr);
            return 0;
        }
        if (enemy && d_enemy <= first) {
            /* 2.2 Enemy: a Charge with the roll as Charge Range */
            rules_pose touch = forward_pose(piv, d_enemy);
            pu_placement p = pu_place_in_contact(S, me, enemy, facing_of[enemy - S->units], pu_box_at(me, touch).centre, &piv, D);
            if (p.ok) {
                pr->outcome = RULES_PURSUIT_CHARGE;
                pr->end = p.pose;
                snprintf(pr->target, sizeof pr->target, "%s", enemy->u->id);
                pr->target_facing = facing_of[enemy - S->units];
                pr->engaged_models = p.engaged;
                finish(me, pr);
                return 0;
            }
            as_obstruction = enemy; /* the Charge cannot be completed: an obstruction, go to 2.3 */
            continue;
        }
        break;
    }
    /* 2.3 Obstruction or no obstacle: the roll straight ahead, stopping at an obstruction. */
    double move = fmin(D, d_obst); /* an enemy that could not be charged is in d_obst */
    pr->outcome = RULES_PURSUIT_FORWARD;
    pr->end = forward_pose(piv, move);

    /* ---- step 3 ---- */
    base_obb endbox = pu_box_at(me, pr->end);
    if (!pu_legal_position(S, me, &endbox, NULL)) {
        pr->step = 3;
        pr->outcome = RULES_PURSUIT_BACKTRACKED;
        /* Back along the move (lambda 2 -> 1), then the pivot (1 -> 0). Conservative advancement: with
         * a deficiency d below Unit Spacing, no position within d (of travel) is legal. */
        const double R = pu_radius_of(&me->box);
        double lam_end = 1 + (move > 0 ? 1 : 0), good = -1, bad = lam_end, l = lam_end;
        for (;;) {
            base_obb b = pu_box_at(me, along(me, start, turn, move, l));
            double gap = pu_gap_below(S, me, &b, NULL, false, NULL, S->spacing);
            if (gap >= S->spacing - 1e-6) {
                good = l;
                break;
            }
            bad = l;
            if (l <= 0)
                break;
            double speed = l > 1 ? move : R * fabs(turn);
            double step = fmax((S->spacing - gap) / (speed + 1e-12), 1e-5);
            double next = l - step;
            if (l > 1 && next < 1)
                next = 1; /* the pivot part moves at its own speed */
            l = fmax(0.0, next);
        }
        if (good < 0) {
            good = 0; /* never legal: it stays where it started */
        } else {
            for (int k = 0; k < 50 && bad - good > 1e-12; k++) {
                double m = (good + bad) / 2;
                base_obb b = pu_box_at(me, along(me, start, turn, move, m));
                if (pu_legal_position(S, me, &b, NULL))
                    good = m;
                else
                    bad = m;
            }
        }
        pr->end = along(me, start, turn, move, good);
        if (good < 1)
            pr->pivoted = pr->end, pr->pivot_rad = turn * good;
    }
    finish(me, pr);
    return 0;
}
