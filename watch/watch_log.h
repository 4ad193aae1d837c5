/*
 * watch_log: the referee's event log of a watched game (events.jsonl,
 * docs/formats.md "Event log and subtitles"), written as things happen so
 * that a crash, a kill or a pulled plug loses nothing already called.
 *
 * Promises:
 *   - append-only: opening an existing log appends (a second game follows
 *     the first, after its own "started" event); nothing is ever truncated
 *     except a line this log itself failed to finish;
 *   - each event is one complete line or nothing: the line goes out in one
 *     write(); on a short write (a full disk) the file is cut back to the
 *     last newline and the call fails;
 *   - each line is fsync'ed before the call returns;
 *   - events that could not be written are counted; the next line that can
 *     be written is preceded by a "log_gap" event saying how many were lost.
 *
 * How to use:
 *   watch_log *log = watch_log_open("events.jsonl", &err);   // NULL path: a log that writes nothing
 *   cJSON *ev = watch_log_event_new("settled", t_ms, frame);
 *   cJSON_AddStringToObject(ev, "note", "...");
 *   if (watch_log_write(log, ev, &err) < 0) ... say so; the log keeps going
 *   cJSON_Delete(ev);                       // the caller keeps ev (now with "seq")
 *   watch_log_close(log);
 */
#ifndef WATCH_LOG_H
#define WATCH_LOG_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "base_error.h"
#include "rules_report.h"
#include "rules_snapshot.h"
#include "rules_words.h"

#define WATCH_LOG_FORMAT "tableref.events"
#define WATCH_LOG_VERSION 1

typedef struct watch_log watch_log;

/* Opens `jsonl_path` for appending (created when missing); NULL path: a log that writes nothing. */
watch_log *watch_log_open(const char *jsonl_path, base_error *err);
/* Closes; NULL is fine. */
void watch_log_close(watch_log *log);

/* {"event": kind, "t_ms": t, "frame": n, "wall": "2026-11-22T10:00:00.123Z"}; NULL when out of memory. */
cJSON *watch_log_event_new(const char *kind, double t_ms, long frame);
/*
 * Adds "seq" (first member) to `ev` and writes it as one line, fsync'ed.
 * The caller keeps `ev`. Returns 0, or -1 with err naming the file (the
 * event is then counted as lost).
 */
int watch_log_write(watch_log *log, cJSON *ev, base_error *err);
/* Events that could not be written and are not yet reported by a "log_gap" line. */
size_t watch_log_lost(const watch_log *log);

/*
 * The call on one move for the log: {"move": n, "legal": ..., "verdict": ...,
 * "units": [{"unit", "move", "legal", "verdict", "why", "codes": [...],
 * "sentence"}]}; members added to `ev`. The sentence is rules_words_call's
 * with the +/- of the two snapshots judged (the same words the terminal,
 * the report's JSON, the subtitles and the venue feed carry). -1 when out
 * of memory.
 */
int watch_log_add_call(cJSON *ev, int move, const rules_report *r, const rules_snapshot *before,
                       const rules_snapshot *after);
/* One unit's sentence for people (rules_words_call, rules_words.h), written into buf (RULES_WORDS_MAX). */
void watch_log_unit_sentence(const rules_unit_report *u, const rules_snapshot *before, const rules_snapshot *after,
                             char *buf, size_t cap);

#endif
