/*
 * watch_record: fragmented MP4 recording behind a worker thread
 * (watch_record.h). The caller's thread only copies frames into a short
 * queue; the worker converts, encodes, muxes, writes, syncs and cuts clips.
 * Here: the file, the worker and opening; the caller's side (queueing
 * frames and clips, closing) is watch_record_queue.c.
 */
#include "watch_record.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

#include "base_file.h"
#include "watch_record_int.h"

#if LIBAVFORMAT_VERSION_MAJOR >= 61
#define WRITE_BUF const uint8_t
#else
#define WRITE_BUF uint8_t
#endif

void watch_record_config_default(watch_record_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->fps = 10;
    cfg->fragment_s = 1;
    cfg->crf = 23;
    cfg->preset = "veryfast";
    cfg->threads = 2;
    cfg->queue_frames = 4;
    cfg->clip_keep_s = 30;
    cfg->close_timeout_ms = 10000;
}

/* ---- the file: every byte through here, so a failed write is known and can be cut back ---- */

static int write_cb(void *opaque, WRITE_BUF *buf, int size)
{
    watch_record *r = opaque;
    int done = 0;
    while (done < size) {
        ssize_t k = write(r->fd, buf + done, (size_t)(size - done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            r->write_errno = k < 0 ? errno : EIO;
            return AVERROR(r->write_errno);
        }
        done += (int)k;
        r->written += k;
    }
    return size;
}

/* Everything handed to the file so far is whole fragments (`frames` of them): remember where they end, make them
 * durable. */
static int commit_fragments(watch_record *r, double t_ms, long frames)
{
    avio_flush(r->pb);
    if (r->pb->error < 0)
        return r->pb->error;
    fdatasync(r->fd);
    r->good_size = r->written;
    pthread_mutex_lock(&r->mu);
    r->stats.bytes = r->good_size;
    r->stats.playable_ms = t_ms - r->t0_ms;
    r->stats.fragments = r->keyframes > 0 ? r->keyframes - 1 : 0;
    r->stats.frames_kept = frames;
    pthread_mutex_unlock(&r->mu);
    return 0;
}

/* A write failed (a full disk): cut the file back to its last whole fragment and stop recording. */
static void fail_write(watch_record *r, int averr)
{
    char why[AV_ERROR_MAX_STRING_SIZE];
    if (r->write_errno == ENOSPC)
        snprintf(why, sizeof why, "disk full");
    else if (r->write_errno)
        snprintf(why, sizeof why, "write failed (%s)", strerror(r->write_errno));
    else
        av_strerror(averr, why, sizeof why);
    if (ftruncate(r->fd, r->good_size) == 0)
        fdatasync(r->fd);
    pthread_mutex_lock(&r->mu);
    r->failed = r->stats.failed = true;
    r->stats.bytes = r->good_size;
    snprintf(r->failure, sizeof r->failure,
             "%.300s: %s at %.1f s of video: the recording stops there; the first %.1f s stay playable", r->path, why,
             (r->newest_ms - r->t0_ms) / 1000, r->stats.playable_ms / 1000);
    pthread_mutex_unlock(&r->mu);
}

bool rec_has_failed(watch_record *r)
{
    pthread_mutex_lock(&r->mu);
    bool f = r->failed;
    pthread_mutex_unlock(&r->mu);
    return f;
}

/* ---- encoding (worker) ------------------------------------------------------------------- */

static double keep_from(const watch_record *r)
{
    double k = r->newest_ms - r->cfg.clip_keep_s * 1000;
    for (size_t i = 0; i < r->n_pending; i++)
        if (r->pending[i].from_ms < k)
            k = r->pending[i].from_ms;
    return k;
}

static void write_packet(watch_record *r, AVPacket *pkt)
{
    const double t = r->t0_ms + (double)pkt->pts;
    const bool key = (pkt->flags & AV_PKT_FLAG_KEY) != 0;
    if (pkt->duration <= 0) /* the next frame's time is not known yet: the nominal frame time */
        pkt->duration = llround(1000 / r->cfg.fps);
    r->newest_ms = t;
    if (rec_ring_push(&r->ring, pkt, t) == 0)
        rec_ring_trim(&r->ring, keep_from(r));
    if (rec_has_failed(r))
        return;
    /* A keyframe closes the fragment before it (frag_keyframe): those bytes are now final. */
    if (key)
        r->keyframes++;
    av_packet_rescale_ts(pkt, r->enc->time_base, r->st->time_base);
    pkt->stream_index = 0;
    int ret = av_write_frame(r->fmt, pkt);
    if (ret >= 0 && r->pb->error < 0)
        ret = r->pb->error;
    if (ret >= 0 && key)
        ret = commit_fragments(r, t, r->packets_written); /* every frame before this keyframe */
    r->packets_written++;
    if (ret < 0)
        fail_write(r, ret);
}

static void receive_packets(watch_record *r)
{
    while (avcodec_receive_packet(r->enc, r->pkt) == 0) {
        write_packet(r, r->pkt);
        av_packet_unref(r->pkt);
    }
}

static void encode_slot(watch_record *r, const rec_slot *s)
{
    if (r->last_pts < 0)
        r->t0_ms = s->t_ms;
    int64_t pts = llround(s->t_ms - r->t0_ms);
    if (pts <= r->last_pts)
        pts = r->last_pts + 1;
    r->last_pts = pts;
    struct SwsContext **sws = &r->sws[s->channels];
    if (!*sws)
        *sws = sws_getContext(r->width, r->height, s->channels == 1 ? AV_PIX_FMT_GRAY8 : AV_PIX_FMT_BGR24, r->width,
                              r->height, AV_PIX_FMT_YUV420P, SWS_BILINEAR, NULL, NULL, NULL);
    if (!*sws || av_frame_make_writable(r->yuv) < 0) {
        pthread_mutex_lock(&r->mu);
        r->stats.frames_dropped++; /* out of memory */
        pthread_mutex_unlock(&r->mu);
        return;
    }
    const uint8_t *src[1] = {s->data};
    const int src_stride[1] = {r->cfg.width * s->channels};
    sws_scale(*sws, src, src_stride, 0, r->height, r->yuv->data, r->yuv->linesize);
    r->yuv->pts = pts;
    /* A keyframe (and so a fragment) at least every fragment_s of the frames' own time. */
    const bool key = isinf(r->last_key_ms) || s->t_ms - r->last_key_ms >= r->cfg.fragment_s * 1000 - 0.5;
    r->yuv->pict_type = key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    if (key)
        r->last_key_ms = s->t_ms;
    if (avcodec_send_frame(r->enc, r->yuv) == 0)
        receive_packets(r);
    pthread_mutex_lock(&r->mu);
    r->stats.frames_encoded++;
    pthread_mutex_unlock(&r->mu);
}

/* Clips whose end has been encoded (or every one, at the end). */
static void write_clips(watch_record *r, bool all)
{
    for (size_t i = 0; i < r->n_pending;) {
        rec_request *q = &r->pending[i];
        if (!all && q->to_ms > r->newest_ms) {
            i++;
            continue;
        }
        watch_record_clip_result res;
        rec_clip_write(&r->ring, r->par, r->enc->time_base, q->from_ms, q->to_ms, q->path, &res);
        pthread_mutex_lock(&r->mu);
        if (r->n_done == r->cap_done) {
            size_t cap = r->cap_done ? r->cap_done * 2 : 8;
            watch_record_clip_result *d = realloc(r->done, cap * sizeof *d);
            if (d)
                r->done = d, r->cap_done = cap;
        }
        if (r->n_done < r->cap_done)
            r->done[r->n_done++] = res;
        pthread_mutex_unlock(&r->mu);
        *q = r->pending[--r->n_pending];
    }
}

/* Takes the caller's new clip requests into the worker's list (under mu). */
static void take_requests(watch_record *r)
{
    if (r->n_requests == 0)
        return;
    if (r->n_pending + r->n_requests > r->cap_pending) {
        size_t cap = r->n_pending + r->n_requests + 8;
        rec_request *p = realloc(r->pending, cap * sizeof *p);
        if (!p)
            return; /* kept in the shared list; taken next time */
        r->pending = p, r->cap_pending = cap;
    }
    memcpy(r->pending + r->n_pending, r->requests, r->n_requests * sizeof *r->requests);
    r->n_pending += r->n_requests;
    r->n_requests = 0;
}

static void finish(watch_record *r)
{
    if (!rec_has_failed(r)) {
        avcodec_send_frame(r->enc, NULL);
        receive_packets(r);
    }
    if (!rec_has_failed(r)) {
        int ret = av_write_trailer(r->fmt);
        if (ret >= 0 && r->pb->error < 0)
            ret = r->pb->error;
        if (ret >= 0) {
            r->keyframes++; /* the trailer closes the last fragment */
            ret = commit_fragments(r, r->newest_ms, r->packets_written);
        }
        if (ret < 0)
            fail_write(r, ret);
    }
    write_clips(r, true);
    close(r->fd);
    r->fd = -1;
}

static void *worker(void *arg)
{
    watch_record *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->q_count && !r->n_requests && !r->closing)
            pthread_cond_wait(&r->work, &r->mu);
        take_requests(r);
        const bool have = r->q_count > 0, last = r->closing && !have;
        rec_slot *s = have ? &r->slots[r->q_head] : NULL;
        pthread_mutex_unlock(&r->mu);
        if (last)
            break;
        if (s && !rec_has_failed(r)) {
            encode_slot(r, s);
        } else if (s) {
            pthread_mutex_lock(&r->mu);
            r->stats.frames_dropped++;
            pthread_mutex_unlock(&r->mu);
        }
        write_clips(r, false);
        pthread_mutex_lock(&r->mu);
        if (have) {
            r->q_head = (r->q_head + 1) % r->cfg.queue_frames;
            r->q_count--;
            pthread_cond_broadcast(&r->done_cv); /* a slot is free (wait_when_full) */
        }
    }
    finish(r);
    pthread_mutex_lock(&r->mu);
    r->finished = true;
    pthread_cond_broadcast(&r->done_cv);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* ---- opening ---------------------------------------------------------------------------- */

