/*
 * ds_render: a synthetic overhead photo of a table, with its exact truth.
 *
 * The picture is made the way a camera would see it: every flat thing (the
 * board, terrain, bases, printed tags with their white border, at their own
 * height) is drawn into an ideal pinhole picture by the exact homography of
 * its plane, supersampled; miniatures and hands are projected 3D shapes
 * drawn on top (far ones first); then the lens distortion is applied per
 * pixel (inverse mapping with Newton-undistorted rays); then the camera.
 * Tag corners in the truth are the same 3D points pushed through the same
 * camera model, so the truth is exact up to the rasteriser's 1/32 px grid.
 *
 * Two styles:
 *  - DS_STYLE_CLASSIC (the default; the normal scene set): a gray scene,
 *    figures as stacked discs with spears and banners, flat hands, then
 *    light, blur, noise and JPEG on the gray picture.
 *  - DS_STYLE_REAL (the hard set, datasets/ds_hard.h): a colour scene;
 *    figures as 3D men, riders and ogres with shields, spears, halberds and
 *    banners, leaning, seen off-axis over their neighbours' tags; hands with
 *    their arms reaching in from the player's edge of the board; soft
 *    shadows; then the camera's own chain (cvshim.h, "sensor"): RGGB
 *    mosaic, shot and read noise, demosaicing, white balance, sRGB gamma,
 *    sharpening, JPEG with 4:2:0 chroma. The gray picture is the JPEG's
 *    luma, what `tableref detect` reads from the written file.
 *
 * How to use:
 *   ds_render_params p; ds_render_params_default(&p);
 *   base_image *img = NULL; ds_truth truth = {0};
 *   if (ds_render(snapshot, roster, &calib, &p, &img, &truth, &err) < 0) ...
 *   cJSON *j = ds_truth_to_json(&truth, snapshot, roster, &calib, "image.jpg");
 *   ds_truth_clear(&truth); base_image_free(img);
 * The same parameters and seed give the same picture. A sequence of frames
 * of one still table: ds_render_optics once, then ds_render_capture per
 * frame with a new frame seed (new sensor noise, same light).
 */
#ifndef DS_RENDER_H
#define DS_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "calib_file.h"
#include "cvshim.h"
#include "base_error.h"
#include "ds_render_params.h"
#include "ds_truth.h"
#include "rules_snapshot.h"
#include "roster.h"

/*
 * Renders `truth_snap` (model positions; each model must be in the roster by
 * id) through `cam`: the camera's gray picture. *out_image and *truth are the
 * caller's. Returns 0 or -1.
 */
int ds_render(const rules_snapshot *truth_snap, const roster_file *roster, const calib_file *cam,
              const ds_render_params *p, base_image **out_image, ds_truth *truth, base_error *err);
/* The same, and for the real style the colour picture too (*out_colour NULL for the classic style). */
int ds_render_colour(const rules_snapshot *truth_snap, const roster_file *roster, const calib_file *cam,
                     const ds_render_params *p, base_image **out_gray, base_image **out_colour, ds_truth *truth,
                     base_error *err);
/* The light reaching the sensor (1 channel classic, 3 real) and the truth, which no camera step changes. */
int ds_render_optics(const rules_snapshot *truth_snap, const roster_file *roster, const calib_file *cam,
                     const ds_render_params *p, base_image **out_optics, ds_truth *truth, base_error *err);
/* The camera's picture of `optics` for frame seed `frame_seed`; *out_colour may be NULL (not wanted). */
int ds_render_capture(const base_image *optics, const ds_render_params *p, uint32_t frame_seed,
                      base_image **out_gray, base_image **out_colour, base_error *err);
/*
 * What the projector lights (ds_light.h): each camera pixel's surface height, base tops and the masts' tags (as a
 * render of `seed` leans them) at their height in DS_LIGHT_HEIGHT_STEP_MM steps, the board 0 (1 channel, the
 * camera's size). Caller frees.
 */
int ds_render_heights(const rules_snapshot *truth_snap, const roster_file *roster, const calib_file *cam, uint32_t seed,
                      base_image **out_heights, base_error *err);
/* Tag bitmap corners, tag-local, in apriltag's order: (a, b) with a right and b up, in half-sizes. */
extern const double ds_tag_corner_local[4][2];

#endif
