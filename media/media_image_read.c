/*
 * base_view: checked JPEG (TurboJPEG) and PNG (libpng) reading. See the
 * header for what is refused and why.
 */
#include "media_image_read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <png.h>
#include <turbojpeg.h>

#include "base_file.h"
#include "calib_file.h"

_Static_assert(MEDIA_IMAGE_MIN_SIDE == CALIB_FILE_MIN_IMAGE_SIDE,
               "a calibration may not describe a camera whose pictures the loader refuses");

static long long process_max_pixels = MEDIA_IMAGE_DEFAULT_MAX_PIXELS;

void media_image_set_max_pixels(long long max_pixels)
{
    process_max_pixels = max_pixels >= 1 ? max_pixels : MEDIA_IMAGE_DEFAULT_MAX_PIXELS;
}

long long media_image_max_pixels(void) { return process_max_pixels; }

/* ---- size checks, the same for both formats ----------------------------- */

/* Refuses a size before decoding; *fault (may be NULL) becomes MEDIA_IMAGE_FAULT_SIZE then. */
static int check_size(const char *name, const media_image_info *in, long long max_pixels, media_image_fault *fault,
                      base_error *err)
{
    if (fault)
        *fault = MEDIA_IMAGE_FAULT_SIZE;
    if (in->width < MEDIA_IMAGE_MIN_SIDE || in->height < MEDIA_IMAGE_MIN_SIDE)
        return base_error_set(err, "%s: %d x %d px is too small: a picture must be at least %d x %d px", name,
                               in->width, in->height, MEDIA_IMAGE_MIN_SIDE, MEDIA_IMAGE_MIN_SIDE);
    if (in->width > MEDIA_IMAGE_MAX_SIDE || in->height > MEDIA_IMAGE_MAX_SIDE)
        return base_error_set(err, "%s: %d x %d px: a side over %d px is refused", name, in->width, in->height,
                               MEDIA_IMAGE_MAX_SIDE);
    long long px = (long long)in->width * in->height;
    if (px > max_pixels)
        return base_error_set(err,
                               "%s: %d x %d px = %lld px is over the cap of %lld px, refused before decoding; "
                               "if the picture is real, raise the cap with --max-pixels %lld",
                               name, in->width, in->height, px, max_pixels, px);
    if (fault)
        *fault = MEDIA_IMAGE_FAULT_NONE;
    return 0;
}

/* BT.601 luma in OpenCV's fixed point (cv::cvtColor RGB2GRAY), so gray pictures match what OpenCV gave. */
static inline uint8_t luma(unsigned r, unsigned g, unsigned b)
{
    return (uint8_t)((r * 4899u + g * 9617u + b * 1868u + (1u << 13)) >> 14);
}

/* ---- JPEG through TurboJPEG ---------------------------------------------- */

static int jpeg_header(tjhandle tj, const uint8_t *buf, size_t len, const char *name, media_image_info *in,
                       base_error *err)
{
    int w = 0, h = 0, subsamp = 0, cs = 0;
    if (len > ULONG_MAX || tjDecompressHeader3(tj, buf, (unsigned long)len, &w, &h, &subsamp, &cs) < 0)
        return base_error_set(err, "%s: corrupt or truncated JPEG: %s", name, tjGetErrorStr2(tj));
    if (w <= 0 || h <= 0) /* libjpeg meets the end of a header cut short with a warning only */
        return base_error_set(err, "%s: corrupt or truncated JPEG: no frame header", name);
    if (cs == TJCS_CMYK || cs == TJCS_YCCK)
        return base_error_set(err, "%s: a CMYK JPEG is not a camera picture (save it as RGB or gray)", name);
    in->width = w;
    in->height = h;
    in->channels = cs == TJCS_GRAY ? 1 : 3;
    in->format = "JPEG";
    return 0;
}

