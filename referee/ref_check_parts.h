/*
 * ref_check_parts: the self-checks (ref_check.h) from the parts of a
 * reading, in vision's own types: the detector the picture was read with,
 * the tags decoded and the detection's report. ref_snapshot.c takes them
 * from a reading (ref_snapshot_check); a program or test that holds vision's
 * own account may call them itself. The watch never includes this header.
 *
 * How to use:
 *   ref_checks c;
 *   ref_check_parts(det, &names, &view, tags, n_tags, &report, &c);
 *   ref_check_mark_duplicates(roster, "after.jpg", &report, &judged_report, stderr, "tableref referee");
 */
#ifndef REF_CHECK_PARTS_H
#define REF_CHECK_PARTS_H

#include <stddef.h>
#include <stdio.h>

#include "base_image.h"
#include "ref_check.h"
#include "roster.h"
#include "rules_report.h"
#include "vis_detect.h"
#include "vis_report.h"
#include "vis_tag.h"

/* The figures of one picture: the detector it was read with, the picture (grey), the tags decoded in it and
 * the detection's report. */
void ref_check_parts(const vis_detector *det, const ref_check_names *names, const base_view *image,
                     const vis_tag_detection *tags, size_t n_tags, const vis_report *rep, ref_checks *out);
/* One check's result, measured elsewhere (REF_CHECK_ROSTER_FIT, from the snapshot: ref_roster_fit.h), into `c`:
 * its ok and n_failed follow. */
void ref_checks_set(ref_checks *c, const ref_check_result *r, const char *picture);
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

#endif
