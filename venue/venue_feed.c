/*
 * venue_feed: the caller's side of the feed (configuration, life cycle,
 * publish, picture, status, commands, counters). It stands above the
 * threads (venue_feed_net.c) and what both use (venue_feed_shared.h): it
 * starts the threads, and neither calls back into it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base_json.h"
#include "venue_feed_net.h"
#include "venue_feed_shared.h"

#include <mqtt_protocol.h>

/* ---- configuration ---- */

void venue_config_default(venue_config *cfg)
{
    *cfg = (venue_config){.host = "127.0.0.1", .port = 1883, .keepalive_s = 10, .heartbeat_s = 60, .queue_max = 10000,
                          .inflight_max = 32, .reconnect_max_ms = 5000, .picture_width = 640, .picture_quality = 70};
}

int venue_check_event_name(const char *event, base_error *err)
{
    if (!event || !*event)
        return base_error_set(err, "event name: missing (--event NAME)");
    if (strlen(event) > 48)
        return base_error_set(err, "event name \"%.48s...\": longer than 48 characters", event);
    for (const char *p = event; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == '-';
        if (!ok)
            return base_error_set(err,
                                   "event name \"%s\": '%c' is not allowed (letters, digits, '.', '_' and '-' "
                                   "only: it becomes part of MQTT topics)",
                                   event, c);
    }
    return 0;
}

int venue_parse_broker(const char *spec, venue_config *cfg, base_error *err)
{
    if (!spec || !*spec)
        return base_error_set(err, "broker: missing (--mqtt HOST[:PORT])");
    const char *host = spec, *colon;
    size_t hn;
    if (spec[0] == '[') { /* [IPv6]:PORT */
        const char *close = strchr(spec, ']');
        if (!close)
            return base_error_set(err, "broker \"%s\": missing ']'", spec);
        host = spec + 1;
        hn = (size_t)(close - host);
        colon = close[1] == ':' ? close + 1 : NULL;
        if (close[1] && !colon)
            return base_error_set(err, "broker \"%s\": expected ':' after ']'", spec);
    } else {
        colon = strrchr(spec, ':');
        if (colon && strchr(spec, ':') != colon)
            return base_error_set(err, "broker \"%s\": write an IPv6 address as [ADDRESS]:PORT", spec);
        hn = colon ? (size_t)(colon - spec) : strlen(spec);
    }
    if (hn == 0 || hn >= sizeof cfg->host)
        return base_error_set(err, "broker \"%s\": missing or over-long host name", spec);
    int port = 1883;
    if (colon) {
        char *end;
        errno = 0;
        long p = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || errno || p < 1 || p > 65535)
            return base_error_set(err, "broker \"%s\": the port must be a number from 1 to 65535", spec);
        port = (int)p;
    }
    memcpy(cfg->host, host, hn);
    cfg->host[hn] = 0;
    cfg->port = port;
    return 0;
}

static int check_config(const venue_config *c, base_error *err)
{
    if (venue_check_event_name(c->event, err) < 0)
        return -1;
    if (c->table < 1 || c->table > 100000)
        return base_error_set(err, "table number %d: expected 1 or more (--table N)", c->table);
    if (!c->host[0] || !memchr(c->host, 0, sizeof c->host))
        return base_error_set(err, "broker: missing host name");
    if (c->port < 1 || c->port > 65535)
        return base_error_set(err, "broker port %d: expected 1..65535", c->port);
    if (c->keepalive_s < 5 || c->keepalive_s > 3600)
        return base_error_set(err, "keepalive %d s: expected 5..3600", c->keepalive_s);
    if (c->heartbeat_s < 1 || c->heartbeat_s > 3600)
        return base_error_set(err, "heartbeat %d s: expected 1..3600", c->heartbeat_s);
    if (c->queue_max < 1 || c->inflight_max < 1 || c->inflight_max > 65535 ||
        c->reconnect_max_ms < VENUE_BACKOFF_MIN_MS)
        return base_error_set(err, "queue_max >= 1, inflight_max 1..65535 and reconnect_max_ms >= %d expected",
                               VENUE_BACKOFF_MIN_MS);
    if (c->picture_width < 16 || c->picture_quality < 1 || c->picture_quality > 100)
        return base_error_set(err, "picture: width >= 16 and quality 1..100 expected");
    if (c->password && !c->username)
        return base_error_set(err, "broker: a password needs a user name");
    return 0;
}

