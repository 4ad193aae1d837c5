#include "ds_light.h"

#include <math.h>
#include <stdlib.h>

#include "vis_camera.h"

struct ds_light_map {
    int width, height;
    float *uv; /* projector px (x, y) per camera pixel; NAN where no surface */
};

void ds_light_centre_guess(const calib_file *cam, double centre[3])
{
    vis_camera vc;
    vis_camera_init(&vc, cam);
    for (int i = 0; i < 3; i++)
        centre[i] = vc.centre[i];
}

/* Board point p at height h -> the board point (z = 0) on the same projector ray. */
static void along_projector_ray(const double P[3], double h, const double p[2], double out[2])
{
    const double k = P[2] - h > 1e-6 ? P[2] / (P[2] - h) : 1;
    out[0] = P[0] + (p[0] - P[0]) * k;
    out[1] = P[1] + (p[1] - P[1]) * k;
}

ds_light_map *ds_light_map_new(const calib_file *cam, const double H[9], const double centre[3],
                               const base_image *heights, base_error *err)
{
    if (heights && (heights->width != cam->width || heights->height != cam->height || heights->channels != 1)) {
        base_error_set(err, "light: the height map is %dx%d, the camera %dx%d", heights->width, heights->height,
                       cam->width, cam->height);
        return NULL;
    }
    ds_light_map *m = calloc(1, sizeof *m);
    if (m)
        m->uv = malloc(sizeof(float) * 2 * (size_t)cam->width * (size_t)cam->height);
    if (!m || !m->uv) {
        ds_light_map_free(m);
        base_error_set(err, "light: out of memory for a %dx%d map", cam->width, cam->height);
        return NULL;
    }
    m->width = cam->width, m->height = cam->height;
    vis_camera vc;
    vis_camera_init(&vc, cam);
    for (int y = 0; y < m->height; y++)
        for (int x = 0; x < m->width; x++) {
            float *o = m->uv + 2 * ((size_t)y * (size_t)m->width + (size_t)x);
            const double h = heights ? heights->data[y * heights->stride + x] * DS_LIGHT_HEIGHT_STEP_MM : 0;
            double px[2] = {x, y}, X[3], b[2];
            o[0] = o[1] = NAN;
            if (!vis_camera_pixel_to_plane(&vc, px, h, X))
                continue;
            along_projector_ray(centre, h, X, b);
            const double w = H[6] * b[0] + H[7] * b[1] + H[8];
            if (w <= 0)
                continue;
            o[0] = (float)((H[0] * b[0] + H[1] * b[1] + H[2]) / w);
            o[1] = (float)((H[3] * b[0] + H[4] * b[1] + H[5]) / w);
        }
    return m;
}

void ds_light_map_free(ds_light_map *m)
{
    if (!m)
        return;
    free(m->uv);
    free(m);
}

/* Bilinear sample of channel c at (u, v); 0 outside the picture (the projector's frame ends there). */
static double sample(const base_image *p, double u, double v, int c)
{
    if (!(u >= -0.5 && v >= -0.5 && u <= p->width - 0.5 && v <= p->height - 0.5))
        return 0;
    u = fmin(fmax(u, 0), p->width - 1), v = fmin(fmax(v, 0), p->height - 1);
    const int x0 = (int)u, y0 = (int)v;
    const int x1 = x0 + 1 < p->width ? x0 + 1 : x0, y1 = y0 + 1 < p->height ? y0 + 1 : y0;
    const double fx = u - x0, fy = v - y0;
    const int n = p->channels;
    const uint8_t *r0 = p->data + y0 * p->stride, *r1 = p->data + y1 * p->stride;
    const double a = r0[n * x0 + c] + fx * (r0[n * x1 + c] - r0[n * x0 + c]);
    const double b = r1[n * x0 + c] + fx * (r1[n * x1 + c] - r1[n * x0 + c]);
    return a + fy * (b - a);
}

base_image *ds_light_map_apply(const ds_light_map *m, const base_image *picture, base_error *err)
{
    if (picture->channels != 1 && picture->channels != 3) {
        base_error_set(err, "light: the projector picture has %d channels (1 or 3)", picture->channels);
        return NULL;
    }
    base_image *out = base_image_new(m->width, m->height, picture->channels, 0);
    if (!out) {
        base_error_set(err, "light: out of memory");
        return NULL;
    }
    const int n = picture->channels;
    for (int y = 0; y < m->height; y++) {
        uint8_t *o = out->data + y * out->stride;
        for (int x = 0; x < m->width; x++) {
            const float *uv = m->uv + 2 * ((size_t)y * (size_t)m->width + (size_t)x);
            if (isnan(uv[0]))
                continue;
            for (int c = 0; c < n; c++)
                o[n * x + c] = (uint8_t)(sample(picture, uv[0], uv[1], c) + 0.5);
        }
    }
    return out;
}
