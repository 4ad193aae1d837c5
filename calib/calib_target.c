#include "calib_target.h"

#include "base_fields.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagStandard41h12.h>

#include "rules_json.h"
#include "vis_tag.h"

/* apriltag's corner order in the tag frame (a right, b up on the printed page). */
static const double corner_local[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

void calib_target_tags_default(calib_target *t)
{
    memset(t, 0, sizeof *t);
    t->kind = CALIB_TARGET_TAGS;
    strcpy(t->family, "tag36h11");
    t->tag_size_mm = 30;
    t->spacing_mm = 10;
    t->first_id = 300;
    t->cols = 4;
    t->rows = 6;
    t->paper_mm[0] = 210;
    t->paper_mm[1] = 297;
}

static void family_cells(const char *family, int *width_at_border, int *total_width)
{
    /* The two families vis_tag reads; their bitmaps' sizes in cells. */
    if (strcmp(family, "tagStandard41h12") == 0)
        *width_at_border = 5, *total_width = 9;
    else
        *width_at_border = 8, *total_width = 10;
}

int calib_target_fit_page(calib_target *t, double paper_w_mm, double paper_h_mm, double margin_mm, base_error *err)
{
    const double s = t->tag_size_mm, g = t->spacing_mm, p = s + g;
    /* The bitmap's white border sticks out (total - border) / 2 cells beyond the black square. */
    int wb, tw;
    family_cells(t->family, &wb, &tw);
    const double rim = s * (tw - wb) / 2.0 / wb;
    const double w = paper_w_mm - 2 * margin_mm - 2 * rim, h = paper_h_mm - 2 * margin_mm - 2 * rim;
    if (!(s > 0) || !(g >= 0))
        return base_error_set(err, "target: tag size must be positive and spacing not negative");
    int cols = (int)floor((w + g) / p), rows = (int)floor((h + g) / p);
    if (cols < 2 || rows < 2)
        return base_error_set(err, "target: %.0f mm tags do not fit 2x2 on a %.0fx%.0f mm page with %.0f mm margins",
                               s, paper_w_mm, paper_h_mm, margin_mm);
    t->cols = cols, t->rows = rows;
    t->paper_mm[0] = paper_w_mm, t->paper_mm[1] = paper_h_mm;
    double ext[2];
    calib_target_extent(t, ext);
    /* Centred; the caption and scale bar go in the bottom margin. */
    t->origin_mm[0] = (paper_w_mm - ext[0]) / 2;
    t->origin_mm[1] = (paper_h_mm - ext[1]) / 2;
    return calib_target_validate(t, "target", err);
}

int calib_target_chessboard(calib_target *t, int cols, int rows, double square_mm, base_error *err)
{
    memset(t, 0, sizeof *t);
    t->kind = CALIB_TARGET_CHESSBOARD;
    t->cols = cols, t->rows = rows;
    t->square_mm = square_mm;
    return calib_target_validate(t, "chessboard", err);
}

int calib_target_validate(const calib_target *t, const char *name, base_error *err)
{
    if (t->kind == CALIB_TARGET_CHESSBOARD) {
        if (t->cols < 2 || t->rows < 2 || t->cols > 100 || t->rows > 100)
            return base_error_set(err, "%s: inner_corners: expected 2..100 inner corners each way, have %dx%d", name,
                                   t->cols, t->rows);
        if (!(t->square_mm > 0) || t->square_mm > 1000)
            return base_error_set(err, "%s: square_mm: must be positive (and under a metre)", name);
        return 0;
    }
    if (strcmp(t->family, "tag36h11") != 0 && strcmp(t->family, "tagStandard41h12") != 0)
        return base_error_set(err, "%s: family: \"%s\" is not a family tableref reads (tag36h11, tagStandard41h12)",
                               name, t->family);
    if (t->cols < 1 || t->rows < 1 || t->cols * t->rows < 2)
        return base_error_set(err, "%s: grid: need at least 2 tags, have %dx%d", name, t->cols, t->rows);
    if (!(t->tag_size_mm > 0) || t->tag_size_mm > 1000)
        return base_error_set(err, "%s: tag_size_mm: must be positive (and under a metre)", name);
    int wb, tw;
    family_cells(t->family, &wb, &tw);
    /* Neighbours' white borders must not overlap the other's black square. */
    if (!(t->spacing_mm >= t->tag_size_mm * (tw - wb) / (double)wb - 1e-9))
        return base_error_set(err, "%s: spacing_mm: %.2f mm leaves no white border between tags (need %.2f mm)", name,
                               t->spacing_mm, t->tag_size_mm * (tw - wb) / (double)wb);
    const int ncodes = strcmp(t->family, "tag36h11") == 0 ? 587 : 2115;
    if (t->first_id < 0 || t->first_id + t->cols * t->rows > ncodes)
        return base_error_set(err, "%s: first_id: IDs %d..%d are not all in %s (0..%d)", name, t->first_id,
                               t->first_id + t->cols * t->rows - 1, t->family, ncodes - 1);
    return 0;
}

int calib_target_n_points(const calib_target *t)
{
    return t->kind == CALIB_TARGET_CHESSBOARD ? t->cols * t->rows : 4 * t->cols * t->rows;
}

int calib_target_tag_corners(const calib_target *t, int id, double out[4][2])
{
    if (t->kind != CALIB_TARGET_TAGS)
        return -1;
    int k = id - t->first_id;
    if (k < 0 || k >= t->cols * t->rows)
        return -1;
    const double s = t->tag_size_mm, p = s + t->spacing_mm;
    const double cx = (k % t->cols) * p + s / 2, cy = (k / t->cols) * p + s / 2;
    for (int i = 0; i < 4; i++) {
        out[i][0] = cx + corner_local[i][0] * s / 2;
        out[i][1] = cy - corner_local[i][1] * s / 2; /* b up the page is -y */
    }
    return 0;
}

void calib_target_extent(const calib_target *t, double out[2])
{
    if (t->kind == CALIB_TARGET_CHESSBOARD) {
        out[0] = (t->cols - 1) * t->square_mm;
        out[1] = (t->rows - 1) * t->square_mm;
    } else {
        const double p = t->tag_size_mm + t->spacing_mm;
        out[0] = (t->cols - 1) * p + t->tag_size_mm;
        out[1] = (t->rows - 1) * p + t->tag_size_mm;
    }
}

/* ---- layout file ------------------------------------------------------ */

cJSON *calib_target_to_json(const calib_target *t)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "format", CALIB_TARGET_FORMAT);
    cJSON_AddNumberToObject(root, "version", CALIB_TARGET_VERSION);
    if (t->kind == CALIB_TARGET_CHESSBOARD) {
        cJSON_AddStringToObject(root, "kind", "chessboard");
        cJSON *ic = cJSON_AddArrayToObject(root, "inner_corners");
        cJSON_AddItemToArray(ic, cJSON_CreateNumber(t->cols));
        cJSON_AddItemToArray(ic, cJSON_CreateNumber(t->rows));
        base_json_add_number(root, "square_mm", t->square_mm, 4);
        return root;
    }
    cJSON_AddStringToObject(root, "kind", "apriltag-grid");
    cJSON_AddStringToObject(root, "family", t->family);
    cJSON *g = cJSON_AddArrayToObject(root, "grid");
    cJSON_AddItemToArray(g, cJSON_CreateNumber(t->cols));
    cJSON_AddItemToArray(g, cJSON_CreateNumber(t->rows));
    base_json_add_number(root, "tag_size_mm", t->tag_size_mm, 4);
    base_json_add_number(root, "spacing_mm", t->spacing_mm, 4);
    cJSON_AddNumberToObject(root, "first_id", t->first_id);
    cJSON *pp = cJSON_AddArrayToObject(root, "paper_mm");
    cJSON_AddItemToArray(pp, cJSON_CreateNumber(round(t->paper_mm[0] * 1e3) / 1e3));
    cJSON_AddItemToArray(pp, cJSON_CreateNumber(round(t->paper_mm[1] * 1e3) / 1e3));
    cJSON *po = cJSON_AddArrayToObject(root, "origin_on_paper_mm");
    cJSON_AddItemToArray(po, cJSON_CreateNumber(round(t->origin_mm[0] * 1e4) / 1e4));
    cJSON_AddItemToArray(po, cJSON_CreateNumber(round(t->origin_mm[1] * 1e4) / 1e4));
    /* Every tag's corners, for other tools; tableref itself derives them from the fields above. */
    cJSON *tags = cJSON_AddArrayToObject(root, "tags");
    for (int k = 0; k < t->cols * t->rows; k++) {
        double c[4][2];
        calib_target_tag_corners(t, t->first_id + k, c);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", t->first_id + k);
        cJSON *cs = cJSON_AddArrayToObject(o, "corners_mm");
        for (int i = 0; i < 4; i++) {
            cJSON *pt = cJSON_CreateArray();
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(c[i][0] * 1e4) / 1e4));
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(c[i][1] * 1e4) / 1e4));
            cJSON_AddItemToArray(cs, pt);
        }
        cJSON_AddItemToArray(tags, o);
    }
    return root;
}

