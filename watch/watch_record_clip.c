/*
 * Evidence clips: the recent encoded packets, and a clip copied out of them
 * without re-encoding (watch_record.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavformat/avformat.h>
#include <libavutil/dict.h>

#include "watch_record_int.h"

static rec_packet *at(const rec_ring *g, size_t i) { return &g->items[(g->head + i) % g->cap]; }

int rec_ring_push(rec_ring *g, const AVPacket *pkt, double t_ms)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 256;
        rec_packet *items = malloc(cap * sizeof *items);
        if (!items)
            return -1;
        for (size_t i = 0; i < g->n; i++)
            items[i] = *at(g, i);
        free(g->items);
        g->items = items, g->cap = cap, g->head = 0;
    }
    AVPacket *copy = av_packet_clone(pkt);
    if (!copy)
        return -1;
    *at(g, g->n) = (rec_packet){copy, t_ms, (pkt->flags & AV_PKT_FLAG_KEY) != 0};
    g->n++;
    return 0;
}

void rec_ring_trim(rec_ring *g, double keep_from_ms)
{
    /* The first keyframe after the oldest one: while it is not later than
     * keep_from_ms, everything before it can go (a clip needs its keyframe). */
    for (;;) {
        size_t next = 1;
        while (next < g->n && !at(g, next)->key)
            next++;
        if (next >= g->n || at(g, next)->t_ms > keep_from_ms)
            return;
        for (size_t i = 0; i < next; i++)
            av_packet_free(&at(g, i)->pkt);
        g->head = (g->head + next) % g->cap;
        g->n -= next;
    }
}

void rec_ring_free(rec_ring *g)
{
    for (size_t i = 0; i < g->n; i++)
        av_packet_free(&at(g, i)->pkt);
    free(g->items);
    memset(g, 0, sizeof *g);
}

/* The packets a clip of [from, to] takes: [*first, *last]. -1 when the ring holds none of it. */
static int clip_span(const rec_ring *g, double from_ms, double to_ms, size_t *first, size_t *last)
{
    size_t start = g->n;
    for (size_t i = 0; i < g->n && at(g, i)->t_ms <= from_ms; i++)
        if (at(g, i)->key)
            start = i;
    if (start == g->n) /* nothing kept from that early: the first keyframe kept */
        for (size_t i = 0; i < g->n && start == g->n; i++)
            if (at(g, i)->key)
                start = i;
    if (start == g->n || at(g, start)->t_ms > to_ms)
        return -1;
    size_t end = start;
    while (end + 1 < g->n && at(g, end + 1)->t_ms <= to_ms)
        end++;
    *first = start, *last = end;
    return 0;
}

static int fail(watch_record_clip_result *res, const char *what, int averr)
{
    char why[AV_ERROR_MAX_STRING_SIZE] = "";
    if (averr)
        av_strerror(averr, why, sizeof why);
    snprintf(res->message, sizeof res->message, "%s%s%s", what, averr ? ": " : "", why);
    res->ok = false;
    return -1;
}

/* The muxing itself, into the file `tmp`. */
static int write_mp4(const rec_ring *g, const AVCodecParameters *par, AVRational tb, size_t first, size_t last,
                     const char *tmp, watch_record_clip_result *res)
{
    AVFormatContext *oc = NULL;
    AVDictionary *opts = NULL;
    AVPacket *pkt = av_packet_alloc();
    int ret = avformat_alloc_output_context2(&oc, NULL, "mp4", tmp);
    AVStream *st = ret >= 0 && pkt ? avformat_new_stream(oc, NULL) : NULL;
    if (!st) {
        ret = fail(res, "cannot start the clip", ret < 0 ? ret : AVERROR(ENOMEM));
        goto done;
    }
    if ((ret = avcodec_parameters_copy(st->codecpar, par)) < 0 || (ret = avio_open(&oc->pb, tmp, AVIO_FLAG_WRITE)) < 0) {
        ret = fail(res, "cannot create the clip", ret);
        goto done;
    }
    st->codecpar->codec_tag = 0;
    st->time_base = tb;
    av_dict_set(&opts, "movflags", "+faststart", 0); /* the index first: plays while it downloads */
    if ((ret = avformat_write_header(oc, &opts)) < 0) {
        ret = fail(res, "cannot write the clip", ret);
        goto done;
    }
    const int64_t base = at(g, first)->pkt->pts;
    for (size_t i = first; i <= last && ret >= 0; i++) {
        if ((ret = av_packet_ref(pkt, at(g, i)->pkt)) < 0)
            break;
        pkt->pts -= base;
        pkt->dts = pkt->dts == AV_NOPTS_VALUE ? pkt->pts : pkt->dts - base;
        pkt->stream_index = 0;
        av_packet_rescale_ts(pkt, tb, st->time_base);
        ret = av_write_frame(oc, pkt);
        av_packet_unref(pkt);
    }
    int tr = av_write_trailer(oc);
    if (ret >= 0)
        ret = tr;
    if (ret >= 0 && oc->pb->error < 0)
        ret = oc->pb->error;
    if (ret < 0)
        fail(res, "cannot write the clip", ret);
done:
    av_dict_free(&opts);
    av_packet_free(&pkt);
    if (oc && oc->pb)
        avio_closep(&oc->pb);
    avformat_free_context(oc);
    return ret < 0 ? -1 : 0;
}

int rec_clip_write(const rec_ring *g, const AVCodecParameters *par, AVRational tb, double from_ms, double to_ms,
                   const char *path, watch_record_clip_result *res)
{
    memset(res, 0, sizeof *res);
    snprintf(res->path, sizeof res->path, "%s", path);
    size_t first, last;
    if (clip_span(g, from_ms, to_ms, &first, &last) < 0)
        return fail(res, "no recorded video is kept for that time", 0);
    char tmp[1100];
    if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp)
        return fail(res, "path too long", 0);
    if (write_mp4(g, par, tb, first, last, tmp, res) < 0) {
        remove(tmp);
        return -1;
    }
    if (rename(tmp, path) < 0) {
        remove(tmp);
        return fail(res, "cannot put the clip in place", AVERROR(errno));
    }
    res->ok = true;
    res->from_ms = at(g, first)->t_ms;
    res->to_ms = at(g, last)->t_ms;
    if (res->from_ms > from_ms + 1)
        snprintf(res->message, sizeof res->message, "starts %.1f s late: older video is no longer kept",
                 (res->from_ms - from_ms) / 1000);
    return 0;
}
