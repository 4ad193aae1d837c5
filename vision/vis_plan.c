#include "vis_plan.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "vis_camera.h"

#define TILE_PX 256
#define SAMPLE_MM 10.0

/*
 * A tile whose smallest tag is predicted under `full_res_px` (vis_plan_make) is searched at full resolution,
 * whatever min_px allows: under 3 px per cell of tag36h11's 8 a cell is about as wide as a small sensor's blur and its JPEG's
 * blocks, and decimation merges the cells. The prediction is the worst case (the smallest mount's tag at its
 * highest, half a tag past the board's edge, under the lens's distortion): the hard set's 12 MP tables
 * predict 22.8-25.0 px (their tags are 27-69 px) and keep decimating; its 4K webcam predicts 17.7 px (20-53
 * px tags, a small noisy sensor, MJPEG 75), where decimate 1.5 read 8 of the 57 clear tags under 24 px blind
 * and decimate 1 read 35 (24-27 px: 31 and 38 of 57; from 27 px on, as many at 1.5 as at 1).
 */

/* The decimations apriltag handles well (1.5 has its own fast path). */
static double coarsest_decimation(double tag_px, double min_px, double full_res_px)
{
    static const double levels[] = {4, 3, 2, 1.5, 1};
    if (tag_px < full_res_px)
        return 1;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (tag_px / levels[i] >= min_px)
            return levels[i];
    return 1;
}

/*
 * Whether a tile searched at `decimate` whose smallest tag is predicted `tag_px` wide is searched unblurred: at a
 * whole decimation (2, 3, 4) when that tag is under `unblurred_px` after decimation (0: never). apriltag keeps
 * one pixel in each block at a whole decimation (1.5 averages) and blurs that picture: a 27-30 px tag at
 * decimate 2 is 13.5-15 px, 1.7-1.9 px a cell, and the blur (sigma 0.6, a 3-tap kernel: 1.2 of the camera's px)
 * merges its cells, where 33-35 px tags (16.5-17.5 px) need it against the noise the decimation kept. Blind, one
 * thread, the hard set's 12 MP tables at 15.5: table 3 reads 116 of its 191 clear tags (109 blurred everywhere;
 * stock apriltag at decimate 1: 114), table 2 127 of 217 (125), table 4 113 of 178 (111); table 1 (one region at
 * 1.5) and the webcam (full resolution) are unchanged. At 15 table 3 reads 112, at 16 113 (and table 2 124), at
 * 17 table 2 119 and table 4 107: the figure is the hard set's, not a law.
 */
static unsigned char unblurred(double tag_px, double decimate, double unblurred_px)
{
    return decimate >= 2 && decimate == floor(decimate) && unblurred_px > 0 && tag_px / decimate < unblurred_px;
}

/* The projected edge (px) of a square tag of `size` mm centred at (x, y, z): the shorter of its two sides. */
static double tag_px_at(const vis_camera *cam, double x, double y, double z, double size, double px[2])
{
    double a[2], b[2];
    const double P[3] = {x, y, z}, Px[3] = {x + size, y, z}, Py[3] = {x, y + size, z};
    if (!vis_camera_project(cam, P, px) || !vis_camera_project(cam, Px, a) || !vis_camera_project(cam, Py, b))
        return NAN;
    return fmin(hypot(a[0] - px[0], a[1] - px[1]), hypot(b[0] - px[0], b[1] - px[1]));
}

typedef struct tile_grid {
    int cols, rows;
    double *min_px, *max_px;  /* per tile; NAN: the board does not reach it */
} tile_grid;

static void note(tile_grid *g, int w, int h, const double px[2], double tag_px)
{
    if (!(tag_px > 0) || px[0] < 0 || px[1] < 0 || px[0] >= w || px[1] >= h)
        return;
    const int k = (int)(px[1] / TILE_PX) * g->cols + (int)(px[0] / TILE_PX);
    if (isnan(g->min_px[k]) || tag_px < g->min_px[k])
        g->min_px[k] = tag_px;
    if (isnan(g->max_px[k]) || tag_px > g->max_px[k])
        g->max_px[k] = tag_px;
}

