/*
 * ov_render: a scene laid out and painted on one target. The layout comes
 * first (every base, base centre and number is an obstacle, then each
 * label in order of importance goes where ov_layout finds room), then the
 * paint: marks layer by layer, numbers, leaders, labels, the key. On a
 * projector each label is turned to face the player whose unit it names.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ov_scene_int.h"
#include "ov_text.h"

/* ---- geometry on the target ---- */

/* The board's outline in device units (NULL when unknown or unmappable). */
static bool board_quad(const ov_scene *sc, const ov_target *t, ov_quad *q)
{
    if (sc->board_w <= 0 || sc->board_d <= 0)
        return false;
    base_vec2 c[4] = {{0, 0}, {sc->board_w, 0}, {sc->board_w, sc->board_d}, {0, sc->board_d}};
    for (int i = 0; i < 4; i++)
        if (!ov_dev(t, c[i], &q->x[i], &q->y[i]))
            return false;
    return true;
}

/* Projector: px per table mm where the board is smallest, so no text is under its size anywhere. */
static void projector_scale(const ov_scene *sc, ov_target *t)
{
    double s = INFINITY;
    base_vec2 c[5] = {{0, 0}, {sc->board_w, 0}, {sc->board_w, sc->board_d}, {0, sc->board_d},
                       {sc->board_w / 2, sc->board_d / 2}};
    for (int i = 0; i < (sc->board_w > 0 ? 5 : 0); i++) {
        double v = ov_map_scale(&t->map, c[i]);
        if (v > 0)
            s = fmin(s, v);
    }
    t->table_px_per_mm = isfinite(s) ? s : ov_map_scale(&t->map, base_v2(0, 0));
}

/* Reading direction for a label of `side` at `at`: along board +x for the near edge's player, -x for the far one's. */
static double reading_angle(const ov_scene *sc, const ov_target *t, int side, base_vec2 at)
{
    if (t->kind != OV_TARGET_PROJECTOR)
        return 0;
    double x0, y0, x1, y1;
    if (!ov_dev(t, at, &x0, &y0) || !ov_dev(t, base_v2_add(at, base_v2(10, 0)), &x1, &y1))
        return 0;
    double a = atan2(y1 - y0, x1 - x0);
    bool far = side >= 0 && (size_t)side < sc->n_sides && sc->side_edge[side] == OV_EDGE_FAR;
    return far ? a + BASE_PI : a;
}

/* A line's segments, each as a thin quad. */
static void line_obstacles(const ov_scene *sc, ov_target *t, const ov_mark *m)
{
    const double half = 0.5 * m->width * ov_style_line(t, sc->opt.size) + t->unit;
    double x0 = 0, y0 = 0;
    for (size_t k = 0; k < m->n; k++) {
        double x, y;
        if (!ov_dev(t, sc->pts[m->p0 + k], &x, &y))
            continue;
        double dx = x - x0, dy = y - y0, len = hypot(dx, dy);
        if (k > 0 && len > 0.5) {
            double nx = -dy / len * half, ny = dx / len * half;
            ov_quad q = {{x0 + nx, x + nx, x - nx, x0 - nx}, {y0 + ny, y + ny, y - ny, y0 - ny}};
            ov_layout_add(t->layout, &q, OV_OBST_MARK);
        }
        if (k == 0 || len > 0.5)
            x0 = x, y0 = y;
    }
}

static void base_obstacles(const ov_scene *sc, ov_target *t)
{
    for (size_t i = 0; i < sc->n_marks; i++) {
        const ov_mark *m = &sc->marks[i];
        if (m->role == OV_ROLE_LINE) {
            line_obstacles(sc, t, m);
            continue;
        }
        if (m->role == OV_ROLE_NONE || m->n != 4)
            continue;
        ov_quad q;
        bool ok = true;
        for (int k = 0; k < 4 && ok; k++)
            ok = ov_dev(t, sc->pts[m->p0 + k], &q.x[k], &q.y[k]);
        if (!ok)
            continue;
        ov_layout_add(t->layout, &q, m->role == OV_ROLE_BASE ? OV_OBST_BASE : OV_OBST_MARK);
        double cx, cy;
        if (m->role == OV_ROLE_BASE && ov_dev(t, m->centre, &cx, &cy)) {
            ov_box bb = ov_quad_bbox(&q);
            double r = fmax(2.0, 0.15 * fmin(bb.x1 - bb.x0, bb.y1 - bb.y0));
            ov_layout_add_point(t->layout, cx, cy, r, OV_OBST_CENTRE);
        }
    }
}

