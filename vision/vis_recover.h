/*
 * vis_recover: reading tags that apriltag's quad finder could not, from the
 * picture itself (units of which nothing was decoded: vis_recover_hidden.h). A tag partly covered by a leaning figure or a hand loses
 * the clean black square the quad finder needs, but its visible cells still
 * carry its code: fitting the roster's tag outline near a dark blob and
 * reading the visible data cells against the family's codes recovers it.
 *
 * Two searches:
 *   - vis_recover_read_slots: a unit with a tag decoded has a formation;
 *     each free place of it is read for the tag of an unread model of the
 *     unit (the position is known to a few mm, the heading to a few
 *     degrees: a strong prior, so a half-covered tag still reads).
 *   - vis_recover_hidden_units (vis_recover_hidden.h): units of which no tag at all was decoded
 *     (every tag partly hidden) are looked for among dark square blobs that
 *     no placed model explains; a unit is seeded when two reads agree on
 *     one formation, or by one read beyond doubt (vis_detect_config
 *     recover_*, one_read_*).
 *
 * How to use (inside vis_detect; `seen` has one entry per roster model; the paper measured once a frame):
 *   const vis_paper paper = vis_recover_paper(&image, tags, n);
 *   vis_recover_read_slots(det, &cam, &image, &paper, estimate, NULL, seen, &report);  // then rebuild the units
 *   vis_recover_hidden_units(det, &cam, &image, &paper, tags, n, prior, seen, seeded, &searched_px, &report);
 *   vis_recover_read_slots(..., seeded, seen, &report);   // the seeded units' free places
 *   vis_recover_confirm(det, seeded, seen, partial, &report);   // then vis_units_options.partial = partial
 */
#ifndef VIS_RECOVER_H
#define VIS_RECOVER_H

#include <stddef.h>

#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_recover_common.h"
#include "vis_report.h"
#include "vis_tag.h"
#include "vis_units.h"

/*
 * Reads the tags the quad finder missed where the estimate's formations put
 * models: every free place of each unit that has a seen model (a rank and
 * a file beyond too, and the rear rank's half steps) is read, and a read
 * that names an unread model of that unit decisively (vis_detect_config
 * read_*) marks it seen at the read pose (VIS_ISSUE_READ). Returns the
 * number of models added, or -1 when out of memory.
 */
int vis_recover_read_slots(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                           const rules_snapshot *estimate, const unsigned char *only, vis_seen_model *seen,
                           vis_report *rep);

/*
 * Tags apriltag decoded whose corners are off a square (a covered corner
 * pulls the quad): marked `rough`, good to a millimetre or two. Their
 * outline is refitted where they were found (the ID and its rotation are
 * known) and their pattern read again; a decisive read makes the model seen
 * at the refitted pose (VIS_ISSUE_READ). Returns the number refitted.
 */
int vis_recover_refine_rough(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                             vis_seen_model *seen, vis_report *rep);

/*
 * Each cleanly decoded tag's pose taken again from its black square's edges
 * fitted as lines (at least three of them), rather than from apriltag's four
 * corners: on rendered 28 px tags the centre's p99 error falls from 0.12 to
 * 0.04 mm and the heading's from 0.4-0.6 to 0.1 degree. Returns the number
 * polished.
 */
int vis_recover_polish_poses(const vis_detector *d, const vis_camera *cam, const base_view *im,
                                vis_seen_model *seen);

/*
 * After the seeded units' free places were read: a seeded unit with fewer
 * than max(recover_min_tags, a third of its models) read cannot have its
 * formation told. Its models read beyond doubt (vis_seen_model.certain:
 * vis_detect_config one_read_*) are kept; the others are dropped again.
 * When that leaves some but not all of its models, partial[unit] is set
 * (one flag per roster unit, for vis_units_options.partial: the rest are
 * reported not seen, never guessed); when it leaves none, the unit is
 * reported as not placed. A unit of one model read beyond doubt is whole.
 */
void vis_recover_confirm(const vis_detector *d, const unsigned char *seeded, vis_seen_model *seen,
                         unsigned char *partial, vis_report *rep);

#endif
