#include "calib_file.h"

#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base_fields.h"
#include "base_json.h"

/* The keys each object of a calibration file may hold (base_fields_known).
 * A new field is one more key here and a line in docs/formats.md. */
static const char *const v1_keys[] = {"format", "version", "image_size", "camera", "distortion", "board_pose", NULL};
static const char *const v2_keys[] = {"format",     "version",        "image_size", "camera",
                                      "distortion", "board_pose",     "camera_quality", "projector", NULL};
static const char *const camera_keys[] = {"fx", "fy", "cx", "cy", NULL};
static const char *const pose_keys[] = {"rotation", "translation_mm", NULL};
static const char *const quality_keys[] = {"views", "rms_px", "std", "table_distance_mm", "board_error_mm", NULL};
static const char *const std_keys[] = {"fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3", NULL};
static const char *const projector_keys[] = {"size",           "board_to_projector", "rms_mm",
                                             "max_mm",         "points",             "position_mm",
                                             "latency_frames", "latency_ms",         "brightness_ratio",
                                             "made_with",      NULL};
static const char *const made_with_keys[] = {"image_size", "board_pose", NULL};

/* Ranges (docs/formats.md, "Limits"). */
#define MAX_FOCAL_PX 1e6          /* a 100 mm lens on 1 um pixels is 1e5 px */
#define MAX_DISTORTION 1000.0     /* |each coefficient| */
#define MAX_ERROR 1e5             /* px or mm: any residual, deviation or distance */

void calib_file_camera_centre(const calib_file *c, double out[3])
{
    /* C = -R^T t */
    for (int i = 0; i < 3; i++)
        out[i] = -(c->R[0 * 3 + i] * c->t[0] + c->R[1 * 3 + i] * c->t[1] + c->R[2 * 3 + i] * c->t[2]);
}

int calib_file_validate(const calib_file *c, const char *name, base_error *err)
{
    if (c->width <= 0 || c->height <= 0)
        return base_error_set(err, "%s: image_size: must be positive", name);
    if (!(c->fx > 0) || !(c->fy > 0))
        return base_error_set(err, "%s: camera.%s: focal length must be positive", name, c->fx > 0 ? "fy" : "fx");
    if (c->cx < 0 || c->cx > c->width || c->cy < 0 || c->cy > c->height)
        return base_error_set(err, "%s: camera.%s: principal point outside the image", name,
                               (c->cx < 0 || c->cx > c->width) ? "cx" : "cy");
    if (c->quality.present) {
        static const char *names[9] = {"fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"};
        for (int i = 0; i < 9; i++)
            if (!(c->quality.std[i] >= 0))
                return base_error_set(err, "%s: camera_quality.std.%s: must be zero or positive", name, names[i]);
        if (!(c->quality.rms_px >= 0))
            return base_error_set(err, "%s: camera_quality.rms_px: must be zero or positive", name);
        if (c->quality.views < 1)
            return base_error_set(err, "%s: camera_quality.views: must be at least 1", name);
    }
    if (c->projector.present) {
        const calib_projector *p = &c->projector;
        if (p->width <= 0 || p->height <= 0)
            return base_error_set(err, "%s: projector.size: must be positive", name);
        const double *h = p->H;
        double det = h[0] * (h[4] * h[8] - h[5] * h[7]) - h[1] * (h[3] * h[8] - h[5] * h[6]) +
                     h[2] * (h[3] * h[7] - h[4] * h[6]);
        double scale = 0;
        for (int i = 0; i < 9; i++)
            scale = fmax(scale, fabs(h[i]));
        /* Relative to the matrix's own scale: a mapping that squashes the board onto a line is useless. */
        if (!(scale > 0) || !(fabs(det) > 1e-12 * scale * scale * scale))
            return base_error_set(err, "%s: projector.board_to_projector: singular mapping", name);
    }
    if (c->pose_missing)
        return 0;
    /* A pose must be a proper rotation: R R^T = I, det R = +1. A singular or
     * scaled matrix would silently stretch the board. */
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += c->R[i * 3 + k] * c->R[j * 3 + k];
            worst = fmax(worst, fabs(s - (i == j)));
        }
    const double *r = c->R;
    double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
                 r[2] * (r[3] * r[7] - r[4] * r[6]);
    if (!(worst < 1e-3) || !(det > 0))
        return base_error_set(err, "%s: board_pose.rotation: not a rotation matrix (singular or scaled pose)", name);
    double cc[3];
    calib_file_camera_centre(c, cc);
    if (!(cc[2] > 0))
        return base_error_set(err, "%s: board_pose.translation_mm: the camera is not above the board", name);
    return 0;
}

