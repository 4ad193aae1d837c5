/*
 * The venue feed against a real Mosquitto on loopback started per test from
 * `tableref venue setup`'s own output (tests/venue_site.c: each feed logs in
 * as its table-N, each subscriber as a judge; persistence on; stopped by
 * pid), checked by a real subscriber: retained status, state and
 * picture for a late subscriber; QoS 1 events in order; judge commands back
 * to the poll, once each; offline when the camera dies and when the watch
 * stops; events queued while the broker is away and delivered when it comes
 * back (a persistent subscriber session sees them, whatever the timing); a
 * full queue that drops calls before alerts and says how many; retained
 * state re-asserted after a broker restart that forgot everything; a paused
 * broker that never blocks the caller; and the state published again, with
 * a fresh wall, when nothing changed it for its heartbeat.
 */
#include <criterion/criterion.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "venue_feed.h"
#include "venue_site.h"
#include "venue_sub.h"

#define EVENT "test"

static venue_site g_site;

/* Tables 1-12; judges who subscribe or command (one connection per account). */
static void start_broker(void)
{
    char err[600];
    cr_assert_eq(venue_site_start(&g_site, EVENT, 12, "alice,bob,carol,dave,mallory", NULL, NULL, err, sizeof err),
                 0, "%s", err);
}

static void stop_broker(void)
{
    venue_site_stop(&g_site);
}

/* A subscriber logged in as `user` (client_id given: a session the broker keeps). */
static venue_sub *sub_as(const char *pattern, const char *user, const char *client_id)
{
    return venue_sub_new_as(g_site.broker.port, pattern, 1, client_id, user, venue_site_password(&g_site, user));
}

static char g_user[32];

/* cfg's account: table-N's. */
static void log_in_as_table(venue_config *cfg, int table)
{
    snprintf(g_user, sizeof g_user, "table-%d", table);
    cfg->username = g_user;
    cfg->password = venue_site_password(&g_site, g_user);
}

static venue_feed *feed_on(int port, int table, size_t queue_max)
{
    venue_config cfg;
    venue_config_default(&cfg);
    cfg.port = port;
    cfg.event = EVENT;
    cfg.table = table;
    cfg.queue_max = queue_max;
    cfg.reconnect_max_ms = 500; /* tests wait for reconnections: keep them quick */
    log_in_as_table(&cfg, table);
    base_error err;
    venue_feed *f = venue_feed_new(&cfg, &err);
    cr_assert_not_null(f, "%s", err.msg);
    return f;
}

static void publish_json(venue_feed *f, const char *text)
{
    cJSON *ev = cJSON_Parse(text);
    cr_assert_not_null(ev, "bad test JSON: %s", text);
    base_error err;
    cr_assert_eq(venue_feed_publish(f, ev, &err), 0, "%s", err.msg);
    cJSON_Delete(ev);
}

