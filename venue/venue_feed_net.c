/*
 * venue_feed_net: the feed's network thread (libmosquitto's loop, connects
 * and reconnects) and sender thread (queue -> libmosquitto, picture
 * encoding), and libmosquitto's callbacks (venue_feed_net.h). What it shares
 * with the caller's side is in venue_feed_shared.h; it never calls venue_feed.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "venue_feed_net.h"
#include "venue_feed_shared.h"
#include "base_text.h"

#include <mqtt_protocol.h>

/* ---- small helpers ---- */

static void set_error(venue_feed *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(venue_feed *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&f->mu);
    vsnprintf(f->stats.last_error, sizeof f->stats.last_error, fmt, ap);
    pthread_mutex_unlock(&f->mu);
    va_end(ap);
}

/* ---- libmosquitto callbacks (network thread) ---- */

static void on_connect(struct mosquitto *mosq, void *obj, int rc)
{
    venue_feed *f = obj;
    if (rc != 0) {
        set_error(f, "%.100s:%d refused the connection: %.40s", f->host, f->port, mosquitto_connack_string(rc));
        return;
    }
    /* Live commands only: a retained one is never sent (it would come again at every reconnect), and one that
     * arrives live with the retain flag keeps it ("retain as published") so that it is refused. */
    mosquitto_subscribe_v5(mosq, NULL, f->t_command_sub, 1,
                           MQTT_SUB_OPT_RETAIN_AS_PUBLISHED | MQTT_SUB_OPT_SEND_RETAIN_NEVER, NULL);
    pthread_mutex_lock(&f->mu);
    f->connected = true;
    f->stats.connects++;
    f->stats.last_error[0] = 0;
    /* The broker may have restarted without persistence, and the will may have replaced the status. */
    venue_slot *retained[] = {&f->status, &f->state, &f->picture};
    for (size_t i = 0; i < 3; i++)
        retained[i]->pending = retained[i]->used;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

static void on_disconnect(struct mosquitto *mosq, void *obj, int rc)
{
    (void)mosq;
    venue_feed *f = obj;
    pthread_mutex_lock(&f->mu);
    /* Also called when a connection attempt fails: the network thread names that one. */
    if (f->connected && rc != 0)
        snprintf(f->stats.last_error, sizeof f->stats.last_error, "lost the connection to %.100s:%d", f->host,
                 f->port);
    f->connected = false;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

static void on_publish(struct mosquitto *mosq, void *obj, int mid)
{
    (void)mosq;
    (void)mid;
    venue_feed *f = obj;
    pthread_mutex_lock(&f->mu);
    if (f->outstanding > 0)
        f->outstanding--;
    f->stats.acknowledged++;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

/* Judge commands: copied as received; parsed by the caller's thread at poll time. */
static void on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *m)
{
    (void)mosq;
    venue_feed *f = obj;
    const char *who = strrchr(m->topic, '/');
    /* A command published retained is refused (venue_command_parse): the table writes no command topic, so it
     * cannot clear it, and it is never sent again (retain handling "send never"). */
    venue_raw_command rc = {0};
    base_text_copy(rc.by, sizeof rc.by, who ? who + 1 : ""); /* a long name is cut on a character boundary */
    rc.retained = m->retain;
    size_t len = m->payloadlen > 0 ? (size_t)m->payloadlen : 0;
    /* An over-long payload is kept only as far as needed to refuse it. */
    rc.len = len > VENUE_COMMAND_MAX_PAYLOAD ? VENUE_COMMAND_MAX_PAYLOAD + 1 : len;
    rc.payload = venue_dup_bytes(m->payload, rc.len);
    pthread_mutex_lock(&f->mu);
    f->stats.commands++;
    bool refused = !rc.payload || (!f->on_command && f->cmd_count == VENUE_COMMAND_RING);
    if (refused) {
        f->stats.commands_refused++;
        free(rc.payload);
    } else if (!f->on_command) {
        f->commands[(f->cmd_head + f->cmd_count++) % VENUE_COMMAND_RING] = rc;
    }
    pthread_mutex_unlock(&f->mu);
    if (refused || !f->on_command)
        return;
    venue_command cmd;
    if (venue_feed_take_command(f, &rc, &cmd))
        f->on_command(f->on_command_ctx, &cmd);
    free(rc.payload);
}

/* ---- network thread ---- */

static void nap(venue_feed *f, int ms)
{
    for (int slept = 0; slept < ms && !atomic_load(&f->stop_net); slept += 20)
        nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
}

void *venue_feed_net_main(void *arg)
{
    venue_feed *f = arg;
    int backoff = 0;
    while (!atomic_load(&f->stop_net)) {
        if (!f->sock_up) {
            nap(f, backoff);
            if (atomic_load(&f->stop_net))
                break;
            venue_feed_set_will(f); /* this connection's time in the will (an old one stays if out of memory) */
            int rc = mosquitto_connect_async(f->mosq, f->host, f->port, f->keepalive_s);
            if (rc != MOSQ_ERR_SUCCESS) {
                set_error(f, "cannot connect to %.100s:%d: %.100s", f->host, f->port,
                          rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
                backoff = backoff ? backoff * 2 : VENUE_BACKOFF_MIN_MS;
                backoff = backoff > f->reconnect_max_ms ? f->reconnect_max_ms : backoff;
                continue;
            }
            f->sock_up = true;
        }
        int rc = mosquitto_loop(f->mosq, 100, 1);
        if (rc != MOSQ_ERR_SUCCESS) {
            f->sock_up = false;
            int e = errno;
            pthread_mutex_lock(&f->mu);
            if (f->connected)
                snprintf(f->stats.last_error, sizeof f->stats.last_error, "lost the connection to %.100s:%d",
                         f->host, f->port);
            else if (f->stats.connects == 0 || !f->stats.last_error[0] || rc == MOSQ_ERR_ERRNO)
                snprintf(f->stats.last_error, sizeof f->stats.last_error, "cannot connect to %.100s:%d: %.100s",
                         f->host, f->port, rc == MOSQ_ERR_ERRNO ? strerror(e) : mosquitto_strerror(rc));
            f->connected = false;
            pthread_cond_broadcast(&f->cv);
            pthread_mutex_unlock(&f->mu);
            backoff = backoff ? backoff * 2 : VENUE_BACKOFF_MIN_MS;
            backoff = backoff > f->reconnect_max_ms ? f->reconnect_max_ms : backoff;
        } else {
            pthread_mutex_lock(&f->mu);
            if (f->connected)
                backoff = 0;
            pthread_mutex_unlock(&f->mu);
        }
    }
    return NULL;
}

/* ---- sender thread ---- */

/* A "feed_gap" event saying how many events the full queue dropped since the last one; under mu. */
static bool gap_message(venue_feed *f, venue_msg *m)
{
    long lost = f->queue.dropped - f->gap_reported, lost_alerts = f->queue.dropped_precious - f->gap_alerts_reported;
    char wall[40], text[256], topic[300];
    venue_wall_now(wall, sizeof wall);
    snprintf(text, sizeof text,
             "{\"event\":\"feed_gap\",\"wall\":\"%s\",\"lost\":%ld,\"lost_alerts\":%ld,\"table\":%d}", wall, lost,
             lost_alerts, f->table);
    snprintf(topic, sizeof topic, "%sfeed_gap", f->t_event);
    m->topic = venue_dup_bytes(topic, strlen(topic) + 1);
    m->payload = venue_dup_bytes(text, strlen(text));
    m->len = strlen(text);
    m->qos = 1;
    if (!m->topic || !m->payload) {
        venue_msg_clear(m);
        return false;
    }
    f->gap_reported = f->queue.dropped;
    f->gap_alerts_reported = f->queue.dropped_precious;
    return true;
}

static bool slot_message(venue_slot *s, const char *topic, venue_msg *m)
{
    m->topic = venue_dup_bytes(topic, strlen(topic) + 1);
    m->payload = s->len ? venue_dup_bytes(s->payload, s->len) : NULL;
    m->len = s->len;
    m->qos = 1;
    m->retain = true;
    if (!m->topic || (s->len && !m->payload)) {
        venue_msg_clear(m);
        return false;
    }
    s->pending = false;
    return true;
}

/*
 * The next message to hand over, under mu: the status first (a dead camera
 * must show at once), then events in order (alerts among them), then the
 * picture, then the state (which describes the picture: a subscriber that
 * reads the description finds the picture already retained). The sender
 * encodes a waiting picture before it picks, so the picture is never behind
 * a state that names it. False when nothing may go now.
 */
static bool next_message(venue_feed *f, venue_msg *m)
{
    memset(m, 0, sizeof *m);
    if (!f->connected || f->outstanding >= f->inflight_max)
        return false;
    if (f->status.pending)
        return slot_message(&f->status, f->t_status, m);
    if (f->queue.count && f->queue.dropped > f->gap_reported && gap_message(f, m))
        return true;
    if (venue_queue_pop(&f->queue, m))
        return true;
    if (f->picture.pending && !f->picture_raw_pending)
        return slot_message(&f->picture, f->t_picture, m);
    if (f->state.pending && !f->picture_raw_pending)
        return slot_message(&f->state, f->t_state, m);
    return false;
}

/* Encodes the waiting picture outside the lock; called and returns with mu held. */
static void encode_picture(venue_feed *f)
{
    venue_picture raw = f->picture_raw;
    memset(&f->picture_raw, 0, sizeof f->picture_raw);
    f->picture_raw_pending = false;
    pthread_mutex_unlock(&f->mu);
    uint8_t *jpeg = NULL;
    size_t n = 0;
    base_error err = {0};
    int rc = venue_picture_encode(&raw, f->picture_quality, &jpeg, &n, &err);
    venue_picture_clear(&raw);
    pthread_mutex_lock(&f->mu);
    if (rc < 0) {
        snprintf(f->stats.last_error, sizeof f->stats.last_error, "%.150s", err.msg);
        return;
    }
    if (f->picture_raw_pending) { /* a newer picture came meanwhile: it wins */
        free(jpeg);
        return;
    }
    venue_slot_set(f, &f->picture, (char *)jpeg, n);
}

/*
 * Nothing to send: waits for a change, or (connected, with a state) until the state is due again (its
 * heartbeat), then prints it again with a fresh "wall". Called and returns with mu held.
 */
static void idle(venue_feed *f)
{
    if (!f->connected || !f->state.used || f->state.pending) {
        pthread_cond_wait(&f->cv, &f->mu); /* a state waiting to go is sent, not printed again */
        return;
    }
    double due = f->state_set_ms + f->heartbeat_s * 1000.0;
    if (venue_feed_now_ms() >= due) {
        pthread_mutex_unlock(&f->mu); /* state_mu comes first */
        venue_feed_publish_state(f);
        pthread_mutex_lock(&f->mu);
        return;
    }
    struct timespec until = {(time_t)(due / 1000.0), 0};
    until.tv_nsec = (long)((due - (double)until.tv_sec * 1000.0) * 1e6);
    if (until.tv_nsec < 0 || until.tv_nsec >= 1000000000L)
        until.tv_nsec = 0;
    pthread_cond_timedwait(&f->cv, &f->mu, &until);
}

/* A call's retained copy on call/N expires after a day: the broker does not keep a tournament's calls for ever. */
#define CALL_EXPIRY_S 86400

/* Hands one message (and a call's retained copy) to libmosquitto; called and returns with mu held. */
static void hand_over(venue_feed *f, venue_msg *m)
{
    int copies = m->copy_topic ? 2 : 1;
    f->outstanding += copies;
    pthread_mutex_unlock(&f->mu);
    int rc = mosquitto_publish(f->mosq, NULL, m->topic, (int)m->len, m->payload, m->qos, m->retain);
    int rc2 = MOSQ_ERR_SUCCESS;
    if (m->copy_topic) {
        mosquitto_property *props = NULL;
        mosquitto_property_add_int32(&props, MQTT_PROP_MESSAGE_EXPIRY_INTERVAL, CALL_EXPIRY_S);
        rc2 = mosquitto_publish_v5(f->mosq, NULL, m->copy_topic, (int)m->len, m->payload, 1, true, props);
        mosquitto_property_free_all(&props);
    }
    pthread_mutex_lock(&f->mu);
    /* NO_CONN: the connection dropped just now. libmosquitto has queued the QoS 1 message all the same and sends it
     * again after reconnecting. */
    int results[2] = {rc, rc2};
    for (int i = 0; i < copies; i++) {
        if (results[i] == MOSQ_ERR_SUCCESS || results[i] == MOSQ_ERR_NO_CONN) {
            f->stats.published++;
        } else {
            f->outstanding--;
            snprintf(f->stats.last_error, sizeof f->stats.last_error, "%.100s: not published: %.40s",
                     i ? m->copy_topic : m->topic, mosquitto_strerror(results[i]));
        }
    }
}

void *venue_feed_send_main(void *arg)
{
    venue_feed *f = arg;
    pthread_mutex_lock(&f->mu);
    while (!f->stop_send) {
        if (f->picture_raw_pending) {
            encode_picture(f);
            continue;
        }
        venue_msg m;
        if (!next_message(f, &m)) {
            idle(f);
            continue;
        }
        hand_over(f, &m);
        venue_msg_clear(&m);
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

void venue_feed_install_callbacks(venue_feed *f)
{
    mosquitto_connect_callback_set(f->mosq, on_connect);
    mosquitto_disconnect_callback_set(f->mosq, on_disconnect);
    mosquitto_publish_callback_set(f->mosq, on_publish);
    mosquitto_message_callback_set(f->mosq, on_message);
}
