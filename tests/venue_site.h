/*
 * venue_site: the venue's broker for the tests, exactly as an organiser
 * gets it: `tableref venue setup --out DIR ...` ($TABLEREF_BIN) writes the
 * set-up into a new folder under $TMPDIR on free loopback ports, and
 * `mosquitto -c DIR/mosquitto.conf` is started from it as written (stopped
 * by its pid). Every account of the set-up logs in with its generated
 * password (DIR/passwords/USER).
 *
 *   venue_site s;
 *   char err[512];
 *   if (venue_site_start(&s, "gt", 3, "alice,bob", "obs", web_dir, err, sizeof err) < 0) ... err
 *   ... s.broker.port (MQTT), s.broker.ws_port (WebSockets + the page with http_dir) ...
 *   const char *pw = venue_site_password(&s, "table-2");   // "" when there is no such account
 *   venue_site_password_file(&s, "table-2")                 // for watch --mqtt-password-file
 *   venue_site_stop(&s);                                     // the broker by pid, then the folder
 */
#ifndef TABLEREF_TEST_VENUE_SITE_H
#define TABLEREF_TEST_VENUE_SITE_H

#include <stddef.h>

#include "venue_broker.h"

#define VENUE_SITE_MAX_ACCOUNTS 40

typedef struct venue_site {
    venue_broker broker;
    char dir[512];
    char users[VENUE_SITE_MAX_ACCOUNTS][40];
    char passwords[VENUE_SITE_MAX_ACCOUNTS][80];
    char path[600];      /* venue_site_password_file's answer */
    int n_accounts;
} venue_site;

/*
 * Runs `tableref venue setup --out NEW_DIR --event EVENT --tables N --judges JUDGES [--streamers STREAMERS]
 * --mqtt-port P --ws-port Q --bind 127.0.0.1 [--http-dir HTTP_DIR]` and starts Mosquitto from its
 * mosquitto.conf. 0, or -1 with a sentence in err (the set-up's or the broker's own words).
 */
int venue_site_start(venue_site *s, const char *event, int tables, const char *judges, const char *streamers,
                     const char *http_dir, char *err, size_t cap);
/* The account's generated password ("" when there is no such account). */
const char *venue_site_password(const venue_site *s, const char *user);
/* DIR/passwords/USER (valid until the next call). */
const char *venue_site_password_file(venue_site *s, const char *user);
/* Stops the broker by pid and removes the folder. */
void venue_site_stop(venue_site *s);

#endif
