/*
 * vis_height: every unit's height cross-checked with its tags' apparent
 * size. The table's relief (vis_relief.h) says where in height each model
 * stands; a calibrated camera reading a printed square of known size says
 * it too (vis_relief_apparent_height: 3-5 % larger for a 50 mm hill from
 * 1.2-1.6 m). Per unit, over its cleanly decoded tags, the median of
 * (apparent height - the relief's) and its standard error (from the tags'
 * spread, never below what the corners' noise gives one tag) decide: off
 * by more than cfg.height_min_mm and cfg.height_sigmas standard errors,
 * the unit stands elsewhere than the table says (a hill missing from the
 * table file, a base on a book, tags printed at another size). Then:
 *   - a warning (VIS_ISSUE_HEIGHT, its `unit` field the unit) naming the
 *     unit and the height it seems to stand at;
 *   - the unit's height_seen_mm / height_table_mm set in the snapshot
 *     (rules_unit_height_unsettled): the judge calls its move CANNOT TELL,
 *     never LEGAL or ILLEGAL (rules_robust.h).
 * A unit of which no tag was decoded cleanly is not checked.
 *
 * How to use (vis_detect does it after rebuilding the units):
 *   vis_height_check(detector, &cam, seen, snapshot, &report);
 *   vis_height_unit h; vis_height_measure(detector, &cam, seen, unit_index, &h);   // one unit's figures
 */
#ifndef VIS_HEIGHT_H
#define VIS_HEIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_report.h"
#include "vis_units.h"

/* One unit's height as its tags' sizes tell it. */
typedef struct vis_height_unit {
    size_t tags;           /* cleanly decoded tags measured */
    double offset_mm;      /* median of (apparent - relief's) tag height */
    double se_mm;          /* its standard error */
    double seen_mm;        /* the surface height its tags seem to stand on (median) */
    double table_mm;       /* the relief's under them (median) */
    bool unsettled;        /* off beyond cfg.height_min_mm and cfg.height_sigmas standard errors */
} vis_height_unit;

/* Unit `ui` of the detector's map measured; h->tags 0 when none of its tags was decoded cleanly. */
void vis_height_measure(const vis_detector *d, const vis_camera *cam, const vis_seen_model *seen, size_t ui,
                        vis_height_unit *h);
/* Every unit of `s` checked; the unsettled ones warned of and marked. */
void vis_height_check(const vis_detector *d, const vis_camera *cam, const vis_seen_model *seen, rules_snapshot *s,
                      vis_report *rep);

#endif
