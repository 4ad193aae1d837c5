/*
 * cap_libcamera: the one door to libcamera (Raspberry Pi cameras and other
 * libcamera devices). libcamera is C++17 with an unstable ABI, so this shim
 * is kept tiny: open a camera, take gray frames with a timeout, close. Every
 * exception is caught inside; nothing here prints or exits. Built only when
 * meson finds libcamera (TABLEREF_HAVE_LIBCAMERA).
 *
 * How to use:
 *   base_error err;
 *   cap_libcamera *c = cap_libcamera_open(0, 4056, 3040, &err);  // 0, 0: the camera's default size
 *   if (!c) { fprintf(stderr, "%s\n", err.msg); return 2; } // "no libcamera camera found"
 *   uint8_t *gray = NULL; int w, h; size_t stride; double t_ms;
 *   int r = cap_libcamera_read(c, 2000, &gray, &w, &h, &stride, &t_ms, &err);  // 1 frame, -1 error/timeout
 *   ... gray stays valid until the next read or close ...
 *   cap_libcamera_close(c);
 */
#ifndef CAP_LIBCAMERA_H
#define CAP_LIBCAMERA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "base_error.h"

typedef struct cap_libcamera cap_libcamera;

/* Cameras libcamera lists (0 with none attached); -1 with a message when libcamera cannot start. */
int cap_libcamera_count(base_error *err);
/* Camera `index`'s id as libcamera names it (its sensor and bus path); -1 when there is no such camera. */
int cap_libcamera_name(int index, char *buf, size_t cap, base_error *err);
/*
 * Starts camera `index` streaming YUV420 at width x height (0, 0: the
 * camera's own viewfinder size). NULL with a plain message: "no libcamera
 * camera found", "libcamera camera 2 not found (1 camera)", ...
 */
cap_libcamera *cap_libcamera_open(int index, int width, int height, base_error *err);
/*
 * Waits at most timeout_ms for the next frame and lends its luma plane
 * (*gray, valid until the next read or close). *t_ms is the sensor
 * timestamp in ms. Returns 1, or -1 on timeout or a failed request.
 */
int cap_libcamera_read(cap_libcamera *c, int timeout_ms, const uint8_t **gray, int *width, int *height, size_t *stride,
                    double *t_ms, base_error *err);
/* Stops and releases the camera; NULL is fine. */
void cap_libcamera_close(cap_libcamera *c);

#ifdef __cplusplus
}
#endif

#endif
