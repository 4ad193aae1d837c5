#include "calib_camera.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_text.h"
#include "vis_camera.h"

#define RAD2DEG (180.0 / 3.14159265358979323846)

void calib_camera_options_default(calib_camera_options *o)
{
    *o = (calib_camera_options){.flags = CVS_CALIB_FIX_K3, .max_tilt_deg = 70, .min_points = 12, .outlier_factor = 3,
                                .min_views = 3, .recommended_views = 10, .table_distance_mm = 1400, .samples = 400,
                                .seed = 1};
}

const char *calib_view_status_name(calib_view_status s)
{
    switch (s) {
    case CALIB_VIEW_USED: return "used";
    case CALIB_VIEW_NOT_FOUND: return "target not found";
    case CALIB_VIEW_TOO_FEW: return "too few points";
    case CALIB_VIEW_TOO_OBLIQUE: return "too oblique";
    case CALIB_VIEW_WRONG_SIZE: return "wrong image size";
    case CALIB_VIEW_OUTLIER: return "outlier";
    }
    return "?";
}

typedef struct cam_priv {
    calib_target_finder *finder;
    calib_camera_options opt;   /* options of the last solve */
} cam_priv;

calib_camera *calib_camera_new(const calib_target *t, base_error *err)
{
    calib_camera *cc = calloc(1, sizeof *cc);
    cam_priv *p = calloc(1, sizeof *p);
    if (!cc || !p) {
        free(cc);
        free(p);
        base_error_set(err, "out of memory");
        return NULL;
    }
    cc->target = *t;
    cc->priv = p;
    if (!(p->finder = calib_target_finder_new(t, err))) {
        calib_camera_free(cc);
        return NULL;
    }
    return cc;
}

void calib_camera_free(calib_camera *cc)
{
    if (!cc)
        return;
    for (size_t i = 0; i < cc->n_views; i++) {
        free(cc->views[i].obj);
        free(cc->views[i].img);
    }
    free(cc->views);
    cam_priv *p = cc->priv;
    if (p)
        calib_target_finder_free(p->finder);
    free(p);
    free(cc);
}

static calib_view *new_view(calib_camera *cc, const char *name, base_error *err)
{
    if (cc->n_views == cc->cap_views) {
        size_t cap = cc->cap_views ? 2 * cc->cap_views : 16;
        calib_view *v = realloc(cc->views, cap * sizeof *v);
        if (!v) {
            base_error_set(err, "out of memory");
            return NULL;
        }
        cc->views = v;
        cc->cap_views = cap;
    }
    calib_view *v = &cc->views[cc->n_views++];
    memset(v, 0, sizeof *v);
    base_text_copy(v->name, sizeof v->name, name ? name : "?"); /* cut on a character boundary */
    return v;
}

static int reject(calib_view *v, calib_view_status s, const char *fmt, double a, double b)
{
    v->status = s;
    snprintf(v->why, sizeof v->why, fmt, a, b);
    return 0;
}

/*
 * How foreshortened the target looks: the local Jacobian of the target ->
 * image homography at the points' centroid, ratio of its singular values.
 * For a pinhole this is cos(tilt) near the optical axis, and needs no
 * intrinsics, so too-oblique views are caught before calibrating.
 */
static int foreshortening(const calib_view *v, double *ratio, base_error *err)
{
    double *src = malloc(2 * sizeof(double) * (size_t)v->n);
    if (!src)
        return base_error_set(err, "out of memory");
    double mx = 0, my = 0;
    for (int i = 0; i < v->n; i++) {
        src[2 * i] = v->obj[3 * i];
        src[2 * i + 1] = v->obj[3 * i + 1];
        mx += src[2 * i] / v->n;
        my += src[2 * i + 1] / v->n;
    }
    double H[9];
    int rc = cvs_find_homography(src, v->img, v->n, 5.0, H, NULL, err);
    free(src);
    if (rc < 0)
        return -1;
    double w = H[6] * mx + H[7] * my + H[8];
    double u = (H[0] * mx + H[1] * my + H[2]) / w, vv = (H[3] * mx + H[4] * my + H[5]) / w;
    double a = (H[0] - u * H[6]) / w, b = (H[1] - u * H[7]) / w;
    double c = (H[3] - vv * H[6]) / w, d = (H[4] - vv * H[7]) / w;
    /* Singular values of [[a b][c d]]. */
    double s1 = hypot(a + d, c - b) / 2, s2 = hypot(a - d, c + b) / 2;
    double hi = s1 + s2, lo = fabs(s1 - s2);
    *ratio = hi > 0 ? lo / hi : 0;
    return 0;
}

