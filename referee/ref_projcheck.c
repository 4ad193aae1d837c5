/* ref_projcheck: the projector's alignment thrown, found and measured (see the header). */
#include "ref_projcheck.h"
#include "ref_proj_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib_projector.h"
#include "vis_board.h"

#define GRID_X 8
#define GRID_Y 5
#define EDGE_INSET_MM 20.0 /* marks keep off the board's edge (the table's rim, the board tags) */
#define MAX_WAIT_FRAMES 300

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool inverse3(const double m[9], double o[9])
{
    const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                       m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (!(fabs(det) > 1e-300))
        return false;
    o[0] = (m[4] * m[8] - m[5] * m[7]) / det, o[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    o[2] = (m[1] * m[5] - m[2] * m[4]) / det, o[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    o[4] = (m[0] * m[8] - m[2] * m[6]) / det, o[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    o[6] = (m[3] * m[7] - m[4] * m[6]) / det, o[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    o[8] = (m[0] * m[4] - m[1] * m[3]) / det;
    return true;
}

double ref_proj_limit_mm(const calib_projector *p)
{
    double fit = p && p->max_mm > 0 ? p->max_mm : p && p->rms_mm > 0 ? 3 * p->rms_mm : REF_PROJ_DEFAULT_LIMIT_MM;
    return fmax(fit, REF_PROJ_MIN_LIMIT_MM);
}

double ref_proj_latency_ms(const calib_projector *p)
{
    return p && p->latency_present && p->latency_ms >= 0 ? p->latency_ms : REF_PROJ_DEFAULT_LATENCY_MS;
}

/* Camera pixels per board mm at board point b (z = 0); 0 when it does not project. */
static double px_per_mm(const vis_camera *cam, base_vec2 b, double px[2])
{
    double X[3] = {b.x, b.y, 0}, Y[3] = {b.x + 1, b.y, 0}, Z[3] = {b.x, b.y + 1, 0}, qy[2], qz[2];
    if (!vis_camera_project(cam, X, px) || !vis_camera_project(cam, Y, qy) || !vis_camera_project(cam, Z, qz))
        return 0;
    return fmax(hypot(qy[0] - px[0], qy[1] - px[1]), hypot(qz[0] - px[0], qz[1] - px[1]));
}

/* The search window around a mark's place: half its side, px. */
static double window_half_px(double scale) { return (REF_PROJ_MARK_RADIUS_MM + REF_PROJ_SEARCH_MM) * scale + 2; }

/* Clear of every base, board tag and terrain piece, lit by the projector, seen by the camera. */
static bool mark_fits(const roster_file *r, const rules_snapshot *snap, const calib_file *c, const vis_camera *cam,
                      base_vec2 p)
{
    const double keep = REF_PROJ_CLEAR_MM + REF_PROJ_MARK_RADIUS_MM;
    for (size_t u = 0; u < snap->n_units; u++) {
        const rules_unit *un = &snap->units[u];
        for (size_t k = 0; k < un->n_models; k++) {
            const rules_model *m = &un->models[k];
            double w = m->base_width > 0 ? m->base_width : un->base_width;
            double d = m->base_depth > 0 ? m->base_depth : un->base_depth;
            if (hypot(p.x - m->pos.x, p.y - m->pos.y) < 0.5 * hypot(w, d) + keep)
                return false;
        }
    }
    for (size_t i = 0; i < r->n_board_tags; i++) /* the printed tag with its white border: ~1.5 x the black square */
        if (hypot(p.x - r->board_tags[i].x, p.y - r->board_tags[i].y) < 0.75 * sqrt(2.0) * r->board_tags[i].size + keep)
            return false;
    for (size_t t = 0; t < snap->n_terrain; t++) {
        const rules_terrain *tr = &snap->terrain[t];
        double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
        for (size_t i = 0; i < tr->n_points; i++)
            x0 = fmin(x0, tr->points[i].x), y0 = fmin(y0, tr->points[i].y), x1 = fmax(x1, tr->points[i].x),
            y1 = fmax(y1, tr->points[i].y);
        if (p.x > x0 - keep && p.x < x1 + keep && p.y > y0 - keep && p.y < y1 + keep)
            return false;
    }
    const calib_projector *pj = &c->projector;
    for (int k = 0; k < 5; k++) { /* the disc's centre and its four extremes in the projector's picture */
        double b[2] = {p.x + (k == 1 ? 1 : k == 2 ? -1 : 0) * REF_PROJ_MARK_RADIUS_MM,
                       p.y + (k == 3 ? 1 : k == 4 ? -1 : 0) * REF_PROJ_MARK_RADIUS_MM},
               q[2];
        if (!calib_projector_map(pj->H, b, q) || q[0] < 2 || q[1] < 2 || q[0] > pj->width - 3 || q[1] > pj->height - 3)
            return false;
    }
    double px[2], scale = px_per_mm(cam, p, px), half = window_half_px(scale);
    return scale > 0 && px[0] - half >= 1 && px[1] - half >= 1 && px[0] + half < c->width - 1 &&
           px[1] + half < c->height - 1;
}

int ref_proj_marks_place(const roster_file *r, const rules_snapshot *snap, const calib_file *c, ref_proj_marks *out,
                         base_error *err)
{
    memset(out, 0, sizeof *out);
    out->radius_mm = REF_PROJ_MARK_RADIUS_MM;
    if (!(out->at = malloc(REF_PROJ_MAX_MARKS * sizeof *out->at)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    vis_camera cam;
    vis_camera_init(&cam, c);
    const double W = snap->board_width > 0 ? snap->board_width : r->board_width;
    const double D = snap->board_depth > 0 ? snap->board_depth : r->board_depth;
    const double cw = (W - 2 * EDGE_INSET_MM) / GRID_X, cd = (D - 2 * EDGE_INSET_MM) / GRID_Y;
    /* One mark per cell of a grid over the board: its centre if that is clear, else the first clear of 5 x 5
     * places across the cell, so the marks stay spread out. */
    for (int gy = 0; gy < GRID_Y; gy++)
        for (int gx = 0; gx < GRID_X && out->n < REF_PROJ_MAX_MARKS; gx++)
            for (int k = -1; k < 25; k++) {
                const double fx = k < 0 ? 0.5 : (0.1 + 0.2 * (k % 5)), fy = k < 0 ? 0.5 : (0.1 + 0.2 * (k / 5));
                base_vec2 p = {EDGE_INSET_MM + (gx + fx) * cw, EDGE_INSET_MM + (gy + fy) * cd};
                if (mark_fits(r, snap, c, &cam, p)) {
                    out->at[out->n++] = p;
                    break;
                }
            }
    return 0;
}

void ref_proj_marks_clear(ref_proj_marks *m)
{
    free(m->at);
    memset(m, 0, sizeof *m);
}

base_image *ref_proj_marks_draw(const calib_projector *p, const ref_proj_marks *m, base_error *err)
{
    double Hi[9];
    if (!inverse3(p->H, Hi)) {
        base_error_set(err, "projector.board_to_projector: singular mapping");
        return NULL;
    }
    base_image *img = base_image_new(p->width, p->height, 1, 0);
    if (!img) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < m->n; i++) {
        double c[2] = {m->at[i].x, m->at[i].y}, q[2], e[2] = {c[0] + m->radius_mm, c[1]}, qe[2];
        if (!calib_projector_map(p->H, c, q) || !calib_projector_map(p->H, e, qe))
            continue;
        const int half = (int)ceil(2 * hypot(qe[0] - q[0], qe[1] - q[1])) + 2;
        for (int y = (int)q[1] - half; y <= (int)q[1] + half; y++)
            for (int x = (int)q[0] - half; x <= (int)q[0] + half; x++) {
                if (x < 0 || y < 0 || x >= img->width || y >= img->height)
                    continue;
                int in = 0; /* 4 x 4 samples of the pixel on the board: the disc's edge anti-aliased */
                for (int s = 0; s < 16; s++) {
                    double u[2] = {x - 0.375 + 0.25 * (s % 4), y - 0.375 + 0.25 * (s / 4)}, b[2];
                    in += calib_projector_map(Hi, u, b) && hypot(b[0] - c[0], b[1] - c[1]) <= m->radius_mm;
                }
                if (in)
                    img->data[(size_t)y * img->stride + (size_t)x] = (uint8_t)((in * 255 + 8) / 16);
            }
    }
    return img;
}

void ref_proj_camera(const vis_detector *det, const vis_tag_detection *tags, size_t n_tags, vis_camera *out)
{
    vis_camera_init(out, &det->calib);
    if (det->cfg.refine_pose_min_tags <= 0)
        return;
    double rms;
    int used;
    base_error e;
    vis_board_refine_pose(out, det->map, tags, n_tags, det->cfg.refine_pose_min_tags,
                          det->cfg.refine_pose_above_px, &rms, &used, &e);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted in place). */
static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n ? v[n / 2] : 0;
}

/*
 * One mark's centre in the camera, from the difference lit - dark (what stands still cancels: a figure's bright
 * spear tip beside the mark stays out of its centroid) smoothed by a 3 x 3 mean (b, over the window but its outer pixel): the centroid of b above half its peak over the
 * window's background. Not found: a peak under REF_PROJ_MIN_STEP or under 8 sigma of b's own noise in the
 * window (median absolute deviation: the mark covers a few percent of it), light at the window's edge, or a
 * blob not of one disc's size. The statistics are b's, not the pixels': a webcam's pixel noise in the
 * difference (sigma ~15 grey levels on the hard set's 4K webcam) would hide a 90-level mark from a test on
 * single pixels, and put noise pixels above half the peak all over the window.
 */
static bool find_mark(const base_image *dark, const base_image *lit, const double at[2], double scale, double out[2])
{
    const int half = (int)ceil(window_half_px(scale));
    const int x0 = (int)lround(at[0]) - half, y0 = (int)lround(at[1]) - half;
    const int x1 = (int)lround(at[0]) + half, y1 = (int)lround(at[1]) + half, w = x1 - x0 + 1;
    if (x0 < 0 || y0 < 0 || x1 >= lit->width || y1 >= lit->height || w < 5)
        return false;
    const size_t n = (size_t)w * (size_t)w;
    double *d = malloc(n * sizeof *d), *b = calloc(n, sizeof *b), *v = malloc(n * sizeof *v);
    bool found = false;
    if (!d || !b || !v)
        goto done;
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++)
            d[y * w + x] = lit->data[(size_t)(y0 + y) * lit->stride + (size_t)(x0 + x)] -
                           dark->data[(size_t)(y0 + y) * dark->stride + (size_t)(x0 + x)];
    size_t m = 0;
    double peak = -1e9;
    for (int y = 1; y < w - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            double sum = 0;
            for (int k = -1; k <= 1; k++)
                sum += d[(y + k) * w + x - 1] + d[(y + k) * w + x] + d[(y + k) * w + x + 1];
            b[y * w + x] = v[m++] = sum / 9;
            peak = fmax(peak, sum / 9);
        }
    const double med = median_of(v, m);
    for (size_t i = 0; i < m; i++)
        v[i] = fabs(v[i] - med);
    const double sigma = 1.4826 * median_of(v, m);
    if (peak - med < fmax(REF_PROJ_MIN_STEP, 8 * sigma))
        goto done;
    const double thr = med + (peak - med) / 2;
    double sw = 0, sx = 0, sy = 0;
    size_t above = 0;
    for (int y = 1; y < w - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            const double e = b[y * w + x] - thr;
            if (e < 0)
                continue;
            if (x == 1 || y == 1 || x == w - 2 || y == w - 2)
                goto done; /* light at the window's edge: another mark, or far off */
            sw += e, sx += e * (x0 + x), sy += e * (y0 + y), above++;
        }
    /* The disc above half its height covers about its own area; a far larger or smaller blob is not a mark. */
    const double area = BASE_PI * pow(REF_PROJ_MARK_RADIUS_MM * scale, 2);
    if (sw > 0 && (double)above <= 3 * area + 9 && (double)above >= 0.25 * area) {
        out[0] = sx / sw, out[1] = sy / sw;
        found = true;
    }
done:
    free(d);
    free(b);
    free(v);
    return found;
}

static void say(const ref_proj_result *r, const char *calib_name, char *msg, size_t cap)
{
    if (r->found < REF_PROJ_MIN_FOUND * (double)r->marks || r->marks == 0)
        snprintf(msg, cap,
                 "the camera finds %zu of the projector's %zu marks where %s's projector mapping puts them (within "
                 "%.0f mm): is the projector on, aimed at the table, and calibrated through this calibration?",
                 r->found, r->marks, calib_name, REF_PROJ_SEARCH_MM);
    else if (!r->ok)
        snprintf(msg, cap,
                 "the projector's marks land %.1f mm (median; worst %.1f mm at %.0f,%.0f mm) from where %s's projector "
                 "mapping puts them (limit %.1f mm): the projector has moved: calibrate it again (tableref calibrate "
                 "projector)",
                 r->median_mm, r->worst_mm, r->worst_at.x, r->worst_at.y, calib_name, r->limit_mm);
    else
        snprintf(msg, cap, "%.2f mm median, worst %.2f mm (limit %.1f mm), %zu/%zu marks found", r->median_mm,
                 r->worst_mm, r->limit_mm, r->found, r->marks);
}

int ref_proj_measure(const vis_camera *cam, const calib_projector *p, const ref_proj_marks *m, const base_image *dark,
                     const base_image *lit, const char *calib_name, ref_proj_result *out, base_error *err)
{
    const double t0 = mono_ms();
    memset(out, 0, sizeof *out);
    out->limit_mm = ref_proj_limit_mm(p);
    out->marks = m->n;
    if (dark->channels != 1 || lit->channels != 1 || dark->width != lit->width || dark->height != lit->height)
        return base_error_set(err, "projector check: the frames are not two gray pictures of one size");
    double *res = malloc((m->n ? m->n : 1) * 3 * sizeof *res), *dx = res + m->n, *dy = dx + m->n;
    if (!res)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    for (size_t i = 0; i < m->n; i++) {
        double at[2], c[2], X[3];
        const double scale = px_per_mm(cam, m->at[i], at);
        if (scale <= 0 || !find_mark(dark, lit, at, scale, c) || !vis_camera_pixel_to_plane(cam, c, 0, X))
            continue;
        const size_t k = out->found++;
        dx[k] = X[0] - m->at[i].x, dy[k] = X[1] - m->at[i].y;
        res[k] = hypot(dx[k], dy[k]);
        if (res[k] >= out->worst_mm)
            out->worst_mm = res[k], out->worst_at = m->at[i];
    }
    out->measured = true;
    if (out->found) {
        qsort(dx, out->found, sizeof *dx, cmp_double);
        qsort(dy, out->found, sizeof *dy, cmp_double);
        qsort(res, out->found, sizeof *res, cmp_double);
        out->shift = base_v2(dx[out->found / 2], dy[out->found / 2]);
        out->median_mm = res[out->found / 2];
    }
    out->ok = m->n > 0 && out->found >= REF_PROJ_MIN_FOUND * (double)m->n && out->worst_mm <= out->limit_mm;
    free(res);
    say(out, calib_name, out->msg, sizeof out->msg);
    out->ms = out->measure_ms = mono_ms() - t0;
    return 0;
}

/* Shows `pic` and reads frames until one taken at least `latency_ms` after the show, and `extra` more: a copy of it. */
static base_image *show_and_grab(const calib_loop *loop, const base_image *pic, double latency_ms, int extra,
                                 base_error *err)
{
    if (loop->show(loop->ctx, pic, err) < 0)
        return NULL;
    const double t_show = loop->now_ms(loop->ctx);
    int after = 0;
    for (int n = 0; n < MAX_WAIT_FRAMES; n++) {
        double t;
        const base_image *f = loop->grab(loop->ctx, &t, err);
        if (!f)
            return NULL;
        if (t >= t_show + latency_ms && ++after == 1 + extra)
            return f->channels == 1 ? base_image_clone(f) : base_image_to_gray(f);
    }
    base_error_set(err, "projector check: no frame from the camera %.0f ms after the projector's picture changed "
                        "(%d frames read)", latency_ms, MAX_WAIT_FRAMES);
    return NULL;
}

int ref_proj_run(const vis_camera *cam, const calib_projector *p, const ref_proj_marks *m, const calib_loop *loop,
                 double latency_ms, int extra_frames, const char *calib_name, ref_proj_result *out, base_error *err)
{
    const double t0 = mono_ms();
    memset(out, 0, sizeof *out);
    base_image *black = base_image_new(p->width, p->height, 1, 0), *marks = ref_proj_marks_draw(p, m, err);
    base_image *dark = NULL, *lit = NULL;
    int rc = -1;
    if (!black || !marks) {
        if (!black)
            base_error_setc(err, BASE_E_NOMEM, "out of memory");
    } else if ((dark = show_and_grab(loop, black, latency_ms, extra_frames, err)) &&
               (lit = show_and_grab(loop, marks, latency_ms, extra_frames, err)) &&
               loop->show(loop->ctx, black, err) == 0) {
        rc = ref_proj_measure(cam, p, m, dark, lit, calib_name, out, err);
    }
    out->ms = mono_ms() - t0;
    base_image_free(black);
    base_image_free(marks);
    base_image_free(dark);
    base_image_free(lit);
    return rc;
}

cJSON *ref_proj_result_to_json(const ref_proj_result *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddBoolToObject(o, "measured", r->measured);
    cJSON_AddBoolToObject(o, "ok", r->ok);
    cJSON_AddNumberToObject(o, "marks", (double)r->marks);
    cJSON_AddNumberToObject(o, "found", (double)r->found);
    if (r->found) {
        cJSON_AddNumberToObject(o, "median_mm", round(r->median_mm * 1e3) / 1e3);
        cJSON_AddNumberToObject(o, "worst_mm", round(r->worst_mm * 1e3) / 1e3);
        double at[2] = {round(r->worst_at.x * 10) / 10, round(r->worst_at.y * 10) / 10};
        double sh[2] = {round(r->shift.x * 1e3) / 1e3, round(r->shift.y * 1e3) / 1e3};
        cJSON_AddItemToObject(o, "worst_at_mm", cJSON_CreateDoubleArray(at, 2));
        cJSON_AddItemToObject(o, "shift_mm", cJSON_CreateDoubleArray(sh, 2));
    }
    cJSON_AddNumberToObject(o, "limit_mm", r->limit_mm);
    cJSON_AddNumberToObject(o, "ms", round(r->ms));
    cJSON_AddNumberToObject(o, "measure_ms", round(r->measure_ms * 10) / 10);
    cJSON_AddStringToObject(o, "message", r->msg);
    return o;
}
