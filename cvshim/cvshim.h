/*
 * cvshim: the one door to OpenCV. OpenCV 4 has no C API, so everything
 * tableref needs from it sits behind these C functions, implemented in C++
 * files split by concern (cvshim_image.cpp, cvshim_render.cpp,
 * cvshim_sensor.cpp, cvshim_geom.cpp, cvshim_calib.cpp). Only OpenCV's core,
 * imgproc and calib3d are linked. Pictures are base_image (base/); they are
 * read and written by media/, frames come from capture/. Every C++
 * exception is caught inside the shim and turned into a base_error
 * message; nothing here throws, prints or exits.
 *
 * How to use:
 *   base_error err;
 *   base_image *img = base_image_new(640, 480, 1, 0);   // pictures from files: media_image_load (media/media_image_read.h)
 *   if (!img) { fprintf(stderr, "out of memory\n"); return 2; }
 *   ... read img->data (row r starts at img->data + r * img->stride) ...
 *   media_image_save(img, "out.png", 0, &err);
 *   base_image_free(img);
 *
 * Pixel convention of every point in this header: OpenCV's, i.e. the centre
 * of the top-left pixel is (0, 0). apriltag's corners are +0.5 px from it.
 */
#ifndef CVSHIM_H
#define CVSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* base_error.h has no C++ guards of its own. */
#include "base_error.h"
#include "base_image.h"

/* ======================================================================
 * Images (cvshim_image.cpp)
 * ====================================================================== */

/* ======================================================================
 * Rendering primitives for the synthetic-table renderer (cvshim_render.cpp)
 * Drawing is on 1-channel images (values 0..255) unless said otherwise;
 * warping and distortion also take 3-channel images (channels must match).
 * ====================================================================== */

/*
 * Warps `tex` into `dst` through the homography H (row-major 3x3, texture
 * pixel -> dst pixel, both in this header's pixel convention). Only the
 * projected texture footprint is touched; INTER_LINEAR sampling. When `mask`
 * is non-NULL (same size as dst) the footprint is also set to `mask_value`
 * there.
 */
int cvs_render_warp(base_image *dst, const base_image *tex, const double H[9], base_image *mask,
                    uint8_t mask_value, base_error *err);
/* Fills a polygon (anti-aliased edges) with `value`; mask as above. */
int cvs_render_fill_poly(base_image *dst, const double *xy, int n, uint8_t value, base_image *mask,
                         uint8_t mask_value, base_error *err);
/* A thick anti-aliased line segment. */
int cvs_render_line(base_image *dst, double x0, double y0, double x1, double y1, double thickness,
                    uint8_t value, base_image *mask, uint8_t mask_value, base_error *err);
/*
 * Procedural texture: smooth value noise at `scale` px plus fine grain,
 * mean `base`, amplitude `amp`; the same seed gives the same texture.
 */
base_image *cvs_render_noise_texture(int width, int height, uint32_t seed, double base, double amp,
                                    double scale, base_error *err);

/* The lens: pinhole K (fx, fy, cx, cy) plus OpenCV's k1 k2 p1 p2 k3. */
typedef struct cvs_lens {
    double fx, fy, cx, cy;
    double dist[5];
} cvs_lens;

/*
 * Turns an ideal (distortion-free) pinhole picture into the camera's picture.
 * `ideal` was drawn with the pinhole `ideal_k` (fx, fy, cx, cy in ideal
 * pixels; it may be supersampled and padded); `out` (already allocated, its
 * size is the camera's) receives, for each of its pixels, the ideal picture
 * seen through `lens`, averaged over ss x ss sub-pixels.
 */
int cvs_render_distort(const base_image *ideal, const double ideal_k[4], const cvs_lens *lens, int ss,
                       base_image *out, base_error *err);

/* Camera effects, applied in this order; a zero field disables its effect. */
typedef struct cvs_effects {
    double light_gradient;   /* 0..1: relative brightness change across the frame */
    double light_angle;      /* rad: direction of the gradient */
    double vignetting;       /* 0..1: relative darkening at the far corner */
    double blur_sigma_px;    /* defocus, Gaussian sigma in pixels */
    double noise_sigma;      /* sensor noise, grey levels (1 sigma) at mid-grey */
    int jpeg_quality;        /* 1..100; 0 writes no JPEG artefacts */
    uint32_t seed;
} cvs_effects;
int cvs_render_effects(base_image *img, const cvs_effects *fx, base_error *err);
/* Fraction (0..1) of the polygon's pixels that are non-zero in `mask`; 0 for an empty polygon. */
double cvs_render_coverage(const base_image *mask, const double *xy, int n);
/* The same for two masks at once: out[0] share hidden in a, out[1] in b, out[2] in either. */
void cvs_render_coverage2(const base_image *a, const base_image *b, const double *xy, int n, double out[3]);

