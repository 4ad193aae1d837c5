/* base_plan and base_file's hold (issue 31): the plan of a command's files refuses an output that is an input (by
 * path, hard link, symbolic link), two outputs that are one file, an output that is a link, a FIFO or a folder, and
 * names both; held outputs appear together or not at all; temporary names never make a legal name too long; the
 * escapers write every control character as text. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_file.h"
#include "base_json.h"
#include "base_plan.h"
#include "base_text.h"
#include "scratch_util.h"

static void make_dir(void)
{
    scr_make("base-plan");
    base_plan_reset();
}

TestSuite(base_plan, .init = make_dir, .fini = scr_remove);

/* The plan of one output against one input named `in_path`: its error (empty when accepted). */
static const char *check_one(const char *in_path, const char *out_path)
{
    static base_error err;
    memset(&err, 0, sizeof err);
    base_plan_reset();
    base_plan_add(BASE_PLAN_READ, in_path, "--calib", NULL);
    base_plan_add(BASE_PLAN_WRITE, out_path, "--out", NULL);
    base_plan_check(&err);
    return err.msg;
}

Test(base_plan, an_output_that_is_an_input_is_refused_every_way)
{
    scr_put(scr_in("c.json"), "{}");
    cr_assert_eq(link(scr_in("c.json"), scr_in("hard.json")), 0);
    cr_assert_eq(symlink(scr_in("c.json"), scr_in("soft.json")), 0);
    const char *want = "an output may not be an input of this command (nothing written)";
    cr_expect(strstr(check_one(scr_in("c.json"), scr_in("c.json")), want));
    cr_expect(strstr(check_one(scr_in("c.json"), scr_in("hard.json")), want), "a hard link");
    cr_expect(strstr(check_one(scr_in("soft.json"), scr_in("c.json")), want), "an input through a link");
    char dotted[700];
    snprintf(dotted, sizeof dotted, "%s/./sub/../c.json", scr_dir);
    cr_assert_eq(mkdir(scr_in("sub"), 0700), 0);
    cr_expect(strstr(check_one(scr_in("c.json"), dotted), want), "another spelling of the path");
    cr_expect(strstr(check_one(scr_in("c.json"), scr_in("soft.json")), "cannot write: a symbolic link"));
    char msg[600];
    snprintf(msg, sizeof msg, "--out %s is also --calib %s: ", scr_in("hard.json"), scr_in("c.json"));
    cr_expect(strstr(check_one(scr_in("c.json"), scr_in("hard.json")), msg), "names both: %s",
              check_one(scr_in("c.json"), scr_in("hard.json")));
    cr_expect_str_empty(check_one(scr_in("c.json"), scr_in("new.json")), "another file is fine");
}

Test(base_plan, a_file_read_is_an_input_and_an_allowed_pair_passes)
{
    scr_put(scr_in("r.json"), "{}");
    char *text;
    base_error err = {0};
    cr_assert_eq(base_file_read_all(scr_in("r.json"), 1024, NULL, &text, NULL, &err), 0);
    free(text);
    base_plan_reset();
    base_plan_add(BASE_PLAN_WRITE, scr_in("r.json"), "--vtt", NULL);
    cr_expect_lt(base_plan_check(&err), 0);
    cr_expect(strstr(err.msg, "(a file this command reads)"), "%s", err.msg);
    base_plan_reset();
    base_plan_add(BASE_PLAN_READ, scr_in("r.json"), "--calib", NULL);
    base_plan_add(BASE_PLAN_WRITE, scr_in("r.json"), "--out", NULL);
    base_plan_allow("--out", "--calib");
    cr_expect_eq(base_plan_check(&err), 0, "updated in place by design: %s", err.msg);
}

Test(base_plan, two_outputs_one_file_and_a_pattern)
{
    base_error err = {0};
    base_plan_add(BASE_PLAN_WRITE, scr_in("x.json"), "--out", NULL);
    base_plan_add(BASE_PLAN_WRITE, scr_in("x.json"), "--suggest", NULL);
    cr_expect_lt(base_plan_check(&err), 0);
    cr_expect(strstr(err.msg, "are one file"), "%s", err.msg);
    base_plan_reset();
    base_plan_add(BASE_PLAN_WRITE, scr_in("frames/*.jpg"), "--sim-frames", scr_in("frames"));
    base_plan_add(BASE_PLAN_READ, scr_in("frames/000003.jpg"), "--source", NULL);
    cr_expect_lt(base_plan_check(&err), 0, "a file a pattern output names");
    cr_expect(strstr(err.msg, "--sim-frames") && strstr(err.msg, "is also --source"), "%s", err.msg);
    base_plan_reset();
    base_plan_add(BASE_PLAN_WRITE, scr_in("frames/*.jpg"), "--sim-frames", scr_in("frames"));
    base_plan_add(BASE_PLAN_READ, scr_in("frames/notes.txt"), "--source", NULL);
    cr_expect_eq(base_plan_check(&err), 0, "%s", err.msg);
}

