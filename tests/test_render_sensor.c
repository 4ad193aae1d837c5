/*
 * The renderer's camera chain (cvshim.h, "sensor"): the sRGB curve, white
 * balance, shot and read noise in electrons, the RGGB mosaic and its
 * demosaicing, and the JPEG's luma. Flat fields and edges of 128x128 px
 * with known answers; tolerances stated per test.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "cvshim.h"

static double srgb_to_linear(double v) { return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4); }
static double linear_to_srgb(double v)
{
    v = fmin(1, fmax(0, v));
    return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
}

/* A sensor with every effect off and practically no noise: what remains is the mosaic and the curves. */
static cvs_sensor clean_sensor(void)
{
    cvs_sensor s;
    cvs_sensor_default(&s);
    s.light_gradient = 0, s.vignetting = 0;
    s.blur_centre_px = 0, s.blur_corner_px = 0;
    s.illuminant[0] = s.illuminant[1] = s.illuminant[2] = 1;
    s.white_electrons = 1e12, s.read_noise_e = 0;
    s.adc_bits = 16, s.black_level_dn = 0;
    s.exposure = 1, s.sharpen = 0;
    return s;
}

static base_image *flat(int w, int h, int r, int g, int b)
{
    base_image *img = base_image_new(w, h, 3, 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = img->data + y * img->stride + 3 * x;
            p[0] = (uint8_t)b, p[1] = (uint8_t)g, p[2] = (uint8_t)r;
        }
    return img;
}

static base_image *capture(const base_image *optical, const cvs_sensor *s)
{
    base_error err;
    base_image *out = base_image_new(optical->width, optical->height, 3, 0);
    cr_assert_eq(cvs_render_sensor(optical, s, out, &err), 0, "%s", err.msg);
    return out;
}

/*
 * A flat grey comes out through linear light and back along the sRGB curve:
 * at exposure 1 the same value, at exposure 0.92 sRGB(0.92 * linear(v));
 * every interior pixel within 1 level.
 */
Test(render_sensor, flat_grey_follows_the_srgb_curve)
{
    const int levels[] = {20, 60, 128, 200, 240};
    const double exposures[] = {1.0, 0.92};
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < 5; i++) {
            cvs_sensor s = clean_sensor();
            s.exposure = exposures[e];
            base_image *in = flat(64, 64, levels[i], levels[i], levels[i]), *out = capture(in, &s);
            const double want = 255 * linear_to_srgb(exposures[e] * srgb_to_linear(levels[i] / 255.0));
            for (int y = 4; y < 60; y++)
                for (int x = 4; x < 60; x++)
                    for (int c = 0; c < 3; c++) {
                        const int got = out->data[y * out->stride + 3 * x + c];
                        cr_assert(fabs(got - want) <= 1.0, "level %d exposure %.2f: got %d, want %.2f", levels[i],
                                  exposures[e], got, want);
                    }
            base_image_free(in);
            base_image_free(out);
        }
}

/* Under a warm light (r 0.85, g 1, b 0.6) white balance gives a painted red back: each channel within 1 level. */
Test(render_sensor, white_balance_gives_colours_back)
{
    cvs_sensor s = clean_sensor();
    s.illuminant[0] = 0.85, s.illuminant[1] = 1, s.illuminant[2] = 0.6;
    base_image *in = flat(64, 64, 200, 40, 60), *out = capture(in, &s);
    const uint8_t *p = out->data + 32 * out->stride + 3 * 32;
    cr_expect(abs(p[2] - 200) <= 1 && abs(p[1] - 40) <= 1 && abs(p[0] - 60) <= 1, "got r %d g %d b %d", p[2], p[1],
              p[0]);
    base_image_free(in);
    base_image_free(out);
}

/*
 * Shot and read noise in electrons: at the green photosites (even rows, odd
 * columns, kept as measured by the demosaicer) the signal taken back
 * through the sRGB curve has variance mean + read^2 (Poisson plus read
 * noise): 280 + 9 at linear 0.2, 28 + 9 at linear 0.02, within 8% and 12%
 * (10,000 samples; 8-bit output adds < 1%).
 */
Test(render_sensor, noise_is_shot_plus_read_noise_in_electrons)
{
    const double lin[2] = {0.2, 0.02}, tol[2] = {0.08, 0.12};
    for (int k = 0; k < 2; k++) {
        cvs_sensor s = clean_sensor();
        s.white_electrons = 1400, s.read_noise_e = 3, s.adc_bits = 12, s.black_level_dn = 256;
        s.seed = 7 + k;
        /* The optical level whose linear value is closest to lin[k]; its own linear value is the truth. */
        const int v = (int)lround(255 * linear_to_srgb(lin[k]));
        const double mean_e = srgb_to_linear(v / 255.0) * s.white_electrons;
        base_image *in = flat(208, 208, v, v, v), *out = capture(in, &s);
        double sum = 0, sum2 = 0;
        int n = 0;
        for (int y = 4; y < 204; y += 2)
            for (int x = 5; x < 204; x += 2) {
                const double e = srgb_to_linear(out->data[y * out->stride + 3 * x + 1] / 255.0) * s.white_electrons;
                sum += e, sum2 += e * e, n++;
            }
        const double m = sum / n, var = sum2 / n - m * m, want = mean_e + 9;
        cr_expect(fabs(m - mean_e) / mean_e < 0.02, "mean %.2f e-, want %.2f", m, mean_e);
        cr_expect(fabs(var - want) / want < tol[k], "variance %.2f e-^2, want %.2f (n %d)", var, want, n);
        base_image_free(in);
        base_image_free(out);
    }
}

