// The camera's sensor and image processor for the synthetic-table renderer:
// linear light -> RGGB mosaic with shot and read noise -> ADC -> demosaic ->
// white balance -> sRGB gamma -> sharpening -> 8-bit BGR; then the JPEG.
// See cvshim.h ("The camera's sensor and image processor") for the model.
#include <algorithm>
#include <cmath>
#include <exception>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cvshim.h"
#include "cvshim_internal.hpp"
#include "media.h"

extern "C" void cvs_sensor_default(cvs_sensor *s)
{
    *s = cvs_sensor{};
    s->light_gradient = 0.25;
    s->light_angle = 0.7;
    s->vignetting = 0.3;
    s->blur_centre_px = 0.55;
    s->blur_corner_px = 0.95;
    /* Warm indoor light: white balance lifts red a little and blue a lot,
     * and with them those channels' noise. */
    s->illuminant[0] = 0.85, s->illuminant[1] = 1.0, s->illuminant[2] = 0.6;
    /* IMX477: 1.55 um photosites, ~8000 e- full well. Indoors at 1/60 s the
     * white paper of a tag collects about a sixth of it. */
    s->white_electrons = 1400;
    s->read_noise_e = 3.0;
    s->adc_bits = 12;
    s->black_level_dn = 256;
    s->exposure = 0.92;
    s->sharpen = 0.35;
    s->seed = 1;
}