Test(base_plan, fifo_folder_device_and_long_names)
{
    base_error err = {0};
    cr_assert_eq(mkfifo(scr_in("fifo"), 0600), 0);
    base_plan_add(BASE_PLAN_APPEND, scr_in("fifo"), "--log", NULL);
    cr_expect_lt(base_plan_check(&err), 0);
    cr_expect(strstr(err.msg, "--log") && strstr(err.msg, "not a regular file (a FIFO"), "%s", err.msg);
    base_plan_reset();
    base_plan_add(BASE_PLAN_WRITE, scr_dir, "--out", NULL);
    cr_expect_lt(base_plan_check(&err), 0);
    cr_expect(strstr(err.msg, "a directory"), "%s", err.msg);
    base_plan_reset();
    base_plan_add(BASE_PLAN_WRITE, "/dev/null", "--out", NULL);
    base_plan_add(BASE_PLAN_WRITE, "/dev/null", "--suggest", NULL);
    cr_expect_eq(base_plan_check(&err), 0, "a device is written in place: %s", err.msg);
    char name[300];
    memset(name, 'n', 256);
    name[256] = '\0';
    base_plan_reset();
    base_plan_add(BASE_PLAN_WRITE, scr_in(name), "--out", NULL);
    cr_expect_lt(base_plan_check(&err), 0);
    cr_expect(strstr(err.msg, "the name is too long"), "%s", err.msg);
}

Test(base_plan, held_outputs_appear_together_or_not_at_all)
{
    base_error err = {0};
    scr_put(scr_in("a.txt"), "old a\n");
    base_file_hold();
    cr_assert_eq(base_file_write_all(scr_in("a.txt"), "new a\n", 6, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(base_file_write_all(scr_in("b.txt"), "new b\n", 6, NULL, &err), 0, "%s", err.msg);
    cr_expect(access(scr_in("b.txt"), F_OK) != 0, "held: not there yet");
    base_file_discard();
    cr_expect(access(scr_in("b.txt"), F_OK) != 0, "discarded");
    char cmd[700];
    snprintf(cmd, sizeof cmd, "grep -qx 'old a' '%s' && test -z \"$(ls -A '%s' | grep tmp)\"", scr_in("a.txt"), scr_dir);
    cr_expect_eq(system(cmd), 0, "the old file as it was, no temporary file left");
    base_file_hold();
    cr_assert_eq(base_file_write_all(scr_in("a.txt"), "new a\n", 6, NULL, &err), 0);
    cr_assert_eq(base_file_write_all(scr_in("b.txt"), "new b\n", 6, NULL, &err), 0);
    cr_assert_eq(base_file_release(&err), 0, "%s", err.msg);
    snprintf(cmd, sizeof cmd, "grep -qx 'new a' '%s' && grep -qx 'new b' '%s'", scr_in("a.txt"), scr_in("b.txt"));
    cr_expect_eq(system(cmd), 0, "both written");
    /* A folder made for held outputs goes when they do. */
    base_file_hold();
    cr_assert_eq(mkdir(scr_in("made"), 0700), 0);
    base_file_hold_made_dir(scr_in("made"));
    cr_assert_eq(base_file_write_all(scr_in("made/c.txt"), "c\n", 2, NULL, &err), 0);
    base_file_discard();
    cr_expect(access(scr_in("made"), F_OK) != 0, "the empty folder removed");
}

Test(base_plan, a_name_as_long_as_the_system_allows_is_written)
{
    char name[256];
    memset(name, 'n', 250);
    memcpy(name + 250, ".json", 6); /* 255 bytes: NAME_MAX */
    base_error err = {0};
    cr_expect_eq(base_file_write_all(scr_in(name), "{}\n", 3, NULL, &err), 0, "%s", err.msg);
    cr_expect_eq(access(scr_in(name), F_OK), 0);
}

Test(base_plan, the_escapers_write_every_control_as_text)
{
    const char *h = "a\x1b[31m\x1b]0;t\x07\xc2\x9b" "2J\x7f\xff";
    char *t = base_text_escape_terminal(h);
    cr_expect_str_eq(t, "a\\x1b[31m\\x1b]0;t\\x07\\xc2\\x9b2J\\x7f\\xff");
    free(t);
    char *v = base_text_escape_subtitle("a<b>&\x1b\nc");
    cr_expect_str_eq(v, "a&lt;b&gt;&amp;\\x1b\nc");
    free(v);
    cJSON *j = cJSON_CreateString("x\x1b\xc2\x9b\x7f");
    char *json = base_json_print(j, false);
    cr_expect_str_eq(json, "\"x\\u001b\\u009b\\u007f\"");
    free(json);
    cJSON_Delete(j);
    /* The terminal stream: controls as text, a character cut by its buffer kept whole, JSON's backslashes as they are. */
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    FILE *f = base_text_terminal_stream(fds[1], false);
    cr_assert_not_null(f);
    fputs("ok \xc2", f);
    fflush(f);
    fputs("\x9b \xc3", f);
    fflush(f);
    fputs("\xa9 \"\\u009b\"\n\t\x1b", f);
    fclose(f);
    close(fds[1]);
    char got[256] = "";
    ssize_t n = read(fds[0], got, sizeof got - 1);
    close(fds[0]);
    cr_assert_gt(n, 0);
    got[n] = '\0';
    cr_expect_str_eq(got, "ok \\xc2\\x9b \xc3\xa9 \"\\u009b\"\n\t\\x1b");
}
