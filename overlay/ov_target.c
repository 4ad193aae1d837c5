/* ov_target: camera and projector surfaces, getting pixels and files out of any target. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "ov_internal.h"
#include "rules_relief.h"
#include "ov_keepout.h"
#include "ov_png.h"
#include "ov_target.h"
#include "ov_text.h"

int ov_paper_from_word(const char *word, ov_paper *out)
{
    char w[16] = "";
    for (size_t i = 0; word && word[i] && i + 1 < sizeof w; i++)
        w[i] = (char)tolower((unsigned char)word[i]);
    if (strcmp(w, "a4") == 0)
        *out = OV_PAPER_A4;
    else if (strcmp(w, "letter") == 0)
        *out = OV_PAPER_LETTER;
    else
        return -1;
    return 0;
}

static int cairo_ok(cairo_status_t st, const char *what, base_error *err)
{
    if (st == CAIRO_STATUS_SUCCESS)
        return 0;
    return base_error_set(err, "%s: %s", what, cairo_status_to_string(st));
}

static ov_target *target_alloc(ov_target_kind kind, base_error *err)
{
    ov_target *t = calloc(1, sizeof *t);
    if (!t)
        base_error_set(err, "out of memory");
    else
        t->kind = kind;
    return t;
}

static int raster_init(ov_target *t, int width, int height, base_error *err)
{
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
        return base_error_set(err, "overlay: image size %dx%d is not usable", width, height);
    t->width = width;
    t->height = height;
    t->clip = (ov_box){0, 0, width, height};
    t->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    if (cairo_ok(cairo_surface_status(t->surface), "overlay: image surface", err) < 0)
        return -1;
    t->cr = cairo_create(t->surface);
    if (cairo_ok(cairo_status(t->cr), "overlay: cairo context", err) < 0)
        return -1;
    t->pango = ov_text_context_new(t->cr);
    t->layout = ov_layout_new(t->clip, NULL);
    if (!t->pango || !t->layout)
        return base_error_set(err, "out of memory");
    return 0;
}

/* Caller pixels -> the ARGB32 surface (opaque). */
static int load_pixels(ov_target *t, const uint8_t *px, ov_pixfmt fmt, size_t stride, base_error *err)
{
    static const int bpp[] = {1, 3, 3, 4};
    if ((unsigned)fmt > OV_PIX_RGBA32)
        return base_error_set(err, "overlay: unknown pixel format %d", (int)fmt);
    if (stride < (size_t)t->width * (size_t)bpp[fmt])
        return base_error_set(err, "overlay: stride %zu too small for %d pixels", stride, t->width);
    cairo_surface_flush(t->surface);
    uint8_t *dst = cairo_image_surface_get_data(t->surface);
    int ds = cairo_image_surface_get_stride(t->surface);
    for (int y = 0; y < t->height; y++) {
        const uint8_t *s = px + (size_t)y * stride;
        uint32_t *d = (uint32_t *)(void *)(dst + (size_t)y * (size_t)ds);
        if (fmt == OV_PIX_GRAY8) { /* a camera's gray picture: one loop the compiler vectorises */
            for (int x = 0; x < t->width; x++)
                d[x] = 0xFF000000u | (uint32_t)s[x] * 0x010101u;
            continue;
        }
        for (int x = 0; x < t->width; x++) {
            uint32_t r, g, b;
            switch (fmt) {
            case OV_PIX_GRAY8:
                r = g = b = s[x];
                break;
            case OV_PIX_RGB24:
                r = s[3 * x], g = s[3 * x + 1], b = s[3 * x + 2];
                break;
            case OV_PIX_BGR24:
                b = s[3 * x], g = s[3 * x + 1], r = s[3 * x + 2];
                break;
            default: /* RGBA: composite over black, as a projector would show it */
                r = (uint32_t)s[4 * x] * s[4 * x + 3] / 255;
                g = (uint32_t)s[4 * x + 1] * s[4 * x + 3] / 255;
                b = (uint32_t)s[4 * x + 2] * s[4 * x + 3] / 255;
                break;
            }
            d[x] = 0xFF000000u | r << 16 | g << 8 | b;
        }
    }
    cairo_surface_mark_dirty(t->surface);
    return 0;
}

