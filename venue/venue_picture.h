/*
 * venue_picture: the overlay picture a table sends to the venue, shrunk and
 * JPEG-encoded (libjpeg-turbo), small enough to keep one per table retained
 * on the broker (a 640 x 480 picture is some 30-60 kB).
 *
 * How to use:
 *   venue_image img = {pixels, width, height, stride, VENUE_PIX_BGR24};  // borrowed
 *   venue_picture pic;
 *   venue_picture_shrink(&img, 640, &pic, &err);     // whole-factor box average, copied
 *   uint8_t *jpeg; size_t n;
 *   venue_picture_encode(&pic, 70, &jpeg, &n, &err); // free(jpeg)
 *   venue_picture_clear(&pic);
 */
#ifndef VENUE_PICTURE_H
#define VENUE_PICTURE_H

#include <stddef.h>
#include <stdint.h>

#include "base_error.h"

typedef enum venue_pixfmt {
    VENUE_PIX_GRAY8 = 0,
    VENUE_PIX_RGB24,
    VENUE_PIX_BGR24,   /* OpenCV's order */
} venue_pixfmt;

/* A caller's picture: 8 bits per channel, rows `stride` bytes apart. */
typedef struct venue_image {
    const uint8_t *pixels;
    int width, height;
    size_t stride;
    venue_pixfmt format;
} venue_image;

/* A shrunk copy the picture module owns. */
typedef struct venue_picture {
    uint8_t *pixels;   /* width * channels bytes per row */
    int width, height;
    venue_pixfmt format;
} venue_picture;

/* 1 for GRAY8, 3 otherwise. */
int venue_pixfmt_channels(venue_pixfmt f);
/*
 * Copies `img` shrunk by the smallest whole factor k that makes it at most
 * max_width wide (each output pixel the mean of a k x k block). -1 with err
 * for an empty or impossible picture or no memory.
 */
int venue_picture_shrink(const venue_image *img, int max_width, venue_picture *out, base_error *err);
/* JPEG of `pic` at quality 1..100 into a malloc'ed buffer. */
int venue_picture_encode(const venue_picture *pic, int quality, uint8_t **jpeg, size_t *n, base_error *err);
/* The size of a JPEG from its header; -1 when it is not a JPEG. */
int venue_jpeg_size(const uint8_t *jpeg, size_t n, int *width, int *height, base_error *err);
void venue_picture_clear(venue_picture *pic);

#endif
