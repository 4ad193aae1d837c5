/*
 * readback_util: a small table built as a roster with no marks and its
 * truth snapshot, laid out by `tags layout` (roster_layout_marks), written
 * and read again as a file is, drawn with figures standing as real
 * miniatures do and read back as `tableref detect` reads it. What the
 * read-back suites share (test_rim_readback.c, test_mast_readback.c); each
 * keeps its own units, camera and expectations.
 *
 * How to use:
 *   cJSON *rj, *sj, *ru, *su;
 *   rb_table_start(&rj, &sj, 360, 270, 20, 24, &ru, &su);  // board w x d, corner tags inset 20 mm, 24 mm
 *   cJSON *u, *s;
 *   rb_unit_start(ru, su, "spears", 20, 20, &u, &s);        // side red, base, 5"/10", no status
 *   rb_old_square_tag(u, 12);                                // an older roster's square tag, 3.5 mm up
 *   cJSON *um = cJSON_AddArrayToObject(u, "models"), *sm = cJSON_AddArrayToObject(s, "models");
 *   rb_model(um, sm, "spears-1", 10, x_mm, y_mm, facing_deg);
 *   roster_file *r = rb_laid_out(rj, "readback roster", NULL);  // laid out, written, read again; rj kept
 *   rules_snapshot *truth = rb_truth(sj);                    // sj kept
 *   rb_read rd;
 *   rb_render_and_read(r, truth, &cam_params, &render_params, &rd);  // rd.sc: the models scored
 *   ...
 *   rb_read_clear(&rd);
 * Every step asserts (Criterion) rather than return an error.
 */
#ifndef READBACK_UTIL_H
#define READBACK_UTIL_H

#include <cjson/cJSON.h>

#include "base_image.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "ds_score.h"
#include "roster.h"
#include "rules_snapshot.h"
#include "vis_detect.h"

/* A JSON array [a, b]. */
cJSON *rb_pair(double a, double b);
/* A roster (tag36h11) and a snapshot (t9a-2ed) of a w x d board with a reference tag of `tag_mm` at each corner,
 * `inset` mm in from both edges; *ru and *su their (empty) units arrays. */
void rb_table_start(cJSON **roster, cJSON **snap, double w, double d, double inset, double tag_mm, cJSON **ru,
                    cJSON **su);
/* A unit in both (side red, base w x d, Advance 5", March 10", no status), added to ru and su. */
void rb_unit_start(cJSON *ru, cJSON *su, const char *id, double w, double d, cJSON **unit, cJSON **snap_unit);
/* An older roster's square tag on the unit's bases: centred, unturned, 3.5 mm up, `size` mm. */
void rb_old_square_tag(cJSON *unit, double size);
/* A model in both: its tag id in the roster, its base centre and facing in the snapshot. */
void rb_model(cJSON *models, cJSON *snap_models, const char *id, int tag_id, double x, double y, double facing_deg);
/* The roster rj as `tags layout` writes it (roster_layout_marks over every unit), read back from its JSON;
 * *changed (when not NULL): the units laid out. */
roster_file *rb_laid_out(const cJSON *rj, const char *name, size_t *changed);
/* The truth snapshot sj. */
rules_snapshot *rb_truth(const cJSON *sj);

/* One picture drawn and read, and its models scored against the truth. */
typedef struct rb_read {
    base_image *img;
    ds_truth truth;
    rules_snapshot *got;
    vis_report rep;
    ds_score sc;
} rb_read;

/* Draws the table (roster r, truth) through the camera cp with params p and reads it; READBACK_SAVE=FILE saves the
 * picture to look at. */
void rb_render_and_read(const roster_file *r, const rules_snapshot *truth, const ds_camera_params *cp,
                        const ds_render_params *p, rb_read *out);
void rb_read_clear(rb_read *rd);

#endif
