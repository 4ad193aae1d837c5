/*
 * ref_survey: the heights of a table's hills measured from the camera, each
 * with its +/-. The table file gives each hill's outline and a rough height
 * (a ruler's, within ~10 mm); the survey reads one picture of the table with
 * units standing on the hills and on the board and measures every hill
 * from the models' own tags: a calibrated camera sees a printed square the
 * larger the nearer it is (vision/vis_height.h: each unit's tags read
 * against the rest of the table and the board tags in view).
 *
 * For each hill, the units whose every model stands on its flat top (in the
 * snapshot read with the current heights) each give a height, seen_mm +/-
 * se_mm; the hill's is their weighted mean. Its sigma adds, in quadrature,
 * how well the frame's own scale is known: the standard error of the
 * units standing on the board (which should read 0 mm), at least 2 mm
 * when fewer than three do. The size cue is weak (a 50 mm hill makes a
 * tag 3-4 % larger from 1.4 m): on ds_climb's 12 MP renders one unit of
 * 20 models gives a hill to 1-3 mm, and the +/- says so. Position and height depend on each other (a tag on a
 * hill read at a wrong height is placed off by parallax), so the picture
 * is read again with the heights measured until none changes by more than
 * 0.1 mm (at most REF_SURVEY_ROUNDS readings). A hill no unit stands
 * wholly on is not measured (NAN): lay a unit or a few based tags on it.
 *
 * A hill's height agrees with the table file's when they differ by at most
 * 3 combined sigmas (the file's sigma: its height_sigma_mm, else 1 mm).
 * The set-up's own relief is left as it was.
 *
 * How to use:
 *   ref_survey sv;
 *   if (ref_survey_read(setup, &view, &sv, &err) < 0) ...;   // setup: a table file's, or ref_setup_set_terrain's
 *   for (size_t i = 0; i < sv.n; i++) sv.hills[i].height_mm, .sigma_mm, .agrees ...
 *   ref_survey_apply(&sv, snap->terrain, snap->n_terrain);    // the measured heights into a copy of the terrain
 *   ref_survey_clear(&sv);
 */
#ifndef REF_SURVEY_H
#define REF_SURVEY_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "base_image.h"
#include "ref_setup.h"
#include "rules_snapshot.h"

#define REF_SURVEY_ROUNDS 4

typedef struct ref_survey_hill {
    char id[RULES_ID_MAX];   /* the terrain piece's id ("" when it has none) */
    size_t piece;            /* its index in the table's terrain */
    double file_mm;          /* the table file's height */
    double file_sigma_mm;    /* its sigma (height_sigma_mm, else RULES_RELIEF_DEFAULT_SIGMA_MM) */
    double height_mm;        /* measured; NAN when no unit stood wholly on its top */
    double sigma_mm;         /* its 1 sigma */
    size_t units, tags;      /* the units and their tags it was measured from */
    bool agrees;             /* measured and within 3 combined sigmas of the file's */
} ref_survey_hill;

typedef struct ref_survey {
    ref_survey_hill *hills;  /* one per hill of the table's terrain; owned */
    size_t n;
    size_t rounds;           /* readings made */
    size_t flat_units;       /* units on the board that gave the frame's scale */
    double scale_sigma_mm;   /* the height sigma the frame's scale adds to every hill */
} ref_survey;

/* Reads `frame` (8-bit grey, the calibration's size) and measures every hill of the set-up's terrain. 0, or
 * -1 with err (no hill in the terrain: BASE_E_INVALID). */
int ref_survey_read(ref_setup *s, const base_view *frame, ref_survey *out, base_error *err);
/* Each measured hill's height and sigma into t[piece] (terrain as the survey read it). */
void ref_survey_apply(const ref_survey *sv, rules_terrain *t, size_t n);
void ref_survey_clear(ref_survey *sv);

#endif
