/*
 * libcamera_shim: the one door to libcamera (Raspberry Pi cameras and other
 * libcamera devices). libcamera is C++17 with an unstable ABI, so this shim
 * is kept tiny: open a camera, take gray frames with a timeout, close. Every
 * exception is caught inside; nothing here prints or exits. Built only when
 * meson finds libcamera (TABLEREF_HAVE_LIBCAMERA).
 *
 * How to use:
 *   rules_error err;
 *   lcs_camera *c = lcs_camera_open(0, 4056, 3040, &err);  // 0, 0: the camera's default size
 *   if (!c) { fprintf(stderr, "%s\n", err.msg); return 2; } // "no libcamera camera found"
 *   uint8_t *gray = NULL; int w, h; size_t stride; double t_ms;
 *   int r = lcs_camera_read(c, 2000, &gray, &w, &h, &stride, &t_ms, &err);  // 1 frame, -1 error/timeout
 *   ... gray stays valid until the next read or close ...
 *   lcs_camera_close(c);
 */
#ifndef LIBCAMERA_SHIM_H
#define LIBCAMERA_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "rules_error.h"

typedef struct lcs_camera lcs_camera;

/* Cameras libcamera lists (0 with none attached); -1 with a message when libcamera cannot start. */
int lcs_camera_count(rules_error *err);
/* Camera `index`'s id as libcamera names it (its sensor and bus path); -1 when there is no such camera. */
int lcs_camera_name(int index, char *buf, size_t cap, rules_error *err);
/*
 * Starts camera `index` streaming YUV420 at width x height (0, 0: the
 * camera's own viewfinder size). NULL with a plain message: "no libcamera
 * camera found", "libcamera camera 2 not found (1 camera)", ...
 */
lcs_camera *lcs_camera_open(int index, int width, int height, rules_error *err);
/*
 * Waits at most timeout_ms for the next frame and lends its luma plane
 * (*gray, valid until the next read or close). *t_ms is the sensor
 * timestamp in ms. Returns 1, or -1 on timeout or a failed request.
 */
int lcs_camera_read(lcs_camera *c, int timeout_ms, const uint8_t **gray, int *width, int *height, size_t *stride,
                    double *t_ms, rules_error *err);
/* Stops and releases the camera; NULL is fine. */
void lcs_camera_close(lcs_camera *c);

#ifdef __cplusplus
}
#endif

#endif
