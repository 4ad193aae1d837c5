/*
 * Hostile files and names through the tableref command: every reader handed a FIFO refuses it at
 * once (exit 2 within a second, never waiting for a writer; under an emulator, the seconds its
 * TABLEREF_TEST_TIME_SCALE says); outputs never go through a symbolic
 * link, never remove a device, never land on the command's own input; names of 5000 non-ASCII
 * characters, with & < controls and invalid UTF-8, come out as valid UTF-8 with no Pango warning.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base_file.h"
#include "base_text.h"
#include "fixture_demo.h"

static void make_dir(void)
{
    cr_assert_not_null(fxd_scratch_make("hostile"));
}

static void remove_dir(void)
{
    cr_expect_eq(fxd_scratch_remove(), 0);
}

TestSuite(hostile_io, .init = make_dir, .fini = remove_dir, .timeout = 120);

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* How much slower than this machine's own the programs run: TABLEREF_TEST_TIME_SCALE, which
 * scripts/test-arm64.sh sets to its timeout multiplier under qemu-user (an arm64 tableref takes about a
 * second to start there); 1 natively. Every wall-clock limit below is multiplied by it. */
static double time_scale(void)
{
    const char *v = getenv("TABLEREF_TEST_TIME_SCALE");
    const double s = v ? atof(v) : 1;
    return s >= 1 ? s : 1;
}

/* Runs "tableref ARGS" from the source root (at most 10 s: a reader that waits is killed), stderr
 * into DIR/err.txt. Returns the exit status; *secs how long it took. */
