#include "vis_formation_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool vis_formation_is_measured(vis_formation_evidence e) { return e != VIS_FORMATION_NONE; }

static double evidence_weight(vis_formation_evidence e)
{
    switch (e) {
    case VIS_FORMATION_SEEN: return 1.0;
    case VIS_FORMATION_PRIOR: return 0.5;
    case VIS_FORMATION_ROUGH: return 0.3;
    case VIS_FORMATION_LOCATED: return 1.0; /* corner blocks put a base's centre as well as a label read does */
    case VIS_FORMATION_NONE: break;
    }
    return 0;
}

static int cmp_obs_front(const void *a, const void *b)
{
    double x = ((const vis_fit_obs *)a)->v, y = ((const vis_fit_obs *)b)->v;
    return (x < y) - (x > y);
}

double vis_formation_off_int(double x) { return fabs(x - round(x)); }

/*
 * Heading: weighted circular mean of the facings; then again without those
 * more than 15 degrees off. *var: the mean's variance, from the facings'
 * scatter about it (at least 0.15 degree each, a mast's 0.5).
 */
/* A mast's facing is its card's, which may stand turned on its rod and its rod on the base: held to half a degree
 * (minis table 3's blue-7: its one mast 1 degree off its ranks), where a mark on the base is held to 0.15. */
#define MAST_FACING_DEG 0.5

static double fit_heading(const vis_formation_input *in, double *var)
{
    double h = 0, sw = 0, s2 = 0, floor2 = 0;
    for (int pass = 0; pass < 2; pass++) {
        double sc = 0, ss = 0;
        sw = 0, floor2 = 0;
        for (size_t i = 0; i < in->n_models; i++) {
            const vis_formation_model *m = &in->models[i];
            if (!vis_formation_is_measured(m->evidence) || m->evidence == VIS_FORMATION_LOCATED)
                continue;
            if (pass && fabs(base_angle_wrap(m->facing - h)) > base_deg_to_rad(15))
                continue;
            double w = evidence_weight(m->evidence);
            const double fl = base_deg_to_rad(m->sway_mm > 0 ? MAST_FACING_DEG : 0.15);
            sc += w * cos(m->facing), ss += w * sin(m->facing), sw += w, floor2 += w * fl * fl;
        }
        if (sc != 0 || ss != 0)
            h = atan2(ss, sc);
    }
    for (size_t i = 0; i < in->n_models; i++) {
        const vis_formation_model *m = &in->models[i];
        const double d = base_angle_wrap(m->facing - h);
        if (vis_formation_is_measured(m->evidence) && m->evidence != VIS_FORMATION_LOCATED &&
            fabs(d) <= base_deg_to_rad(15))
            s2 += evidence_weight(m->evidence) * d * d;
    }
    *var = sw > 0 ? fmax(floor2 / sw, s2 / sw) / sw : INFINITY;
    return h;
}

/* Ranks by walking from the front; returns the measured pitch along (or `d`). */
static double index_ranks(vis_fit *F, double d)
{
    qsort(F->o, F->n, sizeof *F->o, cmp_obs_front);
    double pd = d;
    for (int pass = 0; pass < 2; pass++) {
        double sum = 0;
        int cnt = 0, r = 0;
        F->o[0].r = 0;
        for (size_t i = 1; i < F->n; i++) {
            double step = F->o[i - 1].v - F->o[i].v;
            if (step > 0.5 * pd) {
                int k = (int)fmax(1.0, round(step / pd));
                r += k;
                if (k == 1)
                    sum += step, cnt++;
            }
            F->o[i].r = r;
        }
        F->rmax = r;
        if (cnt && sum / cnt > 0.9 * d && sum / cnt < 1.3 * d)
            pd = sum / cnt;
    }
    return pd;
}