/* ---- measuring labels ---- */

static double size_px(const ov_scene *sc, const ov_target *t, ov_size s)
{
    return ov_style_text(t, s, sc->opt.size);
}

static int measure(const ov_scene *sc, ov_target *t, const ov_label *l, ov_placed *p)
{
    memset(p, 0, sizeof *p);
    p->l = l;
    double px = size_px(sc, t, l->size), wrap = 0;
    if (l->kind == OV_LABEL_BOX)
        wrap = fmin(26 * px, 0.36 * (t->clip.x1 - t->clip.x0));
    if (ov_text_init(&p->tx, t, ov_sc_text(sc, l->text), px, l->bold && l->kind != OV_LABEL_BOX, wrap) < 0)
        return -1;
    bool pill = l->kind == OV_LABEL_PILL || (l->kind == OV_LABEL_NAME && t->kind == OV_TARGET_PROJECTOR);
    p->pad_x = l->kind == OV_LABEL_BOX ? 0.5 * px : pill ? 0.35 * px : 0.1 * px;
    p->pad_y = l->kind == OV_LABEL_BOX ? 0.35 * px : pill ? 0.1 * px : 0.0;
    p->bw = p->tx.w + 2 * p->pad_x;
    p->bh = p->tx.h + 2 * p->pad_y;
    p->angle = reading_angle(sc, t, l->side, l->anchor);
    return 0;
}

/* A number in its base: only where it fits inside the base, and off everything placed. */
static bool place_number(const ov_scene *sc, ov_target *t, const ov_label *l, ov_placed *p)
{
    if (t->kind == OV_TARGET_PROJECTOR || measure(sc, t, l, p) < 0)
        return false;
    double cx, cy;
    if (!ov_dev(t, l->anchor, &cx, &cy))
        return false;
    /* Within its base, a little over its edges at most (the halo keeps it readable there). */
    base_vec2 k[4];
    base_obb_corners(&l->base, k);
    ov_quad bq;
    for (int i = 0; i < 4; i++)
        if (!ov_dev(t, base_v2_add(l->base.centre, base_v2_scale(base_v2_sub(k[i], l->base.centre), 1.12)),
                    &bq.x[i], &bq.y[i]))
            return false;
    ov_quad q = ov_quad_rect(cx, cy, p->bw, p->bh, 0);
    for (int i = 0; i < 4; i++)
        if (!ov_quad_contains(&bq, q.x[i], q.y[i]))
            return false;
    /* Its own base's centre lies under it by design; nothing else may. */
    const ov_layout *L = t->layout;
    for (size_t i = 0; i < ov_layout_count(L); i++) {
        const ov_obstacle *o = ov_layout_get(L, i);
        bool own = o->kind == OV_OBST_CENTRE && ov_quad_contains(&o->q, cx, cy);
        if ((o->kind == OV_OBST_LABEL || o->kind == OV_OBST_NUMBER || (o->kind == OV_OBST_CENTRE && !own)) &&
            ov_quad_overlap(&q, &o->q, 0.25))
            return false;
    }
    p->at.placed = true;
    p->at.box = q;
    p->at.cx = cx, p->at.cy = cy;
    ov_layout_add(t->layout, &q, OV_OBST_NUMBER);
    return true;
}

static bool place_label(const ov_scene *sc, ov_target *t, const ov_label *l, ov_placed *p)
{
    if (measure(sc, t, l, p) < 0)
        return false;
    double ax, ay;
    if (!ov_dev(t, l->anchor, &ax, &ay))
        return false;
    ov_label_req q = {ax, ay, p->bw, p->bh, p->angle, l->clear_mm * ov_scale_at(t, l->anchor), l->leader_ok, l->side};
    if (ov_layout_place(t->layout, &q, &p->at) < 0)
        return false;
    return p->at.placed;
}