static int tableref(double *secs, const char *fmt, ...)
{
    char args[16384], cmd[17000];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    cr_assert(n > 0 && (size_t)n < sizeof args, "command too long");
    n = snprintf(cmd, sizeof cmd, "cd '%s' && timeout %.0f '%s' %s </dev/null >'%s/out.txt' 2>'%s/err.txt'",
                 getenv("TABLEREF_SOURCE_ROOT"), 10 * time_scale(), getenv("TABLEREF_BIN"), args, fxd_dir(),
                 fxd_dir());
    cr_assert(n > 0 && (size_t)n < sizeof cmd, "command too long");
    double t0 = now_s();
    int st = system(cmd);
    if (secs)
        *secs = now_s() - t0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The whole of DIR/name (static buffer, cut at 64 KiB). */
static const char *slurp(const char *name)
{
    static char buf[65536];
    char path[256];
    snprintf(path, sizeof path, "%s/%s", fxd_dir(), name);
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return buf;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void put_file(const char *name, const char *text, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", fxd_dir(), name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fwrite(text, 1, len, f);
    fclose(f);
}

#define DEMO "datasets/demo"

/* Each reader refuses the FIFO by name, at once. */
static void expect_fifo_refused(const char *what, const char *args_fmt)
{
    char args[4096];
    snprintf(args, sizeof args, args_fmt, fxd_dir());
    double secs;
    int rc = tableref(&secs, "%s", args);
    const char *err = slurp("err.txt");
    cr_expect_eq(rc, 2, "%s: exit %d (%s)", what, rc, err);
    cr_expect_lt(secs, 1.0 * time_scale(), "%s: %.2f s", what, secs);
    cr_expect(strstr(err, "fifo") && strstr(err, ": not a regular file"), "%s: %s", what, err);
}

Test(hostile_io, every_reader_refuses_a_fifo_at_once)
{
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/fifo", fxd_dir());
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    char cat[256];
    snprintf(cat, sizeof cat, "%s/catalogue", fxd_dir());
    cr_assert_eq(mkdir(cat, 0700), 0);
    snprintf(cat, sizeof cat, "%s/catalogue/fifo.cat", fxd_dir());
    cr_assert_eq(mkfifo(cat, 0600), 0);
    expect_fifo_refused("roster", "tags sheet '%s/fifo' --out /tmp/never.pdf");
    expect_fifo_refused("roster (detect)", "detect " DEMO "/before.jpg --calib " DEMO "/calib.json --roster '%s/fifo'");
    expect_fifo_refused("table file", "detect " DEMO "/before.jpg --table '%s/fifo'");
    expect_fifo_refused("--calib", "detect " DEMO "/before.jpg --calib '%s/fifo' --roster " DEMO "/roster.json");
    expect_fifo_refused("check's first snapshot", "check '%s/fifo' " DEMO "/after.json");
    expect_fifo_refused("check's second snapshot", "check " DEMO "/before.json '%s/fifo'");
    expect_fifo_refused("a picture", "tags '%s/fifo'");
    expect_fifo_refused("a picture (detect)", "detect '%s/fifo' --table " DEMO "/table.json");
    expect_fifo_refused("--mqtt-password-file", "watch --table " DEMO "/table.json --mqtt 127.0.0.1:1 --event e "
                                                "--table 1 --mqtt-user u --mqtt-password-file '%s/fifo' --quiet");
    expect_fifo_refused("a catalogue folder entry", "roster import datasets/armylists/nr-text-orcs-and-goblins.txt "
                                                    "--out /tmp/never.json --no-ask --catalogue '%s/catalogue'");
}

Test(hostile_io, an_output_never_goes_through_a_symlink)
{
    put_file("target.txt", "precious\n", 9);
    char target[256], link[256];
    snprintf(target, sizeof target, "%s/target.txt", fxd_dir());
    snprintf(link, sizeof link, "%s/link.json", fxd_dir());
    cr_assert_eq(symlink(target, link), 0);
    int rc = tableref(NULL, "check " DEMO "/before.json " DEMO "/after.json --out '%s'", link);
    cr_expect_eq(rc, 2, "%s", slurp("err.txt"));
    cr_expect(strstr(slurp("err.txt"), "link.json: cannot write: a symbolic link"), "%s", slurp("err.txt"));
    cr_expect_str_eq(slurp("target.txt"), "precious\n", "the link's target is untouched");
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link is still there");
    /* A real path is written, and no temporary file is left beside it. */
    char out[256];
    snprintf(out, sizeof out, "%s/verdict.json", fxd_dir());
    rc = tableref(NULL, "check " DEMO "/before.json " DEMO "/after.json --out '%s'", out);
    cr_expect(rc == 0 || rc == 1, "exit %d: %s", rc, slurp("err.txt"));
    cJSON *j = cJSON_Parse(slurp("verdict.json"));
    cr_expect_not_null(j, "the verdict is whole JSON");
    cJSON_Delete(j);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep tmp)\"", fxd_dir());
    cr_expect_eq(system(cmd), 0, "no temporary file left");
}

Test(hostile_io, a_full_device_is_an_error_and_stays_a_device)
{
    int rc = tableref(NULL, "tags sheet " DEMO "/roster.json --out /dev/full");
    cr_expect_eq(rc, 2, "%s", slurp("err.txt"));
    cr_expect(strstr(slurp("err.txt"), "/dev/full: cannot write the PDF: No space left on device"), "%s",
              slurp("err.txt"));
    rc = tableref(NULL, "check " DEMO "/before.json " DEMO "/after.json --out /dev/full");
    cr_expect_eq(rc, 2, "%s", slurp("err.txt"));
    cr_expect(strstr(slurp("err.txt"), "/dev/full: cannot write: No space left on device"), "%s", slurp("err.txt"));
    struct stat st;
    cr_assert_eq(stat("/dev/full", &st), 0, "/dev/full is still there");
    cr_expect(S_ISCHR(st.st_mode), "/dev/full is still a character device");
    /* A FIFO is no output either: refused without waiting for a reader. */
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/out-fifo", fxd_dir());
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    double secs;
    rc = tableref(&secs, "check " DEMO "/before.json " DEMO "/after.json --out '%s'", fifo);
    cr_expect_eq(rc, 2, "%s", slurp("err.txt"));
    cr_expect_lt(secs, 1.0 * time_scale());
}

