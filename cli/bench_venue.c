/*
 * tableref bench venue: how many tables one Mosquitto broker carries.
 *
 * N simulated tables (default 100), each its own venue_feed (own connection
 * and threads, as each table is its own watch process at a venue), settle
 * every --settle-s seconds (+-50 %, random phase). Each settle publishes what
 * the watch loop would: a settled event, a call (move_checked, ~1.5 kB), the
 * retained state and the overlay picture (a 1280x960 frame shrunk to 640 px
 * and JPEG-encoded by the feed), and for one call in five an alert.
 * --subscribers judge pages (default 2) take everything at QoS 1.
 *
 * Measured: publish-call time on the "camera loop" (never blocking), the
 * latency from the publish call to each subscriber for alerts and calls,
 * every alert accounted for (lost = published but never received by a
 * subscriber), messages and bytes per second, the broker's CPU. The broker
 * is started on loopback unless --broker HOST:PORT names one. Bounded by
 * --seconds. Prints figures; not a test (tests/test_venue_load.c runs a short
 * one and checks that no alert is lost).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "cli_args.h"
#include "commands.h"
#include "bench_venue_setup.h"
#include "venue_broker.h"
#include "venue_feed.h"

#define EVENT "bench"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void sleep_ms(int ms)
{
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A growing list of samples. */
typedef struct samples {
    double *v;
    size_t n, cap;
} samples;

static void add_sample(samples *s, double x)
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

static double pct(samples *s, double p)
{
    if (!s->n)
        return NAN;
    qsort(s->v, s->n, sizeof *s->v, cmp_d);
    size_t i = (size_t)ceil(p / 100.0 * (double)s->n);
    return s->v[i ? i - 1 : 0];
}

/* ---- the subscribers (judge pages) ---- */

typedef struct judge {
    struct mosquitto *mosq;
    pthread_mutex_t mu;
    int tables, max_alerts;
    unsigned char *alert_seen;   /* tables x max_alerts: how often each alert arrived */
    samples alert_ms, call_ms;
    long messages, bytes, duplicates;
    bool subscribed;
} judge;

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

static void on_judge_message(struct mosquitto *m, void *obj, const struct mosquitto_message *msg)
{
    (void)m;
    judge *j = obj;
    double t = now_us();
    const char *kind = strstr(msg->topic, "/event/");
    int table = 0;
    sscanf(msg->topic, "tableref/" EVENT "/table/%d/", &table);
    pthread_mutex_lock(&j->mu);
    j->messages++;
    j->bytes += msg->payloadlen;
    if (kind && msg->payloadlen > 0 && table >= 1 && table <= j->tables) {
        /* A NUL-terminated copy is not needed: json_number stays within payloadlen. */
        const char *text = msg->payload;
        double sent = json_number(text, (size_t)msg->payloadlen, "sent_us");
        if (strcmp(kind, "/event/alert") == 0) {
            int n = (int)json_number(text, (size_t)msg->payloadlen, "alert_no");
            if (n >= 1 && n <= j->max_alerts) {
                unsigned char *seen = &j->alert_seen[(size_t)(table - 1) * (size_t)j->max_alerts + (size_t)(n - 1)];
                if (*seen)
                    j->duplicates++;
                else if (isfinite(sent))
                    add_sample(&j->alert_ms, (t - sent) / 1000.0);
                if (*seen < 255)
                    (*seen)++;
            }
        } else if (strcmp(kind, "/event/move_checked") == 0 && isfinite(sent)) {
            add_sample(&j->call_ms, (t - sent) / 1000.0);
        }
    }
    pthread_mutex_unlock(&j->mu);
}

static void on_judge_subscribe(struct mosquitto *m, void *obj, int mid, int n, const int *granted)
{
    (void)m, (void)mid, (void)n, (void)granted;
    judge *j = obj;
    pthread_mutex_lock(&j->mu);
    j->subscribed = true;
    pthread_mutex_unlock(&j->mu);
}

static void on_judge_connect(struct mosquitto *m, void *obj, int rc)
{
    (void)obj;
    if (rc == 0)
        mosquitto_subscribe(m, NULL, "tableref/" EVENT "/#", 1);
}

