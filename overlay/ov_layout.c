/* ov_layout: the label placer (see the header for the rules it keeps). */
#include "ov_layout.h"
#include "base_array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OV_PI 3.14159265358979323846

struct ov_layout {
    ov_box bounds;
    bool has_board;
    ov_quad board;
    ov_obstacle *obs;
    size_t n, cap;
};

/* A base costs the share of the label's area it covers; a line crossed costs a fixed amount (a thin line
 * covers little area, but a label on it hides it), up to MARK_COST_MAX for all of them. */
#define BASE_WEIGHT 1.0
#define MARK_COST 0.3
#define MARK_COST_MAX 1.0
#define OUTSIDE_BOARD_WEIGHT 0.6
/* Any other place first: a label on a keep-out loses its letters there (ov_keepout.h). */
#define KEEPOUT_WEIGHT 50.0
#define DISTANCE_WEIGHT 0.03   /* per label height of distance beyond the clearance */
#define LEADER_CROSS_COST 0.6  /* a leader running under another label */

/* ---- geometry --------------------------------------------------------------- */

ov_quad ov_quad_rect(double cx, double cy, double w, double h, double angle)
{
    double c = cos(angle), s = sin(angle);
    const double lx[4] = {-w / 2, w / 2, w / 2, -w / 2}, ly[4] = {-h / 2, -h / 2, h / 2, h / 2};
    ov_quad q;
    for (int i = 0; i < 4; i++) {
        q.x[i] = cx + c * lx[i] - s * ly[i];
        q.y[i] = cy + s * lx[i] + c * ly[i];
    }
    return q;
}

ov_quad ov_quad_box(ov_box b)
{
    return (ov_quad){{b.x0, b.x1, b.x1, b.x0}, {b.y0, b.y0, b.y1, b.y1}};
}

ov_box ov_quad_bbox(const ov_quad *q)
{
    ov_box b = {q->x[0], q->y[0], q->x[0], q->y[0]};
    for (int i = 1; i < 4; i++) {
        b.x0 = fmin(b.x0, q->x[i]), b.x1 = fmax(b.x1, q->x[i]);
        b.y0 = fmin(b.y0, q->y[i]), b.y1 = fmax(b.y1, q->y[i]);
    }
    return b;
}

double ov_quad_area(const ov_quad *q)
{
    double a = 0;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        a += q->x[i] * q->y[j] - q->x[j] * q->y[i];
    }
    return fabs(a) / 2;
}

/* Projections of a quad on an axis. */
static void project(const ov_quad *q, double ax, double ay, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double p = q->x[i] * ax + q->y[i] * ay;
        *lo = fmin(*lo, p), *hi = fmax(*hi, p);
    }
}

/* True when some edge normal of `a` separates a from b by more than -eps (overlap depth <= eps). */
static bool separated_by(const ov_quad *a, const ov_quad *b, double eps)
{
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        double ex = a->x[j] - a->x[i], ey = a->y[j] - a->y[i], len = hypot(ex, ey);
        if (len < 1e-12)
            continue;
        double nx = -ey / len, ny = ex / len, alo, ahi, blo, bhi;
        project(a, nx, ny, &alo, &ahi);
        project(b, nx, ny, &blo, &bhi);
        if (fmin(ahi, bhi) - fmax(alo, blo) <= eps)
            return true;
    }
    return false;
}

bool ov_quad_overlap(const ov_quad *a, const ov_quad *b, double eps)
{
    return !separated_by(a, b, eps) && !separated_by(b, a, eps);
}

bool ov_quad_contains(const ov_quad *q, double x, double y)
{
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        double c = (q->x[j] - q->x[i]) * (y - q->y[i]) - (q->y[j] - q->y[i]) * (x - q->x[i]);
        pos += c > 0, neg += c < 0;
    }
    return pos == 0 || neg == 0;
}

/* Sutherland-Hodgman: the polygon p (n points, up to 12) clipped by the convex quad c. */
static int clip_poly(double *px, double *py, int n, const ov_quad *c)
{
    double sign = 0;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        sign += c->x[i] * c->y[j] - c->x[j] * c->y[i];
    }
    sign = sign >= 0 ? 1 : -1;
    double ox[16], oy[16];
    for (int e = 0; e < 4 && n > 0; e++) {
        int f = (e + 1) % 4;
        double ex = c->x[f] - c->x[e], ey = c->y[f] - c->y[e];
        int m = 0;
        for (int i = 0; i < n; i++) {
            int k = (i + 1) % n;
            double si = sign * (ex * (py[i] - c->y[e]) - ey * (px[i] - c->x[e]));
            double sk = sign * (ex * (py[k] - c->y[e]) - ey * (px[k] - c->x[e]));
            if (si >= 0 && m < 16)
                ox[m] = px[i], oy[m++] = py[i];
            if ((si >= 0) != (sk >= 0) && m < 16) {
                double t = si / (si - sk);
                ox[m] = px[i] + t * (px[k] - px[i]), oy[m++] = py[i] + t * (py[k] - py[i]);
            }
        }
        n = m > 12 ? 12 : m;
        memcpy(px, ox, (size_t)n * sizeof *px);
        memcpy(py, oy, (size_t)n * sizeof *py);
    }
    return n;
}

