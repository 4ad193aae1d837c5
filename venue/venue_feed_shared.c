/*
 * venue_feed_shared: what the caller's side (venue_feed.c) and the threads
 * (venue_feed_net.c) both use: the clock, the last will, the retained
 * slots, the table's state printed into its slot, and received commands
 * parsed (ids seen once). Both stand above it; it calls neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <string.h>
#include <time.h>

#include "venue_feed_shared.h"

double venue_feed_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

int venue_feed_set_will(venue_feed *f)
{
    /* The will is fixed at connection: it carries the connection's time, the table's last word so far. */
    char *will = venue_will_payload(f->event, f->table, f->heartbeat_s, f->keepalive_s);
    int rc = will ? mosquitto_will_set(f->mosq, f->t_status, (int)strlen(will), will, 1, true) : MOSQ_ERR_NOMEM;
    free(will);
    return rc;
}

/* Replaces a retained slot's value (takes `payload`); under mu. */
void venue_slot_set(venue_feed *f, venue_slot *s, char *payload, size_t len)
{
    free(s->payload);
    s->payload = payload;
    s->len = len;
    s->pending = true;
    s->used = true;
    pthread_cond_broadcast(&f->cv);
}

int venue_random_hex(char *out, size_t n)
{
    unsigned char bytes[32];
    if (n > sizeof bytes)
        return -1;
    size_t have = 0;
    while (have < n) {
        ssize_t got = getrandom(bytes + have, n - have, 0);
        if (got < 0 && errno != EINTR)
            return -1;
        if (got > 0)
            have += (size_t)got;
    }
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", bytes[i]);
    return 0;
}

char *venue_dup_bytes(const void *p, size_t n)
{
    char *out = malloc(n ? n : 1);
    if (out && n)
        memcpy(out, p, n);
    return out;
}

void venue_feed_publish_state_locked(venue_feed *f)
{
    pthread_mutex_lock(&f->mu);
    size_t queued = f->queue.count;
    long dropped = f->queue.dropped;
    pthread_mutex_unlock(&f->mu);
    char *text = venue_state_print(&f->table_state, queued, dropped);
    if (!text)
        return;
    pthread_mutex_lock(&f->mu);
    venue_slot_set(f, &f->state, text, strlen(text));
    f->state_set_ms = venue_feed_now_ms();
    pthread_mutex_unlock(&f->mu);
}

void venue_feed_publish_state(venue_feed *f)
{
    pthread_mutex_lock(&f->state_mu);
    venue_feed_publish_state_locked(f);
    pthread_mutex_unlock(&f->state_mu);
}

static bool seen_before(venue_feed *f, const char *id)
{
    if (!id[0])
        return false;
    for (size_t i = 0; i < VENUE_SEEN_IDS; i++)
        if (strcmp(f->seen_ids[i], id) == 0)
            return true;
    snprintf(f->seen_ids[f->seen_next], sizeof f->seen_ids[0], "%s", id);
    f->seen_next = (f->seen_next + 1) % VENUE_SEEN_IDS;
    return false;
}

bool venue_feed_take_command(venue_feed *f, const venue_raw_command *raw, venue_command *out)
{
    /* An empty message is how a retained command is cleared: housekeeping, not a command. */
    if (raw->len == 0)
        return false;
    venue_command_parse(raw->payload, raw->len, raw->by, raw->retained, out);
    return !seen_before(f, out->id);
}
