/*
 * ref_snapshot: the one door for frames. A picture of the table (a file,
 * or a frame in memory) read through a set-up into a snapshot: every model
 * of the roster placed by the set-up's detector, the judge's statuses, the
 * table's ruleset and terrain applied, and, asked for, the set-up's
 * self-checks done on it. `referee`, `detect`, `table-check` and the
 * watch's tracker and start check all read their pictures here, so the
 * same picture gives the same snapshot to all of them.
 *
 * A tracker that knows which parts of the picture changed since its last
 * settled reading (`since`) reads only those (ref_read_options.regions):
 * tags elsewhere are carried over from that reading, a unit no changed part
 * touches keeps its models as they were, and a model read then and not now,
 * of a unit that stayed, is kept where it was when its tag's pixels are
 * unchanged (vision/vis_patch.h). The tags in a changed part are found as
 * a whole-frame read finds them (vision's plan of the frame: each part at
 * its level of detail, vis_detector_detect_in).
 *
 * How to use:
 *   ref_snapshot *b = ref_snapshot_new(setup, "before.jpg", NULL, &err);   // NULL: err names the picture
 *   ref_snapshot_print_warnings(setup, b, NULL, stderr, "tableref detect: ");  // the detection's warnings for people
 *   ... b->snap (the snapshot), b->image (the picture, to draw on) ...
 *   ref_snapshot_free(b);
 *
 *   ref_read_options o; ref_read_options_default(&o);          // a frame in memory (a tracker)
 *   o.since = last; o.regions = changed; o.n_regions = n;       // optional: only where it changed
 *   o.checks = true; o.picture = "the frame at 12.4 s";         // optional: the self-checks (a whole frame)
 *   ref_snapshot *f = ref_snapshot_read(setup, &view, &o, &err);
 *   if (!ref_snapshot_checks_held(f)) ... ref_snapshot_check_failure(f) ...
 * `prior` (optional): the previous frame's snapshot; unseen models follow their unit's motion.
 */
#ifndef REF_SNAPSHOT_H
#define REF_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base_error.h"
#include "base_image.h"
#include "calib_projector_loop.h"
#include "ref_check.h"
#include "ref_check_table.h"
#include "ref_projcheck.h"
#include "ref_setup.h"
#include "rules_report.h"
#include "rules_snapshot.h"

struct ref_seen;   /* what the detection saw (its tags, notes and the tags' patches): ref_snapshot.c's own */

typedef struct ref_snapshot {
    char path[1024];        /* the picture's file, or the name ref_read_options.picture gave a frame ("" none) */
    base_image *image;      /* the picture read from a file, 8-bit grey; owned. NULL for a frame in memory */
    rules_snapshot *snap;   /* owned */
    bool whole;             /* the whole frame was searched for tags (else only the regions asked) */
    size_t tags_seen;       /* model and board tags in the frame's list (carried over ones included) */
    size_t model_tags;      /* of which the roster's models' */
    size_t models_read;     /* models placed from a mark read (their own tag, a rim label, a mast; now or, where
                               nothing changed, then), not inferred: on a table of real miniatures, whose models
                               carry rim labels and masts, model_tags may be 0 with the whole army in view */
    size_t tags_kept;       /* models kept where they were: their tag's pixels unchanged */
    ref_checks *checks;     /* the self-checks, when asked for and the whole frame was read; owned, else NULL */
    struct ref_seen *seen;
} ref_snapshot;

/* Reads `picture_path` and detects it (the whole frame, no self-checks: ref_snapshot_check). NULL with err naming
 * the picture and the field. */
ref_snapshot *ref_snapshot_new(ref_setup *s, const char *picture_path, const rules_snapshot *prior, base_error *err);

/* A changed part of a frame, full-frame px: searched in [x0, x1) x [y0, y1), a tag kept when centred in the
 * core (the part less a tag's reach). */
typedef struct ref_region {
    int x0, y0, x1, y1;
    double core_x0, core_y0, core_x1, core_y1;
} ref_region;

/* A status the judge set on a unit (RULES_STATUS_* bits). */
typedef struct ref_status {
    const char *unit;
    unsigned bits;
} ref_status;

