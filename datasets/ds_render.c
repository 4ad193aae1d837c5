#include "ds_render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagStandard41h12.h>

#include "rules_json.h"
#include "vis_camera.h"

/* apriltag's corner order (p[0..3]) in the tag frame: a right, b up. */
const double ds_tag_corner_local[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

#define TEX_PX_PER_CELL 12

void ds_render_params_default(ds_render_params *p)
{
    memset(p, 0, sizeof *p);
    p->seed = 1;
    p->supersample = 2;
    p->textures = 1;
    p->figures = 1;
    p->figure_min_mm = 25;
    p->figure_max_mm = 35;
    p->figure_radius_mm = 6;
    p->figure_back_mm = 11;
    p->spear_fraction = 0.3;
    p->banner_fraction = 0.08;
    p->hands = 0;
    p->effects.light_gradient = 0.3;
    p->effects.light_angle = 0.7;
    p->effects.vignetting = 0.25;
    p->effects.blur_sigma_px = 0.7;
    p->effects.noise_sigma = 2.5;
    p->effects.jpeg_quality = 92;
}

void ds_truth_clear(ds_truth *t)
{
    if (!t)
        return;
    free(t->tags);
    memset(t, 0, sizeof *t);
}

/* splitmix64: small, seedable, the same everywhere. */
typedef struct rng {
    uint64_t s;
} rng;
static double rnd(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (z >> 11) * (1.0 / 9007199254740992.0);
}
static double rnd_in(rng *r, double a, double b) { return a + (b - a) * rnd(r); }

typedef struct ctx {
    vis_camera cam;
    double K[9];        /* ideal canvas pinhole */
    cvs_image *canvas;  /* ideal picture */
    cvs_image *mask;    /* 255 where a figure or hand hides what is below */
    rules_error *err;
} ctx;

/* Ideal canvas pixel of a board point; false when behind the camera. */
static int to_canvas(const ctx *c, const double X[3], double px[2])
{
    double xy[2];
    if (!vis_camera_project_normalised(&c->cam, X, xy))
        return 0;
    px[0] = c->K[0] * xy[0] + c->K[2];
    px[1] = c->K[4] * xy[1] + c->K[5];
    return 1;
}

static void mat3_mul(const double a[9], const double b[9], double out[9])
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    memcpy(out, t, sizeof t);
}

/* Homography from the plane z = h (board x, y in mm) to the ideal canvas. */
static void plane_homography(const ctx *c, double h, double H[9])
{
    const double *R = c->cam.c.R, *t = c->cam.c.t;
    double P[9];
    for (int i = 0; i < 3; i++) {
        P[3 * i + 0] = R[3 * i + 0];
        P[3 * i + 1] = R[3 * i + 1];
        P[3 * i + 2] = h * R[3 * i + 2] + t[i];
    }
    mat3_mul(c->K, P, H);
}

/* Draws a flat texture whose pixel (u, v) lies at board (A * (u, v, 1)) on plane z = h. */
static int draw_plane_texture(ctx *c, const cvs_image *tex, const double A[9], double h)
{
    double H[9];
    plane_homography(c, h, H);
    mat3_mul(H, A, H);
    return cvs_render_warp(c->canvas, tex, H, NULL, 0, c->err);
}

static int fill_board_poly(ctx *c, const rules_vec2 *pts, int n, double h, uint8_t value, int occluder)
{
    double xy[64];
    if (n > 32)
        n = 32;
    for (int i = 0; i < n; i++) {
        double X[3] = {pts[i].x, pts[i].y, h};
        if (!to_canvas(c, X, xy + 2 * i))
            return 0;
    }
    return cvs_render_fill_poly(c->canvas, xy, n, value, occluder ? c->mask : NULL, 255, c->err);
}

/* Convex hull (monotone chain) of canvas points, in place; returns the count. */
static int cmp_pt(const void *a, const void *b)
{
    const double *p = a, *q = b;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}
