/*
 * The attacks of issue 20 on a real `tableref watch --mqtt`, logged in as
 * table-5 of a broker started from `tableref venue setup`'s own output
 * (127.0.0.1, free ports, stopped by pid; table-5's password 1500 bytes
 * long, read whole by --mqtt-password-file), on the rendered test turn:
 *   - a retained command waiting before the table connects: never sent to
 *     the table (never applied, not even at a reconnect); one published
 *     retained while it listens: refused and logged with the reason;
 *   - an overrule, then a refused command: the retained state's ruling
 *     (last_correction) is still the overrule;
 *   - reasons and payloads that are not UTF-8 (invalid bytes, 3000 bytes of
 *     binary, 600 "é"): logged, and the log stays valid UTF-8 JSON;
 *   - a burst of 1000 commands at QoS 1: every one accounted for in the log
 *     (applied or refused one by one, or counted in a refused_count record).
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base_text.h"
#include "venue_broker.h"
#include "venue_proc.h"
#include "venue_sub.h"
#include "vision_test_util.h"
#include "watch_test_util.h"

#define BURST 1000

static venue_broker g_broker;
static venue_proc g_watch = {.pid = -1};
static char g_dir[2300];

static void teardown(void)
{
    if (g_watch.pid > 0)
        venue_proc_kill(&g_watch, SIGKILL);
    venue_broker_stop(&g_broker);
}

static void read_first_line(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    cr_assert_not_null(fgets(out, (int)cap, f));
    fclose(f);
    out[strcspn(out, "\n")] = 0;
}

static void start_generated_broker(void)
{
    wt_path_in(g_dir, sizeof g_dir, "attack-broker");
    char cmd[8192];
    wt_cmdf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    cr_assert_eq(wt_run(cmd), 0);
    int port = venue_broker_free_port(), ws = venue_broker_free_port();
    cr_assert(port && ws && port != ws);
    wt_cmdf(cmd, sizeof cmd,
            "'%s' venue setup --out '%s' --event test --tables 5 --judges alice,bob --streamers obs "
            "--mqtt-port %d --ws-port %d --bind 127.0.0.1 >/dev/null",
            vt_tableref_bin(), g_dir, port, ws);
    cr_assert_eq(wt_run(cmd), 0, "%s", cmd);
    /* Table 5's password made 1500 bytes long (the broker takes up to 65535): --mqtt-password-file reads it whole. */
    char pwfile[2400];
    snprintf(pwfile, sizeof pwfile, "%s/passwords/table-5", g_dir);
    static char long_password[1501];
    for (int i = 0; i < 1500; i++)
        long_password[i] = (char)('a' + i % 26);
    wt_cmdf(cmd, sizeof cmd, "mosquitto_passwd -b '%s/passwd' table-5 %s && printf '%%s\\n' %s >'%s'", g_dir,
            long_password, long_password, pwfile);
    cr_assert_eq(wt_run(cmd), 0, "%s", cmd);
    char conf[2400];
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", g_dir);
    base_error err;
    cr_assert_eq(venue_broker_start_conf(conf, g_dir, port, ws, &g_broker, &err), 0, "%s", err.msg);
}

static venue_sub *judge(const char *name, const char *pattern)
{
    char path[2400], password[64];
    snprintf(path, sizeof path, "%s/passwords/%s", g_dir, name);
    read_first_line(path, password, sizeof password);
    venue_sub *s = venue_sub_new_as(g_broker.port, pattern, 1, NULL, name, password);
    cr_assert_not_null(s, "%s cannot log in", name);
    return s;
}

static void start_watch(const char *frames, const char *log)
{
    char calib[2300], roster[2300], broker[64], pwfile[2400];
    wt_path_in(calib, sizeof calib, "seq/calib.json");
    wt_path_in(roster, sizeof roster, "seq/roster.json");
    snprintf(broker, sizeof broker, "127.0.0.1:%d", g_broker.port);
    snprintf(pwfile, sizeof pwfile, "%s/passwords/table-5", g_dir);
    unlink(log);
    char *argv[] = {(char *)vt_tableref_bin(), "watch", "--source", (char *)frames, "--calib", calib, "--roster",
                    roster, "--settle-ms", "600", "--realtime", "--quiet", "--log", (char *)log, "--mqtt", broker,
                    "--event", "test", "--table", "5", "--mqtt-user", "table-5", "--mqtt-password-file", pwfile,
                    NULL};
    cr_assert_eq(venue_proc_spawn(&g_watch, argv, NULL, 0), 0);
}

