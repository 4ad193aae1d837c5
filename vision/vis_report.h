/*
 * vis_report: what detection saw but did not (or could not) use, and how
 * each model was placed. Nothing is silently dropped: every unknown or
 * duplicate ID, tag off the board and model not seen is listed here (and
 * printed to stderr by the CLI).
 *
 * How to use:
 *   vis_report rep = {0};
 *   vis_detector_run(..., &rep, ...);
 *   for (size_t i = 0; i < rep.n; i++) puts(rep.items[i].msg);
 *   vis_report_clear(&rep);
 */
#ifndef VIS_REPORT_H
#define VIS_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

typedef enum vis_issue_kind {
    VIS_ISSUE_UNKNOWN_ID,     /* a tag whose ID the roster does not know: ignored */
    VIS_ISSUE_DUPLICATE_ID,   /* an ID seen more than once: every copy ignored */
    VIS_ISSUE_OFF_BOARD,      /* a tag outside the board: ignored */
    VIS_ISSUE_BAD_SIZE,       /* a tag whose measured size disagrees with the roster: ignored */
    VIS_ISSUE_DISTORTED,      /* corners not a square (partly hidden tag): not used, model inferred */
    VIS_ISSUE_INFERRED,       /* a model not seen, placed from its formation or the prior */
    VIS_ISSUE_MISSING,        /* a model not seen and not placeable: left out */
    VIS_ISSUE_POSE,           /* the board pose could not be refined */
    VIS_ISSUE_RECOVERED,      /* a partly hidden tag of an otherwise unseen unit read by its pattern: model inferred */
    VIS_ISSUE_READ,           /* a tag the quad finder missed, read by its pattern where its unit's formation puts a model */
    VIS_ISSUE_UNIT_UNSEEN,    /* a unit the camera saw nothing of: listed in the snapshot's unseen_units */
    VIS_ISSUE_HEIGHT,         /* a unit whose tags read at another height than the table's relief (vis_height.h) */
} vis_issue_kind;

typedef struct vis_issue {
    vis_issue_kind kind;
    int tag_id;               /* -1 when not about one tag */
    char model[64];           /* model id, "" when not about a model */
    char unit[64];            /* unit id when the issue is about a whole unit (vis_report_add_unit), else "" */
    double px[2];             /* tag centre in the image, px (NAN when none) */
    char msg[192];
} vis_issue;

/* One unit's height as its cleanly read tags' apparent size tells it (vis_height.h), settled or not: what a
 * survey of the table's relief reads (referee/ref_survey.h). */
typedef struct vis_unit_height {
    char unit[64];            /* the unit's id */
    size_t tags;              /* its tags measured */
    double seen_mm;           /* the surface height its tags seem to stand on (median) */
    double se_mm;             /* its standard error */
    double table_mm;          /* the table's relief under them (median) */
} vis_unit_height;

typedef struct vis_report {
    vis_issue *items;
    size_t n, cap;
    size_t tags_detected;     /* all decoded tags */
    size_t board_tags_used;   /* for the pose */
    int pose_refined;
    double pose_rms_px;       /* board tags' reprojection RMS with the pose used (NAN: none seen) */
    /* The set-up's self-check figures (referee/ref_check.h), from the board tags seen with the pose used:
     * how far (px) their centres are from where the roster's board puts them (worst), and their measured
     * edge against the roster's (worst |measured / roster - 1|). Measured only when board_tags_checked > 0. */
    size_t board_tags_checked;
    double board_tag_offset_px, board_tag_size_error;
    double board_tag_size_mm, board_tag_roster_mm;  /* the worst-sized board tag: measured and the roster's edge */
    size_t models_seen, models_inferred, models_missing;
    size_t tags_read;         /* tags read by their pattern at a predicted place (VIS_ISSUE_READ) */
    size_t rim_labels;        /* rim labels found (vis_rim_units.h), whatever they name */
    size_t rim_models;        /* models placed from rim labels */
    double rim_ms;            /* time reading rim labels, ms */
    size_t units_unseen;      /* units with no evidence at all (VIS_ISSUE_UNIT_UNSEEN) */
    /* Every unit's height by its tags' size (vis_height_check), when the frame gave at least two votes for
     * its bias; owned (vis_report_clear frees them). */
    vis_unit_height *heights;
    size_t n_heights;
} vis_report;

/* printf-style; returns -1 only when out of memory. */
int vis_report_add(vis_report *r, vis_issue_kind kind, int tag_id, const char *model, const double px[2],
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Appends one unit's height; -1 only when out of memory. */
int vis_report_add_height(vis_report *r, const vis_unit_height *h);
/* An issue about a whole unit (`unit` its id, in the field `unit`: callers branch on it, never on msg). */
int vis_report_add_unit(vis_report *r, vis_issue_kind kind, const char *unit, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void vis_report_clear(vis_report *r);
const char *vis_issue_kind_word(vis_issue_kind k);
/*
 * Worth a warning to people: a tag ignored, a model or unit left out, a
 * pose not refined. How each model was placed (inferred, read by its
 * pattern, a distorted or recovered tag) is information, in the report.
 */
bool vis_issue_is_warning(vis_issue_kind k);
/* The report as JSON (counters and issues). Caller frees. */
cJSON *vis_report_to_json(const vis_report *r);

#endif
