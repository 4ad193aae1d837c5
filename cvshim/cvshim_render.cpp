// Drawing primitives for the synthetic-table renderer (datasets/).
// The geometry (what goes where) is computed in C by the renderer; this file
// only rasterises, so the ground truth never depends on OpenCV internals
// beyond bilinear sampling.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cvshim.h"
#include "media.h"
#include "cvshim_internal.hpp"

#define CATCH_ALL(task)                                                                                      \
    catch (const std::exception &e)                                                                          \
    {                                                                                                        \
        return base_error_set(err, "%s: %s", task, e.what());                                              \
    }                                                                                                        \
    catch (...)                                                                                              \
    {                                                                                                        \
        return base_error_set(err, "%s: unknown failure", task);                                           \
    }

extern "C" int cvs_render_warp(base_image *dst, const base_image *tex, const double H[9], base_image *mask,
                               uint8_t mask_value, base_error *err)
{
    try {
        cv::Matx33d h(H);
        const double cx[4] = {-0.5, tex->width - 0.5, tex->width - 0.5, -0.5};
        const double cy[4] = {-0.5, -0.5, tex->height - 0.5, tex->height - 0.5};
        double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
        for (int i = 0; i < 4; i++) {
            cv::Vec3d p = h * cv::Vec3d(cx[i], cy[i], 1.0);
            if (p[2] <= 0)
                return 0; // behind the camera: nothing to draw
            x0 = std::min(x0, p[0] / p[2]);
            x1 = std::max(x1, p[0] / p[2]);
            y0 = std::min(y0, p[1] / p[2]);
            y1 = std::max(y1, p[1] / p[2]);
        }
        int ix0 = std::max(0, (int)std::floor(x0) - 1), iy0 = std::max(0, (int)std::floor(y0) - 1);
        int ix1 = std::min(dst->width, (int)std::ceil(x1) + 2), iy1 = std::min(dst->height, (int)std::ceil(y1) + 2);
        if (ix0 >= ix1 || iy0 >= iy1)
            return 0;
        cv::Rect roi(ix0, iy0, ix1 - ix0, iy1 - iy0);
        cv::Matx33d shift(1, 0, -ix0, 0, 1, -iy0, 0, 0, 1);
        cv::Mat hr(shift * h);
        cv::Mat out = cvs_view(dst)(roi);
        cv::warpPerspective(cvs_view(tex), out, hr, roi.size(), cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
        if (mask) {
            cv::Mat ones(tex->height, tex->width, CV_8UC1, cv::Scalar(mask_value));
            cv::Mat mout = cvs_view(mask)(roi);
            cv::warpPerspective(ones, mout, hr, roi.size(), cv::INTER_NEAREST, cv::BORDER_TRANSPARENT);
        }
        return 0;
    }
    CATCH_ALL("warping a texture")
}

static std::vector<cv::Point> to_fixed(const double *xy, int n)
{
    std::vector<cv::Point> pts(n);
    for (int i = 0; i < n; i++)
        pts[i] = cv::Point((int)std::lround(xy[2 * i] * 16), (int)std::lround(xy[2 * i + 1] * 16));
    return pts;
}

// A polygon (xy: n points, pixels) filled with `value` on dst, anti-aliased,
// and with mask_value on the mask (when given), hard-edged.
static int fill_poly(base_image *dst, const double *xy, int n, const cv::Scalar &value, base_image *mask,
                     uint8_t mask_value, base_error *err)
{
    try {
        std::vector<std::vector<cv::Point>> polys{to_fixed(xy, n)};
        cv::fillPoly(cvs_view(dst), polys, value, cv::LINE_AA, 4);
        if (mask)
            cv::fillPoly(cvs_view(mask), polys, cv::Scalar(mask_value), cv::LINE_8, 4);
        return 0;
    }
    CATCH_ALL("filling a polygon")
}

// A line drawn like fill_poly's polygon: anti-aliased on dst, hard-edged on the mask.
static int draw_line(base_image *dst, double x0, double y0, double x1, double y1, double thickness,
                     const cv::Scalar &value, base_image *mask, uint8_t mask_value, base_error *err)
{
    try {
        cv::Point a((int)std::lround(x0 * 16), (int)std::lround(y0 * 16));
        cv::Point b((int)std::lround(x1 * 16), (int)std::lround(y1 * 16));
        int th = std::max(1, (int)std::lround(thickness));
        cv::line(cvs_view(dst), a, b, value, th, cv::LINE_AA, 4);
        if (mask)
            cv::line(cvs_view(mask), a, b, cv::Scalar(mask_value), th, cv::LINE_8, 4);
        return 0;
    }
    CATCH_ALL("drawing a line")
}

extern "C" int cvs_render_fill_poly(base_image *dst, const double *xy, int n, uint8_t value, base_image *mask,
                                    uint8_t mask_value, base_error *err)
{
    return fill_poly(dst, xy, n, cv::Scalar(value), mask, mask_value, err);
}

extern "C" int cvs_render_line(base_image *dst, double x0, double y0, double x1, double y1, double thickness,
                               uint8_t value, base_image *mask, uint8_t mask_value, base_error *err)
{
    return draw_line(dst, x0, y0, x1, y1, thickness, cv::Scalar(value), mask, mask_value, err);
}

// A colour as dst takes it: its luma on a grey picture, BGR on a colour one.
static cv::Scalar scalar_of(const base_image *dst, cvs_colour c)
{
    if (dst->channels == 1)
        return cv::Scalar(std::lround(0.299 * c.r + 0.587 * c.g + 0.114 * c.b));
    return cv::Scalar(c.b, c.g, c.r);
}

extern "C" int cvs_render_fill_poly_c(base_image *dst, const double *xy, int n, cvs_colour colour, base_image *mask,
                                      uint8_t mask_value, base_error *err)
{
    return fill_poly(dst, xy, n, scalar_of(dst, colour), mask, mask_value, err);
}

extern "C" int cvs_render_line_c(base_image *dst, double x0, double y0, double x1, double y1, double thickness,
                                 cvs_colour colour, base_image *mask, uint8_t mask_value, base_error *err)
{
    return draw_line(dst, x0, y0, x1, y1, thickness, scalar_of(dst, colour), mask, mask_value, err);
}

extern "C" int cvs_render_shade_polys(base_image *dst, const double *xy, const int *counts, int npolys, double factor,
                                      double blur_px, base_error *err)
{
    try {
        int total = 0;
        for (int k = 0; k < npolys; k++)
            total += counts[k];
        if (total < 3)
            return 0;
        const int pad = (int)std::ceil(3 * std::max(0.0, blur_px)) + 1;
        double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
        for (int i = 0; i < total; i++) {
            x0 = std::min(x0, xy[2 * i]), x1 = std::max(x1, xy[2 * i]);
            y0 = std::min(y0, xy[2 * i + 1]), y1 = std::max(y1, xy[2 * i + 1]);
        }
        int ix0 = std::max(0, (int)std::floor(x0) - pad), iy0 = std::max(0, (int)std::floor(y0) - pad);
        int ix1 = std::min(dst->width, (int)std::ceil(x1) + pad + 1);
        int iy1 = std::min(dst->height, (int)std::ceil(y1) + pad + 1);
        if (ix0 >= ix1 || iy0 >= iy1)
            return 0;
        cv::Rect roi(ix0, iy0, ix1 - ix0, iy1 - iy0);
        cv::Mat a8 = cv::Mat::zeros(roi.size(), CV_8U), a;
        for (int k = 0, at = 0; k < npolys; at += counts[k++]) {
            if (counts[k] < 3)
                continue;
            std::vector<cv::Point> pts(counts[k]);
            for (int i = 0; i < counts[k]; i++)
                pts[i] = cv::Point((int)std::lround((xy[2 * (at + i)] - ix0) * 16),
                                   (int)std::lround((xy[2 * (at + i) + 1] - iy0) * 16));
            std::vector<std::vector<cv::Point>> polys{pts};
            cv::fillPoly(a8, polys, cv::Scalar(255), cv::LINE_AA, 4);
        }
        a8.convertTo(a, CV_32F, 1.0 / 255);
        if (blur_px > 0.3)
            cv::GaussianBlur(a, a, cv::Size(0, 0), blur_px);
        cv::Mat view = cvs_view(dst)(roi);
        const int ch = dst->channels;
        for (int r = 0; r < roi.height; r++) {
            const float *w = a.ptr<float>(r);
            uint8_t *p = view.ptr<uint8_t>(r);
            for (int c = 0; c < roi.width; c++) {
                if (w[c] <= 0)
                    continue;
                const double k = 1 - (1 - factor) * w[c];
                for (int j = 0; j < ch; j++)
                    p[c * ch + j] = (uint8_t)std::lround(p[c * ch + j] * k);
            }
        }
        return 0;
    }
    CATCH_ALL("drawing a shadow")
}

extern "C" base_image *cvs_render_colourise(const base_image *gray, cvs_colour lo, cvs_colour hi, base_error *err)
{
    base_image *out = gray && gray->channels == 1 ? base_image_new(gray->width, gray->height, 3, 0) : NULL;
    if (!out) {
        base_error_set(err, gray ? "colourise: out of memory" : "colourise: needs a 1-channel image");
        return NULL;
    }
    uint8_t lut[256][3];
    for (int v = 0; v < 256; v++) {
        lut[v][0] = (uint8_t)std::lround(lo.b + (hi.b - lo.b) * v / 255.0);
        lut[v][1] = (uint8_t)std::lround(lo.g + (hi.g - lo.g) * v / 255.0);
        lut[v][2] = (uint8_t)std::lround(lo.r + (hi.r - lo.r) * v / 255.0);
    }
    for (int r = 0; r < gray->height; r++) {
        const uint8_t *s = gray->data + r * gray->stride;
        uint8_t *d = out->data + r * out->stride;
        for (int c = 0; c < gray->width; c++)
            memcpy(d + 3 * c, lut[s[c]], 3);
    }
    return out;
}

/*
 * The noise texture's enlargement, the same bits on every machine. cv::resize of a float image is not: on
 * aarch64 its vector code and Debian's scalar build of it fuse a*b+c into one rounding (fmla/fmadd), on
 * x86-64 (SSE, no FMA) they round twice, and one last bit in a thousand turns a texture byte to the next
 * value (hard tables 1 and 3 and minis 3 drew another board on arm64). This computes what OpenCV 4.6's
 * resize computes on x86-64 for a one-channel float image made larger, INTER_LINEAR or INTER_CUBIC (its
 * coefficients, its clamped borders, its sums in its order: the vertical cubic's 4-lane vector part
 * S0*b0 + (S1*b1 + (S2*b2 + S3*b3)), its leftover columns left to right), and the project builds with
 * -ffp-contract=off: the x86-64 textures are byte for byte cv::resize's (checked on 120 random sizes), arm64's
 * the same (scripts/arm64-generate-hash.sh; tests/test_render_sensor.c states a texture's hash).
 */
struct resize_taps {
    std::vector<int> ofs;     /* the first source index of each output pixel's taps (before the clamp) */
    std::vector<float> coef;  /* taps coefficients, ks per output pixel */
    int lo = 0, hi = 0;       /* outputs [lo, hi) need no clamped tap (horizontal pass) */
};

static void cubic_coeffs(float x, float *c)
{
    const float A = -0.75f;
    c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
    c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = 1.f - c[0] - c[1] - c[2];
}

/* OpenCV's taps along one axis: src pixels to out pixels. `clamp_linear`: its horizontal linear pass moves the
 * taps of an output beyond the border onto the edge pixel (its vertical pass clamps the rows instead). */
static resize_taps taps_of(int src, int out, bool cubic, bool clamp_linear)
{
    resize_taps t;
    const int ks = cubic ? 4 : 2, ks2 = ks / 2;
    const double scale = 1. / ((double)out / src);
    t.ofs.resize(out);
    t.coef.resize((size_t)out * ks);
    t.hi = out;
    for (int d = 0; d < out; d++) {
        float f = (float)((d + 0.5) * scale - 0.5);
        int s = cvFloor(f);
        f -= s;
        if (s < ks2 - 1) {
            t.lo = d + 1;
            if (s < 0 && !cubic && clamp_linear)
                f = 0, s = 0;
        }
        if (s + ks2 >= src) {
            t.hi = std::min(t.hi, d);
            if (s >= src - 1 && !cubic && clamp_linear)
                f = 0, s = src - 1;
        }
        t.ofs[d] = s;
        if (cubic)
            cubic_coeffs(f, &t.coef[(size_t)d * 4]);
        else
            t.coef[(size_t)d * 2] = 1.f - f, t.coef[(size_t)d * 2 + 1] = f;
    }
    return t;
}

/* One source row through the horizontal taps. */
static void resize_row(const float *S, int sw, const resize_taps &t, bool cubic, float *D, int W)
{
    for (int dx = 0; dx < W; dx++) {
        const float *a = &t.coef[(size_t)dx * (cubic ? 4 : 2)];
        const int sx = t.ofs[dx];
        if (!cubic) {
            D[dx] = dx < t.hi ? S[sx] * a[0] + S[sx + 1] * a[1] : S[sx] * 1.f;
        } else if (dx < t.lo || dx >= t.hi) {
            float v = 0;
            for (int j = 0; j < 4; j++)
                v += S[std::min(std::max(sx - 1 + j, 0), sw - 1)] * a[j];
            D[dx] = v;
        } else {
            D[dx] = S[sx - 1] * a[0] + S[sx] * a[1] + S[sx + 1] * a[2] + S[sx + 2] * a[3];
        }
    }
}

/* cv::resize(src, dst, {W, H}, 0, 0, cubic ? INTER_CUBIC : INTER_LINEAR) for a larger 1-channel float image. */
static cv::Mat resize_up_same_bits(const cv::Mat &src, int W, int H, bool cubic)
{
    const int sw = src.cols, sh = src.rows, ks = cubic ? 4 : 2;
    const resize_taps tx = taps_of(sw, W, cubic, true), ty = taps_of(sh, H, cubic, false);
    cv::Mat rows(sh, W, CV_32F), dst(H, W, CV_32F);
    for (int r = 0; r < sh; r++)
        resize_row(src.ptr<float>(r), sw, tx, cubic, rows.ptr<float>(r), W);
    const int lanes = W / 4 * 4; /* the columns OpenCV's 4-lane vector loop sums */
    for (int dy = 0; dy < H; dy++) {
        const float *R[4];
        for (int k = 0; k < ks; k++)
            R[k] = rows.ptr<float>(std::min(std::max(ty.ofs[dy] - ks / 2 + 1 + k, 0), sh - 1));
        const float *b = &ty.coef[(size_t)dy * ks];
        float *d = dst.ptr<float>(dy);
        int x = 0;
        if (!cubic) {
            for (; x < W; x++)
                d[x] = R[0][x] * b[0] + R[1][x] * b[1];
            continue;
        }
        for (; x < lanes; x++)
            d[x] = R[0][x] * b[0] + (R[1][x] * b[1] + (R[2][x] * b[2] + R[3][x] * b[3]));
        for (; x < W; x++)
            d[x] = R[0][x] * b[0] + R[1][x] * b[1] + R[2][x] * b[2] + R[3][x] * b[3];
    }
    return dst;
}

extern "C" base_image *cvs_render_noise_texture(int width, int height, uint32_t seed, double base, double amp,
                                               double scale, base_error *err)
{
    try {
        cv::RNG rng(seed ? seed : 1);
        int sw = std::max(2, (int)(width / scale)), sh = std::max(2, (int)(height / scale));
        cv::Mat coarse(sh, sw, CV_32F), mid(std::max(2, sh * 4), std::max(2, sw * 4), CV_32F);
        rng.fill(coarse, cv::RNG::UNIFORM, -1.0, 1.0);
        rng.fill(mid, cv::RNG::UNIFORM, -1.0, 1.0);
        cv::Mat a, b, fine(height, width, CV_32F);
        if (width >= mid.cols && height >= mid.rows) {
            a = resize_up_same_bits(coarse, width, height, true);
            b = resize_up_same_bits(mid, width, height, false);
        } else { /* a texture smaller than its noise (never drawn so): OpenCV's own, last bits per machine */
            cv::resize(coarse, a, cv::Size(width, height), 0, 0, cv::INTER_CUBIC);
            cv::resize(mid, b, cv::Size(width, height), 0, 0, cv::INTER_LINEAR);
        }
        rng.fill(fine, cv::RNG::NORMAL, 0.0, 0.15);
        cv::Mat t = a * 0.6 + b * 0.3 + fine;
        cv::Mat out;
        t.convertTo(out, CV_8U, amp, base);
        base_image *img = cvs_from_mat(out);
        if (!img)
            base_error_set(err, "out of memory");
        return img;
    } catch (const std::exception &e) {
        base_error_set(err, "noise texture: %s", e.what());
    } catch (...) {
        base_error_set(err, "noise texture failed");
    }
    return nullptr;
}

/*
 * Inverse of OpenCV's 5-coefficient distortion by Newton's method: finds the
 * ideal normalised point (x, y) whose distorted image is (xd, yd). Starts
 * from (x, y) as given (the neighbour's solution), so 2-3 steps suffice.
 */
static void undistort_newton(const double *k, double xd, double yd, double &x, double &y)
{
    for (int it = 0; it < 20; it++) {
        double r2 = x * x + y * y;
        double rad = 1 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]));
        double drad = k[0] + r2 * (2 * k[1] + 3 * r2 * k[4]); // d rad / d r2
        double fx = x * rad + 2 * k[2] * x * y + k[3] * (r2 + 2 * x * x) - xd;
        double fy = y * rad + k[2] * (r2 + 2 * y * y) + 2 * k[3] * x * y - yd;
        double a = rad + 2 * x * x * drad + 2 * k[2] * y + 6 * k[3] * x;
        double b = 2 * x * y * drad + 2 * k[2] * x + 2 * k[3] * y;
        double c = 2 * x * y * drad + 2 * k[2] * x + 2 * k[3] * y;
        double d = rad + 2 * y * y * drad + 6 * k[2] * y + 2 * k[3] * x;
        double det = a * d - b * c;
        if (std::fabs(det) < 1e-12)
            break;
        double dx = (d * fx - b * fy) / det, dy = (a * fy - c * fx) / det;
        x -= dx;
        y -= dy;
        if (std::fabs(dx) + std::fabs(dy) < 1e-12)
            break;
    }
}

