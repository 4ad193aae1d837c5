/* The route search: A* over start, end and the grown vertices (rules_visgraph.h). */
#include "rules_visgraph_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- the open set: a binary heap with lazy deletion ------------------------------ */

static int heap_push(rules_visgraph *g, double f, size_t v)
{
    if (!vg_grow_array((void **)&g->heap, &g->cap_heap, g->n_heap + 1, sizeof *g->heap))
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
    base_vec2 prev = base_v2_sub(g->nodes[o->first + (k + o->n - 1) % o->n].p, u->p);
    base_vec2 next = base_v2_sub(g->nodes[o->first + (k + 1) % o->n].p, u->p);
    base_vec2 din = base_v2_sub(u->p, g->nodes[ip].p), dout = base_v2_sub(g->nodes[iv].p, u->p);
    double side = base_v2_cross(din, prev) + base_v2_cross(din, next); /* the obstacle's side of the way in */
    const double eps = 1e-9 * (1 + fabs(din.x) + fabs(din.y)) * (1 + fabs(dout.x) + fabs(dout.y));
    if (fabs(side) <= eps)
        return true;
    double s = side > 0 ? 1.0 : -1.0;
    return s * base_v2_cross(din, dout) >= -eps && s * base_v2_cross(dout, prev) >= -eps &&
           s * base_v2_cross(dout, next) >= -eps;
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
    if (!(u == 0 && g->start_inside) && !vg_tangent(g, u, v)) {
        if (!g->end_inside)
            return false;
        if (g->sees_end[v] < 0) /* a last bend before the end may arrive any way: only if it sees the end */
            g->sees_end[v] = vg_visible(g, v, 1);
        if (!g->sees_end[v])
            return false;
    }
    return taut(g, g->parent[u], u, v);
}

static int ensure_scratch(rules_visgraph *g)
{
    size_t ch = g->cap_h;
    if (!vg_grow_array((void **)&g->h, &ch, g->n_nodes, sizeof *g->h))
        return -1;
    g->cap_h = ch;
    size_t cap = g->cap_scratch, cap2 = g->cap_scratch, cap3 = g->cap_scratch;
    if (!vg_grow_array((void **)&g->g, &cap, g->n_nodes, sizeof *g->g) ||
        !vg_grow_array((void **)&g->parent, &cap2, g->n_nodes, sizeof *g->parent) ||
        !vg_grow_array((void **)&g->state, &cap3, g->n_nodes, sizeof *g->state))
        return -1;
    g->cap_scratch = cap;
    size_t c1 = g->cap_obst_scratch, c2 = g->cap_obst_scratch;
    if (!vg_grow_array((void **)&g->in_start, &c1, g->n_obst + 1, sizeof *g->in_start) ||
        !vg_grow_array((void **)&g->in_end, &c2, g->n_obst + 1, sizeof *g->in_end))
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
            if (k != v->obst && vg_strictly_inside(g, &g->obst[k], v->p))
                v->usable = false;
    }
    g->dirty = false;
}

static int set_route(rules_route *out, const base_vec2 *pts, size_t n, double length)
{
    if (!vg_grow_array((void **)&out->points, &out->cap_points, n, sizeof *out->points))
        return -1;
    memcpy(out->points, pts, n * sizeof *pts);
    out->n_points = n;
    out->length_mm = length;
    return 0;
}

/* Which obstacles strictly hold the route's ends (their edges are then passable from inside). */
static void mark_ends_inside(rules_visgraph *g, base_vec2 from, base_vec2 to)
{
    g->start_inside = g->end_inside = false;
    for (size_t k = 0; k < g->n_obst; k++) {
        g->in_start[k] = vg_strictly_inside(g, &g->obst[k], from);
        g->in_end[k] = vg_strictly_inside(g, &g->obst[k], to);
        g->start_inside |= g->in_start[k];
        g->end_inside |= g->in_end[k];
    }
}

/* A*'s state before the first expansion: every node unreached, the start
 * open, and the candidates an expansion looks at (usable and not closed:
 * closing a node takes it out, so the work per expansion shrinks as the
 * search goes on). -1 when out of memory. */
