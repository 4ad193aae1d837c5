/*
 * The venue feed's parts that need no broker: judge commands as they arrive,
 * the bounded queue's drop order, topics and payloads, the retained state
 * folded from watch events, each unit's distances from a real rules report
 * (the bundled demo turn), the overlay picture shrunk and encoded, and the
 * --mqtt / --event arguments.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rules_json.h"
#include "rules_move.h"
#include "venue_command.h"
#include "venue_feed.h"
#include "venue_payload.h"
#include "venue_picture.h"
#include "venue_queue.h"

static int parse(const char *payload, const char *by, bool retained, venue_command *c)
{
    return venue_command_parse(payload, strlen(payload), by, retained, c);
}

Test(venue_command, json_overrule_with_move_reason_and_id)
{
    venue_command c;
    cr_assert_eq(parse("{\"action\":\"overrule\",\"move\":3,\"reason\":\"measured again: 9.9\\\"\",\"id\":\"k3-1\"}",
                       "alice", false, &c), 0, "%s", c.error);
    cr_assert_eq(c.action, VENUE_CMD_OVERRULE);
    cr_assert_eq(c.move, 3);
    cr_assert_str_eq(c.reason, "measured again: 9.9\"");
    cr_assert_str_eq(c.by, "alice");
    cr_assert_str_eq(c.id, "k3-1");
    cr_assert_str_eq(c.line, "overrule 3 measured again: 9.9\"");
}

Test(venue_command, plain_line_as_mosquitto_pub_sends_it)
{
    venue_command c;
    cr_assert_eq(parse("  confirm 12   the wheel swung the rear rank too far  \n", "bob", false, &c), 0, "%s", c.error);
    cr_assert_eq(c.action, VENUE_CMD_CONFIRM);
    cr_assert_eq(c.move, 12);
    cr_assert_str_eq(c.reason, "the wheel swung the rear rank too far");
    cr_assert_str_eq(c.line, "confirm 12 the wheel swung the rear rank too far");
    cr_assert_eq(parse("undo 3 units went back", "bob", false, &c), 0, "%s", c.error);
    cr_assert_eq(c.action, VENUE_CMD_UNDO);
    cr_assert_eq(c.move, 0, "undo takes no move: the number belongs to the reason");
    cr_assert_str_eq(c.reason, "3 units went back");
}

/* Issue 29: the roll a player declares for random movement, from the judge's page or a plain line. */
Test(venue_command, roll_names_a_unit_and_the_inches)
{
    venue_command c;
    cr_assert_eq(parse("{\"action\":\"roll\",\"unit\":\"spawn\",\"roll_in\":11,\"reason\":\"roll declared\",\"id\":\"r1\"}",
                       "alice", false, &c), 0, "%s", c.error);
    cr_assert_eq(c.action, VENUE_CMD_ROLL);
    cr_assert_str_eq(c.unit, "spawn");
    cr_assert_float_eq(c.roll_in, 11.0, 1e-9);
    cr_assert_str_eq(c.line, "roll spawn 11.00 roll declared");
    cr_assert_eq(parse("roll spawn 9.5", "bob", false, &c), 0, "a roll needs no reason: %s", c.error);
    cr_assert_str_eq(c.line, "roll spawn 9.50");
    cr_assert_eq(parse("{\"action\":\"roll\",\"unit\":\"spawn\"}", "j", false, &c), -1);
    cr_assert(strstr(c.error, "roll_in") != NULL, "%s", c.error);
    cr_assert_eq(parse("roll spawn 120", "j", false, &c), -1);
    cr_assert_eq(parse("{\"action\":\"roll\",\"unit\":\"a b\",\"roll_in\":3}", "j", false, &c), -1);
}

