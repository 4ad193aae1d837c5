#include "cap_source.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "base_file.h"
#include "cap_v4l2.h"
#include "cap_video.h"
#include "media.h"
#include "tableref_config.h"
#include "media_image_read.h"
#if TABLEREF_HAVE_LIBCAMERA
#include "cap_libcamera.h"
#endif

struct cap_source {
    cap_source_kind kind;
    cap_source_config cfg;
    char desc[512];
    /* images */
    char **files;
    size_t n_files;
    /* video file (FFmpeg), V4L2 camera (its Y plane) */
    cap_video *video;
    cap_v4l2 *camera;
    long frame_count;
    /* libcamera */
#if TABLEREF_HAVE_LIBCAMERA
    cap_libcamera *lcam;
#endif
    cap_source_callbacks cb;
    double fps;
    long next;
    double t0_ms;       /* clock at the first live frame */
    base_image *image;   /* the current frame as delivered */
    base_image *gray;    /* its gray copy when it is colour */
};

void cap_source_config_default(cap_source_config *c)
{
    memset(c, 0, sizeof *c);
    c->fps = 5;
    c->timeout_ms = 3000;
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int has_image_ext(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot)
        return 0;
    return strcasecmp(dot, ".jpg") == 0 || strcasecmp(dot, ".jpeg") == 0 || strcasecmp(dot, ".png") == 0;
}

static int add_file(cap_source *c, const char *path)
{
    char **f = realloc(c->files, (c->n_files + 1) * sizeof *f);
    if (!f)
        return -1;
    c->files = f;
    if (!(c->files[c->n_files] = strdup(path)))
        return -1;
    c->n_files++;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int open_dir(cap_source *c, const char *dir, base_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return base_error_set(err, "cannot open %s: %s", dir, strerror(errno));
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !has_image_ext(e->d_name))
            continue;
        int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (n < 0 || (size_t)n >= sizeof path) { /* a cut path could name another picture */
            closedir(d);
            return base_error_setc(err, BASE_E_TOO_LARGE, "%s/%s: the path is over %zu bytes", dir, e->d_name,
                                   sizeof path - 1);
        }
        if (add_file(c, path) < 0) {
            closedir(d);
            return base_error_set(err, "out of memory");
        }
    }
    closedir(d);
    if (c->n_files == 0)
        return base_error_set(err, "%s: no .jpg, .jpeg or .png images in this directory", dir);
    /* Zero-padded names sort in frame order. */
    qsort(c->files, c->n_files, sizeof *c->files, cmp_str);
    return 0;
}

/* The pattern must hold exactly one integer conversion (%d, %04d, ...) and no other '%'. */
static int pattern_ok(const char *p)
{
    const char *q = strchr(p, '%');
    if (!q || strchr(q + 1, '%'))
        return 0;
    q++;
    while (*q >= '0' && *q <= '9')
        q++;
    return *q == 'd';
}

static int open_pattern(cap_source *c, const char *pat, base_error *err)
{
    if (!pattern_ok(pat))
        return base_error_set(err, "%s: an image pattern needs exactly one %%d conversion (e.g. frames/%%04d.jpg)",
                               pat);
    char path[4096];
    struct stat st;
    long start = 0;
    snprintf(path, sizeof path, pat, 0);
    if (stat(path, &st) < 0)
        start = 1;
    for (long i = start;; i++) {
        snprintf(path, sizeof path, pat, (int)i);
        if (stat(path, &st) < 0)
            break;
        if (add_file(c, path) < 0)
            return base_error_set(err, "out of memory");
    }
    if (c->n_files == 0)
        return base_error_set(err, "cannot open %s: no file matches (tried index 0 and 1)", pat);
    return 0;
}

static int open_libcamera(cap_source *c, const char *spec, base_error *err)
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
    c->lcam = cap_libcamera_open(index, c->cfg.width, c->cfg.height, err);
    if (!c->lcam)
        return -1;
    snprintf(c->desc, sizeof c->desc, "libcamera camera %d", index);
    return 0;
#else
    (void)c;
    return base_error_set(err, "no libcamera camera found (this tableref was built without libcamera)");
