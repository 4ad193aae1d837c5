/*
 * vis_height: every unit's height cross-checked with its tags' apparent
 * size. The table's relief (vis_relief.h) says where in height each model
 * stands; a calibrated camera reading a printed square of known size says
 * it too: the nearer, the larger (3-5 % for a 50 mm hill from 1.2-1.6 m).
 *
 * A tag's size in a picture is not its print's, though: the quad finder
 * fits its black square a fraction of a pixel inside the blurred edge (on
 * the hard set's renders 0.7-0.8 px of a 34 px tag: 2.3 %, what 30 mm of
 * height would give), and ink spreads on paper. So the sizes are read
 * against each other, never against the print: the frame's own bias (px
 * of edge the finder loses, the same on every tag of a picture) is voted
 * for by every unit with a cleanly decoded tag (the median over its tags
 * of (the tag's edge at the height the table gives it - its edge as
 * read)) and by the board's reference tags in view (at their own stated
 * height), one vote each, and is the median vote (of two votes, the
 * board's). Each tag's apparent height is that of its edge corrected by
 * the bias. A unit is so compared with the rest of the table: a unit
 * standing on a hill the table file leaves out reads high against the
 * others and the board. With fewer than two votes (a table of one unit and
 * no board tag in view) nothing is checked; a table whose every unit
 * stands on such a hill, no board tag in view, reads as one printed large.
 *
 * Per unit, over its cleanly decoded tags, the median of (apparent height -
 * the relief's) and its standard error (from the tags' spread, never below
 * what the corners' noise gives one tag) decide: off by more than
 * cfg.height_min_mm and cfg.height_sigmas standard errors, the unit stands
 * elsewhere than the table says (a hill missing from the table file, a
 * base on a book). Then:
 *   - a warning (VIS_ISSUE_HEIGHT, its `unit` field the unit) naming the
 *     unit and the height it seems to stand at;
 *   - the unit's height_seen_mm / height_table_mm set in the snapshot
 *     (rules_unit_height_unsettled): the judge calls its move CANNOT TELL,
 *     never LEGAL or ILLEGAL (rules_robust.h).
 * A unit of which no tag was decoded cleanly is not checked. Every unit
 * measured, settled or not, is listed in the report's `heights` (its id,
 * seen_mm +/- se_mm, table_mm): what a survey of the relief reads
 * (referee/ref_survey.h).
 *
 * How to use (vis_detect does it after rebuilding the units):
 *   vis_height_check(detector, &cam, tags, n, seen, snapshot, &report);
 *   size_t votes; double bias = vis_height_bias(detector, &cam, tags, n, seen, &votes);   // px the finder loses
 *   vis_height_unit h; vis_height_measure(detector, &cam, seen, bias, unit_index, &h);   // one unit
 */
#ifndef VIS_HEIGHT_H
#define VIS_HEIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_report.h"
#include "vis_tag.h"
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

/* The frame's bias: px of edge the quad finder loses on every tag (the median vote of the units and the board
 * tags among `tags`); *votes (optional) how many voted; NAN when none. */
double vis_height_bias(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *tags, size_t n,
                       const vis_seen_model *seen, size_t *votes);
/* The apparent height (mm) of one measured tag of a unit with mount `m`, its edge corrected by `bias_px`. */
double vis_height_apparent(const vis_camera *cam, const vis_seen_model *s, double bias_px);
/* Unit `ui` of the detector's map measured; h->tags 0 when none of its tags was decoded cleanly. */
void vis_height_measure(const vis_detector *d, const vis_camera *cam, const vis_seen_model *seen, double bias_px,
                        size_t ui, vis_height_unit *h);
/* Every unit of `s` checked (the frame's `tags`: its board tags vote); the unsettled ones warned of and marked. */
void vis_height_check(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *tags, size_t n,
                      const vis_seen_model *seen, rules_snapshot *s, vis_report *rep);

#endif
