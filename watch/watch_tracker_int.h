/*
 * watch_tracker_int: the tracker's state, shared by its three files:
 * watch_tracker.c (frames, settling, judging), watch_settle.c (what a
 * settle frame shows: tags in the changed regions, the units they touch, the
 * hidden-tag rule) and watch_tracker_calls.c (the judge's rulings, undo,
 * statuses). Not part of the watch library's interface.
 */
#ifndef WATCH_TRACKER_INT_H
#define WATCH_TRACKER_INT_H

#include "cvshim.h"
#include "watch_motion.h"
#include "watch_tracker.h"

#define BLOCK WATCH_MOTION_BLOCK

/* One settled moment: what the table was, and what was seen to know it. */
typedef struct entry {
    rules_snapshot *snap;
    vis_tag_detection *tags;  /* full-frame px */
    size_t n_tags;
    base_image *small;         /* the motion picture at that moment */
    struct watch_patches *patches; /* every model's tag as seen then (watch_patch.h) */
    rules_report report;      /* the call that led here (empty for the first) */
    int move;                 /* 0 for the first snapshot */
} entry;

/* What became of the call on one move. */
typedef struct call_record {
    bool made;                /* the move was judged */
    bool illegal;             /* the call had an ILLEGAL unit */
    bool undone;              /* the judge undid the snapshot */
    watch_call_ruling ruling;
} call_record;

/* A status the judge set on a unit; it holds for every snapshot from then on. */
typedef struct unit_status {
    char unit[RULES_ID_MAX];
    unsigned bits;            /* RULES_STATUS_* */
} unit_status;

struct watch_tracker {
    watch_tracker_config cfg;
    const roster_file *roster;
    vis_detector *det;
    entry *hist;
    size_t n_hist, cap_hist;
    base_image *prev_small;    /* the previous frame's motion picture */
    base_image *run_small;     /* the first frame of the current still run */
    double run_t0;
    bool in_run;
    double next_try_t;        /* frame time of the next settle attempt */
    watch_tracker_state state;
    int width, height, factor;
    int calib_width, calib_height;  /* the size the calibration was made at (0: unknown) */
    int moves;                /* moves judged so far */
    call_record *calls;       /* by move number (index 0 unused) */
    unit_status *statuses;
    size_t n_statuses;
    size_t cap_calls;
    vis_tag_list scratch;
    char setup_check[512];    /* while in WATCH_TRACKER_SETUP: the check that failed */
    /* The watch's own light (watch_echo.h): made at the first projector picture. */
    calib_file calib;
    struct watch_echo *echo;
    double prev_t, period_ms; /* the previous frame's time, the frame period seen */
    /* Blocks the table may have changed in since the last settle: moving blocks that were not echo, and echo
     * blocks that changed while something else moved too (a hand: the light cannot be told from it then).
     * With a projector, a settle detects only where the picture changed AND this says so: the light's own
     * changes are not searched again. NULL until the first frame. */
    uint8_t *dirty;
};

void watch_tracker_entry_clear(entry *e);
/* The judge's statuses (engaged, fleeing, shaken...) on the units they name, in `s`. */
int watch_tracker_apply_statuses(const watch_tracker *w, rules_snapshot *s, base_error *err);

/* ---- watch_settle.c (each function's comment there says more) ---- */

/* The frame's tags: detected in the changed regions, carried over from the reference elsewhere (or all: *full). */
int watch_settle_detect_tags(watch_tracker *w, const uint8_t *gray, size_t stride, const base_image *small,
                             vis_tag_detection **out, size_t *n_out, watch_motion_box **boxes_out, size_t *nb_out,
                             bool *full, base_error *err);

/* One flag per roster unit: touched by a changed region. NULL when the whole frame was detected. */
unsigned char *watch_settle_touched_units(const watch_tracker *w, const entry *ref, const watch_motion_box *boxes,
                                          size_t nb, const vis_tag_detection *tags, size_t n);

/* Units nothing touched keep the reference's models as they were. */
void watch_settle_keep_untouched(const watch_tracker *w, const rules_snapshot *ref, const unsigned char *touched,
                                 rules_snapshot *now);

/* Models read then, not now, of units that stayed, whose tag's pixels are unchanged (watch_patch.h): placed as
 * then. Returns how many. */
size_t watch_settle_keep_unchanged(const watch_tracker *w, const entry *ref, const base_view *gray,
                                   rules_snapshot *now);

/* The hidden-tag rule: must the table wait (a board tag hidden, a unit gone, a hand resting)? */
bool watch_settle_must_wait(const watch_tracker *w, const entry *ref, const vis_tag_detection *tags, size_t n,
                            const rules_snapshot *now, size_t *missing, char *why, size_t why_cap);

/* Models that moved less than the jitter keep the reference's pose. */
void watch_settle_freeze_jitter(const watch_tracker *w, const rules_snapshot *ref, rules_snapshot *now);

#endif
