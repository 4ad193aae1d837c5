/*
 * ds_light: a projector's light on the rendered table -- where each camera
 * pixel's surface (the board, or a base top at its height) takes its light
 * from in the projector picture, through the calibration's board ->
 * projector mapping.
 *
 * Model: the projector is a pinhole whose z = 0 mapping is the calibration's
 * homography H (calib_file's "projector" section). A base top at height h
 * is lit by the projector ray through it, which meets the board a little
 * further from the projector's foot: p0 = P + (p - P) Pz / (Pz - h), P the
 * projector's lens (board mm; the calibration does not hold it, so the
 * caller gives it -- ds_light_centre_guess puts it at the camera, beside
 * which a referee's projector hangs: under 1 mm of error on a 5 mm base).
 * A mast's tag is lit at its height (ds_render_heights). Figures and hands
 * are lit as the surface below them (a figure's own shading is not
 * modelled).
 *
 * The camera sees surface albedo x (room light + projected light): the
 * renderer's camera multiplies the scene's linear light by
 * 1 + ratio * linear(picture value) (cvs_sensor's light, light_ratio,
 * light_black), before its exposure and clipping.
 *
 * How to use:
 *   base_image *heights = NULL;   // camera frame, base tops in DS_LIGHT_HEIGHT_STEP_MM steps
 *   ds_render_heights(snap, roster, &cam, p.seed, &heights, &err);  // ds_render.h
 *   double P[3]; ds_light_centre_guess(&cam, P);
 *   ds_light_map *m = ds_light_map_new(&cam, cam.projector.H, P, heights, &err);   // once per still table
 *   base_image *light = ds_light_map_apply(m, picture, &err);      // per projector picture
 *   p.sensor.light = light; p.sensor.light_ratio = 2.5; p.sensor.light_black = DS_LIGHT_BLACK;
 *   ds_render_capture(optics, &p, seed, &gray, &bgr, &err);
 *   base_image_free(light); ds_light_map_free(m); base_image_free(heights);
 */
#ifndef DS_LIGHT_H
#define DS_LIGHT_H

#include "base_error.h"
#include "base_image.h"
#include "calib_file.h"

/* Height map units: a surface h mm high is stored as h / step (rounded), up to 255 steps (127.5 mm: a hill's top,
 * a mast's tag above the figures; higher is lit as at 127.5 mm). Half a step of height moves the light by under
 * 0.2 mm where the projector hangs 1.4 m up. */
#define DS_LIGHT_HEIGHT_STEP_MM 0.5
/* A projector's black as a share of its white (a 300:1 ANSI contrast). */
#define DS_LIGHT_BLACK 0.003
/* Projected white against the room's light when nobody measured it: a 3000 lm projector over a
 * 6'x4' table (~1400 lux) in a 500-600 lux hall (docs: shared note on projector and camera). */
#define DS_LIGHT_RATIO_DEFAULT 2.5

typedef struct ds_light_map ds_light_map;

/* The camera's centre (board mm): where the projector is assumed to hang when nothing else is known. */
void ds_light_centre_guess(const calib_file *cam, double centre[3]);

/*
 * For every pixel of `cam`'s frame, the projector pixel lighting it.
 * `heights` (cam-sized, 1 channel; NULL: all at z = 0) gives each pixel's
 * surface height. Returns NULL with err set (out of memory, a bad size, a
 * singular H).
 */
ds_light_map *ds_light_map_new(const calib_file *cam, const double H[9], const double centre[3],
                               const base_image *heights, base_error *err);
void ds_light_map_free(ds_light_map *m);
/* The camera-frame light of projector picture `picture` (1 or 3 channels; its channels), 0 where the
 * projector does not reach. NULL with err set. */
base_image *ds_light_map_apply(const ds_light_map *m, const base_image *picture, base_error *err);

#endif
