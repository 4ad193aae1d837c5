/* ov_png: Cairo image surfaces to PNG files at a fast zlib level (ov_png.h). */
#include "ov_png.h"

#include "base_file.h"
#include "ov_internal.h"

#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

/* Measured on the referee's 12 MP camera picture (a photo with drawing on
 * it): level 1 with any single filter (None, Sub, Up, Paeth) costs the same
 * within noise, ~0.3 s against ~1.9 s for Cairo's level 6 with adaptive
 * filters; Sub makes 12.6 MB against 10.4 MB, None 13.4 MB. Level 2 or 3 save
 * a few per cent of size for 5-15% more time. A drawing (a report page, a
 * projector frame: flat colours) is the other way round: with no filter its
 * runs stay runs, and the hard table's report.png takes 0.030 s instead of
 * 0.037 s for 680 KB instead of 794 KB, its projector.png 162 KB instead of
 * 202 KB. */
enum { FAST_ZLIB_LEVEL = 1 };

static int is_opaque(const uint8_t *data, int width, int height, int stride)
{
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < width; x++)
            if ((row[x] >> 24) != 0xff)
                return 0;
    }
    return 1;
}

/* One row of Cairo pixels (native-endian 0xAARRGGBB, colour premultiplied by
 * alpha) as PNG bytes: RGB, or RGBA with the colour divided back by alpha and
 * rounded exactly as cairo_surface_write_to_png does. */
static void row_to_bytes(const uint32_t *src, int width, int with_alpha, png_byte *out)
{
    if (!with_alpha) { /* an opaque picture (every report page, every camera frame): one loop without branches */
        for (int x = 0; x < width; x++)
            out[3 * x] = (png_byte)(src[x] >> 16), out[3 * x + 1] = (png_byte)(src[x] >> 8),
                    out[3 * x + 2] = (png_byte)src[x];
        return;
    }
    for (int x = 0; x < width; x++) {
        uint32_t p = src[x];
        unsigned a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
        if (!with_alpha) {
            *out++ = (png_byte)r;
            *out++ = (png_byte)g;
            *out++ = (png_byte)b;
            continue;
        }
        if (a == 0) {
            r = g = b = 0;
        } else {
            r = (r * 255 + a / 2) / a;
            g = (g * 255 + a / 2) / a;
            b = (b * 255 + a / 2) / a;
        }
        *out++ = (png_byte)r;
        *out++ = (png_byte)g;
        *out++ = (png_byte)b;
        *out++ = (png_byte)a;
    }
}

typedef struct png_job {
    FILE *f;
    png_structp png;
    png_infop info;
    png_bytep row;
} png_job;

/* libpng reports its errors by longjmp: everything it touches lives in *job,
 * so that nothing is left in a clobbered local after the jump. */
static int write_rows(png_job *job, const uint8_t *data, int width, int height, int stride, int with_alpha,
                      int filter)
{
    if (setjmp(png_jmpbuf(job->png)))
        return -1;
    png_init_io(job->png, job->f);
    png_set_compression_level(job->png, FAST_ZLIB_LEVEL);
    png_set_filter(job->png, PNG_FILTER_TYPE_BASE, filter);
    png_set_IHDR(job->png, job->info, (png_uint_32)width, (png_uint_32)height, 8,
                 with_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* Cairo's writer marks a white background; the file keeps that chunk. */
    png_color_16 white = {0, 0xff, 0xff, 0xff, 0xff};
    png_set_bKGD(job->png, job->info, &white);
    png_write_info(job->png, job->info);
    for (int y = 0; y < height; y++) {
        row_to_bytes((const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride), width, with_alpha,
                     job->row);
        png_write_row(job->png, job->row);
    }
    png_write_end(job->png, job->info);
    return 0;
}

int ov_png_write_as(cairo_surface_t *img, const char *path, ov_png_content content, base_error *err)
{
    cairo_format_t fmt = cairo_image_surface_get_format(img);
    if (fmt != CAIRO_FORMAT_ARGB32 && fmt != CAIRO_FORMAT_RGB24)
        return ov_output_png(img, path, err); /* Cairo's own writer, through the atomic writer */
    cairo_surface_flush(img);
    const uint8_t *data = cairo_image_surface_get_data(img);
    int width = cairo_image_surface_get_width(img), height = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    if (!data || width <= 0 || height <= 0)
        return base_error_set(err, "%s: cannot write PNG: the picture is empty", path);
    int with_alpha = fmt == CAIRO_FORMAT_ARGB32 && !is_opaque(data, width, height, stride);

    png_job job = {0};
    base_file_writer *w = base_file_writer_open(path, "PNG", err);
    if (!w)
        return -1;
    job.f = base_file_writer_stream(w);
    job.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    job.info = job.png ? png_create_info_struct(job.png) : NULL;
    job.row = malloc((size_t)width * 4);
    int rc = job.png && job.info && job.row ? write_rows(&job, data, width, height, stride, with_alpha,
                                                                content == OV_PNG_PHOTO ? PNG_FILTER_SUB : PNG_FILTER_NONE)
                                                   : -1;
    png_destroy_write_struct(&job.png, &job.info);
    free(job.row);
    if (rc < 0) {
        base_file_writer_abort(w);
        return base_error_setc(err, BASE_E_IO, "%s: cannot write PNG", path);
    }
    return base_file_writer_commit(w, err); /* a temporary beside the target, renamed over it */
}

int ov_png_write(cairo_surface_t *img, const char *path, base_error *err)
{
    return ov_png_write_as(img, path, OV_PNG_PHOTO, err);
}
