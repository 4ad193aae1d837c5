#include "venue_picture.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>

int venue_pixfmt_channels(venue_pixfmt f)
{
    return f == VENUE_PIX_GRAY8 ? 1 : 3;
}

void venue_picture_clear(venue_picture *pic)
{
    if (!pic)
        return;
    free(pic->pixels);
    memset(pic, 0, sizeof *pic);
}

/*
 * Adds k x k blocks of one source row into acc (w outputs), channels fixed at
 * compile time and sums kept in locals: uint8_t pointers may alias anything,
 * so summing straight into acc[] would reload it at every pixel.
 */
static void add_row_gray(const uint8_t *src, int w, int k, unsigned *acc)
{
    for (int x = 0; x < w; x++, src += k) {
        unsigned a = 0;
        for (int dx = 0; dx < k; dx++)
            a += src[dx];
        acc[x] += a;
    }
}

static void add_row_rgb(const uint8_t *src, int w, int k, unsigned *acc)
{
    for (int x = 0; x < w; x++, acc += 3) {
        unsigned a0 = 0, a1 = 0, a2 = 0;
        for (int dx = 0; dx < k; dx++, src += 3) {
            a0 += src[0];
            a1 += src[1];
            a2 += src[2];
        }
        acc[0] += a0;
        acc[1] += a1;
        acc[2] += a2;
    }
}

int venue_picture_shrink(const venue_image *img, int max_width, venue_picture *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    if (!img || !img->pixels || img->width <= 0 || img->height <= 0 || max_width <= 0)
        return base_error_set(err, "picture: empty");
    int ch = venue_pixfmt_channels(img->format);
    if (img->stride < (size_t)img->width * (size_t)ch)
        return base_error_set(err, "picture: stride %zu shorter than a row of %d pixels", img->stride, img->width);
    int k = (img->width + max_width - 1) / max_width;
    int w = img->width / k, h = img->height / k;
    if (w <= 0 || h <= 0)
        return base_error_set(err, "picture: %dx%d is too small to shrink to %d px wide", img->width, img->height,
                               max_width);
    size_t row = (size_t)w * (size_t)ch;
    out->pixels = malloc(row * (size_t)h);
    unsigned *acc = calloc(row, sizeof *acc);
    if (!out->pixels || !acc) {
        free(acc);
        venue_picture_clear(out);
        return base_error_set(err, "picture: out of memory");
    }
    out->width = w;
    out->height = h;
    out->format = img->format;
    unsigned area = (unsigned)k * (unsigned)k;
    /* Row by row, so the source is read once, in order: the cost is the frame's size, not k. */
    for (int y = 0; y < h; y++) {
        memset(acc, 0, row * sizeof *acc);
        for (int dy = 0; dy < k; dy++) {
            const uint8_t *src = img->pixels + (size_t)(y * k + dy) * img->stride;
            if (ch == 1)
                add_row_gray(src, w, k, acc);
            else
                add_row_rgb(src, w, k, acc);
        }
        uint8_t *dst = out->pixels + (size_t)y * row;
        for (size_t i = 0; i < row; i++)
            dst[i] = (uint8_t)((acc[i] + area / 2) / area);
    }
    free(acc);
    return 0;
}

static int tj_format(venue_pixfmt f)
{
    switch (f) {
    case VENUE_PIX_GRAY8: return TJPF_GRAY;
    case VENUE_PIX_RGB24: return TJPF_RGB;
    case VENUE_PIX_BGR24: return TJPF_BGR;
    }
    return TJPF_RGB;
}

int venue_picture_encode(const venue_picture *pic, int quality, uint8_t **jpeg, size_t *n, base_error *err)
{
    *jpeg = NULL;
    *n = 0;
    if (!pic || !pic->pixels || pic->width <= 0 || pic->height <= 0)
        return base_error_set(err, "picture: empty");
    if (quality < 1 || quality > 100)
        return base_error_set(err, "picture: JPEG quality %d is not within 1..100", quality);
    tjhandle tj = tjInitCompress();
    if (!tj)
        return base_error_set(err, "picture: cannot start the JPEG encoder: %s", tjGetErrorStr2(NULL));
    unsigned char *buf = NULL;
    unsigned long size = 0;
    int ch = venue_pixfmt_channels(pic->format);
    int rc = tjCompress2(tj, pic->pixels, pic->width, pic->width * ch, pic->height, tj_format(pic->format), &buf,
                         &size, pic->format == VENUE_PIX_GRAY8 ? TJSAMP_GRAY : TJSAMP_420, quality, TJFLAG_FASTDCT);
    if (rc != 0) {
        base_error_set(err, "picture: JPEG encoding failed: %s", tjGetErrorStr2(tj));
        tjFree(buf);
        tjDestroy(tj);
        return -1;
    }
    tjDestroy(tj);
    /* Hand back plain malloc'ed memory: the caller should not need to know turbojpeg's allocator. */
    *jpeg = malloc(size);
    if (!*jpeg) {
        tjFree(buf);
        return base_error_set(err, "picture: out of memory");
    }
    memcpy(*jpeg, buf, size);
    *n = size;
    tjFree(buf);
    return 0;
}

int venue_jpeg_size(const uint8_t *jpeg, size_t n, int *width, int *height, base_error *err)
{
    if (!jpeg || n < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8)
        return base_error_set(err, "picture: not a JPEG (no FF D8 start)");
    if (n > ULONG_MAX)
        return base_error_set(err, "picture: too large");
    tjhandle tj = tjInitDecompress();
    if (!tj)
        return base_error_set(err, "picture: cannot start the JPEG decoder: %s", tjGetErrorStr2(NULL));
    int subsamp = 0, colorspace = 0;
    int rc = tjDecompressHeader3(tj, jpeg, (unsigned long)n, width, height, &subsamp, &colorspace);
    if (rc != 0)
        base_error_set(err, "picture: unreadable JPEG header: %s", tjGetErrorStr2(tj));
    tjDestroy(tj);
    return rc == 0 ? 0 : -1;
}
