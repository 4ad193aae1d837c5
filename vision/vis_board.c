#include "vis_board.h"

#include <math.h>
#include <stdlib.h>

#include "cvshim.h"

/* apriltag's corners in the tag frame (a right, b up), half-size units. */
static const double corner_local[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

bool vis_board_locate_tag(const vis_camera *cam, const vis_tag_detection *t, double height_mm,
                          vis_board_tag_pose *out)
{
    double q[4][3];
    for (int k = 0; k < 4; k++)
        if (!vis_camera_pixel_to_plane(cam, t->corners[k], height_mm, q[k]))
            return false;
    /* On the plane the corners form the printed square, so their mean is its centre. */
    out->centre = base_v2((q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4);
    base_vec2 up = base_v2((q[2][0] + q[3][0] - q[0][0] - q[1][0]) / 2, (q[2][1] + q[3][1] - q[0][1] - q[1][1]) / 2);
    base_vec2 right =
        base_v2((q[1][0] + q[2][0] - q[0][0] - q[3][0]) / 2, (q[1][1] + q[2][1] - q[0][1] - q[3][1]) / 2);
    /* Both edge directions vote: "up" is "right" turned a quarter left. */
    base_vec2 v = base_v2_add(up, base_v2(-right.y, right.x));
    out->heading = atan2(v.y, v.x);
    out->size_mm = (base_v2_len(up) + base_v2_len(right)) / 2;
    /* A figure hiding a corner bends the quad apriltag fits; the printed
     * square does not bend, so the corners' misfit exposes it. */
    const base_vec2 u = base_v2_dir(out->heading), rt = base_v2(u.y, -u.x);
    double worst = 0;
    for (int k = 0; k < 4; k++) {
        base_vec2 ideal = base_v2_add(out->centre, base_v2_add(base_v2_scale(rt, corner_local[k][0] * out->size_mm / 2),
                                                                  base_v2_scale(u, corner_local[k][1] * out->size_mm / 2)));
        worst = fmax(worst, base_v2_dist(ideal, base_v2(q[k][0], q[k][1])));
    }
    out->square_residual_mm = worst;
    return true;
}

int vis_board_refine_pose(vis_camera *cam, const roster_map *r, const vis_tag_detection *tags, size_t n,
                          int min_tags, double keep_below_px, double *rms_px, int *used,
                          base_error *err)
{
    *used = 0;
    *rms_px = NAN;
    size_t cap = r->n_board_tags * 4;
    if (cap == 0)
        return 0;
    double *obj = malloc(cap * 3 * sizeof *obj), *img = malloc(cap * 2 * sizeof *img);
    if (!obj || !img) {
        free(obj);
        free(img);
        return base_error_set(err, "pose: out of memory");
    }
    int np = 0;
    for (size_t i = 0; i < n; i++) {
        const roster_board_tag *b = roster_map_find_board_tag(r, tags[i].id);
        if (!b || np + 4 > (int)cap)
            continue;
        /* A board tag seen twice is a misread: skip both rather than guess. */
        int twice = 0;
        for (size_t j = 0; j < n; j++)
            twice += tags[j].id == tags[i].id;
        if (twice > 1)
            continue;
        const base_vec2 up = base_v2_dir(b->rotation), right = base_v2(sin(b->rotation), -cos(b->rotation));
        for (int k = 0; k < 4; k++) {
            double a = corner_local[k][0] * b->size / 2, c = corner_local[k][1] * b->size / 2;
            obj[3 * np] = b->x + a * right.x + c * up.x;
            obj[3 * np + 1] = b->y + a * right.y + c * up.y;
            obj[3 * np + 2] = b->z;
            img[2 * np] = tags[i].corners[k][0];
            img[2 * np + 1] = tags[i].corners[k][1];
            np++;
        }
        (*used)++;
    }
    int rc = 0;
    /* When the calibration already explains the board tags to a fraction of
     * a pixel, re-solving would only add the corners' noise to the pose. */
    double before = 0;
    for (int i = 0; i < np; i++) {
        double px[2];
        vis_camera_project(cam, obj + 3 * i, px);
        before += pow(px[0] - img[2 * i], 2) + pow(px[1] - img[2 * i + 1], 2);
    }
    before = np ? sqrt(before / np) : NAN;
    *rms_px = before;
    if (*used >= min_tags && *used > 0 && before > keep_below_px) {
        cvs_lens lens = {cam->c.fx, cam->c.fy, cam->c.cx, cam->c.cy, {0}};
        for (int k = 0; k < 5; k++)
            lens.dist[k] = cam->c.dist[k];
        calib_file c = cam->c;
        if (cvs_solve_pnp(obj, img, np, &lens, 1, c.R, c.t, err) < 0) {
            rc = -1;
        } else if (calib_file_validate(&c, "refined pose", err) < 0) {
            rc = -1;
        } else {
            vis_camera_init(cam, &c);
            double ss = 0;
            for (int i = 0; i < np; i++) {
                double px[2];
                vis_camera_project(cam, obj + 3 * i, px);
                ss += pow(px[0] - img[2 * i], 2) + pow(px[1] - img[2 * i + 1], 2);
            }
            *rms_px = sqrt(ss / np);
            rc = 1;
        }
    }
    free(obj);
    free(img);
    return rc;
}
