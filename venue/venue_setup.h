/*
 * venue_setup: a whole Mosquitto 2.0 set-up for one event, written into one
 * directory (`tableref venue setup`, docs/venue.md): mosquitto.conf (self-
 * contained: listeners, password and ACL files, persistence, size limits,
 * client ids bound to accounts), the ACL, the hashed password file, and
 * credentials.json with one generated password file per account (mode 0600).
 *
 * How to use:
 *   venue_setup_options o; venue_setup_options_default(&o);
 *   o.dir = "venue"; o.event = "gt-2026"; o.tables = 3;
 *   o.judges[o.n_judges++] = "alice";
 *   if (venue_setup_write(&o, &err) < 0) fprintf(stderr, "%s\n", err.msg);
 *   // then: mosquitto -c venue/mosquitto.conf
 *
 * Accounts: table-N (one per table: writes only its own table's topics,
 * reads only its own commands), each judge by name (reads the event,
 * commands under their own name only), each streamer by name (reads the
 * public topics only). There is no anonymous access: Mosquitto's
 * use_username_as_clientid refuses a client without a user name, and binds
 * every client id to its account so that nobody can take a table's place.
 * With `add`, accounts already in credentials.json keep their passwords and
 * the listeners (ports, address, TLS, http_dir, kept in its "broker") stay
 * as they were; the configuration and the ACL are written again.
 */
#ifndef VENUE_SETUP_H
#define VENUE_SETUP_H

#include <stdbool.h>

#include "base_error.h"

#define VENUE_SETUP_MAX_NAMES 64
#define VENUE_SETUP_MAX_TABLES 1000
/* Publish payloads over this are refused by the broker: a 640 px JPEG picture is 30-70 kB. */
#define VENUE_SETUP_MESSAGE_LIMIT (1024 * 1024)

typedef struct venue_setup_options {
    const char *dir;       /* made if missing */
    const char *event;     /* letters, digits, '-', '_': a topic level */
    int tables;            /* tables 1..tables (with add: the new total, never fewer than before) */
    const char *judges[VENUE_SETUP_MAX_NAMES];
    int n_judges;
    const char *streamers[VENUE_SETUP_MAX_NAMES];
    int n_streamers;
    int mqtt_port, ws_port; /* default 1883, 9001 */
    const char *bind;       /* listeners' address; default 0.0.0.0 (every IPv4 interface) */
    const char *tls_cert, *tls_key; /* both or neither: TLS on the WebSockets listener (wss://) */
    const char *http_dir;   /* the page, served on the WebSockets port (NULL: none) */
    const char *run_as;     /* Mosquitto's `user` (NULL: the account that runs the set-up) */
    bool add;               /* add to the set-up already in dir */
} venue_setup_options;

void venue_setup_options_default(venue_setup_options *o);
/* A user or event name as the set-up accepts it (1-32 of [A-Za-z0-9_-], not "table-..."). */
bool venue_setup_name_ok(const char *name);
/* Writes (or with add, extends) the set-up. 0, or -1 with err naming the file or option. */
int venue_setup_write(const venue_setup_options *o, base_error *err);

#endif
