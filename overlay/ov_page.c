/*
 * ov_page: report pages. Each page is a Cairo recording, so text can flow
 * onto a new page while drawing; finishing replays them into the file: a
 * PDF of A4 or Letter pages (text stays text: Pango's glyphs carry it), an
 * SVG of the pages one under the other with every line of text a <text>
 * element, or a PNG at 150 dpi (OV_REPORT_DPI) or the resolution asked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "base_file.h"
#include "base_text.h"
#include "ov_internal.h"
#include "ov_png.h"
#include "ov_text.h"

#define PT_PER_MM (72.0 / 25.4)
#define MARGIN_PT 36.0
#define HEADER_PT 46.0      /* the title's band above the board */
#define AXIS_LEFT_PT 20.0   /* inch numbers left of the board */
#define AXIS_BELOW_PT 14.0  /* ... and under it */
#define FIGURE_SHARE 0.5    /* of the page's height at most */
#define GAP_PT 12.0         /* between stacked pages (PNG, SVG) */

static void paper_pt(ov_paper p, double *w, double *h)
{
    if (p == OV_PAPER_LETTER)
        *w = 612, *h = 792;
    else
        *w = 210 * PT_PER_MM, *h = 297 * PT_PER_MM;
}

static int new_page(ov_target *t)
{
    cairo_surface_t **pages = realloc(t->pages, (t->n_pages + 1) * sizeof *pages);
    if (!pages)
        return -1;
    t->pages = pages;
    cairo_rectangle_t ext = {0, 0, t->page_w, t->page_h};
    cairo_surface_t *s = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &ext);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    pages[t->n_pages++] = s;
    if (t->cr)
        cairo_destroy(t->cr);
    t->surface = s; /* owned by pages[] */
    t->cr = cairo_create(s);
    /* A page's PNG (its replay) samples lines and fills 4 x 4 a pixel, as a camera picture (ov_target_new_camera):
     * ~50 M instructions fewer for hard table 1's report.png; a PDF or SVG keeps its curves whatever this says. */
    cairo_set_antialias(t->cr, CAIRO_ANTIALIAS_FAST);
    cairo_set_source_rgb(t->cr, 1, 1, 1);
    cairo_paint(t->cr);
    t->flow_y = t->margin;
    return cairo_status(t->cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

int ov_page_next(ov_target *t) { return new_page(t); }

/* Background, inch grid (heavier every 6") and edges of the board window. */
static void draw_board(ov_target *t)
{
    cairo_t *cr = t->cr;
    base_vec2 c[4] = {{t->view_x0, t->view_y0},
                       {t->view_x0 + t->view_w, t->view_y0},
                       {t->view_x0 + t->view_w, t->view_y0 + t->view_d},
                       {t->view_x0, t->view_y0 + t->view_d}};
    ov_path_poly(t, c, 4, true);
    cairo_set_source_rgb(cr, 0.965, 0.955, 0.925);
    cairo_fill(cr);
    const double in = BASE_MM_PER_INCH, k = t->unit, dark[3] = {0.42, 0.40, 0.36};
    const double label_px = 6.5 * k;
    /* Every inch when inches are at least 5 pt apart, else every 6". */
    double s = ov_scale_at(t, c[0]) / k;
    int every = s * in >= 5 ? 1 : 6;
    for (int axis = 0; axis < 2; axis++) {
        double lo = axis ? t->view_y0 : t->view_x0, len = axis ? t->view_d : t->view_w;
        for (long i = (long)ceil(lo / in - 1e-9); i * in <= lo + len + 1e-9; i++) {
            if (i % every)
                continue;
            double v = i * in;
            base_vec2 a = axis ? base_v2(t->view_x0, v) : base_v2(v, t->view_y0);
            base_vec2 b = axis ? base_v2(t->view_x0 + t->view_w, v) : base_v2(v, t->view_y0 + t->view_d);
            base_vec2 seg[2] = {a, b};
            ov_path_poly(t, seg, 2, false);
            bool major = i % 6 == 0;
            cairo_set_source_rgba(cr, 0.55, 0.52, 0.45, major ? 0.5 : 0.2);
            cairo_set_line_width(cr, (major ? 0.6 : 0.35) * k);
            cairo_stroke(cr);
            double x, y;
            if (!major || !ov_dev(t, a, &x, &y))
                continue;
            char lab[16];
            snprintf(lab, sizeof lab, "%ld\"", i);
            ov_text tx;
            if (ov_text_init(&tx, t, lab, label_px, false, 0) < 0)
                continue;
            if (axis)
                ov_text_draw(t, &tx, x - tx.w - 3 * k, y - tx.h / 2, dark, 1, NULL, 0);
            else
                ov_text_draw(t, &tx, x - tx.w / 2, y + 2 * k, dark, 1, NULL, 0);
            ov_text_free(&tx);
        }
    }
    ov_path_poly(t, c, 4, true);
    cairo_set_source_rgb(cr, 0.35, 0.33, 0.3);
    cairo_set_line_width(cr, 0.8 * k);
    cairo_stroke(cr);
}

int ov_page_init(ov_target *t, double x0, double y0, double w, double d, base_error *err)
{
    double pw, ph;
    paper_pt(t->paper, &pw, &ph);
    const double k = t->format == OV_FORMAT_PNG ? t->png_dpi / 72.0 : 1.0;
    t->unit = k;
    t->page_w = pw * k, t->page_h = ph * k;
    t->width = (int)ceil(t->page_w), t->height = (int)ceil(t->page_h);
    t->margin = MARGIN_PT * k;
    t->view_x0 = x0, t->view_y0 = y0, t->view_w = w, t->view_d = d;
    if (new_page(t) < 0)
        return base_error_set(err, "overlay: cannot start a report page (out of memory?)");
    t->pango = ov_text_context_new(t->cr);
    if (!t->pango)
        return base_error_set(err, "out of memory");
    /* The board window: the page's width between the margins (room for inch numbers on the left),
     * at most FIGURE_SHARE of its height; never cut. */
    double maxw = t->page_w - 2 * t->margin - AXIS_LEFT_PT * k, maxh = FIGURE_SHARE * t->page_h;
    double s = fmin(maxw / w, maxh / d);
    double ox = t->margin + AXIS_LEFT_PT * k + (maxw - w * s) / 2, oy = t->margin + HEADER_PT * k;
    ov_map_init_page(&t->map, x0, y0, d, s, ox, oy);
    t->clip = (ov_box){ox, oy, ox + w * s, oy + d * s};
    t->layout = ov_layout_new(t->clip, NULL);
    if (!t->layout)
        return base_error_set(err, "out of memory");
    draw_board(t);
    t->flow_y = t->clip.y1 + (AXIS_BELOW_PT + 8) * k;
    return 0;
}

void ov_page_total_size(const ov_target *t, int *w, int *h)
{
    size_t n = t->n_pages ? t->n_pages : 1;
    if (w)
        *w = (int)ceil(t->page_w);
    if (h)
        *h = (int)ceil(n * t->page_h + (n - 1) * GAP_PT * t->unit);
}

/* Every page, one under the other, onto cr. */
static void stack_pages(const ov_target *t, cairo_t *cr)
{
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_paint(cr);
    for (size_t i = 0; i < t->n_pages; i++) {
        double oy = i * (t->page_h + GAP_PT * t->unit);
        cairo_rectangle(cr, 0, oy, t->page_w, t->page_h);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill(cr);
        cairo_set_source_surface(cr, t->pages[i], 0, oy);
        cairo_paint(cr);
    }
}

cairo_surface_t *ov_page_raster_at(ov_target *t, double scale, base_error *err)
{
    int w, h;
    ov_page_total_size(t, &w, &h);
    if (scale != 1) {
        size_t n = t->n_pages ? t->n_pages : 1;
        w = (int)ceil(t->page_w * scale);
        h = (int)ceil((n * t->page_h + (n - 1) * GAP_PT * t->unit) * scale);
    }
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(img);
    cairo_scale(cr, scale, scale);
    stack_pages(t, cr);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st != CAIRO_STATUS_SUCCESS || cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        base_error_set(err, "overlay: report picture: %s", cairo_status_to_string(st));
        cairo_surface_destroy(img);
        return NULL;
    }
    cairo_surface_flush(img);
    return img;
}