static int whole_pair(const cJSON *obj, const char *key, int *a, int *b, base_error *err)
{
    double v[2];
    if (base_json_numbers(obj, key, "", true, v, 2, err) < 0)
        return -1;
    if (v[0] != floor(v[0]) || v[1] != floor(v[1]) || fabs(v[0]) > 1e4 || fabs(v[1]) > 1e4)
        return base_error_set(err, "%s: expected two whole numbers", key);
    *a = (int)v[0], *b = (int)v[1];
    return 0;
}

/* The layout's keys for each kind, and a listed tag's (the tags are drawn from the grid; their list is for other
 * programs, checked for typos only). */
static const char *const chessboard_keys[] = {"format", "version", "kind", "inner_corners", "square_mm", NULL};
static const char *const grid_keys[] = {"format",   "version",  "kind",     "family",             "grid",
                                        "tag_size_mm", "spacing_mm", "first_id", "paper_mm", "origin_on_paper_mm",
                                        "tags",     NULL};
static const char *const tag_keys[] = {"id", "corners_mm", NULL};

static int check_keys(const cJSON *root, bool chessboard, base_error *err)
{
    if (base_fields_known(root, "", chessboard ? chessboard_keys : grid_keys, err) < 0)
        return -1;
    const cJSON *tags = base_json_field(root, "tags"), *t;
    const cJSON *list = cJSON_IsArray(tags) ? tags : NULL;
    int i = 0;
    cJSON_ArrayForEach(t, list)
    {
        char where[32];
        snprintf(where, sizeof where, "tags[%d]", i++);
        if (base_fields_known(t, where, tag_keys, err) < 0)
            return -1;
    }
    return base_fields_all_checked(root, NULL, err);
}

