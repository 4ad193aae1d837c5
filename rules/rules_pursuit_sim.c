/* The table as the Pursuit sees it: roles, boxes, gaps, sweeps (seed 003). */
#include "rules_pursuit_sim.h"
#include "rules_arcs.h"

#include <string.h>

bool pu_in_list(const char *id, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] && strcmp(list[i], id) == 0)
            return true;
    return false;
}

const rules_pursuer *pu_pursuer_of(const rules_pursuit_input *in, const char *id)
{
    for (size_t i = 0; i < in->n_pursuers; i++)
        if (strcmp(in->pursuers[i].unit_id, id) == 0)
            return &in->pursuers[i];
    return NULL;
}

const char *pu_combat_of(const rules_snapshot *s, const rules_pursuit_input *in)
{
    if (in->combat_id && in->combat_id[0])
        return in->combat_id;
    const rules_unit *first = in->n_pursuers ? rules_snapshot_find_unit(s, in->pursuers[0].unit_id) : NULL;
    return first ? first->combat : "";
}

int pu_fled_from_combat(const rules_pursuit_input *in, const char *combat_id, const rules_unit *o)
{
    if (pu_in_list(o->id, in->fled, in->n_fled))
        return 1;
    if (!(rules_unit_status(o) & RULES_STATUS_FLEEING))
        return 0; /* not Fleeing: an enemy like any other */
    if (!combat_id[0] || !o->combat[0])
        return -1;
    return strcmp(o->combat, combat_id) == 0;
}

size_t rules_pursuit_unknown_fleeing(const rules_snapshot *before, const rules_pursuit_input *in, char *names,
                                     size_t cap)
{
    const char *cid = pu_combat_of(before, in);
    const rules_unit *first = in->n_pursuers ? rules_snapshot_find_unit(before, in->pursuers[0].unit_id) : NULL;
    size_t n = 0, len = 0;
    if (cap)
        names[0] = '\0';
    for (size_t i = 0; first && i < before->n_units; i++) {
        const rules_unit *o = &before->units[i];
        if (strcmp(o->side, first->side) == 0 || pu_fled_from_combat(in, cid, o) >= 0)
            continue;
        if (len < cap) {
            int k = snprintf(names + len, cap - len, "%s%s", n ? ", " : "", o->id);
            len += k > 0 ? (size_t)k : 0;
        }
        n++;
    }
    return n;
}

/* Roles for the pursuer `me`: enemies, obstructions, open terrain (seed 003, first paragraph and 2.2). */
void pu_assign_roles(pu_sim *S, const pu_unit *me)
{
    for (size_t i = 0; i < S->n; i++) {
        pu_unit *o = &S->units[i];
        if (o == me) {
            o->role = PU_OPEN; /* never its own target or obstruction */
            continue;
        }
        bool enemy = strcmp(o->u->side, me->u->side) != 0;
        if (enemy) {
            int fled = pu_fled_from_combat(S->in, S->combat_id, o->u);
            if (fled < 0)
                fled = S->in->unknown_fleeing == RULES_PURSUIT_UNKNOWN_OBSTRUCTION;
            o->role = fled ? PU_OBSTRUCTION : PU_ENEMY;
        } else {
            bool in_combat = o->pursuer || pu_in_list(o->u->id, S->in->combat, S->in->n_combat) ||
                             (S->combat_id[0] && strcmp(o->u->combat, S->combat_id) == 0);
            o->role = in_combat ? PU_OPEN : PU_OBSTRUCTION;
        }
    }
}

base_obb pu_box_at(const pu_unit *me, rules_pose p)
{
    const base_obb *b = &me->f.boundary;
    return (base_obb){base_v2_sub(p.front_centre, base_v2_scale(base_v2_dir(p.heading), b->depth / 2)), p.heading,
                       b->width, b->depth};
}

void pu_front_edge(const pu_unit *me, rules_pose p, base_vec2 *a, base_vec2 *b)
{
    base_vec2 right = base_v2_dir(p.heading - BASE_PI / 2);
    *a = base_v2_sub(p.front_centre, base_v2_scale(right, me->f.boundary.width / 2));
    *b = base_v2_add(p.front_centre, base_v2_scale(right, me->f.boundary.width / 2));
}

rules_pose pu_pose_of(const base_obb *box)
{
    return (rules_pose){base_obb_front_centre(box), box->heading};
}

/* The segment ab reaches into `box` deeper than `tol` (touching does not count). */
bool pu_seg_hits_box(base_vec2 a, base_vec2 b, const base_obb *box, double tol)
{
    base_obb in = *box;
    in.width = fmax(0.0, in.width - 2 * tol);
    in.depth = fmax(0.0, in.depth - 2 * tol);
    base_vec2 k[4], seg[2] = {a, b};
    base_obb_corners(&in, k);
    return base_poly_overlap(seg, 2, k, 4);
}

bool pu_seg_hits_poly(base_vec2 a, base_vec2 b, const base_vec2 *poly, size_t n)
{
    base_vec2 seg[2] = {a, b};
    return base_poly_overlap(seg, 2, poly, n);
}

