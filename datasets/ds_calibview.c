#include "ds_calibview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds_mat3.h"
#include "vis_camera.h"

static int mat3_inv(const double m[9], double o[9])
{
    double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                 m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (fabs(det) < 1e-300)
        return -1;
    o[0] = (m[4] * m[8] - m[5] * m[7]) / det, o[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    o[2] = (m[1] * m[5] - m[2] * m[4]) / det, o[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    o[4] = (m[0] * m[8] - m[2] * m[6]) / det, o[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    o[6] = (m[3] * m[7] - m[4] * m[6]) / det, o[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    o[8] = (m[0] * m[4] - m[1] * m[3]) / det;
    return 0;
}

/* The ideal supersampled canvas: big enough for every ray the distorted frame sees (as ds_render does). */
typedef struct canvas {
    double K[9];
    int w, h;
} canvas;

static void canvas_setup(const calib_file *cam, int ss, canvas *c)
{
    vis_camera vc;
    vis_camera_init(&vc, cam);
    const int W = cam->width, Hh = cam->height;
    double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
    for (int i = 0; i <= 64; i++)
        for (int side = 0; side < 4; side++) {
            double f = i / 64.0, px[2], xy[2];
            px[0] = side < 2 ? f * W - 0.5 : side == 2 ? -0.5 : W - 0.5;
            px[1] = side == 0 ? -0.5 : side == 1 ? Hh - 0.5 : f * Hh - 0.5;
            vis_camera_undistort(&vc, px, xy);
            xmin = fmin(xmin, xy[0]), xmax = fmax(xmax, xy[0]);
            ymin = fmin(ymin, xy[1]), ymax = fmax(ymax, xy[1]);
        }
    const double fx = cam->fx * ss, fy = cam->fy * ss;
    memset(c->K, 0, sizeof c->K);
    c->K[0] = fx, c->K[2] = -fx * xmin + 4;
    c->K[4] = fy, c->K[5] = -fy * ymin + 4;
    c->K[8] = 1;
    c->w = (int)ceil(fx * (xmax - xmin)) + 8;
    c->h = (int)ceil(fy * (ymax - ymin)) + 8;
}

/* Plane z = 0 of a frame posed X_cam = R X + t -> canvas pixel. */
static void plane_to_canvas(const canvas *c, const double R[9], const double t[3], double H[9])
{
    double P[9];
    for (int i = 0; i < 3; i++) {
        P[3 * i + 0] = R[3 * i + 0];
        P[3 * i + 1] = R[3 * i + 1];
        P[3 * i + 2] = t[i];
    }
    ds_mat3_mul(c->K, P, H);
}

static int finish(const calib_file *cam, const canvas *c, const base_image *ideal, const cvs_effects *fx, int ss,
                  base_image **out, base_error *err)
{
    base_image *img = base_image_new(cam->width, cam->height, 1, 0);
    if (!img)
        return base_error_set(err, "render: out of memory");
    double ik[4] = {c->K[0], c->K[4], c->K[2], c->K[5]};
    cvs_lens lens = {cam->fx, cam->fy, cam->cx, cam->cy, {0}};
    memcpy(lens.dist, cam->dist, sizeof lens.dist);
    if (cvs_render_distort(ideal, ik, &lens, ss, img, err) < 0 || (fx && cvs_render_effects(img, fx, err) < 0)) {
        base_image_free(img);
        return -1;
    }
    *out = img;
    return 0;
}

int ds_calibview_plane(const calib_file *cam, const double R[9], const double t[3], const base_image *tex,
                       const double A[9], uint8_t background, const cvs_effects *fx, int ss, base_image **out,
                       base_error *err)
{
    *out = NULL;
    ss = ss < 1 ? 1 : ss;
    canvas c;
    canvas_setup(cam, ss, &c);
    base_image *ideal = base_image_new(c.w, c.h, 1, background);
    if (!ideal)
        return base_error_set(err, "render: out of memory for a %dx%d canvas", c.w, c.h);
    double H[9];
    plane_to_canvas(&c, R, t, H);
    ds_mat3_mul(H, A, H);
    int rc = cvs_render_warp(ideal, tex, H, NULL, 0, err);
    if (rc == 0)
        rc = finish(cam, &c, ideal, fx, ss, out, err);
    base_image_free(ideal);
    return rc;
}

/* splitmix64: small, seedable, the same everywhere. */
static double rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (z >> 11) * (1.0 / 9007199254740992.0);
}

/* Rotation by `angle` about the unit axis (ax, ay, az) (Rodrigues). */
static void axis_angle(double ax, double ay, double az, double angle, double R[9])
{
    const double c = cos(angle), s = sin(angle), C = 1 - c;
    R[0] = c + ax * ax * C, R[1] = ax * ay * C - az * s, R[2] = ax * az * C + ay * s;
    R[3] = ay * ax * C + az * s, R[4] = c + ay * ay * C, R[5] = ay * az * C - ax * s;
    R[6] = az * ax * C - ay * s, R[7] = az * ay * C + ax * s, R[8] = c + az * az * C;
}

void ds_calibview_pose(const calib_file *cam, const double extent_mm[2], int i, int n, uint32_t seed, double R[9],
                       double t[3])
{
    uint64_t s = (uint64_t)seed * 0x2545F4914F6CDD1Dull + (uint64_t)i * 7919u + 1;
    const int g = i % 9, gx = g % 3, gy = g / 3;
    const double u = cam->width * (0.2 + 0.3 * gx + 0.08 * (rnd(&s) - 0.5));
    const double v = cam->height * (0.2 + 0.3 * gy + 0.08 * (rnd(&s) - 0.5));
    const double d_fill = cam->fy * extent_mm[1] / cam->height;
    const double d = d_fill * (1.3 + 0.7 * rnd(&s));
    const double tilt = (15 + 30 * rnd(&s)) * 3.14159265358979323846 / 180;
    const double dir = 2 * 3.14159265358979323846 * (i + 0.5 * rnd(&s)) / (n > 0 ? n : 1);
    const double turn = 0.8 * (rnd(&s) - 0.5);
    double Rt[9], Rz[9];
    axis_angle(cos(dir), sin(dir), 0, tilt, Rt);
    axis_angle(0, 0, 1, turn, Rz);
    ds_mat3_mul(Rt, Rz, R);
    const double C[3] = {d * (u - cam->cx) / cam->fx, d * (v - cam->cy) / cam->fy, d};
    const double m[2] = {extent_mm[0] / 2, extent_mm[1] / 2};
    for (int k = 0; k < 3; k++)
        t[k] = C[k] - (R[3 * k] * m[0] + R[3 * k + 1] * m[1]);
}

/* ---- the projector ------------------------------------------------------ */

void ds_projector_default(ds_projector *p, double board_w, double board_d)
{
    memset(p, 0, sizeof *p);
    p->width = 1280, p->height = 800;
    /* Beside the camera, 1.1 m up, a little off the board's centre so the picture is keystoned. */
    const double C[3] = {board_w * 0.62, board_d * 0.40, 1100}, T[3] = {board_w / 2, board_d / 2, 0};
    double z[3] = {T[0] - C[0], T[1] - C[1], T[2] - C[2]};
    const double dist = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
    for (int i = 0; i < 3; i++)
        z[i] /= dist;
    double x[3] = {1 - z[0] * z[0], -z[0] * z[1], -z[0] * z[2]};
    const double nx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (int i = 0; i < 3; i++)
        x[i] /= nx;
    const double y[3] = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
    for (int i = 0; i < 3; i++)
        p->R[i] = x[i], p->R[3 + i] = y[i], p->R[6 + i] = z[i];
    for (int i = 0; i < 3; i++)
        p->t[i] = -(p->R[3 * i] * C[0] + p->R[3 * i + 1] * C[1] + p->R[3 * i + 2] * C[2]);
    /* The picture spans about 1.1 board widths. */
    p->fx = p->fy = (p->width / 2.0) / (0.55 * board_w / dist);
    p->cx = (p->width - 1) / 2.0, p->cy = (p->height - 1) / 2.0;
    p->blur_px = 0.8;
    p->ambient = 0.35, p->gain = 0.6;
}

void ds_projector_board_to_px(const ds_projector *p, double H[9])
{
    const double K[9] = {p->fx, 0, p->cx, 0, p->fy, p->cy, 0, 0, 1};
    double P[9];
    for (int i = 0; i < 3; i++)
        P[3 * i] = p->R[3 * i], P[3 * i + 1] = p->R[3 * i + 1], P[3 * i + 2] = p->t[i];
    ds_mat3_mul(K, P, H);
    for (int i = 0; i < 9; i++)
        H[i] /= H[8] != 0 ? H[8] : 1;
    H[8] = 1;
}

int ds_projector_render(const ds_projector *p, const base_image *pattern, const calib_file *cam, double board_w,
                        double board_d, const cvs_effects *fx, int ss, base_image **out, base_error *err)
{
    *out = NULL;
    ss = ss < 1 ? 1 : ss;
    if (pattern->width != p->width || pattern->height != p->height)
        return base_error_set(err, "projector: the pattern is %dx%d, the projector %dx%d", pattern->width,
                               pattern->height, p->width, p->height);
    canvas c;
    canvas_setup(cam, ss, &c);
    base_image *ideal = base_image_new(c.w, c.h, 1, 60), *light = base_image_new(c.w, c.h, 1, 0);
    base_image *soft = base_image_clone(pattern);
    int rc = -1;
    if (!ideal || !light || !soft) {
        base_error_set(err, "render: out of memory");
        goto done;
    }
    /* The board's albedo. */
    double Hb[9], poly[8];
    plane_to_canvas(&c, cam->R, cam->t, Hb);
    const double corners[4][2] = {{0, 0}, {board_w, 0}, {board_w, board_d}, {0, board_d}};
    for (int k = 0; k < 4; k++) {
        const double *b = corners[k];
        double w = Hb[6] * b[0] + Hb[7] * b[1] + Hb[8];
        poly[2 * k] = (Hb[0] * b[0] + Hb[1] * b[1] + Hb[2]) / w;
        poly[2 * k + 1] = (Hb[3] * b[0] + Hb[4] * b[1] + Hb[5]) / w;
    }
    if (cvs_render_fill_poly(ideal, poly, 4, 150, NULL, 0, err) < 0)
        goto done;
    /* The projected light: defocused in the projector, then carried onto the board and into the camera. */
    cvs_effects blur = {0};
    blur.blur_sigma_px = p->blur_px;
    if (p->blur_px > 0 && cvs_render_effects(soft, &blur, err) < 0)
        goto done;
    double Hp[9], Hpi[9], Hpc[9];
    ds_projector_board_to_px(p, Hp);
    if (mat3_inv(Hp, Hpi) < 0) {
        base_error_set(err, "projector: singular mapping");
        goto done;
    }
    ds_mat3_mul(Hb, Hpi, Hpc);
    if (cvs_render_warp(light, soft, Hpc, NULL, 0, err) < 0)
        goto done;
    for (int y = 0; y < c.h; y++)
        for (int x = 0; x < c.w; x++) {
            uint8_t *a = &ideal->data[y * ideal->stride + x];
            double v = *a * (p->ambient + p->gain * light->data[y * light->stride + x] / 255.0);
            *a = (uint8_t)(v > 255 ? 255 : v + 0.5);
        }
    rc = finish(cam, &c, ideal, fx, ss, out, err);
done:
    base_image_free(ideal);
    base_image_free(light);
    base_image_free(soft);
    return rc;
}