/* Files: positions in pitches from the leftmost model of the full ranks seen (rear rank on half steps). */
static double index_files(vis_fit *F, double w)
{
    /* Measured pitch: each model's nearest right neighbour in its rank, when one place away. */
    double sum = 0, pa = w;
    int cnt = 0;
    for (size_t i = 0; i < F->n; i++) {
        double step = INFINITY;
        for (size_t j = 0; j < F->n; j++)
            if (F->o[j].r == F->o[i].r && F->o[j].u - F->o[i].u > 0.5 * w)
                step = fmin(step, F->o[j].u - F->o[i].u);
        if (step < 1.5 * w)
            sum += step, cnt++;
    }
    if (cnt && sum / cnt > 0.9 * w && sum / cnt < 1.3 * w)
        pa = sum / cnt;
    /* The reference: leftmost model of the ranks in front of the last one seen (all when one rank). */
    double uref = INFINITY;
    for (size_t i = 0; i < F->n; i++)
        if (F->rmax == 0 || F->o[i].r < F->rmax)
            uref = fmin(uref, F->o[i].u);
    for (size_t i = 0; i < F->n; i++) {
        double q = (F->o[i].u - uref) / pa;
        bool full = F->rmax == 0 || F->o[i].r < F->rmax;
        F->o[i].x = full ? round(q) : round(2 * q) / 2;
    }
    F->au = uref;
    return pa;
}

/* Weighted least squares y = a + b x; b kept when x does not vary. */
static void wls(const double *x, const double *y, const double *w, size_t n, double *a, double *b, bool fit_b)
{
    double sw = 0, sx = 0, sy = 0;
    for (size_t i = 0; i < n; i++)
        sw += w[i], sx += w[i] * x[i], sy += w[i] * y[i];
    double mx = sx / sw, my = sy / sw, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++)
        sxx += w[i] * (x[i] - mx) * (x[i] - mx), sxy += w[i] * (x[i] - mx) * (y[i] - my);
    if (fit_b && sxx > 0.2 * sw)
        *b = sxy / sxx;
    *a = my - *b * mx;
}

/* One axis by least squares: values against slot indices; a pitch off [0.9, 1.3] x base keeps the estimate. */
static void fit_axis(const double *x, const double *y, const double *w, size_t n, double base, double sign, double *a,
                     double *pitch)
{
    double b = sign * *pitch;
    wls(x, y, w, n, a, &b, true);
    if (sign * b > 0.9 * base && sign * b < 1.3 * base) {
        *pitch = sign * b;
        return;
    }
    b = sign * *pitch;
    wls(x, y, w, n, a, &b, false);
}

/* The gap a hand leaves between bases when nothing measures it (mm): half of 0..1 mm (refine's unmeasured sigma). */
#define VIS_FORMATION_GAP_PRIOR_MM 0.5
#define GAP_PRIOR_SIGMA_MM 0.5

static bool axis_varies(const double *x, const double *w, size_t n)
{
    double sw = 0, sx = 0, sxx = 0;
    for (size_t i = 0; i < n; i++)
        sw += w[i], sx += w[i] * x[i];
    for (size_t i = 0; i < n; i++)
        sxx += w[i] * (x[i] - sx / sw) * (x[i] - sx / sw);
    return sxx > 0.2 * sw;
}

/* The places' own sway, RMS over the fit's weights (a mast's rod; 0 for marks on the bases). */
static double sway_rms(const vis_fit *F, const double *ws)
{
    double sw = 0, s2 = 0;
    for (size_t i = 0; i < F->n; i++) {
        const double s = F->in->models[F->o[i].model].sway_mm;
        sw += ws[i], s2 += ws[i] * s * s;
    }
    return sw > 0 ? sqrt(s2 / sw) : 0;
}

/*
 * The gap measured along one axis (ranks: the pitch along's), weighed against the 0.5 +- 0.5 mm a hand leaves by
 * how well that pitch is measured: the places' spread (at least 0.3 mm, or their sway) over the spread of their slot
 * indices. Rim labels along a rank measure it to a tenth of a millimetre; two masts 50 mm apart, each leaning a
 * millimetre, hardly at all (minis table 1's blue-11: 0.0 mm measured across, 0.6 true along, its third rank
 * 1.2 mm short). Kept within 0..1.5 mm.
 */
