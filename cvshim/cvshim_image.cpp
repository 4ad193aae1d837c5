// base_image itself, colour conversion and downsampling; every exception becomes a base_error.
// Files are written and read by media/ (media_image.c, media_image_read.c).
#include <cstdio>
#include <cstdlib>
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

extern "C" base_image *cvs_image_downsample(const base_image *img, int factor, base_error *err)
{
    try {
        /* The whole blocks only: at an exact integer scale OpenCV averages each factor x factor block (its
         * fast path); a height that is not a multiple (3040 rows by 3) made it weigh every row fractionally,
         * at six times the cost. The rows left over (one, for 3040 by 3) are dropped. */
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