static bool wait_connected(venue_feed *f, int ms)
{
    venue_stats st;
    for (int t = 0; t < ms; t += 10) {
        venue_feed_stats(f, &st);
        if (st.connected)
            return true;
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    return false;
}

static const char *SETTLED =
    "{\"seq\":2,\"event\":\"settled\",\"first\":true,\"snapshot\":{\"board\":{\"width_mm\":1828.8,\"depth_mm\":1219.2},"
    "\"units\":[{\"id\":\"spears\",\"side\":\"red\",\"models\":[{\"id\":\"s1\",\"x_mm\":100,\"y_mm\":200,"
    "\"facing_deg\":90}]}]}}";
static const char *CALL =
    "{\"seq\":3,\"event\":\"move_checked\",\"move\":1,\"legal\":false,\"units\":[{\"unit\":\"spears\","
    "\"verdict\":\"illegal\",\"codes\":[\"MU-MODEL-DIST\"]}]}";
static const char *ALERT =
    "{\"seq\":4,\"event\":\"alert\",\"move\":1,\"unit\":\"spears\",\"codes\":[\"MU-MODEL-DIST\"],"
    "\"sentence\":\"spears: march, ILLEGAL\"}";

Test(venue_feed, late_subscriber_sees_retained_status_state_and_picture, .fini = stop_broker)
{
    start_broker();
    venue_feed *f = feed_on(g_site.broker.port, 1, 100);
    publish_json(f, "{\"seq\":1,\"event\":\"started\",\"source\":\"cam0\"}");
    publish_json(f, SETTLED);
    publish_json(f, CALL);
    uint8_t gray[240][320];
    for (int y = 0; y < 240; y++)
        for (int x = 0; x < 320; x++)
            gray[y][x] = (uint8_t)((x ^ y) & 0xff);
    venue_image img = {&gray[0][0], 320, 240, 320, VENUE_PIX_GRAY8};
    base_error err;
    cr_assert_eq(venue_feed_set_picture(f, &img, 1, &err), 0, "%s", err.msg);
    cr_assert(wait_connected(f, 15000));
    cr_assert_eq(venue_feed_flush(f, 5000), 0, "everything acknowledged");

    venue_sub *s = sub_as("tableref/" EVENT "/table/1/#", "alice", NULL);
    cr_assert_not_null(s);
    const venue_sub_msg *status = venue_sub_wait(s, "tableref/test/table/1/status", NULL, 15000);
    cr_assert_not_null(status);
    cr_assert(status->retain);
    cr_assert(strstr(status->payload, "\"state\":\"online\""), "%s", status->payload);
    const venue_sub_msg *state = venue_sub_wait(s, "tableref/test/table/1/state", "\"picture\":{", 15000);
    cr_assert_not_null(state);
    cr_assert(state->retain);
    cJSON *j = cJSON_Parse(state->payload);
    cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "last_call"), "move")->valueint, 1);
    cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "unit")->valuestring, "spears");
    cJSON *pic = cJSON_GetObjectItem(j, "picture");
    cr_assert_eq(cJSON_GetObjectItem(pic, "width")->valueint, 320);
    cr_assert_eq(cJSON_GetObjectItem(pic, "move")->valueint, 1);
    cJSON_Delete(j);
    const venue_sub_msg *jpeg = venue_sub_wait(s, "tableref/test/table/1/picture", NULL, 15000);
    cr_assert_not_null(jpeg);
    cr_assert(jpeg->retain);
    cr_assert(jpeg->len > 1000 && (uint8_t)jpeg->payload[0] == 0xFF && (uint8_t)jpeg->payload[1] == 0xD8);
    cr_assert_eq(venue_sub_count_matching(s, "tableref/test/table/1/event/move_checked", NULL), 0,
                 "events are not retained");
    venue_sub_free(s);
    venue_feed_free(f);
}

Test(venue_feed, call_and_alert_arrive_at_qos1_in_order_without_snapshot, .fini = stop_broker)
{
    start_broker();
    venue_sub *s = sub_as("tableref/" EVENT "/#", "alice", NULL);
    cr_assert_not_null(s);
    venue_feed *f = feed_on(g_site.broker.port, 2, 100);
    cr_assert(wait_connected(f, 15000));
    publish_json(f, "{\"seq\":3,\"event\":\"move_checked\",\"move\":1,\"legal\":false,\"units\":[],"
                    "\"snapshot\":{\"units\":[]}}");
    /* The alert through the watch session's sink adapter; and one event it cannot publish, counted. */
    cJSON *alert_ev = cJSON_Parse(ALERT), *bad = cJSON_Parse("{\"no_kind\":1}");
    venue_feed_sink_event(f, alert_ev);
    venue_feed_sink_event(f, bad);
    cJSON_Delete(alert_ev);
    cJSON_Delete(bad);
    venue_stats st;
    venue_feed_stats(f, &st);
    cr_assert_eq(st.unpublishable, 1);
    size_t i_call, i_alert;
    const venue_sub_msg *call =
        venue_sub_wait_from(s, 0, "tableref/test/table/2/event/move_checked", NULL, 15000, &i_call);
    const venue_sub_msg *alert = venue_sub_wait_from(s, 0, "tableref/test/table/2/event/alert", NULL, 15000, &i_alert);
    cr_assert(call && alert);
    cr_assert_eq(alert->qos, 1);
    cr_assert_not(alert->retain);
    cr_assert_lt(i_call, i_alert, "the call before its alert");
    cJSON *j = cJSON_Parse(alert->payload);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "event")->valuestring, "alert");
    cr_assert_eq(cJSON_GetObjectItem(j, "seq")->valueint, 4, "the event log's seq is kept");
    cr_assert_eq(cJSON_GetObjectItem(j, "table")->valueint, 2);
    cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "codes"), 0)->valuestring, "MU-MODEL-DIST");
    cJSON_Delete(j);
    cr_assert_null(strstr(call->payload, "snapshot"), "%s", call->payload);
    venue_feed_free(f);
    venue_sub_free(s);
}