static int by_priority(const void *a, const void *b)
{
    const ov_label *x = *(const ov_label *const *)a, *y = *(const ov_label *const *)b;
    if (x->priority != y->priority)
        return x->priority < y->priority ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* ---- painting ---- */

static double main_line(const ov_scene *sc, const ov_target *t) { return ov_style_line(t, sc->opt.size); }

static void paint_arrow(const ov_scene *sc, ov_target *t, const ov_mark *m, const double rgb[3], double w)
{
    base_vec2 a = sc->pts[m->p0], b = sc->pts[m->p0 + 1];
    double len = base_v2_dist(a, b), xb, yb, xq, yq;
    base_vec2 q = base_v2_add(b, base_v2_scale(base_v2_sub(a, b), fmin(1.0, 1.0 / fmax(len, 1e-9))));
    if (len < 1e-6 || !ov_dev(t, b, &xb, &yb) || !ov_dev(t, q, &xq, &yq))
        return;
    double ux = xb - xq, uy = yb - yq, ul = hypot(ux, uy);
    if (ul < 1e-9)
        return;
    ux /= ul, uy /= ul;
    double head = fmax(3.2 * w, 3.0 * main_line(sc, t));
    double shaft_mm = fmax(0, len - 0.8 * head / ov_scale_at(t, b));
    base_vec2 seg[2] = {a, base_v2_add(a, base_v2_scale(base_v2_sub(b, a), shaft_mm / len))};
    cairo_new_path(t->cr);
    ov_path_poly(t, seg, 2, false);
    ov_stroke(t, rgb, m->line.alpha, w, OV_DASH_SOLID);
    cairo_move_to(t->cr, xb, yb);
    cairo_line_to(t->cr, xb - head * ux - 0.45 * head * uy, yb - head * uy + 0.45 * head * ux);
    cairo_line_to(t->cr, xb - head * ux + 0.45 * head * uy, yb - head * uy - 0.45 * head * ux);
    cairo_close_path(t->cr);
    double halo[4];
    ov_style_halo(t, halo);
    if (halo[3] > 0) {
        cairo_set_source_rgba(t->cr, halo[0], halo[1], halo[2], halo[3] * m->line.alpha);
        cairo_set_line_width(t->cr, fmax(1.0, 0.6 * w));
        cairo_stroke_preserve(t->cr);
    }
    cairo_set_source_rgba(t->cr, rgb[0], rgb[1], rgb[2], m->line.alpha);
    cairo_fill(t->cr);
}

/* Centre ring-cross, Front diamond, pivot ring: sized on the target, not on the board. */
static void paint_point_mark(const ov_scene *sc, ov_target *t, const ov_mark *m, const double rgb[3], double w)
{
    double x, y;
    if (!ov_dev(t, sc->pts[m->p0], &x, &y))
        return;
    double r = fmax(2.2 * main_line(sc, t), 4 * t->unit);
    cairo_t *cr = t->cr;
    cairo_new_path(cr);
    if (m->kind == OV_MARK_CENTRE) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * BASE_PI);
        cairo_move_to(cr, x - 1.6 * r, y), cairo_line_to(cr, x + 1.6 * r, y);
        cairo_move_to(cr, x, y - 1.6 * r), cairo_line_to(cr, x, y + 1.6 * r);
        ov_stroke(t, rgb, m->line.alpha, w, OV_DASH_SOLID);
    } else if (m->kind == OV_MARK_RING) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, 0.8 * r, 0, 2 * BASE_PI);
        ov_stroke(t, rgb, m->line.alpha, w, OV_DASH_SOLID);
    } else {
        cairo_move_to(cr, x, y - r), cairo_line_to(cr, x + r, y), cairo_line_to(cr, x, y + r);
        cairo_line_to(cr, x - r, y), cairo_close_path(cr);
        cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], m->line.alpha);
        cairo_fill(cr);
    }
}

static void clip_to_board(const ov_scene *sc, ov_target *t)
{
    base_vec2 c[4] = {{0, 0}, {sc->board_w, 0}, {sc->board_w, sc->board_d}, {0, sc->board_d}};
    cairo_new_path(t->cr);
    ov_path_poly(t, c, 4, true);
    cairo_clip(t->cr);
}

/* A plain mark's path: its points, or on a projector its outline around the labels' keep-outs. `ccw`: a closed
 * outline turned counter-clockwise on the board first, so that several filled together make their union (nonzero
 * rule) whichever way their points were given. */
static void path_mark(const ov_scene *sc, ov_target *t, const ov_mark *m, double w, bool ccw)
{
    base_vec2 around[4];
    const base_vec2 *p = sc->pts + m->p0;
    size_t n = m->n;
    if (ov_kp_around(sc, t, m, w, around))
        p = around, n = 4;
    double area2 = 0;
    for (size_t i = 0; ccw && m->closed && i < n; i++)
        area2 += p[i].x * p[(i + 1) % n].y - p[(i + 1) % n].x * p[i].y;
    base_vec2 *rev = area2 < 0 ? malloc(n * sizeof *rev) : NULL;
    for (size_t i = 0; rev && i < n; i++)
        rev[i] = p[n - 1 - i];
    ov_path_poly(t, rev ? rev : p, n, m->closed);
    free(rev);
}