Test(venue_command, accept_is_read_as_overrule_and_latest_call_is_move_zero)
{
    venue_command c;
    cr_assert_eq(parse("{\"action\":\"accept\",\"reason\":\"ok\"}", "j", false, &c), 0, "%s", c.error);
    cr_assert_eq(c.action, VENUE_CMD_OVERRULE);
    cr_assert_eq(c.move, 0);
    cr_assert_str_eq(c.line, "overrule ok");
}

Test(venue_command, refuses_what_a_judge_must_not_send)
{
    static const struct {
        const char *payload;
        bool retained;
        const char *error_part;
    } cases[] = {
        {"{\"action\":\"overrule\",\"move\":1}", false, "a reason is required"},
        {"{\"action\":\"overrule\",\"reason\":\"\"}", false, "a reason is required"},
        {"{\"action\":\"stop\",\"reason\":\"x\"}", false, "unknown \"stop\""},
        {"{\"action\":\"overrule\",\"move\":-1,\"reason\":\"x\"}", false, "move"},
        {"{\"action\":\"overrule\",\"move\":2.5,\"reason\":\"x\"}", false, "move"},
        {"{\"action\":\"overrule\",\"reason\":7}", false, "reason: expected a string"},
        {"{\"action\":\"overrule\",\"reason\":\"a\\nb\"}", false, "control characters"},
        {"{\"action\":\"overrule\",\"reason\":\"x\"", false, "not valid JSON"},
        {"[1,2]", false, "expected a JSON object"},
        {"overrule 3", false, "a reason is required"},
        {"explode 3 now", false, "unknown command \"explode\""},
        {"overrule 3 reason", true, "retained command is refused"},
        {"", false, "empty command"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        venue_command c;
        cr_assert_eq(venue_command_parse(cases[i].payload, strlen(cases[i].payload), "j", cases[i].retained, &c), -1,
                     "case %zu accepted: %s", i, cases[i].payload);
        cr_assert_eq(c.action, VENUE_CMD_INVALID);
        cr_assert(strstr(c.error, cases[i].error_part), "case %zu: error \"%s\" lacks \"%s\"", i, c.error,
                  cases[i].error_part);
        cr_assert_str_eq(c.by, "j");
    }
    char big[VENUE_COMMAND_MAX_PAYLOAD + 10];
    memset(big, 'a', sizeof big);
    venue_command c;
    cr_assert_eq(venue_command_parse(big, sizeof big, "j", false, &c), -1);
    cr_assert(strstr(c.error, "longer than"));
}

static venue_msg msg(const char *text, bool precious)
{
    venue_msg m = {0};
    m.topic = strdup("t");
    m.payload = strdup(text);
    m.len = strlen(text);
    m.qos = 1;
    m.precious = precious;
    return m;
}

Test(venue_queue, full_queue_drops_the_oldest_ordinary_message_and_keeps_alerts)
{
    venue_queue q;
    cr_assert_eq(venue_queue_init(&q, 3), 0);
    venue_msg m;
    m = msg("alert-1", true);
    cr_assert_eq(venue_queue_push(&q, &m), 0);
    cr_assert_null(m.topic, "the queue takes the strings");
    m = msg("call-1", false);
    venue_queue_push(&q, &m);
    m = msg("call-2", false);
    venue_queue_push(&q, &m);
    m = msg("alert-2", true);
    cr_assert_eq(venue_queue_push(&q, &m), 1, "full: one dropped");
    m = msg("alert-3", true);
    cr_assert_eq(venue_queue_push(&q, &m), 1);
    cr_assert_eq(q.dropped, 2);
    cr_assert_eq(q.dropped_precious, 0, "calls go before alerts");
    const char *expect[] = {"alert-1", "alert-2", "alert-3"};
    for (int i = 0; i < 3; i++) {
        cr_assert(venue_queue_pop(&q, &m));
        cr_assert_str_eq(m.payload, expect[i]);
        venue_msg_clear(&m);
    }
    cr_assert_not(venue_queue_pop(&q, &m));
    /* Nothing but alerts: the oldest alert goes, and it is counted as an alert. */
    for (int i = 0; i < 4; i++) {
        char t[16];
        snprintf(t, sizeof t, "a%d", i);
        m = msg(t, true);
        venue_queue_push(&q, &m);
    }
    cr_assert_eq(q.dropped_precious, 1);
    cr_assert(venue_queue_pop(&q, &m));
    cr_assert_str_eq(m.payload, "a1");
    venue_msg_clear(&m);
    venue_queue_free(&q);
}

Test(venue_payload, topics_and_status)
{
    char t[128];
    cr_assert_eq(venue_topic(t, sizeof t, "gt-2026", 7, "state"), 0);
    cr_assert_str_eq(t, "tableref/gt-2026/table/7/state");
    cr_assert_eq(venue_topic(t, 20, "gt-2026", 7, "state"), -1, "too long for the buffer");
    char *s = venue_status_payload("gt-2026", 7, false, "camera", "camera lost: no frame", false);
    cJSON *j = cJSON_Parse(s);
    cr_assert_not_null(j);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "format")->valuestring, "tableref.venue.status");
    cr_assert_str_eq(cJSON_GetObjectItem(j, "state")->valuestring, "offline");
    cr_assert_str_eq(cJSON_GetObjectItem(j, "cause")->valuestring, "camera");
    cr_assert_eq(cJSON_GetObjectItem(j, "table")->valueint, 7);
    cr_assert_not_null(cJSON_GetObjectItem(j, "wall"));
    cJSON_Delete(j);
    free(s);
    s = venue_status_payload("gt-2026", 7, false, "connection", "gone", true);
    j = cJSON_Parse(s);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "will")));
    cr_assert_null(cJSON_GetObjectItem(j, "wall"), "a will is written at connection: no time in it");
    cJSON_Delete(j);
    free(s);
    /* The will the feed sets before each connection: the connection's time, never a "since" it cannot know. */
    char before[40], after[40];
    venue_wall_now(before, sizeof before);
    s = venue_will_payload("gt-2026", 7, 60, 10);
    venue_wall_now(after, sizeof after);
    j = cJSON_Parse(s);
    cr_assert_not_null(j);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "will")));
    cr_assert_str_eq(cJSON_GetObjectItem(j, "state")->valuestring, "offline");
    cr_assert_str_eq(cJSON_GetObjectItem(j, "cause")->valuestring, "connection");
    const char *connected = cJSON_GetObjectItem(j, "connected")->valuestring;
    cr_assert(strcmp(connected, before) >= 0 && strcmp(connected, after) <= 0, "%s not in [%s, %s]", connected,
              before, after);
    cr_assert_eq(cJSON_GetObjectItem(j, "heartbeat_s")->valueint, 60);
    cr_assert_eq(cJSON_GetObjectItem(j, "keepalive_s")->valueint, 10);
    cr_assert_null(cJSON_GetObjectItem(j, "wall"));
    cr_assert_null(cJSON_GetObjectItem(j, "since"));
    cJSON_Delete(j);
    free(s);
}

