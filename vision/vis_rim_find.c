/*
 * vis_rim_find: every rim label in a picture, whatever its code (vis_rim.h,
 * vis_rim_find). Each label has a checkerboard corner one cell in from each
 * of its corners; they are found by a ring test (the ChESS idea: samples on
 * a circle round a checkerboard corner alternate dark, light, dark, light,
 * opposite samples alike), each gives the label's axes and on which side
 * its middle lies, and the label is looked for there, in each layout of
 * the roster, by its four corner blocks: only when a second of its
 * corners' junctions responds near where it would be (second_corner), and
 * a label found where a worse one of its layout was found before takes
 * that one's place (a false find a cell off a true label gives way).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_parallel.h"
#include "vis_rim.h"
#include "vis_sample.h"

/* A checkerboard corner: where (px), how strong, which way its dark quadrants lie (image angle, rad, mod pi). */
typedef struct junction {
    double x, y, response, dark_dir;
} junction;

typedef struct ring {
    int n;
    double dx[8], dy[8];
} ring;

/* The ring test at (x, y): alternation minus opposite differences minus the centre's offset; the dark direction. */
static double ring_response(const base_view *im, const ring *r, double x, double y, double *dark_dir)
{
    double a[8];
    for (int k = 0; k < 8; k++)
        a[k] = vis_sample_bilinear(im, x + r->dx[k], y + r->dy[k]);
    const double sr = fabs(a[0] + a[4] - a[2] - a[6]) + fabs(a[1] + a[5] - a[3] - a[7]);
    const double dr = fabs(a[0] - a[4]) + fabs(a[1] - a[5]) + fabs(a[2] - a[6]) + fabs(a[3] - a[7]);
    double mean = 0;
    for (int k = 0; k < 8; k++)
        mean += a[k] / 8;
    const double centre = vis_sample_bilinear(im, x, y);
    if (dark_dir) {
        /* The second harmonic: light quadrants centred at -arg/2; the dark ones a quarter turn on. */
        const double re = a[0] - a[2] + a[4] - a[6], imag = -a[1] + a[3] - a[5] + a[7];
        *dark_dir = -0.5 * atan2(imag, re) + BASE_PI / 2;
    }
    return sr - dr - 2 * fabs(mean - centre);
}

typedef struct scan_job {
    const base_view *im;
    ring r;
    int x0, y0, x1, y1, step;
    double threshold;
    float *resp;         /* per grid point */
    int gw, gh;
} scan_job;

static void scan_rows(void *ctx, size_t band)
{
    scan_job *j = ctx;
    for (int gy = (int)band * 16; gy < (int)(band + 1) * 16 && gy < j->gh; gy++)
        for (int gx = 0; gx < j->gw; gx++) {
            const double x = j->x0 + gx * j->step, y = j->y0 + gy * j->step;
            j->resp[(size_t)gy * j->gw + gx] = (float)ring_response(j->im, &j->r, x, y, NULL);
        }
}

/* Local maxima of the response over the grid above the threshold, refined on the pixel grid. */
static int collect(const scan_job *j, junction **out, size_t *n)
{
    size_t cap = 256;
    *n = 0;
    *out = malloc(cap * sizeof **out);
    if (!*out)
        return -1;
    for (int gy = 1; gy + 1 < j->gh; gy++)
        for (int gx = 1; gx + 1 < j->gw; gx++) {
            const float v = j->resp[(size_t)gy * j->gw + gx];
            if (v < j->threshold)
                continue;
            bool top = true;
            for (int dy = -1; dy <= 1 && top; dy++)
                for (int dx = -1; dx <= 1 && top; dx++)
                    if ((dx || dy) && j->resp[(size_t)(gy + dy) * j->gw + gx + dx] > v)
                        top = false;
            if (!top)
                continue;
            junction best = {0};
            best.response = -1e9;
            for (int dy = -j->step + 1; dy < j->step; dy++)
                for (int dx = -j->step + 1; dx < j->step; dx++) {
                    double dir;
                    const double x = j->x0 + gx * j->step + dx, y = j->y0 + gy * j->step + dy;
                    const double r = ring_response(j->im, &j->r, x, y, &dir);
                    if (r > best.response)
                        best = (junction){x, y, r, dir};
                }
            if (*n == cap) {
                junction *m = realloc(*out, (cap *= 2) * sizeof **out);
                if (!m)
                    return -1;
                *out = m;
            }
            (*out)[(*n)++] = best;
        }
    return 0;
}