static int read_quality(const cJSON *q, calib_quality *out, base_error *err)
{
    static const char *names[9] = {"fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"};
    out->present = 1;
    const char *w = "camera_quality";
    if (base_fields_known(q, w, quality_keys, err) < 0 ||
        base_fields_int(q, "views", w, true, 1, 100000, &out->views, err) < 0 ||
        base_fields_number(q, "rms_px", w, true, 0, MAX_ERROR, &out->rms_px, err) < 0 ||
        base_fields_number(q, "table_distance_mm", w, false, 0, MAX_ERROR, &out->table_distance_mm, err) < 0 ||
        base_fields_number(q, "board_error_mm", w, false, 0, MAX_ERROR, &out->board_error_mm, err) < 0)
        return -1;
    const cJSON *sd = base_json_object(q, "std", w, true, err);
    if (!sd || base_fields_known(sd, "camera_quality.std", std_keys, err) < 0)
        return -1;
    for (int i = 0; i < 9; i++)
        if (base_fields_number(sd, names[i], "camera_quality.std", true, 0, MAX_ERROR, &out->std[i], err) < 0)
            return -1;
    return 0;
}

/* projector.made_with: the camera calibration the projector was calibrated through. */
static int read_made_with(const cJSON *m, calib_projector *out, base_error *err)
{
    const char *w = "projector.made_with";
    double size[2];
    if (base_fields_known(m, w, made_with_keys, err) < 0 || base_json_numbers(m, "image_size", w, true, size, 2, err) < 0)
        return -1;
    if (size[0] != floor(size[0]) || size[1] != floor(size[1]) || size[0] <= 0 || size[1] <= 0 || size[0] > 1e5 ||
        size[1] > 1e5)
        return base_error_set(err, "projector.made_with.image_size: expected two positive whole numbers");
    const cJSON *pose = base_json_object(m, "board_pose", w, true, err);
    if (!pose || base_fields_known(pose, "projector.made_with.board_pose", pose_keys, err) < 0 ||
        base_json_numbers(pose, "rotation", "projector.made_with.board_pose", true, out->made_R, 9, err) < 0 ||
        base_json_numbers(pose, "translation_mm", "projector.made_with.board_pose", true, out->made_t, 3, err) < 0)
        return -1;
    out->made_width = (int)size[0];
    out->made_height = (int)size[1];
    out->made_with_present = 1;
    return 0;
}

/* The optional fields of the projector section (none of them in files written before them). */
static int read_projector_extras(const cJSON *p, calib_projector *out, base_error *err)
{
    const char *w = "projector";
    if (base_json_field(p, "position_mm")) {
        if (base_json_numbers(p, "position_mm", w, true, out->position_mm, 3, err) < 0)
            return -1;
        if (!(out->position_mm[2] > 0) || fabs(out->position_mm[0]) > MAX_ERROR || fabs(out->position_mm[1]) > MAX_ERROR ||
            out->position_mm[2] > MAX_ERROR)
            return base_error_set(err, "projector.position_mm: the projector must be above the board (z > 0, mm)");
        out->position_present = 1;
    }
    bool lf = base_json_field(p, "latency_frames") != NULL, lm = base_json_field(p, "latency_ms") != NULL;
    if (lf != lm)
        return base_error_set(err, "projector.%s: latency_frames and latency_ms come together", lf ? "latency_ms" : "latency_frames");
    if (lf && (base_fields_number(p, "latency_frames", w, true, 0, 1000, &out->latency_frames, err) < 0 ||
               base_fields_number(p, "latency_ms", w, true, 0, 60000, &out->latency_ms, err) < 0))
        return -1;
    out->latency_present = lf;
    if (base_fields_number(p, "brightness_ratio", w, false, 0, 1000, &out->brightness_ratio, err) < 0)
        return -1;
    const cJSON *m = base_json_field(p, "made_with");
    if (m && (!base_json_object(p, "made_with", w, true, err) || read_made_with(m, out, err) < 0))
        return -1;
    return 0;
}

static int read_projector(const cJSON *p, calib_projector *out, base_error *err)
{
    double size[2];
    out->present = 1;
    if (base_fields_known(p, "projector", projector_keys, err) < 0 ||
        base_json_numbers(p, "size", "projector", true, size, 2, err) < 0)
        return -1;
    if (size[0] != floor(size[0]) || size[1] != floor(size[1]) || size[0] <= 0 || size[1] <= 0 || size[0] > 1e5 ||
        size[1] > 1e5)
        return base_error_set(err, "projector.size: expected two positive whole numbers");
    out->width = (int)size[0];
    out->height = (int)size[1];
    if (base_json_numbers(p, "board_to_projector", "projector", true, out->H, 9, err) < 0 ||
        base_fields_number(p, "rms_mm", "projector", false, 0, MAX_ERROR, &out->rms_mm, err) < 0 ||
        base_fields_number(p, "max_mm", "projector", false, 0, MAX_ERROR, &out->max_mm, err) < 0 ||
        base_fields_int(p, "points", "projector", false, 0, 10000000, &out->points, err) < 0)
        return -1;
    return read_projector_extras(p, out, err);
}