static cJSON *event_json(const char *text)
{
    cJSON *j = cJSON_Parse(text);
    cr_assert_not_null(j, "bad test JSON: %s", text);
    return j;
}

Test(venue_payload, state_follows_the_watch_events)
{
    venue_state st;
    venue_state_init(&st, "gt", 3);
    cJSON *ev = event_json("{\"seq\":1,\"event\":\"started\",\"t_ms\":0,\"source\":\"cam\",\"fps\":5}");
    cr_assert_eq(venue_state_apply(&st, ev), 1);
    cJSON_Delete(ev);
    ev = event_json("{\"seq\":2,\"event\":\"settled\",\"first\":true,\"snapshot\":{\"board\":{\"width_mm\":1828.8,"
                    "\"depth_mm\":1219.2},\"units\":[{\"id\":\"spears\",\"side\":\"red\",\"models\":["
                    "{\"id\":\"s1\",\"x_mm\":100,\"y_mm\":200,\"facing_deg\":350},"
                    "{\"id\":\"s2\",\"x_mm\":125,\"y_mm\":200,\"facing_deg\":10,\"inferred\":true}]}]}}");
    cr_assert_eq(venue_state_apply(&st, ev), 1);
    cJSON_Delete(ev);
    ev = event_json("{\"seq\":3,\"event\":\"move_checked\",\"move\":1,\"legal\":false,\"units\":[{\"unit\":\"spears\","
                    "\"verdict\":\"illegal\"}],\"snapshot\":{\"units\":[]}}");
    cr_assert_eq(venue_state_apply(&st, ev), 1);
    cJSON_Delete(ev);
    ev = event_json("{\"seq\":4,\"event\":\"camera_lost\",\"reason\":\"gone\"}");
    cr_assert_eq(venue_state_apply(&st, ev), 0, "the status says it, not the state");
    cJSON_Delete(ev);

    char *text = venue_state_print(&st, 2, 5);
    cJSON *j = cJSON_Parse(text);
    free(text);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "format")->valuestring, "tableref.venue.state");
    cr_assert_eq(cJSON_GetObjectItem(j, "rev")->valueint, 3);
    cr_assert_eq(cJSON_GetObjectItem(j, "calls")->valueint, 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "units")), 0, "units from the latest snapshot");
    const cJSON *call = cJSON_GetObjectItem(j, "last_call");
    cr_assert_eq(cJSON_GetObjectItem(call, "move")->valueint, 1);
    cr_assert_null(cJSON_GetObjectItem(call, "snapshot"), "no snapshot inside the state's call");
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "session"), "source")->valuestring, "cam");
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "last_alert")));
    cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "feed"), "dropped")->valueint, 5);
    cJSON_Delete(j);
    venue_state_clear(&st);
}

