/*
 * venue_feed: one table's live feed to the venue's MQTT broker (Mosquitto),
 * for judges, streamers and the tournament (docs/venue.md; topics and
 * payloads in docs/formats.md, "Venue feed (MQTT)").
 *
 * Topics, under tableref/{event}/table/{n}/:
 *   status           retained, QoS 1: online / offline (last will when the
 *                    process or its network dies; explicit when the camera dies)
 *   state            retained, QoS 1: units, the last settle, call, alert and
 *                    correction, the picture's description
 *   picture          retained, QoS 1: the latest overlay picture, a JPEG
 *   event/{kind}     QoS 1: every watch event (started, settled, move_checked,
 *                    alert, correction, camera_lost, stopped, ...); the calls
 *                    (move_checked, alert, correction) numbered: call_no
 *                    1, 2, 3... and this run's id, "run"
 *   call/{call_no}   retained, QoS 1, expiring after a day: each call again,
 *                    for a subscriber that sees a gap in the numbers to fetch
 *   command/{judge}  the feed subscribes (live commands only: a retained one
 *                    is never sent to it): overrule, confirm, undo, with a
 *                    reason; applied only from a judge's name
 *
 * It never blocks the caller. Publishing serialises the event and puts it on
 * a bounded queue; the feed's own two threads connect (and reconnect, with
 * back-off, forever), send, and receive. What cannot be sent waits in the
 * queue, in order; when the queue is full the oldest ordinary event goes
 * first (calls last) and the loss is counted, reported by venue_feed_stats
 * and announced on the feed itself ("feed_gap" event). Retained topics keep
 * only their latest value, so they never fill the queue.
 *
 * The feed connects with a client id nobody can guess, new at each run: a
 * second login with the table's account gets a session of its own and
 * neither takes the table's place nor fires its last will (docs/venue.md).
 *
 * How to use (the watch loop):
 *   venue_config cfg; venue_config_default(&cfg);
 *   venue_parse_broker("broker.local:1883", &cfg, &err);  cfg.event = "gt-2026"; cfg.table = 7;
 *   venue_feed *feed = venue_feed_new(&cfg, &err);       // returns at once, even with no broker
 *   per event, after the event log wrote it:  venue_feed_publish(feed, ev, &err);   // ev stays the caller's
 *     (a watch_session sink does it: watch_sink{venue_feed_sink_event, feed})
 *   at a settle with a call:                  venue_feed_set_picture(feed, &img, move);
 *   once per frame:                           while (venue_feed_poll_command(feed, &cmd) == 1) apply(cmd);
 *     (or cfg.on_command: each command handed over from the feed's thread as it arrives)
 *   at the end:   venue_feed_flush(feed, 2000);  venue_feed_free(feed);
 * The feed is driven from one thread (the camera loop); only
 * venue_feed_stats may also be called from elsewhere.
 */
#ifndef VENUE_FEED_H
#define VENUE_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base_error.h"
#include "venue_command.h"
#include "venue_picture.h"

typedef struct venue_config {
    char host[256];            /* broker host name or address; "127.0.0.1" by default */
    int port;                  /* 1883 */
    const char *event;         /* tournament name in topics: letters, digits, '.', '_', '-' (required) */
    int table;                 /* table number, >= 1 (required) */
    const char *username;      /* NULL: anonymous */
    const char *password;
    const char *client_id;     /* NULL: "tableref-{event}-table-{n}-" and 16 random hex digits, new at each run */
    int keepalive_s;           /* 10: a silently dead table (power cut) is flagged offline
                                  after 1.5 x this; a killed process is flagged at once */
    int heartbeat_s;           /* 60: the retained state is published again (a fresh "wall") when nothing
                                  changed it for this long, so that the last will's reader knows when the
                                  table last spoke (1..3600) */
    size_t queue_max;          /* 10000 events may wait for the broker (hours of calls); then the oldest ordinary
                                  one is dropped, a call only when nothing else is left */
    int inflight_max;          /* 32 QoS 1 messages handed to libmosquitto and not yet acknowledged */
    int reconnect_max_ms;      /* 5000: back-off between connection attempts grows from 250 ms to this */
    int picture_width;         /* 640: the overlay picture is shrunk (whole factors) to at most this wide */
    int picture_quality;       /* 70: JPEG quality of the picture, 1..100 */
    /*
     * Optional: judge commands handed to this function, from the feed's
     * network thread, as they arrive (parsed, duplicates dropped, invalid
     * ones included), instead of waiting for venue_feed_poll_command. For a
     * caller whose command queue is thread-safe (watch_control_push_line).
     */
    void (*on_command)(void *ctx, const venue_command *cmd);
    void *on_command_ctx;
} venue_config;