static void fill_rgba(ov_target *t, const ov_mark *m)
{
    double f[3];
    ov_style_rgb(t, &m->fill, f);
    cairo_set_source_rgba(t->cr, f[0], f[1], f[2], m->fill.alpha);
}

static void paint_mark(const ov_scene *sc, ov_target *t, const ov_mark *m)
{
    if (ov_kp_skip_mark(sc, t, m))
        return;
    double rgb[3], w = m->width * main_line(sc, t);
    ov_style_rgb(t, &m->line, rgb);
    cairo_save(t->cr);
    if (m->clip_board && sc->board_w > 0)
        clip_to_board(sc, t);
    cairo_new_path(t->cr);
    switch (m->kind) {
    case OV_MARK_ARROW:
        paint_arrow(sc, t, m, rgb, w);
        break;
    case OV_MARK_CENTRE:
    case OV_MARK_FRONT:
    case OV_MARK_RING:
        paint_point_mark(sc, t, m, rgb, w);
        break;
    default:
        path_mark(sc, t, m, w, false);
        if (m->kind == OV_MARK_AREA && m->fill.alpha > 0) {
            fill_rgba(t, m);
            if (m->line.alpha > 0)
                cairo_fill_preserve(t->cr);
            else
                cairo_fill(t->cr);
        }
        if (m->line.alpha > 0)
            ov_stroke(t, rgb, m->line.alpha, w, m->dash);
        break;
    }
    cairo_restore(t->cr);
}

static bool plain_mark(const ov_mark *m) { return m->kind == OV_MARK_LINE || m->kind == OV_MARK_AREA; }

static bool same_paint(const ov_target *t, const ov_paint *a, const ov_paint *b)
{
    double x[3], y[3];
    if (a->alpha != b->alpha)
        return false;
    if (a->alpha <= 0)
        return true;
    ov_style_rgb(t, a, x), ov_style_rgb(t, b, y);
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

/* Two plain marks that look alike (one layer, kind, line, fill, width, dash and clip): painted as one path. */
static bool same_look(const ov_target *t, const ov_mark *a, const ov_mark *b)
{
    return plain_mark(a) && plain_mark(b) && a->layer == b->layer && a->kind == b->kind && a->closed == b->closed &&
           a->clip_board == b->clip_board && a->width == b->width && a->dash == b->dash &&
           same_paint(t, &a->line, &b->line) && (a->kind != OV_MARK_AREA || same_paint(t, &a->fill, &b->fill));
}

/* A run of marks that look alike as one path: their fills together, then their halos, then their lines. On hard
 * table 1's camera picture the ~450 marks' ~900 strokes became ~230, ~17 M instructions fewer: Cairo's cost there is
 * mostly the area it rasterises (the 4 x 4 sampling, ov_target.c, saved ~100 M). The pixels are the same but where two
 * marks of the run overlap: there the translucent fill and line are laid once, not twice, and no later mark's halo
 * dims an earlier one's line. */
static void paint_run(const ov_scene *sc, ov_target *t, const ov_mark *const *run, size_t n)
{
    const ov_mark *m = run[0];
    double rgb[3], w = m->width * main_line(sc, t);
    ov_style_rgb(t, &m->line, rgb);
    cairo_save(t->cr);
    if (m->clip_board && sc->board_w > 0)
        clip_to_board(sc, t);
    if (m->kind == OV_MARK_AREA && m->fill.alpha > 0) {
        cairo_new_path(t->cr);
        for (size_t i = 0; i < n; i++)
            if (!ov_kp_skip_mark(sc, t, run[i]))
                path_mark(sc, t, run[i], w, true);
        fill_rgba(t, m);
        cairo_fill(t->cr);
    }
    if (m->line.alpha > 0) {
        cairo_new_path(t->cr);
        for (size_t i = 0; i < n; i++)
            if (!ov_kp_skip_mark(sc, t, run[i]))
                path_mark(sc, t, run[i], w, false);
        ov_stroke(t, rgb, m->line.alpha, w, m->dash);
    }
    cairo_restore(t->cr);
}

/* The marks in layer order, each run that looks alike as one path. */
static void paint_marks(const ov_scene *sc, ov_target *t, const ov_mark *const *marks, size_t n)
{
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && same_look(t, marks[i], marks[j]);)
            j++;
        if (j - i == 1)
            paint_mark(sc, t, marks[i]);
        else
            paint_run(sc, t, marks + i, j - i);
    }
}

