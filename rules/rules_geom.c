#include "rules_geom.h"

double rules_angle_wrap(double a)
{
    a = fmod(a, 2.0 * RULES_PI);
    if (a <= -RULES_PI)
        a += 2.0 * RULES_PI;
    else if (a > RULES_PI)
        a -= 2.0 * RULES_PI;
    return a;
}

double rules_angle_wrap_2pi(double a)
{
    a = fmod(a, 2.0 * RULES_PI);
    if (a < 0)
        a += 2.0 * RULES_PI;
    /* fmod can return exactly 2*pi after the addition for tiny negative a */
    if (a >= 2.0 * RULES_PI)
        a = 0.0;
    return a;
}

static rules_vec2 right_of(double heading)
{
    return rules_v2(sin(heading), -cos(heading));
}

rules_vec2 rules_frame_to_local(rules_frame f, rules_vec2 p)
{
    rules_vec2 d = rules_v2_sub(p, f.origin);
    return rules_v2(rules_v2_dot(d, right_of(f.heading)), rules_v2_dot(d, rules_v2_dir(f.heading)));
}

rules_vec2 rules_frame_to_board(rules_frame f, rules_vec2 q)
{
    rules_vec2 r = rules_v2_scale(right_of(f.heading), q.x);
    rules_vec2 h = rules_v2_scale(rules_v2_dir(f.heading), q.y);
    return rules_v2_add(f.origin, rules_v2_add(r, h));
}

void rules_obb_corners(const rules_obb *b, rules_vec2 out[4])
{
    rules_frame f = {b->centre, b->heading};
    double hw = b->width / 2, hd = b->depth / 2;
    out[0] = rules_frame_to_board(f, rules_v2(-hw, hd));
    out[1] = rules_frame_to_board(f, rules_v2(-hw, -hd));
    out[2] = rules_frame_to_board(f, rules_v2(hw, -hd));
    out[3] = rules_frame_to_board(f, rules_v2(hw, hd));
}

rules_vec2 rules_obb_front_centre(const rules_obb *b)
{
    return rules_v2_add(b->centre, rules_v2_scale(rules_v2_dir(b->heading), b->depth / 2));
}

double rules_seg_point_dist(rules_vec2 a, rules_vec2 b, rules_vec2 p)
{
    rules_vec2 ab = rules_v2_sub(b, a);
    double len2 = rules_v2_dot(ab, ab);
    double t = len2 > 0 ? rules_v2_dot(rules_v2_sub(p, a), ab) / len2 : 0.0;
    if (t < 0)
        t = 0;
    else if (t > 1)
        t = 1;
    return rules_v2_dist(rules_v2_add(a, rules_v2_scale(ab, t)), p);
}

static int orient(rules_vec2 a, rules_vec2 b, rules_vec2 c)
{
    double v = rules_v2_cross(rules_v2_sub(b, a), rules_v2_sub(c, a));
    return (v > 0) - (v < 0);
}

static bool on_segment(rules_vec2 a, rules_vec2 b, rules_vec2 p)
{
    return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= p.y &&
           p.y <= fmax(a.y, b.y);
}

bool rules_seg_intersect(rules_vec2 a, rules_vec2 b, rules_vec2 c, rules_vec2 d)
{
    int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (o1 != o2 && o3 != o4)
        return true;
    return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
           (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

double rules_seg_seg_dist(rules_vec2 a, rules_vec2 b, rules_vec2 c, rules_vec2 d)
{
    if (rules_seg_intersect(a, b, c, d))
        return 0.0;
    double m = rules_seg_point_dist(a, b, c);
    m = fmin(m, rules_seg_point_dist(a, b, d));
    m = fmin(m, rules_seg_point_dist(c, d, a));
    return fmin(m, rules_seg_point_dist(c, d, b));
}

bool rules_poly_contains(const rules_vec2 *poly, size_t n, rules_vec2 p)
{
    bool inside = false;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        if (rules_seg_point_dist(poly[j], poly[i], p) < 1e-9)
            return true;
        if ((poly[i].y > p.y) != (poly[j].y > p.y)) {
            double x = poly[j].x + (p.y - poly[j].y) * (poly[i].x - poly[j].x) / (poly[i].y - poly[j].y);
            if (p.x < x)
                inside = !inside;
        }
    }
    return inside;
}

bool rules_poly_overlap(const rules_vec2 *a, size_t na, const rules_vec2 *b, size_t nb)
{
    if (na == 0 || nb == 0)
        return false;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (rules_seg_intersect(a[i], a[(i + 1) % na], b[j], b[(j + 1) % nb]))
                return true;
    /* No edges cross: either disjoint or one inside the other. */
    return rules_poly_contains(a, na, b[0]) || rules_poly_contains(b, nb, a[0]);
}

double rules_poly_dist(const rules_vec2 *a, size_t na, const rules_vec2 *b, size_t nb)
{
    if (rules_poly_overlap(a, na, b, nb))
        return 0.0;
    double m = INFINITY;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            m = fmin(m, rules_seg_seg_dist(a[i], a[(i + 1) % na], b[j], b[(j + 1) % nb]));
    return m;
}

double rules_poly_area(const rules_vec2 *poly, size_t n)
{
    double s = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++)
        s += rules_v2_cross(poly[j], poly[i]);
    return s / 2;
}

