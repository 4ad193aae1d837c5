#include "rules_visgraph.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GROW_SIDES 12 /* each vertex disc is circumscribed by a 12-gon: at most 3.5% extra clearance */
/* Segments may run along a grown edge or graze a vertex: the polygon is shrunk by this for blocking. */
#define GRAZE_MM 1e-6


typedef struct obstacle {
    size_t first, n;         /* its grown vertices: nodes[first .. first+n), counter-clockwise */
    double x0, y0, x1, y1;   /* bounding box of the grown hull */
    rules_vec2 c;            /* centre of the bounding box, and the radius of a circle about it holding the hull */
    double r;
    size_t raw_first, raw_n; /* the hull before growth: raw[raw_first ..], for start/end inside the growth */
} obstacle;

typedef struct node {
    rules_vec2 p;
    size_t obst;             /* owning obstacle, or SIZE_MAX for start/end */
    bool usable;             /* on the board and not inside another obstacle */
} node;

struct rules_visgraph {
    double board_w, board_d;
    obstacle *obst;
    size_t n_obst, cap_obst;
    node *nodes;             /* nodes[0] = start, nodes[1] = end, then obstacle vertices */
    size_t n_nodes, cap_nodes;
    rules_vec2 *raw;         /* ungrown hulls */
    size_t n_raw, cap_raw;
    rules_vec2 *grown;       /* grown[i] == nodes[i].p, contiguous for the clipping loops */
    size_t cap_grown;
    /* Edge i -> i+1 of each polygon as a half-plane: inside when dot(n, x) > c (n of unit length). */
    rules_vec2 *grown_n, *raw_n;
    double *grown_c, *raw_c;
    size_t cap_grown_hp, cap_raw_hp;
    double *h;               /* per-route heuristic cache */
    size_t cap_h;
    /* per-route scratch, sized with the nodes */
    double *g;
    size_t *parent;
    unsigned char *state;    /* 0 unseen, 1 open, 2 closed */
    struct heap_item *heap;  /* the open set: a binary heap with lazy deletion */
    size_t n_heap, cap_heap;
    size_t *cand, *cand_at;  /* usable nodes not yet closed, and each node's place in that list */
    size_t n_cand, cap_cand, cap_cand_at;
    bool *in_start, *in_end; /* per obstacle: contains the start / end point */
    size_t cap_scratch, cap_obst_scratch;
    bool dirty;              /* vertex usability needs recomputing */
    bool exhaustive;         /* every visible edge is tried (tests compare the pruned search with it) */
    bool start_inside, end_inside; /* per route: the start (end) lies in some obstacle's growth */
    signed char *sees_end;   /* per route, per node: -1 not asked yet, else whether the end is in sight */
    size_t cap_sees_end;
};

/* sqrt rather than hypot: the inner loops run it per node pair; coordinates are millimetres, no overflow. */
static inline double fast_dist(rules_vec2 a, rules_vec2 b)
{
    double dx = a.x - b.x, dy = a.y - b.y;
    return sqrt(dx * dx + dy * dy);
}

static bool grow_array(void **arr, size_t *cap, size_t need, size_t size)
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
    if (g && !grow_array((void **)&g->nodes, &g->cap_nodes, 2, sizeof *g->nodes)) {
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
    const rules_vec2 *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y > q->y) - (p->y < q->y);
}

