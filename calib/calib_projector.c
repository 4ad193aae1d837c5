#include "calib_projector.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_camera.h"
#include "vis_tag.h"

void calib_projector_pattern_default(calib_projector_pattern *p, int width, int height)
{
    memset(p, 0, sizeof *p);
    p->width = width, p->height = height;
    calib_target *g = &p->grid;
    calib_target_tags_default(g);
    g->first_id = 400;
    /* Big tags: the projected picture is soft and the camera sees each
     * projector pixel at a few camera pixels at most. Whole pixels per
     * bitmap cell keep the edges sharp. */
    int cell = (int)floor((width < height ? width : height) / 7.0 / 8.0);
    if (cell < 2)
        cell = 2;
    g->tag_size_mm = 8 * cell;
    g->spacing_mm = 4 * cell;
    calib_target_fit_page(g, width, height, 0, NULL);
    /* Whole pixels for the origin too. */
    g->origin_mm[0] = floor(g->origin_mm[0]);
    g->origin_mm[1] = floor(g->origin_mm[1]);
}

base_image *calib_projector_pattern_draw(const calib_projector_pattern *p, base_error *err)
{
    if (calib_target_validate(&p->grid, "projector pattern", err) < 0)
        return NULL;
    base_image *img = calib_target_raster(&p->grid, 1.0, 1, err);
    if (!img)
        return NULL;
    /* The page is white paper; a projector's "paper" is darkness. Only the tag bitmaps (their white border
     * included) stay lit. */
    double ext[2];
    calib_target_extent(&p->grid, ext);
    const double rim = p->grid.tag_size_mm / 8.0; /* tag36h11: one white cell round the black square */
    const double pitch = p->grid.tag_size_mm + p->grid.spacing_mm;
    for (int v = 0; v < img->height; v++)
        for (int u = 0; u < img->width; u++) {
            double x = u + 0.5 - p->grid.origin_mm[0], y = v + 0.5 - p->grid.origin_mm[1];
            double fx = fmod(x + rim, pitch), fy = fmod(y + rim, pitch);
            int inside = x > -rim && y > -rim && x < ext[0] + rim && y < ext[1] + rim &&
                         fx < p->grid.tag_size_mm + 2 * rim && fy < p->grid.tag_size_mm + 2 * rim;
            if (!inside)
                img->data[v * img->stride + u] = 0;
        }
    return img;
}

int calib_projector_pattern_corners(const calib_projector_pattern *p, int id, double out[4][2])
{
    if (calib_target_tag_corners(&p->grid, id, out) < 0)
        return -1;
    for (int k = 0; k < 4; k++) {
        out[k][0] += p->grid.origin_mm[0] - 0.5;
        out[k][1] += p->grid.origin_mm[1] - 0.5;
    }
    return 0;
}

int calib_projector_map(const double H[9], const double b[2], double px[2])
{
    double w = H[6] * b[0] + H[7] * b[1] + H[8];
    if (fabs(w) < 1e-12)
        return 0;
    px[0] = (H[0] * b[0] + H[1] * b[1] + H[2]) / w;
    px[1] = (H[3] * b[0] + H[4] * b[1] + H[5]) / w;
    return 1;
}

