/* bench_venue_judge: the bench's judge pages, fetching the calls they miss (bench_venue_judge.h). */
#include "bench_venue_judge.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mosquitto.h>

#define EVENT "bench"

double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void bench_sleep_ms(int ms)
{
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL);
}

void bench_samples_add(bench_samples *s, double x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        double *g = realloc(s->v, cap * sizeof *g);
        if (!g)
            return;
        s->v = g;
        s->cap = cap;
    }
    s->v[s->n++] = x;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_samples_pct(bench_samples *s, double p)
{
    if (!s->n)
        return NAN;
    qsort(s->v, s->n, sizeof *s->v, cmp_d);
    size_t i = (size_t)ceil(p / 100.0 * (double)s->n);
    return s->v[i ? i - 1 : 0];
}

struct bench_judge {
    struct mosquitto *mosq;
    pthread_mutex_t mu;
    int tables, max_alerts, max_calls;
    bool fetch, subscribed;
    unsigned char *alert_seen;  /* tables x max_alerts: how often each alert arrived (live or fetched) */
    unsigned char *call_state;  /* tables x max_calls: 1 received, 2 asked for */
    long *max_no;               /* per table: the highest call number known to exist */
    _Atomic double slow_ms;     /* each message's extra reading time */
    bench_samples alert_ms, call_ms;
    bench_judge_counts counts;
};

/* "key":NUMBER in a JSON text; NAN when absent. Enough for our own payloads. */
static double json_number(const char *text, size_t len, const char *key)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *end = text + len, *p = text;
    size_t pl = strlen(pat);
    for (; p + pl < end; p++)
        if (memcmp(p, pat, pl) == 0)
            return strtod(p + pl, NULL);
    return NAN;
}

/* Asks for table t's calls from..to it lacks (under mu). */
static void ask(bench_judge *j, int t, long from, long to)
{
    if (!j->fetch)
        return;
    for (long k = from < 1 ? 1 : from; k <= to && k <= j->max_calls; k++) {
        unsigned char *st = &j->call_state[(size_t)(t - 1) * (size_t)j->max_calls + (size_t)(k - 1)];
        if (*st)
            continue;
        *st = 2;
        char topic[128];
        snprintf(topic, sizeof topic, "tableref/" EVENT "/table/%d/call/%ld", t, k);
        mosquitto_subscribe(j->mosq, NULL, topic, 1);
        j->counts.fetches++;
    }
}

/* A numbered call received (live or fetched): noted; a gap before it asked for. */
static void note_call(bench_judge *j, int t, long no, bool fetched, const char *topic)
{
    if (no < 1 || no > j->max_calls)
        return;
    unsigned char *st = &j->call_state[(size_t)(t - 1) * (size_t)j->max_calls + (size_t)(no - 1)];
    if (fetched && *st == 2)
        mosquitto_unsubscribe(j->mosq, NULL, topic);
    *st = 1;
    if (no > j->max_no[t - 1] + 1)
        ask(j, t, j->max_no[t - 1] + 1, no - 1);
    if (no > j->max_no[t - 1])
        j->max_no[t - 1] = no;
}

static void note_alert(bench_judge *j, int t, const char *text, size_t len, bool fetched, double now)
{
    int n = (int)json_number(text, len, "alert_no");
    if (n < 1 || n > j->max_alerts)
        return;
    unsigned char *seen = &j->alert_seen[(size_t)(t - 1) * (size_t)j->max_alerts + (size_t)(n - 1)];
    double sent = json_number(text, len, "sent_us");
    if (*seen)
        j->counts.duplicates++;
    else if (fetched)
        j->counts.alerts_fetched++;
    else {
        j->counts.alerts_live++;
        if (isfinite(sent))
            bench_samples_add(&j->alert_ms, (now - sent) / 1000.0);
    }
    if (*seen < 255)
        (*seen)++;
}

