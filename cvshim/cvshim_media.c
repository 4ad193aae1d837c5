/*
 * The cvs_* image, video-reader, window and projector calls of cvshim.h,
 * kept for their callers, over media/ (libpng, TurboJPEG, FFmpeg, X11)
 * instead of OpenCV's imgcodecs, videoio and highgui. A cvs_image and a
 * media_view share their layout, so nothing is copied to cross over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvshim.h"
#include "media.h"

static media_view view_of(const cvs_image *img)
{
    return (media_view){img->width, img->height, img->channels, img->stride, img->data};
}

int cvs_image_save(const cvs_image *img, const char *path, int jpeg_quality, rules_error *err)
{
    if (!img)
        return rules_error_set(err, "%s: cannot write image: no picture", path);
    media_view v = view_of(img);
    return media_image_write(&v, path, jpeg_quality, err);
}

int cvs_image_jpeg_roundtrip(cvs_image *img, int quality, rules_error *err)
{
    media_view v = view_of(img);
    return media_jpeg_roundtrip(&v, quality, img->data, img->stride, NULL, 0, err);
}

/* ---- video files and cameras -------------------------------------------- */

struct cvs_video_reader {
    media_video *file;
    media_camera *camera;
};

cvs_video_reader *cvs_video_open(const char *path, int kind, int width, int height, double fps, int timeout_ms,
                                 rules_error *err)
{
    cvs_video_reader *r = calloc(1, sizeof *r);
    if (!r) {
        rules_error_set(err, "out of memory");
        return NULL;
    }
    if (kind == CVS_VIDEO_V4L2)
        r->camera = media_camera_open(path, width, height, fps, timeout_ms, err);
    else
        r->file = media_video_open(path, MEDIA_BGR, err);
    if (!r->camera && !r->file) {
        free(r);
        return NULL;
    }
    return r;
}

int cvs_video_read(cvs_video_reader *r, cvs_image **out, rules_error *err)
{
    media_view v;
    int rc = r->camera ? media_camera_read(r->camera, &v, err) : media_video_read(r->file, NULL, &v, err);
    if (rc <= 0)
        return rc;
    return cvs_image_assign(out, v.width, v.height, v.channels, v.data, v.stride, err) < 0 ? -1 : 1;
}

double cvs_video_fps(const cvs_video_reader *r)
{
    return r->camera ? media_camera_fps(r->camera) : media_video_fps(r->file);
}

long cvs_video_frame_count(const cvs_video_reader *r) { return r->file ? media_video_frame_count(r->file) : -1; }

void cvs_video_close(cvs_video_reader *r)
{
    if (!r)
        return;
    media_video_free(r->file);
    media_camera_free(r->camera);
    free(r);
}

/* ---- the window (watch) and the projector (calibrate projector --show) ---- */

static media_window *g_window;
static char g_window_name[128];

int cvs_window_available(void) { return media_window_available(); }

int cvs_window_show(const char *name, const cvs_image *img, int fullscreen, rules_error *err)
{
    if (g_window && strcmp(g_window_name, name) != 0)
        cvs_window_close(g_window_name);
    if (!g_window) {
        if (!(g_window = media_window_open(name, 0, 0, fullscreen, err)))
            return -1;
        snprintf(g_window_name, sizeof g_window_name, "%s", name);
    }
    media_view v = view_of(img);
    return media_window_show(g_window, &v, err);
}

int cvs_window_key(int wait_ms) { return g_window ? media_window_key(g_window, wait_ms < 1 ? 1 : wait_ms) : -1; }

void cvs_window_close(const char *name)
{
    if (g_window && strcmp(g_window_name, name) == 0) {
        media_window_free(g_window);
        g_window = NULL;
        g_window_name[0] = '\0';
    }
}

static media_window *g_projector;

int cvs_projector_show(const cvs_image *pattern, int screen_x, int screen_y, int wait_ms, rules_error *err)
{
    cvs_projector_close();
    if (!(g_projector = media_window_open("tableref projector", screen_x, screen_y, 1, err))) {
        rules_error_prefix(err, "projector");
        size_t n = strlen(err ? err->msg : "");
        if (err)
            snprintf(err->msg + n, sizeof err->msg - n, "; use --pattern-out to write the pattern to a file and "
                                                        "show it yourself");
        return -1;
    }
    media_view v = view_of(pattern);
    if (media_window_show(g_projector, &v, err) < 0)
        return -1;
    media_window_key(g_projector, wait_ms > 0 ? wait_ms : 1); /* lets the window manager place and draw it */
    return 0;
}

void cvs_projector_close(void)
{
    media_window_free(g_projector);
    g_projector = NULL;
}
