/*
 * media: pictures, videos, cameras and a window through small C libraries
 * instead of OpenCV's imgcodecs, videoio and highgui (which pull in some 250
 * shared libraries, GDAL and GTK among them, and cost ~130 ms at every start
 * of tableref). One header, four files:
 *   media_image.c   PNG (libpng) and JPEG (TurboJPEG) writing, JPEG round trips
 *   media_video.c   video files through FFmpeg (libavformat, libavcodec, libswscale)
 *   media_camera.c  V4L2 webcams read directly: the Y plane as the camera gives it
 *   media_window.c  a plain X11 window (projector, `watch --show`)
 * Pictures are READ by vision/vis_image.c (the checked loader). Pixels go in
 * and out as media_view (8-bit gray or BGR, OpenCV's channel order), the same
 * layout as cvs_image, so cvshim/ adapts one to the other for free.
 * Nothing here prints, exits or aborts: errors are rules_error messages.
 *
 * How to use:
 *   rules_error err;
 *   media_view v = {w, h, 1, stride, pixels};
 *   if (media_image_write(&v, "out.png", 0, &err) < 0) fprintf(stderr, "%s\n", err.msg);
 *
 *   media_video *vid = media_video_open("game.mp4", MEDIA_GRAY | MEDIA_BGR, &err);
 *   media_view gray, bgr;
 *   while ((r = media_video_read(vid, &gray, &bgr, &err)) == 1) ... valid until the next read ...
 *   media_video_free(vid);          // r == 0: the end; r == -1: a corrupt stream (err says where)
 *
 *   media_camera *cam = media_camera_open("/dev/video0", 1920, 1080, 30, 3000, &err);
 *   while (media_camera_read(cam, &gray, &err) == 1) ... the camera's Y plane ...
 *   media_camera_free(cam);
 *
 *   media_window *win = media_window_open("tableref", 0, 0, 1, &err);  // NULL without a display
 *   media_window_show(win, &bgr, &err); int key = media_window_key(win, 1);
 *   media_window_free(win);
 */
#ifndef MEDIA_H
#define MEDIA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "rules_error.h"

/* 8-bit pixels owned by someone else: row r starts at data + r * stride. */
typedef struct media_view {
    int width, height;
    int channels;        /* 1 (gray) or 3 (BGR) */
    size_t stride;
    const uint8_t *data;
} media_view;

/* ---- Images (media_image.c) ------------------------------------------- */

/* Writes by extension: .png (lossless) or .jpg/.jpeg (quality 1..100, 0: 95). */
int media_image_write(const media_view *img, const char *path, int jpeg_quality, rules_error *err);
/*
 * Compresses `img` to JPEG in memory (4:2:0 chroma for colour, as cameras
 * write; quality 1..100) and decodes it back: into `back` (img's size and
 * channels, back_stride bytes a row; may be img's own pixels) and, when
 * `gray` is not NULL, its luma plane into `gray` (1 byte a pixel). Either
 * output may be NULL. Returns 0 or -1.
 */
int media_jpeg_roundtrip(const media_view *img, int quality, uint8_t *back, size_t back_stride, uint8_t *gray,
                         size_t gray_stride, rules_error *err);

/* ---- Video files (media_video.c) -------------------------------------- */

enum { MEDIA_GRAY = 1, MEDIA_BGR = 2 };
typedef struct media_video media_video;
/* `want`: MEDIA_GRAY, MEDIA_BGR or both. NULL with "cannot open PATH: ..." on error. */
media_video *media_video_open(const char *path, int want, rules_error *err);
/*
 * The next frame: *gray and/or *bgr (as asked at open; pass NULL for the
 * other) view pixels the reader owns until the next read. Gray is the
 * decoder's own Y plane when the stream is YUV (no conversion). Returns 1,
 * 0 at the end, -1 on a corrupt stream.
 */
int media_video_read(media_video *v, media_view *gray, media_view *bgr, rules_error *err);
/* Frames per second of the stream (0 when unknown). */
double media_video_fps(const media_video *v);
/* Frames the container declares (-1 when it does not say). */
long media_video_frame_count(const media_video *v);
void media_video_free(media_video *v);

/* ---- V4L2 cameras (media_camera.c) ------------------------------------ */

typedef struct media_camera media_camera;
/*
 * Opens a V4L2 capture device, asks for width x height (0: the driver's)
 * at fps (0: the driver's) in a format whose luma is read without
 * conversion (GREY, NV12, YUYV, UYVY; MJPEG decoded to gray with TurboJPEG
 * as the last resort), and waits at most timeout_ms for the first frame.
 * NULL with "cannot open /dev/video0: no such device" and the like.
 */
media_camera *media_camera_open(const char *dev, int width, int height, double fps, int timeout_ms,
                                rules_error *err);
/* The next frame's Y plane (valid until the next read); 1, or -1 when the camera is gone or silent. */
int media_camera_read(media_camera *c, media_view *gray, rules_error *err);
double media_camera_fps(const media_camera *c);
void media_camera_free(media_camera *c);
/*
 * The luma of one V4L2 buffer of pixel format `fourcc` (V4L2_PIX_FMT_GREY,
 * NV12, YUV420, YUYV, UYVY or MJPEG), width x height, bytes_per_line as the
 * driver reports it, into dst (1 byte a pixel). Returns 0 or -1. Exposed
 * for the tests: there is no camera on the test machine.
 */
int media_camera_luma(uint32_t fourcc, const uint8_t *buf, size_t len, int width, int height,
                      size_t bytes_per_line, uint8_t *dst, size_t dst_stride, rules_error *err);

/* ---- A window (media_window.c, X11) ----------------------------------- */

/* True when DISPLAY names an X server (it is not contacted). */
int media_window_available(void);
typedef struct media_window media_window;
/*
 * A window at screen position (x, y) -- a projector's place on the desktop --
 * borderless and covering the screen when `fullscreen`. NULL with "no
 * display (DISPLAY is not set)" or "cannot open display :9" otherwise.
 */
media_window *media_window_open(const char *title, int x, int y, int fullscreen, rules_error *err);
/* Draws img scaled to the window (nearest pixel), then handles pending events. */
int media_window_show(media_window *w, const media_view *img, rules_error *err);
/* The key pressed within wait_ms (ASCII, 27 for Escape), or -1 for none. */
int media_window_key(media_window *w, int wait_ms);
/* The window's inside size in pixels (after the window manager's say). */
void media_window_size(const media_window *w, int *width, int *height);
void media_window_free(media_window *w);

#ifdef __cplusplus
}
#endif

#endif