static double borrowed_gap(const vis_fit *F, const double *ws, bool ranks, double gap)
{
    double sw = 0, sx = 0, sxx = 0;
    for (size_t i = 0; i < F->n; i++) {
        const double x = ranks ? F->o[i].r : F->o[i].x;
        sw += ws[i], sx += ws[i] * x, sxx += ws[i] * x * x;
    }
    const double spread = fmax(0.3, sway_rms(F, ws));
    const double var_measured = spread * spread / fmax(sxx - sx * sx / sw, 1e-9);
    const double var_prior = GAP_PRIOR_SIGMA_MM * GAP_PRIOR_SIGMA_MM;
    const double g = (gap / var_measured + VIS_FORMATION_GAP_PRIOR_MM / var_prior) / (1 / var_measured + 1 / var_prior);
    return fmin(fmax(g, 0), 1.5);
}

/*
 * A pitch no observation measures (one file seen, or one rank) is the base
 * plus the gap the player left, and one hand leaves much the same gap both
 * ways: the gap measured along the other axis (kept within 0..1.5 mm) beats
 * assuming none, which puts a model five files away several millimetres off.
 * The origin is refitted with the borrowed pitch. xs/ys hold the ranks.
 */
static void borrow_gap(vis_fit *F, double *xs, double *ys, const double *ws, double w, double d)
{
    const size_t n = F->n;
    const bool ranks_vary = axis_varies(xs, ws, n);
    for (size_t i = 0; i < n; i++)
        xs[i] = F->o[i].x;
    const bool files_vary = axis_varies(xs, ws, n);
    if (!files_vary && !ranks_vary) {
        /* Neither pitch measured (one model seen, or all in one place): the base plus half the 0..1 mm gap a
         * hand leaves (sig_pa, sig_pd: 0.5 mm), not none (a unit of minis table 1 placed from one mast had its
         * far file 7 mm off, 21 mm pitches taken for 20), the origin refitted with it. */
        F->pa = w + VIS_FORMATION_GAP_PRIOR_MM, F->pd = d + VIS_FORMATION_GAP_PRIOR_MM;
        for (size_t i = 0; i < n; i++)
            ys[i] = F->o[i].u;
        double b = F->pa;
        wls(xs, ys, ws, n, &F->au, &b, false);
        for (size_t i = 0; i < n; i++)
            xs[i] = F->o[i].r, ys[i] = F->o[i].v;
        b = -F->pd;
        wls(xs, ys, ws, n, &F->av, &b, false);
        return;
    }
    if (files_vary == ranks_vary)
        return;
    if (ranks_vary) {
        F->pa = w + borrowed_gap(F, ws, true, F->pd - d);
        for (size_t i = 0; i < n; i++)
            ys[i] = F->o[i].u;
        double b = F->pa;
        wls(xs, ys, ws, n, &F->au, &b, false);
    } else {
        F->pd = d + borrowed_gap(F, ws, false, F->pa - w);
        for (size_t i = 0; i < n; i++)
            xs[i] = F->o[i].r, ys[i] = F->o[i].v;
        double b = -F->pd;
        wls(xs, ys, ws, n, &F->av, &b, false);
    }
}

