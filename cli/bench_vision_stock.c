#include "bench_vision_stock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>

#include "bench_cores.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int bv_stock_sweep_init(bv_stock s[BV_STOCK_CONFIGS], int threads)
{
    static const double dec[3] = {1, 1.5, 2}, sig[3] = {0, 0.4, 0.8};
    memset(s, 0, sizeof(bv_stock) * BV_STOCK_CONFIGS);
    for (int k = 0; k < BV_STOCK_CONFIGS; k++) {
        apriltag_detector_t *td = apriltag_detector_create();
        apriltag_family_t *tf = tag36h11_create();
        s[k].td = td, s[k].tf = tf;
        if (!td || !tf)
            return -1;
        /* The library's default: 2 corrected bits; builds the decode table now. */
        apriltag_detector_add_family(td, tf);
        td->quad_decimate = (float)dec[k / 3];
        td->quad_sigma = (float)sig[k % 3];
        td->nthreads = threads >= 1 ? threads : BV_STOCK_THREADS;
        s[k].decimate = dec[k / 3], s[k].sigma = sig[k % 3];
        ds_score_init(&s[k].score);
    }
    return 0;
}

void bv_stock_sweep_free(bv_stock s[BV_STOCK_CONFIGS])
{
    for (int k = 0; k < BV_STOCK_CONFIGS; k++) {
        if (s[k].td)
            apriltag_detector_destroy(s[k].td);
        if (s[k].tf)
            tag36h11_destroy(s[k].tf);
        ds_score_clear(&s[k].score);
    }
    memset(s, 0, sizeof(bv_stock) * BV_STOCK_CONFIGS);
}

void bv_reads_clear(bv_reads *r)
{
    free(r->items);
    free(r->ids);
    free(r->centres);
    memset(r, 0, sizeof *r);
}

double bv_stock_run(bv_stock *s, const base_image *img, bv_reads *out)
{
    bv_reads_clear(out);
    /* apriltag blurs its input in place at decimate 1 (sigma 0.8): each configuration gets its own copy of the
     * frame, made before timing, so that none sees another's blur. */
    uint8_t *copy = malloc((size_t)img->stride * img->height);
    if (!copy)
        return NAN;
    memcpy(copy, img->data, (size_t)img->stride * img->height);
    image_u8_t im = {.width = img->width, .height = img->height, .stride = (int32_t)img->stride, .buf = copy};
    const double t0 = now_ms(), c0 = bench_cpu_ms();
    zarray_t *dets = apriltag_detector_detect(s->td, &im);
    const double ms = now_ms() - t0;
    s->last_cpu_ms = bench_cpu_ms() - c0;
    free(copy);
    if (!dets)
        return NAN;
    const size_t n = (size_t)zarray_size(dets);
    out->items = calloc(n + 1, sizeof *out->items);
    out->ids = calloc(n + 1, sizeof *out->ids);
    out->centres = calloc(n + 1, sizeof *out->centres);
    if (out->items && out->ids && out->centres)
        for (size_t i = 0; i < n; i++) {
            apriltag_detection_t *d;
            zarray_get(dets, (int)i, &d);
            vis_tag_detection *o = &out->items[out->n];
            o->id = d->id, o->hamming = d->hamming, o->margin = d->decision_margin;
            /* apriltag's pixel centres are +0.5 from OpenCV's. */
            for (int k = 0; k < 4; k++)
                o->corners[k][0] = d->p[k][0] - 0.5, o->corners[k][1] = d->p[k][1] - 0.5;
            o->centre[0] = d->c[0] - 0.5, o->centre[1] = d->c[1] - 0.5;
            out->ids[out->n] = o->id;
            out->centres[out->n][0] = o->centre[0], out->centres[out->n][1] = o->centre[1];
            out->n++;
        }
    apriltag_detections_destroy(dets);
    return ms;
}

vis_tag_detection *bv_reads_as_detections(const bv_reads *r)
{
    vis_tag_detection *d = malloc((r->n + 1) * sizeof *d);
    if (d && r->n)
        memcpy(d, r->items, r->n * sizeof *d);
    return d;
}

size_t bv_reads_count_visible(const bv_reads *r, const ds_truth *t)
{
    ds_score s;
    ds_score_init(&s);
    ds_score_tags(&s, t, r->ids, (const double(*)[2])r->centres, r->n);
    size_t got = s.tags90_read;
    ds_score_clear(&s);
    return got;
}

double bv_min_edge(const ds_truth *t)
{
    double m = INFINITY;
    for (size_t i = 0; i < t->n_tags; i++)
        if (t->tags[i].inside && t->tags[i].model >= 0)
            m = fmin(m, t->tags[i].edge_px);
    return m;
}

double bv_max_edge(const ds_truth *t)
{
    double m = 0;
    for (size_t i = 0; i < t->n_tags; i++)
        if (t->tags[i].inside && t->tags[i].model >= 0)
            m = fmax(m, t->tags[i].edge_px);
    return m;
}
