/*
 * ov_render_keepout: how a projector picture keeps off the labels (ov_keepout.h) before the keep-out
 * itself blacks them out: a base carrying a label is not drawn (its light would be cut to slivers),
 * a unit's outline is drawn around its labels instead of along its bases, and labels are placed off
 * the keep-outs whenever there is room.
 */
#include <math.h>

#include "ov_keepout.h"
#include "ov_scene_int.h"

static bool in_poly(const base_vec2 *k, size_t n, base_vec2 p)
{
    bool in = false;
    for (size_t i = 0, j = n - 1; i < n; j = i++)
        if ((k[i].y > p.y) != (k[j].y > p.y) &&
            p.x < (k[j].x - k[i].x) * (p.y - k[i].y) / (k[j].y - k[i].y) + k[i].x)
            in = !in;
    return in;
}

static base_vec2 quad_centre(const ov_keepout_quad *q)
{
    return base_v2((q->c[0].x + q->c[1].x + q->c[2].x + q->c[3].x) / 4,
                   (q->c[0].y + q->c[1].y + q->c[2].y + q->c[3].y) / 4);
}

bool ov_kp_skip_mark(const ov_scene *sc, const ov_target *t, const ov_mark *m)
{
    if (t->kind != OV_TARGET_PROJECTOR || !t->keepout || !m->is_base || m->n < 3)
        return false;
    for (size_t i = 0; i < t->keepout->n; i++)
        if (in_poly(sc->pts + m->p0, m->n, quad_centre(&t->keepout->quads[i])))
            return true;
    return false;
}

/* How far (mm) the keep-outs of the labels inside the box (c, axes u v, half sides a b) reach beyond it. */
static double overhang(const ov_keepout *k, base_vec2 c, base_vec2 u, base_vec2 v, double a, double b)
{
    double need = 0;
    for (size_t i = 0; i < k->n; i++) {
        base_vec2 d = base_v2_sub(quad_centre(&k->quads[i]), c);
        if (fabs(base_v2_dot(d, u)) > a || fabs(base_v2_dot(d, v)) > b)
            continue; /* another unit's label */
        for (int j = 0; j < 4; j++) {
            base_vec2 e = base_v2_sub(k->quads[i].c[j], c);
            need = fmax(need, fmax(fabs(base_v2_dot(e, u)) - a, fabs(base_v2_dot(e, v)) - b));
        }
    }
    return need;
}

bool ov_kp_around(const ov_scene *sc, const ov_target *t, const ov_mark *m, double line_px, base_vec2 out[4])
{
    if (t->kind != OV_TARGET_PROJECTOR || !t->keepout || !m->around || m->n != 4)
        return false;
    const base_vec2 *k = sc->pts + m->p0;
    base_vec2 c = base_v2_scale(base_v2_add(base_v2_add(k[0], k[1]), base_v2_add(k[2], k[3])), 0.25);
    base_vec2 eu = base_v2_sub(k[1], k[0]), ev = base_v2_sub(k[3], k[0]);
    double a = base_v2_len(eu) / 2, b = base_v2_len(ev) / 2;
    if (!(a > 0) || !(b > 0))
        return false;
    base_vec2 u = base_v2_scale(eu, 1 / (2 * a)), v = base_v2_scale(ev, 1 / (2 * b));
    /* Clear of the keep-out by half the line and a millimetre: the line's antialiased edge stays lit. */
    double px_mm = t->table_px_per_mm > 0 ? t->table_px_per_mm : 1;
    double g = overhang(t->keepout, c, u, v, a, b);
    if (g <= 0)
        return false;
    g += 0.5 * line_px / px_mm + 1.0;
    for (int i = 0; i < 4; i++) {
        base_vec2 d = base_v2_sub(k[i], c);
        double su = base_v2_dot(d, u) >= 0 ? 1 : -1, sv = base_v2_dot(d, v) >= 0 ? 1 : -1;
        out[i] = base_v2_add(c, base_v2_add(base_v2_scale(u, su * (a + g)), base_v2_scale(v, sv * (b + g))));
    }
    return true;
}

void ov_kp_obstacles(ov_target *t)
{
    if (t->kind != OV_TARGET_PROJECTOR || !t->keepout)
        return;
    for (size_t i = 0; i < t->keepout->n; i++) {
        ov_quad q;
        bool ok = true;
        for (int j = 0; j < 4 && ok; j++)
            ok = ov_dev(t, t->keepout->quads[i].c[j], &q.x[j], &q.y[j]);
        if (ok)
            ov_layout_add(t->layout, &q, OV_OBST_KEEPOUT);
    }
}
