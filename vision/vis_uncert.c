#include "vis_uncert.h"

#include <math.h>
#include <string.h>

void vis_uncert_source_default(vis_uncert_source *s, const calib_file *calib, double pose_rms_px)
{
    memset(s, 0, sizeof *s);
    if (calib) {
        s->have_camera = true;
        vis_camera_init(&s->cam, calib);
    }
    s->pose_rms_px = pose_rms_px;
    s->corner_px = 0.1;
    s->calib_mm = calib && calib->quality.present && isfinite(calib->quality.board_error_mm)
                      ? calib->quality.board_error_mm
                      : 0.0;
    s->mount_mm = 0.2;
    s->rough_mm = 1.0;
    s->hand_mm = 1.5;
    s->mm_per_px = 0.5;
}

double vis_uncert_mm_per_px(const vis_uncert_source *s, base_vec2 pos, double height_mm)
{
    if (!s->have_camera)
        return s->mm_per_px;
    /* One millimetre each way on the board, measured in the picture. */
    const double X[3] = {pos.x, pos.y, height_mm}, Xu[3] = {pos.x + 1, pos.y, height_mm},
                 Xv[3] = {pos.x, pos.y + 1, height_mm};
    double p[2], pu[2], pv[2];
    if (!vis_camera_project(&s->cam, X, p) || !vis_camera_project(&s->cam, Xu, pu) ||
        !vis_camera_project(&s->cam, Xv, pv))
        return s->mm_per_px;
    double px_per_mm = (hypot(pu[0] - p[0], pu[1] - p[1]) + hypot(pv[0] - p[0], pv[1] - p[1])) / 2;
    return px_per_mm > 1e-9 ? 1.0 / px_per_mm : s->mm_per_px;
}

/* What the surface's own uncertainty costs on the board: its sigma's parallax at this model. */
static double relief_parallax(const vis_uncert_source *s, base_vec2 pos, double z, double sigma_h)
{
    if (!s->have_camera || !(sigma_h > 0))
        return 0;
    const double *C = s->cam.centre;
    return C[2] > z ? sigma_h * hypot(pos.x - C[0], pos.y - C[1]) / (C[2] - z) : 0;
}

double vis_uncert_seen(const vis_uncert_source *s, base_vec2 pos, double height_mm)
{
    double sigma_h = 0;
    const double z = vis_relief_height(s->relief, pos, &sigma_h) + height_mm;
    const double mm = vis_uncert_mm_per_px(s, pos, z);
    const double pose = isfinite(s->pose_rms_px) ? s->pose_rms_px : 0.3;
    const double a = mm * s->corner_px / 2, b = mm * pose, c = relief_parallax(s, pos, z, sigma_h);
    return sqrt(a * a + b * b + s->calib_mm * s->calib_mm + s->mount_mm * s->mount_mm + c * c);
}

double vis_uncert_rough(const vis_uncert_source *s, base_vec2 pos, double height_mm, double residual_mm)
{
    const double seen = vis_uncert_seen(s, pos, height_mm);
    const double extra = fmax(s->rough_mm, isfinite(residual_mm) ? 2 * residual_mm : 0);
    return hypot(seen, extra);
}

double vis_uncert_inferred(const vis_uncert_source *s, base_vec2 pos, double height_mm, double fit_mm)
{
    const double seen = vis_uncert_seen(s, pos, height_mm);
    const double fit = isfinite(fit_mm) ? fit_mm : 0;
    return sqrt(seen * seen + s->hand_mm * s->hand_mm + fit * fit);
}
