/*
 * venue_queue: the bounded first-in first-out queue of messages waiting for
 * the broker. Not thread-safe by itself: the feed guards it with its lock.
 *
 * When full, a push drops the oldest ordinary message; calls ("precious":
 * the calls, alerts and corrections a judge must see) are dropped only when
 * nothing else is left to drop. Every drop is counted.
 *
 * How to use:
 *   venue_queue q; venue_queue_init(&q, 1000);
 *   venue_msg m = {topic, payload, len, 1, false, true};   // strings malloc'ed; the queue takes them
 *   venue_queue_push(&q, &m);
 *   venue_msg out; while (venue_queue_pop(&q, &out)) { send(out); venue_msg_clear(&out); }
 *   venue_queue_free(&q);
 */
#ifndef VENUE_QUEUE_H
#define VENUE_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct venue_msg {
    char *topic;       /* malloc'ed */
    void *payload;     /* malloc'ed, may be NULL when len is 0 */
    size_t len;
    int qos;
    bool retain;
    bool precious;     /* a call, an alert, a correction: dropped last */
    char *copy_topic;  /* malloc'ed or NULL: the payload is also published there, retained and expiring (a call's
                          call/N, which a subscriber that missed it fetches) */
} venue_msg;

typedef struct venue_queue {
    venue_msg *items;  /* ring of cap */
    size_t cap, head, count;
    long dropped, dropped_precious;
} venue_queue;

/* cap >= 1. -1 when out of memory. */
int venue_queue_init(venue_queue *q, size_t cap);
void venue_queue_free(venue_queue *q);
/* Takes m's strings (m is cleared). Returns how many messages were dropped to make room (0 or 1). */
int venue_queue_push(venue_queue *q, venue_msg *m);
/* The oldest message into *out (the caller then owns it); false when empty. */
bool venue_queue_pop(venue_queue *q, venue_msg *out);
/* Frees the strings and zeroes m. */
void venue_msg_clear(venue_msg *m);

#endif
