/*
 * overlay_report: report pages. A4 (595 x 842 pt) or Letter (612 x 792 pt);
 * the judged area grows until no unit it touches is cut (the demo's
 * unjudged archers wholly inside, with their name); text stays text: the
 * PDF's words come back out of it (pdftotext, poppler-utils) and the SVG
 * has <text> elements with the verdict's words. Exact page sizes to 0.01 pt.
 */
#include <criterion/criterion.h>
#include <math.h>
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
