/* Where the hidden-unit search looks, and the dark blobs and white rings there (vis_recover_blobs.h). */
#include "vis_recover_blobs.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vis_parallel.h"
#include "vis_relief.h"

/* The picture shrunk by f (block means): candidates are looked for on it. */
typedef struct shrunk {
    uint8_t *px;
    int w, h, f;
} shrunk;

static bool shrink(const base_view *im, int f, shrunk *out)
{
    out->f = f, out->w = im->width / f, out->h = im->height / f;
    out->px = malloc((size_t)out->w * out->h + 1);
    if (!out->px)
        return false;
    /* f = 1 (small tags, a 4K webcam's): the block means are the pixels. */
    for (int y = 0; f == 1 && y < out->h; y++)
        memcpy(out->px + (size_t)y * out->w, im->data + (size_t)y * im->stride, (size_t)out->w);
    for (int y = 0; f > 1 && y < out->h; y++)
        for (int x = 0; x < out->w; x++) {
            int sum = 0;
            for (int v = 0; v < f; v++) {
                const uint8_t *p = im->data + (size_t)(y * f + v) * im->stride + (size_t)x * f;
                for (int u = 0; u < f; u++)
                    sum += p[u];
            }
            out->px[(size_t)y * out->w + x] = (uint8_t)((sum + f * f / 2) / (f * f));
        }
    return true;
}

/* A run of marked pixels along one row of the shrunk picture; up: the union-find parent, always an earlier run, so a
 * component's root is its first run in raster order. */
typedef struct blob_run {
    int32_t x0, x1, y, up;
} blob_run;

/* What a component adds up to (kept at its root run). */
typedef struct blob_sum {
    int64_t area, sx, sy;
    int minx, maxx, miny, maxy;
} blob_sum;

static int32_t run_root(blob_run *r, int32_t i)
{
    while (r[i].up != i)
        r[i].up = r[r[i].up].up, i = r[i].up;
    return i;
}

static void run_join(blob_run *r, int32_t a, int32_t b)
{
    a = run_root(r, a), b = run_root(r, b);
    if (a < b)
        r[b].up = a;
    else if (b < a)
        r[a].up = b;
}

/* The first x from x on (below w) where mark[x] is `want` (0 or 1), eight marks a step; w when none. */
static int next_mark(const uint8_t *mark, int x, int w, uint8_t want)
{
    const uint64_t flip = want ? 0 : 0x0101010101010101u;
    for (; x + 8 <= w; x += 8) {
        uint64_t word;
        memcpy(&word, mark + x, sizeof word);
        word ^= flip; /* a set byte: a pixel whose mark is `want` */
        if (word)
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            return x + __builtin_clzll(word) / 8;
#else
            return x + __builtin_ctzll(word) / 8;
#endif
    }
    while (x < w && mark[x] != want)
        x++;
    return x;
}

/* mark[x] = 1 where row[x] is brighter (bright) or darker than lim. Sixteen at a time in fixed blocks, which the
 * compiler turns into vector compares at -O2; the runs are then found eight marks at a time (next_mark). */
static void mark_row(const uint8_t *restrict row, int w, uint8_t lim, bool bright, uint8_t *restrict mark)
{
    int x = 0;
    if (bright)
        for (; x + 16 <= w; x += 16)
            for (int k = 0; k < 16; k++)
                mark[x + k] = row[x + k] > lim;
    else
        for (; x + 16 <= w; x += 16)
            for (int k = 0; k < 16; k++)
                mark[x + k] = row[x + k] < lim;
    for (; x < w; x++)
        mark[x] = bright ? row[x] > lim : row[x] < lim;
}

/* The runs of pixels brighter (bright) or darker than lim, row by row, each joined to the runs it touches in the
 * row above (4-connected). Returns the count, -1 when out of memory (*runs NULL). */
