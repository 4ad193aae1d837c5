/* tableref target: a printable AprilTag-grid calibration target and its layout file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagStandard41h12.h>

#include "base_file.h"
#include "calib_target.h"
#include "base_plan.h"
#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "media.h"

#if TABLEREF_HAVE_OVERLAY
#include <cairo-pdf.h>
#include <cairo.h>
#endif

static const cli_doc doc = {
    "target",
    "usage: tableref target --out TARGET.pdf|TARGET.png [options]\n"
    "\n"
    "Draws a calibration target: a grid of AprilTags filling the page, and\n"
    "writes its layout (every tag's corners in mm) beside it as TARGET.json,\n"
    "which `tableref calibrate camera --target TARGET.json` reads. Print it at\n"
    "100% scale (no \"fit to page\"), check the 100 mm bar with a ruler, and\n"
    "glue it to something flat.\n",
    "PDF needs tableref built with Cairo; PNG never does.\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage.\n",
};

static int paper_size(const char *name, double *w, double *h)
{
    static const struct {
        const char *name;
        double w, h;
    } papers[] = {{"A5", 148, 210}, {"A4", 210, 297}, {"A3", 297, 420}, {"letter", 215.9, 279.4}};
    for (size_t i = 0; i < sizeof papers / sizeof papers[0]; i++)
        if (strcasecmp(name, papers[i].name) == 0) {
            *w = papers[i].w, *h = papers[i].h;
            return 0;
        }
    char x;
    return sscanf(name, "%lf%c%lf", w, &x, h) == 3 && (x == 'x' || x == 'X') && *w > 0 && *h > 0 ? 0 : -1;
}

#if TABLEREF_HAVE_OVERLAY
static cairo_status_t write_to(void *writer, const unsigned char *data, unsigned int len)
{
    return base_file_writer_write(writer, data, len) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int write_pdf(const calib_target *t, const char *path, base_error *err)
{
    const double pt = 72.0 / 25.4;
    /* Through a temporary renamed over the target: never through a link, never half a page. */
    base_file_writer *w = base_file_writer_open(path, "the PDF", err);
    if (!w)
        return -1;
    cairo_surface_t *s = cairo_pdf_surface_create_for_stream(write_to, w, t->paper_mm[0] * pt, t->paper_mm[1] * pt);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        base_file_writer_abort(w);
        return base_error_set(err, "%s: cannot write the PDF", path);
    }
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, pt, pt); /* draw in mm */
    const int is41 = strcmp(t->family, "tagStandard41h12") == 0;
    apriltag_family_t *fam = is41 ? tagStandard41h12_create() : tag36h11_create();
    const int wb = fam->width_at_border, tw = fam->total_width, off = (tw - wb) / 2;
    const double cell = t->tag_size_mm / wb;
    /* Black cells as exact rectangles: vector output keeps the corners where the layout says. */
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (int k = 0; k < t->cols * t->rows; k++) {
        image_u8_t *bm = apriltag_to_image(fam, (uint32_t)(t->first_id + k));
        double c[4][2];
        calib_target_tag_corners(t, t->first_id + k, c);
        const double x0 = t->origin_mm[0] + c[3][0] - off * cell, y0 = t->origin_mm[1] + c[3][1] - off * cell;
        for (int y = 0; bm && y < tw; y++)
            for (int x = 0; x < tw; x++)
                if (!bm->buf[y * bm->stride + x])
                    cairo_rectangle(cr, x0 + x * cell, y0 + y * cell, cell, cell);
        cairo_fill(cr);
        image_u8_destroy(bm);
    }
    (is41 ? tagStandard41h12_destroy : tag36h11_destroy)(fam);
    /* Scale bar and caption in the bottom margin. */
    double ext[2];
    calib_target_extent(t, ext);
    const double bar = t->paper_mm[0] >= 130 ? 100 : 50, y = t->paper_mm[1] - 9;
    cairo_rectangle(cr, t->origin_mm[0], y, bar, 1.0);
    cairo_fill(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 2.8);
    char text[256];
    snprintf(text, sizeof text,
             "%.0f mm  |  tableref calibration target: %dx%d %s, %.1f mm tags, %.1f mm apart, IDs %d-%d. Print at 100%%.",
             bar, t->cols, t->rows, t->family, t->tag_size_mm, t->spacing_mm, t->first_id,
             t->first_id + t->cols * t->rows - 1);
    cairo_move_to(cr, t->origin_mm[0], y - 1.5);
    cairo_show_text(cr, text);
    cairo_show_page(cr);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    int bad = cairo_surface_status(s) != CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(s);
    if (bad) {
        base_file_writer_abort(w);
        return base_error_set(err, "%s: cannot write the PDF", path);
    }
    return base_file_writer_commit(w, err);
}
#endif

