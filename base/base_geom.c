#include "base_geom.h"

double base_angle_wrap(double a)
{
    if (a > -BASE_PI && a <= BASE_PI)
        return a; /* the usual case: no fmod */
    a = fmod(a, 2.0 * BASE_PI);
    if (a <= -BASE_PI)
        a += 2.0 * BASE_PI;
    else if (a > BASE_PI)
        a -= 2.0 * BASE_PI;
    return a;
}

double base_angle_wrap_2pi(double a)
{
    if (a >= 0 && a < 2.0 * BASE_PI)
        return a; /* the usual case: no fmod */
    a = fmod(a, 2.0 * BASE_PI);
    if (a < 0)
        a += 2.0 * BASE_PI;
    /* fmod can return exactly 2*pi after the addition for tiny negative a */
    if (a >= 2.0 * BASE_PI)
        a = 0.0;
    return a;
}

/* One sincos per conversion: the frame's right (u) and forward (v) axes are (s, -c) and (c, s). */
base_vec2 base_frame_to_local(base_frame f, base_vec2 p)
{
    double c = cos(f.heading), s = sin(f.heading);
    base_vec2 d = base_v2_sub(p, f.origin);
    return base_v2(d.x * s - d.y * c, d.x * c + d.y * s);
}

base_vec2 base_frame_to_board(base_frame f, base_vec2 q)
{
    double c = cos(f.heading), s = sin(f.heading);
    return base_v2(f.origin.x + q.x * s + q.y * c, f.origin.y - q.x * c + q.y * s);
}

void base_obb_corners(const base_obb *b, base_vec2 out[4])
{
    double c = cos(b->heading), s = sin(b->heading);
    double hw = b->width / 2, hd = b->depth / 2;
    base_vec2 r = base_v2(hw * s, -hw * c), h = base_v2(hd * c, hd * s); /* half right, half forward */
    out[0] = base_v2(b->centre.x - r.x + h.x, b->centre.y - r.y + h.y);
    out[1] = base_v2(b->centre.x - r.x - h.x, b->centre.y - r.y - h.y);
    out[2] = base_v2(b->centre.x + r.x - h.x, b->centre.y + r.y - h.y);
    out[3] = base_v2(b->centre.x + r.x + h.x, b->centre.y + r.y + h.y);
}

base_vec2 base_obb_front_centre(const base_obb *b)
{
    return base_v2_add(b->centre, base_v2_scale(base_v2_dir(b->heading), b->depth / 2));
}

double base_seg_point_dist(base_vec2 a, base_vec2 b, base_vec2 p)
{
    base_vec2 ab = base_v2_sub(b, a);
    double len2 = base_v2_dot(ab, ab);
    double t = len2 > 0 ? base_v2_dot(base_v2_sub(p, a), ab) / len2 : 0.0;
    if (t < 0)
        t = 0;
    else if (t > 1)
        t = 1;
    return base_v2_dist(base_v2_add(a, base_v2_scale(ab, t)), p);
}

static int orient(base_vec2 a, base_vec2 b, base_vec2 c)
{
    double v = base_v2_cross(base_v2_sub(b, a), base_v2_sub(c, a));
    return (v > 0) - (v < 0);
}

static bool on_segment(base_vec2 a, base_vec2 b, base_vec2 p)
{
    return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= p.y &&
           p.y <= fmax(a.y, b.y);
}

