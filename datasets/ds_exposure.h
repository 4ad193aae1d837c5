/*
 * ds_exposure: a webcam's auto exposure for the renderer's camera. It meters
 * the light reaching the sensor the way the camera's processor will turn it
 * into 8-bit values (the sensor's light field -- gradient and vignetting --,
 * white balance, the sRGB curve, clipping; no noise, no sharpening) and
 * finds the exposure that puts the frame's centre-weighted mean luma at a target, as UVC
 * webcams aim theirs at ~110-120. It meters the room's light only (a
 * projector's light, cvs_sensor.light, is not metered).
 *
 * How to use:
 *   cvs_sensor s = p->sensor;
 *   s.exposure = ds_exposure_meter(optics, &s, 115.0);   // 3-channel BGR optics (ds_render_optics)
 *   cvs_render_sensor(optics, &s, bgr, &err);
 */
#ifndef DS_EXPOSURE_H
#define DS_EXPOSURE_H

#include "base_image.h"
#include "cvshim.h"

/* Bounds of the exposure a meter gives (a webcam's gain range, relative to cvs_sensor's unit exposure). */
#define DS_EXPOSURE_MIN 0.25
#define DS_EXPOSURE_MAX 4.0

/*
 * The exposure (DS_EXPOSURE_MIN..MAX) whose mean 8-bit luma over `optics`
 * (sampled every 4th pixel each way) is `target_luma`; the bound when the
 * target is out of reach; `s->exposure` for a picture that is not
 * 3-channel or a target not in 1..254.
 */
double ds_exposure_meter(const base_image *optics, const cvs_sensor *s, double target_luma);

#endif
