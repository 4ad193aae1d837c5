/*
 * ov_uncert: how sure each call is. A per-model position uncertainty from
 * the vision pipeline, propagated to each model's distance and to each
 * violation's measured value; a call whose margin to its limit lies within
 * the uncertainty is "too close to call".
 *
 * The model (docs/formats.md, "Referee output", says the same): one
 * standard deviation of a base centre on the board, in mm, is
 *   seen model:     sqrt((s * corner_px / 2)^2 + (s * pose_rms_px)^2 + calib_mm^2 + mount_mm^2)
 *   inferred model: sqrt(seen^2 + formation_mm^2)
 * where s is the camera's mm per pixel at the model (from the calibration),
 * corner_px the tag corners' noise (apriltag: ~0.1 px; four corners average
 * to half of it), pose_rms_px the board tags' reprojection RMS of the frame
 * (vis_report.pose_rms_px: a misplaced board pose moves every model), calib_mm
 * the calibration's own board error when the file states it
 * (camera_quality.board_error_mm), mount_mm how far a tag may sit from its
 * nominal place on the base (0.2 mm), and formation_mm how far a hand places
 * a model from its slot in the block (1.5 mm: rules_formation accepts 4).
 * A distance between two frames has sigma sqrt(before^2 + after^2) (errors
 * taken as independent: conservative for the calibration part, which the
 * two frames share). Shown values are `coverage` sigmas (2: about 95 %).
 *
 * How to use:
 *   ov_uncert u; ov_uncert_init(&u);
 *   ov_uncert_source src; ov_uncert_source_default(&src, &calib, rep_before.pose_rms_px);
 *   ov_uncert_add_snapshot(&u, before, OV_UNCERT_BEFORE, &src, &err);
 *   ... same for after ...
 *   double pm = ov_uncert_distance(&u, "spears-3");   // +/- mm of its distance (coverage sigmas)
 *   ov_uncert_clear(&u);
 */
#ifndef OV_UNCERT_H
#define OV_UNCERT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "calib_file.h"
#include "rules_error.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct ov_uncert_source {
    const calib_file *calib;  /* borrowed for ov_uncert_add_snapshot only; NULL: s = 1 mm per px assumed */
    double pose_rms_px;       /* NAN when unknown (taken as 0.3 px, detect's own threshold) */
    double corner_px;         /* default 0.1 */
    double calib_mm;          /* default: calib->quality.board_error_mm when present, else 0 */
    double mount_mm;          /* default 0.2 */
    double formation_mm;      /* default 1.5 */
} ov_uncert_source;

void ov_uncert_source_default(ov_uncert_source *s, const calib_file *calib, double pose_rms_px);

typedef struct ov_model_uncert {
    char id[RULES_ID_MAX];
    double sigma_mm[2];       /* before, after; NAN when the model is not in that snapshot */
    bool inferred[2];
} ov_model_uncert;

enum { OV_UNCERT_BEFORE = 0, OV_UNCERT_AFTER = 1 };

typedef struct ov_uncert {
    ov_model_uncert *models;
    size_t n, cap;
    double coverage;          /* shown and compared values are this many sigmas (default 2) */
} ov_uncert;

void ov_uncert_init(ov_uncert *u);
void ov_uncert_clear(ov_uncert *u);
/* Adds every model of `s` as seen in frame `which`. Returns 0 or -1 (out of memory). */
int ov_uncert_add_snapshot(ov_uncert *u, const rules_snapshot *s, int which, const ov_uncert_source *src,
                           rules_error *err);
/* One sigma of a model's base centre in a frame (mm), NAN when unknown. */
double ov_uncert_sigma(const ov_uncert *u, const char *model_id, int which);
/* +/- (coverage sigmas, mm) of a model's distance from before to after; NAN when unknown. */
double ov_uncert_distance(const ov_uncert *u, const char *model_id);
/* +/- of a violation's measured value in its own unit (lengths: worst of its models, or of the
 * unit's models when it names none; angles: that length over the unit's front width). NAN when unknown. */
double ov_uncert_violation(const ov_uncert *u, const rules_unit_report *ur, const rules_violation *v);
/* A call is too close when |measured - limit| <= plusminus. False when plusminus is NAN. */
bool ov_uncert_too_close(double measured, double limit, double plusminus);
/* True when any call of the unit (its violations, its models against the rate) is too close. */
bool ov_uncert_unit_too_close(const ov_uncert *u, const rules_unit_report *ur);
/* JSON additions for report.json: per unit, per model and per violation. Caller frees. */
cJSON *ov_uncert_to_json(const ov_uncert *u, const rules_report *r);

#endif
