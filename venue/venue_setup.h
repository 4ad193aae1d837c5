/*
 * venue_setup: a whole Mosquitto 2.0 set-up for one event, written into one
 * directory (`tableref venue setup`, docs/venue.md): mosquitto.conf (self-
 * contained: listeners, password and ACL files, persistence, size and queue
 * limits), the ACL, the hashed password file, credentials.json with one
 * generated password file per account (mode 0600), and with a page folder
 * (http_dir) a copy of the judge's page in www/ beside venue.json (the
 * event, every table set up, the one broker the page may talk to).
 *
 * How to use:
 *   venue_setup_options o; venue_setup_options_default(&o);
 *   o.dir = "venue"; o.event = "gt-2026"; o.tables = 3;
 *   o.judges[o.n_judges++] = "alice";
 *   if (venue_setup_write(&o, &err) < 0) fprintf(stderr, "%s\n", err.msg);   // exit 2
 *   // then: mosquitto -c venue/mosquitto.conf   (and with tls: tableref venue serve venue)
 *
 * Accounts: table-N (one per table: writes only what its table publishes,
 * reads only its own commands, writes no command), each judge by name (reads
 * the event, writes only .../command/<own name>), each streamer by name
 * (reads the public topics only). No anonymous access. No client id is bound
 * to a user name (Mosquitto 2.0.11's use_username_as_clientid lets a refused
 * anonymous login unhook the session it names, docs/venue.md): every client
 * picks an id nobody can guess (a table's is new at each run), so a second
 * login with an account never takes the first one's place.
 *
 * Every value that goes into a line of a file is checked first (names,
 * addresses, ports, paths; no control character): a bad one is -1 with err
 * naming the option or the credentials.json field. When run as root the
 * broker runs as an unprivileged account (run_as, default "mosquitto"),
 * which owns the files it reads; the passwords stay root's.
 *
 * A run writes every file into a staging folder and moves them into place
 * at the end: a run that fails removes exactly what it made (never a file
 * it did not create) and leaves nothing that blocks the next. Without `add`
 * the folder must be new or empty; with `add`, accounts already in
 * credentials.json keep their passwords and the listeners stay as they were
 * (kept in its "broker"); the configuration, ACL, page and venue.json are
 * written again.
 */
#ifndef VENUE_SETUP_H
#define VENUE_SETUP_H

#include <stdbool.h>

#include "base_error.h"

#define VENUE_SETUP_MAX_NAMES 64
#define VENUE_SETUP_MAX_TABLES 1000
/* Publish payloads over this are refused by the broker: a 640 px JPEG picture is 30-70 kB. */
#define VENUE_SETUP_MESSAGE_LIMIT (1024 * 1024)
/* QoS 1 messages the broker keeps for one slow or absent client, per table of the venue: a page takes
 * about 150 a minute from a table settling every 2 s (the fastest), so one minute of every table. */
#define VENUE_SETUP_QUEUE_PER_TABLE 150
/* A judge's page that has not come back for this long loses its session (and what was kept for it). */
#define VENUE_SETUP_SESSION_EXPIRY "1d"

typedef struct venue_setup_options {
    const char *dir;       /* made if missing; new or empty unless add */
    const char *event;     /* letters, digits, '-', '_': a topic level */
    int tables;            /* tables 1..tables (with add: the new total, never fewer than before) */
    const char *judges[VENUE_SETUP_MAX_NAMES];
    int n_judges;
    const char *streamers[VENUE_SETUP_MAX_NAMES];
    int n_streamers;
    int mqtt_port, ws_port; /* default 1883, 9001 */
    int https_port;         /* with tls: the page over https (tableref venue serve); default 8443 */
    const char *bind;       /* listeners' address (an IPv4 or IPv6 address or a host name); default 0.0.0.0 */
    const char *tls_cert, *tls_key; /* both or neither: copied into DIR/tls; wss:// for the pages */
    const char *http_dir;   /* the page's folder (web/): copied into DIR/www and served (NULL: no page) */
    const char *run_as;     /* Mosquitto's `user` (NULL: "mosquitto" as root, else the account that runs this) */
    bool add;               /* add to the set-up already in dir */
} venue_setup_options;

void venue_setup_options_default(venue_setup_options *o);
/* A user or event name as the set-up accepts it (1-32 of [A-Za-z0-9_-], not "table-..."): a judge's name is
 * a command topic's last level, and the table applies a command only from such a topic (venue_feed). */
bool venue_setup_name_ok(const char *name);
/* Writes (or with add, extends) the set-up. 0, or -1 with err naming the file, option or field. */
int venue_setup_write(const venue_setup_options *o, base_error *err);

#endif
