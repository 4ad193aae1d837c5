/*
 * watch_tracker: watches a stream of frames, decides when the table has
 * settled after a move, takes the snapshot and judges the move.
 *
 * How to use:
 *   watch_tracker_config cfg; watch_tracker_config_default(&cfg);  cfg.settle_ms = 1000;
 *   watch_tracker *w = watch_tracker_new_setup(setup, &cfg, &err);   // referee/ref_setup.h; borrowed
 *   watch_tracker *w = watch_tracker_new(roster, &calib, &cfg, &err);  // or from memory; roster borrowed
 *   for each frame:
 *     watch_tracker_result res;
 *     watch_tracker_frame(w, gray, width, height, stride, t_ms, &res, &err);
 *     if (res.settled && res.moved) ... res.report (the call), res.before, res.after ...
 *   watch_tracker_overrule(w, 0, NULL) / watch_tracker_undo(w)   // a judge's corrections
 *   watch_tracker_free(w);
 * The result's pointers are borrowed: valid until the next watch_tracker_frame,
 * watch_tracker_undo or watch_tracker_free.
 *
 * When is the table settled? (docs/formats.md, "Event log and subtitles")
 *   1. Stillness: every frame is shrunk to about cfg.motion_width px and cut
 *      into 8 x 8 blocks; a block "moves" when its mean absolute difference
 *      from the previous frame, or from the first frame of the current still
 *      run, exceeds cfg.motion_level grey levels. The run of frames with no
 *      moving block must last cfg.settle_ms of frame time. Why pictures and
 *      not per-frame tag positions: a hand moves long before any tag does,
 *      and tag detection on every 12 MP frame costs ~250 ms, which a
 *      5-15 fps camera cannot afford.
 *   2. No hand hides tags: compared with the previous settled snapshot,
 *      every board tag is seen again, every unit seen then has a model seen
 *      now (a tag decoded or read from its pattern), and every model seen
 *      then of a unit that stayed is seen again, unless a unit that moved
 *      stands within cfg.lean_reach_mm of it (its figures may lean over the
 *      tag). A moved unit's own tags may be hidden by its own figures: those
 *      models are placed from their unit-mates. So a still hand waits, and
 *      figures that hide tags for good do not. A table still for
 *      cfg.force_settle_factor x settle_ms settles even with tags missing
 *      (a unit removed as casualties), with a note.
 *   Its own light: blocks where a change of the projector picture lands
 *      (watch_tracker_projected), in the frames one projector latency
 *      later, are not motion; the still run takes their new look.
 *   3. Jitter: a unit whose every model moved less than cfg.jitter_mm (and
 *      turned less than a degree) keeps its previous positions exactly.
 * Every settle frame is read through the referee's one door
 * (referee/ref_snapshot.h), as `referee` and `detect` read a picture: the
 * same picture gives the same snapshot. Detection at the settle frame runs
 * only in the regions of the picture that changed since the previous
 * settled snapshot (a margin of three tag sizes around them); tags elsewhere
 * are taken from that reading. A global change (light, a bumped camera)
 * reads the whole frame.
 */
#ifndef WATCH_TRACKER_H
#define WATCH_TRACKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_error.h"
#include "base_image.h"
#include "calib_file.h"
#include "ref_setup.h"
#include "roster.h"
#include "rules_move.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct watch_tracker_config {
    /* Frame time with no motion before the table counts as settled, ms. Default 1000. */
    double settle_ms;
    /* A unit whose models all moved less than this (mm) did not move: it
     * keeps its previous positions (detection noise is ~0.3 mm). Default 2. */
    double jitter_mm;
    /* Grey levels of mean absolute change that make a block move. Lower
     * catches slower hands but also sensor noise and flicker. Default 6. */
    double motion_level;
    /* Width of the motion picture, px (the frame is shrunk by an integer
     * factor to about this). Default 320. */
    int motion_width;
    /* How far from a moved unit's models a figure may hide another unit's
     * tag (a 35 mm figure leaning, seen off-axis), mm. Default 60. */
    double lean_reach_mm;
    /* Still this many times settle_ms with tags missing: settle anyway. Default 4. */
    double force_settle_factor;
    /* Changed regions covering more than this share of the frame: detect the whole frame. Default 0.5. */
    double roi_max_fraction;
    /* From a new projector picture to the camera seeing it, ms; < 0 (the default): the calibration's
     * measured latency, else WATCH_ECHO_LATENCY_MS (watch_echo.h). */
    double projector_latency_ms;
    /* How moves are judged (default: rules_check_options_default, move type inferred). */
    rules_check_options check;
    /* The set-up's self-checks (referee/ref_check.h, docs/setup-checks.md) at every settle detected on the
     * whole frame (the first, a bumped camera, a change of light): when one fails the tracker holds in
     * WATCH_TRACKER_SETUP and judges nothing until they hold again. Default 1. The files a failure names
     * (NULL: "the calibration", "the roster"); borrowed. */
    int setup_checks;
    const char *calib_name, *roster_name;
} watch_tracker_config;

void watch_tracker_config_default(watch_tracker_config *c);

typedef enum watch_tracker_state {
    WATCH_TRACKER_MOVING = 0,     /* something moves in the picture */
    WATCH_TRACKER_STILLING,       /* still, but not for settle_ms yet */
    WATCH_TRACKER_WAITING_TAGS,   /* still, but tags are hidden (a hand resting on the table?) */
    WATCH_TRACKER_SETTLED,        /* settled and judged; waiting for the next motion */
    WATCH_TRACKER_SETUP,          /* cannot judge: the picture contradicts the set-up (result's setup_check says how) */
} watch_tracker_state;

