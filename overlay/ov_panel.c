/*
 * ov_panel: the key on a camera frame or a projector (the report's words
 * are in ov_report_text.c): a key box (players' colours, the
 * ruleset and wheel convention, the verdict colours), placed before the
 * labels so they keep off it; on a projector one per player's edge, facing
 * that player.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_text.h"
#include "ov_scene_int.h"

static void hex(const double c[3], char out[8])
{
    snprintf(out, 8, "#%02x%02x%02x", (int)lround(c[0] * 255), (int)lround(c[1] * 255), (int)lround(c[2] * 255));
}

/* ---- the key on camera and projector ---- */

/* Text from a roster or the command line as markup: escaped (& < > and controls; invalid UTF-8
 * shown as "\xNN"), cut to `budget` bytes on a character boundary first. */
static void append_escaped(GString *m, const char *s, size_t budget)
{
    char *cut = g_strndup(s, base_text_cut(s, budget));
    char *e = cut ? base_text_escape_markup(cut) : NULL;
    g_string_append(m, e ? e : "?");
    free(e);
    g_free(cut);
}

/* The key's markup on the heap (g_free): never cut inside a tag, however long the names. */
static char *key_markup(const ov_scene *sc, const ov_target *t)
{
    GString *m = g_string_new("<b>tableref</b> \xC2\xB7 ");
    if (sc->ruleset[0]) {
        append_escaped(m, sc->ruleset, 80);
        g_string_append(m, " \xC2\xB7 ");
        append_escaped(m, sc->convention, 80);
    } else {
        g_string_append(m, "watching the table");
    }
    char c[8];
    for (size_t i = 0; i < sc->n_sides; i++) {
        double rgb[3];
        ov_paint p = ov_paint_side(sc, (int)i, 1);
        ov_style_rgb(t, &p, rgb);
        hex(rgb, c);
        g_string_append_printf(m, "%s<span foreground=\"%s\">\xE2\x96\xA0</span> ", i == 0 ? "\n" : "   ", c);
        append_escaped(m, sc->sides[i], 80);
    }
    if (sc->has_verdict) {
        static const ov_ink inks[3] = {OV_INK_LEGAL, OV_INK_ILLEGAL, OV_INK_UNSURE};
        static const char *words[3] = {"\xE2\x9C\x93 legal", "\xE2\x9C\x97 illegal", "? cannot tell"};
        for (int i = 0; i < 3; i++) {
            double rgb[3];
            ov_paint p = ov_paint_of(inks[i], 1);
            ov_style_rgb(t, &p, rgb);
            hex(rgb, c);
            g_string_append_printf(m, "%s<span foreground=\"%s\"><b>%s</b></span>",
                                   i == 0 ? (sc->n_sides ? "   " : "\n") : "  ", c, words[i]);
        }
        g_string_append_printf(m, "   \xC2\xB1 = %.0f\xCF\x83", sc->opt.coverage > 0 ? sc->opt.coverage : 2.0);
    }
    if (sc->not_seen[0]) {
        g_string_append(m, "\nnot seen, cannot judge: ");
        append_escaped(m, sc->not_seen, 400);
    }
    return g_string_free(m, FALSE);
}

/* The box centred at (cx, cy) turned by a: its cost now. */
static double key_cost(const ov_target *t, double cx, double cy, double w, double h, double a, ov_quad *q)
{
    *q = ov_quad_rect(cx, cy, w, h, a);
    return ov_layout_cost(t->layout, q);
}

static void key_paint(ov_target *t, ov_text *tx, const ov_quad *q, double a, double pad)
{
    double cx = (q->x[0] + q->x[2]) / 2, cy = (q->y[0] + q->y[2]) / 2;
    double w = tx->w + 2 * pad, h = tx->h + 2 * pad;
    cairo_save(t->cr);
    cairo_translate(t->cr, cx, cy);
    cairo_rotate(t->cr, a);
    cairo_rectangle(t->cr, -w / 2, -h / 2, w, h);
    double fg[3] = {1, 1, 1};
    if (t->kind == OV_TARGET_PROJECTOR) {
        cairo_set_source_rgb(t->cr, 0.92, 0.92, 0.92);
        fg[0] = fg[1] = fg[2] = 0;
    } else {
        cairo_set_source_rgba(t->cr, 0, 0, 0, 0.72);
    }
    cairo_fill(t->cr);
    ov_text_draw(t, tx, -w / 2 + pad, -h / 2 + pad, fg, 1, NULL, 0);
    cairo_restore(t->cr);
}

