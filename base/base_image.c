#include "base_image.h"

#include <stdlib.h>
#include <string.h>

base_image *base_image_new(int width, int height, int channels, uint8_t fill)
{
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 3))
        return NULL;
    base_image *img = calloc(1, sizeof *img);
    if (!img)
        return NULL;
    img->width = width;
    img->height = height;
    img->channels = channels;
    img->stride = (size_t)width * channels;
    img->data = malloc(img->stride * height);
    if (!img->data) {
        free(img);
        return NULL;
    }
    memset(img->data, fill, img->stride * height);
    return img;
}

void base_image_free(base_image *img)
{
    if (!img)
        return;
    free(img->data);
    free(img);
}

base_image *base_image_clone(const base_image *img)
{
    base_image *c = base_image_new(img->width, img->height, img->channels, 0);
    if (c)
        for (int r = 0; r < img->height; r++)
            memcpy(c->data + r * c->stride, img->data + r * img->stride, c->stride);
    return c;
}

int base_image_assign(base_image **dst, int width, int height, int channels, const uint8_t *data,
                                size_t stride, base_error *err)
{
    base_image *img = *dst;
    if (!img || img->width != width || img->height != height || img->channels != channels) {
        base_image_free(img);
        if (!(*dst = img = base_image_new(width, height, channels, 0)))
            return base_error_set(err, "out of memory");
    }
    for (int r = 0; r < height; r++)
        memcpy(img->data + (size_t)r * img->stride, data + (size_t)r * stride, img->stride);
    return 0;
}

base_view base_image_view(const base_image *img)
{
    base_view v = {0, 0, 0, 0, NULL};
    if (img)
        v = (base_view){img->width, img->height, img->channels, img->stride, img->data};
    return v;
}

base_image *base_image_to_gray(const base_image *img)
{
    if (!img)
        return NULL;
    if (img->channels == 1)
        return base_image_clone(img);
    base_image *g = base_image_new(img->width, img->height, 1, 0);
    if (!g)
        return NULL;
    /* OpenCV 4's 8-bit weights: 0.114, 0.587, 0.299 scaled by 2^15, rounded half up. */
    enum { B2Y = 3735, G2Y = 19235, R2Y = 9798, SHIFT = 15 };
    for (int r = 0; r < img->height; r++) {
        const uint8_t *src = img->data + (size_t)r * img->stride;
        uint8_t *dst = g->data + (size_t)r * g->stride;
        for (int c = 0; c < img->width; c++, src += 3)
            dst[c] = (uint8_t)((src[0] * B2Y + src[1] * G2Y + src[2] * R2Y + (1 << (SHIFT - 1))) >> SHIFT);
    }
    return g;
}