static bool poll_until(venue_feed *f, venue_command *c, int ms)
{
    for (int t = 0; t < ms; t += 10) {
        if (venue_feed_poll_command(f, c) == 1)
            return true;
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    return false;
}

Test(venue_feed, judge_commands_reach_the_poll_once_each, .fini = stop_broker)
{
    start_broker();
    venue_sub *judge = sub_as("tableref/" EVENT "/table/3/status", "alice", NULL);
    venue_sub *bob = sub_as("tableref/" EVENT "/table/3/status", "bob", NULL);
    venue_sub *mallory = sub_as("tableref/" EVENT "/table/3/status", "mallory", NULL);
    cr_assert(judge && bob && mallory);
    /* Retained before the table subscribes (a judge's account may publish retained: the broker cannot tell): never
     * sent to the table (it subscribes with retain handling "send never"), so never applied at a reconnect. */
    cr_assert_eq(venue_sub_publish(mallory, "tableref/test/table/3/command/mallory", "overrule 1 old news", true), 0);
    venue_feed *f = feed_on(g_site.broker.port, 3, 100);
    cr_assert(wait_connected(f, 15000));
    venue_command c;
    cr_assert_not(poll_until(f, &c, 1000), "a retained command reached the table: %s", c.line);
    /* Published retained while the table listens: it arrives flagged ("retain as published") and is refused. */
    cr_assert_eq(venue_sub_publish(mallory, "tableref/test/table/3/command/mallory", "overrule 1 live news", true), 0);
    cr_assert(poll_until(f, &c, 15000));
    cr_assert_eq(c.action, VENUE_CMD_INVALID);
    cr_assert(strstr(c.error, "retained"), "%s", c.error);
    cr_assert_str_eq(c.by, "mallory");
    cr_assert(strstr(c.line, "live news"), "%s", c.line);

    const char *cmd = "{\"action\":\"overrule\",\"move\":2,\"reason\":\"measured again: 9.9\\\"\",\"id\":\"c-1\"}";
    cr_assert_eq(venue_sub_publish(judge, "tableref/test/table/3/command/alice", cmd, false), 0);
    cr_assert_eq(venue_sub_publish(judge, "tableref/test/table/3/command/alice", cmd, false), 0); /* a redelivery */
    cr_assert_eq(venue_sub_publish(bob, "tableref/test/table/3/command/bob", "{\"action\":\"flip\"}", false), 0);
    cr_assert(poll_until(f, &c, 15000));
    cr_assert_eq(c.action, VENUE_CMD_OVERRULE);
    cr_assert_eq(c.move, 2);
    cr_assert_str_eq(c.by, "alice");
    cr_assert_str_eq(c.reason, "measured again: 9.9\"");
    cr_assert_str_eq(c.id, "c-1");
    cr_assert(poll_until(f, &c, 15000));
    cr_assert_eq(c.action, VENUE_CMD_INVALID, "the same id twice is one command");
    cr_assert_str_eq(c.by, "bob");
    cr_assert(strstr(c.error, "flip"), "%s", c.error);
    cr_assert_not(poll_until(f, &c, 300));
    venue_stats st;
    venue_feed_stats(f, &st);
    cr_assert_eq(st.commands, 4, "the live retained one, twice alice, bob (the one retained before was never sent)");
    venue_feed_free(f);
    venue_sub_free(mallory);
    venue_sub_free(bob);
    venue_sub_free(judge);
}

Test(venue_feed, offline_when_the_camera_dies_and_when_the_watch_stops, .fini = stop_broker)
{
    start_broker();
    venue_sub *s = sub_as("tableref/" EVENT "/table/4/status", "alice", NULL);
    cr_assert_not_null(s);
    venue_feed *f = feed_on(g_site.broker.port, 4, 100);
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/4/status", "\"online\"", 15000));
    publish_json(f, "{\"seq\":9,\"event\":\"camera_lost\",\"reason\":\"no frame within 2 s\"}");
    const venue_sub_msg *m = venue_sub_wait(s, "tableref/test/table/4/status", "\"camera\"", 15000);
    cr_assert_not_null(m, "explicit offline while still connected");
    cr_assert(strstr(m->payload, "\"state\":\"offline\""), "%s", m->payload);
    cr_assert(strstr(m->payload, "camera lost: no frame within 2 s"), "%s", m->payload);
    publish_json(f, "{\"seq\":10,\"event\":\"stopped\",\"reason\":\"camera lost\"}");
    m = venue_sub_wait(s, "tableref/test/table/4/status", "\"stopped\"", 15000);
    cr_assert_not_null(m);
    cr_assert(strstr(m->payload, "watch stopped: camera lost"), "%s", m->payload);
    venue_feed_free(f); /* a clean disconnection: never the will */

    /* A feed freed while online says so itself. */
    f = feed_on(g_site.broker.port, 5, 100);
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/4/status", "\"online\"", 15000));
    venue_sub *s5 = sub_as("tableref/" EVENT "/table/5/status", "bob", NULL);
    cr_assert_not_null(venue_sub_wait(s5, "tableref/test/table/5/status", "\"online\"", 15000));
    size_t from = venue_sub_count(s5);
    venue_feed_free(f);
    m = venue_sub_wait_from(s5, from, "tableref/test/table/5/status", "\"stopped\"", 15000, NULL);
    cr_assert_not_null(m);
    cr_assert(strstr(m->payload, "\"state\":\"offline\""), "%s", m->payload);
    nanosleep(&(struct timespec){0, 300000000L}, NULL);
    cr_assert_eq(venue_sub_count_matching(s, NULL, "\"will\""), 0);
    cr_assert_eq(venue_sub_count_matching(s5, NULL, "\"will\""), 0);
    venue_sub_free(s5);
    venue_sub_free(s);
}

