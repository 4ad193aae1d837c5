/*
 * ref_table_parts: the pre-round table check's verdict (ref_check_table.h)
 * from the parts of a reading, in vision's own types (ref_check_parts.h's
 * arguments). ref_snapshot.c takes them from a reading
 * (ref_snapshot_table_check). The watch never includes this header.
 *
 * How to use:
 *   ref_table_check tc;
 *   ref_table_check_parts(det, &names, &view, tags, n_tags, &report, &tc);
 *   ... ref_table_check_clear(&tc);
 */
#ifndef REF_TABLE_PARTS_H
#define REF_TABLE_PARTS_H

#include <stddef.h>

#include "base_image.h"
#include "ref_check.h"
#include "ref_check_table.h"
#include "vis_detect.h"
#include "vis_report.h"
#include "vis_tag.h"

/* Every figure of the pre-round check but the projector's (ref_check_parts' arguments). -1 only when out of
 * memory. */
int ref_table_check_parts(const vis_detector *det, const ref_check_names *names, const base_view *image,
                          const vis_tag_detection *tags, size_t n_tags, const vis_report *rep, ref_table_check *out);

#endif