/* ---- life cycle ---- */

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
    mosquitto_lib_init();
}

static int topics(venue_feed *f)
{
    char base[200];
    if (venue_topic(base, sizeof base, f->event, f->table, NULL) < 0)
        return -1;
    snprintf(f->t_status, sizeof f->t_status, "%s/status", base);
    snprintf(f->t_state, sizeof f->t_state, "%s/state", base);
    snprintf(f->t_picture, sizeof f->t_picture, "%s/picture", base);
    snprintf(f->t_event, sizeof f->t_event, "%s/event/", base);
    snprintf(f->t_call, sizeof f->t_call, "%s/call/", base);
    snprintf(f->t_command_sub, sizeof f->t_command_sub, "%s/command/+", base);
    return 0;
}

static int setup_client(venue_feed *f, base_error *err)
{
    pthread_once(&lib_once, lib_init);
    f->mosq = mosquitto_new(f->client_id, true, f);
    if (!f->mosq)
        return base_error_set(err, "venue feed: cannot create the MQTT client: %s", strerror(errno));
    mosquitto_threaded_set(f->mosq, true);
    /* MQTT 5: its "retain as published" lets the table see that a command was published retained even when it
     * arrives live (3.1.1 clears the flag then), so that no retained command is ever applied. */
    mosquitto_int_option(f->mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    /* Small messages must not wait for Nagle's algorithm: an alert is a few hundred bytes. */
    mosquitto_int_option(f->mosq, MOSQ_OPT_TCP_NODELAY, 1);
    mosquitto_max_inflight_messages_set(f->mosq, (unsigned)f->inflight_max);
    if (f->username && mosquitto_username_pw_set(f->mosq, f->username, f->password) != MOSQ_ERR_SUCCESS)
        return base_error_set(err, "venue feed: cannot set the user name");
    int rc = venue_feed_set_will(f);
    if (rc != MOSQ_ERR_SUCCESS)
        return base_error_set(err, "venue feed: cannot set the last will: %s", mosquitto_strerror(rc));
    venue_feed_install_callbacks(f);
    return 0;
}

static int start_threads(venue_feed *f, base_error *err)
{
    int rc = pthread_create(&f->net_thread, NULL, venue_feed_net_main, f);
    if (rc == 0)
        f->net_running = true;
    if (rc == 0 && (rc = pthread_create(&f->send_thread, NULL, venue_feed_send_main, f)) == 0)
        f->send_running = true;
    return rc == 0 ? 0 : base_error_set(err, "venue feed: cannot start a thread: %s", strerror(rc));
}

venue_feed *venue_feed_new(const venue_config *cfg, base_error *err)
{
    if (check_config(cfg, err) < 0)
        return NULL;
    venue_feed *f = calloc(1, sizeof *f);
    if (!f) {
        base_error_set(err, "venue feed: out of memory");
        return NULL;
    }
    pthread_mutex_init(&f->mu, NULL);
    pthread_mutex_init(&f->state_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&f->cv, &ca);
    pthread_condattr_destroy(&ca);
    atomic_init(&f->stop_net, false);
    snprintf(f->host, sizeof f->host, "%s", cfg->host);
    snprintf(f->event, sizeof f->event, "%s", cfg->event);
    f->port = cfg->port;
    f->table = cfg->table;
    f->keepalive_s = cfg->keepalive_s;
    f->heartbeat_s = cfg->heartbeat_s;
    f->inflight_max = cfg->inflight_max;
    f->reconnect_max_ms = cfg->reconnect_max_ms;
    f->picture_width = cfg->picture_width;
    f->picture_quality = cfg->picture_quality;
    f->on_command = cfg->on_command;
    f->on_command_ctx = cfg->on_command_ctx;
    /* A secret per run: nobody can take this table's session by naming its client id, nor unhook it (docs/venue.md). */
    char secret[40];
    if (venue_random_hex(secret, 8) < 0 || venue_random_hex(f->run, 4) < 0) {
        base_error_set(err, "venue feed: no random bytes from the kernel");
        venue_feed_free(f);
        return NULL;
    }
    if (cfg->client_id)
        snprintf(f->client_id, sizeof f->client_id, "%s", cfg->client_id);
    else
        snprintf(f->client_id, sizeof f->client_id, "tableref-%s-table-%d-%s", f->event, f->table, secret);
    f->username = cfg->username ? strdup(cfg->username) : NULL;
    f->password = cfg->password ? strdup(cfg->password) : NULL;
    venue_state_init(&f->table_state, f->event, f->table);
    snprintf(f->table_state.run, sizeof f->table_state.run, "%s", f->run);
    f->online = true;
    char *status = venue_status_payload(f->event, f->table, true, "connected", "the table's watch is running", false);
    if ((cfg->username && !f->username) || (cfg->password && !f->password) || !status ||
        venue_queue_init(&f->queue, cfg->queue_max) < 0) {
        free(status);
        base_error_set(err, "venue feed: out of memory");
        venue_feed_free(f);
        return NULL;
    }
    venue_slot_set(f, &f->status, status, strlen(status));
    if (topics(f) < 0 || setup_client(f, err) < 0 || start_threads(f, err) < 0) {
        if (!err || !err->msg[0])
            base_error_set(err, "venue feed: cannot start");
        venue_feed_free(f);
        return NULL;
    }
    return f;
}

/* Waits until nothing is waiting or in flight, the connection is gone, or timeout_ms passed; under mu. */
static void wait_drained(venue_feed *f, int timeout_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (f->connected && f->send_running &&
           (f->queue.count || f->outstanding || f->status.pending || f->state.pending || f->picture.pending ||
            f->picture_raw_pending))
        if (pthread_cond_timedwait(&f->cv, &f->mu, &until) == ETIMEDOUT)
            break;
}

size_t venue_feed_flush(venue_feed *f, int timeout_ms)
{
    pthread_mutex_lock(&f->mu);
    wait_drained(f, timeout_ms);
    size_t left = f->queue.count + (size_t)f->outstanding;
    pthread_mutex_unlock(&f->mu);
    return left;
}

static void stop_threads(venue_feed *f)
{
    if (f->send_running) {
        pthread_mutex_lock(&f->mu);
        f->stop_send = true;
        pthread_cond_broadcast(&f->cv);
        pthread_mutex_unlock(&f->mu);
        pthread_join(f->send_thread, NULL);
        f->send_running = false;
    }
    if (f->net_running) {
        /* A clean DISCONNECT: the broker then keeps our "offline, stopped" rather than the will. */
        if (mosquitto_disconnect(f->mosq) == MOSQ_ERR_SUCCESS) {
            pthread_mutex_lock(&f->mu);
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_sec += 1;
            while (f->connected && pthread_cond_timedwait(&f->cv, &f->mu, &until) != ETIMEDOUT) {
            }
            pthread_mutex_unlock(&f->mu);
        }
        atomic_store(&f->stop_net, true);
        pthread_join(f->net_thread, NULL);
        f->net_running = false;
    }
}

void venue_feed_free(venue_feed *f)
{
    if (!f)
        return;
    if (f->send_running && f->online)
        venue_feed_set_status(f, false, "stopped", "the table's watch stopped", NULL);
    if (f->send_running) {
        pthread_mutex_lock(&f->mu);
        wait_drained(f, 1000);
        pthread_mutex_unlock(&f->mu);
    }
    stop_threads(f);
    if (f->mosq)
        mosquitto_destroy(f->mosq);
    venue_queue_free(&f->queue);
    venue_slot *slots[] = {&f->status, &f->state, &f->picture};
    for (size_t i = 0; i < 3; i++)
        free(slots[i]->payload);
    venue_picture_clear(&f->picture_raw);
    for (size_t i = 0; i < f->cmd_count; i++)
        free(f->commands[(f->cmd_head + i) % VENUE_COMMAND_RING].payload);
    venue_state_clear(&f->table_state);
    free(f->username);
    free(f->password);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    pthread_mutex_destroy(&f->state_mu);
    free(f);
}

/* ---- publishing (the caller's thread) ---- */

int venue_feed_set_status(venue_feed *f, bool online, const char *cause, const char *reason, base_error *err)
{
    char *text = venue_status_payload(f->event, f->table, online, cause, reason, false);
    if (!text)
        return base_error_set(err, "venue feed: out of memory");
    pthread_mutex_lock(&f->mu);
    f->online = online;
    venue_slot_set(f, &f->status, text, strlen(text));
    pthread_mutex_unlock(&f->mu);
    return 0;
}

/* An event kind becomes a topic level: keep it to plain words. */
static bool kind_is_word(const char *k)
{
    if (!*k || strlen(k) > 40)
        return false;
    for (; *k; k++)
        if (!((*k >= 'a' && *k <= 'z') || *k == '_'))
            return false;
    return true;
}

static void follow_status(venue_feed *f, const char *kind, const cJSON *ev)
{
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(ev, "reason");
    const char *reason = cJSON_IsString(why) ? why->valuestring : "";
    char text[300];
    if (strcmp(kind, "started") == 0) {
        venue_feed_set_status(f, true, "watching", "the table's watch is running", NULL);
        /* The last session's picture no longer describes this table. */
        pthread_mutex_lock(&f->mu);
        venue_slot_set(f, &f->picture, NULL, 0);
        pthread_mutex_unlock(&f->mu);
    } else if (strcmp(kind, "camera_lost") == 0) {
        snprintf(text, sizeof text, "camera lost: %s", reason);
        venue_feed_set_status(f, false, "camera", text, NULL);
    } else if (strcmp(kind, "stopped") == 0) {
        snprintf(text, sizeof text, "watch stopped: %s", reason);
        venue_feed_set_status(f, false, "stopped", text, NULL);
    }
}

/* A call a judge must see: never dropped before anything else, numbered, and kept retained to be fetched. */
static bool is_call(const char *kind)
{
    return strcmp(kind, "move_checked") == 0 || strcmp(kind, "alert") == 0 || strcmp(kind, "correction") == 0;
}

/* The event as published (numbered when a call) into *m; -1 when out of memory. */
static int event_message(venue_feed *f, const cJSON *ev, const char *kind, long call_no, venue_msg *m)
{
    cJSON *copy = venue_event_for_feed(ev, f->table);
    if (copy && call_no > 0) {
        cJSON_AddNumberToObject(copy, "call_no", (double)call_no);
        cJSON_AddStringToObject(copy, "run", f->run);
    }
    char *text = copy ? base_json_print(copy, false) : NULL;
    cJSON_Delete(copy);
    memset(m, 0, sizeof *m);
    size_t tn = strlen(f->t_event) + strlen(kind) + 1, cn = strlen(f->t_call) + 24;
    m->topic = malloc(tn);
    m->copy_topic = call_no > 0 ? malloc(cn) : NULL;
    m->payload = text;
    if (!text || !m->topic || (call_no > 0 && !m->copy_topic)) {
        venue_msg_clear(m);
        return -1;
    }
    snprintf(m->topic, tn, "%s%s", f->t_event, kind);
    if (m->copy_topic)
        snprintf(m->copy_topic, cn, "%s%ld", f->t_call, call_no);
    m->len = strlen(text);
    m->qos = 1;
    m->precious = call_no > 0;
    return 0;
}

int venue_feed_publish(venue_feed *f, const cJSON *ev, base_error *err)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(ev, "event");
    if (!cJSON_IsString(kind) || !kind_is_word(kind->valuestring))
        return base_error_set(err, "venue feed: an event needs an \"event\" member of lower-case letters and '_'");
    const char *k = kind->valuestring;
    long call_no = is_call(k) ? f->call_no + 1 : 0;
    venue_msg m;
    if (event_message(f, ev, k, call_no, &m) < 0)
        return base_error_set(err, "venue feed: out of memory");
    if (call_no > 0)
        f->call_no = call_no;
    pthread_mutex_lock(&f->mu);
    f->stats.dropped += venue_queue_push(&f->queue, &m);
    f->stats.dropped_alerts = f->queue.dropped_precious;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);

    follow_status(f, k, ev);
    pthread_mutex_lock(&f->state_mu);
    int changed = venue_state_apply(&f->table_state, ev);
    if (changed >= 0 && call_no > 0)
        venue_state_number_call(&f->table_state, k, call_no, f->run);
    if (changed > 0)
        venue_feed_publish_state_locked(f);
    pthread_mutex_unlock(&f->state_mu);
    return changed < 0 ? base_error_set(err, "venue feed: out of memory") : 0;
}

