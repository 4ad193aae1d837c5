/*
 * watch_motion: is anything moving over the table, and where did the
 * picture change? Works on a "motion picture": the frame shrunk by box
 * averages to about 320 px wide, cut into 8 x 8 blocks.
 *
 * How to use:
 *   int f = watch_motion_factor(width, 320);
 *   base_image *small = watch_motion_shrink(gray, width, height, stride, f, &err);
 *   size_t n = watch_motion_moving_blocks(small, prev_small, 6.0, mask_or_NULL);
 *   watch_motion_box *boxes; size_t nb = watch_motion_changed_boxes(mask, bw, bh, f, margin_px, width, height, &boxes);
 *   ... free(boxes); base_image_free(small);
 * Why pictures and not tag positions: a hand moves long before any tag
 * does, and detecting every 12 MP frame costs far more than a camera's
 * frame time.
 */
#ifndef WATCH_MOTION_H
#define WATCH_MOTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cvshim.h"
#include "base_error.h"

#define WATCH_MOTION_BLOCK 8 /* block side, px of the motion picture */

/* A region of the full frame that changed. */
typedef struct watch_motion_box {
    int x0, y0, x1, y1;         /* px, [x0, x1): the region to detect in */
    double cx0, cy0, cx1, cy1;  /* core: a tag centred here lies wholly inside the region */
} watch_motion_box;

/* The integer shrink factor that makes `width` about `motion_width` (>= 1). */
int watch_motion_factor(int width, int motion_width);

/*
 * The frame shrunk by plain box averages over factor x factor pixels (one
 * pass with row sums: OpenCV's INTER_AREA takes ~70 ms on 12 MP at factor
 * 13, this a few). Caller frees. NULL when out of memory.
 */
base_image *watch_motion_shrink(const uint8_t *gray, int width, int height, size_t stride, int factor,
                               base_error *err);

/*
 * Blocks whose mean absolute difference between the motion pictures a and b
 * (same size) exceeds `level` grey levels. mask (optional, one byte per
 * block, row-major, width / 8 per row) gets 1 for each. Returns the count.
 */
size_t watch_motion_moving_blocks(const base_image *a, const base_image *b, double level, uint8_t *mask);

/*
 * Boxes (full-frame px, clipped to width x height) around the changed
 * blocks of `mask` (bw x bh): 4-connected groups grown by `margin` px,
 * merged while any two overlap, so a tag centre lies in at most one core.
 * *out is malloc'ed (NULL and 0 when out of memory or nothing changed).
 */
size_t watch_motion_changed_boxes(const uint8_t *mask, int bw, int bh, int factor, double margin, int width,
                                  int height, watch_motion_box **out);

/* The point lies in the box's core. */
bool watch_motion_in_core(const watch_motion_box *b, const double c[2]);

#endif
