/*
 * `tableref watch --mqtt` end to end: a real Mosquitto on 127.0.0.1 started
 * from `tableref venue setup`'s own output (tests/venue_site.c: one account
 * per table, judges alice, bob and carol, streamer obs; stopped by pid), the
 * watch on the rendered test turn at its own pace, logged in as its table's
 * account (--mqtt-user table-N --mqtt-password-file DIR/passwords/table-N),
 * and real subscribers logged in as judges or the streamer. Checked: every event published
 * (QoS 1), the cavalry's alert with its call and evidence clip, the
 * retained state and picture, a judge's overrule sent over MQTT applied
 * and logged by "mqtt:alice" with its id, a watch with no broker that
 * says so once and calls exactly as without a feed, and the streamer
 * reading the table's alert and last will after kill -9.
 *
 * The latency from the settle frame to the alert at the subscriber is
 * printed (a figure, not a test): the frame of t_ms is read at the
 * "started" event's wall time + t_ms (--realtime), the alert's arrival is
 * this process's wall clock, on the same machine.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "venue_proc.h"
#include "venue_site.h"
#include "venue_sub.h"
#include "vision_test_util.h"
#include "watch_test_util.h"

#define TAIL_FRAMES 20  /* 4 s of the table standing still after the last call: time for the judge */

static venue_site g_site;
static venue_proc g_watch = {.pid = -1};

static void setup(void)
{
    char err[600];
    cr_assert_eq(venue_site_start(&g_site, "test", 7, "alice,bob,carol", "obs", NULL, err, sizeof err), 0, "%s", err);
}

/* A subscriber logged in as one of the set-up's accounts. */
static venue_sub *sub_as(const char *pattern, const char *user)
{
    return venue_sub_new_as(g_site.broker.port, pattern, 1, NULL, user, venue_site_password(&g_site, user));
}

static void teardown(void)
{
    if (g_watch.pid > 0)
        venue_proc_kill(&g_watch, SIGKILL);
    venue_site_stop(&g_site);
}

static void make_long_turn(char *dir, size_t cap, const char *name)
{
    wt_make_long_turn(dir, cap, TAIL_FRAMES, name);
}

/* Starts the watch on `frames` with the feed to `port` as table `table`; records and logs in the work dir. */
static void start_watch_as(const char *frames, int port, int table, const char *name, const char *user,
                           const char *password_file)
{
    char calib[2300], roster[2300], record[2300], log[2300], broker[64], num[16];
    wt_path_in(calib, sizeof calib, "seq/calib.json");
    wt_path_in(roster, sizeof roster, "seq/roster.json");
    char stem[128];
    snprintf(stem, sizeof stem, "%s.mp4", name);
    wt_path_in(record, sizeof record, stem);
    snprintf(stem, sizeof stem, "%s.jsonl", name);
    wt_path_in(log, sizeof log, stem);
    unlink(log);
    /* A fresh game: a watch keeps an earlier game's clips and names its own around them. */
    char clips[2400], rm[2500];
    snprintf(stem, sizeof stem, "%s.clips", name);
    wt_path_in(clips, sizeof clips, stem);
    wt_cmdf(rm, sizeof rm, "rm -rf '%s'", clips);
    wt_run(rm);
    snprintf(broker, sizeof broker, "127.0.0.1:%d", port);
    snprintf(num, sizeof num, "%d", table);
    char *argv[] = {(char *)vt_tableref_bin(), "watch", "--source", (char *)frames, "--calib", calib, "--roster",
                    roster, "--settle-ms", "600", "--realtime", "--quiet", "--replace", "--record", record, "--log",
                    log, "--mqtt", broker, "--event", "test", "--table", num, "--clip-url", "http://judge.local/clips",
                    NULL, NULL, NULL, NULL, NULL};
    if (user) {
        const int at = (int)(sizeof argv / sizeof argv[0]) - 5;
        argv[at] = "--mqtt-user", argv[at + 1] = (char *)user;
        argv[at + 2] = "--mqtt-password-file", argv[at + 3] = (char *)password_file;
    }
    cr_assert_eq(venue_proc_spawn(&g_watch, argv, NULL, 0), 0);
}