static double cross3(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}
static int hull(double *pts, int n, double *out)
{
    qsort(pts, (size_t)n, 2 * sizeof(double), cmp_pt);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross3(out + 2 * (k - 2), out + 2 * (k - 1), pts + 2 * i) <= 0)
            k--;
        out[2 * k] = pts[2 * i], out[2 * k + 1] = pts[2 * i + 1], k++;
    }
    for (int i = n - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && cross3(out + 2 * (k - 2), out + 2 * (k - 1), pts + 2 * i) <= 0)
            k--;
        out[2 * k] = pts[2 * i], out[2 * k + 1] = pts[2 * i + 1], k++;
    }
    return k - 1;
}

/* A solid of revolution approximated by stacked circles: hull of their projections. */
static int draw_solid(ctx *c, rules_vec2 at, const double *z, const double *radius, int levels, uint8_t value)
{
    enum { SEG = 20 };
    double pts[2 * SEG * 4], out[2 * SEG * 4 + 4];
    int n = 0;
    for (int l = 0; l < levels && l < 4; l++)
        for (int s = 0; s < SEG; s++) {
            double a = 2 * RULES_PI * s / SEG;
            double X[3] = {at.x + radius[l] * cos(a), at.y + radius[l] * sin(a), z[l]};
            if (!to_canvas(c, X, pts + 2 * n))
                return 0;
            n++;
        }
    int k = hull(pts, n, out);
    return cvs_render_fill_poly(c->canvas, out, k, value, c->mask, 255, c->err);
}

static int draw_line3(ctx *c, const double A[3], const double B[3], double width_mm, uint8_t value)
{
    double a[2], b[2];
    if (!to_canvas(c, A, a) || !to_canvas(c, B, b))
        return 0;
    /* Thickness from the depth of the midpoint. */
    double M[3] = {(A[0] + B[0]) / 2, (A[1] + B[1]) / 2, (A[2] + B[2]) / 2}, xy[2];
    double d = hypot(hypot(M[0] - c->cam.centre[0], M[1] - c->cam.centre[1]), M[2] - c->cam.centre[2]);
    (void)xy;
    return cvs_render_line(c->canvas, a[0], a[1], b[0], b[1], c->K[0] * width_mm / d, value, c->mask, 255,
                           c->err);
}

static cvs_image *tag_texture(apriltag_family_t *fam, int id)
{
    if (id < 0 || (uint32_t)id >= fam->ncodes)
        return NULL;
    image_u8_t *im = apriltag_to_image(fam, id);
    if (!im)
        return NULL;
    const int s = TEX_PX_PER_CELL;
    cvs_image *t = cvs_image_new(im->width * s, im->height * s, 1, 255);
    if (t)
        for (int y = 0; y < t->height; y++)
            for (int x = 0; x < t->width; x++)
                t->data[y * t->stride + x] = im->buf[(y / s) * im->stride + x / s] ? 235 : 25;
    image_u8_destroy(im);
    return t;
}

/* Texture -> board affine of a tag bitmap centred at c with heading th. */
static void tag_affine(const apriltag_family_t *fam, const cvs_image *tex, rules_vec2 c, double th, double size,
                       double A[9])
{
    const double S = size * fam->total_width / fam->width_at_border; /* whole bitmap, mm */
    const double N = tex->width;
    const rules_vec2 up = rules_v2(cos(th), sin(th)), right = rules_v2(sin(th), -cos(th));
    /* a = ((u + 0.5) / N - 0.5) S, b = (0.5 - (v + 0.5) / N) S */
    const double a0 = (0.5 / N - 0.5) * S, b0 = (0.5 - 0.5 / N) * S, k = S / N;
    A[0] = right.x * k, A[1] = -up.x * k, A[2] = c.x + right.x * a0 + up.x * b0;
    A[3] = right.y * k, A[4] = -up.y * k, A[5] = c.y + right.y * a0 + up.y * b0;
    A[6] = 0, A[7] = 0, A[8] = 1;
}

static void tag_corners_board(rules_vec2 c, double th, double size, double out[4][2])
{
    const rules_vec2 up = rules_v2(cos(th), sin(th)), right = rules_v2(sin(th), -cos(th));
    for (int k = 0; k < 4; k++) {
        double a = ds_tag_corner_local[k][0] * size / 2, b = ds_tag_corner_local[k][1] * size / 2;
        out[k][0] = c.x + a * right.x + b * up.x;
        out[k][1] = c.y + a * right.y + b * up.y;
    }
}