static long marked_runs(const shrunk *sm, uint8_t lim, bool bright, blob_run **runs)
{
    size_t n = 0, cap = 1024, prev = 0;
    blob_run *r = malloc(cap * sizeof *r);
    uint8_t *mark = malloc((size_t)sm->w + 1);
    for (int y = 0; r && mark && y < sm->h; y++) {
        const uint8_t *row = sm->px + (size_t)y * sm->w;
        const size_t first = n;
        mark_row(row, sm->w, lim, bright, mark);
        for (int x = next_mark(mark, 0, sm->w, 1); x < sm->w; x = next_mark(mark, x, sm->w, 1)) {
            const int x0 = x;
            x = next_mark(mark, x, sm->w, 0);
            if (n == cap) {
                blob_run *g = realloc(r, 2 * cap * sizeof *r);
                if (!g) {
                    free(r);
                    r = NULL;
                    break;
                }
                r = g, cap *= 2;
            }
            r[n] = (blob_run){x0, x - 1, y, (int32_t)n};
            n++;
        }
        for (size_t i = prev, j = first; r && i < first && j < n;) {
            if (r[i].x0 <= r[j].x1 && r[j].x0 <= r[i].x1)
                run_join(r, (int32_t)i, (int32_t)j);
            if (r[i].x1 < r[j].x1)
                i++;
            else
                j++;
        }
        prev = first;
    }
    if (!mark) {
        free(r);
        r = NULL;
    }
    free(mark);
    *runs = r;
    return r ? (long)n : -1;
}

/* Each component's sums at its root run; sums[i] is valid where run i is a root. */
static void sum_components(blob_run *r, long n, blob_sum *sums)
{
    for (int32_t i = 0; i < n; i++) {
        const int32_t k = run_root(r, i);
        const int64_t len = r[i].x1 - r[i].x0 + 1;
        const blob_sum s = {len, len * (r[i].x0 + r[i].x1) / 2, len * r[i].y, r[i].x0, r[i].x1, r[i].y, r[i].y};
        if (k == i) {
            sums[i] = s;
            continue;
        }
        blob_sum *t = &sums[k];
        t->area += s.area, t->sx += s.sx, t->sy += s.sy;
        t->minx = s.minx < t->minx ? s.minx : t->minx, t->maxx = s.maxx > t->maxx ? s.maxx : t->maxx;
        t->miny = s.miny < t->miny ? s.miny : t->miny, t->maxy = s.maxy > t->maxy ? s.maxy : t->maxy;
    }
}

/*
 * Candidates for tags apriltag could not segment, on a box-averaged copy of
 * the picture, for black squares lo_px..hi_px wide:
 *   dark (bright = false): blobs darker than `threshold` the size of a
 *     black square, whole or bitten;
 *   bright (bright = true): components brighter than `threshold` the size
 *     of the printed tag with a hole in them: its white border. A spear
 *     across a tag joins its black square to the next tag's through the
 *     spear's shadow, but cuts the white ring once at most, so the ring is
 *     still one component of the right size.
 * Components (4-connected) are labelled by runs, not pixel by pixel: on a 4K
 * webcam frame the shrink factor is 1 and the bright pass covers most of it.
 * They come out in the order of their first pixel in raster order.
 * Returns the count (at most cap), -1 when out of memory.
 */
static long tag_candidates(const shrunk *sm, double lo_px, double hi_px, double threshold, bool bright, vis_blob *out,
                           size_t cap)
{
    const int f = sm->f;
    const uint8_t lim = (uint8_t)fmin(255, fmax(0, threshold));
    blob_run *runs;
    const long nr = marked_runs(sm, lim, bright, &runs);
    if (nr < 0)
        return -1;
    blob_sum *sums = malloc(((size_t)nr + 1) * sizeof *sums);
    if (!sums) {
        free(runs);
        return -1;
    }
    sum_components(runs, nr, sums);
    /* The printed tag is 10 cells for the black square's 8; its bounding box grows by up to sqrt 2 with its turn. */
    const double lo = (bright ? 1.25 : 0.5) * lo_px / f, hi = (bright ? 1.25 * 1.5 : 1.6) * hi_px / f;
    size_t n = 0;
    for (int32_t i = 0; i < nr; i++) {
        if (runs[i].up != i)
            continue;
        const blob_sum *s = &sums[i];
        const double area = (double)s->area;
        const double ext = fmax(s->maxx - s->minx + 1, s->maxy - s->miny + 1);
        const double ext2 = fmin(s->maxx - s->minx + 1, s->maxy - s->miny + 1);
        const double box = (double)(s->maxx - s->minx + 1) * (s->maxy - s->miny + 1);
        if (ext < lo || ext > hi || ext2 < 0.7 * lo)
            continue;
        if (bright ? area > 0.75 * box || area < 0.12 * box
                   : area < 0.15 * lo * lo / 0.25 || area > 1.2 * hi * hi / (1.6 * 1.6))
            continue;
        if (n < cap) {
            /* A ring's centre is its box's middle; a blob's, its centroid. */
            out[n].px[0] = ((bright ? (s->minx + s->maxx) / 2.0 : (double)s->sx / area) + 0.5) * f - 0.5;
            out[n].px[1] = ((bright ? (s->miny + s->maxy) / 2.0 : (double)s->sy / area) + 0.5) * f - 0.5;
            out[n].ext_px[0] = ext * f, out[n].ext_px[1] = ext2 * f, out[n].ring = bright;
            n++;
        }
    }
    free(sums);
    free(runs);
    return (long)n;
}

