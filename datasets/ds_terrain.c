/* ds_terrain: the table's terrain drawn into the canvas (see the header). */
#include "ds_terrain.h"
#include "ds_math.h"

#include <math.h>
#include <stdlib.h>

#include "rules_relief.h"

#define MAX_POLY 64

static cvs_colour grey(double v)
{
    uint8_t g = (uint8_t)fmin(255, fmax(0, v));
    return (cvs_colour){g, g, g};
}

static cvs_colour scaled(cvs_colour c, double k)
{
    return (cvs_colour){(uint8_t)fmin(255, c.r * k), (uint8_t)fmin(255, c.g * k), (uint8_t)fmin(255, c.b * k)};
}

/* A 3D polygon (board mm) filled on the canvas; 0 when it cannot be seen. */
static int fill_3d(ds_canvas *c, const double (*X)[3], int n, cvs_colour colour)
{
    double xy[2 * MAX_POLY];
    if (n > MAX_POLY)
        n = MAX_POLY;
    for (int i = 0; i < n; i++)
        if (!ds_canvas_point(c, X[i], xy + 2 * i))
            return 0;
    return cvs_render_fill_poly_c(c->img, xy, n, colour, NULL, 0, c->err);
}

static int fill_flat(ds_canvas *c, const base_vec2 *pts, size_t n, double h, cvs_colour colour)
{
    double X[MAX_POLY][3];
    for (size_t i = 0; i < n && i < MAX_POLY; i++)
        X[i][0] = pts[i].x, X[i][1] = pts[i].y, X[i][2] = h;
    return fill_3d(c, (const double(*)[3])X, (int)(n < MAX_POLY ? n : MAX_POLY), colour);
}

int ds_terrain_draw_flat(ds_canvas *c, const rules_snapshot *snap, const ds_render_params *p, ds_rng *r)
{
    const int real = p->style == DS_STYLE_REAL;
    for (size_t i = 0; i < snap->n_terrain; i++) {
        const rules_terrain *t = &snap->terrain[i];
        if (t->relief != RULES_RELIEF_FLAT)
            continue;
        uint8_t v = t->kind == RULES_TERRAIN_IMPASSABLE ? 70 : t->kind == RULES_TERRAIN_OBSTRUCTION ? 95 : 150;
        cvs_colour col = !real ? grey(v)
                         : t->kind == RULES_TERRAIN_IMPASSABLE  ? (cvs_colour){70, 66, 62}
                         : t->kind == RULES_TERRAIN_OBSTRUCTION ? (cvs_colour){85, 70, 50}
                                                                : (cvs_colour){60, 95, 45};
        if (fill_flat(c, t->points, t->n_points, 0, col) < 0)
            return -1;
        if (!p->textures)
            continue;
        double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
        for (size_t k = 0; k < t->n_points; k++) {
            x0 = fmin(x0, t->points[k].x), x1 = fmax(x1, t->points[k].x);
            y0 = fmin(y0, t->points[k].y), y1 = fmax(y1, t->points[k].y);
        }
        int n = (int)((x1 - x0) * (y1 - y0) / 400);
        for (int k = 0; k < n && k < 4000; k++) {
            const double y = ds_rnd_in(r, y0, y1); /* drawn before x: DS_RND_ORDER */
            base_vec2 q = base_v2(ds_rnd_in(r, x0, x1), y);
            if (!base_poly_contains(t->points, t->n_points, q))
                continue;
            base_vec2 tri[3] = {q, base_v2(q.x + 3, q.y + 1), base_v2(q.x + 1, q.y + 3)};
            const double val = v - 30 + 60 * ds_rnd(r);
            if (fill_flat(c, tri, 3, 0, !real ? grey(val) : scaled(col, val / v)) < 0)
                return -1;
        }
    }
    return 0;
}

/* The outline a piece's side starts from on the board: its foot, or its top's own (sheer sides). */
static const base_vec2 *foot_of(const rules_terrain *t, size_t *n)
{
    *n = t->foot ? t->n_foot : t->n_points;
    return t->foot ? t->foot : t->points;
}

/* The point of the foot outline that side k of the top rises from: the foot vertex with the same share of
 * the way round (foot and top may have different numbers of corners). */
static base_vec2 foot_at(const rules_terrain *t, double share)
{
    size_t nf;
    const base_vec2 *f = foot_of(t, &nf);
    const double at = share * (double)nf;
    const size_t i = (size_t)floor(at) % nf;
    const double u = at - floor(at);
    const base_vec2 a = f[i], b = f[(i + 1) % nf];
    return base_v2(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u);
}

typedef struct side {
    double X[4][3];
    double dist;
    double light;
} side;

static int cmp_far_first(const void *a, const void *b)
{
    const side *x = a, *y = b;
    return (x->dist < y->dist) - (x->dist > y->dist);
}