/* Origin and pitches by least squares, then the fit's own uncertainty. */
static int refine(vis_fit *F, double w, double d)
{
    const size_t n = F->n;
    if (n == 0)
        return 0;
    double *buf = calloc(4 * n, sizeof *buf);
    if (!buf)
        return -1;
    double *xs = buf, *ys = buf + n, *ws = buf + 2 * n, *res = buf + 3 * n;
    for (size_t i = 0; i < n; i++)
        xs[i] = F->o[i].x, ys[i] = F->o[i].u, ws[i] = F->o[i].w;
    fit_axis(xs, ys, ws, n, w, 1, &F->au, &F->pa);
    for (size_t i = 0; i < n; i++)
        xs[i] = F->o[i].r, ys[i] = F->o[i].v;
    fit_axis(xs, ys, ws, n, d, -1, &F->av, &F->pd);
    borrow_gap(F, xs, ys, ws, w, d);

    double sw = 0, s2 = 0, sx = 0, sr = 0, sxx = 0, srr = 0;
    for (size_t i = 0; i < n; i++) {
        double du = F->o[i].u - (F->au + F->pa * F->o[i].x), dv = F->o[i].v - (F->av - F->pd * F->o[i].r);
        res[i] = hypot(du, dv);
        sw += ws[i], s2 += ws[i] * res[i] * res[i], sx += ws[i] * F->o[i].x, sr += ws[i] * F->o[i].r;
    }
    F->xbar = sx / sw, F->rbar = sr / sw;
    for (size_t i = 0; i < n; i++)
        sxx += ws[i] * pow(F->o[i].x - F->xbar, 2), srr += ws[i] * pow(F->o[i].r - F->rbar, 2);
    /* Spread of models about their slots: hands place bases to a millimetre or so; never trust less than 0.3, nor
     * less than the places' own sway (masts: two of them fit exactly whatever their rods lean). */
    F->sig_res = fmax(fmax(0.3, sway_rms(F, ws)), sqrt(s2 / sw));
    const double n_eff = fmax(1.0, sw);
    F->sig_a = F->sig_res / sqrt(n_eff);
    /* An unmeasured pitch is the base plus an unknown gap (0..1 mm). */
    F->sig_pa = sxx > 0.2 * sw ? F->sig_res / sqrt(sxx) : 0.5;
    F->sig_pd = srr > 0.2 * sw ? F->sig_res / sqrt(srr) : 0.5;
    free(buf);
    return 0;
}


/*
 * Solves the k x k system N t = c (k <= 5) by Gauss-Jordan elimination with
 * partial pivoting; false when it is singular. N is overwritten by its inverse.
 */
static bool solve_small(double N[5][5], double c[5], int k)
{
    double inv[5][5] = {{0}};
    for (int i = 0; i < k; i++)
        inv[i][i] = 1;
    for (int col = 0; col < k; col++) {
        int piv = col;
        for (int i = col + 1; i < k; i++)
            if (fabs(N[i][col]) > fabs(N[piv][col]))
                piv = i;
        if (!(fabs(N[piv][col]) > 1e-9))
            return false;
        for (int j = 0; j < k; j++) {
            double t = N[col][j];
            N[col][j] = N[piv][j], N[piv][j] = t;
            t = inv[col][j], inv[col][j] = inv[piv][j], inv[piv][j] = t;
        }
        double t = c[col];
        c[col] = c[piv], c[piv] = t;
        const double d = N[col][col];
        for (int j = 0; j < k; j++)
            N[col][j] /= d, inv[col][j] /= d;
        c[col] /= d;
        for (int i = 0; i < k; i++) {
            if (i == col || N[i][col] == 0)
                continue;
            const double f = N[i][col];
            for (int j = 0; j < k; j++)
                N[i][j] -= f * N[col][j], inv[i][j] -= f * inv[col][j];
            c[i] -= f * c[col];
        }
    }
    memcpy(N, inv, sizeof inv);
    return true;
}

/*
 * How far the grid's files and ranks turn from the provisional frame, told
 * by where the models stand rather than by their tags: a model's place
 * across (u) and along (v) is its slot's, turned by eps:
 *   u = au + pa x + eps v,   v = av - pd r - eps u,
 * fitted by weighted least squares with the slot indices fixed (a pitch no
 * observation measures is held). Over a rank of five bases a millimetre of
 * placing error turns it by under 0.3 degree, where five tags read on
 * 20 px give their mean to no better. False when the models do not tell it.
 */
