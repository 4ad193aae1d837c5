/* PNG writing with libpng's simplified API, JPEG with TurboJPEG (media.h). */
#include "media.h"

#include "base_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <png.h>
#include <turbojpeg.h>

static int view_ok(const base_view *v)
{
    return v && v->data && v->width > 0 && v->height > 0 && (v->channels == 1 || v->channels == 3) &&
           v->stride >= (size_t)v->width * (size_t)v->channels;
}

static int write_png(const base_view *v, const char *path, base_error *err)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    im.width = (png_uint_32)v->width;
    im.height = (png_uint_32)v->height;
    im.format = v->channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_BGR;
    /* Speed over size: tableref writes debug frames and evidence, not archives. */
    im.flags = PNG_IMAGE_FLAG_FAST;
    /* The simplified API counts the row stride in components: bytes, at 8 bits. */
    png_int_32 row = (png_int_32)v->stride;
    /* Through a temporary renamed over the target: never half a picture, never through a link. */
    base_file_writer *w = base_file_writer_open(path, "PNG", err);
    if (!w)
        return -1;
    if (!png_image_write_to_stdio(&im, base_file_writer_stream(w), 0, v->data, row, NULL)) {
        base_error_set(err, "%s: cannot write PNG: %s", path, im.message[0] ? im.message : strerror(errno));
        png_image_free(&im);
        base_file_writer_abort(w);
        return -1;
    }
    return base_file_writer_commit(w, err);
}

/* Compresses into *jpeg (TurboJPEG's buffer, freed with tjFree). */
static int jpeg_encode(const base_view *v, int quality, unsigned char **jpeg, unsigned long *len, base_error *err)
{
    /* The accurate DCT, as libjpeg's own default (and OpenCV's encoder):
     * TurboJPEG would take the fast one below quality 96. */
    tjhandle tj = tjInitCompress();
    if (!tj)
        return base_error_set(err, "JPEG: cannot start the compressor");
    *jpeg = NULL;
    *len = 0;
    const int gray = v->channels == 1;
    int rc = tjCompress2(tj, v->data, v->width, (int)v->stride, v->height, gray ? TJPF_GRAY : TJPF_BGR, jpeg, len,
                         gray ? TJSAMP_GRAY : TJSAMP_420, quality, TJFLAG_ACCURATEDCT);
    if (rc < 0) {
        base_error_set(err, "JPEG compression failed: %s", tjGetErrorStr2(tj));
        tjFree(*jpeg);
        *jpeg = NULL;
    }
    tjDestroy(tj);
    return rc < 0 ? -1 : 0;
}

static int write_file(const char *path, const unsigned char *buf, size_t len, base_error *err)
{
    return base_file_write_all(path, buf, len, "image", err);
}

static int write_jpeg(const base_view *v, const char *path, int quality, base_error *err)
{
    unsigned char *jpeg;
    unsigned long len;
    if (jpeg_encode(v, quality > 0 ? (quality > 100 ? 100 : quality) : 95, &jpeg, &len, err) < 0) {
        base_error_prefix(err, path);
        return -1;
    }
    int rc = write_file(path, jpeg, len, err);
    tjFree(jpeg);
    return rc;
}

int media_image_write(const base_view *img, const char *path, int jpeg_quality, base_error *err)
{
    if (!view_ok(img))
        return base_error_set(err, "%s: cannot write image: not an 8-bit gray or BGR picture", path);
    const char *dot = strrchr(path, '.');
    if (dot && strcasecmp(dot, ".png") == 0)
        return write_png(img, path, err);
    if (dot && (strcasecmp(dot, ".jpg") == 0 || strcasecmp(dot, ".jpeg") == 0))
        return write_jpeg(img, path, jpeg_quality, err);
    return base_error_set(err, "%s: cannot write image: the name must end in .png, .jpg or .jpeg", path);
}

static int jpeg_decode(tjhandle tj, const unsigned char *jpeg, unsigned long len, const base_view *img,
                       uint8_t *out, size_t stride, int pf, base_error *err)
{
    if (tjDecompress2(tj, jpeg, len, out, img->width, (int)stride, img->height, pf, 0) < 0)
        return base_error_set(err, "JPEG round trip: %s", tjGetErrorStr2(tj));
    return 0;
}

int media_jpeg_roundtrip(const base_view *img, int quality, uint8_t *back, size_t back_stride, uint8_t *gray,
                         size_t gray_stride, base_error *err)
{
    if (!view_ok(img) || quality < 1)
        return base_error_set(err, "JPEG round trip: needs an 8-bit gray or BGR picture and a quality of 1..100");
    unsigned char *jpeg;
    unsigned long len;
    if (jpeg_encode(img, quality > 100 ? 100 : quality, &jpeg, &len, err) < 0)
        return -1;
    tjhandle tj = tjInitDecompress();
    int rc = tj ? 0 : base_error_set(err, "JPEG round trip: cannot start the decompressor");
    /* Gray out of a colour JPEG is its Y component as stored: what a
     * camera's Y plane or a gray JPEG reader gives. */
    if (rc == 0 && gray)
        rc = jpeg_decode(tj, jpeg, len, img, gray, gray_stride, TJPF_GRAY, err);
    if (rc == 0 && back)
        rc = jpeg_decode(tj, jpeg, len, img, back, back_stride, img->channels == 1 ? TJPF_GRAY : TJPF_BGR, err);
    if (tj)
        tjDestroy(tj);
    tjFree(jpeg);
    return rc;
}
