/*
 * ov_report_text: the report's words. The title and the overall call above
 * the board; under it a legend (each mark drawn small beside what it
 * means), then each unit's verdict, a table of its models, its broken rules
 * and notes, and what +/- means, flowing onto new pages when a page is full.
 * All of it Pango text: words in the PDF, <text> in the SVG.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ov_scene_int.h"
#include "base_text.h"

#define SAMPLE_W 26.0 /* a legend sample, points */
#define SAMPLE_H 11.0

static const double black[3] = {0.08, 0.08, 0.08}, grey[3] = {0.35, 0.35, 0.35};

/* Report text colours: the inks darkened so small type reads on white. */
static void text_rgb(const ov_target *t, const ov_paint *p, double rgb[3])
{
    ov_style_rgb(t, p, rgb);
    if (p->ink != OV_INK_NEUTRAL)
        for (int i = 0; i < 3; i++)
            rgb[i] *= 0.72;
}

/* Room for h more on this page, else a new page. */
static void ensure(ov_target *t, double h)
{
    if (t->flow_y + h > t->page_h - t->margin && t->flow_y > t->margin + 1)
        ov_page_next(t);
}

/* A wrapped paragraph at x, w wide, at the flow; returns its height. */
static double para(ov_target *t, const char *s, double x, double w, double px, bool bold, const double rgb[3])
{
    ov_text tx;
    if (ov_text_init(&tx, t, s, px, bold, w) < 0)
        return 0;
    ensure(t, tx.h);
    ov_text_draw(t, &tx, x, t->flow_y, rgb, 1, NULL, 0);
    double h = tx.h;
    ov_text_free(&tx);
    t->flow_y += h;
    return h;
}

static void header(const ov_scene *sc, ov_target *t)
{
    const double k = t->unit, x = t->margin, w = t->page_w - 2 * t->margin;
    double y = t->flow_y;
    t->flow_y = t->margin;
    para(t, sc->opt.title ? sc->opt.title : "tableref referee", x, w, ov_style_text(t, OV_SIZE_TITLE, 1), true, black);
    if (sc->verdict_line[0]) {
        ov_paint p = ov_paint_of(sc->verdict_illegal ? OV_INK_ILLEGAL : OV_INK_NEUTRAL, 1);
        double rgb[3];
        text_rgb(t, &p, rgb);
        para(t, sc->verdict_line, x, w, 9.5 * k, true, p.ink == OV_INK_NEUTRAL ? black : rgb);
    }
    char line[300];
    base_text_format(line, sizeof line, "Ruleset %s \xC2\xB7 %s \xC2\xB7 distances in inches, base centre to base centre",
             sc->ruleset, sc->convention);
    para(t, line, x, w, 8 * k, false, grey);
    t->flow_y = y;
}

/* ---- legend ---- */

static void sample_rect(cairo_t *cr, double x, double y, double w, double h) { cairo_rectangle(cr, x + 0.2 * w, y + 0.1 * h, 0.6 * w, 0.8 * h); }

/* The sample's box: x, y its top left, w, h its size; points given as fractions of it. */
typedef struct sample_box {
    cairo_t *cr;
    double x, y, w, h;
} sample_box;

static void seg(const sample_box *b, double u0, double v0, double u1, double v1)
{
    cairo_move_to(b->cr, b->x + u0 * b->w, b->y + v0 * b->h);
    cairo_line_to(b->cr, b->x + u1 * b->w, b->y + v1 * b->h);
}

/* A filled base (after, cross, unsure, not seen, side), crossed out for OV_SAMPLE_CROSS. */
static void sample_filled_base(const sample_box *b, const double rgb[3], bool crossed)
{
    cairo_t *cr = b->cr;
    sample_rect(cr, b->x, b->y, b->w, b->h);
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.33);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    cairo_stroke(cr);
    if (crossed) {
        seg(b, 0.3, 0.2, 0.7, 0.8);
        seg(b, 0.7, 0.2, 0.3, 0.8);
        cairo_stroke(cr);
    }
}