ov_target *ov_target_new_camera(const calib_file *calib, int width, int height, const uint8_t *background,
                                ov_pixfmt fmt, size_t stride, base_error *err)
{
    if (!calib) {
        base_error_set(err, "overlay: camera target needs a calibration");
        return NULL;
    }
    if (calib->pose_missing) {
        base_error_set(err, "overlay: calibration has no board_pose: cannot map the board into the camera");
        return NULL;
    }
    ov_target *t = target_alloc(OV_TARGET_CAMERA, err);
    if (!t)
        return NULL;
    ov_map_init_camera_sized(&t->map, calib, width, height);
    /* Sizes scale with the frame: a 960-row frame is the reference. */
    t->unit = height / 960.0;
    if (raster_init(t, width, height, err) < 0 ||
        (background && load_pixels(t, background, fmt, stride, err) < 0)) {
        ov_target_free(t);
        return NULL;
    }
    if (!background) {
        cairo_set_source_rgb(t->cr, 0, 0, 0);
        cairo_paint(t->cr);
    }
    /* Lines and fills coverage-sampled 4 x 4 a pixel (Cairo's default samples 256 x 15: ~100 K instructions for a
     * base's outline): on hard table 1's camera picture 373 -> 271 M instructions for the marks, the lines' edges
     * a level or two off, nothing that reads otherwise at three times the size. Text keeps its own antialiasing. */
    cairo_set_antialias(t->cr, CAIRO_ANTIALIAS_FAST);
    return t;
}

ov_target *ov_target_new_projector(const double H[9], int width, int height, base_error *err)
{
    ov_target *t = target_alloc(OV_TARGET_PROJECTOR, err);
    if (!t)
        return NULL;
    if (!H || ov_map_init_homography(&t->map, H) < 0) {
        base_error_set(err, "overlay: the projector homography is singular");
        ov_target_free(t);
        return NULL;
    }
    t->unit = 1.0;
    if (raster_init(t, width, height, err) < 0) {
        ov_target_free(t);
        return NULL;
    }
    cairo_set_source_rgb(t->cr, 0, 0, 0);
    cairo_paint(t->cr);
    return t;
}

/* A report picture's pixels per inch: 0, or -1 with err set (one message for both ways of making one). */
static int check_report_dpi(double dpi, base_error *err)
{
    if (dpi >= OV_REPORT_DPI_MIN && dpi <= OV_REPORT_DPI_MAX)
        return 0;
    return base_error_set(err, "overlay: a report picture's resolution must be %d..%d dpi, got %g", OV_REPORT_DPI_MIN,
                          OV_REPORT_DPI_MAX, dpi);
}

/* A report target; dpi: a PNG's pixels per inch (SVG and PDF are in points). */
static ov_target *new_report(double x0, double y0, double w, double d, ov_paper paper, ov_format format, double dpi,
                             const char *path, base_error *err)
{
    if (format == OV_FORMAT_PNG && check_report_dpi(dpi, err) < 0)
        return NULL;
    if (!(w > 0) || !(d > 0) || !isfinite(w) || !isfinite(d) || !isfinite(x0) || !isfinite(y0)) {
        base_error_set(err, "overlay: report view %.1f x %.1f mm is not usable", w, d);
        return NULL;
    }
    if ((unsigned)format > OV_FORMAT_PDF || (unsigned)paper > OV_PAPER_LETTER) {
        base_error_set(err, "overlay: unknown report format %d or paper %d", (int)format, (int)paper);
        return NULL;
    }
    if (format != OV_FORMAT_PNG && !path) {
        base_error_set(err, "overlay: an SVG or PDF report needs a file path");
        return NULL;
    }
    ov_target *t = target_alloc(OV_TARGET_REPORT, err);
    if (!t)
        return NULL;
    t->format = format;
    t->paper = paper;
    t->png_dpi = dpi;
    if (path && !(t->path = strdup(path))) {
        base_error_set(err, "out of memory");
        ov_target_free(t);
        return NULL;
    }
    if (ov_page_init(t, x0, y0, w, d, err) < 0) {
        ov_target_free(t);
        return NULL;
    }
    return t;
}

ov_target *ov_target_new_report_view(double x0, double y0, double w, double d, ov_paper paper, ov_format format,
                                     const char *path, base_error *err)
{
    return new_report(x0, y0, w, d, paper, format, OV_REPORT_DPI, path, err);
}

ov_target *ov_target_new_report_png(double x0, double y0, double w, double d, ov_paper paper, double dpi,
                                    const char *path, base_error *err)
{
    return new_report(x0, y0, w, d, paper, OV_FORMAT_PNG, dpi, path, err);
}

