/*
 * watch_record's parts shared between watch_record.c (encoder, worker, the
 * fragmented file), watch_record_queue.c (the caller's side: the queue,
 * clip requests, closing) and watch_record_clip.c (the ring of recent
 * encoded packets and the clips cut from it). Not a public header.
 */
#ifndef WATCH_RECORD_INT_H
#define WATCH_RECORD_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "base_error.h"
#include "watch_record.h"

struct SwsContext;

/* One encoded packet kept for clips; times in the caller's ms. */
typedef struct rec_packet {
    AVPacket *pkt;  /* in the encoder's time base (ms from the first frame) */
    double t_ms;
    bool key;
} rec_packet;

/* The last seconds of encoded video, oldest first (a circular buffer). */
typedef struct rec_ring {
    rec_packet *items;
    size_t head, n, cap;
} rec_ring;

/* Keeps a copy of `pkt`; -1 when out of memory. */
int rec_ring_push(rec_ring *g, const AVPacket *pkt, double t_ms);
/* Drops whole keyframe groups that end before keep_from_ms. */
void rec_ring_trim(rec_ring *g, double keep_from_ms);
void rec_ring_free(rec_ring *g);

/*
 * Writes the packets of [from_ms, to_ms] (from the keyframe at or before
 * from_ms that is still kept) to `path` as a plain MP4 (moov first), through
 * a file beside it renamed at the end. Fills `res`; 0 or -1.
 */
int rec_clip_write(const rec_ring *g, const AVCodecParameters *par, AVRational tb, double from_ms, double to_ms,
                   const char *path, watch_record_clip_result *res);

/* A queued frame: its own copy of the pixels. */
typedef struct rec_slot {
    uint8_t *data;
    size_t cap;
    int channels;
    double t_ms;
} rec_slot;

typedef struct rec_request {
    char path[1024];
    double from_ms, to_ms;
} rec_request;

/* The recording; the worker owns the encoder and the file after open, the rest is shared under mu. */
struct watch_record {
    watch_record_config cfg;
    char path[1024];
    int width, height; /* recorded (even) */
    /* worker only, after open */
    int fd;
    uint8_t *io_buf;
    AVIOContext *pb;
    AVFormatContext *fmt;
    AVStream *st;
    AVCodecContext *enc;
    AVCodecParameters *par;
    struct SwsContext *sws[4]; /* by channels: 1 gray, 3 BGR */
    AVFrame *yuv;
    AVPacket *pkt;
    int64_t written, good_size, last_pts;
    int write_errno;
    double t0_ms, last_key_ms, newest_ms;
    long keyframes;
    long packets_written;   /* frames handed to the file; those before the last keyframe are in whole fragments */
    rec_ring ring;
    rec_request *pending;
    size_t n_pending, cap_pending;
    /* shared, under mu */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t work, done_cv;
    rec_slot *slots;
    int q_head, q_count;
    rec_request *requests;
    size_t n_requests, cap_requests;
    watch_record_clip_result *done;
    size_t n_done, cap_done;
    bool closing, finished, failed, any_queued;
    double last_queued_ms;
    char failure[BASE_ERROR_MAX];
    watch_record_stats stats;
};

/* Whether the worker has given up (under mu). */
bool rec_has_failed(watch_record *r);
/* Frees everything the recording holds (the worker has ended or never started). */
void rec_free_record(watch_record *r);

#endif
