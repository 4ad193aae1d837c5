/*
 * The judge's page (web/) in Debian's headless chromium against a real
 * `tableref watch --mqtt`: a Mosquitto started from `tableref venue setup`'s
 * own output (tests/venue_site.c) serves the page (--http-dir on its
 * WebSockets listener); the judge logs in as alice with the generated
 * password; the watch (account table-9, --mqtt-password-file from the
 * set-up) replays the rendered test turn at its own pace.
 * The cavalry's illegal march must appear on the page with the watch's
 * overlay picture, and the judge's overrule, clicked on the page, must be
 * applied by the watch (its log says so, by mqtt:alice, and it exits 0);
 * the call links its evidence clip (--clip-url).
 *
 * Printed, not tested: the settle frame -> alert shown on the page, in ms
 * (the frame of t_ms is read at the "started" event's wall time + t_ms).
 * Screenshots: build/tests/venue-web/watch-judge.png, watch-judge-after.png.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "venue_proc.h"
#include "venue_site.h"
#include "venue_sub.h"
#include "vision_test_util.h"
#include "watch_test_util.h"

#define CLIP_URL "http://table9.local:8000/web-game.clips"

static venue_site g_site;
static venue_proc g_watch = {.pid = -1}, g_node = {.pid = -1};

static void teardown(void)
{
    venue_proc_kill(&g_node, SIGKILL);
    venue_proc_kill(&g_watch, SIGKILL);
    venue_site_stop(&g_site);
}

static void start_broker(void)
{
    char web[2300], err[600];
    snprintf(web, sizeof web, "%s/web", vt_source_root());
    cr_assert_eq(venue_site_start(&g_site, "web", 9, "alice,ref", NULL, web, err, sizeof err), 0, "%s", err);
}

static void start_watch(const char *frames)
{
    char calib[2300], roster[2300], record[2300], log[2300], broker[64], pw[2400];
    wt_path_in(calib, sizeof calib, "seq/calib.json");
    wt_path_in(roster, sizeof roster, "seq/roster.json");
    wt_path_in(record, sizeof record, "web-game.mp4");
    wt_path_in(log, sizeof log, "web-game.jsonl");
    unlink(log);
    /* A fresh game: a watch keeps an earlier game's clips and names its own around them. */
    char clips[2400], rm[2500];
    wt_path_in(clips, sizeof clips, "web-game.clips");
    wt_cmdf(rm, sizeof rm, "rm -rf '%s'", clips);
    wt_run(rm);
    snprintf(broker, sizeof broker, "127.0.0.1:%d", g_site.broker.port);
    snprintf(pw, sizeof pw, "%s", venue_site_password_file(&g_site, "table-9"));
    char *argv[] = {(char *)vt_tableref_bin(), "watch", "--source", (char *)frames, "--calib", calib, "--roster",
                    roster, "--settle-ms", "600", "--realtime", "--quiet", "--replace", "--record", record, "--log",
                    log, "--mqtt", broker, "--event", "web", "--table", "9", "--mqtt-user", "table-9",
                    "--mqtt-password-file", pw, "--clip-url", CLIP_URL, NULL};
    cr_assert_eq(venue_proc_spawn(&g_watch, argv, NULL, 0), 0);
}

