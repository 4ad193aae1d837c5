/*
 * The parts of watch/ on their own: judge's commands (parsing, the queue
 * other threads push to, lines read from a pipe), subtitles that never
 * overlap, an event log that appends, keeps whole lines on a full disk and
 * says how many events it lost, and the changed regions of the motion
 * picture.
 */
#include <criterion/criterion.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base_text.h"
#include "watch_control.h"
#include "watch_log.h"
#include "watch_motion.h"
#include "watch_vtt.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)n + 1, 1);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return buf;
}

static void temp_path(char *out, size_t cap, const char *name)
{
    char dir[] = "/tmp/tableref-watchparts-XXXXXX";
    cr_assert(mkdtemp(dir));
    snprintf(out, cap, "%s/%s", dir, name);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

Test(watch_parts, commands_parse_action_move_and_reason)
{
    watch_command c;
    cr_assert_eq(watch_command_parse("overrule 3 measured it again", "stdin", &c), 0);
    cr_expect_eq(c.action, WATCH_CMD_OVERRULE);
    cr_expect_eq(c.move, 3);
    cr_expect_str_eq(c.reason, "measured it again");
    cr_expect_str_eq(c.by, "stdin");
    cr_assert_eq(watch_command_parse("  accept\r\n", "keyboard", &c), 0);
    cr_expect_eq(c.action, WATCH_CMD_OVERRULE, "accept is the old name of overrule");
    cr_expect_eq(c.move, 0, "no number: the latest call");
    cr_expect_str_eq(c.reason, "");
    cr_assert_eq(watch_command_parse("confirm 12", "x", &c), 0);
    cr_expect_eq(c.action, WATCH_CMD_CONFIRM);
    cr_expect_eq(c.move, 12);
    cr_assert_eq(watch_command_parse("undo 3 inches too far", "x", &c), 0);
    cr_expect_eq(c.action, WATCH_CMD_UNDO);
    cr_expect_eq(c.move, 0, "undo always takes the latest snapshot");
    cr_expect_str_eq(c.reason, "3 inches too far");
    cr_assert_eq(watch_command_parse("stop", "x", &c), 0);
    cr_expect_eq(c.action, WATCH_CMD_STOP);
    cr_expect_eq(watch_command_parse("dance", "x", &c), -1);
    cr_expect_eq(c.action, WATCH_CMD_INVALID);
    cr_expect(strstr(c.error, "dance") != NULL, "the error names the word: %s", c.error);
    cr_expect_str_eq(c.line, "dance");
    cr_expect_eq(watch_command_parse("overrule 0", "x", &c), -1, "moves count from 1");
    cr_expect_eq(watch_command_parse("", "x", &c), -1);
}

Test(watch_parts, reach_commands_name_a_unit_and_a_move)
{
    watch_command c;
    cr_assert_eq(watch_command_parse("reach spears", "mqtt:judge", &c), 0);
    cr_expect_eq(c.action, WATCH_CMD_REACH);
    cr_expect_str_eq(c.unit, "spears");
    cr_expect(!c.advance, "a March's reach unless told");
    cr_expect_str_eq(watch_cmd_word(c.action), "reach");
    cr_assert_eq(watch_command_parse("reach knights advance", "x", &c), 0);
    cr_expect_str_eq(c.unit, "knights");
    cr_expect(c.advance);
    cr_assert_eq(watch_command_parse("reach clear", "x", &c), 0);
    cr_expect_eq(c.action, WATCH_CMD_REACH);
    cr_expect_str_eq(c.unit, "", "clear: no unit");
    cr_expect_eq(watch_command_parse("reach", "x", &c), -1);
    cr_expect(strstr(c.error, "reach needs a unit") != NULL, "%s", c.error);
    cr_expect_eq(watch_command_parse("reach spears charge", "x", &c), -1);
    cr_expect(strstr(c.error, "charge") != NULL, "the error names the word: %s", c.error);
}

/* Issue 29: "roll UNIT INCHES [reason]", the roll declared for random movement. */
Test(watch_parts, roll_commands_name_a_unit_and_the_inches)
{
    watch_command c;
    cr_assert_eq(watch_command_parse("roll spawn 11 rolled 5, 4 and 2", "mqtt:judge", &c), 0, "%s", c.error);
    cr_expect_eq(c.action, WATCH_CMD_ROLL);
    cr_expect_str_eq(c.unit, "spawn");
    cr_expect_float_eq(c.roll_in, 11.0, 1e-9);
    cr_expect_str_eq(c.reason, "rolled 5, 4 and 2");
    cr_expect_str_eq(watch_cmd_word(c.action), "roll");
    cr_assert_eq(watch_command_parse("roll spawn 9.5\"", "x", &c), 0, "%s", c.error);
    cr_expect_float_eq(c.roll_in, 9.5, 1e-9);
    cr_expect_eq(watch_command_parse("roll spawn", "x", &c), -1);
    cr_expect(strstr(c.error, "roll needs a unit and the roll in inches") != NULL, "%s", c.error);
    cr_expect_eq(watch_command_parse("roll spawn many", "x", &c), -1);
}

static void *push_many(void *arg)
{
    watch_control *ctl = arg;
    for (int i = 0; i < 100; i++)
        watch_control_push_line(ctl, "confirm", "mqtt:judge");
    return NULL;
}

Test(watch_parts, commands_from_another_thread_and_a_pipe_arrive_whole_and_in_order)
{
    base_error err;
    watch_control *ctl = watch_control_new(&err);
    cr_assert(ctl);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, push_many, ctl), 0);
    pthread_join(th, NULL);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    cr_assert_eq(watch_control_add_fd(ctl, fds[0], "control", &err), 0, "%s", err.msg);
    /* A line split across two writes is one command; an empty line is none. */
    cr_assert_eq(write(fds[1], "overrule 2 tape", 15), 15);
    watch_command c;
    size_t got = 0;
    while (watch_control_poll(ctl, &c) == 1) {
        cr_expect_eq(c.action, WATCH_CMD_CONFIRM);
        cr_expect_str_eq(c.by, "mqtt:judge");
        got++;
    }
    cr_expect_eq(got, 100);
    cr_assert_eq(write(fds[1], " measure\n\nundo\n", 15), 15);
    cr_assert_eq(watch_control_poll(ctl, &c), 1);
    cr_expect_eq(c.action, WATCH_CMD_OVERRULE);
    cr_expect_eq(c.move, 2);
    cr_expect_str_eq(c.reason, "tape measure");
    cr_expect_str_eq(c.by, "control");
    cr_assert_eq(watch_control_poll(ctl, &c), 1);
    cr_expect_eq(c.action, WATCH_CMD_UNDO);
    cr_expect_eq(watch_control_poll(ctl, &c), 0);
    close(fds[1]);
    close(fds[0]);
    watch_control_free(ctl);
}