Test(hostile_io, an_output_onto_its_own_input_is_refused)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp datasets/armylists/nr-text-orcs-and-goblins.txt '%s/L.txt'", fxd_dir());
    char full[700];
    snprintf(full, sizeof full, "cd '%s' && %s", getenv("TABLEREF_SOURCE_ROOT"), cmd);
    cr_assert_eq(system(full), 0);
    int rc = tableref(NULL, "roster import '%s/L.txt' --out '%s/L.txt' --no-ask", fxd_dir(), fxd_dir());
    cr_expect_eq(rc, 2, "%s", slurp("err.txt"));
    cr_expect(strstr(slurp("err.txt"), "L.txt is also LIST ") &&
                  strstr(slurp("err.txt"), "L.txt: an output may not be an input of this command"),
              "%s", slurp("err.txt"));
    snprintf(full, sizeof full, "cd '%s' && cmp -s datasets/armylists/nr-text-orcs-and-goblins.txt '%s/L.txt'",
             getenv("TABLEREF_SOURCE_ROOT"), fxd_dir());
    cr_expect_eq(system(full), 0, "the list is unchanged");
    /* The same file under another name (a hard link) is the same input. */
    char a[256], b[256];
    snprintf(a, sizeof a, "%s/L.txt", fxd_dir());
    snprintf(b, sizeof b, "%s/L2.txt", fxd_dir());
    cr_assert_eq(link(a, b), 0);
    rc = tableref(NULL, "roster import '%s/L.txt' --out '%s/L2.txt' --no-ask", fxd_dir(), fxd_dir());
    cr_expect_eq(rc, 2, "%s", slurp("err.txt"));
}

/* A list whose army name is 5000 "é", a unit named with & < an ANSI escape, a bell and 5000 "ü", and
 * a unit with invalid UTF-8. */
static void write_hostile_list(char *unit, size_t cap)
{
    char *text = malloc(40000);
    cr_assert_not_null(text);
    size_t n = 0;
    for (int i = 0; i < 5000; i++)
        n += (size_t)sprintf(text + n, "\xc3\xa9");
    size_t u = (size_t)snprintf(unit, cap, "Gobbo & <Rabble> \x1b[31mred\x07 ");
    for (int i = 0; i < 5000 && u + 3 < cap; i++)
        u += (size_t)sprintf(unit + u, "\xc3\xbc");
    n += (size_t)sprintf(text + n, "\n250 - 12 %s, Spear and Shield\n55 - Bad \xff\xfe Byte Git\n", unit);
    put_file("hostile.txt", text, n);
    free(text);
}

