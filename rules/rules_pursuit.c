#include "rules_pursuit.h"

#include <stdlib.h>
#include <string.h>

#include "rules_contact.h"
#include "rules_formation.h"

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

/* ---- the table as the pursuit sees it ------------------------------------ */

typedef enum { ROLE_ENEMY, ROLE_OBSTRUCTION, ROLE_OPEN } role;

typedef struct sim_unit {
    const rules_unit *u;
    rules_formation f;
    rules_obb box;      /* current boundary (moved pursuers: their end position) */
    role role;          /* for the pursuer being moved: set per pursuer */
    bool gone;          /* pursued off the board */
    bool pursuer;
    rules_vec2 *pos;    /* current model centres */
} sim_unit;

typedef struct sim {
    const rules_snapshot *s;
    const rules_pursuit_input *in;
    sim_unit *units;
    size_t n;
    double spacing;     /* Unit Spacing at the end of a move */
    double tol;         /* contact tolerance */
} sim;

static bool in_list(const char *id, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] && strcmp(list[i], id) == 0)
            return true;
    return false;
}

static const rules_pursuer *pursuer_of(const rules_pursuit_input *in, const char *id)
{
    for (size_t i = 0; i < in->n_pursuers; i++)
        if (strcmp(in->pursuers[i].unit_id, id) == 0)
            return &in->pursuers[i];
    return NULL;
}

/* Roles for the pursuer `me`: enemies, obstructions, open terrain (seed 003, first paragraph). */
static void assign_roles(sim *S, const sim_unit *me)
{
    for (size_t i = 0; i < S->n; i++) {
        sim_unit *o = &S->units[i];
        if (o == me) {
            o->role = ROLE_OPEN; /* never its own target or obstruction */
            continue;
        }
        bool enemy = strcmp(o->u->side, me->u->side) != 0;
        if (enemy)
            o->role = rules_unit_status(o->u) & RULES_STATUS_FLEEING ? ROLE_OBSTRUCTION : ROLE_ENEMY;
        else
            o->role = o->pursuer || in_list(o->u->id, S->in->combat, S->in->n_combat) ? ROLE_OPEN : ROLE_OBSTRUCTION;
    }
}

static rules_obb box_at(const sim_unit *me, rules_pose p)
{
    const rules_obb *b = &me->f.boundary;
    return (rules_obb){rules_v2_sub(p.front_centre, rules_v2_scale(rules_v2_dir(p.heading), b->depth / 2)), p.heading,
                       b->width, b->depth};
}

static void front_edge(const sim_unit *me, rules_pose p, rules_vec2 *a, rules_vec2 *b)
{
    rules_vec2 right = rules_v2_dir(p.heading - RULES_PI / 2);
    *a = rules_v2_sub(p.front_centre, rules_v2_scale(right, me->f.boundary.width / 2));
    *b = rules_v2_add(p.front_centre, rules_v2_scale(right, me->f.boundary.width / 2));
}

static rules_pose pose_of(const rules_obb *box)
{
    return (rules_pose){rules_obb_front_centre(box), box->heading};
}

/* The segment ab reaches into `box` deeper than `tol` (touching does not count). */
static bool seg_hits_box(rules_vec2 a, rules_vec2 b, const rules_obb *box, double tol)
{
    rules_obb in = *box;
    in.width = fmax(0.0, in.width - 2 * tol);
    in.depth = fmax(0.0, in.depth - 2 * tol);
    rules_vec2 k[4], seg[2] = {a, b};
    rules_obb_corners(&in, k);
    return rules_poly_overlap(seg, 2, k, 4);
}

static bool seg_hits_poly(rules_vec2 a, rules_vec2 b, const rules_vec2 *poly, size_t n)
{
    rules_vec2 seg[2] = {a, b};
    return rules_poly_overlap(seg, 2, poly, n);
}

