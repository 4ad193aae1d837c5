/* ov_draw: the common cases, each a scene built, laid out and drawn in one call. */
#include <math.h>
#include <string.h>

#include "ov_draw.h"
#include "ov_scene_int.h"

int ov_scene_draw(ov_scene *sc, ov_target *t, base_error *err)
{
    if (!sc || !t)
        return base_error_set(err, "overlay: drawing needs a scene and a target");
    /* The scene's table has hills: everything lands at the height of the surface it falls on. */
    if (sc->relief && ov_target_set_relief(t, sc->relief->terrain, sc->relief->n_terrain, err) < 0)
        return -1;
    return ov_render(sc, t, err);
}

typedef int (*add_fn)(ov_scene *sc, const void *a, const void *b, const void *c, base_error *err);

static int draw_one(ov_target *t, const ov_options *opt, bool legend, add_fn add, const void *a, const void *b,
                    const void *c, base_error *err)
{
    if (!t)
        return base_error_set(err, "overlay: no target to draw on");
    ov_options o;
    if (opt)
        o = *opt;
    else
        ov_options_default(&o);
    if (!legend)
        o.legend = false;
    ov_scene *sc = ov_scene_new(&o, err);
    if (!sc)
        return -1;
    int rc = add(sc, a, b, c, err);
    if (rc == 0)
        rc = ov_render(sc, t, err);
    ov_scene_free(sc);
    return rc;
}

static int add_verdict(ov_scene *sc, const void *a, const void *b, const void *c, base_error *err)
{
    return ov_scene_add_verdict(sc, a, b, c, err);
}

int ov_draw_verdict(ov_target *t, const rules_snapshot *before, const rules_snapshot *after,
                    const rules_report *report, const ov_options *opt, base_error *err)
{
    if (!report)
        return base_error_set(err, "overlay: draw_verdict needs a target and a report");
    return draw_one(t, opt, true, add_verdict, before, after, report, err);
}

static int add_snapshot(ov_scene *sc, const void *a, const void *b, const void *c, base_error *err)
{
    (void)b, (void)c;
    return ov_scene_add_snapshot(sc, a, err);
}

int ov_draw_snapshot(ov_target *t, const rules_snapshot *s, const ov_options *opt, base_error *err)
{
    if (!s)
        return base_error_set(err, "overlay: draw_snapshot needs a target and a snapshot");
    return draw_one(t, opt, true, add_snapshot, s, NULL, NULL, err);
}

static int add_sides(ov_scene *sc, const void *a, const void *b, const void *c, base_error *err)
{
    (void)c;
    return ov_scene_add_sides(sc, a, *(const size_t *)b, err);
}

int ov_draw_key(ov_target *t, const char *const *sides, size_t n_sides, const ov_options *opt, base_error *err)
{
    return draw_one(t, opt, true, add_sides, sides, &n_sides, NULL, err);
}

static int add_ghost(ov_scene *sc, const void *a, const void *b, const void *c, base_error *err)
{
    return ov_scene_add_ghost(sc, a, b, c, err);
}

/* A layer drawn on its own keeps to the picture: no second key, no second report text. */
int ov_draw_ghost(ov_target *t, const rules_unit *unit, const ov_layer_style *style, const char *label,
                  base_error *err)
{
    return draw_one(t, NULL, false, add_ghost, unit, style, label, err);
}

typedef struct lines_arg {
    const ov_polyline *lines;
    size_t n;
} lines_arg;

static int add_lines(ov_scene *sc, const void *a, const void *b, const void *c, base_error *err)
{
    const lines_arg *l = a;
    return ov_scene_add_polylines(sc, l->lines, l->n, b, c, err);
}

int ov_draw_polylines(ov_target *t, const ov_polyline *lines, size_t n, const ov_layer_style *style,
                      const char *label, base_error *err)
{
    lines_arg a = {lines, n};
    return draw_one(t, NULL, false, add_lines, &a, style, label, err);
}

static int add_reach(ov_scene *sc, const void *a, const void *b, const void *c, base_error *err)
{
    (void)c;
    return ov_scene_add_reach(sc, a, b, err);
}

int ov_draw_reach(ov_target *t, const rules_reach *r, const char *side, base_error *err)
{
    return draw_one(t, NULL, false, add_reach, r, side, NULL, err);
}

