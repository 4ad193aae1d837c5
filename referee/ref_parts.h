/*
 * ref_parts: the referee's checks from the parts of a reading, in vision's
 * own types (the detector, the tags decoded, the detection's report, the
 * camera): what ref_snapshot.c calls on a reading, and what a program that
 * holds vision's own account may call itself. Implemented in the files
 * they belong to (ref_check.c, ref_check_table.c, ref_projcheck.c,
 * ref_warnings.c). The watch never includes this header: it reads frames
 * through ref_snapshot.h.
 *
 * How to use:
 *   ref_checks c;
 *   ref_check_parts(det, &names, &view, tags, n_tags, &report, &c);        // ref_check.h's figures
 *   ref_table_check tc;
 *   ref_table_check_parts(det, &names, &view, tags, n_tags, &report, &tc);  // ref_check_table.h's verdict
 *   vis_camera cam; ref_proj_camera(det, tags, n_tags, &cam);              // the pose the detection used
 *   ref_proj_run(&cam, &calib.projector, &marks, &loop, latency, 1, "C.json", &result, &err);
 *   ref_warnings_print(roster, snap, &report, "after", stderr, "tableref referee: ");
 */
#ifndef REF_PARTS_H
#define REF_PARTS_H

#include <stddef.h>
#include <stdio.h>

#include "base_image.h"
#include "calib_projector_loop.h"
#include "ref_check.h"
#include "ref_check_table.h"
#include "ref_projcheck.h"
#include "roster.h"
#include "rules_report.h"
#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect.h"
#include "vis_report.h"
#include "vis_tag.h"

/* ---- ref_check.c ---- */

/* The figures of one picture: the detector it was read with, the picture (grey), the tags decoded in it and
 * the detection's report. */
void ref_check_parts(const vis_detector *det, const ref_check_names *names, const base_view *image,
                     const vis_tag_detection *tags, size_t n_tags, const vis_report *rep, ref_checks *out);
/*
 * A tag ID seen twice on the table (VIS_ISSUE_DUPLICATE_ID in `rep`: every
 * copy already dropped by detection): the unit of its model cannot be judged
 * from a picture that shows it in two places. Each such unit in `r` is made
 * CANNOT TELL (unless not seen) with the reason, and a warning naming the
 * picture, the tag and the unit goes to `warn` (may be NULL). Returns the
 * number of units so marked; rules_report_refresh is done.
 */
size_t ref_check_mark_duplicates(const roster_file *roster, const char *picture, const vis_report *rep,
                                 rules_report *r, FILE *warn, const char *prog);

/* ---- ref_check_table.c ---- */

/* Every figure of the pre-round check but the projector's (ref_check_parts' arguments). -1 only when out of
 * memory. */
int ref_table_check_parts(const vis_detector *det, const ref_check_names *names, const base_view *image,
                          const vis_tag_detection *tags, size_t n_tags, const vis_report *rep, ref_table_check *out);

/* ---- ref_projcheck.c ---- */

/* The camera with the board pose the detection uses for these tags (re-solved from the board tags when the
 * calibration's pose no longer fits them, as vis_detect does). */
void ref_proj_camera(const vis_detector *det, const vis_tag_detection *tags, size_t n_tags, vis_camera *out);
/* The figures from a frame lit by the projector's black and one lit by the marks (gray, camera-sized). */
int ref_proj_measure(const vis_camera *cam, const calib_projector *p, const ref_proj_marks *m, const base_image *dark,
                     const base_image *lit, const char *calib_name, ref_proj_result *out, base_error *err);
/* Shows black, reads the dark frame; shows the marks, reads the lit frame; leaves the projector black; measures.
 * At most 300 frames per wait. 0, or -1 with err (the loop failed: nothing measured). */
int ref_proj_run(const vis_camera *cam, const calib_projector *p, const ref_proj_marks *m, const calib_loop *loop,
                 double latency_ms, int extra_frames, const char *calib_name, ref_proj_result *out, base_error *err);

/* ---- ref_snapshot.c ---- */

/* Median grey of the tags' white borders (half a cell outside each edge's middle) in `frame`; 0 when no tag
 * (ref_snapshot_paper_level of a reading's tags). */
double ref_paper_level(const base_view *frame, const vis_tag_detection *tags, size_t n);

/* ---- ref_warnings.c ---- */

/* The detection's warnings of `rep` for people, as ref_snapshot_print_warnings says them (ref_snapshot.h). */
void ref_warnings_print(const roster_file *roster, const rules_snapshot *snap, const vis_report *rep,
                        const char *picture, FILE *out, const char *prefix);

#endif
