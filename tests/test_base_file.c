/* base_file and base_text: regular files only, caps, atomic writes that never follow a link, never
 * land on an input, never remove what is not theirs; UTF-8 cuts, escapes for terminals and markup. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base_file.h"
#include "base_json.h"
#include "base_text.h"
#include "scratch_util.h"

static void make_dir(void)
{
    scr_make("base-file");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

TestSuite(base_file, .init = make_dir, .fini = scr_remove);

Test(base_file, reads_a_whole_regular_file)
{
    scr_put(scr_in("a.txt"), "hello\n");
    char *data = NULL;
    size_t len = 0;
    base_error err = {0};
    cr_assert_eq(base_file_read_all(scr_in("a.txt"), 100, NULL, &data, &len, &err), 0, "%s", err.msg);
    cr_expect_eq(len, 6);
    cr_expect_str_eq(data, "hello\n");
    free(data);
}

Test(base_file, refuses_a_fifo_at_once)
{
    const char *fifo = scr_in("fifo");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    char *data = NULL;
    base_error err = {0};
    double t0 = now_s();
    cr_expect_eq(base_file_read_all(fifo, 100, "a roster", &data, NULL, &err), -1);
    cr_expect_lt(now_s() - t0, 1.0);
    cr_expect_eq(err.code, BASE_E_NOT_REGULAR);
    cr_expect(strstr(err.msg, "not a regular file, not a roster"), "%s", err.msg);
    cr_expect(strstr(err.msg, fifo), "%s", err.msg);
    /* The JSON reader (roster, table file, snapshots, calibration) goes through it. */
    cr_expect_null(base_json_parse_file(fifo, &err));
    cr_expect_eq(err.code, BASE_E_NOT_REGULAR);
    /* A folder and a device are refused the same way. */
    cr_expect_eq(base_file_read_all(scr_dir, 100, NULL, &data, NULL, &err), -1);
    cr_expect_eq(err.code, BASE_E_NOT_REGULAR);
    cr_expect_eq(base_file_read_all("/dev/zero", 100, NULL, &data, NULL, &err), -1);
    cr_expect_eq(err.code, BASE_E_NOT_REGULAR);
}

Test(base_file, refuses_a_file_over_the_cap)
{
    scr_put(scr_in("big.txt"), "0123456789");
    char *data = NULL;
    base_error err = {0};
    cr_expect_eq(base_file_read_all(scr_in("big.txt"), 9, NULL, &data, NULL, &err), -1);
    cr_expect_eq(err.code, BASE_E_TOO_LARGE);
    cr_expect_eq(base_file_read_all(scr_in("big.txt"), 10, NULL, &data, NULL, &err), 0);
    free(data);
    cr_expect_eq(base_file_read_all(scr_in("missing"), 10, NULL, &data, NULL, &err), -1);
    cr_expect_eq(err.code, BASE_E_NOT_FOUND);
}

Test(base_file, writes_atomically_and_leaves_no_temporary)
{
    const char *out = scr_in("out.txt");
    scr_put(out, "old");
    base_error err = {0};
    cr_assert_eq(base_file_write_all(out, "new text", 8, NULL, &err), 0, "%s", err.msg);
    char *data = NULL;
    cr_assert_eq(base_file_read_all(out, 100, NULL, &data, NULL, &err), 0);
    cr_expect_str_eq(data, "new text");
    free(data);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", scr_dir);
    cr_expect_eq(system(cmd), 0, "a temporary file was left behind");
}

Test(base_file, abort_removes_only_its_own_temporary)
{
    const char *out = scr_in("kept.txt");
    scr_put(out, "evidence");
    base_error err = {0};
    base_file_writer *w = base_file_writer_open(out, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    fputs("half", base_file_writer_stream(w));
    base_file_writer_abort(w);
    char *data = NULL;
    cr_assert_eq(base_file_read_all(out, 100, NULL, &data, NULL, &err), 0);
    cr_expect_str_eq(data, "evidence");
    free(data);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", scr_dir);
    cr_expect_eq(system(cmd), 0, "a temporary file was left behind");
}

Test(base_file, never_writes_through_a_symlink)
{
    const char *target = scr_in("target.txt"), *link = scr_in("link.txt");
    scr_put(target, "precious");
    cr_assert_eq(symlink(target, link), 0);
    base_error err = {0};
    cr_expect_eq(base_file_write_all(link, "x", 1, NULL, &err), -1);
    cr_expect_eq(err.code, BASE_E_REFUSED);
    cr_expect(strstr(err.msg, "symbolic link"), "%s", err.msg);
    char *data = NULL;
    cr_assert_eq(base_file_read_all(target, 100, NULL, &data, NULL, &err), 0);
    cr_expect_str_eq(data, "precious");
    free(data);
    struct stat st;
    cr_expect_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode));
}