Test(hostile_io, long_hostile_names_end_to_end_stay_valid_utf8)
{
    char *unit = malloc(12000);
    write_hostile_list(unit, 12000);
    const char *bad = "Bad \\xff\\xfe Byte Git"; /* as the list reader stores it */
    /* --set takes the whole name: it is cut as the list's is, so they compare equal. */
    put_file("unit.txt", unit, strlen(unit));
    free(unit);
    int rc = tableref(NULL,
                      "roster import '%1$s/hostile.txt' --out '%1$s/hostile.json' --no-ask "
                      "--set \"$(cat '%1$s/unit.txt'):base=20x20\" --set \"$(cat '%1$s/unit.txt'):adv=4\" "
                      "--set \"$(cat '%1$s/unit.txt'):mar=8\" "
                      "--set '%2$s:base=25x25' --set '%2$s:adv=4' --set '%2$s:mar=8'",
                      fxd_dir(), bad);
    cr_expect_eq(rc, 0, "the roster is complete: %s", slurp("err.txt"));
    const char *err = slurp("err.txt");
    cr_expect(base_text_valid(err, strlen(err)), "stderr is valid UTF-8");
    cr_expect_null(strchr(err, '\x1b'), "no raw escape on stderr");
    const char *out = slurp("out.txt");
    cr_expect(base_text_valid(out, strlen(out)), "stdout is valid UTF-8");
    cr_expect_null(strchr(out, '\x1b'), "no raw escape on stdout: %s", out);
    cr_expect_null(strchr(out, '\x07'), "no raw bell on stdout");
    cr_expect(strstr(out, "Gobbo & <Rabble> \\x1b[31mr"), "the name is shown with its escape as text: %s", out);
    const char *roster = slurp("hostile.json");
    cr_assert(roster[0], "a roster was written: %s", err);
    cr_expect(base_text_valid(roster, strlen(roster)), "the roster is valid UTF-8");
    cJSON *j = cJSON_Parse(roster);
    cr_assert_not_null(j, "the roster is JSON");
    const cJSON *army = cJSON_GetObjectItem(j, "army");
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(army, "name"));
    cr_assert_not_null(name);
    cr_expect_eq(strlen(name), 94, "47 whole characters of two bytes in a 96-byte field: %zu", strlen(name));
    const cJSON *units = cJSON_GetObjectItem(j, "units");
    cr_assert_eq(cJSON_GetArraySize(units), 2);
    const char *u0 = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(units, 0), "name"));
    const char *u1 = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(units, 1), "name"));
    cr_expect_eq(strncmp(u0, "Gobbo & <Rabble> \x1b[31mred\x07 \xc3\xbc", 27), 0, "%s", u0);
    cr_expect_str_eq(u1, bad);
    cJSON_Delete(j);
    /* Was the roster complete? Then the sheet: valid, with no Pango warning. */
    rc = tableref(NULL, "tags sheet '%1$s/hostile.json' --out '%1$s/hostile.pdf'", fxd_dir());
    err = slurp("err.txt");
    cr_expect_eq(rc, 0, "the sheet is written: %s", err);
    cr_expect_null(strstr(err, "Pango"), "no Pango warning: %s", err);
    cr_expect_null(strstr(err, "WARNING"), "no warning: %s", err);
    cr_expect(base_text_valid(err, strlen(err)), "stderr is valid UTF-8");
    struct stat st;
    char pdf[256];
    snprintf(pdf, sizeof pdf, "%s/hostile.pdf", fxd_dir());
    cr_expect(stat(pdf, &st) == 0 && st.st_size > 1000, "a PDF of some size");
}

Test(hostile_io, a_hand_written_roster_with_a_5000_character_name_is_refused_by_field)
{
    /* The demo roster with its first unit renamed. */
    char path[512];
    snprintf(path, sizeof path, "%s/" DEMO "/roster.json", getenv("TABLEREF_SOURCE_ROOT"));
    char *demo = NULL;
    base_error berr = {0};
    cr_assert_eq(base_file_read_all(path, 1 << 20, NULL, &demo, NULL, &berr), 0, "%s", berr.msg);
    cJSON *j = cJSON_Parse(demo);
    free(demo);
    cr_assert_not_null(j);
    char *name = malloc(10001);
    for (int i = 0; i < 5000; i++)
        memcpy(name + 2 * i, "\xc3\xa9", 2);
    name[10000] = '\0';
    cJSON *u0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cJSON_DeleteItemFromObject(u0, "name");
    cJSON_AddStringToObject(u0, "name", name);
    free(name);
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    put_file("long.json", text, strlen(text));
    free(text);
    int rc = tableref(NULL, "tags sheet '%1$s/long.json' --out '%1$s/long.pdf'", fxd_dir());
    const char *err = slurp("err.txt");
    cr_expect_eq(rc, 2, "%s", err);
    cr_expect(strstr(err, "units[0].name: longer than 95 characters"), "%s", err);
    cr_expect(base_text_valid(err, strlen(err)), "the message is valid UTF-8: %s", err);
    /* Invalid UTF-8 in a JSON file is refused with its place. */
    put_file("bad.json", "{\"units\": [\n{\"name\": \"a\xff\"}]}", 28);
    rc = tableref(NULL, "tags sheet '%1$s/bad.json' --out '%1$s/bad.pdf'", fxd_dir());
    err = slurp("err.txt");
    cr_expect_eq(rc, 2, "%s", err);
    cr_expect(strstr(err, "bad.json: not valid UTF-8 at byte offset 23 (line 2, column 12, byte 0xff)"), "%s", err);
}

