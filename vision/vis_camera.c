#include "vis_camera.h"

#include <math.h>
#include <string.h>

void vis_camera_init(vis_camera *cam, const calib_file *c)
{
    memset(cam, 0, sizeof *cam);
    cam->c = *c;
    calib_file_camera_centre(c, cam->centre);
}

void vis_camera_distort(const double k[5], const double xy[2], double out[2])
{
    double x = xy[0], y = xy[1], r2 = x * x + y * y;
    double rad = 1 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]));
    out[0] = x * rad + 2 * k[2] * x * y + k[3] * (r2 + 2 * x * x);
    out[1] = y * rad + k[2] * (r2 + 2 * y * y) + 2 * k[3] * x * y;
}

bool vis_camera_project_normalised(const vis_camera *cam, const double X[3], double xy[2])
{
    const double *R = cam->c.R, *t = cam->c.t;
    double p[3];
    for (int i = 0; i < 3; i++)
        p[i] = R[3 * i] * X[0] + R[3 * i + 1] * X[1] + R[3 * i + 2] * X[2] + t[i];
    if (p[2] <= 1e-9)
        return false;
    xy[0] = p[0] / p[2];
    xy[1] = p[1] / p[2];
    return true;
}

bool vis_camera_project(const vis_camera *cam, const double X[3], double px[2])
{
    double xy[2], d[2];
    if (!vis_camera_project_normalised(cam, X, xy))
        return false;
    vis_camera_distort(cam->c.dist, xy, d);
    px[0] = cam->c.fx * d[0] + cam->c.cx;
    px[1] = cam->c.fy * d[1] + cam->c.cy;
    return true;
}

void vis_camera_undistort(const vis_camera *cam, const double px[2], double xy[2])
{
    const double *k = cam->c.dist;
    const double xd = (px[0] - cam->c.cx) / cam->c.fx, yd = (px[1] - cam->c.cy) / cam->c.fy;
    double x = xd, y = yd;
    /* Newton on the full 5-coefficient model: the fixed-point iteration
     * OpenCV uses leaves 0.01-0.1 px at the corners of a wide lens. */
    for (int it = 0; it < 30; it++) {
        double r2 = x * x + y * y;
        double rad = 1 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]));
        double drad = k[0] + r2 * (2 * k[1] + 3 * r2 * k[4]);
        double fx = x * rad + 2 * k[2] * x * y + k[3] * (r2 + 2 * x * x) - xd;
        double fy = y * rad + k[2] * (r2 + 2 * y * y) + 2 * k[3] * x * y - yd;
        double a = rad + 2 * x * x * drad + 2 * k[2] * y + 6 * k[3] * x;
        double b = 2 * x * y * drad + 2 * k[2] * x + 2 * k[3] * y;
        double d = rad + 2 * y * y * drad + 6 * k[2] * y + 2 * k[3] * x;
        double det = a * d - b * b;
        if (fabs(det) < 1e-12)
            break;
        double dx = (d * fx - b * fy) / det, dy = (a * fy - b * fx) / det;
        x -= dx;
        y -= dy;
        if (fabs(dx) + fabs(dy) < 1e-13)
            break;
    }
    xy[0] = x;
    xy[1] = y;
}

bool vis_camera_pixel_to_plane(const vis_camera *cam, const double px[2], double height_mm, double out[3])
{
    double xy[2];
    vis_camera_undistort(cam, px, xy);
    const double *R = cam->c.R;
    /* Ray direction in the board frame: R^T (x, y, 1). */
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = R[i] * xy[0] + R[3 + i] * xy[1] + R[6 + i];
    if (fabs(d[2]) < 1e-12)
        return false;
    double s = (height_mm - cam->centre[2]) / d[2];
    if (s <= 0)
        return false;
    for (int i = 0; i < 3; i++)
        out[i] = cam->centre[i] + s * d[i];
    out[2] = height_mm;
    return true;
}
