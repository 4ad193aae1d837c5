#include "ds_render.h"
#include "ds_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagStandard41h12.h>

#include "ds_canvas.h"
#include "ds_exposure.h"
#include "ds_figures.h"
#include "ds_light.h"
#include "ds_marks.h"
#include "ds_mat3.h"
#include "ds_terrain.h"
#include "vis_camera.h"

/* apriltag's corner order (p[0..3]) in the tag frame: a right, b up. */
const double ds_tag_corner_local[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

#define TEX_PX_PER_CELL 12

/* Homography from the plane z = h (board x, y in mm) to the ideal canvas. */
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

/* Draws a flat texture whose pixel (u, v) lies at board (A * (u, v, 1)) on plane z = h. */
static int draw_plane_texture(ds_canvas *c, const base_image *tex, const double A[9], double h)
{
    double H[9];
    plane_homography(c, h, H);
    ds_mat3_mul(H, A, H);
    return cvs_render_warp(c->img, tex, H, NULL, 0, c->err);
}

static int fill_board_poly(ds_canvas *c, const base_vec2 *pts, int n, double h, cvs_colour colour)
{
    double xy[64];
    if (n > 32)
        n = 32;
    for (int i = 0; i < n; i++) {
        double X[3] = {pts[i].x, pts[i].y, h};
        if (!ds_canvas_point(c, X, xy + 2 * i))
            return 0;
    }
    return cvs_render_fill_poly_c(c->img, xy, n, colour, NULL, 0, c->err);
}

static cvs_colour grey(double v)
{
    uint8_t g = (uint8_t)v;
    return (cvs_colour){g, g, g};
}

/* The printed tag: white paper, black toner (a little warm and a little grey in the real style). */
static base_image *tag_texture(apriltag_family_t *fam, int id, int channels)
{
    if (id < 0 || (uint32_t)id >= fam->ncodes)
        return NULL;
    image_u8_t *im = apriltag_to_image(fam, id);
    if (!im)
        return NULL;
    const int s = TEX_PX_PER_CELL;
    static const uint8_t paper[3] = {226, 234, 236}, ink[3] = {30, 28, 28}; /* BGR */
    base_image *t = base_image_new(im->width * s, im->height * s, channels, 255);
    if (t)
        for (int y = 0; y < t->height; y++)
            for (int x = 0; x < t->width; x++) {
                const int white = im->buf[(y / s) * im->stride + x / s] != 0;
                if (channels == 1)
                    t->data[y * t->stride + x] = white ? 235 : 25;
                else
                    memcpy(t->data + y * t->stride + 3 * x, white ? paper : ink, 3);
            }
    image_u8_destroy(im);
    return t;
}

/* Texture -> board affine of a tag bitmap centred at c with heading th. */
static void tag_affine(const apriltag_family_t *fam, const base_image *tex, base_vec2 c, double th, double size,
                       double A[9])
{
    const double S = size * fam->total_width / fam->width_at_border; /* whole bitmap, mm */
    const double N = tex->width;
    const base_vec2 up = base_v2(cos(th), sin(th)), right = base_v2(sin(th), -cos(th));
    /* a = ((u + 0.5) / N - 0.5) S, b = (0.5 - (v + 0.5) / N) S */
    const double a0 = (0.5 / N - 0.5) * S, b0 = (0.5 - 0.5 / N) * S, k = S / N;
    A[0] = right.x * k, A[1] = -up.x * k, A[2] = c.x + right.x * a0 + up.x * b0;
    A[3] = right.y * k, A[4] = -up.y * k, A[5] = c.y + right.y * a0 + up.y * b0;
    A[6] = 0, A[7] = 0, A[8] = 1;
}

static void tag_corners_board(base_vec2 c, double th, double size, double out[4][2])
{
    const base_vec2 up = base_v2(cos(th), sin(th)), right = base_v2(sin(th), -cos(th));
    for (int k = 0; k < 4; k++) {
        double a = ds_tag_corner_local[k][0] * size / 2, b = ds_tag_corner_local[k][1] * size / 2;
        out[k][0] = c.x + a * right.x + b * up.x;
        out[k][1] = c.y + a * right.y + b * up.y;
    }
}

typedef struct placed_tag {
    int id;
    long model;
    base_vec2 c;
    double heading, size, z;
    ds_rim_mark rim;   /* a rim label (cell > 0) instead of a square tag: ds_marks.h */
    double ground;        /* the surface under its base (0: the board; a hill's height) */
    int raised;           /* drawn with the relief (ds_terrain_drawn_raised), not with the board */
    cvs_colour base_top;  /* its base's flock */
} placed_tag;

/* The share of a tag's corners the relief hides from the camera (a hill before a tag on the board behind it). */
static double relief_hidden(const ds_canvas *c, const rules_snapshot *snap, const double (*bc)[2], double z)
{
    int hidden = 0;
    for (int k = 0; k < 4; k++) {
        const double X[3] = {bc[k][0], bc[k][1], z};
        hidden += ds_terrain_hides(c, snap, X);
    }
    return hidden / 4.0;
}

static void fill_truth_tag(ds_canvas *c, const apriltag_family_t *fam, const rules_snapshot *snap,
                           const placed_tag *pt, ds_truth_tag *tt, int W, int Hh)
{
    double bc[4][2], poly[8], outer[4][2], opoly[8];
    if (pt->rim.cell > 0) {
        ds_marks_truth_rim(c, &pt->rim, W, Hh, tt);
        tt->model = pt->model;
        return;
    }
    tag_corners_board(pt->c, pt->heading, pt->size, bc);
    /* The printed tag with its white border: a detector needs that quiet zone. */
    tag_corners_board(pt->c, pt->heading, pt->size * fam->total_width / fam->width_at_border, outer);
    int oin = 1;
    for (int k = 0; k < 4; k++) {
        double X[3] = {outer[k][0], outer[k][1], pt->z};
        oin &= ds_canvas_point(c, X, opoly + 2 * k);
    }
    tt->id = pt->id;
    tt->model = pt->model;
    tt->inside = 1;
    for (int k = 0; k < 4; k++) {
        double X[3] = {bc[k][0], bc[k][1], pt->z};
        if (!vis_camera_project(&c->cam, X, tt->corners[k]) || !ds_canvas_point(c, X, poly + 2 * k)) {
            tt->inside = 0;
            continue;
        }
        if (tt->corners[k][0] < 2 || tt->corners[k][1] < 2 || tt->corners[k][0] > W - 3 ||
            tt->corners[k][1] > Hh - 3)
            tt->inside = 0;
    }
    double X[3] = {pt->c.x, pt->c.y, pt->z};
    vis_camera_project(&c->cam, X, tt->centre);
    tt->edge_px = 0;
    for (int k = 0; k < 4; k++)
        tt->edge_px += ds_hypot(tt->corners[(k + 1) % 4][0] - tt->corners[k][0],
                             tt->corners[(k + 1) % 4][1] - tt->corners[k][1]) / 4;
    double cov[3] = {1, 1, 1}, bcov[3] = {1, 1, 1};
    if (tt->inside)
        cvs_render_coverage2(c->mask_figure, c->mask_hand, poly, 4, cov);
    if (tt->inside && oin)
        cvs_render_coverage2(c->mask_figure, c->mask_hand, opoly, 4, bcov);
    /* What the relief hides counts with the figures: what stands on the table. */
    const double hill = relief_hidden(c, snap, (const double(*)[2])bc, pt->z);
    tt->occluded_figure = fmax(cov[0], hill), tt->occluded_hand = cov[1], tt->occluded = fmax(cov[2], hill);
    tt->border_occluded = fmax(bcov[2], hill);
    tt->fully_visible = tt->inside && tt->border_occluded == 0;
}

/* The ideal canvas: big enough for every ray the distorted frame sees. */
static int canvas_new(ds_canvas *c, const calib_file *calib, int ss, int channels, base_error *err)
{
    const int W = calib->width, Hh = calib->height;
    double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
    for (int i = 0; i <= 64; i++)
        for (int side = 0; side < 4; side++) {
            double px[2], xy[2];
            double f = i / 64.0;
            px[0] = side == 0 ? f * W - 0.5 : side == 1 ? f * W - 0.5 : side == 2 ? -0.5 : W - 0.5;
            px[1] = side == 0 ? -0.5 : side == 1 ? Hh - 0.5 : f * Hh - 0.5;
            vis_camera_undistort(&c->cam, px, xy);
            xmin = fmin(xmin, xy[0]), xmax = fmax(xmax, xy[0]);
            ymin = fmin(ymin, xy[1]), ymax = fmax(ymax, xy[1]);
        }
    const double fx = calib->fx * ss, fy = calib->fy * ss;
    c->K[0] = fx, c->K[2] = -fx * xmin + 4;
    c->K[4] = fy, c->K[5] = -fy * ymin + 4;
    c->K[8] = 1;
    int cw = (int)ceil(fx * (xmax - xmin)) + 8, chh = (int)ceil(fy * (ymax - ymin)) + 8;
    c->img = base_image_new(cw, chh, channels, 45);
    c->mask_figure = base_image_new(cw, chh, 1, 0);
    c->mask_hand = base_image_new(cw, chh, 1, 0);
    if (!c->img || !c->mask_figure || !c->mask_hand)
        return base_error_set(err, "render: out of memory for a %dx%d canvas", cw, chh);
    return 0;
}

/* The board's mat: smooth noise between two colours of the palette. */
static base_image *board_texture(const roster_file *roster, const ds_render_params *p, base_error *err)
{
    int tw = (int)ceil(roster->board_width / 2), td = (int)ceil(roster->board_depth / 2);
    if (p->style != DS_STYLE_REAL)
        return p->textures ? cvs_render_noise_texture(tw, td, p->seed + 101, 120, 35, 40, err)
                           : base_image_new(tw, td, 1, 120);
    /* A printed mat has grain down to a millimetre. */
    tw *= 2, td *= 2;
    static const cvs_colour lo[3] = {{38, 62, 30}, {120, 95, 60}, {62, 62, 66}};
    static const cvs_colour hi[3] = {{120, 140, 70}, {215, 185, 135}, {150, 148, 145}};
    const int k = p->palette >= 0 && p->palette < 3 ? p->palette : 0;
    base_image *g = cvs_render_noise_texture(tw, td, p->seed + 101, 128, p->textures ? 90 : 0, 50, err);
    base_image *t = g ? cvs_render_colourise(g, lo[k], hi[k], err) : NULL;
    base_image_free(g);
    return t;
}

/* Each unit's bases: flock of one colour, a little different model to model. */
static cvs_colour base_top(const ds_render_params *p, size_t unit, ds_rng *r)
{
    const double v = 70 + 30 * ds_rnd(r);
    if (p->style != DS_STYLE_REAL)
        return grey(v);
    static const cvs_colour flock[] = {{72, 98, 46}, {98, 78, 52}, {168, 150, 108}, {40, 40, 38}, {58, 80, 40}};
    const cvs_colour f = flock[(unit * 7 + p->seed) % (sizeof flock / sizeof flock[0])];
    const double k = v / 85;
    return (cvs_colour){(uint8_t)fmin(255, f.r * k), (uint8_t)fmin(255, f.g * k), (uint8_t)fmin(255, f.b * k)};
}

/* Every model's tag, in the snapshot's order (the truth's order), standing on the surface under its base, and
 * its base's colour (drawn in that order from the renderer's stream, whatever is drawn first). */
static int place_tags(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster, const ds_render_params *p,
                      ds_rng *r, placed_tag *tags, size_t *nt)
{
    for (size_t ui = 0; ui < snap->n_units; ui++) {
        const rules_unit *u = &snap->units[ui];
        for (size_t mi = 0; mi < u->n_models; mi++) {
            const rules_model *m = &u->models[mi];
            const roster_model *rm = ds_roster_model(roster, m->id);
            if (!rm)
                return base_error_set(c->err, "render: model \"%s\" is not in the roster", m->id);
            const roster_unit *ru = &roster->units[rm->unit];
            placed_tag *pt = &tags[(*nt)++];
            pt->id = rm->tag_id;
            pt->model = (long)(rm - roster->models);
            roster_tag_mount_place(&ru->mount, m->pos, m->facing, &pt->c, &pt->heading);
            pt->size = ru->mount.size;
            pt->ground = ds_terrain_height(snap, m->pos);
            pt->z = pt->ground + ru->mount.height;
            pt->raised = ds_terrain_drawn_raised(c, snap, m->pos, ru->mount.height);
            pt->base_top = base_top(p, rm->unit, r);
            if (ru->mount.layout == ROSTER_MARK_RIM) {
                const base_obb box = rules_model_base(u, m);
                pt->rim = (ds_rim_mark){rm->tag_id, m->pos, m->facing, box.width, box.depth, ru->mount.cell, pt->z,
                                        pt->base_top};
            }
        }
    }
    return 0;
}

/* The bases (sides and top) of the models standing on the board (raised 0) or on the relief (raised 1). */
static int draw_bases(ds_canvas *c, const rules_snapshot *snap, const ds_render_params *p, const placed_tag *tags,
                      int raised)
{
    size_t k = 0;
    for (size_t ui = 0; ui < snap->n_units; ui++) {
        const rules_unit *u = &snap->units[ui];
        for (size_t mi = 0; mi < u->n_models; mi++, k++) {
            const placed_tag *pt = &tags[k];
            if (pt->raised != raised)
                continue;
            base_obb box = rules_model_base(u, &u->models[mi]);
            base_vec2 corners[4];
            base_obb_corners(&box, corners);
            /* Sides: hull of the base's bottom and top outlines, darker. */
            double proj[16], hl[20];
            int ok = 1;
            for (int q = 0; q < 8; q++) {
                double X[3] = {corners[q % 4].x, corners[q % 4].y, q < 4 ? pt->ground : pt->z};
                ok &= ds_canvas_point(c, X, proj + 2 * q);
            }
            const cvs_colour side = p->style == DS_STYLE_REAL ? (cvs_colour){34, 32, 30} : grey(40);
            if (ok && cvs_render_fill_poly_c(c->img, hl, ds_canvas_hull(proj, 8, hl), side, NULL, 0, c->err) < 0)
                return -1;
            if (fill_board_poly(c, corners, 4, pt->z, pt->base_top) < 0)
                return -1;
        }
    }
    return 0;
}

/* The tags of the models on the board (raised 0, with the board's own tags) or on the relief (raised 1). */
static int draw_tags(ds_canvas *c, apriltag_family_t *fam, const char *family, const placed_tag *tags, size_t nt,
                     int raised)
{
    for (size_t i = 0; i < nt; i++) {
        if (tags[i].raised != raised)
            continue;
        if (tags[i].rim.cell > 0) {
            if (ds_marks_draw_rim(c, fam, &tags[i].rim) < 0)
                return -1;
            continue;
        }
        base_image *tex = tag_texture(fam, tags[i].id, c->img->channels);
        if (!tex)
            return base_error_set(c->err, "render: tag id %d is not in family %s", tags[i].id, family);
        double A[9];
        tag_affine(fam, tex, tags[i].c, tags[i].heading, tags[i].size, A);
        int wrc = draw_plane_texture(c, tex, A, tags[i].z);
        base_image_free(tex);
        if (wrc < 0)
            return -1;
    }
    return 0;
}

/* What stands on the board (raised 0) or on the relief (raised 1): bases, tags, figures. */
static int draw_level(ds_canvas *c, apriltag_family_t *fam, const rules_snapshot *snap, const roster_file *roster,
                      const ds_render_params *p, const placed_tag *tags, size_t nt, int raised)
{
    if (draw_bases(c, snap, p, tags, raised) < 0 || draw_tags(c, fam, roster->family, tags, nt, raised) < 0)
        return -1;
    return ds_draw_figures_level(c, snap, roster, p, raised ? DS_LEVEL_RAISED : DS_LEVEL_BOARD);
}

static int fill_truth(ds_canvas *c, const apriltag_family_t *fam, const rules_snapshot *snap, const placed_tag *tags,
                      size_t nt, int W, int Hh, ds_truth *truth)
{
    size_t nm = 0;
    for (size_t ui = 0; ui < snap->n_units; ui++)
        nm += snap->units[ui].n_models;
    truth->tags = calloc(nt ? nt : 1, sizeof *truth->tags);
    truth->models = calloc(nm ? nm : 1, sizeof *truth->models);
    if (!truth->tags || !truth->models)
        return base_error_set(c->err, "render: out of memory");
    truth->width = W, truth->height = Hh;
    for (size_t i = 0; i < nt; i++)
        fill_truth_tag(c, fam, snap, &tags[i], &truth->tags[truth->n_tags++], W, Hh);
    /* Model tags were placed in the snapshot's order, one per model. */
    for (size_t ui = 0, k = 0; ui < snap->n_units; ui++)
        for (size_t mi = 0; mi < snap->units[ui].n_models; mi++, k++) {
            ds_truth_model *tm = &truth->models[truth->n_models++];
            tm->unit = ui, tm->model = mi;
            tm->roster_model = tags[k].model;
            tm->tag = (long)k;
            tm->hand_hidden = truth->tags[k].occluded_hand > 0;
            const rules_model *m = &snap->units[ui].models[mi];
            const base_obb box = rules_model_base(&snap->units[ui], m);
            tm->base_covered = ds_marks_base_covered(c, m->pos, m->facing, box.width, box.depth, tags[k].z);
        }
    return 0;
}

int ds_render_optics(const rules_snapshot *snap, const roster_file *roster, const calib_file *calib,
                     const ds_render_params *p, base_image **out, ds_truth *truth, base_error *err)
{
    int rc = -1;
    ds_canvas c = {.err = err};
    vis_camera_init(&c.cam, calib);
    ds_rng r = {.s = p->seed * 7919ull + 17};
    const int ss = p->supersample < 1 ? 1 : p->supersample;
    const int W = calib->width, Hh = calib->height, channels = p->style == DS_STYLE_REAL ? 3 : 1;
    const int is41 = strcmp(roster->family, "tagStandard41h12") == 0;
    apriltag_family_t *fam = is41 ? tagStandard41h12_create() : tag36h11_create();
    placed_tag *tags = calloc(roster->n_models + roster->n_board_tags + 1, sizeof *tags);
    base_image *boardtex = NULL, *img = NULL;
    size_t nt = 0;
    *out = NULL;
    memset(truth, 0, sizeof *truth);
    if (!fam || !tags) {
        base_error_set(err, "render: out of memory");
        goto done;
    }
    if (canvas_new(&c, calib, ss, channels, err) < 0)
        goto done;
    /* Board: a textured cloth/wood surface at z = 0. */
    if (!(boardtex = board_texture(roster, p, err)))
        goto done;
    {
        double sx = roster->board_width / boardtex->width, sy = roster->board_depth / boardtex->height;
        double A[9] = {sx, 0, 0.5 * sx, 0, sy, 0.5 * sy, 0, 0, 1};
        if (draw_plane_texture(&c, boardtex, A, 0) < 0)
            goto done;
    }
    if (ds_terrain_draw_flat(&c, snap, p, &r) < 0 || place_tags(&c, snap, roster, p, &r, tags, &nt) < 0)
        goto done;
    for (size_t i = 0; i < roster->n_board_tags; i++) {
        const roster_board_tag *b = &roster->board_tags[i];
        tags[nt++] = (placed_tag){.id = b->id, .model = -1, .c = base_v2(b->x, b->y), .heading = b->rotation,
                                   .size = b->size, .z = b->z}; /* on the board: no rim, ground 0 */
    }
    /* Painter's order: the board's level, the relief, what stands on it, then the hands over all. */
    if (draw_level(&c, fam, snap, roster, p, tags, nt, 0) < 0 || ds_terrain_draw_relief(&c, snap, p) < 0 ||
        draw_level(&c, fam, snap, roster, p, tags, nt, 1) < 0 || ds_draw_hands(&c, snap, roster, p, &r) < 0)
        goto done;
    if (fill_truth(&c, fam, snap, tags, nt, W, Hh, truth) < 0)
        goto done;

    /* Through the lens. */
    if (!(img = base_image_new(W, Hh, channels, 0))) {
        base_error_set(err, "render: out of memory");
        goto done;
    }
    double ik[4] = {c.K[0], c.K[4], c.K[2], c.K[5]};
    cvs_lens lens = {calib->fx, calib->fy, calib->cx, calib->cy, {0}};
    memcpy(lens.dist, calib->dist, sizeof lens.dist);
    if (cvs_render_distort(c.img, ik, &lens, ss, img, err) < 0)
        goto done;
    *out = img;
    img = NULL;
    rc = 0;
done:
    if (rc < 0)
        ds_truth_clear(truth);
    base_image_free(img);
    base_image_free(boardtex);
    base_image_free(c.img);
    base_image_free(c.mask_figure);
    base_image_free(c.mask_hand);
    free(tags);
    if (fam)
        (is41 ? tagStandard41h12_destroy : tag36h11_destroy)(fam);
    return rc;
}

int ds_render_heights(const rules_snapshot *snap, const roster_file *roster, const calib_file *calib, uint32_t seed,
                      base_image **out, base_error *err)
{
    ds_canvas c = {.err = err};
    vis_camera_init(&c.cam, calib);
    int rc = -1;
    base_image *img = NULL;
    *out = NULL;
    if (canvas_new(&c, calib, 1, 1, err) < 0)
        goto done;
    memset(c.img->data, 0, c.img->stride * (size_t)c.img->height);
    if (ds_terrain_fill_heights(&c, snap, DS_LIGHT_HEIGHT_STEP_MM) < 0)
        goto done;
    for (size_t ui = 0; ui < snap->n_units; ui++)
        for (size_t mi = 0; mi < snap->units[ui].n_models; mi++) {
            const rules_unit *u = &snap->units[ui];
            const roster_model *rm = ds_roster_model(roster, u->models[mi].id);
            if (!rm) {
                base_error_set(err, "render: model \"%s\" is not in the roster", u->models[mi].id);
                goto done;
            }
            const double h = ds_terrain_height(snap, u->models[mi].pos) + roster->units[rm->unit].mount.height;
            base_obb box = rules_model_base(u, &u->models[mi]);
            base_vec2 corners[4];
            base_obb_corners(&box, corners);
            if (fill_board_poly(&c, corners, 4, h, grey(fmin(255, h / DS_LIGHT_HEIGHT_STEP_MM + 0.5))) < 0)
                goto done;
        }
    /* The masts' tags, above the figures: lit where the projector's ray through them meets them. */
    const double printed = strcmp(roster->family, "tagStandard41h12") == 0 ? 9.0 / 5 : 10.0 / 8;
    for (size_t k = 0; k < roster->n_marks; k++) {
        ds_mast_mark mk;
        base_vec2 card[4];
        double z;
        if (!ds_marks_mast_on(snap, roster, k, seed, &mk))
            continue;
        ds_marks_mast_card(&mk, mk.mount.size * printed, card, &z);
        if (fill_board_poly(&c, card, 4, z, grey(fmin(255, z / DS_LIGHT_HEIGHT_STEP_MM + 0.5))) < 0)
            goto done;
    }
    if (!(img = base_image_new(calib->width, calib->height, 1, 0))) {
        base_error_set(err, "render: out of memory");
        goto done;
    }
    double ik[4] = {c.K[0], c.K[4], c.K[2], c.K[5]};
    cvs_lens lens = {calib->fx, calib->fy, calib->cx, calib->cy, {0}};
    memcpy(lens.dist, calib->dist, sizeof lens.dist);
    if (cvs_render_distort(c.img, ik, &lens, 1, img, err) < 0)
        goto done;
    *out = img;
    img = NULL;
    rc = 0;
done:
    base_image_free(img);
    base_image_free(c.img);
    base_image_free(c.mask_figure);
    base_image_free(c.mask_hand);
    return rc;
}

/* The classic camera's projected light: the gray scene's linear light times 1 + ratio * projected, clipped. */
static int light_gray(base_image *img, const cvs_sensor *s, base_error *err)
{
    const base_image *L = s->light;
    if (L->width != img->width || L->height != img->height)
        return base_error_set(err, "render: the projector's light is %dx%d, the picture %dx%d", L->width, L->height,
                              img->width, img->height);
    double lin[256];
    for (int v = 0; v < 256; v++)
        lin[v] = v <= 10 ? v / 255.0 / 12.92 : pow((v / 255.0 + 0.055) / 1.055, 2.4);
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            const uint8_t *l = L->data + y * L->stride + (size_t)x * (size_t)L->channels;
            const double pv = L->channels == 3 ? 0.114 * lin[l[0]] + 0.587 * lin[l[1]] + 0.299 * lin[l[2]] : lin[l[0]];
            uint8_t *a = img->data + y * img->stride + x;
            const double v = fmin(1, lin[*a] * (1 + s->light_ratio * (s->light_black + (1 - s->light_black) * pv)));
            *a = (uint8_t)(255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055) + 0.5);
        }
    return 0;
}