static int by_response(const void *a, const void *b)
{
    const junction *x = a, *y = b;
    return (x->response < y->response) - (x->response > y->response);
}

/* The board direction (rad) of image direction `a` at board point X (on its plane). */
static double board_dir(const vis_camera *cam, const double X[3], double a)
{
    double p0[2], px[2], py[2];
    const double Xx[3] = {X[0] + 1, X[1], X[2]}, Xy[3] = {X[0], X[1] + 1, X[2]};
    if (!vis_camera_project(cam, X, p0) || !vis_camera_project(cam, Xx, px) || !vis_camera_project(cam, Xy, py))
        return 0;
    const double J[2][2] = {{px[0] - p0[0], py[0] - p0[0]}, {px[1] - p0[1], py[1] - p0[1]}};
    const double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    if (fabs(det) < 1e-12)
        return 0;
    const double dx = cos(a), dy = sin(a);
    return atan2((-J[1][0] * dx + J[0][0] * dy) / det, (J[1][1] * dx - J[0][1] * dy) / det);
}

/* The label of layout L already found whose centre lies within 0.4 of its shorter side of board point (x, y); -1
 * when none. Labels of other layouts may overlap it: which layout a place holds is told by decoding
 * (vis_rim_units.c). */
static long taken_by(const vis_rim_found *f, const vis_rim_layout *L, double x, double y)
{
    for (size_t i = 0; i < f->n; i++) {
        const roster_rim *r = &f->items[i].layout->rim;
        if (f->items[i].layout == L && hypot(f->items[i].centre[0] - x, f->items[i].centre[1] - y) < 0.4 * fmin(r->width, r->depth))
            return (long)i;
    }
    return -1;
}

static bool taken(const vis_rim_found *f, const vis_rim_layout *L, double x, double y) { return taken_by(f, L, x, y) >= 0; }

static int add_label(vis_rim_found *f, const vis_rim_label *lab)
{
    if (f->n == f->cap) {
        const size_t cap = f->cap ? 2 * f->cap : 64;
        vis_rim_label *m = realloc(f->items, cap * sizeof *m);
        if (!m)
            return -1;
        f->items = m, f->cap = cap;
    }
    f->items[f->n++] = *lab;
    return 0;
}

/*
 * The labels a checkerboard corner at board point X (dark diagonal along
 * board direction `dark`) may belong to in layout L: the corner lies one
 * cell in from a label corner, the label's middle across the dark diagonal
 * on one side or the other, its width along either axis (an oblong label).
 */
/* A label's likelihood of being one: its clean cells (a phantom of another layout's grid straddles most), then its
 * corner blocks. */
static double quality(const vis_rim_label *a) { return a->clean + 0.1 * (a->corners - 2 * a->contradicted); }
static bool better(const vis_rim_label *a, const vis_rim_label *b) { return quality(a) > quality(b); }

/*
 * Two labels of another layout, each half the size, front and back: the
 * corners of the pair are the corners of one label twice as deep. Is the
 * label found two such labels? It is when the corner blocks where their
 * halves meet (where it has code cells) show: two or more of those four.
 */
