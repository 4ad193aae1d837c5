/*
 * vis_reread: one reading of a frame through the detector, whole or only
 * where it changed since a reading the caller settled on (a tracker that
 * watches the table). Where it changed (`regions`) the tags are found as a
 * whole-frame reading finds them (vis_detector_detect_in: the plan's level
 * of detail), elsewhere they are carried over from that reading; the units
 * no changed region touches keep its models as they were; a unit of which
 * no tag decodes is looked for by its partly hidden tags only where the
 * frame changed (within its reach) and where that reading placed it, since
 * nothing can have appeared elsewhere (vis_recover_blobs.h); a model read
 * then and not now, of a unit that stayed, is kept where it was when its
 * tag's pixels are unchanged (vis_patch.h); a unit whose every model moved
 * less than `stayed_mm` (and turned less than a degree) keeps its poses
 * exactly; and the tags of this reading are sampled for the next one. The
 * referee's door (referee/ref_snapshot.h) reads every frame of every
 * program here, in one call.
 *
 * How to use:
 *   vis_reread_options o = {.stayed_mm = 2, .patches = true};
 *   vis_reading first = {0};
 *   vis_detector_reread(det, &frame, &o, &first, &err);            // the whole frame
 *   vis_since since = {first.snap, &first.tags, first.patches};
 *   o.since = &since; o.regions = changed; o.n_regions = n;          // later: only where it changed
 *   vis_reading next = {0};
 *   vis_detector_reread(det, &frame2, &o, &next, &err);
 *   ... next.snap, next.report, next.tags, next.kept ...
 *   vis_reading_clear(&next); vis_reading_clear(&first);
 */
#ifndef VIS_REREAD_H
#define VIS_REREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "base_image.h"
#include "rules_snapshot.h"
#include "vis_detect.h"
#include "vis_patch.h"
#include "vis_report.h"
#include "vis_tag.h"

/* A reading settled on: what a later reading keeps of it. Borrowed. */
typedef struct vis_since {
    const rules_snapshot *snap;   /* its snapshot (the prior of the new reading) */
    const vis_tag_list *tags;     /* the tags it read (decoded, or carried over) */
    const vis_patches *patches;   /* its tags' patches; NULL: none */
} vis_since;

typedef struct vis_reread_options {
    const vis_since *since;           /* NULL: a first reading */
    const rules_snapshot *prior;      /* without since: the prior (NULL: none) */
    const vis_tag_region *regions;    /* with since: the parts that changed (full-frame px, cores); NULL: whole */
    size_t n_regions;
    double stayed_mm;                 /* with since: a unit whose every shared model moved less stayed */
    bool patches;                     /* sample this reading's tags for a later one */
} vis_reread_options;

typedef struct vis_reading {
    rules_snapshot *snap;             /* owned */
    vis_report report;                /* the detection's notes */
    vis_tag_list tags;                /* the frame's tag list: decoded now, or carried over */
    vis_patches *patches;             /* owned; NULL when not taken */
    bool whole;                       /* the whole frame was searched */
    size_t kept;                      /* models kept where they were: their tag's pixels unchanged */
} vis_reading;

/* Reads `frame` (8-bit grey, the calibration's size; borrowed for the call) into *out (empty first). 0 or -1 with
 * err; *out holds nothing on error. */
int vis_detector_reread(vis_detector *d, const base_view *frame, const vis_reread_options *o, vis_reading *out,
                        base_error *err);
void vis_reading_clear(vis_reading *r);

#endif
