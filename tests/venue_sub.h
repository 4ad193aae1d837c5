/*
 * venue_sub: a real MQTT subscriber for the venue tests (libmosquitto, its
 * own network thread), keeping every message it receives in order.
 *
 *   venue_sub *s = venue_sub_new(port, "tableref/test/#", 1);   // NULL: could not connect
 *   const venue_sub_msg *m = venue_sub_wait(s, "tableref/test/table/1/state", NULL, 3000);
 *   ... m->payload (NUL-terminated copy), m->qos, m->retain ...
 *   venue_sub_publish(s, "tableref/test/table/1/command/alice", "{...}", false);
 *   venue_sub_free(s);
 * Messages stay valid until venue_sub_free.
 */
#ifndef TABLEREF_TEST_VENUE_SUB_H
#define TABLEREF_TEST_VENUE_SUB_H

#include <stdbool.h>
#include <stddef.h>

typedef struct venue_sub_msg {
    char *topic;
    char *payload;   /* a NUL-terminated copy */
    size_t len;
    int qos;
    bool retain;
    double t_ms;     /* CLOCK_MONOTONIC when it arrived */
} venue_sub_msg;

typedef struct venue_sub venue_sub;

venue_sub *venue_sub_new(int port, const char *pattern, int qos);
/*
 * The same with a session the broker keeps while it is away (clean session
 * off): messages at QoS 1 that arrive meanwhile wait for it.
 */
venue_sub *venue_sub_new_session(int port, const char *pattern, int qos, const char *client_id);
/* The same as a user of the broker's password file (client_id NULL: a clean session). */
venue_sub *venue_sub_new_as(int port, const char *pattern, int qos, const char *client_id, const char *user,
                            const char *password);
void venue_sub_free(venue_sub *s);
/*
 * The first message (from the `from`-th on) whose topic is `topic` and whose
 * payload contains `needle` (NULL: any), waiting up to timeout_ms; NULL when
 * none came. *index (may be NULL) receives its position.
 */
const venue_sub_msg *venue_sub_wait_from(venue_sub *s, size_t from, const char *topic, const char *needle,
                                         int timeout_ms, size_t *index);
const venue_sub_msg *venue_sub_wait(venue_sub *s, const char *topic, const char *needle, int timeout_ms);
/* How many messages have arrived so far. */
size_t venue_sub_count(venue_sub *s);
/* Messages on `topic` containing `needle` among those arrived so far. */
size_t venue_sub_count_matching(venue_sub *s, const char *topic, const char *needle);
/* Publishes at QoS 1 and waits (1 s at most) until the broker acknowledged it. 0 or -1. */
int venue_sub_publish(venue_sub *s, const char *topic, const char *payload, bool retain);
double venue_sub_now_ms(void);

#endif