/* Folds one event given as JSON text; what venue_state_apply returned. */
static int apply_text(venue_state *st, const char *json)
{
    cJSON *ev = event_json(json);
    int rc = venue_state_apply(st, ev);
    cJSON_Delete(ev);
    return rc;
}

/* The state's illegal_standing and last_ruling's action, seq and by, as a page reads them. */
static void ruling_of(const venue_state *st, int *standing, char *action, int *seq, char *by)
{
    char *text = venue_state_print(st, 0, 0);
    cJSON *j = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(j);
    *standing = cJSON_GetObjectItem(j, "illegal_standing")->valueint;
    const cJSON *r = cJSON_GetObjectItem(j, "last_ruling");
    cr_assert_not_null(r, "last_ruling is always there (null when none)");
    strcpy(action, cJSON_IsNull(r) ? "" : cJSON_GetObjectItem(r, "action")->valuestring);
    *seq = cJSON_IsNull(r) ? 0 : cJSON_GetObjectItem(r, "seq")->valueint;
    strcpy(by, cJSON_IsNull(r) ? "" : cJSON_GetObjectItem(r, "by")->valuestring);
    cJSON_Delete(j);
}

/* Issue 20: the retained state carries the ruling; a refused command, a status or a reach never changes it. */
Test(venue_payload, state_carries_the_judges_ruling_and_the_illegal_calls_standing)
{
    venue_state st;
    venue_state_init(&st, "gt", 3);
    int standing = -1, seq = -1;
    char action[32], by[64];
    apply_text(&st, "{\"seq\":1,\"event\":\"started\"}");
    ruling_of(&st, &standing, action, &seq, by);
    cr_assert_eq(standing, 0);
    cr_assert_str_eq(action, "", "no ruling yet: null");
    apply_text(&st, "{\"seq\":2,\"event\":\"move_checked\",\"move\":1,\"legal\":false,\"units\":[]}");
    apply_text(&st, "{\"seq\":3,\"event\":\"move_checked\",\"move\":2,\"legal\":true,\"units\":[]}");
    apply_text(&st, "{\"seq\":4,\"event\":\"move_checked\",\"move\":3,\"legal\":false,\"units\":[]}");
    ruling_of(&st, &standing, action, &seq, by);
    cr_assert_eq(standing, 2, "moves 1 and 3 were called ILLEGAL");
    apply_text(&st, "{\"seq\":5,\"event\":\"correction\",\"action\":\"overrule\",\"move\":1,\"applied\":true,"
                    "\"by\":\"mqtt:alice\",\"reason\":\"tape\",\"wall\":\"2026-11-26T10:00:00.000Z\"}");
    ruling_of(&st, &standing, action, &seq, by);
    cr_assert_eq(standing, 1);
    cr_assert(strcmp(action, "overrule") == 0 && seq == 5 && strcmp(by, "mqtt:alice") == 0, "%s %d %s", action, seq, by);
    /* Refused commands, a status and a reach: the ruling and the count stay. */
    cr_assert_eq(apply_text(&st, "{\"seq\":6,\"event\":\"correction\",\"action\":\"invalid\",\"move\":0,"
                                 "\"applied\":false,\"by\":\"mqtt:bob\",\"why_not\":\"unknown action\"}"), 1);
    apply_text(&st, "{\"seq\":7,\"event\":\"correction\",\"action\":\"overrule\",\"move\":3,\"applied\":false,"
                    "\"by\":\"mqtt:bob\",\"why_not\":\"retained\"}");
    apply_text(&st, "{\"seq\":8,\"event\":\"correction\",\"action\":\"status\",\"move\":0,\"applied\":true,"
                    "\"by\":\"mqtt:carol\",\"unit\":\"spears\"}");
    ruling_of(&st, &standing, action, &seq, by);
    cr_assert(standing == 1 && strcmp(action, "overrule") == 0 && seq == 5, "%d %s %d", standing, action, seq);
    /* A confirm makes an overruled call stand again (as the watch counts it); an undo drops it. */
    apply_text(&st, "{\"seq\":9,\"event\":\"correction\",\"action\":\"confirm\",\"move\":1,\"applied\":true,"
                    "\"by\":\"mqtt:bob\"}");
    ruling_of(&st, &standing, action, &seq, by);
    cr_assert(standing == 2 && strcmp(action, "confirm") == 0 && strcmp(by, "mqtt:bob") == 0, "%d %s", standing, action);
    apply_text(&st, "{\"seq\":10,\"event\":\"correction\",\"action\":\"undo\",\"move\":3,\"applied\":true,"
                    "\"by\":\"mqtt:alice\"}");
    ruling_of(&st, &standing, action, &seq, by);
    cr_assert(standing == 1 && strcmp(action, "undo") == 0 && seq == 10, "%d %s %d", standing, action, seq);
    /* A new session: nothing stands, no ruling. */
    apply_text(&st, "{\"seq\":1,\"event\":\"started\"}");
    ruling_of(&st, &standing, action, &seq, by);
    cr_assert(standing == 0 && action[0] == 0);
    venue_state_clear(&st);
}

