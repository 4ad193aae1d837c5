/* ds_marks: rim labels drawn and their truth measured (see the header). Internal to datasets/. */
#include "ds_marks.h"
#include "ds_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds_mat3.h"
#include "ds_terrain.h"
#include "roster_mark.h"

#define RIM_PX_PER_CELL 12

bool ds_marks_data(apriltag_family_t *fam, int id, unsigned char data[36])
{
    /* tag36h11: a white border cell, a black one, then the 6 x 6 data cells. */
    if (id < 0 || (uint32_t)id >= fam->ncodes || fam->total_width != 10 || fam->width_at_border != 8)
        return false;
    image_u8_t *im = apriltag_to_image(fam, (uint32_t)id);
    if (!im)
        return false;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++)
            data[r * 6 + c] = im->buf[(r + 2) * im->stride + c + 2] != 0;
    image_u8_destroy(im);
    return true;
}

/* The label as a picture, RIM_PX_PER_CELL pixels a cell, its margins rounded to whole pixels (*mx, *my). */
static base_image *rim_texture(const roster_rim *rim, const unsigned char data[36], int channels, cvs_colour ground,
                               int *mx, int *my)
{
    const int k = RIM_PX_PER_CELL;
    *mx = (int)lround(rim->margin_x / rim->cell * k), *my = (int)lround(rim->margin_y / rim->cell * k);
    base_image *t = base_image_new(rim->nx * k + 2 * *mx, rim->ny * k + 2 * *my, channels, 255);
    if (!t)
        return NULL;
    /* BGR: paper a little blue-white, toner a little warm (as ds_render's tags). */
    static const uint8_t paper[3] = {226, 234, 236}, ink[3] = {30, 28, 28};
    const uint8_t hole[3] = {ground.b, ground.g, ground.r};
    const uint8_t hole_grey = (uint8_t)lround(0.299 * ground.r + 0.587 * ground.g + 0.114 * ground.b);
    int *colour = malloc((size_t)rim->nx * (size_t)rim->ny * sizeof *colour);
    if (!colour) {
        base_image_free(t);
        return NULL;
    }
    for (int q = 0; q < rim->nx * rim->ny; q++)
        colour[q] = -1; /* the inside: the base top */
    for (size_t q = 0; q < rim->n; q++)
        colour[rim->cells[q].j * rim->nx + rim->cells[q].i] = roster_rim_colour(&rim->cells[q], data);
    const double mid = *mx + rim->nx * k / 2.0;
    for (int y = 0; y < t->height; y++)
        for (int x = 0; x < t->width; x++) {
            const int i = (x - *mx) / k, j = (y - *my) / k;
            const int inside = x >= *mx && y >= *my && i < rim->nx && j < rim->ny;
            int v = inside ? colour[j * rim->nx + i] : 1; /* the margin is paper */
            /* The front mark, in the other colour of the cells under it (roster_mark.h). */
            if (inside && v >= 0 && roster_rim_on_front_mark((x + 0.5 - mid) / k, (y + 0.5 - *my) / k))
                v = !v;
            uint8_t *px = t->data + (size_t)y * t->stride + (size_t)x * (size_t)channels;
            if (channels == 1)
                *px = v < 0 ? hole_grey : v ? 235 : 25;
            else
                memcpy(px, v < 0 ? hole : v ? paper : ink, 3);
        }
    free(colour);
    return t;
}

/* Homography from the plane z = h (board mm) to the canvas (as ds_render.c's). */
static void plane_homography(const ds_canvas *c, double h, double H[9])
{
    const double *R = c->cam.c.R, *t = c->cam.c.t;
    double P[9];
    for (int i = 0; i < 3; i++) {
        P[3 * i + 0] = R[3 * i + 0];
        P[3 * i + 1] = R[3 * i + 1];
        P[3 * i + 2] = h * R[3 * i + 2] + t[i];
    }
    ds_mat3_mul(c->K, P, H);
}