int ov_draw_disc(ov_target *t, base_vec2 centre, double radius_mm, const double rgb[3], base_error *err)
{
    if (!t || !rgb || !(radius_mm > 0))
        return base_error_set(err, "overlay: draw_disc needs a target, a colour and a positive radius");
    cairo_save(t->cr);
    cairo_new_path(t->cr);
    /* 360 sides: rounder than any pixel grid we draw on. */
    base_vec2 p[360];
    for (int i = 0; i < 360; i++)
        p[i] = base_v2_add(centre, base_v2_scale(base_v2_dir(i * BASE_PI / 180.0), radius_mm));
    ov_path_poly(t, p, 360, true);
    cairo_set_source_rgb(t->cr, rgb[0], rgb[1], rgb[2]);
    cairo_fill(t->cr);
    cairo_restore(t->cr);
    cairo_status_t st = cairo_status(t->cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return base_error_set(err, "overlay: drawing failed: %s", cairo_status_to_string(st));
    return 0;
}

typedef struct bbox {
    double x0, y0, x1, y1;
} bbox;

static void grow_by_unit(bbox *b, const rules_unit *u)
{
    for (size_t m = 0; u && m < u->n_models; m++) {
        base_obb ob = rules_model_base(u, &u->models[m]);
        base_vec2 c[4];
        base_obb_corners(&ob, c);
        for (int i = 0; i < 4; i++)
            b->x0 = fmin(b->x0, c[i].x), b->y0 = fmin(b->y0, c[i].y), b->x1 = fmax(b->x1, c[i].x),
            b->y1 = fmax(b->y1, c[i].y);
    }
}

static bool boxes_touch(bbox a, bbox b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

/* Grows `v` until every unit it touches lies wholly inside. */
static void take_whole_units(bbox *v, const rules_snapshot *const ss[2])
{
    for (bool grew = true; grew;) {
        grew = false;
        for (int s = 0; s < 2; s++)
            for (size_t i = 0; ss[s] && i < ss[s]->n_units; i++) {
                bbox u = {INFINITY, INFINITY, -INFINITY, -INFINITY};
                grow_by_unit(&u, &ss[s]->units[i]);
                if (!isfinite(u.x0) || !boxes_touch(*v, u))
                    continue;
                bbox n = {fmin(v->x0, u.x0 - 6), fmin(v->y0, u.y0 - 6), fmax(v->x1, u.x1 + 6), fmax(v->y1, u.y1 + 6)};
                if (n.x0 < v->x0 || n.y0 < v->y0 || n.x1 > v->x1 || n.y1 > v->y1)
                    *v = n, grew = true;
            }
    }
}

void ov_report_view(const rules_snapshot *before, const rules_snapshot *after, const rules_report *report,
                    const char *unit_id, bool whole_board, double view[4])
{
    const rules_snapshot *ss[2] = {before, after}, *any = after ? after : before;
    double bw = any ? any->board_width : 1, bd = any ? any->board_depth : 1;
    bbox v = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (size_t k = 0; report && !whole_board && k < report->n_units; k++) {
        const rules_unit_report *ur = &report->units[k];
        if (unit_id && strcmp(unit_id, ur->unit_id) != 0)
            continue;
        for (int s = 0; s < 2; s++)
            grow_by_unit(&v, ss[s] ? rules_snapshot_find_unit(ss[s], ur->unit_id) : NULL);
    }
    if (whole_board || !isfinite(v.x0)) {
        view[0] = 0, view[1] = 0, view[2] = bw, view[3] = bd;
        return;
    }
    const double pad = 3 * BASE_MM_PER_INCH, minw = fmin(bw, 12 * BASE_MM_PER_INCH), mind = fmin(bd, 12 * BASE_MM_PER_INCH);
    v = (bbox){v.x0 - pad, v.y0 - pad, v.x1 + pad, v.y1 + pad};
    if (v.x1 - v.x0 < minw) {
        double c = (v.x0 + v.x1) / 2;
        v.x0 = c - minw / 2, v.x1 = c + minw / 2;
    }
    if (v.y1 - v.y0 < mind) {
        double c = (v.y0 + v.y1) / 2;
        v.y0 = c - mind / 2, v.y1 = c + mind / 2;
    }
    take_whole_units(&v, ss);
    /* Never past the board's edges; a window pushed off one side slides back in. */
    double w = fmin(v.x1 - v.x0, bw), d = fmin(v.y1 - v.y0, bd);
    double x0 = fmin(fmax(v.x0, 0), bw - w), y0 = fmin(fmax(v.y0, 0), bd - d);
    view[0] = x0, view[1] = y0, view[2] = w, view[3] = d;
}
