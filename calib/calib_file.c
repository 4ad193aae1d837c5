#include "calib_file.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules_json.h"

void calib_file_camera_centre(const calib_file *c, double out[3])
{
    /* C = -R^T t */
    for (int i = 0; i < 3; i++)
        out[i] = -(c->R[0 * 3 + i] * c->t[0] + c->R[1 * 3 + i] * c->t[1] + c->R[2 * 3 + i] * c->t[2]);
}

int calib_file_validate(const calib_file *c, const char *name, rules_error *err)
{
    if (c->width <= 0 || c->height <= 0)
        return rules_error_set(err, "%s: image_size: must be positive", name);
    if (!(c->fx > 0) || !(c->fy > 0))
        return rules_error_set(err, "%s: camera.%s: focal length must be positive", name, c->fx > 0 ? "fy" : "fx");
    if (c->cx < 0 || c->cx > c->width || c->cy < 0 || c->cy > c->height)
        return rules_error_set(err, "%s: camera.%s: principal point outside the image", name,
                               (c->cx < 0 || c->cx > c->width) ? "cx" : "cy");
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
        return rules_error_set(err, "%s: board_pose.rotation: not a rotation matrix (singular or scaled pose)", name);
    double cc[3];
    calib_file_camera_centre(c, cc);
    if (!(cc[2] > 0))
        return rules_error_set(err, "%s: board_pose.translation_mm: the camera is not above the board", name);
    return 0;
}

int calib_file_from_json(const cJSON *root, const char *name, calib_file *out, rules_error *err)
{
    memset(out, 0, sizeof *out);
    char fmt[64] = "";
    int version = 0;
    if (!cJSON_IsObject(root))
        return rules_error_set(err, "%s: expected a JSON object", name);
    if (rules_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0)
        goto fail;
    if (strcmp(fmt, CALIB_FILE_FORMAT) != 0)
        return rules_error_set(err, "%s: format: expected \"%s\", found \"%s\"", name, CALIB_FILE_FORMAT, fmt);
    if (rules_json_int(root, "version", "", true, &version, err) < 0)
        goto fail;
    if (version != CALIB_FILE_VERSION)
        return rules_error_set(err, "%s: version: unknown version %d (this tableref reads version %d)", name,
                               version, CALIB_FILE_VERSION);
    double size[2];
    if (rules_json_numbers(root, "image_size", "", true, size, 2, err) < 0)
        goto fail;
    if (size[0] != floor(size[0]) || size[1] != floor(size[1]) || size[0] <= 0 || size[1] <= 0 || size[0] > 1e5 ||
        size[1] > 1e5)
        return rules_error_set(err, "%s: image_size: expected two positive whole numbers", name);
    out->width = (int)size[0];
    out->height = (int)size[1];
    const cJSON *cam = rules_json_object(root, "camera", "", true, err);
    if (!cam)
        goto fail;
    if (rules_json_number(cam, "fx", "camera", true, &out->fx, err) < 0 ||
        rules_json_number(cam, "fy", "camera", true, &out->fy, err) < 0 ||
        rules_json_number(cam, "cx", "camera", true, &out->cx, err) < 0 ||
        rules_json_number(cam, "cy", "camera", true, &out->cy, err) < 0)
        goto fail;
    if (rules_json_numbers(root, "distortion", "", true, out->dist, 5, err) < 0)
        goto fail;
    const cJSON *pose = rules_json_object(root, "board_pose", "", true, err);
    if (!pose)
        goto fail;
    /* Row-major, 9 numbers: one flat array keeps the reader and the message simple. */
    if (rules_json_numbers(pose, "rotation", "board_pose", true, out->R, 9, err) < 0)
        goto fail;
    if (rules_json_numbers(pose, "translation_mm", "board_pose", true, out->t, 3, err) < 0)
        goto fail;
    return calib_file_validate(out, name, err);
fail:
    rules_error_prefix(err, name);
    return -1;
}

int calib_file_load(const char *path, calib_file *out, rules_error *err)
{
    cJSON *root = rules_json_parse_file(path, err);
    if (!root)
        return -1;
    int rc = calib_file_from_json(root, path, out, err);
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

cJSON *calib_file_to_json(const calib_file *c)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "format", CALIB_FILE_FORMAT);
    cJSON_AddNumberToObject(root, "version", CALIB_FILE_VERSION);
    double size[2] = {c->width, c->height};
    cJSON_AddItemToObject(root, "image_size", numbers(size, 2, 0));
    cJSON *cam = cJSON_AddObjectToObject(root, "camera");
    rules_json_add_number(cam, "fx", c->fx, 6);
    rules_json_add_number(cam, "fy", c->fy, 6);
    rules_json_add_number(cam, "cx", c->cx, 6);
    rules_json_add_number(cam, "cy", c->cy, 6);
    cJSON_AddItemToObject(root, "distortion", numbers(c->dist, 5, 9));
    cJSON *pose = cJSON_AddObjectToObject(root, "board_pose");
    cJSON_AddItemToObject(pose, "rotation", numbers(c->R, 9, 12));
    cJSON_AddItemToObject(pose, "translation_mm", numbers(c->t, 3, 6));
    return root;
}

int calib_file_save(const calib_file *c, const char *path, rules_error *err)
{
    cJSON *root = calib_file_to_json(c);
    if (!root)
        return rules_error_set(err, "%s: out of memory", path);
    int rc = rules_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}
