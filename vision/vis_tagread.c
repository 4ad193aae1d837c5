#include "vis_tagread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_geom.h"
#include "vis_sample.h"

#define MAX_OUTLINE 256

void vis_tagread_params_default(vis_tagread_params *p)
{
    p->search_mm = 3.0;
    p->search_rad = base_deg_to_rad(6.0);
    p->any_rotation = false;
    p->min_contrast = 30;
    p->expect_contrast = 0;
}

/* ---- the picture ------------------------------------------------------ */


/* Nearest grey: the coarse search steps a millimetre at a time, where interpolating buys nothing. */
static inline double pix_nn(const base_view *im, double x, double y)
{
    int xi = (int)(x + 0.5), yi = (int)(y + 0.5);
    xi = xi < 0 ? 0 : xi >= im->width ? im->width - 1 : xi;
    yi = yi < 0 ? 0 : yi >= im->height ? im->height - 1 : yi;
    return im->data[(size_t)yi * im->stride + xi];
}

/*
 * The camera linearised around the tag: pixel = px0 + J (X - P) for board
 * points X on the tag's plane. A tag spans a few dozen pixels, over which
 * the projection (lens included) is affine to a hundredth of a pixel.
 */
typedef struct tag_frame {
    double P[3];
    double px0[2];
    double J[2][2];
    double S;   /* the whole printed bitmap (white border included), mm */
    int tw;     /* cells per side */
} tag_frame;

static bool tag_frame_init(const vis_camera *cam, const double P[3], double size, int tw, tag_frame *tf)
{
    double a[2], b[2];
    const double Px[3] = {P[0] + 1, P[1], P[2]}, Py[3] = {P[0], P[1] + 1, P[2]};
    if (!vis_camera_project(cam, P, tf->px0) || !vis_camera_project(cam, Px, a) || !vis_camera_project(cam, Py, b))
        return false;
    memcpy(tf->P, P, sizeof tf->P);
    tf->J[0][0] = a[0] - tf->px0[0], tf->J[1][0] = a[1] - tf->px0[1];
    tf->J[0][1] = b[0] - tf->px0[0], tf->J[1][1] = b[1] - tf->px0[1];
    tf->S = size * tw / (tw - 2);
    tf->tw = tw;
    return true;
}

/* Pixel offset from the tag centre of tag-local point (a right, b up), mm, for heading h. */
static void local_offset(const tag_frame *tf, double ch, double sh, double a, double b, double out[2])
{
    const double X = a * sh + b * ch, Y = -a * ch + b * sh;
    out[0] = tf->J[0][0] * X + tf->J[0][1] * Y;
    out[1] = tf->J[1][0] * X + tf->J[1][1] * Y;
}

static void centre_px(const tag_frame *tf, double cx, double cy, double out[2])
{
    const double X = cx - tf->P[0], Y = cy - tf->P[1];
    out[0] = tf->px0[0] + tf->J[0][0] * X + tf->J[0][1] * Y;
    out[1] = tf->px0[1] + tf->J[1][0] * X + tf->J[1][1] * Y;
}

/* Sample offsets of the outline: white border cells first, then the black ring; sub x sub per cell. */
typedef struct outline_pts {
    double off[MAX_OUTLINE][2];
    double lo[2], hi[2]; /* the offsets' bounding box, px */
    int n_white, n;
} outline_pts;

static int ring_of(int u, int v, int tw)
{
    if (u == 0 || v == 0 || u == tw - 1 || v == tw - 1)
        return 0;
    if (u == 1 || v == 1 || u == tw - 2 || v == tw - 2)
        return 1;
    return -1;
}