/* A subscriber whose session the broker keeps (and, with persistence, keeps across restarts). */
static void register_judge(const char *user)
{
    venue_sub *s = sub_as("tableref/" EVENT "/#", user, user);
    cr_assert_not_null(s);
    venue_sub_free(s);
}

Test(venue_feed, events_published_while_the_broker_is_down_arrive_when_it_comes_back, .fini = stop_broker)
{
    start_broker();
    register_judge("carol");
    int port = g_site.broker.port;
    kill(g_site.broker.pid, SIGTERM); /* the broker saves its sessions and stops */
    venue_feed *f = feed_on(port, 5, 100);
    publish_json(f, CALL);
    publish_json(f, ALERT);
    venue_stats st;
    venue_feed_stats(f, &st);
    cr_assert_not(st.connected);
    cr_assert_eq(st.queued, 2, "queued, and counted");
    base_error err;
    cr_assert_eq(venue_broker_restart(&g_site.broker, &err), 0, "%s", err.msg);
    cr_assert(wait_connected(f, 10000), "reconnected on its own");
    cr_assert_eq(venue_feed_flush(f, 5000), 0);
    venue_sub *s = sub_as("tableref/" EVENT "/#", "carol", "carol");
    cr_assert_not_null(s);
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/5/event/alert", "\"seq\":4", 15000));
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/5/event/move_checked", NULL, 15000));
    venue_feed_free(f);
    venue_sub_free(s);
}