void rec_free_record(watch_record *r)
{
    if (!r)
        return;
    for (int i = 0; i < 4; i++)
        sws_freeContext(r->sws[i]);
    av_frame_free(&r->yuv);
    av_packet_free(&r->pkt);
    avcodec_free_context(&r->enc);
    avcodec_parameters_free(&r->par);
    avformat_free_context(r->fmt);
    if (r->pb) {
        av_freep(&r->pb->buffer); /* may have been replaced by avio: free the one it holds */
        avio_context_free(&r->pb);
    } else {
        av_free(r->io_buf);
    }
    if (r->fd >= 0)
        close(r->fd);
    rec_ring_free(&r->ring);
    for (int i = 0; r->slots && i < r->cfg.queue_frames; i++)
        free(r->slots[i].data);
    free(r->slots);
    free(r->pending);
    free(r->requests);
    free(r->done);
    free(r);
}

static int open_encoder(watch_record *r, base_error *err)
{
    const AVCodec *codec = avcodec_find_encoder_by_name("libx264");
    if (!codec)
        codec = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!codec)
        return base_error_set(err, "%s: this FFmpeg has no H.264 encoder (Debian's libavcodec has libx264)", r->path);
    if (!(r->enc = avcodec_alloc_context3(codec)))
        return base_error_set(err, "%s: out of memory", r->path);
    r->enc->width = r->width;
    r->enc->height = r->height;
    r->enc->pix_fmt = AV_PIX_FMT_YUV420P;
    r->enc->time_base = (AVRational){1, 1000}; /* the frames' own times, in ms */
    r->enc->framerate = av_d2q(r->cfg.fps, 1000);
    r->enc->gop_size = (int)fmax(1, ceil(r->cfg.fps * r->cfg.fragment_s));
    r->enc->max_b_frames = 0;
    r->enc->thread_count = r->cfg.threads;
    r->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER; /* MP4 keeps SPS/PPS in the header; clips reuse them */
    char crf[16];
    snprintf(crf, sizeof crf, "%d", r->cfg.crf);
    /* libx264's own options; another H.264 encoder ignores them. zerolatency: no
     * lookahead and no B-frames, so a frame's packet comes out at once. */
    av_opt_set(r->enc->priv_data, "preset", r->cfg.preset, 0);
    av_opt_set(r->enc->priv_data, "tune", "zerolatency", 0);
    av_opt_set(r->enc->priv_data, "crf", crf, 0);
    av_opt_set(r->enc->priv_data, "forced-idr", "1", 0);
    int ret = avcodec_open2(r->enc, codec, NULL);
    if (ret < 0)
        return base_error_set(err, "%s: cannot open the %s encoder: %s", r->path, codec->name, av_err2str(ret));
    if (!(r->par = avcodec_parameters_alloc()) || avcodec_parameters_from_context(r->par, r->enc) < 0 ||
        !(r->yuv = av_frame_alloc()) || !(r->pkt = av_packet_alloc()))
        return base_error_set(err, "%s: out of memory", r->path);
    r->yuv->format = AV_PIX_FMT_YUV420P;
    r->yuv->width = r->width;
    r->yuv->height = r->height;
    if (av_frame_get_buffer(r->yuv, 0) < 0)
        return base_error_set(err, "%s: out of memory", r->path);
    return 0;
}

