#include "watch_session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rules_json.h"
#include "watch_log.h"
#include "watch_show.h"
#include "watch_vtt.h"

#define MAX_SINKS 8

struct watch_session {
    watch_session_config cfg;
    const vis_roster *roster;
    watch_tracker *tracker;
    watch_log *log;
    watch_vtt *vtt;
    watch_control *control;
    watch_show *show;
    cvs_video_writer *writer;
    bool record_failed, projector_failed, log_failing, told_show_failure;
    watch_sink sinks[MAX_SINKS];
    size_t n_sinks;
    int calls;
    long frames;
    double last_t;
    long last_frame;
    /* What the recording and the projector show: the latest call until the table moves again. */
    int show_move;
    bool showing;
    bool table_moving;       /* the tracker's state is not settled: what is drawn may be stale */
    long generation;         /* bumped whenever what is shown may change */
    bool stop_requested;     /* by a judge's "stop" */
};

void watch_session_config_default(watch_session_config *c)
{
    memset(c, 0, sizeof *c);
    watch_tracker_config_default(&c->tracker);
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* An existing recording is an earlier game: never overwrite it without being told to. */
static int check_new_file(const char *path, bool replace, rules_error *err)
{
    struct stat st;
    if (path && !replace && stat(path, &st) == 0)
        return rules_error_set(err, "%s: exists (an earlier recording?): choose another name, or --replace to "
                                    "overwrite it", path);
    return 0;
}

watch_session *watch_session_new(const vis_roster *roster, const calib_file *calib, const watch_session_config *cfg,
                                 rules_error *err)
{
    watch_session *s = calloc(1, sizeof *s);
    if (!s) {
        rules_error_set(err, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->roster = roster;
    if (check_new_file(cfg->record_path, cfg->replace, err) < 0 ||
        !(s->tracker = watch_tracker_new(roster, calib, &cfg->tracker, err)) ||
        !(s->log = watch_log_open(cfg->log_path, err)) || !(s->vtt = watch_vtt_open(cfg->vtt_path, cfg->replace, err)) ||
        !(s->control = watch_control_new(err)) || !(s->show = watch_show_new(calib, err))) {
        watch_session_free(s);
        return NULL;
    }
    return s;
}

void watch_session_free(watch_session *s)
{
    if (!s)
        return;
    cvs_video_writer_close(s->writer);
    if (s->cfg.projector && !s->projector_failed)
        cvs_window_close("tableref");
    watch_vtt_close(s->vtt, s->last_t, NULL);
    watch_show_free(s->show);
    watch_control_free(s->control);
    watch_log_close(s->log);
    watch_tracker_free(s->tracker);
    free(s);
}

watch_control *watch_session_control(watch_session *s) { return s->control; }
watch_tracker *watch_session_tracker(watch_session *s) { return s->tracker; }

int watch_session_add_sink(watch_session *s, const watch_sink *sink, rules_error *err)
{
    if (s->n_sinks == MAX_SINKS)
        return rules_error_set(err, "too many event sinks");
    s->sinks[s->n_sinks++] = *sink;
    return 0;
}

/* Logs the event, hands it to every sink, frees it. A log that cannot write says so and keeps going. */
static void emit(watch_session *s, cJSON *ev)
{
    if (!ev) {
        fprintf(stderr, "tableref watch: out of memory: an event was lost\n");
        return;
    }
    rules_error err;
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

static void cue(watch_session *s, double t, const char *text)
{
    rules_error err;
    if (watch_vtt_cue(s->vtt, t, text, &err) < 0)
        fprintf(stderr, "tableref watch: subtitles: %s\n", err.msg);
}

static void say(double t, const char *fmt, const char *text)
{
    printf("[%8.1f s] ", t / 1000);
    printf(fmt, text);
    printf("\n");
    fflush(stdout);
}

/* The first settle: the table as it stands. */
static void on_first(watch_session *s, const watch_tracker_result *r, double t)
{
    size_t models = 0;
    for (size_t u = 0; u < r->after->n_units; u++)
        models += r->after->units[u].n_models;
    printf("[%8.1f s] table settled: %zu units, %zu models; watching\n", t / 1000, r->after->n_units, models);
    fflush(stdout);
    char text[128];
    snprintf(text, sizeof text, "Table settled: %zu units. Watching.", r->after->n_units);
    cue(s, t, text);
}

/* One alert per unit with an illegal call. */
static void alert_unit(watch_session *s, const watch_tracker_result *r, const rules_unit_report *u,
                       const char *sentence, long frame, double t)
{
    cJSON *al = watch_log_event_new("alert", t, frame);
    if (al) {
        cJSON_AddNumberToObject(al, "move", r->move);
        cJSON_AddStringToObject(al, "unit", u->unit_id);
        cJSON *codes = cJSON_AddArrayToObject(al, "codes");
        for (size_t k = 0; codes && k < u->n_violations; k++)
            cJSON_AddItemToArray(codes, cJSON_CreateString(u->violations[k].code));
        cJSON_AddStringToObject(al, "sentence", sentence);
    }
    emit(s, al);
    char line[640];
    snprintf(line, sizeof line, "ALERT move %d: %s", r->move, sentence);
    say(t, "%s", line);
}

/* A judged move: the call on stdout, in the log, as alerts and as a cue. */
static void on_call(watch_session *s, const watch_tracker_result *r, long frame, double t)
{
    s->calls++;
    cJSON *ev = watch_log_event_new("move_checked", t, frame);
    if (ev) {
        watch_log_add_call(ev, r->move, r->report);
        rules_json_add_number(ev, "check_ms", r->check_ms, 2);
        cJSON *after = rules_json_from_snapshot(r->after);
        if (after)
            cJSON_AddItemToObject(ev, "snapshot", after);
    }
    emit(s, ev);
    char text[2048];
    size_t off = 0;
    for (size_t i = 0; i < r->report->n_units; i++) {
        const rules_unit_report *u = &r->report->units[i];
        char sentence[512], line[600];
        watch_log_unit_sentence(u, sentence, sizeof sentence);
        snprintf(line, sizeof line, "move %d: %s", r->move, sentence);
        say(t, "%s", line);
        if (off < sizeof text)
            off += (size_t)snprintf(text + off, sizeof text - off, "%sMove %d: %s", off ? "\n" : "", r->move, sentence);
        if (u->verdict == RULES_VERDICT_ILLEGAL)
            alert_unit(s, r, u, sentence, frame, t);
    }
    cue(s, t, text);
    s->show_move = r->move;
    s->showing = true;
}

/* Announces a settle and, when a unit moved, the call. */
static void on_settled(watch_session *s, const watch_tracker_result *r, long frame, double t)
{
    cJSON *ev = watch_log_event_new("settled", t, frame);
    if (ev) {
        cJSON_AddNumberToObject(ev, "tags_seen", (double)r->tags_seen);
        cJSON_AddNumberToObject(ev, "tags_missing", (double)r->tags_missing);
        cJSON_AddBoolToObject(ev, "full_frame", r->full_frame);
        rules_json_add_number(ev, "detect_ms", r->detect_ms, 1);
        cJSON_AddBoolToObject(ev, "first", r->first);
        cJSON_AddBoolToObject(ev, "moved", r->moved);
        if (r->note[0])
            cJSON_AddStringToObject(ev, "note", r->note);
        if (r->first && r->after) {
            cJSON *snap = rules_json_from_snapshot(r->after);
            if (snap)
                cJSON_AddItemToObject(ev, "snapshot", snap);
        }
    }
    emit(s, ev);
    if (r->first)
        on_first(s, r, t);
    else if (r->moved)
        on_call(s, r, frame, t);
    else if (!s->cfg.quiet)
        fprintf(stderr, "[%8.1f s] %s\n", t / 1000, r->note[0] ? r->note : "settled: no unit moved");
    s->generation++;
}

/* Applies one judge's command and records it (applied or not, and why). */
static void apply_command(watch_session *s, const watch_command *c, long frame, double t)
{
    int m = 0;
    const char *why = NULL;
    bool status_set = false;
    char status_why[RULES_ERROR_MAX];
    switch (c->action) {
    case WATCH_CMD_STOP: s->stop_requested = true; break;
    case WATCH_CMD_OVERRULE: m = watch_tracker_overrule(s->tracker, c->move, &why); break;
    case WATCH_CMD_CONFIRM: m = watch_tracker_confirm(s->tracker, c->move, &why); break;
    case WATCH_CMD_UNDO:
        if (!(m = watch_tracker_undo(s->tracker)))
            why = "nothing to undo";
        s->showing = false;
        break;
    case WATCH_CMD_STATUS: {
        rules_error err;
        if (watch_tracker_set_status(s->tracker, c->unit, c->status, &err) == 0)
            status_set = true;
        else
            snprintf(status_why, sizeof status_why, "%s", err.msg), why = status_why;
        break;
    }
    case WATCH_CMD_INVALID: why = c->error; break;
    }
    const bool applied = m != 0 || c->action == WATCH_CMD_STOP || status_set;
    s->generation++;
    cJSON *ev = watch_log_event_new("correction", t, frame);
    if (ev) {
        cJSON_AddStringToObject(ev, "action", watch_cmd_word(c->action));
        cJSON_AddNumberToObject(ev, "move", m);
        cJSON_AddBoolToObject(ev, "applied", applied);
        if (c->action == WATCH_CMD_STATUS) {
            cJSON_AddStringToObject(ev, "unit", c->unit);
            cJSON *words = cJSON_AddArrayToObject(ev, "status");
            for (unsigned bit = 1; words && bit && bit <= c->status; bit <<= 1)
                if ((c->status & bit) && rules_status_word(bit))
                    cJSON_AddItemToArray(words, cJSON_CreateString(rules_status_word(bit)));
        }
        cJSON_AddStringToObject(ev, "by", c->by);
        if (c->reason[0])
            cJSON_AddStringToObject(ev, "reason", c->reason);
        if (why)
            cJSON_AddStringToObject(ev, "why_not", why);
        if (c->action == WATCH_CMD_INVALID)
            cJSON_AddStringToObject(ev, "line", c->line);
    }
    emit(s, ev);
    if (c->action == WATCH_CMD_STOP)
        return;
    char text[512];
    static const char *done[] = {"", "overruled: the move stands", "confirmed", "undone"};
    if (status_set) {
        char words[96] = "without status";
        for (unsigned bit = 1, off = 0; bit && bit <= c->status; bit <<= 1)
            if ((c->status & bit) && rules_status_word(bit) && off < sizeof words)
                off += (unsigned)snprintf(words + off, sizeof words - off, "%s%s", off ? ", " : "",
                                          rules_status_word(bit));
        snprintf(text, sizeof text, "Judge (%s): %s is now %s%s%s.", c->by, c->unit, words, c->reason[0] ? ": " : "",
                 c->reason);
    }
    else if (m)
        snprintf(text, sizeof text, "Judge (%s): move %d %s%s%s.", c->by, m, done[c->action], c->reason[0] ? ": " : "",
                 c->reason);
    else
        snprintf(text, sizeof text, "Judge (%s): '%s' not applied: %s.", c->by, c->line, why ? why : "?");
    say(t, "%s", text);
    if (applied)
        cue(s, t, text);
    if (c->action == WATCH_CMD_INVALID)
        fprintf(stderr, "tableref watch: %s: %s\n", c->by, c->error);
}

static void poll_commands(watch_session *s, long frame, double t)
{
    watch_command c;
    while (watch_control_poll(s->control, &c) == 1)
        apply_command(s, &c, frame, t);
}

/* The content to draw now: the latest call while it is being shown, else the table. */
static watch_show_content show_content(const watch_session *s)
{
    watch_show_content c = {.table = watch_tracker_snapshot(s->tracker), .roster = s->roster,
                            .moving = s->table_moving, .generation = s->generation * 2 + s->showing};
    if (s->showing && watch_tracker_last_call(s->tracker, &c.before, &c.after, &c.report) != s->show_move)
        c.before = c.after = NULL, c.report = NULL;
    return c;
}

/* Writes the annotated frame to the recording (opened at the first frame). */
static void record(watch_session *s, const cvs_image *shown, double fps)
{
    rules_error err;
    if (!s->writer && !s->record_failed) {
        char codec[8] = "";
        s->writer = cvs_video_writer_open(s->cfg.record_path, shown->width, shown->height, fps > 0 ? fps : 5, codec,
                                          &err);
        if (!s->writer) {
            fprintf(stderr, "tableref watch: %s\n", err.msg);
            s->record_failed = true;
            return;
        }
        if (!s->cfg.quiet)
            fprintf(stderr, "tableref watch: recording %s (%s)\n", s->cfg.record_path, codec);
    }
    if (s->writer && cvs_video_write(s->writer, shown, &err) < 0)
        fprintf(stderr, "tableref watch: recording: %s\n", err.msg);
}

/* The projector window; its keys are commands too. */
static void project(watch_session *s, const cvs_image *shown, const watch_show_content *c)
{
    rules_error err;
    if (cvs_window_show("tableref", watch_show_projector(s->show, shown, c), 1, &err) < 0) {
        fprintf(stderr, "tableref watch: projector: %s; continuing without it\n", err.msg);
        s->projector_failed = true;
        return;
    }
    int key = cvs_window_key(1);
    const char *line = key == 'o' || key == 'a' ? "overrule" : key == 'c' ? "confirm" : key == 'u' ? "undo"
                       : key == 'q' || key == 27 ? "stop" : NULL;
    if (line)
        watch_control_push_line(s->control, line, "keyboard");
}

static void show_and_record(watch_session *s, const vis_frame *f, double fps)
{
    if (!s->cfg.record_path && !(s->cfg.projector && !s->projector_failed))
        return;
    watch_show_content c = show_content(s);
    const cvs_image *shown = watch_show_camera(s->show, f->image, &c);
    const char *failure = watch_show_failure(s->show);
    if (failure && !s->told_show_failure) {
        fprintf(stderr, "tableref watch: %s (recording without annotations)\n", failure);
        s->told_show_failure = true;
    }
    if (s->cfg.record_path)
        record(s, shown, fps);
    if (s->cfg.projector && !s->projector_failed)
        project(s, shown, &c);
}

/* The camera is gone: say so everywhere, keep everything recorded. */
static void source_lost(watch_session *s, const char *msg)
{
    cJSON *e = watch_log_event_new("camera_lost", s->last_t, s->last_frame);
    if (e)
        cJSON_AddStringToObject(e, "reason", msg);
    emit(s, e);
    cJSON *al = watch_log_event_new("alert", s->last_t, s->last_frame);
    if (al)
        cJSON_AddStringToObject(al, "sentence", "The camera was lost: the game is no longer watched.");
    emit(s, al);
    char text[640];
    snprintf(text, sizeof text, "Camera lost: %s", msg);
    cue(s, s->last_t, text);
    say(s->last_t, "ALERT %s", text);
}

static void wait_until_due(double start_ms, double t_ms)
{
    double due = start_ms + t_ms, now = mono_ms();
    if (due > now) {
        struct timespec ts = {(time_t)((due - now) / 1000), (long)(fmod(due - now, 1000.0) * 1e6)};
        nanosleep(&ts, NULL);
    }
}

static void emit_started(watch_session *s, vis_capture *cap)
{
    cJSON *ev = watch_log_event_new("started", 0, 0);
    if (ev) {
        cJSON_AddStringToObject(ev, "format", WATCH_LOG_FORMAT);
        cJSON_AddNumberToObject(ev, "version", WATCH_LOG_VERSION);
        if (s->cfg.source)
            cJSON_AddStringToObject(ev, "source", s->cfg.source);
        cJSON_AddStringToObject(ev, "source_kind", vis_capture_describe(cap));
        rules_json_add_number(ev, "fps", vis_capture_fps(cap), 3);
        cJSON_AddNumberToObject(ev, "settle_ms", s->cfg.tracker.settle_ms);
        cJSON_AddNumberToObject(ev, "jitter_mm", s->cfg.tracker.jitter_mm);
        if (s->cfg.calib_path)
            cJSON_AddStringToObject(ev, "calib", s->cfg.calib_path);
        if (s->cfg.roster_path)
            cJSON_AddStringToObject(ev, "roster", s->cfg.roster_path);
        if (s->cfg.record_path)
            cJSON_AddStringToObject(ev, "record", s->cfg.record_path);
    }
    emit(s, ev);
    if (!s->cfg.quiet)
        fprintf(stderr, "tableref watch: %s\n", vis_capture_describe(cap));
}

static void emit_stopped(watch_session *s, const char *reason, int status)
{
    const int standing = watch_tracker_illegal_standing(s->tracker);
    cJSON *ev = watch_log_event_new("stopped", s->last_t, s->last_frame);
    if (ev) {
        cJSON_AddStringToObject(ev, "reason", reason);
        cJSON_AddNumberToObject(ev, "frames", (double)s->frames);
        cJSON_AddNumberToObject(ev, "calls", s->calls);
        cJSON_AddNumberToObject(ev, "illegal_standing", standing);
        cJSON_AddNumberToObject(ev, "exit_status", status);
        if (watch_log_lost(s->log))
            cJSON_AddNumberToObject(ev, "log_events_lost", (double)watch_log_lost(s->log));
    }
    emit(s, ev);
    printf("watch: %ld frames, %d call%s, %d illegal standing (%s)\n", s->frames, s->calls, s->calls == 1 ? "" : "s",
           standing, reason);
    fflush(stdout);
}

int watch_session_run(watch_session *s, vis_capture *cap, volatile sig_atomic_t *stop)
{
    emit_started(s, cap);
    const char *reason = "end of recording";
    int status = -1;
    char failure[640];
    const double start_ms = mono_ms(), fps = vis_capture_fps(cap);
    for (;;) {
        if ((stop && *stop) || s->stop_requested) {
            reason = s->stop_requested ? "stopped by a judge's command"
                     : *stop == SIGINT ? "interrupted (SIGINT)" : "stopped (SIGTERM)";
            break;
        }
        rules_error err;
        vis_frame f;
        int r = vis_capture_read(cap, &f, &err);
        if (r == 0)
            break;
        if (r == -2) { /* a frame of a size no camera gives (vis_image): bad input, not a lost camera */
            snprintf(failure, sizeof failure, "%s", err.msg);
            fprintf(stderr, "tableref watch: %s\n", failure);
            cJSON *e = watch_log_event_new("error", s->last_t, s->last_frame);
            if (e)
                cJSON_AddStringToObject(e, "message", failure);
            emit(s, e);
            reason = failure;
            status = WATCH_EXIT_BAD_INPUT;
            break;
        }
        if (r < 0) {
            source_lost(s, err.msg);
            reason = "camera lost";
            status = WATCH_EXIT_SOURCE_LOST;
            break;
        }
        s->frames++;
        s->last_t = f.t_ms, s->last_frame = f.index;
        if (s->cfg.realtime)
            wait_until_due(start_ms, f.t_ms);
        watch_tracker_result res;
        if (watch_tracker_frame(s->tracker, f.gray->data, f.gray->width, f.gray->height, f.gray->stride, f.t_ms, &res,
                                &err) < 0) {
            snprintf(failure, sizeof failure, "frame %ld: %s", f.index, err.msg);
            fprintf(stderr, "tableref watch: %s\n", failure);
            cJSON *e = watch_log_event_new("error", f.t_ms, f.index);
            if (e)
                cJSON_AddStringToObject(e, "message", failure);
            emit(s, e);
            reason = failure;
            status = WATCH_EXIT_BAD_INPUT;
            break;
        }
        s->table_moving = res.state != WATCH_TRACKER_SETTLED;
        if (res.state == WATCH_TRACKER_MOVING && s->showing) {
            s->showing = false;
            s->generation++;
        }
        if (res.settled)
            on_settled(s, &res, f.index, f.t_ms);
        else if (res.note[0] && !s->cfg.quiet)
            fprintf(stderr, "[%8.1f s] %s\n", f.t_ms / 1000, res.note);
        poll_commands(s, f.index, f.t_ms);
        show_and_record(s, &f, fps);
    }
    /* Commands that came with the last frame still count. */
    poll_commands(s, s->last_frame, s->last_t);
    if (status < 0)
        status = watch_tracker_illegal_standing(s->tracker) > 0 ? WATCH_EXIT_ILLEGAL : WATCH_EXIT_LEGAL;
    /* Finish the recording first: its index makes the MP4 playable. */
    cvs_video_writer_close(s->writer);
    s->writer = NULL;
    emit_stopped(s, reason, status);
    rules_error err;
    /* The last cue lasts until the video ends: one frame after the last frame's time. */
    if (watch_vtt_close(s->vtt, s->last_t + (fps > 0 ? 1000.0 / fps : 0), &err) < 0)
        fprintf(stderr, "tableref watch: subtitles: %s\n", err.msg);
    s->vtt = NULL;
    return status;
}