Test(watch_web, the_watchs_alert_on_the_judges_page_and_the_overrule_back, .fini = teardown, .timeout = 300)
{
    wt_ensure_run();
    char frames[2300], script[2300], out[2300], mqtt_js[2300];
    snprintf(mqtt_js, sizeof mqtt_js, "%s/web/node_modules/mqtt/dist/mqtt.min.js", vt_source_root());
    struct stat st;
    cr_assert(stat(mqtt_js, &st) == 0, "%s missing: run bash scripts/setup-web.sh (npm ci)", mqtt_js);
    /* 40 s of the table standing still after the march: the page's time to show it and the judge's to click. */
    wt_make_long_turn(frames, sizeof frames, 200, "long-frames-web");
    start_broker();
    venue_sub *sub = venue_sub_new_as(g_site.broker.port, "tableref/web/table/9/event/#", 1, NULL, "ref",
                                      venue_site_password(&g_site, "ref"));
    cr_assert(sub);

    snprintf(script, sizeof script, "%s/tests/web/watch_page.mjs", vt_source_root());
    snprintf(out, sizeof out, "%s/tests/venue-web", vt_env("TABLEREF_BUILD_ROOT", "."));
    mkdir(out, 0755);
    char base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", g_site.broker.ws_port);
    char *argv[] = {(char *)venue_proc_node(), script, base, "web", "9", out, NULL};
    char judge[128];
    snprintf(judge, sizeof judge, "alice:%s", venue_site_password(&g_site, "alice"));
    setenv("JUDGE_LOGIN", judge, 1);
    setenv("CLIP_URL", CLIP_URL, 1);
    cr_assert_eq(venue_proc_spawn(&g_node, argv, NULL, 0), 0, "cannot start node");
    char line[16384] = "";
    venue_proc_read_line(&g_node, line, sizeof line, 90000);
    cr_assert_str_eq(line, "ready", "the page never logged in (node said: \"%s\")", line);

    start_watch(frames);
    const venue_sub_msg *started = venue_sub_wait(sub, "tableref/web/table/9/event/started", NULL, 30000);
    cr_assert(started, "the watch never started");
    cJSON *sj = cJSON_Parse(started->payload);
    const double start_wall = wt_wall_ms(cJSON_GetObjectItem(sj, "wall")->valuestring);
    cJSON_Delete(sj);

    while (venue_proc_read_line(&g_node, line, sizeof line, 120000) == 0 && strncmp(line, "result ", 7) != 0)
        cr_assert(strncmp(line, "FAIL", 4) != 0, "%s", line);
    cr_assert_eq(strncmp(line, "result ", 7), 0, "no result from the page (last line: %s)", line);
    cJSON *res = cJSON_Parse(line + 7);
    cr_assert(res, "%s", line);
    const cJSON *alert = cJSON_GetArrayItem(cJSON_GetObjectItem(res, "alerts"), 0);
    cr_assert(alert, "%s", line);
    const double settle_t = 6000; /* the march settles at 6.0 s of the turn (test_watch_venue checks it) */
    fprintf(stderr, "watch_web: settle frame -> alert shown on the judge's page: %.0f ms (alert made %.0f ms after "
                    "the settle frame); overrule click -> applied: %.0f ms\n",
            cJSON_GetObjectItem(alert, "shown_ms")->valuedouble - (start_wall + settle_t),
            cJSON_GetObjectItem(alert, "wall_ms")->valuedouble - (start_wall + settle_t),
            cJSON_GetObjectItem(res, "overrule_round_trip_ms")->valuedouble);
    cJSON_Delete(res);
    cr_expect_eq(venue_proc_finish(&g_node), 0, "the page test did not exit cleanly");
    g_node.pid = -1;

    /* The watch applied it: its correction event by the judge, and the overruled march stands. */
    const venue_sub_msg *corr = venue_sub_wait(sub, "tableref/web/table/9/event/correction", "mqtt:alice", 10000);
    cr_assert(corr, "no correction from the watch");
    cr_expect(strstr(corr->payload, "\"applied\":true") && strstr(corr->payload, "\"action\":\"overrule\"") &&
              strstr(corr->payload, "measured again with a tape"), "%s", corr->payload);
    venue_proc_kill(&g_watch, SIGTERM); /* the rest of the still table is not needed */
    g_watch.pid = -1;
    char log[2300];
    wt_path_in(log, sizeof log, "web-game.jsonl");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        const cJSON *by = cJSON_GetObjectItem(ev[i], "by");
        found += strcmp(wt_event_of(ev[i]), "correction") == 0 && cJSON_IsString(by) &&
                 strcmp(by->valuestring, "mqtt:alice") == 0 && cJSON_IsTrue(cJSON_GetObjectItem(ev[i], "applied"));
    }
    cr_expect_eq(found, 1, "the watch's log has the judge's overrule");
    const cJSON *last = n ? cJSON_GetObjectItem(ev[n - 1], "exit_status") : NULL;
    cr_expect(last && last->valuedouble == 0, "stopped with exit status 0: the overruled march stands");
    wt_free_jsonl(ev, n);
    venue_sub_free(sub);
}
