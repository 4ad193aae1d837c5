// Image I/O through OpenCV; every exception becomes a rules_error.
#include <cerrno>
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

/* Reads the whole file; the error says why when it cannot. */
static int read_bytes(const char *path, std::vector<uint8_t> &buf, rules_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return rules_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    uint8_t chunk[1 << 16];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf.insert(buf.end(), chunk, chunk + k);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return rules_error_set(err, "%s: read error", path);
    return 0;
}

/*
 * libjpeg and libpng decode a truncated file into a partly grey picture with
 * only a warning; a referee must not judge from that, so the container is
 * checked for its end marker before decoding.
 */
static int check_container(const char *path, const std::vector<uint8_t> &b, rules_error *err)
{
    if (b.empty())
        return rules_error_set(err, "%s: empty file, not an image", path);
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) {
        // The EOI marker may be followed by padding some cameras append.
        size_t end = b.size();
        size_t stop = end > 4096 ? end - 4096 : 2;
        for (size_t i = end - 1; i > stop; i--)
            if (b[i - 1] == 0xFF && b[i] == 0xD9)
                return 0;
        return rules_error_set(err, "%s: truncated JPEG (no end-of-image marker)", path);
    }
    if (b.size() >= 8 && memcmp(b.data(), png_magic, 8) == 0) {
        static const uint8_t iend[4] = {'I', 'E', 'N', 'D'};
        if (b.size() >= 20 && memcmp(b.data() + b.size() - 8, iend, 4) == 0)
            return 0;
        return rules_error_set(err, "%s: truncated PNG (no IEND chunk)", path);
    }
    return rules_error_set(err, "%s: not a JPEG or PNG file", path);
}

extern "C" cvs_image *cvs_image_load_gray(const char *path, rules_error *err)
{
    std::vector<uint8_t> bytes;
    if (read_bytes(path, bytes, err) < 0 || check_container(path, bytes, err) < 0)
        return nullptr;
    try {
        cv::Mat m = cv::imdecode(bytes, cv::IMREAD_GRAYSCALE);
        if (m.empty() || m.depth() != CV_8U) {
            rules_error_set(err, "%s: corrupt image (cannot decode)", path);
            return nullptr;
        }
        cvs_image *img = cvs_from_mat(m);
        if (!img)
            rules_error_set(err, "%s: out of memory", path);
        return img;
    } catch (const std::exception &e) {
        rules_error_set(err, "%s: cannot decode image: %s", path, e.what());
    } catch (...) {
        rules_error_set(err, "%s: cannot decode image", path);
    }
    return nullptr;
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
