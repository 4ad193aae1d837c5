/* ov_draw: the verdict drawn in board mm, mapped point by point onto any target. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ov_internal.h"
#include "rules_formation.h"

#define FONT "DejaVu Sans"

/* ---- look ------------------------------------------------------------------ */

typedef struct theme {
    double neutral[3]; /* before positions, other units, plain text */
    double halo[4];    /* under-stroke that keeps marks readable on any background */
    double fill_alpha; /* after bases */
} theme;

static theme theme_of(const ov_target *t)
{
    theme th;
    if (t->kind == OV_TARGET_REPORT)
        th = (theme){{0.27, 0.27, 0.27}, {1, 1, 1, 0.85}, 0.30};
    else if (t->kind == OV_TARGET_PROJECTOR)
        th = (theme){{0.85, 0.85, 0.85}, {0, 0, 0, 1}, 0.45};
    else
        th = (theme){{1, 1, 1}, {0, 0, 0, 0.65}, 0.35};
    return th;
}

void ov_options_default(ov_options *o)
{
    memset(o, 0, sizeof *o);
    o->text_mm = 9.0;
    o->line_mm = 1.2;
    o->bases = o->arrows = o->outlines = o->arcs = o->path = o->limits = o->gaps = o->legend = o->others = true;
}

/* ---- mapped geometry ------------------------------------------------------ */

/* Board point -> cairo device coordinates (cairo's pixel centres are at +0.5). */
static bool dev(const ov_target *t, rules_vec2 b, double *x, double *y)
{
    double px[2];
    if (!ov_map_point(&t->map, b, px))
        return false;
    *x = px[0] + 0.5;
    *y = px[1] + 0.5;
    return true;
}

static double scale_at(const ov_target *t, rules_vec2 p)
{
    double s = ov_map_scale(&t->map, p);
    return s > 0 ? s : 1.0;
}

/* Adds the board polyline to the current cairo path, subdivided so that distortion bends it right.
 * Points the mapping cannot see break the line. */
static void poly_path(ov_target *t, const rules_vec2 *p, size_t n, bool closed)
{
    double step = ov_map_step_mm(&t->map);
    bool pen = false;
    size_t segs = closed ? n : (n ? n - 1 : 0);
    double x, y;
    if (n && dev(t, p[0], &x, &y)) {
        cairo_move_to(t->cr, x, y);
        pen = true;
    }
    for (size_t i = 0; i < segs; i++) {
        rules_vec2 a = p[i], b = p[(i + 1) % n];
        double len = rules_v2_dist(a, b);
        int k = isfinite(step) ? (int)ceil(len / step) : 1;
        if (k < 1)
            k = 1;
        for (int j = 1; j <= k; j++) {
            rules_vec2 q = rules_v2_add(a, rules_v2_scale(rules_v2_sub(b, a), (double)j / k));
            if (!dev(t, q, &x, &y)) {
                pen = false;
                continue;
            }
            if (pen)
                cairo_line_to(t->cr, x, y);
            else
                cairo_move_to(t->cr, x, y);
            pen = true;
        }
    }
    if (closed && n > 2)
        cairo_close_path(t->cr);
}

static void seg_path(ov_target *t, rules_vec2 a, rules_vec2 b)
{
    rules_vec2 p[2] = {a, b};
    poly_path(t, p, 2, false);
}

/* A board circle arc from angle a0 to a1 (rad, either direction), sampled so it stays round under any mapping. */
static void arc_path(ov_target *t, rules_vec2 c, double r, double a0, double a1)
{
    double span = fabs(a1 - a0), step = ov_map_step_mm(&t->map);
    int k = (int)ceil(span / (2.0 * RULES_PI / 180.0));
    if (isfinite(step) && r > 0)
        k = (int)fmax(k, ceil(span * r / step));
    if (k < 2)
        k = 2;
    rules_vec2 *p = malloc(((size_t)k + 1) * sizeof *p);
    if (!p)
        return;
    for (int j = 0; j <= k; j++)
        p[j] = rules_v2_add(c, rules_v2_scale(rules_v2_dir(a0 + (a1 - a0) * j / k), r));
    /* The pieces are already short; map them as they are. */
    for (int j = 0; j <= k; j++) {
        double x, y;
        if (!dev(t, p[j], &x, &y))
            continue;
        if (j == 0)
            cairo_move_to(t->cr, x, y);
        else
            cairo_line_to(t->cr, x, y);
    }
    free(p);
}

static void set_rgb(ov_target *t, const double c[3], double a)
{
    cairo_set_source_rgba(t->cr, c[0], c[1], c[2], a);
}

static double line_px(const ov_target *t, double mm, rules_vec2 at)
{
    return fmax(mm * scale_at(t, at), t->min_line_px);
}