Test(watch_parts, a_burst_over_the_queue_is_refused_by_count_never_dropped_unseen)
{
    base_error err;
    watch_control *ctl = watch_control_new(&err);
    cr_assert(ctl);
    for (int i = 0; i < 1000; i++) {
        char line[64], by[32];
        snprintf(line, sizeof line, "confirm %d burst", i + 1);
        snprintf(by, sizeof by, "mqtt:judge-%d", i);
        watch_control_push_line(ctl, line, by);
    }
    watch_command c;
    int queued = 0;
    while (watch_control_poll(ctl, &c) == 1 && c.action == WATCH_CMD_CONFIRM) {
        cr_expect_eq(c.move, queued + 1, "in the order received");
        queued++;
    }
    cr_assert_eq(queued, WATCH_CONTROL_QUEUE_MAX);
    cr_assert_eq(c.action, WATCH_CMD_INVALID, "the refused ones come next, as one record");
    cr_expect_eq(c.refused_count, 1000 - WATCH_CONTROL_QUEUE_MAX);
    cr_expect_str_eq(c.by, "mqtt:judge-256", "the first refused one");
    cr_expect(strstr(c.error, "744 commands refused") != NULL, "%s", c.error);
    cr_expect_eq(watch_control_poll(ctl, &c), 0);
    /* The queue takes commands again once it was said. */
    cr_assert_eq(watch_control_push_line(ctl, "undo", "stdin"), 0);
    cr_assert_eq(watch_control_poll(ctl, &c), 1);
    cr_expect_eq(c.action, WATCH_CMD_UNDO);
    watch_control_free(ctl);
}

