/*
 * watch_record: the game's video, written so that nothing recorded is lost.
 *
 * H.264 (libx264) in a fragmented MP4 (empty moov, a fragment at every
 * keyframe, a keyframe every `fragment_s`, 1 s by default), over FFmpeg's
 * libavformat and libavcodec. The file is playable at every moment up to its
 * last complete fragment, so:
 *   - a kill -9 or a power cut loses at most the fragment being built
 *     (fragments are fdatasync'ed as they are completed);
 *   - a full disk (or any write error) cuts the file back to its last
 *     complete fragment, stops the recording and says so, once, through the
 *     next call's error; the caller logs it and goes on watching;
 *   - the caller never waits on the disk: frames are encoded and written by a
 *     worker thread behind a short queue; when the queue is full (a slow disk,
 *     an encoder slower than the camera) the frame is dropped and counted
 *     (frames_dropped; the caller says so: watch_session_record.c), and
 *     frames_kept says how many frames the whole fragments on disk hold;
 *   - close() finalises (last fragment, index) and gives up after
 *     close_timeout_ms if the disk has stalled, saying so.
 * One thread calls the functions of one recorder.
 *
 * Evidence clips (the seconds around a moment, issue 12): the recorder keeps
 * the last `clip_keep_s` seconds of *encoded* packets in memory (a few MB)
 * and, on request, copies the packets of [from, to] into a separate small
 * MP4 without re-encoding, starting at the keyframe at or before `from`
 * (at most fragment_s early). A request may reach into the future: the clip
 * is written as soon as frames up to `to` are encoded (or at close). Clips
 * carry whatever the recording shows (the overlay, when the caller records
 * annotated frames). A clip appears atomically (written beside, renamed).
 *
 * How to use (the watch loop):
 *   watch_record_config cfg;
 *   watch_record_config_default(&cfg);
 *   cfg.width = 1280, cfg.height = 960, cfg.fps = 10;
 *   watch_record *rec = watch_record_open("game.mp4", &cfg, &err);      // at the first frame
 *   if (!rec) ... report err.msg; watch on without a recording
 *   each frame:
 *     if (watch_record_frame(rec, img->data, img->width, img->height, img->stride, img->channels, t_ms,
 *                            &err) < 0 && !told)
 *         log an "error" event with err.msg (disk full...), told = true; keep watching
 *   at a settled move:
 *     watch_record_clip(rec, t_ms - 4000, t_ms + 2000, "game.clips/move-3.mp4", &err);
 *   each loop, for the log and the feed:
 *     watch_record_clip_result done[4];
 *     for (size_t i = 0, n = watch_record_clips_done(rec, done, 4); i < n; i++) ... done[i].path, .ok, .message
 *   at the end:
 *     if (watch_record_close(rec, &err) < 0) ... report err.msg (the video up to the failure is kept)
 *     ... watch_record_clips_done() once more: clips that ended after the last frame are written at close
 *     watch_record_free(rec);
 * Frames are gray (1 channel) or BGR (3), width x height as configured; a
 * frame's time must increase (a frame not later than the previous is dropped).
 */
#ifndef WATCH_RECORD_H
#define WATCH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_error.h"

typedef struct watch_record_config {
    int width, height;      /* frame size, px; odd sizes are recorded one pixel narrower/shorter (4:2:0) */
    double fps;             /* nominal rate (metadata and keyframe spacing); timestamps are the frames' own */
    double fragment_s;      /* keyframe and fragment interval, s (default 1; at most 2) */
    int crf;                /* libx264 quality, 0..51 (default 23) */
    const char *preset;     /* libx264 preset (default "veryfast") */
    int threads;            /* encoder threads (default 2) */
    int queue_frames;       /* frames waiting for the encoder before new ones are dropped (default 8) */
    double clip_keep_s;     /* seconds of encoded video kept for clips (default 30) */
    int close_timeout_ms;   /* longest close() waits for a stalled disk (default 10000) */
    bool replace;           /* overwrite an existing file (default false: refuse it) */
    bool wait_when_full;    /* a replay of a file, not a live camera: a full queue waits for the encoder (up to
                               close_timeout_ms) instead of dropping the frame (default false) */
} watch_record_config;

void watch_record_config_default(watch_record_config *cfg);

typedef struct watch_record watch_record;

/* Creates the file and writes its header. NULL with err naming the file (exists, cannot create, no encoder). */
watch_record *watch_record_open(const char *path, const watch_record_config *cfg, base_error *err);

/*
 * Queues one frame (copied; the caller keeps its pixels) at t_ms (ms, any
 * origin, increasing). Never waits on the disk or the encoder (unless
 * cfg.wait_when_full, for a replay). 0 queued or
 * dropped (queue full, time not increasing: counted in the stats); -1 when
 * the recording has failed (err says why and what is kept; every later call
 * says it again), or for a frame of another size than configured.
 */
int watch_record_frame(watch_record *r, const uint8_t *pixels, int width, int height, size_t stride, int channels,
                       double t_ms, base_error *err);

/*
 * Asks for a clip of [from_ms, to_ms] (the frames' own times) written to
 * `path` (an existing file is replaced). Returns at once: 0 accepted, -1
 * with err (bad range, recorder closed). The clip starts at the keyframe at
 * or before from_ms that is still kept; see watch_record_clips_done.
 */
int watch_record_clip(watch_record *r, double from_ms, double to_ms, const char *path, base_error *err);

typedef struct watch_record_clip_result {
    char path[1024];
    bool ok;
    double from_ms, to_ms;  /* what the clip holds (from the keyframe used) */
    char message[256];      /* why it failed, or a note (e.g. "starts 2.1 s late: older video no longer kept") */
} watch_record_clip_result;

/* Clips finished (written or failed) since the last call, at most cap; returns how many. */
size_t watch_record_clips_done(watch_record *r, watch_record_clip_result *out, size_t cap);

typedef struct watch_record_stats {
    long frames_in;         /* frames given to watch_record_frame */
    long frames_encoded;
    long frames_dropped;    /* queue full, time not increasing, or after a failure */
    long fragments;         /* complete fragments on disk */
    long frames_kept;       /* frames in them: what the file plays after a kill, a full disk or a stalled close */
    double playable_ms;     /* video complete on disk, from the first frame */
    int64_t bytes;          /* bytes on disk */
    bool failed;
} watch_record_stats;

void watch_record_get_stats(watch_record *r, watch_record_stats *out);
/* True once the recording has failed (the first failure's message is kept). */
bool watch_record_failed(watch_record *r);

/*
 * Finalises: encodes what is queued, writes the last fragment and the
 * index, writes pending clips, syncs and closes the file. 0, or -1 with err
 * when the recording failed at any point or the disk stalled past
 * close_timeout_ms (the video up to the failure is kept). Afterwards only
 * the stats, clips_done and free may be called. NULL is fine.
 */
int watch_record_close(watch_record *r, base_error *err);
/* Closes when not yet closed, then frees. NULL is fine. A recorder whose disk stalled is left to its thread. */
void watch_record_free(watch_record *r);

#endif
