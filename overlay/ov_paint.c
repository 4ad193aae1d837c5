/* ov_paint: board geometry mapped point by point onto the target, and strokes with a halo. */
#include <math.h>

#include "ov_internal.h"

bool ov_dev(const ov_target *t, base_vec2 b, double *x, double *y)
{
    double px[2];
    if (!ov_map_point(&t->map, b, px))
        return false;
    /* Rasters: OpenCV's pixel centres are at integers, cairo's at +0.5. SVG and PDF pages have no pixels. A camera
     * picture is sampled 4 x 4 a pixel (ov_target_new_camera), each sample at its quarter's start: 1/8 px before
     * the centre on average, so its marks are set 1/8 px on and land where the camera model says (test_overlay). */
    double off = t->kind == OV_TARGET_REPORT && t->format != OV_FORMAT_PNG ? 0.0
                 : t->kind == OV_TARGET_CAMERA                              ? 0.625
                                                                            : 0.5;
    *x = px[0] + off;
    *y = px[1] + off;
    return true;
}

double ov_scale_at(const ov_target *t, base_vec2 p)
{
    double s = ov_map_scale(&t->map, p);
    return s > 0 ? s : 1.0;
}

void ov_path_poly(ov_target *t, const base_vec2 *p, size_t n, bool closed)
{
    double step = n ? ov_map_step_mm_at(&t->map, p[0]) : INFINITY;
    bool pen = false;
    size_t segs = closed ? n : (n ? n - 1 : 0);
    double x, y;
    if (n && ov_dev(t, p[0], &x, &y)) {
        cairo_move_to(t->cr, x, y);
        pen = true;
    }
    for (size_t i = 0; i < segs; i++) {
        base_vec2 a = p[i], b = p[(i + 1) % n];
        double len = base_v2_dist(a, b);
        int k = isfinite(step) ? (int)ceil(len / step) : 1;
        if (k < 1)
            k = 1;
        for (int j = 1; j <= k; j++) {
            base_vec2 q = base_v2_add(a, base_v2_scale(base_v2_sub(b, a), (double)j / k));
            if (!ov_dev(t, q, &x, &y)) {
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

void ov_stroke(ov_target *t, const double rgb[3], double alpha, double w, ov_dash dash)
{
    cairo_t *cr = t->cr;
    double halo[4], pat[2];
    int n;
    ov_style_halo(t, halo);
    cairo_set_line_cap(cr, dash == OV_DASH_DOTTED ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    if (halo[3] > 0) {
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_set_source_rgba(cr, halo[0], halo[1], halo[2], halo[3] * alpha);
        cairo_set_line_width(cr, w + fmax(1.5 * t->unit, 0.7 * w));
        cairo_stroke_preserve(cr);
    }
    ov_style_dash(t, dash, w, pat, &n);
    cairo_set_dash(cr, pat, n, 0);
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
    cairo_set_line_width(cr, w);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

void ov_rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r)
{
    r = fmin(r, fmin(w, h) / 2);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -BASE_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, BASE_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, BASE_PI / 2, BASE_PI);
    cairo_arc(cr, x + r, y + r, r, BASE_PI, 1.5 * BASE_PI);
    cairo_close_path(cr);
}
