/*
 * vis_watch_log: the referee's record of a watched game, written as things
 * happen so a crash or a pulled plug loses nothing already called.
 *   events.jsonl  one JSON object per line, append-only (docs/formats.md,
 *                 "Event log and subtitles"); each line is flushed and
 *                 fsync'ed before the call returns.
 *   game.vtt      WebVTT subtitles for the recorded video, one cue per move
 *                 and call, also flushed and fsync'ed per cue.
 *
 * How to use:
 *   vis_watch_log *log = vis_watch_log_open("events.jsonl", "game.vtt", &err);  // either may be NULL
 *   cJSON *ev = vis_watch_log_event_new("settled", t_ms, frame);
 *   cJSON_AddStringToObject(ev, "note", "...");
 *   vis_watch_log_write(log, ev, &err);        // takes ev
 *   vis_watch_log_cue(log, t0_ms, t1_ms, "spearmen: advance, legal", &err);
 *   vis_watch_log_close(log);
 */
#ifndef VIS_WATCH_LOG_H
#define VIS_WATCH_LOG_H

#include <cjson/cJSON.h>

#include "rules_error.h"
#include "rules_report.h"

#define VIS_WATCH_LOG_FORMAT "tableref.events"
#define VIS_WATCH_LOG_VERSION 1

typedef struct vis_watch_log vis_watch_log;

/* Creates (truncates) the files; NULL paths are skipped. NULL on error. */
vis_watch_log *vis_watch_log_open(const char *jsonl_path, const char *vtt_path, rules_error *err);
/* Finishes and closes; NULL is fine. */
void vis_watch_log_close(vis_watch_log *log);

/* {"event": kind, "t_ms": t, "frame": n, "wall": "2026-11-22T10:00:00.123Z"}; NULL when out of memory. */
cJSON *vis_watch_log_event_new(const char *kind, double t_ms, long frame);
/* Adds "seq", writes one line, flushes and fsyncs. Takes `ev` (freed). A NULL log only frees. */
int vis_watch_log_write(vis_watch_log *log, cJSON *ev, rules_error *err);
/* One subtitle cue from t0 to t1 (ms of video time); text may hold newlines. */
int vis_watch_log_cue(vis_watch_log *log, double t0_ms, double t1_ms, const char *text, rules_error *err);

/*
 * The call on one move for the log: {"move": n, "legal": ..., "units": [{"unit",
 * "move", "legal", "codes": [...], "sentence"}]}; members added to `ev`.
 */
int vis_watch_log_add_call(cJSON *ev, int move, const rules_report *r);
/* One sentence per unit for people ("spearmen: advance forward 3.00\", legal."), written into buf. */
void vis_watch_log_unit_sentence(const rules_unit_report *u, char *buf, size_t cap);

#endif
