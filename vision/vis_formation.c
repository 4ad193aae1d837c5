#include "vis_formation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One model the grid is fitted to, in the provisional local frame (u right, v forward). */
typedef struct obs {
    size_t model;     /* index into the input */
    double u, v;      /* mm */
    double w;         /* weight in the fit */
    double x;         /* file position from the reference model, in pitches (x.5 in a rear rank) */
    int r;            /* rank behind the front-most observed one */
    bool slotted;     /* claims a slot (false: a second model found in the same place) */
} obs;

typedef struct fit {
    const vis_formation_input *in;
    rules_frame f0;   /* provisional frame at the first observed model, heading = unit facing */
    obs *o;
    size_t n;
    double pa, pd;    /* pitches */
    double au, av;    /* local position of relative slot (0, 0) */
    double sig_res, sig_a, sig_pa, sig_pd, xbar, rbar;
    int rmax;
    double xmin, xmax;
} fit;

/* A placement of the grid over the observed models. */
typedef struct hyp {
    int s;            /* formation rank of observed rank 0 */
    double t;         /* formation file of observed position 0 */
    double o;         /* first slot of the rear rank; NAN when gapped (slots in the gap pool) */
    size_t gap;       /* index of its k slots in the gap pool */
    int agree;        /* seen models standing in their roster slot */
    double centring;  /* rear rank's distance from the centre, pitches */
} hyp;

typedef struct hyps {
    hyp *h;
    size_t n, cap;
    double *pool;     /* gapped rear ranks, k slots each */
    size_t n_pool, cap_pool;
    int F, R, k;
    bool truncated;   /* more gapped rear ranks existed than were kept */
} hyps;

static bool is_measured(vis_formation_evidence e) { return e != VIS_FORMATION_NONE; }

static double evidence_weight(vis_formation_evidence e)
{
    switch (e) {
    case VIS_FORMATION_SEEN: return 1.0;
    case VIS_FORMATION_PRIOR: return 0.5;
    case VIS_FORMATION_ROUGH: return 0.3;
    case VIS_FORMATION_NONE: break;
    }
    return 0;
}

static int cmp_obs_front(const void *a, const void *b)
{
    double x = ((const obs *)a)->v, y = ((const obs *)b)->v;
    return (x < y) - (x > y);
}

static double near_int_gap(double x) { return fabs(x - round(x)); }

/* Heading: weighted circular mean of the facings; then again without those more than 15 degrees off. */
static double fit_heading(const vis_formation_input *in)
{
    double h = 0;
    for (int pass = 0; pass < 2; pass++) {
        double sc = 0, ss = 0;
        for (size_t i = 0; i < in->n_models; i++) {
            const vis_formation_model *m = &in->models[i];
            if (!is_measured(m->evidence))
                continue;
            if (pass && fabs(rules_angle_wrap(m->facing - h)) > rules_deg_to_rad(15))
                continue;
            double w = evidence_weight(m->evidence);
            sc += w * cos(m->facing), ss += w * sin(m->facing);
        }
        if (sc != 0 || ss != 0)
            h = atan2(ss, sc);
    }
    return h;
}