static int check_view(calib_camera *cc, calib_view *v, base_error *err)
{
    if (v->n < 4)
        return reject(v, CALIB_VIEW_TOO_FEW, "only %.0f points found (need at least %.0f)", v->n, 4);
    double r = 0;
    if (foreshortening(v, &r, err) < 0)
        return -1;
    v->foreshortening = r;
    (void)cc;
    return 1;
}

int calib_camera_add_points(calib_camera *cc, const char *name, int width, int height, int n, const double *obj,
                            const double *img, base_error *err)
{
    calib_view *v = new_view(cc, name, err);
    if (!v)
        return -1;
    if (cc->width == 0)
        cc->width = width, cc->height = height;
    if (width != cc->width || height != cc->height) {
        v->status = CALIB_VIEW_WRONG_SIZE;
        snprintf(v->why, sizeof v->why, "%dx%d px, but the first view is %dx%d", width, height, cc->width,
                 cc->height);
        return 0;
    }
    v->n = n;
    v->obj = malloc(3 * sizeof(double) * (size_t)(n > 0 ? n : 1));
    v->img = malloc(2 * sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!v->obj || !v->img)
        return base_error_set(err, "out of memory");
    if (n > 0) {
        memcpy(v->obj, obj, 3 * sizeof(double) * (size_t)n);
        memcpy(v->img, img, 2 * sizeof(double) * (size_t)n);
    }
    if (n == 0) {
        v->status = CALIB_VIEW_NOT_FOUND;
        snprintf(v->why, sizeof v->why, "no %s found",
                 cc->target.kind == CALIB_TARGET_CHESSBOARD ? "chessboard (all inner corners)" : "target tag");
        return 0;
    }
    return check_view(cc, v, err);
}

