/*
 * watch_show: what the recording and the projector show while watching:
 * the latest call drawn over the camera frame (or, with no call to show,
 * the tracked table in its players' colours), and the same call in
 * projector pixels so it lands on the table itself. A key (the players'
 * colours, the ruleset) is there from the first frame. The video's labels
 * are brief: the farthest model, models over their limit, what broke a
 * rule. While the table moves, the units under the change (compared with
 * the picture when the table last stood still) are drawn faint and
 * unlabelled: their marks are where they were, not where they are.
 *
 * The annotation is drawn only when what is shown changes (a verdict costs
 * ~200 ms to draw at 1280x960; compositing it costs a few ms a frame). The
 * overlay draws over opaque backgrounds only, so the layer is drawn twice,
 * over black and over white: Cairo's "over" gives black = a*C and white =
 * a*C + 255*(1 - a), hence 1 - a = (white - black) / 255, and a frame
 * becomes black + frame * (1 - a).
 *
 * How to use:
 *   watch_show *sh = watch_show_new(&calib, &err);
 *   per frame:
 *     watch_show_content c = {.table = snap, .before = b, .after = a, .report = rep, .roster = roster,
 *                             .moving = state != WATCH_TRACKER_SETTLED, .generation = g};
 *     const base_image *annotated = watch_show_camera(sh, frame, &c);     // frame as is when drawing fails
 *     const base_image *proj = watch_show_projector(sh, annotated, &c);   // projector pixels, or `annotated`
 *   (or, when no camera frame is shown: watch_show_follow(sh, frame, &c); watch_show_projector(sh, frame, &c))
 *   watch_show_free(sh);
 * The content's pointers are borrowed for the call only. Returned images
 * belong to sh and stay valid until the next call. Without Cairo
 * (TABLEREF_HAVE_OVERLAY 0) frames pass through unannotated.
 */
#ifndef WATCH_SHOW_H
#define WATCH_SHOW_H

#include <stdbool.h>

#include "calib_file.h"
#include "cvshim.h"
#include "base_error.h"
#include "rules_reach.h"
#include "rules_report.h"
#include "rules_snapshot.h"
#include "roster.h"

typedef struct watch_show_content {
    const rules_snapshot *table;           /* the latest settled snapshot; NULL before the first settle */
    const rules_snapshot *before, *after;  /* the call to show; NULL: show the table only */
    const rules_report *report;
    const roster_file *roster;              /* the players' sides for the key (may be NULL) */
    bool moving;                           /* the table is not settled: units under the change fade */
    long generation;                       /* must change whenever anything above changes */
} watch_show_content;

typedef struct watch_show watch_show;

/* calib is copied. NULL when out of memory. */
watch_show *watch_show_new(const calib_file *calib, base_error *err);
void watch_show_free(watch_show *sh);

/* The frame with the content drawn over it (the frame itself when drawing is off or failed). */
const base_image *watch_show_camera(watch_show *sh, const base_image *frame, const watch_show_content *c);
/*
 * Only what moves (the units under a change fade), for a caller that shows no camera frame: the projector's
 * picture then costs its own drawing, not the camera-sized layer's (at 12 MP ~0.4 s of CPU per new call).
 * watch_show_camera does this itself.
 */
void watch_show_follow(watch_show *sh, const base_image *frame, const watch_show_content *c);
/* The projector's picture: the content in projector pixels when the calibration maps the projector, else
 * `camera`. After watch_show_camera or watch_show_follow on the same frame. */
const base_image *watch_show_projector(watch_show *sh, const base_image *camera, const watch_show_content *c);
/*
 * The reach of a unit before it moves (issue 14), shown on the video and the
 * projector over whatever else is shown until it is replaced or cleared:
 * when a judge or player selects a unit,
 *   rules_reach r;
 *   if (ref_judge_reach(table, unit_id, RULES_MOVE_MARCH, &r, &err) == 0) {        // referee/ref_judge.h
 *       watch_show_set_reach(sh, &r, unit->side, &err);   // copied: r may be cleared at once
 *       rules_reach_clear(&r);
 *   }
 * and watch_show_set_reach(sh, NULL, NULL, &err) when the unit has moved or
 * is deselected. `side` turns its label to that player on the projector
 * (NULL: none). Returns 0, or -1 (out of memory; the old reach is kept).
 */
int watch_show_set_reach(watch_show *sh, const rules_reach *r, const char *side, base_error *err);

/* Drawing failed once (and was switched off); the message says why. NULL when fine. */
const char *watch_show_failure(const watch_show *sh);

#endif