/* The lens: camera (fx, fy, cx, cy) and distortion. 0, or -1 with err (not yet naming the file). */
static int read_camera(const cJSON *root, calib_file *out, base_error *err)
{
    const cJSON *cam = base_json_object(root, "camera", "", true, err);
    if (!cam || base_fields_known(cam, "camera", camera_keys, err) < 0)
        return -1;
    if (base_fields_number(cam, "fx", "camera", true, 1, MAX_FOCAL_PX, &out->fx, err) < 0 ||
        base_fields_number(cam, "fy", "camera", true, 1, MAX_FOCAL_PX, &out->fy, err) < 0 ||
        base_json_number(cam, "cx", "camera", true, &out->cx, err) < 0 ||
        base_json_number(cam, "cy", "camera", true, &out->cy, err) < 0)
        return -1;
    if (base_json_numbers(root, "distortion", "", true, out->dist, 5, err) < 0)
        return -1;
    for (int i = 0; i < 5; i++)
        if (!(fabs(out->dist[i]) <= MAX_DISTORTION))
            return base_error_set(err, "distortion[%d]: %g is out of range (-%g to %g)", i, out->dist[i],
                                  MAX_DISTORTION, MAX_DISTORTION);
    return 0;
}

/* The board's pose. A camera calibrated before it saw the board has no pose yet; only callers that can live
 * with that (calibrate board) ask for it with CALIB_FILE_POSE_OPTIONAL. 0, or -1 with err. */
