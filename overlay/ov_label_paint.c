/*
 * ov_label_paint: a placed label painted on its target, turned to its
 * reader. Camera: a pill in the label's colour with a dark rim, sentences
 * in a dark box. Report: the pill, and plain text with a white halo.
 * Projector: light cards with the colour as a thick rim and black letters
 * (the letters are the unlit table: they stay dark however bright the room
 * or busy the cloth).
 */
#include <math.h>

#include "ov_scene_int.h"

/* Colour mixed with white (share of white). */
static void tint(const double c[3], double white, double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = c[i] * (1 - white) + white;
}

static void leader(const ov_scene *sc, ov_target *t, const ov_placed *p, const double bg[3])
{
    double ax, ay;
    if (!p->at.leader || !ov_dev(t, p->l->anchor, &ax, &ay))
        return;
    double w = fmax(0.5 * ov_style_line(t, sc->opt.size), 0.8 * t->unit);
    if (t->kind == OV_TARGET_PROJECTOR)
        w = ov_style_line(t, sc->opt.size);
    cairo_new_path(t->cr);
    cairo_move_to(t->cr, ax, ay);
    cairo_line_to(t->cr, p->at.lx, p->at.ly);
    ov_stroke(t, bg, 1, w, OV_DASH_SOLID);
    cairo_new_sub_path(t->cr);
    cairo_arc(t->cr, ax, ay, 1.6 * w, 0, 2 * BASE_PI);
    cairo_set_source_rgb(t->cr, bg[0], bg[1], bg[2]);
    cairo_fill(t->cr);
}

static void pill(ov_target *t, const ov_placed *p, const double bg[3])
{
    cairo_t *cr = t->cr;
    const double px = p->tx.px, x = -p->bw / 2, y = -p->bh / 2;
    double fill[3], fg[3], rim_w;
    const double *rim;
    if (t->kind == OV_TARGET_PROJECTOR) {
        tint(bg, 0.55, fill);
        rim = bg, rim_w = 0.14 * px;
        fg[0] = fg[1] = fg[2] = 0;
    } else {
        fill[0] = bg[0], fill[1] = bg[1], fill[2] = bg[2];
        static const double dark[3] = {0.05, 0.05, 0.05}, white[3] = {1, 1, 1};
        rim = t->kind == OV_TARGET_CAMERA ? dark : white;
        rim_w = fmax(t->unit, 0.07 * px);
        ov_style_ink_on(fill, fg);
    }
    ov_rounded_rect(cr, x, y, p->bw, p->bh, 0.3 * p->bh);
    cairo_set_source_rgba(cr, fill[0], fill[1], fill[2], t->kind == OV_TARGET_CAMERA ? 0.94 : 1.0);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, rim[0], rim[1], rim[2]);
    cairo_set_line_width(cr, rim_w);
    cairo_stroke(cr);
    ov_text_draw(t, &p->tx, x + p->pad_x, y + p->pad_y, fg, 1, NULL, 0);
}

static void box(ov_target *t, const ov_placed *p, const double bg[3])
{
    cairo_t *cr = t->cr;
    const double px = p->tx.px, x = -p->bw / 2, y = -p->bh / 2;
    double fg[3];
    cairo_rectangle(cr, x, y, p->bw, p->bh);
    if (t->kind == OV_TARGET_PROJECTOR) {
        double card[3];
        tint(bg, 0.85, card);
        cairo_set_source_rgb(cr, card[0], card[1], card[2]);
        fg[0] = fg[1] = fg[2] = 0;
    } else {
        cairo_set_source_rgba(cr, 0, 0, 0, 0.75);
        fg[0] = fg[1] = fg[2] = 1;
    }
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, bg[0], bg[1], bg[2]);
    cairo_set_line_width(cr, fmax(2 * t->unit, 0.14 * px));
    cairo_stroke(cr);
    ov_text_draw(t, &p->tx, x + p->pad_x, y + p->pad_y, fg, 1, NULL, 0);
}

/* Plain text with a halo: names of units, numbers in bases. */
static void plain(ov_target *t, const ov_placed *p, const double c[3])
{
    double halo[4];
    ov_style_halo(t, halo);
    if (t->kind == OV_TARGET_CAMERA)
        halo[3] = 0.85;
    ov_text_draw(t, &p->tx, -p->bw / 2 + p->pad_x, -p->bh / 2 + p->pad_y, c, 1, halo, fmax(2.0 * t->unit, 0.2 * p->tx.px));
}

void ov_paint_label(const ov_scene *sc, ov_target *t, const ov_placed *p, bool leaders)
{
    const ov_label *l = p->l;
    double bg[3];
    ov_style_rgb(t, &l->bg, bg);
    if (leaders) {
        leader(sc, t, p, bg);
        return;
    }
    cairo_save(t->cr);
    cairo_translate(t->cr, p->at.cx, p->at.cy);
    cairo_rotate(t->cr, p->angle);
    switch (l->kind) {
    case OV_LABEL_BOX:
        box(t, p, bg);
        break;
    case OV_LABEL_NUMBER: {
        static const double light[3] = {1, 1, 1}, dark[3] = {0.12, 0.12, 0.12};
        plain(t, p, t->kind == OV_TARGET_REPORT ? dark : light);
        break;
    }
    case OV_LABEL_NAME:
        /* A name on the table is a card like any label. */
        if (t->kind == OV_TARGET_PROJECTOR)
            pill(t, p, bg);
        else
            plain(t, p, bg);
        break;
    default:
        pill(t, p, bg);
        break;
    }
    cairo_restore(t->cr);
}
