/*
 * venue_feed_shared: the feed's shared state and the helpers on it
 * (venue_feed_shared.c), for venue_feed.c (the caller's side, on top) and
 * venue_feed_net.c (the network and sender threads, beneath it). Internal
 * to venue/.
 *
 * How to use (inside venue/): venue_feed.c makes the struct, starts the
 * threads (venue_feed_net.h) and frees it; both sides change a retained
 * topic with venue_slot_set under mu, print the table's state with
 * venue_feed_publish_state, and parse a received command with
 * venue_feed_take_command.
 *
 * Three threads meet here:
 *   - the caller (the camera loop) serialises, queues and returns;
 *   - the network thread runs libmosquitto's loop, connects and reconnects
 *     (with back-off, forever: libmosquitto's own loop_forever gives up on
 *     some errors, such as a failed DNS lookup);
 *   - the sender thread hands queued messages to libmosquitto while
 *     connected, at most inflight_max unacknowledged at a time, and encodes
 *     the picture.
 * One mutex guards what they share; the caller holds it only to move
 * pointers, never during network or encoding work.
 */
#ifndef VENUE_FEED_SHARED_H
#define VENUE_FEED_SHARED_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <mosquitto.h>

#include "venue_feed.h"
#include "venue_payload.h"
#include "venue_queue.h"

#define VENUE_COMMAND_RING 64
#define VENUE_SEEN_IDS 64
#define VENUE_BACKOFF_MIN_MS 250

typedef struct venue_slot {
    char *payload;      /* the latest value of a retained topic */
    size_t len;         /* 0: clear the retained message */
    bool pending;       /* not handed to libmosquitto since it changed, or since the last connection */
    bool used;          /* ever set: re-asserted at each connection */
} venue_slot;

typedef struct venue_raw_command {
    char *payload;
    size_t len;
    char by[64];
    bool retained;
} venue_raw_command;

struct venue_feed {
    /* Fixed after creation. */
    char host[256], event[64], client_id[200];
    char run[24];                   /* this feed's run, public: in every call and the state */
    char *username, *password;
    int port, table, keepalive_s, heartbeat_s, inflight_max, reconnect_max_ms, picture_width, picture_quality;
    void (*on_command)(void *ctx, const venue_command *cmd);
    void *on_command_ctx;
    char t_status[256], t_state[256], t_picture[256], t_event[256], t_call[256], t_command_sub[256];
    long call_no;                   /* the caller's thread: the number of the latest call published */
    struct mosquitto *mosq;
    pthread_t net_thread, send_thread;
    bool net_running, send_running;
    atomic_bool stop_net;
    bool sock_up;                   /* network thread only */

    pthread_mutex_t mu;
    pthread_cond_t cv;              /* broadcast on every change anyone waits for */
    /* Under mu. */
    venue_queue queue;
    venue_slot status, state, picture;
    venue_picture picture_raw;      /* shrunk, waiting to be encoded */
    bool picture_raw_pending;
    bool connected, stop_send, online;
    int outstanding;
    long gap_reported, gap_alerts_reported;
    venue_stats stats;
    venue_raw_command commands[VENUE_COMMAND_RING];
    size_t cmd_head, cmd_count;
    double state_set_ms;            /* CLOCK_MONOTONIC when the state slot was last set (the heartbeat's clock) */

    /* Under state_mu (taken before mu, never while holding it): the caller folds events in, the sender
     * prints it again for the heartbeat. */
    pthread_mutex_t state_mu;
    venue_state table_state;
    /* Command ids seen: the poller's (caller's thread), or the network thread's with on_command. */
    char seen_ids[VENUE_SEEN_IDS][64];
    size_t seen_next;
};

/* Replaces a retained slot's value (takes `payload`, may be NULL when len is 0); call under mu. */
void venue_slot_set(venue_feed *f, venue_slot *s, char *payload, size_t len);
/* Parses a received command; false for one to skip (empty, or an id seen before). */
bool venue_feed_take_command(venue_feed *f, const venue_raw_command *raw, venue_command *out);
/* The retained state printed again and put in its slot (takes state_mu, then mu: call with neither held). */
void venue_feed_publish_state(venue_feed *f);
/* The same with state_mu already held (mu not held). */
void venue_feed_publish_state_locked(venue_feed *f);
/* The last will with this moment as its "connected" (before each connection). */
int venue_feed_set_will(venue_feed *f);
/* CLOCK_MONOTONIC in ms. */
double venue_feed_now_ms(void);
/* 2 x n lowercase hex digits of the kernel's random bytes (out holds 2n + 1). 0, or -1. */
int venue_random_hex(char *out, size_t n);
/* malloc'ed copy of n bytes (at least 1 byte allocated). */
char *venue_dup_bytes(const void *p, size_t n);

#endif