Test(venue_payload, units_in_brief_from_a_snapshot)
{
    cJSON *snap = event_json("{\"units\":[{\"id\":\"spears\",\"side\":\"red\",\"models\":["
                             "{\"id\":\"s1\",\"x_mm\":100,\"y_mm\":200,\"facing_deg\":350},"
                             "{\"id\":\"s2\",\"x_mm\":125,\"y_mm\":210,\"facing_deg\":10,\"inferred\":true}]}]}");
    cJSON *units = venue_units_from_snapshot(snap);
    cr_assert_eq(cJSON_GetArraySize(units), 1);
    cJSON *u = cJSON_GetArrayItem(units, 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "unit")->valuestring, "spears");
    cr_assert_eq(cJSON_GetObjectItem(u, "models")->valueint, 2);
    cr_assert_eq(cJSON_GetObjectItem(u, "inferred")->valueint, 1);
    cJSON *c = cJSON_GetObjectItem(u, "centre_mm");
    cr_assert_float_eq(cJSON_GetArrayItem(c, 0)->valuedouble, 112.5, 0.05);
    cr_assert_float_eq(cJSON_GetArrayItem(c, 1)->valuedouble, 205.0, 0.05);
    cr_assert_float_eq(cJSON_GetObjectItem(u, "facing_deg")->valuedouble, 0.0, 0.05,
                       "350 and 10 degrees average to 0 on the circle, not 180");
    cJSON_Delete(units);
    cJSON_Delete(snap);
}

