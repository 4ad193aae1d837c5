/*
 * watch_record, the caller's side (watch_record.h): frames copied into the
 * worker's short queue, clip requests, statistics, closing and freeing. The
 * file, the encoder and the worker are watch_record.c.
 */
#include "watch_record.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "watch_record_int.h"

/* ---- the caller's side ------------------------------------------------------------------- */

/* Now plus close_timeout_ms, on the clock pthread_cond_timedwait uses: how long a caller waits for a stalled disk. */
static struct timespec close_deadline(const watch_record *r)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += r->cfg.close_timeout_ms / 1000;
    deadline.tv_nsec += (long)(r->cfg.close_timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L)
        deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
    return deadline;
}

/* A replay waits for the encoder to free a slot, at most close_timeout_ms (a stalled disk); under mu. */
static void wait_for_slot(watch_record *r)
{
    struct timespec deadline = close_deadline(r);
    while (r->q_count == r->cfg.queue_frames && !r->failed && !r->finished)
        if (pthread_cond_timedwait(&r->done_cv, &r->mu, &deadline) == ETIMEDOUT)
            break;
}

int watch_record_frame(watch_record *r, const uint8_t *pixels, int width, int height, size_t stride, int channels,
                       double t_ms, base_error *err)
{
    if (channels != 1 && channels != 3)
        return base_error_set(err, "%s: frames are gray or BGR, not %d channels", r->path, channels);
    if (width != r->cfg.width || height != r->cfg.height || stride < (size_t)width * channels)
        return base_error_set(err, "%s: a %dx%d frame in a %dx%d recording", r->path, width, height, r->cfg.width,
                               r->cfg.height);
    pthread_mutex_lock(&r->mu);
    r->stats.frames_in++;
    if (r->failed) {
        r->stats.frames_dropped++;
        base_error_set(err, "%s", r->failure);
        pthread_mutex_unlock(&r->mu);
        return -1;
    }
    if (r->cfg.wait_when_full && r->q_count == r->cfg.queue_frames)
        wait_for_slot(r);
    if ((r->any_queued && !(t_ms > r->last_queued_ms)) || r->q_count == r->cfg.queue_frames) {
        r->stats.frames_dropped++;
        pthread_mutex_unlock(&r->mu);
        return 0;
    }
    /* The slot after the queue's end: only this thread touches it until it is counted in. */
    rec_slot *s = &r->slots[(r->q_head + r->q_count) % r->cfg.queue_frames];
    pthread_mutex_unlock(&r->mu);
    const size_t row = (size_t)r->cfg.width * channels, need = row * (size_t)r->cfg.height;
    if (s->cap < need) {
        uint8_t *d = realloc(s->data, need);
        if (!d)
            return base_error_set(err, "%s: out of memory", r->path);
        s->data = d, s->cap = need;
    }
    for (int y = 0; y < r->cfg.height; y++)
        memcpy(s->data + (size_t)y * row, pixels + (size_t)y * stride, row);
    s->channels = channels;
    s->t_ms = t_ms;
    pthread_mutex_lock(&r->mu);
    r->q_count++;
    r->any_queued = true;
    r->last_queued_ms = t_ms;
    pthread_cond_signal(&r->work);
    pthread_mutex_unlock(&r->mu);
    return 0;
}

int watch_record_clip(watch_record *r, double from_ms, double to_ms, const char *path, base_error *err)
{
    if (!(to_ms > from_ms) || !isfinite(from_ms) || !isfinite(to_ms))
        return base_error_set(err, "%s: a clip needs from < to", path);
    if (strlen(path) >= sizeof r->requests->path - 8)
        return base_error_set(err, "%s: path too long", path);
    pthread_mutex_lock(&r->mu);
    int rc = 0;
    if (r->closing) {
        pthread_mutex_unlock(&r->mu);
        return base_error_set(err, "%s: the recording is closed", path);
    }
    if (r->n_requests == r->cap_requests) {
        size_t cap = r->cap_requests ? r->cap_requests * 2 : 8;
        rec_request *q = realloc(r->requests, cap * sizeof *q);
        if (q)
            r->requests = q, r->cap_requests = cap;
    }
    if (r->n_requests < r->cap_requests) {
        rec_request *q = &r->requests[r->n_requests++];
        snprintf(q->path, sizeof q->path, "%s", path);
        q->from_ms = from_ms, q->to_ms = to_ms;
        pthread_cond_signal(&r->work);
    } else {
        rc = base_error_set(err, "%s: out of memory", path);
    }
    pthread_mutex_unlock(&r->mu);
    return rc;
}

size_t watch_record_clips_done(watch_record *r, watch_record_clip_result *out, size_t cap)
{
    pthread_mutex_lock(&r->mu);
    size_t n = r->n_done < cap ? r->n_done : cap;
    if (n) {
        memcpy(out, r->done, n * sizeof *out);
        memmove(r->done, r->done + n, (r->n_done - n) * sizeof *r->done);
        r->n_done -= n;
    }
    pthread_mutex_unlock(&r->mu);
    return n;
}

void watch_record_get_stats(watch_record *r, watch_record_stats *out)
{
    pthread_mutex_lock(&r->mu);
    *out = r->stats;
    pthread_mutex_unlock(&r->mu);
}

bool watch_record_failed(watch_record *r) { return rec_has_failed(r); }

int watch_record_close(watch_record *r, base_error *err)
{
    if (!r)
        return 0;
    struct timespec deadline = close_deadline(r);
    pthread_mutex_lock(&r->mu);
    r->closing = true;
    pthread_cond_signal(&r->work);
    while (!r->finished && pthread_cond_timedwait(&r->done_cv, &r->mu, &deadline) != ETIMEDOUT)
        ;
    int rc = 0;
    if (!r->finished) {
        rc = base_error_set(err, "%s: the disk did not take the video within %d ms; the first %.1f s stay playable",
                             r->path, r->cfg.close_timeout_ms, r->stats.playable_ms / 1000);
    } else if (r->failed) {
        rc = base_error_set(err, "%s", r->failure);
    }
    pthread_mutex_unlock(&r->mu);
    return rc;
}

void watch_record_free(watch_record *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    const bool closed = r->closing;
    pthread_mutex_unlock(&r->mu);
    base_error ignored;
    if (!closed)
        watch_record_close(r, &ignored);
    pthread_mutex_lock(&r->mu);
    const bool stalled = !r->finished; /* a close that gave up is not waited for twice */
    pthread_mutex_unlock(&r->mu);
    if (stalled) {
        /* The worker is stuck in a write to a stalled disk: leave it, and what it owns, behind. */
        pthread_detach(r->thread);
        return;
    }
    pthread_join(r->thread, NULL);
    rec_free_record(r);
}
