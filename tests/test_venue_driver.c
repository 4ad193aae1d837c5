/*
 * A scripted table in its own process (tests/venue_driver.c: the venue feed
 * driven the way the watch loop drives it, calls from the rules core on the
 * bundled demo turn) against a real Mosquitto started from `tableref venue
 * setup`'s own output (tests/venue_site.c; the driver logs in as table-N,
 * the subscribers as judges), checked by real subscribers:
 * the call and its QoS 1 alert, the retained state a late subscriber gets
 * (distances included), a judge's command delivered back to the driver's
 * frame loop and answered, and the last will after kill -9.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "venue_proc.h"
#include "venue_site.h"
#include "venue_sub.h"

static venue_site g_site;
static venue_proc g_driver = {.pid = -1};

static void setup(void)
{
    char err[600];
    cr_assert_eq(venue_site_start(&g_site, "test", 2, "alice,bob,carol", NULL, NULL, err, sizeof err), 0, "%s", err);
}

static void teardown(void)
{
    venue_proc_kill(&g_driver, SIGKILL);
    venue_site_stop(&g_site);
}

static venue_sub *sub_as(const char *pattern, const char *user)
{
    return venue_sub_new_as(g_site.broker.port, pattern, 1, NULL, user, venue_site_password(&g_site, user));
}

/* The scripted table `table`, logged in as table-N. */
static int start_driver(int table, bool apply)
{
    char user[32];
    snprintf(user, sizeof user, "table-%d", table);
    return venue_proc_start_as(&g_driver, g_site.broker.port, "test", table, apply, user,
                               venue_site_password(&g_site, user));
}

static double number_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItem(o, a);
    x = b ? cJSON_GetObjectItem(x, b) : x;
    cr_assert(cJSON_IsNumber(x), "%s.%s: not a number", a, b ? b : "");
    return x->valuedouble;
}

