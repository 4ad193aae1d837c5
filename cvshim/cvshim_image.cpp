// base_image itself, colour conversion and downsampling; every exception becomes a base_error.
// Files are written and read by media/ (media_image.c, media_image_read.c).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"

base_image *cvs_from_mat(const cv::Mat &m)
{
    base_image *img = base_image_new(m.cols, m.rows, m.channels(), 0);
    if (!img)
        return nullptr;
    for (int r = 0; r < m.rows; r++)
        memcpy(img->data + r * img->stride, m.ptr(r), img->stride);
    return img;
}

/* Each output row: the factor rows under it summed column by column (one loop the compiler vectorises, 16-bit
 * sums: factor <= 16), then each block's factor columns summed and looked up in a table of the rounded
 * averages. cv::resize's fast area path cost ~96 M instructions on a 12 MP picture shrunk by 3, this ~15 M;
 * the pixels are the same: its average is round-to-nearest of sum * (1/(f*f)) in float (for 2 x 2 blocks
 * (sum + 2) / 4), and so is the table. */
static base_image *downsample_blocks(const base_image *img, int f, base_error *err)
{
    const int w = img->width / f, h = img->height / f, c = img->channels, n = w * f * c, area = f * f;
    std::vector<uint16_t> acc((size_t)n);
    std::vector<uint8_t> avg((size_t)area * 255 + 1);
    base_image *out = base_image_new(w, h, c, 0);
    if (!out)
        return base_error_set(err, "out of memory"), nullptr;
    const float scale = 1.f / (float)area;
    for (size_t s = 0; s < avg.size(); s++)
        avg[s] = (uint8_t)(f == 2 ? (s + 2) >> 2 : (unsigned)lrintf((float)s * scale));
    for (int y = 0; y < h; y++) {
        const uint8_t *row = img->data + (size_t)y * f * img->stride;
        uint16_t *a = acc.data();
        for (int i = 0; i < n; i++)
            a[i] = row[i];
        for (int r = 1; r < f; r++) {
            row += img->stride;
            for (int i = 0; i < n; i++)
                a[i] = (uint16_t)(a[i] + row[i]);
        }
        uint8_t *d = out->data + (size_t)y * out->stride;
        for (int x = 0; x < w; x++)
            for (int ch = 0; ch < c; ch++) {
                unsigned s = 0;
                for (int k = 0; k < f; k++)
                    s += a[(x * f + k) * c + ch];
                d[x * c + ch] = avg[s];
            }
    }
    return out;
}

extern "C" base_image *cvs_image_downsample(const base_image *img, int factor, base_error *err)
{
    try {
        /* The whole blocks only: a height that is not a multiple (3040 rows by 3) made cv::resize weigh every
         * row fractionally, at six times the cost. The rows left over (one, for 3040 by 3) are dropped. */
        if (factor >= 2 && factor <= 16 && img->width >= factor && img->height >= factor)
            return downsample_blocks(img, factor, err);
        const int w = img->width / factor, h = img->height / factor;
        cv::Mat small;
        cv::resize(cvs_view(img)(cv::Rect(0, 0, w * factor, h * factor)), small, cv::Size(w, h), 0, 0,
                   cv::INTER_AREA);
        base_image *out = cvs_from_mat(small);
        if (!out)
            base_error_set(err, "out of memory");
        return out;
    } catch (const std::exception &e) {
        base_error_set(err, "downsampling failed: %s", e.what());
    } catch (...) {
        base_error_set(err, "downsampling failed");
    }
    return nullptr;
}

static base_image *convert(const base_image *img, int want_channels, base_error *err)
{
    try {
        if (img->channels == want_channels) {
            base_image *c = base_image_clone(img);
            if (!c)
                base_error_set(err, "out of memory");
            return c;
        }
        cv::Mat m;
        cv::cvtColor(cvs_view(img), m, want_channels == 1 ? cv::COLOR_BGR2GRAY : cv::COLOR_GRAY2BGR);
        base_image *c = cvs_from_mat(m);
        if (!c)
            base_error_set(err, "out of memory");
        return c;
    } catch (const std::exception &e) {
        base_error_set(err, "colour conversion failed: %s", e.what());
    } catch (...) {
        base_error_set(err, "colour conversion failed");
    }
    return nullptr;
}

extern "C" base_image *cvs_image_to_gray(const base_image *img, base_error *err) { return convert(img, 1, err); }
extern "C" base_image *cvs_image_to_bgr(const base_image *img, base_error *err) { return convert(img, 3, err); }