ov_target *ov_target_new_report(double board_w, double board_d, ov_paper paper, ov_format format, const char *path,
                                base_error *err)
{
    return ov_target_new_report_view(0, 0, board_w, board_d, paper, format, path, err);
}

int ov_target_finish(ov_target *t, base_error *err)
{
    if (!t)
        return base_error_set(err, "overlay: no target");
    if (t->finished || t->kind != OV_TARGET_REPORT)
        return 0;
    t->finished = true;
    return t->path ? ov_page_finish(t, err) : 0;
}

void ov_target_free(ov_target *t)
{
    if (!t)
        return;
    if (t->kind == OV_TARGET_REPORT && !t->finished)
        ov_target_finish(t, NULL);
    if (t->kind == OV_TARGET_REPORT)
        ov_page_free(t);
    if (t->pango)
        g_object_unref(t->pango);
    if (t->cr)
        cairo_destroy(t->cr);
    if (t->surface)
        cairo_surface_destroy(t->surface);
    ov_layout_free(t->layout);
    ov_keepout_free(t->keepout);
    rules_snapshot_free(t->relief);
    free(t->path);
    free(t);
}

int ov_target_set_relief(ov_target *t, const rules_terrain *terrain, size_t n, base_error *err)
{
    rules_snapshot_free(t->relief);
    t->relief = NULL;
    ov_map_set_relief(&t->map, NULL, 0);
    if (!rules_relief_any(terrain, n))
        return 0;
    if (!(t->relief = rules_snapshot_new(1, 1)))
        return base_error_set(err, "overlay: out of memory");
    for (size_t i = 0; i < n; i++)
        if (terrain[i].relief == RULES_RELIEF_HILL && !rules_snapshot_copy_terrain(t->relief, &terrain[i]))
            return base_error_set(err, "overlay: out of memory");
    ov_map_set_relief(&t->map, t->relief->terrain, t->relief->n_terrain);
    return 0;
}

void ov_target_set_light_source(ov_target *t, const double source[3])
{
    ov_map_set_source(&t->map, source);
}

const ov_map *ov_target_map(const ov_target *t)
{
    return &t->map;
}

void ov_target_size(const ov_target *t, int *width, int *height)
{
    if (width)
        *width = t->width;
    if (height)
        *height = t->height;
    if (t->kind == OV_TARGET_REPORT)
        ov_page_total_size(t, width, height);
}

int ov_target_pages(const ov_target *t) { return t->kind == OV_TARGET_REPORT ? (int)t->n_pages : 1; }

const ov_layout *ov_target_layout(const ov_target *t) { return t->layout; }

int ov_target_set_background(ov_target *t, const uint8_t *pixels, ov_pixfmt fmt, size_t stride, base_error *err)
{
    if (!t || t->kind == OV_TARGET_REPORT)
        return base_error_set(err, "overlay: only camera and projector targets take a background");
    ov_layout_reset(t->layout); /* a new frame: label places are free again */
    if (!pixels) {
        cairo_set_source_rgb(t->cr, 0, 0, 0);
        cairo_set_operator(t->cr, CAIRO_OPERATOR_SOURCE);
        cairo_paint(t->cr);
        cairo_set_operator(t->cr, CAIRO_OPERATOR_OVER);
        return 0;
    }
    return load_pixels(t, pixels, fmt, stride, err);
}

/* An image surface holding the target's picture (a new reference; caller destroys). */
static cairo_surface_t *raster_of(ov_target *t, base_error *err)
{
    if (t->kind != OV_TARGET_REPORT) {
        cairo_surface_flush(t->surface);
        if (t->keepout) {
            /* Last, whatever was drawn: no light on a label. */
            ov_keepout_apply_argb(t->keepout, t->map.H, (uint32_t *)(void *)cairo_image_surface_get_data(t->surface),
                                  t->width, t->height, (size_t)cairo_image_surface_get_stride(t->surface));
            cairo_surface_mark_dirty(t->surface);
        }
        return cairo_surface_reference(t->surface);
    }
    return ov_page_raster(t, err);
}

