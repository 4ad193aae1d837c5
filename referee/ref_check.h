/*
 * ref_check: the set-up's self-checks on one picture. Before anything is
 * judged from a picture, the picture must agree with the set-up it is read
 * through: the board tags where the roster's board puts them and of the
 * roster's size, the model tags of the roster's size, enough of the roster
 * seen, the tags sharp and exposed. A check that fails names the file it
 * doubts and the figure; no call is made from such a picture (detect and
 * referee exit 2, watch holds in "cannot judge: set-up").
 *
 * The checks are data: ref_check_rules[] holds each one's name, figure,
 * unit and limit, the same table docs/setup-checks.md documents.
 *
 * How to use:
 *   ref_checks c;
 *   ref_snapshot_check(setup, shot, &c);         // ref_snapshot.h (a tracker's reading: ref_read_options.checks)
 *   if (!c.ok) {
 *       const ref_check_result *f = ref_checks_first_failure(&c);
 *       fprintf(stderr, "%s\n", f->msg);          // names the file and the figure
 *   }
 *   cJSON *j = ref_checks_to_json(&c);           // every figure, with its limit and verdict
 */
#ifndef REF_CHECK_H
#define REF_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "base_image.h"

typedef enum ref_check_id {
    /* The picture's own checks first: a blurred or dark picture explains the others' failures. */
    REF_CHECK_FOCUS,         /* share of a tag cell: worst tag's edge width */
    REF_CHECK_EXPOSURE,      /* share: tag pixels clipped white, or (dark) the tags' white level */
    REF_CHECK_BOARD_OFFSET,  /* px: worst board tag's distance from where the roster's board puts it */
    REF_CHECK_BOARD_SIZE,    /* share: worst board tag's |measured edge / roster's - 1| */
    REF_CHECK_MODEL_SIZE,    /* share: model tags decoded whose size disagrees with the roster */
    REF_CHECK_ROSTER_SEEN,   /* share: roster models placed from their own tag */
    REF_CHECK_ROSTER_FIT,    /* count: what the picture proves against the roster (ref_roster_fit.h) */
    REF_CHECK_N
} ref_check_id;

typedef struct ref_check_rule {
    ref_check_id id;
    const char *name;     /* "board_offset": the JSON key */
    const char *unit;     /* "px", "" (a share) */
    double limit;
    bool fail_above;      /* fails when the figure is above the limit (else below) */
    const char *what;     /* the figure in words, for the docs and --json */
} ref_check_rule;

extern const ref_check_rule ref_check_rules[REF_CHECK_N];

/* Exposure's second limit: the tags' white level (8-bit grey, median over tags) below it: too dark. */
#define REF_CHECK_DARK_WHITE_LEVEL 60.0

typedef struct ref_check_result {
    ref_check_id id;
    bool measured;        /* false: nothing to measure it on (no board tag seen...): not a failure by itself */
    bool ok;              /* measured and within the limit, or not measured */
    double value;
    char where[96];       /* the worst place ("tag 7 (spear-3) at 812,440 px"), "" when none */
    char msg[3400];       /* a failure: the file doubted and the figure, as a sentence; else the figure */
} ref_check_result;

typedef struct ref_checks {
    ref_check_result items[REF_CHECK_N];
    bool ok;              /* every check holds */
    size_t n_failed;
    /* Exposure's parts and the resolution margin, for table-check. */
    double clipped_share, dark_white_level, min_cell_px;
    size_t tags_measured;
} ref_checks;

/* Which files a failed check names: the picture and the set-up's parts (a table file names itself twice). The
 * figures of a picture are taken by ref_snapshot_check (ref_snapshot.h), from the parts by ref_check_parts
 * (ref_check_parts.h). */
typedef struct ref_check_names {
    const char *picture, *calib, *roster;
} ref_check_names;
/* The first check that failed, NULL when all hold. */
const ref_check_result *ref_checks_first_failure(const ref_checks *c);
/* {"ok": bool, "checks": [{"name", "value", "unit", "limit", "measured", "ok", "where", "message"}]}. */
cJSON *ref_checks_to_json(const ref_checks *c);

#endif
