/*
 * bench_vision_stock: the stock apriltag 3.3 library as `tableref bench
 * vision` compares against it: called directly (not through tableref's
 * vis_tag), as many threads as tableref (2; --cores N: N on both sides),
 * refine_edges and decode_sharpening at the library's defaults, the family
 * added with its default 2 corrected bits (decode table built at once,
 * before any timing), in a sweep of quad_decimate 1, 1.5, 2 and quad_sigma
 * 0, 0.4, 0.8. Only apriltag_detector_detect is timed.
 *
 * How to use:
 *   bv_stock sweep[BV_STOCK_CONFIGS];
 *   bv_stock_sweep_init(sweep, 2);                    // sweep[0] is decimate 1, sigma 0; 2 threads
 *   bv_reads reads = {0};
 *   double ms = bv_stock_run(&sweep[k], img, &reads); // replaces reads
 *   bv_reads_clear(&reads); bv_stock_sweep_free(sweep);
 */
#ifndef BENCH_VISION_STOCK_H
#define BENCH_VISION_STOCK_H

#include <stddef.h>

#include "cvshim.h"
#include "ds_render.h"
#include "ds_score.h"
#include "vis_tag.h"

enum { BV_STOCK_CONFIGS = 9, BV_STOCK_THREADS = 2 };

typedef struct bv_stock {
    double decimate, sigma;
    void *td, *tf;           /* apriltag_detector_t, apriltag_family_t */
    double ms;               /* summed over frames by the caller */
    double cpu_ms;           /* the process's CPU time over the same runs, summed by the caller */
    double last_cpu_ms;      /* the CPU time of the last bv_stock_run (every thread of the process) */
    ds_score score;          /* tags read, summed over frames by the caller */
} bv_stock;

/* One run's detections, OpenCV pixel convention. */
typedef struct bv_reads {
    vis_tag_detection *items;
    int *ids;
    double (*centres)[2];
    size_t n;
} bv_reads;

/* `threads` < 1: BV_STOCK_THREADS. */
int bv_stock_sweep_init(bv_stock s[BV_STOCK_CONFIGS], int threads);
void bv_stock_sweep_free(bv_stock s[BV_STOCK_CONFIGS]);
/* Runs one configuration on a gray image; returns the detection time in ms (NAN on failure), its CPU time in
 * s->last_cpu_ms. */
double bv_stock_run(bv_stock *s, const base_image *img, bv_reads *out);
void bv_reads_clear(bv_reads *r);
/* A copy of the reads as tableref detections (caller frees), for vis_detector_from_tags. */
vis_tag_detection *bv_reads_as_detections(const bv_reads *r);
/* How many tags >= 90% visible the reads contain (ds_score's rule). */
size_t bv_reads_count_visible(const bv_reads *r, const ds_truth *t);
/* Smallest and largest tag edge in the frame, px. */
double bv_min_edge(const ds_truth *t);
double bv_max_edge(const ds_truth *t);

#endif
