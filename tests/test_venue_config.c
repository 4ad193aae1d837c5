/*
 * The venue's broker as docs/venue.md sets it up, from `tableref venue
 * setup`'s own output (tests/venue_site.c: 127.0.0.1, free ports, the page
 * served with --http-dir, mosquitto -c DIR/mosquitto.conf stopped by pid):
 * the page and mqtt.js are served over HTTP on the WebSockets port; a table
 * writes its own topics; a streamer reads them and commands nothing; a judge
 * commands under their own name and no other; anonymous clients and wrong
 * passwords are refused; the retained state survives a broker restart
 * (persistence in the set-up's data/).
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fixture_venue.h"
#include "venue_feed.h"
#include "venue_site.h"
#include "venue_sub.h"

static venue_site g_site;

static void teardown(void)
{
    venue_site_stop(&g_site);
}

static void start_generated_broker(void)
{
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    cr_assert_not_null(root);
    char web[600], err[600];
    snprintf(web, sizeof web, "%s/web", root);
    cr_assert_eq(venue_site_start(&g_site, "gt", 9, "alice,bob", "obs", web, err, sizeof err), 0, "%s", err);
}

/* GET `path` from 127.0.0.1:port; the whole answer in buf. */
static void http_get(int port, const char *path, char *buf, size_t cap)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(s, (struct sockaddr *)&a, sizeof a), 0);
    char req[300];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
    cr_assert_eq(write(s, req, (size_t)n), n);
    size_t have = 0;
    ssize_t got;
    while (have + 1 < cap && (got = read(s, buf + have, cap - 1 - have)) > 0)
        have += (size_t)got;
    buf[have] = 0;
    close(s);
}

static venue_feed *table_feed(int table)
{
    char user[32];
    snprintf(user, sizeof user, "table-%d", table);
    base_error err;
    venue_feed *f = fxv_table_feed(g_site.broker.port, "gt", table, venue_site_password(&g_site, user), 0, &err);
    cr_assert_not_null(f, "%s", err.msg);
    return f;
}

static void publish(venue_feed *f, const char *json)
{
    base_error err;
    cr_assert_eq(fxv_publish(f, json, &err), 0, "%s", err.msg);
}

Test(venue_config, the_generated_broker_serves_the_page_and_enforces_who_may_do_what, .fini = teardown,
     .timeout = 60)
{
    start_generated_broker();
    int port = g_site.broker.port;
    static char page[65536];
    http_get(g_site.broker.ws_port, "/index.html", page, sizeof page);
    cr_assert(strstr(page, "200 OK") && strstr(page, "judge.js"), "the page is not served: %.200s", page);
    http_get(g_site.broker.ws_port, "/node_modules/mqtt/dist/mqtt.min.js", page, sizeof page);
    cr_assert(strstr(page, "200 OK"), "mqtt.js is not served (run scripts/setup-web.sh): %.200s", page);

    /* No anonymous access at all, and a wrong password is refused. */
    cr_assert_null(venue_sub_new(port, "tableref/gt/#", 1), "an anonymous client was let in");
    cr_assert_null(venue_sub_new_as(port, "tableref/#", 1, NULL, "alice", "wrong"), "a wrong password was let in");

    venue_feed *f = table_feed(9);
    venue_sub *obs = venue_sub_new_as(port, "tableref/gt/#", 1, NULL, "obs", venue_site_password(&g_site, "obs"));
    cr_assert_not_null(obs, "the streamer may subscribe");
    publish(f, "{\"seq\":1,\"event\":\"move_checked\",\"move\":1,\"legal\":false,\"units\":[]}");
    publish(f, "{\"seq\":2,\"event\":\"alert\",\"move\":1,\"unit\":\"spears\"}");
    cr_assert_not_null(venue_sub_wait(obs, "tableref/gt/table/9/event/alert", NULL, 15000), "the streamer reads alerts");
    cr_assert_not_null(venue_sub_wait(obs, "tableref/gt/table/9/state", NULL, 15000));

    /* The streamer cannot command, and does not see commands. */
    venue_sub_publish(obs, "tableref/gt/table/9/command/obs", "overrule 1 spoofed", false);
    venue_sub_publish(obs, "tableref/gt/table/9/command/alice", "overrule 1 spoofed", false);
    venue_command c;
    cr_assert_not(fxv_poll_command(f, &c, 1000), "a streamer's command reached the table");

    /* A judge commands under their own name; not under another's. */
    venue_sub *alice = venue_sub_new_as(port, "tableref/gt/table/9/status", 1, NULL, "alice",
                                        venue_site_password(&g_site, "alice"));
    cr_assert_not_null(alice);
    venue_sub_publish(alice, "tableref/gt/table/9/command/bob", "overrule 1 as bob", false);
    cr_assert_not(fxv_poll_command(f, &c, 1000), "alice commanded as bob");
    cr_assert_eq(venue_sub_publish(alice, "tableref/gt/table/9/command/alice", "overrule 1 measured again", false), 0);
    cr_assert(fxv_poll_command(f, &c, 15000), "alice's command did not reach the table");
    cr_assert_eq(c.action, VENUE_CMD_OVERRULE);
    cr_assert_str_eq(c.by, "alice");
    cr_assert_eq(venue_sub_count_matching(obs, NULL, "measured again"), 0, "the streamer saw a command");

    /* Persistence: the retained state outlives a broker restart, with no table to send it again. */
    venue_feed_free(f);
    venue_sub_free(alice);
    venue_sub_free(obs);
    base_error err;
    cr_assert_eq(venue_broker_restart(&g_site.broker, &err), 0, "%s", err.msg);
    venue_sub *later = venue_sub_new_as(port, "tableref/gt/#", 1, NULL, "bob", venue_site_password(&g_site, "bob"));
    cr_assert_not_null(later);
    const venue_sub_msg *state = venue_sub_wait(later, "tableref/gt/table/9/state", "\"move\":1", 15000);
    cr_assert(state && state->retain, "the retained state did not survive the restart");
    cr_assert_not_null(venue_sub_wait(later, "tableref/gt/table/9/status", "\"stopped\"", 15000));
    venue_sub_free(later);
}
