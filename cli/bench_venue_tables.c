/* bench_venue_tables: the bench's tables in worker processes (bench_venue_tables.h). */
#include "bench_venue_tables.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bench_venue_setup.h"

typedef struct table {
    venue_feed *feed;
    double next_us;
    long seq;
    int move, alerts;
} table;

typedef struct worker {
    int first, count;           /* tables first+1 .. first+count */
    double settle_s, illegal_share;
    table *tables;
    uint8_t *frame;
    bench_samples publish_ms, picture_ms;
} worker;

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

static void publish_timed(worker *w, venue_feed *f, cJSON *ev)
{
    cJSON_AddNumberToObject(ev, "sent_us", bench_now_us());
    double t0 = bench_now_us();
    base_error err;
    if (venue_feed_publish(f, ev, &err) < 0)
        fprintf(stderr, "bench venue: %s\n", err.msg);
    bench_samples_add(&w->publish_ms, (bench_now_us() - t0) / 1000.0);
    cJSON_Delete(ev);
}

/* One settle of table n: what the watch loop publishes after a settle with a call. */
static void settle(worker *w, table *t, int n, const venue_image *frame, uint32_t *rng)
{
    publish_timed(w, t->feed, event_new(t, "settled", n));
    *rng = *rng * 1103515245u + 12345u;
    bool illegal = (double)((*rng >> 8) % 1000) < w->illegal_share * 1000.0;
    publish_timed(w, t->feed, call_event(t, n, illegal));
    if (illegal) {
        cJSON *a = event_new(t, "alert", n);
        cJSON_AddNumberToObject(a, "move", t->move);
        cJSON_AddNumberToObject(a, "alert_no", ++t->alerts);
        cJSON_AddStringToObject(a, "unit", "spears");
        publish_timed(w, t->feed, a);
    }
    double t0 = bench_now_us();
    base_error err;
    if (venue_feed_set_picture(t->feed, frame, t->move, &err) < 0)
        fprintf(stderr, "bench venue: %s\n", err.msg);
    bench_samples_add(&w->picture_ms, (bench_now_us() - t0) / 1000.0);
}

/* Every table of the worker settles on its own rhythm until end_us. */
static void play(worker *w, double t0, double end_us)
{
    venue_image frame = {w->frame, 1280, 960, 1280 * 3, VENUE_PIX_RGB24};
    uint32_t rng = 2026u + (uint32_t)w->first;
    for (int i = 0; i < w->count; i++) {
        rng = rng * 1103515245u + 12345u;
        w->tables[i].next_us = t0 + (double)(rng >> 8) / (double)(1u << 24) * w->settle_s * 1e6;
    }
    while (bench_now_us() < end_us) {
        for (int i = 0; i < w->count; i++) {
            table *t = &w->tables[i];
            if (bench_now_us() < t->next_us)
                continue;
            settle(w, t, w->first + i + 1, &frame, &rng);
            rng = rng * 1103515245u + 12345u;
            t->next_us += w->settle_s * 1e6 * (0.5 + (double)(rng >> 8) / (double)(1u << 24));
        }
        bench_sleep_ms(2);
    }
}

static int make_feeds(worker *w, const venue_config *cfg_in, const char *setup_dir)
{
    venue_config cfg = *cfg_in;
    for (int i = 0; i < w->count; i++) {
        char user[32], password[64];
        cfg.table = w->first + i + 1;
        snprintf(user, sizeof user, "table-%d", cfg.table);
        if (setup_dir) {
            if (bench_setup_password(setup_dir, user, password, sizeof password) < 0)
                return -1;
            cfg.username = user, cfg.password = password;
        }
        base_error err;
        if (!(w->tables[i].feed = venue_feed_new(&cfg, &err))) {
            fprintf(stderr, "bench venue: %s\n", err.msg);
            return -1;
        }
    }
    return 0;
}

static int connected(worker *w)
{
    int n = 0;
    for (int i = 0; i < w->count; i++) {
        venue_stats st;
        venue_feed_stats(w->tables[i].feed, &st);
        n += st.connected;
    }
    return n;
}

/* What the worker tells the parent, one line each. */
static void report(worker *w, FILE *out)
{
    long published = 0, acked = 0, dropped = 0, settles = 0;
    for (int i = 0; i < w->count; i++) {
        table *t = &w->tables[i];
        venue_stats st;
        venue_feed_stats(t->feed, &st);
        published += st.published, acked += st.acknowledged, dropped += st.dropped, settles += t->move;
        fprintf(out, "table %d %d %ld\n", w->first + i + 1, t->alerts, (long)t->move + t->alerts);
    }
    fprintf(out, "stats %ld %ld %ld %ld %d\n", settles, published, acked, dropped, connected(w));
    for (size_t i = 0; i < w->publish_ms.n; i++)
        fprintf(out, "pub %.4f\n", w->publish_ms.v[i]);
    for (size_t i = 0; i < w->picture_ms.n; i++)
        fprintf(out, "pic %.4f\n", w->picture_ms.v[i]);
    fprintf(out, "end\n");
    fflush(out);
}

