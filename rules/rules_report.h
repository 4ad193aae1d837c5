/*
 * rules_report: the referee's verdict on a move, per unit.
 *
 * Everything a player or a judge needs to see: the move type, each model's
 * distance, the shortest legal path that explains the end position, and
 * each broken rule with a stable code, the models concerned, the measured
 * value, the limit and one sentence. Stored in mm and radians; the JSON and
 * text forms add inches and degrees (docs/formats.md, "Report").
 *
 * The move types are the rows of the table of rules (rules_moves.h); a
 * unit's `move` is one of them, written as its token in the JSON ("march")
 * and in people's words by rules_words.h.
 *
 * How to use:
 *   rules_report r;
 *   rules_report_init(&r);
 *   rules_move_check(before, after, &opts, &r, &err);   // fills it
 *   rules_report_print(&r, stdout);  or  cJSON *j = rules_report_to_json(&r);
 *   rules_report_clear(&r);
 * The report owns its arrays; clear frees them and leaves an empty report.
 *
 * The nearest legal move (the overlay draws it as a ghost; this API is stable):
 *   rules_suggest_moves(before, after, &opts, &r, &err);  // after the check (rules_suggest.h)
 *   for each r.units[i] with verdict == RULES_VERDICT_ILLEGAL and suggestion.found:
 *     const rules_suggestion *sg = &r.units[i].suggestion;
 *     sg->models[k].pos / .facing: where to put model sg->models[k].id (board mm, rad)
 *     sg->pose: the centre of the Front Facing and the facing there; sg->remove: off the table
 *     sg->text: the sentence ("move the spears back 0.38\" along their path")
 *   or, with bases and all: rules_snapshot *ghost = rules_suggest_apply(after, &r);
 *     (the after snapshot with every suggestion applied: draw the suggested units' bases from it)
 * A call that is not ILLEGAL (LEGAL, CANNOT_TELL, NOT_SEEN) never carries a
 * suggestion: rules_unit_report_set_verdict clears it, and neither the JSON,
 * the text nor rules_suggest_apply use one.
 */
#ifndef RULES_REPORT_H
#define RULES_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "rules_dice.h"
#include "rules_moves.h"
#include "rules_path.h"
#include "rules_ruleset.h"
#include "rules_snapshot.h"

/* What a measured value is, for output in the right unit. */
typedef enum rules_quantity {
    RULES_QTY_LENGTH = 0, /* mm; shown in inches */
    RULES_QTY_ANGLE,      /* rad; shown in degrees */
    RULES_QTY_COUNT,      /* a number of things */
} rules_quantity;

#define RULES_CODE_MAX 32
#define RULES_TEXT_MAX 320

typedef struct rules_violation {
    char code[RULES_CODE_MAX];     /* stable rule code, e.g. "MU-MODEL-DIST" (docs/rules.md) */
    char (*models)[RULES_ID_MAX];  /* models concerned */
    size_t n_models;
    rules_quantity quantity;
    double measured;
    double limit;
    char message[RULES_TEXT_MAX];  /* one sentence a player understands */
} rules_violation;

typedef struct rules_model_move {
    char id[RULES_ID_MAX];
    double distance_mm;   /* straight from start centre to end centre */
    bool inferred;        /* its position was inferred, not seen */
} rules_model_move;

/* One model's own route (Reform Move): a polyline in board mm, for the overlay to draw. */
typedef struct rules_model_path {
    char id[RULES_ID_MAX];
    base_vec2 *points;  /* start, bends around obstacles, (mid-move placement,) end */
    size_t n_points;
    double length_mm;    /* along the polyline; INFINITY when no route exists */
} rules_model_path;

/* A named figure a rule measured (e.g. "centre_travel"), for report and overlay. */
typedef struct rules_measure {
    char name[RULES_CODE_MAX];
    rules_quantity quantity;
    double value;
} rules_measure;

/* One model of a suggested end position: where to put it. */
typedef struct rules_suggested_model {
    char id[RULES_ID_MAX];
    base_vec2 pos;      /* base centre, mm */
    double facing;       /* rad */
} rules_suggested_model;

/*
 * The nearest legal move (rules_suggest; ILLEGAL calls only): the legal end
 * position of the same move type closest to where the player put the unit.
 * "Closest" is the largest distance any one model must be moved from where
 * the player put it (docs/rules.md, "The nearest legal move").
 */