static base_image *jpeg_decode(const uint8_t *buf, size_t len, const char *name, media_image_color color,
                              long long max_pixels, media_image_fault *fault, base_error *err)
{
    tjhandle tj = tjInitDecompress();
    if (!tj) {
        base_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    media_image_info in;
    base_image *img = NULL;
    if (jpeg_header(tj, buf, len, name, &in, err) < 0 || check_size(name, &in, max_pixels, fault, err) < 0)
        goto done;
    const int channels = color == MEDIA_IMAGE_AS_STORED ? in.channels : (int)color;
    if (!(img = base_image_new(in.width, in.height, channels, 0))) {
        base_error_set(err, "%s: out of memory for %d x %d px", name, in.width, in.height);
        goto done;
    }
    /* Stop on warning: libjpeg only warns on "premature end of data segment"
     * and fills the rest grey; LIMITSCANS refuses progressive files built to
     * take minutes. */
    const int flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS;
    if (tjDecompress2(tj, buf, (unsigned long)len, img->data, in.width, (int)img->stride, in.height,
                      channels == 1 ? TJPF_GRAY : TJPF_BGR, flags) < 0) {
        base_error_set(err, "%s: corrupt or truncated JPEG: %s", name, tjGetErrorStr2(tj));
        base_image_free(img);
        img = NULL;
    }
done:
    tjDestroy(tj);
    return img;
}

/* ---- PNG through libpng -------------------------------------------------- */

typedef struct png_job {
    const uint8_t *buf;
    size_t len, pos;
    png_structp png;
    png_infop info;
    const char *name;
    long long max_pixels;
    media_image_color color;
    bool header_only;
    media_image_fault fault;  /* SIZE when a size check failed: err already says why */
    char why[200];          /* libpng's message */
    base_error *err;
    media_image_info in;
    base_image *out;
    uint8_t *scratch;       /* RGB rows when a colour PNG is read gray */
} png_job;

static void png_read_mem(png_structp png, png_bytep out, size_t n)
{
    png_job *j = png_get_io_ptr(png);
    if (n > j->len - j->pos)
        png_error(png, "the file ends early");
    memcpy(out, j->buf + j->pos, n);
    j->pos += n;
}

static void png_fail(png_structp png, png_const_charp msg)
{
    png_job *j = png_get_error_ptr(png);
    snprintf(j->why, sizeof j->why, "%s", msg);
    png_longjmp(png, 1);
}

/* Warnings concern ancillary chunks (text, colour profiles), never pixels: benign errors are errors here. */
static void png_warn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* Sets the transforms that give 8-bit gray or BGR; returns the channels delivered by libpng. */
static int png_transforms(png_job *j, int *out_channels)
{
    const int ct = png_get_color_type(j->png, j->info);
    const bool stored_colour = (ct & PNG_COLOR_MASK_COLOR) != 0;
    png_set_expand(j->png);
    png_set_strip_16(j->png);
    png_set_strip_alpha(j->png);
    *out_channels = j->color == MEDIA_IMAGE_AS_STORED ? (stored_colour ? 3 : 1) : (int)j->color;
    if (*out_channels == 3) {
        png_set_gray_to_rgb(j->png);
        png_set_bgr(j->png);
        return 3;
    }
    return stored_colour ? 3 : 1; /* colour read as gray: RGB rows converted here */
}

static void rgb_row_to_gray(const uint8_t *rgb, uint8_t *gray, int width)
{
    for (int x = 0; x < width; x++, rgb += 3)
        gray[x] = luma(rgb[0], rgb[1], rgb[2]);
}

/* Everything libpng may longjmp out of; the job (not a local here) keeps what needs freeing. */
static int png_run(png_job *j)
{
    if (setjmp(png_jmpbuf(j->png)))
        return -1;
    png_set_read_fn(j->png, j, png_read_mem);
    png_set_benign_errors(j->png, 0);
    png_set_option(j->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    png_set_user_limits(j->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX); /* check_size says it better */
    png_read_info(j->png, j->info);
    j->in.width = (int)png_get_image_width(j->png, j->info);
    j->in.height = (int)png_get_image_height(j->png, j->info);
    j->in.channels = (png_get_color_type(j->png, j->info) & PNG_COLOR_MASK_COLOR) ? 3 : 1;
    j->in.format = "PNG";
    if (check_size(j->name, &j->in, j->max_pixels, &j->fault, j->err) < 0)
        return -1;
    if (j->header_only)
        return 0;
    int out_ch, png_ch = png_transforms(j, &out_ch);
    const int passes = png_set_interlace_handling(j->png);
    png_read_update_info(j->png, j->info);
    const int w = j->in.width, h = j->in.height;
    if (png_get_rowbytes(j->png, j->info) != (size_t)w * png_ch)
        png_error(j->png, "unexpected row layout after conversion");
    if (!(j->out = base_image_new(w, h, out_ch, 0)))
        png_error(j->png, "out of memory");
    if (png_ch == out_ch) {
        for (int p = 0; p < passes; p++)
            for (int y = 0; y < h; y++)
                png_read_row(j->png, j->out->data + (size_t)y * j->out->stride, NULL);
    } else {
        /* Colour to gray: a row at a time, or the whole picture when interlaced (every pass revisits rows). */
        const size_t rows = passes > 1 ? (size_t)h : 1;
        if (!(j->scratch = malloc(rows * (size_t)w * 3)))
            png_error(j->png, "out of memory");
        for (int p = 0; p < passes; p++)
            for (int y = 0; y < h; y++) {
                uint8_t *rgb = j->scratch + (passes > 1 ? (size_t)y * w * 3 : 0);
                png_read_row(j->png, rgb, NULL);
                if (p == passes - 1)
                    rgb_row_to_gray(rgb, j->out->data + (size_t)y * j->out->stride, w);
            }
    }
    png_read_end(j->png, NULL); /* the chunks after the pixels, up to IEND: a cut file fails here */
    return 0;
}

static base_image *png_decode(const uint8_t *buf, size_t len, const char *name, media_image_color color,
                             long long max_pixels, bool header_only, media_image_info *info, media_image_fault *fault,
                             base_error *err)
{
    png_job j = {.buf = buf, .len = len, .name = name, .max_pixels = max_pixels, .color = color,
                 .header_only = header_only, .err = err};
    j.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &j, png_fail, png_warn);
    j.info = j.png ? png_create_info_struct(j.png) : NULL;
    if (!j.png || !j.info) {
        png_destroy_read_struct(j.png ? &j.png : NULL, NULL, NULL);
        base_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    const int rc = png_run(&j);
    png_destroy_read_struct(&j.png, &j.info, NULL);
    free(j.scratch);
    if (rc < 0) {
        if (j.fault != MEDIA_IMAGE_FAULT_SIZE)
            base_error_set(err, "%s: corrupt or truncated PNG: %s", name, j.why);
        else if (fault)
            *fault = MEDIA_IMAGE_FAULT_SIZE;
        base_image_free(j.out);
        return NULL;
    }
    if (info)
        *info = j.in;
    if (header_only) {
        base_image_free(j.out);
        return NULL;
    }
    return j.out;
}

/* ---- the doors ------------------------------------------------------------ */

typedef enum { FMT_NONE, FMT_JPEG, FMT_PNG } image_format;

static image_format sniff(const uint8_t *b, size_t n)
{
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return FMT_JPEG;
    if (n >= 8 && memcmp(b, png_magic, 8) == 0)
        return FMT_PNG;
    return FMT_NONE;
}

static int check_format(const uint8_t *buf, size_t len, const char *name, image_format *fmt, base_error *err)
{
    if (len == 0)
        return base_error_set(err, "%s: empty file, not a JPEG or PNG picture", name);
    if ((*fmt = sniff(buf, len)) == FMT_NONE)
        return base_error_set(err, "%s: not a JPEG or PNG picture", name);
    return 0;
}

int media_image_probe(const uint8_t *buf, size_t len, const char *name, long long max_pixels, media_image_info *info,
                    base_error *err)
{
    image_format fmt;
    if (max_pixels < 1)
        max_pixels = process_max_pixels;
    if (check_format(buf, len, name, &fmt, err) < 0)
        return -1;
    if (fmt == FMT_PNG) {
        info->width = 0;
        png_decode(buf, len, name, MEDIA_IMAGE_AS_STORED, max_pixels, true, info, NULL, err);
        return info->width > 0 ? 0 : -1;
    }
    tjhandle tj = tjInitDecompress();
    if (!tj)
        return base_error_set(err, "%s: out of memory", name);
    int rc = jpeg_header(tj, buf, len, name, info, err);
    tjDestroy(tj);
    return rc < 0 ? -1 : check_size(name, info, max_pixels, NULL, err);
}

/* media_image_decode telling whether a size was refused (*fault = SIZE) or the data (left NONE). */
static base_image *decode(const uint8_t *buf, size_t len, const char *name, media_image_color color, long long max_pixels,
                         media_image_fault *fault, base_error *err)
{
    image_format fmt;
    if (max_pixels < 1)
        max_pixels = process_max_pixels;
    if (color != MEDIA_IMAGE_AS_STORED && color != MEDIA_IMAGE_GRAY && color != MEDIA_IMAGE_BGR) {
        base_error_set(err, "%s: unknown colour request", name);
        return NULL;
    }
    if (check_format(buf, len, name, &fmt, err) < 0)
        return NULL;
    if (fmt == FMT_JPEG)
        return jpeg_decode(buf, len, name, color, max_pixels, fault, err);
    return png_decode(buf, len, name, color, max_pixels, false, NULL, fault, err);
}

base_image *media_image_decode(const uint8_t *buf, size_t len, const char *name, media_image_color color,
                            long long max_pixels, base_error *err)
{
    media_image_fault fault = MEDIA_IMAGE_FAULT_NONE;
    return decode(buf, len, name, color, max_pixels, &fault, err);
}

/*
 * The whole file, refusing what is not a regular file (a FIFO would block
 * for ever) and what is larger than any picture under the cap could be
 * (8 bytes a pixel is a 16-bit RGBA PNG stored without compression).
 */
static uint8_t *read_file(const char *path, long long max_pixels, size_t *len, media_image_fault *fault,
                          base_error *err)
{
    *fault = MEDIA_IMAGE_FAULT_UNREADABLE;
    size_t size = 0;
    int fd = base_file_open_read(path, 0, "a JPEG or PNG picture", &size, err);
    if (fd < 0)
        return NULL;
    uint8_t *buf = NULL;
    const long long max_bytes = 8 * max_pixels + (1 << 20);
    if ((long long)size > max_bytes) {
        *fault = MEDIA_IMAGE_FAULT_SIZE;
        base_error_setc(err, BASE_E_TOO_LARGE, "%s: %lld bytes is larger than any picture under the cap of %lld px could be",
                        path, (long long)size, max_pixels);
    } else if (!(buf = malloc(size > 0 ? size : 1))) {
        base_error_set(err, "%s: out of memory", path);
    } else {
        size_t got = 0;
        while (got < size) {
            ssize_t k = read(fd, buf + got, size - got);
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0) {
                base_error_set(err, "%s: read error: %s", path, strerror(errno));
                free(buf);
                buf = NULL;
                break;
            }
            if (k == 0)
                break; /* the file shrank while read: the decoder sees the cut */
            got += (size_t)k;
        }
        *len = got;
        if (buf)
            *fault = MEDIA_IMAGE_FAULT_NONE;
    }
    close(fd);
    return buf;
}

base_image *media_image_read(const char *path, media_image_color color, media_image_fault *fault, base_error *err)
{
    size_t len = 0;
    uint8_t *buf = read_file(path, process_max_pixels, &len, fault, err);
    if (!buf)
        return NULL;
    base_image *img = decode(buf, len, path, color, process_max_pixels, fault, err);
    free(buf);
    if (!img && *fault == MEDIA_IMAGE_FAULT_NONE)
        *fault = MEDIA_IMAGE_FAULT_CORRUPT;
    return img;
}

base_image *media_image_load(const char *path, media_image_color color, base_error *err)
{
    media_image_fault fault;
    return media_image_read(path, color, &fault, err);
}