/*
 * Colour drawing (the hard-table renderer draws a colour scene). A colour is
 * given as r, g, b; on a 1-channel image its luma (0.299 r + 0.587 g +
 * 0.114 b, JPEG's Y) is drawn, so a grey r = g = b draws exactly that value.
 * 3-channel images are BGR, OpenCV's order.
 */
typedef struct cvs_colour {
    uint8_t r, g, b;
} cvs_colour;
int cvs_render_fill_poly_c(base_image *dst, const double *xy, int n, cvs_colour colour, base_image *mask,
                           uint8_t mask_value, base_error *err);
int cvs_render_line_c(base_image *dst, double x0, double y0, double x1, double y1, double thickness,
                      cvs_colour colour, base_image *mask, uint8_t mask_value, base_error *err);
/*
 * A soft shadow: multiplies dst by `factor` (0..1) inside the union of
 * `npolys` polygons (counts[i] points each, one after the other in xy), the
 * edge blurred with a Gaussian of `blur_px` (the penumbra). Never a mask.
 */
int cvs_render_shade_polys(base_image *dst, const double *xy, const int *counts, int npolys, double factor,
                           double blur_px, base_error *err);
/* Gray -> 3-channel: each pixel's value v (0..255) picks lo + (hi - lo) v / 255. */
base_image *cvs_render_colourise(const base_image *gray, cvs_colour lo, cvs_colour hi, base_error *err);

/* ======================================================================
 * The camera's sensor and image processor (cvshim_sensor.cpp): what turns
 * the light reaching the sensor into the JPEG a phone or a Raspberry Pi
 * camera writes. In this order:
 *   optics:  sRGB-coded scene -> linear light; light gradient and
 *            vignetting; the lens's blur (sharper at the centre);
 *   sensor:  an RGGB colour filter array (each photosite sees one colour),
 *            photo-electrons with shot noise (Poisson: variance = signal)
 *            and read noise, a 10/12-bit ADC with a black level;
 *   ISP:     black level off, demosaicing (OpenCV's edge-aware), white
 *            balance, exposure, the sRGB gamma curve, sharpening;
 *   output:  8-bit BGR; JPEG (4:2:0 chroma) is the caller's last step.
 * ====================================================================== */
typedef struct cvs_sensor {
    double light_gradient;    /* 0..1: relative brightness change across the frame */
    double light_angle;       /* rad: direction of the gradient */
    double vignetting;        /* 0..1: relative darkening at the far corner */
    double blur_centre_px;    /* the lens's blur, Gaussian sigma, at the frame centre */
    double blur_corner_px;    /* ... and at the corners (quadratic in between) */
    double illuminant[3];     /* r, g, b of the light (0..1; white balance divides it out) */
    double white_electrons;   /* photo-electrons of a white (linear 1) green photosite at the centre */
    double read_noise_e;      /* read noise, electrons rms */
    int adc_bits;             /* 10 or 12 */
    double black_level_dn;    /* ADC offset, DN (noise is kept below it, then clipped as an ISP does) */
    double exposure;          /* linear white maps to this before the gamma curve (auto-exposure headroom) */
    double sharpen;           /* unsharp-mask amount (0: none), radius 1 px */
    uint32_t seed;
    /* A projector's light on the scene (NULL: none): what the projector sends
     * to each pixel (the sensor's size, its channels or 1, sRGB-coded projector
     * values). The scene's light there is multiplied by
     * 1 + light_ratio * (light_black + (1 - light_black) * linear(value)):
     * light_ratio is projected white against the room's light, light_black
     * the projector's black as a share of its white. The exposure stays the
     * room's, so a bright enough projection clips. */
    const base_image *light;
    double light_ratio, light_black;
} cvs_sensor;
/* Realistic values for a Raspberry Pi HQ camera (IMX477) indoors. */
void cvs_sensor_default(cvs_sensor *s);
/*
 * `optical` (3-channel BGR, sRGB-coded light at the sensor) -> `out` (3-channel
 * BGR, same size, allocated by the caller). The same seed gives the same noise.
 */
int cvs_render_sensor(const base_image *optical, const cvs_sensor *s, base_image *out, base_error *err);
/*
 * The camera's JPEG: compresses `bgr` (3-channel) at `quality` with 4:2:0
 * chroma, writes the decoded picture back into `bgr` and its luma (what a
 * gray JPEG reader or a camera's Y plane gives) into `gray` (1-channel, same
 * size). quality 0: no compression, gray = luma of bgr.
 */
int cvs_render_jpeg_gray(base_image *bgr, int quality, base_image *gray, base_error *err);
/* Downsamples by an integer factor: each factor x factor block averaged (sub-pixel-exact centres) and rounded as
 * cv::resize's INTER_AREA rounds (to nearest; 2 x 2 halves up); the rows and columns past the last whole block
 * are dropped (3040 rows by 3: 1013 blocks, one row left over). */
