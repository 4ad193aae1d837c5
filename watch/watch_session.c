#include "watch_session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "media.h"
#include "rules_json.h"
#include "watch_session_int.h"

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
static int check_new_file(const char *path, bool replace, base_error *err)
{
    struct stat st;
    if (path && !replace && stat(path, &st) == 0)
        return base_error_set(err, "%s: exists (an earlier recording?): choose another name, or --replace to "
                                    "overwrite it", path);
    return 0;
}

/* The session over a set-up (owned when `own`: freed with the session, also when this fails). */
static watch_session *session_new(ref_setup *setup, bool own, const watch_session_config *cfg, base_error *err)
{
    watch_session *s = calloc(1, sizeof *s);
    if (!s) {
        if (own)
            ref_setup_free(setup);
        base_error_set(err, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->setup = setup;
    s->own_setup = own;
    s->calib = setup->calib;
    s->roster = setup->roster;
    if (check_new_file(cfg->record_path, cfg->replace, err) < 0 ||
        !(s->tracker = watch_tracker_new_setup(setup, &cfg->tracker, err)) ||
        !(s->log = watch_log_open(cfg->log_path, err)) ||
        !(s->vtt = watch_vtt_open(cfg->vtt_path, cfg->replace, err)) ||
        !(s->control = watch_control_new(err)) || !(s->show = watch_show_new(&s->calib, err))) {
        watch_session_free(s);
        return NULL;
    }
    return s;
}

watch_session *watch_session_new_setup(ref_setup *setup, const watch_session_config *cfg, base_error *err)
{
    return session_new(setup, false, cfg, err);
}

watch_session *watch_session_new(const roster_file *roster, const calib_file *calib, const watch_session_config *cfg,
                                 base_error *err)
{
    ref_setup *setup = ref_setup_wrap(calib, roster, cfg->calib_path, cfg->roster_path, err);
    return setup ? session_new(setup, true, cfg, err) : NULL;
}

void watch_session_free(watch_session *s)
{
    if (!s)
        return;
    watch_session_record_close(s);
    watch_session_feed_close(s);
    if (s->cfg.projector && !s->projector_failed)
        media_screen_close("tableref");
    watch_vtt_close(s->vtt, s->last_t, NULL);
    watch_show_free(s->show);
    watch_control_free(s->control);
    watch_log_close(s->log);
    watch_tracker_free(s->tracker);
    if (s->own_setup)
        ref_setup_free(s->setup);
    watch_session_start_free(s);
    free(s);
}

watch_control *watch_session_control(watch_session *s) { return s->control; }
watch_tracker *watch_session_tracker(watch_session *s) { return s->tracker; }

/* The content to draw now: the latest call while it is being shown, else the table. */
static watch_show_content show_content(const watch_session *s)
{
    watch_show_content c = {.table = watch_tracker_snapshot(s->tracker), .roster = s->roster,
                            .moving = s->table_moving, .generation = s->generation * 2 + s->showing};
    if (s->showing && watch_tracker_last_call(s->tracker, &c.before, &c.after, &c.report) != s->show_move)
        c.before = c.after = NULL, c.report = NULL;
    return c;
}

/* The projector window; its keys are commands too. */
static void project(watch_session *s, const base_image *shown, const watch_show_content *c)
{
    base_error err;
    if (media_screen_show("tableref", watch_show_projector(s->show, shown, c), 1, &err) < 0) {
        fprintf(stderr, "tableref watch: projector: %s; continuing without it\n", err.msg);
        s->projector_failed = true;
        return;
    }
    int key = media_screen_key(1);
    const char *line = key == 'o' || key == 'a' ? "overrule" : key == 'c' ? "confirm" : key == 'u' ? "undo"
                       : key == 'q' || key == 27 ? "stop" : NULL;
    if (line)
        watch_control_push_line(s->control, line, "keyboard");
}

static void show_and_record(watch_session *s, const cap_frame *f, double fps)
{
    const bool recording = s->cfg.record_path && !s->record_failed;
    if (!recording && !(s->cfg.projector && !s->projector_failed) && !watch_session_feed_wants_picture(s) &&
        !s->cfg.project)
        return;
    watch_show_content c = show_content(s);
    /* The camera-sized annotation only when someone sees it: at 12 MP it costs more than the settle itself, and
     * the projector's call would wait for it. */
    const bool camera_seen = recording || watch_session_feed_wants_picture(s);
    const base_image *shown = f->image;
    if (camera_seen)
        shown = watch_show_camera(s->show, f->image, &c);
    else
        watch_show_follow(s->show, f->image, &c);
    const char *failure = watch_show_failure(s->show);
    if (failure && !s->told_show_failure) {
        fprintf(stderr, "tableref watch: %s (recording without annotations)\n", failure);
        s->told_show_failure = true;
    }
    if (recording)
        watch_session_record_frame(s, shown, f->t_ms, fps);
    if (watch_session_feed_wants_picture(s))
        watch_session_feed_picture(s, shown);
    if (s->cfg.projector && !s->projector_failed)
        project(s, shown, &c);
    if (s->cfg.project) {
        const base_image *pic = watch_show_projector(s->show, shown, &c);
        if (pic != shown)
            s->cfg.project(s->cfg.project_ctx, pic, f->t_ms);
    }
    /* The tracker knows its own light: what the projector shows from now on is not the table moving. */
    const base_image *pic = (s->cfg.projector && !s->projector_failed) || s->cfg.project
                                ? watch_show_projector(s->show, shown, &c) : NULL;
    base_error err;
    if (pic && pic != shown && watch_tracker_projected(s->tracker, pic, f->t_ms, &err) < 0)
        watch_session_emit_error(s, "projector echo", err.msg);
}

/* The camera is gone: say so everywhere, keep everything recorded. */
static void source_lost(watch_session *s, const char *msg)
{
    cJSON *e = watch_log_event_new("camera_lost", s->last_t, s->last_frame);
    if (e)
        cJSON_AddStringToObject(e, "reason", msg);
    watch_session_emit(s, e);
    cJSON *al = watch_log_event_new("alert", s->last_t, s->last_frame);
    if (al)
        cJSON_AddStringToObject(al, "sentence", "The camera was lost: the game is no longer watched.");
    watch_session_emit(s, al);
    char text[640];
    snprintf(text, sizeof text, "Camera lost: %s", msg);
    watch_session_cue(s, s->last_t, text);
    watch_session_say(s->last_t, "ALERT %s", text);
}

static void wait_until_due(double start_ms, double t_ms)
{
    double due = start_ms + t_ms, now = mono_ms();
    if (due > now) {
        struct timespec ts = {(time_t)((due - now) / 1000), (long)(fmod(due - now, 1000.0) * 1e6)};
        nanosleep(&ts, NULL);
    }
}

static void emit_started(watch_session *s, cap_source *cap)
{
    cJSON *ev = watch_log_event_new("started", 0, 0);
    if (ev) {
        cJSON_AddStringToObject(ev, "format", WATCH_LOG_FORMAT);
        cJSON_AddNumberToObject(ev, "version", WATCH_LOG_VERSION);
        if (s->cfg.source)
            cJSON_AddStringToObject(ev, "source", s->cfg.source);
        cJSON_AddStringToObject(ev, "source_kind", cap_source_describe(cap));
        base_json_add_number(ev, "fps", cap_source_fps(cap), 3);
        cJSON_AddNumberToObject(ev, "settle_ms", s->cfg.tracker.settle_ms);
        cJSON_AddNumberToObject(ev, "jitter_mm", s->cfg.tracker.jitter_mm);
        if (s->cfg.calib_path)
            cJSON_AddStringToObject(ev, "calib", s->cfg.calib_path);
        if (s->cfg.roster_path)
            cJSON_AddStringToObject(ev, "roster", s->cfg.roster_path);
        if (s->cfg.record_path)
            cJSON_AddStringToObject(ev, "record", s->cfg.record_path);
    }
    watch_session_emit(s, ev);
    if (!s->cfg.quiet)
        fprintf(stderr, "tableref watch: %s\n", cap_source_describe(cap));
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
        if (s->record_frames_in > 0) {
            cJSON_AddNumberToObject(ev, "record_frames", (double)s->record_frames_in);
            cJSON_AddNumberToObject(ev, "record_frames_dropped", (double)s->record_frames_dropped);
        }
    }
    watch_session_emit(s, ev);
    char dropped[96] = "";
    if (s->record_frames_dropped > 0)
        snprintf(dropped, sizeof dropped, ", recording: %ld of %ld frames dropped", s->record_frames_dropped,
                 s->record_frames_in);
    printf("watch: %ld frames, %d call%s, %d illegal standing (%s)%s\n", s->frames, s->calls, s->calls == 1 ? "" : "s",
           standing, reason, dropped);
    fflush(stdout);
}

/* An error that ends the watch (bad input): on stderr and in the log. */
static void report_failure(watch_session *s, const char *failure, double t, long frame)
{
    fprintf(stderr, "tableref watch: %s\n", failure);
    cJSON *e = watch_log_event_new("error", t, frame);
    if (e)
        cJSON_AddStringToObject(e, "message", failure);
    watch_session_emit(s, e);
}

/* One frame through the table check at the start, the tracker, the judge's commands, the screen, the
 * recording and the feed. -1 (with `failure` said) when the tracker cannot take it. */
static int watch_frame(watch_session *s, cap_source *src, const cap_frame *f, double fps, char *failure, size_t cap)
{
    base_error err;
    const int start = watch_session_start_check(s, src, f);
    if (start != WATCH_START_HOLD && watch_session_track(s, f, &err) < 0) {
        snprintf(failure, cap, "frame %ld: %s", f->index, err.msg);
        report_failure(s, failure, f->t_ms, f->index);
        return -1;
    }
    /* A no-go at the start: the frame is shown and recorded, nothing judged. */
    watch_session_poll_commands(s, f->index, f->t_ms);
    show_and_record(s, f, fps);
    watch_session_record_poll(s);
    watch_session_feed_poll(s);
    if (start == WATCH_START_PROJECTOR && watch_session_start_projector(s, src, &err) < 0) {
        snprintf(failure, cap, "%s", err.msg);
        report_failure(s, failure, s->last_t, s->last_frame);
        return -1;
    }
    return 0;
}

/* After the last frame: the recording, the log's last event, the feed and the subtitles closed. */
static void finish_watch(watch_session *s, const char *reason, int status, double fps)
{
    /* Finish the recording first: its last fragment and index, and the clips still waiting for frames. */
    watch_session_record_close(s);
    emit_stopped(s, reason, status);
    watch_session_feed_close(s);
    base_error err;
    /* The last cue lasts until the video ends: one frame after the last frame's time. */
    if (watch_vtt_close(s->vtt, s->last_t + (fps > 0 ? 1000.0 / fps : 0), &err) < 0)
        fprintf(stderr, "tableref watch: subtitles: %s\n", err.msg);
    s->vtt = NULL;
}

int watch_session_run(watch_session *s, cap_source *cap, volatile sig_atomic_t *stop)
{
    emit_started(s, cap);
    /* A recording (or a simulation) is replayed as fast as it is read unless --realtime: the source's row says. */
    s->replay = !s->cfg.realtime && !cap_source_is_live(cap);
    const char *reason = "end of recording";
    int status = -1;
    char failure[640];
    const double start_ms = mono_ms(), fps = cap_source_fps(cap);
    for (;;) {
        if ((stop && *stop) || s->stop_requested) {
            reason = s->stop_requested ? "stopped by a judge's command"
                     : *stop == SIGINT ? "interrupted (SIGINT)" : "stopped (SIGTERM)";
            break;
        }
        base_error err;
        cap_frame f;
        int r = cap_source_read(cap, &f, &err);
        if (r == 0)
            break;
        if (r == -2) { /* a frame of a size no camera gives (base_view): bad input, not a lost camera */
            snprintf(failure, sizeof failure, "%s", err.msg);
            report_failure(s, failure, s->last_t, s->last_frame);
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
        if (watch_frame(s, cap, &f, fps, failure, sizeof failure) < 0) {
            reason = failure;
            status = WATCH_EXIT_BAD_INPUT;
            break;
        }
    }
    /* Commands that came with the last frame still count. */
    watch_session_poll_commands(s, s->last_frame, s->last_t);
    if (status < 0)
        status = watch_tracker_illegal_standing(s->tracker) > 0 ? WATCH_EXIT_ILLEGAL : WATCH_EXIT_LEGAL;
    finish_watch(s, reason, status, fps);
    return status;
}
