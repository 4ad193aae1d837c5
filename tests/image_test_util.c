#include "image_test_util.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <turbojpeg.h>
#include <zlib.h>

uint8_t *it_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

int it_write(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(b, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static int write_png(const char *path, int w, int h, int color_type, int bit_depth, bool interlace, int bytes_pp,
                     const uint8_t *rows, const png_color *palette, int n_palette)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, bit_depth, color_type,
                 interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (palette)
        png_set_PLTE(png, info, palette, n_palette);
    png_write_info(png, info);
    png_bytep *rp = malloc((size_t)h * sizeof *rp);
    for (int y = 0; y < h; y++)
        rp[y] = (png_bytep)rows + (size_t)y * w * bytes_pp;
    png_write_image(png, rp);
    png_write_end(png, NULL);
    free(rp);
    png_destroy_write_struct(&png, &info);
    return fclose(f) == 0 ? 0 : -1;
}

int it_write_png(const char *path, int w, int h, int channels, int bit_depth, bool interlace, const uint8_t *px)
{
    static const int types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                 PNG_COLOR_TYPE_RGB_ALPHA};
    const int bps = bit_depth / 8, n = w * h * channels;
    uint8_t *buf = malloc((size_t)n * bps);
    if (!buf)
        return -1;
    for (int i = 0; i < n; i++) {
        if (bps == 2)
            buf[2 * i] = buf[2 * i + 1] = px[i]; /* big-endian v * 257 */
        else
            buf[i] = px[i];
    }
    int rc = write_png(path, w, h, types[channels], bit_depth, interlace, channels * bps, buf, NULL, 0);
    free(buf);
    return rc;
}

int it_write_png_palette(const char *path, int w, int h, const uint8_t *idx, const uint8_t *r, const uint8_t *g,
                         const uint8_t *b, int n)
{
    png_color pal[256];
    for (int i = 0; i < n; i++)
        pal[i] = (png_color){r[i], g[i], b[i]};
    return write_png(path, w, h, PNG_COLOR_TYPE_PALETTE, 8, false, 1, idx, pal, n);
}

int it_write_jpeg(const char *path, int w, int h, int channels, const uint8_t *px)
{
    tjhandle tj = tjInitCompress();
    unsigned char *jpeg = NULL;
    unsigned long size = 0;
    int rc = tj ? tjCompress2(tj, px, w, w * channels, h, channels == 1 ? TJPF_GRAY : TJPF_BGR, &jpeg, &size,
                              channels == 1 ? TJSAMP_GRAY : TJSAMP_420, 90, 0)
                : -1;
    if (rc == 0)
        rc = it_write(path, jpeg, size);
    tjFree(jpeg);
    if (tj)
        tjDestroy(tj);
    return rc;
}

int it_write_flat(const char *path, int w, int h, uint8_t v)
{
    uint8_t *px = malloc((size_t)w * h);
    if (!px)
        return -1;
    memset(px, v, (size_t)w * h);
    const char *dot = strrchr(path, '.');
    int rc = dot && strcmp(dot, ".png") == 0 ? it_write_png(path, w, h, 1, 8, false, px) : it_write_jpeg(path, w, h, 1, px);
    free(px);
    return rc;
}

static size_t chunk(uint8_t *out, const char *type, const uint8_t *data, uint32_t n)
{
    out[0] = (uint8_t)(n >> 24), out[1] = (uint8_t)(n >> 16), out[2] = (uint8_t)(n >> 8), out[3] = (uint8_t)n;
    memcpy(out + 4, type, 4);
    if (n)
        memcpy(out + 8, data, n);
    uint32_t crc = (uint32_t)crc32(0, out + 4, n + 4);
    out[8 + n] = (uint8_t)(crc >> 24), out[9 + n] = (uint8_t)(crc >> 16), out[10 + n] = (uint8_t)(crc >> 8);
    out[11 + n] = (uint8_t)crc;
    return 12 + n;
}

int it_write_png_header_only(const char *path, int w, int h)
{
    uint8_t buf[256], ihdr[13] = {0};
    static const uint8_t magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    ihdr[0] = (uint8_t)(w >> 24), ihdr[1] = (uint8_t)(w >> 16), ihdr[2] = (uint8_t)(w >> 8), ihdr[3] = (uint8_t)w;
    ihdr[4] = (uint8_t)(h >> 24), ihdr[5] = (uint8_t)(h >> 16), ihdr[6] = (uint8_t)(h >> 8), ihdr[7] = (uint8_t)h;
    ihdr[8] = 8; /* 8-bit gray */
    uint8_t z[64];
    uLongf zn = sizeof z;
    const uint8_t row[2] = {0, 0};
    compress(z, &zn, row, sizeof row);
    size_t n = 8;
    memcpy(buf, magic, 8);
    n += chunk(buf + n, "IHDR", ihdr, 13);
    n += chunk(buf + n, "IDAT", z, (uint32_t)zn);
    n += chunk(buf + n, "IEND", NULL, 0);
    return it_write(path, buf, n);
}

int it_write_jpeg_resized_header(const char *src, const char *dst, int w, int h)
{
    size_t n;
    uint8_t *b = it_read(src, &n);
    if (!b)
        return -1;
    int rc = -1;
    for (size_t i = 2; i + 9 < n; i++)
        if (b[i] == 0xFF && (b[i + 1] == 0xC0 || b[i + 1] == 0xC2)) { /* SOF0 / SOF2: length, precision, height, width */
            b[i + 5] = (uint8_t)(h >> 8), b[i + 6] = (uint8_t)h;
            b[i + 7] = (uint8_t)(w >> 8), b[i + 8] = (uint8_t)w;
            rc = it_write(dst, b, n);
            break;
        }
    free(b);
    return rc;
}

int it_write_cut(const char *src, const char *dst, long keep, const uint8_t *tail, size_t tn)
{
    size_t n;
    uint8_t *b = it_read(src, &n);
    if (!b)
        return -1;
    size_t k = keep >= 0 ? (size_t)keep : n - (size_t)(-keep);
    if (k > n)
        k = n;
    uint8_t *out = malloc(k + tn + 1);
    memcpy(out, b, k);
    if (tn)
        memcpy(out + k, tail, tn);
    int rc = it_write(dst, out, k + tn);
    free(out);
    free(b);
    return rc;
}