static double srgb_to_linear(double v)
{
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb(double v)
{
    v = std::min(1.0, std::max(0.0, v));
    return v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055;
}

/* Row r of linear light, times the illumination the projector adds there (cvs_sensor's light). */
static void add_projected_light(float *q, const cvs_sensor *s, int r, const float lut[256])
{
    const base_image *L = s->light;
    const uint8_t *l = L->data + r * L->stride;
    const float black = (float)s->light_black, ratio = (float)s->light_ratio;
    for (int c = 0; c < L->width; c++)
        for (int j = 0; j < 3; j++) {
            const float v = lut[l[L->channels == 3 ? 3 * c + j : c]];
            q[3 * c + j] *= 1 + ratio * (black + (1 - black) * v);
        }
}

/* Linear light per channel (B, G, R order), with the light field and the illuminant applied. */
static cv::Mat linear_light(const base_image *optical, const cvs_sensor *s)
{
    float lut[256];
    for (int v = 0; v < 256; v++)
        lut[v] = (float)srgb_to_linear(v / 255.0);
    const int W = optical->width, H = optical->height;
    const double cx = (W - 1) * 0.5, cy = (H - 1) * 0.5, diag = std::hypot(cx, cy);
    const double ca = std::cos(s->light_angle), sa = std::sin(s->light_angle);
    const float ill[3] = {(float)s->illuminant[2], (float)s->illuminant[1], (float)s->illuminant[0]};
    cv::Mat lin(H, W, CV_32FC3);
    for (int r = 0; r < H; r++) {
        const uint8_t *p = optical->data + r * optical->stride;
        float *q = lin.ptr<float>(r);
        for (int c = 0; c < W; c++) {
            const double dx = c - cx, dy = r - cy;
            const double g = 1 + 0.5 * s->light_gradient * (dx * ca + dy * sa) / diag;
            const double v = 1 - s->vignetting * (dx * dx + dy * dy) / (diag * diag);
            const float k = (float)(g * v);
            for (int j = 0; j < 3; j++)
                q[3 * c + j] = lut[p[3 * c + j]] * k * ill[j];
        }
        if (s->light)
            add_projected_light(q, s, r, lut);
    }
    return lin;
}

/* The lens's blur, sharper at the centre: a blend of two Gaussians by the squared radius. */
static void lens_blur(cv::Mat &lin, const cvs_sensor *s)
{
    if (s->blur_centre_px <= 0 && s->blur_corner_px <= 0)
        return;
    cv::Mat a, b;
    if (s->blur_centre_px > 0)
        cv::GaussianBlur(lin, a, cv::Size(0, 0), s->blur_centre_px);
    else
        a = lin.clone();
    if (std::fabs(s->blur_corner_px - s->blur_centre_px) < 1e-9) {
        lin = a;
        return;
    }
    if (s->blur_corner_px > 0)
        cv::GaussianBlur(lin, b, cv::Size(0, 0), s->blur_corner_px);
    else
        b = lin.clone();
    const double cx = (lin.cols - 1) * 0.5, cy = (lin.rows - 1) * 0.5, d2 = cx * cx + cy * cy;
    for (int r = 0; r < lin.rows; r++) {
        const float *pa = a.ptr<float>(r), *pb = b.ptr<float>(r);
        float *q = lin.ptr<float>(r);
        for (int c = 0; c < lin.cols; c++) {
            const float t = (float)(((c - cx) * (c - cx) + (r - cy) * (r - cy)) / d2);
            for (int j = 0; j < 3; j++)
                q[3 * c + j] = pa[3 * c + j] + t * (pb[3 * c + j] - pa[3 * c + j]);
        }
    }
}

/*
 * RGGB mosaic (R at even row, even column), photo-electrons with noise, ADC.
 * Returns the raw frame, black level already subtracted and clipped at 0 (as
 * the ISP does), scaled to 16 bits for the demosaicer.
 */
static cv::Mat capture_raw(const cv::Mat &lin, const cvs_sensor *s, double *dn_white)
{
    const int bits = s->adc_bits >= 8 && s->adc_bits <= 16 ? s->adc_bits : 12;
    const double full = std::ldexp(1.0, bits) - 1;
    /* The ADC's range: the white level sits at 85% of what is left above black. */
    const double e_per_dn = s->white_electrons / (0.85 * (full - s->black_level_dn));
    const double scale16 = std::ldexp(1.0, 16 - bits);
    *dn_white = s->white_electrons / e_per_dn;
    cv::RNG rng(s->seed ? s->seed : 1);
    cv::Mat noise(lin.rows, lin.cols, CV_32F);
    rng.fill(noise, cv::RNG::NORMAL, 0.0, 1.0);
    cv::Mat raw(lin.rows, lin.cols, CV_16U);
    const double read2 = s->read_noise_e * s->read_noise_e;
    for (int r = 0; r < lin.rows; r++) {
        const float *p = lin.ptr<float>(r), *n = noise.ptr<float>(r);
        uint16_t *q = raw.ptr<uint16_t>(r);
        for (int c = 0; c < lin.cols; c++) {
            /* BGR index of the filter over this photosite: R G / G B. */
            const int j = (r & 1) == 0 ? ((c & 1) == 0 ? 2 : 1) : ((c & 1) == 0 ? 1 : 0);
            const double e = std::max(0.0, (double)p[3 * c + j] * s->white_electrons);
            /* Shot noise (Poisson, variance = signal) and read noise, as a Gaussian of both. */
            const double got = e + n[c] * std::sqrt(e + read2);
            double dn = std::floor(got / e_per_dn + s->black_level_dn + 0.5);
            dn = std::min(full, std::max(0.0, dn)) - s->black_level_dn;
            q[c] = (uint16_t)std::min(65535.0, std::max(0.0, dn) * scale16);
        }
    }
    *dn_white *= scale16;
    return raw;
}

extern "C" int cvs_render_sensor(const base_image *optical, const cvs_sensor *s, base_image *out, base_error *err)
{
    try {
        if (!optical || !out || optical->channels != 3 || out->channels != 3 || optical->width != out->width ||
            optical->height != out->height || (optical->width & 1) || (optical->height & 1))
            return base_error_set(err, "sensor: needs two 3-channel images of the same even size");
        if (s->light && (s->light->width != optical->width || s->light->height != optical->height ||
                         (s->light->channels != 1 && s->light->channels != 3)))
            return base_error_set(err, "sensor: the projector's light is %dx%d, the picture %dx%d", s->light->width,
                                  s->light->height, optical->width, optical->height);
        cv::Mat lin = linear_light(optical, s);
        lens_blur(lin, s);
        double dn_white = 1;
        cv::Mat raw = capture_raw(lin, s, &dn_white);
        lin.release();
        /* OpenCV names Bayer patterns from the second row: its "BG" is RGGB. */
        cv::Mat rgb16;
        cv::demosaicing(raw, rgb16, cv::COLOR_BayerBG2BGR_EA);
        raw.release();
        /* White balance and exposure in one gain per channel, then the sRGB curve. */
        const double gain[3] = {s->exposure / (dn_white * s->illuminant[2]), s->exposure / (dn_white * s->illuminant[1]),
                                s->exposure / (dn_white * s->illuminant[0])};
        std::vector<float> curve(4097);
        for (int i = 0; i <= 4096; i++)
            curve[i] = (float)(255.0 * linear_to_srgb(i / 4096.0));
        cv::Mat srgb(rgb16.rows, rgb16.cols, CV_32FC3);
        for (int r = 0; r < rgb16.rows; r++) {
            const uint16_t *p = rgb16.ptr<uint16_t>(r);
            float *q = srgb.ptr<float>(r);
            for (int c = 0; c < 3 * rgb16.cols; c++) {
                const double v = std::min(1.0, p[c] * gain[c % 3]) * 4096;
                const int i = (int)v;
                const float f = (float)(v - i);
                q[c] = i >= 4096 ? curve[4096] : curve[i] + f * (curve[i + 1] - curve[i]);
            }
        }
        rgb16.release();
        if (s->sharpen > 0) {
            cv::Mat soft;
            cv::GaussianBlur(srgb, soft, cv::Size(0, 0), 1.0);
            cv::addWeighted(srgb, 1 + s->sharpen, soft, -s->sharpen, 0, srgb);
        }
        srgb.convertTo(cvs_view(out), CV_8U);  /* rounds and saturates */
        return 0;
    } catch (const std::exception &e) {
        return base_error_set(err, "sensor: %s", e.what());
    } catch (...) {
        return base_error_set(err, "sensor: unknown failure");
    }
}

extern "C" int cvs_render_jpeg_gray(base_image *bgr, int quality, base_image *gray, base_error *err)
{
    try {
        if (!bgr || !gray || bgr->channels != 3 || gray->channels != 1 || bgr->width != gray->width ||
            bgr->height != gray->height)
            return base_error_set(err, "camera JPEG: needs a 3-channel image and a 1-channel one of its size");
        if (quality <= 0) {
            cv::cvtColor(cvs_view(bgr), cvs_view(gray), cv::COLOR_BGR2GRAY);
            return 0;
        }
        /* TurboJPEG with 4:2:0 chroma, as cameras write; gray is the stored Y plane. */
        const base_view v = {bgr->width, bgr->height, 3, bgr->stride, bgr->data};
        if (media_jpeg_roundtrip(&v, std::min(100, quality), bgr->data, bgr->stride, gray->data, gray->stride, err) < 0) {
            base_error_prefix(err, "camera JPEG");
            return -1;
        }
        return 0;
    } catch (const std::exception &e) {
        return base_error_set(err, "camera JPEG: %s", e.what());
    } catch (...) {
        return base_error_set(err, "camera JPEG: unknown failure");
    }
}
