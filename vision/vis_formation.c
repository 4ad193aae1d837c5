#include "vis_formation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vis_formation_fit.h"

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
static int rear_positions(const vis_fit *F, int Fw, int R, int k, int s, double t, double *ys, int *m)
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
        if (!rear && vis_formation_off_int(y) > 0.25)
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
        if (vis_formation_off_int(j) > 0.25 || j < -0.25 || j > k - 1 + 0.25)
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
        double mean = 0, lo = chosen[0], hi = chosen[0];
        for (int i = 0; i < k; i++)
            mean += chosen[i], lo = fmin(lo, chosen[i]), hi = fmax(hi, chosen[i]);
        /* k places, each at least one pitch apart, spanning k - 1 pitches: a block the caller already has. */
        if (hi - lo <= k - 1 + 1e-9)
            return 0;
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

static int agreement(const vis_fit *F, int R, int k, int Fw, int s, double t)
{
    int a = 0;
    for (size_t i = 0; i < F->n; i++) {
        const vis_formation_model *m = &F->in->models[F->o[i].model];
        if (!F->o[i].slotted || (m->evidence != VIS_FORMATION_SEEN && m->evidence != VIS_FORMATION_ROUGH &&
                                   m->evidence != VIS_FORMATION_LOCATED))
            continue;
        int q = F->o[i].r + s;
        bool rear = q == R - 1 && k < Fw;
        a += q == m->roster_rank && (rear || (int)lround(F->o[i].x + t) == m->roster_file);
    }
    return a;
}

/* Every (s, t, rear rank) the observed models allow for width Fw. */
static int enumerate(const vis_fit *F, int Fw, hyps *H)
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
            for (double o = 0; o <= Fw - k + 1e-9 && rc == 0; o += 0.5)
                if (covers(o, k, ys, m)) {
                    base.o = o;
                    base.centring = fabs(o - (Fw - k) / 2.0);
                    rc = add_hyp(H, base);
                }
            /*
             * Gaps are possible even where a block fits what was read: the
             * placements are complete only with them (a rank with a gap
             * ranks after every block, cmp_hyp).
             */
            if (rc == 0) {
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
    if (isnan(x->o) != isnan(y->o))
        return isnan(x->o) ? 1 : -1;
    if (fabs(x->centring - y->centring) > 1e-9)
        return x->centring < y->centring ? -1 : 1;
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

static void describe(const vis_fit *F, const hyps *H, const hyp *h, bool vary_s, bool vary_t, char *buf, size_t cap)
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
static base_vec2 slot_board(const vis_fit *F, base_frame frame, int rank, double pos)
{
    return base_frame_to_board(frame, base_v2(pos * F->pa, -rank * F->pd));
}

/* How well the fit pins a slot (1 sigma, mm): origin, then pitches carried out from the models seen. */
static double slot_fit_mm(const vis_fit *F, const hyp *h, int rank, double pos)
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

/* An observed model stands where it was seen, in the slot nearest its grid place (when one is free). */
static void place_observed(const vis_fit *F, const vis_fit_obs *o, const hyp *h, slot *sl, size_t n_slots, double tol,
                           vis_formation_place *p)
{
    const vis_formation_model *m = &F->in->models[o->model];
    *p = (vis_formation_place){m->pos, m->facing, true, false, 0, -1, -1, 0};
    if (!o->slotted)
        return;
    const int q = o->r + h->s;
    const double y = o->x + h->t;
    long pick = -1;
    for (size_t j = 0; j < n_slots; j++)
        if (sl[j].rank == q && sl[j].taken_by < 0 && fabs(sl[j].pos - y) < tol)
            tol = fabs(sl[j].pos - y), pick = (long)j;
    if (pick < 0)
        return;
    sl[pick].taken_by = (long)o->model;
    p->rank = q, p->file = (int)floor(sl[pick].pos + 1e-9), p->offset = sl[pick].pos - p->file;
}

/* The models not seen fill the free slots in listing order, front rank first, left to right. */
static void place_unseen(const vis_fit *F, const hyp *h, slot *sl, size_t n_slots, size_t *idx,
                         vis_formation_placement *out)
{
    const vis_formation_model *ms = F->in->models;
    size_t nu = 0;
    for (size_t k = 0; k < F->in->n_models; k++)
        if (!out->models[k].placed)
            idx[nu++] = k;
    for (size_t i = 1; i < nu; i++) /* insertion sort by listing slot; stable */
        for (size_t j = i; j > 0 && (ms[idx[j - 1]].roster_rank > ms[idx[j]].roster_rank ||
                                     (ms[idx[j - 1]].roster_rank == ms[idx[j]].roster_rank &&
                                      ms[idx[j - 1]].roster_file > ms[idx[j]].roster_file));
             j--) {
            size_t x = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = x;
        }
    size_t next = 0;
    for (size_t u = 0; u < nu; u++) {
        while (next < n_slots && sl[next].taken_by >= 0)
            next++;
        if (next == n_slots)
            return; /* more models than free slots: the rest stay unplaced */
        slot *s = &sl[next];
        vis_formation_place *p = &out->models[idx[u]];
        s->taken_by = (long)idx[u];
        p->pos = slot_board(F, out->frame, s->rank, s->pos);
        p->facing = F->f0.heading;
        p->placed = p->inferred = true;
        p->fit_mm = slot_fit_mm(F, h, s->rank, s->pos);
        p->rank = s->rank, p->file = (int)floor(s->pos + 1e-9), p->offset = s->pos - p->file;
    }
}

static int build(const vis_fit *F, const hyps *H, const hyp *h, double match_tol, vis_formation_placement *out)
{
    const size_t n = F->in->n_models;
    const size_t n_slots = (size_t)(H->R - 1) * (size_t)H->F + (size_t)H->k;
    out->models = calloc(n ? n : 1, sizeof *out->models);
    slot *sl = malloc(n_slots * sizeof *sl);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    int rc = -1;
    if (out->models && sl && idx) {
        make_slots(H, h, sl);
        const base_vec2 o = base_frame_to_board(F->f0, base_v2(F->au - h->t * F->pa, F->av + h->s * F->pd));
        out->frame = (base_frame){o, F->f0.heading};
        for (size_t i = 0; i < F->n; i++)
            place_observed(F, &F->o[i], h, sl, n_slots, match_tol, &out->models[F->o[i].model]);
        place_unseen(F, h, sl, n_slots, idx, out);
        rc = 0;
    }
    free(sl);
    free(idx);
    return rc;
}

/* The seen models fit no formation of this many models: one block just wide enough, every rank full. */
static int fallback(const vis_fit *F, hyps *H, vis_formation_result *res)
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
        measured += vis_formation_is_measured(in->models[i].evidence);
    if (measured == 0)
        return 0;
    vis_fit F = {.in = in};
    hyps H = {0};
    int rc = -1;
    F.o = malloc(measured * sizeof *F.o);
    if (!F.o || vis_formation_fit_grid(in, &F) < 0)
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
