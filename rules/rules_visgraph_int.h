/*
 * rules_visgraph_int: the inside of rules_visgraph, shared by its two files
 * (not a public API: include rules_visgraph.h).
 *   rules_visgraph.c        obstacles: growth, hulls, what blocks a segment
 *   rules_visgraph_route.c  the search: A* over the grown vertices
 */
#ifndef RULES_VISGRAPH_INT_H
#define RULES_VISGRAPH_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "rules_visgraph.h"

#define GROW_SIDES 12 /* each vertex disc is circumscribed by a 12-gon: at most 3.5% extra clearance */
/* Segments may run along a grown edge or graze a vertex: the polygon is shrunk by this for blocking. */
#define GRAZE_MM 1e-6


typedef struct obstacle {
    size_t first, n;         /* its grown vertices: nodes[first .. first+n), counter-clockwise */
    double x0, y0, x1, y1;   /* bounding box of the grown hull */
    base_vec2 c;            /* centre of the bounding box, and the radius of a circle about it holding the hull */
    double r;
    size_t raw_first, raw_n; /* the hull before growth: raw[raw_first ..], for start/end inside the growth */
} obstacle;

typedef struct node {
    base_vec2 p;
    size_t obst;             /* owning obstacle, or SIZE_MAX for start/end */
    bool usable;             /* on the board and not inside another obstacle */
} node;

struct rules_visgraph {
    double board_w, board_d;
    obstacle *obst;
    size_t n_obst, cap_obst;
    node *nodes;             /* nodes[0] = start, nodes[1] = end, then obstacle vertices */
    size_t n_nodes, cap_nodes;
    base_vec2 *raw;         /* ungrown hulls */
    size_t n_raw, cap_raw;
    base_vec2 *grown;       /* grown[i] == nodes[i].p, contiguous for the clipping loops */
    size_t cap_grown;
    /* Edge i -> i+1 of each polygon as a half-plane: inside when dot(n, x) > c (n of unit length). */
    base_vec2 *grown_n, *raw_n;
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

struct heap_item {
    double f;     /* g + h when pushed */
    size_t node;
};

/* sqrt rather than hypot: the inner loops run it per node pair; coordinates are millimetres, no overflow. */
static inline double fast_dist(base_vec2 a, base_vec2 b)
{
    double dx = a.x - b.x, dy = a.y - b.y;
    return sqrt(dx * dx + dy * dy);
}

/* Grows *arr to hold `need` elements of `size`; false when out of memory. */
bool vg_grow_array(void **arr, size_t *cap, size_t need, size_t size);
/* Strictly inside (by more than GRAZE_MM) the convex obstacle. */
bool vg_strictly_inside(const rules_visgraph *g, const obstacle *o, base_vec2 p);
/* No obstacle stands between nodes ia and ib (starts and ends inside a growth may cross it). */
bool vg_visible(const rules_visgraph *g, size_t ia, size_t ib);
/* The edge u -> v is tangent at v to v's obstacle (or may be the way out of / into a growth). */
bool vg_tangent(const rules_visgraph *g, size_t iu, size_t iv);

#endif