extern "C" int cvs_render_distort(const base_image *ideal, const double ideal_k[4], const cvs_lens *lens, int ss,
                                  base_image *out, base_error *err)
{
    try {
        if (ss < 1 || ideal->channels != out->channels)
            return base_error_set(err, "distort: bad arguments");
        const int strip = 32; // output rows per strip: bounds the map memory
        const int W = out->width * ss;
        cv::Mat src = cvs_view(ideal);
        for (int r0 = 0; r0 < out->height; r0 += strip) {
            int rows = std::min(strip, out->height - r0);
            cv::Mat mx(rows * ss, W, CV_32F), my(rows * ss, W, CV_32F);
            double x = 0, y = 0;
            for (int i = 0; i < rows * ss; i++) {
                double vf = r0 + (i + 0.5) / ss - 0.5;
                float *px = mx.ptr<float>(i), *py = my.ptr<float>(i);
                double yd = (vf - lens->cy) / lens->fy;
                x = (-0.5 - lens->cx) / lens->fx;
                y = yd;
                for (int j = 0; j < W; j++) {
                    double uf = (j + 0.5) / ss - 0.5;
                    double xd = (uf - lens->cx) / lens->fx;
                    undistort_newton(lens->dist, xd, yd, x, y);
                    px[j] = (float)(ideal_k[0] * x + ideal_k[2]);
                    py[j] = (float)(ideal_k[1] * y + ideal_k[3]);
                }
            }
            cv::Mat hi;
            cv::remap(src, hi, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
            cv::Mat dst = cvs_view(out)(cv::Rect(0, r0, out->width, rows));
            if (ss == 1)
                hi.copyTo(dst);
            else
                cv::resize(hi, dst, dst.size(), 0, 0, cv::INTER_AREA);
        }
        return 0;
    }
    CATCH_ALL("lens distortion")
}

extern "C" int cvs_render_effects(base_image *img, const cvs_effects *fx, base_error *err)
{
    try {
        cv::Mat m = cvs_view(img);
        cv::Mat f;
        m.convertTo(f, CV_32F);
        const double cx = img->width * 0.5, cy = img->height * 0.5;
        const double diag = std::hypot(cx, cy);
        if (fx->light_gradient != 0 || fx->vignetting != 0) {
            const double ca = std::cos(fx->light_angle), sa = std::sin(fx->light_angle);
            for (int r = 0; r < f.rows; r++) {
                float *p = f.ptr<float>(r);
                for (int c = 0; c < f.cols; c++) {
                    double dx = c - cx, dy = r - cy;
                    double g = 1 + 0.5 * fx->light_gradient * (dx * ca + dy * sa) / diag;
                    double rr = (dx * dx + dy * dy) / (diag * diag);
                    double v = 1 - fx->vignetting * rr;
                    p[c] = (float)(p[c] * g * v);
                }
            }
        }
        if (fx->blur_sigma_px > 0)
            cv::GaussianBlur(f, f, cv::Size(0, 0), fx->blur_sigma_px);
        if (fx->noise_sigma > 0) {
            cv::RNG rng(fx->seed ? fx->seed : 1);
            cv::Mat n(f.size(), CV_32F);
            rng.fill(n, cv::RNG::NORMAL, 0.0, 1.0);
            // Shot noise: sigma grows with the square root of the signal.
            cv::Mat s;
            cv::sqrt(cv::max(f, 1.0f) / 128.0f, s);
            f += n.mul(s) * fx->noise_sigma;
        }
        f.convertTo(m, CV_8U);
        if (fx->jpeg_quality > 0)
            return media_image_jpeg_roundtrip(img, fx->jpeg_quality, err);
        return 0;
    }
    CATCH_ALL("camera effects")
}

// The polygon (xy: n points, pixels) filled (255) in its bounding box
// clipped to a width x height picture: *roi that box, the return the
// polygon's pixel count (0 when nothing of it is inside the picture).
static double polygon_in_box(int width, int height, const double *xy, int n, cv::Rect *roi, cv::Mat *poly)
{
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (int i = 0; i < n; i++) {
        x0 = std::min(x0, xy[2 * i]), x1 = std::max(x1, xy[2 * i]);
        y0 = std::min(y0, xy[2 * i + 1]), y1 = std::max(y1, xy[2 * i + 1]);
    }
    int ix0 = std::max(0, (int)std::floor(x0)), iy0 = std::max(0, (int)std::floor(y0));
    int ix1 = std::min(width, (int)std::ceil(x1) + 1), iy1 = std::min(height, (int)std::ceil(y1) + 1);
    if (ix0 >= ix1 || iy0 >= iy1)
        return 0;
    *roi = cv::Rect(ix0, iy0, ix1 - ix0, iy1 - iy0);
    *poly = cv::Mat::zeros(roi->size(), CV_8UC1);
    std::vector<cv::Point> pts(n);
    for (int i = 0; i < n; i++)
        pts[i] = cv::Point((int)std::lround((xy[2 * i] - ix0) * 16), (int)std::lround((xy[2 * i + 1] - iy0) * 16));
    std::vector<std::vector<cv::Point>> polys{pts};
    cv::fillPoly(*poly, polys, cv::Scalar(255), cv::LINE_8, 4);
    return cv::countNonZero(*poly);
}

extern "C" double cvs_render_coverage(const base_image *mask, const double *xy, int n)
{
    try {
        cv::Rect roi;
        cv::Mat poly;
        double inside = polygon_in_box(mask->width, mask->height, xy, n, &roi, &poly);
        if (inside == 0)
            return 0;
        cv::Mat hit;
        cv::bitwise_and(poly, cvs_view(mask)(roi), hit);
        return cv::countNonZero(hit) / inside;
    } catch (...) {
        return 1.0; // treat as hidden: a truth file must never claim a tag it could not check
    }
}

extern "C" void cvs_render_coverage2(const base_image *a, const base_image *b, const double *xy, int n, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    try {
        cv::Rect roi;
        cv::Mat poly;
        double inside = polygon_in_box(a->width, a->height, xy, n, &roi, &poly);
        if (inside == 0)
            return;
        cv::Mat ha, hb, hu;
        cv::bitwise_and(poly, cvs_view(a)(roi), ha);
        cv::bitwise_and(poly, cvs_view(b)(roi), hb);
        cv::bitwise_or(ha, hb, hu);
        out[0] = cv::countNonZero(ha) / inside;
        out[1] = cv::countNonZero(hb) / inside;
        out[2] = cv::countNonZero(hu) / inside;
    } catch (...) {
        out[0] = out[1] = out[2] = 1.0; // treat as hidden: a truth file must never claim a tag it could not check
    }
}
