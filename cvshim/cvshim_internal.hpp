// Shared by the shim's C++ files only: views between base_image and cv::Mat.
#ifndef CVSHIM_INTERNAL_HPP
#define CVSHIM_INTERNAL_HPP

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cvshim.h"

/* A Mat header over the image's pixels (no copy; valid while img lives). */
static inline cv::Mat cvs_view(const base_image *img)
{
    return cv::Mat(img->height, img->width, img->channels == 1 ? CV_8UC1 : CV_8UC3, img->data, img->stride);
}

/* A new base_image holding a copy of m (8-bit, 1 or 3 channels); NULL when out of memory. */
base_image *cvs_from_mat(const cv::Mat &m);

#endif
