/*
 * overlay_report: report pages. A4 (595 x 842 pt) or Letter (612 x 792 pt);
 * the judged area grows until no unit it touches is cut (the demo's
 * unjudged archers wholly inside, with their name); text stays text: the
 * PDF's words come back out of it (pdftotext, poppler-utils) and the SVG
 * has <text> elements with the verdict's words. Exact page sizes to 0.01 pt.
 */
#include <cairo.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ov_scene.h"
#include "overlay_test_util.h"

static char *slurp(const char *cmd_or_path, bool command)
{
    FILE *f = command ? popen(cmd_or_path, "r") : fopen(cmd_or_path, "r");
    cr_assert_not_null(f, "%s", cmd_or_path);
    size_t cap = 1 << 20, n = 0;
    char *s = malloc(cap);
    size_t k;
    while ((k = fread(s + n, 1, cap - 1 - n, f)) > 0)
        n += k;
    s[n] = 0;
    if (command)
        pclose(f);
    else
        fclose(f);
    return s;
}

Test(overlay_report, the_judged_area_cuts_no_unit)
{
    ot_turn t;
    ot_demo_turn(&t);
    double v[4];
    ov_report_view(t.before, t.after, &t.report, NULL, false, v);
    const rules_snapshot *snaps[2] = {t.before, t.after};
    for (int s = 0; s < 2; s++)
        for (size_t u = 0; u < snaps[s]->n_units; u++) {
            const rules_unit *un = &snaps[s]->units[u];
            for (size_t m = 0; m < un->n_models; m++) {
                base_vec2 k[4];
                base_obb b = rules_model_base(un, &un->models[m]);
                base_obb_corners(&b, k);
                for (int c = 0; c < 4; c++)
                    cr_expect(k[c].x >= v[0] - 0.01 && k[c].x <= v[0] + v[2] + 0.01 && k[c].y >= v[1] - 0.01 &&
                                  k[c].y <= v[1] + v[3] + 0.01,
                              "%s's %s corner (%.1f, %.1f) inside the view [%.1f %.1f %.1f %.1f]", un->id,
                              un->models[m].id, k[c].x, k[c].y, v[0], v[1], v[2], v[3]);
            }
        }
    ot_turn_clear(&t);
}

/* The demo's report written as `fmt` on `paper` into dir/name; its page size in points. */
static void write_report(const ot_turn *t, ov_paper paper, ov_format fmt, const char *path, double *w, double *h)
{
    base_error err;
    double v[4];
    ov_report_view(t->before, t->after, &t->report, NULL, false, v);
    ov_target *r = ov_target_new_report_view(v[0], v[1], v[2], v[3], paper, fmt, path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(ov_draw_verdict(r, t->before, t->after, &t->report, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_finish(r, &err), 0, "%s", err.msg);
    cr_expect(ov_target_pages(r) >= 1 && ov_target_pages(r) <= 2, "the demo takes %d pages", ov_target_pages(r));
    int iw, ih;
    ov_target_size(r, &iw, &ih);
    *w = iw, *h = ih;
    ov_target_free(r);
}

Test(overlay_report, pdf_pages_are_a4_or_letter_and_their_text_is_text, .timeout = 60)
{
    ot_turn t;
    ot_demo_turn(&t);
    char dir[] = "/tmp/tableref-ovreport-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const struct {
        ov_paper paper;
        const char *name;
        double w, h;
    } papers[2] = {{OV_PAPER_A4, "a4", 595.28, 841.89}, {OV_PAPER_LETTER, "letter", 612, 792}};
    for (int i = 0; i < 2; i++) {
        char pdf[512], cmd[1200];
        snprintf(pdf, sizeof pdf, "%s/%s.pdf", dir, papers[i].name);
        double w, h;
        write_report(&t, papers[i].paper, OV_FORMAT_PDF, pdf, &w, &h);
        snprintf(cmd, sizeof cmd, "pdfinfo '%s'", pdf);
        char *info = slurp(cmd, true);
        double pw = 0, ph = 0;
        const char *sz = strstr(info, "Page size:");
        cr_assert_not_null(sz, "pdfinfo: %s", info);
        cr_assert_eq(sscanf(sz, "Page size: %lf x %lf", &pw, &ph), 2);
        cr_expect_float_eq(pw, papers[i].w, 0.01, "%s: %.2f pt wide", papers[i].name, pw);
        cr_expect_float_eq(ph, papers[i].h, 0.01, "%s: %.2f pt tall", papers[i].name, ph);
        free(info);
        snprintf(cmd, sizeof cmd, "pdftotext -layout '%s' -", pdf);
        char *text = slurp(cmd, true);
        cr_expect_not_null(strstr(text, "spears"), "the PDF's text can be searched");
        cr_expect_not_null(strstr(text, "MU-MODEL-DIST"), "the violation's code");
        cr_expect_not_null(strstr(text, "10.38\""), "the distance");
        cr_expect_not_null(strstr(text, "archers"), "the unjudged unit's name, whole");
        free(text);
        remove(pdf);
    }
    char svg[512];
    snprintf(svg, sizeof svg, "%s/r.svg", dir);
    double w, h;
    write_report(&t, OV_PAPER_A4, OV_FORMAT_SVG, svg, &w, &h);
    char *s = slurp(svg, false);
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, "<text")); p++)
        n++;
    cr_expect_geq(n, 40, "the SVG's words are <text> elements (%zu)", n);
    cr_expect_not_null(strstr(s, "ILLEGAL"), "the verdict is in the SVG as text");
    free(s);
    remove(svg);
    rmdir(dir);
    ot_turn_clear(&t);
}

