#include "ds_solid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base_geom.h"

enum { LAT = 6, LON = 12, DISC_SEG = 24, MAX_PTS = 2 * (LAT + 1) * LON };

/* ---------------------------------------------------------------- geometry */

static void v3_axpy(double out[3], const double a[3], double k, const double b[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] + k * b[i];
}

static double v3_dist(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* Surface points of a solid, board frame; returns how many (<= MAX_PTS). */
static int solid_points(const ds_solid *s, double (*p)[3])
{
    int n = 0;
    if (s->kind == DS_SOLID_DISC) {
        /* Two unit vectors across the normal. */
        const double *w = s->w;
        double e1[3] = {fabs(w[0]) < 0.9 ? 1 : 0, fabs(w[0]) < 0.9 ? 0 : 1, 0};
        double d = e1[0] * w[0] + e1[1] * w[1] + e1[2] * w[2];
        for (int i = 0; i < 3; i++)
            e1[i] -= d * w[i];
        double l = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
        for (int i = 0; i < 3; i++)
            e1[i] /= l;
        double e2[3] = {w[1] * e1[2] - w[2] * e1[1], w[2] * e1[0] - w[0] * e1[2], w[0] * e1[1] - w[1] * e1[0]};
        for (int side = -1; side <= 1; side += 2)
            for (int k = 0; k < DISC_SEG; k++) {
                double a = 2 * BASE_PI * k / DISC_SEG, ca = cos(a) * s->ra, sa = sin(a) * s->ra;
                for (int i = 0; i < 3; i++)
                    p[n][i] = s->a[i] + ca * e1[i] + sa * e2[i] + side * 0.5 * s->rb * w[i];
                n++;
            }
        return n;
    }
    for (int end = 0; end < (s->kind == DS_SOLID_CAPSULE ? 2 : 1); end++)
        for (int i = 0; i <= LAT; i++) {
            double ph = BASE_PI * i / LAT - BASE_PI / 2, cp = cos(ph), sp = sin(ph);
            for (int j = 0; j < LON; j++) {
                double th = 2 * BASE_PI * j / LON, x = cos(th) * cp, y = sin(th) * cp;
                if (s->kind == DS_SOLID_CAPSULE) {
                    const double *c = end ? s->b : s->a, r = end ? s->rb : s->ra;
                    p[n][0] = c[0] + r * x, p[n][1] = c[1] + r * y, p[n][2] = c[2] + r * sp;
                } else {
                    for (int k = 0; k < 3; k++)
                        p[n][k] = s->a[k] + x * s->u[k] + y * s->v[k] + sp * s->w[k];
                }
                n++;
            }
        }
    return n;
}

static void solid_centre(const ds_solid *s, double c[3])
{
    for (int i = 0; i < 3; i++)
        c[i] = s->kind == DS_SOLID_CAPSULE ? (s->a[i] + s->b[i]) / 2 : s->a[i];
}

/* A copy shrunk by k about its centre and moved by `shift` (the highlight). */
static ds_solid solid_scaled(const ds_solid *s, double k, const double shift[3])
{
    ds_solid t = *s;
    double c[3];
    solid_centre(s, c);
    for (int i = 0; i < 3; i++) {
        t.a[i] = c[i] + k * (s->a[i] - c[i]) + shift[i];
        t.b[i] = c[i] + k * (s->b[i] - c[i]) + shift[i];
        t.u[i] *= k, t.v[i] *= k;
        t.w[i] *= s->kind == DS_SOLID_DISC ? 1 : k;
    }
    t.ra *= k;
    t.rb *= s->kind == DS_SOLID_DISC ? 1 : k;
    return t;
}

static double solid_size(const ds_solid *s)
{
    if (s->kind == DS_SOLID_CAPSULE)
        return fmax(s->ra, s->rb);
    if (s->kind == DS_SOLID_DISC)
        return s->ra;
    double m = 0;
    for (int i = 0; i < 3; i++)
        m = fmax(m, fmax(fabs(s->u[i]), fmax(fabs(s->v[i]), fabs(s->w[i]))));
    return m;
}

/* -------------------------------------------------------------- drawing */

static cvs_colour shade(cvs_colour c, double k)
{
    double r = c.r * k, g = c.g * k, b = c.b * k;
    return (cvs_colour){(uint8_t)fmin(255, r), (uint8_t)fmin(255, g), (uint8_t)fmin(255, b)};
}

/* Hull of the solid's projection; returns its size, 0 when any point is behind the camera. */
static int solid_hull(const ds_canvas *c, const ds_solid *s, double *hull_xy)
{
    double p[MAX_PTS][3], xy[2 * MAX_PTS];
    int n = solid_points(s, p);
    for (int i = 0; i < n; i++)
        if (!ds_canvas_point(c, p[i], xy + 2 * i))
            return 0;
    return ds_canvas_hull(xy, n, hull_xy);
}

static int draw_one(ds_canvas *c, const ds_solid *s, ds_occluder occ, const double lamp[3])
{
    double h[2 * MAX_PTS + 4];
    int k = solid_hull(c, s, h);
    if (k < 3)
        return 0;
    /* The body in its shaded tone, then smaller and smaller parts towards the lamp, lighter each. */
    if (cvs_render_fill_poly_c(c->img, h, k, shade(s->colour, 0.72), ds_canvas_mask(c, occ), 255, c->err) < 0)
        return -1;
    double x0 = 1e300, x1 = -1e300;
    for (int i = 0; i < k; i++)
        x0 = fmin(x0, h[2 * i]), x1 = fmax(x1, h[2 * i]);
    const int layers = x1 - x0 < 4 ? 0 : x1 - x0 < 16 ? 2 : 5;
    double centre[3], to_lamp[3];
    solid_centre(s, centre);
    double d = v3_dist(lamp, centre), r = solid_size(s);
    for (int l = 1; l <= layers; l++) {
        const double t = (double)l / layers;
        for (int i = 0; i < 3; i++)
            to_lamp[i] = (lamp[i] - centre[i]) / d * 0.35 * r * t;
        ds_solid lit = solid_scaled(s, 1 - 0.55 * t, to_lamp);
        if ((k = solid_hull(c, &lit, h)) < 3)
            return 0;
        if (cvs_render_fill_poly_c(c->img, h, k, shade(s->colour, 0.72 + (0.3 + 0.3 * s->shine) * t), NULL, 0,
                                   c->err) < 0)
            return -1;
    }
    return 0;
}

typedef struct order_item {
    double dist;
    int index;
} order_item;
static int far_first(const void *a, const void *b)
{
    const order_item *x = a, *y = b;
    return (x->dist < y->dist) - (x->dist > y->dist);
}

int ds_solids_draw(ds_canvas *c, ds_solid *s, int n, ds_occluder occ, const double lamp[3])
{
    order_item o[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++) {
        double m[3];
        solid_centre(&s[i], m);
        o[i] = (order_item){v3_dist(m, c->cam.centre), i};
    }
    qsort(o, (size_t)n, sizeof *o, far_first);
    for (int i = 0; i < n; i++)
        if (draw_one(c, &s[o[i].index], occ, lamp) < 0)
            return -1;
    return 0;
}

int ds_solids_shadow(ds_canvas *c, const ds_solid *s, int n, const double lamp[3], double lamp_size_mm,
                     double factor)
{
    enum { CAP = 64 };
    static const int per = 2 * MAX_PTS + 4;
    double *xy = malloc(sizeof(double) * (size_t)per * CAP);
    int counts[CAP], np = 0, at = 0;
    double zsum = 0, zn = 0, ground[3] = {0, 0, 0};
    if (!xy)
        return base_error_set(c->err, "render: out of memory");
    for (int i = 0; i < n && np < CAP; i++) {
        double p[MAX_PTS][3], q[2 * MAX_PTS];
        int m = solid_points(&s[i], p), ok = 1;
        for (int k = 0; k < m && ok; k++) {
            /* Where the lamp's ray through the point meets the ground it stands on. */
            const double g0 = c->ground_mm;
            double t = (lamp[2] - g0) / fmax(1e-6, lamp[2] - p[k][2]);
            double g[3] = {lamp[0] + (p[k][0] - lamp[0]) * t, lamp[1] + (p[k][1] - lamp[1]) * t, g0};
            ok = ds_canvas_point(c, g, q + 2 * k);
            zsum += p[k][2] - g0, zn++;
            ground[0] += g[0], ground[1] += g[1];
        }
        if (!ok)
            continue;
        counts[np] = ds_canvas_hull(q, m, xy + at);
        at += 2 * counts[np++];
    }
    int rc = 0;
    if (np > 0 && zn > 0) {
        /* The penumbra grows with the height of what casts it. */
        const double z = zsum / zn;
        ground[0] /= zn, ground[1] /= zn;
        const double pen_mm = lamp_size_mm * z / fmax(1, lamp[2] - z);
        const double blur = c->K[0] * pen_mm / fmax(1, v3_dist(ground, c->cam.centre)) / 2;
        rc = cvs_render_shade_polys(c->img, xy, counts, np, factor, blur, c->err);
    }
    free(xy);
    return rc;
}

/* -------------------------------------------------------------- builders */

/* The figure's own frame after its lean: origin at the feet, x forward, y left, z up. */
typedef struct frame {
    double o[3], ex[3], ey[3], ez[3];
} frame;

static void rotate(double v[3], const double k[3], double ang)
{
    /* Rodrigues: v cos + (k x v) sin + k (k.v)(1 - cos). */
    double c = cos(ang), s = sin(ang), kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    double x[3] = {k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]};
    for (int i = 0; i < 3; i++)
        v[i] = v[i] * c + x[i] * s + k[i] * kv * (1 - c);
}

