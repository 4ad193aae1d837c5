/*
 * Fuzz target: the picture loader (media_image_decode), JPEG and PNG, under a
 * 4 MP cap so that one input stays fast. Property: a decoded picture has the
 * size its header announced, within the limits.
 */
#include "fuzz.h"
#include "media_image_read.h"

#define FUZZ_MAX_PIXELS (1LL << 22)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    base_error err;
    media_image_info info;
    const int probed = media_image_probe(data, size, "fuzz.img", FUZZ_MAX_PIXELS, &info, &err);
    for (int color = 0; color <= 3; color += 3) { /* as stored, then BGR */
        base_image *img = media_image_decode(data, size, "fuzz.img", (media_image_color)color, FUZZ_MAX_PIXELS, &err);
        if (img) {
            if (probed < 0 || img->width != info.width || img->height != info.height ||
                img->width < MEDIA_IMAGE_MIN_SIDE || img->height < MEDIA_IMAGE_MIN_SIDE ||
                (long long)img->width * img->height > FUZZ_MAX_PIXELS)
                abort();
            volatile uint8_t sink = img->data[(size_t)(img->height - 1) * img->stride + img->width - 1];
            (void)sink;
        }
        base_image_free(img);
    }
    return 0;
}
