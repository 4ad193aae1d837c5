/*
 * vis_sample: a grey picture's value between pixels, for the readers that
 * measure a tag's cells and edges at sub-pixel places (vis_tagread,
 * vis_recover). Inline: it runs millions of times a frame.
 *
 * How to use:
 *   base_view v = {w, h, 1, stride, pixels};
 *   double g = vis_sample_bilinear(&v, 10.25, 3.5);  // 0..255
 */
#ifndef VIS_SAMPLE_H
#define VIS_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "base_image.h"

/* Bilinear grey at (x, y), clamped to the picture (one channel). */
static inline double vis_sample_bilinear(const base_view *im, double x, double y)
{
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    if (x > im->width - 1.001)
        x = im->width - 1.001;
    if (y > im->height - 1.001)
        y = im->height - 1.001;
    const int x0 = (int)x, y0 = (int)y;
    const double fx = x - x0, fy = y - y0;
    const uint8_t *p = im->data + (size_t)y0 * im->stride + x0;
    return (p[0] * (1 - fx) + p[1] * fx) * (1 - fy) + (p[im->stride] * (1 - fx) + p[im->stride + 1] * fx) * fy;
}

#endif
