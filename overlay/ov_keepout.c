/* ov_keepout: labels and board tags the projector must leave dark (see the header). */
#include "ov_keepout.h"
#include "base_array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Half a pixel's diagonal: a pixel whose centre is this close to a quad may have part of itself inside. */
#define PIXEL_REACH 0.70711

void ov_keepout_params_from_calib(ov_keepout_params *p, const calib_projector *proj)
{
    memset(p, 0, sizeof *p);
    p->fit_error_mm = OV_KEEPOUT_DEFAULT_FIT_MM;
    p->slope = OV_KEEPOUT_DEFAULT_SLOPE;
    p->sigma_coverage = 2.0;
    if (!proj || !proj->present)
        return;
    if (proj->max_mm > 0)
        p->fit_error_mm = proj->max_mm;
    else if (proj->rms_mm > 0)
        p->fit_error_mm = 3 * proj->rms_mm;
    if (proj->position_present) {
        p->has_position = true;
        memcpy(p->projector_mm, proj->position_mm, sizeof p->projector_mm);
    }
}

ov_keepout *ov_keepout_new(const ov_keepout_params *p)
{
    ov_keepout *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    if (p)
        k->params = *p;
    else
        ov_keepout_params_from_calib(&k->params, NULL);
    return k;
}

ov_keepout *ov_keepout_copy(const ov_keepout *k)
{
    if (!k)
        return NULL;
    ov_keepout *c = ov_keepout_new(&k->params);
    if (!c)
        return NULL;
    if (k->n) {
        if (!(c->quads = malloc(k->n * sizeof *c->quads))) {
            free(c);
            return NULL;
        }
        memcpy(c->quads, k->quads, k->n * sizeof *c->quads);
        c->n = c->cap = k->n;
    }
    return c;
}

void ov_keepout_free(ov_keepout *k)
{
    if (!k)
        return;
    free(k->quads);
    free(k);
}

/* The projector's position is usable for a label this high: above it by at least a millimetre. */
static bool position_usable(const ov_keepout_params *p, double height_mm)
{
    return p->has_position && p->projector_mm[2] > height_mm + 1;
}

double ov_keepout_margin_mm(const ov_keepout_params *p, double side_mm, double height_mm, double sigma_mm)
{
    (void)side_mm;
    double m = p->fit_error_mm;
    if (isfinite(sigma_mm) && sigma_mm > 0)
        m += p->sigma_coverage * sigma_mm;
    if (height_mm > 0 && !position_usable(p, height_mm))
        m += height_mm * p->slope;
    return m;
}

int ov_keepout_add_label(ov_keepout *k, base_vec2 centre, double heading, double side_mm, double height_mm,
                         double sigma_mm)
{
    if (!k || !isfinite(centre.x) || !isfinite(centre.y) || !isfinite(heading) || !(side_mm > 0) ||
        !isfinite(side_mm) || !isfinite(height_mm))
        return -1;
    if (base_array_reserve((void **)&k->quads, &k->cap, k->n + 1, sizeof *k->quads, 64) < 0)
        return -1;
    const ov_keepout_params *p = &k->params;
    const double half = side_mm / 2 + ov_keepout_margin_mm(p, side_mm, height_mm, sigma_mm);
    const base_vec2 u = base_v2(cos(heading), sin(heading)), v = base_v2(-u.y, u.x);
    static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    ov_keepout_quad *q = &k->quads[k->n++];
    for (int i = 0; i < 4; i++) {
        base_vec2 c = base_v2(centre.x + half * (sx[i] * u.x + sy[i] * v.x),
                              centre.y + half * (sx[i] * u.y + sy[i] * v.y));
        if (height_mm > 0 && position_usable(p, height_mm)) {
            /* The ray from the projector through this corner at its height meets the board here:
             * the square scaled about the projector's foot by cz / (cz - h). */
            const double *C = p->projector_mm, s = C[2] / (C[2] - height_mm);
            c = base_v2(C[0] + (c.x - C[0]) * s, C[1] + (c.y - C[1]) * s);
        }
        q->c[i] = c;
    }
    return 0;
}

static bool map_h(const double H[9], base_vec2 b, double px[2])
{
    double w = H[6] * b.x + H[7] * b.y + H[8];
    if (!(w > 1e-12))
        return false;
    px[0] = (H[0] * b.x + H[1] * b.y + H[2]) / w;
    px[1] = (H[3] * b.x + H[4] * b.y + H[5]) / w;
    return isfinite(px[0]) && isfinite(px[1]);
}