static const char *str_at(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The retained state's last_correction, once the state's last_refused says `refused_by`. */
static void expect_ruling_kept(venue_sub *s, size_t from)
{
    const venue_sub_msg *m = NULL;
    size_t at = from;
    for (int tries = 0; tries < 200; tries++) {
        size_t index = 0;
        m = venue_sub_wait_from(s, at, "tableref/test/table/5/state", "\"last_refused\":{", 10000, &index);
        cr_assert_not_null(m, "no state with the refused command");
        cJSON *st = cJSON_Parse(m->payload);
        cr_assert_not_null(st);
        const cJSON *ruling = cJSON_GetObjectItem(st, "last_correction");
        const cJSON *refused = cJSON_GetObjectItem(st, "last_refused");
        bool is_bobs = strcmp(str_at(refused, "by"), "mqtt:bob") == 0;
        if (is_bobs) {
            cr_expect_str_eq(str_at(ruling, "action"), "overrule", "the state's ruling changed: %s", m->payload);
            cr_expect_str_eq(str_at(ruling, "id"), "ruling-1");
            cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(ruling, "applied")));
        }
        cJSON_Delete(st);
        if (is_bobs)
            return;
        at = index + 1;
    }
    cr_assert_fail("bob's refused command never reached the state");
}

/* Every line of the log is valid UTF-8 and parses as JSON. Returns the number of lines. */
static size_t check_log_text(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    char *line = NULL;
    size_t cap = 0, lines = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        lines++;
        cr_assert(base_text_valid(line, (size_t)n), "log line %zu is not valid UTF-8: %.200s", lines, line);
        cJSON *j = cJSON_Parse(line);
        cr_assert_not_null(j, "log line %zu is not JSON: %.200s", lines, line);
        cJSON_Delete(j);
    }
    free(line);
    fclose(f);
    return lines;
}

static void send_hostile_payloads(venue_sub *bob)
{
    static const char *not_text = "overrule 3 \xff\xfe not text \xc3";
    cr_assert_eq(venue_sub_publish(bob, "tableref/test/table/5/command/bob", not_text, false), 0);
    static char garbage[3001], accents[1201];
    for (int i = 0; i < 3000; i++)
        garbage[i] = (char)(0x80 + (i * 37) % 127 + 1); /* high bytes, no NUL */
    for (int i = 0; i < 600; i++)
        memcpy(accents + 2 * i, "\xc3\xa9", 2);
    cr_assert_eq(venue_sub_publish(bob, "tableref/test/table/5/command/bob", garbage, false), 0);
    char line[1300];
    snprintf(line, sizeof line, "overrule 3 %s", accents);
    cr_assert_eq(venue_sub_publish(bob, "tableref/test/table/5/command/bob", line, false), 0);
}

/* BURST commands in one QoS 1 burst (mosquitto_pub -l: one message per line, without waiting between them). */
static void send_burst(void)
{
    char lines[2300], pwfile[2400], cmd[8192];
    wt_path_in(lines, sizeof lines, "attack-burst.txt");
    FILE *f = fopen(lines, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < BURST; i++)
        fprintf(f, "{\"action\":\"confirm\",\"move\":3,\"reason\":\"burst %d\",\"id\":\"burst-%d\"}\n", i, i);
    fclose(f);
    snprintf(pwfile, sizeof pwfile, "%s/passwords/bob", g_dir);
    wt_cmdf(cmd, sizeof cmd,
            "mosquitto_pub -h 127.0.0.1 -p %d -u bob -P \"$(cat '%s')\" -q 1 -t tableref/test/table/5/command/bob "
            "-l <'%s'",
            g_broker.port, pwfile, lines);
    cr_assert_eq(wt_run(cmd), 0, "%s", cmd);
}