Test(venue_payload, published_event_has_no_snapshot_and_names_the_table)
{
    cJSON *ev = event_json("{\"seq\":9,\"event\":\"settled\",\"snapshot\":{\"units\":[]},\"tags_seen\":23}");
    cJSON *pub = venue_event_for_feed(ev, 12);
    cr_assert_null(cJSON_GetObjectItem(pub, "snapshot"));
    cr_assert_eq(cJSON_GetObjectItem(pub, "table")->valueint, 12);
    cr_assert_eq(cJSON_GetObjectItem(pub, "seq")->valueint, 9);
    cr_assert_eq(cJSON_GetObjectItem(pub, "tags_seen")->valueint, 23);
    cr_assert_not_null(cJSON_GetObjectItem(ev, "snapshot"), "the caller's event is untouched");
    cJSON_Delete(pub);
    cJSON_Delete(ev);
}

static char *source_path(const char *rel)
{
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    cr_assert_not_null(root, "TABLEREF_SOURCE_ROOT");
    char *p = malloc(strlen(root) + strlen(rel) + 2);
    sprintf(p, "%s/%s", root, rel);
    return p;
}

/*
 * datasets/demo (`tableref check` prints the same): spears March 7.23" along
 * its path, but spears-7 ends 10.38" away (March Rate 10"); knights Advance
 * 3.62" (limit 8").
 */
Test(venue_payload, call_distances_from_the_demo_turn)
{
    char *b = source_path("datasets/demo/before.json"), *a = source_path("datasets/demo/after.json");
    base_error err;
    rules_snapshot *before = rules_json_load_snapshot(b, &err), *after = rules_json_load_snapshot(a, &err);
    cr_assert(before && after, "%s", err.msg);
    rules_check_options opt;
    rules_check_options_default(&opt);
    rules_report r;
    rules_report_init(&r);
    cr_assert_eq(rules_move_check(before, after, &opt, &r, &err), 0, "%s", err.msg);
    cJSON *ev = event_json("{\"event\":\"move_checked\",\"move\":1,\"units\":[{\"unit\":\"spears\"},"
                           "{\"unit\":\"knights\"},{\"unit\":\"nobody\"}]}");
    cr_assert_eq(venue_call_add_distances(ev, &r), 0);
    cJSON *units = cJSON_GetObjectItem(ev, "units");
    cJSON *spears = cJSON_GetArrayItem(units, 0);
    cJSON *d = cJSON_GetObjectItem(spears, "distance");
    cr_assert_not_null(d);
    cr_assert_float_eq(cJSON_GetObjectItem(d, "path_in")->valuedouble, 7.23, 0.006);
    cr_assert_float_eq(cJSON_GetObjectItem(d, "rate_in")->valuedouble, 10.0, 0.006);
    cr_assert_float_eq(cJSON_GetObjectItem(d, "farthest_in")->valuedouble, 10.38, 0.006);
    cr_assert_str_eq(cJSON_GetObjectItem(d, "farthest_model")->valuestring, "spears-7");
    cr_assert_str_eq(cJSON_GetObjectItem(spears, "verdict")->valuestring, "illegal");
    cJSON *knights = cJSON_GetArrayItem(units, 1);
    cr_assert_str_eq(cJSON_GetObjectItem(knights, "verdict")->valuestring, "legal");
    cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(knights, "distance"), "path_in")->valuedouble, 3.62,
                       0.006, "knights: forward 3.00\" and a 0.62\" wheel");
    cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(knights, "distance"), "rate_in")->valuedouble, 8.0,
                       0.006);
    cr_assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(units, 2), "distance"), "not in the report: untouched");
    cJSON_Delete(ev);
    rules_report_clear(&r);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    free(a);
    free(b);
}

