/*
 * ref_snapshot: a picture of the table into a snapshot: the picture read
 * (checked loader, grey), every model of the roster placed by the set-up's
 * detector, and the table's ruleset and terrain applied. The detection's
 * notes (tags unknown, models inferred or missing) come with it.
 *
 * How to use:
 *   ref_snapshot *b = ref_snapshot_new(setup, "before.jpg", NULL, &err);   // NULL: err names the picture
 *   ref_snapshot_print_warnings(setup, b, NULL, stderr, "tableref detect: ");  // the detection's warnings for people
 *   ... b->snap (the snapshot), b->image (the picture, to draw on), b->report (every note) ...
 *   ref_snapshot_free(b);
 * `prior` (optional): the previous frame's snapshot; unseen models follow their unit's motion.
 */
#ifndef REF_SNAPSHOT_H
#define REF_SNAPSHOT_H

#include <stdio.h>

#include "base_error.h"
#include "base_image.h"
#include "ref_setup.h"
#include "rules_snapshot.h"
#include "vis_detect.h"

typedef struct ref_snapshot {
    char path[1024];        /* the picture's file ("" from memory) */
    base_image *image;      /* the picture, 8-bit grey; owned */
    rules_snapshot *snap;   /* owned */
    vis_report report;      /* the detection's notes; owned */
    vis_tag_list tags;      /* the tags decoded in the picture (the self-checks look at them); owned */
} ref_snapshot;

/* Reads `picture_path` and detects it. NULL with err naming the picture and the field. */
ref_snapshot *ref_snapshot_new(ref_setup *s, const char *picture_path, const rules_snapshot *prior, base_error *err);
void ref_snapshot_free(ref_snapshot *r);

/* The detection's warnings (vis_issue_is_warning), one "PREFIXwarning: MESSAGE" line each, as every program
 * prints them. A unit read in part (rules_unit_partly_placed; the issue's `unit` field names it) is said once,
 * in the rules' words its call uses ("unit red-2: 2 of 30 models seen in the after picture, its formation
 * cannot be told"; `picture` "before", "after" or NULL for "the picture"), not again for each model left out. */
void ref_snapshot_print_warnings(const ref_setup *s, const ref_snapshot *r, const char *picture, FILE *out,
                                 const char *prefix);

#endif
