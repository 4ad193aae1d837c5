/*
 * media_screen: a base_image saved or round-tripped through JPEG, and the one
 * window a process shows (the projector's picture, `watch --show`), over
 * media_image.c and media_window.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media.h"

int media_image_save(const base_image *img, const char *path, int jpeg_quality, base_error *err)
{
    if (!img)
        return base_error_set(err, "%s: cannot write image: no picture", path);
    base_view v = base_image_view(img);
    return media_image_write(&v, path, jpeg_quality, err);
}

int media_image_jpeg_roundtrip(base_image *img, int quality, base_error *err)
{
    base_view v = base_image_view(img);
    return media_jpeg_roundtrip(&v, quality, img->data, img->stride, NULL, 0, err);
}

/* ---- the window (watch) and the projector (calibrate projector --show) ---- */

static media_window *g_window;
static char g_window_name[128];

int media_screen_available(void) { return media_window_available(); }

int media_screen_show(const char *name, const base_image *img, int fullscreen, base_error *err)
{
    if (g_window && strcmp(g_window_name, name) != 0)
        media_screen_close(g_window_name);
    if (!g_window) {
        if (!(g_window = media_window_open(name, 0, 0, fullscreen, err)))
            return -1;
        snprintf(g_window_name, sizeof g_window_name, "%s", name);
    }
    base_view v = base_image_view(img);
    return media_window_show(g_window, &v, err);
}

int media_screen_key(int wait_ms) { return g_window ? media_window_key(g_window, wait_ms < 1 ? 1 : wait_ms) : -1; }

void media_screen_close(const char *name)
{
    if (g_window && strcmp(g_window_name, name) == 0) {
        media_window_free(g_window);
        g_window = NULL;
        g_window_name[0] = '\0';
    }
}

static media_window *g_projector;

int media_projector_show(const base_image *pattern, int screen_x, int screen_y, int wait_ms, base_error *err)
{
    media_projector_close();
    if (!(g_projector = media_window_open("tableref projector", screen_x, screen_y, 1, err))) {
        base_error_prefix(err, "projector");
        size_t n = strlen(err ? err->msg : "");
        if (err)
            snprintf(err->msg + n, sizeof err->msg - n, "; use --pattern-out to write the pattern to a file and "
                                                        "show it yourself");
        return -1;
    }
    base_view v = base_image_view(pattern);
    if (media_window_show(g_projector, &v, err) < 0)
        return -1;
    media_window_key(g_projector, wait_ms > 0 ? wait_ms : 1); /* lets the window manager place and draw it */
    return 0;
}

void media_projector_close(void)
{
    media_window_free(g_projector);
    g_projector = NULL;
}