typedef struct rules_suggestion {
    bool found;                    /* a legal end position was found; else `text` says why not */
    bool remove;                   /* the legal end is off the table (a Pursuit off the board) */
    rules_move_type move;          /* the move type it is legal as */
    rules_pose pose;               /* centre of the Front Facing and facing */
    rules_suggested_model *models; /* every model, in the unit's order */
    size_t n_models;
    double shift_mm;               /* the farthest any model moves from where the player put it */
    double back_along_path_mm;     /* > 0: the player's own path, cut short by this much */
    char text[RULES_TEXT_MAX];     /* "move the spears back 0.38\" along their path" */
} rules_suggestion;

/* Frees the models and empties the suggestion. */
void rules_suggestion_clear(rules_suggestion *s);
/* Sets the models (copied); -1 when out of memory. */
int rules_suggestion_set_models(rules_suggestion *s, const rules_suggested_model *models, size_t n);

/*
 * The call on one unit. A judge forgives "cannot tell", never a wrong
 * ILLEGAL: ILLEGAL stands only when a rule is broken under every placement
 * of the models that the evidence allows (vision's hypotheses and each
 * model's uncertainty). When the call changes between such placements it is
 * CANNOT_TELL, and `why` names the models and the reason.
 */
typedef enum rules_verdict {
    RULES_VERDICT_LEGAL = 0,
    RULES_VERDICT_ILLEGAL,      /* a rule broken under every placement the evidence allows */
    RULES_VERDICT_CANNOT_TELL,  /* legal under some placements, illegal under others */
    RULES_VERDICT_NOT_SEEN,     /* the unit was not seen (before or after): cannot judge */
} rules_verdict;

/* "legal", "illegal", "cannot_tell", "not_seen". */
const char *rules_verdict_word(rules_verdict v);

typedef struct rules_unit_report {
    char unit_id[RULES_ID_MAX];
    char side[RULES_ID_MAX];
    rules_move_type move;
    bool declared;              /* the user named the move type; false: inferred */
    const char *direction;      /* advance: "forward", "backward", "sideways"; else NULL */
    double rate_mm;             /* the distance limit of this move type */

    rules_model_move *models;
    size_t n_models;

    base_vec2 centre_before, centre_after;
    double centre_displacement_mm;
    double rotation_rad;        /* change of facing, counter-clockwise positive */
    int files_before, ranks_before, files_after, ranks_after;

    bool has_path;
    rules_path path;            /* shortest legal path explaining the end pose */
    rules_pose pose_before;     /* where the path starts (centre of the Front Facing) */
    double front_width_mm;      /* unit width the path's wheels turn */

    rules_violation *violations;
    size_t n_violations, cap_violations;
    char (*notes)[RULES_TEXT_MAX];
    size_t n_notes, cap_notes;
    rules_measure *measures;
    size_t n_measures, cap_measures;
    rules_model_path *model_paths;  /* per-model routes (Reform Move); empty for other moves */
    size_t n_model_paths, cap_model_paths;
    /* The call. A violation makes it ILLEGAL; rules_unit_report_set_verdict
     * turns it into CANNOT_TELL or NOT_SEEN (the violations then list what
     * would be broken under some placements). `legal` is false only for
     * ILLEGAL: no illegal call stands otherwise. */
    rules_verdict verdict;
    char why[RULES_TEXT_MAX];   /* for CANNOT_TELL and NOT_SEEN: which models, and why */
    bool legal;
    /* Random movement (rules_dice.h): the rate the move is judged by is a roll of `dice` ("3D6"). Without a
     * declared roll the call needs it (needs_roll): CANNOT_TELL, in words "needs the roll", and no later
     * rules_unit_report_set_verdict makes it LEGAL or ILLEGAL; with one, roll_mm is the roll it was judged by. */
    bool needs_roll;
    char dice[RULES_DICE_MAX];
    double roll_mm;             /* the roll it was judged by, mm; 0 when none */
    rules_suggestion suggestion; /* the nearest legal move, for ILLEGAL calls once rules_suggest ran */
} rules_unit_report;

typedef struct rules_report {
    rules_ruleset ruleset;
    rules_unit_report *units;
    size_t n_units, cap_units;
    char (*notes)[RULES_TEXT_MAX]; /* about the table as a whole (a unit removed, ...) */
    size_t n_notes, cap_notes;
    bool legal;                    /* no ILLEGAL call stands (CANNOT_TELL and NOT_SEEN units do not count) */
} rules_report;