/* Ranks by walking from the front; returns the measured pitch along (or `d`). */
static double index_ranks(fit *F, double d)
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
static double index_files(fit *F, double w)
{
    /* Measured pitch: neighbours one place apart in one rank. */
    double sum = 0, pa = w;
    int cnt = 0;
    for (size_t i = 0; i < F->n; i++)
        for (size_t j = 0; j < F->n; j++) {
            double step = F->o[j].u - F->o[i].u;
            if (i != j && F->o[i].r == F->o[j].r && step > 0.5 * w && step < 1.5 * w) {
                /* Only the nearest right neighbour of i counts. */
                bool nearest = true;
                for (size_t k = 0; k < F->n && nearest; k++) {
                    double sk = F->o[k].u - F->o[i].u;
                    nearest = !(k != i && F->o[k].r == F->o[i].r && sk > 0.5 * w && sk < step);
                }
                if (nearest)
                    sum += step, cnt++;
            }
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

/* Origin and pitches by least squares, then the fit's own uncertainty. */
static int refine(fit *F, double w, double d)
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
    double pa = F->pa, pd = -F->pd;
    wls(xs, ys, ws, n, &F->au, &pa, true);
    for (size_t i = 0; i < n; i++)
        xs[i] = F->o[i].r, ys[i] = F->o[i].v;
    wls(xs, ys, ws, n, &F->av, &pd, true);
    pd = -pd;
    if (pa > 0.9 * w && pa < 1.3 * w)
        F->pa = pa;
    if (pd > 0.9 * d && pd < 1.3 * d)
        F->pd = pd;
    /* Re-anchor with the pitches kept. */
    for (size_t i = 0; i < n; i++)
        xs[i] = F->o[i].x, ys[i] = F->o[i].u;
    double b = F->pa;
    wls(xs, ys, ws, n, &F->au, &b, false);
    for (size_t i = 0; i < n; i++)
        xs[i] = F->o[i].r, ys[i] = F->o[i].v;
    b = -F->pd;
    wls(xs, ys, ws, n, &F->av, &b, false);

    double sw = 0, s2 = 0, sx = 0, sr = 0, sxx = 0, srr = 0;
    for (size_t i = 0; i < n; i++) {
        double du = F->o[i].u - (F->au + F->pa * F->o[i].x), dv = F->o[i].v - (F->av - F->pd * F->o[i].r);
        res[i] = hypot(du, dv);
        sw += ws[i], s2 += ws[i] * res[i] * res[i], sx += ws[i] * F->o[i].x, sr += ws[i] * F->o[i].r;
    }
    F->xbar = sx / sw, F->rbar = sr / sw;
    for (size_t i = 0; i < n; i++)
        sxx += ws[i] * pow(F->o[i].x - F->xbar, 2), srr += ws[i] * pow(F->o[i].r - F->rbar, 2);
    /* Spread of models about their slots: hands place bases to a millimetre or so; never trust less than 0.3. */
    F->sig_res = fmax(0.3, sqrt(s2 / sw));
    const double n_eff = fmax(1.0, sw);
    F->sig_a = F->sig_res / sqrt(n_eff);
    /* An unmeasured pitch is the base plus an unknown gap (0..1 mm). */
    F->sig_pa = sxx > 0.2 * sw ? F->sig_res / sqrt(sxx) : 0.5;
    F->sig_pd = srr > 0.2 * sw ? F->sig_res / sqrt(srr) : 0.5;
    free(buf);
    return 0;
}

static int fit_grid(const vis_formation_input *in, fit *F)
{
    const double heading = fit_heading(in);
    size_t first = 0;
    while (!is_measured(in->models[first].evidence))
        first++;
    F->f0 = (rules_frame){in->models[first].pos, heading};
    for (size_t i = 0; i < in->n_models; i++) {
        const vis_formation_model *m = &in->models[i];
        if (!is_measured(m->evidence))
            continue;
        rules_vec2 q = rules_frame_to_local(F->f0, m->pos);
        F->o[F->n++] = (obs){i, q.x, q.y, evidence_weight(m->evidence), 0, 0, true};
    }
    F->pd = index_ranks(F, in->base_depth);
    F->pa = index_files(F, in->base_width);
    if (refine(F, in->base_width, in->base_depth) < 0)
        return -1;
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

/* ---- placements ------------------------------------------------------- */

static int add_hyp(hyps *H, hyp h)
{
    if (H->n == H->cap) {
        size_t cap = H->cap ? 2 * H->cap : 32;
        hyp *p = realloc(H->h, cap * sizeof *p);
        if (!p)
            return -1;
        H->h = p, H->cap = cap;
    }
    H->h[H->n++] = h;
    return 0;
}

static int add_gap(hyps *H, const double *slots)
{
    if (H->n_pool + (size_t)H->k > H->cap_pool) {
        size_t cap = H->cap_pool ? 2 * H->cap_pool : 64;
        while (cap < H->n_pool + (size_t)H->k)
            cap *= 2;
        double *p = realloc(H->pool, cap * sizeof *p);
        if (!p)
            return -1;
        H->pool = p, H->cap_pool = cap;
    }
    memcpy(H->pool + H->n_pool, slots, (size_t)H->k * sizeof *slots);
    H->n_pool += (size_t)H->k;
    return 0;
}

/* Rear-rank positions of the observed models under (s, t); -1 when (s, t) puts a model outside the grid. */
static int rear_positions(const fit *F, int Fw, int R, int k, int s, double t, double *ys, int *m)
{
    *m = 0;
    for (size_t i = 0; i < F->n; i++) {
        if (!F->o[i].slotted)
            continue;
        int q = F->o[i].r + s;
        double y = F->o[i].x + t;
        if (q > R - 1 || y < -0.25 || y > Fw - 1 + 0.25)
            return -1;
        bool rear = q == R - 1 && k < Fw;
        if (!rear && near_int_gap(y) > 0.25)
            return -1;
        if (rear) {
            if (*m == k)
                return -1;
            ys[(*m)++] = y;
        }
    }
    return 0;
}

static bool covers(double o, int k, const double *ys, int m)
{
    for (int i = 0; i < m; i++) {
        double j = ys[i] - o;
        if (near_int_gap(j) > 0.25 || j < -0.25 || j > k - 1 + 0.25)
            return false;
    }
    return true;
}

/* Rear ranks with gaps: the models read where they are, the others on free half-base steps. */
static int add_gapped(hyps *H, hyp base, double *chosen, int m, double from, int *budget)
{
    const int k = H->k, Fw = H->F;
    if (*budget <= 0) {
        H->truncated = true;
        return 0;
    }
    if (m == k) {
        double *sorted = chosen;
        double mean = 0;
        for (int i = 0; i < k; i++)
            mean += sorted[i];
        base.centring = fabs(mean / k - (Fw - 1) / 2.0);
        base.o = NAN;
        base.gap = H->n_pool;
        (*budget)--;
        return add_gap(H, chosen) < 0 || add_hyp(H, base) < 0 ? -1 : 0;
    }
    for (double c = from; c <= Fw - 1 + 1e-9; c += 0.5) {
        bool free_place = true;
        for (int i = 0; i < m && free_place; i++)
            free_place = fabs(chosen[i] - c) >= 0.99;
        if (!free_place)
            continue;
        chosen[m] = c;
        if (add_gapped(H, base, chosen, m + 1, c + 1, budget) < 0)
            return -1;
    }
    return 0;
}

static int agreement(const fit *F, int R, int k, int Fw, int s, double t)
{
    int a = 0;
    for (size_t i = 0; i < F->n; i++) {
        const vis_formation_model *m = &F->in->models[F->o[i].model];
        if (!F->o[i].slotted || (m->evidence != VIS_FORMATION_SEEN && m->evidence != VIS_FORMATION_ROUGH))
            continue;
        int q = F->o[i].r + s;
        bool rear = q == R - 1 && k < Fw;
        a += q == m->roster_rank && (rear || (int)lround(F->o[i].x + t) == m->roster_file);
    }
    return a;
}

/* Every (s, t, rear rank) the observed models allow for width Fw. */
static int enumerate(const fit *F, int Fw, hyps *H)
{
    const int n = (int)F->in->n_models, R = (n + Fw - 1) / Fw, k = n - (R - 1) * Fw;
    H->F = Fw, H->R = R, H->k = k;
    H->n = 0, H->n_pool = 0;
    double *ys = malloc(2 * (size_t)(n + 1) * sizeof *ys);
    if (!ys)
        return -1;
    double *chosen = ys + n + 1;
    int rc = 0;
    for (int s = 0; s + F->rmax <= R - 1 && rc == 0; s++) {
        for (double t = -F->xmin; t + F->xmax <= Fw - 1 + 1e-9 && rc == 0; t += 0.5) {
            int m;
            if (rear_positions(F, Fw, R, k, s, t, ys, &m) < 0)
                continue;
            hyp base = {s, t, 0, 0, agreement(F, R, k, Fw, s, t), 0};
            if (k == Fw || R == 1) {
                rc = add_hyp(H, base);
                continue;
            }
            size_t before = H->n;
            for (double o = 0; o <= Fw - k + 1e-9 && rc == 0; o += 0.5)
                if (covers(o, k, ys, m)) {
                    base.o = o;
                    base.centring = fabs(o - (Fw - k) / 2.0);
                    rc = add_hyp(H, base);
                }
            if (H->n == before && rc == 0) {
                int budget = 32;
                for (int i = 0; i < m; i++)
                    chosen[i] = ys[i];
                /* The seen ones first, then free places left to right. */
                rc = add_gapped(H, base, chosen, m, 0, &budget);
            }
        }
    }
    free(ys);
    return rc;
}

static int cmp_hyp(const void *a, const void *b)
{
    const hyp *x = a, *y = b;
    if (x->agree != y->agree)
        return y->agree - x->agree;
    if (fabs(x->centring - y->centring) > 1e-9)
        return x->centring < y->centring ? -1 : 1;
    if (isnan(x->o) != isnan(y->o))
        return isnan(x->o) ? 1 : -1;
    if (x->s != y->s)
        return x->s - y->s;
    return (x->t > y->t) - (x->t < y->t);
}

/* ---- building placements ---------------------------------------------- */

typedef struct slot {
    int rank;
    double pos;       /* file position, pitches (x.5 in the rear rank) */
    long taken_by;    /* model index, -1 when free */
} slot;

static int cmp_listing(const void *a, const void *b, const vis_formation_model *ms)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (ms[i].roster_rank != ms[j].roster_rank)
        return ms[i].roster_rank - ms[j].roster_rank;
    if (ms[i].roster_file != ms[j].roster_file)
        return ms[i].roster_file - ms[j].roster_file;
    return (i > j) - (i < j);
}

static void sort_listing(size_t *idx, size_t n, const vis_formation_model *ms)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp_listing(&idx[j - 1], &idx[j], ms) > 0; j--) {
            size_t x = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = x;
        }
}