Test(watch_parts, subtitle_cues_end_where_the_next_starts_and_at_the_video_end)
{
    char path[256];
    temp_path(path, sizeof path, "game.vtt");
    base_error err;
    watch_vtt *v = watch_vtt_open(path, false, &err);
    cr_assert(v, "%s", err.msg);
    cr_assert_eq(watch_vtt_cue(v, 1000, "Table settled.", &err), 0);
    cr_assert_eq(watch_vtt_cue(v, 4200, "Move 1: spears --> advance,\n\nlegal.", &err), 0);
    cr_assert_eq(watch_vtt_cue(v, 6000, "Move 2: cavalry <\x1b[31m> & march, ILLEGAL", &err), 0);
    cr_assert_eq(watch_vtt_close(v, 7400, &err), 0);
    char *text = slurp(path);
    /* A cue's text is markup: "-->" is shown by its entity (never a timing line), a name's "<", "&" and controls as
     * text (issue 31). */
    cr_expect_str_eq(text, "WEBVTT - tableref calls\n\n"
                           "1\n00:00:01.000 --> 00:00:04.200\nTable settled.\n\n"
                           "2\n00:00:04.200 --> 00:00:06.000\nMove 1: spears --&gt; advance,\nlegal.\n\n"
                           "3\n00:00:06.000 --> 00:00:07.400\nMove 2: cavalry &lt;\\x1b[31m&gt; &amp; march, ILLEGAL\n\n");
    free(text);
    /* An existing file is an earlier recording's: refused, unless replacing. */
    cr_expect_null(watch_vtt_open(path, false, &err));
    cr_expect(strstr(err.msg, path) && strstr(err.msg, "exists"), "%s", err.msg);
    v = watch_vtt_open(path, true, &err);
    cr_assert(v, "%s", err.msg);
    cr_assert_eq(watch_vtt_close(v, 0, &err), 0);
    text = slurp(path);
    cr_expect_str_eq(text, "WEBVTT - tableref calls\n\n");
    free(text);
}

static void log_one(watch_log *log, const char *kind, int expect_rc)
{
    base_error err;
    cJSON *ev = watch_log_event_new(kind, 100, 5);
    cr_assert(ev);
    cr_expect_eq(watch_log_write(log, ev, &err), expect_rc, "%s: %s", kind, expect_rc ? "should fail" : err.msg);
    cJSON_Delete(ev);
}

Test(watch_parts, event_log_appends_and_ends_a_line_a_crash_left_open)
{
    char path[256];
    temp_path(path, sizeof path, "events.jsonl");
    base_error err;
    watch_log *log = watch_log_open(path, &err);
    cr_assert(log, "%s", err.msg);
    log_one(log, "started", 0);
    log_one(log, "stopped", 0);
    watch_log_close(log);
    /* A crash mid-line (simulated), then a second game on the same log. */
    FILE *f = fopen(path, "a");
    fputs("{\"seq\":3,\"event\":\"sett", f);
    fclose(f);
    log = watch_log_open(path, &err);
    cr_assert(log, "%s", err.msg);
    log_one(log, "started", 0);
    watch_log_close(log);
    char *text = slurp(path);
    cr_expect_eq(count(text, "\"event\":\"started\""), 2, "the first game's events are kept");
    cr_expect_eq(count(text, "\n"), 4, "four lines, each ended: %s", text);
    cr_expect(strstr(text, "\"sett\n{\"seq\":1,\"event\":\"started\"") != NULL, "the broken line is ended: %s", text);
    free(text);
}

