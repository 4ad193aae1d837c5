/*
 * watch_record's parts shared between watch_record.c (queue, encoder, the
 * fragmented file) and watch_record_clip.c (the ring of recent encoded
 * packets and the clips cut from it). Not a public header.
 */
#ifndef WATCH_RECORD_INT_H
#define WATCH_RECORD_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <libavcodec/avcodec.h>

#include "watch_record.h"

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

#endif