int cmd_target(int argc, char **argv)
{
    const char *out = NULL, *paper = "A4", *layout = NULL, *family = "tag36h11";
    double tag = 30, spacing = -1, margin = 15, first = 300, dpi = 300;
    int landscape = 0;
    const cli_opt opts[] = {
        CLI_OUTPUT("--out", &out, "TARGET.pdf|TARGET.png", "the target to draw"),
        CLI_CHOICE("--paper", &paper, "A4|A3|A5|letter|WxH", "A4 A3 A5 letter", "page size (WxH in mm; default A4)"),
        CLI_FLAG("--landscape", &landscape, 1, "turn the page"),
        CLI_NUMBER("--tag-mm", &tag, "S", 1, 1000, "black square edge (default 30)"),
        CLI_NUMBER("--spacing-mm", &spacing, "G", 0, 1000, "gap between black squares (default S/3)"),
        CLI_NUMBER("--margin-mm", &margin, "M", 0, 1000, "unprinted margin (default 15)"),
        CLI_WHOLE("--first-id", &first, "N", 0, 100000, "first tag ID (default 300)"),
        CLI_CHOICE("--family", &family, "F", "tag36h11 tagStandard41h12", "tag36h11 (default) or tagStandard41h12"),
        CLI_NUMBER("--dpi", &dpi, "D", 50, 2400, "PNG resolution (default 300)"),
        CLI_OUTPUT("--layout", &layout, "PATH", "layout file (default: --out with .json)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!out)
        return cli_missing("target", "--out TARGET.pdf or TARGET.png (where to draw the target)"), EXIT_BAD_INPUT;
    const char *dot = strrchr(out, '.');
    const int is_pdf = dot && strcasecmp(dot, ".pdf") == 0, is_png = dot && strcasecmp(dot, ".png") == 0;
    if (!is_pdf && !is_png) {
        fprintf(stderr, "tableref target: --out must end in .pdf or .png\n");
        return EXIT_BAD_INPUT;
    }
#if !TABLEREF_HAVE_OVERLAY
    if (is_pdf) {
        fprintf(stderr, "tableref target: this tableref was built without Cairo; write a .png instead\n");
        return EXIT_BAD_INPUT;
    }
#endif
    double pw, ph;
    if (paper_size(paper, &pw, &ph) < 0) {
        fprintf(stderr, "tableref target: --paper: expected A3, A4, A5, letter or WxH in mm, got '%s'\n", paper);
        return EXIT_BAD_INPUT;
    }
    if (landscape) {
        double t = pw;
        pw = ph, ph = t;
    }
    base_error err;
    calib_target t;
    calib_target_tags_default(&t);
    snprintf(t.family, sizeof t.family, "%s", family);
    t.tag_size_mm = tag;
    t.spacing_mm = spacing >= 0 ? spacing : tag / 3;
    t.first_id = (int)first;
    if (calib_target_fit_page(&t, pw, ph, margin, &err) < 0) {
        fprintf(stderr, "tableref target: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    char layout_buf[4096];
    if (!layout) { /* named after --out: planned with it, checked before anything is drawn */
        snprintf(layout_buf, sizeof layout_buf, "%.*s.json", (int)(dot - out), out);
        layout = layout_buf;
        if (base_plan_add(BASE_PLAN_WRITE, layout, "--out", out) < 0 || cli_plan_check("target") < 0)
            return EXIT_BAD_INPUT;
    }
    int rc = 0;
    if (is_png) {
        base_image *img = calib_target_raster(&t, dpi / 25.4, 4, &err);
        rc = img ? media_image_save(img, out, 95, &err) : -1;
        base_image_free(img);
    }
#if TABLEREF_HAVE_OVERLAY
    else
        rc = write_pdf(&t, out, &err);
#endif
    if (rc < 0 || calib_target_save(&t, layout, &err) < 0) {
        fprintf(stderr, "tableref target: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    printf("wrote %s: %dx%d %s tags of %.1f mm, %.1f mm apart, IDs %d-%d, on a %.0fx%.0f mm page\n", out, t.cols,
           t.rows, t.family, t.tag_size_mm, t.spacing_mm, t.first_id, t.first_id + t.cols * t.rows - 1, pw, ph);
    printf("wrote %s (the layout `tableref calibrate camera --target` reads)\n", layout);
    return 0;
}