/*
 * The mosaic: a sharp black/white edge gets colour fringes once demosaiced
 * (a grey scene, yet at least 8 levels between channels next to the edge),
 * while flat grey away from it stays grey (channels within 1 level).
 */
Test(render_sensor, mosaic_fringes_edges_and_nothing_else)
{
    cvs_sensor s = clean_sensor();
    base_image *in = flat(64, 64, 30, 30, 30);
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++)
            if (x > y / 3 + 20)  /* a slanted edge crosses every phase of the mosaic */
                for (int c = 0; c < 3; c++)
                    in->data[y * in->stride + 3 * x + c] = 230;
    base_image *out = capture(in, &s);
    int fringe = 0, flat_worst = 0;
    for (int y = 4; y < 60; y++)
        for (int x = 4; x < 60; x++) {
            const uint8_t *p = out->data + y * out->stride + 3 * x;
            const int lo = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
            const int hi = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
            const double d = x - (y / 3.0 + 20);
            if (fabs(d) < 2)
                fringe = hi - lo > fringe ? hi - lo : fringe;
            else if (fabs(d) > 4)
                flat_worst = hi - lo > flat_worst ? hi - lo : flat_worst;
        }
    cr_expect_geq(fringe, 8, "colour fringe at the edge: %d levels", fringe);
    cr_expect_leq(flat_worst, 1, "flat grey stays grey: %d levels", flat_worst);
    base_image_free(in);
    base_image_free(out);
}

/*
 * The detector's picture is the JPEG's luma: without compression exactly
 * 0.299 R + 0.587 G + 0.114 B (within OpenCV's rounding, 1 level); at
 * quality 92 the luma of the decoded colour picture within 1.5 levels on
 * average (chroma subsampling moves colour, not luma).
 */
Test(render_sensor, gray_is_the_jpeg_luma)
{
    base_error err;
    base_image *bgr = base_image_new(96, 96, 3, 0), *gray = base_image_new(96, 96, 1, 0);
    for (int y = 0; y < 96; y++)
        for (int x = 0; x < 96; x++) {
            uint8_t *p = bgr->data + y * bgr->stride + 3 * x;
            p[0] = (uint8_t)(x * 2), p[1] = (uint8_t)(y * 2), p[2] = (uint8_t)((x + y) % 256);
        }
    cr_assert_eq(cvs_render_jpeg_gray(bgr, 0, gray, &err), 0, "%s", err.msg);
    for (int y = 0; y < 96; y++)
        for (int x = 0; x < 96; x++) {
            const uint8_t *p = bgr->data + y * bgr->stride + 3 * x;
            const double want = 0.299 * p[2] + 0.587 * p[1] + 0.114 * p[0];
            cr_assert(fabs(gray->data[y * gray->stride + x] - want) <= 1.0, "luma at %d,%d", x, y);
        }
    cr_assert_eq(cvs_render_jpeg_gray(bgr, 92, gray, &err), 0, "%s", err.msg);
    double sum = 0;
    for (int y = 0; y < 96; y++)
        for (int x = 0; x < 96; x++) {
            const uint8_t *p = bgr->data + y * bgr->stride + 3 * x;
            sum += fabs(gray->data[y * gray->stride + x] - (0.299 * p[2] + 0.587 * p[1] + 0.114 * p[0]));
        }
    cr_expect_leq(sum / (96 * 96), 1.5, "mean luma difference %.3f", sum / (96 * 96));
    base_image_free(bgr);
    base_image_free(gray);
}

/*
 * The board's noise texture is the same bits on x86-64 and arm64 (cvshim_render.cpp says why cv::resize of a
 * float image is not): a 1829x1219 texture, as the hard set's 12 MP board draws it, hashed row by row (FNV-1a
 * 64). The hash is x86-64's with OpenCV 4.6's cv::resize, the texture before it was computed apart; under
 * qemu-user arm64 cv::resize gave another (scripts/test-arm64.sh runs this suite there).
 */
Test(render_sensor, the_noise_texture_is_the_same_bits_on_every_machine)
{
    base_error err;
    base_image *t = cvs_render_noise_texture(1829, 1219, 101, 128, 90, 50, &err);
    cr_assert(t, "%s", err.msg);
    cr_assert_eq(t->channels, 1);
    uint64_t h = 1469598103934665603ull;
    for (int y = 0; y < t->height; y++)
        for (int x = 0; x < t->width; x++)
            h = (h ^ t->data[(size_t)y * t->stride + (size_t)x]) * 1099511628211ull;
    cr_expect_eq(h, 0x1af12d13a16f9868ull, "texture hash %016llx", (unsigned long long)h);
    base_image_free(t);
}
