#include "watch_motion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK WATCH_MOTION_BLOCK

int watch_motion_factor(int width, int motion_width)
{
    int f = (int)lround((double)width / (motion_width > 0 ? motion_width : 320));
    return f < 1 ? 1 : f;
}

base_image *watch_motion_shrink(const uint8_t *gray, int width, int height, size_t stride, int factor,
                               base_error *err)
{
    const int f = factor, ow = width / f, oh = height / f;
    base_image *out = base_image_new(ow > 0 ? ow : 1, oh > 0 ? oh : 1, 1, 0);
    uint32_t *acc = calloc((size_t)(ow > 0 ? ow : 1), sizeof *acc);
    if (!out || !acc) {
        base_image_free(out);
        free(acc);
        base_error_set(err, "out of memory");
        return NULL;
    }
    const uint32_t area = (uint32_t)f * (uint32_t)f;
    for (int oy = 0; oy < oh; oy++) {
        memset(acc, 0, (size_t)ow * sizeof *acc);
        for (int y = oy * f; y < (oy + 1) * f; y++) {
            const uint8_t *row = gray + (size_t)y * stride;
            for (int ox = 0; ox < ow; ox++) {
                const uint8_t *p = row + ox * f;
                uint32_t sum = 0;
                for (int x = 0; x < f; x++)
                    sum += p[x];
                acc[ox] += sum;
            }
        }
        uint8_t *o = out->data + (size_t)oy * out->stride;
        for (int ox = 0; ox < ow; ox++)
            o[ox] = (uint8_t)((acc[ox] + area / 2) / area);
    }
    free(acc);
    return out;
}

size_t watch_motion_moving_blocks(const base_image *a, const base_image *b, double level, uint8_t *mask)
{
    const int bw = a->width / BLOCK, bh = a->height / BLOCK;
    const int lim = (int)(level * BLOCK * BLOCK);
    size_t n = 0;
    for (int by = 0; by < bh; by++)
        for (int bx = 0; bx < bw; bx++) {
            int sum = 0;
            for (int y = by * BLOCK; y < (by + 1) * BLOCK; y++) {
                const uint8_t *pa = a->data + (size_t)y * a->stride + bx * BLOCK;
                const uint8_t *pb = b->data + (size_t)y * b->stride + bx * BLOCK;
                for (int x = 0; x < BLOCK; x++)
                    sum += abs(pa[x] - pb[x]);
            }
            int hit = sum > lim;
            n += hit;
            if (mask)
                mask[by * bw + bx] = (uint8_t)hit;
        }
    return n;
}

/* The bounding box (in blocks) of the 4-connected group of changed blocks that holds block `s`. */
static void flood(const uint8_t *mask, uint8_t *seen, int *stack, int bw, int bh, int s, int box[4])
{
    int x0 = bw, y0 = bh, x1 = -1, y1 = -1, top = 0;
    stack[top++] = s;
    seen[s] = 1;
    while (top) {
        int k = stack[--top], x = k % bw, y = k / bw;
        x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1, y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
        const int nx[4] = {x - 1, x + 1, x, x}, ny[4] = {y, y, y - 1, y + 1};
        for (int d = 0; d < 4; d++) {
            if (nx[d] < 0 || ny[d] < 0 || nx[d] >= bw || ny[d] >= bh)
                continue;
            int q = ny[d] * bw + nx[d];
            if (mask[q] && !seen[q]) {
                seen[q] = 1;
                stack[top++] = q;
            }
        }
    }
    box[0] = x0, box[1] = y0, box[2] = x1, box[3] = y1;
}

/* Merges overlapping boxes (cores too) until no two overlap; returns the new count. */
static size_t merge_overlapping(watch_motion_box *boxes, size_t nb)
{
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < nb && !again; i++)
            for (size_t j = i + 1; j < nb && !again; j++) {
                watch_motion_box *a = &boxes[i], *b = &boxes[j];
                if (a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1) {
                    a->x0 = a->x0 < b->x0 ? a->x0 : b->x0, a->y0 = a->y0 < b->y0 ? a->y0 : b->y0;
                    a->x1 = a->x1 > b->x1 ? a->x1 : b->x1, a->y1 = a->y1 > b->y1 ? a->y1 : b->y1;
                    a->cx0 = fmin(a->cx0, b->cx0), a->cy0 = fmin(a->cy0, b->cy0);
                    a->cx1 = fmax(a->cx1, b->cx1), a->cy1 = fmax(a->cy1, b->cy1);
                    boxes[j] = boxes[--nb];
                    again = 1;
                }
            }
    }
    return nb;
}

size_t watch_motion_changed_boxes(const uint8_t *mask, int bw, int bh, int factor, double margin, int width,
                                  int height, watch_motion_box **out)
{
    const double scale = (double)factor * BLOCK;
    int *stack = malloc((size_t)bw * bh * sizeof *stack + 1);
    uint8_t *seen = calloc((size_t)bw * bh + 1, 1);
    watch_motion_box *boxes = NULL;
    size_t nb = 0;
    *out = NULL;
    if (!stack || !seen)
        goto done;
    for (int s = 0; s < bw * bh; s++) {
        if (!mask[s] || seen[s])
            continue;
        int g[4];
        flood(mask, seen, stack, bw, bh, s, g);
        watch_motion_box *nbx = realloc(boxes, (nb + 1) * sizeof *nbx);
        if (!nbx) {
            free(boxes);
            boxes = NULL, nb = 0;
            goto done;
        }
        boxes = nbx;
        watch_motion_box b;
        b.cx0 = g[0] * scale - margin / 2, b.cy0 = g[1] * scale - margin / 2;
        b.cx1 = (g[2] + 1) * scale + margin / 2, b.cy1 = (g[3] + 1) * scale + margin / 2;
        b.x0 = (int)floor(g[0] * scale - margin), b.y0 = (int)floor(g[1] * scale - margin);
        b.x1 = (int)ceil((g[2] + 1) * scale + margin), b.y1 = (int)ceil((g[3] + 1) * scale + margin);
        boxes[nb++] = b;
    }
    nb = merge_overlapping(boxes, nb);
    for (size_t i = 0; i < nb; i++) {
        watch_motion_box *b = &boxes[i];
        b->x0 = b->x0 < 0 ? 0 : b->x0, b->y0 = b->y0 < 0 ? 0 : b->y0;
        b->x1 = b->x1 > width ? width : b->x1, b->y1 = b->y1 > height ? height : b->y1;
    }
done:
    free(stack);
    free(seen);
    *out = boxes;
    return boxes ? nb : 0;
}

bool watch_motion_in_core(const watch_motion_box *b, const double c[2])
{
    return c[0] >= b->cx0 && c[0] < b->cx1 && c[1] >= b->cy0 && c[1] < b->cy1;
}