Test(watch_parts, full_disk_keeps_whole_lines_and_reports_the_gap)
{
    char path[256];
    temp_path(path, sizeof path, "events.jsonl");
    base_error err;
    watch_log *log = watch_log_open(path, &err);
    cr_assert(log, "%s", err.msg);
    log_one(log, "started", 0);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    /* A disk that fills up halfway through the next line: the file size limit stands in for it. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim;
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)st.st_size + 40;
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    log_one(log, "settled", -1);
    log_one(log, "alert", -1);
    cr_expect_eq(watch_log_lost(log), 2);
    cr_assert_eq(stat(path, &st), 0);
    char *text = slurp(path);
    cr_expect_eq(text[st.st_size - 1], '\n', "the file ends with a whole line: %s", text);
    cr_expect_eq(count(text, "\n"), 1);
    free(text);
    /* Space again: the gap is said before the next event. */
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    log_one(log, "stopped", 0);
    watch_log_close(log);
    text = slurp(path);
    cr_expect_eq(count(text, "\n"), 3, "%s", text);
    cr_expect(strstr(text, "{\"seq\":4,\"event\":\"log_gap\",\"lost\":2,\"first_lost_seq\":2") != NULL, "%s", text);
    cr_expect(strstr(text, "{\"seq\":5,\"event\":\"stopped\"") != NULL, "seq counts the lost events too: %s", text);
    free(text);
}

Test(watch_parts, changed_blocks_become_merged_regions_with_a_margin)
{
    /* 10 x 6 blocks; two groups of changed blocks whose grown boxes overlap, and one far away. */
    uint8_t mask[60] = {0};
    mask[1 * 10 + 1] = mask[1 * 10 + 2] = 1;
    mask[2 * 10 + 4] = 1;
    mask[5 * 10 + 9] = 1;
    watch_motion_box *b = NULL;
    /* factor 4: a block is 32 px; margin 20 px; frame 320 x 192. */
    size_t n = watch_motion_changed_boxes(mask, 10, 6, 4, 20, 320, 192, &b);
    cr_assert_eq(n, 2);
    /* Boxes are found in block order: blocks (1..2, 1) and (4, 2) merge, (9, 5) stays. */
    cr_expect_eq(b[0].x0, 1 * 32 - 20);
    cr_expect_eq(b[0].y0, 1 * 32 - 20);
    cr_expect_eq(b[0].x1, 5 * 32 + 20);
    cr_expect_eq(b[0].y1, 3 * 32 + 20);
    cr_expect_eq(b[1].x1, 320, "clipped to the frame");
    cr_expect_eq(b[1].y1, 192);
    cr_expect(watch_motion_in_core(&b[0], (double[2]){100, 60}));
    cr_expect_not(watch_motion_in_core(&b[0], (double[2]){300, 180}));
    free(b);
}

/* A unit sentence cut to its buffer never splits a character: the log stays valid UTF-8. */
Test(watch_parts, a_cut_unit_sentence_stays_valid_utf8)
{
    rules_unit_report u;
    memset(&u, 0, sizeof u);
    for (int i = 0; i < 31; i++)
        memcpy(u.unit_id + 2 * i, "\xc3\xa9", 2); /* 31 "é": 62 bytes */
    u.verdict = RULES_VERDICT_NOT_SEEN;
    snprintf(u.why, sizeof u.why, "hidden");
    for (size_t cap = 2; cap < 70; cap++) {
        char buf[80];
        watch_log_unit_sentence(&u, NULL, NULL, buf, cap);
        cr_expect(base_text_valid(buf, strlen(buf)), "cut at %zu bytes: valid UTF-8", cap);
        if (strlen(buf) <= 62) /* within the name: whole two-byte characters */
            cr_expect_eq(strlen(buf) % 2, 0, "whole characters only at %zu bytes", cap);
    }
}
