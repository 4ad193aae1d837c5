/*
 * V4L2 webcams read directly (media.h): memory-mapped buffers, a format whose
 * luma needs no conversion, and the Y plane copied out as it comes. No JPEG
 * round trip and no colour conversion: detection only needs the luma.
 */
#include "cap_v4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <turbojpeg.h>

#define N_BUFFERS 4

struct cap_v4l2 {
    int fd;
    char dev[256];
    uint32_t fourcc;
    int width, height;
    size_t bytes_per_line;
    void *buf[N_BUFFERS];
    size_t len[N_BUFFERS];
    unsigned n_buf;
    int streaming, timeout_ms;
    double fps;
    uint8_t *luma;
};

/* Preferred formats: the luma is a plane or every other byte; MJPEG must be decoded. */
static const uint32_t FORMATS[] = {V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUYV,
                                   V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_MJPEG};

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do
        r = ioctl(fd, req, arg);
    while (r < 0 && errno == EINTR);
    return r;
}

static int mjpeg_luma(const uint8_t *buf, size_t len, int width, int height, uint8_t *dst, size_t dst_stride,
                      base_error *err)
{
    tjhandle tj = tjInitDecompress();
    if (!tj)
        return base_error_set(err, "MJPEG frame: cannot start the decoder");
    int w = 0, h = 0, sub = 0, cs = 0;
    int rc = tjDecompressHeader3(tj, buf, (unsigned long)len, &w, &h, &sub, &cs);
    if (rc == 0 && (w <= 0 || h <= 0)) {
        tjDestroy(tj);
        return base_error_set(err, "MJPEG frame: no picture in its %zu bytes", len);
    }
    if (rc == 0 && (w != width || h != height)) {
        tjDestroy(tj);
        return base_error_set(err, "MJPEG frame is %dx%d, the camera said %dx%d", w, h, width, height);
    }
    if (rc == 0)
        rc = tjDecompress2(tj, buf, (unsigned long)len, dst, width, (int)dst_stride, height, TJPF_GRAY, 0);
    /* Webcams' MJPEG often has extra bytes between markers: the picture is
     * whole. Any other warning (a frame cut short) is a damaged frame. */
    if (rc < 0 && tjGetErrorCode(tj) == TJERR_WARNING && strstr(tjGetErrorStr2(tj), "extraneous bytes"))
        rc = 0;
    if (rc < 0)
        base_error_set(err, "MJPEG frame: %s", tjGetErrorStr2(tj));
    tjDestroy(tj);
    return rc < 0 ? -1 : 0;
}

int cap_v4l2_luma(uint32_t fourcc, const uint8_t *buf, size_t len, int width, int height,
                      size_t bytes_per_line, uint8_t *dst, size_t dst_stride, base_error *err)
{
    if (fourcc == V4L2_PIX_FMT_MJPEG)
        return mjpeg_luma(buf, len, width, height, dst, dst_stride, err);
    const int packed = fourcc == V4L2_PIX_FMT_YUYV || fourcc == V4L2_PIX_FMT_UYVY;
    const int planar = fourcc == V4L2_PIX_FMT_GREY || fourcc == V4L2_PIX_FMT_NV12 || fourcc == V4L2_PIX_FMT_YUV420;
    if (!packed && !planar)
        return base_error_set(err, "camera format %.4s is not one tableref reads", (const char *)&fourcc);
    const size_t row = (size_t)width * (packed ? 2 : 1);
    if (bytes_per_line < row || len < bytes_per_line * (size_t)(height - 1) + row)
        return base_error_set(err, "camera frame of %zu bytes is short for %dx%d %.4s", len, width, height,
                               (const char *)&fourcc);
    const int first = fourcc == V4L2_PIX_FMT_UYVY; /* UYVY: Y is every odd byte */
    for (int r = 0; r < height; r++) {
        const uint8_t *s = buf + (size_t)r * bytes_per_line;
        uint8_t *d = dst + (size_t)r * dst_stride;
        if (planar)
            memcpy(d, s, (size_t)width);
        else
            for (int c = 0; c < width; c++)
                d[c] = s[2 * c + first];
    }
    return 0;
}

