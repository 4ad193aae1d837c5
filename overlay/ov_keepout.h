/*
 * ov_keepout: where the projector must never shine. The camera that judges
 * the next move reads the tags under the projector's light; lit edges
 * crossing a label pull its corners and a lit border hides the tag. So
 * every printed label (a tag with its white border) and every board tag is
 * a keep-out: a square on the board, grown by a margin, painted pure black
 * (0,0,0) in the projector picture after everything else is drawn.
 *
 * The margin (docs/formats.md, "projector"):
 *   - the projector calibration's error: its `max_mm` residual when the
 *     calibration states one, else 3x its `rms_mm`, else
 *     OV_KEEPOUT_DEFAULT_FIT_MM;
 *   - 2 sigma of the label's own position (an inferred model's guess);
 *   - parallax: the mapping is for the board plane and a label sits
 *     `height` mm above it. With the projector's position (`position_mm` in
 *     the calibration), the square is moved to where the projector's rays
 *     through the label's top meet the board (and grown by the spread of
 *     that shift across the square); without it, the square is grown by
 *     height x OV_KEEPOUT_DEFAULT_SLOPE (rays up to 45 degrees off the
 *     vertical: a projector anywhere over a table it covers).
 * Each pixel any part of which touches a grown square is blacked out
 * (tested conservatively: the pixel centre within half a pixel diagonal).
 *
 * How to use:
 *   ov_keepout_params kp; ov_keepout_params_from_calib(&kp, &calib.projector);  // NULL: defaults
 *   ov_keepout *k = ov_keepout_new(&kp);
 *   ov_keepout_add_label(k, centre, heading, side_mm, height_mm, sigma_mm);      // per label and board tag
 *   ov_target_set_keepout(projector_target, k, &err);   // applied last, whenever pixels leave the target
 *   ov_keepout_free(k);
 */
#ifndef OV_KEEPOUT_H
#define OV_KEEPOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_geom.h"
#include "calib_file.h"

#define OV_KEEPOUT_DEFAULT_FIT_MM 2.0  /* a calibration stating no residual */
#define OV_KEEPOUT_DEFAULT_SLOPE 1.0   /* horizontal light shift per mm of height, position unknown (45 deg) */

typedef struct ov_keepout_params {
    double fit_error_mm;       /* the projector calibration's error on the board */
    bool has_position;         /* projector_mm is known */
    double projector_mm[3];    /* projector's optical centre, board mm (z up) */
    double slope;              /* parallax per mm of height when the position is unknown */
    double sigma_coverage;     /* sigmas of a label's own position (2) */
} ov_keepout_params;

/* Defaults (no calibration: NULL or not present), else from the calibration's projector section. */
void ov_keepout_params_from_calib(ov_keepout_params *p, const calib_projector *proj);

/* A keep-out square as it lies on the board plane, already grown: corners in board mm. */
typedef struct ov_keepout_quad {
    base_vec2 c[4];
} ov_keepout_quad;

typedef struct ov_keepout {
    ov_keepout_params params;
    ov_keepout_quad *quads;
    size_t n, cap;
} ov_keepout;

ov_keepout *ov_keepout_new(const ov_keepout_params *p);
ov_keepout *ov_keepout_copy(const ov_keepout *k);
void ov_keepout_free(ov_keepout *k);

/* A printed square of `side_mm` (the tag with its white border) centred at `centre`, turned by
 * `heading`, `height_mm` above the board, its position known to `sigma_mm` (NAN or 0: exact).
 * Returns 0, or -1 when out of memory or the numbers are not finite. */
int ov_keepout_add_label(ov_keepout *k, base_vec2 centre, double heading, double side_mm, double height_mm,
                         double sigma_mm);
/* The grown margin (mm) a label at this height and sigma gets, parallax shift excluded. */
double ov_keepout_margin_mm(const ov_keepout_params *p, double side_mm, double height_mm, double sigma_mm);

/* Blacks out (0,0,0, opaque) every keep-out pixel of an ARGB32 raster `width` x `height`, `stride`
 * bytes per row, through the board -> raster homography H. Returns the pixels blacked out. */
size_t ov_keepout_apply_argb(const ov_keepout *k, const double H[9], uint32_t *pixels, int width, int height,
                             size_t stride);

/* Whether raster pixel (x, y) (OpenCV convention) may touch a board quad seen through H: its centre
 * within `grow_px` of the mapped quad. Tests use it to check pictures. */
bool ov_keepout_pixel_in_quad(const double H[9], const ov_keepout_quad *q, double x, double y, double grow_px);

#endif
