/*
 * vis_uncert: how well vision knows where each model stands, as one
 * standard deviation of its base centre on the board (mm). The snapshot
 * carries it per model (`sigma_mm`), so the rules can tell a violation that
 * stands from one within the measurement's reach (rules_robust).
 *
 * The model:
 *   seen:     sqrt((s * corner_px / 2)^2 + (s * pose_rms_px)^2 + calib_mm^2 + mount_mm^2)
 *   rough:    sqrt(seen^2 + max(rough_mm, 2 * square_residual_mm)^2)
 *   inferred: sqrt(seen^2 + hand_mm^2 + fit_mm^2)
 * where s is the camera's mm per pixel at the model (at its tag's height),
 * corner_px the tag corners' noise (four corners average it to half),
 * pose_rms_px the board tags' reprojection RMS of the frame (a misplaced
 * board pose moves every model), calib_mm the calibration's own board error
 * when the file states it, mount_mm how far a tag may sit from its place on
 * the base, rough_mm what a partly hidden tag's corners cost (its measured
 * square residual doubled when larger), hand_mm how far a hand places a
 * model from its slot in the block, and fit_mm how well the unit's fitted
 * grid pins that slot (vis_formation: the fit's residual spread, carried
 * out to the slot through the uncertainty of origin and pitches).
 * On a table with relief (`relief`), s is taken at the tag's height over
 * the surface under the model, and the surface's own uncertainty (a hill's
 * height known to sigma_h) adds its parallax: sigma_h x r / (C_z - z), r
 * the model's distance from the point under the camera.
 *
 * How to use:
 *   vis_uncert_source src;
 *   vis_uncert_source_default(&src, &calib, report.pose_rms_px);   // calib may be NULL
 *   src.relief = &relief;                                            // optional: a table with hills
 *   double sd = vis_uncert_seen(&src, pos, mount_height_mm);         // the tag's height over its base's bottom
 */
#ifndef VIS_UNCERT_H
#define VIS_UNCERT_H

#include <stdbool.h>

#include "calib_file.h"
#include "base_geom.h"
#include "vis_camera.h"
#include "vis_relief.h"

typedef struct vis_uncert_source {
    bool have_camera;
    vis_camera cam;        /* copied from the calibration */
    double pose_rms_px;    /* NAN when unknown: taken as 0.3 px (detect's own refinement threshold) */
    double corner_px;      /* default 0.1 */
    double calib_mm;       /* default: the calibration's board_error_mm when stated, else 0 */
    double mount_mm;       /* default 0.2 */
    double rough_mm;       /* default 1.0 */
    double hand_mm;        /* default 1.5 */
    double mm_per_px;      /* used without a camera; default 0.5 */
    const vis_relief *relief;  /* the table's hills (borrowed); NULL: a flat table */
} vis_uncert_source;

/* Defaults; `calib` may be NULL (then mm_per_px stands in for the camera). */
void vis_uncert_source_default(vis_uncert_source *s, const calib_file *calib, double pose_rms_px);

/* The camera's mm per pixel at board point `pos`, `height_mm` above the board (not the relief's surface). */
double vis_uncert_mm_per_px(const vis_uncert_source *s, base_vec2 pos, double height_mm);
/* 1 sigma of a model whose tag was read cleanly; height_mm: its tag's over the surface under it. */
double vis_uncert_seen(const vis_uncert_source *s, base_vec2 pos, double height_mm);
/* 1 sigma of a model whose tag was read partly hidden; residual_mm its corners' miss of a square (0: unknown). */
double vis_uncert_rough(const vis_uncert_source *s, base_vec2 pos, double height_mm, double residual_mm);
/* 1 sigma of a model placed in its unit's fitted formation; fit_mm from the fit. */
double vis_uncert_inferred(const vis_uncert_source *s, base_vec2 pos, double height_mm, double fit_mm);

#endif