static int open_muxer(watch_record *r, base_error *err)
{
    enum { IO_BUF = 1 << 16 };
    int ret = avformat_alloc_output_context2(&r->fmt, NULL, "mp4", NULL);
    if (ret < 0 || !(r->io_buf = av_malloc(IO_BUF)) ||
        !(r->pb = avio_alloc_context(r->io_buf, IO_BUF, 1, r, NULL, write_cb, NULL)))
        return base_error_set(err, "%s: out of memory", r->path);
    r->pb->seekable = 0; /* append only: nothing already written is ever rewritten */
    r->fmt->pb = r->pb;
    r->fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    if (!(r->st = avformat_new_stream(r->fmt, NULL)) || avcodec_parameters_copy(r->st->codecpar, r->par) < 0)
        return base_error_set(err, "%s: out of memory", r->path);
    r->st->time_base = r->enc->time_base;
    AVDictionary *opts = NULL;
    av_dict_set(&opts, "movflags", "empty_moov+frag_keyframe+default_base_moof", 0);
    ret = avformat_write_header(r->fmt, &opts);
    av_dict_free(&opts);
    if (ret >= 0)
        ret = commit_fragments(r, 0, 0);
    if (ret < 0)
        return base_error_set(err, "%s: cannot write the video header: %s", r->path,
                               r->write_errno ? strerror(r->write_errno) : av_err2str(ret));
    return 0;
}

