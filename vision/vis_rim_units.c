/* vis_rim_units: rim labels made into seen models, a unit told by its labels together (see the header). */
#include "vis_rim_units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXCESS_CAP 8.0

/* What every label found is, best read: its misfit among every code of its layout in any turn. */
typedef struct label_info {
    double best;      /* nats */
    int k;            /* its turn against the block's reference heading */
    long block;
} label_info;

/* A unit taken: the place of its first file's front model (board mm) and its facing. */
typedef struct unit_grid {
    bool ok;
    double x, y, facing;
} unit_grid;

typedef struct ctx {
    const vis_rim_book *book;
    const roster_map *map;
    vis_rim_found *found;
    label_info *info;
    long *in_layout;   /* per roster model: its index in its layout's models, -1 for none */
    vis_seen_model *seen;
    unsigned char *partial;
    vis_rim_stats *st;
    const vis_camera *cam;
    const base_view *im;
    unsigned char *used;   /* per label: in a block a unit was taken from, or placed */
    unit_grid *grid;       /* per roster unit: where its formation stands, once taken */
} ctx;

/* Whether roster model gm carries layout L, and at which index (*j): in_layout gives its index in its own layout,
 * which is L only when L lists it there (an index past L's models is no entry of L: never read it). */
static bool on_layout(const ctx *c, const vis_rim_layout *L, size_t gm, size_t *j)
{
    const long k = c->in_layout[gm];
    if (k < 0 || (size_t)k >= L->n_models || L->models[k] != gm)
        return false;
    *j = (size_t)k;
    return true;
}


