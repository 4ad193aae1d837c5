/*
 * watch_session's recording: the annotated frames into a fragmented MP4
 * through watch_record (a kill or a full disk loses at most the last
 * fragment), and evidence clips cut from it around ILLEGAL and CANNOT TELL
 * calls. A recording that fails says so once ("error" event, what:
 * "recording") and the watch goes on without it. A live camera's frames are
 * dropped, never waited for, when the encoder or the disk falls behind (the
 * referee must not stall on its recorder): the first drop is a "warning"
 * event (what: "recording"), and the counts are in the "stopped" event and
 * the closing summary, so a video with gaps is never taken for a whole one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "watch_session_int.h"

#include "base_text.h"

#if TABLEREF_HAVE_RECORD
#include "watch_record.h"

/* The clip window around the settle frame's time t: the move itself (before the table stood still), a second after. */
#define CLIP_BEFORE_STILL_MS 5000.0
#define CLIP_AFTER_SETTLE_MS 1000.0

static void record_failed(watch_session *s, const char *message)
{
    s->record_failed = true;
    watch_session_emit_error(s, "recording", message);
}

static void record_open(watch_session *s, const base_image *shown, double fps)
{
    watch_record_config rc;
    watch_record_config_default(&rc);
    rc.width = shown->width, rc.height = shown->height;
    rc.fps = fps > 0 ? fps : 5;
    rc.replace = s->cfg.replace;
    rc.wait_when_full = s->replay;
    base_error err;
    if (!(s->rec = watch_record_open(s->cfg.record_path, &rc, &err))) {
        record_failed(s, err.msg);
        return;
    }
    if (!s->cfg.quiet)
        fprintf(stderr, "tableref watch: recording %s (H.264, fragmented MP4)\n", s->cfg.record_path);
}

void watch_session_record_frame(watch_session *s, const base_image *shown, double t_ms, double fps)
{
    if (s->record_failed)
        return;
    if (!s->rec)
        record_open(s, shown, fps);
    base_error err;
    if (s->rec && watch_record_frame(s->rec, shown->data, shown->width, shown->height, shown->stride,
                                     shown->channels, t_ms, &err) < 0)
        record_failed(s, err.msg);
}

/* FILE.mp4 -> FILE.clips/ on the heap (NULL: out of memory). */
static char *clip_dir(const watch_session *s)
{
    const char *path = s->cfg.record_path, *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    char *out = malloc(stem + sizeof ".clips");
    if (out)
        snprintf(out, stem + sizeof ".clips", "%.*s.clips", (int)stem, path);
    return out;
}

/* True when path is a file this session did not write: it was there before its first clip. */
static bool earlier_evidence(const watch_session *s, const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        return false;
    if (!S_ISREG(st.st_mode))
        return true; /* a link or anything else: never ours to replace */
    return st.st_mtim.tv_sec < s->clips_since.tv_sec ||
           (st.st_mtim.tv_sec == s->clips_since.tv_sec && st.st_mtim.tv_nsec < s->clips_since.tv_nsec);
}

/* DIR/move-N.mp4, or DIR/move-N-K.mp4 (K = 2, 3, ...) when an earlier game's clip has that name: its
 * evidence is kept. A clip this session wrote is replaced as before (the move judged again). */
static int clip_name(const watch_session *s, const char *dir, int move, char *out, size_t cap)
{
    for (int k = 1; k < 1000; k++) {
        int n = k == 1 ? snprintf(out, cap, "%s/move-%d.mp4", dir, move)
                       : snprintf(out, cap, "%s/move-%d-%d.mp4", dir, move, k);
        if (n < 0 || (size_t)n >= cap)
            return -1;
        if (!earlier_evidence(s, out))
            return 0;
    }
    return -1;
}

int watch_session_record_clip(watch_session *s, int move, double t_ms, char *path_out, size_t cap)
{
    if (!s->rec || s->record_failed)
        return -1;
    char *dir = clip_dir(s);
    if (!dir) {
        watch_session_emit_error(s, "clip", "out of memory");
        return -1;
    }
    if (!s->made_clip_dir) {
        if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
            char msg[600];
            snprintf(msg, sizeof msg, "%.*s: cannot make the clips' folder: %s", (int)base_text_cut(dir, 400), dir,
                     strerror(errno));
            watch_session_emit_error(s, "clip", msg);
            free(dir);
            return -1;
        }
        clock_gettime(CLOCK_REALTIME, &s->clips_since);
        s->made_clip_dir = true;
    }
    int named = clip_name(s, dir, move, path_out, cap);
    free(dir);
    if (named < 0) {
        watch_session_emit_error(s, "clip", "no free name for the clip beside the recording (the path is too long "
                                            "or a thousand earlier clips of this move)");
        return -1;
    }
    const double from = t_ms - s->cfg.tracker.settle_ms - CLIP_BEFORE_STILL_MS, to = t_ms + CLIP_AFTER_SETTLE_MS;
    base_error err;
    if (watch_record_clip(s->rec, from > 0 ? from : 0, to, path_out, &err) < 0) {
        watch_session_emit_error(s, "clip", err.msg);
        return -1;
    }
    return 0;
}