/* Counts the burst's commands in the log: one each, or refused_count for a queue-full record. */
static long burst_accounted(const char *log)
{
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    long accounted = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(wt_event_of(ev[i]), "correction") != 0 || strncmp(str_at(ev[i], "id"), "burst-", 6) != 0)
            continue;
        const cJSON *count = cJSON_GetObjectItem(ev[i], "refused_count");
        accounted += cJSON_IsNumber(count) ? (long)count->valuedouble : 1;
    }
    wt_free_jsonl(ev, n);
    return accounted;
}

Test(venue_attacks, retained_refused_ruling_kept_text_escaped_and_a_burst_accounted_for, .fini = teardown,
     .timeout = 240)
{
    wt_ensure_run();
    start_generated_broker();
    char frames[2300], log[2300];
    wt_make_long_turn(frames, sizeof frames, 150, "attack-frames");
    wt_path_in(log, sizeof log, "attack-game.jsonl");
    venue_sub *alice = judge("alice", "tableref/test/table/5/#");
    venue_sub *bob = judge("bob", "tableref/test/table/5/status");
    /* Waiting for the table before it connects: a retained command. */
    cr_assert_eq(venue_sub_publish(alice, "tableref/test/table/5/command/alice", "overrule 3 retained old news", true),
                 0);
    start_watch(frames, log);
    cr_assert(venue_sub_wait(alice, "tableref/test/table/5/event/alert", "cavalry", 60000), "the alert arrives");
    cr_assert_null(venue_sub_wait(alice, "tableref/test/table/5/event/correction", "old news", 1000),
                   "the retained command waiting before the table connected reached it");
    cr_assert_eq(venue_sub_publish(alice, "tableref/test/table/5/command/alice", "overrule 3 retained live news", true),
                 0);
    const venue_sub_msg *old = venue_sub_wait(alice, "tableref/test/table/5/event/correction", "retained", 10000);
    cr_assert_not_null(old, "the retained command is not answered");
    cr_expect(strstr(old->payload, "\"applied\":false"), "%s", old->payload);
    cr_expect(strstr(old->payload, "live news"), "%s", old->payload);

    /* The ruling, then a refused command: the state's ruling stays the overrule. */
    static const char *ruling =
        "{\"action\":\"overrule\",\"move\":3,\"reason\":\"measured again\",\"id\":\"ruling-1\"}";
    cr_assert_eq(venue_sub_publish(alice, "tableref/test/table/5/command/alice", ruling, false), 0);
    cr_assert(venue_sub_wait(alice, "tableref/test/table/5/event/correction", "ruling-1", 10000));
    size_t before = venue_sub_count(alice);
    cr_assert_eq(venue_sub_publish(bob, "tableref/test/table/5/command/bob", "overrule 3", false), 0); /* no reason */
    expect_ruling_kept(alice, before);

    send_hostile_payloads(bob);
    venue_sub_free(bob); /* the burst logs in as bob: one connection per account */
    send_burst();
    sleep(3); /* the watch takes commands between frames */
    cr_assert_eq(venue_proc_say(&g_watch, "stop\n"), 0);
    int status = venue_proc_finish(&g_watch);
    cr_expect(status == 0 || status == 1, "the watch stopped on its own (exit %d)", status);
    g_watch.pid = -1;
    venue_sub_free(alice);

    size_t lines = check_log_text(log);
    cr_assert_gt(lines, 10);
    cr_expect_eq(burst_accounted(log), BURST, "every command of the burst is in the log");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    int hostile = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(wt_event_of(ev[i]), "correction") == 0 && strcmp(str_at(ev[i], "by"), "mqtt:bob") == 0 &&
            strncmp(str_at(ev[i], "id"), "burst-", 6) != 0) {
            cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(ev[i], "applied")), "bob's command %zu was applied", i);
            hostile++;
        }
    cr_expect_eq(hostile, 4, "bob's four commands, each logged");
    wt_free_jsonl(ev, n);
}
