/*
 * tableref bench venue: how many tables one Mosquitto broker carries.
 *
 * N simulated tables (default 100; bench_venue_tables.h: each its own feed,
 * in worker processes, this program started again with --table-worker), settle every --settle-s seconds (+-50 %, random
 * phase), publishing what the watch loop would. --subscribers judge pages
 * (default 2; bench_venue_judge.h) take what a page takes and, as the page
 * does, fetch every numbered call they missed (--no-fetch: live only).
 *
 * Measured: publish-call time on the "camera loop" (never blocking), the
 * latency from the publish call to each subscriber for alerts and calls,
 * every alert accounted for (lost = published but never received by a
 * subscriber, live or fetched), messages and bytes per second, the broker's
 * CPU. The broker is started on loopback unless --broker HOST:PORT names
 * one; with --accounts it is the one `tableref venue setup` writes for this
 * many tables (its queue limits included). Bounded by --seconds. Prints
 * figures; not a test (tests/test_venue_load.c runs a short one and checks
 * that no alert is lost).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mosquitto.h>

#include "bench_venue_judge.h"
#include "bench_venue_setup.h"
#include "bench_venue_tables.h"
#include "cli_args.h"
#include "commands.h"
#include "venue_broker.h"
#include "venue_feed.h"

typedef struct bench_cfg {
    int tables, subscribers, seconds;
    int accounts; /* the broker from `tableref venue setup`: one account per table, judges judge-1..K */
    int no_fetch; /* the judges take what comes live only */
    double settle_s, illegal_share;
    double slow_ms; /* the judges read slowly while the tables play */
} bench_cfg;

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
    "                            [--illegal-share F] [--broker HOST[:PORT]] [--accounts] [--no-fetch]\n"
    "                            [--slow-ms MS]\n\n"
    "N tables (100) each settle every S seconds (5, +-50 %) for S seconds (30) through one\n"
    "Mosquitto broker (started on loopback unless --broker), K judge pages (2) taking what a\n"
    "page takes and fetching the calls they missed; a share F (0.2) of the calls are illegal\n"
    "and raise an alert.\n\n",
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
        CLI_WHOLE("--subscribers", &subs, "K", 1, 50, "judge pages (2)"),
        CLI_NUMBER("--illegal-share", &c->illegal_share, "F", 0, 1, "the share of illegal calls (0.2)"),
        CLI_STRING("--broker", broker, "HOST[:PORT]", "a running broker (default: one started on loopback)"),
        CLI_FLAG("--accounts", &c->accounts, 1,
                 "the broker from `tableref venue setup` for N tables (one account per table,\n"
                 "the judges' accounts for the subscribers, its queue limits)"),
        CLI_FLAG("--no-fetch", &c->no_fetch, 1, "the pages take what comes live only (no fetch of missed calls)"),
        CLI_NUMBER("--slow-ms", &c->slow_ms, "MS", 0, 1000,
                   "each page takes MS more to read each message while the tables play\n"
                   "(a tablet on weak Wi-Fi: the broker's queue for it overflows)"),
    };
    int r = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (r < 0)
        return r;
    c->tables = (int)tables;
    c->seconds = (int)seconds;
    c->subscribers = (int)subs;
    return 0;
}

typedef struct run {
    bench_tables *tables;
    bench_judge **judges;
    venue_broker broker;
    bool own_broker;
    char setup_dir[512]; /* --accounts: the set-up's folder */
} run;