/*
 * A model table that flows onto a new page names its columns again at the
 * top of it: on Letter, the crowded board's report (25 units of 10 models,
 * every one judged) runs over several pages, and no page starts with a
 * model's row without the column names above it.
 */
Test(overlay_report, a_table_flowing_onto_a_new_page_repeats_its_column_names, .timeout = 120)
{
    ot_turn t;
    ot_crowded_turn(&t);
    char dir[] = "/tmp/tableref-ovflow-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char pdf[512];
    snprintf(pdf, sizeof pdf, "%s/letter.pdf", dir);
    base_error err;
    double v[4];
    ov_report_view(t.before, t.after, &t.report, NULL, true, v);
    ov_target *r = ov_target_new_report_view(v[0], v[1], v[2], v[3], OV_PAPER_LETTER, OV_FORMAT_PDF, pdf, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(ov_draw_verdict(r, t.before, t.after, &t.report, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_finish(r, &err), 0, "%s", err.msg);
    const int pages = ov_target_pages(r);
    ov_target_free(r);
    cr_assert_geq(pages, 3, "250 judged models fill several Letter pages (%d)", pages);
    int continued = 0;
    for (int p = 2; p <= pages; p++) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d '%s' -", p, p, pdf);
        char *text = slurp(cmd, true), *first = text;
        while (*first == '\n' || *first == ' ' || *first == '\f')
            first++;
        char word[RULES_ID_MAX] = "";
        sscanf(first, "%63s", word);
        bool is_model = false;
        for (size_t u = 0; u < t.before->n_units && !is_model; u++)
            is_model = rules_unit_find_model(&t.before->units[u], word) != NULL;
        cr_expect(!is_model, "page %d starts with the row of %s, without the column names", p, word);
        continued += strncmp(first, "model", 5) == 0;
        free(text);
    }
    cr_expect_geq(continued, 1, "at least one table goes on over a page break, under its column names");
    remove(pdf);
    rmdir(dir);
    ot_turn_clear(&t);
}

/* A PDF report's pages replayed as a PNG (ov_target_write_report_png, the referee's report.png with --png) are
 * those pages scaled, text and all: at 96 dpi the size of the page drawn on a PNG target at 96 dpi (A4: 794 px
 * across), and at 144 dpi the pages at 72 dpi as the target itself gives them (ov_target_copy_pixels), compared
 * in blocks of 4 px at 72 dpi with the golden pictures' tolerance (at most 0.5% of the blocks off by more than 48
 * levels in a channel, mean difference under 2 levels): nothing shifted, nothing lost. An SVG target (its text kept
 * apart) and a resolution out of range are refused. */
Test(overlay_report, a_pdf_replayed_as_png_is_its_pages_scaled, .timeout = 60)
{
    ot_turn t;
    ot_demo_turn(&t);
    char dir[] = "/tmp/tableref-ovreplay-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char pdf[512], at96[512], at144[512], drawn[512];
    snprintf(pdf, sizeof pdf, "%s/r.pdf", dir);
    snprintf(at96, sizeof at96, "%s/at96.png", dir);
    snprintf(at144, sizeof at144, "%s/at144.png", dir);
    snprintf(drawn, sizeof drawn, "%s/drawn.png", dir);
    base_error err;
    double v[4];
    ov_report_view(t.before, t.after, &t.report, NULL, false, v);
    ov_target *r = ov_target_new_report_view(v[0], v[1], v[2], v[3], OV_PAPER_A4, OV_FORMAT_PDF, pdf, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(ov_draw_verdict(r, t.before, t.after, &t.report, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_finish(r, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_write_report_png(r, 96, at96, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_write_report_png(r, 144, at144, &err), 0, "%s", err.msg);
    cr_expect_neq(ov_target_write_report_png(r, 700, at96, &err), 0, "700 dpi is refused");
    int w, h;
    ov_target_size(r, &w, &h);
    const int stride_px = w;
    uint8_t *pt = malloc((size_t)w * h * 3);
    cr_assert_not_null(pt);
    cr_assert_eq(ov_target_copy_pixels(r, pt, OV_PIX_RGB24, (size_t)w * 3, &err), 0, "%s", err.msg);
    ov_target_free(r);
    ov_target *p = ov_target_new_report_png(v[0], v[1], v[2], v[3], OV_PAPER_A4, 96, drawn, &err);
    cr_assert_not_null(p, "%s", err.msg);
    cr_assert_eq(ov_draw_verdict(p, t.before, t.after, &t.report, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(ov_target_finish(p, &err), 0, "%s", err.msg);
    ov_target_free(p);
    cr_expect_null(ov_target_new_report_png(v[0], v[1], v[2], v[3], OV_PAPER_A4, 20, drawn, &err), "20 dpi");
    char svg[512];
    snprintf(svg, sizeof svg, "%s/r.svg", dir);
    ov_target *s = ov_target_new_report_view(v[0], v[1], v[2], v[3], OV_PAPER_A4, OV_FORMAT_SVG, svg, &err);
    cr_assert_not_null(s, "%s", err.msg);
    cr_expect_neq(ov_target_write_report_png(s, 96, at96, &err), 0, "an SVG target is refused");
    ov_target_free(s);

    cairo_surface_t *a = cairo_image_surface_create_from_png(at96), *b = cairo_image_surface_create_from_png(drawn),
                    *c = cairo_image_surface_create_from_png(at144);
    cr_assert(cairo_surface_status(a) == CAIRO_STATUS_SUCCESS && cairo_surface_status(b) == CAIRO_STATUS_SUCCESS &&
              cairo_surface_status(c) == CAIRO_STATUS_SUCCESS);
    cr_expect_eq(cairo_image_surface_get_width(a), 794, "A4 at 96 dpi: %d px across", cairo_image_surface_get_width(a));
    cr_expect(cairo_image_surface_get_width(b) == cairo_image_surface_get_width(a) &&
                  cairo_image_surface_get_height(b) == cairo_image_surface_get_height(a),
              "replayed %dx%d, drawn %dx%d", cairo_image_surface_get_width(a), cairo_image_surface_get_height(a),
              cairo_image_surface_get_width(b), cairo_image_surface_get_height(b));
    /* Whole pixels: 595.28 pt are 596 px at 72 dpi, 1191 at 144. */
    int hw = cairo_image_surface_get_width(c) / 2, hh = cairo_image_surface_get_height(c) / 2;
    cr_assert(abs(hw - w) <= 1 && abs(hh - h) <= 1, "144 dpi: %dx%d px, the 72 dpi pages %dx%d", 2 * hw, 2 * hh, w, h);
    w = hw < w ? hw : w, h = hh < h ? hh : h;
    const uint8_t *dc = cairo_image_surface_get_data(c);
    int sc = cairo_image_surface_get_stride(c);
    /* Each 4 x 4 block of the 72 dpi pages against the 8 x 8 block over it at 144 dpi: the same drawing in the same
     * place averages alike (glyphs and hairlines antialiased at two resolutions do not, pixel by pixel). */
    size_t off = 0, n = 0;
    double total = 0;
    for (int y = 0; y + 4 <= h; y += 4)
        for (int x = 0; x + 4 <= w; x += 4, n++) {
            int d = 0;
            for (int ch = 0; ch < 3; ch++) {
                int lo = 0, hi = 0;
                for (int k = 0; k < 16; k++)
                    lo += pt[((size_t)(y + k / 4) * stride_px + x + k % 4) * 3 + ch];
                for (int k = 0; k < 64; k++) {
                    uint32_t px;
                    memcpy(&px, dc + (size_t)(2 * y + k / 8) * sc + 4 * (2 * x + k % 8), 4);
                    hi += (px >> (16 - 8 * ch)) & 255; /* R, G, B of an opaque pixel */
                }
                int e = abs((lo + 8) / 16 - (hi + 32) / 64);
                d = e > d ? e : d;
            }
            total += d;
            off += d > 48;
        }
    double share = (double)off / (double)n, mean = total / (double)n;
    printf("144 dpi against 72 dpi, in 4 px blocks: %.3f%% of blocks off by more than 48, mean difference %.3f\n", 100 * share,
           mean);
    cr_expect_leq(share, 0.005, "%.3f%% of the blocks differ", 100 * share);
    cr_expect_leq(mean, 2.0, "mean difference %.3f", mean);
    cairo_surface_destroy(a), cairo_surface_destroy(b), cairo_surface_destroy(c);
    free(pt);
    remove(pdf), remove(svg), remove(at96), remove(at144), remove(drawn), rmdir(dir);
    ot_turn_clear(&t);
}