/* Asks (req: VIDIOC_TRY_FMT or VIDIOC_S_FMT) for fourcc at the size; 0 when the driver keeps the format. */
static int ask_format(cap_v4l2 *c, unsigned long req, uint32_t fourcc, int width, int height, struct v4l2_format *f)
{
    memset(f, 0, sizeof *f);
    f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(c->fd, VIDIOC_G_FMT, f) < 0)
        return -1;
    if (width > 0 && height > 0)
        f->fmt.pix.width = (unsigned)width, f->fmt.pix.height = (unsigned)height;
    f->fmt.pix.pixelformat = fourcc;
    f->fmt.pix.field = V4L2_FIELD_NONE;
    return xioctl(c->fd, req, f) < 0 || f->fmt.pix.pixelformat != fourcc ? -1 : 0;
}

/*
 * The first preferred format the device gives at the asked size; when none
 * gives that size (the driver would shrink it), the first it gives at all.
 */
static int set_format(cap_v4l2 *c, int width, int height, base_error *err)
{
    const size_t n = sizeof FORMATS / sizeof *FORMATS;
    struct v4l2_format f;
    size_t pick = n;
    for (size_t i = 0; i < n && pick == n; i++)
        if (ask_format(c, VIDIOC_TRY_FMT, FORMATS[i], width, height, &f) == 0 &&
            (width <= 0 || ((int)f.fmt.pix.width == width && (int)f.fmt.pix.height == height)))
            pick = i;
    for (size_t i = 0; i < n && pick == n; i++)
        if (ask_format(c, VIDIOC_TRY_FMT, FORMATS[i], width, height, &f) == 0)
            pick = i;
    /* Some drivers lack TRY_FMT: then S_FMT decides, in order. */
    for (size_t i = 0; i < n && pick == n; i++)
        if (ask_format(c, VIDIOC_S_FMT, FORMATS[i], width, height, &f) == 0)
            pick = i;
    if (pick == n || ask_format(c, VIDIOC_S_FMT, FORMATS[pick], width, height, &f) < 0)
        return base_error_set(err, "cannot open %s: it offers none of GREY, NV12, YU12, YUYV, UYVY, MJPEG", c->dev);
    c->fourcc = f.fmt.pix.pixelformat;
    c->width = (int)f.fmt.pix.width;
    c->height = (int)f.fmt.pix.height;
    const int packed = c->fourcc == V4L2_PIX_FMT_YUYV || c->fourcc == V4L2_PIX_FMT_UYVY;
    c->bytes_per_line = f.fmt.pix.bytesperline ? f.fmt.pix.bytesperline : (size_t)c->width * (packed ? 2 : 1);
    return 0;
}

static void set_rate(cap_v4l2 *c, double fps)
{
    struct v4l2_streamparm p;
    memset(&p, 0, sizeof p);
    p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (fps > 0) {
        p.parm.capture.timeperframe.numerator = 1000;
        p.parm.capture.timeperframe.denominator = (unsigned)(fps * 1000 + 0.5);
        xioctl(c->fd, VIDIOC_S_PARM, &p); /* a driver without rates keeps its own */
    }
    if (xioctl(c->fd, VIDIOC_G_PARM, &p) == 0 && p.parm.capture.timeperframe.numerator)
        c->fps = (double)p.parm.capture.timeperframe.denominator / p.parm.capture.timeperframe.numerator;
}

static int start_streaming(cap_v4l2 *c, base_error *err)
{
    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = N_BUFFERS;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl(c->fd, VIDIOC_REQBUFS, &req) < 0 || req.count < 1)
        return base_error_set(err, "cannot open %s: no capture buffers (%s)", c->dev, strerror(errno));
    for (c->n_buf = 0; c->n_buf < req.count && c->n_buf < N_BUFFERS; c->n_buf++) {
        struct v4l2_buffer b;
        memset(&b, 0, sizeof b);
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        b.index = c->n_buf;
        if (xioctl(c->fd, VIDIOC_QUERYBUF, &b) < 0)
            return base_error_set(err, "cannot open %s: %s", c->dev, strerror(errno));
        c->buf[c->n_buf] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, b.m.offset);
        if (c->buf[c->n_buf] == MAP_FAILED)
            return c->buf[c->n_buf] = NULL, base_error_set(err, "cannot open %s: mmap: %s", c->dev, strerror(errno));
        c->len[c->n_buf] = b.length;
        if (xioctl(c->fd, VIDIOC_QBUF, &b) < 0)
            return base_error_set(err, "cannot open %s: %s", c->dev, strerror(errno));
    }
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(c->fd, VIDIOC_STREAMON, &type) < 0)
        return base_error_set(err, "cannot open %s: the device refused to start capturing (%s)", c->dev,
                               strerror(errno));
    c->streaming = 1;
    return 0;
}