double ov_quad_overlap_area(const ov_quad *a, const ov_quad *b)
{
    double px[16], py[16];
    memcpy(px, a->x, sizeof a->x);
    memcpy(py, a->y, sizeof a->y);
    int n = clip_poly(px, py, 4, b);
    double s = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        s += px[i] * py[j] - px[j] * py[i];
    }
    return fabs(s) / 2;
}

static bool boxes_meet(ov_box a, ov_box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* ---- the layout --------------------------------------------------------------- */

static bool is_hard(ov_obstacle_kind k) { return k == OV_OBST_LABEL || k == OV_OBST_NUMBER || k == OV_OBST_CENTRE; }

ov_layout *ov_layout_new(ov_box bounds, const ov_quad *board)
{
    ov_layout *L = calloc(1, sizeof *L);
    if (!L)
        return NULL;
    L->bounds = bounds;
    if (board) {
        L->has_board = true;
        L->board = *board;
    }
    return L;
}

void ov_layout_free(ov_layout *L)
{
    if (!L)
        return;
    free(L->obs);
    free(L);
}

void ov_layout_reset(ov_layout *L) { L->n = 0; }

void ov_layout_set_bounds(ov_layout *L, ov_box bounds) { L->bounds = bounds; }

void ov_layout_set_board(ov_layout *L, const ov_quad *board)
{
    L->has_board = board != NULL;
    if (board)
        L->board = *board;
}

double ov_layout_cost(const ov_layout *L, const ov_quad *c)
{
    ov_box bb = ov_quad_bbox(c);
    if (bb.x0 < L->bounds.x0 || bb.y0 < L->bounds.y0 || bb.x1 > L->bounds.x1 || bb.y1 > L->bounds.y1)
        return INFINITY;
    const double area = fmax(ov_quad_area(c), 1e-9);
    double cost = 0, marks = 0;
    for (size_t i = 0; i < L->n; i++) {
        const ov_obstacle *o = &L->obs[i];
        if (!boxes_meet(bb, o->bb))
            continue;
        if (is_hard(o->kind)) {
            if (ov_quad_overlap(c, &o->q, 0.25))
                return INFINITY;
        } else if (o->kind == OV_OBST_BASE) {
            cost += BASE_WEIGHT * ov_quad_overlap_area(c, &o->q) / area;
        } else if (o->kind == OV_OBST_KEEPOUT) {
            cost += KEEPOUT_WEIGHT * ov_quad_overlap_area(c, &o->q) / area;
        } else if (ov_quad_overlap(c, &o->q, 0.0)) {
            marks += MARK_COST;
        }
    }
    cost += fmin(marks, MARK_COST_MAX);
    if (L->has_board)
        cost += OUTSIDE_BOARD_WEIGHT * (area - ov_quad_overlap_area(c, &L->board)) / area;
    return cost;
}

int ov_layout_add(ov_layout *L, const ov_quad *q, ov_obstacle_kind kind)
{
    if (base_array_reserve((void **)&L->obs, &L->cap, L->n + 1, sizeof *L->obs, 64) < 0)
        return -1;
    L->obs[L->n++] = (ov_obstacle){*q, ov_quad_bbox(q), kind, -1};
    return 0;
}

int ov_layout_add_point(ov_layout *L, double x, double y, double r, ov_obstacle_kind kind)
{
    ov_quad q = ov_quad_rect(x, y, 2 * r, 2 * r, 0);
    return ov_layout_add(L, &q, kind);
}

size_t ov_layout_count(const ov_layout *L) { return L->n; }
const ov_obstacle *ov_layout_get(const ov_layout *L, size_t i) { return i < L->n ? &L->obs[i] : NULL; }
ov_box ov_layout_bounds(const ov_layout *L) { return L->bounds; }

/* Nearest point of the quad's outline to (x, y). */
static void nearest_on_quad(const ov_quad *q, double x, double y, double *nx, double *ny)
{
    double best = INFINITY;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        double ex = q->x[j] - q->x[i], ey = q->y[j] - q->y[i], L2 = ex * ex + ey * ey;
        double t = L2 > 0 ? ((x - q->x[i]) * ex + (y - q->y[i]) * ey) / L2 : 0;
        t = fmin(1, fmax(0, t));
        double px = q->x[i] + t * ex, py = q->y[i] + t * ey, d = hypot(px - x, py - y);
        if (d < best)
            best = d, *nx = px, *ny = py;
    }
}