static frame make_frame(const double o[3], double facing, double lean, double lean_dir)
{
    frame f;
    memcpy(f.o, o, sizeof f.o);
    double ex[3] = {cos(facing), sin(facing), 0}, ey[3] = {-sin(facing), cos(facing), 0}, ez[3] = {0, 0, 1};
    const double k[3] = {-sin(lean_dir), cos(lean_dir), 0};
    rotate(ex, k, lean), rotate(ey, k, lean), rotate(ez, k, lean);
    memcpy(f.ex, ex, sizeof ex), memcpy(f.ey, ey, sizeof ey), memcpy(f.ez, ez, sizeof ez);
    return f;
}

static void at(const frame *f, double x, double y, double z, double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = f->o[i] + x * f->ex[i] + y * f->ey[i] + z * f->ez[i];
}

static void dir(const frame *f, double x, double y, double z, double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = x * f->ex[i] + y * f->ey[i] + z * f->ez[i];
}

typedef struct builder {
    ds_solid *out;
    int n, cap;
    const frame *f;
} builder;

static ds_solid *push(builder *b, ds_solid_kind kind, cvs_colour col, double shine)
{
    if (b->n >= b->cap)
        return NULL;
    ds_solid *s = &b->out[b->n++];
    memset(s, 0, sizeof *s);
    s->kind = kind, s->colour = col, s->shine = shine;
    return s;
}