int ds_marks_draw_rim(ds_canvas *c, apriltag_family_t *fam, const ds_rim_mark *mk)
{
    roster_rim rim;
    unsigned char data[36];
    if (!ds_marks_data(fam, mk->tag_id, data))
        return base_error_set(c->err, "render: tag id %d has no rim label (tag36h11 codes only)", mk->tag_id);
    if (roster_rim_make(mk->width, mk->depth, mk->cell, &rim, c->err) < 0)
        return -1;
    int mx, my;
    base_image *tex = rim_texture(&rim, data, c->img->channels, mk->ground, &mx, &my);
    if (!tex) {
        roster_rim_clear(&rim);
        return base_error_set(c->err, "render: out of memory");
    }
    /* Texture pixel (u, v) -> board: u across from the label's left, v back from its front; the cells' grid exact. */
    const double s = rim.cell / RIM_PX_PER_CELL;
    const double x0 = rim.depth / 2 - rim.margin_y + my * s, y0 = rim.width / 2 - rim.margin_x + mx * s;
    const base_vec2 fwd = base_v2_dir(mk->facing), left = base_v2(-fwd.y, fwd.x);
    /* local (x, y) = (x0 - (v + 0.5) s, y0 - (u + 0.5) s); board = centre + x fwd + y left */
    const double ax = x0 - 0.5 * s, ay = y0 - 0.5 * s;
    double A[9] = {-s * left.x, -s * fwd.x, mk->centre.x + ax * fwd.x + ay * left.x,
                   -s * left.y, -s * fwd.y, mk->centre.y + ax * fwd.y + ay * left.y,
                   0, 0, 1};
    double H[9];
    plane_homography(c, mk->z, H);
    ds_mat3_mul(H, A, H);
    const int rc = cvs_render_warp(c->img, tex, H, NULL, 0, c->err);
    base_image_free(tex);
    roster_rim_clear(&rim);
    return rc;
}

void ds_marks_mast_place(const ds_mast_mark *mk, base_vec2 *centre, double *heading)
{
    ds_rng r = {.s = mk->seed * 2654435761ull + (uint64_t)mk->tag_id * 40503ull + 11};
    const double lean = mk->sway * ds_rnd(&r), dir = 2 * BASE_PI * ds_rnd(&r);
    roster_tag_mount_place(&mk->mount, mk->base_centre, mk->facing, centre, heading);
    *centre = base_v2_add(*centre, base_v2_scale(base_v2_dir(dir), lean));
}

bool ds_marks_mast_on(const rules_snapshot *snap, const roster_file *roster, size_t k, uint64_t seed,
                      ds_mast_mark *out)
{
    const roster_unit_mark *mk = &roster->marks[k];
    const roster_unit *ru = &roster->units[mk->unit];
    const rules_unit *u = rules_snapshot_find_unit(snap, ru->id);
    const rules_model *m = u ? rules_unit_find_model(u, roster->models[mk->model].id) : NULL;
    if (!m)
        return false;
    *out = (ds_mast_mark){mk->tag_id, m->pos, m->facing, ds_terrain_height(snap, m->pos), ru->mount.height,
                          mk->mount, mk->sway, seed};
    return true;
}

void ds_marks_mast_card(const ds_mast_mark *mk, double printed_side, base_vec2 corners[4], double *z)
{
    base_vec2 centre;
    double th;
    ds_marks_mast_place(mk, &centre, &th);
    const base_vec2 up = base_v2_scale(base_v2(cos(th), sin(th)), printed_side / 2),
                    right = base_v2_scale(base_v2(sin(th), -cos(th)), printed_side / 2);
    for (int i = 0; i < 4; i++)
        corners[i] = base_v2_add(centre, base_v2_add(base_v2_scale(right, i == 1 || i == 2 ? 1 : -1),
                                                     base_v2_scale(up, i < 2 ? 1 : -1)));
    *z = mk->ground + mk->mount.height;
}