static void outline_points(const tag_frame *tf, double h, int sub, outline_pts *o)
{
    const double ch = cos(h), sh = sin(h), k = tf->S / tf->tw;
    const int tw = tf->tw;
    o->n = 0;
    for (int ring = 0; ring < 2; ring++) {
        for (int v = 0; v < tw; v++)
            for (int u = 0; u < tw; u++) {
                if (ring_of(u, v, tw) != ring)
                    continue;
                for (int i = 0; i < sub; i++)
                    for (int j = 0; j < sub; j++) {
                        if (o->n >= MAX_OUTLINE)
                            continue;
                        const double du = sub == 1 ? 0.5 : 0.25 + 0.5 * i, dv = sub == 1 ? 0.5 : 0.25 + 0.5 * j;
                        local_offset(tf, ch, sh, (u + du) * k - tf->S / 2, tf->S / 2 - (v + dv) * k, o->off[o->n]);
                        o->n++;
                    }
            }
        if (ring == 0)
            o->n_white = o->n;
    }
    o->lo[0] = o->lo[1] = INFINITY, o->hi[0] = o->hi[1] = -INFINITY;
    for (int i = 0; i < o->n; i++)
        for (int a = 0; a < 2; a++)
            o->lo[a] = o->off[i][a] < o->lo[a] ? o->off[i][a] : o->lo[a],
            o->hi[a] = o->off[i][a] > o->hi[a] ? o->off[i][a] : o->hi[a];
}

/* Bilinear grey at (x, y) known to lie inside the picture (vis_sample_bilinear without its clamps). */
static inline double pix_bilinear_inside(const base_view *im, double x, double y)
{
    const int x0 = (int)x, y0 = (int)y;
    const double fx = x - x0, fy = y - y0;
    const uint8_t *p = im->data + (size_t)y0 * im->stride + x0;
    return (p[0] * (1 - fx) + p[1] * fx) * (1 - fy) + (p[im->stride] * (1 - fx) + p[im->stride + 1] * fx) * fy;
}

/* Nearest grey at (x, y) known to round inside the picture (pix_nn without its clamps). */
static inline double pix_nn_inside(const base_view *im, double x, double y)
{
    return im->data[(size_t)(int)(y + 0.5) * im->stride + (int)(x + 0.5)];
}