/* A roster path of 1031 bytes whose first 1023 bytes name another roster that exists: the table file
 * reader once cut it there (a 1024-byte buffer) and read the other file. */
Test(hostile_io, a_long_path_is_never_cut_to_another_file)
{
    char path[1100];
    int n = snprintf(path, sizeof path, "%s", fxd_dir());
    while (n < 1023 - 210) /* folders of 200 characters up to near the cut */
        n += snprintf(path + n, sizeof path - (size_t)n, "/%0200d", 0);
    cr_assert_lt(n, 1023 - 8);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    cr_assert_eq(system(cmd), 0);
    /* The name that fills the path to exactly 1023 bytes, then 8 more. */
    path[n++] = '/';
    while (n < 1023)
        path[n++] = 'r';
    path[n] = '\0';
    snprintf(cmd, sizeof cmd, "cp '%s/" DEMO "/roster.json' '%s'", getenv("TABLEREF_SOURCE_ROOT"), path);
    cr_assert_eq(system(cmd), 0, "the decoy roster at the cut");
    strcat(path, "-missing");
    cr_assert_eq(strlen(path), 1031);
    char table[2000];
    int t = snprintf(table, sizeof table,
                     "{\"format\":\"tableref.table\",\"version\":1,\"calibration\":\"%s/" DEMO "/calib.json\","
                     "\"rosters\":[\"%s\"]}",
                     getenv("TABLEREF_SOURCE_ROOT"), path);
    put_file("table.json", table, (size_t)t);
    int rc = tableref(NULL, "detect " DEMO "/before.jpg --table '%s/table.json'", fxd_dir());
    const char *err = slurp("err.txt");
    cr_expect_eq(rc, 2, "the missing roster is an error, not the decoy read: %s", err);
    /* The message is cut at the error's 512 bytes, before the reason: it names the roster that failed. */
    cr_expect(strstr(err, "table.json: rosters[0]: /tmp/"), "%s", err);
    cr_expect(base_text_valid(err, strlen(err)), "valid UTF-8");
}

/* What a command updates in place by design still works: calibrate board writes the new pose into the
 * calibration it read when --out is not given. */
Test(hostile_io, calibrate_board_still_updates_its_calibration_in_place)
{
    int rc = tableref(NULL, "render --generate small --out '%s/scene'", fxd_dir());
    cr_assert_eq(rc, 0, "%s", slurp("err.txt"));
    rc = tableref(NULL, "calibrate board '%1$s/scene/image.jpg' --calib '%1$s/scene/calib.json' "
                        "--roster '%1$s/scene/roster.json'", fxd_dir());
    cr_expect_eq(rc, 0, "%s", slurp("err.txt"));
    cr_expect(strstr(slurp("out.txt"), "calib.json"), "%s", slurp("out.txt"));
    /* The roster it also read is still no output. */
    rc = tableref(NULL, "calibrate board '%1$s/scene/image.jpg' --calib '%1$s/scene/calib.json' "
                        "--roster '%1$s/scene/roster.json' --out '%1$s/scene/roster.json'", fxd_dir());
    cr_expect_eq(rc, 2, "%s", slurp("err.txt"));
    cr_expect(strstr(slurp("err.txt"), "roster.json is also --roster ") &&
                  strstr(slurp("err.txt"), "an output may not be an input of this command"),
              "%s", slurp("err.txt"));
}