int calib_target_from_json(const cJSON *root, const char *name, calib_target *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    char fmt[64] = "", kind[32] = "";
    int version = 0;
    if (!cJSON_IsObject(root))
        return base_error_set(err, "%s: expected a JSON object", name);
    if (base_json_string(root, "format", "", true, fmt, sizeof fmt, err) < 0)
        goto fail;
    if (strcmp(fmt, CALIB_TARGET_FORMAT) != 0)
        return base_error_set(err, "%s: format: expected \"%s\", found \"%s\"", name, CALIB_TARGET_FORMAT, fmt);
    if (base_json_int(root, "version", "", true, &version, err) < 0)
        goto fail;
    if (version != CALIB_TARGET_VERSION)
        return base_error_set(err, "%s: version: unknown version %d (this tableref reads version %d)", name, version,
                               CALIB_TARGET_VERSION);
    if (base_json_string(root, "kind", "", true, kind, sizeof kind, err) < 0 ||
        check_keys(root, strcmp(kind, "chessboard") == 0, err) < 0)
        goto fail;
    if (strcmp(kind, "chessboard") == 0) {
        out->kind = CALIB_TARGET_CHESSBOARD;
        if (whole_pair(root, "inner_corners", &out->cols, &out->rows, err) < 0 ||
            base_json_number(root, "square_mm", "", true, &out->square_mm, err) < 0)
            goto fail;
    } else if (strcmp(kind, "apriltag-grid") == 0) {
        out->kind = CALIB_TARGET_TAGS;
        if (base_json_string(root, "family", "", true, out->family, sizeof out->family, err) < 0 ||
            whole_pair(root, "grid", &out->cols, &out->rows, err) < 0 ||
            base_json_number(root, "tag_size_mm", "", true, &out->tag_size_mm, err) < 0 ||
            base_json_number(root, "spacing_mm", "", true, &out->spacing_mm, err) < 0 ||
            base_json_int(root, "first_id", "", true, &out->first_id, err) < 0 ||
            base_json_numbers(root, "paper_mm", "", false, out->paper_mm, 2, err) < 0 ||
            base_json_numbers(root, "origin_on_paper_mm", "", false, out->origin_mm, 2, err) < 0)
            goto fail;
    } else {
        return base_error_set(err, "%s: kind: expected \"apriltag-grid\" or \"chessboard\", found \"%s\"", name,
                               kind);
    }
    return calib_target_validate(out, name, err);
fail:
    base_error_prefix(err, name);
    return -1;
}

