/*
 * base_image: the one picture type of tableref, owned (base_image) or
 * borrowed (base_view): 8-bit gray or BGR (OpenCV's channel order), rows
 * `stride` bytes apart. Every part passes pictures as these: capture gives
 * views of its frames, the loader gives images, detection reads views,
 * the overlay and the recorder draw onto images.
 *
 * How to use:
 *   base_image *img = base_image_new(640, 480, 1, 0);   // NULL when out of memory or a bad size
 *   img->data[r * img->stride + c] = 255;
 *   base_view v = base_image_view(img);                // borrowed: valid while img lives
 *   base_image *copy = base_image_clone(img);
 *   base_image *gray = base_image_to_gray(bgr);          // BT.601 luma, as OpenCV
 *   base_image_free(copy); base_image_free(img);         // NULL is fine
 *   // a reader's frame (valid until its next read) kept as the caller's image:
 *   base_image_assign(&mine, v.width, v.height, v.channels, v.data, v.stride, &err);
 */
#ifndef BASE_IMAGE_H
#define BASE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "base_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An 8-bit image owned by whoever created it; free with base_image_free. */
typedef struct base_image {
    int width, height;
    int channels;        /* 1 (gray) or 3 (BGR) */
    size_t stride;       /* bytes per row */
    uint8_t *data;
} base_image;

/* A zeroed image (every byte = fill); NULL when out of memory or a size is not positive. */
base_image *base_image_new(int width, int height, int channels, uint8_t fill);
/* Frees the image and its pixels; NULL is fine. */
void base_image_free(base_image *img);
/* A deep copy; NULL when out of memory. */
base_image *base_image_clone(const base_image *img);
/*
 * Copies width x height pixels of `channels` (rows `stride` bytes apart) into
 * *dst, which is reused when its size and channels match and replaced (the
 * old one freed) otherwise: how a reader's frame becomes the caller's image.
 * Returns 0, or -1 when out of memory.
 */
int base_image_assign(base_image **dst, int width, int height, int channels, const uint8_t *data, size_t stride,
                     base_error *err);

/* 8-bit pixels owned by someone else: row r starts at data + r * stride. */
typedef struct base_view {
    int width, height;
    int channels;        /* 1 (gray) or 3 (BGR) */
    size_t stride;
    const uint8_t *data;
} base_view;

/* A gray copy (a plain copy of a gray picture): luma with BT.601 weights in OpenCV's fixed point
 * (cvtColor BGR2GRAY, bit for bit). NULL when out of memory. */
base_image *base_image_to_gray(const base_image *img);

/* A view of img's pixels, valid while img lives (all zero for NULL). */
base_view base_image_view(const base_image *img);

#ifdef __cplusplus
}
#endif

#endif
