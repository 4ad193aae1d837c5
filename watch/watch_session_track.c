/*
 * watch_session_track.c: a frame through the tracker, for the loop and for
 * the start check's projector marks alike: the settle and its call
 * (watch_session_calls.c), the "setup" events, the tracker's notes.
 */
#include <stdio.h>

#include "watch_session_int.h"

/* "setup" events: the set-up checks failing (nothing is judged, the check named) and holding again, in the
 * log and on the venue feed, once per change. */
static void note_setup(watch_session *s, const watch_tracker_result *res, double t, long frame)
{
    bool failing = res->state == WATCH_TRACKER_SETUP;
    if (failing == s->setup_failing || (!failing && !res->settled))
        return;
    s->setup_failing = failing;
    cJSON *e = watch_log_event_new("setup", t, frame);
    if (e) {
        cJSON_AddBoolToObject(e, "holds", !failing);
        cJSON_AddStringToObject(e, "state", failing ? "cannot judge: set-up" : "judging");
        if (failing)
            cJSON_AddStringToObject(e, "check", res->setup_check);
    }
    if (!failing && !s->cfg.quiet) /* the failure itself is the tracker's note, said below */
        fprintf(stderr, "[%8.1f s] the set-up holds again: judging\n", t / 1000);
    watch_session_emit(s, e);
}

int watch_session_track(watch_session *s, const cap_frame *f, base_error *err)
{
    watch_tracker_result res;
    if (watch_tracker_frame(s->tracker, f->gray->data, f->gray->width, f->gray->height, f->gray->stride, f->t_ms, &res,
                            err) < 0)
        return -1;
    s->table_moving = res.state != WATCH_TRACKER_SETTLED;
    note_setup(s, &res, f->t_ms, f->index);
    if (res.state == WATCH_TRACKER_MOVING && s->showing) {
        s->showing = false;
        s->generation++;
    }
    if (res.settled)
        watch_session_on_settled(s, &res, f->index, f->t_ms);
    else if (res.note[0] && !s->cfg.quiet)
        fprintf(stderr, "[%8.1f s] %s\n", f->t_ms / 1000, res.note);
    return 0;
}
