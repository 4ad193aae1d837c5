#include "rules_visgraph_int.h"

#include <stdlib.h>
#include <string.h>

bool vg_grow_array(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*arr, ncap * size);
    if (!p)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

rules_visgraph *rules_visgraph_new(void)
{
    rules_visgraph *g = calloc(1, sizeof *g);
    if (g && !vg_grow_array((void **)&g->nodes, &g->cap_nodes, 2, sizeof *g->nodes)) {
        free(g);
        return NULL;
    }
    if (g)
        rules_visgraph_reset(g, 0, 0);
    return g;
}

void rules_visgraph_free(rules_visgraph *g)
{
    if (!g)
        return;
    free(g->obst);
    free(g->nodes);
    free(g->raw);
    free(g->grown);
    free(g->grown_n);
    free(g->grown_c);
    free(g->raw_n);
    free(g->raw_c);
    free(g->h);
    free(g->g);
    free(g->parent);
    free(g->state);
    free(g->heap);
    free(g->cand);
    free(g->cand_at);
    free(g->sees_end);
    free(g->in_start);
    free(g->in_end);
    free(g);
}

void rules_visgraph_reset(rules_visgraph *g, double board_w, double board_d)
{
    g->board_w = board_w;
    g->board_d = board_d;
    g->n_obst = 0;
    g->n_raw = 0;
    g->n_nodes = 2;
    g->nodes[0] = (node){{0, 0}, SIZE_MAX, true};
    g->nodes[1] = (node){{0, 0}, SIZE_MAX, true};
    g->dirty = true;
}

void rules_visgraph_set_exhaustive(rules_visgraph *g, bool on)
{
    g->exhaustive = on;
}

size_t rules_visgraph_obstacle_count(const rules_visgraph *g)
{
    return g->n_obst;
}

static int cmp_xy(const void *a, const void *b)
{
    const base_vec2 *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y > q->y) - (p->y < q->y);
}

/* Andrew's monotone chain; `pts` is sorted in place, the hull (counter-clockwise) goes to `out`. */
static size_t convex_hull(base_vec2 *pts, size_t n, base_vec2 *out)
{
    if (n > 16) {
        qsort(pts, n, sizeof *pts, cmp_xy);
    } else { /* a terrain piece or a unit boundary: a few points, no qsort machinery */
        for (size_t i = 1; i < n; i++) {
            base_vec2 x = pts[i];
            size_t j = i;
            for (; j > 0 && cmp_xy(&pts[j - 1], &x) > 0; j--)
                pts[j] = pts[j - 1];
            pts[j] = x;
        }
    }
    if (n < 3) {
        memcpy(out, pts, n * sizeof *pts);
        return n;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        while (k >= 2 && base_v2_cross(base_v2_sub(out[k - 1], out[k - 2]), base_v2_sub(pts[i], out[k - 2])) <= 0)
            k--;
        out[k++] = pts[i];
    }
    for (size_t i = n - 1, t = k + 1; i-- > 0;) {
        while (k >= t && base_v2_cross(base_v2_sub(out[k - 1], out[k - 2]), base_v2_sub(pts[i], out[k - 2])) <= 0)
            k--;
        out[k++] = pts[i];
    }
    return k - 1;
}

/* Half-planes of the counter-clockwise polygon poly[0..n): interior is on the left of each edge. */
static void half_planes(const base_vec2 *poly, size_t n, base_vec2 *nrm, double *c)
{
    for (size_t i = 0; i < n; i++) {
        base_vec2 e = base_v2_sub(poly[(i + 1) % n], poly[i]);
        double len = base_v2_len(e);
        nrm[i] = len > 0 ? base_v2(-e.y / len, e.x / len) : base_v2(0, 0);
        c[i] = len > 0 ? base_v2_dot(nrm[i], poly[i]) : -INFINITY; /* a zero edge never excludes */
    }
}

/* Index of the lowest point (then the leftmost): where a counter-clockwise edge walk by angle starts. */
static size_t lowest(const base_vec2 *p, size_t n)
{
    size_t k = 0;
    for (size_t i = 1; i < n; i++)
        if (p[i].y < p[k].y || (p[i].y == p[k].y && p[i].x < p[k].x))
            k = i;
    return k;
}

/*
 * The Minkowski sum of two convex counter-clockwise polygons, by merging
 * their edges in order of angle (linear time, no sort). `out` has room for
 * na + nb points; returns the count.
 */
static size_t minkowski(const base_vec2 *a, size_t na, const base_vec2 *b, size_t nb, base_vec2 *out)
{
    size_t ia = lowest(a, na), ib = lowest(b, nb), ea = 0, eb = 0, n = 0;
    while (ea < na || eb < nb) {
        out[n++] = base_v2_add(a[(ia + ea) % na], b[(ib + eb) % nb]);
        base_vec2 da = base_v2_sub(a[(ia + ea + 1) % na], a[(ia + ea) % na]);
        base_vec2 db = base_v2_sub(b[(ib + eb + 1) % nb], b[(ib + eb) % nb]);
        double c = base_v2_cross(da, db);
        if (eb >= nb || (ea < na && c > 0))
            ea++;
        else if (ea >= na || c < 0)
            eb++;
        else
            ea++, eb++; /* parallel edges: one edge of the sum */
    }
    return n;
}

