/*
 * words_everywhere: a move is put into words once (rules_words_call, handed
 * on by referee/ref_words.h), and every place that describes it says the
 * same sentence, +/- included. The demo turn (datasets/demo: the spears'
 * March swings spears-7 10.38" at a 10" March Rate; the knights Advance)
 * goes through `tableref referee` (its stdout and report.json), `tableref
 * check --json` on the two snapshots the referee wrote, and `tableref
 * watch` on a picture folder of the same two pictures (the event log, the
 * WebVTT subtitles and the MQTT payload through a real Mosquitto on
 * 127.0.0.1, started here and stopped by its pid), and `tableref check
 * --json` on the two snapshots the watch logged. Each call's sentence must
 * be the same string in every output of the same judged snapshots, with its
 * +/-. The referee and the watch read a picture through the same door
 * (referee/ref_snapshot.h: vision's plan of the frame, also for the parts
 * of it a tracker reads again), so the same pictures give the same
 * sentences: one expected sentence per call for every output (the knights
 * read 3.54" by the watch before, over the whole frame at one decimation).
 * The knights' wheel reads 12.1 deg with a 0.01" wheel the other way first
 * (the scene turns them 12.0 deg): the first pass searches the demo's far
 * side at full resolution (tags predicted under 22 px, vision/vis_plan.h);
 * at decimate 1.5 there it read 12.2 deg.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli_run.h"
#include "venue_site.h"
#include "venue_sub.h"
#include "vision_test_util.h"

#define PLUSMINUS "\xC2\xB1"
#define N_CALLS 2
#define HOLD_FRAMES 10 /* 2 s of each picture at 5 fps: the table settles (600 ms) on both */

static const char *const units[N_CALLS] = {"spears", "knights"};

/* The calls on the demo pictures: the referee's and the watch's alike, each figure within two steps of its last
 * digit (expect_near_sentence). */
static const char *const want[N_CALLS] = {
    "spears: march, ILLEGAL: Model spears-7 ends 10.38\" from where it started, farther than its March Rate of "
    "10.00\". [measured 10.38\" " PLUSMINUS " 0.02\", limit 10.00\"]",
    "knights: advance forward (wheel 0.01\" about the right front corner (0.1 deg right), forward 2.99\", wheel "
    "0.62\" about the left front corner (12.1 deg left)), legal [knights-3 moved 3.54\" " PLUSMINUS " 0.02\", "
    "limit 8.00\"]",
};

static venue_site g_site;
static char g_dir[2048];

static void setup(void)
{
    snprintf(g_dir, sizeof g_dir, "%s/tests/words-everywhere", vt_env("TABLEREF_BUILD_ROOT", "/tmp"));
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/frames'", g_dir, g_dir);
    cr_assert_eq(system(cmd), 0);
    /* The broker as a venue runs it: `tableref venue setup`'s own output (tests/venue_site.c). */
    char err[600];
    cr_assert_eq(venue_site_start(&g_site, "words", 1, "alice", NULL, NULL, err, sizeof err), 0, "%s", err);
}

static void teardown(void) { venue_site_stop(&g_site); }

static int unit_index(const char *unit)
{
    for (int k = 0; k < N_CALLS; k++)
        if (strcmp(units[k], unit) == 0)
            return k;
    return -1;
}

/* Each unit's "sentence" of a JSON report or move_checked event into got[k]; every call must be there once. */
static void sentences_of_units(const cJSON *units_json, const char *where, char got[N_CALLS][1024])
{
    int seen = 0;
    const cJSON *u;
    cJSON_ArrayForEach(u, units_json)
    {
        const cJSON *name = cJSON_GetObjectItem(u, "unit"), *s = cJSON_GetObjectItem(u, "sentence");
        cr_assert(cJSON_IsString(name) && cJSON_IsString(s), "%s: a unit without its sentence", where);
        int k = unit_index(name->valuestring);
        cr_assert(k >= 0, "%s: unexpected unit %s", where, name->valuestring);
        snprintf(got[k], sizeof got[k], "%s", s->valuestring);
        seen++;
    }
    cr_assert_eq(seen, N_CALLS, "%s: %d calls", where, seen);
}

static cJSON *parse_file(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s", path);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *j = cJSON_Parse(buf);
    cr_assert(j, "%s is not JSON", path);
    return j;
}

/* The referee's terminal: each unit's "  call: " line. */
static void calls_on_stdout(const char *out, char got[N_CALLS][1024])
{
    int seen = 0;
    for (const char *p = strstr(out, "  call: "); p; p = strstr(p + 1, "  call: ")) {
        const char *s = p + strlen("  call: "), *end = strchr(s, '\n');
        cr_assert(end);
        char unit[64];
        size_t ul = strcspn(s, ":");
        snprintf(unit, sizeof unit, "%.*s", (int)ul, s);
        int k = unit_index(unit);
        cr_assert(k >= 0, "stdout: unexpected unit %s", unit);
        snprintf(got[k], sizeof got[k], "%.*s", (int)(end - s), s);
        seen++;
    }
    cr_assert_eq(seen, N_CALLS, "stdout: %d calls in:\n%s", seen, out);
}