typedef struct candidate_pass {
    const shrunk *sm;
    double lo_px, hi_px, threshold;
    bool bright;
    vis_blob *out;
    size_t cap;
    long found;
} candidate_pass;

static void run_pass(void *ctx, size_t i)
{
    candidate_pass *c = (candidate_pass *)ctx + i;
    c->found = tag_candidates(c->sm, c->lo_px, c->hi_px, c->threshold, c->bright, c->out, c->cap);
}

/* The black squares' sizes in the picture, px, smallest and largest. */
static void tag_px_range(const vis_detector *d, double *lo_px, double *hi_px)
{
    *lo_px = isfinite(d->plan.min_tag_px) ? d->plan.min_tag_px : d->expected_tag_px;
    *hi_px = d->plan.max_tag_px > *lo_px ? d->plan.max_tag_px : *lo_px;
}

/* The shrink factor: block means of f x f pixels, a tenth of the smallest black square. */
static int shrink_factor(double lo_px) { return lo_px >= 18 ? (int)floor(lo_px / 10) : 1; }

/* The farthest two tags of unit ui can stand apart in its block of bases (files by ranks, as listed), mm;
 * infinite for a loose unit of several models (they stand anywhere). */
static double unit_reach_mm(const roster_map_unit *u)
{
    if (u->n_models <= 1)
        return 0;
    if (u->loose)
        return INFINITY;
    const double files = u->files > 0 && (size_t)u->files < u->n_models ? u->files : (double)u->n_models;
    const double ranks = ceil((double)u->n_models / files);
    return hypot(files * u->base_width, ranks * u->base_depth);
}

/* Grows *box (full-frame px) to hold the square of +-reach mm around where pixel px meets the board at height z.
 * False when a ray misses the board or a corner is behind the camera. */
static bool grow_by_reach(const vis_detector *d, const vis_camera *cam, const double px[2], double z, double reach,
                          double box[4])
{
    double P[3];
    if (!vis_relief_cast_pixel(&d->relief, cam, px, z, P))
        return false;
    for (int c = 0; c < 4; c++) {
        const double X[3] = {P[0] + (c & 1 ? reach : -reach), P[1] + (c & 2 ? reach : -reach), P[2]};
        double q[2];
        if (!vis_camera_project(cam, X, q))
            return false;
        box[0] = fmin(box[0], q[0]), box[1] = fmin(box[1], q[1]);
        box[2] = fmax(box[2], q[0]), box[3] = fmax(box[3], q[1]);
    }
    return true;
}

/* One changed part's core grown by `reach` mm (at the missing units' tag heights; reach < 0: not grown), searched
 * with a margin. False when the grown core cannot be told (a ray misses the board). */
static bool grown_box(const vis_detector *d, const vis_camera *cam, const vis_tag_region *part, double reach,
                      const double z[2], double margin, vis_tag_region *out)
{
    /* An empty core keeps every tag of its part: the part itself is what changed. */
    const bool empty = !(part->core_x1 > part->core_x0 && part->core_y1 > part->core_y0);
    const double core[4] = {empty ? part->x0 : part->core_x0, empty ? part->y0 : part->core_y0,
                            empty ? part->x1 : part->core_x1, empty ? part->y1 : part->core_y1};
    double box[4] = {core[0], core[1], core[2], core[3]};
    for (int c = 0; reach >= 0 && c < 4; c++) {
        const double px[2] = {core[c & 1 ? 2 : 0], core[c & 2 ? 3 : 1]};
        if (!grow_by_reach(d, cam, px, z[0], reach, box) || !grow_by_reach(d, cam, px, z[1], reach, box))
            return false;
    }
    const double W = d->calib.width, H = d->calib.height;
    *out = (vis_tag_region){0};
    out->core_x0 = fmax(0, box[0]), out->core_y0 = fmax(0, box[1]);
    out->core_x1 = fmin(W, box[2]), out->core_y1 = fmin(H, box[3]);
    out->x0 = (int)fmax(0, floor(out->core_x0 - margin)), out->y0 = (int)fmax(0, floor(out->core_y0 - margin));
    out->x1 = (int)fmin(W, ceil(out->core_x1 + margin)), out->y1 = (int)fmin(H, ceil(out->core_y1 + margin));
    if (!(out->core_x1 > out->core_x0 && out->core_y1 > out->core_y0))
        out->x1 = out->x0; /* the core is outside the picture: nothing to search (an empty core would keep all) */
    return true;
}