/* Strokes the current path twice: a halo, then the colour (keeps the path). */
static void stroke_halo(ov_target *t, const double c[3], double a, double width_px, const double *dash, int ndash)
{
    theme th = theme_of(t);
    cairo_set_line_cap(t->cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(t->cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(t->cr, NULL, 0, 0);
    cairo_set_source_rgba(t->cr, th.halo[0], th.halo[1], th.halo[2], th.halo[3] * a);
    cairo_set_line_width(t->cr, width_px + fmax(2.0, 0.6 * width_px));
    cairo_stroke_preserve(t->cr);
    cairo_set_dash(t->cr, dash, ndash, 0);
    set_rgb(t, c, a);
    cairo_set_line_width(t->cr, width_px);
    cairo_stroke(t->cr);
    cairo_set_dash(t->cr, NULL, 0, 0);
}

/* ---- text ----------------------------------------------------------------- */

static double text_px(const ov_target *t, const ov_options *o, rules_vec2 at, double factor)
{
    double mm = (o->text_mm > 0 ? o->text_mm : 9.0) * factor;
    double minpx = o->min_text_px > 0 ? o->min_text_px : t->min_text_px;
    return fmax(mm * scale_at(t, at), minpx * fmin(1.0, factor + 0.2));
}

static void font(ov_target *t, double px, bool bold)
{
    cairo_select_font_face(t->cr, FONT, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(t->cr, px);
    t->font_px = px;
}

static double text_w(ov_target *t, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(t->cr, s, &e);
    return e.x_advance;
}

static bool box_free(const ov_target *t, ov_box b)
{
    for (size_t i = 0; i < t->n_labels; i++) {
        const ov_box *o = &t->labels[i];
        if (b.x0 < o->x1 && o->x0 < b.x1 && b.y0 < o->y1 && o->y0 < b.y1)
            return false;
    }
    return true;
}

static double box_cost(const ov_target *t, ov_box b);

static double overlap(ov_box a, ov_box b)
{
    double w = fmin(a.x1, b.x1) - fmax(a.x0, b.x0), h = fmin(a.y1, b.y1) - fmax(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0;
}

/* How bad a place is for a label: area over earlier labels plus area outside the drawing. */
static double box_cost(const ov_target *t, ov_box b)
{
    double cost = (b.x1 - b.x0) * (b.y1 - b.y0) - overlap(b, t->clip);
    for (size_t i = 0; i < t->n_labels; i++)
        cost += overlap(b, t->labels[i]);
    return cost;
}

static void box_take(ov_target *t, ov_box b)
{
    if (t->n_labels == t->cap_labels) {
        size_t cap = t->cap_labels ? 2 * t->cap_labels : 32;
        ov_box *nb = realloc(t->labels, cap * sizeof *nb);
        if (!nb)
            return; /* only placement suffers */
        t->labels = nb;
        t->cap_labels = cap;
    }
    t->labels[t->n_labels++] = b;
}

/* Text with a halo, its left baseline at (x, y) device px. */
static void text_halo(ov_target *t, double x, double y, const char *s, const double c[3])
{
    theme th = theme_of(t);
    cairo_move_to(t->cr, x, y);
    cairo_text_path(t->cr, s);
    cairo_set_source_rgba(t->cr, th.halo[0], th.halo[1], th.halo[2], th.halo[3]);
    cairo_set_line_width(t->cr, fmax(2.5, 0.22 * t->font_px));
    cairo_set_line_join(t->cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke_preserve(t->cr);
    set_rgb(t, c, 1);
    cairo_fill(t->cr);
}

/*
 * A pill: rounded box in `bg` with text in `fg`, placed near device point
 * (ax, ay) at the first candidate offset where it overlaps no earlier label
 * (else where it overlaps least: a label must never silently vanish).
 */
static void pill(ov_target *t, double ax, double ay, const char *s, double px, const double bg[3],
                 const double fg[3], bool leader)
{
    font(t, px, true);
    double w = text_w(t, s), pad = 0.35 * px, h = 1.35 * px;
    double bw = w + 2 * pad, d = 0.6 * px;
    /* Candidates: right, left, above, below, then diagonals and farther out. */
    const double cand[][2] = {{d, -h / 2},  {-d - bw, -h / 2},      {-bw / 2, -d - h},     {-bw / 2, d},
                              {d, -d - h},  {-d - bw, -d - h},      {d, d},                {-d - bw, d},
                              {3 * d, -h / 2}, {-3 * d - bw, -h / 2}, {-bw / 2, -3 * d - h}, {-bw / 2, 3 * d},
                              {d, -2.2 * h}, {-d - bw, -2.2 * h},   {d, 1.2 * h},          {-d - bw, 1.2 * h}};
    size_t nc = sizeof cand / sizeof cand[0], pick = 0;
    /* The first place that is free; failing that, the one that covers the least (other labels, or
     * room outside the picture). */
    double best = INFINITY;
    for (size_t i = 0; i < nc; i++) {
        ov_box b = {ax + cand[i][0], ay + cand[i][1], ax + cand[i][0] + bw, ay + cand[i][1] + h};
        double cost = box_cost(t, b);
        if (cost < best - 1e-9) {
            best = cost;
            pick = i;
        }
        if (cost <= 0)
            break;
    }
    double x = ax + cand[pick][0], y = ay + cand[pick][1];
    ov_box b = {x, y, x + bw, y + h};
    box_take(t, b);
    theme th = theme_of(t);
    if (leader) {
        double cx = fmin(fmax(ax, b.x0), b.x1), cy = fmin(fmax(ay, b.y0), b.y1);
        cairo_move_to(t->cr, ax, ay);
        cairo_line_to(t->cr, cx, cy);
        cairo_set_line_width(t->cr, fmax(1.0, 0.08 * px));
        set_rgb(t, bg, 0.9);
        cairo_stroke(t->cr);
    }
    double r = 0.3 * h;
    cairo_new_sub_path(t->cr);
    cairo_arc(t->cr, x + bw - r, y + r, r, -RULES_PI / 2, 0);
    cairo_arc(t->cr, x + bw - r, y + h - r, r, 0, RULES_PI / 2);
    cairo_arc(t->cr, x + r, y + h - r, r, RULES_PI / 2, RULES_PI);
    cairo_arc(t->cr, x + r, y + r, r, RULES_PI, 1.5 * RULES_PI);
    cairo_close_path(t->cr);
    set_rgb(t, bg, 0.92);
    cairo_fill_preserve(t->cr);
    cairo_set_source_rgba(t->cr, th.halo[0], th.halo[1], th.halo[2], 0.9);
    cairo_set_line_width(t->cr, fmax(1.0, 0.08 * px));
    cairo_stroke(t->cr);
    set_rgb(t, fg, 1);
    cairo_move_to(t->cr, x + pad, y + 0.5 * h + 0.36 * px);
    cairo_show_text(t->cr, s);
}

static const double white[3] = {1, 1, 1}, black[3] = {0, 0, 0};

/* One line of text at (x, y): with a halo for busy backgrounds, plain otherwise. */
static void draw_text_line(ov_target *t, double x, double y, const char *line, const double c[3], bool halo)
{
    if (halo) {
        text_halo(t, x, y, line, c);
        return;
    }
    set_rgb(t, c, 1);
    cairo_move_to(t->cr, x, y);
    cairo_show_text(t->cr, line);
}

/* Greedy word wrap of `s` into lines no wider than `maxw` px; calls draw for each (or just counts). */
static int wrap_lines(ov_target *t, const char *s, double maxw, double x, double y, double lh, const double c[3],
                      bool draw, bool halo)
{
    char line[800] = "", word[256];
    int lines = 0;
    const char *p = s;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        if (n >= sizeof word)
            n = sizeof word - 1;
        memcpy(word, p, n);
        word[n] = 0;
        p += strlen(word);
        char trial[1100];
        snprintf(trial, sizeof trial, "%s%s%s", line, line[0] ? " " : "", word);
        if (line[0] && text_w(t, trial) > maxw) {
            if (draw)
                draw_text_line(t, x, y + lines * lh, line, c, halo);
            lines++;
            snprintf(line, sizeof line, "%s", word);
        } else {
            size_t tl = strlen(trial);
            if (tl >= sizeof line)
                tl = sizeof line - 1;
            memcpy(line, trial, tl);
            line[tl] = 0;
        }
    }
    if (line[0]) {
        if (draw)
            draw_text_line(t, x, y + lines * lh, line, c, halo);
        lines++;
    }
    return lines;
}

/* ---- the report's board --------------------------------------------------- */

void ov_draw_report_board(ov_target *t)
{
    cairo_t *cr = t->cr;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    rules_vec2 c[4] = {{t->view_x0, t->view_y0},
                       {t->view_x0 + t->view_w, t->view_y0},
                       {t->view_x0 + t->view_w, t->view_y0 + t->view_d},
                       {t->view_x0, t->view_y0 + t->view_d}};
    poly_path(t, c, 4, true);
    cairo_set_source_rgb(cr, 0.965, 0.955, 0.925);
    cairo_fill(cr);
    /* An inch grid, heavier every 6": players count inches. */
    double in = RULES_MM_PER_INCH;
    for (int axis = 0; axis < 2; axis++) {
        double lo = axis ? t->view_y0 : t->view_x0, len = axis ? t->view_d : t->view_w;
        for (long k = (long)ceil(lo / in); k * in <= lo + len + 1e-9; k++) {
            double v = k * in;
            rules_vec2 a = axis ? rules_v2(t->view_x0, v) : rules_v2(v, t->view_y0);
            rules_vec2 b = axis ? rules_v2(t->view_x0 + t->view_w, v) : rules_v2(v, t->view_y0 + t->view_d);
            seg_path(t, a, b);
            bool major = k % 6 == 0;
            cairo_set_source_rgba(cr, 0.55, 0.52, 0.45, major ? 0.45 : 0.18);
            cairo_set_line_width(cr, major ? 1.0 : 0.6);
            cairo_stroke(cr);
            if (major) {
                char lab[16];
                snprintf(lab, sizeof lab, "%ld\"", k);
                double x, y;
                font(t, 10, false);
                cairo_set_source_rgb(cr, 0.45, 0.43, 0.38);
                if (dev(t, a, &x, &y)) {
                    if (axis)
                        cairo_move_to(cr, x - text_w(t, lab) - 4, y + 4);
                    else
                        cairo_move_to(cr, x - text_w(t, lab) / 2, y + 13);
                    cairo_show_text(cr, lab);
                }
            }
        }
    }
    poly_path(t, c, 4, true);
    cairo_set_source_rgb(cr, 0.35, 0.33, 0.3);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
}

/* ---- pieces of a verdict -------------------------------------------------- */

static void obb_path(ov_target *t, const rules_obb *b)
{
    rules_vec2 c[4];
    rules_obb_corners(b, c);
    poly_path(t, c, 4, true);
}

static void fmt_in(char *buf, size_t cap, double mm)
{
    snprintf(buf, cap, "%.2f\"", rules_mm_to_in(mm));
}

/* "10.54" ± 0.03"" or "10.54"" when the uncertainty is unknown. */
static void fmt_in_pm(char *buf, size_t cap, double mm, double pm)
{
    if (isfinite(pm))
        snprintf(buf, cap, "%.2f\" \xC2\xB1 %.2f\"", rules_mm_to_in(mm), rules_mm_to_in(pm));
    else
        fmt_in(buf, cap, mm);
}

/* An arrow from a to b (board), head drawn in device space so it stays a clean triangle. */
static void arrow(ov_target *t, rules_vec2 a, rules_vec2 b, const double c[3], double width_px, double head_px)
{
    double len = rules_v2_dist(a, b);
    if (len < 1e-6)
        return;
    double xb, yb, xq, yq;
    rules_vec2 q = rules_v2_add(b, rules_v2_scale(rules_v2_sub(a, b), fmin(1.0, 1.0 / len)));
    if (!dev(t, b, &xb, &yb) || !dev(t, q, &xq, &yq))
        return;
    double ux = xb - xq, uy = yb - yq, ul = hypot(ux, uy);
    if (ul < 1e-9)
        return;
    ux /= ul, uy /= ul;
    /* The shaft stops where the head starts. */
    double shaft_mm = fmax(0, len - head_px / scale_at(t, b) * 0.8);
    seg_path(t, a, rules_v2_add(a, rules_v2_scale(rules_v2_sub(b, a), shaft_mm / len)));
    stroke_halo(t, c, 1, width_px, NULL, 0);
    theme th = theme_of(t);
    cairo_move_to(t->cr, xb, yb);
    cairo_line_to(t->cr, xb - head_px * ux - 0.45 * head_px * uy, yb - head_px * uy + 0.45 * head_px * ux);
    cairo_line_to(t->cr, xb - head_px * ux + 0.45 * head_px * uy, yb - head_px * uy - 0.45 * head_px * ux);
    cairo_close_path(t->cr);
    cairo_set_source_rgba(t->cr, th.halo[0], th.halo[1], th.halo[2], th.halo[3]);
    cairo_set_line_width(t->cr, 1.5);
    cairo_stroke_preserve(t->cr);
    set_rgb(t, c, 1);
    cairo_fill(t->cr);
}

/* Cross-hair ring: the unit's Centre. */
static void centre_mark(ov_target *t, rules_vec2 p, double r_px, const double c[3])
{
    double x, y;
    if (!dev(t, p, &x, &y))
        return;
    cairo_new_sub_path(t->cr);
    cairo_arc(t->cr, x, y, r_px, 0, 2 * RULES_PI);
    cairo_move_to(t->cr, x - 1.6 * r_px, y);
    cairo_line_to(t->cr, x + 1.6 * r_px, y);
    cairo_move_to(t->cr, x, y - 1.6 * r_px);
    cairo_line_to(t->cr, x, y + 1.6 * r_px);
    stroke_halo(t, c, 1, fmax(1.2, 0.25 * r_px), NULL, 0);
}

/* Diamond: the centre of the Front Facing. */
static void front_mark(ov_target *t, rules_vec2 p, double r_px, const double c[3])
{
    double x, y;
    if (!dev(t, p, &x, &y))
        return;
    cairo_move_to(t->cr, x, y - r_px);
    cairo_line_to(t->cr, x + r_px, y);
    cairo_line_to(t->cr, x, y + r_px);
    cairo_line_to(t->cr, x - r_px, y);
    cairo_close_path(t->cr);
    theme th = theme_of(t);
    cairo_set_source_rgba(t->cr, th.halo[0], th.halo[1], th.halo[2], th.halo[3]);
    cairo_set_line_width(t->cr, 2);
    cairo_stroke_preserve(t->cr);
    set_rgb(t, c, 1);
    cairo_fill(t->cr);
}

/* The four Arcs' dividing lines: from each boundary corner, at 135 degrees to both Facings. */
static void arcs_lines(ov_target *t, const rules_obb *b, double len_mm, const double c[3], double w_px)
{
    rules_vec2 k[4];
    rules_obb_corners(b, k);
    rules_vec2 f = rules_v2_dir(b->heading), l = rules_v2_dir(b->heading + RULES_PI / 2);
    /* front-left, rear-left, rear-right, front-right */
    const double sf[4] = {1, -1, -1, 1}, sl[4] = {1, 1, -1, -1};
    for (int i = 0; i < 4; i++) {
        rules_vec2 d = rules_v2_scale(rules_v2_add(rules_v2_scale(f, sf[i]), rules_v2_scale(l, sl[i])), 0.70710678118654752);
        seg_path(t, k[i], rules_v2_add(k[i], rules_v2_scale(d, len_mm)));
    }
    double dash[2] = {2 * w_px, 2.5 * w_px};
    stroke_halo(t, c, 0.8, w_px, dash, 2);
}

/* Closest points between two convex polygons that do not overlap. Parallel edges have a whole
 * stretch of closest pairs: take its middle, where a player would put the ruler. */
static double poly_closest(const rules_vec2 *a, size_t na, const rules_vec2 *b, size_t nb, rules_vec2 *pa,
                           rules_vec2 *pb)
{
    double best = INFINITY;
    rules_vec2 sa = {0, 0}, sb = {0, 0};
    int n_best = 0;
    for (int round = 0; round < 2; round++)
        for (int pass = 0; pass < 2; pass++) {
            const rules_vec2 *P = pass ? b : a, *Q = pass ? a : b;
            size_t np = pass ? nb : na, nq = pass ? na : nb;
            for (size_t i = 0; i < np; i++)
                for (size_t j = 0; j < nq; j++) {
                    rules_vec2 q0 = Q[j], q1 = Q[(j + 1) % nq], d = rules_v2_sub(q1, q0);
                    double L = rules_v2_dot(d, d);
                    double s = L > 0 ? rules_v2_dot(rules_v2_sub(P[i], q0), d) / L : 0;
                    s = fmin(1, fmax(0, s));
                    rules_vec2 q = rules_v2_add(q0, rules_v2_scale(d, s));
                    double dist = rules_v2_dist(P[i], q);
                    if (round == 0) {
                        best = fmin(best, dist);
                    } else if (dist <= best + 0.05) {
                        sa = rules_v2_add(sa, pass ? q : P[i]);
                        sb = rules_v2_add(sb, pass ? P[i] : q);
                        n_best++;
                    }
                }
        }
    if (n_best) {
        *pa = rules_v2_scale(sa, 1.0 / n_best);
        *pb = rules_v2_scale(sb, 1.0 / n_best);
    }
    return best;
}

/* ---- one unit ------------------------------------------------------------- */

typedef struct unit_ctx {
    ov_target *t;
    const ov_options *o;
    const rules_unit_report *ur;
    const rules_unit *ub, *ua;
    rules_formation fb, fa;
    bool have_fb, have_fa;
    const rules_ruleset *rs;
    const double *col; /* the unit's verdict colour */
    bool unsure;
    double lw;         /* main line width px */
    double tpx;        /* label text px */
} unit_ctx;

static bool model_named(const rules_unit_report *ur, const char *id, const char *code_prefix)
{
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        if (code_prefix && strncmp(v->code, code_prefix, strlen(code_prefix)) != 0)
            continue;
        for (size_t k = 0; k < v->n_models; k++)
            if (strcmp(v->models[k], id) == 0)
                return true;
    }
    return false;
}

/* Named by a rule about how far models went (MU-MODEL-DIST and its kin in other move rules). */
static bool model_named_dist(const rules_unit_report *ur, const char *id)
{
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        if (!strstr(v->code, "DIST"))
            continue;
        for (size_t k = 0; k < v->n_models; k++)
            if (strcmp(v->models[k], id) == 0)
                return true;
    }
    return false;
}

static const rules_model_move *model_move(const rules_unit_report *ur, const char *id)
{
    for (size_t i = 0; i < ur->n_models; i++)
        if (strcmp(ur->models[i].id, id) == 0)
            return &ur->models[i];
    return NULL;
}

/* The colour of one model's call: broke a rule, too close, or fine. */
static const double *model_colour(const unit_ctx *u, const char *id, bool *bad, bool *close)
{
    const ov_uncert *un = u->o->uncert;
    const rules_model_move *mm = model_move(u->ur, id);
    *bad = model_named(u->ur, id, NULL);
    *close = false;
    if (un && mm && isfinite(u->ur->rate_mm) && u->ur->rate_mm > 0)
        *close = ov_uncert_too_close(mm->distance_mm, u->ur->rate_mm, ov_uncert_distance(un, id));
    return *close ? ov_colour_unsure : *bad ? ov_colour_illegal : ov_colour_legal;
}

/* The path search may keep a zero-length wheel in its word (S-C-S with no first turn): nothing to draw or say. */
static bool step_is_empty(const rules_step *st)
{
    return fabs(st->angle_rad) < 0.002 && fabs(st->length_mm) < 0.05;
}

/* The path's lines (labels == false) or its labels (labels == true, drawn last so bases do not cover them). */
static void draw_path(unit_ctx *u, bool labels)
{
    ov_target *t = u->t;
    const rules_unit_report *ur = u->ur;
    if (!ur->has_path || ur->path.n_steps == 0 || !(ur->front_width_mm > 0))
        return;
    double W = ur->front_width_mm;
    rules_pose p = ur->pose_before;
    double w = fmax(u->lw * 1.6, 2.5);
    /* The front centre's track: straights and the wheels' arcs, traced in small steps. */
    rules_vec2 pts[2048];
    size_t n = 0;
    pts[n++] = p.front_centre;
    for (size_t s = 0; s < ur->path.n_steps; s++) {
        const rules_step *st = &ur->path.steps[s];
        if (step_is_empty(st))
            continue;
        bool wheel = st->kind == RULES_STEP_WHEEL_LEFT || st->kind == RULES_STEP_WHEEL_RIGHT;
        int k = wheel ? (int)fmax(4, ceil(fabs(st->angle_rad) / (1.0 * RULES_PI / 180.0))) : 1;
        for (int j = 1; j <= k && n < sizeof pts / sizeof pts[0]; j++) {
            rules_step part = *st;
            part.angle_rad = st->angle_rad * j / k;
            part.length_mm = st->length_mm * j / k;
            pts[n++] = rules_path_apply_step(p, &part, W).front_centre;
        }
        /* The wheel's measured distance is the outer front corner's: draw that arc, dashed, labelled. */
        if (wheel) {
            double side = st->kind == RULES_STEP_WHEEL_LEFT ? 1.0 : -1.0;
            rules_vec2 left = rules_v2_dir(p.heading + RULES_PI / 2);
            rules_vec2 pivot = rules_v2_add(p.front_centre, rules_v2_scale(left, side * W / 2));
            rules_vec2 outer = rules_v2_sub(p.front_centre, rules_v2_scale(left, side * W / 2));
            double a0 = atan2(outer.y - pivot.y, outer.x - pivot.x);
            cairo_new_path(t->cr);
            if (!labels)
                arc_path(t, pivot, W, a0, a0 + st->angle_rad);
            double dash[2] = {3 * w, 2 * w};
            stroke_halo(t, ov_colour_path, 0.95, 0.7 * w, dash, 2);
            if (!labels && u->rs->wheel_measure == RULES_WHEEL_CHORD) {
                rules_vec2 end = rules_v2_add(pivot, rules_v2_rot(rules_v2_sub(outer, pivot), st->angle_rad));
                seg_path(t, outer, end);
                stroke_halo(t, ov_colour_path, 0.95, 0.5 * w, NULL, 0);
            }
            /* Pivot: a small ring on the inner corner. */
            double x, y;
            if (!labels && dev(t, pivot, &x, &y)) {
                cairo_new_sub_path(t->cr);
                cairo_arc(t->cr, x, y, 1.2 * w, 0, 2 * RULES_PI);
                stroke_halo(t, ov_colour_path, 1, 0.5 * w, NULL, 0);
            }
            rules_vec2 mid = rules_v2_add(pivot, rules_v2_rot(rules_v2_sub(outer, pivot), st->angle_rad / 2));
            char lab[64], len[24];
            fmt_in(len, sizeof len, st->length_mm);
            snprintf(lab, sizeof lab, "wheel %s", len);
            if (labels && dev(t, mid, &x, &y))
                pill(t, x, y, lab, 0.8 * u->tpx, ov_colour_path, white, true);
        }
        p = rules_path_apply_step(p, st, W);
        /* The front edge where each step ends: a ghost of the unit's front. */
        rules_vec2 l2 = rules_v2_scale(rules_v2_dir(p.heading + RULES_PI / 2), W / 2);
        if (!labels) {
            seg_path(t, rules_v2_add(p.front_centre, l2), rules_v2_sub(p.front_centre, l2));
            stroke_halo(t, ov_colour_path, 0.6, 0.5 * w, NULL, 0);
        }
    }
    if (!labels) {
        cairo_new_path(t->cr);
        poly_path(t, pts, n, false);
        stroke_halo(t, ov_colour_path, 0.85, w, NULL, 0);
        return;
    }
    /* Its length, at the path's end. */
    char lab[64], len[24];
    fmt_in(len, sizeof len, ur->path.length_mm);
    snprintf(lab, sizeof lab, "path %s", len);
    double x, y;
    /* Half-way along the path, by length (the wheels' many samples would pull an index midpoint). */
    double total = 0, run = 0;
    for (size_t i = 1; i < n; i++)
        total += rules_v2_dist(pts[i - 1], pts[i]);
    size_t mid = 0;
    for (size_t i = 1; i < n && run < total / 2; i++) {
        run += rules_v2_dist(pts[i - 1], pts[i]);
        mid = i;
    }
    if (dev(t, pts[mid], &x, &y))
        pill(t, x, y, lab, 0.8 * u->tpx, ov_colour_path, white, true);
}

/* The rate circles (labels == false) or their one label (labels == true, drawn last so nothing covers it). */
static void draw_limits(unit_ctx *u, bool labels)
{
    const rules_unit_report *ur = u->ur;
    if (!u->ub || !(ur->rate_mm > 0) || !isfinite(ur->rate_mm) || ur->n_models == 0)
        return;
    /* The models that matter: the farthest, and those that went too far (at most 3 circles). */
    const char *ids[3];
    size_t n = 0, far = 0;
    for (size_t i = 1; i < ur->n_models; i++)
        if (ur->models[i].distance_mm > ur->models[far].distance_mm)
            far = i;
    ids[n++] = ur->models[far].id;
    for (size_t i = 0; i < ur->n_models && n < 3; i++)
        if (i != far && model_named(ur, ur->models[i].id, "MU-MODEL-DIST"))
            ids[n++] = ur->models[i].id;
    double w = fmax(0.6 * u->lw, 1.2);
    for (size_t i = 0; i < n; i++) {
        const rules_model *m0 = rules_unit_find_model(u->ub, ids[i]);
        const rules_model *m1 = u->ua ? rules_unit_find_model(u->ua, ids[i]) : NULL;
        if (!m0)
            continue;
        if (!labels) {
            cairo_new_path(u->t->cr);
            arc_path(u->t, m0->pos, ur->rate_mm, 0, 2 * RULES_PI);
            double dash[2] = {4 * w, 3 * w};
            stroke_halo(u->t, ov_colour_limit, 0.9, w, dash, 2);
        }
        /* Its name where the model went, so the eye compares the two. */
        if (labels && i == 0) {
            /* Near where the model went, but on a part of the circle the picture shows. */
            double dir = m1 ? atan2(m1->pos.y - m0->pos.y, m1->pos.x - m0->pos.x) : 0;
            rules_vec2 on = rules_v2_add(m0->pos, rules_v2_scale(rules_v2_dir(dir + 0.35), ur->rate_mm));
            for (int k = 0; k < 24; k++) {
                double a = dir + 0.35 + (k % 2 ? -1 : 1) * 0.26 * ((k + 1) / 2);
                rules_vec2 q = rules_v2_add(m0->pos, rules_v2_scale(rules_v2_dir(a), ur->rate_mm));
                double qx, qy, inset = 8 * u->tpx;
                if (dev(u->t, q, &qx, &qy) && qx > u->t->clip.x0 + inset && qx < u->t->clip.x1 - inset &&
                    qy > u->t->clip.y0 + u->tpx && qy < u->t->clip.y1 - u->tpx) {
                    on = q;
                    break;
                }
            }
            char lab[64], len[24];
            fmt_in(len, sizeof len, ur->rate_mm);
            snprintf(lab, sizeof lab, "%s rate %s", ur->move == RULES_MOVE_MARCH     ? "March"
                                                    : ur->move == RULES_MOVE_ADVANCE ? "Advance"
                                                                                     : "move",
                     len);
            double x, y;
            if (dev(u->t, on, &x, &y))
                pill(u->t, x, y, lab, 0.75 * u->tpx, ov_colour_limit, black, false);
        }
    }
}

static void draw_gap(unit_ctx *u, const rules_snapshot *after)
{
    if (!u->have_fa || !after)
        return;
    double spacing = u->rs->unit_spacing_mm;
    rules_vec2 mine[4], best_a = {0, 0}, best_b = {0, 0};
    rules_obb_corners(&u->fa.boundary, mine);
    double best = INFINITY;
    for (size_t i = 0; i < after->n_units; i++) {
        const rules_unit *o = &after->units[i];
        if (o == u->ua || o->n_models == 0)
            continue;
        rules_formation f;
        if (rules_formation_fit(o, NULL, &f, NULL) < 0)
            continue;
        rules_vec2 theirs[4], pa, pb;
        rules_obb_corners(&f.boundary, theirs);
        if (rules_poly_overlap(mine, 4, theirs, 4))
            continue; /* overlap is its own violation; no gap to draw */
        double d = poly_closest(mine, 4, theirs, 4, &pa, &pb);
        if (d < best) {
            best = d;
            best_a = pa;
            best_b = pb;
        }
    }
    if (!(best < spacing))
        return;
    ov_target *t = u->t;
    seg_path(t, best_a, best_b);
    stroke_halo(t, ov_colour_illegal, 1, fmax(u->lw, 2), NULL, 0);
    /* End ticks across the gap. */
    rules_vec2 d = rules_v2_sub(best_b, best_a);
    double L = rules_v2_len(d);
    rules_vec2 nrm = L > 1e-9 ? rules_v2_scale(rules_v2(-d.y, d.x), 6.0 / L) : rules_v2(0, 6);
    seg_path(t, rules_v2_add(best_a, nrm), rules_v2_sub(best_a, nrm));
    seg_path(t, rules_v2_add(best_b, nrm), rules_v2_sub(best_b, nrm));
    stroke_halo(t, ov_colour_illegal, 1, fmax(u->lw * 0.7, 1.5), NULL, 0);
    char lab[96], g[24], s[24];
    fmt_in(g, sizeof g, best);
    fmt_in(s, sizeof s, spacing);
    snprintf(lab, sizeof lab, "gap %s < %s", g, s);
    double x, y;
    if (dev(t, rules_v2_scale(rules_v2_add(best_a, best_b), 0.5), &x, &y))
        pill(t, x, y, lab, 0.85 * u->tpx, ov_colour_illegal, white, true);
}

/* An X through a base: the shape cue for "this model broke a rule" that needs no colour. */
static void cross_base(ov_target *t, const rules_obb *b, const double c[3], double w)
{
    rules_vec2 k[4];
    rules_obb_corners(b, k);
    rules_vec2 m = b->centre;
    for (int i = 0; i < 2; i++) {
        rules_vec2 a = rules_v2_add(m, rules_v2_scale(rules_v2_sub(k[i], m), 0.6));
        rules_vec2 e = rules_v2_add(m, rules_v2_scale(rules_v2_sub(k[i + 2], m), 0.6));
        seg_path(t, a, e);
    }
    stroke_halo(t, c, 1, w, NULL, 0);
}

static const char *verdict_word(const unit_ctx *u)
{
    return u->unsure ? "TOO CLOSE TO CALL" : u->ur->legal ? "LEGAL" : "ILLEGAL";
}

/* The unit's sentences in a box near it (camera and projector: the panel is on the table). */
static void draw_table_box(unit_ctx *u)
{
    ov_target *t = u->t;
    const rules_unit_report *ur = u->ur;
    if (!u->have_fa && !u->have_fb)
        return;
    const rules_formation *f = u->have_fa ? &u->fa : &u->fb;
    rules_vec2 k[4];
    rules_obb_corners(&f->boundary, k);
    /* Anchor: the boundary's device bounding box. */
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double x, y;
        if (dev(t, k[i], &x, &y)) {
            x0 = fmin(x0, x), y0 = fmin(y0, y), x1 = fmax(x1, x), y1 = fmax(y1, y);
        }
    }
    if (!isfinite(x0))
        return;
    double px = u->tpx * 0.8, lh = 1.25 * px, maxw = fmax(22 * px, 0.3 * t->width);
    maxw = fmin(maxw, 0.45 * t->width);
    font(t, px, false);
    char head[160];
    snprintf(head, sizeof head, "%s: %s %s", ur->unit_id, rules_move_word(ur->move), verdict_word(u));
    int lines = 1;
    for (size_t i = 0; i < ur->n_violations; i++)
        lines += wrap_lines(t, ur->violations[i].message, maxw, 0, 0, lh, white, false, false);
    double bw = maxw + 1.2 * px, bh = lines * lh + 0.9 * px;
    /* Below the unit, else above, else right, else left; kept on the frame. */
    const double cand[4][2] = {{x0, y1 + 0.8 * px}, {x0, y0 - 0.8 * px - bh}, {x1 + px, y0}, {x0 - px - bw, y0}};
    int pick = 0;
    for (int i = 0; i < 4; i++) {
        ov_box b = {cand[i][0], cand[i][1], cand[i][0] + bw, cand[i][1] + bh};
        if (b.x0 >= 0 && b.y0 >= 0 && b.x1 <= t->width && b.y1 <= t->height && box_free(t, b)) {
            pick = i;
            break;
        }
    }
    double bx = fmin(fmax(cand[pick][0], 0), t->width - bw), by = fmin(fmax(cand[pick][1], 0), t->height - bh);
    box_take(t, (ov_box){bx, by, bx + bw, by + bh});
    cairo_rectangle(t->cr, bx, by, bw, bh);
    cairo_set_source_rgba(t->cr, 0, 0, 0, 0.72);
    cairo_fill_preserve(t->cr);
    set_rgb(t, u->col, 1);
    cairo_set_line_width(t->cr, fmax(2, 0.15 * px));
    cairo_stroke(t->cr);
    font(t, px, true);
    set_rgb(t, u->col, 1);
    cairo_move_to(t->cr, bx + 0.6 * px, by + lh);
    cairo_show_text(t->cr, head);
    font(t, px, false);
    int used = 1;
    for (size_t i = 0; i < ur->n_violations; i++)
        used += wrap_lines(t, ur->violations[i].message, maxw, bx + 0.6 * px, by + lh * (used + 1), lh, white, true,
                           false);
}

static void draw_unit(ov_target *t, const rules_snapshot *before, const rules_snapshot *after,
                      const rules_unit_report *ur, const ov_options *o, const rules_ruleset *rs)
{
    unit_ctx u = {0};
    u.t = t;
    u.o = o;
    u.ur = ur;
    u.rs = rs;
    u.ub = before ? rules_snapshot_find_unit(before, ur->unit_id) : NULL;
    u.ua = after ? rules_snapshot_find_unit(after, ur->unit_id) : NULL;
    u.have_fb = u.ub && u.ub->n_models && rules_formation_fit(u.ub, NULL, &u.fb, NULL) == 0;
    u.have_fa = u.ua && u.ua->n_models && rules_formation_fit(u.ua, NULL, &u.fa, NULL) == 0;
    u.unsure = o->uncert && ov_uncert_unit_too_close(o->uncert, ur);
    u.col = u.unsure ? ov_colour_unsure : ur->legal ? ov_colour_legal : ov_colour_illegal;
    rules_vec2 at = u.have_fa ? u.fa.centre : u.have_fb ? u.fb.centre : rules_v2(0, 0);
    u.lw = line_px(t, o->line_mm, at);
    u.tpx = text_px(t, o, at, 1.0);
    theme th = theme_of(t);
    double dash_before[2] = {2.5 * u.lw, 2 * u.lw};

    if (o->arcs && u.have_fa)
        arcs_lines(t, &u.fa.boundary, fmax(60, 0.6 * fmax(u.fa.boundary.width, u.fa.boundary.depth)), th.neutral,
                   fmax(0.6 * u.lw, 1));
    if (o->limits)
        draw_limits(&u, false);
    /* Before: dashed neutral outlines, so the eye reads "was here". */
    if (o->bases && u.ub)
        for (size_t i = 0; i < u.ub->n_models; i++) {
            rules_obb b = rules_model_base(u.ub, &u.ub->models[i]);
            obb_path(t, &b);
            stroke_halo(t, th.neutral, 0.9, fmax(0.7 * u.lw, 1), dash_before, 2);
        }
    if (o->outlines && u.have_fb) {
        obb_path(t, &u.fb.boundary);
        stroke_halo(t, th.neutral, 0.9, u.lw, dash_before, 2);
    }
    if (o->path)
        draw_path(&u, false);
    /* After: filled in the call's colour; an X on every model a rule names. */
    if (o->bases && u.ua)
        for (size_t i = 0; i < u.ua->n_models; i++) {
            const rules_model *m = &u.ua->models[i];
            bool bad, close;
            const double *c = model_colour(&u, m->id, &bad, &close);
            rules_obb b = rules_model_base(u.ua, m);
            obb_path(t, &b);
            set_rgb(t, c, th.fill_alpha);
            cairo_fill_preserve(t->cr);
            /* Inferred models (not seen) are outlined dotted: their place is a guess from the formation. */
            double dot[2] = {0.5 * u.lw, 1.5 * u.lw};
            stroke_halo(t, c, 1, bad ? 1.6 * u.lw : 0.8 * u.lw, m->inferred ? dot : NULL, m->inferred ? 2 : 0);
            if (bad)
                cross_base(t, &b, c, 1.2 * u.lw);
        }
    if (o->outlines && u.have_fa) {
        obb_path(t, &u.fa.boundary);
        stroke_halo(t, u.col, 1, 1.4 * u.lw, NULL, 0);
        /* Facing: an arrow out of the Front Facing. */
        rules_vec2 fc = u.fa.front_centre;
        rules_vec2 tip = rules_v2_add(fc, rules_v2_scale(rules_v2_dir(u.fa.heading), 0.25 * u.fa.boundary.width));
        arrow(t, fc, tip, u.col, 1.4 * u.lw, 3.5 * u.lw + 6);
        centre_mark(t, u.fa.centre, fmax(4, 2.5 * u.lw), u.col);
        front_mark(t, fc, fmax(4, 2.5 * u.lw), u.col);
    }
    /* Per model: arrow from start to end in the model's colour. */
    if (o->arrows && u.ub && u.ua)
        for (size_t i = 0; i < u.ua->n_models; i++) {
            const rules_model *m1 = &u.ua->models[i], *m0 = rules_unit_find_model(u.ub, m1->id);
            if (!m0 || rules_v2_dist(m0->pos, m1->pos) < 1.0)
                continue;
            bool bad, close;
            const double *c = model_colour(&u, m1->id, &bad, &close);
            arrow(t, m0->pos, m1->pos, c, bad || close ? fmax(0.9 * u.lw, 1.5) : fmax(0.6 * u.lw, 1.0), 2.5 * u.lw + 5);
        }
    if (o->gaps)
        draw_gap(&u, after);
    /* Labels last, so nothing covers them: each model's distance inside its base, and a full
     * label with +/- for the models that matter (the farthest and every one a rule names). */
    if (o->arrows && u.ua) {
        size_t far = 0;
        for (size_t i = 1; i < ur->n_models; i++)
            if (ur->models[i].distance_mm > ur->models[far].distance_mm)
                far = i;
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < u.ua->n_models; i++) {
                const rules_model *m = &u.ua->models[i];
                const rules_model_move *mm = model_move(ur, m->id);
                if (!mm)
                    continue;
                bool bad, close;
                const double *c = model_colour(&u, m->id, &bad, &close);
                double x, y;
                if (!dev(t, m->pos, &x, &y))
                    continue;
                /* A model a spacing or formation rule names gets its X, not a distance label. */
                bool key = (ur->n_models && strcmp(ur->models[far].id, m->id) == 0) || close ||
                           model_named_dist(ur, m->id);
                if (key && pass == 0) {
                    char lab[96], d[48];
                    fmt_in_pm(d, sizeof d, mm->distance_mm, o->uncert ? ov_uncert_distance(o->uncert, m->id) : NAN);
                    snprintf(lab, sizeof lab, "%s%s%s", bad ? "\xE2\x9C\x97 " : close ? "? " : "", d,
                             mm->inferred ? " (inferred)" : "");
                    pill(t, x, y, lab, u.tpx, c, c == ov_colour_unsure ? black : white, true);
                } else if (!key && pass == 1) {
                    /* Small number in the base: sized to fit it, left out when too small to read or
                     * when a label already covers the place. */
                    double base_mm = fmin(u.ua->base_width, u.ua->base_depth);
                    double px = fmin(0.3 * base_mm * scale_at(t, m->pos), 0.7 * u.tpx);
                    if (px < 0.65 * t->min_text_px)
                        continue;
                    char lab[24];
                    snprintf(lab, sizeof lab, "%.2f", rules_mm_to_in(mm->distance_mm));
                    font(t, px, true);
                    double w = text_w(t, lab);
                    ov_box b = {x - w / 2, y - 0.6 * px, x + w / 2, y + 0.6 * px};
                    if (!box_free(t, b))
                        continue;
                    box_take(t, b);
                    text_halo(t, x - w / 2, y + 0.35 * px, lab, th.neutral);
                }
            }
    }
    if (o->path)
        draw_path(&u, true);
    if (o->limits)
        draw_limits(&u, true);
    /* The unit's own label: name, move and verdict, with a shape cue (check / cross / question). */
    if (u.have_fa || u.have_fb) {
        const rules_formation *f = u.have_fa ? &u.fa : &u.fb;
        rules_vec2 k[4];
        rules_obb_corners(&f->boundary, k);
        char lab[160];
        snprintf(lab, sizeof lab, "%s %s: %s %s", u.unsure ? "?" : ur->legal ? "\xE2\x9C\x93" : "\xE2\x9C\x97",
                 ur->unit_id, rules_move_word(ur->move), verdict_word(&u));
        double x, y;
        if (dev(t, k[1], &x, &y))
            pill(t, x, y, lab, u.tpx, u.col, u.col == ov_colour_unsure ? black : white, false);
    }
    if (o->legend && t->kind != OV_TARGET_REPORT && ur->n_violations)
        draw_table_box(&u);
}

