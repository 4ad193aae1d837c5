#include "ov_map.h"
#include "rules_relief.h"

#include <math.h>
#include <string.h>

void ov_map_init_camera(ov_map *m, const calib_file *c)
{
    memset(m, 0, sizeof *m);
    m->kind = OV_MAP_CAMERA;
    memcpy(m->R, c->R, sizeof m->R);
    memcpy(m->t, c->t, sizeof m->t);
    m->fx = c->fx;
    m->fy = c->fy;
    m->cx = c->cx;
    m->cy = c->cy;
    memcpy(m->dist, c->dist, sizeof m->dist);
    /* The distortion polynomial is only valid over the image it was fitted
     * on; far outside it can fold back into the frame. Keep rays within
     * 1.5x the frame's widest normalised radius. */
    double ax = fmax(c->cx, c->width - 1 - c->cx) / c->fx, ay = fmax(c->cy, c->height - 1 - c->cy) / c->fy;
    m->d = 2.25 * (ax * ax + ay * ay); /* reused as the radius^2 limit for cameras */
    if (!(m->d > 0))
        m->d = INFINITY;
}

void ov_map_init_camera_sized(ov_map *m, const calib_file *c, int width, int height)
{
    ov_map_init_camera(m, c);
    if (c->width > 0 && c->height > 0 && (width != c->width || height != c->height)) {
        double sx = (double)width / c->width, sy = (double)height / c->height;
        m->fx *= sx;
        m->cx = (m->cx + 0.5) * sx - 0.5;
        m->fy *= sy;
        m->cy = (m->cy + 0.5) * sy - 0.5;
    }
}

int ov_map_init_homography(ov_map *m, const double H[9])
{
    memset(m, 0, sizeof *m);
    m->kind = OV_MAP_HOMOGRAPHY;
    double det = H[0] * (H[4] * H[8] - H[5] * H[7]) - H[1] * (H[3] * H[8] - H[5] * H[6]) +
                 H[2] * (H[3] * H[7] - H[4] * H[6]);
    if (!isfinite(det) || fabs(det) < 1e-15)
        return -1;
    memcpy(m->H, H, sizeof m->H);
    return 0;
}

void ov_map_init_page(ov_map *m, double x0, double y0, double d, double px_per_mm, double ox, double oy)
{
    *m = (ov_map){.kind = OV_MAP_PAGE, .x0 = x0, .y0 = y0, .d = d, .s = px_per_mm, .ox = ox, .oy = oy};
}

void ov_map_set_relief(ov_map *m, const rules_terrain *terrain, size_t n)
{
    m->terrain = rules_relief_any(terrain, n) ? terrain : NULL;
    m->n_terrain = m->terrain ? n : 0;
}

void ov_map_set_source(ov_map *m, const double source[3])
{
    m->has_source = source && source[2] > 0;
    if (m->has_source)
        memcpy(m->source, source, sizeof m->source);
}

double ov_map_height(const ov_map *m, base_vec2 b)
{
    return m->terrain ? rules_relief_height(m->terrain, m->n_terrain, b, NULL) : 0;
}

bool ov_map_point(const ov_map *m, base_vec2 b, double px[2])
{
    return ov_map_point_at(m, b, ov_map_height(m, b), px);
}

bool ov_map_point_at(const ov_map *m, base_vec2 b, double z, double px[2])
{
    switch (m->kind) {
    case OV_MAP_CAMERA: {
        const double *R = m->R;
        double p[3];
        for (int i = 0; i < 3; i++)
            p[i] = R[3 * i] * b.x + R[3 * i + 1] * b.y + R[3 * i + 2] * z + m->t[i];
        if (p[2] <= 1e-9)
            return false;
        double x = p[0] / p[2], y = p[1] / p[2], r2 = x * x + y * y;
        if (r2 > m->d)
            return false;
        const double *k = m->dist;
        double rad = 1 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]));
        double xd = x * rad + 2 * k[2] * x * y + k[3] * (r2 + 2 * x * x);
        double yd = y * rad + k[2] * (r2 + 2 * y * y) + 2 * k[3] * x * y;
        px[0] = m->fx * xd + m->cx;
        px[1] = m->fy * yd + m->cy;
        return true;
    }
    case OV_MAP_HOMOGRAPHY: {
        if (z > 0 && m->has_source && m->source[2] > z) {
            /* The ray from the projector through the raised point, on to the board plane the homography maps. */
            const double *C = m->source, k = C[2] / (C[2] - z);
            b = base_v2(C[0] + (b.x - C[0]) * k, C[1] + (b.y - C[1]) * k);
        }
        const double *H = m->H;
        double w = H[6] * b.x + H[7] * b.y + H[8];
        if (fabs(w) < 1e-12)
            return false;
        px[0] = (H[0] * b.x + H[1] * b.y + H[2]) / w;
        px[1] = (H[3] * b.x + H[4] * b.y + H[5]) / w;
        return true;
    }
    case OV_MAP_PAGE:
        px[0] = (b.x - m->x0) * m->s + m->ox;
        px[1] = (m->y0 + m->d - b.y) * m->s + m->oy;
        return true;
    }
    return false;
}

double ov_map_scale(const ov_map *m, base_vec2 p)
{
    if (m->kind == OV_MAP_PAGE)
        return m->s;
    /* Central differences over 1 mm: the mapping is smooth at that scale. */
    const double h = 0.5;
    double a[2], b[2], c[2], d[2];
    if (!ov_map_point(m, base_v2(p.x - h, p.y), a) || !ov_map_point(m, base_v2(p.x + h, p.y), b) ||
        !ov_map_point(m, base_v2(p.x, p.y - h), c) || !ov_map_point(m, base_v2(p.x, p.y + h), d))
        return 0;
    double j00 = (b[0] - a[0]) / (2 * h), j10 = (b[1] - a[1]) / (2 * h);
    double j01 = (d[0] - c[0]) / (2 * h), j11 = (d[1] - c[1]) / (2 * h);
    /* Singular values of the 2x2 Jacobian. */
    double s1 = hypot(j00 + j11, j10 - j01), s2 = hypot(j00 - j11, j10 + j01);
    double smax = 0.5 * (s1 + s2), smin = 0.5 * fabs(s1 - s2);
    return 0.5 * (smax + smin);
}

double ov_map_step_mm(const ov_map *m)
{
    return m->kind == OV_MAP_CAMERA || (m->terrain && m->kind == OV_MAP_HOMOGRAPHY) ? 2.0 : INFINITY;
}

double ov_map_step_mm_at(const ov_map *m, base_vec2 p)
{
    const double step = ov_map_step_mm(m);
    if (m->kind != OV_MAP_CAMERA || m->terrain)
        return step;
    const double px_per_mm = ov_map_scale(m, p);
    return px_per_mm > 0 ? fmax(step, 8.0 / px_per_mm) : step;
}
