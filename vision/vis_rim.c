/* vis_rim: a rim label read where it is expected (see the header; the layouts: vis_rim_book.c). */
#include "vis_rim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_sample.h"

/* Samples in each cell: 2 x 2, this share of a cell from its centre (the middle, clear of its edges). */
#define SUB 4
#define SUB_Q 0.22
#define MAX_CELLS 640

/*
 * The camera around the label: each sample's exact pixel at a reference
 * pose, and the camera's Jacobian there; a pose a few millimetres and
 * degrees away moves every sample by J times its board displacement (the
 * lens is smooth over a base: a hundredth of a pixel).
 */
typedef struct rim_frame {
    const roster_rim *rim;
    double x0, y0, h0;          /* reference pose: centre (board mm) and heading */
    double c0, s0;              /* cos and sin of h0 */
    double J[2][2];             /* px per board mm */
    int n;                      /* samples: SUB per printed cell */
    double loc[MAX_CELLS * SUB][2];   /* sample, label frame mm (x front, y left) */
    double ref[MAX_CELLS * SUB][2];   /* its pixel at the reference pose */
} rim_frame;

static bool frame_init(const vis_camera *cam, const roster_rim *rim, const double P[3], double h, rim_frame *f)
{
    if (rim->n > MAX_CELLS)
        return false;
    f->rim = rim;
    f->x0 = P[0], f->y0 = P[1], f->h0 = h;
    f->c0 = cos(h), f->s0 = sin(h);
    double p0[2], a[2], b[2];
    const double Px[3] = {P[0] + 1, P[1], P[2]}, Py[3] = {P[0], P[1] + 1, P[2]};
    if (!vis_camera_project(cam, P, p0) || !vis_camera_project(cam, Px, a) || !vis_camera_project(cam, Py, b))
        return false;
    f->J[0][0] = a[0] - p0[0], f->J[1][0] = a[1] - p0[1];
    f->J[0][1] = b[0] - p0[0], f->J[1][1] = b[1] - p0[1];
    const double ch = cos(h), sh = sin(h), q = SUB_Q * rim->cell;
    f->n = 0;
    for (size_t k = 0; k < rim->n; k++)
        for (int s = 0; s < SUB; s++) {
            const double lx = rim->cells[k].x + (s & 1 ? q : -q), ly = rim->cells[k].y + (s & 2 ? q : -q);
            const double X[3] = {P[0] + lx * ch - ly * sh, P[1] + lx * sh + ly * ch, P[2]};
            if (!vis_camera_project(cam, X, f->ref[f->n]))
                return false;
            f->loc[f->n][0] = lx, f->loc[f->n][1] = ly;
            f->n++;
        }
    return true;
}

/* Pixel of sample s at pose (x, y, h). */
static inline void sample_px(const rim_frame *f, int s, double x, double y, double ch, double sh, double out[2])
{
    const double lx = f->loc[s][0], ly = f->loc[s][1], c0 = f->c0, s0 = f->s0;
    const double dx = x - f->x0 + lx * (ch - c0) - ly * (sh - s0);
    const double dy = y - f->y0 + lx * (sh - s0) + ly * (ch - c0);
    out[0] = f->ref[s][0] + f->J[0][0] * dx + f->J[0][1] * dy;
    out[1] = f->ref[s][1] + f->J[1][0] * dx + f->J[1][1] * dy;
}

/* Every printed cell's mean grey at pose (x, y, h) and whether its samples agree on a side of `thr`. */
static void cell_means(const base_view *im, const rim_frame *f, double x, double y, double h, double thr,
                       double *mean, unsigned char *agree)
{
    const double ch = cos(h), sh = sin(h);
    for (size_t k = 0; k < f->rim->n; k++) {
        double sum = 0, lo = 1e9, hi = -1e9;
        int above = 0;
        for (int s = 0; s < SUB; s++) {
            double px[2];
            sample_px(f, (int)k * SUB + s, x, y, ch, sh, px);
            const double g = vis_sample_bilinear(im, px[0], px[1]);
            sum += g;
            above += g > thr;
            lo = fmin(lo, g), hi = fmax(hi, g);
        }
        mean[k] = sum / SUB;
        /* 0: its samples fall on both sides of thr; else 1 + their spread (grey levels). */
        if (agree)
            agree[k] = above == 0 || above == SUB ? (unsigned char)fmin(255, hi - lo + 1) : 0;
    }
}