bool pu_front_off_board(const pu_sim *S, base_vec2 a, base_vec2 b)
{
    const double W = S->s->board_width, D = S->s->board_depth, e = 1e-9;
    base_vec2 p[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (p[i].x < -e || p[i].y < -e || p[i].x > W + e || p[i].y > D + e)
            return true;
    return false;
}

double pu_box_gap(const base_obb *a, const base_obb *b)
{
    return base_obb_dist(a, b);
}

double pu_box_poly_gap(const base_obb *a, const base_vec2 *poly, size_t n)
{
    base_vec2 k[4];
    base_obb_corners(a, k);
    return base_poly_dist(k, 4, poly, n);
}

double pu_radius_of(const base_obb *b)
{
    return 0.5 * sqrt(b->width * b->width + b->depth * b->depth);
}

/*
 * Smallest gap from `box` to other units (all of them, or only the
 * obstructions and `extra`) and impassable terrain, skipping `skip`. Gaps of
 * `need` or more are not computed exactly: anything whose bounding circle is
 * that far is skipped, and the result is then at least `need`.
 */
double pu_gap_below(const pu_sim *S, const pu_unit *me, const base_obb *box, const pu_unit *skip,
                        bool obstructions_only, const pu_unit *extra, double need)
{
    double g = need, r = pu_radius_of(box);
    for (size_t i = 0; i < S->n; i++) {
        const pu_unit *o = &S->units[i];
        if (o == me || o == skip || o->gone)
            continue;
        if (obstructions_only && o->role != PU_OBSTRUCTION && o != extra)
            continue;
        if (base_v2_dist(box->centre, o->box.centre) - r - pu_radius_of(&o->box) >= g)
            continue;
        g = fmin(g, pu_box_gap(box, &o->box));
    }
    for (size_t i = 0; i < S->s->n_terrain; i++) {
        const rules_terrain *t = &S->s->terrain[i];
        if (t->kind != RULES_TERRAIN_IMPASSABLE || t->n_points == 0)
            continue;
        base_vec2 c = {0, 0};
        for (size_t k = 0; k < t->n_points; k++)
            c = base_v2_add(c, t->points[k]);
        c = base_v2_scale(c, 1.0 / t->n_points);
        double tr = 0;
        for (size_t k = 0; k < t->n_points; k++)
            tr = fmax(tr, base_v2_dist(c, t->points[k]));
        if (base_v2_dist(box->centre, c) - r - tr >= g)
            continue;
        g = fmin(g, pu_box_poly_gap(box, t->points, t->n_points));
    }
    return g;
}

/* Step 3: no contact with units other than the target, Unit Spacing to every unit and impassable terrain. */
bool pu_legal_position(const pu_sim *S, const pu_unit *me, const base_obb *box, const pu_unit *target)
{
    return pu_gap_below(S, me, box, target, false, NULL, S->spacing) >= S->spacing - 1e-6;
}

/* Model centres of `me` carried rigidly from its start pose to pose `p`. */
void pu_carry(const pu_unit *me, rules_pose p, base_vec2 *out)
{
    rules_pose p0 = pu_pose_of(&me->f.boundary);
    for (size_t j = 0; j < me->u->n_models; j++) {
        base_vec2 rel = base_v2_rot(base_v2_sub(me->u->models[j].pos, p0.front_centre), p.heading - p0.heading);
        out[j] = base_v2_add(p.front_centre, rel);
    }
}

/* The Facing of `target` the pursuer is located in (centre of its Front Facing), decided before moving. */
unsigned pu_located_facing(const pu_unit *me, const pu_unit *target)
{
    unsigned arcs = rules_obb_arcs_of(&target->box, base_obb_front_centre(&me->box), 1e-6);
    static const unsigned order[4] = {RULES_ARC_FRONT, RULES_ARC_LEFT, RULES_ARC_RIGHT, RULES_ARC_REAR};
    for (int i = 0; i < 4; i++)
        if (arcs & order[i])
            return order[i];
    return RULES_ARC_FRONT;
}

/* ---- step 2 geometry ---------------------------------------------------------- */

/* Distance the Front Facing (a..b) can move along `dir` before touching the polygon; INFINITY if never. */
double pu_sweep_to_poly(base_vec2 a, base_vec2 b, base_vec2 dir, const base_vec2 *poly, size_t n)
{
    double best = INFINITY;
    base_vec2 seg = base_v2_sub(b, a);
    double len = base_v2_len(seg);
    base_vec2 across = base_v2_scale(seg, 1.0 / len);
    /* polygon vertices meeting the moving segment */
    for (size_t i = 0; i < n; i++) {
        base_vec2 r = base_v2_sub(poly[i], a);
        double u = base_v2_dot(r, across), t = base_v2_dot(r, dir);
        if (u >= -1e-9 && u <= len + 1e-9 && t >= -1e-9)
            best = fmin(best, fmax(0.0, t));
    }
    /* the segment's ends meeting polygon edges: ray p + t dir against edge q0..q1 */
    base_vec2 ends[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++) {
            base_vec2 q0 = poly[i], q1 = poly[(i + 1) % n], qe = base_v2_sub(q1, q0);
            double den = base_v2_cross(dir, qe);
            if (fabs(den) < 1e-12)
                continue;
            base_vec2 w = base_v2_sub(q0, ends[k]);
            double t = base_v2_cross(w, qe) / den, s = base_v2_cross(w, dir) / den;
            if (t >= -1e-9 && s >= -1e-9 && s <= 1 + 1e-9)
                best = fmin(best, fmax(0.0, t));
        }
    return best;
}

double pu_sweep_to_box(base_vec2 a, base_vec2 b, base_vec2 dir, const base_obb *box)
{
    base_vec2 k[4];
    base_obb_corners(box, k);
    return pu_sweep_to_poly(a, b, dir, k, 4);
}

double pu_sweep_to_edge(const pu_sim *S, base_vec2 a, base_vec2 b, base_vec2 dir)
{
    const double W = S->s->board_width, D = S->s->board_depth;
    double best = INFINITY;
    base_vec2 ends[2] = {a, b};
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
