/*
 * venue_proc: a child process of the venue tests (the scripted table
 * tests/venue_driver.c, or node driving chromium), run with a pipe to its
 * stdin and one from its stdout, and stopped by its pid.
 *
 *   venue_proc p;
 *   venue_proc_start(&p, port, "test", 1, true);      // waits for its "ready"
 *   venue_proc_say(&p, "started\nsettled\ncall\n");
 *   char line[1024]; venue_proc_read_line(&p, line, sizeof line, 3000);
 *   venue_proc_kill(&p, SIGKILL);
 */
#ifndef TABLEREF_TEST_VENUE_PROC_H
#define TABLEREF_TEST_VENUE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct venue_proc {
    pid_t pid;
    int in, out;        /* its stdin (we write), its stdout (we read) */
    char buf[8192];
    size_t have;
} venue_proc;

/* Starts argv[0] (PATH searched) with pipes; with `ready`, waits up to timeout_ms for that first stdout line. */
int venue_proc_spawn(venue_proc *p, char *const argv[], const char *ready, int timeout_ms);
/* The Node.js a page test runs: $TABLEREF_NODE (scripts/debian12-node.sh's Debian 12 node, as test.sh sets
 * it on a machine whose own node is not Debian's), else "node" from PATH. */
const char *venue_proc_node(void);
/* Starts $TABLEREF_VENUE_DRIVER against 127.0.0.1:port; 0 once it said "ready" (5 s at most), else -1. */
int venue_proc_start(venue_proc *p, int port, const char *event, int table, bool apply);
/* The same, connecting as a user of the broker's password file. */
int venue_proc_start_as(venue_proc *p, int port, const char *event, int table, bool apply, const char *user,
                        const char *password);
/* Writes script lines. 0 or -1. */
int venue_proc_say(venue_proc *p, const char *text);
/* The next stdout line (without its newline) within timeout_ms: 0, or -1 on timeout or end. */
int venue_proc_read_line(venue_proc *p, char *line, size_t cap, int timeout_ms);
/* Sends `sig` and reaps it; returns its wait status. */
int venue_proc_kill(venue_proc *p, int sig);
/* Closes its stdin (the script ends: it publishes "stopped" and exits) and waits up to 10 s; its exit status or -1. */
int venue_proc_finish(venue_proc *p);

#endif