cairo_surface_t *ov_page_raster(ov_target *t, base_error *err) { return ov_page_raster_at(t, 1, err); }

/* ---- SVG text (kept by ov_svg_text.c as it was drawn) ---- */

/* XML text: & < > " ' as entities, and controls and invalid UTF-8 (which XML refuses) as "\xNN". */
static void svg_escaped(FILE *f, const char *s)
{
    char *e = base_text_escape_markup(s);
    fputs(e ? e : "", f);
    free(e);
}

static int rgb255(double c) { return (int)lround(fmin(1, fmax(0, c)) * 255); }

static void svg_run(FILE *f, const ov_target *t, const ov_svg_run *r)
{
    double oy = r->page * (t->page_h + GAP_PT * t->unit);
    fprintf(f, "<text transform=\"translate(0 %.3f) matrix(%.6g %.6g %.6g %.6g %.3f %.3f)\" x=\"%.3f\" y=\"%.3f\" "
               "font-family=\"DejaVu Sans, sans-serif\" font-size=\"%.3f\" font-weight=\"%s\" fill=\"rgb(%d,%d,%d)\"",
            oy, r->m[0], r->m[1], r->m[2], r->m[3], r->m[4], r->m[5], r->x, r->y, r->px, r->bold ? "bold" : "normal",
            rgb255(r->fg[0]), rgb255(r->fg[1]), rgb255(r->fg[2]));
    if (r->alpha < 1)
        fprintf(f, " fill-opacity=\"%.3f\"", r->alpha);
    if (r->halo_w > 0 && r->halo[3] > 0)
        fprintf(f, " stroke=\"rgb(%d,%d,%d)\" stroke-opacity=\"%.3f\" stroke-width=\"%.3f\" stroke-linejoin=\"round\" "
                   "paint-order=\"stroke\"",
                rgb255(r->halo[0]), rgb255(r->halo[1]), rgb255(r->halo[2]), r->halo[3], r->halo_w);
    fputs(" xml:space=\"preserve\">", f);
    svg_escaped(f, r->text);
    fputs("</text>\n", f);
}