static void on_message(struct mosquitto *m, void *obj, const struct mosquitto_message *msg)
{
    (void)m;
    bench_judge *j = obj;
    double now = bench_now_us();
    int t = 0;
    char leaf[32] = "";
    sscanf(msg->topic, "tableref/" EVENT "/table/%d/%31[^/]", &t, leaf);
    const char *text = msg->payload;
    size_t len = msg->payloadlen > 0 ? (size_t)msg->payloadlen : 0;
    pthread_mutex_lock(&j->mu);
    j->counts.messages++;
    j->counts.bytes += msg->payloadlen;
    bool fetched = strcmp(leaf, "call") == 0, event = strcmp(leaf, "event") == 0;
    if (t >= 1 && t <= j->tables && len > 0 && (fetched || event)) {
        double no = json_number(text, len, "call_no");
        if (isfinite(no))
            note_call(j, t, (long)no, fetched, msg->topic);
        if (strstr(msg->topic, "/event/alert") || (fetched && strstr(text, "\"event\":\"alert\"")))
            note_alert(j, t, text, len, fetched, now);
        else if (event && strstr(msg->topic, "/event/move_checked")) {
            double sent = json_number(text, len, "sent_us");
            if (isfinite(sent))
                bench_samples_add(&j->call_ms, (now - sent) / 1000.0);
        }
    } else if (t >= 1 && t <= j->tables && strcmp(leaf, "state") == 0 && len > 0) {
        double no = json_number(text, len, "call_no");
        if (isfinite(no) && (long)no > j->max_no[t - 1]) {
            ask(j, t, j->max_no[t - 1] + 1, (long)no);
            j->max_no[t - 1] = (long)no;
        }
    }
    pthread_mutex_unlock(&j->mu);
    double slow = atomic_load(&j->slow_ms);
    if (slow > 0)
        nanosleep(&(struct timespec){0, (long)(slow * 1e6)}, NULL);
}

void bench_judge_slow(bench_judge *j, double ms) { atomic_store(&j->slow_ms, ms); }

static void on_subscribe(struct mosquitto *m, void *obj, int mid, int n, const int *granted)
{
    (void)m, (void)mid, (void)n, (void)granted;
    bench_judge *j = obj;
    pthread_mutex_lock(&j->mu);
    j->subscribed = true;
    pthread_mutex_unlock(&j->mu);
}

/* Under mu: every call asked for and never answered is asked for again. */
static void ask_again(bench_judge *j)
{
    for (int t = 1; t <= j->tables; t++) {
        unsigned char *st = &j->call_state[(size_t)(t - 1) * (size_t)j->max_calls];
        for (long k = 0; k < j->max_no[t - 1] && k < j->max_calls; k++)
            if (st[k] == 2)
                st[k] = 0;
        ask(j, t, 1, j->max_no[t - 1]);
    }
}

/* What a judge's page takes (web/venue.js): the pictures at QoS 0, never queued for a slow page. On a
 * reconnection (bench_judge_sweep), every call still missing is asked for again. */
static void on_connect(struct mosquitto *m, void *obj, int rc)
{
    bench_judge *j = obj;
    if (rc != 0)
        return;
    static const char *const qos1[] = {"status", "state", "event/#"};
    for (int i = 0; i < 3; i++) {
        char topic[64];
        snprintf(topic, sizeof topic, "tableref/" EVENT "/table/+/%s", qos1[i]);
        mosquitto_subscribe(m, NULL, topic, 1);
    }
    mosquitto_subscribe(m, NULL, "tableref/" EVENT "/table/+/picture", 0);
    pthread_mutex_lock(&j->mu);
    ask_again(j);
    pthread_mutex_unlock(&j->mu);
}