static int open_device(cap_v4l2 *c, const char *dev, base_error *err)
{
    struct stat st;
    if (stat(dev, &st) < 0)
        return base_error_set(err, "cannot open %s: %s", dev, errno == ENOENT ? "no such device" : strerror(errno));
    if (!S_ISCHR(st.st_mode))
        return base_error_set(err, "cannot open %s: not a video device", dev);
    if ((c->fd = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0)
        return base_error_set(err, "cannot open %s: %s", dev, strerror(errno));
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (xioctl(c->fd, VIDIOC_QUERYCAP, &cap) < 0)
        return base_error_set(err, "cannot open %s: not a V4L2 device", dev);
    unsigned caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING))
        return base_error_set(err, "cannot open %s: %s cannot stream video", dev, (const char *)cap.card);
    return 0;
}

cap_v4l2 *cap_v4l2_open(const char *dev, int width, int height, double fps, int timeout_ms,
                                base_error *err)
{
    cap_v4l2 *c = calloc(1, sizeof *c);
    if (!c) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    c->fd = -1;
    c->timeout_ms = timeout_ms > 0 ? timeout_ms : 3000;
    snprintf(c->dev, sizeof c->dev, "%s", dev);
    int rc = open_device(c, dev, err);
    if (rc == 0)
        rc = set_format(c, width, height, err);
    if (rc == 0) {
        set_rate(c, fps);
        c->luma = malloc((size_t)c->width * (size_t)c->height);
        rc = c->luma ? start_streaming(c, err) : base_error_set(err, "out of memory");
    }
    if (rc < 0) {
        cap_v4l2_free(c);
        return NULL;
    }
    return c;
}

int cap_v4l2_read(cap_v4l2 *c, base_view *gray, base_error *err)
{
    struct pollfd p = {c->fd, POLLIN, 0};
    int n;
    do
        n = poll(&p, 1, c->timeout_ms);
    while (n < 0 && errno == EINTR);
    if (n == 0)
        return base_error_set(err, "cannot read from %s: no frame within %d ms", c->dev, c->timeout_ms);
    struct v4l2_buffer b;
    memset(&b, 0, sizeof b);
    b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b.memory = V4L2_MEMORY_MMAP;
    if (n < 0 || (p.revents & (POLLERR | POLLHUP)) || xioctl(c->fd, VIDIOC_DQBUF, &b) < 0)
        return base_error_set(err, "the camera %s stopped delivering frames (unplugged?)", c->dev);
    int rc = 0;
    if (b.index >= c->n_buf || (b.flags & V4L2_BUF_FLAG_ERROR))
        rc = base_error_set(err, "the camera %s delivered a damaged frame", c->dev);
    else
        rc = cap_v4l2_luma(c->fourcc, c->buf[b.index], b.bytesused ? b.bytesused : c->len[b.index], c->width,
                               c->height, c->bytes_per_line, c->luma, (size_t)c->width, err);
    if (xioctl(c->fd, VIDIOC_QBUF, &b) < 0 && rc == 0)
        rc = base_error_set(err, "the camera %s stopped taking buffers (%s)", c->dev, strerror(errno));
    if (rc < 0)
        return -1;
    *gray = (base_view){c->width, c->height, 1, (size_t)c->width, c->luma};
    return 1;
}

double cap_v4l2_fps(const cap_v4l2 *c) { return c->fps; }

void cap_v4l2_free(cap_v4l2 *c)
{
    if (!c)
        return;
    if (c->streaming) {
        enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        xioctl(c->fd, VIDIOC_STREAMOFF, &type);
    }
    for (unsigned i = 0; i < c->n_buf; i++)
        if (c->buf[i])
            munmap(c->buf[i], c->len[i]);
    if (c->fd >= 0)
        close(c->fd);
    free(c->luma);
    free(c);
}