static int by_layer(const void *a, const void *b)
{
    const ov_mark *x = *(const ov_mark *const *)a, *y = *(const ov_mark *const *)b;
    if (x->layer != y->layer)
        return x->layer < y->layer ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* A scene that does not know the board or its players' edges takes them from the last one drawn here. */
static void players(ov_scene *sc, ov_target *t)
{
    if (sc->board_w <= 0 && t->board_w > 0)
        sc->board_w = t->board_w, sc->board_d = t->board_d;
    for (size_t i = 0; i < t->n_sides; i++) {
        int k = ov_sc_side(sc, t->sides[i]);
        if (k >= 0 && sc->side_edge[k] == OV_EDGE_AUTO)
            sc->side_edge[k] = t->side_edge[i];
    }
    t->board_w = sc->board_w, t->board_d = sc->board_d;
    t->n_sides = sc->n_sides < 8 ? sc->n_sides : 8;
    for (size_t i = 0; i < t->n_sides; i++) {
        memcpy(t->sides[i], sc->sides[i], RULES_ID_MAX);
        t->side_edge[i] = sc->side_edge[i];
    }
}

int ov_render(ov_scene *sc, ov_target *t, base_error *err)
{
    players(sc, t);
    if (t->kind == OV_TARGET_PROJECTOR)
        projector_scale(sc, t);
    ov_quad bq;
    if (board_quad(sc, t, &bq)) {
        ov_layout_set_board(t->layout, t->kind != OV_TARGET_REPORT ? &bq : NULL);
        /* On a projector, labels stay on the table itself: off it, light lands on the floor and the players. */
        if (t->kind == OV_TARGET_PROJECTOR) {
            ov_box bb = ov_quad_bbox(&bq), c = t->clip;
            ov_layout_set_bounds(t->layout, (ov_box){fmax(c.x0, bb.x0), fmax(c.y0, bb.y0), fmin(c.x1, bb.x1),
                                                     fmin(c.y1, bb.y1)});
        }
    }
    base_obstacles(sc, t);
    ov_kp_obstacles(t);

    const ov_label **order = malloc((sc->n_labels + 1) * sizeof *order);
    const ov_mark **marks = malloc((sc->n_marks + 1) * sizeof *marks);
    ov_placed *pl = calloc(sc->n_labels + 1, sizeof *pl);
    if (!order || !marks || !pl) {
        free(order), free(marks), free(pl);
        return base_error_set(err, "out of memory");
    }
    if (sc->opt.legend && t->kind != OV_TARGET_REPORT)
        ov_panel_key(sc, t);
    size_t n = 0;
    for (size_t i = 0; i < sc->n_labels; i++)
        if (!(sc->labels[i].kind == OV_LABEL_BOX && t->kind == OV_TARGET_REPORT))
            order[n++] = &sc->labels[i];
    qsort(order, n, sizeof *order, by_priority);
    /* Numbers first (they sit in their bases), then the labels, most important first. */
    sc->unplaced = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            bool number = order[i]->kind == OV_LABEL_NUMBER;
            /* A number is written in its base: on a projector that is a label, left dark. */
            if (number != (pass == 0) || (number && t->keepout))
                continue;
            bool ok = number ? place_number(sc, t, order[i], &pl[i]) : place_label(sc, t, order[i], &pl[i]);
            if (!ok && !number)
                sc->unplaced++;
        }

    for (size_t i = 0; i < sc->n_marks; i++)
        marks[i] = &sc->marks[i];
    qsort(marks, sc->n_marks, sizeof *marks, by_layer);
    cairo_save(t->cr);
    cairo_rectangle(t->cr, t->clip.x0, t->clip.y0, t->clip.x1 - t->clip.x0, t->clip.y1 - t->clip.y0);
    cairo_clip(t->cr);
    paint_marks(sc, t, marks, sc->n_marks);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++)
            if (pl[i].at.placed)
                ov_paint_label(sc, t, &pl[i], pass == 0);
    cairo_restore(t->cr);
    for (size_t i = 0; i < n; i++)
        ov_text_free(&pl[i].tx);
    free(order), free(marks), free(pl);
    if (t->kind == OV_TARGET_REPORT && sc->opt.legend)
        ov_panel_report(sc, t);
    cairo_status_t st = cairo_status(t->cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return base_error_set(err, "overlay: drawing failed: %s", cairo_status_to_string(st));
    return 0;
}