/* The cost of a label at quad c (INFINITY: not allowed). */
static double candidate_cost(const ov_layout *L, const ov_label_req *q, const ov_quad *c, bool *leader, double *lx,
                             double *ly)
{
    *leader = false;
    *lx = q->ax, *ly = q->ay;
    double cost = ov_layout_cost(L, c);
    if (!isfinite(cost))
        return INFINITY;
    double nx = q->ax, ny = q->ay;
    nearest_on_quad(c, q->ax, q->ay, &nx, &ny);
    double gap = ov_quad_contains(c, q->ax, q->ay) ? 0 : hypot(nx - q->ax, ny - q->ay);
    *leader = gap > q->clear + 0.45 * q->h;
    *lx = nx, *ly = ny;
    cost += DISTANCE_WEIGHT * fmax(0, gap - q->clear) / fmax(q->h, 1);
    if (*leader) {
        /* A leader should not run under other labels. */
        ov_quad seg = {{q->ax, q->ax, nx, nx}, {q->ay, q->ay, ny, ny}};
        ov_box sb = ov_quad_bbox(&seg);
        for (size_t i = 0; i < L->n; i++)
            if (L->obs[i].kind == OV_OBST_LABEL && boxes_meet(sb, L->obs[i].bb) &&
                ov_quad_overlap(&seg, &L->obs[i].q, 0.0)) {
                cost += LEADER_CROSS_COST;
                break;
            }
    }
    return cost;
}

/* Preferred order of directions (device y down): right, left, up, down, then the diagonals and between. */
static const double dir_deg[16] = {0, 180, -90, 90, -45, -135, 45, 135, -22.5, -157.5, 22.5, 157.5, -67.5, -112.5, 67.5, 112.5};

/* Distance from a label's centre to its edge along unit direction (ux, uy). */
static double support(const ov_label_req *q, double ux, double uy)
{
    double c = cos(q->angle), s = sin(q->angle);
    return fabs(ux * c + uy * s) * q->w / 2 + fabs(-ux * s + uy * c) * q->h / 2;
}

int ov_layout_place(ov_layout *L, const ov_label_req *q, ov_label_place *out)
{
    memset(out, 0, sizeof *out);
    const double h = fmax(q->h, 1);
    const ov_box b = L->bounds;
    const double far = hypot(b.x1 - b.x0, b.y1 - b.y0);
    double best = INFINITY;
    ov_quad best_q = {{0}};
    bool best_leader = false;
    double blx = 0, bly = 0;
    /* Rings: close ones a label height apart, then growing geometrically across the picture. */
    double r = q->clear;
    int ndir = 16;
    for (int ring = 0; r < far; ring++) {
        if (!q->leader_ok && ring > 1)
            break;
        if (ring == 10)
            ndir = 32;
        for (int k = 0; k < ndir; k++) {
            double deg = ndir == 16 ? dir_deg[k] : k * 11.25;
            double ux = cos(deg * OV_PI / 180), uy = sin(deg * OV_PI / 180);
            double d = r + support(q, ux, uy);
            ov_quad c = ov_quad_rect(q->ax + ux * d, q->ay + uy * d, q->w, q->h, q->angle);
            bool leader;
            double lx, ly;
            double cost = candidate_cost(L, q, &c, &leader, &lx, &ly);
            if (cost < best - 1e-9) {
                best = cost, best_q = c, best_leader = leader, blx = lx, bly = ly;
            }
        }
        /* A free place close by is as good as it gets: stop looking further out. */
        if (best < 0.02 + DISTANCE_WEIGHT * (r - q->clear) / h)
            break;
        r += ring < 8 ? 0.6 * h : 0.25 * (r - q->clear) + h;
    }
    if (!isfinite(best))
        return 0;
    out->placed = true;
    out->box = best_q;
    out->cx = (best_q.x[0] + best_q.x[2]) / 2;
    out->cy = (best_q.y[0] + best_q.y[2]) / 2;
    out->leader = best_leader && q->leader_ok;
    out->lx = blx, out->ly = bly;
    out->cost = best;
    if (ov_layout_add(L, &best_q, OV_OBST_LABEL) < 0)
        return -1;
    L->obs[L->n - 1].owner = q->owner;
    return 0;
}
