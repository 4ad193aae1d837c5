/*
 * watch_session: one watched game, from the first frame to the last. Takes
 * frames from a capture, lets the tracker settle and judge them, and tells
 * everyone: the event log, the subtitles, stdout, the recording, the
 * projector, and any sink a caller adds; with the venue feed attached, the
 * venue's MQTT broker too. Applies the judge's commands from every source
 * between frames.
 *
 * The recording is H.264 in a fragmented MP4 (watch/watch_record.h): a kill
 * or a full disk loses at most the last second; a write error becomes one
 * "error" event and watching goes on. At each ILLEGAL or CANNOT TELL call
 * an evidence clip is cut from it: the seconds from 5 s before the table
 * last moved to 1 s after the settle, i.e. [t - settle_ms - 5000, t + 1000]
 * around the settle frame's time t, written to FILE.clips/move-N.mp4 beside
 * the recording; the call's events name it ("clip") and a "clip" event
 * says when it is written.
 *
 * How to use:
 *   watch_session_config cfg; watch_session_config_default(&cfg);
 *   cfg.record_path = "game.mp4"; ...
 *   watch_session *s = watch_session_new_setup(setup, &cfg, &err);     // referee/ref_setup.h: borrowed
 *   watch_session *s = watch_session_new(roster, &calib, &cfg, &err);  // or from memory: roster borrowed
 *   watch_control_add_fd(watch_session_control(s), STDIN_FILENO, "stdin", &err);   // optional
 *   watch_session_add_sink(s, &(watch_sink){my_event_fn, my_ctx}, &err);         // optional
 *   watch_session_attach_feed(s, &venue_cfg, &err);   // optional (TABLEREF_HAVE_VENUE): the MQTT feed
 *   int status = watch_session_run(s, capture, &stop_flag);   // returns when the source ends, is lost, or stop is set
 *   watch_session_free(s);
 * Exit statuses (WATCH_EXIT_*): 0 every call legal or overruled, 1 an
 * illegal call stands, 2 bad input (a frame the calibration does not fit,
 * a frame too small to use), 3 the source was lost mid-game. Whatever the
 * status, everything recorded up to the end is kept.
 */
#ifndef WATCH_SESSION_H
#define WATCH_SESSION_H

#include <signal.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#include "tableref_config.h"

#include "calib_file.h"
#include "base_error.h"
#include "cap_source.h"
#include "ref_setup.h"
#include "roster.h"
#include "watch_control.h"
#include "watch_tracker.h"

/* The exit statuses are base_error.h's (BASE_EXIT_*), defined there once. */
enum {
    WATCH_EXIT_LEGAL = BASE_EXIT_OK,
    WATCH_EXIT_ILLEGAL = BASE_EXIT_ILLEGAL,
    WATCH_EXIT_BAD_INPUT = BASE_EXIT_BAD_INPUT,
    WATCH_EXIT_SOURCE_LOST = BASE_EXIT_SOURCE_LOST,
};

typedef struct watch_session_config {
    watch_tracker_config tracker;
    const char *record_path;   /* the annotated video (fragmented MP4); NULL: none */
    const char *clip_url;      /* the clips' folder as a judge's page reaches it (URL prefix); NULL: paths only */
    const char *log_path;      /* the event log, appended to; NULL: none */
    const char *vtt_path;      /* subtitles; NULL: none */
    bool replace;              /* an existing recording or subtitles may be overwritten */
    bool projector;            /* show the projector picture fullscreen (needs a display) */
    bool realtime;             /* replay a recording at its own pace */
    bool quiet;                /* no progress on stderr */
    /* Named in the "started" event only. */
    const char *source, *calib_path, *roster_path;
    /* Receives the projector picture of every frame (the calibration's "projector" section must be there):
     * the table simulator lights its next frames with it (datasets/ds_loop.h; watch_source_open sets it for a
     * source that sees the projector: cap_source_project). NULL: none. The picture is
     * borrowed for the call; t_ms is the frame's time. */
    void (*project)(void *ctx, const base_image *picture, double t_ms);
    void *project_ctx;
} watch_session_config;

void watch_session_config_default(watch_session_config *c);

/* Receives every event after the log has it (with its "seq"); `ev` is borrowed for the call. */
typedef struct watch_sink {
    void (*event)(void *ctx, const cJSON *ev);
    void *ctx;
} watch_sink;

typedef struct watch_session watch_session;

/* Opens the log and subtitles (the recording opens at the first frame); every frame is read through `setup`
 * (borrowed: it must outlive the session), as every program reads its pictures. NULL with err on failure. */
watch_session *watch_session_new_setup(ref_setup *setup, const watch_session_config *cfg, base_error *err);
/* The same over a set-up made from memory (ref_setup_wrap: the roster borrowed, the calibration copied; the
 * files cfg names in the "started" event name them in the self-checks' messages). */
watch_session *watch_session_new(const roster_file *roster, const calib_file *calib, const watch_session_config *cfg,
                                 base_error *err);
/* Finishes what is open; NULL is fine. */
void watch_session_free(watch_session *s);

/* The judge's command queue: add descriptors to it, or push lines from any thread. */
watch_control *watch_session_control(watch_session *s);
/* Up to 8 sinks; -1 when full. */
int watch_session_add_sink(watch_session *s, const watch_sink *sink, base_error *err);
/* The tracker (its detector can be tuned before the first frame). */
watch_tracker *watch_session_tracker(watch_session *s);

#if TABLEREF_HAVE_VENUE
#include "venue_feed.h"
/*
 * Publishes every event to the venue's MQTT broker (venue/venue_feed.h),
 * sends the overlay picture at each call, and takes the judges' commands
 * from it (by "mqtt:JUDGE"). cfg->on_command is set here. Returns at once
 * whether or not the broker is there (the feed says once that it cannot
 * connect, and keeps trying); -1 only for a bad configuration. Once.
 */
int watch_session_attach_feed(watch_session *s, const venue_config *cfg, base_error *err);
#endif

/* Watches `cap` until it ends, is lost, fails, or *stop becomes non-zero. Returns a WATCH_EXIT_* status. */
int watch_session_run(watch_session *s, cap_source *cap, volatile sig_atomic_t *stop);

#endif