/* A worker: its feeds, "ready", the go (start and end, CLOCK_MONOTONIC us), the play, the report. */
static int worker_run(worker *w, const venue_config *cfg, const char *setup_dir, int in, FILE *o)
{
    w->tables = calloc((size_t)w->count, sizeof *w->tables);
    w->frame = camera_like_frame(1280, 960);
    if (!w->tables || !w->frame || make_feeds(w, cfg, setup_dir) < 0)
        return 2;
    for (int waited = 0; waited < 10000 && connected(w) < w->count; waited += 20)
        bench_sleep_ms(20);
    fprintf(o, "ready %d\n", connected(w));
    fflush(o);
    double when[2];
    if (read(in, when, sizeof when) != (ssize_t)sizeof when)
        return 2;
    play(w, when[0], when[1]);
    for (int i = 0; i < w->count; i++)
        venue_feed_flush(w->tables[i].feed, 10000);
    report(w, o);
    for (int i = 0; i < w->count; i++)
        venue_feed_free(w->tables[i].feed);
    free(w->tables), free(w->frame);
    free(w->publish_ms.v), free(w->picture_ms.v);
    return 0;
}

int bench_tables_worker(int argc, char **argv)
{
    if (argc != 8 && argc != 9) {
        fprintf(stderr, "bench venue: %s FIRST COUNT SETTLE_S ILLEGAL_SHARE HOST PORT [SETUP_DIR]\n",
                BENCH_TABLES_WORKER_FLAG);
        return 2;
    }
    worker w = {.first = atoi(argv[2]), .count = atoi(argv[3]), .settle_s = atof(argv[4]),
                .illegal_share = atof(argv[5])};
    venue_config cfg;
    venue_config_default(&cfg);
    cfg.event = "bench";
    snprintf(cfg.host, sizeof cfg.host, "%s", argv[6]);
    cfg.port = atoi(argv[7]);
    if (w.first < 0 || w.count < 1 || w.count > BENCH_TABLES_PER_WORKER || !(w.settle_s > 0) || cfg.port < 1) {
        fprintf(stderr, "bench venue: a table worker's arguments are out of range\n");
        return 2;
    }
    return worker_run(&w, &cfg, argc == 9 ? argv[8] : NULL, 0, stdout);
}

/* This program's own file, to start its workers from (under qemu-user, the arm64 file qemu runs). */
static int own_program(char *path, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", path, cap - 1);
    if (n <= 0 || (size_t)n >= cap - 1)
        return -1;
    path[n] = 0;
    return 0;
}

/* A pipe neither end of which a worker inherits (a worker's own two are made its stdin and stdout by dup2): a worker
 * holding another's write end would keep that one's reader from seeing its end. */
static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) != 0)
        return -1;
    for (int i = 0; i < 2; i++)
        if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0)
            return close(fds[0]), close(fds[1]), -1;
    return 0;
}

/* Starts a worker: this program again (`bench venue --table-worker ...`), its stdin the go, its stdout the report.
 * Everything the child needs is made before the fork: between fork and exec it calls only dup2 and execv (what
 * POSIX allows in the child of a threaded process: a lock another thread held at the fork stays held in it). */
static pid_t start_worker(char *const argv[], int go, int back)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (dup2(go, 0) < 0 || dup2(back, 1) < 0)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

bench_tables *bench_tables_start(const venue_config *cfg, int tables, double settle_s, double illegal_share,
                                 const char *setup_dir)
{
    bench_tables *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n = tables;
    t->n_workers = (tables + BENCH_TABLES_PER_WORKER - 1) / BENCH_TABLES_PER_WORKER;
    t->alerts = calloc((size_t)tables, sizeof *t->alerts);
    t->calls = calloc((size_t)tables, sizeof *t->calls);
    t->pids = calloc((size_t)t->n_workers, sizeof *t->pids);
    t->to = calloc((size_t)t->n_workers, sizeof *t->to);
    t->from = calloc((size_t)t->n_workers, sizeof *t->from);
    char self[4096];
    if (!t->alerts || !t->calls || !t->pids || !t->to || !t->from)
        return bench_tables_free(t), NULL;
    if (own_program(self, sizeof self) < 0) {
        fprintf(stderr, "bench venue: cannot find this program's own file to start its table workers\n");
        return bench_tables_free(t), NULL;
    }
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < t->n_workers; k++) {
        int go[2], back[2];
        if (cloexec_pipe(go) != 0)
            return bench_tables_free(t), NULL;
        if (cloexec_pipe(back) != 0)
            return close(go[0]), close(go[1]), bench_tables_free(t), NULL;
        const int first = k * BENCH_TABLES_PER_WORKER;
        const int count = tables - first < BENCH_TABLES_PER_WORKER ? tables - first : BENCH_TABLES_PER_WORKER;
        char a_first[16], a_count[16], a_settle[32], a_share[32], a_port[16];
        snprintf(a_first, sizeof a_first, "%d", first);
        snprintf(a_count, sizeof a_count, "%d", count);
        snprintf(a_settle, sizeof a_settle, "%.17g", settle_s);
        snprintf(a_share, sizeof a_share, "%.17g", illegal_share);
        snprintf(a_port, sizeof a_port, "%d", cfg->port);
        char *argv[] = {self,     "bench",  "venue",  BENCH_TABLES_WORKER_FLAG, a_first,
                        a_count,  a_settle, a_share,  (char *)cfg->host,        a_port,
                        (char *)setup_dir,  NULL};
        pid_t pid = start_worker(argv, go[0], back[1]);
        close(go[0]), close(back[1]);
        t->pids[k] = pid, t->to[k] = go[1], t->from[k] = back[0];
        if (pid < 0)
            return bench_tables_free(t), NULL;
    }
    return t;
}