/* ---- the panels ----------------------------------------------------------- */

static const char *measure_sentence(const rules_ruleset *rs)
{
    return rs->wheel_measure == RULES_WHEEL_CHORD ? "wheels measured by chord (outer front corner, straight line)"
                                                  : "wheels measured by arc (outer front corner)";
}

/* The report's text panel under the board. */
static void draw_panel(ov_target *t, const rules_report *r, const ov_options *o, const rules_ruleset *rs)
{
    cairo_t *cr = t->cr;
    double x = t->margin, w = t->width - 2 * t->margin, y = t->panel_top + 4;
    double px = 15, lh = 1.35 * px;
    font(t, 20, true);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_move_to(cr, x, y + 20);
    cairo_show_text(cr, o->title ? o->title : "tableref referee");
    y += 20 + 0.8 * lh;
    font(t, px, false);
    char line[512];
    snprintf(line, sizeof line, "Ruleset %s. Convention: %s. Distances in inches, centre to centre.", rs->name,
             measure_sentence(rs));
    y += lh * wrap_lines(t, line, w, x, y + px, lh, (const double[3]){0.2, 0.2, 0.2}, true, false);
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const rules_unit_report *ur = &r->units[ui];
        if (o->unit_id && strcmp(o->unit_id, ur->unit_id) != 0)
            continue;
        bool unsure = o->uncert && ov_uncert_unit_too_close(o->uncert, ur);
        const double *col = unsure ? ov_colour_unsure : ur->legal ? ov_colour_legal : ov_colour_illegal;
        y += 0.5 * lh;
        char head[200];
        snprintf(head, sizeof head, "%s %s", unsure ? "?" : ur->legal ? "\xE2\x9C\x93" : "\xE2\x9C\x97",
                 unsure ? "TOO CLOSE TO CALL" : ur->legal ? "LEGAL" : "ILLEGAL");
        font(t, px, true);
        double hw = text_w(t, head) + 12;
        cairo_rectangle(cr, x, y, hw, lh);
        set_rgb(t, col, 1);
        cairo_fill(cr);
        set_rgb(t, unsure ? black : white, 1);
        cairo_move_to(cr, x + 6, y + 0.5 * lh + 0.36 * px);
        cairo_show_text(cr, head);
        /* Unit, move, path. */
        char path[256] = "";
        for (size_t s = 0; ur->has_path && s < ur->path.n_steps; s++) {
            if (step_is_empty(&ur->path.steps[s]))
                continue;
            char d[96];
            rules_step_describe(&ur->path.steps[s], d, sizeof d);
            size_t l = strlen(path);
            snprintf(path + l, sizeof path - l, "%s%s", l ? ", " : "", d);
        }
        char rate[24], plen[24];
        fmt_in(rate, sizeof rate, ur->rate_mm);
        fmt_in(plen, sizeof plen, ur->path.length_mm);
        if (ur->has_path && ur->path.n_steps)
            snprintf(line, sizeof line, "%s (%s): %s%s, rate %s. Shortest legal path %s: %s.", ur->unit_id, ur->side,
                     rules_move_word(ur->move), ur->declared ? " (declared)" : " (inferred)", rate, plen, path);
        else
            snprintf(line, sizeof line, "%s (%s): %s%s, rate %s.", ur->unit_id, ur->side, rules_move_word(ur->move),
                     ur->declared ? " (declared)" : " (inferred)", rate);
        font(t, px, false);
        int nl = wrap_lines(t, line, w - hw - 10, x + hw + 10, y + 0.5 * lh + 0.36 * px, lh,
                            (const double[3]){0.1, 0.1, 0.1}, true, false);
        y += lh * nl + 0.2 * lh;
        /* The farthest model, with its uncertainty. */
        if (ur->n_models) {
            size_t far = 0;
            for (size_t i = 1; i < ur->n_models; i++)
                if (ur->models[i].distance_mm > ur->models[far].distance_mm)
                    far = i;
            char d[48];
            double pm = o->uncert ? ov_uncert_distance(o->uncert, ur->models[far].id) : NAN;
            fmt_in_pm(d, sizeof d, ur->models[far].distance_mm, pm);
            snprintf(line, sizeof line, "Farthest model: %s moved %s%s.", ur->models[far].id, d,
                     ur->models[far].inferred ? " (inferred: not seen by the camera)" : "");
            y += lh * wrap_lines(t, line, w - 24, x + 24, y + px, lh, (const double[3]){0.2, 0.2, 0.2}, true, false);
        }
        for (size_t i = 0; i < ur->n_violations; i++) {
            const rules_violation *v = &ur->violations[i];
            double pm = o->uncert ? ov_uncert_violation(o->uncert, ur, v) : NAN;
            bool close = ov_uncert_too_close(v->measured, v->limit, pm);
            char meas[96] = "";
            if (v->quantity == RULES_QTY_LENGTH) {
                char a[48], b[24];
                fmt_in_pm(a, sizeof a, v->measured, pm);
                fmt_in(b, sizeof b, v->limit);
                snprintf(meas, sizeof meas, " [%s vs %s]", a, b);
            } else if (v->quantity == RULES_QTY_ANGLE) {
                snprintf(meas, sizeof meas, " [%.1f\xC2\xB0 vs %.1f\xC2\xB0]", rules_rad_to_deg(v->measured),
                         rules_rad_to_deg(v->limit));
            }
            snprintf(line, sizeof line, "%s %s: %s%s%s", close ? "?" : "\xE2\x9C\x97", v->code, v->message, meas,
                     close ? " Too close to call." : "");
            y += lh * wrap_lines(t, line, w - 24, x + 24, y + px, lh, close ? ov_colour_unsure : ov_colour_illegal,
                                 true, false);
        }
        for (size_t i = 0; i < ur->n_notes; i++)
            y += lh * wrap_lines(t, ur->notes[i], w - 24, x + 24, y + px, lh, (const double[3]){0.35, 0.35, 0.35},
                                 true, false);
    }
    for (size_t i = 0; i < r->n_notes; i++)
        y += lh * wrap_lines(t, r->notes[i], w, x, y + px, lh, (const double[3]){0.35, 0.35, 0.35}, true, false);
    /* Key to the marks. */
    y += 0.6 * lh;
    font(t, 0.85 * px, false);
    const char *key = "Key: dashed outlines = before; filled bases = after (green legal, vermillion "
                      "\xE2\x9C\x97 broke a rule, orange ? too close to call; dotted = inferred, not seen); "
                      "arrows = each model's move; blue = shortest legal path, wheels dashed on the outer corner "
                      "with their pivot ringed; light blue dashed circles = the rate around the start of the "
                      "models that matter; ring-cross = unit Centre, diamond = centre of the Front; thin dashed "
                      "corner lines = the Arcs.";
    y += 0.85 * lh * wrap_lines(t, key, w, x, y + px, 0.85 * lh, (const double[3]){0.3, 0.3, 0.3}, true, false);
    if (o->uncert) {
        char u[400];
        snprintf(u, sizeof u,
                 "\xC2\xB1 is %.0f sigma of the camera's measurement (tag noise, board pose, calibration, mount; "
                 "inferred models add 1.5 mm of formation slack). A call whose margin is within it is too close to "
                 "call.",
                 o->uncert->coverage);
        y += 0.85 * lh * wrap_lines(t, u, w, x, y + px, 0.85 * lh, (const double[3]){0.3, 0.3, 0.3}, true, false);
    }
    t->panel_bottom = fmax(t->panel_bottom, y + 0.5 * lh);
}