static long find_root(long *parent, long i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* Two labels of one layout standing side by side: fronts parallel (within 8 degrees, up to a turn), near. */
static bool side_by_side(const vis_rim_label *a, const vis_rim_label *b)
{
    if (a->layout != b->layout)
        return false;
    const roster_rim *r = &a->layout->rim;
    const double step = 2 * BASE_PI / r->turns, dh = base_angle_wrap(a->heading - b->heading);
    const double off = fabs(dh - step * round(dh / step));
    return off < base_deg_to_rad(8) &&
           hypot(a->centre[0] - b->centre[0], a->centre[1] - b->centre[1]) < 1.15 * fmax(r->width, r->depth);
}

/* Blocks of side-by-side labels: info[i].block, the root label's index; the block count. */
static size_t make_blocks(ctx *c)
{
    const size_t n = c->found->n;
    long *parent = malloc((n + 1) * sizeof *parent);
    if (!parent)
        return 0;
    for (size_t i = 0; i < n; i++)
        parent[i] = (long)i;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (side_by_side(&c->found->items[i], &c->found->items[j]))
                parent[find_root(parent, (long)i)] = find_root(parent, (long)j);
    size_t blocks = 0;
    for (size_t i = 0; i < n; i++) {
        c->info[i].block = find_root(parent, (long)i);
        blocks += c->info[i].block == (long)i;
    }
    free(parent);
    return blocks;
}

/* The best misfit of label i among unit u's models in turn t (of its own heading); *which the layout index. */
static double unit_misfit(const ctx *c, size_t i, size_t u, int t, long *which, double *second)
{
    const vis_rim_label *lab = &c->found->items[i];
    const roster_map_unit *ru = &c->map->units[u];
    double best = 1e30, next = 1e30;
    *which = -1;
    for (size_t q = 0; q < ru->n_models; q++) {
        size_t j;
        if (!on_layout(c, lab->layout, ru->first_model + q, &j))
            continue;
        const double m = vis_rim_misfit(lab->layout, &lab->obs, j, t);
        if (m < best)
            next = best, best = m, *which = j;
        else if (m < next)
            next = m;
    }
    if (second)
        *second = next;
    return best;
}

/* May unit u explain a block of n labels of layout L? Its models on L, none seen yet; ranked or not as n says. */
static bool candidate_unit(const ctx *c, size_t u, const vis_rim_layout *L, size_t n)
{
    const roster_map_unit *ru = &c->map->units[u];
    /* A block may hold more labels than the unit has models (a false find among them): each extra costs its cap. */
    if (ru->n_models == 0 || ru->mount.layout != ROSTER_MARK_RIM)
        return false;
    if (n == 1 && !(ru->loose || ru->n_models == 1))
        return false;
    if (n > 1 && ru->loose)
        return false; /* skirmishers stand apart: each label alone */
    for (size_t q = 0; q < ru->n_models; q++) {
        const size_t gm = ru->first_model + q;
        size_t j;
        /* A loose unit's labels stand alone: each is read on its own, after others of its unit. */
        if (!on_layout(c, L, gm, &j) || (c->seen[gm].seen && !ru->loose))
            return false;
    }
    return true;
}

/* The block's unit and turn: *u and *t, true when clearly the best (header, point 2). */
static bool block_unit(const ctx *c, const size_t *lab, size_t n, size_t *u_out, int *t_out)
{
    const vis_rim_layout *L = c->found->items[lab[0]].layout;
    const int turns = L->rim.turns;
    double best = 1e30, next = 1e30;
    for (size_t u = 0; u < c->map->n_units; u++) {
        if (!candidate_unit(c, u, L, n))
            continue;
        for (int t = 0; t < turns; t++) {
            double s = 0;
            for (size_t a = 0; a < n && s < next; a++) {
                long j;
                const int ti = ((t - c->info[lab[a]].k) % turns + turns) % turns;
                /* A label no code of u fits (a false find, a label of a neighbour) counts at most EXCESS_CAP. */
                s += fmin(EXCESS_CAP, unit_misfit(c, lab[a], u, ti, &j, NULL) - c->info[lab[a]].best);
            }
            if (s < best)
                next = best, best = s, *u_out = u, *t_out = t;
            else if (s < next)
                next = s;
        }
    }
    return best <= VIS_RIM_UNIT_EXCESS * (double)n && next - best >= VIS_RIM_UNIT_MARGIN;
}

/* Label a's place in the unit's grid (file right of, rank behind label o), false when it is off the grid. */
static bool grid_place_within(const ctx *c, const size_t *lab, size_t o, size_t a, size_t u, double facing,
                              int *file, int *rank, double tol)
{
    const vis_rim_label *l0 = &c->found->items[lab[o]], *l = &c->found->items[lab[a]];
    const roster_map_unit *ru = &c->map->units[u];
    const base_vec2 fwd = base_v2_dir(facing), right = base_v2(fwd.y, -fwd.x);
    const base_vec2 d = base_v2(l->centre[0] - l0->centre[0], l->centre[1] - l0->centre[1]);
    const double f = base_v2_dot(d, right) / ru->base_width, r = -base_v2_dot(d, fwd) / ru->base_depth;
    *file = (int)lround(f), *rank = (int)lround(r);
    return fabs(f - *file) < tol && fabs(r - *rank) < tol;
}

static bool grid_place(const ctx *c, const size_t *lab, size_t o, size_t a, size_t u, double facing, int *file,
                       int *rank)
{
    return grid_place_within(c, lab, o, a, u, facing, file, rank, 0.2);
}

/* The block's grid fitted on every label on it (gf[a] != off): where its place (0, 0) lies, board mm. */
static base_vec2 grid_fit(const ctx *c, const size_t *lab, const int *gf, const int *gr, size_t n, size_t u,
                          double facing)
{
    const roster_map_unit *ru = &c->map->units[u];
    const base_vec2 fwd = base_v2_dir(facing), right = base_v2(fwd.y, -fwd.x);
    base_vec2 o = base_v2(0, 0);
    int k = 0;
    for (size_t a = 0; a < n; a++) {
        if (gf[a] == 1 << 20)
            continue;
        const vis_rim_label *l = &c->found->items[lab[a]];
        o.x += l->centre[0] - gf[a] * ru->base_width * right.x + gr[a] * ru->base_depth * fwd.x;
        o.y += l->centre[1] - gf[a] * ru->base_width * right.y + gr[a] * ru->base_depth * fwd.y;
        k++;
    }
    return k ? base_v2(o.x / k, o.y / k) : o;
}

/* A label clear enough to stand for its model by its place alone: within a tenth of a base of its place on the
 * grid fitted on the block (a false find a cell off a true label is not), its cells mostly on paper's or ink's
 * level. */
static bool placeable(const ctx *c, size_t i, base_vec2 origin, int file, int rank, size_t u, double facing)
{
    const roster_map_unit *ru = &c->map->units[u];
    const vis_rim_label *l = &c->found->items[i];
    const base_vec2 fwd = base_v2_dir(facing), right = base_v2(fwd.y, -fwd.x);
    const base_vec2 d = base_v2(l->centre[0] - origin.x, l->centre[1] - origin.y);
    const double f = base_v2_dot(d, right) / ru->base_width, r = -base_v2_dot(d, fwd) / ru->base_depth;
    return l->clean >= VIS_RIM_MIN_CLEAN && fabs(f - file) < VIS_RIM_GRID_TOL && fabs(r - rank) < VIS_RIM_GRID_TOL;
}

/* The turn (of its layout's) in which label l gives a model facing `facing`. */
static int turn_of(const vis_rim_label *l, double facing)
{
    const int turns = l->layout->rim.turns;
    const double step = 2 * BASE_PI / turns;
    return ((int)lround(base_angle_wrap(facing - l->heading) / step) % turns + turns) % turns;
}

/* Does label i's code allow it to be roster model gm facing `facing`: no more than VIS_RIM_GRID_FIT nats worse
 * than its best reading? (A label of a neighbouring unit on the same grid shows cells of another code.) */
static bool code_allows(ctx *c, size_t i, size_t gm, double facing)
{
    vis_rim_label *l = &c->found->items[i];
    size_t j;
    if (!on_layout(c, l->layout, gm, &j))
        return false;
    const int t = turn_of(l, facing);
    if (vis_rim_misfit(l->layout, &l->obs, (size_t)j, t) - c->info[i].best <= VIS_RIM_GRID_FIT)
        return true;
    /* Found by its corner blocks alone, the label may sit a little off: its pose again on the model's code. */
    vis_rim_label again = *l;
    vis_rim_decoded d;
    vis_rim_refine(c->cam, c->im, &again, (size_t)j, t);
    vis_rim_decode(again.layout, &again.obs, NULL, 15u, &d);
    if (d.m < 0 || vis_rim_misfit(again.layout, &again.obs, (size_t)j, turn_of(&again, facing)) - d.misfit >
                       VIS_RIM_GRID_FIT)
        return false;
    *l = again, c->info[i].best = d.misfit;
    return true;
}

/* What label i costs standing at (file, rank) of unit u facing `facing`: its misfit as the model of that place
 * less its best reading, capped (a place off the unit: the cap; the rear rank not full: its best model's). */
static double place_cost(const ctx *c, size_t i, size_t u, int file, int rank, double facing)
{
    const roster_map_unit *ru = &c->map->units[u];
    const size_t files = ru->files > 0 ? (size_t)ru->files : ru->n_models, full = ru->n_models / files;
    if (file < 0 || rank < 0 || (size_t)file >= files || (size_t)rank * files + (size_t)file >= ru->n_models)
        return EXCESS_CAP;
    const vis_rim_label *l = &c->found->items[i];
    const int t = turn_of(l, facing);
    size_t from = ru->first_model + (size_t)rank * files + (size_t)file, to = from + 1;
    if ((size_t)rank >= full)
        from = ru->first_model + full * files, to = ru->first_model + ru->n_models;
    double best = 1e30;
    for (size_t gm = from; gm < to; gm++) {
        size_t j;
        if (on_layout(c, l->layout, gm, &j))
            best = fmin(best, vis_rim_misfit(l->layout, &l->obs, j, t));
    }
    return fmin(EXCESS_CAP, best - c->info[i].best);
}

/*
 * Which place of unit u's grid the block's labels stand on, all together:
 * each shift of the block over the unit's files and ranks costs the sum of
 * its labels' place_cost; the cheapest is taken when it explains the block
 * (at most VIS_RIM_UNIT_EXCESS a label) and every other shift is at least
 * VIS_RIM_UNIT_MARGIN nats worse. A ranked unit's labels are read jointly:
 * many half-covered labels fix the shift though none names its model alone.
 */
static bool grid_shift(const ctx *c, const size_t *lab, const int *gf, const int *gr, size_t n, size_t u,
                       double facing, int *off_f, int *off_r)
{
    const roster_map_unit *ru = &c->map->units[u];
    const int files = ru->files > 0 ? ru->files : (int)ru->n_models;
    const int ranks = (int)((ru->n_models + (size_t)files - 1) / (size_t)files);
    int fmin = 1 << 20, fmax = -(1 << 20), rmin = 1 << 20, rmax = -(1 << 20), on = 0;
    for (size_t a = 0; a < n; a++)
        if (gf[a] != 1 << 20)
            fmin = gf[a] < fmin ? gf[a] : fmin, fmax = gf[a] > fmax ? gf[a] : fmax,
            rmin = gr[a] < rmin ? gr[a] : rmin, rmax = gr[a] > rmax ? gr[a] : rmax, on++;
    if (on == 0)
        return false;
    double best = 1e30, next = 1e30;
    for (int of = -fmax; of <= files - 1 - fmin; of++)
        for (int orr = -rmax; orr <= ranks - 1 - rmin; orr++) {
            double sum = 0;
            for (size_t a = 0; a < n && sum < next; a++)
                if (gf[a] != 1 << 20)
                    sum += place_cost(c, lab[a], u, gf[a] + of, gr[a] + orr, facing);
            if (sum < best)
                next = best, best = sum, *off_f = of, *off_r = orr;
            else if (sum < next)
                next = sum;
        }
    return best <= VIS_RIM_UNIT_EXCESS * on && next - best >= VIS_RIM_UNIT_MARGIN;
}

/*
 * A label in the unit's rear rank when it is not full (its models may
 * stand centred or with gaps, so the listing does not say which stands
 * where): it places the one rear-rank model its code fits (at most
 * VIS_RIM_GRID_FIT nats worse than its best reading) with every other
 * rear-rank model VIS_RIM_MODEL_MARGIN nats worse. The rank must lie on
 * the grid (origin: the block's place (0, 0), shifted by off_f, off_r);
 * the file may fall anywhere across the unit's width.
 */
static void place_rear(ctx *c, size_t i, base_vec2 origin, int off_f, int off_r, size_t u, double facing)
{
    const roster_map_unit *ru = &c->map->units[u];
    const size_t files = ru->files > 0 ? (size_t)ru->files : ru->n_models, full = ru->n_models / files;
    vis_rim_label *l = &c->found->items[i];
    if (full * files == ru->n_models || l->clean < VIS_RIM_MIN_CLEAN)
        return;
    const base_vec2 fwd = base_v2_dir(facing), right = base_v2(fwd.y, -fwd.x);
    const base_vec2 d = base_v2(l->centre[0] - origin.x, l->centre[1] - origin.y);
    const double f = base_v2_dot(d, right) / ru->base_width + off_f, r = -base_v2_dot(d, fwd) / ru->base_depth + off_r;
    if (fabs(r - (double)full) > VIS_RIM_GRID_TOL || f < -0.5 || f > (double)files - 0.5)
        return;
    const int t = turn_of(l, facing);
    double best = 1e30, next = 1e30;
    size_t pick = 0;
    for (size_t gm = ru->first_model + full * files; gm < ru->first_model + ru->n_models; gm++) {
        size_t j;
        if (!on_layout(c, l->layout, gm, &j))
            return;
        const double m = vis_rim_misfit(l->layout, &l->obs, j, t);
        if (m < best)
            next = best, best = m, pick = gm;
        else if (m < next)
            next = m;
    }
    if (best - c->info[i].best > VIS_RIM_GRID_FIT || next - best < VIS_RIM_MODEL_MARGIN || c->seen[pick].seen)
        return;
    c->used[i] = 1;
    c->seen[pick] = (vis_seen_model){.seen = true, .pos = base_v2(l->centre[0], l->centre[1]), .facing = facing};
}

/*
 * The labels that name no model, given the model of the place they stand
 * on in the unit's grid (listing order: file = index mod files). The grid
 * is anchored by the labels together (grid_shift), and the models named
 * must agree with it; only full ranks (a rear rank not full may stand
 * centred or with gaps), and a label whose code is against its place's
 * model (code_allows) is left alone. Nothing when in doubt.
 */
static void place_by_grid(ctx *c, const size_t *lab, const long *who, size_t n, size_t u, double facing)
{
    const roster_map_unit *ru = &c->map->units[u];
    const int files = ru->files > 0 ? ru->files : (int)ru->n_models;
    int *gf = malloc((n + 1) * 2 * sizeof *gf);
    if (!gf)
        return;
    int *gr = gf + n + 1, off_f = 0, off_r = 0;
    /* The grid through the label most others stand on (a false find in the block is on no grid). */
    size_t origin = 0, most = 0;
    for (size_t o = 0; o < n; o++) {
        size_t on = 0;
        for (size_t a = 0; a < n; a++)
            on += grid_place(c, lab, o, a, u, facing, &gf[a], &gr[a]);
        if (on > most)
            most = on, origin = o;
    }
    for (size_t a = 0; a < n; a++)
        if (!grid_place(c, lab, origin, a, u, facing, &gf[a], &gr[a]))
            gf[a] = 1 << 20; /* off the grid */
    bool agree = grid_shift(c, lab, gf, gr, n, u, facing, &off_f, &off_r);
    const base_vec2 at = grid_fit(c, lab, gf, gr, n, u, facing);
    for (size_t a = 0; agree && a < n; a++) {
        if (who[a] < 0 || gf[a] == 1 << 20)
            continue;
        const size_t q = c->found->items[lab[a]].layout->models[who[a]] - ru->first_model;
        agree = (int)(q % (size_t)files) == gf[a] + off_f && (int)(q / (size_t)files) == gr[a] + off_r;
    }
    for (size_t a = 0; agree && a < n; a++) {
        if (who[a] >= 0 || gf[a] == 1 << 20)
            continue;
        const int file = gf[a] + off_f, rank = gr[a] + off_r;
        const size_t q = (size_t)rank * (size_t)files + (size_t)file;
        /* A rear rank not full may stand centred or in gaps: which model is where there, the listing does not say. */
        if (file < 0 || file >= files || rank < 0 || q >= ru->n_models || rank >= (int)(ru->n_models / (size_t)files) ||
            c->seen[ru->first_model + q].seen || !code_allows(c, lab[a], ru->first_model + q, facing) ||
            !placeable(c, lab[a], at, gf[a], gr[a], u, facing))
            continue;
        c->used[lab[a]] = 1;
        const vis_rim_label *l = &c->found->items[lab[a]];
        c->seen[ru->first_model + q] = (vis_seen_model){.seen = true, .pos = base_v2(l->centre[0], l->centre[1]),
                                                         .facing = facing};
    }
    for (size_t a = 0; agree && a < n; a++)
        if (!c->used[lab[a]])
            place_rear(c, lab[a], at, off_f, off_r, u, facing);
    free(gf);
}

/* Where unit u's formation stands: the mean of its full ranks' models seen, each moved to file 0, rank 0. */
static void unit_grid_set(ctx *c, size_t u, double facing)
{
    const roster_map_unit *ru = &c->map->units[u];
    const size_t files = ru->files > 0 ? (size_t)ru->files : ru->n_models, full = ru->n_models / files * files;
    const base_vec2 fwd = base_v2_dir(facing), right = base_v2(fwd.y, -fwd.x);
    double x = 0, y = 0;
    int k = 0;
    for (size_t q = 0; q < full; q++) {
        const vis_seen_model *m = &c->seen[ru->first_model + q];
        if (!m->seen)
            continue;
        const double f = (double)(q % files) * ru->base_width, r = (double)(q / files) * ru->base_depth;
        x += m->pos.x - f * right.x + r * fwd.x, y += m->pos.y - f * right.y + r * fwd.y, k++;
    }
    if (k > 0)
        c->grid[u] = (unit_grid){true, x / k, y / k, facing};
}

/*
 * Labels left over (a block no unit explained: a fragment of a unit whose
 * neighbours were not found, or a block with false finds) that stand on
 * the grid of a unit taken: a place of its full ranks not yet seen, the
 * label's front parallel to the unit's, its code not against the model of
 * that place (code_allows), and no other unit's grid claiming it.
 */
static void place_fragments(ctx *c)
{
    for (size_t i = 0; i < c->found->n; i++) {
        if (c->used[i])
            continue;
        const vis_rim_label *l = &c->found->items[i];
        long claim = -1;
        int claims = 0;
        for (size_t u = 0; u < c->map->n_units && claims < 2; u++) {
            const roster_map_unit *ru = &c->map->units[u];
            const unit_grid *g = &c->grid[u];
            size_t j;
            if (!g->ok || !on_layout(c, l->layout, ru->first_model, &j))
                continue;
            const double step = 2 * BASE_PI / l->layout->rim.turns, dh = base_angle_wrap(g->facing - l->heading);
            if (fabs(dh - step * round(dh / step)) > base_deg_to_rad(8))
                continue;
            const base_vec2 fwd = base_v2_dir(g->facing), right = base_v2(fwd.y, -fwd.x);
            const base_vec2 d = base_v2(l->centre[0] - g->x, l->centre[1] - g->y);
            const double f = base_v2_dot(d, right) / ru->base_width, r = -base_v2_dot(d, fwd) / ru->base_depth;
            const long file = lround(f), rank = lround(r);
            const size_t files = ru->files > 0 ? (size_t)ru->files : ru->n_models;
            if (fabs(f - (double)file) > 0.2 || fabs(r - (double)rank) > 0.2 || file < 0 || rank < 0 ||
                (size_t)file >= files || (size_t)rank >= ru->n_models / files)
                continue;
            const size_t gm = ru->first_model + (size_t)rank * files + (size_t)file;
            claims++;
            if (!c->seen[gm].seen && code_allows(c, i, gm, g->facing) && l->clean >= VIS_RIM_MIN_CLEAN &&
                fabs(f - (double)file) < VIS_RIM_GRID_TOL && fabs(r - (double)rank) < VIS_RIM_GRID_TOL)
                claim = (long)gm;
        }
        if (claims == 1 && claim >= 0) {
            c->seen[claim] = (vis_seen_model){.seen = true, .pos = base_v2(l->centre[0], l->centre[1]),
                                              .facing = c->grid[c->map->models[claim].unit].facing};
            c->used[i] = 1, c->st->models++;
        }
    }
}

/* The block's labels named within unit u lying in turn t: models marked seen. */
static void name_models(ctx *c, const base_view *im, const vis_camera *cam, const size_t *lab, size_t n, size_t u,
                        int t)
{
    const int turns = c->found->items[lab[0]].layout->rim.turns;
    size_t named = 0, before = 0;
    for (size_t q = 0; q < c->map->units[u].n_models; q++)
        before += c->seen[c->map->units[u].first_model + q].seen;
    long *who = malloc((n + 1) * sizeof *who);
    if (!who)
        return;
    for (size_t a = 0; a < n; a++) {
        const int ti = ((t - c->info[lab[a]].k) % turns + turns) % turns;
        double second;
        long j;
        const double m = unit_misfit(c, lab[a], u, ti, &j, &second);
        who[a] = m <= 4 && second - m >= VIS_RIM_MODEL_MARGIN ? j : -1;
        if (who[a] < 0)
            continue;
        vis_rim_label *l = &c->found->items[lab[a]];
        vis_rim_refine(cam, im, l, (size_t)j, ti);
        const size_t gm = l->layout->models[j];
        for (size_t b = 0; b < a; b++)
            if (who[b] == j)
                c->seen[gm] = (vis_seen_model){0}, who[a] = -2; /* named twice: none */
        if (who[a] == -2 || c->seen[gm].seen) {
            who[a] = -2;
            continue; /* named twice, or a skirmisher already placed by another label */
        }
        c->seen[gm] = (vis_seen_model){.seen = true, .certain = true, .pos = base_v2(l->centre[0], l->centre[1]),
                                       .facing = vis_rim_facing(l, ti)};
        c->used[lab[a]] = 1;
    }
    const double facing = base_angle_wrap(c->found->items[c->info[lab[0]].block].heading + t * 2 * BASE_PI / turns);
    if (n > 1 && !c->map->units[u].loose) {
        place_by_grid(c, lab, who, n, u, facing);
        unit_grid_set(c, u, facing);
    }
    for (size_t q = 0; q < c->map->units[u].n_models; q++)
        named += c->seen[c->map->units[u].first_model + q].seen;
    /* Skirmishers stand apart: no formation places the ones not read. */
    if ((named < 3 || c->map->units[u].loose) && c->map->units[u].n_models > named)
        c->partial[u] = 1;
    c->st->units += before == 0, c->st->models += named - before;
    free(who);
}

/* Each label's best reading over the whole layout and its turn against its block's first label. */
static void read_labels(ctx *c)
{
    for (size_t i = 0; i < c->found->n; i++) {
        vis_rim_decoded d;
        vis_rim_decode(c->found->items[i].layout, &c->found->items[i].obs, NULL, 15u, &d);
        c->info[i].best = d.m >= 0 ? d.misfit : 0;
    }
    for (size_t i = 0; i < c->found->n; i++) {
        const vis_rim_label *a = &c->found->items[i], *root = &c->found->items[c->info[i].block];
        const int turns = a->layout->rim.turns;
        const double step = 2 * BASE_PI / turns;
        c->info[i].k = ((int)lround(base_angle_wrap(a->heading - root->heading) / step) % turns + turns) % turns;
    }
}

static int place_blocks(ctx *c, const vis_camera *cam, const base_view *im)
{
    const size_t n = c->found->n;
    size_t *lab = malloc((n + 1) * sizeof *lab);
    if (!lab)
        return -1;
    for (size_t root = 0; root < n; root++) {
        if (c->info[root].block != (long)root)
            continue;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (c->info[i].block == (long)root)
                lab[m++] = i;
        size_t u = 0;
        int t = 0;
        if (block_unit(c, lab, m, &u, &t))
            name_models(c, im, cam, lab, m, u, t);
    }
    place_fragments(c);
    free(lab);
    return 0;
}

int vis_rim_units_place(const vis_camera *cam, const base_view *im, const vis_rim_book *book, const roster_map *map,
                        int threads, vis_seen_model *seen, unsigned char *partial, vis_rim_stats *st,
                        vis_rim_found *found_out)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(st, 0, sizeof *st);
    if (book->n == 0)
        return 0;
    vis_rim_params p;
    vis_rim_params_default(&p);
    /* A corner's junction already puts the label within a cell: a narrow search (test vision_rim). */
    p.search_mm = 0.6, p.search_rad = base_deg_to_rad(4);
    vis_rim_found found = {0};
    const int roi[4] = {0, 0, im->width, im->height};
    ctx c = {book, map, &found, NULL, NULL, seen, partial, st, cam, im, NULL, NULL};
    int rc = vis_rim_find(cam, im, book, &p, threads, roi, &found);
    c.info = calloc(found.n + 1, sizeof *c.info);
    c.in_layout = malloc((map->n_models + 1) * sizeof *c.in_layout);
    c.used = calloc(found.n + 1, 1);
    c.grid = calloc(map->n_units + 1, sizeof *c.grid);
    if (rc < 0 || !c.info || !c.in_layout || !c.used || !c.grid) {
        rc = -1;
        goto done;
    }
    for (size_t i = 0; i < map->n_models; i++)
        c.in_layout[i] = -1;
    for (size_t k = 0; k < book->n; k++)
        for (size_t j = 0; j < book->layouts[k].n_models; j++)
            c.in_layout[book->layouts[k].models[j]] = (long)j;
    st->labels = found.n;
    st->blocks = make_blocks(&c);
    read_labels(&c);
    rc = place_blocks(&c, cam, im);
done:
    free(c.info);
    free(c.in_layout);
    free(c.used);
    free(c.grid);
    if (found_out && rc == 0)
        *found_out = found; /* handed on whole: the caller clears it */
    else
        vis_rim_found_clear(&found);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    st->ms = 1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec);
    return rc;
}