/* The corner blocks: which printed cells (of rim->cells) belong to block b, and their colours. */
typedef struct blocks {
    int cell[4][4];
    int white[4][4];
} blocks;

static void find_blocks(const roster_rim *rim, blocks *bl)
{
    int fill[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < rim->n; k++) {
        const roster_rim_cell *c = &rim->cells[k];
        if (c->kind == ROSTER_RIM_CODE)
            continue;
        const int b = (c->i >= rim->nx / 2) + 2 * (c->j >= rim->ny / 2);
        if (fill[b] < 4)
            bl->cell[b][fill[b]] = (int)k, bl->white[b][fill[b]] = c->kind == ROSTER_RIM_WHITE, fill[b]++;
    }
}

/* Each block's white minus black at pose (x, y, h) from nearest samples (the search's cheap look). */
static double blocks_score(const base_view *im, const rim_frame *f, const blocks *bl, double x, double y, double h,
                           double contrast[4])
{
    const double ch = cos(h), sh = sin(h);
    double total = 0;
    for (int b = 0; b < 4; b++) {
        double w = 0, k = 0;
        for (int c = 0; c < 4; c++)
            for (int s = 0; s < SUB; s++) {
                double px[2];
                sample_px(f, bl->cell[b][c] * SUB + s, x, y, ch, sh, px);
                const double g = vis_sample_bilinear(im, px[0], px[1]);
                if (bl->white[b][c])
                    w += g;
                else
                    k += g;
            }
        contrast[b] = (w - k) / (2 * SUB);
        total += fmax(0, contrast[b]);
    }
    return total;
}

/* The best pose by the corner blocks on a grid of `n` steps each way in position and `nh` in heading. */
static double search_blocks(const base_view *im, const rim_frame *f, const blocks *bl, double step, int n,
                            double hstep, int nh, double *bx, double *by, double *bh)
{
    double best = -1e9, c[4];
    const double x0 = *bx, y0 = *by, h0 = *bh;
    for (int k = -nh; k <= nh; k++)
        for (int i = -n; i <= n; i++)
            for (int j = -n; j <= n; j++) {
                const double x = x0 + i * step, y = y0 + j * step, h = h0 + k * hstep;
                const double s = blocks_score(im, f, bl, x, y, h, c);
                if (s > best)
                    best = s, *bx = x, *by = y, *bh = h;
            }
    return best;
}

/*
 * The best pose by the corner blocks within +-range mm and +-hrange rad of
 * (*bx, *by, *bh): a grid of `n` steps each way in position at the guess's
 * heading, then a pattern search (each of x, y and heading a step either
 * way, moving to the best, the steps halved when none is better) down to
 * `fine` mm. The blocks' score is smooth over half a cell each way, so the
 * grid's best lies on the slope of the right peak; the pattern search
 * climbs it in a few dozen looks where a full grid of position and heading
 * took 250 (vis_rim_find looks at every checkerboard corner of the table).
 */
static void climb_blocks(const base_view *im, const rim_frame *f, const blocks *bl, double step, int n, double hstep,
                         double range, double hrange, double fine, double *bx, double *by, double *bh)
{
    double c[4];
    const double x0 = *bx, y0 = *by, h0 = *bh;
    double best = search_blocks(im, f, bl, step, n, hstep, 0, bx, by, bh);
    for (double s = step, hs = hstep; s >= fine; s *= 0.5, hs *= 0.5)
        for (int moves = 0; moves < 12; moves++) {
            static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
            int pick = -1;
            for (int k = 0; k < 6; k++) {
                const double x = *bx + d[k][0] * s, y = *by + d[k][1] * s, h = *bh + d[k][2] * hs;
                if (fabs(x - x0) > range || fabs(y - y0) > range || fabs(h - h0) > hrange)
                    continue;
                const double v = blocks_score(im, f, bl, x, y, h, c);
                if (v > best)
                    best = v, pick = k;
            }
            if (pick < 0)
                break;
            *bx += d[pick][0] * s, *by += d[pick][1] * s, *bh += d[pick][2] * hs;
        }
}