static int start_search(rules_visgraph *g, base_vec2 from, base_vec2 to)
{
    const size_t n = g->n_nodes;
    for (size_t i = 0; i < n; i++) {
        g->g[i] = INFINITY;
        g->parent[i] = SIZE_MAX;
        g->state[i] = 0;
        g->h[i] = -1; /* computed when first opened */
    }
    if (!vg_grow_array((void **)&g->cand, &g->cap_cand, n, sizeof *g->cand) ||
        !vg_grow_array((void **)&g->cand_at, &g->cap_cand_at, n, sizeof *g->cand_at))
        return -1;
    if (!vg_grow_array((void **)&g->sees_end, &g->cap_sees_end, n, sizeof *g->sees_end))
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
    g->h[0] = base_v2_dist(from, to);
    g->g[0] = 0;
    g->state[0] = 1;
    g->n_heap = 0;
    return heap_push(g, g->h[0], 0) < 0 ? -1 : 0;
}

/* Closes node u and opens every candidate it sees more cheaply than before. -1 when out of memory. */
static int expand(rules_visgraph *g, size_t u, base_vec2 to)
{
    g->state[u] = 2;
    if (g->cand_at[u] != SIZE_MAX) { /* out of the candidates: swap with the last */
        size_t last = g->cand[--g->n_cand], at = g->cand_at[u];
        g->cand[at] = last;
        g->cand_at[last] = at;
        g->cand_at[u] = SIZE_MAX;
    }
    const base_vec2 pu = g->nodes[u].p;
    for (size_t k = 0; k < g->n_cand; k++) {
        size_t v = g->cand[k];
        if (!worth_trying(g, u, v))
            continue;
        double nd = g->g[u] + fast_dist(pu, g->nodes[v].p);
        if (nd >= g->g[v] || !vg_visible(g, u, v))
            continue;
        g->g[v] = nd;
        g->parent[v] = u;
        g->state[v] = 1;
        if (g->h[v] < 0)
            g->h[v] = fast_dist(g->nodes[v].p, to);
        if (heap_push(g, nd + g->h[v], v) < 0)
            return -1;
    }
    return 0;
}

/* The route found, from the start (node 0) to the end (node 1) through the parents. */
static int trace_route(const rules_visgraph *g, rules_route *out)
{
    size_t count = 1;
    for (size_t v = 1; v != 0; v = g->parent[v])
        count++;
    if (!vg_grow_array((void **)&out->points, &out->cap_points, count, sizeof *out->points))
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

int rules_visgraph_route(rules_visgraph *g, base_vec2 from, base_vec2 to, rules_route *out)
{
    if (ensure_scratch(g) < 0)
        return -1;
    if (g->dirty)
        update_usable(g);
    g->nodes[0].p = from;
    g->nodes[1].p = to;
    mark_ends_inside(g, from, to);
    if (vg_visible(g, 0, 1)) {
        base_vec2 two[2] = {from, to};
        return set_route(out, two, 2, base_v2_dist(from, to));
    }
    /* A* with the straight-line heuristic (admissible and consistent: a node is final when popped). */
    if (start_search(g, from, to) < 0)
        return -1;
    while (g->n_heap) {
        struct heap_item it = heap_pop(g);
        size_t u = it.node;
        if (g->state[u] == 2 || it.f > g->g[u] + g->h[u])
            continue; /* a stale entry: the node was reached more cheaply since */
        if (u == 1)
            break;
        if (expand(g, u, to) < 0)
            return -1;
    }
    if (!isfinite(g->g[1])) {
        base_vec2 two[2] = {from, to};
        return set_route(out, two, 2, INFINITY) < 0 ? -1 : 1;
    }
    return trace_route(g, out);
}

int rules_route_append(rules_route *out, const rules_route *other)
{
    if (other->n_points == 0)
        return 0;
    const bool was_empty = out->n_points == 0;
    const size_t skip = was_empty ? 0 : 1;
    if (!vg_grow_array((void **)&out->points, &out->cap_points, out->n_points + other->n_points - skip,
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