static void capsule(builder *b, const double A[3], double ra, const double B[3], double rb, cvs_colour col,
                    double shine)
{
    ds_solid *s = push(b, DS_SOLID_CAPSULE, col, shine);
    if (!s)
        return;
    at(b->f, A[0], A[1], A[2], s->a), at(b->f, B[0], B[1], B[2], s->b);
    s->ra = ra, s->rb = rb;
}

static void ellipsoid(builder *b, const double C[3], double ax, double ay, double az, cvs_colour col, double shine)
{
    ds_solid *s = push(b, DS_SOLID_ELLIPSOID, col, shine);
    if (!s)
        return;
    at(b->f, C[0], C[1], C[2], s->a);
    dir(b->f, ax, 0, 0, s->u), dir(b->f, 0, ay, 0, s->v), dir(b->f, 0, 0, az, s->w);
}

static void disc(builder *b, const double C[3], const double N[3], double radius, double thick, cvs_colour col,
                 double shine)
{
    ds_solid *s = push(b, DS_SOLID_DISC, col, shine);
    if (!s)
        return;
    at(b->f, C[0], C[1], C[2], s->a);
    dir(b->f, N[0], N[1], N[2], s->w);
    s->ra = radius, s->rb = thick;
}

/* A weapon held in the hand at `hand` (figure frame), scaled to a man of height h. */
static void weapon(builder *b, const ds_figure *f, const double hand[3], const double off_hand[3], double h)
{
    const double e = f->weapon_elev;
    switch (f->weapon) {
    case DS_WEAPON_SPEAR: {
        const double L = (f->kind == DS_FIG_CAVALRY ? 3.0 : 2.3) * h * (28.0 / fmax(20, h));
        const double d[3] = {cos(e), 0, sin(e)};
        double A[3], B[3], T[3];
        v3_axpy(A, hand, -0.3 * L, d), v3_axpy(B, hand, 0.7 * L, d), v3_axpy(T, B, 6, d);
        capsule(b, A, 0.7, B, 0.7, f->wood, 0.1);
        capsule(b, B, 1.1, T, 0.25, f->metal, 0.9);
        break;
    }
    case DS_WEAPON_SWORD_SHIELD: {
        const double t = f->shield_tilt;
        const double n[3] = {cos(0.5) * cos(t), sin(0.5) * cos(t), sin(t)};
        const double S[3] = {off_hand[0] + 0.03 * h, off_hand[1] + 0.02 * h, off_hand[2]};
        disc(b, S, n, 0.19 * h * fmax(1, 0.8 * f->bulk), 1.2, f->cloth2, 0.3);
        const double T[3] = {hand[0] + 0.3 * h, hand[1], hand[2] + 0.3 * h};
        capsule(b, hand, 0.9, T, 0.6, f->metal, 0.9);
        break;
    }
    case DS_WEAPON_HALBERD: {
        const double A[3] = {hand[0], hand[1], hand[2] - 0.45 * h}, B[3] = {hand[0] + 0.08 * h, hand[1], hand[2] + 1.05 * h};
        capsule(b, A, 0.75, B, 0.75, f->wood, 0.1);
        const double blade[3] = {B[0] + 0.03 * h, B[1], B[2] - 0.1 * h};
        ellipsoid(b, blade, 0.09 * h, 0.01 * h, 0.07 * h, f->metal, 0.9);
        break;
    }
    case DS_WEAPON_BANNER: {
        const double A[3] = {hand[0], hand[1], hand[2] - 0.5 * h}, B[3] = {hand[0], hand[1], 1.95 * h};
        capsule(b, A, 0.8, B, 0.8, f->wood, 0.1);
        const double flag[3] = {hand[0] - 0.2 * h, hand[1], 1.7 * h};
        ellipsoid(b, flag, 0.22 * h, 0.02 * h, 0.2 * h, f->cloth, 0.1);
        break;
    }
    case DS_WEAPON_CLUB: {
        const double T[3] = {hand[0] + 0.1 * h, hand[1], hand[2] + 0.45 * h};
        capsule(b, hand, 0.05 * h, T, 0.09 * h, f->wood, 0.1);
        break;
    }
    default:
        break;
    }
}

