#include "vis_tag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagStandard41h12.h>

typedef struct tag_priv {
    apriltag_detector_t *td;
    apriltag_family_t *tf;
    int is41;
    int applied_hamming;
    uint8_t *copy;      /* a region apriltag would blur in place (see detect_into) */
    size_t copy_cap;
} tag_priv;

static void config_defaults(vis_tag_config *c)
{
    *c = (vis_tag_config){.decimate = 2.0, .sigma = 0.0, .threads = 2, .refine_edges = 1, .max_hamming = 1,
                          .min_margin = 20.0};
}

void vis_tag_config_stock(vis_tag_config *cfg, int threads)
{
    /* apriltag_detector_create()'s values, restated so a reader sees them. */
    cfg->decimate = 2.0;
    cfg->sigma = 0.0;
    cfg->sigma_full = 0.0;
    cfg->threads = threads > 0 ? threads : 1;
    cfg->refine_edges = 1;
    cfg->max_hamming = 2;
    cfg->min_margin = 0.0;
    cfg->min_contrast = 0;
    cfg->min_cluster_px = 0;
}

void vis_tag_config_blind(vis_tag_config *cfg, double decimate, int threads)
{
    *cfg = (vis_tag_config){.decimate = decimate >= 1 ? decimate : 1, .sigma = 0.0, .threads = threads > 0 ? threads : 1,
                            .refine_edges = 1, .max_hamming = 1, .min_margin = 20.0, .min_contrast = 80,
                            .min_cluster_px = 60};
}

vis_tag_detector *vis_tag_detector_new(const char *family)
{
    vis_tag_detector *d = calloc(1, sizeof *d);
    tag_priv *p = calloc(1, sizeof *p);
    if (!d || !p)
        goto fail;
    d->priv = p;
    if (!family || strcmp(family, "tag36h11") == 0) {
        p->tf = tag36h11_create();
    } else if (strcmp(family, "tagStandard41h12") == 0) {
        p->tf = tagStandard41h12_create();
        p->is41 = 1;
    } else {
        goto fail;
    }
    p->td = apriltag_detector_create();
    if (!p->tf || !p->td)
        goto fail;
    p->applied_hamming = -1;
    config_defaults(&d->cfg);
    return d;
fail:
    vis_tag_detector_free(d);
    if (!d)
        free(p);
    return NULL;
}

void vis_tag_detector_free(vis_tag_detector *d)
{
    if (!d)
        return;
    tag_priv *p = d->priv;
    if (p) {
        if (p->td)
            apriltag_detector_destroy(p->td);
        if (p->tf)
            (p->is41 ? tagStandard41h12_destroy : tag36h11_destroy)(p->tf);
        free(p->copy);
        free(p);
    }
    free(d);
}

void vis_tag_list_clear(vis_tag_list *l)
{
    if (!l)
        return;
    free(l->items);
    memset(l, 0, sizeof *l);
}

double vis_tag_edge_px(const vis_tag_detection *t)
{
    double sum = 0;
    for (int k = 0; k < 4; k++)
        sum += hypot(t->corners[(k + 1) % 4][0] - t->corners[k][0], t->corners[(k + 1) % 4][1] - t->corners[k][1]);
    return sum / 4;
}

double vis_tag_decimate_for(double tag_px)
{
    /* Keep the 8-cell tag at >= 12 px after decimation: 1.5 px per cell is
     * where apriltag's quad search still finds the square reliably. */
    double d = floor(tag_px / 12.0);
    return d < 1 ? 1 : d > 4 ? 4 : d;
}

int vis_tag_family_codes(const vis_tag_detector *d)
{
    const tag_priv *p = d ? d->priv : NULL;
    return p && p->tf ? (int)p->tf->ncodes : 0;
}

