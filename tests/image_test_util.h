/*
 * Pictures for the reliability suites, made at test time: PNGs of every
 * colour type (libpng), JPEGs (TurboJPEG), pictures cut short, and PNG
 * headers that claim a size their few bytes do not hold.
 */
#ifndef IMAGE_TEST_UTIL_H
#define IMAGE_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Writes a PNG of w x h: channels 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA, at
 * bit_depth 8 or 16 (8-bit samples v are written as v * 257), optionally
 * interlaced (Adam7). `px` holds w*h*channels 8-bit samples. 0 or -1.
 */
int it_write_png(const char *path, int w, int h, int channels, int bit_depth, bool interlace, const uint8_t *px);
/* A palette PNG of w x h: index i of `idx` is colour (r[i], g[i], b[i]); n colours. */
int it_write_png_palette(const char *path, int w, int h, const uint8_t *idx, const uint8_t *r, const uint8_t *g,
                         const uint8_t *b, int n);
/* A JPEG of w x h from `px` (1 channel gray or 3 BGR), quality 90. 0 or -1. */
int it_write_jpeg(const char *path, int w, int h, int channels, const uint8_t *px);
/* A uniform gray picture of w x h (PNG or JPEG by the extension). */
int it_write_flat(const char *path, int w, int h, uint8_t v);
/*
 * A PNG whose header says w x h but whose image data is a few bytes: what a
 * decompression bomb looks like before it is decoded.
 */
int it_write_png_header_only(const char *path, int w, int h);
/* A JPEG copied from `src` with its frame size (SOF) rewritten to w x h. */
int it_write_jpeg_resized_header(const char *src, const char *dst, int w, int h);
/* The first `keep` bytes of src (keep < 0: all but -keep), then `tail` (n bytes, may be NULL). */
int it_write_cut(const char *src, const char *dst, long keep, const uint8_t *tail, size_t n);
/* The file's bytes (malloc'ed) and length; NULL when unreadable. */
uint8_t *it_read(const char *path, size_t *len);
/* Writes n bytes. 0 or -1. */
int it_write(const char *path, const uint8_t *b, size_t n);

#endif
