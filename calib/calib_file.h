/*
 * calib_file: the calibration file (JSON, "format": "tableref-calibration",
 * "version": 1): camera intrinsics, OpenCV's 5-coefficient lens distortion,
 * the image size, and the board-to-camera pose. docs/formats.md documents it.
 *
 * How to use:
 *   calib_file c;
 *   rules_error err;
 *   if (calib_file_load("calib.json", &c, &err) < 0) { fprintf(stderr, "%s\n", err.msg); return 2; }
 *   ... c.fx, c.dist, c.R, c.t ...
 *   calib_file_save(&c, "copy.json", &err);
 * Plain data, nothing to free. Errors name the file and the field
 * ("calib.json: camera.fx: must be positive").
 */
#ifndef CALIB_FILE_H
#define CALIB_FILE_H

#include <cjson/cJSON.h>

#include "rules_error.h"

#define CALIB_FILE_FORMAT "tableref-calibration"
#define CALIB_FILE_VERSION 1

typedef struct calib_file {
    int width, height;        /* image size, px */
    double fx, fy, cx, cy;    /* pinhole, px; pixel centres at integers (OpenCV) */
    double dist[5];           /* k1 k2 p1 p2 k3 (OpenCV order) */
    double R[9];              /* row-major rotation, board -> camera */
    double t[3];              /* mm: X_cam = R * X_board + t */
} calib_file;

/* Reads and validates a file. Returns 0 or -1 (err names file and field). */
int calib_file_load(const char *path, calib_file *out, rules_error *err);
/* Same from parsed JSON; `name` prefixes errors. */
int calib_file_from_json(const cJSON *root, const char *name, calib_file *out, rules_error *err);
/* Checks values a camera cannot have (non-positive focal length, principal
 * point off the image, a pose that is not a rotation, a board behind the
 * camera). Returns 0 or -1. */
int calib_file_validate(const calib_file *c, const char *name, rules_error *err);

/* JSON form; caller frees with cJSON_Delete. NULL when out of memory. */
cJSON *calib_file_to_json(const calib_file *c);
int calib_file_save(const calib_file *c, const char *path, rules_error *err);

/* Camera centre in board coordinates (mm). */
void calib_file_camera_centre(const calib_file *c, double out[3]);

#endif