Test(venue_feed, a_full_queue_drops_other_events_before_calls_and_says_how_many, .fini = stop_broker)
{
    start_broker();
    register_judge("dave");
    int port = g_site.broker.port;
    kill(g_site.broker.pid, SIGTERM);
    venue_feed *f = feed_on(port, 6, 4);
    for (int i = 1; i <= 4; i++) {
        char ev[128];
        snprintf(ev, sizeof ev, "{\"seq\":%d,\"event\":\"settled\",\"frame\":%d}", i, i);
        publish_json(f, ev);
    }
    publish_json(f, "{\"seq\":5,\"event\":\"move_checked\",\"move\":1}");
    publish_json(f, "{\"seq\":6,\"event\":\"alert\",\"move\":1}");
    publish_json(f, "{\"seq\":7,\"event\":\"move_checked\",\"move\":2}");
    venue_stats st;
    venue_feed_stats(f, &st);
    cr_assert_eq(st.queued, 4);
    cr_assert_eq(st.dropped, 3, "settles 1-3 made room");
    cr_assert_eq(st.dropped_alerts, 0, "no call was dropped");
    base_error err;
    cr_assert_eq(venue_broker_restart(&g_site.broker, &err), 0, "%s", err.msg);
    cr_assert(wait_connected(f, 10000));
    cr_assert_eq(venue_feed_flush(f, 5000), 0);
    venue_sub *s = sub_as("tableref/" EVENT "/#", "dave", "dave");
    cr_assert_not_null(s);
    size_t i_gap, i4, i5, i6, i7;
    cr_assert_not_null(venue_sub_wait_from(s, 0, "tableref/test/table/6/event/feed_gap", "\"lost\":3,", 15000, &i_gap));
    cr_assert_not_null(venue_sub_wait_from(s, 0, "tableref/test/table/6/event/settled", "\"seq\":4", 15000, &i4));
    cr_assert_not_null(venue_sub_wait_from(s, 0, "tableref/test/table/6/event/move_checked", "\"call_no\":1,", 15000, &i5));
    cr_assert_not_null(venue_sub_wait_from(s, 0, "tableref/test/table/6/event/alert", "\"call_no\":2,", 15000, &i6));
    cr_assert_not_null(venue_sub_wait_from(s, 0, "tableref/test/table/6/event/move_checked", "\"call_no\":3,", 15000, &i7));
    cr_assert(i_gap < i4 && i4 < i5 && i5 < i6 && i6 < i7, "the gap is said first, then what was kept, in order");
    cr_assert_eq(venue_sub_count_matching(s, "tableref/test/table/6/event/settled", "\"seq\":1,"), 0);
    /* Only calls left, the oldest call goes: venue_queue's test (venue_unit). */
    venue_feed_free(f);
    venue_sub_free(s);
}

Test(venue_feed, retained_state_is_asserted_again_after_a_broker_restart, .fini = stop_broker)
{
    start_broker();
    venue_feed *f = feed_on(g_site.broker.port, 7, 100);
    publish_json(f, SETTLED);
    publish_json(f, CALL);
    cr_assert(wait_connected(f, 15000));
    cr_assert_eq(venue_feed_flush(f, 5000), 0);
    /* The broker stopped and its database removed: the restarted broker has forgotten everything. */
    kill(g_site.broker.pid, SIGTERM);
    int status;
    cr_assert_eq(waitpid(g_site.broker.pid, &status, 0), g_site.broker.pid);
    g_site.broker.pid = 0;
    char db[700];
    snprintf(db, sizeof db, "%s/data/mosquitto.db", g_site.broker.dir);
    unlink(db);
    base_error err;
    cr_assert_eq(venue_broker_restart(&g_site.broker, &err), 0, "%s", err.msg);
    venue_stats st;
    for (int t = 0; t < 10000; t += 20) { /* the drop is seen, then the reconnection */
        venue_feed_stats(f, &st);
        if (st.connects >= 2 && st.connected)
            break;
        nanosleep(&(struct timespec){0, 20000000L}, NULL);
    }
    cr_assert_geq(st.connects, 2);
    cr_assert_eq(venue_feed_flush(f, 5000), 0);
    venue_sub *s = sub_as("tableref/" EVENT "/table/7/#", "alice", NULL);
    const venue_sub_msg *state = venue_sub_wait(s, "tableref/test/table/7/state", "\"move\":1", 15000);
    cr_assert_not_null(state);
    cr_assert(state->retain);
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/7/status", "\"online\"", 15000));
    venue_sub_free(s);
    venue_feed_free(f);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/*
 * A paused broker (SIGSTOP) accepts nothing: TCP buffers fill and a blocking
 * writer would hang for as long as the pause lasts (1.5 s here). No call may
 * take a fraction of that; then everything kept arrives.
 */