/* True when some edge normal of `p` separates the two convex quads (strictly). */
static bool separated_by_edges_of(const rules_vec2 p[4], const rules_vec2 q[4])
{
    for (int i = 0; i < 4; i++) {
        rules_vec2 e = rules_v2_sub(p[(i + 1) % 4], p[i]);
        rules_vec2 n = rules_v2(-e.y, e.x);
        double pmin = INFINITY, pmax = -INFINITY, qmin = INFINITY, qmax = -INFINITY;
        for (int k = 0; k < 4; k++) {
            double a = rules_v2_dot(n, p[k]), b = rules_v2_dot(n, q[k]);
            pmin = fmin(pmin, a);
            pmax = fmax(pmax, a);
            qmin = fmin(qmin, b);
            qmax = fmax(qmax, b);
        }
        if (qmin > pmax || pmin > qmax)
            return true;
    }
    return false;
}

double rules_obb_dist(const rules_obb *a, const rules_obb *b)
{
    /* Rectangles are convex: separating axes decide overlap, and the gap between
     * two disjoint convex polygons is always reached at a vertex of one of them. */
    rules_vec2 ca[4], cb[4];
    rules_obb_corners(a, ca);
    rules_obb_corners(b, cb);
    if (!separated_by_edges_of(ca, cb) && !separated_by_edges_of(cb, ca))
        return 0.0;
    double m = INFINITY;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            m = fmin(m, rules_seg_point_dist(ca[i], ca[(i + 1) % 4], cb[j]));
            m = fmin(m, rules_seg_point_dist(cb[j], cb[(j + 1) % 4], ca[i]));
        }
    return m;
}

unsigned rules_obb_arcs_of(const rules_obb *box, rules_vec2 p, double tol)
{
    rules_vec2 q = rules_frame_to_local((rules_frame){box->centre, box->heading}, p);
    double hw = box->width / 2, hd = box->depth / 2;
    /* Distances beyond each facing (negative when inside that facing's line). */
    double front = q.y - hd, rear = -hd - q.y, right = q.x - hw, left = -hw - q.x;
    if (front < -tol && rear < -tol && right < -tol && left < -tol)
        return 0;
    double side = fmax(0.0, fmax(left, right)), along = fmax(0.0, fmax(front, rear));
    unsigned arcs = 0;
    /* An arc's region: beyond its facing at least as far as beyond either neighbour. */
    if (front >= -tol && front + tol >= side)
        arcs |= RULES_ARC_FRONT;
    if (rear >= -tol && rear + tol >= side)
        arcs |= RULES_ARC_REAR;
    if (left >= -tol && left + tol >= along)
        arcs |= RULES_ARC_LEFT;
    if (right >= -tol && right + tol >= along)
        arcs |= RULES_ARC_RIGHT;
    return arcs;
}

const char *rules_arc_name(unsigned arc)
{
    switch (arc) {
    case RULES_ARC_FRONT: return "front";
    case RULES_ARC_REAR: return "rear";
    case RULES_ARC_LEFT: return "left flank";
    case RULES_ARC_RIGHT: return "right flank";
    default: return "?";
    }
}