typedef struct placed_tag {
    int id;
    long model;
    rules_vec2 c;
    double heading, size, z;
} placed_tag;

static int fill_truth_tag(ctx *c, const apriltag_family_t *fam, const placed_tag *pt, ds_truth_tag *tt, int W,
                          int Hh)
{
    double bc[4][2], poly[8], outer[4][2], opoly[8];
    tag_corners_board(pt->c, pt->heading, pt->size, bc);
    /* The printed tag with its white border: a detector needs that quiet zone. */
    tag_corners_board(pt->c, pt->heading, pt->size * fam->total_width / fam->width_at_border, outer);
    int oin = 1;
    for (int k = 0; k < 4; k++) {
        double X[3] = {outer[k][0], outer[k][1], pt->z};
        oin &= to_canvas(c, X, opoly + 2 * k);
    }
    tt->id = pt->id;
    tt->model = pt->model;
    tt->inside = 1;
    for (int k = 0; k < 4; k++) {
        double X[3] = {bc[k][0], bc[k][1], pt->z};
        if (!vis_camera_project(&c->cam, X, tt->corners[k]) || !to_canvas(c, X, poly + 2 * k)) {
            tt->inside = 0;
            continue;
        }
        if (tt->corners[k][0] < 2 || tt->corners[k][1] < 2 || tt->corners[k][0] > W - 3 ||
            tt->corners[k][1] > Hh - 3)
            tt->inside = 0;
    }
    double X[3] = {pt->c.x, pt->c.y, pt->z};
    vis_camera_project(&c->cam, X, tt->centre);
    tt->occluded = tt->inside ? cvs_render_coverage(c->mask, poly, 4) : 1.0;
    tt->border_occluded = tt->inside && oin ? cvs_render_coverage(c->mask, opoly, 4) : 1.0;
    tt->fully_visible = tt->inside && tt->border_occluded == 0;
    return 0;
}

typedef struct fig_order {
    double dist;
    size_t unit, model;
} fig_order;
static int cmp_far_first(const void *a, const void *b)
{
    const fig_order *x = a, *y = b;
    return (x->dist < y->dist) - (x->dist > y->dist);
}