int rules_visgraph_add_obstacle(rules_visgraph *g, const base_vec2 *poly, size_t n, double clearance)
{
    if (n == 0)
        return 0;
    const size_t sides = clearance > 0 ? GROW_SIDES : 1;
    size_t m = n * sides;
    base_vec2 *pts = malloc(2 * (m + 1) * sizeof *pts);
    if (!pts)
        return -1;
    base_vec2 *hull = pts + m;
    /* The hull of the polygon grown by the 12-gon circumscribing the clearance disc (corners at
     * r / cos(pi / 12)): the Minkowski sum of the polygon's hull and the 12-gon. */
    memcpy(pts, poly, n * sizeof *pts);
    size_t nr = convex_hull(pts, n, hull);
    size_t h = nr;
    if (sides > 1) {
        static const double unit[GROW_SIDES][2] = {
            {1, 0}, {0.86602540378443865, 0.5}, {0.5, 0.86602540378443865}, {0, 1},
            {-0.5, 0.86602540378443865}, {-0.86602540378443865, 0.5}, {-1, 0}, {-0.86602540378443865, -0.5},
            {-0.5, -0.86602540378443865}, {0, -1}, {0.5, -0.86602540378443865}, {0.86602540378443865, -0.5}};
        const double R = clearance / cos(BASE_PI / GROW_SIDES);
        base_vec2 gon[GROW_SIDES];
        for (size_t j = 0; j < GROW_SIDES; j++)
            gon[j] = base_v2(unit[j][0] * R, unit[j][1] * R);
        memcpy(pts, hull, nr * sizeof *hull); /* the raw hull; `hull` (room for 12 n + 1) takes the sum */
        h = minkowski(pts, nr, gon, GROW_SIDES, hull);
    }
    if (!vg_grow_array((void **)&g->obst, &g->cap_obst, g->n_obst + 1, sizeof *g->obst) ||
        !vg_grow_array((void **)&g->nodes, &g->cap_nodes, g->n_nodes + h, sizeof *g->nodes) ||
        !vg_grow_array((void **)&g->raw, &g->cap_raw, g->n_raw + n + 1, sizeof *g->raw) ||
        !vg_grow_array((void **)&g->grown, &g->cap_grown, g->n_nodes + h, sizeof *g->grown)) {
        free(pts);
        return -1;
    }
    size_t c1 = g->cap_grown_hp, c2 = g->cap_grown_hp, c3 = g->cap_raw_hp, c4 = g->cap_raw_hp;
    if (!vg_grow_array((void **)&g->grown_n, &c1, g->n_nodes + h, sizeof *g->grown_n) ||
        !vg_grow_array((void **)&g->grown_c, &c2, g->n_nodes + h, sizeof *g->grown_c) ||
        !vg_grow_array((void **)&g->raw_n, &c3, g->n_raw + n + 1, sizeof *g->raw_n) ||
        !vg_grow_array((void **)&g->raw_c, &c4, g->n_raw + n + 1, sizeof *g->raw_c)) {
        free(pts);
        return -1;
    }
    obstacle *o = &g->obst[g->n_obst];
    /* the ungrown hull, reusing the scratch (m >= n) */
    memcpy(pts, poly, n * sizeof *pts);
    o->raw_first = g->n_raw;
    o->raw_n = convex_hull(pts, n, g->raw + g->n_raw);
    half_planes(g->raw + g->n_raw, o->raw_n, g->raw_n + g->n_raw, g->raw_c + g->n_raw);
    g->n_raw += o->raw_n;
    g->cap_grown_hp = c1 < c2 ? c1 : c2;
    g->cap_raw_hp = c3 < c4 ? c3 : c4;
    o->first = g->n_nodes;
    o->n = h;
    o->x0 = o->y0 = INFINITY;
    o->x1 = o->y1 = -INFINITY;
    for (size_t i = 0; i < h; i++) {
        g->grown[g->n_nodes] = hull[i];
        g->nodes[g->n_nodes++] = (node){hull[i], g->n_obst, true};
        o->x0 = fmin(o->x0, hull[i].x);
        o->x1 = fmax(o->x1, hull[i].x);
        o->y0 = fmin(o->y0, hull[i].y);
        o->y1 = fmax(o->y1, hull[i].y);
    }
    o->c = base_v2((o->x0 + o->x1) / 2, (o->y0 + o->y1) / 2);
    o->r = 0;
    for (size_t i = 0; i < h; i++)
        o->r = fmax(o->r, fast_dist(o->c, hull[i]));
    half_planes(hull, h, g->grown_n + o->first, g->grown_c + o->first);
    g->n_obst++;
    g->dirty = true;
    free(pts);
    return 0;
}

