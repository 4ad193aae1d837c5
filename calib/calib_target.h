/*
 * calib_target: the thing held in front of the camera to calibrate it -- a
 * printed grid of AprilTags (tableref's own, `tableref target`) or a
 * chessboard the user already owns -- its layout file ("tableref-target"
 * v1, docs/formats.md), its picture, and finding it in a photo.
 *
 * How to use:
 *   calib_target t;
 *   calib_target_tags_default(&t);                       // A4, 30 mm tags
 *   calib_target_fit_page(&t, 210, 297, 15, &err);       // as many tags as fit
 *   calib_target_save(&t, "target.json", &err);          // the sidecar layout
 *   base_image *page = calib_target_raster(&t, 300 / 25.4, 1, &err);   // or draw it yourself
 *   ...
 *   calib_target_finder *f = calib_target_finder_new(&t, &err);
 *   calib_target_points pts = {0};
 *   int found = calib_target_find(f, photo, &pts, &err);  // 1 found, 0 not, -1 error
 *   ... pts.obj[3 * i], pts.img[2 * i] ...
 *   calib_target_points_clear(&pts);
 *   calib_target_finder_free(f);
 *
 * The target frame (mm): x to the right and y down the printed page, z into
 * the page (OpenCV's convention for planar targets). Tags: the origin is the
 * top-left corner of the first tag's black square; tag (c, r) has ID
 * first_id + r * cols + c and its black square spans
 * [c p, c p + s] x [r p, r p + s] with s the tag size and p = s + spacing.
 * Chessboard: the origin is the first inner corner, corner (i, j) at
 * (i * square, j * square) in OpenCV's row-by-row order.
 */
#ifndef CALIB_TARGET_H
#define CALIB_TARGET_H

#include <cjson/cJSON.h>

#include "cvshim.h"
#include "base_error.h"

#define CALIB_TARGET_FORMAT "tableref-target"
#define CALIB_TARGET_VERSION 1

typedef enum { CALIB_TARGET_TAGS = 0, CALIB_TARGET_CHESSBOARD = 1 } calib_target_kind;

typedef struct calib_target {
    calib_target_kind kind;
    int cols, rows;           /* tags: tags across and down; chessboard: INNER corners across and down */
    /* Tags. */
    char family[32];          /* "tag36h11" or "tagStandard41h12" */
    double tag_size_mm;       /* black square edge (apriltag's "tag size") */
    double spacing_mm;        /* gap between neighbouring black squares (>= 2 bitmap cells for the white borders) */
    int first_id;
    double paper_mm[2];       /* page width, height */
    double origin_mm[2];      /* where the target frame's origin sits on the page, from its top-left */
    /* Chessboard. */
    double square_mm;
} calib_target;

/* tag36h11, 30 mm tags 10 mm apart, IDs from 300 (clear of the usual board and model tags), A4 portrait. */
void calib_target_tags_default(calib_target *t);
/* Sets cols, rows and origin so the grid fills the page inside `margin_mm`, centred. -1 when nothing fits. */
int calib_target_fit_page(calib_target *t, double paper_w_mm, double paper_h_mm, double margin_mm, base_error *err);
/* A chessboard with cols x rows inner corners of `square_mm`. */
int calib_target_chessboard(calib_target *t, int cols, int rows, double square_mm, base_error *err);
/* Checks sizes, counts and IDs; `name` prefixes the error. */
int calib_target_validate(const calib_target *t, const char *name, base_error *err);

/* Points of the target: tags * 4 or the chessboard's inner corners. */
int calib_target_n_points(const calib_target *t);
/* Target-frame corners (mm) of tag `id` in apriltag's corner order; -1 when the ID is not on the target. */
int calib_target_tag_corners(const calib_target *t, int id, double out[4][2]);
/* Width and height of the pattern itself (tags: outer edges of the black squares), mm. */
void calib_target_extent(const calib_target *t, double out[2]);

cJSON *calib_target_to_json(const calib_target *t);
int calib_target_from_json(const cJSON *root, const char *name, calib_target *out, base_error *err);
int calib_target_save(const calib_target *t, const char *path, base_error *err);
int calib_target_load(const char *path, calib_target *out, base_error *err);

/*
 * The printed picture (tags only): white page of paper_mm at `px_per_mm`,
 * each bitmap cell area-sampled (supersample x supersample per pixel, so
 * edges fall where the geometry says even off the pixel grid). The page
 * pixel (u, v) covers page mm [u, u+1] / px_per_mm, i.e. its centre is at
 * ((u + 0.5) / px_per_mm). Caller frees. NULL on error.
 */
base_image *calib_target_raster(const calib_target *t, double px_per_mm, int supersample, base_error *err);

/* Matches found in one photo: n points, obj (3n, target mm) and img (2n, px, OpenCV convention). */
typedef struct calib_target_points {
    int n;
    double *obj, *img;
    int tags;                 /* tags found (tags target) */
} calib_target_points;
void calib_target_points_clear(calib_target_points *p);

typedef struct calib_target_finder calib_target_finder;
/* Keeps a copy of t. NULL on error. */
calib_target_finder *calib_target_finder_new(const calib_target *t, base_error *err);
void calib_target_finder_free(calib_target_finder *f);
/*
 * Finds the target in a gray photo. Tags: every tag of the grid found (IDs
 * off the grid are ignored), 4 points each; chessboard: all inner corners
 * or nothing. Returns 1 when found (out filled, caller clears), 0 when not,
 * -1 on error.
 */
int calib_target_find(calib_target_finder *f, const base_image *img, calib_target_points *out, base_error *err);

#endif