#endif
}

cap_source *cap_source_open(const char *source, const cap_source_config *cfg, base_error *err)
{
    cap_source *c = calloc(1, sizeof *c);
    if (!c) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    if (cfg)
        c->cfg = *cfg;
    else
        cap_source_config_default(&c->cfg);
    c->frame_count = -1;
    struct stat st;
    int rc;
    if (strncmp(source, "libcamera", 9) == 0 && (source[9] == 0 || source[9] == ':')) {
        c->kind = CAP_SOURCE_LIBCAMERA;
        c->fps = c->cfg.fps;
        rc = open_libcamera(c, source, err);
    } else if (strncmp(source, "v4l2:", 5) == 0) {
        char dev[256];
        const char *p = source + 5;
        if (*p >= '0' && *p <= '9')
            snprintf(dev, sizeof dev, "/dev/video%s", p);
        else
            snprintf(dev, sizeof dev, "%s", p);
        c->kind = CAP_SOURCE_V4L2;
        c->camera = cap_v4l2_open(dev, c->cfg.width, c->cfg.height, c->cfg.fps, c->cfg.timeout_ms, err);
        rc = c->camera ? 0 : -1;
        if (c->camera) {
            c->fps = cap_v4l2_fps(c->camera);
            snprintf(c->desc, sizeof c->desc, "V4L2 camera %s", dev);
        }
    } else if (strchr(source, '%')) {
        c->kind = CAP_SOURCE_IMAGES;
        rc = open_pattern(c, source, err);
    } else if (stat(source, &st) < 0) {
        rc = base_error_set(err, "cannot open %s: %s", source, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        c->kind = CAP_SOURCE_IMAGES;
        rc = open_dir(c, source, err);
    } else if (has_image_ext(source)) {
        c->kind = CAP_SOURCE_IMAGES;
        rc = add_file(c, source) < 0 ? base_error_set(err, "out of memory") : 0;
    } else {
        c->kind = CAP_SOURCE_FILE;
        c->video = cap_video_open(source, CAP_VIDEO_GRAY | CAP_VIDEO_BGR, err);
        rc = c->video ? 0 : -1;
        if (c->video)
            base_file_note_input(source); /* an input: a recording never lands on it */
        if (c->video) {
            c->fps = cap_video_fps(c->video);
            if (c->fps <= 0)
                c->fps = c->cfg.fps > 0 ? c->cfg.fps : 25;
            c->frame_count = cap_video_frame_count(c->video);
            snprintf(c->desc, sizeof c->desc, "video file %s (%ld frames at %.3g fps)", source, c->frame_count,
                     c->fps);
        }
    }
    if (rc == 0 && c->kind == CAP_SOURCE_IMAGES) {
        c->fps = c->cfg.fps > 0 ? c->cfg.fps : 5;
        c->frame_count = (long)c->n_files;
        snprintf(c->desc, sizeof c->desc, "image sequence %s (%zu frames at %.3g fps)", source, c->n_files, c->fps);
    }
    if (rc < 0) {
        /* A camera that cannot be opened: say how to find the right one (no opener says it itself). */
        if ((c->kind == CAP_SOURCE_V4L2 || c->kind == CAP_SOURCE_LIBCAMERA) && err) {
            err->code = BASE_E_DEVICE;
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n, " (%s)", CAP_SOURCE_LIST_HINT);
        }
        cap_source_close(c);
        return NULL;
    }
    return c;
}

cap_source *cap_source_open_callbacks(const cap_source_callbacks *cb, base_error *err)
{
    if (!cb->read || !(cb->fps > 0)) {
        base_error_setc(err, BASE_E_INVALID, "callback source: needs a read function and a frame rate above 0");
        return NULL;
    }
    cap_source *c = calloc(1, sizeof *c);
    if (!c) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    cap_source_config_default(&c->cfg);
    c->kind = CAP_SOURCE_CALLBACK;
    c->cb = *cb;
    c->fps = cb->fps;
    c->frame_count = cb->frame_count;
    snprintf(c->desc, sizeof c->desc, "%s", cb->describe ? cb->describe : "frames made by the program");
    return c;
}