static void sample_arrow(const sample_box *b)
{
    cairo_t *cr = b->cr;
    seg(b, 0.1, 0.5, 0.75, 0.5);
    cairo_stroke(cr);
    cairo_move_to(cr, b->x + 0.9 * b->w, b->y + b->h / 2), cairo_line_to(cr, b->x + 0.7 * b->w, b->y + 0.2 * b->h);
    cairo_line_to(cr, b->x + 0.7 * b->w, b->y + 0.8 * b->h), cairo_close_path(cr);
    cairo_fill(cr);
}

/* A path line, or a gap's measure with end ticks. */
static void sample_line(const sample_box *b, double lw, bool gap)
{
    cairo_set_line_width(b->cr, gap ? 1.1 * lw : 1.4 * lw);
    seg(b, 0.1, 0.5, 0.9, 0.5);
    if (gap) {
        seg(b, 0.1, 0.2, 0.1, 0.8);
        seg(b, 0.9, 0.2, 0.9, 0.8);
    }
    cairo_stroke(b->cr);
}

/* A dashed wheel arc (a limit), with its pivot for a wheel. */
static void sample_wheel(ov_target *t, const sample_box *b, double lw, bool pivot)
{
    cairo_t *cr = b->cr;
    double pat[2];
    int n;
    ov_style_dash(t, OV_DASH_DASHED, lw, pat, &n);
    cairo_set_dash(cr, pat, n, 0);
    cairo_arc(cr, b->x + 0.15 * b->w, b->y + b->h, 0.75 * b->w, -0.55, 0);
    cairo_stroke(cr);
    if (pivot) {
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_arc(cr, b->x + 0.15 * b->w, b->y + 0.9 * b->h, 0.1 * b->h + lw, 0, 2 * BASE_PI);
        cairo_stroke(cr);
    }
}

/* A centre mark (circle and cross) or a front marker (diamond). */
static void sample_mark(const sample_box *b, bool front)
{
    cairo_t *cr = b->cr;
    const double cx = b->x + b->w / 2, cy = b->y + b->h / 2, h = b->h;
    if (front) {
        cairo_move_to(cr, cx, b->y + 0.1 * h), cairo_line_to(cr, cx + 0.4 * h, cy);
        cairo_line_to(cr, cx, b->y + 0.9 * h), cairo_line_to(cr, cx - 0.4 * h, cy);
        cairo_close_path(cr);
        cairo_fill(cr);
        return;
    }
    cairo_arc(cr, cx, cy, 0.25 * h, 0, 2 * BASE_PI);
    cairo_move_to(cr, cx - 0.45 * h, cy), cairo_line_to(cr, cx + 0.45 * h, cy);
    cairo_move_to(cr, cx, b->y + 0.05 * h), cairo_line_to(cr, cx, b->y + 0.95 * h);
    cairo_stroke(cr);
}

static void sample_arcs(ov_target *t, const sample_box *b, double lw)
{
    double pat[2];
    int n;
    ov_style_dash(t, OV_DASH_FINE, 0.5 * lw, pat, &n);
    cairo_set_dash(b->cr, pat, n, 0);
    cairo_set_line_width(b->cr, 0.5 * lw);
    seg(b, 0.3, 0.9, 0.1, 0.1);
    seg(b, 0.7, 0.9, 0.9, 0.1);
    cairo_stroke(b->cr);
}