watch_record *watch_record_open(const char *path, const watch_record_config *cfg, base_error *err)
{
    /* FFmpeg's chatter (x264's statistics) would bury tableref's own messages; errors come back as err. */
    if (av_log_get_level() > AV_LOG_ERROR)
        av_log_set_level(AV_LOG_ERROR);
    watch_record *r = calloc(1, sizeof *r);
    if (!r) {
        base_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    r->fd = -1;
    r->cfg = *cfg;
    if (!r->cfg.preset)
        r->cfg.preset = "veryfast";
    r->width = cfg->width & ~1, r->height = cfg->height & ~1;
    r->last_pts = -1;
    r->last_key_ms = -INFINITY;
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->work, NULL);
    pthread_cond_init(&r->done_cv, NULL);
    if (snprintf(r->path, sizeof r->path, "%s", path) >= (int)sizeof r->path) {
        base_error_set(err, "%s: path too long", path);
        goto fail;
    }
    if (r->width < 2 || r->height < 2 || !(cfg->fps > 0 && cfg->fps <= 1000) ||
        !(cfg->fragment_s > 0 && cfg->fragment_s <= 2) || cfg->crf < 0 || cfg->crf > 51 || cfg->threads < 1 ||
        cfg->queue_frames < 1 || !(cfg->clip_keep_s >= 0) || cfg->close_timeout_ms < 1) {
        base_error_set(err, "%s: recording settings out of range (size %dx%d, fps %g, fragment %g s)", path,
                        cfg->width, cfg->height, cfg->fps, cfg->fragment_s);
        goto fail;
    }
    if (!(r->slots = calloc((size_t)cfg->queue_frames, sizeof *r->slots))) {
        base_error_set(err, "%s: out of memory", path);
        goto fail;
    }
    /* Never through a link, never onto a file this command read (the video watched). */
    if (cfg->replace && base_file_check_output(path, "the recording", err) < 0)
        goto fail;
    r->fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (cfg->replace ? O_TRUNC : O_EXCL), 0644);
    if (r->fd < 0) {
        if (errno == EEXIST)
            base_error_set(err, "%s: already exists (a recording is never overwritten)", path);
        else
            base_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        goto fail;
    }
    if (open_encoder(r, err) < 0 || open_muxer(r, err) < 0)
        goto fail;
    if (pthread_create(&r->thread, NULL, worker, r) != 0) {
        base_error_set(err, "%s: cannot start the recording thread", path);
        goto fail;
    }
    return r;
fail:
    rec_free_record(r);
    return NULL;
}