/* The move a clip is of, from its name (move-N.mp4); 0 when it cannot be read. */
static int clip_move(const char *path)
{
    const char *slash = strrchr(path, '/');
    int move = 0;
    return sscanf(slash ? slash + 1 : path, "move-%d.mp4", &move) == 1 ? move : 0;
}

/* Once per game, at the first frame the recorder dropped: the video will have a gap, and a person should know. */
static void warn_dropped(watch_session *s)
{
    watch_record_stats st;
    watch_record_get_stats(s->rec, &st);
    if (st.frames_dropped == 0 || st.failed || s->record_warned_drop)
        return; /* a failed recording drops every later frame: its "error" event has said so */
    s->record_warned_drop = true;
    char msg[256];
    snprintf(msg, sizeof msg,
             "the recorder dropped a frame (%ld of %ld so far): its encoder or the disk is slower than the camera; "
             "the video has gaps (the count is in the stopped event)",
             st.frames_dropped, st.frames_in);
    fprintf(stderr, "tableref watch: recording: %s\n", msg);
    cJSON *e = watch_log_event_new("warning", s->last_t, s->last_frame);
    if (e) {
        cJSON_AddStringToObject(e, "what", "recording");
        cJSON_AddStringToObject(e, "message", msg);
    }
    watch_session_emit(s, e);
}

void watch_session_record_poll(watch_session *s)
{
    if (!s->rec)
        return;
    warn_dropped(s);
    watch_record_clip_result done[4];
    size_t n;
    while ((n = watch_record_clips_done(s->rec, done, 4)) > 0) {
        for (size_t i = 0; i < n; i++) {
            cJSON *ev = watch_log_event_new("clip", s->last_t, s->last_frame);
            if (ev) {
                cJSON_AddNumberToObject(ev, "move", clip_move(done[i].path));
                cJSON_AddStringToObject(ev, "path", done[i].path);
                cJSON_AddBoolToObject(ev, "ok", done[i].ok);
                if (done[i].ok) {
                    cJSON_AddNumberToObject(ev, "from_ms", done[i].from_ms);
                    cJSON_AddNumberToObject(ev, "to_ms", done[i].to_ms);
                }
                if (done[i].message[0])
                    cJSON_AddStringToObject(ev, "message", done[i].message);
            }
            watch_session_emit(s, ev);
            if (!done[i].ok)
                fprintf(stderr, "tableref watch: clip %s: %s\n", done[i].path, done[i].message);
        }
    }
}

void watch_session_record_close(watch_session *s)
{
    if (!s->rec)
        return;
    base_error err;
    /* A failure while recording was said when it happened (the same message): only a new one is. */
    if (watch_record_close(s->rec, &err) < 0 && !s->record_failed)
        record_failed(s, err.msg);
    watch_session_record_poll(s);
    watch_record_stats st;
    watch_record_get_stats(s->rec, &st);
    s->record_frames_in = st.frames_in, s->record_frames_dropped = st.frames_dropped;
    if (st.frames_dropped > 0)
        fprintf(stderr, "tableref watch: recording: %ld of %ld frames dropped (encoder or disk slower than the "
                        "camera)\n", st.frames_dropped, st.frames_in);
    watch_record_free(s->rec);
    s->rec = NULL;
}

#else /* built without FFmpeg */

void watch_session_record_frame(watch_session *s, const base_image *shown, double t_ms, double fps)
{
    (void)shown, (void)t_ms, (void)fps;
    if (!s->record_failed) {
        s->record_failed = true;
        watch_session_emit_error(s, "recording", "this tableref was built without FFmpeg (libavformat): no "
                                                 "recording");
    }
}

int watch_session_record_clip(watch_session *s, int move, double t_ms, char *path_out, size_t cap)
{
    (void)s, (void)move, (void)t_ms, (void)path_out, (void)cap;
    return -1;
}

void watch_session_record_poll(watch_session *s) { (void)s; }
void watch_session_record_close(watch_session *s) { (void)s; }

#endif
