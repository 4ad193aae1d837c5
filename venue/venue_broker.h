/*
 * venue_broker: a real Mosquitto broker started on loopback (127.0.0.1) for
 * the venue tests, `tableref bench venue` and demos, and stopped by its pid.
 * It writes its configuration, log and persistence into a directory of its
 * own (a new one under $TMPDIR unless given) and picks free ports.
 *
 * How to use:
 *   venue_broker_options o; venue_broker_options_default(&o);
 *   o.websockets = true; o.http_dir = "web";           // the judge's page on the same port
 *   venue_broker b;
 *   if (venue_broker_start(&o, &b, &err) < 0) ...      // returns once both ports accept
 *   ... b.port (MQTT), b.ws_port (WebSockets + HTTP) ...
 *   venue_broker_stop(&b);                             // SIGTERM by pid, then SIGKILL after 3 s
 * The program is `mosquitto` from PATH, /usr/sbin/mosquitto, or $TABLEREF_MOSQUITTO.
 */
#ifndef VENUE_BROKER_H
#define VENUE_BROKER_H

#include <stdbool.h>
#include <sys/types.h>

#include "base_error.h"

typedef struct venue_broker_options {
    bool websockets;            /* a second listener speaking MQTT over WebSockets */
    const char *http_dir;       /* served over HTTP on the WebSockets port (NULL: none) */
    const char *password_file;  /* mosquitto_passwd file; NULL: no users */
    bool deny_anonymous;        /* refuse clients without a user name (default: let them in, the ACL limits them) */
    const char *acl_file;       /* NULL: everyone may read and write everything */
    bool persistence;           /* retained messages survive a restart (persistence_location = dir) */
    const char *dir;            /* where conf, log and database go; NULL: a new temporary directory */
    int port, ws_port;          /* 0: pick free ports */
} venue_broker_options;

typedef struct venue_broker {
    pid_t pid;                  /* 0 when not running */
    int port, ws_port;
    char dir[512];
    char conf_path[600], log_path[600];
    bool own_dir;               /* made by start: removed by stop */
    venue_broker_options opt;
} venue_broker;

void venue_broker_options_default(venue_broker_options *o);
/* Starts the broker and waits (at most 5 s) until it accepts connections. */
int venue_broker_start(const venue_broker_options *o, venue_broker *b, base_error *err);
/*
 * Starts mosquitto with a configuration file of the caller's (listening on
 * 127.0.0.1:port, and ws_port when not 0) and waits until it accepts. The
 * directory `dir` is the caller's: stop leaves it.
 */
int venue_broker_start_conf(const char *conf_path, const char *dir, int port, int ws_port, venue_broker *b,
                            base_error *err);
/* A loopback port nobody listens on now (the kernel's choice); 0 on failure. */
int venue_broker_free_port(void);
/* Stops it by pid (SIGTERM, then SIGKILL after 3 s) and removes its own directory. 0 or -1. */
int venue_broker_stop(venue_broker *b);
/* Stops the process only (directory and ports kept) and starts it again on the same ports. */
int venue_broker_restart(venue_broker *b, base_error *err);
/* The last `cap`-1 bytes of its log, for a test's failure message. */
void venue_broker_log_tail(const venue_broker *b, char *buf, size_t cap);

#endif
