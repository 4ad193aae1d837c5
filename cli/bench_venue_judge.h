/*
 * bench_venue_judge: `tableref bench venue`'s judge pages: one libmosquitto
 * subscriber each, taking what a judge's page takes (status, state, events
 * at QoS 1, pictures at QoS 0) and, like the page, fetching from call/N
 * every numbered call it missed (a gap in the numbers, or a state whose
 * number is past the last it saw). Each alert is counted once per
 * subscriber, live or fetched; latency is from the publish call to the live
 * receipt. Also the bench's samples (a growing list, percentiles).
 *
 * How to use (cli/bench_venue.c):
 *   bench_judge *j = bench_judge_start("127.0.0.1", port, tables, max_alerts, max_calls, user, pw, true);
 *   ... the tables play ...
 *   bench_judge_sweep(j, calls_per_table);      // what the tables numbered: fetch whatever is missing
 *   long lost = bench_judge_missing(j, alerts_per_table);
 *   bench_judge_counts c; bench_judge_get(j, &c, &alert_ms, &call_ms);
 *   bench_judge_stop(j);
 */
#ifndef TABLEREF_BENCH_VENUE_JUDGE_H
#define TABLEREF_BENCH_VENUE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

/* A growing list of samples. */
typedef struct bench_samples {
    double *v;
    size_t n, cap;
} bench_samples;

void bench_samples_add(bench_samples *s, double x);
/* The p-th percentile (0..100; 100 is the largest); NAN when empty. Sorts s. */
double bench_samples_pct(bench_samples *s, double p);
double bench_now_us(void);
void bench_sleep_ms(int ms);

typedef struct bench_judge bench_judge;

typedef struct bench_judge_counts {
    long messages, bytes, duplicates;
    long alerts_live, alerts_fetched; /* distinct alerts, by how they first came */
    long fetches;                     /* call/N asked for */
    long reconnects;                  /* connections made again because the broker held what was asked for */
} bench_judge_counts;

/* Connects and subscribes (3 s at most). NULL when it could not. fetch: ask for missed calls (the page does). */
bench_judge *bench_judge_start(const char *host, int port, int tables, int max_alerts, int max_calls,
                               const char *user, const char *password, bool fetch);
/* A slow reader (a tablet on weak Wi-Fi): each message takes it `ms` more to read, until set to 0. */
void bench_judge_slow(bench_judge *j, double ms);
/* Asks for every call of table t up to calls_per_table[t] it has not had (connecting again when the broker held
 * earlier answers). */
void bench_judge_sweep(bench_judge *j, const long *calls_per_table);
/* Alerts published (alerts_per_table[t] of table t+1) never received. */
long bench_judge_missing(bench_judge *j, const int *alerts_per_table);
/* Its counters, and its latency samples added to alert_ms and call_ms (either may be NULL). */
void bench_judge_get(bench_judge *j, bench_judge_counts *out, bench_samples *alert_ms, bench_samples *call_ms);
void bench_judge_stop(bench_judge *j);

#endif