Test(base_file, a_full_device_is_an_error_and_stays)
{
    base_error err = {0};
    cr_expect_eq(base_file_write_all("/dev/full", "x", 1, "a sheet", &err), -1);
    cr_expect_eq(err.code, BASE_E_IO);
    cr_expect(strstr(err.msg, "/dev/full: cannot write a sheet: No space left on device"), "%s", err.msg);
    struct stat st;
    cr_assert_eq(stat("/dev/full", &st), 0);
    cr_expect(S_ISCHR(st.st_mode));
    /* /dev/null is written in place, as before. */
    cr_expect_eq(base_file_write_all("/dev/null", "x", 1, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(stat("/dev/null", &st), 0);
    cr_expect(S_ISCHR(st.st_mode));
    /* A FIFO is no output. */
    cr_assert_eq(mkfifo(scr_in("fifo"), 0600), 0);
    cr_expect_eq(base_file_write_all(scr_in("fifo"), "x", 1, NULL, &err), -1);
    cr_expect_eq(err.code, BASE_E_NOT_REGULAR);
}

Test(base_file, refuses_to_write_onto_an_input)
{
    const char *in = scr_in("list.json");
    scr_put(in, "{\"a\": 1}\n");
    base_error err = {0};
    cJSON *j = base_json_parse_file(in, &err);
    cr_assert_not_null(j, "%s", err.msg);
    cr_expect(base_file_is_input(in));
    /* A command (its main turns the refusal on) may not write what it read. */
    base_file_refuse_inputs(true);
    cr_expect_eq(base_json_write_file(j, in, &err), -1);
    cr_expect_eq(err.code, BASE_E_REFUSED);
    cr_expect(strstr(err.msg, "input of this command"), "%s", err.msg);
    /* A hard link is the same file. */
    cr_assert_eq(link(in, scr_in("hard.json")), 0);
    cr_expect_eq(base_json_write_file(j, scr_in("hard.json"), &err), -1);
    cr_expect_eq(base_json_write_file(j, scr_in("other.json"), &err), 0, "%s", err.msg);
    char *data = NULL;
    cr_assert_eq(base_file_read_all(in, 100, NULL, &data, NULL, &err), 0);
    cr_expect_str_eq(data, "{\"a\": 1}\n");
    free(data);
    /* A command that updates a file in place by design forgets it as an input first. */
    base_file_forget_input(in);
    cr_expect_not(base_file_is_input(in));
    cr_expect_eq(base_json_write_file(j, in, &err), 0, "%s", err.msg);
    base_file_note_input(in);
    cr_expect_eq(base_json_write_file(j, in, &err), -1);
    /* A library user (the refusal off) may save what it loaded. */
    base_file_refuse_inputs(false);
    cr_expect_eq(base_json_write_file(j, in, &err), 0, "%s", err.msg);
    cJSON_Delete(j);
}

Test(base_file, joins_paths_of_any_length)
{
    char *long_name = malloc(5001);
    memset(long_name, 'n', 5000);
    long_name[5000] = '\0';
    char *p = base_file_join("/some/dir/", long_name);
    cr_assert_not_null(p);
    cr_expect_eq(strlen(p), 10 + 5000);
    cr_expect_eq(strncmp(p, "/some/dir/nnn", 13), 0);
    free(p);
    p = base_file_join("d", "f");
    cr_expect_str_eq(p, "d/f");
    free(p);
    free(long_name);
}

Test(base_text, validates_utf8)
{
    cr_expect(base_text_valid("caf\xc3\xa9", 5));
    cr_expect(base_text_valid("\xf0\x9f\x8e\xb2", 4));
    cr_expect_not(base_text_valid("caf\xc3", 4));          /* cut */
    cr_expect_not(base_text_valid("\xc0\xaf", 2));         /* overlong */
    cr_expect_not(base_text_valid("\xed\xa0\x80", 3));     /* surrogate */
    cr_expect_not(base_text_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
    cr_expect_eq(base_text_valid_prefix("ab\xff", 3), 2);
}

Test(base_text, cuts_on_a_character_boundary)
{
    const char *s = "\xc3\xa9\xc3\xa9\xe2\x82\xac"; /* é é € : 2 + 2 + 3 bytes */
    cr_expect_eq(base_text_cut(s, 0), 0);
    cr_expect_eq(base_text_cut(s, 1), 0);
    cr_expect_eq(base_text_cut(s, 3), 2);
    cr_expect_eq(base_text_cut(s, 6), 4);
    cr_expect_eq(base_text_cut(s, 7), 7);
    cr_expect_eq(base_text_cut(s, 100), 7);
    char out[6];
    cr_expect_not(base_text_copy(out, sizeof out, s));
    cr_expect_str_eq(out, "\xc3\xa9\xc3\xa9");
    cr_expect(base_text_copy(out, sizeof out, "ab"));
    cr_expect_str_eq(out, "ab");
    /* 5000 characters of two bytes into a 64-byte field: 31 whole characters, valid UTF-8. */
    char *big = malloc(10001);
    for (int i = 0; i < 5000; i++)
        memcpy(big + 2 * i, "\xc3\xa9", 2);
    big[10000] = '\0';
    char field[64];
    base_text_copy(field, sizeof field, big);
    cr_expect_eq(strlen(field), 62);
    cr_expect(base_text_valid(field, strlen(field)));
    free(big);
}

/* `escape(in)` is exactly `want`. */
static void expect_escaped(char *(*escape)(const char *), const char *in, const char *want)
{
    char *got = escape(in);
    cr_assert_not_null(got, "no escaped copy of %zu bytes", strlen(in));
    cr_expect_str_eq(got, want);
    free(got);
}

Test(base_text, escapes_for_terminal_and_markup)
{
    expect_escaped(base_text_escape_terminal, "red\x1b[31m\n\\ \xc2\x9b ok \xc3\xa9 \xff",
                   "red\\x1b[31m\\x0a\\\\ \\xc2\\x9b ok \xc3\xa9 \\xff");
    expect_escaped(base_text_escape_markup, "Orcs & <Goblins> \"'\x01\xfe",
                   "Orcs &amp; &lt;Goblins&gt; &quot;&apos;\\x01\\xfe");
    expect_escaped(base_text_escape_visible, "a\\b\n\x1b\t\xff\xc3\xa9", "a\\b\n\\x1b\\x09\\xff\xc3\xa9");
    expect_escaped(base_text_escape_invalid, "a\xff\x1b\xc3\xa9", "a\\xff\x1b\xc3\xa9");
}

/* JSON's escapes: DEL and C1 as \u escapes, a byte that is not UTF-8 as \\xNN, everything else (ASCII runs, C0 that
 * cJSON already escaped inside strings, well-formed UTF-8) as it is; runs of ASCII are copied whole, so the cases
 * put the escaped bytes at a run's start, middle and end. */
Test(base_text, escapes_for_json)
{
    expect_escaped(base_text_escape_json, "\x7f{\"a\": \"x\x7fy \xc2\x9b \xc3\xa9\t\xff\"}\xc2\x85",
                   "\\u007f{\"a\": \"x\\u007fy \\u009b \xc3\xa9\t\\\\xff\"}\\u0085");
    expect_escaped(base_text_escape_json, "", "");
    /* A long plain run (the referee's JSON is ~240 KB of them) comes back byte for byte. */
    char big[5001];
    for (int k = 0; k < 5000; k++)
        big[k] = (char)(' ' + k % 95);
    big[5000] = '\0';
    expect_escaped(base_text_escape_json, big, big);
}

Test(base_json, refuses_invalid_utf8)
{
    base_error err = {0};
    cr_expect_null(base_json_parse_string("{\"name\": \"ab\n\xff\"}", "r.json", &err));
    cr_expect_str_eq(err.msg, "r.json: not valid UTF-8 at byte offset 13 (line 2, column 1, byte 0xff)");
}

Test(base_text, format_drops_a_split_character)
{
    char out[6];
    cr_expect_not(base_text_format(out, sizeof out, "ab%s", "\xe2\x82\xac\xe2\x82\xac"));
    cr_expect_str_eq(out, "ab\xe2\x82\xac");
    cr_expect_not(base_text_format(out, sizeof out, "a%sb", "\xe2\x82\xac\xe2\x82\xac"));
    cr_expect_str_eq(out, "a\xe2\x82\xac");
    cr_expect(base_text_format(out, sizeof out, "%d", 42));
    cr_expect_str_eq(out, "42");
}

Test(base_text, trim_cut_drops_only_a_split_character)
{
    char a[] = "ab\xe2\x82";
    base_text_trim_cut(a);
    cr_expect_str_eq(a, "ab");
    char b[] = "ab\xf0\x9f\x8e\xb2";
    base_text_trim_cut(b);
    cr_expect_str_eq(b, "ab\xf0\x9f\x8e\xb2");
    char c[] = "ab\xc3";
    base_text_trim_cut(c);
    cr_expect_str_eq(c, "ab");
}

Test(base_file, a_replaced_file_keeps_its_permissions)
{
    const char *out = scr_in("private.json");
    scr_put(out, "old");
    cr_assert_eq(chmod(out, 0600), 0);
    base_error err = {0};
    cr_assert_eq(base_file_write_all(out, "new", 3, NULL, &err), 0, "%s", err.msg);
    struct stat st;
    cr_assert_eq(stat(out, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0600);
}