static bool front_off_board(const sim *S, rules_vec2 a, rules_vec2 b)
{
    const double W = S->s->board_width, D = S->s->board_depth, e = 1e-9;
    rules_vec2 p[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (p[i].x < -e || p[i].y < -e || p[i].x > W + e || p[i].y > D + e)
            return true;
    return false;
}

static double box_gap(const rules_obb *a, const rules_obb *b)
{
    return rules_obb_dist(a, b);
}

static double box_poly_gap(const rules_obb *a, const rules_vec2 *poly, size_t n)
{
    rules_vec2 k[4];
    rules_obb_corners(a, k);
    return rules_poly_dist(k, 4, poly, n);
}

static double radius_of(const rules_obb *b)
{
    return 0.5 * sqrt(b->width * b->width + b->depth * b->depth);
}

/*
 * Smallest gap from `box` to other units (all of them, or only the
 * obstructions and `extra`) and impassable terrain, skipping `skip`. Gaps of
 * `need` or more are not computed exactly: anything whose bounding circle is
 * that far is skipped, and the result is then at least `need`.
 */
static double gap_below(const sim *S, const sim_unit *me, const rules_obb *box, const sim_unit *skip,
                        bool obstructions_only, const sim_unit *extra, double need)
{
    double g = need, r = radius_of(box);
    for (size_t i = 0; i < S->n; i++) {
        const sim_unit *o = &S->units[i];
        if (o == me || o == skip || o->gone)
            continue;
        if (obstructions_only && o->role != ROLE_OBSTRUCTION && o != extra)
            continue;
        if (rules_v2_dist(box->centre, o->box.centre) - r - radius_of(&o->box) >= g)
            continue;
        g = fmin(g, box_gap(box, &o->box));
    }
    for (size_t i = 0; i < S->s->n_terrain; i++) {
        const rules_terrain *t = &S->s->terrain[i];
        if (t->kind != RULES_TERRAIN_IMPASSABLE || t->n_points == 0)
            continue;
        rules_vec2 c = {0, 0};
        for (size_t k = 0; k < t->n_points; k++)
            c = rules_v2_add(c, t->points[k]);
        c = rules_v2_scale(c, 1.0 / t->n_points);
        double tr = 0;
        for (size_t k = 0; k < t->n_points; k++)
            tr = fmax(tr, rules_v2_dist(c, t->points[k]));
        if (rules_v2_dist(box->centre, c) - r - tr >= g)
            continue;
        g = fmin(g, box_poly_gap(box, t->points, t->n_points));
    }
    return g;
}

/* Step 3: no contact with units other than the target, Unit Spacing to every unit and impassable terrain. */
static bool legal_position(const sim *S, const sim_unit *me, const rules_obb *box, const sim_unit *target)
{
    return gap_below(S, me, box, target, false, NULL, S->spacing) >= S->spacing - 1e-6;
}

/* ---- charge placement ------------------------------------------------------ */

/* Model centres of `me` carried rigidly from its start pose to pose `p`. */
static void carry(const sim_unit *me, rules_pose p, rules_vec2 *out)
{
    rules_pose p0 = pose_of(&me->f.boundary);
    for (size_t j = 0; j < me->u->n_models; j++) {
        rules_vec2 rel = rules_v2_rot(rules_v2_sub(me->u->models[j].pos, p0.front_centre), p.heading - p0.heading);
        out[j] = rules_v2_add(p.front_centre, rel);
    }
}

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

typedef struct placement {
    bool ok;
    rules_pose pose;
    size_t engaged;
    double centre_dist;
} placement;

/* The current target unit with its current model positions. */
static rules_unit current_unit(const sim_unit *o, rules_model *buf)
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
static placement place_in_contact(const sim *S, const sim_unit *me, const sim_unit *target, unsigned facing,
                                  rules_vec2 ref, const rules_pose *from, double range)
{
    placement best = {0};
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
        rules_obb box = box_at(me, p);
        double cd = rules_v2_dist(box.centre, ref);
        carry(me, p, pos);
        rules_unit mu = shadow(me->u, mbuf, pos, me->f.heading, heading - me->f.heading);
        size_t eng = engaged_between(&mu, &tu, S->tol);
        if (eng == 0)
            continue;
        if (best.ok && (eng < best.engaged || (eng == best.engaged && cd >= best.centre_dist)))
            continue;
        /* room: no overlap with other units (touching is fine when charging) or impassable terrain */
        bool room = true;
        for (size_t i = 0; i < S->n && room; i++) {
            const sim_unit *o = &S->units[i];
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
            if (t->kind == RULES_TERRAIN_IMPASSABLE && box_poly_gap(&box, t->points, t->n_points) <= 0)
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
        best = (placement){true, p, eng, cd};
    }
done:
    free(pos);
    free(mbuf);
    free(cand);
    return best;
}

/* The Facing of `target` the pursuer is located in (centre of its Front Facing), decided before moving. */
static unsigned located_facing(const sim_unit *me, const sim_unit *target)
{
    unsigned arcs = rules_obb_arcs_of(&target->box, rules_obb_front_centre(&me->box), 1e-6);
    static const unsigned order[4] = {RULES_ARC_FRONT, RULES_ARC_LEFT, RULES_ARC_RIGHT, RULES_ARC_REAR};
    for (int i = 0; i < 4; i++)
        if (arcs & order[i])
            return order[i];
    return RULES_ARC_FRONT;
}

/* ---- step 2 geometry ---------------------------------------------------------- */

/* Distance the Front Facing (a..b) can move along `dir` before touching the polygon; INFINITY if never. */
static double sweep_to_poly(rules_vec2 a, rules_vec2 b, rules_vec2 dir, const rules_vec2 *poly, size_t n)
{
    double best = INFINITY;
    rules_vec2 seg = rules_v2_sub(b, a);
    double len = rules_v2_len(seg);
    rules_vec2 across = rules_v2_scale(seg, 1.0 / len);
    /* polygon vertices meeting the moving segment */
    for (size_t i = 0; i < n; i++) {
        rules_vec2 r = rules_v2_sub(poly[i], a);
        double u = rules_v2_dot(r, across), t = rules_v2_dot(r, dir);
        if (u >= -1e-9 && u <= len + 1e-9 && t >= -1e-9)
            best = fmin(best, fmax(0.0, t));
    }
    /* the segment's ends meeting polygon edges: ray p + t dir against edge q0..q1 */
    rules_vec2 ends[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++) {
            rules_vec2 q0 = poly[i], q1 = poly[(i + 1) % n], qe = rules_v2_sub(q1, q0);
            double den = rules_v2_cross(dir, qe);
            if (fabs(den) < 1e-12)
                continue;
            rules_vec2 w = rules_v2_sub(q0, ends[k]);
            double t = rules_v2_cross(w, qe) / den, s = rules_v2_cross(w, dir) / den;
            if (t >= -1e-9 && s >= -1e-9 && s <= 1 + 1e-9)
                best = fmin(best, fmax(0.0, t));
        }
    return best;
}

static double sweep_to_box(rules_vec2 a, rules_vec2 b, rules_vec2 dir, const rules_obb *box)
{
    rules_vec2 k[4];
    rules_obb_corners(box, k);
    return sweep_to_poly(a, b, dir, k, 4);
}

static double sweep_to_edge(const sim *S, rules_vec2 a, rules_vec2 b, rules_vec2 dir)
{
    const double W = S->s->board_width, D = S->s->board_depth;
    double best = INFINITY;
    rules_vec2 ends[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        if (dir.x > 1e-12)
            best = fmin(best, (W - ends[k].x) / dir.x);
        if (dir.x < -1e-12)
            best = fmin(best, -ends[k].x / dir.x);
        if (dir.y > 1e-12)
            best = fmin(best, (D - ends[k].y) / dir.y);
        if (dir.y < -1e-12)
            best = fmin(best, -ends[k].y / dir.y);
    }
    return fmax(0.0, best);
}

/* ---- one pursuer ------------------------------------------------------------------ */

static rules_pose forward_pose(rules_pose p, double d)
{
    return (rules_pose){rules_v2_add(p.front_centre, rules_v2_scale(rules_v2_dir(p.heading), d)), p.heading};
}

/* Pose at progress lambda: [0,1] the pivot about the centre, [1,2] the move ahead. */
static rules_pose along(const sim_unit *me, rules_pose start, double turn, double forward, double lambda)
{
    rules_vec2 c = me->f.boundary.centre;
    double frac = fmin(lambda, 1.0);
    double h = start.heading + turn * frac;
    rules_vec2 fc = rules_v2_add(c, rules_v2_scale(rules_v2_dir(h), me->f.boundary.depth / 2));
    rules_pose p = {fc, h};
    if (lambda > 1)
        p = forward_pose(p, forward * (lambda - 1));
    return p;
}

static void finish(const sim_unit *me, rules_pursuit_prediction *pr)
{
    pr->forward_mm = rules_v2_dist(pr->pivoted.front_centre, pr->end.front_centre);
    carry(me, pr->end, pr->models);
}

static int predict_one(sim *S, sim_unit *me, const rules_pursuer *pu, const unsigned *facing_of,
                       rules_pursuit_prediction *pr)
{
    assign_roles(S, me);
    rules_pose start = pose_of(&me->box);
    double turn = rules_angle_wrap(S->in->pursued_heading - start.heading);
    pr->start = start;
    pr->pivot_rad = turn;
    rules_pose piv = along(me, start, turn, 0, 1);
    pr->pivoted = piv;
    pr->end = piv;
    pr->target[0] = '\0';
    const sim_unit *as_obstruction = NULL; /* an enemy that could not be charged */
    rules_vec2 fa, fb;
    front_edge(me, piv, &fa, &fb);

    /* ---- step 1 ---- */
    pr->step = 1;
    if (front_off_board(S, fa, fb)) {
        pr->outcome = RULES_PURSUIT_OFF_BOARD;
        finish(me, pr);
        return 0;
    }
    placement best = {0};
    const sim_unit *best_t = NULL;
    for (size_t i = 0; i < S->n; i++) {
        const sim_unit *o = &S->units[i];
        if (o == me || o->role != ROLE_ENEMY || o->gone || !seg_hits_box(fa, fb, &o->box, S->tol))
            continue;
        if (pu->post_combat_reform) {
            as_obstruction = o;
            continue;
        }
        placement p = place_in_contact(S, me, o, facing_of[i], me->f.boundary.centre, NULL, 0);
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
        const sim_unit *o = &S->units[i];
        if (o != me && !o->gone && (o->role == ROLE_OBSTRUCTION || o == as_obstruction))
            blocked = seg_hits_box(fa, fb, &o->box, S->tol);
    }
    for (size_t i = 0; i < S->s->n_terrain && !blocked; i++) {
        const rules_terrain *t = &S->s->terrain[i];
        blocked = t->kind == RULES_TERRAIN_IMPASSABLE && seg_hits_poly(fa, fb, t->points, t->n_points);
    }
    if (blocked) {
        /* Pivot only as far as Unit Spacing allows (or the gap it started with, if already closer).
         * Conservative advancement: turning by da moves no point of the boundary more than R da, so
         * with a slack of s the next da = s / R cannot skip a contact. */
        const double R = radius_of(&me->box), speed = R * fabs(turn) + 1e-12;
        double limit = fmin(S->spacing, gap_below(S, me, &me->box, NULL, true, as_obstruction, S->spacing)) - 1e-9;
        double good = 0, bad = 1, l = 0;
        for (;;) {
            rules_obb b = box_at(me, along(me, start, turn, 0, l));
            double gap = gap_below(S, me, &b, NULL, true, as_obstruction, limit + speed);
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
            rules_obb b = box_at(me, along(me, start, turn, 0, m));
            if (gap_below(S, me, &b, NULL, true, as_obstruction, limit) < limit)
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
    rules_vec2 dir = rules_v2_dir(piv.heading);
    double d_edge = sweep_to_edge(S, fa, fb, dir);
    double d_enemy = INFINITY, d_obst = INFINITY;
    const sim_unit *enemy = NULL;
    for (int pass = 0; pass < 2; pass++) {
        d_enemy = INFINITY;
        d_obst = INFINITY;
        enemy = NULL;
        for (size_t i = 0; i < S->n; i++) {
            const sim_unit *o = &S->units[i];
            if (o == me || o->gone || o->role == ROLE_OPEN)
                continue;
            double d = sweep_to_box(fa, fb, dir, &o->box);
            if (o->role == ROLE_ENEMY && o != as_obstruction && !pu->post_combat_reform) {
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
                d_obst = fmin(d_obst, sweep_to_poly(fa, fb, dir, t->points, t->n_points));
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
            placement p = place_in_contact(S, me, enemy, facing_of[enemy - S->units], box_at(me, touch).centre, &piv, D);
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
    rules_obb endbox = box_at(me, pr->end);
    if (!legal_position(S, me, &endbox, NULL)) {
        pr->step = 3;
        pr->outcome = RULES_PURSUIT_BACKTRACKED;
        /* Back along the move (lambda 2 -> 1), then the pivot (1 -> 0). Conservative advancement: with
         * a deficiency d below Unit Spacing, no position within d (of travel) is legal. */
        const double R = radius_of(&me->box);
        double lam_end = 1 + (move > 0 ? 1 : 0), good = -1, bad = lam_end, l = lam_end;
        for (;;) {
            rules_obb b = box_at(me, along(me, start, turn, move, l));
            double gap = gap_below(S, me, &b, NULL, false, NULL, S->spacing);
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
                rules_obb b = box_at(me, along(me, start, turn, move, m));
                if (legal_position(S, me, &b, NULL))
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

/* ---- several pursuers -------------------------------------------------------------- */

static void apply(sim_unit *me, const rules_pursuit_prediction *pr)
{
    if (pr->outcome == RULES_PURSUIT_OFF_BOARD) {
        me->gone = true;
        return;
    }
    me->box = box_at(me, pr->end);
    memcpy(me->pos, pr->models, me->u->n_models * sizeof *me->pos);
}

static void restore(sim *S, const rules_vec2 *saved_pos, const rules_obb *saved_box, const bool *saved_gone)
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

int rules_pursuit_predict(const rules_snapshot *before, const rules_pursuit_input *in,
                          rules_pursuit_prediction *out, rules_error *err)
{
    const size_t np = in->n_pursuers;
    sim S = {.s = before, .in = in, .n = before->n_units, .spacing = before->ruleset.unit_spacing_mm,
             .tol = before->ruleset.contact_tolerance_mm};
    for (size_t k = 0; k < np; k++)
        memset(&out[k], 0, sizeof out[k]);
    size_t total_models = 0;
    for (size_t i = 0; i < before->n_units; i++)
        total_models += before->units[i].n_models;
    S.units = calloc(S.n ? S.n : 1, sizeof *S.units);
    rules_vec2 *pos = malloc((total_models ? total_models : 1) * sizeof *pos);
    rules_vec2 *saved_pos = malloc((total_models ? total_models : 1) * sizeof *pos);
    rules_obb *saved_box = calloc(S.n ? S.n : 1, sizeof *saved_box);
    bool *saved_gone = calloc(S.n ? S.n : 1, sizeof *saved_gone);
    unsigned *facing_of = malloc((S.n ? S.n : 1) * np * sizeof *facing_of + 1);
    size_t *idx = malloc((np ? np : 1) * sizeof *idx), *chargers = malloc((np ? np : 1) * sizeof *chargers);
    size_t *best_order = malloc((np ? np : 1) * sizeof *best_order);
    rules_pursuit_prediction *trial = calloc(np ? np : 1, sizeof *trial);
    int rc = 0;
    if (!S.units || !pos || !saved_pos || !saved_box || !saved_gone || !facing_of || !idx || !chargers ||
        !best_order || !trial) {
        rc = rules_error_set(err, "out of memory");
        goto done;
    }
    size_t off = 0;
    for (size_t i = 0; i < S.n; i++) {
        sim_unit *su = &S.units[i];
        su->u = &before->units[i];
        if (rules_formation_fit(su->u, NULL, &su->f, NULL) < 0) {
            rc = rules_error_set(err, "unit %s has no models", su->u->id);
            goto done;
        }
        su->box = su->f.boundary;
        su->pos = pos + off;
        for (size_t j = 0; j < su->u->n_models; j++)
            su->pos[j] = su->u->models[j].pos;
        off += su->u->n_models;
        su->pursuer = pursuer_of(in, su->u->id) != NULL;
    }
    for (size_t k = 0; k < np; k++) {
        const rules_unit *u = rules_snapshot_find_unit(before, in->pursuers[k].unit_id);
        if (!u) {
            rc = rules_error_set(err, "pursuing unit %s is not in the before snapshot", in->pursuers[k].unit_id);
            goto done;
        }
        idx[k] = (size_t)(u - before->units);
        out[k].models = calloc(u->n_models ? u->n_models : 1, sizeof *out[k].models);
        trial[k].models = calloc(u->n_models ? u->n_models : 1, sizeof *trial[k].models);
        if (!out[k].models || !trial[k].models) {
            rc = rules_error_set(err, "out of memory");
            goto done;
        }
        out[k].n_models = trial[k].n_models = u->n_models;
        snprintf(out[k].unit_id, sizeof out[k].unit_id, "%s", u->id);
        snprintf(trial[k].unit_id, sizeof trial[k].unit_id, "%s", u->id);
        /* Facings decided before anything moves: where the pursuer is located relative to each enemy. */
        for (size_t i = 0; i < S.n; i++)
            facing_of[k * S.n + i] = located_facing(&S.units[idx[k]], &S.units[i]);
    }
    for (size_t i = 0; i < S.n; i++) {
        saved_box[i] = S.units[i].box;
        saved_gone[i] = false;
    }
    memcpy(saved_pos, pos, total_models * sizeof *pos);

    /* Which pursuers would Charge, each judged on the untouched table. */
    size_t nc = 0;
    for (size_t k = 0; k < np && np > 1; k++) {
        rules_vec2 *keep = trial[k].models;
        predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &trial[k]);
        trial[k].models = keep;
        if (trial[k].outcome == RULES_PURSUIT_CHARGE)
            chargers[nc++] = k;
    }
    /* Chargers first, in the order that brings most chargers, then most models, into contact. */
    memcpy(best_order, chargers, nc * sizeof *chargers);
    if (nc > 1 && nc <= 5) {
        long best_score = -1;
        do {
            restore(&S, saved_pos, saved_box, saved_gone);
            long in_contact = 0, models = 0;
            for (size_t q = 0; q < nc; q++) {
                size_t k = chargers[q];
                predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &trial[k]);
                if (trial[k].outcome == RULES_PURSUIT_CHARGE) {
                    in_contact++;
                    models += (long)trial[k].engaged_models;
                }
                apply(&S.units[idx[k]], &trial[k]);
            }
            long score = in_contact * 100000 + models;
            if (score > best_score) {
                best_score = score;
                memcpy(best_order, chargers, nc * sizeof *chargers);
            }
        } while (next_perm(chargers, nc));
    }
    restore(&S, saved_pos, saved_box, saved_gone);
    int order = 0;
    for (size_t q = 0; q < nc; q++) {
        size_t k = best_order[q];
        predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &out[k]);
        out[k].order = order++;
        apply(&S.units[idx[k]], &out[k]);
    }
    for (size_t k = 0; k < np; k++) {
        bool done_already = false;
        for (size_t q = 0; q < nc; q++)
            done_already |= best_order[q] == k;
        if (done_already)
            continue;
        predict_one(&S, &S.units[idx[k]], &in->pursuers[k], facing_of + k * S.n, &out[k]);
        out[k].order = order++;
        apply(&S.units[idx[k]], &out[k]);
    }
done:
    for (size_t k = 0; trial && k < np; k++)
        free(trial[k].models);
    free(trial);
    free(S.units);
    free(pos);
    free(saved_pos);
    free(saved_box);
    free(saved_gone);
    free(facing_of);
    free(idx);
    free(chargers);
    free(best_order);
    if (rc < 0)
        for (size_t k = 0; k < np; k++)
            rules_pursuit_prediction_clear(&out[k]);
    return rc;
}

/* ---- comparison with the after snapshot ----------------------------------------------- */

static bool on_board(const rules_snapshot *s, const rules_unit *u)
{
    for (size_t j = 0; j < u->n_models; j++) {
        rules_vec2 p = u->models[j].pos;
        if (p.x >= 0 && p.y >= 0 && p.x <= s->board_width && p.y <= s->board_depth)
            return true;
    }
    return false;
}

static const char *facing_word(unsigned f)
{
    return f == RULES_ARC_FRONT ? "Front" : f == RULES_ARC_REAR ? "Rear" : f == RULES_ARC_LEFT ? "left Flank"
                                                                                               : "right Flank";
}

int rules_pursuit_check(const rules_snapshot *before, const rules_snapshot *after, const rules_pursuit_input *in,
                        const rules_check_options *opt_in, rules_report *out, rules_error *err)
{
    rules_check_options defaults;
    if (!opt_in) {
        rules_check_options_default(&defaults);
        opt_in = &defaults;
    }
    rules_report_begin(out, before, after);
    rules_pursuit_prediction *pred = calloc(in->n_pursuers ? in->n_pursuers : 1, sizeof *pred);
    if (!pred)
        return rules_error_set(err, "out of memory");
    int rc = rules_pursuit_predict(before, in, pred, err);
    for (size_t k = 0; rc == 0 && k < in->n_pursuers; k++) {
        const rules_pursuit_prediction *p = &pred[k];
        const rules_unit *u0 = rules_snapshot_find_unit(before, p->unit_id);
        const rules_unit *u1 = rules_snapshot_find_unit(after, p->unit_id);
        rules_unit_report ur;
        rules_unit_report_init(&ur, p->unit_id, u0->side, RULES_MOVE_PURSUIT, true);
        ur.direction = rules_pursuit_outcome_word(p->outcome);
        ur.rate_mm = in->pursuers[k].distance_mm;
        rules_unit_report_add_measure(&ur, "pursuit_distance", RULES_QTY_LENGTH, in->pursuers[k].distance_mm);
        rules_unit_report_add_measure(&ur, "predicted_pivot", RULES_QTY_ANGLE, p->pivot_rad);
        rules_unit_report_add_measure(&ur, "predicted_forward", RULES_QTY_LENGTH, p->forward_mm);
        rules_unit_report_add_measure(&ur, "order", RULES_QTY_COUNT, p->order);
        switch (p->outcome) {
        case RULES_PURSUIT_OFF_BOARD:
            rules_unit_report_add_note(&ur, "Step %d: the Front Facing reaches the Board Edge; the unit Pursues off "
                                            "the Board.",
                                       p->step);
            break;
        case RULES_PURSUIT_CHARGE:
            rules_unit_report_add_note(&ur, "Step %d: the unit declares a Charge against %s (its %s) and is placed "
                                            "in base contact, %zu models engaged. The Charged unit may not perform "
                                            "Charge Reactions.",
                                       p->step, p->target, facing_word(p->target_facing), p->engaged_models);
            break;
        case RULES_PURSUIT_PIVOT_BLOCKED:
            rules_unit_report_add_note(&ur, "Step 1: an obstruction stops the Pivot after %.1f of %.1f degrees; the "
                                            "unit moves no farther.",
                                       fabs(rules_rad_to_deg(p->pivot_rad)),
                                       fabs(rules_rad_to_deg(rules_angle_wrap(in->pursued_heading - p->start.heading))));
            break;
        case RULES_PURSUIT_FORWARD:
            rules_unit_report_add_note(&ur, "Step 2: the unit Pivots %.1f degrees and moves %.2f\" straight ahead.",
                                       rules_rad_to_deg(p->pivot_rad), rules_mm_to_in(p->forward_mm));
            break;
        case RULES_PURSUIT_BACKTRACKED:
            rules_unit_report_add_note(&ur, "Step 3: the end position breaks Unit Spacing; the move is backtracked "
                                            "to the last legal position (%.2f\" ahead after the Pivot).",
                                       rules_mm_to_in(p->forward_mm));
            break;
        }
        rules_formation f0;
        rules_formation_fit(u0, &opt_in->formation, &f0, NULL);
        ur.centre_before = f0.centre;
        ur.files_before = ur.files_after = f0.files;
        ur.ranks_before = ur.ranks_after = f0.ranks;
        bool should_leave = p->outcome == RULES_PURSUIT_OFF_BOARD;
        bool left = !u1 || !on_board(after, u1);
        if (should_leave && !left)
            rules_unit_report_add_violation(&ur, "PU-OFF-BOARD", RULES_QTY_COUNT, 1, 0,
                                            "The unit should have Pursued off the Board but is still on it.");
        else if (!should_leave && left)
            rules_unit_report_add_violation(&ur, "PU-MISSING", RULES_QTY_COUNT, 0, 1,
                                            "The unit left the table, but its Pursuit Move ends on the board.");
        if (!should_leave && !left) {
            rules_formation f1;
            rules_formation_fit(u1, &opt_in->formation, &f1, NULL);
            ur.centre_after = f1.centre;
            ur.centre_displacement_mm = rules_v2_dist(f0.centre, f1.centre);
            ur.rotation_rad = rules_angle_wrap(f1.heading - f0.heading);
            ur.files_after = f1.files;
            ur.ranks_after = f1.ranks;
            ur.models = calloc(u0->n_models ? u0->n_models : 1, sizeof *ur.models);
            double worst = 0;
            const char *worst_id = NULL;
            rules_violation *v = NULL;
            for (size_t j = 0; ur.models && j < u0->n_models; j++) {
                const rules_model *m1 = rules_unit_find_model(u1, u0->models[j].id);
                rules_vec2 path[3] = {u0->models[j].pos, p->models[j], p->models[j]};
                rules_unit_report_add_model_path(&ur, u0->models[j].id, path, 2,
                                                 rules_v2_dist(path[0], path[1]));
                if (!m1)
                    continue;
                rules_model_move *mm = &ur.models[ur.n_models++];
                snprintf(mm->id, sizeof mm->id, "%s", m1->id);
                double dev = rules_v2_dist(m1->pos, p->models[j]);
                mm->distance_mm = rules_v2_dist(u0->models[j].pos, m1->pos);
                if (dev > worst) {
                    worst = dev;
                    worst_id = m1->id;
                }
            }
            rules_unit_report_add_measure(&ur, "max_deviation", RULES_QTY_LENGTH, worst);
            if (worst > in->tolerance_mm) {
                v = rules_unit_report_add_violation(&ur, "PU-POSITION", RULES_QTY_LENGTH, worst, in->tolerance_mm,
                                                    "The unit is not where its Pursuit Move ends: model %s is %.2f\" "
                                                    "from its predicted position (%s).",
                                                    worst_id, rules_mm_to_in(worst),
                                                    rules_pursuit_outcome_word(p->outcome));
                for (size_t j = 0; v && j < u0->n_models; j++) {
                    const rules_model *m1 = rules_unit_find_model(u1, u0->models[j].id);
                    if (m1 && rules_v2_dist(m1->pos, p->models[j]) > in->tolerance_mm)
                        rules_violation_add_model(v, m1->id);
                }
            }
        }
        if (rules_report_take_unit(out, &ur) < 0) {
            rules_unit_report_clear(&ur);
            rc = rules_error_set(err, "out of memory");
        }
    }
    for (size_t k = 0; k < in->n_pursuers; k++)
        rules_pursuit_prediction_clear(&pred[k]);
    free(pred);
    if (rc < 0)
        rules_report_clear(out);
    return rc;
}
