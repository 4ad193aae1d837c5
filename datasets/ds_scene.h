/*
 * ds_scene: what the renderer draws. A scene is a snapshot (where models
 * stand), a roster (which tag is on which base), a camera (calibration) and
 * render parameters; it is read from "tableref.scene" JSON (docs/formats.md)
 * or generated (tests, benchmark).
 *
 * How to use:
 *   ds_scene *s = ds_scene_load("scene.json", &err);        // or ds_scene_generate(&gp, &err)
 *   ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err);
 *   ds_scene_free(s);
 */
#ifndef DS_SCENE_H
#define DS_SCENE_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "calib_file.h"
#include "ds_render.h"
#include "base_error.h"
#include "rules_snapshot.h"
#include "roster.h"

typedef struct ds_scene {
    rules_snapshot *snapshot;
    roster_file *roster;
    calib_file calib;
    ds_render_params render;
} ds_scene;

/* A camera looking at `target` (board mm) from `height_mm`, tilted from vertical. */
typedef struct ds_camera_params {
    int width, height;       /* px */
    double focal_px;
    double height_mm;        /* camera centre above the board */
    double tilt_deg;         /* optical axis from vertical (0..20 in a real rig) */
    double tilt_dir_deg;     /* direction the camera leans away from, on the board */
    double target[2];        /* where the optical axis meets the board, mm */
    double dist[5];
} ds_camera_params;
int ds_camera_make(const ds_camera_params *p, calib_file *out, base_error *err);

/* A generated table: blocks of models in a grid, facing at random. */
typedef struct ds_gen_params {
    uint32_t seed;
    double board_width, board_depth;  /* mm */
    int units, files, ranks;
    double base_width, base_depth;    /* mm */
    double tag_size, tag_height;      /* mm */
    double tag_forward;               /* tag centre ahead of the base centre, mm */
    double gap_mm;                    /* between bases in a rank (rules allow a small gap) */
    int first_tag_id;                 /* model tags get consecutive IDs from here; board tags 0..3 */
    double board_tag_size;            /* mm; 0 for none */
    ds_camera_params camera;
} ds_gen_params;

void ds_gen_params_small(ds_gen_params *g);   /* 1280x960, 4 units of 6: tests */
void ds_gen_params_bench(ds_gen_params *g);   /* 4056x3040, 25 units of 10 (250 tags of 16 mm): bench */
ds_scene *ds_scene_generate(const ds_gen_params *g, base_error *err);

/* Reads a "tableref.scene" file; every object's keys and every number's range are checked (docs/formats.md). */
ds_scene *ds_scene_load(const char *path, base_error *err);
/* Flags for ds_scene_from_json. */
enum { DS_SCENE_INLINE_ONLY = 1 /* refuse members given as file names (fuzzing, untrusted input) */ };
/* The same from parsed JSON; `path` names errors and anchors relative member file names. */
ds_scene *ds_scene_from_json(const cJSON *root, const char *path, unsigned flags, base_error *err);
void ds_scene_free(ds_scene *s);

#endif