Test(venue_feed, a_paused_broker_never_blocks_the_caller, .fini = stop_broker)
{
    start_broker();
    venue_sub *s = sub_as("tableref/" EVENT "/table/8/event/#", "alice", NULL);
    venue_feed *f = feed_on(g_site.broker.port, 8, 1000);
    cr_assert(wait_connected(f, 15000));
    kill(g_site.broker.pid, SIGSTOP);
    double start = now_ms(), worst = 0;
    static uint8_t frame[960][1280][3];
    for (int i = 0; i < 3000; i++) {
        char ev[1400];
        int n = snprintf(ev, sizeof ev, "{\"seq\":%d,\"event\":\"move_checked\",\"move\":%d,\"pad\":\"", i + 1, i + 1);
        memset(ev + n, 'x', 1000);
        snprintf(ev + n + 1000, sizeof ev - (size_t)n - 1000, "\"}");
        double t0 = now_ms();
        publish_json(f, ev);
        if (i % 100 == 0) {
            frame[i % 960][0][0] = (uint8_t)i;
            venue_image img = {&frame[0][0][0], 1280, 960, 1280 * 3, VENUE_PIX_BGR24};
            base_error err;
            cr_assert_eq(venue_feed_set_picture(f, &img, i + 1, &err), 0, "%s", err.msg);
        }
        double dt = now_ms() - t0;
        worst = dt > worst ? dt : worst;
    }
    while (now_ms() - start < 1500)
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    cr_assert_lt(worst, 250.0, "a call took %.1f ms while the broker was paused", worst);
    fprintf(stderr, "venue_feed: slowest call while the broker was paused: %.2f ms\n", worst);
    venue_stats st;
    venue_feed_stats(f, &st);
    cr_assert_eq(st.queued, 1000, "the queue is full, not more");
    kill(g_site.broker.pid, SIGCONT);
    cr_assert_eq(venue_feed_flush(f, 20000), 0);
    venue_feed_stats(f, &st);
    cr_assert_gt(st.dropped, 0);
    char needle[64];
    snprintf(needle, sizeof needle, "\"lost\":%ld,", st.dropped);
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/8/event/feed_gap", needle, 15000));
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/8/event/move_checked", "\"seq\":3000,", 15000));
    venue_feed_free(f);
    venue_sub_free(s);
}

/* No broker at all: the feed starts at once, says why it is not connected, keeps what it was given, and stops at once. */
Test(venue_feed, no_broker_is_said_plainly_and_nothing_waits_for_it)
{
    int port = venue_broker_free_port();
    cr_assert_gt(port, 0);
    double t0 = now_ms();
    venue_feed *f = feed_on(port, 10, 100);
    publish_json(f, ALERT);
    cr_assert_lt(now_ms() - t0, 100.0, "creating and publishing waited for the network");
    venue_stats st;
    for (int t = 0; t < 3000; t += 20) {
        venue_feed_stats(f, &st);
        if (st.last_error[0])
            break;
        nanosleep(&(struct timespec){0, 20000000L}, NULL);
    }
    cr_assert_not(st.connected);
    cr_assert_eq(st.queued, 1);
    char expect[64];
    snprintf(expect, sizeof expect, "cannot connect to 127.0.0.1:%d: Connection refused", port);
    cr_assert_str_eq(st.last_error, expect);
    cr_assert_eq(venue_feed_flush(f, 5000), 1, "flush returns at once, saying what is left");
    t0 = now_ms();
    venue_feed_free(f);
    cr_assert_lt(now_ms() - t0, 2000.0, "free waited for a broker that is not there");
}

/* Commands handed straight from the feed's thread (cfg.on_command), for a caller whose queue is thread-safe. */
typedef struct received {
    pthread_mutex_t mu;
    venue_command cmds[8];
    int n;
} received;

static void take(void *ctx, const venue_command *c)
{
    received *r = ctx;
    pthread_mutex_lock(&r->mu);
    if (r->n < 8)
        r->cmds[r->n++] = *c;
    pthread_mutex_unlock(&r->mu);
}

static int received_count(received *r)
{
    pthread_mutex_lock(&r->mu);
    int n = r->n;
    pthread_mutex_unlock(&r->mu);
    return n;
}