int calib_camera_add_image(calib_camera *cc, const base_image *img, const char *name, base_error *err)
{
    cam_priv *p = cc->priv;
    calib_target_points pts = {0};
    int rc = calib_target_find(p->finder, img, &pts, err);
    if (rc < 0)
        return -1;
    rc = calib_camera_add_points(cc, name, img->width, img->height, pts.n, pts.obj, pts.img, err);
    calib_target_points_clear(&pts);
    if (rc == 0 && cc->views[cc->n_views - 1].status == CALIB_VIEW_NOT_FOUND &&
        cc->target.kind == CALIB_TARGET_CHESSBOARD)
        snprintf(cc->views[cc->n_views - 1].why, sizeof cc->views[0].why,
                 "no %dx%d chessboard found (inner corners; is the whole board in the picture?)", cc->target.cols,
                 cc->target.rows);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One calibrateCamera over the views whose status is USED. */
static int solve_once(calib_camera *cc, unsigned flags, base_error *err)
{
    int nv = 0, np = 0;
    for (size_t i = 0; i < cc->n_views; i++)
        if (cc->views[i].status == CALIB_VIEW_USED)
            nv++, np += cc->views[i].n;
    int *counts = malloc(sizeof(int) * (size_t)nv);
    double *obj = malloc(3 * sizeof(double) * (size_t)np), *img = malloc(2 * sizeof(double) * (size_t)np);
    double *rms = malloc(sizeof(double) * (size_t)nv), *R = malloc(9 * sizeof(double) * (size_t)nv),
           *t = malloc(3 * sizeof(double) * (size_t)nv);
    int rc = -1;
    if (!counts || !obj || !img || !rms || !R || !t) {
        base_error_set(err, "out of memory");
        goto done;
    }
    for (size_t i = 0, k = 0, j = 0; i < cc->n_views; i++) {
        const calib_view *v = &cc->views[i];
        if (v->status != CALIB_VIEW_USED)
            continue;
        counts[j++] = v->n;
        memcpy(obj + 3 * k, v->obj, 3 * sizeof(double) * (size_t)v->n);
        memcpy(img + 2 * k, v->img, 2 * sizeof(double) * (size_t)v->n);
        k += (size_t)v->n;
    }
    memset(&cc->res, 0, sizeof cc->res);
    cc->res.lens.fx = cc->res.lens.fy = 1; /* aspect 1 when FIX_ASPECT */
    if (cvs_calibrate_camera(nv, counts, obj, img, cc->width, cc->height, flags, &cc->res, rms, R, t, err) < 0)
        goto done;
    for (size_t i = 0, j = 0; i < cc->n_views; i++) {
        calib_view *v = &cc->views[i];
        if (v->status != CALIB_VIEW_USED)
            continue;
        v->rms_px = rms[j];
        memcpy(v->R, R + 9 * j, sizeof v->R);
        memcpy(v->t, t + 3 * j, sizeof v->t);
        v->tilt_deg = acos(fmin(1.0, fabs(v->R[8]))) * RAD2DEG;
        j++;
    }
    cc->used = nv;
    rc = 0;
done:
    free(counts);
    free(obj);
    free(img);
    free(rms);
    free(R);
    free(t);
    return rc;
}

static void advise(calib_camera *cc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void advise(calib_camera *cc, const char *fmt, ...)
{
    if (cc->n_advice >= CALIB_CAMERA_MAX_ADVICE)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cc->advice[cc->n_advice++], sizeof cc->advice[0], fmt, ap);
    va_end(ap);
}

static void make_advice(calib_camera *cc, const calib_camera_options *o)
{
    cc->n_advice = 0;
    if (cc->used < o->recommended_views)
        advise(cc, "too few views: %d usable; take %d more (%d-20 in all), the target filling different parts of "
                   "the frame",
               cc->used, o->recommended_views - cc->used, o->recommended_views);
    /* Where in the frame the corners fell: a 4x4 grid. */
    int cells[4][4] = {{0}};
    for (size_t i = 0; i < cc->n_views; i++) {
        const calib_view *v = &cc->views[i];
        if (v->status != CALIB_VIEW_USED)
            continue;
        for (int k = 0; k < v->n; k++) {
            int cx = (int)(4 * v->img[2 * k] / cc->width), cy = (int)(4 * v->img[2 * k + 1] / cc->height);
            if (cx >= 0 && cx < 4 && cy >= 0 && cy < 4)
                cells[cy][cx]++;
        }
    }
    int filled = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            filled += cells[y][x] > 0;
    cc->coverage = filled / 16.0;
    static const char *names[4] = {"top-left", "top-right", "bottom-left", "bottom-right"};
    const int corner_xy[4][2] = {{0, 0}, {3, 0}, {0, 3}, {3, 3}};
    char missing[128] = "";
    for (int c = 0; c < 4; c++)
        if (!cells[corner_xy[c][1]][corner_xy[c][0]]) {
            if (*missing)
                strncat(missing, ", ", sizeof missing - strlen(missing) - 1);
            strncat(missing, names[c], sizeof missing - strlen(missing) - 1);
        }
    if (*missing)
        advise(cc, "no views near the image corners (%s): distortion is strongest there; hold the target so it "
                   "reaches each corner in turn",
               missing);
    else if (cc->coverage < 0.75)
        advise(cc, "the target covered only %.0f%% of the frame: move it over the whole picture",
               100 * cc->coverage);
    if (cc->max_tilt_deg < 20)
        advise(cc, "all views frontal (largest tilt %.0f deg): tilt the target 30-45 deg towards each side; frontal "
                   "views cannot separate the focal length from the distance",
               cc->max_tilt_deg);
    if (cc->res.rms_px > 1.0)
        advise(cc, "RMS reprojection error %.2f px is high: blurred or moving photos, or a target that is not flat",
               cc->res.rms_px);
    if (cc->res.std[0] > 0.01 * cc->res.lens.fx)
        advise(cc, "the focal length is uncertain by %.1f%%: add tilted views at different distances",
               100 * cc->res.std[0] / cc->res.lens.fx);
    if (cc->board_rms_mm > 1.0)
        advise(cc, "expected position error %.2f mm at %.0f mm from the table is above 1 mm: take more views, "
                   "especially near the corners",
               cc->board_rms_mm, cc->table_distance_mm);
}

int calib_camera_solve(calib_camera *cc, const calib_camera_options *o, base_error *err)
{
    cam_priv *p = cc->priv;
    p->opt = *o;
    cc->table_distance_mm = o->table_distance_mm;
    const double min_ratio = cos(o->max_tilt_deg / RAD2DEG);
    int usable = 0;
    for (size_t i = 0; i < cc->n_views; i++) {
        calib_view *v = &cc->views[i];
        if (v->status == CALIB_VIEW_OUTLIER)
            v->status = CALIB_VIEW_USED; /* a new solve judges afresh */
        if (v->status != CALIB_VIEW_USED)
            continue;
        if (v->n < o->min_points)
            reject(v, CALIB_VIEW_TOO_FEW, "only %.0f points found (need %.0f)", v->n, o->min_points);
        else if (v->foreshortening < min_ratio)
            reject(v, CALIB_VIEW_TOO_OBLIQUE, "seen about %.0f deg off the target's normal (limit %.0f deg)",
                   acos(v->foreshortening) * RAD2DEG, o->max_tilt_deg);
        else
            usable++;
    }
    if (usable < o->min_views)
        return base_error_set(err, "calibration: %d usable view%s of %zu, need at least %d", usable,
                               usable == 1 ? "" : "s", cc->n_views, o->min_views);
    if (solve_once(cc, o->flags, err) < 0)
        return -1;
    /* Outliers: a view far worse than the others (blur, motion, misdetection) drags every parameter. */
    double *r = malloc(sizeof(double) * (size_t)cc->used);
    if (!r)
        return base_error_set(err, "out of memory");
    int k = 0;
    for (size_t i = 0; i < cc->n_views; i++)
        if (cc->views[i].status == CALIB_VIEW_USED)
            r[k++] = cc->views[i].rms_px;
    qsort(r, (size_t)k, sizeof *r, cmp_double);
    double median = k % 2 ? r[k / 2] : 0.5 * (r[k / 2 - 1] + r[k / 2]);
    free(r);
    /* outlier_factor 0: keep every view (to compare with a published calibration). */
    const double limit = o->outlier_factor > 0 ? fmax(1.0, o->outlier_factor * median) : INFINITY;
    int dropped = 0;
    for (size_t i = 0; i < cc->n_views; i++) {
        calib_view *v = &cc->views[i];
        if (v->status == CALIB_VIEW_USED && v->rms_px > limit && usable - dropped > o->min_views) {
            reject(v, CALIB_VIEW_OUTLIER, "reprojection error %.2f px, above %.2f px (3x the median view)", v->rms_px,
                   limit);
            dropped++;
        }
    }
    if (dropped && solve_once(cc, o->flags, err) < 0)
        return -1;
    cc->max_tilt_deg = 0;
    for (size_t i = 0; i < cc->n_views; i++)
        if (cc->views[i].status == CALIB_VIEW_USED)
            cc->max_tilt_deg = fmax(cc->max_tilt_deg, cc->views[i].tilt_deg);
    cc->board_rms_mm = cc->board_p95_mm = 0;
    if (o->table_distance_mm > 0 && o->samples > 0 &&
        calib_camera_board_error_mc(&cc->res, cc->width, cc->height, o->table_distance_mm, o->samples, o->seed,
                                    &cc->board_rms_mm, &cc->board_p95_mm, err) < 0)
        return -1;
    make_advice(cc, o);
    return 0;
}

void calib_camera_to_file(const calib_camera *cc, calib_file *out)
{
    memset(out, 0, sizeof *out);
    out->width = cc->width, out->height = cc->height;
    out->fx = cc->res.lens.fx, out->fy = cc->res.lens.fy;
    out->cx = cc->res.lens.cx, out->cy = cc->res.lens.cy;
    memcpy(out->dist, cc->res.lens.dist, sizeof out->dist);
    out->pose_missing = 1;
    out->quality.present = 1;
    out->quality.views = cc->used;
    out->quality.rms_px = cc->res.rms_px;
    memcpy(out->quality.std, cc->res.std, sizeof out->quality.std);
    out->quality.table_distance_mm = cc->table_distance_mm;
    out->quality.board_error_mm = cc->board_rms_mm;
}

/* ---- from pixels to millimetres --------------------------------------- */

static void lens_to_file(const cvs_lens *l, int w, int h, calib_file *c)
{
    memset(c, 0, sizeof *c);
    c->width = w, c->height = h;
    c->fx = l->fx, c->fy = l->fy, c->cx = l->cx, c->cy = l->cy;
    memcpy(c->dist, l->dist, sizeof c->dist);
}

int calib_camera_board_error(const cvs_lens *truth, const cvs_lens *est, int width, int height, double distance_mm,
                             double *rms_mm, double *max_mm, base_error *err)
{
    /* Straight down: camera x along board x, camera y along board -y. */
    static const double R0[9] = {1, 0, 0, 0, -1, 0, 0, 0, -1};
    calib_file ct, ce;
    lens_to_file(truth, width, height, &ct);
    memcpy(ct.R, R0, sizeof R0);
    ct.t[2] = distance_mm;
    vis_camera cam_t, cam_e;
    vis_camera_init(&cam_t, &ct);
    /* Four 30 mm reference tags near the frame's corners, 4 corners each. */
    double obj[16 * 3], img[16 * 2];
    const double at[4][2] = {{0.08, 0.08}, {0.92, 0.08}, {0.92, 0.92}, {0.08, 0.92}};
    const double cl[4][2] = {{-15, -15}, {15, -15}, {15, 15}, {-15, 15}};
    for (int i = 0; i < 4; i++) {
        double px[2] = {at[i][0] * (width - 1), at[i][1] * (height - 1)}, X[3];
        if (!vis_camera_pixel_to_plane(&cam_t, px, 0, X))
            return base_error_set(err, "board error: reference ray misses the board");
        for (int k = 0; k < 4; k++) {
            double *o = obj + 3 * (4 * i + k);
            o[0] = X[0] + cl[k][0], o[1] = X[1] + cl[k][1], o[2] = 0;
            if (!vis_camera_project(&cam_t, o, img + 2 * (4 * i + k)))
                return base_error_set(err, "board error: reference behind the camera");
        }
    }
    lens_to_file(est, width, height, &ce);
    memcpy(ce.R, R0, sizeof R0);
    memcpy(ce.t, ct.t, sizeof ce.t);
    if (cvs_solve_pnp(obj, img, 16, est, 1, ce.R, ce.t, err) < 0)
        return -1;
    vis_camera_init(&cam_e, &ce);
    double ss = 0, mx = 0;
    int n = 0;
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 9; i++) {
            double px[2] = {(0.03 + 0.94 * i / 8) * (width - 1), (0.03 + 0.94 * j / 6) * (height - 1)}, A[3], B[3];
            if (!vis_camera_pixel_to_plane(&cam_t, px, 0, A) || !vis_camera_pixel_to_plane(&cam_e, px, 0, B))
                return base_error_set(err, "board error: a ray misses the board");
            double d = hypot(A[0] - B[0], A[1] - B[1]);
            ss += d * d, mx = fmax(mx, d), n++;
        }
    *rms_mm = sqrt(ss / n);
    if (max_mm)
        *max_mm = mx;
    return 0;
}