static void describe(const fit *F, const hyps *H, const hyp *h, bool vary_s, bool vary_t, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    if (H->R > 1 && H->k < H->F) {
        const double spare = H->F - H->k;
        if (isnan(h->o))
            len += (size_t)snprintf(buf + len, cap - len, "rear rank with gaps");
        else if (h->o < 1e-9)
            len += (size_t)snprintf(buf + len, cap - len, "rear rank left-aligned");
        else if (fabs(h->o - spare) < 1e-9)
            len += (size_t)snprintf(buf + len, cap - len, "rear rank right-aligned");
        else if (fabs(h->o - spare / 2) < 1e-9)
            len += (size_t)snprintf(buf + len, cap - len, "rear rank centred");
        else
            len += (size_t)snprintf(buf + len, cap - len, "rear rank %g bases from the left", h->o);
    }
    if (vary_s && len < cap)
        len += (size_t)snprintf(buf + len, cap - len, "%sfront rank seen is rank %d", len ? "; " : "", h->s + 1);
    if (vary_t && len < cap)
        snprintf(buf + len, cap - len, "%sleftmost file seen is file %g", len ? "; " : "", h->t + F->xmin + 1);
}

/* Board position of a slot (rank, file position in pitches) in a placement's frame. */
static rules_vec2 slot_board(const fit *F, rules_frame frame, int rank, double pos)
{
    return rules_frame_to_board(frame, rules_v2(pos * F->pa, -rank * F->pd));
}

