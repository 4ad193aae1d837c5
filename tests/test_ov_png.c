/*
 * ov_png: the fast PNG writer makes the file Cairo's own writer makes, but
 * for the compression: the same size, colour type (RGB for an opaque
 * surface, RGBA otherwise), white bKGD chunk and, decoded, the same bytes to
 * the last one (colour unpremultiplied with Cairo's rounding). A path that
 * cannot be written gives -1 and a message naming it.
 */
#include <criterion/criterion.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>

#include "ov_png.h"

/* A picture with detail in every channel (a photo's noise) and, when asked, every alpha value. */
static cairo_surface_t *test_surface(int w, int h, int with_alpha)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_surface_flush(s);
    uint8_t *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t state = 12345u;
    for (int y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            state = state * 1664525u + 1013904223u;
            uint32_t a = with_alpha ? (uint32_t)((x + y * w) & 0xff) : 0xffu;
            uint32_t r = ((state >> 8) & 0xff) * a / 255, g = ((state >> 16) & 0xff) * a / 255,
                     b = ((state >> 24) & 0xff) * a / 255;
            row[x] = a << 24 | r << 16 | g << 8 | b;
        }
    }
    cairo_surface_mark_dirty(s);
    return s;
}

typedef struct decoded {
    png_uint_32 width, height;
    int color_type;
    int has_bkgd;
    png_uint_16 bkgd[3];
    uint8_t *rgba;
} decoded;

static decoded decode(const char *path)
{
    decoded d = {0};
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    cr_assert(png && info);
    cr_assert_eq(setjmp(png_jmpbuf(png)), 0, "%s: libpng failed", path);
    png_init_io(png, f);
    png_read_info(png, info);
    d.width = png_get_image_width(png, info);
    d.height = png_get_image_height(png, info);
    d.color_type = png_get_color_type(png, info);
    png_color_16p bk = NULL;
    d.has_bkgd = png_get_bKGD(png, info, &bk) != 0;
    if (d.has_bkgd) {
        d.bkgd[0] = bk->red;
        d.bkgd[1] = bk->green;
        d.bkgd[2] = bk->blue;
    }
    if (d.color_type == PNG_COLOR_TYPE_RGB)
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    d.rgba = malloc((size_t)d.width * d.height * 4);
    for (png_uint_32 y = 0; y < d.height; y++)
        png_read_row(png, d.rgba + (size_t)y * d.width * 4, NULL);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    return d;
}

static void same_file_as_cairo(int with_alpha, int expected_color_type)
{
    char dir[] = "/tmp/tableref-ovpng-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char ours[64], cairos[64];
    snprintf(ours, sizeof ours, "%s/ours.png", dir);
    snprintf(cairos, sizeof cairos, "%s/cairo.png", dir);
    cairo_surface_t *s = test_surface(301, 97, with_alpha);
    base_error err = {0};
    cr_assert_eq(ov_png_write(s, ours, &err), 0, "%s", err.msg);
    cr_assert_eq(cairo_surface_write_to_png(s, cairos), CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(s);

    decoded a = decode(ours), b = decode(cairos);
    cr_assert_eq(a.width, 301);
    cr_assert_eq(a.height, 97);
    cr_assert_eq(b.width, a.width);
    cr_assert_eq(b.height, a.height);
    cr_assert_eq(a.color_type, expected_color_type);
    cr_assert_eq(b.color_type, a.color_type);
    cr_assert(a.has_bkgd && b.has_bkgd);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(a.bkgd[i], 0xff);
        cr_assert_eq(b.bkgd[i], a.bkgd[i]);
    }
    size_t n = (size_t)a.width * a.height * 4, differing = 0;
    for (size_t i = 0; i < n; i++)
        differing += a.rgba[i] != b.rgba[i];
    cr_assert_eq(differing, 0, "%zu of %zu bytes differ from Cairo's file", differing, n);
    free(a.rgba);
    free(b.rgba);
    unlink(ours);
    unlink(cairos);
    rmdir(dir);
}

Test(ov_png, opaque_surface_is_cairos_rgb_file) { same_file_as_cairo(0, PNG_COLOR_TYPE_RGB); }

Test(ov_png, translucent_surface_is_cairos_rgba_file) { same_file_as_cairo(1, PNG_COLOR_TYPE_RGB_ALPHA); }

Test(ov_png, unwritable_path_is_an_error_naming_it)
{
    cairo_surface_t *s = test_surface(8, 8, 0);
    base_error err = {0};
    cr_assert_eq(ov_png_write(s, "/nonexistent-dir/x.png", &err), -1);
    cr_assert_not_null(strstr(err.msg, "/nonexistent-dir/x.png"), "%s", err.msg);
    cairo_surface_destroy(s);
}
