/* ov_text: Pango text on a target (see the header). */
#include "ov_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base_text.h"
#include "ov_internal.h"

PangoContext *ov_text_context_new(cairo_t *cr)
{
    PangoContext *ctx = pango_cairo_create_context(cr);
    if (!ctx)
        return NULL;
    /* No hinting: a label measures the same on a PNG, a PDF and an SVG, at any scale. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(ctx, fo);
    cairo_font_options_destroy(fo);
    pango_context_set_round_glyph_positions(ctx, FALSE);
    return ctx;
}

static int text_init(ov_text *tx, ov_target *t, const char *s, double px, bool bold, double wrap_w, bool markup)
{
    memset(tx, 0, sizeof *tx);
    if (!t->pango)
        return -1;
    tx->layout = pango_layout_new(t->pango);
    if (!tx->layout)
        return -1;
    PangoFontDescription *fd = pango_font_description_from_string(OV_TEXT_FAMILIES);
    pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_absolute_size(fd, px * PANGO_SCALE);
    pango_layout_set_font_description(tx->layout, fd);
    pango_font_description_free(fd);
    if (wrap_w > 0) {
        pango_layout_set_width(tx->layout, (int)(wrap_w * PANGO_SCALE));
        pango_layout_set_wrap(tx->layout, PANGO_WRAP_WORD_CHAR);
    }
    /* Pango warns on invalid UTF-8 and drops the text: such bytes are shown as "\xNN", and so are
     * controls in plain text (drawn as boxes otherwise); markup was escaped when it was made. */
    char *valid = markup ? (base_text_valid(s, strlen(s)) ? NULL : base_text_escape_invalid(s))
                         : base_text_escape_visible(s);
    if (markup)
        pango_layout_set_markup(tx->layout, valid ? valid : s, -1);
    else
        pango_layout_set_text(tx->layout, valid ? valid : s, -1);
    free(valid);
    PangoRectangle logical;
    pango_layout_get_extents(tx->layout, NULL, &logical);
    tx->w = (double)logical.width / PANGO_SCALE;
    tx->h = (double)logical.height / PANGO_SCALE;
    tx->px = px;
    tx->bold = bold;
    return 0;
}

int ov_text_init(ov_text *tx, ov_target *t, const char *s, double px, bool bold, double wrap_w)
{
    return text_init(tx, t, s, px, bold, wrap_w, false);
}

int ov_text_init_markup(ov_text *tx, ov_target *t, const char *markup, double px, double wrap_w)
{
    return text_init(tx, t, markup, px, false, wrap_w, true);
}

void ov_text_centre(ov_text *tx)
{
    if (!tx->layout)
        return;
    if (pango_layout_get_width(tx->layout) < 0)
        pango_layout_set_width(tx->layout, (int)ceil(tx->w * PANGO_SCALE));
    pango_layout_set_alignment(tx->layout, PANGO_ALIGN_CENTER);
}

void ov_text_free(ov_text *tx)
{
    if (tx->layout)
        g_object_unref(tx->layout);
    tx->layout = NULL;
}

double ov_text_width(ov_target *t, const char *s, double px, bool bold)
{
    ov_text tx;
    if (ov_text_init(&tx, t, s, px, bold, 0) < 0)
        return strlen(s) * 0.6 * px;
    double w = tx.w;
    ov_text_free(&tx);
    return w;
}

/* SVG: each line of the layout as a <text> run, in page coordinates through the current matrix. */
static void svg_lines(ov_target *t, const ov_text *tx, double x, double y, const double fg[3], double alpha,
                      const double halo[4], double halo_w)
{
    cairo_matrix_t m;
    cairo_get_matrix(t->cr, &m);
    const char *text = pango_layout_get_text(tx->layout);
    PangoLayoutIter *it = pango_layout_get_iter(tx->layout);
    do {
        PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
        PangoRectangle lr;
        pango_layout_iter_get_line_extents(it, NULL, &lr);
        double bx = x + (double)lr.x / PANGO_SCALE, by = y + (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
        int start = line->start_index, len = line->length;
        /* Lines end at the wrap without their trailing space. */
        while (len > 0 && (text[start + len - 1] == ' ' || text[start + len - 1] == '\n'))
            len--;
        if (len > 0)
            ov_target_svg_text(t, &m, bx, by, text + start, (size_t)len, tx->px, tx->bold, fg, alpha, halo, halo_w);
    } while (pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
}

void ov_text_draw(ov_target *t, const ov_text *tx, double x, double y, const double fg[3], double alpha,
                  const double halo[4], double halo_w)
{
    if (!tx->layout)
        return;
    if (t->kind == OV_TARGET_REPORT && t->format == OV_FORMAT_SVG) {
        svg_lines(t, tx, x, y, fg, alpha, halo, halo_w);
        return;
    }
    cairo_t *cr = t->cr;
    if (halo && halo[3] > 0 && halo_w > 0) {
        cairo_move_to(cr, x, y);
        pango_cairo_layout_path(cr, tx->layout);
        cairo_set_source_rgba(cr, halo[0], halo[1], halo[2], halo[3]);
        cairo_set_line_width(cr, halo_w);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_stroke(cr);
    }
    /* The glyphs themselves as text (PDF keeps it searchable), not as a path. */
    cairo_move_to(cr, x, y);
    cairo_set_source_rgba(cr, fg[0], fg[1], fg[2], alpha);
    pango_cairo_show_layout(cr, tx->layout);
}