/* A piece's sides (one per edge of its top, each down to its foot), far ones first, then its top. */
static int draw_solid(ds_canvas *c, const rules_terrain *t, const ds_render_params *p)
{
    const size_t n = t->n_points < MAX_POLY ? t->n_points : MAX_POLY;
    side sides[MAX_POLY];
    const double *C = c->cam.centre, H = t->height_mm;
    for (size_t k = 0; k < n; k++) {
        const base_vec2 a = t->points[k], b = t->points[(k + 1) % n];
        const base_vec2 fa = t->foot ? foot_at(t, (double)k / n) : a, fb = t->foot ? foot_at(t, (double)(k + 1) / n) : b;
        side *s = &sides[k];
        const double X[4][3] = {{fa.x, fa.y, 0}, {fb.x, fb.y, 0}, {b.x, b.y, H}, {a.x, a.y, H}};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                s->X[i][j] = X[i][j];
        const double mx = (a.x + b.x + fa.x + fb.x) / 4, my = (a.y + b.y + fa.y + fb.y) / 4;
        s->dist = ds_hypot(mx - C[0], my - C[1]);
        /* Lit from the lamp's side: the side's outward normal against the lamp's direction. */
        const base_vec2 e = base_v2_sub(b, a), out = base_v2(e.y, -e.x);
        const double len = base_v2_len(out), lx = p->lamp[0] - mx, ly = p->lamp[1] - my, ll = ds_hypot(lx, ly);
        s->light = len > 0 && ll > 0 ? 0.75 + 0.2 * (out.x * lx + out.y * ly) / (len * ll) : 0.75;
    }
    qsort(sides, n, sizeof *sides, cmp_far_first);
    const int real = p->style == DS_STYLE_REAL, hill = t->relief == RULES_RELIEF_HILL;
    const cvs_colour top = !real ? grey(hill ? 135 : 110) : hill ? (cvs_colour){58, 92, 52} : (cvs_colour){96, 96, 100};
    for (size_t k = 0; k < n; k++)
        if (fill_3d(c, (const double(*)[3])sides[k].X, 4, !real ? grey(90 * sides[k].light) : scaled(top, 0.8 * sides[k].light)) < 0)
            return -1;
    return fill_flat(c, t->points, n, H, top);
}

int ds_terrain_draw_relief(ds_canvas *c, const rules_snapshot *snap, const ds_render_params *p)
{
    for (size_t i = 0; i < snap->n_terrain; i++)
        if (snap->terrain[i].relief != RULES_RELIEF_FLAT && draw_solid(c, &snap->terrain[i], p) < 0)
            return -1;
    return 0;
}

double ds_terrain_height(const rules_snapshot *snap, base_vec2 p)
{
    return rules_relief_height(snap->terrain, snap->n_terrain, p, NULL);
}

/* Is point (x, y, z) inside the solid of piece t (under its top, inside its sides)? */
static bool inside_solid(const rules_terrain *t, double x, double y, double z)
{
    if (z < 0 || z > t->height_mm)
        return false;
    const base_vec2 q = base_v2(x, y);
    if (t->relief == RULES_RELIEF_HILL)
        return rules_relief_piece_height(t, q) >= z;
    return base_poly_contains(t->points, t->n_points, q);
}

bool ds_terrain_hides(const ds_canvas *c, const rules_snapshot *snap, const double X[3])
{
    const double *C = c->cam.centre;
    for (size_t i = 0; i < snap->n_terrain; i++) {
        const rules_terrain *t = &snap->terrain[i];
        if (t->relief == RULES_RELIEF_FLAT || X[2] >= t->height_mm)
            continue;
        /* Up the ray from X to the camera, in 0.5 mm of height, while it is below the piece's top. */
        for (double z = X[2] + 0.5; z < t->height_mm; z += 0.5) {
            const double s = (z - X[2]) / (C[2] - X[2]);
            if (inside_solid(t, X[0] + (C[0] - X[0]) * s, X[1] + (C[1] - X[1]) * s, z))
                return true;
        }
    }
    return false;
}

bool ds_terrain_drawn_raised(const ds_canvas *c, const rules_snapshot *snap, base_vec2 p, double above_mm)
{
    const double ground = ds_terrain_height(snap, p);
    const double X[3] = {p.x, p.y, ground + above_mm};
    return ground > 0 && !ds_terrain_hides(c, snap, X);
}

int ds_terrain_fill_heights(ds_canvas *c, const rules_snapshot *snap, double step_mm)
{
    for (size_t i = 0; i < snap->n_terrain; i++) {
        const rules_terrain *t = &snap->terrain[i];
        if (t->relief != RULES_RELIEF_HILL)
            continue;
        const size_t n = t->n_points < MAX_POLY ? t->n_points : MAX_POLY;
        /* Each side at its middle height: the light lands within half the side's height of it. */
        for (size_t k = 0; k < n && t->foot; k++) {
            const base_vec2 a = t->points[k], b = t->points[(k + 1) % n];
            const base_vec2 fa = foot_at(t, (double)k / n), fb = foot_at(t, (double)(k + 1) / n);
            const double X[4][3] = {{fa.x, fa.y, 0}, {fb.x, fb.y, 0}, {b.x, b.y, t->height_mm}, {a.x, a.y, t->height_mm}};
            if (fill_3d(c, X, 4, grey(t->height_mm / 2 / step_mm + 0.5)) < 0)
                return -1;
        }
        if (fill_flat(c, t->points, n, t->height_mm, grey(t->height_mm / step_mm + 0.5)) < 0)
            return -1;
    }
    return 0;
}
