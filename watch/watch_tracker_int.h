/*
 * watch_tracker_int: the tracker's state, shared by its three files:
 * watch_tracker.c (frames, settling, judging), watch_settle.c (where the
 * picture changed since the last settle, the hidden-tag rule) and
 * watch_tracker_calls.c (the judge's rulings, undo, statuses). A settle
 * frame is read through the referee's one door (referee/ref_snapshot.h).
 * Not part of the watch library's interface.
 */
#ifndef WATCH_TRACKER_INT_H
#define WATCH_TRACKER_INT_H

#include "cvshim.h"
#include "ref_snapshot.h"
#include "watch_motion.h"
#include "watch_tracker.h"

#define BLOCK WATCH_MOTION_BLOCK

/* One settled moment: what the table was, and what was seen to know it. */
typedef struct entry {
    ref_snapshot *read;       /* the frame read through the set-up: its snapshot, tags and tags' patches */
    base_image *small;         /* the motion picture at that moment */
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

/* A roll declared for a unit whose rate is dice, held until a move of that unit is judged by it. */
typedef struct unit_roll {
    char unit[RULES_ID_MAX];
    double roll_mm;
} unit_roll;

/* A status the judge set on a unit; it holds for every snapshot from then on. */
typedef struct unit_status {
    char unit[RULES_ID_MAX];
    unsigned bits;            /* RULES_STATUS_* */
} unit_status;

struct watch_tracker {
    watch_tracker_config cfg;
    ref_setup *setup;         /* every frame is read through it */
    bool own_setup;           /* made by watch_tracker_new: freed with the tracker */
    const roster_file *roster;
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
    ref_status *status_refs;  /* the same as the referee takes them: their units point into `statuses` */
    size_t n_statuses;
    unit_roll *rolls;         /* rolls declared and not yet judged by (watch_tracker_roll) */
    size_t n_rolls;
    size_t cap_calls;
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
/* The judge's statuses (engaged, fleeing, shaken...) as the referee takes them (ref_status, borrowed from w until
 * the statuses change); *n gets their count. NULL when none (or out of memory: then *n is 0). */
ref_status *watch_tracker_statuses(const watch_tracker *w, size_t *n);

/* ---- watch_settle.c (each function's comment there says more) ---- */

/* Where the picture changed since the reference settle (*regions, *n: malloc'ed, the caller's), or *whole when
 * there is no reference or the change is global (a light, a bumped camera). 0 or -1. */
int watch_settle_changed(const watch_tracker *w, const base_image *small, ref_region **regions, size_t *n,
                         bool *whole, base_error *err);

/* The hidden-tag rule: must the table wait (a board tag hidden, a unit gone, a hand resting)? */
bool watch_settle_must_wait(const watch_tracker *w, const entry *ref, const ref_snapshot *now, size_t *missing,
                            char *why, size_t why_cap);

#endif
