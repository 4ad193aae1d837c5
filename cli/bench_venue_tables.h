/*
 * bench_venue_tables: `tableref bench venue`'s tables, each its own venue
 * feed (its own connection and threads, as each table is its own watch
 * process at a venue), played by worker processes of at most
 * BENCH_TABLES_PER_WORKER tables each. One process cannot hold a thousand
 * libmosquitto clients: its loop watches its socket with select(), which
 * takes no descriptor past 1023, and each client holds three (its socket and
 * a socket pair), so past ~340 tables in one process the rest never
 * connected (measured: 337 of 1000), and their alerts were counted lost.
 *
 * A worker is this program started again (fork, then at once exec of
 * /proc/self/exe with `bench venue --table-worker FIRST COUNT SETTLE_S
 * ILLEGAL_SHARE HOST PORT [SETUP_DIR]`), not a forked copy that goes on
 * running: the process forking is already threaded (libcamera's tracing
 * library starts two threads as it loads), and a forked child of a threaded
 * process may do only async-signal-safe things until it execs (POSIX: a lock
 * another thread held at the fork stays held in the child), where a worker
 * allocates, starts libmosquitto's threads and connects. qemu-user 7.2 even
 * aborts such a child when it starts a thread (docs/arm64.md).
 *
 * Each settle publishes what the watch loop would: a settled event, a call
 * (move_checked, ~1.5 kB), the retained state and the overlay picture (a
 * 1280x960 frame shrunk to 640 px and JPEG-encoded by the feed), and for a
 * share of the calls an alert. Every table settles every settle_s seconds
 * (+-50 %, random phase) until the end.
 *
 * How to use (cli/bench_venue.c), before the judges start their threads:
 *   bench_tables *t = bench_tables_start(&cfg, n_tables, settle_s, illegal_share, setup_dir);  // NULL: said on stderr
 *   ... the judges connect ...
 *   bench_tables_play(t, seconds);       // every table connected, then the clock for all; waits for the reports
 *   t->alerts[i], t->calls[i], t->published, ... , t->publish_ms, t->picture_ms
 *   bench_tables_free(t);
 */
#ifndef TABLEREF_BENCH_VENUE_TABLES_H
#define TABLEREF_BENCH_VENUE_TABLES_H

#include <stdbool.h>
#include <sys/types.h>

#include "bench_venue_judge.h"
#include "venue_feed.h"

#define BENCH_TABLES_PER_WORKER 250

typedef struct bench_tables {
    int n;                      /* tables */
    int *alerts;                /* per table: alerts published (alert_no 1..) */
    long *calls;                /* per table: calls numbered (the feed's last call_no) */
    long settles, published, acknowledged, dropped;
    long connected_at_start, connected;   /* tables connected when the clock started, and at the end */
    bench_samples publish_ms, picture_ms;
    /* The workers. */
    int n_workers;
    pid_t *pids;
    int *to, *from;             /* pipes: the go, the reports */
} bench_tables;

/*
 * Starts the workers; each makes its tables' feeds (cfg: broker, event; with setup_dir, each table logs in with
 * the set-up's table-N account) and waits for the go. NULL (said on stderr) when a worker could not start.
 */
bench_tables *bench_tables_start(const venue_config *cfg, int tables, double settle_s, double illegal_share,
                                 const char *setup_dir);
/* Every table connected (10 s at most), then all play for `seconds` and flush (10 s); their reports read. 0 or -1. */
int bench_tables_play(bench_tables *t, int seconds);
/* A worker's whole run (`tableref bench venue --table-worker ...`, argv[1] the flag): the go on stdin, the report
 * on stdout. Its exit status (0, or 2 when its tables could not be made). */
#define BENCH_TABLES_WORKER_FLAG "--table-worker"
int bench_tables_worker(int argc, char **argv);
/* Stops any worker left (by its pid) and frees. */
void bench_tables_free(bench_tables *t);

#endif
