/*
 * Fuzz target: the picture loader (vis_image_decode), JPEG and PNG, under a
 * 4 MP cap so that one input stays fast. Property: a decoded picture has the
 * size its header announced, within the limits.
 */
#include "fuzz.h"
#include "vis_image.h"

#define FUZZ_MAX_PIXELS (1LL << 22)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rules_error err;
    vis_image_info info;
    const int probed = vis_image_probe(data, size, "fuzz.img", FUZZ_MAX_PIXELS, &info, &err);
    for (int color = 0; color <= 3; color += 3) { /* as stored, then BGR */
        cvs_image *img = vis_image_decode(data, size, "fuzz.img", (vis_image_color)color, FUZZ_MAX_PIXELS, &err);
        if (img) {
            if (probed < 0 || img->width != info.width || img->height != info.height ||
                img->width < VIS_IMAGE_MIN_SIDE || img->height < VIS_IMAGE_MIN_SIDE ||
                (long long)img->width * img->height > FUZZ_MAX_PIXELS)
                abort();
            volatile uint8_t sink = img->data[(size_t)(img->height - 1) * img->stride + img->width - 1];
            (void)sink;
        }
        cvs_image_free(img);
    }
    return 0;
}