/* Camera and projector: a one-line key in a corner. */
static void draw_corner_key(ov_target *t, const ov_options *o, const rules_ruleset *rs)
{
    double px = fmax(t->min_text_px, 0.018 * t->height), lh = 1.3 * px;
    char line[256];
    snprintf(line, sizeof line, "tableref \xC2\xB7 %s \xC2\xB7 %s%s", rs->name, measure_sentence(rs),
             o->uncert ? " \xC2\xB7 \xC2\xB1 = 2 sigma" : "");
    font(t, px, false);
    double w = text_w(t, line) + px;
    cairo_rectangle(t->cr, 0, t->height - lh - 0.4 * px, w, lh + 0.4 * px);
    cairo_set_source_rgba(t->cr, 0, 0, 0, 0.7);
    cairo_fill(t->cr);
    cairo_set_source_rgb(t->cr, 1, 1, 1);
    cairo_move_to(t->cr, 0.5 * px, t->height - 0.55 * px);
    cairo_show_text(t->cr, line);
}

/* Units the report does not judge, drawn faintly: what the gaps are measured to. */
static void draw_others(ov_target *t, const rules_snapshot *s, const rules_report *r, const ov_options *o)
{
    theme th = theme_of(t);
    for (size_t i = 0; s && i < s->n_units; i++) {
        const rules_unit *un = &s->units[i];
        bool judged = false;
        for (size_t k = 0; r && k < r->n_units; k++)
            if (strcmp(r->units[k].unit_id, un->id) == 0 && (!o->unit_id || strcmp(o->unit_id, un->id) == 0))
                judged = true;
        if (judged)
            continue;
        for (size_t m = 0; m < un->n_models; m++) {
            rules_obb b = rules_model_base(un, &un->models[m]);
            obb_path(t, &b);
            set_rgb(t, th.neutral, 0.12);
            cairo_fill_preserve(t->cr);
            set_rgb(t, th.neutral, 0.6);
            cairo_set_line_width(t->cr, t->min_line_px);
            cairo_stroke(t->cr);
        }
        rules_formation f;
        if (un->n_models && rules_formation_fit(un, NULL, &f, NULL) == 0) {
            double x, y;
            if (dev(t, f.centre, &x, &y)) {
                double px = text_px(t, o, f.centre, 0.7);
                font(t, px, false);
                text_halo(t, x - text_w(t, un->id) / 2, y + 0.35 * px, un->id, th.neutral);
            }
        }
    }
    /* Terrain outlines. */
    for (size_t i = 0; s && i < s->n_terrain; i++) {
        const rules_terrain *tr = &s->terrain[i];
        poly_path(t, tr->points, tr->n_points, true);
        set_rgb(t, th.neutral, tr->kind == RULES_TERRAIN_IMPASSABLE ? 0.35 : 0.15);
        cairo_fill_preserve(t->cr);
        set_rgb(t, th.neutral, 0.7);
        cairo_set_line_width(t->cr, t->min_line_px);
        cairo_stroke(t->cr);
    }
}