static int cmp_dbl(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Paper and ink from the corner blocks that show (a block within half the best's contrast); false when none. */
/* The median of the values within `tol` of `seed`; `seed` when none is. */
static double median_near(const double *v, size_t n, double seed, double tol)
{
    double near[MAX_CELLS];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (fabs(v[i] - seed) < tol)
            near[k++] = v[i];
    if (k == 0)
        return seed;
    qsort(near, k, sizeof *near, cmp_dbl);
    return near[k / 2];
}

/*
 * Paper and ink: first from the corner blocks that show (a block within
 * half the best's contrast), then from every printed cell near those two
 * levels (a block half covered by a figure shifts the first guess; the
 * many cells that show put it right). False when no block shows.
 */
static bool block_levels(const base_view *im, const rim_frame *f, const blocks *bl, double x, double y, double h,
                         double min_contrast, double *black, double *white, int *seen, int *contradicted)
{
    double c[4], mean[MAX_CELLS], w[16], k[16];
    blocks_score(im, f, bl, x, y, h, c);
    cell_means(im, f, x, y, h, 0, mean, NULL);
    const double top = fmax(fmax(c[0], c[1]), fmax(c[2], c[3]));
    int nw = 0, nk = 0;
    *seen = 0;
    for (int b = 0; b < 4; b++) {
        /* A block shows when each of its white cells is clearly above each of its black ones. */
        double wmin = 1e9, kmax = -1e9;
        for (int q = 0; q < 4; q++)
            if (bl->white[b][q])
                wmin = fmin(wmin, mean[bl->cell[b][q]]);
            else
                kmax = fmax(kmax, mean[bl->cell[b][q]]);
        if (!(wmin - kmax >= fmax(min_contrast, 0.45 * top)))
            continue;
        (*seen)++;
        for (int q = 0; q < 4; q++) {
            if (bl->white[b][q])
                w[nw++] = mean[bl->cell[b][q]];
            else
                k[nk++] = mean[bl->cell[b][q]];
        }
    }
    if (*seen == 0)
        return false;
    qsort(w, (size_t)nw, sizeof *w, cmp_dbl);
    qsort(k, (size_t)nk, sizeof *k, cmp_dbl);
    const double w0 = w[nw / 2], k0 = k[nk / 2], c0 = w0 - k0;
    *white = median_near(mean, f->rim->n, w0, 0.2 * c0);
    *black = median_near(mean, f->rim->n, k0, 0.2 * c0);
    /* A block whose ink cell shows clean paper is not there: a figure seldom looks like paper (vis_rim_obs). */
    *contradicted = 0;
    for (int b = 0; b < 4; b++) {
        int paper = 0;
        for (int q = 0; q < 4; q++)
            paper += !bl->white[b][q] && mean[bl->cell[b][q]] >= *white - 0.2 * (*white - *black);
        *contradicted += paper > 0;
    }
    return *white - *black >= min_contrast;
}

/*
 * The greys of the figure standing on the label: samples of the label's
 * inside (cut out for the figure), sorted. A code cell that shows one of
 * them is as likely the figure as the label: it is not trusted.
 */
static int hole_greys(const base_view *im, const vis_camera *cam, const roster_rim *rim, double x, double y, double z,
                      double h, double *out)
{
    const double hx = rim->depth / 2 - rim->margin_y - 2 * rim->cell, hy = rim->width / 2 - rim->margin_x - 2 * rim->cell;
    const double ch = cos(h), sh = sin(h);
    int n = 0;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++) {
            const double lx = hx * (-0.85 + 1.7 * i / 6), ly = hy * (-0.85 + 1.7 * j / 6);
            const double X[3] = {x + lx * ch - ly * sh, y + lx * sh + ly * ch, z};
            double px[2];
            if (vis_camera_project(cam, X, px))
                out[n++] = vis_sample_bilinear(im, px[0], px[1]);
        }
    qsort(out, (size_t)n, sizeof *out, cmp_dbl);
    return n;
}


static double gauss(double x, double mu, double sigma)
{
    const double z = (x - mu) / sigma;
    return exp(-0.5 * z * z) / (2.5066282746 * sigma);
}

/* The figure's grey density at g: its samples in the label's middle, smoothed, and a floor for its other parts. */
static double figure_density(const double *hole, int n_hole, double g)
{
    double k = 0;
    for (int i = 0; i < n_hole; i++)
        k += gauss(g, hole[i], 8);
    return 0.7 * (n_hole ? k / n_hole : 0) + 0.3 / 256;
}

/*
 * The evidence of each code cell (vis_rim_obs): paper (its level, or a
 * shadow of it at 0.8), ink, or the figure (greys of the label's middle),
 * each cell visible with even odds; a cell whose samples spread over more
 * than a third of the contrast straddles an edge and says nothing.
 */
static void observe(const vis_rim_layout *L, const double *mean, const unsigned char *spread, double black,
                    double white, const double *hole, int n_hole, vis_rim_obs *o)
{
    const double C = white - black, sigma = 0.06 * C + 3, v = 0.5;
    memset(o, 0, sizeof *o);
    o->n = (int)L->rim.n_code;
    for (size_t k = 0; k < L->rim.n; k++) {
        const int b = L->code_bit[k];
        if (b < 0)
            continue;
        const double g = mean[k];
        if (spread[k] == 0 || spread[k] - 1 > C / 3) {
            o->d[b] = 0;
            continue;
        }
        const double fig = (1 - v) * figure_density(hole, n_hole, g);
        const double paper = v * (0.8 * gauss(g, white, sigma) + 0.2 * gauss(g, black + 0.8 * C, sigma)) + fig;
        const double ink = v * gauss(g, black, sigma) + fig;
        const double d = fmax(-8, fmin(8, log(paper) - log(ink)));
        o->d[b] = (float)d;
        o->n_white += d > 2, o->n_black += d < -2;
    }
}

double vis_rim_misfit(const vis_rim_layout *L, const vis_rim_obs *o, size_t m, int t)
{
    /* Cells the code prints white count their ink evidence against it, cells it prints black their paper evidence. */
    double against = 0;
    const uint64_t *pred = L->pred[m][t];
    for (int b = 0; b < o->n; b++) {
        const double d = o->d[b];
        const int white = (int)(pred[b / 64] >> (b % 64) & 1);
        against += white ? fmax(0, -d) : fmax(0, d);
    }
    return against;
}

void vis_rim_decode(const vis_rim_layout *L, const vis_rim_obs *o, const unsigned char *candidates, unsigned turns,
                    vis_rim_decoded *d)
{
    *d = (vis_rim_decoded){.m = -1, .m2 = -1, .misfit = 1e30, .misfit2 = 1e30};
    for (size_t m = 0; m < L->n_models; m++) {
        if (candidates && !candidates[m])
            continue;
        for (int t = 0; t < L->rim.turns; t++) {
            if (!(turns >> t & 1))
                continue;
            const double c = vis_rim_misfit(L, o, m, t);
            if (c < d->misfit) {
                d->m2 = d->m, d->turn2 = d->turn, d->misfit2 = d->misfit;
                d->m = (long)m, d->turn = t, d->misfit = c;
            } else if (c < d->misfit2) {
                d->m2 = (long)m, d->turn2 = t, d->misfit2 = c;
            }
        }
    }
}

/* The known label's contrast at a pose: mean grey of the cells it prints white minus of those it prints black,
 * over the cells `use` flags. */
static double template_score(const base_view *im, const rim_frame *f, const vis_rim_layout *L, const uint64_t *pred,
                             const unsigned char *use, double x, double y, double h)
{
    double mean[MAX_CELLS], w = 0, k = 0;
    int nw = 0, nk = 0;
    cell_means(im, f, x, y, h, 0, mean, NULL);
    for (size_t q = 0; q < L->rim.n; q++) {
        if (!use[q])
            continue;
        const int b = L->code_bit[q];
        const int white = b >= 0 ? (int)((pred[b / 64] >> (b % 64)) & 1) : L->rim.cells[q].kind == ROSTER_RIM_WHITE;
        if (white)
            w += mean[q], nw++;
        else
            k += mean[q], nk++;
    }
    return nw && nk ? w / nw - k / nk : 0;
}

static double parabola_peak(double a, double b, double c, double d)
{
    const double den = a - 2 * b + c;
    if (!(den < 0))
        return 0;
    const double t = 0.5 * (a - c) / den;
    return (t > 1 ? 1 : t < -1 ? -1 : t) * d;
}

/* The pose again on the cells `use` flags, the code known: a fine grid, then a parabola each way. */
static void refine_on_code(const base_view *im, const rim_frame *f, const vis_rim_layout *L, const uint64_t *pred,
                           const unsigned char *use, double *bx, double *by, double *bh)
{
    const double step = 0.05 * L->rim.cell, hstep = base_deg_to_rad(0.5);
    double best = -1e9, x0 = *bx, y0 = *by, h0 = *bh;
    for (int k = -2; k <= 2; k++)
        for (int i = -2; i <= 2; i++)
            for (int j = -2; j <= 2; j++) {
                const double s = template_score(im, f, L, pred, use, x0 + i * step, y0 + j * step, h0 + k * hstep);
                if (s > best)
                    best = s, *bx = x0 + i * step, *by = y0 + j * step, *bh = h0 + k * hstep;
            }
    const double d = 0.5 * step, dh = 0.5 * hstep, s0 = best;
    const double sx = parabola_peak(template_score(im, f, L, pred, use, *bx - d, *by, *bh), s0,
                                    template_score(im, f, L, pred, use, *bx + d, *by, *bh), d);
    const double sy = parabola_peak(template_score(im, f, L, pred, use, *bx, *by - d, *bh), s0,
                                    template_score(im, f, L, pred, use, *bx, *by + d, *bh), d);
    const double sh = parabola_peak(template_score(im, f, L, pred, use, *bx, *by, *bh - dh), s0,
                                    template_score(im, f, L, pred, use, *bx, *by, *bh + dh), dh);
    *bx += sx, *by += sy, *bh += sh;
}

/* A quick look: something over the label spans a good part of paper-to-ink contrast. */
static bool worth_reading(const base_view *im, const rim_frame *f, double expect)
{
    if (!(expect > 0))
        return true;
    double lo = 255, hi = 0;
    for (int s = 0; s < f->n; s += SUB) {
        const double g = vis_sample_bilinear(im, f->ref[s][0], f->ref[s][1]);
        lo = fmin(lo, g), hi = fmax(hi, g);
    }
    return hi - lo >= 0.5 * expect;
}

/* The cells at the label's pose: their means, then what the code cells show. */
static void read_cells(const vis_camera *cam, const base_view *im, const rim_frame *f, vis_rim_label *lab)
{
    const vis_rim_layout *L = lab->layout;
    double mean[MAX_CELLS], hole[64];
    unsigned char agree[MAX_CELLS];
    cell_means(im, f, lab->centre[0], lab->centre[1], lab->heading, (lab->white + lab->black) / 2, mean, agree);
    const int n_hole = hole_greys(im, cam, &L->rim, lab->centre[0], lab->centre[1], lab->centre[2], lab->heading, hole);
    observe(L, mean, agree, lab->black, lab->white, hole, n_hole, &lab->obs);
    vis_camera_project(cam, lab->centre, lab->px);
    const double C = lab->white - lab->black;
    int clean = 0;
    for (size_t k = 0; k < L->rim.n; k++)
        clean += agree[k] && agree[k] - 1 <= 0.25 * C &&
                 fmin(fabs(mean[k] - lab->white), fabs(mean[k] - lab->black)) <= 0.2 * C;
    lab->clean = (double)clean / (double)L->rim.n;
}

static _Thread_local rim_frame frame; /* 80 kB: not on a reader thread's stack; one read at a time per thread */

int vis_rim_blocks_seen(const vis_camera *cam, const base_view *im, const roster_rim *rim, const double P[3],
                        double heading, double min_contrast, unsigned *which)
{
    static _Thread_local rim_frame g; /* not `frame`: a caller may hold a label's frame */
    blocks bl;
    double c[4], mean[MAX_CELLS];
    *which = 0;
    if (!frame_init(cam, rim, P, heading, &g))
        return 0;
    find_blocks(rim, &bl);
    blocks_score(im, &g, &bl, P[0], P[1], heading, c);
    cell_means(im, &g, P[0], P[1], heading, 0, mean, NULL);
    int seen = 0;
    for (int b = 0; b < 4; b++) {
        double wmin = 1e9, kmax = -1e9;
        for (int q = 0; q < 4; q++)
            if (bl.white[b][q])
                wmin = fmin(wmin, mean[bl.cell[b][q]]);
            else
                kmax = fmax(kmax, mean[bl.cell[b][q]]);
        if (wmin - kmax >= min_contrast)
            seen++, *which |= 1u << b;
    }
    return seen;
}

bool vis_rim_locate(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                    double heading, const vis_rim_params *p, vis_rim_label *out)
{
    memset(out, 0, sizeof *out);
    out->layout = L;
    blocks bl;
    if (!frame_init(cam, &L->rim, P, heading, &frame) || !worth_reading(im, &frame, p->expect_contrast))
        return false;
    find_blocks(&L->rim, &bl);
    /* Coarse to fine on the corner blocks: a quarter cell, then a tenth, the heading in both. */
    const double q = 0.25 * L->rim.cell;
    const int n0 = (int)ceil(p->search_mm / q), nh0 = (int)ceil(p->search_rad / base_deg_to_rad(2.0));
    double bx = P[0], by = P[1], bh = heading;
    climb_blocks(im, &frame, &bl, q, n0, base_deg_to_rad(2.0), n0 * q + 0.2 * L->rim.cell,
                 nh0 * base_deg_to_rad(2.0) + base_deg_to_rad(1.4), 0.06 * L->rim.cell, &bx, &by, &bh);
    if (!block_levels(im, &frame, &bl, bx, by, bh, p->min_contrast, &out->black, &out->white, &out->corners,
                      &out->contradicted))
        return false;
    out->contrast = out->white - out->black;
    out->centre[0] = bx, out->centre[1] = by, out->centre[2] = P[2];
    out->heading = bh;
    read_cells(cam, im, &frame, out);
    return true;
}

void vis_rim_params_default(vis_rim_params *p)
{
    p->search_mm = 3.0;
    p->search_rad = base_deg_to_rad(6.0);
    p->min_contrast = 30;
    p->expect_contrast = 0;
}

/* A label's corner blocks near P: at least min_corners show, none contradicted, its centre within search_mm. */
static bool label_blocks_at(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                            double heading, double search_mm, int min_corners, double at[2])
{
    vis_rim_params p;
    vis_rim_params_default(&p);
    p.search_mm = search_mm;
    vis_rim_label lab;
    if (!vis_rim_locate(cam, im, L, P, heading, &p, &lab))
        return false;
    const double dx = lab.centre[0] - P[0], dy = lab.centre[1] - P[1];
    if (at)
        at[0] = lab.centre[0], at[1] = lab.centre[1];
    return lab.corners >= min_corners && lab.contradicted == 0 && dx * dx + dy * dy <= search_mm * search_mm;
}

bool vis_rim_label_at(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                      double heading, double search_mm, double at[2])
{
    return label_blocks_at(cam, im, L, P, heading, search_mm, 2, at);
}

bool vis_rim_label_present(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                           double heading, double search_mm)
{
    return label_blocks_at(cam, im, L, P, heading, search_mm, 2, NULL);
}

bool vis_rim_label_hint(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                        double heading, double search_mm)
{
    return label_blocks_at(cam, im, L, P, heading, search_mm, 1, NULL);
}

void vis_rim_refine(const vis_camera *cam, const base_view *im, vis_rim_label *lab, size_t m, int t)
{
    const vis_rim_layout *L = lab->layout;
    unsigned char use[MAX_CELLS];
    if (!frame_init(cam, &L->rim, lab->centre, lab->heading, &frame))
        return;
    /* The corner blocks and every code cell that says what it is and agrees with the code. */
    const uint64_t *pred = L->pred[m][t];
    for (size_t k = 0; k < L->rim.n; k++) {
        const int b = L->code_bit[k];
        const double d = b >= 0 ? lab->obs.d[b] : 0;
        use[k] = b < 0 || (fabs(d) > 2 && (d > 0) == (int)(pred[b / 64] >> (b % 64) & 1));
    }
    double bx = lab->centre[0], by = lab->centre[1], bh = lab->heading;
    refine_on_code(im, &frame, L, L->pred[m][t], use, &bx, &by, &bh);
    lab->centre[0] = bx, lab->centre[1] = by, lab->heading = bh;
    read_cells(cam, im, &frame, lab);
}

double vis_rim_facing(const vis_rim_label *lab, int t)
{
    return base_angle_wrap(lab->heading + t * 2 * BASE_PI / lab->layout->rim.turns);
}

bool vis_rim_read_at(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                     double heading, unsigned turns, const vis_rim_params *p, const unsigned char *candidates,
                     vis_rim_read *out)
{
    memset(out, 0, sizeof *out);
    out->model = -1, out->id = -1, out->dec.m = -1;
    if (L->n_models == 0 || !vis_rim_locate(cam, im, L, P, heading, p, &out->label))
        return false;
    vis_rim_decode(L, &out->label.obs, candidates, turns, &out->dec);
    if (out->dec.m < 0)
        return false;
    vis_rim_refine(cam, im, &out->label, (size_t)out->dec.m, out->dec.turn);
    vis_rim_decode(L, &out->label.obs, candidates, turns, &out->dec);
    if (out->dec.m < 0)
        return false;
    out->model = (long)L->models[out->dec.m];
    out->id = L->ids[out->dec.m];
    out->facing = vis_rim_facing(&out->label, out->dec.turn);
    return true;
}

bool vis_rim_decisive(const vis_rim_decoded *d, double max_misfit, double margin)
{
    return d->m >= 0 && d->misfit <= max_misfit && d->misfit2 >= d->misfit + margin;
}
