/*
 * watch_session's parts, shared between its files (not a public header), each
 * calling only those below it:
 *   watch_session.c         the loop, start and stop
 *   watch_session_start.c   the table check at the start (and the hold while it is no-go)
 *   watch_session_track.c   a frame through the tracker: settles, "setup" events, notes
 *   watch_session_calls.c   settles, calls, alerts, the judge's commands
 *   watch_session_record.c  the recording (watch_record) and evidence clips
 *   watch_session_feed.c    the venue feed (venue_feed): sink, commands, picture
 *   watch_session_out.c     what every part says: the log and the sinks, subtitles, console
 * All of them run on the camera loop's thread.
 */
#ifndef WATCH_SESSION_INT_H
#define WATCH_SESSION_INT_H

#include "watch_session.h"

#include <time.h>

#include "cvshim.h"
#include "watch_log.h"
#include "watch_show.h"
#include "watch_vtt.h"

#define WATCH_SESSION_MAX_SINKS 8

typedef struct watch_record watch_record;
typedef struct venue_feed venue_feed;

/* The table check at the start (watch_session_start.c). */
typedef enum watch_start_state {
    WATCH_START_PENDING = 0, WATCH_START_HOLDING, WATCH_START_DONE
} watch_start_state;

struct watch_session {
    watch_session_config cfg;
    ref_setup *setup;        /* every frame is read through it (referee/ref_setup.h) */
    bool own_setup;          /* made by watch_session_new: freed with the session */
    calib_file calib;        /* the set-up's calibration */
    const roster_file *roster;
    watch_tracker *tracker;
    watch_log *log;
    watch_vtt *vtt;
    watch_control *control;
    watch_show *show;
    bool projector_failed, log_failing, told_show_failure;
    watch_sink sinks[WATCH_SESSION_MAX_SINKS];
    size_t n_sinks;
    int calls;
    long frames;
    double last_t;
    long last_frame;
    /* What the recording and the projector show: the latest call until the table moves again. */
    int show_move;
    bool showing;
    bool warned_white_clips; /* the exposure warning was given (once per game) */
    bool table_moving;       /* the tracker's state is not settled: what is drawn may be stale (watch_show fades) */
    bool setup_failing;  /* the set-up checks failed at the last whole-frame settle (watch_tracker: SETUP) */
    long generation;         /* bumped whenever what is shown may change */
    bool stop_requested;     /* by a judge's "stop" */
    /* The recording (watch_session_record.c). */
    watch_record *rec;
    bool record_failed;      /* could not open, or failed while writing: said once, watching goes on */
    bool made_clip_dir;
    struct timespec clips_since; /* when this session first wrote a clip: older clips are an earlier game's */
    bool replay;             /* a file replayed as fast as it goes: the recorder may wait, never drop */
    bool record_warned_drop; /* the "warning" that the recorder drops frames was given (once per game) */
    long record_frames_in, record_frames_dropped; /* the recorder's counts at its close, for the "stopped" event */
    /* The venue feed (watch_session_feed.c). */
    venue_feed *feed;
    int picture_move;        /* a call whose overlay picture is still to be sent; 0: none */
    bool feed_connected, feed_told_down;
    char feed_where[400];    /* "host:port, event E, table N" for messages */
    /* The table check at the start: until it holds the tracker sees no frame. */
    watch_start_state start_state;
    double start_next_t;     /* HOLDING: frame time of the next check */
    struct watch_start *start; /* the verdict being made and the table it was made on (watch_session_start.c) */
    bool start_track_failed; /* a frame read for the marks could not go through the tracker */
};

/* ---- watch_session_out.c ---- */
/* Logs the event, hands it to every sink, frees it (NULL: out of memory, said). */
void watch_session_emit(watch_session *s, cJSON *ev);
/* An "error" event {"what", "message"} at the latest frame, on stderr too. */
void watch_session_emit_error(watch_session *s, const char *what, const char *message);
void watch_session_cue(watch_session *s, double t, const char *text);
/* "[   12.3 s] " + fmt(text) on stdout. */
void watch_session_say(double t, const char *fmt, const char *text);

/* ---- watch_session_track.c ---- */
/* The tracker's part of frame f (settle, judge, the "setup" events, notes). -1 with err when it cannot take it. */
int watch_session_track(watch_session *s, const cap_frame *f, base_error *err);

/*
 * watch_session_start.c, the table check at the start. What to do with frame f until it is done: the first
 * call checks f: JUDGE (it holds, or it is done), HOLD (no-go: f is shown and recorded, nothing judged; checked
 * again a settle time later), PROJECTOR (the picture holds and the projector's marks are to be thrown: the
 * tracker takes f, then watch_session_start_projector). The verdict is said when it is known.
 */
enum { WATCH_START_JUDGE = 0, WATCH_START_HOLD, WATCH_START_PROJECTOR };
int watch_session_start_check(watch_session *s, cap_source *cap, const cap_frame *f);
/* The projector's marks thrown and read back from `cap`; the frames read go through the tracker (the marks are
 * the watch's own light to it). -1 with err when the tracker cannot take one (the watch ends). */
int watch_session_start_projector(watch_session *s, cap_source *cap, base_error *err);
void watch_session_start_free(watch_session *s);

/* watch_session_calls.c */
void watch_session_on_settled(watch_session *s, const watch_tracker_result *r, long frame, double t);
void watch_session_poll_commands(watch_session *s, long frame, double t);

/* watch_session_record.c: every frame shown, at its own time (opens the recording at the first). */
void watch_session_record_frame(watch_session *s, const base_image *shown, double t_ms, double fps);
/*
 * Asks for the evidence clip of the call on `move` settled at t_ms
 * (watch_session_record.c says the window). Its path into path_out; -1 when
 * nothing is recorded (no --record, or the recording failed).
 */
int watch_session_record_clip(watch_session *s, int move, double t_ms, char *path_out, size_t cap);
/* Logs a "clip" event for each clip written (or failed) since the last call. */
void watch_session_record_poll(watch_session *s);
/* Finishes the recording (its error, if any, logged) and logs the clips written at close. */
void watch_session_record_close(watch_session *s);

/* watch_session_feed.c (no-ops without the venue feed). */
/* The call's distances for the log and the feed (venue_call_add_distances). */
void watch_session_feed_add_distances(cJSON *ev, const rules_report *r);
/* True while the feed waits for a call's picture. */
bool watch_session_feed_wants_picture(const watch_session *s);
/* The annotated frame showing call s->picture_move: shrunk and sent by the feed. */
void watch_session_feed_picture(watch_session *s, const base_image *shown);
/* Once per frame: says on stderr when the broker cannot be reached (once) and when it can again. */
void watch_session_feed_poll(watch_session *s);
/* After "stopped": flushes what is queued (bounded) and frees the feed. */
void watch_session_feed_close(watch_session *s);

#endif
