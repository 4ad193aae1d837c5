/*
 * bench_venue_setup: `tableref bench venue --accounts`: the broker started
 * from a `tableref venue setup` of its own (one account per table, judges
 * judge-1..K, client ids bound to accounts), in a temporary folder removed
 * at the end.
 *
 * How to use:
 *   char dir[512]; venue_broker b;
 *   if (bench_setup_start(100, 2, &b, dir, sizeof dir) < 0) ...
 *   char pw[64]; bench_setup_password(dir, "table-7", pw, sizeof pw);
 *   ... venue_broker_stop(&b); bench_setup_remove(dir);
 */
#ifndef TABLEREF_BENCH_VENUE_SETUP_H
#define TABLEREF_BENCH_VENUE_SETUP_H

#include <stddef.h>

#include "venue_broker.h"

/* Writes the set-up for event "bench" and starts Mosquitto from it on loopback. 0, or -1 (said on stderr). */
int bench_setup_start(int tables, int judges, venue_broker *b, char *dir, size_t cap);
/* The generated password of `user`. 0 or -1. */
int bench_setup_password(const char *dir, const char *user, char *out, size_t cap);
/* Removes the set-up's folder. */
void bench_setup_remove(const char *dir);

#endif