/* Andrew's monotone chain; `pts` is sorted in place, the hull (counter-clockwise) goes to `out`. */
static size_t convex_hull(rules_vec2 *pts, size_t n, rules_vec2 *out)
{
    if (n > 16) {
        qsort(pts, n, sizeof *pts, cmp_xy);
    } else { /* a terrain piece or a unit boundary: a few points, no qsort machinery */
        for (size_t i = 1; i < n; i++) {
            rules_vec2 x = pts[i];
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
        while (k >= 2 && rules_v2_cross(rules_v2_sub(out[k - 1], out[k - 2]), rules_v2_sub(pts[i], out[k - 2])) <= 0)
            k--;
        out[k++] = pts[i];
    }
    for (size_t i = n - 1, t = k + 1; i-- > 0;) {
        while (k >= t && rules_v2_cross(rules_v2_sub(out[k - 1], out[k - 2]), rules_v2_sub(pts[i], out[k - 2])) <= 0)
            k--;
        out[k++] = pts[i];
    }
    return k - 1;
}

/* Half-planes of the counter-clockwise polygon poly[0..n): interior is on the left of each edge. */
static void half_planes(const rules_vec2 *poly, size_t n, rules_vec2 *nrm, double *c)
{
    for (size_t i = 0; i < n; i++) {
        rules_vec2 e = rules_v2_sub(poly[(i + 1) % n], poly[i]);
        double len = rules_v2_len(e);
        nrm[i] = len > 0 ? rules_v2(-e.y / len, e.x / len) : rules_v2(0, 0);
        c[i] = len > 0 ? rules_v2_dot(nrm[i], poly[i]) : -INFINITY; /* a zero edge never excludes */
    }
}

/* Index of the lowest point (then the leftmost): where a counter-clockwise edge walk by angle starts. */
static size_t lowest(const rules_vec2 *p, size_t n)
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
static size_t minkowski(const rules_vec2 *a, size_t na, const rules_vec2 *b, size_t nb, rules_vec2 *out)
{
    size_t ia = lowest(a, na), ib = lowest(b, nb), ea = 0, eb = 0, n = 0;
    while (ea < na || eb < nb) {
        out[n++] = rules_v2_add(a[(ia + ea) % na], b[(ib + eb) % nb]);
        rules_vec2 da = rules_v2_sub(a[(ia + ea + 1) % na], a[(ia + ea) % na]);
        rules_vec2 db = rules_v2_sub(b[(ib + eb + 1) % nb], b[(ib + eb) % nb]);
        double c = rules_v2_cross(da, db);
        if (eb >= nb || (ea < na && c > 0))
            ea++;
        else if (ea >= na || c < 0)
            eb++;
        else
            ea++, eb++; /* parallel edges: one edge of the sum */
    }
    return n;
}

int rules_visgraph_add_obstacle(rules_visgraph *g, const rules_vec2 *poly, size_t n, double clearance)
{
    if (n == 0)
        return 0;
    const size_t sides = clearance > 0 ? GROW_SIDES : 1;
    size_t m = n * sides;
    rules_vec2 *pts = malloc(2 * (m + 1) * sizeof *pts);
    if (!pts)
        return -1;
    rules_vec2 *hull = pts + m;
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
        const double R = clearance / cos(RULES_PI / GROW_SIDES);
        rules_vec2 gon[GROW_SIDES];
        for (size_t j = 0; j < GROW_SIDES; j++)
            gon[j] = rules_v2(unit[j][0] * R, unit[j][1] * R);
        memcpy(pts, hull, nr * sizeof *hull); /* the raw hull; `hull` (room for 12 n + 1) takes the sum */
        h = minkowski(pts, nr, gon, GROW_SIDES, hull);
    }
    if (!grow_array((void **)&g->obst, &g->cap_obst, g->n_obst + 1, sizeof *g->obst) ||
        !grow_array((void **)&g->nodes, &g->cap_nodes, g->n_nodes + h, sizeof *g->nodes) ||
        !grow_array((void **)&g->raw, &g->cap_raw, g->n_raw + n + 1, sizeof *g->raw) ||
        !grow_array((void **)&g->grown, &g->cap_grown, g->n_nodes + h, sizeof *g->grown)) {
        free(pts);
        return -1;
    }
    size_t c1 = g->cap_grown_hp, c2 = g->cap_grown_hp, c3 = g->cap_raw_hp, c4 = g->cap_raw_hp;
    if (!grow_array((void **)&g->grown_n, &c1, g->n_nodes + h, sizeof *g->grown_n) ||
        !grow_array((void **)&g->grown_c, &c2, g->n_nodes + h, sizeof *g->grown_c) ||
        !grow_array((void **)&g->raw_n, &c3, g->n_raw + n + 1, sizeof *g->raw_n) ||
        !grow_array((void **)&g->raw_c, &c4, g->n_raw + n + 1, sizeof *g->raw_c)) {
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
    o->c = rules_v2((o->x0 + o->x1) / 2, (o->y0 + o->y1) / 2);
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
static bool strictly_inside(const rules_visgraph *g, const obstacle *o, rules_vec2 p)
{
    if (o->n < 3 || p.x <= o->x0 || p.x >= o->x1 || p.y <= o->y0 || p.y >= o->y1)
        return false;
    for (size_t i = 0; i < o->n; i++)
        if (rules_v2_dot(g->grown_n[o->first + i], p) - g->grown_c[o->first + i] <= GRAZE_MM)
            return false;
    return true;
}

/*
 * True when segment ab passes through the obstacle's interior (shrunk by
 * GRAZE_MM so that running along an edge or touching a vertex is free).
 * Cyrus-Beck clipping against the half-planes of a convex polygon.
 */
static bool blocks_poly(const rules_vec2 *nrm, const double *cc, size_t n, rules_vec2 a, rules_vec2 b)
{
    if (n < 3)
        return false;
    double t0 = 0, t1 = 1;
    rules_vec2 d = rules_v2_sub(b, a);
    for (size_t i = 0; i < n; i++) {
        /* inside: dot(n, x) - c > GRAZE_MM; along the segment x = a + t d */
        double c0 = rules_v2_dot(nrm[i], a) - cc[i] - GRAZE_MM;
        double c1 = rules_v2_dot(nrm[i], d);
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
static bool seg_near(rules_vec2 a, rules_vec2 b, rules_vec2 c, double r)
{
    rules_vec2 ab = rules_v2_sub(b, a), ac = rules_v2_sub(c, a);
    double len2 = rules_v2_dot(ab, ab), t = len2 > 0 ? rules_v2_dot(ac, ab) / len2 : 0.0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    rules_vec2 d = rules_v2_sub(ac, rules_v2_scale(ab, t));
    return rules_v2_dot(d, d) < r * r;
}

static bool blocks(const rules_visgraph *g, const obstacle *o, rules_vec2 a, rules_vec2 b)
{
    /* cheap rejections first: bounding boxes apart, then the segment passing the bounding circle */
    if ((a.x > b.x ? a.x : b.x) <= o->x0 || (a.x < b.x ? a.x : b.x) >= o->x1 || (a.y > b.y ? a.y : b.y) <= o->y0 ||
        (a.y < b.y ? a.y : b.y) >= o->y1 || !seg_near(a, b, o->c, o->r))
        return false;
    return blocks_poly(g->grown_n + o->first, g->grown_c + o->first, o->n, a, b);
}

static bool visible(const rules_visgraph *g, size_t ia, size_t ib)
{
    rules_vec2 a = g->nodes[ia].p, b = g->nodes[ib].p;
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
static bool tangent(const rules_visgraph *g, size_t iu, size_t iv)
{
    const node *v = &g->nodes[iv];
    if (v->obst == SIZE_MAX)
        return true;
    if ((iu == 0 && g->in_start[v->obst]) || (iu == 1 && g->in_end[v->obst]))
        return true; /* from inside the growth, any vertex may be the way out */
    const obstacle *o = &g->obst[v->obst];
    size_t k = iv - o->first;
    rules_vec2 prev = g->nodes[o->first + (k + o->n - 1) % o->n].p, next = g->nodes[o->first + (k + 1) % o->n].p;
    rules_vec2 dir = rules_v2_sub(v->p, g->nodes[iu].p);
    double s1 = rules_v2_cross(dir, rules_v2_sub(prev, v->p)), s2 = rules_v2_cross(dir, rules_v2_sub(next, v->p));
    const double eps = 1e-9 * (1 + fabs(dir.x) + fabs(dir.y));
    return s1 * s2 >= 0 || fabs(s1) < eps || fabs(s2) < eps;
}

/* ---- the open set ---------------------------------------------------------- */

struct heap_item {
    double f;     /* g + h when pushed */
    size_t node;
};

static int heap_push(rules_visgraph *g, double f, size_t v)
{
    if (!grow_array((void **)&g->heap, &g->cap_heap, g->n_heap + 1, sizeof *g->heap))
        return -1;
    size_t i = g->n_heap++;
    while (i > 0 && g->heap[(i - 1) / 2].f > f) {
        g->heap[i] = g->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    g->heap[i] = (struct heap_item){f, v};
    return 0;
}

static struct heap_item heap_pop(rules_visgraph *g)
{
    struct heap_item top = g->heap[0], last = g->heap[--g->n_heap];
    size_t i = 0, n = g->n_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && g->heap[c + 1].f < g->heap[c].f)
            c++;
        if (g->heap[c].f >= last.f)
            break;
        g->heap[i] = g->heap[c];
        i = c;
    }
    if (n)
        g->heap[i] = last;
    return top;
}

/*
 * A shortest route wraps around the obstacle it bends at: arriving at
 * vertex u from p and leaving for v, it turns towards u's obstacle and the
 * obstacle stays on that side of the way out (the edge is tangent at both
 * ends). Any other bend could be cut short, so such edges are never tried.
 */
static bool taut(const rules_visgraph *g, size_t ip, size_t iu, size_t iv)
{
    const node *u = &g->nodes[iu];
    if (u->obst == SIZE_MAX || ip == SIZE_MAX || (ip == 0 && g->start_inside) || (iv == 1 && g->end_inside))
        return true; /* the start, or a bend next to a way out of (into) a growth: no bend to judge */
    const obstacle *o = &g->obst[u->obst];
    size_t k = iu - o->first;
    rules_vec2 prev = rules_v2_sub(g->nodes[o->first + (k + o->n - 1) % o->n].p, u->p);
    rules_vec2 next = rules_v2_sub(g->nodes[o->first + (k + 1) % o->n].p, u->p);
    rules_vec2 din = rules_v2_sub(u->p, g->nodes[ip].p), dout = rules_v2_sub(g->nodes[iv].p, u->p);
    double side = rules_v2_cross(din, prev) + rules_v2_cross(din, next); /* the obstacle's side of the way in */
    const double eps = 1e-9 * (1 + fabs(din.x) + fabs(din.y)) * (1 + fabs(dout.x) + fabs(dout.y));
    if (fabs(side) <= eps)
        return true;
    double s = side > 0 ? 1.0 : -1.0;
    return s * rules_v2_cross(din, dout) >= -eps && s * rules_v2_cross(dout, prev) >= -eps &&
           s * rules_v2_cross(dout, next) >= -eps;
}

/*
 * Whether the edge u -> v can be part of a shortest route. In free space a
 * shortest route is tangent at both ends of each edge and wraps around the
 * obstacles it bends at (the board is convex: a route pulled tight between
 * two points on it stays on it). One thing bends that rule, and then the
 * edge is tried anyway: a start (end) inside a growth leaves (enters) it
 * straight, so the first (last) bend need not be tangent. Tests compare the
 * result with the exhaustive search on random dense fields.
 */
static bool worth_trying(rules_visgraph *g, size_t u, size_t v)
{
    if (g->exhaustive)
        return true;
    if (!(u == 0 && g->start_inside) && !tangent(g, u, v)) {
        if (!g->end_inside)
            return false;
        if (g->sees_end[v] < 0) /* a last bend before the end may arrive any way: only if it sees the end */
            g->sees_end[v] = visible(g, v, 1);
        if (!g->sees_end[v])
            return false;
    }
    return taut(g, g->parent[u], u, v);
}

static int ensure_scratch(rules_visgraph *g)
{
    size_t ch = g->cap_h;
    if (!grow_array((void **)&g->h, &ch, g->n_nodes, sizeof *g->h))
        return -1;
    g->cap_h = ch;
    size_t cap = g->cap_scratch, cap2 = g->cap_scratch, cap3 = g->cap_scratch;
    if (!grow_array((void **)&g->g, &cap, g->n_nodes, sizeof *g->g) ||
        !grow_array((void **)&g->parent, &cap2, g->n_nodes, sizeof *g->parent) ||
        !grow_array((void **)&g->state, &cap3, g->n_nodes, sizeof *g->state))
        return -1;
    g->cap_scratch = cap;
    size_t c1 = g->cap_obst_scratch, c2 = g->cap_obst_scratch;
    if (!grow_array((void **)&g->in_start, &c1, g->n_obst + 1, sizeof *g->in_start) ||
        !grow_array((void **)&g->in_end, &c2, g->n_obst + 1, sizeof *g->in_end))
        return -1;
    g->cap_obst_scratch = c1;
    return 0;
}

static void update_usable(rules_visgraph *g)
{
    const double slack = 1e-6;
    for (size_t i = 2; i < g->n_nodes; i++) {
        node *v = &g->nodes[i];
        v->usable = true;
        if (g->board_w > 0 && g->board_d > 0 &&
            (v->p.x < -slack || v->p.y < -slack || v->p.x > g->board_w + slack || v->p.y > g->board_d + slack)) {
            v->usable = false;
            continue;
        }
        for (size_t k = 0; k < g->n_obst && v->usable; k++)
            if (k != v->obst && strictly_inside(g, &g->obst[k], v->p))
                v->usable = false;
    }
    g->dirty = false;
}

static int set_route(rules_route *out, const rules_vec2 *pts, size_t n, double length)
{
    if (!grow_array((void **)&out->points, &out->cap_points, n, sizeof *out->points))
        return -1;
    memcpy(out->points, pts, n * sizeof *pts);
    out->n_points = n;
    out->length_mm = length;
    return 0;
}

int rules_visgraph_route(rules_visgraph *g, rules_vec2 from, rules_vec2 to, rules_route *out)
{
    if (ensure_scratch(g) < 0)
        return -1;
    if (g->dirty)
        update_usable(g);
    g->nodes[0].p = from;
    g->nodes[1].p = to;
    g->start_inside = g->end_inside = false;
    for (size_t k = 0; k < g->n_obst; k++) {
        g->in_start[k] = strictly_inside(g, &g->obst[k], from);
        g->in_end[k] = strictly_inside(g, &g->obst[k], to);
        g->start_inside |= g->in_start[k];
        g->end_inside |= g->in_end[k];
    }
    if (visible(g, 0, 1)) {
        rules_vec2 two[2] = {from, to};
        return set_route(out, two, 2, rules_v2_dist(from, to));
    }

    /* A* with the straight-line heuristic (admissible and consistent: a node is final when popped). */
    const size_t n = g->n_nodes;
    for (size_t i = 0; i < n; i++) {
        g->g[i] = INFINITY;
        g->parent[i] = SIZE_MAX;
        g->state[i] = 0;
        g->h[i] = -1; /* computed when first opened */
    }
    /* The nodes an expansion looks at: usable and not closed. Closing a node takes it out, so the
     * work per expansion shrinks as the search goes on. */
    if (!grow_array((void **)&g->cand, &g->cap_cand, n, sizeof *g->cand) ||
        !grow_array((void **)&g->cand_at, &g->cap_cand_at, n, sizeof *g->cand_at))
        return -1;
    if (!grow_array((void **)&g->sees_end, &g->cap_sees_end, n, sizeof *g->sees_end))
        return -1;
    memset(g->sees_end, -1, n * sizeof *g->sees_end);
    g->n_cand = 0;
    g->cand_at[0] = SIZE_MAX; /* the start is never a candidate */
    for (size_t v = 1; v < n; v++) {
        g->cand_at[v] = SIZE_MAX;
        if (g->nodes[v].usable) {
            g->cand_at[v] = g->n_cand;
            g->cand[g->n_cand++] = v;
        }
    }
    g->h[0] = rules_v2_dist(from, to);
    g->g[0] = 0;
    g->state[0] = 1;
    g->n_heap = 0;
    if (heap_push(g, g->h[0], 0) < 0)
        return -1;
    while (g->n_heap) {
        struct heap_item it = heap_pop(g);
        size_t u = it.node;
        if (g->state[u] == 2 || it.f > g->g[u] + g->h[u])
            continue; /* a stale entry: the node was reached more cheaply since */
        if (u == 1)
            break;
        g->state[u] = 2;
        if (g->cand_at[u] != SIZE_MAX) { /* out of the candidates: swap with the last */
            size_t last = g->cand[--g->n_cand], at = g->cand_at[u];
            g->cand[at] = last;
            g->cand_at[last] = at;
            g->cand_at[u] = SIZE_MAX;
        }
        const rules_vec2 pu = g->nodes[u].p;
        for (size_t k = 0; k < g->n_cand; k++) {
            size_t v = g->cand[k];
            if (!worth_trying(g, u, v))
                continue;
            double nd = g->g[u] + fast_dist(pu, g->nodes[v].p);
            if (nd >= g->g[v] || !visible(g, u, v))
                continue;
            g->g[v] = nd;
            g->parent[v] = u;
            g->state[v] = 1;
            if (g->h[v] < 0)
                g->h[v] = fast_dist(g->nodes[v].p, to);
            if (heap_push(g, nd + g->h[v], v) < 0)
                return -1;
        }
    }
    if (!isfinite(g->g[1])) {
        rules_vec2 two[2] = {from, to};
        return set_route(out, two, 2, INFINITY) < 0 ? -1 : 1;
    }
    size_t count = 1;
    for (size_t v = 1; v != 0; v = g->parent[v])
        count++;
    if (!grow_array((void **)&out->points, &out->cap_points, count, sizeof *out->points))
        return -1;
    size_t k = count;
    for (size_t v = 1;; v = g->parent[v]) {
        out->points[--k] = g->nodes[v].p;
        if (v == 0)
            break;
    }
    out->n_points = count;
    out->length_mm = g->g[1];
    return 0;
}

int rules_route_append(rules_route *out, const rules_route *other)
{
    if (other->n_points == 0)
        return 0;
    const bool was_empty = out->n_points == 0;
    const size_t skip = was_empty ? 0 : 1;
    if (!grow_array((void **)&out->points, &out->cap_points, out->n_points + other->n_points - skip,
                    sizeof *out->points))
        return -1;
    memcpy(out->points + out->n_points, other->points + skip, (other->n_points - skip) * sizeof *other->points);
    out->n_points += other->n_points - skip;
    out->length_mm = (was_empty ? 0 : out->length_mm) + other->length_mm;
    return 0;
}

void rules_route_clear(rules_route *r)
{
    free(r->points);
    memset(r, 0, sizeof *r);
}