Test(venue_picture, shrink_by_whole_factor_is_the_block_mean)
{
    /* 6 x 4 RGB, to at most 3 wide: factor 2, 3 x 2 out; each output pixel the mean of its 2 x 2 block. */
    uint8_t px[4][6][3];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++)
            for (int c = 0; c < 3; c++)
                px[y][x][c] = (uint8_t)(10 * x + 40 * y + c);
    venue_image img = {&px[0][0][0], 6, 4, sizeof px[0], VENUE_PIX_RGB24};
    venue_picture pic;
    base_error err;
    cr_assert_eq(venue_picture_shrink(&img, 3, &pic, &err), 0, "%s", err.msg);
    cr_assert_eq(pic.width, 3);
    cr_assert_eq(pic.height, 2);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 3; c++) {
                int mean = (px[2 * y][2 * x][c] + px[2 * y][2 * x + 1][c] + px[2 * y + 1][2 * x][c] +
                            px[2 * y + 1][2 * x + 1][c] + 2) / 4;
                cr_assert_eq(pic.pixels[(y * 3 + x) * 3 + c], mean, "pixel %d,%d channel %d", x, y, c);
            }
    uint8_t *jpeg;
    size_t n;
    cr_assert_eq(venue_picture_encode(&pic, 80, &jpeg, &n, &err), 0, "%s", err.msg);
    cr_assert(n > 100 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "a JPEG");
    int w, h;
    cr_assert_eq(venue_jpeg_size(jpeg, n, &w, &h, &err), 0, "%s", err.msg);
    cr_assert_eq(w, 3);
    cr_assert_eq(h, 2);
    free(jpeg);
    venue_picture_clear(&pic);
    uint8_t not_jpeg[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    cr_assert_eq(venue_jpeg_size(not_jpeg, sizeof not_jpeg, &w, &h, &err), -1);
    cr_assert(strstr(err.msg, "not a JPEG"));
}

Test(venue_picture, refuses_empty_or_inconsistent_pictures)
{
    uint8_t px[16] = {0};
    base_error err;
    venue_picture pic;
    venue_image empty = {px, 0, 4, 4, VENUE_PIX_GRAY8};
    cr_assert_eq(venue_picture_shrink(&empty, 640, &pic, &err), -1);
    venue_image short_rows = {px, 4, 2, 2, VENUE_PIX_RGB24};
    cr_assert_eq(venue_picture_shrink(&short_rows, 640, &pic, &err), -1);
    cr_assert(strstr(err.msg, "stride"), "%s", err.msg);
}