/* The printed tag, its white border included, MAST_PX_PER_CELL pixels a cell (paper and toner as the labels'). */
#define MAST_PX_PER_CELL 12
static base_image *mast_texture(apriltag_family_t *fam, int id, int channels)
{
    if (id < 0 || (uint32_t)id >= fam->ncodes)
        return NULL;
    image_u8_t *im = apriltag_to_image(fam, (uint32_t)id);
    if (!im)
        return NULL;
    const int k = MAST_PX_PER_CELL;
    static const uint8_t paper[3] = {226, 234, 236}, ink[3] = {30, 28, 28};
    base_image *t = base_image_new(im->width * k, im->height * k, channels, 255);
    for (int y = 0; t && y < t->height; y++)
        for (int x = 0; x < t->width; x++) {
            const int white = im->buf[(y / k) * im->stride + x / k] != 0;
            uint8_t *px = t->data + (size_t)y * t->stride + (size_t)x * (size_t)channels;
            if (channels == 1)
                *px = white ? 235 : 25;
            else
                memcpy(px, white ? paper : ink, 3);
        }
    image_u8_destroy(im);
    return t;
}

/* The rod: a clear acrylic rod 2 mm thick from the base's top under the mast's place to the tag's centre. */
static int draw_rod(ds_canvas *c, const ds_mast_mark *mk, base_vec2 top)
{
    base_vec2 foot;
    double heading;
    roster_tag_mount_place(&mk->mount, mk->base_centre, mk->facing, &foot, &heading);
    const double zt = mk->ground + mk->mount.height;
    const double A[3] = {foot.x, foot.y, mk->ground + mk->base_top}, B[3] = {top.x, top.y, zt};
    const double B2[3] = {top.x + 2, top.y, zt};
    double a[2], b[2], b2[2];
    if (!ds_canvas_point(c, A, a) || !ds_canvas_point(c, B, b) || !ds_canvas_point(c, B2, b2))
        return 0;
    const double thick = ds_hypot(b2[0] - b[0], b2[1] - b[1]);
    if (c->img->channels == 1)
        return cvs_render_line(c->img, a[0], a[1], b[0], b[1], thick, 200, c->mask_figure, 255, c->err);
    const cvs_colour clear = {196, 206, 212};
    return cvs_render_line_c(c->img, a[0], a[1], b[0], b[1], thick, clear, c->mask_figure, 255, c->err);
}

int ds_marks_draw_mast(ds_canvas *c, apriltag_family_t *fam, const ds_mast_mark *mk)
{
    base_vec2 centre;
    double th;
    ds_marks_mast_place(mk, &centre, &th);
    if (draw_rod(c, mk, centre) < 0)
        return -1;
    base_image *tex = mast_texture(fam, mk->tag_id, c->img->channels);
    if (!tex)
        return base_error_set(c->err, "render: mast tag id %d is not in the family", mk->tag_id);
    /* Texture pixel (u, v) -> board, as a square tag's (ds_render.c): the whole bitmap, its border included. */
    const double S = mk->mount.size * fam->total_width / fam->width_at_border, N = tex->width, k = S / N;
    const base_vec2 up = base_v2(cos(th), sin(th)), right = base_v2(sin(th), -cos(th));
    const double a0 = (0.5 / N - 0.5) * S, b0 = (0.5 - 0.5 / N) * S;
    double A[9] = {right.x * k, -up.x * k, centre.x + right.x * a0 + up.x * b0,
                   right.y * k, -up.y * k, centre.y + right.y * a0 + up.y * b0,
                   0, 0, 1};
    double H[9];
    plane_homography(c, mk->ground + mk->mount.height, H);
    ds_mat3_mul(H, A, H);
    const int rc = cvs_render_warp(c->img, tex, H, c->mask_figure, 255, c->err);
    base_image_free(tex);
    return rc;
}