int ds_render(const rules_snapshot *snap, const vis_roster *roster, const calib_file *calib,
              const ds_render_params *p, cvs_image **out_image, ds_truth *truth, rules_error *err)
{
    int rc = -1;
    ctx c = {.err = err};
    vis_camera_init(&c.cam, calib);
    rng r = {.s = p->seed * 7919ull + 17};
    const int ss = p->supersample < 1 ? 1 : p->supersample;
    const int W = calib->width, Hh = calib->height;
    apriltag_family_t *fam = strcmp(roster->family, "tagStandard41h12") == 0 ? tagStandard41h12_create()
                                                                              : tag36h11_create();
    placed_tag *tags = calloc(roster->n_models + roster->n_board_tags + 1, sizeof *tags);
    fig_order *order = calloc(roster->n_models + 1, sizeof *order);
    cvs_image *boardtex = NULL, *img = NULL;
    size_t nt = 0;
    *out_image = NULL;
    memset(truth, 0, sizeof *truth);
    if (!fam || !tags || !order) {
        rules_error_set(err, "render: out of memory");
        goto done;
    }

    /* Ideal canvas: big enough for every ray the distorted frame sees. */
    double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
    for (int i = 0; i <= 64; i++)
        for (int side = 0; side < 4; side++) {
            double px[2], xy[2];
            double f = i / 64.0;
            px[0] = side == 0 ? f * W - 0.5 : side == 1 ? f * W - 0.5 : side == 2 ? -0.5 : W - 0.5;
            px[1] = side == 0 ? -0.5 : side == 1 ? Hh - 0.5 : f * Hh - 0.5;
            vis_camera_undistort(&c.cam, px, xy);
            xmin = fmin(xmin, xy[0]), xmax = fmax(xmax, xy[0]);
            ymin = fmin(ymin, xy[1]), ymax = fmax(ymax, xy[1]);
        }
    const double fx = calib->fx * ss, fy = calib->fy * ss;
    c.K[0] = fx, c.K[2] = -fx * xmin + 4;
    c.K[4] = fy, c.K[5] = -fy * ymin + 4;
    c.K[8] = 1;
    int cw = (int)ceil(fx * (xmax - xmin)) + 8, chh = (int)ceil(fy * (ymax - ymin)) + 8;
    c.canvas = cvs_image_new(cw, chh, 1, 45);
    c.mask = cvs_image_new(cw, chh, 1, 0);
    if (!c.canvas || !c.mask) {
        rules_error_set(err, "render: out of memory for a %dx%d canvas", cw, chh);
        goto done;
    }

    /* Board: a textured cloth/wood surface at z = 0. */
    {
        int tw = (int)ceil(roster->board_width / 2), td = (int)ceil(roster->board_depth / 2);
        boardtex = p->textures ? cvs_render_noise_texture(tw, td, p->seed + 101, 120, 35, 40, err)
                               : cvs_image_new(tw, td, 1, 120);
        if (!boardtex)
            goto done;
        double sx = roster->board_width / tw, sy = roster->board_depth / td;
        double A[9] = {sx, 0, 0.5 * sx, 0, sy, 0.5 * sy, 0, 0, 1};
        if (draw_plane_texture(&c, boardtex, A, 0) < 0)
            goto done;
    }
    /* Terrain: flat pieces with their own shade and a darker rim. */
    for (size_t i = 0; i < snap->n_terrain; i++) {
        const rules_terrain *t = &snap->terrain[i];
        uint8_t v = t->kind == RULES_TERRAIN_IMPASSABLE ? 70 : t->kind == RULES_TERRAIN_OBSTRUCTION ? 95 : 150;
        if (fill_board_poly(&c, t->points, (int)t->n_points, 0, v, 0) < 0)
            goto done;
        if (p->textures) {
            /* Scatter: small dark tufts inside the piece's bounding box. */
            double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
            for (size_t k = 0; k < t->n_points; k++) {
                x0 = fmin(x0, t->points[k].x), x1 = fmax(x1, t->points[k].x);
                y0 = fmin(y0, t->points[k].y), y1 = fmax(y1, t->points[k].y);
            }
            int n = (int)((x1 - x0) * (y1 - y0) / 400);
            for (int k = 0; k < n && k < 4000; k++) {
                rules_vec2 q = rules_v2(rnd_in(&r, x0, x1), rnd_in(&r, y0, y1));
                if (!rules_poly_contains(t->points, t->n_points, q))
                    continue;
                rules_vec2 tri[3] = {q, rules_v2(q.x + 3, q.y + 1), rules_v2(q.x + 1, q.y + 3)};
                if (fill_board_poly(&c, tri, 3, 0, (uint8_t)(v - 30 + 60 * rnd(&r)), 0) < 0)
                    goto done;
            }
        }
    }

    /* Bases and their printed tags. */
    for (size_t ui = 0; ui < snap->n_units; ui++) {
        const rules_unit *u = &snap->units[ui];
        for (size_t mi = 0; mi < u->n_models; mi++) {
            const rules_model *m = &u->models[mi];
            const vis_roster_model *rm = NULL;
            for (size_t k = 0; k < roster->n_models && !rm; k++)
                if (strcmp(roster->models[k].id, m->id) == 0)
                    rm = &roster->models[k];
            if (!rm) {
                rules_error_set(err, "render: model \"%s\" is not in the roster", m->id);
                goto done;
            }
            const vis_roster_unit *ru = &roster->units[rm->unit];
            const double h = ru->mount.height;
            rules_obb box = rules_model_base(u, m);
            rules_vec2 corners[4], pts8[8];
            rules_obb_corners(&box, corners);
            /* Sides: hull of the base's bottom and top outlines, darker. */
            double proj[16], hl[20];
            int ok = 1;
            for (int k = 0; k < 8; k++) {
                pts8[k] = corners[k % 4];
                double X[3] = {pts8[k].x, pts8[k].y, k < 4 ? 0 : h};
                ok &= to_canvas(&c, X, proj + 2 * k);
            }
            if (ok && cvs_render_fill_poly(c.canvas, hl, hull(proj, 8, hl), 40, NULL, 0, err) < 0)
                goto done;
            if (fill_board_poly(&c, corners, 4, h, (uint8_t)(70 + 30 * rnd(&r)), 0) < 0)
                goto done;
            placed_tag *pt = &tags[nt++];
            pt->id = rm->tag_id;
            pt->model = (long)(rm - roster->models);
            vis_tag_mount_place(&ru->mount, m->pos, m->facing, &pt->c, &pt->heading);
            pt->size = ru->mount.size;
            pt->z = h;
            order[nt - 1] = (fig_order){
                hypot(m->pos.x - c.cam.centre[0], m->pos.y - c.cam.centre[1]), ui, mi};
        }
    }
    size_t n_model_tags = nt;
    for (size_t i = 0; i < roster->n_board_tags; i++) {
        const vis_board_tag *b = &roster->board_tags[i];
        tags[nt++] = (placed_tag){b->id, -1, rules_v2(b->x, b->y), b->rotation, b->size, b->z};
    }
    for (size_t i = 0; i < nt; i++) {
        cvs_image *tex = tag_texture(fam, tags[i].id);
        if (!tex) {
            rules_error_set(err, "render: tag id %d is not in family %s", tags[i].id, roster->family);
            goto done;
        }
        double A[9];
        tag_affine(fam, tex, tags[i].c, tags[i].heading, tags[i].size, A);
        int wrc = draw_plane_texture(&c, tex, A, tags[i].z);
        cvs_image_free(tex);
        if (wrc < 0)
            goto done;
    }

    /* Miniatures, far ones first so near ones paint over them. */
    if (p->figures) {
        qsort(order, n_model_tags, sizeof *order, cmp_far_first);
        for (size_t i = 0; i < n_model_tags; i++) {
            const rules_unit *u = &snap->units[order[i].unit];
            const rules_model *m = &u->models[order[i].model];
            const vis_roster_model *rm = NULL;
            for (size_t k = 0; k < roster->n_models && !rm; k++)
                if (strcmp(roster->models[k].id, m->id) == 0)
                    rm = &roster->models[k];
            const double h = roster->units[rm->unit].mount.height;
            /* Per-model randomness from its id keeps figures stable when others move. */
            rng fr = {.s = p->seed * 131ull + (uint64_t)rm->tag_id * 977ull};
            double H = rnd_in(&fr, p->figure_min_mm, p->figure_max_mm), rad = p->figure_radius_mm;
            rules_vec2 at = rules_v2_add(m->pos, rules_v2_rot(rules_v2(-p->figure_back_mm, 0), m->facing));
            uint8_t shade = (uint8_t)rnd_in(&fr, 40, 190);
            double z[4] = {h, h + 0.55 * H, h + 0.85 * H, h + H};
            double rr[4] = {rad * 0.9, rad, rad * 0.8, rad * 0.45};
            if (draw_solid(&c, at, z, rr, 4, shade) < 0)
                goto done;
            double zt[2] = {h + 0.8 * H, h + H}, rt[2] = {rad * 0.55, rad * 0.45};
            if (draw_solid(&c, at, zt, rt, 2, (uint8_t)fmin(255, shade + 40)) < 0)
                goto done;
            double roll = rnd(&fr);
            if (roll < p->spear_fraction) {
                double dir = m->facing + rnd_in(&fr, -0.5, 0.5), elev = rnd_in(&fr, 0.25, 0.8);
                double len = rnd_in(&fr, 45, 70);
                double A[3] = {at.x, at.y, h + 0.6 * H};
                double B[3] = {A[0] + len * cos(elev) * cos(dir), A[1] + len * cos(elev) * sin(dir),
                               A[2] + len * sin(elev)};
                if (draw_line3(&c, A, B, 1.6, (uint8_t)rnd_in(&fr, 60, 160)) < 0)
                    goto done;
            } else if (roll < p->spear_fraction + p->banner_fraction) {
                double A[3] = {at.x, at.y, h}, B[3] = {at.x, at.y, h + H + 25};
                if (draw_line3(&c, A, B, 1.5, 90) < 0)
                    goto done;
                rules_vec2 back = rules_v2_rot(rules_v2(-20, 0), m->facing + rnd_in(&fr, -0.6, 0.6));
                double Q[4][3] = {{at.x, at.y, h + H + 25},
                                  {at.x + back.x, at.y + back.y, h + H + 25},
                                  {at.x + back.x, at.y + back.y, h + H + 8},
                                  {at.x, at.y, h + H + 8}};
                double q[8];
                int ok = 1;
                for (int k = 0; k < 4; k++)
                    ok &= to_canvas(&c, Q[k], q + 2 * k);
                if (ok && cvs_render_fill_poly(c.canvas, q, 4, (uint8_t)rnd_in(&fr, 30, 220), c.mask, 255, err) < 0)
                    goto done;
            }
        }
    }
    /* Hands: a palm and five fingers reaching in, 12-20 cm above the table. */
    for (int hnd = 0; hnd < p->hands; hnd++) {
        double hz = rnd_in(&r, 120, 200), ang = rnd_in(&r, 0, 2 * RULES_PI);
        rules_vec2 at = rules_v2(rnd_in(&r, 0, roster->board_width), rnd_in(&r, 0, roster->board_depth));
        rules_vec2 palm[24];
        for (int k = 0; k < 24; k++) {
            double a = 2 * RULES_PI * k / 24;
            palm[k] = rules_v2_add(at, rules_v2_rot(rules_v2(50 * cos(a), 42 * sin(a)), ang));
        }
        if (fill_board_poly(&c, palm, 24, hz, 175, 1) < 0)
            goto done;
        for (int f = 0; f < 5; f++) {
            double fa = ang + (f - 2) * 0.28 + (f == 0 ? -0.5 : 0);
            rules_vec2 base = rules_v2_add(at, rules_v2_rot(rules_v2(40, 0), fa));
            rules_vec2 tip = rules_v2_add(at, rules_v2_rot(rules_v2(f == 0 ? 85 : 115 - 8 * abs(f - 2), 0), fa));
            double A[3] = {base.x, base.y, hz}, B[3] = {tip.x, tip.y, hz - 10};
            if (draw_line3(&c, A, B, 17, 180) < 0)
                goto done;
        }
        /* The arm, back towards the table edge. */
        rules_vec2 wrist = rules_v2_add(at, rules_v2_rot(rules_v2(-45, 0), ang));
        rules_vec2 elbow = rules_v2_add(at, rules_v2_rot(rules_v2(-300, 0), ang));
        double A[3] = {wrist.x, wrist.y, hz}, B[3] = {elbow.x, elbow.y, hz + 150};
        if (draw_line3(&c, A, B, 60, 150) < 0)
            goto done;
    }

    /* Truth, from the same geometry. */
    truth->tags = calloc(nt ? nt : 1, sizeof *truth->tags);
    if (!truth->tags) {
        rules_error_set(err, "render: out of memory");
        goto done;
    }
    truth->width = W, truth->height = Hh;
    for (size_t i = 0; i < nt; i++)
        fill_truth_tag(&c, fam, &tags[i], &truth->tags[truth->n_tags++], W, Hh);

    /* Through the lens, then the sensor. */
    img = cvs_image_new(W, Hh, 1, 0);
    if (!img) {
        rules_error_set(err, "render: out of memory");
        goto done;
    }
    double ik[4] = {c.K[0], c.K[4], c.K[2], c.K[5]};
    cvs_lens lens = {calib->fx, calib->fy, calib->cx, calib->cy, {0}};
    memcpy(lens.dist, calib->dist, sizeof lens.dist);
    if (cvs_render_distort(c.canvas, ik, &lens, ss, img, err) < 0)
        goto done;
    cvs_effects fx_ = p->effects;
    fx_.seed = p->seed * 31 + 5;
    if (cvs_render_effects(img, &fx_, err) < 0)
        goto done;
    *out_image = img;
    img = NULL;
    rc = 0;
done:
    if (rc < 0)
        ds_truth_clear(truth);
    cvs_image_free(img);
    cvs_image_free(boardtex);
    cvs_image_free(c.canvas);
    cvs_image_free(c.mask);
    free(tags);
    free(order);
    if (fam)
        (strcmp(roster->family, "tagStandard41h12") == 0 ? tagStandard41h12_destroy : tag36h11_destroy)(fam);
    return rc;
}