/* The broker: named, from `tableref venue setup`, or an open one on loopback. */
static int start_broker(run *r, const bench_cfg *c, const char *broker, venue_config *cfg)
{
    base_error err;
    venue_config_default(cfg);
    cfg->event = "bench";
    if (broker) {
        if (venue_parse_broker(broker, cfg, &err) < 0) {
            fprintf(stderr, "bench venue: %s\n", err.msg);
            return -1;
        }
        return 0;
    }
    if (c->accounts) {
        if (bench_setup_start(c->tables, c->subscribers, &r->broker, r->setup_dir, sizeof r->setup_dir) < 0)
            return -1;
    } else {
        venue_broker_options o;
        venue_broker_options_default(&o);
        if (venue_broker_start(&o, &r->broker, &err) < 0) {
            fprintf(stderr, "bench venue: %s\n", err.msg);
            return -1;
        }
    }
    r->own_broker = true;
    cfg->port = r->broker.port;
    return 0;
}

static int start_judges(run *r, const bench_cfg *c, const venue_config *cfg)
{
    int max_settles = (int)(c->seconds / (0.5 * c->settle_s)) + 4;
    r->judges = calloc((size_t)c->subscribers, sizeof *r->judges);
    if (!r->judges)
        return -1;
    mosquitto_lib_init();
    for (int k = 0; k < c->subscribers; k++) {
        char user[32], password[64] = "";
        snprintf(user, sizeof user, "judge-%d", k + 1);
        if (c->accounts && bench_setup_password(r->setup_dir, user, password, sizeof password) < 0)
            return -1;
        r->judges[k] = bench_judge_start(cfg->host, cfg->port, c->tables, max_settles, 2 * max_settles,
                                         c->accounts ? user : NULL, password, !c->no_fetch);
        if (!r->judges[k]) {
            fprintf(stderr, "bench venue: a subscriber could not connect to %s:%d\n", cfg->host, cfg->port);
            return -1;
        }
        bench_judge_slow(r->judges[k], c->slow_ms);
    }
    return 0;
}

static void stop(run *r, const bench_cfg *c)
{
    bench_tables_free(r->tables);
    for (int k = 0; r->judges && k < c->subscribers; k++)
        bench_judge_stop(r->judges[k]);
    if (r->own_broker)
        venue_broker_stop(&r->broker);
    if (r->setup_dir[0])
        bench_setup_remove(r->setup_dir);
    free(r->judges);
}

/* Alerts not yet received by every judge, after each asked for every call it lacks. */
static long missing_now(run *r, const bench_cfg *c)
{
    long missing = 0;
    for (int k = 0; k < c->subscribers; k++)
        missing += bench_judge_missing(r->judges[k], r->tables->alerts);
    return missing;
}

/* Waits until every subscriber has every alert, or `ms` passed; every 5 s each asks again for what it lacks (a page
 * asks again after 10 s). Returns how long it took, in s. */
static double wait_alerts(run *r, const bench_cfg *c, int ms)
{
    double t0 = bench_now_us();
    for (int waited = 0; waited < ms && missing_now(r, c); waited += 50) {
        if (waited % 5000 == 0 && !c->no_fetch)
            for (int k = 0; k < c->subscribers; k++)
                bench_judge_sweep(r->judges[k], r->tables->calls);
        bench_sleep_ms(50);
    }
    return (bench_now_us() - t0) / 1e6;
}

static void print_latency(const char *what, bench_samples *s)
{
    printf("  %-22s n=%zu p50=%.1f p95=%.1f p99=%.1f max=%.1f ms\n", what, s->n, bench_samples_pct(s, 50),
           bench_samples_pct(s, 95), bench_samples_pct(s, 99), bench_samples_pct(s, 100));
}