/* Copies a view the reader owns (valid until its next read) into *dst. */
static int copy_view(const base_view *v, base_image **dst, base_error *err)
{
    return base_image_assign(dst, v->width, v->height, v->channels, v->data, v->stride, err);
}

/* A video frame: the colour picture for showing, the decoder's luma for detection. */
static int read_video(cap_source *c, base_error *err)
{
    base_view gray, bgr;
    int r = cap_video_read(c->video, &gray, &bgr, err);
    if (r <= 0)
        return r;
    return copy_view(&bgr, &c->image, err) < 0 || copy_view(&gray, &c->gray, err) < 0 ? -1 : 1;
}

/* Keeps c->gray pointing at a gray version of c->image (video frames bring their own). */
static int make_gray(cap_source *c, base_error *err)
{
    if (c->image->channels == 1 || c->kind == CAP_SOURCE_FILE)
        return 0;
    base_image_free(c->gray);
    c->gray = base_image_to_gray(c->image);
    return c->gray ? 0 : base_error_setc(err, BASE_E_NOMEM, "out of memory");
}

int cap_source_read(cap_source *c, cap_frame *out, base_error *err)
{
    double t = NAN;
    switch (c->kind) {
    case CAP_SOURCE_IMAGES: {
        if ((size_t)c->next >= c->n_files)
            return 0;
        media_image_fault fault;
        base_image *img = media_image_read(c->files[c->next], MEDIA_IMAGE_AS_STORED, &fault, err);
        /* A frame cut short or gone is a camera dying mid-write (lost); one of a
         * size no camera gives is bad input. */
        if (!img)
            return fault == MEDIA_IMAGE_FAULT_SIZE ? -2 : -1;
        base_image_free(c->image);
        c->image = img;
        break;
    }
    case CAP_SOURCE_FILE: {
        int r = read_video(c, err);
        if (r < 0)
            return -1;
        if (r == 0) {
            /* The container promised more: the file was cut short. FFmpeg's
             * count is an estimate for some formats, so allow one frame. */
            if (c->frame_count > 0 && c->next < c->frame_count - 1)
                return base_error_set(err, "the video ends at frame %ld of %ld (file truncated?)", c->next,
                                       c->frame_count);
            return 0;
        }
        break;
    }
    case CAP_SOURCE_V4L2: {
        /* The camera's Y plane as it comes: no JPEG, no colour conversion. */
        base_view y;
        if (cap_v4l2_read(c->camera, &y, err) < 0 || copy_view(&y, &c->image, err) < 0)
            return -1;
        t = mono_ms();
        break;
    }
    case CAP_SOURCE_CALLBACK: {
        const base_image *img = NULL;
        int r = c->cb.read(c->cb.ctx, c->next, &img, err);
        if (r <= 0)
            return r;
        if (base_image_assign(&c->image, img->width, img->height, img->channels, img->data, img->stride, err) < 0)
            return -1;
        break;
    }
    case CAP_SOURCE_LIBCAMERA: {
#if TABLEREF_HAVE_LIBCAMERA
        const uint8_t *g;
        int w, h;
        size_t stride;
        if (cap_libcamera_read(c->lcam, c->cfg.timeout_ms, &g, &w, &h, &stride, &t, err) < 0)
            return -1;
        if (base_image_assign(&c->image, w, h, 1, g, stride, err) < 0)
            return -1;
#else
        return base_error_set(err, "libcamera support not built");
#endif
        break;
    }
    }
    if (make_gray(c, err) < 0)
        return -1;
    if (c->kind == CAP_SOURCE_IMAGES || c->kind == CAP_SOURCE_FILE || c->kind == CAP_SOURCE_CALLBACK) {
        t = c->next * 1000.0 / c->fps;
    } else {
        if (c->next == 0)
            c->t0_ms = t;
        t -= c->t0_ms;
    }
    out->image = c->image;
    out->gray = c->image->channels == 1 ? c->image : c->gray;
    out->index = c->next++;
    out->t_ms = t;
    return 1;
}

