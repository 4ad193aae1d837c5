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

/* What one unit's Pursuit Move knows as it goes through the steps. */
typedef struct pu_move {
    pu_sim *S;
    pu_unit *me;
    const rules_pursuer *pu;
    const unsigned *facing_of;
    rules_pursuit_prediction *pr;
    rules_pose start;                 /* where it stood */
    double turn;                      /* the whole pivot towards the pursued */
    rules_pose piv;                   /* after the whole pivot */
    base_vec2 fa, fb;                 /* its front edge there */
    const pu_unit *as_obstruction;    /* an enemy that could not be charged */
} pu_move;

static void record_charge(pu_move *m, const pu_unit *target, const pu_placement *p)
{
    rules_pursuit_prediction *pr = m->pr;
    pr->outcome = RULES_PURSUIT_CHARGE;
    pr->end = p->pose;
    snprintf(pr->target, sizeof pr->target, "%s", target->u->id);
    pr->target_facing = m->facing_of[target - m->S->units];
    pr->engaged_models = p->engaged;
    finish(m->me, pr);
}

/* Step 1: an enemy the pivoted front edge touches is charged where it stands
 * (the most engaged models, then the nearest); one without room, or any enemy
 * after a post-combat reform, becomes an obstruction. True when charged. */
static bool charge_on_pivot(pu_move *m)
{
    const pu_sim *S = m->S;
    pu_placement best = {0};
    const pu_unit *best_t = NULL;
    for (size_t i = 0; i < S->n; i++) {
        const pu_unit *o = &S->units[i];
        if (o == m->me || o->role != PU_ENEMY || o->gone || !pu_seg_hits_box(m->fa, m->fb, &o->box, S->tol))
            continue;
        if (m->pu->post_combat_reform) {
            m->as_obstruction = o;
            continue;
        }
        pu_placement p = pu_place_in_contact(m->S, m->me, o, m->facing_of[i], m->me->f.boundary.centre, NULL, 0);
        if (p.ok && (!best.ok || p.engaged > best.engaged ||
                     (p.engaged == best.engaged && p.centre_dist < best.centre_dist))) {
            best = p;
            best_t = o;
        } else if (!p.ok) {
            m->as_obstruction = o; /* not enough room: an obstruction instead */
        }
    }
    if (!best.ok)
        return false;
    m->pr->pivoted = best.pose;
    record_charge(m, best_t, &best);
    m->pr->forward_mm = 0;
    return true;
}

/* Step 1: whether the pivoted front edge crosses an obstruction or impassable terrain. */
static bool pivot_is_blocked(const pu_move *m)
{
    const pu_sim *S = m->S;
    bool blocked = false;
    for (size_t i = 0; i < S->n && !blocked; i++) {
        const pu_unit *o = &S->units[i];
        if (o != m->me && !o->gone && (o->role == PU_OBSTRUCTION || o == m->as_obstruction))
            blocked = pu_seg_hits_box(m->fa, m->fb, &o->box, S->tol);
    }
    for (size_t i = 0; i < S->s->n_terrain && !blocked; i++) {
        const rules_terrain *t = &S->s->terrain[i];
        blocked = t->kind == RULES_TERRAIN_IMPASSABLE && pu_seg_hits_poly(m->fa, m->fb, t->points, t->n_points);
    }
    return blocked;
}

/* Step 1, blocked: pivot only as far as Unit Spacing allows (or the gap it
 * started with, if already closer). Conservative advancement: turning by da
 * moves no point of the boundary more than R da, so with a slack of s the
 * next da = s / R cannot skip a contact; then a bisection. */
static void pivot_until_blocked(pu_move *m)
{
    pu_sim *S = m->S;
    pu_unit *me = m->me;
    const double R = pu_radius_of(&me->box), speed = R * fabs(m->turn) + 1e-12;
    double limit = fmin(S->spacing, pu_gap_below(S, me, &me->box, NULL, true, m->as_obstruction, S->spacing)) - 1e-9;
    double good = 0, bad = 1, l = 0;
    for (;;) {
        base_obb b = pu_box_at(me, along(me, m->start, m->turn, 0, l));
        double gap = pu_gap_below(S, me, &b, NULL, true, m->as_obstruction, limit + speed);
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
        double mid = (good + bad) / 2;
        base_obb b = pu_box_at(me, along(me, m->start, m->turn, 0, mid));
        if (pu_gap_below(S, me, &b, NULL, true, m->as_obstruction, limit) < limit)
            bad = mid;
        else
            good = mid;
    }
    rules_pursuit_prediction *pr = m->pr;
    pr->outcome = RULES_PURSUIT_PIVOT_BLOCKED;
    pr->pivot_rad = m->turn * good;
    pr->pivoted = pr->end = along(me, m->start, m->turn, 0, good);
    finish(me, pr);
}

/* Step 2's sweep ahead: the distance to the nearest enemy it may charge
 * (*enemy, or NULL) and to the nearest obstruction or impassable terrain. */
static void sweep_ahead(const pu_move *m, base_vec2 dir, double *d_enemy, const pu_unit **enemy, double *d_obst)
{
    const pu_sim *S = m->S;
    *d_enemy = INFINITY;
    *d_obst = INFINITY;
    *enemy = NULL;
    for (size_t i = 0; i < S->n; i++) {
        const pu_unit *o = &S->units[i];
        if (o == m->me || o->gone || o->role == PU_OPEN)
            continue;
        double d = pu_sweep_to_box(m->fa, m->fb, dir, &o->box);
        if (o->role == PU_ENEMY && o != m->as_obstruction && !m->pu->post_combat_reform) {
            if (d < *d_enemy) {
                *d_enemy = d;
                *enemy = o;
            }
        } else {
            *d_obst = fmin(*d_obst, d);
        }
    }
    for (size_t i = 0; i < S->s->n_terrain; i++) {
        const rules_terrain *t = &S->s->terrain[i];
        if (t->kind == RULES_TERRAIN_IMPASSABLE)
            *d_obst = fmin(*d_obst, pu_sweep_to_poly(m->fa, m->fb, dir, t->points, t->n_points));
    }
}