void rules_report_init(rules_report *r);
/* Frees everything the report owns and re-initialises it. */
void rules_report_clear(rules_report *r);
/* Room for `n` unit reports in all, so that adding them never reallocates; -1 when out of memory. */
int rules_report_reserve(rules_report *r, size_t n);
/* Appends an empty unit report; NULL when out of memory. Valid until the next add. */
rules_unit_report *rules_report_add_unit(rules_report *r, const char *unit_id, const char *side);
/*
 * Starts a verdict on before -> after: clears `r` and takes the ruleset of
 * the before snapshot, or of the after snapshot when only that one names one.
 */
void rules_report_begin(rules_report *r, const rules_snapshot *before, const rules_snapshot *after);
/* An empty, legal unit report for `unit_id`, ready to be filled and handed to rules_report_take_unit. */
void rules_unit_report_init(rules_unit_report *ur, const char *unit_id, const char *side, rules_move_type move,
                            bool declared);
/* Moves `ur` (its arrays) into the report; `ur` is left empty. */
int rules_report_take_unit(rules_report *r, rules_unit_report *ur);
/* Frees a unit report's arrays (for reports not handed to a rules_report). */
void rules_unit_report_clear(rules_unit_report *ur);

/* Adds a violation and marks the unit illegal; message is printf-style. */
rules_violation *rules_unit_report_add_violation(rules_unit_report *ur, const char *code,
                                                 rules_quantity q, double measured, double limit,
                                                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
int rules_violation_add_model(rules_violation *v, const char *model_id);
/*
 * Sets the call to CANNOT_TELL or NOT_SEEN (or back to LEGAL/ILLEGAL) with
 * its reason, printf-style; `legal` follows (false only for ILLEGAL). A
 * report that already holds the unit must be told with rules_report_refresh.
 * A call that needs the roll (needs_roll) stays CANNOT_TELL with its own
 * reason whatever is asked, but NOT_SEEN.
 */
void rules_unit_report_set_verdict(rules_unit_report *ur, rules_verdict v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The call needs the roll of `dice`: CANNOT_TELL, with its reason (printf-style), from now on (see needs_roll). */
void rules_unit_report_needs_roll(rules_unit_report *ur, const char *dice, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Recomputes r->legal from its units' verdicts (after a verdict changed in place). */
void rules_report_refresh(rules_report *r);
int rules_unit_report_add_note(rules_unit_report *ur, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The models of `before` that `after` lacks, in one note however many: "Model X is not in the after snapshot
 * (removed or not seen).", or "28 models are not in the after snapshot (removed or not seen): a, b, ... and 20
 * more." (as many ids as the note holds). 0 (also when none lacks), or -1 when out of memory. */
int rules_unit_report_note_missing(rules_unit_report *ur, const rules_unit *before, const rules_unit *after);
int rules_unit_report_add_measure(rules_unit_report *ur, const char *name, rules_quantity q, double value);
/* Appends a model's route, copying `n` points; -1 when out of memory. */
int rules_unit_report_add_model_path(rules_unit_report *ur, const char *model_id, const base_vec2 *points,
                                     size_t n, double length_mm);
int rules_report_add_note(rules_report *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The violation with this code, or NULL. */
const rules_violation *rules_unit_report_find(const rules_unit_report *ur, const char *code);
rules_unit_report *rules_report_find_unit(const rules_report *r, const char *unit_id);

/* The report as JSON (docs/formats.md). Caller frees with cJSON_Delete. Each unit's "sentence" is
 * rules_words_call's; with the two snapshots judged (the _judged forms) it carries their +/-. */
cJSON *rules_report_to_json(const rules_report *r);
cJSON *rules_report_to_json_judged(const rules_report *r, const rules_snapshot *before, const rules_snapshot *after);
/* A unit's random movement into its JSON (every writer of a unit's call uses it, docs/formats.md): "needs":
 * "roll" and "dice" while the call needs the roll; "dice" and "roll_in" when it was judged by one; nothing
 * otherwise. */
void rules_report_add_roll_json(cJSON *u, const rules_unit_report *ur);
/* A readable table in inches with two decimals; each unit's "call:" line is rules_words_call's sentence. */
void rules_report_print(const rules_report *r, FILE *out);
void rules_report_print_judged(const rules_report *r, const rules_snapshot *before, const rules_snapshot *after,
                               FILE *out);

#endif