static void report(run *r, const bench_cfg *c, double cpu_s, double wall_s)
{
    bench_tables *t = r->tables;
    long alerts = 0, lost = 0, live = 0, fetched = 0, fetches = 0, dup = 0, msgs = 0, bytes = 0, again = 0;
    for (int i = 0; i < c->tables; i++)
        alerts += t->alerts[i];
    bench_samples all_alerts = {0}, all_calls = {0};
    for (int k = 0; k < c->subscribers; k++) {
        bench_judge_counts jc;
        bench_judge_get(r->judges[k], &jc, &all_alerts, &all_calls);
        lost += bench_judge_missing(r->judges[k], t->alerts);
        live += jc.alerts_live, fetched += jc.alerts_fetched, fetches += jc.fetches, dup += jc.duplicates;
        again += jc.reconnects;
        msgs += jc.messages, bytes += jc.bytes;
    }
    printf("venue: tables=%d seconds=%d settle_every_s=%.1f subscribers=%d illegal_share=%.2f accounts=%s fetch=%s "
           "slow_ms=%.1f\n", c->tables, c->seconds, c->settle_s, c->subscribers, c->illegal_share,
           c->accounts ? "per table (venue setup)" : "none", c->no_fetch ? "off" : "on", c->slow_ms);
    printf("tables: connected_at_start=%ld connected_at_end=%ld settles=%ld (%.1f per second over all tables)\n",
           t->connected_at_start, t->connected, t->settles, (double)t->settles / c->seconds);
    printf("delivery: alerts_published=%ld deliveries=%ld lost_alerts=%ld alerts_live=%ld alerts_fetched=%ld "
           "fetches=%ld reconnects=%ld duplicate_alerts=%ld messages_published=%ld acknowledged=%ld "
           "dropped_by_queue=%ld\n",
           alerts, alerts * c->subscribers, lost, live, fetched, fetches, again, dup, t->published, t->acknowledged,
           t->dropped);
    printf("load: in=%.0f msg/s out=%.0f msg/s (%.2f MB/s to subscribers) broker_cpu=%.1f%% of one core\n",
           (double)t->published / wall_s, (double)msgs / wall_s, (double)bytes / wall_s / 1e6,
           isfinite(cpu_s) ? 100.0 * cpu_s / wall_s : NAN);
    printf("latency (publish call -> subscriber, live, all subscribers):\n");
    print_latency("alert", &all_alerts);
    print_latency("call (move_checked)", &all_calls);
    printf("camera loop (time inside the feed's calls):\n");
    print_latency("venue_feed_publish", &t->publish_ms);
    print_latency("venue_feed_set_picture", &t->picture_ms);
    free(all_alerts.v);
    free(all_calls.v);
}

int bench_venue(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], BENCH_TABLES_WORKER_FLAG) == 0)
        return bench_tables_worker(argc, argv); /* one of this bench's own table workers (bench_venue_tables.h) */
    bench_cfg c = {.tables = 100, .subscribers = 2, .seconds = 30, .settle_s = 5.0, .illegal_share = 0.2};
    const char *broker = NULL;
    int r_parse = parse(argc, argv, &c, &broker);
    if (r_parse < 0)
        return cli_status(r_parse);
    run r = {0};
    venue_config cfg;
    int rc = start_broker(&r, &c, broker, &cfg);
    if (rc == 0 && !(r.tables = bench_tables_start(&cfg, c.tables, c.settle_s, c.illegal_share,
                                                   c.accounts ? r.setup_dir : NULL)))
        rc = -1;
    if (rc == 0)
        rc = start_judges(&r, &c, &cfg);
    if (rc == 0) {
        double cpu0 = r.own_broker ? proc_cpu_s(r.broker.pid) : NAN, w0 = bench_now_us();
        rc = bench_tables_play(r.tables, c.seconds);
        for (int k = 0; k < c.subscribers; k++)
            bench_judge_slow(r.judges[k], 0); /* the round is over: the tablet reads at its pace again */
        if (rc == 0) {
            double after_s = wait_alerts(&r, &c, 30000);
            double wall_s = (bench_now_us() - w0) / 1e6;
            report(&r, &c, r.own_broker ? proc_cpu_s(r.broker.pid) - cpu0 : NAN, wall_s);
            printf("after the tables stopped: every alert in %.1f s (at most 30 s waited)\n", after_s);
        }
    }
    stop(&r, &c);
    return rc == 0 ? 0 : EXIT_BAD_INPUT;
}
