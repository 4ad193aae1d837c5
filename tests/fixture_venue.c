/* fixture_venue: a table's feed, its events and the commands it gets in the venue tests (see the header). */
#include "fixture_venue.h"

#include <stdio.h>
#include <time.h>

#include <cjson/cJSON.h>

static void sleep_10ms(void) { nanosleep(&(struct timespec){0, 10000000L}, NULL); }

venue_feed *fxv_table_feed(int port, const char *event, int table, const char *password, int connect_ms,
                           base_error *err)
{
    venue_config cfg;
    venue_config_default(&cfg);
    cfg.port = port;
    cfg.event = event;
    cfg.table = table;
    char user[32];
    snprintf(user, sizeof user, "table-%d", table);
    cfg.username = user;
    cfg.password = password;
    venue_feed *f = venue_feed_new(&cfg, err);
    if (!f || connect_ms <= 0)
        return f;
    for (int waited = 0; waited < connect_ms; waited += 10) {
        venue_stats st;
        venue_feed_stats(f, &st);
        if (st.connected)
            return f;
        sleep_10ms();
    }
    venue_feed_free(f);
    base_error_set(err, "table %d did not connect", table);
    return NULL;
}

int fxv_publish(venue_feed *f, const char *json, base_error *err)
{
    cJSON *ev = cJSON_Parse(json);
    if (!ev)
        return base_error_set(err, "not JSON: %s", json);
    int rc = venue_feed_publish(f, ev, err);
    cJSON_Delete(ev);
    return rc;
}

bool fxv_poll_command(venue_feed *f, venue_command *c, int ms)
{
    for (int t = 0; t < ms; t += 10) {
        if (venue_feed_poll_command(f, c) == 1)
            return true;
        sleep_10ms();
    }
    return false;
}