void venue_feed_sink_event(void *feed, const cJSON *ev)
{
    venue_feed *f = feed;
    if (venue_feed_publish(f, ev, NULL) < 0) {
        pthread_mutex_lock(&f->mu);
        f->stats.unpublishable++;
        pthread_mutex_unlock(&f->mu);
    }
}

static int picture_described(venue_feed *f, int move, int w, int h, base_error *err)
{
    pthread_mutex_lock(&f->state_mu);
    int rc = venue_state_set_picture(&f->table_state, move, w, h);
    if (rc == 0)
        venue_feed_publish_state_locked(f);
    pthread_mutex_unlock(&f->state_mu);
    return rc < 0 ? base_error_set(err, "venue feed: out of memory") : 0;
}

int venue_feed_set_picture(venue_feed *f, const venue_image *img, int move, base_error *err)
{
    venue_picture pic;
    if (venue_picture_shrink(img, f->picture_width, &pic, err) < 0)
        return -1;
    int w = pic.width, h = pic.height;
    pthread_mutex_lock(&f->mu);
    venue_picture_clear(&f->picture_raw);
    f->picture_raw = pic;
    f->picture_raw_pending = true;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
    return picture_described(f, move, w, h, err);
}

int venue_feed_set_picture_jpeg(venue_feed *f, const uint8_t *jpeg, size_t n, int move, base_error *err)
{
    int w, h;
    if (venue_jpeg_size(jpeg, n, &w, &h, err) < 0)
        return -1;
    char *copy = venue_dup_bytes(jpeg, n);
    if (!copy)
        return base_error_set(err, "venue feed: out of memory");
    pthread_mutex_lock(&f->mu);
    venue_picture_clear(&f->picture_raw);
    f->picture_raw_pending = false;
    venue_slot_set(f, &f->picture, copy, n);
    pthread_mutex_unlock(&f->mu);
    return picture_described(f, move, w, h, err);
}

/* ---- commands and counters ---- */

int venue_feed_poll_command(venue_feed *f, venue_command *out)
{
    for (;;) {
        pthread_mutex_lock(&f->mu);
        if (f->cmd_count == 0) {
            pthread_mutex_unlock(&f->mu);
            return 0;
        }
        venue_raw_command raw = f->commands[f->cmd_head];
        f->cmd_head = (f->cmd_head + 1) % VENUE_COMMAND_RING;
        f->cmd_count--;
        pthread_mutex_unlock(&f->mu);
        bool take = venue_feed_take_command(f, &raw, out);
        free(raw.payload);
        if (take)
            return 1;
    }
}

const char *venue_feed_client_id(const venue_feed *f) { return f->client_id; }

void venue_feed_stats(venue_feed *f, venue_stats *out)
{
    pthread_mutex_lock(&f->mu);
    *out = f->stats;
    out->connected = f->connected;
    out->queued = f->queue.count;
    out->inflight = (size_t)f->outstanding;
    out->retained_pending = f->status.pending || f->state.pending || f->picture.pending || f->picture_raw_pending;
    pthread_mutex_unlock(&f->mu);
}