/* Mean white border minus mean black ring with the centre at (cx, cy) mm; `fine`: interpolated samples. */
static double outline_score(const base_view *im, const tag_frame *tf, const outline_pts *o, double cx, double cy,
                            bool fine)
{
    double c[2];
    centre_px(tf, cx, cy, c);
    double w = 0, b = 0;
    /* Wholly inside the picture (nearly always): the same samples without clamping each one. */
    const bool inside = c[0] + o->lo[0] >= 0 && c[1] + o->lo[1] >= 0 && c[0] + o->hi[0] <= im->width - 1.001 &&
                        c[1] + o->hi[1] <= im->height - 1.001;
    if (inside && fine) {
        for (int i = 0; i < o->n_white; i++)
            w += pix_bilinear_inside(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
        for (int i = o->n_white; i < o->n; i++)
            b += pix_bilinear_inside(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
    } else if (inside) {
        for (int i = 0; i < o->n_white; i++)
            w += pix_nn_inside(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
        for (int i = o->n_white; i < o->n; i++)
            b += pix_nn_inside(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
    } else if (fine) {
        for (int i = 0; i < o->n_white; i++)
            w += vis_sample_bilinear(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
        for (int i = o->n_white; i < o->n; i++)
            b += vis_sample_bilinear(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
    } else {
        for (int i = 0; i < o->n_white; i++)
            w += pix_nn(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
        for (int i = o->n_white; i < o->n; i++)
            b += pix_nn(im, c[0] + o->off[i][0], c[1] + o->off[i][1]);
    }
    return w / o->n_white - b / (o->n - o->n_white);
}

/* One stage of the outline search: a square of positions `n` steps each way, headings `nh` steps each way. */
typedef struct search_stage {
    double step_mm;
    int n;
    double step_rad;
    int nh;
    int sub;
} search_stage;

static double search_outline(const base_view *im, const tag_frame *tf, const search_stage *st, double *bx, double *by,
                             double *bh)
{
    outline_pts op;
    double best = -1e9;
    const double cx0 = *bx, cy0 = *by, h0 = *bh;
    for (int k = -st->nh; k <= st->nh; k++) {
        const double h = h0 + k * st->step_rad;
        outline_points(tf, h, st->sub, &op);
        for (int i = -st->n; i <= st->n; i++)
            for (int j = -st->n; j <= st->n; j++) {
                const double cx = cx0 + i * st->step_mm, cy = cy0 + j * st->step_mm;
                const double sc = outline_score(im, tf, &op, cx, cy, st->step_mm < 0.5);
                if (sc > best)
                    best = sc, *bx = cx, *by = cy, *bh = h;
            }
    }
    return best;
}

static int cmp_dbl(const void *a, const void *b);

/* The vertex of the parabola through (-d, a), (0, b), (d, c): the peak between grid steps. */
static double parabola_peak(double a, double b, double c, double d)
{
    const double den = a - 2 * b + c;
    if (!(den < 0))
        return 0;
    const double t = 0.5 * (a - c) / den;
    return (t > 1 ? 1 : t < -1 ? -1 : t) * d;
}

/* Sub-step peak of the outline score along x, y and the heading, each by a parabola through three samples. */
static void refine_peak(const base_view *im, const tag_frame *tf, double *bx, double *by, double *bh)
{
    const double d = 0.1, dh = base_deg_to_rad(0.2);
    outline_pts op;
    outline_points(tf, *bh, 2, &op);
    const double s0 = outline_score(im, tf, &op, *bx, *by, true);
    const double sx = parabola_peak(outline_score(im, tf, &op, *bx - d, *by, true), s0,
                                    outline_score(im, tf, &op, *bx + d, *by, true), d);
    const double sy = parabola_peak(outline_score(im, tf, &op, *bx, *by - d, true), s0,
                                    outline_score(im, tf, &op, *bx, *by + d, true), d);
    double sm, sp;
    outline_points(tf, *bh - dh, 2, &op);
    sm = outline_score(im, tf, &op, *bx, *by, true);
    outline_points(tf, *bh + dh, 2, &op);
    sp = outline_score(im, tf, &op, *bx, *by, true);
    *bx += sx, *by += sy, *bh += parabola_peak(sm, s0, sp, dh);
}

/*
 * A straight edge through points (along, outward offset): its turn d
 * (turning the tag by +d tilts the outward offset by -d per unit along) and
 * its offset mt at along = 0. Points more than 0.08 mm or 3 MADs off the
 * first fit are dropped and the line fitted again. False with under 5 points.
 */
static bool robust_line(double (*pts)[2], int np, double *d, double *mt)
{
    bool keep[16];
    for (int i = 0; i < np; i++)
        keep[i] = true;
    double slope = 0, icpt = 0;
    for (int pass = 0; pass < 2; pass++) {
        double ma = 0, mo = 0;
        int n = 0;
        for (int i = 0; i < np; i++)
            if (keep[i])
                ma += pts[i][0], mo += pts[i][1], n++;
        if (n < 5)
            return false;
        ma /= n, mo /= n;
        double sxx = 0, sxy = 0;
        for (int i = 0; i < np; i++)
            if (keep[i])
                sxx += (pts[i][0] - ma) * (pts[i][0] - ma), sxy += (pts[i][0] - ma) * (pts[i][1] - mo);
        if (sxx <= 0)
            return false;
        slope = sxy / sxx, icpt = mo - slope * ma;
        if (pass == 1)
            break;
        double res[16], sorted[16];
        for (int i = 0; i < np; i++)
            res[i] = sorted[i] = fabs(pts[i][1] - (icpt + slope * pts[i][0]));
        qsort(sorted, (size_t)np, sizeof *sorted, cmp_dbl);
        const double lim = fmax(0.08, 3 * 1.4826 * sorted[np / 2]);
        for (int i = 0; i < np; i++)
            keep[i] = res[i] <= lim;
    }
    *d = -atan(slope);
    *mt = icpt;
    return true;
}

/*
 * Edges more than 5 degrees off the pixel grid's rows and columns at heading h. One nearly along a row is
 * sampled at much the same sub-pixel phase all along, and its turn carries the interpolation's bias (the
 * demo's tags, 0-2 degrees off the grid: up to 0.8 degree, the outline's heading better); across the grid
 * the bias averages out.
 */
static bool oblique_in_picture(const tag_frame *tf, double h)
{
    double o[2];
    local_offset(tf, cos(h), sin(h), 1, 0, o);
    const double th = atan2(o[1], o[0]), quarter = BASE_PI / 2;
    return fabs(th - quarter * round(th / quarter)) > base_deg_to_rad(5.0);
}

/* The turn of the edges within 1 degree of their median, weighted by their points; false under three such. */
static bool median_edges_turn(const double *ed, const double *ew, int ne, double *turn)
{
    double sorted[4], sum = 0, wsum = 0;
    if (ne < 3 || ne > 4)
        return false;
    memcpy(sorted, ed, (size_t)ne * sizeof *sorted);
    qsort(sorted, (size_t)ne, sizeof *sorted, cmp_dbl);
    const double med = ne % 2 ? sorted[ne / 2] : (sorted[ne / 2 - 1] + sorted[ne / 2]) / 2;
    int used = 0;
    for (int i = 0; i < ne; i++)
        if (fabs(ed[i] - med) < base_deg_to_rad(1.0))
            sum += ed[i] * ew[i], wsum += ew[i], used++;
    *turn = used >= 3 ? sum / wsum : 0;
    return used >= 3;
}

/*
 * The black square's four edges fitted as lines, in board mm: along each
 * edge (corners left out) the grey profile across it is read and the point
 * where it crosses half-way from paper to ink is kept; a profile that is
 * not paper outside and ink inside (a figure over it) is skipped. Each edge
 * with enough points gives a direction (heading) and an offset (centre).
 * With 12 points an edge, a 28 px tag's heading comes to about 0.1 degree,
 * where its four corners give 0.2-0.3. Returns the edges used; 0 (nothing
 * changed) when fewer than two fit.
 */
static int fit_edges(const base_view *im, const tag_frame *tf, double size, double thr, double contrast, double *bx,
                     double *by, double *bh)
{
    const int per_edge = 12, steps = 15;
    const double half = size / 2, k = size / (tf->tw - 2);
    double hsum_c = 0, hsum_s = 0, du = 0, dv = 0, ed[4], ew[4];
    int hn = 0, nu = 0, nv = 0, ne = 0;
    for (int e = 0; e < 4; e++) {
        /* Edge e: 0 top (+b), 1 right (+a), 2 bottom (-b), 3 left (-a); tangent and outward normal in (a, b). */
        const double na = e == 1 ? 1 : e == 3 ? -1 : 0, nb = e == 0 ? 1 : e == 2 ? -1 : 0;
        const double ta = -nb, tb = na;
        const double ch = cos(*bh), sh = sin(*bh);
        double pts[12][2];
        int np = 0;
        for (int i = 0; i < per_edge; i++) {
            const double along = (-0.8 + 1.6 * i / (per_edge - 1)) * half;
            double prof[15], ts[15];
            for (int j = 0; j < steps; j++) {
                ts[j] = (-0.7 + 1.4 * j / (steps - 1)) * k;
                const double a = ta * along + na * (half + ts[j]), b = tb * along + nb * (half + ts[j]);
                double o[2], c[2];
                local_offset(tf, ch, sh, a, b, o);
                centre_px(tf, *bx, *by, c);
                prof[j] = vis_sample_bilinear(im, c[0] + o[0], c[1] + o[1]);
            }
            /* Ink inside (first samples), paper outside (last samples), one crossing between. */
            if (!(prof[0] < thr - 0.25 * contrast && prof[1] < thr - 0.2 * contrast &&
                  prof[steps - 1] > thr + 0.25 * contrast && prof[steps - 2] > thr + 0.2 * contrast))
                continue;
            int cross = -1, crossings = 0;
            for (int j = 0; j + 1 < steps; j++)
                if ((prof[j] < thr) != (prof[j + 1] < thr))
                    crossings++, cross = j;
            if (crossings != 1)
                continue;
            const double t = ts[cross] + (thr - prof[cross]) / (prof[cross + 1] - prof[cross]) * (ts[cross + 1] - ts[cross]);
            pts[np][0] = along, pts[np][1] = t;  /* along the edge, and its offset outwards from where it should be */
            np++;
        }
        double d, mt;
        if (!robust_line(pts, np, &d, &mt))
            continue;
        ed[ne] = d, ew[ne] = np, ne++;
        /* The edge sits mt outwards (at the middle of the edge): the centre moves by mt along the normal,
         * halved when the opposite edge is seen too (it is averaged below). */
        if (na != 0)
            du += na * mt, nu++;
        else
            dv += nb * mt, nv++;
    }
    /* Edges that disagree with the others on the turn (a figure's edge taken for the tag's) are left out. */
    for (int i = 0; i < ne; i++) {
        int agree = 0;
        for (int j = 0; j < ne; j++)
            agree += fabs(ed[j] - ed[i]) < base_deg_to_rad(0.4);
        if (2 * agree <= ne && ne > 2)
            continue;
        hsum_c += cos(ed[i]) * ew[i], hsum_s += sin(ed[i]) * ew[i], hn += ew[i];
    }
    double dh = atan2(hsum_s, hsum_c);
    if (nu + nv < 2)
        return 0;
    /* None agreed within 0.4 degree: on an oblique tag, noise (hard set, such tags: the outline's heading alone
     * 0.28-0.37 degree rms, up to 1.2; the edges near their median 0.20-0.28). Their turn, not their offsets
     * (the hard set's seen centres p99 0.24 mm with them, 0.22 without). */
    if (hn == 0 && oblique_in_picture(tf, *bh) && median_edges_turn(ed, ew, ne, &dh)) {
        *bh += dh;
        return nu + nv;
    }
    if (hn == 0)
        return 0;
    /* A square of the roster's size: the centre is the middle of opposite edges; an edge seen alone moves it whole. */
    const double sa = nu ? du / nu : 0, sb = nv ? dv / nv : 0;
    const double ch = cos(*bh), sh = sin(*bh);
    *bx += sa * sh + sb * ch;
    *by += -sa * ch + sb * sh;
    *bh += dh;
    return nu + nv;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Black and white of this tag from its own outline cells (medians resist a covered part). */
static bool outline_levels(const base_view *im, const tag_frame *tf, double cx, double cy, double h, double *black,
                           double *white, double *fraction)
{
    outline_pts op;
    outline_points(tf, h, 2, &op);
    double c[2], w[MAX_OUTLINE], b[MAX_OUTLINE];
    centre_px(tf, cx, cy, c);
    int nw = 0, nb = 0;
    for (int i = 0; i < op.n; i++) {
        const double g = vis_sample_bilinear(im, c[0] + op.off[i][0], c[1] + op.off[i][1]);
        if (i < op.n_white)
            w[nw++] = g;
        else
            b[nb++] = g;
    }
    if (nw == 0 || nb == 0)
        return false;
    qsort(w, (size_t)nw, sizeof *w, cmp_dbl);
    qsort(b, (size_t)nb, sizeof *b, cmp_dbl);
    *white = w[nw / 2], *black = b[nb / 2];
    const double thr = (*white + *black) / 2;
    int right = 0;
    for (int i = 0; i < nw; i++)
        right += w[i] > thr;
    for (int i = 0; i < nb; i++)
        right += b[i] < thr;
    *fraction = (double)right / (nw + nb);
    return true;
}

/* The data cells read at heading h: bits (1 = white) and which cells are trusted. */
static void read_cells(const base_view *im, const tag_frame *tf, double cx, double cy, double h, double thr,
                       double sure, uint64_t *bits, uint64_t *trusted)
{
    const double ch = cos(h), sh = sin(h), k = tf->S / tf->tw;
    const int nd = tf->tw - 4;
    double c[2];
    centre_px(tf, cx, cy, c);
    *bits = *trusted = 0;
    for (int v = 0; v < nd; v++)
        for (int u = 0; u < nd; u++) {
            int above = 0;
            double sum = 0;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    double o[2];
                    local_offset(tf, ch, sh, (u + 2 + 0.25 + 0.5 * i) * k - tf->S / 2,
                                 tf->S / 2 - (v + 2 + 0.25 + 0.5 * j) * k, o);
                    const double g = vis_sample_bilinear(im, c[0] + o[0], c[1] + o[1]);
                    sum += g;
                    above += g > thr;
                }
            const double g = sum / 4;
            const bool agree = above == 0 || above == 4;
            *bits = *bits << 1 | (g > thr);
            *trusted = *trusted << 1 | (agree && fabs(g - thr) >= sure);
        }
}

/*
 * The direction of a square's edges (modulo 90 degrees) around pixel c, from
 * the image gradients weighted by strength, turned into a heading on the
 * board. A tag's edges dominate its neighbourhood.
 */
static double edge_heading(const base_view *im, const tag_frame *tf, const double c[2], double radius_px)
{
    double c4 = 0, s4 = 0;
    for (int y = (int)(c[1] - radius_px); y <= (int)(c[1] + radius_px); y++)
        for (int x = (int)(c[0] - radius_px); x <= (int)(c[0] + radius_px); x++) {
            if (x < 1 || y < 1 || x >= im->width - 1 || y >= im->height - 1)
                continue;
            const uint8_t *q = im->data + (size_t)y * im->stride + x;
            const double gx = q[1] - q[-1], gy = (double)q[im->stride] - q[-(ptrdiff_t)im->stride];
            /* m2 (cos 4phi, sin 4phi) is (gx + i gy)^4 / m2: no trigonometry per pixel. */
            const double xx = gx * gx, yy = gy * gy, m2 = xx + yy;
            if (m2 > 0)
                c4 += (xx * xx - 6 * xx * yy + yy * yy) / m2, s4 += 4 * gx * gy * (xx - yy) / m2;
        }
    const double th = atan2(s4, c4) / 4, dx = cos(th), dy = sin(th);
    const double det = tf->J[0][0] * tf->J[1][1] - tf->J[0][1] * tf->J[1][0];
    if (fabs(det) < 1e-12)
        return 0;
    /* The image direction back onto the board (J inverse). */
    const double vx = (tf->J[1][1] * dx - tf->J[0][1] * dy) / det, vy = (-tf->J[1][0] * dx + tf->J[0][0] * dy) / det;
    return atan2(vy, vx);
}

/*
 * A quick look before the search: over the tag's footprint (grown by the
 * search reach) something must span most of paper-to-ink contrast. An empty
 * patch of board, or a base without a tag, does not.
 */
static bool worth_reading(const base_view *im, const tag_frame *tf, double cx, double cy, double reach_mm,
                          double expect)
{
    if (!(expect > 0))
        return true;
    const double half = tf->S / 2 + reach_mm;
    double lo = 255, hi = 0;
    for (int i = -4; i <= 4; i++)
        for (int j = -4; j <= 4; j++) {
            double px[2];
            centre_px(tf, cx + i * half / 4, cy + j * half / 4, px);
            const double g = pix_nn(im, px[0], px[1]);
            lo = g < lo ? g : lo, hi = g > hi ? g : hi;
        }
    return hi - lo >= 0.5 * expect;
}

bool vis_tagread_at(const vis_camera *cam, const base_view *im, const double P[3], double heading, double size_mm,
                    const vis_tagread_params *p, const vis_tagread_codes *codes, vis_tagread *out)
{
    memset(out, 0, sizeof *out);
    out->id = -1;
    tag_frame tf;
    /* size 0: a rim label's model (roster_mark.h), never read as a square tag. */
    if (codes->n == 0 || !(size_mm > 0) || !tag_frame_init(cam, P, size_mm, codes->tw, &tf))
        return false;
    if (!worth_reading(im, &tf, P[0], P[1], p->search_mm, p->expect_contrast))
        return false;
    /* The outline looks the same every 90 degrees: with the heading unknown, take the edges' direction. */
    const double reach = p->search_rad;
    if (p->any_rotation)
        heading = edge_heading(im, &tf, tf.px0, 0.8 * size_mm * hypot(tf.J[0][0], tf.J[1][0]));
    /*
     * Coarse to fine; each stage starts at the previous best. The coarse
     * stage (1 mm, nearest samples, the outline only) runs when the guess is
     * loose; the heading is searched from the middle stage on, as an
     * outline a few degrees off still scores near its peak.
     */
    const search_stage stages[3] = {
        {1.0, (int)ceil(p->search_mm), base_deg_to_rad(3.0), reach > base_deg_to_rad(4) ? 1 : 0, 1},
        {0.3, p->search_mm > 1 ? 2 : (int)ceil(p->search_mm / 0.3), base_deg_to_rad(1.0),
         (int)fmin(3, ceil(reach / base_deg_to_rad(1.0))), 1},
        {0.1, 1, base_deg_to_rad(0.25), 2, 2},
    };
    double bx = P[0], by = P[1], bh = heading, best = 0;
    for (int s = p->search_mm > 1 ? 0 : 1; s < 3; s++) {
        best = search_outline(im, &tf, &stages[s], &bx, &by, &bh);
        /* Nothing like a tag's outline here (an empty place, a figure's back): stop before the fine stages. */
        if (p->expect_contrast > 0 && best < 0.35 * p->expect_contrast)
            return false;
    }
    refine_peak(im, &tf, &bx, &by, &bh);
    double black, white, fraction;
    if (!outline_levels(im, &tf, bx, by, bh, &black, &white, &fraction))
        return false;
    const double contrast = white - black;
    if (contrast < p->min_contrast || best < 0.4 * contrast)
        return false;
    for (int it = 0; it < 2; it++)
        if (!(out->edges = fit_edges(im, &tf, size_mm, (white + black) / 2, contrast, &bx, &by, &bh)))
            break;
    out->centre[0] = bx, out->centre[1] = by;
    out->contrast = contrast;
    out->outline_score = fraction;
    centre_px(&tf, bx, by, out->px);
    const double thr = (white + black) / 2, sure = 0.25 * contrast;
    int best_e = 1 << 20, second = 1 << 20, best_i = -1, best_rot = 0, best_vis = 0;
    for (int rot = 0; rot < (p->any_rotation ? 4 : 1); rot++) {
        uint64_t bits, trusted;
        read_cells(im, &tf, bx, by, bh + rot * BASE_PI / 2, thr, sure, &bits, &trusted);
        for (int i = 0; i < codes->n; i++) {
            const int e = __builtin_popcountll((bits ^ codes->codes[i]) & trusted);
            if (e < best_e) {
                second = best_e;
                best_e = e, best_i = i, best_rot = rot, best_vis = __builtin_popcountll(trusted);
            } else if (e < second) {
                second = e;
            }
        }
    }
    if (best_i < 0)
        return false;
    out->id = codes->ids[best_i];
    out->heading = base_angle_wrap(bh + best_rot * BASE_PI / 2);
    out->errors = best_e;
    out->visible = best_vis;
    out->runner_up = second;
    return true;
}

bool vis_tagread_decisive(const vis_tagread *rd, int min_visible, double max_error_fraction, int margin)
{
    return rd->id >= 0 && rd->visible >= min_visible && rd->errors <= max_error_fraction * rd->visible &&
           rd->runner_up >= rd->errors + margin;
}
