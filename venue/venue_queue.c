#include "venue_queue.h"

#include <stdlib.h>
#include <string.h>

void venue_msg_clear(venue_msg *m)
{
    if (!m)
        return;
    free(m->topic);
    free(m->payload);
    free(m->copy_topic);
    memset(m, 0, sizeof *m);
}

int venue_queue_init(venue_queue *q, size_t cap)
{
    memset(q, 0, sizeof *q);
    if (cap < 1)
        cap = 1;
    q->items = calloc(cap, sizeof *q->items);
    if (!q->items)
        return -1;
    q->cap = cap;
    return 0;
}

void venue_queue_free(venue_queue *q)
{
    venue_msg m;
    while (venue_queue_pop(q, &m))
        venue_msg_clear(&m);
    free(q->items);
    memset(q, 0, sizeof *q);
}

static venue_msg *at(venue_queue *q, size_t i)
{
    return &q->items[(q->head + i) % q->cap];
}

/* Removes the i-th oldest message, closing the gap (rare: only when full). */
static void drop_at(venue_queue *q, size_t i)
{
    venue_msg *victim = at(q, i);
    q->dropped++;
    q->dropped_precious += victim->precious;
    venue_msg_clear(victim);
    for (size_t k = i; k + 1 < q->count; k++)
        *at(q, k) = *at(q, k + 1);
    memset(at(q, q->count - 1), 0, sizeof(venue_msg));
    q->count--;
}

int venue_queue_push(venue_queue *q, venue_msg *m)
{
    int dropped = 0;
    if (q->count == q->cap) {
        size_t victim = 0;
        while (victim < q->count && at(q, victim)->precious)
            victim++;
        if (victim == q->count)
            victim = 0; /* nothing but calls: the oldest call goes */
        drop_at(q, victim);
        dropped = 1;
    }
    *at(q, q->count) = *m;
    q->count++;
    memset(m, 0, sizeof *m);
    return dropped;
}

bool venue_queue_pop(venue_queue *q, venue_msg *out)
{
    if (q->count == 0)
        return false;
    *out = *at(q, 0);
    memset(at(q, 0), 0, sizeof *out);
    q->head = (q->head + 1) % q->cap;
    q->count--;
    return true;
}
