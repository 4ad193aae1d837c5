/*
 * calib_file: the calibration file (JSON, "format": "tableref-calibration",
 * version 1 or 2): camera intrinsics, OpenCV's 5-coefficient lens
 * distortion, the image size, and the board-to-camera pose. Version 2 adds
 * optional sections: how good the intrinsics are ("camera_quality", from
 * `tableref calibrate camera`), the board-to-projector homography
 * ("projector", from `tableref calibrate projector`), and allows a file
 * without a board pose (a camera calibrated before it saw the board). A file
 * without any of these is still written as version 1, so older readers keep
 * reading it. docs/formats.md documents it.
 *
 * How to use:
 *   calib_file c;
 *   base_error err;
 *   if (calib_file_load("calib.json", &c, &err) < 0) { fprintf(stderr, "%s\n", err.msg); return 2; }
 *   ... c.fx, c.dist, c.R, c.t ...
 *   calib_file_save(&c, "copy.json", &err);
 * Plain data, nothing to free. Errors name the file and the field
 * ("calib.json: camera.fx: must be positive").
 */
#ifndef CALIB_FILE_H
#define CALIB_FILE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "base_error.h"

#define CALIB_FILE_FORMAT "tableref-calibration"
#define CALIB_FILE_VERSION 2  /* the newest version read and written; 1 is still read */
/* Smallest image side a calibration may describe: the picture loader's own
 * minimum (MEDIA_IMAGE_MIN_SIDE in vision/media_image_read.h, asserted equal there). */
#define CALIB_FILE_MIN_IMAGE_SIDE 10

/* Optional: how good the intrinsics are. */
typedef struct calib_quality {
    int present;
    int views;                /* views used */
    double rms_px;            /* RMS reprojection error */
    double std[9];            /* 1-sigma of fx fy cx cy k1 k2 p1 p2 k3 */
    double table_distance_mm; /* the distance board_error_mm was computed for */
    double board_error_mm;    /* RMS position error on the board the intrinsics' uncertainty causes */
} calib_quality;

/* Optional: where projector pixels land on the board. */
typedef struct calib_projector {
    int present;
    int width, height;        /* projector frame, px */
    double H[9];              /* row-major, board mm (z = 0) -> projector px, H[8] = 1 */
    double rms_mm, max_mm;    /* residual of the fit on the table */
    int points;               /* correspondences used */
    /* Optional (0 / absent in older files): */
    int position_present;
    double position_mm[3];    /* the projector's optical centre, board mm, z above the board (parallax) */
    int latency_present;
    double latency_frames;    /* camera frames from showing a new picture to the camera seeing it */
    double latency_ms;        /* the same in milliseconds */
    double brightness_ratio;  /* projected white over the room's light at the board (white minus black
                               * over black, as the camera measures it); 0: not measured */
    /* The camera calibration the projector was calibrated through (the staleness rule, calib_file_projector_stale). */
    int made_with_present;
    int made_width, made_height;
    double made_R[9], made_t[3];
} calib_projector;

typedef struct calib_file {
    int width, height;        /* image size, px */
    double fx, fy, cx, cy;    /* pinhole, px; pixel centres at integers (OpenCV) */
    double dist[5];           /* k1 k2 p1 p2 k3 (OpenCV order) */
    double R[9];              /* row-major rotation, board -> camera */
    double t[3];              /* mm: X_cam = R * X_board + t */
    int pose_missing;         /* 1: no board_pose yet (R, t are zero); 0 (the default) for every usable file */
    calib_quality quality;
    calib_projector projector;
} calib_file;

/* Flags for calib_file_load_ex. */
enum { CALIB_FILE_POSE_OPTIONAL = 1 };

/* Reads and validates a file that must hold a board pose. Returns 0 or -1 (err names file and field). */
int calib_file_load(const char *path, calib_file *out, base_error *err);
/* Same from parsed JSON; `name` prefixes errors. */
int calib_file_from_json(const cJSON *root, const char *name, calib_file *out, base_error *err);
/* With CALIB_FILE_POSE_OPTIONAL a file without board_pose is accepted (out->pose_missing = 1). */
int calib_file_load_ex(const char *path, unsigned flags, calib_file *out, base_error *err);
int calib_file_from_json_ex(const cJSON *root, const char *name, unsigned flags, calib_file *out, base_error *err);
/* Checks values a camera cannot have (non-positive focal length, principal
 * point off the image, a pose that is not a rotation, a board behind the
 * camera; a singular projector mapping, negative standard deviations).
 * The pose is not checked when pose_missing. Returns 0 or -1. */
int calib_file_validate(const calib_file *c, const char *name, base_error *err);

/* JSON form; caller frees with cJSON_Delete. NULL when out of memory. */
cJSON *calib_file_to_json(const calib_file *c);
int calib_file_save(const calib_file *c, const char *path, base_error *err);

/* Stamps the projector section with the camera calibration in `c` (size and board pose): call when the
 * projector is calibrated through it. */
void calib_file_projector_stamp(calib_file *c);
/*
 * Whether the projector section no longer fits the camera (the rule docs/formats.md states): missing
 * section (CALIB_PROJ_MISSING); its stamp's image size is not `width` x `height` (the frames the camera
 * gives; 0 x 0: the calibration's own) (CALIB_PROJ_STALE_SIZE); or its stamp's board pose is not the
 * calibration's current one (moved by more than CALIB_PROJ_STALE_MM at the board's corners within
 * `board_w` x `board_d`, or 1 mm when the board is not given): the camera (or the board) was
 * recalibrated after the projector (CALIB_PROJ_STALE_POSE). A section without a stamp (written before
 * stamps) is CALIB_PROJ_UNSTAMPED: usable, callers warn. `why` (may be NULL) gets one sentence.
 */
enum { CALIB_PROJ_OK = 0, CALIB_PROJ_UNSTAMPED, CALIB_PROJ_MISSING, CALIB_PROJ_STALE_SIZE, CALIB_PROJ_STALE_POSE };
#define CALIB_PROJ_STALE_MM 1.0
int calib_file_projector_stale(const calib_file *c, int width, int height, double board_w, double board_d,
                               char *why, size_t why_cap);

/* Camera centre in board coordinates (mm). */
void calib_file_camera_centre(const calib_file *c, double out[3]);

#endif