/* Fills the defaults above; event and table are left unset. The strings are borrowed until venue_feed_new returns. */
void venue_config_default(venue_config *cfg);
/* "HOST" or "HOST:PORT" (or "[v6addr]:PORT") into cfg->host / cfg->port (default 1883). */
int venue_parse_broker(const char *spec, venue_config *cfg, base_error *err);
/* 0 when `event` may name a tournament in topics, else -1 with the reason. */
int venue_check_event_name(const char *event, base_error *err);

typedef struct venue_feed venue_feed;

/* Checks cfg and starts connecting in the background. NULL (err set) only for a bad config or no memory. */
venue_feed *venue_feed_new(const venue_config *cfg, base_error *err);
/*
 * Says "offline" (cause "stopped") unless already offline, waits up to
 * 1000 ms for what is queued while connected, disconnects and frees. NULL is fine.
 */
void venue_feed_free(venue_feed *feed);

/*
 * Publishes one watch event (docs/formats.md, "Event log and subtitles") on
 * event/{ev.event}, QoS 1, without its "snapshot" member (a call numbered,
 * and again retained on call/{call_no}); the table's
 * retained state and status follow from it (started: online; settled and
 * move_checked: units from their snapshot; move_checked: last call; alert:
 * last alert; correction: last correction; camera_lost, stopped: offline).
 * `ev` is borrowed. Returns 0, or -1 with err set (no "event" member, no
 * memory). A full queue is not an error: it is counted in venue_feed_stats.
 */
int venue_feed_publish(venue_feed *feed, const cJSON *ev, base_error *err);

/*
 * venue_feed_publish for an event sink of the watch session
 * (watch_sink{venue_feed_sink_event, feed}): `feed` is the venue_feed; an
 * event it cannot publish is counted, not reported.
 */
void venue_feed_sink_event(void *feed, const cJSON *ev);

/*
 * The overlay picture after call `move` (0: no call yet). Shrunk here (a few
 * ms at 12 MP) into the feed's own buffer; JPEG-encoded and published
 * retained by the feed's thread. A picture not yet sent is replaced.
 */
int venue_feed_set_picture(venue_feed *feed, const venue_image *img, int move, base_error *err);
/* The same from a JPEG the caller already has (copied as is). */
int venue_feed_set_picture_jpeg(venue_feed *feed, const uint8_t *jpeg, size_t n, int move, base_error *err);

/*
 * Says online or offline on the retained status topic, with a cause word
 * ("watching", "camera", "stopped", ...) and a sentence for people.
 * venue_feed_publish already does this for started, camera_lost and stopped.
 */
int venue_feed_set_status(venue_feed *feed, bool online, const char *cause, const char *reason, base_error *err);

/*
 * The next judge command received on command/{judge}: 1 and *out filled, 0
 * when none waits. Malformed or retained commands come back with action
 * VENUE_CMD_INVALID and out->error set, so the loop logs them; a command
 * delivered twice (same "id") comes back once. An empty message (how a
 * retained command is cleared) is not a command and is skipped.
 */
int venue_feed_poll_command(venue_feed *feed, venue_command *out);

typedef struct venue_stats {
    bool connected;            /* the broker acknowledged our connection and it has not dropped since */
    long connects;             /* successful connections (1 + reconnections) */
    size_t queued;             /* events waiting in the feed's queue */
    size_t inflight;           /* handed to libmosquitto, not yet acknowledged by the broker */
    bool retained_pending;     /* status, state or picture not yet handed over */
    long published;            /* messages handed to libmosquitto */
    long acknowledged;         /* of which the broker acknowledged (QoS 1) */
    long dropped;              /* events dropped because the queue was full */
    long dropped_alerts;       /* of which calls (move_checked, alert, correction) */
    long commands;             /* judge commands received */
    long commands_refused;     /* judge commands refused because the command queue was full */
    long unpublishable;        /* events venue_feed_sink_event could not publish (no "event" member, no memory) */
    char last_error[256];      /* the last connection problem, "" when none */
} venue_stats;

/* A snapshot of the counters; thread-safe. */
void venue_feed_stats(venue_feed *feed, venue_stats *out);
/* The client id the feed connects with (tests; never published). */
const char *venue_feed_client_id(const venue_feed *feed);
/*
 * Waits up to timeout_ms for the queue, the retained topics and the
 * in-flight messages to reach the broker. Returns how many events are still
 * waiting (0: all acknowledged). Returns at once when not connected.
 */
size_t venue_feed_flush(venue_feed *feed, int timeout_ms);

#endif