static void sample(ov_target *t, const ov_legend *e, double x, double y)
{
    cairo_t *cr = t->cr;
    const double k = t->unit, lw = ov_style_line(t, 1);
    const sample_box b = {cr, x, y, SAMPLE_W * k, SAMPLE_H * k};
    double rgb[3], pat[2];
    int n;
    ov_style_rgb(t, &e->paint, rgb);
    cairo_save(cr);
    cairo_new_path(cr);
    cairo_set_line_width(cr, lw);
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    switch (e->sample) {
    case OV_SAMPLE_BEFORE:
    case OV_SAMPLE_INFERRED:
    case OV_SAMPLE_LAYER:
        sample_rect(cr, x, y, b.w, b.h);
        ov_style_dash(t, e->dash, lw, pat, &n);
        cairo_set_dash(cr, pat, n, 0);
        cairo_stroke(cr);
        break;
    case OV_SAMPLE_AFTER:
    case OV_SAMPLE_CROSS:
    case OV_SAMPLE_UNSURE:
    case OV_SAMPLE_NOT_SEEN:
    case OV_SAMPLE_SIDE: sample_filled_base(&b, rgb, e->sample == OV_SAMPLE_CROSS); break;
    case OV_SAMPLE_ARROW: sample_arrow(&b); break;
    case OV_SAMPLE_PATH:
    case OV_SAMPLE_GAP: sample_line(&b, lw, e->sample == OV_SAMPLE_GAP); break;
    case OV_SAMPLE_WHEEL:
    case OV_SAMPLE_LIMIT: sample_wheel(t, &b, lw, e->sample == OV_SAMPLE_WHEEL); break;
    case OV_SAMPLE_CENTRE: sample_mark(&b, false); break;
    case OV_SAMPLE_FRONT: sample_mark(&b, true); break;
    default: sample_arcs(t, &b, lw); break; /* OV_SAMPLE_ARCS */
    }
    cairo_restore(cr);
}

static void legend(const ov_scene *sc, ov_target *t)
{
    if (!sc->n_legend)
        return;
    const double k = t->unit, x0 = t->margin, W = t->page_w - 2 * t->margin, gap = 8 * k;
    const double colw = (W - 2 * gap) / 3, px = 7 * k;
    para(t, "Key", x0, W, 9 * k, true, black);
    t->flow_y += 2 * k;
    for (size_t i = 0; i < sc->n_legend; i += 3) {
        ov_text tx[3];
        double h = SAMPLE_H * k;
        size_t m = sc->n_legend - i < 3 ? sc->n_legend - i : 3;
        for (size_t c = 0; c < m; c++) {
            ov_text_init(&tx[c], t, ov_sc_text(sc, sc->legend[i + c].text), px, false, colw - (SAMPLE_W + 5) * k);
            h = fmax(h, tx[c].h);
        }
        ensure(t, h);
        for (size_t c = 0; c < m; c++) {
            double x = x0 + c * (colw + gap);
            sample(t, &sc->legend[i + c], x, t->flow_y + (h - SAMPLE_H * k) / 2);
            ov_text_draw(t, &tx[c], x + (SAMPLE_W + 5) * k, t->flow_y + (h - tx[c].h) / 2, grey, 1, NULL, 0);
            ov_text_free(&tx[c]);
        }
        t->flow_y += h + 2 * k;
    }
    t->flow_y += 4 * k;
}

/* ---- the units ---- */

static void verdict_block(const ov_scene *sc, ov_target *t, const ov_block *b)
{
    const double k = t->unit, x = t->margin, W = t->page_w - 2 * t->margin, px = 9 * k;
    ov_text badge, line;
    if (ov_text_init(&badge, t, ov_sc_text(sc, b->text2), px, true, 0) < 0)
        return;
    double bw = badge.w + 8 * k, bh = badge.h + 3 * k;
    if (ov_text_init(&line, t, ov_sc_text(sc, b->text), px, false, W - bw - 8 * k) < 0) {
        ov_text_free(&badge);
        return;
    }
    t->flow_y += 7 * k;
    ensure(t, fmax(bh, line.h) + 12 * k);
    double bg[3], fg[3];
    ov_style_rgb(t, &b->paint, bg);
    ov_style_ink_on(bg, fg);
    cairo_rectangle(t->cr, x, t->flow_y, bw, bh);
    cairo_set_source_rgb(t->cr, bg[0], bg[1], bg[2]);
    cairo_fill(t->cr);
    ov_text_draw(t, &badge, x + 4 * k, t->flow_y + 1.5 * k, fg, 1, NULL, 0);
    ov_text_draw(t, &line, x + bw + 8 * k, t->flow_y + 1.5 * k, black, 1, NULL, 0);
    t->flow_y += fmax(bh, line.h + 1.5 * k) + 3 * k;
    ov_text_free(&badge);
    ov_text_free(&line);
}