bool vis_tag_bitmap(const vis_tag_detector *d, int id, uint8_t cells[256], int *width)
{
    const tag_priv *p = d ? d->priv : NULL;
    if (!p || !p->tf || id < 0 || (uint32_t)id >= p->tf->ncodes || p->tf->reversed_border)
        return false;
    const apriltag_family_t *f = p->tf;
    const int tw = f->total_width, wb = f->width_at_border;
    if (tw > 16 || wb + 2 != tw)
        return false;
    /* As apriltag_to_image() prints it: white border, black ring, data bits MSB first. */
    memset(cells, 0, 256);
    for (int y = 0; y < tw; y++)
        for (int x = 0; x < tw; x++)
            cells[y * tw + x] = x == 0 || y == 0 || x == tw - 1 || y == tw - 1;
    const int b0 = (tw - wb) / 2;
    for (uint32_t i = 0; i < f->nbits; i++)
        if (f->codes[id] & ((uint64_t)1 << (f->nbits - i - 1)))
            cells[(f->bit_y[i] + b0) * tw + f->bit_x[i] + b0] = 1;
    *width = tw;
    return true;
}

double vis_tag_corner_offset(void) { return 0.5; }

static int cmp_det(const void *a, const void *b)
{
    const vis_tag_detection *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    if (x->centre[0] != y->centre[0])
        return x->centre[0] < y->centre[0] ? -1 : 1;
    return (x->centre[1] > y->centre[1]) - (x->centre[1] < y->centre[1]);
}

/* The family's decode table depends on max_hamming: (re)built only when it changes. */
static void apply_hamming(tag_priv *p, int max_hamming)
{
    if (p->applied_hamming == max_hamming)
        return;
    if (p->applied_hamming >= 0)
        apriltag_detector_remove_family(p->td, p->tf);
    int h = max_hamming < 0 ? 0 : max_hamming > 3 ? 3 : max_hamming;
    apriltag_detector_add_family_bits(p->td, p->tf, h);
    p->applied_hamming = max_hamming;
}

void vis_tag_detector_prepare(vis_tag_detector *d) { apply_hamming(d->priv, d->cfg.max_hamming); }

/* The blur before the quad search of a region searched at `decimate`: none where the plan says unblurred. */
static double region_sigma(const vis_tag_config *c, const vis_tag_region *r, float decimate)
{
    if (r->unblurred)
        return 0;
    return decimate == 1 && c->sigma_full > 0 ? c->sigma_full : c->sigma;
}