/* The quad in raster px, counter-clockwise; false when a corner does not map. */
static bool quad_px(const double H[9], const ov_keepout_quad *q, double out[4][2])
{
    for (int i = 0; i < 4; i++)
        if (!map_h(H, q->c[i], out[i]))
            return false;
    double area = 0;
    for (int i = 0; i < 4; i++)
        area += out[i][0] * out[(i + 1) % 4][1] - out[(i + 1) % 4][0] * out[i][1];
    if (area < 0)
        for (int i = 0; i < 2; i++) {
            double t[2] = {out[i][0], out[i][1]};
            out[i][0] = out[3 - i][0], out[i][1] = out[3 - i][1];
            out[3 - i][0] = t[0], out[3 - i][1] = t[1];
        }
    return true;
}

/* Inside the (convex, counter-clockwise) quad grown by grow: within grow of every edge's line. */
static bool inside_px(const double p[4][2], double x, double y, double grow)
{
    for (int i = 0; i < 4; i++) {
        const double *a = p[i], *b = p[(i + 1) % 4];
        double ex = b[0] - a[0], ey = b[1] - a[1], len = hypot(ex, ey);
        if (len < 1e-12)
            continue;
        /* Signed distance to the left of the edge: inside is positive. */
        double d = (ex * (y - a[1]) - ey * (x - a[0])) / len;
        if (d < -grow)
            return false;
    }
    return true;
}

/* inside_px's edges measured once per quad, not once per pixel: the same arithmetic, so the same answer, for
 * the tens of thousands of pixels a projector frame tests (the hypot per edge and pixel was most of its keep-out). */
typedef struct quad_edges {
    int n;
    double ax[4], ay[4], ex[4], ey[4], len[4];
} quad_edges;

static void quad_edges_of(const double p[4][2], quad_edges *q)
{
    q->n = 0;
    for (int i = 0; i < 4; i++) {
        const double *a = p[i], *b = p[(i + 1) % 4];
        double ex = b[0] - a[0], ey = b[1] - a[1], len = hypot(ex, ey);
        if (len < 1e-12)
            continue;
        q->ax[q->n] = a[0], q->ay[q->n] = a[1], q->ex[q->n] = ex, q->ey[q->n] = ey, q->len[q->n] = len;
        q->n++;
    }
}

static bool inside_edges(const quad_edges *q, double x, double y, double grow)
{
    for (int i = 0; i < q->n; i++)
        if ((q->ex[i] * (y - q->ay[i]) - q->ey[i] * (x - q->ax[i])) / q->len[i] < -grow)
            return false;
    return true;
}

bool ov_keepout_pixel_in_quad(const double H[9], const ov_keepout_quad *q, double x, double y, double grow_px)
{
    double p[4][2];
    return quad_px(H, q, p) && inside_px(p, x, y, grow_px);
}

size_t ov_keepout_apply_argb(const ov_keepout *k, const double H[9], uint32_t *pixels, int width, int height,
                             size_t stride)
{
    size_t n = 0;
    for (size_t i = 0; k && i < k->n; i++) {
        double p[4][2];
        if (!quad_px(H, &k->quads[i], p))
            continue;
        double x0 = p[0][0], x1 = x0, y0 = p[0][1], y1 = y0;
        for (int j = 1; j < 4; j++) {
            x0 = fmin(x0, p[j][0]), x1 = fmax(x1, p[j][0]);
            y0 = fmin(y0, p[j][1]), y1 = fmax(y1, p[j][1]);
        }
        /* Clamped before the cast: a quad near the projector's horizon maps far off the raster. */
        int xa = (int)fmin(width, fmax(0, floor(x0 - 1))), xb = (int)fmax(-1, fmin(width - 1, ceil(x1 + 1)));
        int ya = (int)fmin(height, fmax(0, floor(y0 - 1))), yb = (int)fmax(-1, fmin(height - 1, ceil(y1 + 1)));
        quad_edges edges;
        quad_edges_of(p, &edges);
        for (int y = ya; y <= yb; y++) {
            uint32_t *row = (uint32_t *)(void *)((uint8_t *)pixels + (size_t)y * stride);
            for (int x = xa; x <= xb; x++)
                if (inside_edges(&edges, x, y, PIXEL_REACH)) {
                    row[x] = 0xff000000u; /* opaque pure black: no light at all */
                    n++;
                }
        }
    }
    return n;
}