cap_source_kind cap_source_kind_of(const cap_source *c) { return c->kind; }
double cap_source_fps(const cap_source *c) { return c->fps; }
long cap_source_frame_count(const cap_source *c) { return c->frame_count; }
const char *cap_source_describe(const cap_source *c) { return c->desc; }

void cap_source_close(cap_source *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_files; i++)
        free(c->files[i]);
    free(c->files);
    cap_video_free(c->video);
    cap_v4l2_free(c->camera);
#if TABLEREF_HAVE_LIBCAMERA
    cap_libcamera_close(c->lcam);
#endif
    base_image_free(c->image);
    base_image_free(c->gray);
    free(c);
}

/* ---- listing the cameras ------------------------------------------------- */

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do
        r = ioctl(fd, req, arg);
    while (r < 0 && errno == EINTR);
    return r;
}

/* The discrete frame sizes of the device's first formats, largest first, as "WxH WxH ...". */
static void v4l2_sizes(int fd, char *out, size_t cap)
{
    int sizes[32][2], n = 0;
    for (unsigned f = 0; f < 8; f++) {
        struct v4l2_fmtdesc fmt;
        memset(&fmt, 0, sizeof fmt);
        fmt.index = f;
        fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (xioctl(fd, VIDIOC_ENUM_FMT, &fmt) < 0)
            break;
        for (unsigned k = 0; k < 32 && n < 32; k++) {
            struct v4l2_frmsizeenum fs;
            memset(&fs, 0, sizeof fs);
            fs.index = k;
            fs.pixel_format = fmt.pixelformat;
            if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs) < 0)
                break;
            int w = fs.type == V4L2_FRMSIZE_TYPE_DISCRETE ? (int)fs.discrete.width : (int)fs.stepwise.max_width;
            int h = fs.type == V4L2_FRMSIZE_TYPE_DISCRETE ? (int)fs.discrete.height : (int)fs.stepwise.max_height;
            int dup = 0;
            for (int i = 0; i < n; i++)
                dup |= sizes[i][0] == w && sizes[i][1] == h;
            if (!dup)
                sizes[n][0] = w, sizes[n][1] = h, n++;
            if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE)
                break;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if ((long)sizes[j][0] * sizes[j][1] > (long)sizes[i][0] * sizes[i][1]) {
                int t0 = sizes[i][0], t1 = sizes[i][1];
                sizes[i][0] = sizes[j][0], sizes[i][1] = sizes[j][1];
                sizes[j][0] = t0, sizes[j][1] = t1;
            }
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used + 12 < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%s%dx%d", i ? " " : "", sizes[i][0], sizes[i][1]);
}

static int list_v4l2(cap_source_info *out, int cap)
{
    DIR *d = opendir("/dev");
    if (!d)
        return 0;
    char names[64][32];
    int nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 64)
        if (strncmp(e->d_name, "video", 5) == 0)
            snprintf(names[nn++], sizeof names[0], "%.20s", e->d_name);
    closedir(d);
    qsort(names, (size_t)nn, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    int n = 0;
    for (int i = 0; i < nn && n < cap; i++) {
        char dev[64];
        snprintf(dev, sizeof dev, "/dev/%.31s", names[i]);
        int fd = open(dev, O_RDWR | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct v4l2_capability vc;
        memset(&vc, 0, sizeof vc);
        if (xioctl(fd, VIDIOC_QUERYCAP, &vc) == 0) {
            unsigned caps = (vc.capabilities & V4L2_CAP_DEVICE_CAPS) ? vc.device_caps : vc.capabilities;
            /* Metadata and output nodes are listed by the kernel too: only capture devices are cameras. */
            if (caps & V4L2_CAP_VIDEO_CAPTURE) {
                cap_source_info *s = &out[n++];
                snprintf(s->source, sizeof s->source, "v4l2:%.40s", dev);
                snprintf(s->name, sizeof s->name, "%.100s (%.40s)", (const char *)vc.card, (const char *)vc.driver);
                v4l2_sizes(fd, s->sizes, sizeof s->sizes);
            }
        }
        close(fd);
    }
    return n;
}

int cap_source_list(cap_source_info *out, int cap, base_error *err)
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
    (void)err;
#endif
    return n + list_v4l2(out + n, cap - n);
}