bool base_seg_intersect(base_vec2 a, base_vec2 b, base_vec2 c, base_vec2 d)
{
    int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (o1 != o2 && o3 != o4)
        return true;
    return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
           (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

double base_seg_seg_dist(base_vec2 a, base_vec2 b, base_vec2 c, base_vec2 d)
{
    if (base_seg_intersect(a, b, c, d))
        return 0.0;
    double m = base_seg_point_dist(a, b, c);
    m = fmin(m, base_seg_point_dist(a, b, d));
    m = fmin(m, base_seg_point_dist(c, d, a));
    return fmin(m, base_seg_point_dist(c, d, b));
}

bool base_poly_contains(const base_vec2 *poly, size_t n, base_vec2 p)
{
    bool inside = false;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        if (base_seg_point_dist(poly[j], poly[i], p) < 1e-9)
            return true;
        if ((poly[i].y > p.y) != (poly[j].y > p.y)) {
            double x = poly[j].x + (p.y - poly[j].y) * (poly[i].x - poly[j].x) / (poly[i].y - poly[j].y);
            if (p.x < x)
                inside = !inside;
        }
    }
    return inside;
}

bool base_poly_overlap(const base_vec2 *a, size_t na, const base_vec2 *b, size_t nb)
{
    if (na == 0 || nb == 0)
        return false;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (base_seg_intersect(a[i], a[(i + 1) % na], b[j], b[(j + 1) % nb]))
                return true;
    /* No edges cross: either disjoint or one inside the other. */
    return base_poly_contains(a, na, b[0]) || base_poly_contains(b, nb, a[0]);
}

double base_poly_dist(const base_vec2 *a, size_t na, const base_vec2 *b, size_t nb)
{
    if (base_poly_overlap(a, na, b, nb))
        return 0.0;
    double m = INFINITY;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            m = fmin(m, base_seg_seg_dist(a[i], a[(i + 1) % na], b[j], b[(j + 1) % nb]));
    return m;
}

double base_poly_area(const base_vec2 *poly, size_t n)
{
    double s = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++)
        s += base_v2_cross(poly[j], poly[i]);
    return s / 2;
}

/* True when some edge normal of `p` separates the two convex quads (strictly). */
static bool separated_by_edges_of(const base_vec2 p[4], const base_vec2 q[4])
{
    for (int i = 0; i < 4; i++) {
        base_vec2 e = base_v2_sub(p[(i + 1) % 4], p[i]);
        base_vec2 n = base_v2(-e.y, e.x);
        double pmin = INFINITY, pmax = -INFINITY, qmin = INFINITY, qmax = -INFINITY;
        for (int k = 0; k < 4; k++) {
            double a = base_v2_dot(n, p[k]), b = base_v2_dot(n, q[k]);
            pmin = a < pmin ? a : pmin; /* not fmin: a library call in the hottest loop of a check */
            pmax = a > pmax ? a : pmax;
            qmin = b < qmin ? b : qmin;
            qmax = b > qmax ? b : qmax;
        }
        if (qmin > pmax || pmin > qmax)
            return true;
    }
    return false;
}

/* Squared distance from p to the segment ab. */
static double seg_point_dist2(base_vec2 a, base_vec2 b, base_vec2 p)
{
    base_vec2 ab = base_v2_sub(b, a), ap = base_v2_sub(p, a);
    double len2 = base_v2_dot(ab, ab), t = len2 > 0 ? base_v2_dot(ap, ab) / len2 : 0.0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    base_vec2 d = base_v2_sub(ap, base_v2_scale(ab, t));
    return base_v2_dot(d, d);
}

double base_quad_dist(const base_vec2 ca[4], const base_vec2 cb[4])
{
    /* Rectangles are convex: separating axes decide overlap, and the gap between
     * two disjoint convex polygons is always reached at a vertex of one of them. */
    if (!separated_by_edges_of(ca, cb) && !separated_by_edges_of(cb, ca))
        return 0.0;
    /* Only edges facing the other rectangle can hold the nearest point: skip an edge when every
     * corner of the other lies behind it (corners run counter-clockwise, so outward is to the right). */
    double m = INFINITY;
    for (int pass = 0; pass < 2; pass++) {
        const base_vec2 *p = pass ? cb : ca, *q = pass ? ca : cb;
        for (int i = 0; i < 4; i++) {
            base_vec2 a = p[i], b = p[(i + 1) & 3], e = base_v2_sub(b, a);
            bool facing = false;
            for (int j = 0; j < 4 && !facing; j++)
                facing = base_v2_cross(e, base_v2_sub(q[j], a)) < 0;
            if (!facing)
                continue;
            for (int j = 0; j < 4; j++) {
                double d = seg_point_dist2(a, b, q[j]);
                m = d < m ? d : m;
            }
        }
    }
    return sqrt(m);
}

double base_obb_dist(const base_obb *a, const base_obb *b)
{
    base_vec2 ca[4], cb[4];
    base_obb_corners(a, ca);
    base_obb_corners(b, cb);
    return base_quad_dist(ca, cb);
}