/* The watch as table `table`, logged in with its generated account. */
static void start_watch(const char *frames, int port, int table, const char *name)
{
    char user[32];
    snprintf(user, sizeof user, "table-%d", table);
    start_watch_as(frames, port, table, name, user, venue_site_password_file(&g_site, user));
}

static double now_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static cJSON *parse(const venue_sub_msg *m)
{
    cJSON *j = cJSON_Parse(m->payload);
    cr_assert(j, "not JSON: %s", m->payload);
    return j;
}

static const char *str_at(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

Test(watch_venue, alert_over_mqtt_then_a_judges_overrule_is_applied_and_logged, .init = setup, .fini = teardown,
     .timeout = 120)
{
    wt_ensure_run();
    char frames[2300];
    make_long_turn(frames, sizeof frames, "long-frames-overrule");
    venue_sub *sub = sub_as("tableref/test/table/4/#", "alice");
    cr_assert(sub, "the subscriber connects");
    start_watch(frames, g_site.broker.port, 4, "venue-game");

    const venue_sub_msg *started = venue_sub_wait(sub, "tableref/test/table/4/event/started", NULL, 30000);
    cr_assert(started, "the started event arrives");
    cJSON *st = parse(started);
    const double start_wall = wt_wall_ms(str_at(st, "wall"));
    cJSON_Delete(st);

    /* The cavalry's march: its call, then its alert, at QoS 1, naming the clip. */
    const venue_sub_msg *alert = venue_sub_wait(sub, "tableref/test/table/4/event/alert", "cavalry", 60000);
    const double received = now_wall_ms();
    cr_assert(alert, "the alert arrives");
    cr_expect_eq(alert->qos, 1, "alerts at QoS 1");
    cr_expect(!alert->retain);
    cJSON *al = parse(alert);
    cr_expect_eq(cJSON_GetObjectItem(al, "move")->valuedouble, 3);
    /* 11.00": the sequence marches it 279.4 mm (wt_make_long_turn), and the watch reads the frames through the
     * referee's door (a first pass without contrast floors measured 11.01"). */
    cr_expect(strstr(str_at(al, "sentence"), "ILLEGAL") && strstr(str_at(al, "sentence"), "11.00\""), "%s",
              str_at(al, "sentence"));
    cr_expect(strstr(str_at(al, "clip"), "venue-game.clips/move-3.mp4"), "the clip's path: %s", str_at(al, "clip"));
    cr_expect_str_eq(str_at(al, "clip_url"), "http://judge.local/clips/move-3.mp4");
    const double settle_t = cJSON_GetObjectItem(al, "t_ms")->valuedouble;
    const double alert_made = wt_wall_ms(str_at(al, "wall"));
    cJSON_Delete(al);
    const venue_sub_msg *call = venue_sub_wait(sub, "tableref/test/table/4/event/move_checked", "\"move\":3", 1000);
    cr_assert(call, "the call arrives before its alert");
    cr_expect_eq(call->qos, 1);
    cJSON *ca = parse(call);
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(ca, "legal")));
    cr_expect_null(cJSON_GetObjectItem(ca, "snapshot"), "the feed leaves the snapshot to the state");
    const cJSON *u0 = cJSON_GetArrayItem(cJSON_GetObjectItem(ca, "units"), 0);
    cr_expect(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(u0, "distance"), "path_in")),
              "the call carries the unit's distances");
    cJSON_Delete(ca);
    fprintf(stderr, "watch_venue: settle frame (t=%.0f ms) -> alert made %.0f ms, received by the subscriber "
                    "%.0f ms\n", settle_t, alert_made - (start_wall + settle_t), received - (start_wall + settle_t));

    /* The judge overrules the march over MQTT: the watch applies it and says so, by name and id. */
    cr_assert_eq(venue_sub_publish(sub, "tableref/test/table/4/command/alice",
                                   "{\"action\":\"overrule\",\"move\":3,\"reason\":\"measured again\",\"id\":\"t-1\"}",
                                   false), 0);
    const venue_sub_msg *corr = venue_sub_wait(sub, "tableref/test/table/4/event/correction", "t-1", 10000);
    cr_assert(corr, "the correction is published");
    cJSON *co = parse(corr);
    cr_expect_str_eq(str_at(co, "action"), "overrule");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(co, "applied")), "applied: %s", corr->payload);
    cr_expect_str_eq(str_at(co, "by"), "mqtt:alice");
    cr_expect_str_eq(str_at(co, "reason"), "measured again");
    cJSON_Delete(co);

    /* The end: the overruled march stands (exit 0), offline said, the picture retained. */
    cr_expect_eq(venue_proc_finish(&g_watch), 0, "the overruled call stands: exit 0");
    g_watch.pid = -1;
    cr_expect(venue_sub_wait(sub, "tableref/test/table/4/event/stopped", NULL, 5000));
    cr_expect(venue_sub_wait(sub, "tableref/test/table/4/status", "offline", 5000));
    venue_sub_free(sub);
    venue_sub *late = sub_as("tableref/test/table/4/#", "carol");
    cr_assert(late);
    const venue_sub_msg *pic = venue_sub_wait(late, "tableref/test/table/4/picture", NULL, 5000);
    cr_expect(pic && pic->retain && pic->len > 1000 && (unsigned char)pic->payload[0] == 0xFF &&
              (unsigned char)pic->payload[1] == 0xD8, "a late subscriber gets the overlay picture (JPEG)");
    const venue_sub_msg *state = venue_sub_wait(late, "tableref/test/table/4/state", NULL, 5000);
    cr_expect(state && state->retain && strstr(state->payload, "\"calls\":3"), "the retained state: %s",
              state ? state->payload : "none");
    venue_sub_free(late);

    /* The log holds the correction by the judge, with its id. */
    char log[2300];
    wt_path_in(log, sizeof log, "venue-game.jsonl");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(wt_event_of(ev[i]), "correction") == 0 && strcmp(str_at(ev[i], "by"), "mqtt:alice") == 0 &&
            strcmp(str_at(ev[i], "id"), "t-1") == 0 && cJSON_IsTrue(cJSON_GetObjectItem(ev[i], "applied")))
            found++;
    cr_expect_eq(found, 1, "the log has the judge's overrule once");
    wt_free_jsonl(ev, n);
}