Test(venue_feed, commands_can_be_handed_over_as_they_arrive, .fini = stop_broker)
{
    start_broker();
    received r = {.mu = PTHREAD_MUTEX_INITIALIZER};
    venue_config cfg;
    venue_config_default(&cfg);
    cfg.port = g_site.broker.port;
    cfg.event = EVENT;
    cfg.table = 11;
    log_in_as_table(&cfg, 11);
    cfg.on_command = take;
    cfg.on_command_ctx = &r;
    base_error err;
    venue_feed *f = venue_feed_new(&cfg, &err);
    cr_assert_not_null(f, "%s", err.msg);
    cr_assert(wait_connected(f, 15000));
    venue_sub *judge = sub_as("tableref/" EVENT "/table/11/status", "carol", NULL);
    const char *cmd = "{\"action\":\"confirm\",\"move\":4,\"reason\":\"checked with a tape\",\"id\":\"x-9\"}";
    cr_assert_eq(venue_sub_publish(judge, "tableref/test/table/11/command/carol", cmd, false), 0);
    cr_assert_eq(venue_sub_publish(judge, "tableref/test/table/11/command/carol", cmd, false), 0);
    cr_assert_eq(venue_sub_publish(judge, "tableref/test/table/11/command/carol", "undo", false), 0);
    for (int t = 0; t < 3000 && received_count(&r) < 2; t += 10)
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    nanosleep(&(struct timespec){0, 200000000L}, NULL);
    cr_assert_eq(received_count(&r), 2, "the confirm once, the undo without a reason (invalid)");
    cr_assert_eq(r.cmds[0].action, VENUE_CMD_CONFIRM);
    cr_assert_eq(r.cmds[0].move, 4);
    cr_assert_str_eq(r.cmds[0].by, "carol");
    cr_assert_eq(r.cmds[1].action, VENUE_CMD_INVALID);
    cr_assert(strstr(r.cmds[1].error, "a reason is required"), "%s", r.cmds[1].error);
    venue_command c;
    cr_assert_eq(venue_feed_poll_command(f, &c), 0, "nothing left for the poll");
    venue_sub_free(judge);
    venue_feed_free(f);
}

/* Rev and wall of a state payload. */
static void rev_and_wall(const venue_sub_msg *m, int *rev, char *wall, size_t cap)
{
    cJSON *j = cJSON_Parse(m->payload);
    cr_assert_not_null(j, "%s", m->payload);
    *rev = cJSON_GetObjectItem(j, "rev")->valueint;
    snprintf(wall, cap, "%s", cJSON_GetObjectItem(j, "wall")->valuestring);
    cJSON_Delete(j);
}

/*
 * The heartbeat (issue 20): with nothing to say, the table publishes its state again (same rev, a fresh
 * wall) every heartbeat_s, so that a last will's reader knows the table's last word within that time.
 */
Test(venue_feed, the_state_is_published_again_at_each_heartbeat, .fini = stop_broker, .timeout = 60)
{
    start_broker();
    venue_sub *s = sub_as("tableref/" EVENT "/table/12/state", "alice", NULL);
    cr_assert_not_null(s);
    venue_config cfg;
    venue_config_default(&cfg);
    cfg.port = g_site.broker.port;
    cfg.event = EVENT;
    cfg.table = 12;
    cfg.heartbeat_s = 1;
    log_in_as_table(&cfg, 12);
    base_error err;
    venue_feed *f = venue_feed_new(&cfg, &err);
    cr_assert_not_null(f, "%s", err.msg);
    publish_json(f, SETTLED);
    size_t i0 = 0, i1 = 0, i2 = 0;
    const venue_sub_msg *m0 = venue_sub_wait_from(s, 0, "tableref/test/table/12/state", NULL, 15000, &i0);
    cr_assert_not_null(m0);
    const venue_sub_msg *m1 = venue_sub_wait_from(s, i0 + 1, "tableref/test/table/12/state", NULL, 5000, &i1);
    const venue_sub_msg *m2 = m1 ? venue_sub_wait_from(s, i1 + 1, "tableref/test/table/12/state", NULL, 5000, &i2) : NULL;
    cr_assert(m1 && m2, "no heartbeat within 5 s (heartbeat_s 1)");
    int r0, r1, r2;
    char w0[40], w1[40], w2[40];
    rev_and_wall(m0, &r0, w0, sizeof w0);
    rev_and_wall(m1, &r1, w1, sizeof w1);
    rev_and_wall(m2, &r2, w2, sizeof w2);
    cr_assert(r0 == r1 && r1 == r2, "a heartbeat changes nothing but the wall: rev %d %d %d", r0, r1, r2);
    cr_assert(strcmp(w0, w1) < 0 && strcmp(w1, w2) < 0, "fresh walls: %s %s %s", w0, w1, w2);
    double gap = m2->t_ms - m1->t_ms;
    cr_assert(gap > 900 && gap < 3000, "heartbeats %.0f ms apart (heartbeat_s 1)", gap);
    venue_feed_free(f);
    venue_sub_free(s);
}
