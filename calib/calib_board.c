#include "calib_board.h"

#include <math.h>
#include <string.h>

#include "vis_camera.h"
#include "vis_tag.h"

/* apriltag's corners in the tag frame (a right, b up), half-size units. */
static const double corner_local[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

void calib_board_tag_corners(const roster_board_tag *b, double out[4][3])
{
    const double ux = cos(b->rotation), uy = sin(b->rotation); /* the tag's up */
    const double rx = uy, ry = -ux;                            /* its right */
    for (int k = 0; k < 4; k++) {
        double a = corner_local[k][0] * b->size / 2, c = corner_local[k][1] * b->size / 2;
        out[k][0] = b->x + a * rx + c * ux;
        out[k][1] = b->y + a * ry + c * uy;
        out[k][2] = b->z;
    }
}

/* Where a camera-frame point of the old pose lands on the board under the new one. */
static double moved(const calib_file *old, const double R[9], const double t[3], const double X[3])
{
    double c[3], Y[3];
    for (int i = 0; i < 3; i++)
        c[i] = old->R[3 * i] * X[0] + old->R[3 * i + 1] * X[1] + old->R[3 * i + 2] * X[2] + old->t[i] - t[i];
    for (int i = 0; i < 3; i++)
        Y[i] = R[i] * c[0] + R[3 + i] * c[1] + R[6 + i] * c[2];
    return sqrt((Y[0] - X[0]) * (Y[0] - X[0]) + (Y[1] - X[1]) * (Y[1] - X[1]) + (Y[2] - X[2]) * (Y[2] - X[2]));
}

/* The board tags found in one photo: their corners on the board (obj, 12
 * numbers a tag) and in the picture (px, 8 a tag); each tag once. */
typedef struct board_found {
    double obj[CALIB_BOARD_MAX_TAGS * 12], px[CALIB_BOARD_MAX_TAGS * 8];
    const vis_tag_detection *used[CALIB_BOARD_MAX_TAGS];
    const roster_board_tag *bt[CALIB_BOARD_MAX_TAGS];
    int n;
} board_found;

static void collect_board_tags(const roster_file *r, const vis_tag_list *tags, board_found *f)
{
    f->n = 0;
    for (size_t i = 0; i < tags->n && f->n < CALIB_BOARD_MAX_TAGS; i++) {
        const roster_board_tag *b = roster_find_board_tag(r, tags->items[i].id);
        int dup = 0;
        for (int k = 0; k < f->n; k++)
            dup |= f->bt[k] == b;
        if (!b || dup)
            continue;
        double cs[4][3];
        calib_board_tag_corners(b, cs);
        const int n = f->n;
        for (int k = 0; k < 4; k++) {
            memcpy(f->obj + 12 * n + 3 * k, cs[k], sizeof cs[k]);
            f->px[8 * n + 2 * k] = tags->items[i].corners[k][0];
            f->px[8 * n + 2 * k + 1] = tags->items[i].corners[k][1];
        }
        f->used[n] = &tags->items[i];
        f->bt[f->n++] = b;
    }
}

/* How well the fitted pose explains the tags: reprojection RMS in pixels and,
 * per tag, how far its corners' rays land from where the board has them. */
static void measure_residuals(const calib_file *fitted, const board_found *f, calib_board_result *out)
{
    vis_camera cam;
    vis_camera_init(&cam, fitted);
    double ss_px = 0, ss_mm = 0;
    for (int i = 0; i < f->n; i++) {
        double tag_ss = 0;
        for (int k = 0; k < 4; k++) {
            const double *X = f->obj + 12 * i + 3 * k;
            const double *p = f->px + 8 * i + 2 * k;
            double q[2], P[3];
            if (vis_camera_project(&cam, X, q))
                ss_px += (q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]);
            if (vis_camera_pixel_to_plane(&cam, f->used[i]->corners[k], X[2], P))
                tag_ss += (P[0] - X[0]) * (P[0] - X[0]) + (P[1] - X[1]) * (P[1] - X[1]);
            else
                tag_ss += 1e6; /* a ray that misses its plane: a wildly wrong pose */
        }
        calib_board_tag *o = &out->tags[out->n_tags++];
        o->id = f->bt[i]->id, o->x = f->bt[i]->x, o->y = f->bt[i]->y;
        o->residual_mm = sqrt(tag_ss / 4);
        ss_mm += tag_ss / 4;
        out->max_mm = fmax(out->max_mm, o->residual_mm);
    }
    out->rms_px = sqrt(ss_px / (4 * f->n));
    out->rms_mm = sqrt(ss_mm / f->n);
}

/* The reference tags in one photo, the board pose solved from them, then checked. */
static int fit_board_pose(const calib_file *c, const roster_file *r, const vis_tag_list *tags,
                          calib_board_result *out, base_error *err)
{
    board_found f;
    collect_board_tags(r, tags, &f);
    if (f.n < 3)
        return base_error_set(err, "board: found %d of the roster's %zu reference tags; the pose needs at least 3",
                               f.n, r->n_board_tags);
    cvs_lens lens = {c->fx, c->fy, c->cx, c->cy, {0}};
    memcpy(lens.dist, c->dist, sizeof lens.dist);
    memcpy(out->R, c->R, sizeof out->R);
    memcpy(out->t, c->t, sizeof out->t);
    if (cvs_solve_pnp(f.obj, f.px, 4 * f.n, &lens, !c->pose_missing, out->R, out->t, err) < 0)
        return -1;
    calib_file fitted = *c;
    memcpy(fitted.R, out->R, sizeof out->R);
    memcpy(fitted.t, out->t, sizeof out->t);
    fitted.pose_missing = 0;
    if (calib_file_validate(&fitted, "board pose", err) < 0)
        return -1;
    measure_residuals(&fitted, &f, out);
    if (!c->pose_missing) {
        const double W = r->board_width, D = r->board_depth;
        const double X[4][3] = {{0, 0, 0}, {W, 0, 0}, {W, D, 0}, {0, D, 0}};
        for (int k = 0; k < 4; k++)
            out->moved_mm = fmax(out->moved_mm, moved(c, out->R, out->t, X[k]));
    }
    return 0;
}

int calib_board_measure(const calib_file *c, const roster_file *r, const base_image *img, calib_board_result *out,
                        base_error *err)
{
    memset(out, 0, sizeof *out);
    if (r->n_board_tags < 3)
        return base_error_set(err, "board: the roster lists %zu reference tags; the pose needs at least 3",
                               r->n_board_tags);
    vis_tag_detector *det = vis_tag_detector_new(r->family);
    if (!det)
        return base_error_set(err, "board: cannot make a %s detector", r->family);
    /* One photo, once: full resolution unless the frame is large. */
    det->cfg.decimate = (double)img->width * img->height > 6e6 ? 2 : 1;
    vis_tag_list tags = {0};
    if (vis_tag_detect(det, img->data, img->width, img->height, img->stride, &tags, err) < 0) {
        vis_tag_detector_free(det);
        return -1;
    }
    vis_tag_detector_free(det);
    int rc = fit_board_pose(c, r, &tags, out, err);
    vis_tag_list_clear(&tags);
    return rc;
}