/* How well the fit pins a slot (1 sigma, mm): origin, then pitches carried out from the models seen. */
static double slot_fit_mm(const fit *F, const hyp *h, int rank, double pos)
{
    double dx = pos - h->t - F->xbar, dr = rank - h->s - F->rbar;
    return sqrt(F->sig_a * F->sig_a + pow(dx * F->sig_pa, 2) + pow(dr * F->sig_pd, 2));
}

/* The slots of a placement, front rank first, left to right. */
static size_t make_slots(const hyps *H, const hyp *h, slot *sl)
{
    size_t n = 0;
    for (int q = 0; q < H->R - 1; q++)
        for (int f = 0; f < H->F; f++)
            sl[n++] = (slot){q, f, -1};
    for (int j = 0; j < H->k; j++) {
        double pos = isnan(h->o) ? H->pool[h->gap + (size_t)j] : h->o + j;
        sl[n++] = (slot){H->R - 1, pos, -1};
    }
    /* Gapped rear ranks come in the order chosen: sort the rear rank left to right. */
    for (size_t i = n - (size_t)H->k + 1; i < n; i++)
        for (size_t j = i; j > n - (size_t)H->k && sl[j - 1].pos > sl[j].pos; j--) {
            slot x = sl[j];
            sl[j] = sl[j - 1], sl[j - 1] = x;
        }
    return n;
}