/* Every place a model tag or a board tag can be, sampled every SAMPLE_MM, noted in its tile. */
static void sample_board(const vis_camera *cam, const roster_map *r, int w, int h, tile_grid *g)
{
    double smallest = INFINITY, largest = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < r->n_units; i++) {
        if (!(r->units[i].mount.size > 0))
            continue; /* a rim label's unit (roster_mark.h): no square tag to plan for */
        smallest = fmin(smallest, r->units[i].mount.size);
        largest = fmax(largest, r->units[i].mount.size);
        lo = fmin(lo, r->units[i].mount.height), hi = fmax(hi, r->units[i].mount.height);
    }
    if (!isfinite(smallest))
        smallest = largest = 16, lo = hi = 0;
    /* A tag near the edge still has its centre on the board; half a tag beyond it covers the rest. */
    const double m = largest;
    for (double y = -m; y <= r->board_depth + m; y += SAMPLE_MM)
        for (double x = -m; x <= r->board_width + m; x += SAMPLE_MM)
            for (int k = 0; k < 2; k++) {
                double px[2];
                const double z = k ? hi : lo;
                note(g, w, h, px, tag_px_at(cam, x, y, z, smallest, px));
                /* The largest tags set how far a region must reach past its core. */
                double px2[2];
                note(g, w, h, px2, tag_px_at(cam, x, y, z, largest, px2));
            }
    for (size_t i = 0; i < r->n_board_tags; i++) {
        const roster_board_tag *b = &r->board_tags[i];
        double px[2];
        note(g, w, h, px, tag_px_at(cam, b->x, b->y, b->z, b->size, px));
    }
}

static int push_region(vis_plan *p, size_t *cap, const vis_tag_region *r)
{
    if (p->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        vis_tag_region *a = realloc(p->regions, nc * sizeof *a);
        if (!a)
            return -1;
        p->regions = a, *cap = nc;
    }
    p->regions[p->n++] = *r;
    return 0;
}

/*
 * Runs of tiles along each row with one decimation become regions; a run
 * equal to the one right above it (same columns, same decimation) extends
 * that region downwards instead. A tile searched unblurred (unblur[k]) joins
 * only tiles searched so.
 */
static int merge_tiles(const tile_grid *g, const double *dec, const unsigned char *unblur, int w, int h, vis_plan *p)
{
    size_t cap = 0;
    size_t *above = calloc((size_t)g->cols, sizeof *above); /* region index + 1 that ends above each column */
    size_t *now = calloc((size_t)g->cols, sizeof *now);
    double *reach = calloc((size_t)g->cols * g->rows + 1, sizeof *reach);
    if (!above || !now || !reach)
        goto oom;
    for (int ty = 0; ty < g->rows; ty++) {
        memset(now, 0, (size_t)g->cols * sizeof *now);
        for (int tx = 0; tx < g->cols;) {
            const int k = ty * g->cols + tx;
            if (dec[k] <= 0) {
                tx++;
                continue;
            }
            int end = tx + 1;
            double big = g->max_px[k];
            while (end < g->cols && dec[ty * g->cols + end] == dec[k] && unblur[ty * g->cols + end] == unblur[k])
                big = fmax(big, g->max_px[ty * g->cols + end]), end++;
            const size_t a = above[tx];
            vis_tag_region *ra = a ? &p->regions[a - 1] : NULL;
            if (ra && ra->core_x0 == tx * TILE_PX && ra->core_x1 == fmin(end * TILE_PX, w) && ra->decimate == dec[k] &&
                ra->unblurred == unblur[k] && (tx == 0 || above[tx - 1] != a) && (end == g->cols || above[end] != a)) {
                ra->core_y1 = fmin((ty + 1) * TILE_PX, h);
                reach[a - 1] = fmax(reach[a - 1], big);
                for (int c = tx; c < end; c++)
                    now[c] = a;
            } else {
                vis_tag_region r = {0, 0, 0, 0, dec[k], tx * TILE_PX, ty * TILE_PX, fmin(end * TILE_PX, w),
                                    fmin((ty + 1) * TILE_PX, h), unblur[k]};
                if (push_region(p, &cap, &r) < 0)
                    goto oom;
                reach[p->n - 1] = big;
                for (int c = tx; c < end; c++)
                    now[c] = p->n;
            }
            tx = end;
        }
        memcpy(above, now, (size_t)g->cols * sizeof *above);
    }
    /* Each region reaches past its core by a whole tag (diagonal, quiet zone) so a seam splits no tag. */
    for (size_t i = 0; i < p->n; i++) {
        vis_tag_region *r = &p->regions[i];
        const double m = ceil(1.5 * reach[i] + 4);
        r->x0 = (int)fmax(0, r->core_x0 - m), r->y0 = (int)fmax(0, r->core_y0 - m);
        r->x1 = (int)fmin(w, r->core_x1 + m), r->y1 = (int)fmin(h, r->core_y1 + m);
    }
    free(above);
    free(now);
    free(reach);
    return 0;
oom:
    free(above);
    free(now);
    free(reach);
    return -1;
}

/* What apriltag's search of a region costs, in full-resolution pixels' worth: its pixels after decimation. */
static double search_cost(const vis_tag_region *r)
{
    return (double)(r->x1 - r->x0) * (r->y1 - r->y0) / (r->decimate * r->decimate);
}