/* Strictly inside (by more than GRAZE_MM) the convex obstacle. */
bool vg_strictly_inside(const rules_visgraph *g, const obstacle *o, base_vec2 p)
{
    if (o->n < 3 || p.x <= o->x0 || p.x >= o->x1 || p.y <= o->y0 || p.y >= o->y1)
        return false;
    for (size_t i = 0; i < o->n; i++)
        if (base_v2_dot(g->grown_n[o->first + i], p) - g->grown_c[o->first + i] <= GRAZE_MM)
            return false;
    return true;
}

/*
 * True when segment ab passes through the obstacle's interior (shrunk by
 * GRAZE_MM so that running along an edge or touching a vertex is free).
 * Cyrus-Beck clipping against the half-planes of a convex polygon.
 */
static bool blocks_poly(const base_vec2 *nrm, const double *cc, size_t n, base_vec2 a, base_vec2 b)
{
    if (n < 3)
        return false;
    double t0 = 0, t1 = 1;
    base_vec2 d = base_v2_sub(b, a);
    for (size_t i = 0; i < n; i++) {
        /* inside: dot(n, x) - c > GRAZE_MM; along the segment x = a + t d */
        double c0 = base_v2_dot(nrm[i], a) - cc[i] - GRAZE_MM;
        double c1 = base_v2_dot(nrm[i], d);
        if (fabs(c1) < 1e-15) {
            if (c0 <= 0)
                return false;
            continue;
        }
        double t = -c0 / c1;
        if (c1 > 0)
            t0 = t > t0 ? t : t0;
        else
            t1 = t < t1 ? t : t1;
        if (t1 - t0 <= 1e-12)
            return false;
    }
    return t1 - t0 > 1e-12;
}

/* The segment ab comes within r of c (squared distances, no root). */
static bool seg_near(base_vec2 a, base_vec2 b, base_vec2 c, double r)
{
    base_vec2 ab = base_v2_sub(b, a), ac = base_v2_sub(c, a);
    double len2 = base_v2_dot(ab, ab), t = len2 > 0 ? base_v2_dot(ac, ab) / len2 : 0.0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    base_vec2 d = base_v2_sub(ac, base_v2_scale(ab, t));
    return base_v2_dot(d, d) < r * r;
}

static bool blocks(const rules_visgraph *g, const obstacle *o, base_vec2 a, base_vec2 b)
{
    /* cheap rejections first: bounding boxes apart, then the segment passing the bounding circle */
    if ((a.x > b.x ? a.x : b.x) <= o->x0 || (a.x < b.x ? a.x : b.x) >= o->x1 || (a.y > b.y ? a.y : b.y) <= o->y0 ||
        (a.y < b.y ? a.y : b.y) >= o->y1 || !seg_near(a, b, o->c, o->r))
        return false;
    return blocks_poly(g->grown_n + o->first, g->grown_c + o->first, o->n, a, b);
}

bool vg_visible(const rules_visgraph *g, size_t ia, size_t ib)
{
    base_vec2 a = g->nodes[ia].p, b = g->nodes[ib].p;
    for (size_t k = 0; k < g->n_obst; k++) {
        const obstacle *o = &g->obst[k];
        /* A start or end inside an obstacle's growth may leave or enter it, but never cross the obstacle itself. */
        if (((ia == 0 || ib == 0) && g->in_start[k]) || ((ia == 1 || ib == 1) && g->in_end[k])) {
            if (blocks_poly(g->raw_n + o->raw_first, g->raw_c + o->raw_first, o->raw_n, a, b))
                return false;
            continue;
        }
        if (blocks(g, o, a, b))
            return false;
    }
    return true;
}

/* A shortest route bends only where it is tangent to an obstacle: v's neighbours lie on one side of u->v. */
bool vg_tangent(const rules_visgraph *g, size_t iu, size_t iv)
{
    const node *v = &g->nodes[iv];
    if (v->obst == SIZE_MAX)
        return true;
    if ((iu == 0 && g->in_start[v->obst]) || (iu == 1 && g->in_end[v->obst]))
        return true; /* from inside the growth, any vertex may be the way out */
    const obstacle *o = &g->obst[v->obst];
    size_t k = iv - o->first;
    base_vec2 prev = g->nodes[o->first + (k + o->n - 1) % o->n].p, next = g->nodes[o->first + (k + 1) % o->n].p;
    base_vec2 dir = base_v2_sub(v->p, g->nodes[iu].p);
    double s1 = base_v2_cross(dir, base_v2_sub(prev, v->p)), s2 = base_v2_cross(dir, base_v2_sub(next, v->p));
    const double eps = 1e-9 * (1 + fabs(dir.x) + fabs(dir.y));
    return s1 * s2 >= 0 || fabs(s1) < eps || fabs(s2) < eps;
}