/* Camera: the image corner that covers the fewest bases. */
static void key_camera(ov_target *t, ov_text *tx, double pad)
{
    const double w = tx->w + 2 * pad, h = tx->h + 2 * pad, m = 2 * t->unit;
    const double cx[4] = {m + w / 2, t->width - m - w / 2, m + w / 2, t->width - m - w / 2};
    const double cy[4] = {t->height - m - h / 2, t->height - m - h / 2, m + h / 2, m + h / 2};
    double best = INFINITY;
    ov_quad q, bq = ov_quad_rect(cx[0], cy[0], w, h, 0);
    for (int i = 0; i < 4; i++) {
        double c = key_cost(t, cx[i], cy[i], w, h, 0, &q);
        if (c < best - 1e-9)
            best = c, bq = q;
    }
    ov_layout_add(t->layout, &bq, OV_OBST_LABEL);
    key_paint(t, tx, &bq, 0, pad);
}

/* Projector: in the board's corner at the player's left (else right) hand, facing them. */
static void key_projector(const ov_scene *sc, ov_target *t, ov_text *tx, double pad, bool far)
{
    double W = sc->board_w, D = sc->board_d;
    base_vec2 corner[2] = {far ? base_v2(W, D) : base_v2(0, 0), far ? base_v2(0, D) : base_v2(W, 0)};
    base_vec2 along = far ? base_v2(-10, 0) : base_v2(10, 0);
    const double w = tx->w + 2 * pad, h = tx->h + 2 * pad, m = 0.6 * pad;
    double best = INFINITY, best_a = 0;
    ov_quad q, bq = {{0}};
    for (int i = 0; i < 2; i++) {
        double x0, y0, x1, y1;
        if (!ov_dev(t, corner[i], &x0, &y0) || !ov_dev(t, base_v2_add(corner[i], along), &x1, &y1))
            continue;
        double a = atan2(y1 - y0, x1 - x0), c = cos(a), s = sin(a);
        /* Reading frame: right along the edge, up into the board (device y down). Slid along the edge
         * (a little cost per step) off a board tag the projector leaves dark (ov_keepout.h). */
        for (int k = 0; k < 9; k++) {
            double slide = k * 0.5 * h, lx = i == 0 ? w / 2 + m + slide : -(w / 2 + m + slide), ly = -(h / 2 + m);
            double cost = key_cost(t, x0 + c * lx - s * ly, y0 + s * lx + c * ly, w, h, a, &q) + 0.01 * k;
            if (cost < best - 1e-9)
                best = cost, bq = q, best_a = a;
        }
    }
    if (!isfinite(best))
        return;
    ov_layout_add(t->layout, &bq, OV_OBST_LABEL);
    key_paint(t, tx, &bq, best_a, pad);
}

void ov_panel_key(const ov_scene *sc, ov_target *t)
{
    char *markup = key_markup(sc, t);
    double px = ov_style_text(t, t->kind == OV_TARGET_CAMERA ? OV_SIZE_BODY : OV_SIZE_SMALL, sc->opt.size);
    double pad = 0.45 * px;
    double wrap = t->kind == OV_TARGET_PROJECTOR ? fmin(0.45 * t->width, 40 * px) : 0.6 * t->width;
    ov_text tx;
    int ok = ov_text_init_markup(&tx, t, markup, px, wrap);
    g_free(markup);
    if (ok < 0)
        return;
    if (t->kind == OV_TARGET_CAMERA || sc->board_w <= 0) {
        key_camera(t, &tx, pad);
    } else {
        bool near = false, far = false;
        for (size_t i = 0; i < sc->n_sides; i++)
            near |= sc->side_edge[i] != OV_EDGE_FAR, far |= sc->side_edge[i] == OV_EDGE_FAR;
        if (near || !far)
            key_projector(sc, t, &tx, pad, false);
        if (far)
            key_projector(sc, t, &tx, pad, true);
    }
    ov_text_free(&tx);
}
