/*
 * rendered_util: a generated table (ds_scene_generate) drawn with its
 * truth, what the vision suites read (test_vision_detect.c,
 * test_vision_reread.c, test_vision_recall.c); each suite picks the table
 * and what it covers or reads. And what the first pass reads of a picture
 * against its truth (test_render_blind.c, test_render_webcam.c).
 *
 * How to use:
 *   ds_gen_params g;
 *   ds_gen_params_small(&g);                // 1280x960, 4 units of 6
 *   g.tag_height = 4;
 *   rendered r;
 *   rendered_draw(&r, &g, 0, 0);            // figures off, the scene's own supersampling
 *   ... r.scene->roster, r.scene->calib, r.img, r.truth ...
 *   rendered_free(&r);
 *
 *   size_t clear, read;                     // a picture's clear tags and those the first pass reads
 *   rendered_blind_reads(det, img, &truth, &clear, &read);
 * Asserts (Criterion) rather than return an error.
 */
#ifndef RENDERED_UTIL_H
#define RENDERED_UTIL_H

#include "base_image.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "ds_truth.h"
#include "vis_detect.h"

typedef struct rendered {
    ds_scene *scene;
    base_image *img;
    ds_truth truth;
} rendered;

/* The table g describes, drawn: figures on or off, supersample 1-4 (0: the scene's). */
void rendered_draw(rendered *r, const ds_gen_params *g, int figures, int supersample);
void rendered_free(rendered *r);

/* The picture's tags at least 90% visible (clear) and those of them the detector's first pass reads over the whole
 * picture (ds_score_tags); expects no wrong read. */
void rendered_blind_reads(vis_detector *det, const base_image *img, const ds_truth *truth, size_t *clear,
                          size_t *read);

#endif