static bool grid_turn(const vis_fit *F, double *eps, double *var)
{
    double sw = 0, sx = 0, sr = 0, sxx = 0, srr = 0;
    for (size_t i = 0; i < F->n; i++)
        if (F->o[i].slotted && F->o[i].w >= 1)
            sw += 1, sx += F->o[i].x, sr += F->o[i].r, sxx += F->o[i].x * F->o[i].x, srr += (double)F->o[i].r * F->o[i].r;
    if (sw < 2)
        return false;
    const bool fit_pa = sxx - sx * sx / sw > 0.2 * sw, fit_pd = srr - sr * sr / sw > 0.2 * sw;
    /* Unknowns: au, av, eps, then pa and pd when measured. */
    const int k = 3 + fit_pa + fit_pd, ipa = 3, ipd = 3 + fit_pa;
    double N[5][5] = {{0}}, c[5] = {0}, rss = 0, m = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < F->n; i++) {
            const vis_fit_obs *o = &F->o[i];
            if (!o->slotted || o->w < 1)
                continue;
            for (int axis = 0; axis < 2; axis++) {
                double a[5] = {0}, y;
                if (axis == 0) {
                    a[0] = 1, a[2] = o->v, y = o->u;
                    if (fit_pa)
                        a[ipa] = o->x;
                    else
                        y -= F->pa * o->x;
                } else {
                    a[1] = 1, a[2] = -o->u, y = o->v;
                    if (fit_pd)
                        a[ipd] = -o->r;
                    else
                        y += F->pd * o->r;
                }
                if (pass == 0) {
                    for (int p = 0; p < k; p++) {
                        for (int q = 0; q < k; q++)
                            N[p][q] += a[p] * a[q];
                        c[p] += a[p] * y;
                    }
                } else {
                    double fit = 0;
                    for (int p = 0; p < k; p++)
                        fit += a[p] * c[p];
                    rss += (y - fit) * (y - fit), m++;
                }
            }
        }
        if (pass == 0 && !solve_small(N, c, k))
            return false;
    }
    /* Hands place bases to a few tenths of a millimetre at best: never trust the places more than 0.3 mm. */
    const double sigma2 = fmax(0.09, m > k ? rss / (m - k) : 0.09);
    *eps = c[2];
    *var = sigma2 * N[2][2];
    return isfinite(*eps) && isfinite(*var) && *var > 0;
}

int vis_formation_fit_grid(const vis_formation_input *in, vis_fit *F)
{
    double var_facing;
    const double heading = fit_heading(in, &var_facing);
    size_t first = 0;
    while (!vis_formation_is_measured(in->models[first].evidence))
        first++;
    F->f0 = (base_frame){in->models[first].pos, heading};
    for (size_t i = 0; i < in->n_models; i++) {
        const vis_formation_model *m = &in->models[i];
        if (!vis_formation_is_measured(m->evidence))
            continue;
        base_vec2 q = base_frame_to_local(F->f0, m->pos);
        F->o[F->n++] = (vis_fit_obs){i, q.x, q.y, evidence_weight(m->evidence), 0, 0, true};
    }
    F->pd = index_ranks(F, in->base_depth);
    F->pa = index_files(F, in->base_width);
    if (refine(F, in->base_width, in->base_depth) < 0)
        return -1;
    /* The facings' heading and the one the places tell, each by its variance; the grid refitted in the result. */
    double eps, var_eps;
    if (grid_turn(F, &eps, &var_eps)) {
        /* No facing read (only bases located): the places alone tell it. */
        const double to_places = isfinite(var_facing) ? var_facing / (var_facing + var_eps) : 1.0;
        F->f0.heading = base_angle_wrap(heading - eps * to_places);
        for (size_t i = 0; i < F->n; i++) {
            const base_vec2 q = base_frame_to_local(F->f0, in->models[F->o[i].model].pos);
            F->o[i].u = q.x, F->o[i].v = q.y;
        }
        if (refine(F, in->base_width, in->base_depth) < 0)
            return -1;
    }
    /* Two models in one place: the better-seen one claims the slot, the other stands where it was seen. */
    F->xmin = INFINITY, F->xmax = -INFINITY;
    for (size_t i = 0; i < F->n; i++) {
        for (size_t j = 0; j < i && F->o[i].slotted; j++)
            if (F->o[j].slotted && F->o[j].r == F->o[i].r && fabs(F->o[j].x - F->o[i].x) < 0.75) {
                if (F->o[j].w >= F->o[i].w)
                    F->o[i].slotted = false;
                else
                    F->o[j].slotted = false;
            }
    }
    for (size_t i = 0; i < F->n; i++)
        if (F->o[i].slotted)
            F->xmin = fmin(F->xmin, F->o[i].x), F->xmax = fmax(F->xmax, F->o[i].x);
    return 0;
}