typedef struct ref_read_options {
    /* The last settled reading of this camera, or NULL: its snapshot is the prior; with `regions`, its tags
     * are carried over outside them and its units nothing touches kept; its tags' patches keep the models
     * read then and not now of units that stayed. */
    const ref_snapshot *since;
    const rules_snapshot *prior;    /* without `since`: the prior (NULL: none) */
    const ref_region *regions;      /* with `since`: the parts that changed (n_regions of them); NULL: the whole frame */
    size_t n_regions;
    /* With `since`: a unit whose every model moved less than this (mm) stayed: a model of it read then and
     * not now may be kept by its tag's pixels, and (turned less than a degree too) it keeps since's poses
     * exactly. Default 2 (the watch's jitter). */
    double stayed_mm;
    const ref_status *statuses;     /* the judge's, put on the units they name; with `since` only */
    size_t n_statuses;
    bool checks;                    /* the self-checks, on a whole frame read (ref_check.h) */
    const char *picture;            /* names the frame in the checks' messages ("the frame at 12.4 s") */
    const char *calib_name, *roster_name;  /* name the set-up's files in them; NULL: the set-up's own */
    bool patches;                   /* keep the tags' patches for a later reading's `since`. Default true */
} ref_read_options;

void ref_read_options_default(ref_read_options *o);

/* Reads a frame in memory (8-bit grey, borrowed for the call; the calibration's size). NULL with err. */
ref_snapshot *ref_snapshot_read(ref_setup *s, const base_view *frame, const ref_read_options *o, base_error *err);
void ref_snapshot_free(ref_snapshot *r);

/* Did the self-checks hold (true when none ran)? The first that failed, as a sentence naming the file it doubts
 * ("" when all held). */
bool ref_snapshot_checks_held(const ref_snapshot *r);
const char *ref_snapshot_check_failure(const ref_snapshot *r);

/* Was tag `id` in the frame's list (decoded there, or carried over)? */
bool ref_snapshot_sees_tag(const ref_snapshot *r, int id);
/*
 * `to` takes `from`'s view of the picture (its tags, notes and patches) and keeps its own snapshot: a
 * reading that settled where no unit moved refreshes the last one, so later changes are measured from now.
 */
void ref_snapshot_take_view(ref_snapshot *to, ref_snapshot *from);
/* Median grey of the tags' white borders (half a cell outside each edge's middle) in `frame`; 0 when no tag. */
double ref_snapshot_paper_level(const ref_snapshot *r, const base_view *frame);

/* ---- the set-up's checks on a reading (ref_snapshot_checks.c; their rules: ref_check.h, docs/setup-checks.md) ---- */

/* The self-checks' figures of a picture read from a file (the files named: the picture and the set-up's), with
 * roster_fit: what the picture proves against the roster (ref_roster_fit.h). */
void ref_snapshot_check(const ref_setup *s, const ref_snapshot *f, ref_checks *out);
/* The pre-round table check's verdict on a reading, but the projector's (ref_check_table.h); `frame`: the frame
 * it was read from (NULL: the picture of a file). -1 only when out of memory. */
int ref_snapshot_table_check(const ref_setup *s, const ref_snapshot *f, const base_view *frame, ref_table_check *out);
/* The projector's alignment over the table as `f` read it (ref_projcheck.h): the marks thrown through `c`'s
 * projector and read back through the loop, after latency_ms and extra_frames. 0, or -1 with err when the loop
 * failed (nothing measured). */
int ref_snapshot_proj_check(const ref_setup *s, const ref_snapshot *f, const calib_file *c, const ref_proj_marks *m,
                            const calib_loop *loop, double latency_ms, int extra_frames, const char *calib_name,
                            ref_proj_result *out, base_error *err);
/* A tag seen twice in the picture: its unit is CANNOT TELL in `r` (ref_check_parts.h, ref_check_mark_duplicates). */
size_t ref_snapshot_mark_duplicates(const ref_setup *s, const ref_snapshot *f, const char *picture, rules_report *r,
                                    FILE *warn, const char *prog);

/* The one count of a unit's models as seen, for table-check, detect and the referee alike: those placed from their
 * own tags (read cleanly, partly hidden, or read by their pattern where the unit's formation puts a model), not
 * those inferred; 0 for a unit not in `snap` (ref_roster_fit.c). */
size_t ref_unit_models_seen(const rules_snapshot *snap, const char *unit_id);

/* The judge's statuses into `snap`, on the units they name (others untouched). */
void ref_statuses_apply(const ref_status *statuses, size_t n, rules_snapshot *snap);

/* The detection's warnings (vis_issue_is_warning), one "PREFIXwarning: MESSAGE" line each, as every program
 * prints them. A unit read in part (rules_unit_partly_placed; the issue's `unit` field names it) is said once,
 * in the rules' words its call uses ("unit red-2: 2 of 30 models seen in the after picture, its formation
 * cannot be told"; `picture` "before", "after" or NULL for "the picture"), not again for each model left out. */
void ref_snapshot_print_warnings(const ref_setup *s, const ref_snapshot *r, const char *picture, FILE *out,
                                 const char *prefix);

#endif