Test(watch_venue, a_command_the_feed_refuses_is_logged_and_never_applied, .init = setup, .fini = teardown,
     .timeout = 120)
{
    wt_ensure_run();
    char frames[2300];
    make_long_turn(frames, sizeof frames, "long-frames-refused");
    venue_sub *sub = sub_as("tableref/test/table/5/#", "bob");
    cr_assert(sub);
    start_watch(frames, g_site.broker.port, 5, "venue-refused");
    cr_assert(venue_sub_wait(sub, "tableref/test/table/5/event/alert", "cavalry", 60000));
    /* No reason: a judge must say why. The line alone would parse as an overrule: it must not be applied. */
    cr_assert_eq(venue_sub_publish(sub, "tableref/test/table/5/command/bob", "overrule 3", false), 0);
    const venue_sub_msg *corr = venue_sub_wait(sub, "tableref/test/table/5/event/correction", "bob", 10000);
    cr_assert(corr, "the refused command is answered");
    cJSON *co = parse(corr);
    cr_expect_str_eq(str_at(co, "action"), "invalid");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(co, "applied")));
    cr_expect(str_at(co, "why_not")[0], "it says why");
    cJSON_Delete(co);
    cr_expect_eq(venue_proc_finish(&g_watch), 1, "the illegal march still stands: exit 1");
    g_watch.pid = -1;
    venue_sub_free(sub);
}