/* Appends the detections of apriltag's run on the region (offset back to full-frame pixels). */
static int detect_into(vis_tag_detector *d, const uint8_t *gray, size_t stride, const vis_tag_region *r,
                       vis_tag_list *out, base_error *err)
{
    tag_priv *p = d->priv;
    apply_hamming(p, d->cfg.max_hamming);
    const double dec = r->decimate > 0 ? r->decimate : d->cfg.decimate;
    p->td->quad_decimate = (float)(dec >= 1 ? dec : 1);
    /* apriltag crashes on a picture under 3 rows after decimation (a 9-row region at decimate 8): a region
     * too small for its decimation is searched at full size, which costs nothing there. */
    const int side = r->x1 - r->x0 < r->y1 - r->y0 ? r->x1 - r->x0 : r->y1 - r->y0;
    if (side / p->td->quad_decimate < VIS_TAG_MIN_SIDE)
        p->td->quad_decimate = 1;
    const double sigma = region_sigma(&d->cfg, r, p->td->quad_decimate);
    p->td->quad_sigma = (float)sigma;
    p->td->nthreads = d->cfg.threads > 0 ? d->cfg.threads : 1;
    p->td->refine_edges = d->cfg.refine_edges != 0;
    p->td->debug = 0;
    p->td->qtp.min_white_black_diff = d->cfg.min_contrast > 0 ? d->cfg.min_contrast : 5;
    p->td->qtp.min_cluster_pixels = d->cfg.min_cluster_px > 0 ? d->cfg.min_cluster_px : 5;
    const int w = r->x1 - r->x0, h = r->y1 - r->y0;
    uint8_t *buf = (uint8_t *)gray + (size_t)r->y0 * stride + r->x0;
    size_t buf_stride = stride;
    /*
     * apriltag 3.3 blurs (or sharpens) the picture it is given in place when
     * it does not decimate and the kernel (4 sigma, odd) is wider than one
     * pixel: it would change the caller's frame under everything that reads
     * it afterwards (the pattern reader, the recording). Such a region is
     * copied first.
     */
    const int ksz = (int)(4 * fabsf((float)sigma)) | 1;
    if (p->td->quad_decimate == 1 && sigma != 0 && ksz > 1) {
        const size_t need = (size_t)w * h;
        if (need > p->copy_cap) {
            uint8_t *c = realloc(p->copy, need);
            if (!c)
                return base_error_set(err, "tag detection: out of memory");
            p->copy = c, p->copy_cap = need;
        }
        for (int y = 0; y < h; y++)
            memcpy(p->copy + (size_t)y * w, buf + (size_t)y * stride, (size_t)w);
        buf = p->copy, buf_stride = (size_t)w;
    }
    image_u8_t im = {.width = w, .height = h, .stride = (int32_t)buf_stride, .buf = buf};
    zarray_t *dets = apriltag_detector_detect(p->td, &im);
    if (!dets)
        return base_error_set(err, "tag detection: out of memory");
    d->quads += p->td->nquads;
    const int n = zarray_size(dets);
    int rc = 0;
    if (out->n + (size_t)n > out->cap) {
        size_t nc = out->n + (size_t)n + out->cap;
        vis_tag_detection *items = realloc(out->items, nc * sizeof *items);
        if (!items) {
            apriltag_detections_destroy(dets);
            return base_error_set(err, "tag detection: out of memory");
        }
        out->items = items;
        out->cap = nc;
    }
    for (int i = 0; i < n; i++) {
        apriltag_detection_t *det;
        zarray_get(dets, i, &det);
        if (det->hamming > d->cfg.max_hamming || det->decision_margin < d->cfg.min_margin)
            continue;
        /* A tag cut by the region's edge is found whole by the region that overlaps it. */
        const double cx = det->c[0] - 0.5 + r->x0, cy = det->c[1] - 0.5 + r->y0;
        if (r->core_x1 > r->core_x0 && !(cx >= r->core_x0 && cx < r->core_x1 && cy >= r->core_y0 && cy < r->core_y1))
            continue;
        vis_tag_detection *o = &out->items[out->n++];
        o->id = det->id;
        o->hamming = det->hamming;
        o->margin = det->decision_margin;
        for (int k = 0; k < 4; k++) {
            o->corners[k][0] = det->p[k][0] - 0.5 + r->x0;
            o->corners[k][1] = det->p[k][1] - 0.5 + r->y0;
        }
        o->centre[0] = cx;
        o->centre[1] = cy;
    }
    apriltag_detections_destroy(dets);
    return rc;
}

int vis_tag_detect_regions(vis_tag_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                           const vis_tag_region *regions, size_t n_regions, vis_tag_list *out, base_error *err)
{
    out->n = 0;
    d->quads = 0;
    if (width < VIS_TAG_MIN_SIDE || height < VIS_TAG_MIN_SIDE || !gray)
        return base_error_set(err, "tag detection: image %dx%d is too small (at least %dx%d px)", width, height,
                               VIS_TAG_MIN_SIDE, VIS_TAG_MIN_SIDE);
    for (size_t i = 0; i < n_regions; i++) {
        vis_tag_region r = regions[i];
        r.x0 = r.x0 < 0 ? 0 : r.x0, r.y0 = r.y0 < 0 ? 0 : r.y0;
        r.x1 = r.x1 > width ? width : r.x1, r.y1 = r.y1 > height ? height : r.y1;
        if (r.x1 - r.x0 < VIS_TAG_MIN_SIDE || r.y1 - r.y0 < VIS_TAG_MIN_SIDE)
            continue;
        if (detect_into(d, gray, stride, &r, out, err) < 0)
            return -1;
    }
    if (out->n > 1)
        qsort(out->items, out->n, sizeof *out->items, cmp_det);
    return 0;
}

int vis_tag_detect(vis_tag_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                   vis_tag_list *out, base_error *err)
{
    const vis_tag_region whole = {0, 0, width, height, d->cfg.decimate, 0, 0, 0, 0};
    return vis_tag_detect_regions(d, gray, width, height, stride, &whole, 1, out, err);
}