int ov_target_set_keepout(ov_target *t, const ov_keepout *k, base_error *err)
{
    if (!t || t->kind != OV_TARGET_PROJECTOR)
        return base_error_set(err, "overlay: only a projector target takes a keep-out");
    ov_keepout *copy = NULL;
    if (k && !(copy = ov_keepout_copy(k)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    ov_keepout_free(t->keepout);
    t->keepout = copy;
    return 0;
}

int ov_target_keep_labels_dark(ov_target *t, const calib_projector *proj, const base_label *labels, size_t n,
                               base_error *err)
{
    ov_keepout_params kp;
    ov_keepout_params_from_calib(&kp, proj);
    ov_keepout *k = ov_keepout_new(&kp);
    int rc = k ? 0 : base_error_setc(err, BASE_E_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const base_label *l = &labels[i];
        if (ov_keepout_add_label(k, l->centre, l->heading, l->side_mm, l->height_mm, l->sigma_mm) < 0)
            rc = base_error_setc(err, BASE_E_NOMEM, "out of memory");
    }
    if (rc == 0)
        rc = ov_target_set_keepout(t, k, err);
    ov_keepout_free(k);
    return rc;
}

int ov_target_write_png(ov_target *t, const char *path, base_error *err)
{
    if (!t || !path)
        return base_error_set(err, "overlay: write_png needs a target and a path");
    cairo_surface_t *img = raster_of(t, err);
    if (!img)
        return -1;
    /* A camera frame is a photo (its background); a projector frame is drawn on black. */
    int rc = ov_png_write_as(img, path, t->kind == OV_TARGET_CAMERA ? OV_PNG_PHOTO : OV_PNG_DRAWING, err);
    cairo_surface_destroy(img);
    return rc;
}

int ov_target_write_report_png(ov_target *t, double dpi, const char *path, base_error *err)
{
    /* An SVG target's pages hold no text (its lines are <text> elements): only a PDF's are the whole page. */
    if (!t || !path || t->kind != OV_TARGET_REPORT || t->format != OV_FORMAT_PDF)
        return base_error_set(err, "overlay: write_report_png needs a PDF report target and a path");
    if (check_report_dpi(dpi, err) < 0)
        return -1;
    cairo_surface_t *img = ov_page_raster_at(t, dpi / 72.0, err);
    if (!img)
        return -1;
    int rc = ov_png_write_as(img, path, OV_PNG_DRAWING, err);
    cairo_surface_destroy(img);
    return rc;
}

int ov_target_copy_pixels(ov_target *t, uint8_t *dst, ov_pixfmt fmt, size_t stride, base_error *err)
{
    static const int bpp[] = {1, 3, 3, 4};
    if (!t || !dst || (unsigned)fmt > OV_PIX_RGBA32)
        return base_error_set(err, "overlay: copy_pixels needs a target, a buffer and a known format");
    cairo_surface_t *img = raster_of(t, err);
    if (!img)
        return -1;
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    if (stride < (size_t)w * (size_t)bpp[fmt]) {
        cairo_surface_destroy(img);
        return base_error_set(err, "overlay: stride %zu too small for %d pixels", stride, w);
    }
    const uint8_t *src = cairo_image_surface_get_data(img);
    int ss = cairo_image_surface_get_stride(img);
    for (int y = 0; y < h; y++) {
        const uint32_t *s = (const uint32_t *)(const void *)(src + (size_t)y * (size_t)ss);
        uint8_t *d = dst + (size_t)y * stride;
        if (fmt == OV_PIX_BGR24) { /* the camera picture's JPEG: one loop without the switch (~20 -> ~5 per pixel) */
            for (int x = 0; x < w; x++)
                d[3 * x] = (uint8_t)s[x], d[3 * x + 1] = (uint8_t)(s[x] >> 8), d[3 * x + 2] = (uint8_t)(s[x] >> 16);
            continue;
        }
        for (int x = 0; x < w; x++) {
            uint32_t p = s[x], a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
            switch (fmt) {
            case OV_PIX_GRAY8:
                d[x] = (uint8_t)((r * 77 + g * 150 + b * 29 + 128) >> 8);
                break;
            case OV_PIX_RGB24:
                d[3 * x] = (uint8_t)r, d[3 * x + 1] = (uint8_t)g, d[3 * x + 2] = (uint8_t)b;
                break;
            case OV_PIX_BGR24:
                d[3 * x] = (uint8_t)b, d[3 * x + 1] = (uint8_t)g, d[3 * x + 2] = (uint8_t)r;
                break;
            default: /* un-premultiply */
                d[4 * x] = (uint8_t)(a ? r * 255 / a : 0);
                d[4 * x + 1] = (uint8_t)(a ? g * 255 / a : 0);
                d[4 * x + 2] = (uint8_t)(a ? b * 255 / a : 0);
                d[4 * x + 3] = (uint8_t)a;
                break;
            }
        }
    }
    cairo_surface_destroy(img);
    return 0;
}