/* Step 2: the roll ahead. True when it ends the move (off the board, or a
 * Charge); else *move is how far it goes (to an obstruction at most). An
 * enemy that cannot be charged becomes an obstruction and the sweep runs once more. */
static bool move_ahead(pu_move *m, double *move)
{
    rules_pursuit_prediction *pr = m->pr;
    const double D = m->pu->distance_mm;
    base_vec2 dir = base_v2_dir(m->piv.heading);
    double d_edge = pu_sweep_to_edge(m->S, m->fa, m->fb, dir);
    double d_enemy = INFINITY, d_obst = INFINITY;
    const pu_unit *enemy = NULL;
    for (int pass = 0; pass < 2; pass++) {
        sweep_ahead(m, dir, &d_enemy, &enemy, &d_obst);
        double first = fmin(d_edge, fmin(d_enemy, d_obst));
        if (first > D + 1e-6) /* rounding: an obstacle exactly at the roll is reached */
            break;
        if (d_edge <= first) {
            /* 2.1 Board Edge (uppermost when tied) */
            pr->outcome = RULES_PURSUIT_OFF_BOARD;
            pr->end = forward_pose(m->piv, d_edge);
            finish(m->me, pr);
            return true;
        }
        if (enemy && d_enemy <= first) {
            /* 2.2 Enemy: a Charge with the roll as Charge Range */
            rules_pose touch = forward_pose(m->piv, d_enemy);
            pu_placement p = pu_place_in_contact(m->S, m->me, enemy, m->facing_of[enemy - m->S->units],
                                                 pu_box_at(m->me, touch).centre, &m->piv, D);
            if (p.ok) {
                record_charge(m, enemy, &p);
                return true;
            }
            m->as_obstruction = enemy; /* the Charge cannot be completed: an obstruction, go to 2.3 */
            continue;
        }
        break;
    }
    /* 2.3 Obstruction or no obstacle: the roll straight ahead, stopping at an obstruction. */
    *move = fmin(D, d_obst); /* an enemy that could not be charged is in d_obst */
    pr->outcome = RULES_PURSUIT_FORWARD;
    pr->end = forward_pose(m->piv, *move);
    return false;
}

/* Step 3: from an illegal end, back along the move (lambda 2 -> 1), then the
 * pivot (1 -> 0), to the last legal position. Conservative advancement: with
 * a deficiency d below Unit Spacing, no position within d (of travel) is legal. */
static void back_to_legal_position(pu_move *m, double move)
{
    pu_sim *S = m->S;
    pu_unit *me = m->me;
    rules_pursuit_prediction *pr = m->pr;
    pr->step = 3;
    pr->outcome = RULES_PURSUIT_BACKTRACKED;
    const double R = pu_radius_of(&me->box);
    double lam_end = 1 + (move > 0 ? 1 : 0), good = -1, bad = lam_end, l = lam_end;
    for (;;) {
        base_obb b = pu_box_at(me, along(me, m->start, m->turn, move, l));
        double gap = pu_gap_below(S, me, &b, NULL, false, NULL, S->spacing);
        if (gap >= S->spacing - 1e-6) {
            good = l;
            break;
        }
        bad = l;
        if (l <= 0)
            break;
        double speed = l > 1 ? move : R * fabs(m->turn);
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
            double mid = (good + bad) / 2;
            base_obb b = pu_box_at(me, along(me, m->start, m->turn, move, mid));
            if (pu_legal_position(S, me, &b, NULL))
                good = mid;
            else
                bad = mid;
        }
    }
    pr->end = along(me, m->start, m->turn, move, good);
    if (good < 1)
        pr->pivoted = pr->end, pr->pivot_rad = m->turn * good;
}

int pu_predict_one(pu_sim *S, pu_unit *me, const rules_pursuer *pu, const unsigned *facing_of,
                       rules_pursuit_prediction *pr)
{
    pu_assign_roles(S, me);
    pu_move m = {.S = S, .me = me, .pu = pu, .facing_of = facing_of, .pr = pr};
    m.start = pu_pose_of(&me->box);
    m.turn = base_angle_wrap(S->in->pursued_heading - m.start.heading);
    pr->start = m.start;
    pr->pivot_rad = m.turn;
    m.piv = along(me, m.start, m.turn, 0, 1);
    pr->pivoted = m.piv;
    pr->end = m.piv;
    pr->target[0] = '\0';
    pu_front_edge(me, m.piv, &m.fa, &m.fb);

    /* ---- step 1: the pivot ---- */
    pr->step = 1;
    if (pu_front_off_board(S, m.fa, m.fb)) {
        pr->outcome = RULES_PURSUIT_OFF_BOARD;
        finish(me, pr);
        return 0;
    }
    if (charge_on_pivot(&m))
        return 0;
    if (pivot_is_blocked(&m)) {
        pivot_until_blocked(&m);
        return 0;
    }
    /* ---- step 2: forward ahead ---- */
    pr->step = 2;
    double move = 0;
    if (move_ahead(&m, &move))
        return 0;
    /* ---- step 3: a legal position ---- */
    base_obb endbox = pu_box_at(me, pr->end);
    if (!pu_legal_position(S, me, &endbox, NULL))
        back_to_legal_position(&m, move);
    finish(me, pr);
    return 0;
}