/* How far the missing units' tags reach (mm) and the heights they stand at; false when a unit must be looked for
 * everywhere (loose: its models stand anywhere). */
static bool missing_reach(const vis_detector *d, const bool *missing, double *reach, double z[2])
{
    const roster_map *r = d->map;
    *reach = 0, z[0] = INFINITY, z[1] = -INFINITY;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (!missing[ui])
            continue;
        *reach = fmax(*reach, unit_reach_mm(&r->units[ui]));
        z[0] = fmin(z[0], r->units[ui].mount.height), z[1] = fmax(z[1], r->units[ui].mount.height);
    }
    return isfinite(*reach) && z[0] <= z[1];
}

/* The places the prior gives a missing unit's tags (its pixels there did not change): a box per unit, the box of
 * its tags' centres grown by the largest tag as its core, appended at boxes[*n]. False when one projects behind
 * the camera. */
static bool prior_places(const vis_detector *d, const vis_camera *cam, const bool *missing,
                         const rules_snapshot *prior, double hi_px, double margin, vis_tag_region *boxes, size_t *n)
{
    const roster_map *r = d->map;
    for (size_t ui = 0; prior && ui < r->n_units; ui++) {
        const rules_unit *pu = missing[ui] ? rules_snapshot_find_unit(prior, r->units[ui].id) : NULL;
        double box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
        for (size_t k = 0; pu && k < pu->n_models; k++) {
            base_vec2 tc;
            double th, px[2];
            roster_tag_mount_place(&r->units[ui].mount, pu->models[k].pos, pu->models[k].facing, &tc, &th);
            const double X[3] = {tc.x, tc.y, vis_relief_tag_z(&d->relief, &r->units[ui].mount, pu->models[k].pos)};
            if (!vis_camera_project(cam, X, px))
                return false;
            box[0] = fmin(box[0], px[0]), box[1] = fmin(box[1], px[1]);
            box[2] = fmax(box[2], px[0]), box[3] = fmax(box[3], px[1]);
        }
        if (!(box[0] <= box[2]))
            continue;
        const vis_tag_region part = {0, 0, 0, 0, 0, box[0] - hi_px, box[1] - hi_px, box[2] + hi_px, box[3] + hi_px};
        const double z[2] = {0, 0};
        grown_box(d, cam, &part, -1, z, margin, &boxes[*n]);
        if (boxes[*n].x1 > boxes[*n].x0 && boxes[*n].y1 > boxes[*n].y0)
            ++*n;
    }
    return true;
}

int vis_recover_search_boxes(const vis_detector *d, const vis_camera *cam, const bool *missing,
                             const rules_snapshot *prior, vis_tag_region **boxes, size_t *n)
{
    const size_t nc = d->changed.regions ? d->changed.n : 0;
    *n = 0;
    if (!(*boxes = malloc((nc + d->map->n_models + 1) * sizeof **boxes)))
        return -1;
    double reach = 0, z[2] = {0, 0}, lo_px, hi_px, area = 0;
    tag_px_range(d, &lo_px, &hi_px);
    /* A blob centred in a core lies within its extent of its centre: at most 1.6 of the largest black square. */
    const double margin = 1.6 * hi_px + 2 * shrink_factor(lo_px);
    bool limited = d->cfg.hidden_where_changed && d->changed.regions && missing_reach(d, missing, &reach, z);
    for (size_t b = 0; limited && b < nc; b++) {
        vis_tag_region *g = &(*boxes)[*n];
        limited = grown_box(d, cam, &d->changed.regions[b], reach, z, margin, g);
        if (limited && g->x1 > g->x0 && g->y1 > g->y0)
            ++*n;
    }
    limited = limited && prior_places(d, cam, missing, prior, hi_px, margin, *boxes, n);
    for (size_t b = 0; limited && b < *n; b++)
        area += (double)((*boxes)[b].x1 - (*boxes)[b].x0) * ((*boxes)[b].y1 - (*boxes)[b].y0);
    if (!limited || area >= (double)d->calib.width * d->calib.height) {
        (*boxes)[0] = (vis_tag_region){0, 0, d->calib.width, d->calib.height, 0, 0, 0, 0, 0};
        *n = 1;
    }
    return 0;
}

