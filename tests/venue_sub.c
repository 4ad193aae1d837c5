#include "venue_sub.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mosquitto.h>

struct venue_sub {
    struct mosquitto *mosq;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    venue_sub_msg **msgs;   /* each message allocated alone: pointers handed out stay valid */
    size_t n, cap;
    bool subscribed;
    int acked;
    char pattern[256];
    int qos;
};

double venue_sub_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void on_connect(struct mosquitto *m, void *obj, int rc)
{
    venue_sub *s = obj;
    if (rc == 0)
        mosquitto_subscribe(m, NULL, s->pattern, s->qos);
}

static void on_subscribe(struct mosquitto *m, void *obj, int mid, int n, const int *granted)
{
    (void)m;
    (void)mid;
    (void)n;
    (void)granted;
    venue_sub *s = obj;
    pthread_mutex_lock(&s->mu);
    s->subscribed = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

static void on_publish(struct mosquitto *m, void *obj, int mid)
{
    (void)m;
    (void)mid;
    venue_sub *s = obj;
    pthread_mutex_lock(&s->mu);
    s->acked++;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

static void on_message(struct mosquitto *m, void *obj, const struct mosquitto_message *msg)
{
    (void)m;
    venue_sub *s = obj;
    venue_sub_msg *r = calloc(1, sizeof *r);
    if (!r)
        return;
    r->topic = strdup(msg->topic);
    r->len = msg->payloadlen > 0 ? (size_t)msg->payloadlen : 0;
    r->payload = malloc(r->len + 1);
    if (!r->topic || !r->payload) {
        free(r->topic);
        free(r->payload);
        free(r);
        return;
    }
    if (r->len)
        memcpy(r->payload, msg->payload, r->len);
    r->payload[r->len] = 0;
    r->qos = msg->qos;
    r->retain = msg->retain;
    r->t_ms = venue_sub_now_ms();
    pthread_mutex_lock(&s->mu);
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        venue_sub_msg **grown = realloc(s->msgs, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&s->mu);
            free(r->topic);
            free(r->payload);
            free(r);
            return;
        }
        s->msgs = grown;
        s->cap = cap;
    }
    s->msgs[s->n++] = r;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

static void until_ms(struct timespec *ts, int ms)
{
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

venue_sub *venue_sub_new(int port, const char *pattern, int qos)
{
    return venue_sub_new_session(port, pattern, qos, NULL);
}

venue_sub *venue_sub_new_session(int port, const char *pattern, int qos, const char *client_id)
{
    return venue_sub_new_as(port, pattern, qos, client_id, NULL, NULL);
}

venue_sub *venue_sub_new_as(int port, const char *pattern, int qos, const char *client_id, const char *user,
                            const char *password)
{
    mosquitto_lib_init();
    venue_sub *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    snprintf(s->pattern, sizeof s->pattern, "%s", pattern);
    s->qos = qos;
    s->mosq = mosquitto_new(client_id, client_id == NULL, s);
    if (!s->mosq)
        goto fail;
    if (user)
        mosquitto_username_pw_set(s->mosq, user, password);
    mosquitto_connect_callback_set(s->mosq, on_connect);
    mosquitto_subscribe_callback_set(s->mosq, on_subscribe);
    mosquitto_publish_callback_set(s->mosq, on_publish);
    mosquitto_message_callback_set(s->mosq, on_message);
    if (mosquitto_connect(s->mosq, "127.0.0.1", port, 30) != MOSQ_ERR_SUCCESS ||
        mosquitto_loop_start(s->mosq) != MOSQ_ERR_SUCCESS)
        goto fail;
    pthread_mutex_lock(&s->mu);
    struct timespec until;
    until_ms(&until, 3000);
    while (!s->subscribed && pthread_cond_timedwait(&s->cv, &s->mu, &until) == 0) {
    }
    bool ok = s->subscribed;
    pthread_mutex_unlock(&s->mu);
    if (ok)
        return s;
fail:
    venue_sub_free(s);
    return NULL;
}

void venue_sub_free(venue_sub *s)
{
    if (!s)
        return;
    if (s->mosq) {
        mosquitto_disconnect(s->mosq);
        /* Forced: a client the broker dropped (a refused 10 MB publish) may be reconnecting, and its
         * reconnect can overwrite the disconnecting state, so a polite stop could wait forever. */
        mosquitto_loop_stop(s->mosq, true);
        mosquitto_destroy(s->mosq);
    }
    for (size_t i = 0; i < s->n; i++) {
        free(s->msgs[i]->topic);
        free(s->msgs[i]->payload);
        free(s->msgs[i]);
    }
    free(s->msgs);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static bool matches(const venue_sub_msg *m, const char *topic, const char *needle)
{
    return (!topic || strcmp(m->topic, topic) == 0) && (!needle || strstr(m->payload, needle));
}

const venue_sub_msg *venue_sub_wait_from(venue_sub *s, size_t from, const char *topic, const char *needle,
                                         int timeout_ms, size_t *index)
{
    struct timespec until;
    until_ms(&until, timeout_ms);
    pthread_mutex_lock(&s->mu);
    const venue_sub_msg *found = NULL;
    size_t i = from;
    for (;;) {
        for (; i < s->n && !found; i++)
            if (matches(s->msgs[i], topic, needle)) {
                found = s->msgs[i];
                if (index)
                    *index = i;
            }
        if (found || pthread_cond_timedwait(&s->cv, &s->mu, &until) != 0)
            break;
    }
    pthread_mutex_unlock(&s->mu);
    return found;
}

const venue_sub_msg *venue_sub_wait(venue_sub *s, const char *topic, const char *needle, int timeout_ms)
{
    return venue_sub_wait_from(s, 0, topic, needle, timeout_ms, NULL);
}

size_t venue_sub_count(venue_sub *s)
{
    pthread_mutex_lock(&s->mu);
    size_t n = s->n;
    pthread_mutex_unlock(&s->mu);
    return n;
}

size_t venue_sub_count_matching(venue_sub *s, const char *topic, const char *needle)
{
    pthread_mutex_lock(&s->mu);
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += matches(s->msgs[i], topic, needle);
    pthread_mutex_unlock(&s->mu);
    return n;
}

int venue_sub_publish(venue_sub *s, const char *topic, const char *payload, bool retain)
{
    pthread_mutex_lock(&s->mu);
    int before = s->acked;
    pthread_mutex_unlock(&s->mu);
    if (mosquitto_publish(s->mosq, NULL, topic, (int)strlen(payload), payload, 1, retain) != MOSQ_ERR_SUCCESS)
        return -1;
    struct timespec until;
    until_ms(&until, 1000);
    pthread_mutex_lock(&s->mu);
    while (s->acked == before && pthread_cond_timedwait(&s->cv, &s->mu, &until) == 0) {
    }
    int rc = s->acked > before ? 0 : -1;
    pthread_mutex_unlock(&s->mu);
    return rc;
}