bench_judge *bench_judge_start(const char *host, int port, int tables, int max_alerts, int max_calls,
                               const char *user, const char *password, bool fetch)
{
    bench_judge *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    pthread_mutex_init(&j->mu, NULL);
    j->tables = tables, j->max_alerts = max_alerts, j->max_calls = max_calls, j->fetch = fetch;
    j->alert_seen = calloc((size_t)tables * (size_t)max_alerts, 1);
    j->call_state = calloc((size_t)tables * (size_t)max_calls, 1);
    j->max_no = calloc((size_t)tables, sizeof *j->max_no);
    j->mosq = mosquitto_new(NULL, true, j);
    if (!j->alert_seen || !j->call_state || !j->max_no || !j->mosq)
        return bench_judge_stop(j), NULL;
    mosquitto_connect_callback_set(j->mosq, on_connect);
    mosquitto_subscribe_callback_set(j->mosq, on_subscribe);
    mosquitto_message_callback_set(j->mosq, on_message);
    mosquitto_int_option(j->mosq, MOSQ_OPT_TCP_NODELAY, 1);
    if ((user && mosquitto_username_pw_set(j->mosq, user, password) != MOSQ_ERR_SUCCESS) ||
        mosquitto_connect(j->mosq, host, port, 30) != MOSQ_ERR_SUCCESS || mosquitto_loop_start(j->mosq) != 0)
        return bench_judge_stop(j), NULL;
    for (int i = 0; i < 300; i++) {
        pthread_mutex_lock(&j->mu);
        bool ok = j->subscribed;
        pthread_mutex_unlock(&j->mu);
        if (ok)
            return j;
        bench_sleep_ms(10);
    }
    bench_judge_stop(j);
    return NULL;
}

/*
 * The calls every table numbered: each one this page lacks is asked for. One asked for before and never answered
 * means the broker stopped sending to this connection: Mosquitto 2.0.11, once a client's queue overflowed, may hold
 * what it then queues for it (fixed in 2.0.13: "various fixes around inflight quota management"), so the page
 * connects again, which starts its count afresh, and asks again (on_connect).
 */
void bench_judge_sweep(bench_judge *j, const long *calls_per_table)
{
    bool stale = false;
    pthread_mutex_lock(&j->mu);
    for (int t = 1; t <= j->tables; t++) {
        if (calls_per_table[t - 1] > j->max_no[t - 1])
            j->max_no[t - 1] = calls_per_table[t - 1];
        const unsigned char *st = &j->call_state[(size_t)(t - 1) * (size_t)j->max_calls];
        for (long k = 0; k < j->max_no[t - 1] && k < j->max_calls && !stale; k++)
            stale = st[k] == 2;
        if (!stale)
            ask(j, t, 1, j->max_no[t - 1]);
    }
    if (stale)
        j->counts.reconnects++;
    pthread_mutex_unlock(&j->mu);
    if (stale)
        mosquitto_reconnect(j->mosq);
}

long bench_judge_missing(bench_judge *j, const int *alerts_per_table)
{
    long missing = 0;
    pthread_mutex_lock(&j->mu);
    for (int t = 0; t < j->tables; t++)
        for (int n = 0; n < alerts_per_table[t] && n < j->max_alerts; n++)
            missing += !j->alert_seen[(size_t)t * (size_t)j->max_alerts + (size_t)n];
    pthread_mutex_unlock(&j->mu);
    return missing;
}

void bench_judge_get(bench_judge *j, bench_judge_counts *out, bench_samples *alert_ms, bench_samples *call_ms)
{
    pthread_mutex_lock(&j->mu);
    *out = j->counts;
    for (size_t i = 0; alert_ms && i < j->alert_ms.n; i++)
        bench_samples_add(alert_ms, j->alert_ms.v[i]);
    for (size_t i = 0; call_ms && i < j->call_ms.n; i++)
        bench_samples_add(call_ms, j->call_ms.v[i]);
    pthread_mutex_unlock(&j->mu);
}

void bench_judge_stop(bench_judge *j)
{
    if (!j)
        return;
    if (j->mosq) {
        mosquitto_disconnect(j->mosq);
        mosquitto_loop_stop(j->mosq, false);
        mosquitto_destroy(j->mosq);
    }
    free(j->alert_seen);
    free(j->call_state);
    free(j->max_no);
    free(j->alert_ms.v);
    free(j->call_ms.v);
    pthread_mutex_destroy(&j->mu);
    free(j);
}