cJSON *ds_truth_to_json(const ds_truth *t, const rules_snapshot *snap, const vis_roster *roster,
                        const calib_file *cam, const char *image_name)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    vis_camera vc;
    vis_camera_init(&vc, cam);
    cJSON_AddStringToObject(root, "format", "tableref.truth");
    cJSON_AddNumberToObject(root, "version", 1);
    if (image_name)
        cJSON_AddStringToObject(root, "image", image_name);
    cJSON_AddStringToObject(root, "pixel_convention", "opencv (centre of the top-left pixel is 0,0)");
    cJSON *models = cJSON_AddArrayToObject(root, "models");
    for (size_t ui = 0; ui < snap->n_units; ui++)
        for (size_t mi = 0; mi < snap->units[ui].n_models; mi++) {
            const rules_model *m = &snap->units[ui].models[mi];
            const vis_roster_model *rm = NULL;
            for (size_t k = 0; k < roster->n_models && !rm; k++)
                if (strcmp(roster->models[k].id, m->id) == 0)
                    rm = &roster->models[k];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "unit", snap->units[ui].id);
            cJSON_AddStringToObject(o, "id", m->id);
            if (rm)
                cJSON_AddNumberToObject(o, "tag_id", rm->tag_id);
            rules_json_add_number(o, "x_mm", m->pos.x, 4);
            rules_json_add_number(o, "y_mm", m->pos.y, 4);
            rules_json_add_number(o, "facing_deg", rules_rad_to_deg(m->facing), 4);
            double h = rm ? roster->units[rm->unit].mount.height : 0, X[3] = {m->pos.x, m->pos.y, h}, px[2];
            if (vis_camera_project(&vc, X, px)) {
                cJSON *a = cJSON_AddArrayToObject(o, "centre_px");
                cJSON_AddItemToArray(a, cJSON_CreateNumber(round(px[0] * 1e4) / 1e4));
                cJSON_AddItemToArray(a, cJSON_CreateNumber(round(px[1] * 1e4) / 1e4));
            }
            for (size_t k = 0; rm && k < t->n_tags; k++)
                if (t->tags[k].id == rm->tag_id)
                    cJSON_AddBoolToObject(o, "tag_fully_visible", t->tags[k].fully_visible != 0);
            cJSON_AddItemToArray(models, o);
        }
    cJSON *tags = cJSON_AddArrayToObject(root, "tags");
    for (size_t i = 0; i < t->n_tags; i++) {
        const ds_truth_tag *tt = &t->tags[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", tt->id);
        if (tt->model >= 0)
            cJSON_AddStringToObject(o, "model", roster->models[tt->model].id);
        else
            cJSON_AddStringToObject(o, "model", "board");
        cJSON *cs = cJSON_AddArrayToObject(o, "corners_px");
        for (int k = 0; k < 4; k++) {
            cJSON *pt = cJSON_CreateArray();
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(tt->corners[k][0] * 1e4) / 1e4));
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(tt->corners[k][1] * 1e4) / 1e4));
            cJSON_AddItemToArray(cs, pt);
        }
        rules_json_add_number(o, "occluded_fraction", tt->occluded, 4);
        rules_json_add_number(o, "printed_occluded_fraction", tt->border_occluded, 4);
        cJSON_AddBoolToObject(o, "inside_frame", tt->inside != 0);
        cJSON_AddBoolToObject(o, "fully_visible", tt->fully_visible != 0);
        cJSON_AddItemToArray(tags, o);
    }
    return root;
}
