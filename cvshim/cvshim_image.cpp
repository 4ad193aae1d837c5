// cvs_image itself, colour conversion and downsampling; every exception becomes a rules_error.
// Files are written by media/ (cvshim_media.c), read by vision/vis_image.c.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"

extern "C" cvs_image *cvs_image_new(int width, int height, int channels, uint8_t fill)
{
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 3))
        return nullptr;
    cvs_image *img = static_cast<cvs_image *>(calloc(1, sizeof *img));
    if (!img)
        return nullptr;
    img->width = width;
    img->height = height;
    img->channels = channels;
    img->stride = (size_t)width * channels;
    img->data = static_cast<uint8_t *>(malloc(img->stride * height));
    if (!img->data) {
        free(img);
        return nullptr;
    }
    memset(img->data, fill, img->stride * height);
    return img;
}

extern "C" void cvs_image_free(cvs_image *img)
{
    if (!img)
        return;
    free(img->data);
    free(img);
}

extern "C" cvs_image *cvs_image_clone(const cvs_image *img)
{
    cvs_image *c = cvs_image_new(img->width, img->height, img->channels, 0);
    if (c)
        for (int r = 0; r < img->height; r++)
            memcpy(c->data + r * c->stride, img->data + r * img->stride, c->stride);
    return c;
}

extern "C" int cvs_image_assign(cvs_image **dst, int width, int height, int channels, const uint8_t *data,
                                size_t stride, rules_error *err)
{
    cvs_image *img = *dst;
    if (!img || img->width != width || img->height != height || img->channels != channels) {
        cvs_image_free(img);
        if (!(*dst = img = cvs_image_new(width, height, channels, 0)))
            return rules_error_set(err, "out of memory");
    }
    for (int r = 0; r < height; r++)
        memcpy(img->data + (size_t)r * img->stride, data + (size_t)r * stride, img->stride);
    return 0;
}

cvs_image *cvs_from_mat(const cv::Mat &m)
{
    cvs_image *img = cvs_image_new(m.cols, m.rows, m.channels(), 0);
    if (!img)
        return nullptr;
    for (int r = 0; r < m.rows; r++)
        memcpy(img->data + r * img->stride, m.ptr(r), img->stride);
    return img;
}

extern "C" cvs_image *cvs_image_downsample(const cvs_image *img, int factor, rules_error *err)
{
    try {
        cv::Mat small;
        cv::resize(cvs_view(img), small, cv::Size(img->width / factor, img->height / factor), 0, 0,
                   cv::INTER_AREA);
        cvs_image *out = cvs_from_mat(small);
        if (!out)
            rules_error_set(err, "out of memory");
        return out;
    } catch (const std::exception &e) {
        rules_error_set(err, "downsampling failed: %s", e.what());
    } catch (...) {
        rules_error_set(err, "downsampling failed");
    }
    return nullptr;
}

static cvs_image *convert(const cvs_image *img, int want_channels, rules_error *err)
{
    try {
        if (img->channels == want_channels) {
            cvs_image *c = cvs_image_clone(img);
            if (!c)
                rules_error_set(err, "out of memory");
            return c;
        }
        cv::Mat m;
        cv::cvtColor(cvs_view(img), m, want_channels == 1 ? cv::COLOR_BGR2GRAY : cv::COLOR_GRAY2BGR);
        cvs_image *c = cvs_from_mat(m);
        if (!c)
            rules_error_set(err, "out of memory");
        return c;
    } catch (const std::exception &e) {
        rules_error_set(err, "colour conversion failed: %s", e.what());
    } catch (...) {
        rules_error_set(err, "colour conversion failed");
    }
    return nullptr;
}

extern "C" cvs_image *cvs_image_to_gray(const cvs_image *img, rules_error *err) { return convert(img, 1, err); }
extern "C" cvs_image *cvs_image_to_bgr(const cvs_image *img, rules_error *err) { return convert(img, 3, err); }