static int judge_start(judge *j, const char *host, int port, int tables, int max_alerts, const char *user,
                       const char *password)
{
    memset(j, 0, sizeof *j);
    pthread_mutex_init(&j->mu, NULL);
    j->tables = tables;
    j->max_alerts = max_alerts;
    j->alert_seen = calloc((size_t)tables * (size_t)max_alerts, 1);
    j->mosq = mosquitto_new(NULL, true, j);
    if (!j->alert_seen || !j->mosq)
        return -1;
    mosquitto_connect_callback_set(j->mosq, on_judge_connect);
    mosquitto_subscribe_callback_set(j->mosq, on_judge_subscribe);
    mosquitto_message_callback_set(j->mosq, on_judge_message);
    mosquitto_int_option(j->mosq, MOSQ_OPT_TCP_NODELAY, 1);
    if (user && mosquitto_username_pw_set(j->mosq, user, password) != MOSQ_ERR_SUCCESS)
        return -1;
    if (mosquitto_connect(j->mosq, host, port, 30) != MOSQ_ERR_SUCCESS || mosquitto_loop_start(j->mosq) != 0)
        return -1;
    for (int i = 0; i < 300; i++) {
        pthread_mutex_lock(&j->mu);
        bool ok = j->subscribed;
        pthread_mutex_unlock(&j->mu);
        if (ok)
            return 0;
        sleep_ms(10);
    }
    return -1;
}

static void judge_stop(judge *j)
{
    if (j->mosq) {
        mosquitto_disconnect(j->mosq);
        mosquitto_loop_stop(j->mosq, false);
        mosquitto_destroy(j->mosq);
    }
    free(j->alert_seen);
    free(j->alert_ms.v);
    free(j->call_ms.v);
    pthread_mutex_destroy(&j->mu);
}

/* Alerts published but never received. */
static long judge_missing(judge *j, const int *alerts_per_table)
{
    long missing = 0;
    pthread_mutex_lock(&j->mu);
    for (int t = 0; t < j->tables; t++)
        for (int n = 0; n < alerts_per_table[t]; n++)
            missing += !j->alert_seen[(size_t)t * (size_t)j->max_alerts + (size_t)n];
    pthread_mutex_unlock(&j->mu);
    return missing;
}

/* ---- the tables ---- */

typedef struct table {
    venue_feed *feed;
    double next_us;
    long seq;
    int move, alerts;
} table;

typedef struct bench_cfg {
    int tables, subscribers, seconds;
    int accounts; /* the broker from `tableref venue setup`: one account per table, judges judge-1..K */
    double settle_s, illegal_share;
} bench_cfg;