/*
 * The tiled plan replaced by one region, the bounding box of its regions at the finest decimation any of them
 * has, when that costs at most ONE_REGION_COST times as much. Tiles of a tilted camera's frame take 2-3
 * decimations in bands a tile high, each band grown by a tag and a half on both sides: searched twice where
 * they overlap (1.1-1.3x the frame), each tag found at its band's coarsest decimation, and a tag on a seam at
 * the finer one only if the band that holds its centre is the finer. One region has no seam and finds every
 * tag at the finest decimation, which decodes more tags blind (the hard set's webcam table planned for 11 px
 * tags: 102 of 213 clear tags against 59).
 */
#define ONE_REGION_COST 1.25
static bool one_region_if_cheap(vis_plan *p)
{
    if (p->n < 2)
        return false;
    vis_tag_region b = p->regions[0];
    double tiled = 0;
    for (size_t i = 0; i < p->n; i++) {
        const vis_tag_region *q = &p->regions[i];
        tiled += search_cost(q);
        b.x0 = q->x0 < b.x0 ? q->x0 : b.x0, b.y0 = q->y0 < b.y0 ? q->y0 : b.y0;
        b.x1 = q->x1 > b.x1 ? q->x1 : b.x1, b.y1 = q->y1 > b.y1 ? q->y1 : b.y1;
        b.decimate = fmin(b.decimate, q->decimate);
    }
    b.core_x0 = b.x0, b.core_y0 = b.y0, b.core_x1 = b.x1, b.core_y1 = b.y1;
    if (search_cost(&b) > ONE_REGION_COST * tiled)
        return false;
    p->regions[0] = b;
    p->n = 1;
    return true;
}

int vis_plan_make(const calib_file *calib, const roster_map *r, const vis_plan_sizes *sizes, vis_plan *out,
                  base_error *err)
{
    const double min_px = sizes->min_px, full_res_px = sizes->full_res_px, unblurred_px = sizes->unblurred_px;
    memset(out, 0, sizeof *out);
    const int w = calib->width, h = calib->height;
    tile_grid g = {(w + TILE_PX - 1) / TILE_PX, (h + TILE_PX - 1) / TILE_PX, NULL, NULL};
    const size_t nt = (size_t)g.cols * g.rows;
    g.min_px = malloc(nt * sizeof *g.min_px);
    g.max_px = malloc(nt * sizeof *g.max_px);
    double *dec = calloc(nt, sizeof *dec);
    unsigned char *unblur = calloc(nt, 1);
    if (!g.min_px || !g.max_px || !dec || !unblur)
        goto oom;
    for (size_t k = 0; k < nt; k++)
        g.min_px[k] = g.max_px[k] = NAN;
    vis_camera cam;
    vis_camera_init(&cam, calib);
    sample_board(&cam, r, w, h, &g);
    out->min_tag_px = INFINITY, out->max_tag_px = 0;
    out->sizes = *sizes;
    for (size_t k = 0; k < nt; k++) {
        if (isnan(g.min_px[k]))
            continue;
        dec[k] = coarsest_decimation(g.min_px[k], min_px, full_res_px);
        out->min_tag_px = fmin(out->min_tag_px, g.min_px[k]);
        out->max_tag_px = fmax(out->max_tag_px, g.max_px[k]);
    }
    /* The regions' shape and the one region's choice are the decimations' alone: the parts searched unblurred
     * are then cut out of the tiled plan, never a reason to make it one region. */
    memset(unblur, 0, nt);
    if (merge_tiles(&g, dec, unblur, w, h, out) < 0)
        goto oom;
    if (one_region_if_cheap(out)) {
        out->regions[0].unblurred = unblurred(out->min_tag_px, out->regions[0].decimate, unblurred_px);
    } else {
        size_t cut = 0;
        for (size_t k = 0; k < nt; k++)
            cut += unblur[k] = !isnan(g.min_px[k]) && unblurred(g.min_px[k], dec[k], unblurred_px);
        if (cut && (out->n = 0, merge_tiles(&g, dec, unblur, w, h, out) < 0))
            goto oom;
    }
    double area = 0;
    for (size_t i = 0; i < out->n; i++)
        area += (double)(out->regions[i].x1 - out->regions[i].x0) * (out->regions[i].y1 - out->regions[i].y0);
    out->searched_fraction = area / ((double)w * h);
    free(g.min_px);
    free(g.max_px);
    free(dec);
    free(unblur);
    return 0;
oom:
    free(g.min_px);
    free(g.max_px);
    free(dec);
    free(unblur);
    vis_plan_clear(out);
    return base_error_set(err, "out of memory");
}

void vis_plan_clear(vis_plan *p)
{
    if (!p)
        return;
    free(p->regions);
    memset(p, 0, sizeof *p);
}