/* The canvas polygon of a w x d rectangle at z (centre, facing); false when a corner is behind the camera. */
static bool rect_poly(ds_canvas *c, base_vec2 centre, double facing, double w, double d, double z, double poly[8])
{
    const base_vec2 fwd = base_v2_dir(facing), left = base_v2(-fwd.y, fwd.x);
    static const double sx[4] = {-1, -1, 1, 1}, sy[4] = {-1, 1, 1, -1};
    for (int k = 0; k < 4; k++) {
        const base_vec2 p = base_v2_add(centre, base_v2_add(base_v2_scale(fwd, sx[k] * d / 2),
                                                            base_v2_scale(left, sy[k] * w / 2)));
        const double X[3] = {p.x, p.y, z};
        if (!ds_canvas_point(c, X, poly + 2 * k))
            return false;
    }
    return true;
}

static double poly_area(const double p[8])
{
    double a = 0;
    for (int k = 0; k < 4; k++)
        a += p[2 * k] * p[2 * ((k + 1) % 4) + 1] - p[2 * ((k + 1) % 4)] * p[2 * k + 1];
    return fabs(a) / 2;
}

double ds_marks_base_covered(ds_canvas *c, base_vec2 centre, double facing, double w, double d, double z)
{
    double poly[8], cov[3] = {0, 0, 0};
    if (!rect_poly(c, centre, facing, w, d, z, poly))
        return 0;
    cvs_render_coverage2(c->mask_figure, c->mask_hand, poly, 4, cov);
    return cov[2];
}

void ds_marks_truth_rim(ds_canvas *c, const ds_rim_mark *mk, int width, int height, ds_truth_tag *tt)
{
    const double w = mk->width, d = mk->depth, band = 2 * mk->cell;
    double outer[8] = {0}, inner[8] = {0}, co[3] = {1, 1, 1}, ci[3] = {0, 0, 0};
    tt->id = mk->tag_id;
    tt->inside = 1;
    /* The label's corners in apriltag's order with "up" its front: (-w/2 right... ) as a tag of heading facing. */
    const base_vec2 fwd = base_v2_dir(mk->facing), right = base_v2(fwd.y, -fwd.x);
    static const double ca[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int k = 0; k < 4; k++) {
        const base_vec2 p = base_v2_add(mk->centre, base_v2_add(base_v2_scale(right, ca[k][0] * w / 2),
                                                               base_v2_scale(fwd, ca[k][1] * d / 2)));
        const double X[3] = {p.x, p.y, mk->z};
        if (!vis_camera_project(&c->cam, X, tt->corners[k]) || tt->corners[k][0] < 2 || tt->corners[k][1] < 2 ||
            tt->corners[k][0] > width - 3 || tt->corners[k][1] > height - 3)
            tt->inside = 0;
    }
    const double X[3] = {mk->centre.x, mk->centre.y, mk->z}, Xc[3] = {mk->centre.x + mk->cell, mk->centre.y, mk->z};
    double pc[2];
    vis_camera_project(&c->cam, X, tt->centre);
    vis_camera_project(&c->cam, Xc, pc);
    tt->edge_px = ds_hypot(pc[0] - tt->centre[0], pc[1] - tt->centre[1]);
    /* The band's share: the whole label's hidden area less its inside's (all of it when out of the frame). */
    double band_cov[3] = {1, 1, 1};
    if (tt->inside && rect_poly(c, mk->centre, mk->facing, w, d, mk->z, outer) &&
        rect_poly(c, mk->centre, mk->facing, w - 2 * band, d - 2 * band, mk->z, inner)) {
        cvs_render_coverage2(c->mask_figure, c->mask_hand, outer, 4, co);
        cvs_render_coverage2(c->mask_figure, c->mask_hand, inner, 4, ci);
        const double ao = poly_area(outer), ai = poly_area(inner), ab = fmax(1e-9, ao - ai);
        for (int k = 0; k < 3; k++)
            band_cov[k] = fmin(1, fmax(0, (co[k] * ao - ci[k] * ai) / ab));
    }
    tt->occluded_figure = band_cov[0], tt->occluded_hand = band_cov[1], tt->occluded = band_cov[2];
    tt->border_occluded = band_cov[2];
    tt->fully_visible = tt->inside && band_cov[2] == 0;
}
