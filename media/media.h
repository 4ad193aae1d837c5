/*
 * media: pictures, videos, cameras and a window through small C libraries
 * instead of OpenCV's imgcodecs, videoio and highgui (which pull in some 250
 * shared libraries, GDAL and GTK among them, and cost ~130 ms at every start
 * of tableref). Pictures in and out, and the screen:
 *   media_image_read.c  the checked JPEG/PNG loader (its own header, media_image_read.h)
 *   media_image.c       PNG (libpng) and JPEG (TurboJPEG) writing, JPEG round trips
 *   media_window.c      a plain X11 window
 *   media_screen.c      the one window a process shows (projector, `watch --show`)
 * Cameras and videos are capture/'s. Pixels go in and out as base_view and
 * base_image (base/base_image.h).
 * Nothing here prints, exits or aborts: errors are base_error messages.
 *
 * How to use:
 *   base_error err;
 *   base_view v = {w, h, 1, stride, pixels};
 *   if (media_image_write(&v, "out.png", 0, &err) < 0) fprintf(stderr, "%s\n", err.msg);
 *
 *    *   media_window *win = media_window_open("tableref", 0, 0, 1, &err);  // NULL without a display
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

#include "base_error.h"
#include "base_image.h"


/* ---- Images (media_image.c) ------------------------------------------- */

/* Writes by extension: .png (lossless) or .jpg/.jpeg (quality 1..100, 0: 95). */
int media_image_write(const base_view *img, const char *path, int jpeg_quality, base_error *err);
/*
 * Compresses `img` to JPEG in memory (4:2:0 chroma for colour, as cameras
 * write; quality 1..100) and decodes it back: into `back` (img's size and
 * channels, back_stride bytes a row; may be img's own pixels) and, when
 * `gray` is not NULL, its luma plane into `gray` (1 byte a pixel). Either
 * output may be NULL. Returns 0 or -1.
 */
int media_jpeg_roundtrip(const base_view *img, int quality, uint8_t *back, size_t back_stride, uint8_t *gray,
                         size_t gray_stride, base_error *err);

/* ---- A window (media_window.c, X11) ----------------------------------- */

/* True when DISPLAY names an X server (it is not contacted). */
int media_window_available(void);
typedef struct media_window media_window;
/*
 * A window at screen position (x, y) -- a projector's place on the desktop --
 * borderless and covering the screen when `fullscreen`. NULL with "no
 * display (DISPLAY is not set)" or "cannot open display :9" otherwise.
 */
media_window *media_window_open(const char *title, int x, int y, int fullscreen, base_error *err);
/* Draws img scaled to the window (nearest pixel), then handles pending events. */
int media_window_show(media_window *w, const base_view *img, base_error *err);
/* The key pressed within wait_ms (ASCII, 27 for Escape), or -1 for none. */
int media_window_key(media_window *w, int wait_ms);
/* The window's inside size in pixels (after the window manager's say). */
void media_window_size(const media_window *w, int *width, int *height);
void media_window_free(media_window *w);

/* ---- base_image in and out, the screen (media_screen.c) --------------- */

/* Writes by extension (.png, .jpg/.jpeg; media_image_write); jpeg_quality 1..100, 0: 95 (ignored for PNG). */
int media_image_save(const base_image *img, const char *path, int jpeg_quality, base_error *err);
/* Compresses to JPEG in memory and decodes back (the camera's compression artefacts; TurboJPEG, 4:2:0). */
int media_image_jpeg_roundtrip(base_image *img, int quality, base_error *err);

/*
 * Shows `pattern` in a borderless fullscreen X11 window (media_window)
 * placed at screen position (x, y) -- the projector's place on the desktop --
 * and waits `wait_ms` for it to be drawn. Needs a display; returns -1 with
 * "projector: no display (DISPLAY is not set); use --pattern-out ..."
 * without one. media_projector_close removes the window (no-op when none).
 */
int media_projector_show(const base_image *pattern, int screen_x, int screen_y, int wait_ms, base_error *err);
void media_projector_close(void);
/* True when DISPLAY names an X server (XWayland included). */
int media_screen_available(void);
/*
 * Shows `img` in the window `name` (created on first use; fullscreen when
 * asked) and pumps the window's events. Returns 0, or -1 without a display.
 */
int media_screen_show(const char *name, const base_image *img, int fullscreen, base_error *err);
/* The key pressed within `wait_ms` (>= 1), or -1 for none. Needs a window. */
int media_screen_key(int wait_ms);
/* Closes the window (no-op when it is not open). */
void media_screen_close(const char *name);


#ifdef __cplusplus
}
#endif

#endif