/* A standing man (or, with bulk, an ogre) of height h with feet at z0 in the frame. */
static void humanoid(builder *b, const ds_figure *f, double h, double z0, int seated)
{
    const double w = f->bulk;
    if (!seated)
        for (int s = -1; s <= 1; s += 2) {
            const double fx = s * f->stride * 0.10 * h;
            const double foot[3] = {fx, s * 0.07 * h * w, z0 + 0.035 * h}, hip[3] = {0, s * 0.06 * h * w, z0 + 0.47 * h};
            capsule(b, foot, 0.045 * h, hip, 0.06 * h * w, f->cloth2, 0.1);
        }
    else
        for (int s = -1; s <= 1; s += 2) {
            const double hip[3] = {0, s * 0.06 * h * w, z0 + 0.45 * h}, knee[3] = {0.14 * h, s * 0.12 * h * w, z0 + 0.35 * h};
            const double foot[3] = {0.1 * h, s * 0.13 * h * w, z0 + 0.08 * h};
            capsule(b, hip, 0.06 * h * w, knee, 0.05 * h, f->cloth2, 0.1);
            capsule(b, knee, 0.05 * h, foot, 0.04 * h, f->cloth2, 0.1);
        }
    const double torso[3] = {0, 0, z0 + 0.63 * h};
    ellipsoid(b, torso, 0.085 * h * w, 0.14 * h * w, 0.17 * h, f->cloth, 0.2);
    if (f->cloak) {
        const double cl[3] = {-0.075 * h * w, 0, z0 + 0.55 * h};
        ellipsoid(b, cl, 0.035 * h, 0.15 * h * w, 0.26 * h, f->cloth2, 0.1);
    }
    if (f->cloak == 2) {
        /* Its hem flares out behind and to the sides, a hand's breadth above the base. */
        const double hem[3] = {-0.13 * h * w, 0, z0 + 0.2 * h};
        ellipsoid(b, hem, 0.1 * h * w, 0.2 * h * w, 0.16 * h, f->cloth2, 0.1);
    }
    const double head[3] = {0.01 * h, 0, z0 + 0.885 * h}, helm[3] = {0, 0, z0 + 0.915 * h};
    ellipsoid(b, head, 0.068 * h, 0.068 * h, 0.07 * h, f->skin, 0.2);
    ellipsoid(b, helm, 0.072 * h, 0.072 * h, 0.05 * h, f->metal, 0.8);
    const double rs[3] = {0, -0.145 * h * w, z0 + 0.76 * h}, ls[3] = {0, 0.145 * h * w, z0 + 0.76 * h};
    const double rh[3] = {0.15 * h, -0.17 * h * w, z0 + 0.56 * h}, lh[3] = {0.13 * h, 0.18 * h * w, z0 + 0.6 * h};
    capsule(b, rs, 0.04 * h * w, rh, 0.035 * h * w, f->cloth, 0.2);
    capsule(b, ls, 0.04 * h * w, lh, 0.035 * h * w, f->cloth, 0.2);
    weapon(b, f, rh, lh, h);
}