/* A row of the model table: columns at fixed offsets. */
static void row(const ov_scene *sc, ov_target *t, const ov_block *b, bool head)
{
    const double k = t->unit, x = t->margin + 16 * k, px = 7 * k;
    static const double col[4] = {0, 110, 160, 215};
    char cells[4][96] = {{0}};
    const char *s = ov_sc_text(sc, b->text);
    for (int c = 0; c < 4 && *s; c++) {
        size_t n = strcspn(s, "\t");
        char *cell = strndup(s, n);
        base_text_copy(cells[c], sizeof cells[c], cell ? cell : ""); /* cut on a character boundary */
        free(cell);
        s += n + (s[n] == '\t');
    }
    double rgb[3];
    text_rgb(t, &b->paint, rgb);
    ensure(t, 10 * k);
    double h = 0;
    for (int c = 0; c < 4; c++) {
        ov_text tx;
        if (!cells[c][0] || ov_text_init(&tx, t, cells[c], px, head, 0) < 0)
            continue;
        ov_text_draw(t, &tx, x + col[c] * k, t->flow_y, c == 3 && !head ? rgb : head ? grey : black, 1, NULL, 0);
        h = fmax(h, tx.h);
        ov_text_free(&tx);
    }
    t->flow_y += h;
}

static void blocks(const ov_scene *sc, ov_target *t)
{
    const double k = t->unit, x = t->margin + 16 * k, W = t->page_w - 2 * t->margin - 16 * k;
    const ov_block *head = NULL; /* the current unit's column names */
    for (size_t i = 0; i < sc->n_blocks; i++) {
        const ov_block *b = &sc->blocks[i];
        double rgb[3];
        text_rgb(t, &b->paint, rgb);
        switch (b->kind) {
        case OV_BLOCK_HEADROW:
            head = b;
            t->flow_y += 2 * k;
            ensure(t, 20 * k); /* the column names and a first row together */
            row(sc, t, b, true);
            break;
        case OV_BLOCK_ROW:
            /* A table flowing onto a new page names its columns again there. */
            if (head && t->flow_y + 10 * k > t->page_h - t->margin && t->flow_y > t->margin + 1) {
                ov_page_next(t);
                row(sc, t, head, true);
            }
            row(sc, t, b, false);
            break;
        case OV_BLOCK_VERDICT:
            head = NULL;
            verdict_block(sc, t, b);
            break;
        case OV_BLOCK_WARN: {
            char line[RULES_TEXT_MAX + 300];
            base_text_format(line, sizeof line, "%s%s", b->text2 ? ov_sc_text(sc, b->text2) : "", ov_sc_text(sc, b->text));
            t->flow_y += 2 * k;
            para(t, line, x, W, 8.5 * k, false, rgb);
            break;
        }
        default:
            t->flow_y += 2 * k;
            para(t, ov_sc_text(sc, b->text), x, W, 8 * k, false, grey);
            break;
        }
    }
}

void ov_panel_report(const ov_scene *sc, ov_target *t)
{
    const double k = t->unit, x = t->margin, W = t->page_w - 2 * t->margin;
    header(sc, t);
    legend(sc, t);
    blocks(sc, t);
    t->flow_y += 8 * k;
    if (sc->not_seen[0]) {
        char line[RULES_TEXT_MAX + 64];
        base_text_format(line, sizeof line, "Not seen, cannot judge: %s.", sc->not_seen);
        para(t, line, x, W, 8 * k, false, black);
        t->flow_y += 3 * k;
    }
    if (sc->has_verdict) {
        char line[600];
        base_text_format(line, sizeof line,
                 "\xC2\xB1 is %.0f standard deviations of each model's measured position, from how the camera knew "
                 "it (a tag read cleanly, read partly hidden, or not seen and placed from its formation). A call "
                 "that holds only within that reach, or only under some of the placements the pictures allow, is "
                 "CANNOT TELL, never ILLEGAL.",
                 sc->opt.coverage > 0 ? sc->opt.coverage : 2.0);
        para(t, line, x, W, 7.5 * k, false, grey);
    }
}