/* One report line from a worker. */
static void take_line(bench_tables *t, const char *line)
{
    int no, alerts, connected;
    long calls, settles, published, acked, dropped;
    double ms;
    if (sscanf(line, "ready %d", &connected) == 1) {
        t->connected_at_start += connected;
    } else if (sscanf(line, "table %d %d %ld", &no, &alerts, &calls) == 3 && no >= 1 && no <= t->n) {
        t->alerts[no - 1] = alerts, t->calls[no - 1] = calls;
    } else if (sscanf(line, "stats %ld %ld %ld %ld %d", &settles, &published, &acked, &dropped, &connected) == 5) {
        t->settles += settles, t->published += published, t->acknowledged += acked, t->dropped += dropped;
        t->connected += connected;
    } else if (sscanf(line, "pub %lf", &ms) == 1) {
        bench_samples_add(&t->publish_ms, ms);
    } else if (sscanf(line, "pic %lf", &ms) == 1) {
        bench_samples_add(&t->picture_ms, ms);
    }
}

/* Reads every worker's lines until each has said `last` (or timeout_ms passed). 0, or -1. */
static int read_until(bench_tables *t, const char *last, int timeout_ms)
{
    char **buf = calloc((size_t)t->n_workers, sizeof *buf);
    size_t *have = calloc((size_t)t->n_workers, sizeof *have);
    bool *done = calloc((size_t)t->n_workers, sizeof *done);
    int left = t->n_workers, rc = 0;
    double end = bench_now_us() + timeout_ms * 1e3;
    for (int k = 0; buf && have && done && k < t->n_workers; k++)
        buf[k] = calloc(1, 1 << 16);
    while (left > 0 && buf && have && done && bench_now_us() < end) {
        for (int k = 0; k < t->n_workers; k++) {
            if (done[k])
                continue;
            struct pollfd p = {t->from[k], POLLIN, 0};
            if (poll(&p, 1, 10) <= 0)
                continue;
            ssize_t got = read(t->from[k], buf[k] + have[k], (1 << 16) - 1 - have[k]);
            if (got <= 0) {
                done[k] = true, left--, rc = -1;
                continue;
            }
            have[k] += (size_t)got;
            buf[k][have[k]] = 0;
            char *nl;
            while ((nl = strchr(buf[k], '\n'))) {
                *nl = 0;
                if (strncmp(buf[k], last, strlen(last)) == 0)
                    done[k] = true, left--;
                take_line(t, buf[k]);
                size_t used = (size_t)(nl - buf[k]) + 1;
                memmove(buf[k], nl + 1, have[k] - used + 1);
                have[k] -= used;
            }
        }
    }
    for (int k = 0; buf && k < t->n_workers; k++)
        free(buf[k]);
    free(buf), free(have), free(done);
    return left == 0 ? rc : -1;
}

int bench_tables_play(bench_tables *t, int seconds)
{
    if (read_until(t, "ready", 20000) < 0) {
        fprintf(stderr, "bench venue: a worker's tables never connected\n");
        return -1;
    }
    double when[2] = {bench_now_us(), 0};
    when[1] = when[0] + seconds * 1e6;
    for (int k = 0; k < t->n_workers; k++)
        if (write(t->to[k], when, sizeof when) != (ssize_t)sizeof when)
            return -1;
    return read_until(t, "end", (seconds + 15 + t->n / 50) * 1000);
}

void bench_tables_free(bench_tables *t)
{
    if (!t)
        return;
    for (int k = 0; k < t->n_workers; k++) {
        if (t->to && t->to[k] > 0)
            close(t->to[k]);
        if (t->from && t->from[k] > 0)
            close(t->from[k]);
        if (t->pids && t->pids[k] > 0) {
            int st;
            if (waitpid(t->pids[k], &st, WNOHANG) == 0) {
                kill(t->pids[k], SIGTERM);
                waitpid(t->pids[k], &st, 0);
            }
        }
    }
    free(t->alerts), free(t->calls), free(t->pids), free(t->to), free(t->from);
    free(t->publish_ms.v), free(t->picture_ms.v);
    free(t);
}
