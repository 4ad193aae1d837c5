/*
 * ref_snapshot_vision: vision's own account of a reading, for the programs
 * that show or tune it (`detect`'s report, `referee`'s report.json, the
 * benches): the detector a set-up reads with, the tags a reading decoded
 * and the detection's notes. Borrowed: valid while the set-up or the
 * reading lives. The watch never includes this header.
 *
 * How to use:
 *   ref_setup_detector(setup)->cfg.refine_pose_min_tags = 0;   // tune before the first reading
 *   const vis_report *rep = ref_snapshot_report(shot);          // vis_report_to_json(rep), rep->items[i].msg
 *   const vis_tag_list *tags = ref_snapshot_tags(shot);
 *   double grey = ref_paper_level(&view, tags->items, tags->n);  // the tags' white paper in a frame
 */
#ifndef REF_SNAPSHOT_VISION_H
#define REF_SNAPSHOT_VISION_H

#include "ref_setup.h"
#include "ref_snapshot.h"
#include "base_image.h"
#include "vis_detect.h"
#include "vis_report.h"
#include "vis_tag.h"

vis_detector *ref_setup_detector(ref_setup *s);
/* Median grey of the tags' white borders (half a cell outside each edge's middle) in `frame`; 0 when no tag
 * (ref_snapshot_paper_level of a reading's tags). */
double ref_paper_level(const base_view *frame, const vis_tag_detection *tags, size_t n);

const vis_report *ref_snapshot_report(const ref_snapshot *r);
const vis_tag_list *ref_snapshot_tags(const ref_snapshot *r);

#endif