int ov_draw_verdict(ov_target *t, const rules_snapshot *before, const rules_snapshot *after,
                    const rules_report *report, const ov_options *opt, rules_error *err)
{
    if (!t || !report)
        return rules_error_set(err, "overlay: draw_verdict needs a target and a report");
    ov_options def;
    if (!opt) {
        ov_options_default(&def);
        opt = &def;
    }
    if (opt->unit_id && !rules_report_find_unit(report, opt->unit_id))
        return rules_error_set(err, "overlay: unit '%s' is not in the report", opt->unit_id);
    const rules_ruleset *rs = &report->ruleset;
    cairo_save(t->cr);
    /* The report's page has a panel under the board: keep the board's marks out of it. */
    cairo_rectangle(t->cr, t->clip.x0, t->clip.y0, t->clip.x1 - t->clip.x0, t->clip.y1 - t->clip.y0);
    cairo_clip(t->cr);
    if (opt->others)
        draw_others(t, after ? after : before, report, opt);
    for (size_t i = 0; i < report->n_units; i++) {
        const rules_unit_report *ur = &report->units[i];
        if (opt->unit_id && strcmp(opt->unit_id, ur->unit_id) != 0)
            continue;
        draw_unit(t, before, after, ur, opt, rs);
    }
    cairo_reset_clip(t->cr);
    if (opt->legend) {
        if (t->kind == OV_TARGET_REPORT)
            draw_panel(t, report, opt, rs);
        else
            draw_corner_key(t, opt, rs);
    }
    cairo_restore(t->cr);
    cairo_status_t st = cairo_status(t->cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return rules_error_set(err, "overlay: drawing failed: %s", cairo_status_to_string(st));
    return 0;
}

int ov_draw_snapshot(ov_target *t, const rules_snapshot *s, const ov_options *opt, rules_error *err)
{
    if (!t || !s)
        return rules_error_set(err, "overlay: draw_snapshot needs a target and a snapshot");
    ov_options def;
    if (!opt) {
        ov_options_default(&def);
        opt = &def;
    }
    cairo_save(t->cr);
    theme th = theme_of(t);
    for (size_t i = 0; i < s->n_units; i++) {
        const rules_unit *un = &s->units[i];
        if (opt->unit_id && strcmp(opt->unit_id, un->id) != 0)
            continue;
        rules_formation f;
        bool fit = un->n_models && rules_formation_fit(un, NULL, &f, NULL) == 0;
        double lw = line_px(t, opt->line_mm, fit ? f.centre : un->n_models ? un->models[0].pos : rules_v2(0, 0));
        for (size_t m = 0; opt->bases && m < un->n_models; m++) {
            rules_obb b = rules_model_base(un, &un->models[m]);
            obb_path(t, &b);
            set_rgb(t, ov_colour_path, th.fill_alpha);
            cairo_fill_preserve(t->cr);
            double dot[2] = {0.5 * lw, 1.5 * lw};
            stroke_halo(t, ov_colour_path, 1, 0.8 * lw, un->models[m].inferred ? dot : NULL,
                        un->models[m].inferred ? 2 : 0);
        }
        if (fit && opt->outlines) {
            obb_path(t, &f.boundary);
            stroke_halo(t, th.neutral, 1, lw, NULL, 0);
            rules_vec2 tip = rules_v2_add(f.front_centre, rules_v2_scale(rules_v2_dir(f.heading), 0.25 * f.boundary.width));
            arrow(t, f.front_centre, tip, th.neutral, lw, 3.5 * lw + 6);
            if (opt->arcs)
                arcs_lines(t, &f.boundary, fmax(60, 0.6 * fmax(f.boundary.width, f.boundary.depth)), th.neutral,
                           fmax(0.6 * lw, 1));
            double x, y;
            if (dev(t, f.centre, &x, &y)) {
                double px = text_px(t, opt, f.centre, 0.8);
                font(t, px, true);
                text_halo(t, x - text_w(t, un->id) / 2, y + 0.35 * px, un->id, th.neutral);
            }
        }
    }
    cairo_restore(t->cr);
    cairo_status_t st = cairo_status(t->cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return rules_error_set(err, "overlay: drawing failed: %s", cairo_status_to_string(st));
    return 0;
}

int ov_draw_disc(ov_target *t, rules_vec2 centre, double radius_mm, const double rgb[3], rules_error *err)
{
    if (!t || !rgb || !(radius_mm > 0))
        return rules_error_set(err, "overlay: draw_disc needs a target, a colour and a positive radius");
    cairo_save(t->cr);
    cairo_new_path(t->cr);
    /* 360 sides: rounder than any pixel grid we draw on. */
    rules_vec2 p[360];
    for (int i = 0; i < 360; i++)
        p[i] = rules_v2_add(centre, rules_v2_scale(rules_v2_dir(i * RULES_PI / 180.0), radius_mm));
    poly_path(t, p, 360, true);
    set_rgb(t, rgb, 1);
    cairo_fill(t->cr);
    cairo_restore(t->cr);
    cairo_status_t st = cairo_status(t->cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return rules_error_set(err, "overlay: drawing failed: %s", cairo_status_to_string(st));
    return 0;
}