int ds_render_capture(const base_image *optics, const ds_render_params *p, uint32_t frame_seed, base_image **out_gray,
                      base_image **out_colour, base_error *err)
{
    *out_gray = NULL;
    if (out_colour)
        *out_colour = NULL;
    if (p->style != DS_STYLE_REAL || optics->channels == 1) {
        /* The classic camera: light, blur, noise and JPEG on the gray picture. */
        base_image *img = base_image_clone(optics);
        if (!img)
            return base_error_set(err, "render: out of memory");
        cvs_effects fx = p->effects;
        fx.seed = frame_seed * 31 + 5;
        if ((p->sensor.light && light_gray(img, &p->sensor, err) < 0) || cvs_render_effects(img, &fx, err) < 0) {
            base_image_free(img);
            return -1;
        }
        *out_gray = img;
        return 0;
    }
    base_image *bgr = base_image_new(optics->width, optics->height, 3, 0);
    base_image *gray = base_image_new(optics->width, optics->height, 1, 0);
    cvs_sensor s = p->sensor;
    s.seed = frame_seed * 2654435761u + 7;
    if (p->auto_exposure > 0)
        s.exposure = ds_exposure_meter(optics, &s, p->auto_exposure);
    if (!bgr || !gray) {
        base_error_set(err, "render: out of memory");
        goto fail;
    }
    if (cvs_render_sensor(optics, &s, bgr, err) < 0 || cvs_render_jpeg_gray(bgr, p->effects.jpeg_quality, gray, err) < 0)
        goto fail;
    *out_gray = gray;
    if (out_colour)
        *out_colour = bgr;
    else
        base_image_free(bgr);
    return 0;
fail:
    base_image_free(bgr);
    base_image_free(gray);
    return -1;
}

int ds_render_colour(const rules_snapshot *snap, const roster_file *roster, const calib_file *calib,
                     const ds_render_params *p, base_image **out_gray, base_image **out_colour, ds_truth *truth,
                     base_error *err)
{
    base_image *optics = NULL;
    *out_gray = NULL;
    if (out_colour)
        *out_colour = NULL;
    if (ds_render_optics(snap, roster, calib, p, &optics, truth, err) < 0)
        return -1;
    int rc = ds_render_capture(optics, p, p->frame_seed ? p->frame_seed : p->seed, out_gray, out_colour, err);
    base_image_free(optics);
    if (rc < 0)
        ds_truth_clear(truth);
    return rc;
}

int ds_render(const rules_snapshot *snap, const roster_file *roster, const calib_file *calib,
              const ds_render_params *p, base_image **out_image, ds_truth *truth, base_error *err)
{
    return ds_render_colour(snap, roster, calib, p, out_image, NULL, truth, err);
}