static bool in_core(const vis_tag_region *r, const double c[2])
{
    return c[0] >= r->core_x0 && c[0] < r->core_x1 && c[1] >= r->core_y0 && c[1] < r->core_y1;
}

/* Is a blob found in box b centred where box b keeps it, and in no earlier box's core (found there already)? */
static bool kept_in(const vis_tag_region *boxes, size_t b, const double c[2])
{
    const vis_tag_region *r = &boxes[b];
    if (r->core_x1 > r->core_x0 && r->core_y1 > r->core_y0 && !in_core(r, c))
        return false;
    for (size_t e = 0; e < b; e++)
        if (in_core(&boxes[e], c))
            return false;
    return true;
}

/* Dark blobs and white rings in one box (aligned to the shrink factor) into dark[] and ring[] (each up to cap,
 * appended at *nd, *nr), those the box keeps. 0, or -1 when out of memory. */
static int blobs_in_box(const vis_detector *d, const base_view *im, const vis_tag_region *boxes, size_t b,
                        const double threshold[2], vis_blob *tmp[2], vis_blob *out[2], size_t cap, size_t found[2],
                        size_t *searched_px)
{
    double lo_px, hi_px;
    tag_px_range(d, &lo_px, &hi_px);
    const int f = shrink_factor(lo_px);
    const int x0 = boxes[b].x0 / f * f, y0 = boxes[b].y0 / f * f;
    const int x1 = boxes[b].x1 < im->width ? boxes[b].x1 : im->width;
    const int y1 = boxes[b].y1 < im->height ? boxes[b].y1 : im->height;
    if (x1 - x0 < f || y1 - y0 < f)
        return 0;
    const base_view part = {x1 - x0, y1 - y0, 1, im->stride, im->data + (size_t)y0 * im->stride + (size_t)x0};
    shrunk sm;
    if (!shrink(&part, f, &sm))
        return -1;
    *searched_px += (size_t)(x1 - x0) * (size_t)(y1 - y0);
    candidate_pass passes[2] = {
        {&sm, lo_px, hi_px, threshold[0], false, tmp[0], cap, 0},
        {&sm, lo_px, hi_px, threshold[1], true, tmp[1], cap, 0},
    };
    vis_parallel_for(d->tags->cfg.threads, 2, run_pass, passes);
    free(sm.px);
    if (passes[0].found < 0 || passes[1].found < 0)
        return -1;
    for (int k = 0; k < 2; k++)
        for (long i = 0; i < passes[k].found && found[k] < cap; i++) {
            vis_blob bl = tmp[k][i];
            bl.px[0] += x0, bl.px[1] += y0;
            if (kept_in(boxes, b, bl.px))
                out[k][found[k]++] = bl;
        }
    return 0;
}

long vis_recover_find_blobs(const vis_detector *d, const base_view *im, const vis_tag_region *boxes, size_t n,
                            double black, double white, vis_blob *blobs, size_t cap, size_t *searched_px)
{
    const size_t half = cap / 2;
    vis_blob *tmp = malloc((2 * half + 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    const double threshold[2] = {black + 0.45 * (white - black), black + 0.7 * (white - black)};
    vis_blob *tmps[2] = {tmp, tmp + half}, *outs[2] = {blobs, blobs + half};
    size_t found[2] = {0, 0};
    int rc = 0;
    for (size_t b = 0; rc == 0 && b < n; b++)
        rc = blobs_in_box(d, im, boxes, b, threshold, tmps, outs, half, found, searched_px);
    free(tmp);
    if (rc < 0)
        return -1;
    memmove(blobs + found[0], blobs + half, found[1] * sizeof *blobs);
    return (long)(found[0] + found[1]);
}
