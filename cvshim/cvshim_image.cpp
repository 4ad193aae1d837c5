// Image I/O through OpenCV; every exception becomes a rules_error.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

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

cvs_image *cvs_from_mat(const cv::Mat &m)
{
    cvs_image *img = cvs_image_new(m.cols, m.rows, m.channels(), 0);
    if (!img)
        return nullptr;
    for (int r = 0; r < m.rows; r++)
        memcpy(img->data + r * img->stride, m.ptr(r), img->stride);
    return img;
}

extern "C" int cvs_image_save(const cvs_image *img, const char *path, int jpeg_quality, rules_error *err)
{
    try {
        std::vector<int> params;
        if (jpeg_quality > 0)
            params = {cv::IMWRITE_JPEG_QUALITY, jpeg_quality};
        if (!cv::imwrite(path, cvs_view(img), params))
            return rules_error_set(err, "%s: cannot write image", path);
        return 0;
    } catch (const std::exception &e) {
        return rules_error_set(err, "%s: cannot write image: %s", path, e.what());
    } catch (...) {
        return rules_error_set(err, "%s: cannot write image", path);
    }
}

extern "C" int cvs_image_jpeg_roundtrip(cvs_image *img, int quality, rules_error *err)
{
    try {
        std::vector<uint8_t> buf;
        cv::imencode(".jpg", cvs_view(img), buf, {cv::IMWRITE_JPEG_QUALITY, quality});
        cv::Mat back = cv::imdecode(buf, img->channels == 1 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
        if (back.rows != img->height || back.cols != img->width)
            return rules_error_set(err, "JPEG round trip changed the image size");
        back.copyTo(cvs_view(img));
        return 0;
    } catch (const std::exception &e) {
        return rules_error_set(err, "JPEG compression failed: %s", e.what());
    } catch (...) {
        return rules_error_set(err, "JPEG compression failed");
    }
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