static void horse(builder *b, const ds_figure *f, double s)
{
    const double body[3] = {0, 0, 18 * s};
    ellipsoid(b, body, 19 * s, 7 * s, 8 * s, f->coat, 0.3);
    const double n0[3] = {13 * s, 0, 21 * s}, n1[3] = {21 * s, 0, 31 * s}, head[3] = {25 * s, 0, 31 * s};
    capsule(b, n0, 6 * s, n1, 4 * s, f->coat, 0.3);
    ellipsoid(b, head, 7 * s, 3.2 * s, 3.5 * s, f->coat, 0.3);
    for (int i = 0; i < 4; i++) {
        const double x = i < 2 ? 12 * s : -12 * s, y = (i % 2 ? 4.5 : -4.5) * s;
        const double top[3] = {x, y, 14 * s}, hoof[3] = {x + f->stride * 2 * s * (i < 2 ? 1 : -1), y, 0.8 * s};
        capsule(b, top, 3 * s, hoof, 1.8 * s, f->coat, 0.3);
    }
    const double t0[3] = {-19 * s, 0, 20 * s}, t1[3] = {-24 * s, 0, 8 * s};
    capsule(b, t0, 2.5 * s, t1, 1.5 * s, f->coat, 0.2);
}

/* A creature on four legs filling a length x width base: body, neck and head, legs, tail, maybe wings. */
static void beast(builder *b, const ds_figure *f)
{
    const double L = f->length, W = f->width, zb = 0.3 * L;
    const double body[3] = {0, 0, zb};
    ellipsoid(b, body, 0.34 * L, 0.4 * W, 0.13 * L, f->coat, 0.3);
    const double n0[3] = {0.22 * L, 0, zb + 0.05 * L}, n1[3] = {0.4 * L, 0, zb + 0.3 * L};
    capsule(b, n0, 0.09 * W * 1.6, n1, 0.06 * W * 1.6, f->coat, 0.3);
    const double head[3] = {0.46 * L, 0, zb + 0.32 * L};
    ellipsoid(b, head, 0.1 * L, 0.1 * W, 0.06 * L, f->coat, 0.3);
    for (int i = 0; i < 4; i++) {
        const double x = i < 2 ? 0.22 * L : -0.2 * L, y = (i % 2 ? 0.3 : -0.3) * W;
        const double top[3] = {x, y * 0.8, zb}, paw[3] = {x + f->stride * 0.04 * L, y, 0.02 * L};
        capsule(b, top, 0.07 * W, paw, 0.05 * W, f->coat, 0.3);
    }
    const double t0[3] = {-0.28 * L, 0, zb}, t1[3] = {-0.48 * L, 0.2 * W * f->stride, 0.04 * L};
    capsule(b, t0, 0.08 * W, t1, 0.03 * W, f->coat, 0.2);
    if (f->wings)
        for (int s = -1; s <= 1; s += 2) {
            const double wing[3] = {-0.02 * L, s * 0.45 * W, zb + 0.28 * L};
            ellipsoid(b, wing, 0.24 * L, 0.4 * W, 0.015 * L, f->cloth, 0.2);
        }
}

