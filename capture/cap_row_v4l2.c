/* The V4L2 row: USB webcams read directly, their Y plane as it comes (cap_v4l2.h, cap_rows.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "cap_rows.h"
#include "cap_v4l2.h"

typedef struct v4l2_source {
    cap_v4l2 *camera;
    base_image *image;
} v4l2_source;

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int v4l2_read(void *self, cap_backend_frame *f, base_error *err)
{
    v4l2_source *s = self;
    /* The camera's Y plane as it comes: no JPEG, no colour conversion. */
    base_view y;
    if (cap_v4l2_read(s->camera, &y, err) < 0 ||
        base_image_assign(&s->image, y.width, y.height, y.channels, y.data, y.stride, err) < 0)
        return -1;
    f->image = s->image;
    f->clock_ms = mono_ms();
    return 1;
}

static void v4l2_close(void *self)
{
    v4l2_source *s = self;
    cap_v4l2_free(s->camera);
    base_image_free(s->image);
    free(s);
}

/* v4l2:/dev/videoN, or v4l2:N for /dev/videoN. */
static int open_v4l2(const char *source, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    char dev[256];
    const char *p = source + 5;
    if (*p >= '0' && *p <= '9')
        snprintf(dev, sizeof dev, "/dev/video%s", p);
    else
        snprintf(dev, sizeof dev, "%s", p);
    v4l2_source *s = calloc(1, sizeof *s);
    if (!s)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    if (!(s->camera = cap_v4l2_open(dev, cfg->width, cfg->height, cfg->fps, cfg->timeout_ms, err))) {
        free(s);
        return -1;
    }
    out->self = s;
    out->read = v4l2_read;
    out->close = v4l2_close;
    out->fps = cap_v4l2_fps(s->camera);
    snprintf(out->desc, sizeof out->desc, "V4L2 camera %s", dev);
    return 0;
}

/* ---- listing the cameras (`tableref cameras`) ---- */

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

static int list_v4l2(cap_source_info *out, int cap, base_error *err)
{
    (void)err; /* a device that does not answer is left out, never an error */
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


const cap_row cap_row_v4l2 = {
    .name = "v4l2",
    .scheme = "v4l2",
    .usage = "v4l2:/dev/videoN",
    .about = "a USB webcam (V4L2, read directly; v4l2:N is /dev/videoN)",
    .live = CAP_LIVE,
    .arg = CAP_ARG_NAME,
    .options = CAP_OPT_FPS | CAP_OPT_SIZE | CAP_OPT_TIMEOUT,
    .kind = CAP_SOURCE_V4L2,
    .open = open_v4l2,
    .list = list_v4l2,
};
