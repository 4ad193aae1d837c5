/*
 * ds_truth: a rendered picture's exact truth (ds_render.h): every tag's
 * corners and how much of it is hidden, and by what; every model's tag.
 * Its own header so that ds_truth.c, which writes it as JSON, stands
 * beneath ds_render.c, which fills it.
 *
 * How to use:
 *   ds_truth truth = {0};
 *   ds_render(snapshot, roster, &calib, &p, &img, &truth, &err);        // fills it
 *   double seen = ds_truth_tag_visible(&truth.tags[0]);
 *   cJSON *j = ds_truth_to_json(&truth, snapshot, roster, &calib, "image.jpg");
 *   ds_truth_clear(&truth);
 */
#ifndef DS_TRUTH_H
#define DS_TRUTH_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "calib_file.h"
#include "rules_snapshot.h"
#include "roster.h"

typedef struct ds_truth_tag {
    int id;
    long model;               /* index into roster->models, -1 for a board tag */
    double corners[4][2];     /* px (OpenCV convention), apriltag's corner order */
    double centre[2];         /* px */
    double edge_px;           /* mean side of the black square, px */
    double occluded;          /* fraction of the black square hidden (by anything) */
    double occluded_figure;   /* ... by figures, their weapons and banners (its own figure included) */
    double occluded_hand;     /* ... by hands and arms */
    double border_occluded;   /* fraction of the whole printed tag, white border included, hidden */
    int inside;               /* all corners at least 2 px inside the frame */
    int fully_visible;        /* inside and nothing of the printed tag (white border too) hidden */
} ds_truth_tag;

/* Share of a tag's black square that can be seen (0 when it is not inside the frame). */
double ds_truth_tag_visible(const ds_truth_tag *t);

typedef struct ds_truth_model {
    size_t unit, model;       /* indices into the snapshot rendered */
    long roster_model;        /* index into roster->models */
    long tag;                 /* index into the truth's tags, -1 when none */
    int hand_hidden;          /* a hand or an arm hides some of its tag's black square */
    double base_covered;      /* share of its base's top hidden (figures, theirs included, and hands) */
} ds_truth_model;

typedef struct ds_truth {
    ds_truth_tag *tags;
    size_t n_tags;
    ds_truth_model *models;   /* every model of the snapshot, in its order */
    size_t n_models;
    int width, height;
} ds_truth;

void ds_truth_clear(ds_truth *t);

/* Ground truth JSON ("tableref.truth" v2, docs/formats.md). Caller frees. */
cJSON *ds_truth_to_json(const ds_truth *t, const rules_snapshot *snap, const roster_file *roster,
                        const calib_file *cam, const char *image_name);

/* A truth file read back (`detect --truth`) is as strict as every reader: every key of it is one the format has
 * (the hard set's formation truth included). 0, or -1 naming the field ("models[3].x_m: unknown field; did you
 * mean \"x_mm\"?"). */
int ds_truth_check_keys(const cJSON *root, base_error *err);

#endif
