/*
 * The hidden-tag search's blobs and rings (vision/vis_recover_blobs.h), found
 * by labelling rows' runs, against the pixel-by-pixel flood fill they
 * replaced (kept here as the reference): on a picture of random dark and
 * bright rectangles over speckle, at shrink factor 1 (black squares under
 * 18 px, a 4K webcam's), every blob and ring the same, in the same order,
 * centres equal to 1e-9 px. And at shrink factor 2, two black squares and
 * a white ring at exact places.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vis_detect_types.h"
#include "vis_recover_blobs.h"

/* The flood fill the run labelling replaced (4-connected, components in raster order of their first pixel). */
static size_t reference(const uint8_t *px, int w, int h, double lo_px, double hi_px, double threshold, bool bright,
                        vis_blob *out, size_t cap)
{
    uint8_t *on = malloc((size_t)w * h);
    int32_t *stack = malloc((size_t)w * h * sizeof *stack);
    const uint8_t lim = (uint8_t)fmin(255, fmax(0, threshold));
    for (size_t i = 0; i < (size_t)w * h; i++)
        on[i] = bright ? px[i] > lim : px[i] < lim;
    const double lo = (bright ? 1.25 : 0.5) * lo_px, hi = (bright ? 1.25 * 1.5 : 1.6) * hi_px;
    size_t n = 0;
    for (int y0 = 0; y0 < h; y0++)
        for (int x0 = 0; x0 < w; x0++) {
            if (!on[(size_t)y0 * w + x0])
                continue;
            size_t top = 0, area = 0;
            double sx = 0, sy = 0;
            int minx = x0, maxx = x0, miny = y0, maxy = y0;
            stack[top++] = y0 * w + x0;
            on[(size_t)y0 * w + x0] = 0;
            while (top) {
                const int32_t k = stack[--top];
                const int x = k % w, y = k / w;
                area++, sx += x, sy += y;
                minx = x < minx ? x : minx, maxx = x > maxx ? x : maxx;
                miny = y < miny ? y : miny, maxy = y > maxy ? y : maxy;
                const int nb[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
                for (int q = 0; q < 4; q++) {
                    const int xx = nb[q][0], yy = nb[q][1];
                    if (xx < 0 || yy < 0 || xx >= w || yy >= h || !on[(size_t)yy * w + xx])
                        continue;
                    on[(size_t)yy * w + xx] = 0;
                    stack[top++] = yy * w + xx;
                }
            }
            const double ext = fmax(maxx - minx + 1, maxy - miny + 1), ext2 = fmin(maxx - minx + 1, maxy - miny + 1);
            const double box = (double)(maxx - minx + 1) * (maxy - miny + 1);
            if (ext < lo || ext > hi || ext2 < 0.7 * lo)
                continue;
            if (bright ? area > 0.75 * box || area < 0.12 * box
                       : area < 0.15 * lo * lo / 0.25 || area > 1.2 * hi * hi / (1.6 * 1.6))
                continue;
            if (n < cap) {
                out[n].px[0] = bright ? (minx + maxx) / 2.0 : sx / area;
                out[n].px[1] = bright ? (miny + maxy) / 2.0 : sy / area;
                out[n].ext_px[0] = ext, out[n].ext_px[1] = ext2, out[n].ring = bright;
                n++;
            }
        }
    free(on);
    free(stack);
    return n;
}

static void fill(uint8_t *px, int w, int x0, int y0, int x1, int y1, uint8_t g)
{
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            px[(size_t)y * w + x] = g;
}

/* A detector holding just what the blob search reads: the tags' sizes in the picture and the thread count. */
static void small_detector(vis_detector *d, vis_tag_detector *td, double lo_px, double hi_px)
{
    memset(d, 0, sizeof *d);
    memset(td, 0, sizeof *td);
    td->cfg.threads = 1;
    d->tags = td;
    d->plan.min_tag_px = lo_px, d->plan.max_tag_px = hi_px, d->expected_tag_px = lo_px;
}

Test(vision_blobs, runs_find_what_the_flood_fill_found)
{
    enum { W = 613, H = 401, CAP = 4000 };
    uint8_t *px = malloc((size_t)W * H);
    srand(33);
    for (size_t i = 0; i < (size_t)W * H; i++)
        px[i] = (uint8_t)(50 + rand() % 11); /* speckle around the thresholds' middle */
    for (int k = 0; k < 1500; k++) {
        const int x0 = rand() % W, y0 = rand() % H, x1 = x0 + 2 + rand() % 30, y1 = y0 + 2 + rand() % 30;
        fill(px, W, x0, y0, x1 < W ? x1 : W, y1 < H ? y1 : H, (uint8_t)(rand() % 2 ? rand() % 40 : 75 + rand() % 100));
    }
    vis_detector d;
    vis_tag_detector td;
    small_detector(&d, &td, 12, 16);
    const base_view im = {W, H, 1, W, px};
    const vis_tag_region whole = {0, 0, W, H, 0, 0, 0, 0, 0};
    vis_blob *got = malloc(CAP * sizeof *got), *want = malloc(CAP * sizeof *want);
    size_t searched = 0;
    /* black 0, white 100: dark blobs under 45, bright rings over 70 */
    const long n = vis_recover_find_blobs(&d, &im, &whole, 1, 0, 100, got, CAP, &searched);
    const size_t nd = reference(px, W, H, 12, 16, 45, false, want, CAP / 2);
    const size_t nr = reference(px, W, H, 12, 16, 70, true, want + nd, CAP / 2);
    cr_assert_eq(searched, (size_t)W * H);
    cr_assert(nd >= 20 && nr >= 5, "a picture that tests little: %zu blobs, %zu rings", nd, nr);
    cr_assert_eq(n, (long)(nd + nr), "%ld found, the flood fill %zu + %zu", n, nd, nr);
    for (long i = 0; i < n; i++) {
        cr_assert_eq(got[i].ring, want[i].ring, "#%ld", i);
        for (int a = 0; a < 2; a++) {
            cr_assert_float_eq(got[i].px[a], want[i].px[a], 1e-9, "#%ld axis %d", i, a);
            cr_assert_float_eq(got[i].ext_px[a], want[i].ext_px[a], 1e-9, "#%ld axis %d", i, a);
        }
    }
    free(got);
    free(want);
    free(px);
}

Test(vision_blobs, squares_and_a_ring_at_shrink_factor_two)
{
    enum { W = 200, H = 120, CAP = 16 };
    uint8_t *px = malloc((size_t)W * H);
    memset(px, 60, (size_t)W * H);
    fill(px, W, 20, 20, 40, 40, 5);         /* a black square 20 px wide: shrunk, cells 10..19 */
    fill(px, W, 60, 30, 84, 50, 5);         /* 24 x 20 px: cells 30..41, 15..24 */
    fill(px, W, 110, 40, 140, 70, 220);     /* a white ring 30 px wide ... */
    fill(px, W, 116, 46, 134, 64, 60);      /* ... round a hole */
    vis_detector d;
    vis_tag_detector td;
    small_detector(&d, &td, 20, 24);        /* shrink factor 2 */
    const base_view im = {W, H, 1, W, px};
    const vis_tag_region whole = {0, 0, W, H, 0, 0, 0, 0, 0};
    vis_blob got[CAP];
    size_t searched = 0;
    const long n = vis_recover_find_blobs(&d, &im, &whole, 1, 0, 100, got, CAP, &searched);
    cr_assert_eq(n, 3);
    /* A shrunk cell c's centre is pixel 2c + 0.5. */
    cr_assert(!got[0].ring && !got[1].ring && got[2].ring);
    cr_assert_float_eq(got[0].px[0], 29.5, 1e-9);
    cr_assert_float_eq(got[0].px[1], 29.5, 1e-9);
    cr_assert_float_eq(got[1].px[0], 71.5, 1e-9);
    cr_assert_float_eq(got[1].px[1], 39.5, 1e-9);
    cr_assert_float_eq(got[1].ext_px[0], 24, 1e-9);
    cr_assert_float_eq(got[1].ext_px[1], 20, 1e-9);
    cr_assert_float_eq(got[2].px[0], 124.5, 1e-9);
    cr_assert_float_eq(got[2].px[1], 54.5, 1e-9);
    cr_assert_float_eq(got[2].ext_px[0], 30, 1e-9);
    free(px);
}