Test(watch_venue, no_broker_is_said_once_and_changes_no_call, .timeout = 120)
{
    wt_ensure_run();
    char frames[2300], calib[2300], roster[2300], out[2300], err[2300], cmd[16384];
    wt_path_in(frames, sizeof frames, "seq/frames");
    wt_path_in(calib, sizeof calib, "seq/calib.json");
    wt_path_in(roster, sizeof roster, "seq/roster.json");
    wt_path_in(out, sizeof out, "nobroker.out");
    wt_path_in(err, sizeof err, "nobroker.err");
    const int port = venue_broker_free_port();  /* nothing listens there */
    wt_cmdf(cmd, sizeof cmd,
            "'%s' watch --source '%s' --calib '%s' --roster '%s' --settle-ms 600 --quiet --mqtt 127.0.0.1:%d "
            "--event test --table 6 </dev/null >'%s' 2>'%s'",
            vt_tableref_bin(), frames, calib, roster, port, out, err);
    cr_expect_eq(wt_run(cmd), 1, "the illegal march: exit 1, as without a feed");
    char text[8192];
    vt_file_head(out, text, sizeof text);
    cr_expect(strstr(text, "watch: 33 frames, 3 calls, 1 illegal standing"), "%s", text);
    vt_file_head(err, text, sizeof text);
    size_t said = 0;
    for (const char *p = text; (p = strstr(p, "cannot connect")); p++)
        said++;
    cr_expect_eq(said, 1, "said once: %s", text);
    cr_expect(strstr(text, "retries on its own"), "%s", text);
}

Test(watch_venue, the_table_account_publishes_a_judge_commands_the_streamer_reads_and_kill_9_is_offline,
     .init = setup, .fini = teardown, .timeout = 120)
{
    wt_ensure_run();
    char frames[2300];
    make_long_turn(frames, sizeof frames, "long-frames-acl");
    venue_sub *pub = sub_as("tableref/test/table/7/#", "obs"); /* the streamer: the public topics, read only */
    cr_assert(pub);
    venue_sub *judge = sub_as("tableref/test/table/7/event/#", "alice");
    cr_assert(judge);
    start_watch(frames, g_site.broker.port, 7, "venue-acl");
    cr_assert(venue_sub_wait(pub, "tableref/test/table/7/event/alert", "cavalry", 60000),
              "the table's account publishes; the streamer reads");
    cr_assert_eq(venue_sub_publish(judge, "tableref/test/table/7/command/alice",
                                   "{\"action\":\"confirm\",\"move\":3,\"reason\":\"seen\",\"id\":\"acl-1\"}",
                                   false), 0);
    const venue_sub_msg *corr = venue_sub_wait(pub, "tableref/test/table/7/event/correction", "acl-1", 10000);
    cr_assert(corr, "the judge's command reaches the table");
    cr_expect(strstr(corr->payload, "\"applied\":true") && strstr(corr->payload, "mqtt:alice"), "%s", corr->payload);
    /* kill -9: the broker says offline for it (the last will), retained. */
    venue_proc_kill(&g_watch, SIGKILL);
    g_watch.pid = -1;
    cr_expect(venue_sub_wait(pub, "tableref/test/table/7/status", "offline", 30000), "the last will: offline");
    venue_sub_free(judge);
    venue_sub_free(pub);
    venue_sub *late = sub_as("tableref/test/table/7/status", "carol");
    cr_assert(late);
    const venue_sub_msg *st = venue_sub_wait(late, "tableref/test/table/7/status", NULL, 5000);
    cr_expect(st && st->retain && strstr(st->payload, "offline"), "a late subscriber sees the table offline: %s",
              st ? st->payload : "nothing");
    venue_sub_free(late);
}