int calib_target_save(const calib_target *t, const char *path, base_error *err)
{
    cJSON *root = calib_target_to_json(t);
    if (!root)
        return base_error_set(err, "%s: out of memory", path);
    int rc = base_json_write_file(root, path, err);
    cJSON_Delete(root);
    return rc;
}

int calib_target_load(const char *path, calib_target *out, base_error *err)
{
    cJSON *root = base_json_parse_file(path, err);
    if (!root)
        return -1;
    int rc = calib_target_from_json(root, path, out, err);
    cJSON_Delete(root);
    return rc;
}

/* ---- picture ---------------------------------------------------------- */

base_image *calib_target_raster(const calib_target *t, double px_per_mm, int supersample, base_error *err)
{
    if (t->kind != CALIB_TARGET_TAGS) {
        base_error_set(err, "target: only the AprilTag grid is drawn (print a chessboard elsewhere)");
        return NULL;
    }
    const int W = (int)ceil(t->paper_mm[0] * px_per_mm), H = (int)ceil(t->paper_mm[1] * px_per_mm);
    const int ss = supersample < 1 ? 1 : supersample;
    if (!(px_per_mm > 0) || W < 1 || H < 1 || (double)W * H > 4e8) {
        base_error_set(err, "target: a %dx%d px page is not drawable", W, H);
        return NULL;
    }
    bool is41 = strcmp(t->family, "tagStandard41h12") == 0;
    apriltag_family_t *fam = is41 ? tagStandard41h12_create() : tag36h11_create();
    base_image *img = base_image_new(W, H, 1, 255);
    if (!fam || !img) {
        base_error_set(err, "target: out of memory");
        goto fail;
    }
    const int wb = fam->width_at_border, tw = fam->total_width;
    const double cell = t->tag_size_mm / wb;
    const int off = (tw - wb) / 2; /* white cells outside the black square's edge, each side */
    for (int k = 0; k < t->cols * t->rows; k++) {
        image_u8_t *bm = apriltag_to_image(fam, (uint32_t)(t->first_id + k));
        if (!bm) {
            base_error_set(err, "target: out of memory");
            goto fail;
        }
        double c[4][2];
        calib_target_tag_corners(t, t->first_id + k, c);
        /* Page mm of the bitmap's top-left (corner 3 is the tag's top-left: a = -1, b = +1). */
        const double x0 = t->origin_mm[0] + c[3][0] - off * cell, y0 = t->origin_mm[1] + c[3][1] - off * cell;
        const int u0 = (int)floor(x0 * px_per_mm), v0 = (int)floor(y0 * px_per_mm);
        const int u1 = (int)ceil((x0 + tw * cell) * px_per_mm), v1 = (int)ceil((y0 + tw * cell) * px_per_mm);
        for (int v = v0 < 0 ? 0 : v0; v < v1 && v < H; v++)
            for (int u = u0 < 0 ? 0 : u0; u < u1 && u < W; u++) {
                int sum = 0;
                for (int sy = 0; sy < ss; sy++)
                    for (int sx = 0; sx < ss; sx++) {
                        double x = (u + (sx + 0.5) / ss) / px_per_mm - x0, y = (v + (sy + 0.5) / ss) / px_per_mm - y0;
                        int cx = (int)floor(x / cell), cy = (int)floor(y / cell);
                        if (cx < 0 || cy < 0 || cx >= tw || cy >= tw)
                            sum += 255;
                        else
                            sum += bm->buf[cy * bm->stride + cx] ? 255 : 0;
                    }
                img->data[v * img->stride + u] = (uint8_t)((sum + ss * ss / 2) / (ss * ss));
            }
        image_u8_destroy(bm);
    }
    (is41 ? tagStandard41h12_destroy : tag36h11_destroy)(fam);
    return img;
fail:
    base_image_free(img);
    if (fam)
        (is41 ? tagStandard41h12_destroy : tag36h11_destroy)(fam);
    return NULL;
}

