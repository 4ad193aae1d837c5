/*
 * fixture_venue: a table's side of the venue tests against a broker on
 * 127.0.0.1 (tests/venue_site.h starts one from `tableref venue setup`'s
 * own output): the table's feed logged in as its account, an event
 * published, a judge's command waited for.
 *
 *   base_error err;
 *   venue_feed *f = fxv_table_feed(site.broker.port, "gt", 2, venue_site_password(&site, "table-2"), 15000, &err);
 *   if (!f) ... err.msg                                  // not made, or not connected within 15 s
 *   if (fxv_publish(f, "{\"seq\":1,\"event\":\"alert\"}", &err) < 0) ... err.msg
 *   venue_command c;
 *   if (fxv_poll_command(f, &c, 1000)) ... c.by, c.action
 *   venue_feed_free(f);
 */
#ifndef TABLEREF_TEST_FIXTURE_VENUE_H
#define TABLEREF_TEST_FIXTURE_VENUE_H

#include <stdbool.h>

#include "base_error.h"
#include "venue_feed.h"

/* The feed of table `table` of `event` to 127.0.0.1:port, logged in as account table-N with `password`. With
 * connect_ms > 0 it is returned once connected; NULL (err set) when it cannot be made or is not connected
 * within connect_ms. */
venue_feed *fxv_table_feed(int port, const char *event, int table, const char *password, int connect_ms,
                           base_error *err);
/* Publishes the event `json`: 0, or -1 with err (not JSON, or the feed's own refusal). */
int fxv_publish(venue_feed *f, const char *json, base_error *err);
/* Whether a judge's command reaches the table within `ms` (polled every 10 ms); *c holds it. */
bool fxv_poll_command(venue_feed *f, venue_command *c, int ms);

#endif