typedef struct membuf {
    unsigned char *data;
    size_t n, cap;
} membuf;

static cairo_status_t mem_write(void *closure, const unsigned char *data, unsigned int len)
{
    membuf *b = closure;
    if (b->n + len > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->n + len)
            cap *= 2;
        unsigned char *d = realloc(b->data, cap);
        if (!d)
            return CAIRO_STATUS_NO_MEMORY;
        b->data = d, b->cap = cap;
    }
    memcpy(b->data + b->n, data, len);
    b->n += len;
    return CAIRO_STATUS_SUCCESS;
}

/* Cairo draws the pages; the text goes in as <text> elements before the closing tag. */
static int write_svg(ov_target *t, base_error *err)
{
    int w, h;
    ov_page_total_size(t, &w, &h);
    membuf b = {0};
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(mem_write, &b, w, h);
    cairo_t *cr = cairo_create(s);
    stack_pages(t, cr);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_status_t st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    const char *end = NULL;
    for (size_t i = b.n >= 6 ? b.n - 6 : 0; b.data && i > 0 && !end; i--)
        if (memcmp(b.data + i, "</svg>", 6) == 0)
            end = (const char *)b.data + i;
    int rc = 0;
    base_file_writer *out = NULL;
    if (st != CAIRO_STATUS_SUCCESS || !end) {
        rc = base_error_set(err, "%s: cannot write: %s", t->path,
                             st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st) : "cannot open the file");
    } else if (!(out = base_file_writer_open(t->path, NULL, err))) {
        rc = -1;
    } else {
        FILE *f = base_file_writer_stream(out);
        fwrite(b.data, 1, (size_t)(end - (const char *)b.data), f);
        fputs("<g id=\"text\">\n", f);
        for (size_t i = 0; i < t->n_svg; i++)
            svg_run(f, t, &t->svg[i]);
        fputs("</g>\n</svg>\n", f);
        rc = base_file_writer_commit(out, err);
    }
    free(b.data);
    return rc;
}

static int write_pdf(ov_target *t, base_error *err)
{
    base_file_writer *w = base_file_writer_open(t->path, "PDF", err);
    if (!w)
        return -1;
    cairo_surface_t *s = cairo_pdf_surface_create_for_stream(ov_output_write, w, t->page_w, t->page_h);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, "tableref referee report");
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "tableref");
    cairo_t *cr = cairo_create(s);
    for (size_t i = 0; i < t->n_pages; i++) {
        cairo_set_source_surface(cr, t->pages[i], 0, 0);
        cairo_paint(cr);
        cairo_show_page(cr);
    }
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_status_t st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        base_file_writer_abort(w);
        return base_error_set(err, "%s: cannot write: %s", t->path, cairo_status_to_string(st));
    }
    return base_file_writer_commit(w, err);
}

int ov_page_finish(ov_target *t, base_error *err)
{
    if (t->format == OV_FORMAT_PDF)
        return write_pdf(t, err);
    if (t->format == OV_FORMAT_SVG)
        return write_svg(t, err);
    cairo_surface_t *img = ov_page_raster(t, err);
    if (!img)
        return -1;
    int rc = ov_png_write_as(img, t->path, OV_PNG_DRAWING, err);
    cairo_surface_destroy(img);
    return rc;
}

void ov_page_free(ov_target *t)
{
    /* t->surface is one of the pages: ov_target_free must not destroy it again. */
    for (size_t i = 0; i < t->n_pages; i++)
        cairo_surface_destroy(t->pages[i]);
    free(t->pages);
    t->pages = NULL;
    t->n_pages = 0;
    t->surface = NULL;
    for (size_t i = 0; i < t->n_svg; i++)
        free(t->svg[i].text);
    free(t->svg);
    t->svg = NULL;
    t->n_svg = 0;
}