Test(venue_driver, a_scripted_table_seen_by_real_subscribers_then_killed, .init = setup, .fini = teardown,
     .timeout = 60)
{
    venue_sub *live = sub_as("tableref/test/table/1/#", "alice");
    cr_assert_not_null(live);
    cr_assert_eq(start_driver(1, true), 0,
                 "could not start the driver ($TABLEREF_VENUE_DRIVER)");
    cr_assert_eq(venue_proc_say(&g_driver, "started\nsettled\ncall\nalert\npicture\n"), 0);

    /* The alert: QoS 1, not retained, the illegal unit and its rule. */
    const venue_sub_msg *alert = venue_sub_wait(live, "tableref/test/table/1/event/alert", NULL, 15000);
    cr_assert_not_null(alert);
    cr_assert_eq(alert->qos, 1);
    cr_assert_not(alert->retain);
    cJSON *a = cJSON_Parse(alert->payload);
    cr_assert_str_eq(cJSON_GetObjectItem(a, "unit")->valuestring, "spears");
    cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(a, "codes"), 0)->valuestring, "MU-MODEL-DIST");
    cr_assert_eq((int)number_at(a, "move", NULL), 1);
    cJSON_Delete(a);
    cr_assert_not_null(venue_sub_wait(live, "tableref/test/table/1/picture", NULL, 15000));
    cr_assert_not_null(venue_sub_wait(live, "tableref/test/table/1/state", "\"picture\":{", 15000));

    /* A judge's page opened now gets the table at once, from the retained messages. */
    venue_sub *late = sub_as("tableref/test/table/1/#", "bob");
    cr_assert_not_null(late);
    const venue_sub_msg *state = venue_sub_wait(late, "tableref/test/table/1/state", NULL, 15000);
    cr_assert_not_null(state);
    cr_assert(state->retain);
    cJSON *st = cJSON_Parse(state->payload);
    const cJSON *call = cJSON_GetObjectItem(st, "last_call");
    cr_assert_eq((int)number_at(call, "move", NULL), 1);
    const cJSON *spears = cJSON_GetArrayItem(cJSON_GetObjectItem(call, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(spears, "unit")->valuestring, "spears");
    cr_assert_str_eq(cJSON_GetObjectItem(spears, "verdict")->valuestring, "illegal");
    cr_assert_float_eq(number_at(spears, "distance", "farthest_in"), 10.38, 0.006);
    cr_assert_float_eq(number_at(spears, "distance", "rate_in"), 10.0, 0.006);
    cr_assert_eq((int)number_at(cJSON_GetObjectItem(st, "last_alert"), "move", NULL), 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "units")), 3, "spears, knights, archers");
    cr_assert_eq((int)number_at(st, "picture", "width"), 640, "1280 px shrunk by 2");
    cr_assert_eq((int)number_at(st, "illegal_standing", NULL), 1, "the spears' march stands until a judge rules");
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(st, "last_ruling")), "no ruling yet");
    cJSON_Delete(st);
    const venue_sub_msg *pic = venue_sub_wait(late, "tableref/test/table/1/picture", NULL, 15000);
    cr_assert(pic && pic->retain && (uint8_t)pic->payload[0] == 0xFF && (uint8_t)pic->payload[1] == 0xD8);
    const venue_sub_msg *status = venue_sub_wait(late, "tableref/test/table/1/status", NULL, 15000);
    cr_assert(status && status->retain && strstr(status->payload, "\"online\""));

    /* A judge overrules the call: the driver's frame loop polls it and answers with a correction. */
    cr_assert_eq(venue_sub_publish(live, "tableref/test/table/1/command/alice",
                                   "{\"action\":\"overrule\",\"move\":1,\"reason\":\"the spear was lifted\","
                                   "\"id\":\"t-1\"}",
                                   false),
                 0);
    char line[1024];
    cr_assert_eq(venue_proc_read_line(&g_driver, line, sizeof line, 5000), 0, "no command reached the driver");
    cJSON *c = cJSON_Parse(line);
    cr_assert_not_null(c, "%s", line);
    cr_assert_str_eq(cJSON_GetObjectItem(c, "action")->valuestring, "overrule");
    cr_assert_str_eq(cJSON_GetObjectItem(c, "by")->valuestring, "alice");
    cr_assert_str_eq(cJSON_GetObjectItem(c, "reason")->valuestring, "the spear was lifted");
    cr_assert_str_eq(cJSON_GetObjectItem(c, "line")->valuestring, "overrule 1 the spear was lifted");
    cJSON_Delete(c);
    const venue_sub_msg *corr = venue_sub_wait(live, "tableref/test/table/1/event/correction", "\"id\":\"t-1\"", 15000);
    cr_assert_not_null(corr);
    cr_assert(strstr(corr->payload, "\"by\":\"mqtt:alice\""), "%s", corr->payload);
    /* The retained state carries the ruling: alice's overrule, nothing standing. */
    const venue_sub_msg *ruled = venue_sub_wait(live, "tableref/test/table/1/state", "\"last_ruling\":{", 15000);
    cr_assert_not_null(ruled, "no state with the ruling");
    cJSON *rs = cJSON_Parse(ruled->payload);
    cr_assert_eq((int)number_at(rs, "illegal_standing", NULL), 0);
    const cJSON *ruling = cJSON_GetObjectItem(rs, "last_ruling");
    cr_assert_str_eq(cJSON_GetObjectItem(ruling, "action")->valuestring, "overrule");
    cr_assert_str_eq(cJSON_GetObjectItem(ruling, "by")->valuestring, "mqtt:alice");
    cr_assert_eq((int)number_at(ruling, "move", NULL), 1);
    cr_assert(cJSON_IsString(cJSON_GetObjectItem(ruling, "wall")), "when");
    cJSON_Delete(rs);

    /* kill -9: no goodbye from the process; the broker publishes its last will. */
    size_t from = venue_sub_count(live);
    int st9 = venue_proc_kill(&g_driver, SIGKILL);
    cr_assert(WIFSIGNALED(st9) && WTERMSIG(st9) == SIGKILL);
    const venue_sub_msg *will = venue_sub_wait_from(live, from, "tableref/test/table/1/status", "\"will\":true", 15000, NULL);
    cr_assert_not_null(will, "no last will within 15 s of kill -9");
    cr_assert(strstr(will->payload, "\"state\":\"offline\""), "%s", will->payload);
    cr_assert(strstr(will->payload, "\"cause\":\"connection\""), "%s", will->payload);
    /* The will carries the time its connection was made (the table's clock). The first state may be
     * built before the connection is up (the feed queues it), but the state carrying alice's ruling
     * answers a command that came through this connection, so the connection is older than it. */
    cJSON *w = cJSON_Parse(will->payload);
    cJSON *rs_again = cJSON_Parse(ruled->payload);
    const cJSON *connected = cJSON_GetObjectItem(w, "connected");
    const cJSON *ruled_wall = cJSON_GetObjectItem(rs_again, "wall");
    bool ordered = cJSON_IsString(connected) && cJSON_IsString(ruled_wall) &&
                   strcmp(connected->valuestring, ruled_wall->valuestring) <= 0;
    int heartbeat_s = (int)number_at(w, "heartbeat_s", NULL);
    cJSON_Delete(rs_again);
    cJSON_Delete(w);
    cr_assert(ordered, "the will's connected time is not before the ruled state's: %s", will->payload);
    cr_assert_eq(heartbeat_s, 60);
    /* ... and it stays: a page opened later sees the table offline. */
    venue_sub *later = sub_as("tableref/test/table/1/status", "carol");
    const venue_sub_msg *kept = venue_sub_wait(later, "tableref/test/table/1/status", NULL, 15000);
    cr_assert(kept && kept->retain && strstr(kept->payload, "\"will\":true"));
    venue_sub_free(later);
    venue_sub_free(late);
    venue_sub_free(live);
}

Test(venue_driver, cannot_tell_and_not_seen_are_published_as_such_never_as_illegal, .init = setup, .fini = teardown,
     .timeout = 60)
{
    venue_sub *s = sub_as("tableref/test/table/2/#", "alice");
    cr_assert_not_null(s);
    cr_assert_eq(start_driver(2, false), 0);
    cr_assert_eq(venue_proc_say(&g_driver, "started\nsettled\ncall_unsure\nalert\n"), 0);
    const venue_sub_msg *call = venue_sub_wait(s, "tableref/test/table/2/event/move_checked", NULL, 15000);
    cr_assert_not_null(call);
    cJSON *ev = cJSON_Parse(call->payload);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(ev, "legal")), "no ILLEGAL call stands");
    const cJSON *units = cJSON_GetObjectItem(ev, "units");
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(units, 0), "verdict")->valuestring, "cannot_tell");
    cr_assert(strstr(cJSON_GetObjectItem(cJSON_GetArrayItem(units, 0), "why")->valuestring, "spears-7"));
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(units, 1), "verdict")->valuestring, "not_seen");
    cJSON_Delete(ev);
    /* The driver raises alerts only for ILLEGAL units, as watch does: none here. */
    cr_assert_eq(venue_proc_finish(&g_driver), 0);
    cr_assert_not_null(venue_sub_wait(s, "tableref/test/table/2/event/stopped", NULL, 15000));
    cr_assert_eq(venue_sub_count_matching(s, "tableref/test/table/2/event/alert", NULL), 0);
    const venue_sub_msg *status = venue_sub_wait(s, "tableref/test/table/2/status", "\"stopped\"", 15000);
    cr_assert_not_null(status);
    venue_sub_free(s);
}
