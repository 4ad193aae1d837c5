/*
 * cap_v4l2: V4L2 webcams read directly, the Y plane as the camera gives it
 * (no OpenCV, no conversion where the format allows).
 *
 * How to use:
 *   cap_v4l2 *cam = cap_v4l2_open("/dev/video0", 1920, 1080, 30, 3000, &err);
 *   base_view gray;
 *   while (cap_v4l2_read(cam, &gray, &err) == 1) ... the camera's Y plane, valid until the next read ...
 *   cap_v4l2_free(cam);
 */
#ifndef CAP_V4L2_H
#define CAP_V4L2_H

#include <stddef.h>
#include <stdint.h>

#include "base_error.h"
#include "base_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- V4L2 cameras (cap_v4l2.c) ------------------------------------ */

typedef struct cap_v4l2 cap_v4l2;
/*
 * Opens a V4L2 capture device, asks for width x height (0: the driver's)
 * at fps (0: the driver's) in a format whose luma is read without
 * conversion (GREY, NV12, YUYV, UYVY; MJPEG decoded to gray with TurboJPEG
 * as the last resort), and waits at most timeout_ms for the first frame.
 * NULL with "cannot open /dev/video0: no such device" and the like.
 */
cap_v4l2 *cap_v4l2_open(const char *dev, int width, int height, double fps, int timeout_ms,
                                base_error *err);
/* The next frame's Y plane (valid until the next read); 1, or -1 when the camera is gone or silent. */
int cap_v4l2_read(cap_v4l2 *c, base_view *gray, base_error *err);
double cap_v4l2_fps(const cap_v4l2 *c);
void cap_v4l2_free(cap_v4l2 *c);
/*
 * The luma of one V4L2 buffer of pixel format `fourcc` (V4L2_PIX_FMT_GREY,
 * NV12, YUV420, YUYV, UYVY or MJPEG), width x height, bytes_per_line as the
 * driver reports it, into dst (1 byte a pixel). Returns 0 or -1. Exposed
 * for the tests: there is no camera on the test machine.
 */
int cap_v4l2_luma(uint32_t fourcc, const uint8_t *buf, size_t len, int width, int height,
                      size_t bytes_per_line, uint8_t *dst, size_t dst_stride, base_error *err);


#ifdef __cplusplus
}
#endif

#endif