static int build(const fit *F, const hyps *H, const hyp *h, double match_tol, vis_formation_placement *out)
{
    const vis_formation_input *in = F->in;
    const size_t n = in->n_models;
    const size_t n_slots = (size_t)(H->R - 1) * (size_t)H->F + (size_t)H->k;
    out->models = calloc(n, sizeof *out->models);
    slot *sl = malloc(n_slots * sizeof *sl);
    size_t *unseen = malloc((n ? n : 1) * sizeof *unseen);
    if (!out->models || !sl || !unseen) {
        free(sl);
        free(unseen);
        return -1;
    }
    make_slots(H, h, sl);
    const rules_vec2 origin = rules_frame_to_board(F->f0, rules_v2(F->au - h->t * F->pa, F->av + h->s * F->pd));
    out->frame = (rules_frame){origin, F->f0.heading};
    bool *placed_obs = calloc(n ? n : 1, sizeof *placed_obs);
    if (!placed_obs) {
        free(sl);
        free(unseen);
        return -1;
    }
    for (size_t i = 0; i < F->n; i++) {
        const obs *o = &F->o[i];
        const vis_formation_model *m = &in->models[o->model];
        vis_formation_place *p = &out->models[o->model];
        *p = (vis_formation_place){m->pos, m->facing, true, false, 0, -1, -1, 0};
        placed_obs[o->model] = true;
        if (!o->slotted)
            continue;
        int q = o->r + h->s;
        double y = o->x + h->t, best = match_tol;
        long pick = -1;
        for (size_t j = 0; j < n_slots; j++)
            if (sl[j].rank == q && sl[j].taken_by < 0 && fabs(sl[j].pos - y) < best)
                best = fabs(sl[j].pos - y), pick = (long)j;
        if (pick < 0)
            continue;
        sl[pick].taken_by = (long)o->model;
        p->rank = q, p->file = (int)floor(sl[pick].pos + 1e-9), p->offset = sl[pick].pos - p->file;
    }
    size_t nu = 0;
    for (size_t k = 0; k < n; k++)
        if (!placed_obs[k])
            unseen[nu++] = k;
    sort_listing(unseen, nu, in->models);
    size_t next = 0;
    for (size_t u = 0; u < nu; u++) {
        while (next < n_slots && sl[next].taken_by >= 0)
            next++;
        vis_formation_place *p = &out->models[unseen[u]];
        if (next == n_slots) {
            p->placed = false;
            continue;
        }
        slot *s = &sl[next];
        s->taken_by = (long)unseen[u];
        p->pos = slot_board(F, out->frame, s->rank, s->pos);
        p->facing = F->f0.heading;
        p->placed = p->inferred = true;
        p->fit_mm = slot_fit_mm(F, h, s->rank, s->pos);
        p->rank = s->rank, p->file = (int)floor(s->pos + 1e-9), p->offset = s->pos - p->file;
    }
    free(placed_obs);
    free(sl);
    free(unseen);
    return 0;
}

