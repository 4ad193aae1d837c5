/*
 * ref_table_parts: the pre-round table check's verdict (ref_check_table.h)
 * from the parts of a reading, in vision's own types (ref_check_parts.h's
 * arguments). ref_snapshot.c takes them from a reading
 * (ref_snapshot_table_check). The watch never includes this header.
 *
 * How to use:
 *   ref_table_check tc;
 *   ref_table_check_parts(det, &names, &view, tags, n_tags, &report, snap, &tc);
 *   ref_checks_set(&tc.checks, &fit, picture); ref_table_check_decide(&tc);   // a check measured elsewhere
 *   ... ref_table_check_clear(&tc);
 */
#ifndef REF_TABLE_PARTS_H
#define REF_TABLE_PARTS_H

#include <stddef.h>

#include "base_image.h"
#include "ref_check.h"
#include "ref_check_table.h"
#include "rules_snapshot.h"
#include "vis_detect.h"
#include "vis_report.h"
#include "vis_tag.h"

/* Every figure of the pre-round check but the projector's (ref_check_parts' arguments, and the snapshot read:
 * each unit's models seen are ref_unit_models_seen's, the count detect places). -1 only when out of memory. */
int ref_table_check_parts(const vis_detector *det, const ref_check_names *names, const base_view *image,
                          const vis_tag_detection *tags, size_t n_tags, const vis_report *rep,
                          const rules_snapshot *snap, ref_table_check *out);
/* go and reason again, after a part changed (ref_checks_set on tc->checks, a unit's roster named). */
void ref_table_check_decide(ref_table_check *tc);

#endif