Test(venue_config, broker_argument_and_event_name)
{
    venue_config cfg;
    venue_config_default(&cfg);
    base_error err;
    cr_assert_eq(venue_parse_broker("broker.local", &cfg, &err), 0);
    cr_assert_str_eq(cfg.host, "broker.local");
    cr_assert_eq(cfg.port, 1883);
    cr_assert_eq(venue_parse_broker("10.0.0.2:1884", &cfg, &err), 0);
    cr_assert_str_eq(cfg.host, "10.0.0.2");
    cr_assert_eq(cfg.port, 1884);
    cr_assert_eq(venue_parse_broker("[fe80::1]:8883", &cfg, &err), 0);
    cr_assert_str_eq(cfg.host, "fe80::1");
    cr_assert_eq(cfg.port, 8883);
    cr_assert_eq(venue_parse_broker("host:0", &cfg, &err), -1);
    cr_assert(strstr(err.msg, "port"));
    cr_assert_eq(venue_parse_broker("host:12x", &cfg, &err), -1);
    cr_assert_eq(venue_parse_broker(":1883", &cfg, &err), -1);
    cr_assert_eq(venue_parse_broker("fe80::1", &cfg, &err), -1);
    cr_assert(strstr(err.msg, "[ADDRESS]:PORT"));
    cr_assert_eq(venue_check_event_name("GT_2026.north-hall", &err), 0);
    cr_assert_eq(venue_check_event_name("gt/2026", &err), -1);
    cr_assert(strstr(err.msg, "'/'"), "%s", err.msg);
    cr_assert_eq(venue_check_event_name("#", &err), -1);
    cr_assert_eq(venue_check_event_name("", &err), -1);
    cfg.event = "gt";
    cfg.table = 0;
    cr_assert_null(venue_feed_new(&cfg, &err));
    cr_assert(strstr(err.msg, "table number 0"), "%s", err.msg);
}

Test(venue_command, an_invalid_command_keeps_what_was_received_for_the_log)
{
    venue_command c;
    cr_assert_eq(parse("flip\t3 now", "j", false, &c), -1);
    cr_assert_str_eq(c.line, "flip 3 now", "tab blanked");
}

/* Issue 20: a name of 30 "EURO SIGN" (90 bytes) in the topic is cut on a character boundary (and refused: no judge
 * has that name), and a reason that is not UTF-8 is refused: nothing that reaches the log is invalid text. */
Test(venue_unit, command_names_and_reasons_stay_valid_utf8)
{
    char name[128] = "";
    for (int i = 0; i < 30; i++)
        strcat(name, "\xe2\x82\xac");
    venue_command c;
    cr_assert_eq(venue_command_parse("overrule 1 measured", 19, name, false, &c), -1);
    cr_assert(strstr(c.error, "not a judge's topic"), "%s", c.error);
    cr_assert_eq(strlen(c.by), 63, "21 whole characters: %zu bytes", strlen(c.by));
    cr_assert_eq(memcmp(c.by, name, 63), 0);
    cr_assert_eq(venue_command_parse("overrule 1 \xff\xfe", 13, "alice", false, &c), -1);
    cr_assert_str_eq(c.error, "reason: not valid UTF-8 text");
    cr_assert_eq(venue_command_parse("overrule 1 old", 14, "alice", true, &c), -1);
    cr_assert(strstr(c.error, "retained"), "%s", c.error);
    cr_assert_str_eq(c.line, "overrule 1 old", "the log shows what the retained command was");
}

/* Issue 32: the table applies a command only from a judge's topic: its last level a name the set-up gives a judge,
 * never a table's account (table-N) nor anything the set-up never names. */
Test(venue_command, only_a_judges_topic_commands)
{
    venue_command c;
    static const char *const not_judges[] = {"table-1", "table-12", "", "a b", "x\ny", "tableref/../alice",
                                             "abcdefghijklmnopqrstuvwxyz0123456"};
    for (size_t i = 0; i < sizeof not_judges / sizeof not_judges[0]; i++) {
        cr_assert_eq(venue_command_parse("overrule 1 forged", 17, not_judges[i], false, &c), -1, "%s", not_judges[i]);
        cr_assert_eq(c.action, VENUE_CMD_INVALID);
        cr_assert(strstr(c.error, "not a judge's topic"), "%s: %s", not_judges[i], c.error);
    }
    cr_assert_eq(venue_command_parse("overrule 1 measured", 19, "alice-tablet_2", false, &c), 0);
    cr_assert_str_eq(c.by, "alice-tablet_2");
    cr_assert(venue_command_judge_name_ok("table"), "\"table\" alone is a name a judge may have");
    cr_assert_not(venue_command_judge_name_ok("table-"));
}