/* ---- finding it in a photo --------------------------------------------- */

struct calib_target_finder {
    calib_target t;
    vis_tag_detector *det;
};

calib_target_finder *calib_target_finder_new(const calib_target *t, base_error *err)
{
    calib_target_finder *f = calloc(1, sizeof *f);
    if (!f) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    f->t = *t;
    if (t->kind == CALIB_TARGET_TAGS) {
        f->det = vis_tag_detector_new(t->family);
        if (!f->det) {
            base_error_set(err, "target: cannot make a %s detector", t->family);
            free(f);
            return NULL;
        }
        /* Calibration photos are few: spend time for every corner. */
        f->det->cfg.decimate = 1;
        f->det->cfg.max_hamming = 1;
    }
    return f;
}

void calib_target_finder_free(calib_target_finder *f)
{
    if (!f)
        return;
    vis_tag_detector_free(f->det);
    free(f);
}

void calib_target_points_clear(calib_target_points *p)
{
    if (!p)
        return;
    free(p->obj);
    free(p->img);
    memset(p, 0, sizeof *p);
}

int calib_target_find(calib_target_finder *f, const base_image *img, calib_target_points *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    const calib_target *t = &f->t;
    const int cap = calib_target_n_points(t);
    out->obj = calloc((size_t)cap * 3, sizeof(double));
    out->img = calloc((size_t)cap * 2, sizeof(double));
    if (!out->obj || !out->img) {
        calib_target_points_clear(out);
        return base_error_set(err, "out of memory");
    }
    if (t->kind == CALIB_TARGET_CHESSBOARD) {
        int rc = cvs_find_chessboard(img, t->cols, t->rows, out->img, err);
        if (rc <= 0) {
            calib_target_points_clear(out);
            return rc;
        }
        for (int j = 0, k = 0; j < t->rows; j++)
            for (int i = 0; i < t->cols; i++, k++) {
                out->obj[3 * k] = i * t->square_mm;
                out->obj[3 * k + 1] = j * t->square_mm;
            }
        out->n = cap;
        return 1;
    }
    /* Large photos: decimate so a tag keeps >= 12 px; small ones at full resolution. */
    f->det->cfg.decimate = (double)img->width * img->height > 6e6 ? 2 : 1;
    vis_tag_list tags = {0};
    if (vis_tag_detect(f->det, img->data, img->width, img->height, img->stride, &tags, err) < 0) {
        calib_target_points_clear(out);
        return -1;
    }
    int n = 0, ntags = 0;
    char *seen = calloc((size_t)(t->cols * t->rows), 1);
    for (size_t i = 0; seen && i < tags.n; i++) {
        double c[4][2];
        if (calib_target_tag_corners(t, tags.items[i].id, c) < 0)
            continue;
        int k = tags.items[i].id - t->first_id;
        /* An ID seen twice is a misdetection or a second target: keep the first only. */
        if (seen[k]++)
            continue;
        for (int q = 0; q < 4; q++, n++) {
            out->obj[3 * n] = c[q][0];
            out->obj[3 * n + 1] = c[q][1];
            out->obj[3 * n + 2] = 0;
            out->img[2 * n] = tags.items[i].corners[q][0];
            out->img[2 * n + 1] = tags.items[i].corners[q][1];
        }
        ntags++;
    }
    free(seen);
    vis_tag_list_clear(&tags);
    if (ntags == 0) {
        calib_target_points_clear(out);
        return 0;
    }
    out->n = n;
    out->tags = ntags;
    return 1;
}