/* The seen models fit no formation of this many models: one block just wide enough, every rank full. */
static int fallback(const fit *F, hyps *H, vis_formation_result *res)
{
    const int n = (int)F->in->n_models;
    H->F = (int)fmin(n, fmax(1, ceil(F->xmax - F->xmin + 1 - 1e-9)));
    H->R = (int)fmax(F->rmax + 1, (n + H->F - 1) / H->F);
    H->k = H->F;
    hyp h = {0, -floor(F->xmin), 0, 0, 0, 0};
    res->placements = calloc(1, sizeof *res->placements);
    if (!res->placements)
        return -1;
    res->n_placements = res->n_possible = 1;
    res->understood = false;
    snprintf(res->placements[0].label, sizeof res->placements[0].label, "formation not understood");
    return build(F, H, &h, 0.75, &res->placements[0]);
}

int vis_formation_infer(const vis_formation_input *in, vis_formation_result *res)
{
    memset(res, 0, sizeof *res);
    size_t measured = 0;
    for (size_t i = 0; i < in->n_models; i++)
        measured += is_measured(in->models[i].evidence);
    if (measured == 0)
        return 0;
    fit F = {.in = in};
    hyps H = {0};
    int rc = -1;
    F.o = malloc(measured * sizeof *F.o);
    if (!F.o || fit_grid(in, &F) < 0)
        goto out;
    res->grid = (vis_formation_grid){F.f0.heading, F.pa, F.pd, 0, 0, 0, F.sig_res, (int)F.n};
    /* Widths: the hints first, then the narrowest the models seen allow, wider and wider. */
    const int n = (int)in->n_models, narrowest = (int)ceil(F.xmax - F.xmin + 1 - 1e-9);
    int widths[2 + 256], nw = 0;
    for (int i = 0; i < 2; i++)
        if (in->files_hint[i] > 0)
            widths[nw++] = in->files_hint[i] < n ? in->files_hint[i] : n;
    for (int w = narrowest; w <= n && nw < (int)(sizeof widths / sizeof widths[0]); w++)
        widths[nw++] = w;
    for (int i = 0; i < nw && H.n == 0; i++)
        if (widths[i] >= narrowest && enumerate(&F, widths[i], &H) < 0)
            goto out;
    if (H.n == 0) {
        rc = fallback(&F, &H, res);
        goto grid;
    }
    qsort(H.h, H.n, sizeof *H.h, cmp_hyp);
    const size_t cap = in->max_placements ? in->max_placements : VIS_FORMATION_MAX_PLACEMENTS;
    res->n_possible = H.n + (H.truncated ? 1 : 0);
    res->understood = true;
    const size_t keep = H.n < cap ? H.n : cap;
    bool vary_s = false, vary_t = false;
    for (size_t i = 1; i < H.n; i++)
        vary_s |= H.h[i].s != H.h[0].s, vary_t |= fabs(H.h[i].t - H.h[0].t) > 1e-9;
    res->placements = calloc(keep, sizeof *res->placements);
    if (!res->placements)
        goto out;
    for (size_t i = 0; i < keep; i++) {
        res->n_placements++;
        describe(&F, &H, &H.h[i], vary_s, vary_t, res->placements[i].label, sizeof res->placements[i].label);
        if (build(&F, &H, &H.h[i], 0.25, &res->placements[i]) < 0)
            goto out;
    }
    rc = 0;
grid:
    res->grid.files = H.F, res->grid.ranks = H.R, res->grid.rear_models = H.k;
out:
    free(F.o);
    free(H.h);
    free(H.pool);
    if (rc < 0)
        vis_formation_result_clear(res);
    return rc;
}

void vis_formation_result_clear(vis_formation_result *res)
{
    for (size_t i = 0; i < res->n_placements; i++)
        free(res->placements[i].models);
    free(res->placements);
    memset(res, 0, sizeof *res);
}