static bool composite(const vis_camera *cam, const base_view *im, const vis_rim_book *book, const vis_rim_label *lab)
{
    const roster_rim *r = &lab->layout->rim;
    for (size_t k = 0; k < book->n; k++) {
        const roster_rim *h = &book->layouts[k].rim;
        if (book->layouts[k].n_models == 0 || fabs(h->width - r->width) > 1.5 || fabs(2 * h->depth - r->depth) > 2)
            continue;
        const double fx = cos(lab->heading), fy = sin(lab->heading), q = r->depth / 4;
        const double front[3] = {lab->centre[0] + q * fx, lab->centre[1] + q * fy, lab->centre[2]};
        const double back[3] = {lab->centre[0] - q * fx, lab->centre[1] - q * fy, lab->centre[2]};
        unsigned wf, wb;
        vis_rim_blocks_seen(cam, im, h, front, lab->heading, 0.45 * lab->contrast, &wf);
        vis_rim_blocks_seen(cam, im, h, back, lab->heading, 0.45 * lab->contrast, &wb);
        if (__builtin_popcount(wf & 12u) + __builtin_popcount(wb & 3u) >= 2)
            return true;
    }
    return false;
}

/* The strongest ring response on the scan's grid within `radius` px of (x, y). */
static double response_near(const scan_job *j, double x, double y, double radius)
{
    const int g0x = (int)floor((x - radius - j->x0) / j->step), g1x = (int)ceil((x + radius - j->x0) / j->step);
    const int g0y = (int)floor((y - radius - j->y0) / j->step), g1y = (int)ceil((y + radius - j->y0) / j->step);
    double best = -1e30;
    for (int gy = g0y < 0 ? 0 : g0y; gy <= g1y && gy < j->gh; gy++)
        for (int gx = g0x < 0 ? 0 : g0x; gx <= g1x && gx < j->gw; gx++)
            best = fmax(best, j->resp[(size_t)gy * j->gw + gx]);
    return best;
}

/*
 * Is a label with its centre at c (its front along `front`) worth locating?
 * Only when a second of its corners' checkerboard junctions responds near
 * where it would be (a label is found from two corner blocks or more, so
 * one that shows only the junction it was guessed from is not found
 * anyway): the scan's grid looked up, a few pixels and 5 degrees of the
 * guessed heading's error round each; most corners of a figure's pattern
 * stop here, before the search that costs a thousand times more.
 */
static bool second_corner(const vis_camera *cam, const scan_job *j, const roster_rim *r, const double c[3],
                          double front, double across, int side)
{
    const double a = r->width / 2 - r->margin_x - r->cell, b = r->depth / 2 - r->margin_y - r->cell;
    double pc[2];
    if (!vis_camera_project(cam, c, pc))
        return true;
    for (int k = 0; k < 4; k++) {
        const int sf = k & 1 ? 1 : -1, sa = k & 2 ? 1 : -1;
        if (sf == -side && sa == -side)
            continue; /* the junction it was guessed from */
        const double X[3] = {c[0] + sf * b * cos(front) + sa * a * cos(across),
                             c[1] + sf * b * sin(front) + sa * a * sin(across), c[2]};
        double px[2];
        if (!vis_camera_project(cam, X, px))
            continue;
        const double reach = 2 * hypot(px[0] - pc[0], px[1] - pc[1]);   /* from the guessed junction */
        if (response_near(j, px[0], px[1], 1.5 + 0.09 * reach) >= 0.5 * j->threshold)
            return true;
    }
    return false;
}

static int try_junction(const vis_camera *cam, const base_view *im, const vis_rim_book *book,
                        const vis_rim_layout *L, const double X[3], double dark, const vis_rim_params *p,
                        const scan_job *scan, const vis_rim_found *found, vis_rim_label *best)
{
    const roster_rim *r = &L->rim;
    const double a = r->width / 2 - r->margin_x - r->cell, b = r->depth / 2 - r->margin_y - r->cell;
    const int swaps = r->turns == 4 ? 1 : 2;
    int got = 0;
    for (int side = -1; side <= 1; side += 2)
        for (int sw = 0; sw < swaps; sw++) {
            /* The label's axes a quarter turn either side of the dark diagonal; the depth axis is its front. */
            const double e1 = dark + BASE_PI / 4, e2 = dark - BASE_PI / 4;
            const double front = sw ? e1 : e2, across = sw ? e2 : e1;
            const double c[3] = {X[0] + side * (b * cos(front) + a * cos(across)),
                                 X[1] + side * (b * sin(front) + a * sin(across)), X[2]};
            vis_rim_label lab;
            /* A place already found is looked at again: a label a cell off its true place (a figure's edge taken
             * for a corner block) gives way to a better one (vis_rim_find). */
            const long there = taken_by(found, L, c[0], c[1]);
            if ((there >= 0 && found->items[there].clean > 0.85) || !second_corner(cam, scan, r, c, front, across, side) ||
                !vis_rim_locate(cam, im, L, c, front, p, &lab) ||
                lab.corners - lab.contradicted < 2 || composite(cam, im, book, &lab))
                continue;
            if (!got || better(&lab, best))
                *best = lab, got = 1;
        }
    return got;
}

