/*
 * rendered_util: a generated table (ds_scene_generate) drawn with its
 * truth, what the vision suites read (test_vision_detect.c,
 * test_vision_reread.c, test_vision_recall.c); each suite picks the table
 * and what it covers or reads.
 *
 * How to use:
 *   ds_gen_params g;
 *   ds_gen_params_small(&g);                // 1280x960, 4 units of 6
 *   g.tag_height = 4;
 *   rendered r;
 *   rendered_draw(&r, &g, 0, 0);            // figures off, the scene's own supersampling
 *   ... r.scene->roster, r.scene->calib, r.img, r.truth ...
 *   rendered_free(&r);
 * Asserts (Criterion) rather than return an error.
 */
#ifndef RENDERED_UTIL_H
#define RENDERED_UTIL_H

#include "base_image.h"
#include "ds_render.h"
#include "ds_scene.h"

typedef struct rendered {
    ds_scene *scene;
    base_image *img;
    ds_truth truth;
} rendered;

/* The table g describes, drawn: figures on or off, supersample 1-4 (0: the scene's). */
void rendered_draw(rendered *r, const ds_gen_params *g, int figures, int supersample);
void rendered_free(rendered *r);

#endif
