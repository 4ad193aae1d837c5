#include "rules_contact.h"
#include "rules_arcs.h"

#include <string.h>

void rules_contact_facing_edge(const base_obb *box, unsigned facing, base_vec2 *a, base_vec2 *b)
{
    base_vec2 k[4]; /* front-left, rear-left, rear-right, front-right */
    base_obb_corners(box, k);
    switch (facing) {
    case RULES_ARC_LEFT: *a = k[0], *b = k[1]; break;
    case RULES_ARC_REAR: *a = k[1], *b = k[2]; break;
    case RULES_ARC_RIGHT: *a = k[2], *b = k[3]; break;
    default: *a = k[3], *b = k[0]; break;
    }
}

static double point_box_dist(const base_vec2 *k, base_vec2 p)
{
    base_vec2 pt[1] = {p};
    return base_poly_dist(pt, 1, k, 4);
}

/*
 * The distance from a point moving along a segment to a convex polygon is a
 * convex function of the position, so the stretch within `tol` is one
 * interval: find its lowest point, then each end by bisection.
 */
double rules_contact_facing_length(const base_obb *box, unsigned facing, const base_obb *other, double tol)
{
    base_vec2 a, b, k[4];
    rules_contact_facing_edge(box, facing, &a, &b);
    base_obb_corners(other, k);
    base_vec2 d = base_v2_sub(b, a);
    double len = base_v2_len(d);
#define AT(t) point_box_dist(k, base_v2_add(a, base_v2_scale(d, (t))))
    double lo = 0, hi = 1;
    for (int i = 0; i < 60; i++) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (AT(m1) <= AT(m2))
            hi = m2;
        else
            lo = m1;
    }
    double tmin = (lo + hi) / 2;
    if (AT(tmin) > tol)
        return 0;
    double l0 = 0, l1 = tmin; /* first t within tol */
    if (AT(0) > tol) {
        for (int i = 0; i < 50; i++) {
            double m = (l0 + l1) / 2;
            if (AT(m) <= tol)
                l1 = m;
            else
                l0 = m;
        }
    } else {
        l1 = 0;
    }
    double r0 = tmin, r1 = 1; /* last t within tol */
    if (AT(1) > tol) {
        for (int i = 0; i < 50; i++) {
            double m = (r0 + r1) / 2;
            if (AT(m) <= tol)
                r0 = m;
            else
                r1 = m;
        }
    } else {
        r0 = 1;
    }
#undef AT
    return fmax(0.0, (r0 - l1) * len);
}

unsigned rules_contact_facing(const base_obb *box, const base_obb *other, double tol)
{
    if (base_obb_dist(box, other) > tol)
        return 0;
    static const unsigned facings[4] = {RULES_ARC_FRONT, RULES_ARC_LEFT, RULES_ARC_RIGHT, RULES_ARC_REAR};
    unsigned best = 0;
    double best_len = 0;
    for (int i = 0; i < 4; i++) {
        double l = rules_contact_facing_length(box, facings[i], other, tol);
        if (l > best_len + 1e-9) {
            best_len = l;
            best = facings[i];
        }
    }
    /* Only corners meet (the stretch is no longer than the tolerance band): the Arc of the other's centre. */
    if (best_len <= 2 * tol + 1e-9) {
        unsigned arcs = rules_obb_arcs_of(box, other->centre, 0);
        for (int i = 0; i < 4; i++)
            if (arcs & facings[i])
                return facings[i];
    }
    return best ? best : RULES_ARC_FRONT;
}

bool rules_contact_models(const rules_unit *ua, const rules_model *a, const rules_unit *ub, const rules_model *b,
                          double tol)
{
    base_obb ba = rules_model_base(ua, a), bb = rules_model_base(ub, b);
    /* cheap reject: centres farther apart than the two half-diagonals plus the tolerance */
    double reach = 0.5 * hypot(ua->base_width, ua->base_depth) + 0.5 * hypot(ub->base_width, ub->base_depth) + tol;
    if (base_v2_dist(a->pos, b->pos) > reach)
        return false;
    return base_obb_dist(&ba, &bb) <= tol;
}

bool rules_contact_model_unit(const rules_unit *ua, const rules_model *m, const rules_unit *ub, double tol)
{
    for (size_t j = 0; j < ub->n_models; j++)
        if (rules_contact_models(ua, m, ub, &ub->models[j], tol))
            return true;
    return false;
}

bool rules_contact_units(const rules_unit *ua, const rules_unit *ub, double tol)
{
    for (size_t i = 0; i < ua->n_models; i++)
        if (rules_contact_model_unit(ua, &ua->models[i], ub, tol))
            return true;
    return false;
}

size_t rules_contact_count_engaged(const rules_snapshot *s, const rules_unit *u, double tol)
{
    size_t n = 0;
    for (size_t i = 0; i < u->n_models; i++) {
        for (size_t k = 0; k < s->n_units; k++) {
            const rules_unit *e = &s->units[k];
            if (strcmp(e->id, u->id) == 0 || strcmp(e->side, u->side) == 0)
                continue;
            if (rules_contact_model_unit(u, &u->models[i], e, tol)) {
                n++;
                break;
            }
        }
    }
    return n;
}

bool rules_contact_overlap_models(const rules_unit *ua, const rules_model *a, const rules_unit *ub,
                                  const rules_model *b, double tol)
{
    /* Shrink both bases by half the tolerance on every side: only a deeper overlap remains. */
    base_obb ba = rules_model_base(ua, a), bb = rules_model_base(ub, b);
    ba.width = fmax(0.0, ba.width - tol);
    ba.depth = fmax(0.0, ba.depth - tol);
    bb.width = fmax(0.0, bb.width - tol);
    bb.depth = fmax(0.0, bb.depth - tol);
    if (base_v2_dist(a->pos, b->pos) > 0.5 * (hypot(ba.width, ba.depth) + hypot(bb.width, bb.depth)))
        return false;
    base_vec2 ka[4], kb[4];
    base_obb_corners(&ba, ka);
    base_obb_corners(&bb, kb);
    return base_poly_overlap(ka, 4, kb, 4);
}