const char *watch_tracker_state_word(watch_tracker_state s);

typedef struct watch_tracker_result {
    watch_tracker_state state;
    bool settled;             /* this frame settled the table (a snapshot was taken) */
    bool first;               /* ... and it is the first snapshot: nothing to judge */
    bool moved;               /* ... and a unit moved: `report` holds the call */
    int move;                 /* number of the move judged (1, 2, ...), 0 when none */
    size_t moving_blocks;     /* blocks that changed since the previous frame */
    size_t tags_seen;         /* at the settle: model and board tags used */
    size_t models_read;       /* at the settle: models placed from a mark read, not inferred (ref_snapshot) */
    size_t tags_missing;      /* at the settle: tags seen before and not now */
    size_t tags_kept;         /* at the settle: of those, kept where they were: their pixels unchanged (vis_patch.h) */
    bool full_frame;          /* the settle detection ran on the whole frame */
    double detect_share;      /* ... the share of the frame's pixels it searched (1: the whole frame) */
    double detect_ms, check_ms;  /* time spent at the settle frame */
    const rules_snapshot *before, *after;  /* the move's two snapshots (after = the new one) */
    const rules_report *report;
    char note[256];           /* why the frame did not settle, or what the settle noticed */
    char setup_check[512];    /* WATCH_TRACKER_SETUP: the check that failed, its figure and the file it doubts */
    double paper_level;       /* at the settle: median grey of the tags' white borders (0: none seen) */
    bool white_clips;         /* ... and projected white (the calibration's projector) would clip it */
} watch_tracker_result;

typedef struct watch_tracker watch_tracker;

/* Every frame read through `setup` (borrowed: it must outlive the tracker): its roster, calibration and, from a
 * table file, its ruleset and terrain. NULL on error. */
watch_tracker *watch_tracker_new_setup(ref_setup *setup, const watch_tracker_config *cfg, base_error *err);
/* The same over a set-up made from memory (ref_setup_wrap: the roster borrowed, the calibration copied). */
watch_tracker *watch_tracker_new(const roster_file *roster, const calib_file *calib, const watch_tracker_config *cfg,
                                 base_error *err);
void watch_tracker_free(watch_tracker *w);

/*
 * The projector picture shown from t_ms on (the watch's own light; the calibration's "projector" section
 * maps it onto the table). Where it changes, the camera's picture changes one latency later: those blocks
 * are not the table moving (watch_echo.h). Without a projector section, nothing. Returns 0 or -1.
 */
int watch_tracker_projected(watch_tracker *w, const base_image *picture, double t_ms, base_error *err);

/* One frame (8-bit gray, borrowed) at frame time t_ms (increasing). Returns 0 or -1. */
int watch_tracker_frame(watch_tracker *w, const uint8_t *gray, int width, int height, size_t stride, double t_ms,
                    watch_tracker_result *res, base_error *err);

/* What the judge made of a call. */
typedef enum watch_call_ruling {
    WATCH_RULING_NONE = 0,    /* the call stands as made */
    WATCH_RULING_OVERRULED,   /* the judge overruled it: the move stands as legal */
    WATCH_RULING_CONFIRMED,   /* the judge confirmed it */
} watch_call_ruling;

/*
 * The judge overrules (or confirms) the call on move `move` (0: the latest
 * standing call). Returns the move number, 0 when there is no such call
 * (never made, or undone); *why (optional) says why nothing was done.
 */
int watch_tracker_overrule(watch_tracker *w, int move, const char **why);
int watch_tracker_confirm(watch_tracker *w, int move, const char **why);
/* The ruling on move `move` (NONE for unknown moves). */
watch_call_ruling watch_tracker_ruling(const watch_tracker *w, int move);
/* Illegal calls that stand: made, not undone, not overruled. */
int watch_tracker_illegal_standing(const watch_tracker *w);
/*
 * The judge undoes the last settled snapshot: the table is judged against
 * the one before it at the next settle (the player puts the unit back or
 * moves it again). Returns the move number undone, 0 when there is nothing
 * to undo.
 */
int watch_tracker_undo(watch_tracker *w);
/*
 * The judge sets a unit's status (RULES_STATUS_* bits: engaged, fleeing,
 * shaken, charging; 0 clears them): it holds for the latest snapshot and
 * every one after, so the next move is judged with it. -1 when the roster
 * has no such unit.
 */
int watch_tracker_set_status(watch_tracker *w, const char *unit_id, unsigned bits, base_error *err);

/*
 * The judge (or a player) declares the roll for a unit whose rate is dice
 * (random movement, rules/rules_dice.h). When the latest call standing
 * needs that unit's roll, that move is judged again against it (its report
 * replaced, watch_tracker_last_call gives the new one): returns its move
 * number. Otherwise the roll is held for the unit's next move: returns 0.
 * -1 with err when the roster has no such unit, its rates are not dice, or
 * the roll is no roll of its dice (or the judging failed).
 */
int watch_tracker_roll(watch_tracker *w, const char *unit_id, double roll_mm, base_error *err);

/*
 * The latest call still standing (not undone): its move number (0 when
 * none) and, borrowed like a result's, its two snapshots and report.
 */
int watch_tracker_last_call(const watch_tracker *w, const rules_snapshot **before, const rules_snapshot **after,
                        const rules_report **report);
/* The latest settled snapshot (NULL before the first settle). */
const rules_snapshot *watch_tracker_snapshot(const watch_tracker *w);
/* The set-up every frame is read through (its detector can be tuned before the first frame: ref_setup.h). */
ref_setup *watch_tracker_setup(watch_tracker *w);

#endif