/* splitmix64 and Box-Muller: seedable and the same everywhere. */
static double uniform(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return ((z >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
static double gauss(uint64_t *s)
{
    double u = uniform(s), v = uniform(s);
    return sqrt(-2 * log(u)) * cos(2 * 3.14159265358979323846 * v);
}

int calib_camera_board_error_mc(const cvs_calib_result *res, int width, int height, double distance_mm, int samples,
                                uint32_t seed, double *rms_mm, double *p95_mm, base_error *err)
{
    enum { P = CVS_CALIB_NPARAM };
    /* Cholesky of the covariance; fixed parameters have zero rows and stay put. */
    double L[P * P] = {0};
    for (int j = 0; j < P; j++) {
        double d = res->cov[j * P + j];
        for (int k = 0; k < j; k++)
            d -= L[j * P + k] * L[j * P + k];
        if (!(d > 1e-18 * (1 + fabs(res->cov[j * P + j]))))
            continue; /* zero (fixed) or fully determined by the others */
        L[j * P + j] = sqrt(d);
        for (int i = j + 1; i < P; i++) {
            double s = res->cov[i * P + j];
            for (int k = 0; k < j; k++)
                s -= L[i * P + k] * L[j * P + k];
            L[i * P + j] = s / L[j * P + j];
        }
    }
    double *per = malloc(sizeof(double) * (size_t)(samples > 0 ? samples : 1));
    if (!per)
        return base_error_set(err, "out of memory");
    uint64_t state = 0x5DEECE66Dull * (seed + 1);
    double ss = 0;
    for (int s = 0; s < samples; s++) {
        double z[P], d[P] = {0};
        for (int i = 0; i < P; i++)
            z[i] = gauss(&state);
        for (int i = 0; i < P; i++)
            for (int k = 0; k <= i; k++)
                d[i] += L[i * P + k] * z[k];
        cvs_lens e = res->lens;
        e.fx += d[0], e.fy += d[1], e.cx += d[2], e.cy += d[3];
        for (int i = 0; i < 5; i++)
            e.dist[i] += d[4 + i];
        double r;
        if (calib_camera_board_error(&res->lens, &e, width, height, distance_mm, &r, NULL, err) < 0) {
            free(per);
            return -1;
        }
        per[s] = r;
        ss += r * r;
    }
    qsort(per, (size_t)samples, sizeof *per, cmp_double);
    *rms_mm = samples > 0 ? sqrt(ss / samples) : 0;
    *p95_mm = samples > 0 ? per[(int)floor(0.95 * (samples - 1))] : 0;
    free(per);
    return 0;
}
