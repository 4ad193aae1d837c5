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

/* 16 bytes and their 16-bit sums, as GCC's and Clang's vector extensions (SSE2 on x86-64, NEON on ARM): at -O2 the
 * compiler leaves a loop of unknown length scalar, 2.5 instructions a byte here. */
typedef uint8_t ds_u8x16 __attribute__((vector_size(16)));
typedef uint16_t ds_u16x16 __attribute__((vector_size(32)));

/* One output row of f x f blocks: the f rows under it summed column by column into acc (16-bit sums: f <= 16),
 * then each block's f columns summed and looked up in `avg`. F: f known when compiled (2 or 3, gray), or 0. */
template <int F>
static void block_row(const uint8_t *src, size_t stride, int f, int w, int c, uint16_t *acc, const uint8_t *avg,
                      uint8_t *dst)
{
    if (F)
        f = F, c = 1;
    const int n = w * f * c;
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        ds_u8x16 b;
        memcpy(&b, src + i, 16);
        ds_u16x16 sum = __builtin_convertvector(b, ds_u16x16);
        for (int k = 1; k < f; k++) {
            memcpy(&b, src + (size_t)k * stride + i, 16);
            sum += __builtin_convertvector(b, ds_u16x16);
        }
        memcpy(acc + i, &sum, sizeof sum);
    }
    for (; i < n; i++) {
        unsigned s = 0;
        for (int k = 0; k < f; k++)
            s += src[(size_t)k * stride + i];
        acc[i] = (uint16_t)s;
    }
    for (int x = 0; x < w; x++)
        for (int ch = 0; ch < c; ch++) {
            const uint16_t *a = acc + (size_t)x * f * c + ch;
            unsigned s = 0;
            for (int k = 0; k < f; k++)
                s += a[k * c];
            dst[x * c + ch] = avg[s];
        }
}

/* Each output pixel the rounded average of its f x f block: cv::resize's fast area path cost ~96 M instructions
 * on a 12 MP picture shrunk by 3; the pixels are the same (its average is round-to-nearest of sum * (1/(f*f)) in
 * float, (sum + 2) / 4 for 2 x 2 blocks, and so is the table). */
static base_image *downsample_blocks(const base_image *img, int f, base_error *err)
{
    const int w = img->width / f, h = img->height / f, c = img->channels, area = f * f;
    std::vector<uint16_t> acc((size_t)w * f * c);
    std::vector<uint8_t> avg((size_t)area * 255 + 1);
    base_image *out = base_image_new(w, h, c, 0);
    if (!out)
        return base_error_set(err, "out of memory"), nullptr;
    const float scale = 1.f / (float)area;
    for (size_t s = 0; s < avg.size(); s++)
        avg[s] = (uint8_t)(f == 2 ? (s + 2) >> 2 : (unsigned)lrintf((float)s * scale));
    for (int y = 0; y < h; y++) {
        const uint8_t *src = img->data + (size_t)y * f * img->stride;
        uint8_t *dst = out->data + (size_t)y * out->stride;
        if (f == 3 && c == 1)
            block_row<3>(src, img->stride, f, w, c, acc.data(), avg.data(), dst);
        else if (f == 2 && c == 1)
            block_row<2>(src, img->stride, f, w, c, acc.data(), avg.data(), dst);
        else
            block_row<0>(src, img->stride, f, w, c, acc.data(), avg.data(), dst);
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