int ds_figure_solids(const ds_figure *f, ds_solid *out, int cap)
{
    const frame fr = make_frame(f->foot, f->facing, f->lean, f->lean_dir);
    builder b = {out, 0, cap, &fr};
    if (f->footing_r > 0) {
        /* The figure's own base: it stands on it, so it leans with nothing. */
        const frame flat = make_frame(f->foot, f->facing, 0, 0);
        b.f = &flat;
        const double c[3] = {0, 0, 0.9}, up[3] = {0, 0, 1};
        disc(&b, c, up, f->footing_r, 1.8, f->ground, 0.05);
        b.f = &fr;
    }
    if (f->kind == DS_FIG_BEAST) {
        beast(&b, f);
    } else if (f->kind == DS_FIG_CAVALRY) {
        /* The rider's head is at f->height; a horse's back at ~0.55 of it. */
        const double s = f->height / 45.0;
        horse(&b, f, s);
        humanoid(&b, f, 19 * s, 26 * s, 1);
    } else {
        humanoid(&b, f, f->height, 0, 0);
    }
    return b.n;
}

int ds_hand_solids(const ds_hand *h, ds_solid *out, int cap)
{
    const double k = h->scale > 0 ? h->scale : 1;
    /* Frame at the palm: x along the fingers, y across, z up. */
    const frame fr = make_frame(h->palm, h->dir, 0, 0);
    builder b = {out, 0, cap, &fr};
    const double palm[3] = {0, 0, 0};
    ellipsoid(&b, palm, 45 * k, 40 * k, 14 * k, h->skin, 0.3);
    const double across[4] = {-24, -8, 8, 24}, len[4] = {62, 76, 80, 72};
    const double bend = h->curl * 1.05;  /* rad at the knuckles */
    for (int i = 0; i < 4; i++) {
        const double A[3] = {38 * k, across[i] * k, 0};
        const double B[3] = {A[0] + len[i] * k * cos(bend), A[1] * 1.05, -len[i] * k * sin(bend)};
        capsule(&b, A, 9 * k, B, 7.5 * k, h->skin, 0.3);
    }
    const double T0[3] = {5 * k, 38 * k, -2 * k}, T1[3] = {40 * k, 50 * k, -12 * k - 20 * k * h->curl};
    capsule(&b, T0, 11 * k, T1, 8.5 * k, h->skin, 0.3);
    /* Forearm and upper arm, back to the shoulder; the elbow bends up and out. */
    double W[3], S[3], E[3], M[3];
    at(&fr, -45 * k, 0, 4 * k, W);
    memcpy(S, h->shoulder, sizeof S);
    for (int i = 0; i < 3; i++)
        E[i] = W[i] + 0.55 * (S[i] - W[i]);
    E[2] += 60;
    for (int i = 0; i < 3; i++)
        M[i] = W[i] + 0.45 * (E[i] - W[i]);
    /* These are already board coordinates: build them in an identity frame. */
    const frame id = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    b.f = &id;
    capsule(&b, W, 27 * k, M, 31 * k, h->skin, 0.3);
    capsule(&b, M, 37 * k, E, 41 * k, h->sleeve, 0.1);
    capsule(&b, E, 45 * k, S, 55 * k, h->sleeve, 0.1);
    return b.n;
}