static int read_pose(const cJSON *root, unsigned flags, calib_file *out, base_error *err)
{
    const bool pose_required = !(flags & CALIB_FILE_POSE_OPTIONAL);
    const bool pose_given = cJSON_GetObjectItemCaseSensitive(root, "board_pose") != NULL;
    if (!pose_given && pose_required)
        return base_error_set(err, "board_pose: missing (run `tableref calibrate board` to measure it)");
    if (!pose_given) {
        out->pose_missing = 1;
        return 0;
    }
    const cJSON *pose = base_json_object(root, "board_pose", "", true, err);
    if (!pose)
        return -1; /* present but not an object */
    /* Row-major, 9 numbers: one flat array keeps the reader and the message simple. */
    if (base_fields_known(pose, "board_pose", pose_keys, err) < 0 ||
        base_json_numbers(pose, "rotation", "board_pose", true, out->R, 9, err) < 0 ||
        base_json_numbers(pose, "translation_mm", "board_pose", true, out->t, 3, err) < 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if (!(fabs(out->t[i]) <= BASE_FIELDS_MAX_PLACE_MM))
            return base_error_set(err, "board_pose.translation_mm[%d]: %g is out of range (-%g to %g)", i, out->t[i],
                                  BASE_FIELDS_MAX_PLACE_MM, BASE_FIELDS_MAX_PLACE_MM);
    return 0;
}

int calib_file_from_json(const cJSON *root, const char *name, calib_file *out, base_error *err)
{
    return calib_file_from_json_ex(root, name, 0, out, err);
}

int calib_file_from_json_ex(const cJSON *root, const char *name, unsigned flags, calib_file *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    char fmt[64] = "";
    int version = 0;
    if (!cJSON_IsObject(root))
        return base_error_set(err, "%s: expected a JSON object", name);
    if (base_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0)
        goto fail;
    if (strcmp(fmt, CALIB_FILE_FORMAT) != 0)
        return base_error_set(err, "%s: format: expected \"%s\", found \"%s\"", name, CALIB_FILE_FORMAT, fmt);
    if (base_json_int(root, "version", "", true, &version, err) < 0)
        goto fail;
    if (version < 1 || version > CALIB_FILE_VERSION)
        return base_error_set(err, "%s: version: unknown version %d (this tableref reads versions 1 to %d)", name,
                               version, CALIB_FILE_VERSION);
    if (base_fields_known(root, "", version >= 2 ? v2_keys : v1_keys, err) < 0) {
        if (version < 2 && (cJSON_GetObjectItemCaseSensitive(root, "camera_quality") ||
                            cJSON_GetObjectItemCaseSensitive(root, "projector")))
            base_error_set(err, "version: camera_quality and projector need version 2");
        goto fail;
    }
    double size[2];
    if (base_json_numbers(root, "image_size", "", true, size, 2, err) < 0)
        goto fail;
    if (size[0] != floor(size[0]) || size[1] != floor(size[1]) || size[0] < CALIB_FILE_MIN_IMAGE_SIDE ||
        size[1] < CALIB_FILE_MIN_IMAGE_SIDE || size[0] > 1e5 || size[1] > 1e5)
        return base_error_set(err, "%s: image_size: expected two whole numbers of pixels, %d to 100000", name,
                               CALIB_FILE_MIN_IMAGE_SIDE);
    out->width = (int)size[0];
    out->height = (int)size[1];
    if (read_camera(root, out, err) < 0)
        goto fail;
    if (read_pose(root, flags, out, err) < 0)
        goto fail;
    if (version >= 2) {
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(root, "camera_quality");
        const cJSON *pj = cJSON_GetObjectItemCaseSensitive(root, "projector");
        if (q && !base_json_object(root, "camera_quality", "", true, err))
            goto fail;
        if (q && read_quality(q, &out->quality, err) < 0)
            goto fail;
        if (pj && !base_json_object(root, "projector", "", true, err))
            goto fail;
        if (pj && read_projector(pj, &out->projector, err) < 0)
            goto fail;
    }
    if (base_fields_all_checked(root, NULL, err) < 0)
        goto fail;
    return calib_file_validate(out, name, err);
fail:
    base_error_prefix(err, name);
    return -1;
}

int calib_file_load(const char *path, calib_file *out, base_error *err)
{
    return calib_file_load_ex(path, 0, out, err);
}

int calib_file_load_ex(const char *path, unsigned flags, calib_file *out, base_error *err)
{
    cJSON *root = base_json_parse_file(path, err);
    if (!root)
        return -1;
    int rc = calib_file_from_json_ex(root, path, flags, out, err);
    cJSON_Delete(root);
    return rc;
}

static cJSON *numbers(const double *v, int n, int decimals)
{
    cJSON *a = cJSON_CreateArray();
    double scale = pow(10, decimals);
    for (int i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(round(v[i] * scale) / scale));
    return a;
}

static void write_projector_extras(cJSON *p, const calib_projector *pr)
{
    if (pr->position_present)
        cJSON_AddItemToObject(p, "position_mm", numbers(pr->position_mm, 3, 2));
    if (pr->latency_present) {
        base_json_add_number(p, "latency_frames", pr->latency_frames, 2);
        base_json_add_number(p, "latency_ms", pr->latency_ms, 1);
    }
    if (pr->brightness_ratio > 0)
        base_json_add_number(p, "brightness_ratio", pr->brightness_ratio, 3);
    if (pr->made_with_present) {
        cJSON *m = cJSON_AddObjectToObject(p, "made_with");
        double size[2] = {pr->made_width, pr->made_height};
        cJSON_AddItemToObject(m, "image_size", numbers(size, 2, 0));
        cJSON *pose = cJSON_AddObjectToObject(m, "board_pose");
        cJSON_AddItemToObject(pose, "rotation", numbers(pr->made_R, 9, 12));
        cJSON_AddItemToObject(pose, "translation_mm", numbers(pr->made_t, 3, 6));
    }
}

void calib_file_projector_stamp(calib_file *c)
{
    calib_projector *p = &c->projector;
    p->made_with_present = 1;
    p->made_width = c->width;
    p->made_height = c->height;
    memcpy(p->made_R, c->R, sizeof p->made_R);
    memcpy(p->made_t, c->t, sizeof p->made_t);
}

/* Largest distance (mm, in the camera's frame) a board corner moves between two poses. */
static double pose_shift_mm(const double R1[9], const double t1[3], const double R2[9], const double t2[3], double bw,
                            double bd)
{
    double worst = 0;
    for (int k = 0; k < 4; k++) {
        double X[3] = {(k & 1) ? bw : 0, (k & 2) ? bd : 0, 0}, d2 = 0;
        for (int i = 0; i < 3; i++) {
            double a = R1[3 * i] * X[0] + R1[3 * i + 1] * X[1] + t1[i];
            double b = R2[3 * i] * X[0] + R2[3 * i + 1] * X[1] + t2[i];
            d2 += (a - b) * (a - b);
        }
        worst = fmax(worst, sqrt(d2));
    }
    return worst;
}

int calib_file_projector_stale(const calib_file *c, int width, int height, double board_w, double board_d,
                               char *why, size_t why_cap)
{
    char dummy[8];
    if (!why || !why_cap)
        why = dummy, why_cap = sizeof dummy;
    why[0] = 0;
    const calib_projector *p = &c->projector;
    if (!p->present) {
        snprintf(why, why_cap, "no projector section (run `tableref calibrate projector`)");
        return CALIB_PROJ_MISSING;
    }
    if (!p->made_with_present) {
        snprintf(why, why_cap, "projector section without made_with (written before it): cannot tell if stale");
        return CALIB_PROJ_UNSTAMPED;
    }
    if (width <= 0 || height <= 0)
        width = c->width, height = c->height;
    if (p->made_width != width || p->made_height != height) {
        snprintf(why, why_cap, "projector calibrated through a %dx%d camera image, the camera gives %dx%d: stale "
                 "(run `tableref calibrate projector` again)", p->made_width, p->made_height, width, height);
        return CALIB_PROJ_STALE_SIZE;
    }
    double shift = pose_shift_mm(p->made_R, p->made_t, c->R, c->t, board_w > 0 ? board_w : 1, board_d > 0 ? board_d : 1);
    if (c->pose_missing || !(shift <= CALIB_PROJ_STALE_MM)) {
        snprintf(why, why_cap, "board_pose changed by %.1f mm since the projector was calibrated (camera or board "
                 "recalibrated after it): stale (run `tableref calibrate projector` again)", shift);
        return CALIB_PROJ_STALE_POSE;
    }
    return CALIB_PROJ_OK;
}

cJSON *calib_file_to_json(const calib_file *c)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "format", CALIB_FILE_FORMAT);
    /* Version 1 when nothing of version 2 is used: older readers keep working. */
    const bool v2 = c->pose_missing || c->quality.present || c->projector.present;
    cJSON_AddNumberToObject(root, "version", v2 ? CALIB_FILE_VERSION : 1);
    double size[2] = {c->width, c->height};
    cJSON_AddItemToObject(root, "image_size", numbers(size, 2, 0));
    cJSON *cam = cJSON_AddObjectToObject(root, "camera");
    base_json_add_number(cam, "fx", c->fx, 6);
    base_json_add_number(cam, "fy", c->fy, 6);
    base_json_add_number(cam, "cx", c->cx, 6);
    base_json_add_number(cam, "cy", c->cy, 6);
    cJSON_AddItemToObject(root, "distortion", numbers(c->dist, 5, 9));
    if (!c->pose_missing) {
        cJSON *pose = cJSON_AddObjectToObject(root, "board_pose");
        cJSON_AddItemToObject(pose, "rotation", numbers(c->R, 9, 12));
        cJSON_AddItemToObject(pose, "translation_mm", numbers(c->t, 3, 6));
    }
    if (c->quality.present) {
        static const char *names[9] = {"fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"};
        cJSON *q = cJSON_AddObjectToObject(root, "camera_quality");
        cJSON_AddNumberToObject(q, "views", c->quality.views);
        base_json_add_number(q, "rms_px", c->quality.rms_px, 4);
        cJSON *sd = cJSON_AddObjectToObject(q, "std");
        for (int i = 0; i < 9; i++)
            base_json_add_number(sd, names[i], c->quality.std[i], i < 4 ? 4 : 7);
        if (c->quality.table_distance_mm > 0) {
            base_json_add_number(q, "table_distance_mm", c->quality.table_distance_mm, 1);
            base_json_add_number(q, "board_error_mm", c->quality.board_error_mm, 3);
        }
    }
    if (c->projector.present) {
        cJSON *p = cJSON_AddObjectToObject(root, "projector");
        double psize[2] = {c->projector.width, c->projector.height};
        cJSON_AddItemToObject(p, "size", numbers(psize, 2, 0));
        /* Relative precision matters here: the perspective terms are ~1e-5. */
        cJSON *h = cJSON_AddArrayToObject(p, "board_to_projector");
        for (int i = 0; i < 9; i++) {
            char buf[40];
            snprintf(buf, sizeof buf, "%.12g", c->projector.H[i]);
            cJSON_AddItemToArray(h, cJSON_CreateNumber(strtod(buf, NULL)));
        }
        base_json_add_number(p, "rms_mm", c->projector.rms_mm, 3);
        base_json_add_number(p, "max_mm", c->projector.max_mm, 3);
        cJSON_AddNumberToObject(p, "points", c->projector.points);
        write_projector_extras(p, &c->projector);
    }
    return root;
}

int calib_file_save(const calib_file *c, const char *path, base_error *err)
{
    cJSON *root = calib_file_to_json(c);
    if (!root)
        return base_error_set(err, "%s: out of memory", path);
    int rc = base_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}