int vis_rim_find(const vis_camera *cam, const base_view *im, const vis_rim_book *book, const vis_rim_params *p,
                 int threads, const int roi[4], vis_rim_found *found)
{
    found->n = 0;
    if (book->n == 0)
        return 0;
    /* The smallest cell in pixels at the middle of the board decides the ring's radius. */
    double cell_px = 1e9;
    for (size_t k = 0; k < book->n; k++) {
        const vis_rim_layout *L = &book->layouts[k];
        double px0[2], px1[2], B[3], B1[3];
        const double c[2] = {0.5 * (roi[0] + roi[2]), 0.5 * (roi[1] + roi[3])};
        if (!vis_camera_pixel_to_plane(cam, c, L->z, B))
            continue;
        memcpy(B1, B, sizeof B1);
        B1[0] += L->rim.cell;
        if (vis_camera_project(cam, B, px0) && vis_camera_project(cam, B1, px1))
            cell_px = fmin(cell_px, hypot(px1[0] - px0[0], px1[1] - px0[1]));
    }
    if (!(cell_px < 1e9))
        return 0;
    scan_job j = {.im = im, .x0 = roi[0] + 3, .y0 = roi[1] + 3, .x1 = roi[2] - 3, .y1 = roi[3] - 3, .step = 2};
    const double radius = fmax(1.5, 0.55 * cell_px);
    j.r.n = 8;
    for (int k = 0; k < 8; k++)
        j.r.dx[k] = radius * cos(k * BASE_PI / 4), j.r.dy[k] = radius * sin(k * BASE_PI / 4);
    j.threshold = fmax(40, 0.6 * p->expect_contrast);
    j.gw = (j.x1 - j.x0) / j.step, j.gh = (j.y1 - j.y0) / j.step;
    if (j.gw < 3 || j.gh < 3)
        return 0;
    j.resp = malloc((size_t)j.gw * (size_t)j.gh * sizeof *j.resp);
    if (!j.resp)
        return -1;
    vis_parallel_for(threads, (size_t)(j.gh + 15) / 16, scan_rows, &j);
    junction *js = NULL;
    size_t nj = 0;
    int rc = collect(&j, &js, &nj);
    if (rc < 0) {
        free(j.resp);
        free(js);
        return -1;
    }
    qsort(js, nj, sizeof *js, by_response);
    for (size_t i = 0; i < nj && rc == 0; i++)
        /* In each layout, the best label this corner may belong to. */
        for (size_t k = 0; k < book->n && rc == 0; k++) {
            const vis_rim_layout *L = &book->layouts[k];
            double X[3];
            vis_rim_label lab;
            const double px[2] = {js[i].x, js[i].y};
            if (L->n_models == 0 || !vis_camera_pixel_to_plane(cam, px, L->z, X) || taken(found, L, X[0], X[1]))
                continue;
            if (!try_junction(cam, im, book, L, X, board_dir(cam, X, js[i].dark_dir), p, &j, found, &lab))
                continue;
            const long there = taken_by(found, L, lab.centre[0], lab.centre[1]);
            if (there < 0)
                rc = add_label(found, &lab);
            else if (better(&lab, &found->items[there]))
                found->items[there] = lab;
        }
    free(js);
    free(j.resp);
    return rc;
}

void vis_rim_found_clear(vis_rim_found *f)
{
    free(f->items);
    memset(f, 0, sizeof *f);
}