static void inverse3(const double m[9], double o[9])
{
    double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                 m[2] * (m[3] * m[7] - m[4] * m[6]);
    o[0] = (m[4] * m[8] - m[5] * m[7]) / det, o[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    o[2] = (m[1] * m[5] - m[2] * m[4]) / det, o[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    o[4] = (m[0] * m[8] - m[2] * m[6]) / det, o[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    o[6] = (m[3] * m[7] - m[4] * m[6]) / det, o[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    o[8] = (m[0] * m[4] - m[1] * m[3]) / det;
}

/* Each pattern tag found once in the photo: its corners on the board
 * (through the camera, at height 0) and in projector pixels, 4 points a tag.
 * Returns the number of points; out->tags_found counts the tags. */
static int collect_pattern_points(const vis_camera *cam, const calib_projector_pattern *p, const vis_tag_list *tags,
                                  char *seen, double *board, double *proj, calib_projector_result *out)
{
    int n = 0;
    for (size_t i = 0; i < tags->n; i++) {
        double pc[4][2];
        if (calib_projector_pattern_corners(p, tags->items[i].id, pc) < 0 || seen[tags->items[i].id - p->grid.first_id]++)
            continue;
        int ok = 1;
        double bp[4][3];
        for (int k = 0; k < 4; k++)
            ok &= vis_camera_pixel_to_plane(cam, tags->items[i].corners[k], 0, bp[k]);
        if (!ok)
            continue;
        for (int k = 0; k < 4; k++, n++) {
            board[2 * n] = bp[k][0], board[2 * n + 1] = bp[k][1];
            proj[2 * n] = pc[k][0], proj[2 * n + 1] = pc[k][1];
        }
        out->tags_found++;
    }
    return n;
}

/* The fitted board->projector map H (normalised, H[8] = 1) and how well it
 * fits: the inliers' errors back on the board and one projector pixel's footprint. */
static void record_mapping(const calib_projector_pattern *p, double H[9], const double *board, const double *proj,
                           const unsigned char *in, int n, int inl, calib_projector_result *out)
{
    for (int i = 0; i < 8; i++)
        H[i] /= H[8];
    H[8] = 1;
    double Hi[9], ss = 0, mx = 0, cx = 0, cy = 0;
    inverse3(H, Hi);
    for (int i = 0; i < n; i++) {
        if (!in[i])
            continue;
        double b[2];
        if (!calib_projector_map(Hi, proj + 2 * i, b))
            continue;
        double d = hypot(b[0] - board[2 * i], b[1] - board[2 * i + 1]);
        ss += d * d, mx = fmax(mx, d);
        cx += proj[2 * i] / inl, cy += proj[2 * i + 1] / inl;
    }
    out->points = n;
    out->inliers = inl;
    out->rms_mm = sqrt(ss / inl);
    out->max_mm = mx;
    /* One projector pixel's footprint near the pattern's centre: |det| of the inverse map's Jacobian. */
    double q0[2] = {cx, cy}, q1[2] = {cx + 1, cy}, q2[2] = {cx, cy + 1}, b0[2], b1[2], b2[2];
    if (calib_projector_map(Hi, q0, b0) && calib_projector_map(Hi, q1, b1) && calib_projector_map(Hi, q2, b2))
        out->px_mm = sqrt(fabs((b1[0] - b0[0]) * (b2[1] - b0[1]) - (b1[1] - b0[1]) * (b2[0] - b0[0])));
    out->mapping.present = 1;
    out->mapping.width = p->width, out->mapping.height = p->height;
    memcpy(out->mapping.H, H, sizeof out->mapping.H);
    out->mapping.rms_mm = out->rms_mm;
    out->mapping.max_mm = out->max_mm;
    out->mapping.points = inl;
}

int calib_projector_fit(const calib_file *c, const calib_projector_pattern *p, const base_image *photo,
                        calib_projector_result *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    if (c->pose_missing)
        return base_error_set(err, "projector: the calibration has no board pose yet (run `tableref calibrate board`)");
    vis_tag_detector *det = vis_tag_detector_new(p->grid.family);
    if (!det)
        return base_error_set(err, "projector: cannot make a %s detector", p->grid.family);
    det->cfg.decimate = (double)photo->width * photo->height > 6e6 ? 2 : 1;
    vis_tag_list tags = {0};
    int rc = vis_tag_detect(det, photo->data, photo->width, photo->height, photo->stride, &tags, err);
    vis_tag_detector_free(det);
    if (rc < 0)
        return -1;
    vis_camera cam;
    vis_camera_init(&cam, c);
    const int cap = 4 * (int)tags.n + 4;
    double *board = malloc(sizeof(double) * 2 * (size_t)cap), *proj = malloc(sizeof(double) * 2 * (size_t)cap);
    unsigned char *in = malloc((size_t)cap);
    char *seen = calloc((size_t)(p->grid.cols * p->grid.rows), 1);
    rc = -1;
    if (!board || !proj || !in || !seen) {
        base_error_set(err, "out of memory");
        goto done;
    }
    int n = collect_pattern_points(&cam, p, &tags, seen, board, proj, out);
    if (out->tags_found < 4) {
        base_error_set(err, "projector: found %d of the pattern's %d tags in the photo; need at least 4 (is the "
                             "projector on and the room dark enough?)",
                        out->tags_found, p->grid.cols * p->grid.rows);
        goto done;
    }
    /* 3 projector px: generous for a soft projection, tight against a misread tag. */
    double H[9];
    int inl = cvs_find_homography(board, proj, n, 3.0, H, in, err);
    if (inl < 0)
        goto done;
    record_mapping(p, H, board, proj, in, n, inl, out);
    rc = 0;
done:
    free(board);
    free(proj);
    free(in);
    free(seen);
    vis_tag_list_clear(&tags);
    return rc;
}
