/* The libcamera row: Raspberry Pi cameras and other libcamera devices (cap_libcamera.h, cap_rows.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_rows.h"
#include "tableref_config.h"
#if TABLEREF_HAVE_LIBCAMERA
#include "cap_libcamera.h"
#endif

/* "libcamera" alone is camera 0. */
static int claims(const char *source) { return strcmp(source, "libcamera") == 0; }

#if TABLEREF_HAVE_LIBCAMERA
typedef struct libcamera_source {
    cap_libcamera *camera;
    int timeout_ms;
    base_image *image;
} libcamera_source;

static int libcamera_read(void *self, cap_backend_frame *f, base_error *err)
{
    libcamera_source *s = self;
    const uint8_t *g;
    int w, h;
    size_t stride;
    if (cap_libcamera_read(s->camera, s->timeout_ms, &g, &w, &h, &stride, &f->clock_ms, err) < 0 ||
        base_image_assign(&s->image, w, h, 1, g, stride, err) < 0)
        return -1;
    f->image = s->image;
    return 1;
}

static void libcamera_close(void *self)
{
    libcamera_source *s = self;
    cap_libcamera_close(s->camera);
    base_image_free(s->image);
    free(s);
}
#endif

static int open_libcamera(const char *spec, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    int index = 0;
    if (spec[9] == ':') {
        char *end;
        long v = strtol(spec + 10, &end, 10);
        if (*end || end == spec + 10 || v < 0 || v > 63)
            return base_error_set(err, "%s: expected libcamera or libcamera:N", spec);
        index = (int)v;
    } else if (spec[9]) {
        return base_error_set(err, "%s: expected libcamera or libcamera:N", spec);
    }
#if TABLEREF_HAVE_LIBCAMERA
    libcamera_source *s = calloc(1, sizeof *s);
    if (!s)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    if (!(s->camera = cap_libcamera_open(index, cfg->width, cfg->height, err))) {
        free(s);
        return -1;
    }
    s->timeout_ms = cfg->timeout_ms;
    out->self = s;
    out->read = libcamera_read;
    out->close = libcamera_close;
    out->fps = cfg->fps;
    snprintf(out->desc, sizeof out->desc, "libcamera camera %d", index);
    return 0;
#else
    (void)cfg, (void)out, (void)index;
    return base_error_set(err, "no libcamera camera found (this tableref was built without libcamera)");
#endif
}

/* libcamera's cameras as libcamera:N (none when built without it). */
static int list_libcamera(cap_source_info *out, int cap, base_error *err)
{
    int n = 0;
#if TABLEREF_HAVE_LIBCAMERA
    int nl = cap_libcamera_count(err);
    if (nl < 0)
        return -1;
    for (int i = 0; i < nl && n < cap; i++) {
        cap_source_info *s = &out[n];
        memset(s, 0, sizeof *s);
        snprintf(s->source, sizeof s->source, "libcamera:%d", i);
        if (cap_libcamera_name(i, s->name, sizeof s->name, err) < 0)
            snprintf(s->name, sizeof s->name, "?");
        n++;
    }
#else
    (void)out, (void)cap, (void)err;
#endif
    return n;
}

const cap_row cap_row_libcamera = {
    .name = "libcamera",
    .scheme = "libcamera",
    .claims = claims,
    .usage = "libcamera[:N]",
    .about = "a libcamera camera (Raspberry Pi)",
    .live = CAP_LIVE,
    .arg = CAP_ARG_NAME,
    .options = CAP_OPT_SIZE | CAP_OPT_TIMEOUT, /* its rate is the camera's own (cfg.fps is only reported) */
    .kind = CAP_SOURCE_LIBCAMERA,
    .open = open_libcamera,
    .list = list_libcamera,
};