base_image *cvs_image_downsample(const base_image *img, int factor, base_error *err);

/* ======================================================================
 * Geometry (cvshim_geom.cpp)
 * ====================================================================== */

/*
 * Camera pose from n >= 4 3D points (board mm) and their pixels through a
 * lens: X_cam = R * X_board + t. When `use_guess`, R and t hold the starting
 * pose on entry (iterative Levenberg-Marquardt from there). Returns 0, or -1
 * with a message.
 */
int cvs_solve_pnp(const double *obj_xyz, const double *img_xy, int n, const cvs_lens *lens, int use_guess,
                  double R[9], double t[3], base_error *err);

/* ======================================================================
 * Calibration (cvshim_calib.cpp): chessboard corners, calibrateCamera with
 * the intrinsics' full covariance, robust homographies, the projector window.
 * ====================================================================== */

/*
 * Finds a chessboard's cols x rows INNER corners (findChessboardCorners, then
 * cornerSubPix in an 11x11 window). xy receives 2*cols*rows numbers, row by
 * row as OpenCV orders them. Returns 1 found, 0 not found, -1 error.
 */
int cvs_find_chessboard(const base_image *img, int cols, int rows, double *xy, base_error *err);

/* Which parameters calibrateCamera may change (OR of these). */
enum {
    CVS_CALIB_FIX_ASPECT = 1,    /* fy / fx stays as given (OpenCV's CALIB_FIX_ASPECT_RATIO) */
    CVS_CALIB_ZERO_TANGENT = 2,  /* p1 = p2 = 0 */
    CVS_CALIB_FIX_K3 = 4,        /* k3 stays as given (usually 0: weak for normal lenses) */
    CVS_CALIB_NO_DISTORTION = 8, /* a pure pinhole: all five coefficients stay 0 */
    CVS_CALIB_USE_GUESS = 16,    /* start from the given fx fy cx cy */
};

/* The nine intrinsic parameters in this order: fx fy cx cy k1 k2 p1 p2 k3. */
#define CVS_CALIB_NPARAM 9

typedef struct cvs_calib_result {
    cvs_lens lens;
    double rms_px;                     /* OpenCV's RMS reprojection error over all points */
    double std[CVS_CALIB_NPARAM];      /* OpenCV's stdDeviationsIntrinsics (0 for fixed parameters;
                                          with FIX_ASPECT fx's, which OpenCV leaves 0, from cov) */
    /* Covariance of the nine parameters (row-major 9x9, px^2 etc.), from the
     * Jacobian of every reprojection with the views' poses eliminated (Schur
     * complement) and scaled by the residual variance (OpenCV's convention:
     * squared errors over points minus parameters). Its diagonal matches
     * `std` squared; its off-diagonal terms (fx with fy, cx with p1, k1 with
     * k2) are what an error propagation needs. Fixed parameters: 0 rows. */
    double cov[CVS_CALIB_NPARAM * CVS_CALIB_NPARAM];
} cvs_calib_result;

/*
 * calibrateCamera (the overload with stdDeviationsIntrinsics and
 * perViewErrors). n_views views; view v has counts[v] points, its object
 * points (mm, z = 0 for a planar target) and pixels consecutive in obj_xyz /
 * img_xy. `res->lens` holds the starting guess (used with USE_GUESS or
 * FIX_ASPECT: fy/fx is kept). Optional outputs (NULL to skip), per view:
 * view_rms, view_R (9 each, target -> camera), view_t (3 each, mm).
 * Returns 0 or -1.
 */
int cvs_calibrate_camera(int n_views, const int *counts, const double *obj_xyz, const double *img_xy, int width,
                         int height, unsigned flags, cvs_calib_result *res, double *view_rms, double *view_R,
                         double *view_t, base_error *err);

/*
 * Homography src -> dst (row-major, H[8] = 1) from n >= 4 point pairs with
 * RANSAC at `ransac_thresh` (in dst units), refined on the inliers by
 * Levenberg-Marquardt. inliers (optional, n bytes) gets 1 per inlier.
 * Returns the inlier count, or -1.
 */
int cvs_find_homography(const double *src_xy, const double *dst_xy, int n, double ransac_thresh, double H[9],
                        unsigned char *inliers, base_error *err);



/* Gray copy of a BGR image (a plain copy of a gray one). NULL on error. */
base_image *cvs_image_to_gray(const base_image *img, base_error *err);
/* BGR copy of a gray image (a plain copy of a BGR one). NULL on error. */
base_image *cvs_image_to_bgr(const base_image *img, base_error *err);

#ifdef __cplusplus
}
#endif

#endif
