#include "ds_exposure.h"
#include "ds_math.h"

#include <math.h>
#include <stdlib.h>

#define STEP 4
#define CURVE_N 4096

static double srgb_to_linear(double v) { return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4); }

static double linear_to_srgb(double v)
{
    v = fmin(1.0, fmax(0.0, v));
    return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
}

/* The weighted mean 8-bit luma at exposure e, samples given as white-balanced linear B, G, R triples. */
static double mean_luma(const float *lin, const float *weight, size_t n, double e, const float *curve)
{
    static const double w[3] = {0.114, 0.587, 0.299};
    double sum = 0, wsum = 0;
    for (size_t i = 0; i < n; i++) {
        double y = 0;
        for (int j = 0; j < 3; j++) {
            const double v = fmin(1.0, lin[3 * i + j] * e) * (CURVE_N - 1);
            y += w[j] * curve[(int)(v + 0.5)];
        }
        sum += weight[i] * y, wsum += weight[i];
    }
    return wsum > 0 ? sum / wsum : 0;
}

double ds_exposure_meter(const base_image *optics, const cvs_sensor *s, double target_luma)
{
    if (!optics || optics->channels != 3 || !(target_luma >= 1 && target_luma <= 254))
        return s->exposure;
    const int W = optics->width, H = optics->height;
    const size_t n = (size_t)((W + STEP - 1) / STEP) * (size_t)((H + STEP - 1) / STEP);
    float *lin = malloc(3 * n * sizeof *lin), *weight = malloc(n * sizeof *weight);
    float *curve = malloc(CURVE_N * sizeof *curve);
    if (!lin || !weight || !curve) {
        free(lin), free(weight), free(curve);
        return s->exposure;
    }
    float lut[256];
    for (int v = 0; v < 256; v++)
        lut[v] = (float)srgb_to_linear(v / 255.0);
    for (int i = 0; i < CURVE_N; i++)
        curve[i] = (float)(255 * linear_to_srgb(i / (double)(CURVE_N - 1)));
    /* The sensor's light field as cvs_render_sensor applies it; white balance divides the illuminant out. */
    const double cx = (W - 1) * 0.5, cy = (H - 1) * 0.5, diag = ds_hypot(cx, cy);
    const double ca = cos(s->light_angle), sa = sin(s->light_angle);
    size_t k = 0;
    for (int r = 0; r < H; r += STEP)
        for (int c = 0; c < W; c += STEP, k++) {
            const double dx = c - cx, dy = r - cy;
            const double field = (1 + 0.5 * s->light_gradient * (dx * ca + dy * sa) / diag) *
                                 (1 - s->vignetting * (dx * dx + dy * dy) / (diag * diag));
            const uint8_t *p = optics->data + (size_t)r * optics->stride + 3 * (size_t)c;
            for (int j = 0; j < 3; j++)
                lin[3 * k + j] = (float)(lut[p[j]] * field);
            /* Centre-weighted: the centre counts three times as much as the corners. */
            weight[k] = (float)(3 - 2 * (dx * dx + dy * dy) / (diag * diag));
        }
    /* Mean luma grows with exposure: bisect in log exposure. */
    double lo = log(DS_EXPOSURE_MIN), hi = log(DS_EXPOSURE_MAX);
    if (mean_luma(lin, weight, n, DS_EXPOSURE_MAX, curve) <= target_luma)
        lo = hi;
    else if (mean_luma(lin, weight, n, DS_EXPOSURE_MIN, curve) >= target_luma)
        hi = lo;
    for (int it = 0; it < 30 && hi - lo > 1e-4; it++) {
        const double mid = 0.5 * (lo + hi);
        if (mean_luma(lin, weight, n, exp(mid), curve) < target_luma)
            lo = mid;
        else
            hi = mid;
    }
    free(lin);
    free(weight);
    free(curve);
    return exp(0.5 * (lo + hi));
}