/* `tableref check --json BEFORE AFTER`: each unit's sentence. */
static void check_sentences(const char *before, const char *after, const char *where, char got[N_CALLS][1024])
{
    static cli_result r;
    char args[5000];
    snprintf(args, sizeof args, "check '%s' '%s' --json", before, after);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1, "%s: exit %d: %s", where, r.status, r.err);
    cJSON *checked = cJSON_Parse(r.out);
    cr_assert(checked, "%s printed no JSON: %s", where, r.out);
    sentences_of_units(cJSON_GetObjectItem(checked, "units"), where, got);
    cJSON_Delete(checked);
}

static void write_json(const cJSON *j, const char *path)
{
    char *text = cJSON_Print(j);
    FILE *f = fopen(path, "w");
    cr_assert(text && f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    free(text);
}

/* The watch's picture folder: the BEFORE picture held, then the AFTER picture held. */
static void make_frames(void)
{
    for (int i = 0; i < 2 * HOLD_FRAMES; i++) {
        char from[2400], to[2400];
        snprintf(from, sizeof from, "%s/datasets/demo/%s.jpg", vt_source_root(), i < HOLD_FRAMES ? "before" : "after");
        snprintf(to, sizeof to, "%s/frames/%06d.jpg", g_dir, i);
        cr_assert_eq(symlink(from, to), 0, "%s", to);
    }
}

/* The subtitles hold "Move 1: <sentence>" as a line of the call's cue. */
/* got reads as expected: the same words, and each figure within two steps of expected's last printed digit (3.54: 0.02,
 * 12.1: 0.2). The demo's knights-3 reads 89.800 mm, 0.011 mm from where 3.54" turns 3.53": another machine's
 * floating point (arm64) may print the next step; every output must still say the very same string (below). */
static void expect_near_sentence(const char *got, const char *expected, const char *unit)
{
    const char *g = got, *w = expected;
    while (*g && *w) {
        if ((*w >= '0' && *w <= '9') && (*g >= '0' && *g <= '9')) {
            char *ge, *we;
            const double gv = strtod(g, &ge), wv = strtod(w, &we);
            const char *dot = memchr(w, '.', (size_t)(we - w));
            double step = 1;
            for (const char *d = dot ? dot + 1 : we; d < we; d++)
                step /= 10;
            cr_expect(fabs(gv - wv) <= 2 * step + 1e-9, "%s: %.*s where %.*s is expected (within %g):\n  got  %s\n  want %s",
                      unit, (int)(ge - g), g, (int)(we - w), w, 2 * step, got, expected);
            g = ge, w = we;
            continue;
        }
        if (*g != *w)
            break;
        g++, w++;
    }
    cr_expect(*g == 0 && *w == 0, "%s: the words differ:\n  got  %s\n  want %s", unit, got, expected);
}

static void expect_in_vtt(const char *vtt_path, const char *sentence)
{
    FILE *f = fopen(vtt_path, "r");
    cr_assert(f, "cannot open %s", vtt_path);
    char line[2048], wanted[1100];
    snprintf(wanted, sizeof wanted, "Move 1: %s\n", sentence);
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = strcmp(line, wanted) == 0;
    fclose(f);
    cr_expect(found, "the subtitles lack the line: %s", wanted);
}

Test(words_everywhere, the_demo_turn_in_the_same_words_in_every_output, .init = setup, .fini = teardown,
     .timeout = 180)
{
    static cli_result r;
    char args[8192], path[2300];
    char on_stdout[N_CALLS][1024] = {{0}}, in_report[N_CALLS][1024] = {{0}}, from_check[N_CALLS][1024] = {{0}},
         in_log[N_CALLS][1024] = {{0}}, over_mqtt[N_CALLS][1024] = {{0}}, check_watch[N_CALLS][1024] = {{0}};

    /* 1. tableref referee: the terminal and report.json. */
    snprintf(args, sizeof args,
             "referee datasets/demo/before.jpg datasets/demo/after.jpg --calib datasets/demo/calib.json "
             "--roster datasets/demo/roster.json --out '%s/referee'",
             g_dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1, "the spears' March is illegal: exit 1 (got %d): %s", r.status, r.err);
    calls_on_stdout(r.out, on_stdout);
    snprintf(path, sizeof path, "%s/referee/report.json", g_dir);
    cJSON *report = parse_file(path);
    sentences_of_units(cJSON_GetObjectItem(report, "units"), "report.json", in_report);
    cJSON_Delete(report);

    /* 2. tableref check --json on the two snapshots the referee detected. */
    char before[2300], after[2300];
    snprintf(before, sizeof before, "%s/referee/before.json", g_dir);
    snprintf(after, sizeof after, "%s/referee/after.json", g_dir);
    check_sentences(before, after, "check --json on the referee's snapshots", from_check);

    /* 3. tableref watch on the same two pictures: event log, subtitles, and the feed through a real broker. */
    make_frames();
    venue_sub *sub = venue_sub_new_as(g_site.broker.port, "tableref/words/table/1/#", 1, NULL, "alice",
                                      venue_site_password(&g_site, "alice"));
    cr_assert(sub, "the subscriber connects to 127.0.0.1:%d", g_site.broker.port);
    snprintf(args, sizeof args,
             "watch --source '%s/frames' --calib datasets/demo/calib.json --roster datasets/demo/roster.json "
             "--settle-ms 600 --log '%s/game.jsonl' --vtt '%s/game.vtt' --mqtt 127.0.0.1:%d --event words "
             "--table 1 --mqtt-user table-1 --mqtt-password-file '%s' --quiet </dev/null",
             g_dir, g_dir, g_dir, g_site.broker.port, venue_site_password_file(&g_site, "table-1"));
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1, "watch: one illegal call stands: exit %d: %s", r.status, r.err);
    const venue_sub_msg *m = venue_sub_wait(sub, "tableref/words/table/1/event/move_checked", NULL, 10000);
    cr_assert(m, "the call reaches the subscriber");
    cJSON *ev = cJSON_Parse(m->payload);
    cr_assert(ev, "not JSON: %s", m->payload);
    sentences_of_units(cJSON_GetObjectItem(ev, "units"), "MQTT move_checked", over_mqtt);
    cJSON_Delete(ev);
    const venue_sub_msg *alert = venue_sub_wait(sub, "tableref/words/table/1/event/alert", "spears", 5000);
    cr_assert(alert, "the spears' alert reaches the subscriber");
    cJSON *al = cJSON_Parse(alert->payload);
    cr_assert(al);
    cr_expect_str_eq(cJSON_GetObjectItem(al, "sentence")->valuestring, want[0], "the alert over MQTT");
    cJSON_Delete(al);
    venue_sub_free(sub);

    snprintf(path, sizeof path, "%s/game.jsonl", g_dir);
    FILE *f = fopen(path, "r");
    cr_assert(f, "no event log %s", path);
    char *line = NULL;
    size_t cap = 0;
    int calls = 0;
    snprintf(before, sizeof before, "%s/watch-before.json", g_dir);
    snprintf(after, sizeof after, "%s/watch-after.json", g_dir);
    while (getline(&line, &cap, f) > 0) {
        cJSON *e = cJSON_Parse(line);
        cr_assert(e, "%s: not JSON: %s", path, line);
        const char *kind = cJSON_GetObjectItem(e, "event")->valuestring;
        /* The snapshots the watch judged: the first settle's and the call's. */
        if (strcmp(kind, "settled") == 0 && cJSON_IsTrue(cJSON_GetObjectItem(e, "first")))
            write_json(cJSON_GetObjectItem(e, "snapshot"), before);
        if (strcmp(kind, "move_checked") == 0) {
            sentences_of_units(cJSON_GetObjectItem(e, "units"), "event log", in_log);
            write_json(cJSON_GetObjectItem(e, "snapshot"), after);
            calls++;
        }
        cJSON_Delete(e);
    }
    free(line);
    fclose(f);
    cr_assert_eq(calls, 1, "the event log holds one call");
    check_sentences(before, after, "check --json on the watch's snapshots", check_watch);

    /* Every output, the same sentence for each call, with its +/-: the referee's words, near the expected ones. */
    snprintf(path, sizeof path, "%s/game.vtt", g_dir);
    for (int k = 0; k < N_CALLS; k++) {
        expect_near_sentence(on_stdout[k], want[k], units[k]);
        cr_expect_str_eq(in_report[k], on_stdout[k], "%s in report.json", units[k]);
        cr_expect_str_eq(from_check[k], on_stdout[k], "%s from check --json on the referee's snapshots", units[k]);
        cr_expect_str_eq(in_log[k], on_stdout[k], "%s in the event log", units[k]);
        cr_expect_str_eq(over_mqtt[k], on_stdout[k], "%s over MQTT", units[k]);
        cr_expect_str_eq(check_watch[k], on_stdout[k], "%s from check --json on the watch's snapshots", units[k]);
        expect_in_vtt(path, on_stdout[k]);
        cr_expect(strstr(on_stdout[k], PLUSMINUS) != NULL);
    }
}