/* A frame with the texture of a camera picture (smooth shading, edges, grain), for realistic JPEG sizes. */
static uint8_t *camera_like_frame(int w, int h)
{
    uint8_t *px = malloc((size_t)w * (size_t)h * 3);
    if (!px)
        return NULL;
    uint32_t r = 12345;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            r = r * 1103515245u + 12345u;
            int grain = (int)((r >> 16) & 15) - 8;
            int base = 110 + (int)(40 * sin(x / 90.0) * cos(y / 70.0)) + (((x / 37) ^ (y / 29)) % 7 == 0 ? 60 : 0);
            for (int c = 0; c < 3; c++) {
                int v = base + grain + c * 6;
                px[((size_t)y * (size_t)w + (size_t)x) * 3 + (size_t)c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    return px;
}

static cJSON *event_new(table *t, const char *kind, int n)
{
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddNumberToObject(ev, "seq", (double)++t->seq);
    cJSON_AddStringToObject(ev, "event", kind);
    cJSON_AddNumberToObject(ev, "t_ms", (double)t->seq * 1000.0);
    cJSON_AddNumberToObject(ev, "frame", (double)t->seq * 30);
    cJSON_AddStringToObject(ev, "wall", "2026-11-22T10:00:00.000Z");
    cJSON_AddNumberToObject(ev, "table", n);
    return ev;
}

/* A call like the watch log's: three units with verdicts, sentences and distances (about 1.5 kB). */
static cJSON *call_event(table *t, int n, bool illegal)
{
    cJSON *ev = event_new(t, "move_checked", n);
    cJSON_AddNumberToObject(ev, "move", ++t->move);
    cJSON_AddBoolToObject(ev, "legal", !illegal);
    cJSON *units = cJSON_AddArrayToObject(ev, "units");
    static const char *names[] = {"spears", "knights", "archers"};
    for (int i = 0; i < 3; i++) {
        cJSON *u = cJSON_CreateObject();
        cJSON_AddStringToObject(u, "unit", names[i]);
        cJSON_AddStringToObject(u, "side", i == 2 ? "blue" : "red");
        cJSON_AddStringToObject(u, "move", "march");
        bool bad = illegal && i == 0;
        cJSON_AddBoolToObject(u, "legal", !bad);
        cJSON_AddStringToObject(u, "verdict", bad ? "illegal" : "legal");
        cJSON *codes = cJSON_AddArrayToObject(u, "codes");
        if (bad)
            cJSON_AddItemToArray(codes, cJSON_CreateString("MU-MODEL-DIST"));
        cJSON_AddStringToObject(u, "sentence", bad ? "spears: march, ILLEGAL: Model spears-7 ends 10.38\" from where it "
                                                     "started, farther than its March Rate of 10.00\"."
                                                   : "knights: march forward (forward 7.12\", wheel 0.62\" about the "
                                                     "left front corner (12.0 deg left)), legal.");
        cJSON *d = cJSON_AddObjectToObject(u, "distance");
        cJSON_AddNumberToObject(d, "path_in", 7.23);
        cJSON_AddNumberToObject(d, "rate_in", 10);
        cJSON_AddNumberToObject(d, "farthest_in", bad ? 10.38 : 9.12);
        cJSON_AddStringToObject(d, "farthest_model", "spears-7");
        cJSON_AddItemToArray(units, u);
    }
    return ev;
}

static samples g_publish_ms, g_picture_ms;

static void publish_timed(venue_feed *f, cJSON *ev)
{
    cJSON_AddNumberToObject(ev, "sent_us", now_us());
    double t0 = now_us();
    base_error err;
    if (venue_feed_publish(f, ev, &err) < 0)
        fprintf(stderr, "bench venue: %s\n", err.msg);
    add_sample(&g_publish_ms, (now_us() - t0) / 1000.0);
    cJSON_Delete(ev);
}

/* One settle of table i: what the watch loop publishes after a settle with a call. */
static void settle(table *t, int n, const venue_image *frame, const bench_cfg *c, uint32_t *rng)
{
    publish_timed(t->feed, event_new(t, "settled", n));
    *rng = *rng * 1103515245u + 12345u;
    bool illegal = (double)((*rng >> 8) % 1000) < c->illegal_share * 1000.0;
    publish_timed(t->feed, call_event(t, n, illegal));
    if (illegal) {
        cJSON *a = event_new(t, "alert", n);
        cJSON_AddNumberToObject(a, "move", t->move);
        cJSON_AddNumberToObject(a, "alert_no", ++t->alerts);
        cJSON_AddStringToObject(a, "unit", "spears");
        publish_timed(t->feed, a);
    }
    double t0 = now_us();
    base_error err;
    if (venue_feed_set_picture(t->feed, frame, t->move, &err) < 0)
        fprintf(stderr, "bench venue: %s\n", err.msg);
    add_sample(&g_picture_ms, (now_us() - t0) / 1000.0);
}

static double proc_cpu_s(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return NAN;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return NAN;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static const cli_doc doc = {
    "bench venue",
    "usage: tableref bench venue [--tables N] [--seconds S] [--settle-s S] [--subscribers K]\n"
    "                            [--illegal-share F] [--broker HOST[:PORT]] [--accounts]\n\n"
    "N tables (100) each settle every S seconds (5, +-50 %) for S seconds (30) through one\n"
    "Mosquitto broker (started on loopback unless --broker), K judge pages (2) taking\n"
    "everything at QoS 1; a share F (0.2) of the calls are illegal and raise an alert.\n\n",
    NULL,
};

/* The options into *c and *broker: cli_parse's answer. */
static int parse(int argc, char **argv, bench_cfg *c, const char **broker)
{
    double tables = c->tables, seconds = c->seconds, subs = c->subscribers;
    const cli_opt opts[] = {
        CLI_WHOLE("--tables", &tables, "N", 1, 1000, "tables (100)"),
        CLI_NUMBER("--seconds", &seconds, "S", 1, 3600, "how long the run lasts (30)"),
        CLI_NUMBER("--settle-s", &c->settle_s, "S", 0.2, 3600, "each table settles every S seconds (5, +-50 %)"),
        CLI_WHOLE("--subscribers", &subs, "K", 1, 50, "judge pages taking everything at QoS 1 (2)"),
        CLI_NUMBER("--illegal-share", &c->illegal_share, "F", 0, 1, "the share of illegal calls (0.2)"),
        CLI_STRING("--broker", broker, "HOST[:PORT]", "a running broker (default: one started on loopback)"),
        CLI_FLAG("--accounts", &c->accounts, 1,
                 "the broker from `tableref venue setup` (one account per table, the\n"
                 "judges' accounts for the subscribers, client ids bound to accounts)"),
    };
    int r = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (r < 0)
        return r;
    c->tables = (int)tables;
    c->seconds = (int)seconds;
    c->subscribers = (int)subs;
    return 0;
}

/* Waits until every subscriber has every alert, or `ms` passed. */
static void wait_alerts(judge *judges, int n, const int *alerts, int ms)
{
    for (int waited = 0; waited < ms; waited += 50) {
        long missing = 0;
        for (int k = 0; k < n; k++)
            missing += judge_missing(&judges[k], alerts);
        if (!missing)
            return;
        sleep_ms(50);
    }
}

static void print_latency(const char *what, samples *s)
{
    printf("  %-22s n=%zu p50=%.1f p95=%.1f p99=%.1f max=%.1f ms\n", what, s->n, pct(s, 50), pct(s, 95), pct(s, 99),
           pct(s, 100));
}

typedef struct run {
    table *tables;
    judge *judges;
    int *alerts;
    venue_broker broker;
    bool own_broker;
    char setup_dir[512]; /* --accounts: the set-up's folder */
    uint8_t *frame;
} run;

static int start(run *r, const bench_cfg *c, const char *broker, venue_config *cfg)
{
    base_error err;
    venue_config_default(cfg);
    cfg->event = EVENT;
    if (broker) {
        if (venue_parse_broker(broker, cfg, &err) < 0) {
            fprintf(stderr, "bench venue: %s\n", err.msg);
            return -1;
        }
    } else if (c->accounts) {
        r->own_broker = true;
        if (bench_setup_start(c->tables, c->subscribers, &r->broker, r->setup_dir, sizeof r->setup_dir) < 0)
            return -1;
        cfg->port = r->broker.port;
    } else {
        venue_broker_options o;
        venue_broker_options_default(&o);
        if (venue_broker_start(&o, &r->broker, &err) < 0) {
            fprintf(stderr, "bench venue: %s\n", err.msg);
            return -1;
        }
        r->own_broker = true;
        cfg->port = r->broker.port;
    }
    int max_alerts = (int)(c->seconds / (0.5 * c->settle_s)) + 4;
    r->judges = calloc((size_t)c->subscribers, sizeof *r->judges);
    r->tables = calloc((size_t)c->tables, sizeof *r->tables);
    r->alerts = calloc((size_t)c->tables, sizeof *r->alerts);
    r->frame = camera_like_frame(1280, 960);
    if (!r->judges || !r->tables || !r->alerts || !r->frame)
        return -1;
    mosquitto_lib_init();
    for (int k = 0; k < c->subscribers; k++) {
        char user[32], password[64] = "";
        snprintf(user, sizeof user, "judge-%d", k + 1);
        if (c->accounts && bench_setup_password(r->setup_dir, user, password, sizeof password) < 0)
            return -1;
        if (judge_start(&r->judges[k], cfg->host, cfg->port, c->tables, max_alerts, c->accounts ? user : NULL,
                        password) < 0) {
            fprintf(stderr, "bench venue: a subscriber could not connect to %s:%d\n", cfg->host, cfg->port);
            return -1;
        }
    }
    return 0;
}

static void stop(run *r, const bench_cfg *c)
{
    for (int i = 0; r->tables && i < c->tables; i++)
        venue_feed_free(r->tables[i].feed);
    for (int k = 0; r->judges && k < c->subscribers; k++)
        judge_stop(&r->judges[k]);
    if (r->own_broker)
        venue_broker_stop(&r->broker);
    if (r->setup_dir[0])
        bench_setup_remove(r->setup_dir);
    free(r->tables);
    free(r->judges);
    free(r->alerts);
    free(r->frame);
}

/* Every table settles on its own rhythm until the time is up. */
static void play(run *r, const bench_cfg *c)
{
    venue_image frame = {r->frame, 1280, 960, 1280 * 3, VENUE_PIX_RGB24};
    uint32_t rng = 2026;
    double t0 = now_us(), end = t0 + c->seconds * 1e6;
    for (int i = 0; i < c->tables; i++) {
        rng = rng * 1103515245u + 12345u;
        r->tables[i].next_us = t0 + (double)(rng >> 8) / (double)(1u << 24) * c->settle_s * 1e6;
    }
    while (now_us() < end) {
        for (int i = 0; i < c->tables; i++) {
            table *t = &r->tables[i];
            if (now_us() < t->next_us)
                continue;
            settle(t, i + 1, &frame, c, &rng);
            r->alerts[i] = t->alerts;
            rng = rng * 1103515245u + 12345u;
            t->next_us += c->settle_s * 1e6 * (0.5 + (double)(rng >> 8) / (double)(1u << 24));
        }
        sleep_ms(2);
    }
}

static void report(run *r, const bench_cfg *c, double cpu_s, double wall_s)
{
    long published = 0, acked = 0, dropped = 0, alerts = 0, missing = 0, dup = 0, msgs = 0, bytes = 0, settles = 0;
    for (int i = 0; i < c->tables; i++) {
        settles += r->tables[i].move;
        venue_stats st;
        venue_feed_stats(r->tables[i].feed, &st);
        published += st.published;
        acked += st.acknowledged;
        dropped += st.dropped;
        alerts += r->alerts[i];
    }
    samples all_alerts = {0}, all_calls = {0};
    for (int k = 0; k < c->subscribers; k++) {
        judge *j = &r->judges[k];
        missing += judge_missing(j, r->alerts);
        pthread_mutex_lock(&j->mu);
        dup += j->duplicates;
        msgs += j->messages;
        bytes += j->bytes;
        for (size_t i = 0; i < j->alert_ms.n; i++)
            add_sample(&all_alerts, j->alert_ms.v[i]);
        for (size_t i = 0; i < j->call_ms.n; i++)
            add_sample(&all_calls, j->call_ms.v[i]);
        pthread_mutex_unlock(&j->mu);
    }
    printf("venue: tables=%d seconds=%d settle_every_s=%.1f subscribers=%d illegal_share=%.2f accounts=%s\n", c->tables,
           c->seconds, c->settle_s, c->subscribers, c->illegal_share,
           c->accounts ? "per table (venue setup)" : "none");
    printf("settles: %ld (%.1f per second over all tables)\n", settles, (double)settles / c->seconds);
    printf("delivery: alerts_published=%ld lost_alerts=%ld duplicate_alerts=%ld messages_published=%ld "
           "acknowledged=%ld dropped_by_queue=%ld\n",
           alerts, missing, dup, published, acked, dropped);
    printf("load: in=%.0f msg/s out=%.0f msg/s (%.2f MB/s to subscribers) broker_cpu=%.1f%% of one core\n",
           (double)published / wall_s, (double)msgs / wall_s, (double)bytes / wall_s / 1e6,
           isfinite(cpu_s) ? 100.0 * cpu_s / wall_s : NAN);
    printf("latency (publish call -> subscriber, all subscribers):\n");
    print_latency("alert", &all_alerts);
    print_latency("call (move_checked)", &all_calls);
    printf("camera loop (time inside the feed's calls):\n");
    print_latency("venue_feed_publish", &g_publish_ms);
    print_latency("venue_feed_set_picture", &g_picture_ms);
    free(all_alerts.v);
    free(all_calls.v);
}

int bench_venue(int argc, char **argv)
{
    bench_cfg c = {.tables = 100, .subscribers = 2, .seconds = 30, .settle_s = 5.0, .illegal_share = 0.2};
    const char *broker = NULL;
    int r_parse = parse(argc, argv, &c, &broker);
    if (r_parse < 0)
        return cli_status(r_parse);
    run r = {0};
    venue_config cfg;
    int rc = start(&r, &c, broker, &cfg);
    for (int i = 0; rc == 0 && i < c.tables; i++) {
        cfg.table = i + 1;
        char user[32], password[64];
        snprintf(user, sizeof user, "table-%d", i + 1);
        if (c.accounts) {
            if (bench_setup_password(r.setup_dir, user, password, sizeof password) < 0) {
                rc = -1;
                break;
            }
            cfg.username = user, cfg.password = password;
        }
        base_error err;
        if (!(r.tables[i].feed = venue_feed_new(&cfg, &err))) {
            fprintf(stderr, "bench venue: %s\n", err.msg);
            rc = -1;
        }
    }
    if (rc == 0) {
        for (int i = 0; i < c.tables; i++)
            venue_feed_flush(r.tables[i].feed, 5000); /* connected and online before the clock starts */
        double cpu0 = r.own_broker ? proc_cpu_s(r.broker.pid) : NAN, w0 = now_us();
        play(&r, &c);
        for (int i = 0; i < c.tables; i++)
            venue_feed_flush(r.tables[i].feed, 10000);
        wait_alerts(r.judges, c.subscribers, r.alerts, 10000);
        double wall_s = (now_us() - w0) / 1e6;
        double cpu = r.own_broker ? proc_cpu_s(r.broker.pid) - cpu0 : NAN;
        report(&r, &c, cpu, wall_s);
    }
    stop(&r, &c);
    free(g_publish_ms.v);
    free(g_picture_ms.v);
    return rc == 0 ? 0 : EXIT_BAD_INPUT;
}
