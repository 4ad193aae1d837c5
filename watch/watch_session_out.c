/*
 * watch_session_out.c: what the session says, below every part of it: the
 * event log and the sinks (emit), the subtitles (cue), the console (say).
 * Every file of the session writes through these and none of them calls
 * back up into the loop (watch_session_int.h lists the files' order).
 */
#include <stdio.h>

#include "watch_session_int.h"

int watch_session_add_sink(watch_session *s, const watch_sink *sink, base_error *err)
{
    if (s->n_sinks == WATCH_SESSION_MAX_SINKS)
        return base_error_set(err, "too many event sinks");
    s->sinks[s->n_sinks++] = *sink;
    return 0;
}

/* A log that cannot write says so and keeps going. */
void watch_session_emit(watch_session *s, cJSON *ev)
{
    if (!ev) {
        fprintf(stderr, "tableref watch: out of memory: an event was lost\n");
        return;
    }
    base_error err;
    if (watch_log_write(s->log, ev, &err) < 0) {
        if (!s->log_failing)
            fprintf(stderr, "tableref watch: event log: %s (events are counted and the log goes on)\n", err.msg);
        s->log_failing = true;
        cJSON *e = watch_log_event_new("error", s->last_t, s->last_frame);
        if (e) {
            cJSON_AddStringToObject(e, "what", "event log");
            cJSON_AddStringToObject(e, "message", err.msg);
            for (size_t i = 0; i < s->n_sinks; i++)
                s->sinks[i].event(s->sinks[i].ctx, e);
            cJSON_Delete(e);
        }
    } else if (s->log_failing) {
        fprintf(stderr, "tableref watch: event log: writing again\n");
        s->log_failing = false;
    }
    for (size_t i = 0; i < s->n_sinks; i++)
        s->sinks[i].event(s->sinks[i].ctx, ev);
    cJSON_Delete(ev);
}

void watch_session_emit_error(watch_session *s, const char *what, const char *message)
{
    fprintf(stderr, "tableref watch: %s: %s\n", what, message);
    cJSON *e = watch_log_event_new("error", s->last_t, s->last_frame);
    if (e) {
        cJSON_AddStringToObject(e, "what", what);
        cJSON_AddStringToObject(e, "message", message);
    }
    watch_session_emit(s, e);
}

void watch_session_cue(watch_session *s, double t, const char *text)
{
    base_error err;
    if (watch_vtt_cue(s->vtt, t, text, &err) < 0)
        fprintf(stderr, "tableref watch: subtitles: %s\n", err.msg);
}

void watch_session_say(double t, const char *fmt, const char *text)
{
    printf("[%8.1f s] ", t / 1000);
    printf(fmt, text);
    printf("\n");
    fflush(stdout);
}
