/*
 * Nothing a file says reaches the terminal raw (issue 31, point 4): ESC (a colour), OSC (a window title ended by
 * BEL), the C1 control U+009B (CSI in one character) and DEL put into every name a roster (unit ids, names and
 * sides, model ids, the army's header), a table file (its name, a terrain piece's id) and an army list (the army's
 * and a unit's name) can carry, then every place tableref shows them: the terminal (stdout and stderr of referee,
 * detect, table-check, check, reach, watch, roster import, tags sheet, and a message quoting an argument), JSON
 * (report.json, the snapshots, check --json and --out, detect's stdout, the roster written), the event log, the
 * subtitles and the pages (report.svg, and report.pdf's and the tag sheet's text). None of those bytes is found
 * raw anywhere; the names are there, as visible text ("\x1b[31m") or as JSON escapes that read back to them.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_json.h"
#include "base_text.h"
#include "cli_run.h"
#include "fixture_demo.h"

/* ESC [ 31 m, ESC ] 0 ; pwn BEL, U+009B 2 J, DEL. */
#define HOSTILE "\x1b[31m\x1b]0;pwn\x07\xc2\x9b" "2J\x7f"
/* As a terminal is shown it. */
#define SHOWN "\\x1b[31m\\x1b]0;pwn\\x07\\xc2\\x9b2J\\x7f"
/* In an army list's text a ';' ends a name: there the OSC is ESC ] 2 pwn BEL (a terminal still takes it as one). */
#define HOSTILE_LIST "\x1b[31m\x1b]2pwn\x07\xc2\x9b" "2J\x7f"
#define SHOWN_LIST "\\x1b[31m\\x1b]2pwn\\x07\\xc2\\x9b2J\\x7f"

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("escapes"));
}

static void teardown(void)
{
    (void)fxd_scratch_remove();
}

TestSuite(escapes, .init = setup, .fini = teardown, .timeout = 240);

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *len = 0;
        return strdup("");
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    b[*len] = '\0';
    fclose(f);
    return b;
}

/* No control character raw in text (newline, tab and a page break of pdftotext aside), and valid UTF-8. */
static void expect_clean(const char *what, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];
        const bool c1 = c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F;
        if ((c < 0x20 && c != '\n' && c != '\t' && c != '\f') || c == 0x7F || c1) {
            cr_expect_fail("%s: raw control 0x%02x%s at byte %zu: ...%.60s", what, c, c1 ? " (C1)" : "", i,
                           s + (i > 40 ? i - 40 : 0));
            return;
        }
    }
    cr_expect(base_text_valid(s, n), "%s: valid UTF-8", what);
}

static void expect_clean_file(const char *what, const char *path)
{
    size_t n;
    char *t = slurp(path, &n);
    cr_expect_gt(n, 0, "%s: %s written", what, path);
    expect_clean(what, t, n);
    free(t);
}

static cli_result res;

/* Runs tableref (%1$s the scratch folder, %2$s the demo's): its status; stdout and stderr checked clean. */
static int run(const char *what, const char *fmt)
{
    char demo[1024], args[8192];
    snprintf(demo, sizeof demo, "%s", fxd_demo(""));
    demo[strlen(demo) - 1] = '\0';
    snprintf(args, sizeof args, fmt, fxd_dir(), demo);
    cr_assert_eq(cli_run(args, &res), 0, "%s", args);
    char label[200];
    snprintf(label, sizeof label, "%s: stdout", what);
    expect_clean(label, res.out, strlen(res.out));
    snprintf(label, sizeof label, "%s: stderr", what);
    expect_clean(label, res.err, strlen(res.err));
    return res.status;
}

/* s with HOSTILE appended, into a new cJSON string in place of obj.key. */
static void taint(cJSON *obj, const char *key)
{
    const cJSON *it = cJSON_GetObjectItem(obj, key);
    if (!cJSON_IsString(it))
        return;
    char v[256];
    snprintf(v, sizeof v, "%s" HOSTILE, it->valuestring);
    cJSON_ReplaceItemInObject(obj, key, cJSON_CreateString(v));
}

/* The demo's roster with every name it can carry tainted: unit ids, names, sides, model ids, the army's header. */
static void write_hostile_roster(void)
{
    base_error err;
    cJSON *r = base_json_parse_file(fxd_demo("roster.json"), &err);
    cr_assert_not_null(r, "%s", err.msg);
    cJSON *u, *m;
    cJSON_ArrayForEach(u, cJSON_GetObjectItem(r, "units"))
    {
        taint(u, "id");
        if (!cJSON_GetObjectItem(u, "name"))
            cJSON_AddStringToObject(u, "name", "Unit");
        taint(u, "name");
        taint(u, "side");
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(u, "models")) taint(m, "id");
    }
    cJSON *army = cJSON_GetObjectItem(r, "army");
    if (!army)
        army = cJSON_AddObjectToObject(r, "army");
    static const char *const header[] = {"name", "player", "game_system", "source", "source_format", "tag_ids"};
    for (size_t i = 0; i < sizeof header / sizeof header[0]; i++) {
        if (!cJSON_GetObjectItem(army, header[i]))
            cJSON_AddStringToObject(army, header[i], "x");
        taint(army, header[i]);
    }
    cr_assert_eq(base_json_write_file(r, fxd_tmp("roster-h.json"), &err), 0, "%s", err.msg);
    cJSON_Delete(r);
}

/* The demo's table file naming that roster, with its own name and its terrain's ids tainted. */
static void write_hostile_table(void)
{
    base_error err;
    cJSON *t = base_json_parse_file(fxd_demo("table.json"), &err);
    cr_assert_not_null(t, "%s", err.msg);
    taint(t, "name");
    cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(t, "terrain")) taint(p, "id");
    cJSON_ReplaceItemInObject(t, "rosters", cJSON_CreateStringArray((const char *[]){"roster-h.json"}, 1));
    cr_assert_eq(base_json_write_file(t, fxd_tmp("table-h.json"), &err), 0, "%s", err.msg);
    cJSON_Delete(t);
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' '%s' '%s/'", fxd_demo("calib.json"), fxd_demo("before.jpg"),
             fxd_demo("after.jpg"), fxd_dir());
    cr_assert_eq(system(cmd), 0);
}

/* A JSON output: clean, and it reads back to the hostile names. */
static void expect_json_carries_names(const char *what, const char *path)
{
    size_t n;
    char *t = slurp(path, &n);
    expect_clean(what, t, n);
    cJSON *j = cJSON_Parse(t);
    cr_expect_not_null(j, "%s: JSON", what);
    char *raw = j ? cJSON_PrintUnformatted(j) : NULL; /* cJSON prints C1 and DEL raw: the decoded names */
    cr_expect(raw && strstr(raw, "\xc2\x9b" "2J\x7f"), "%s: the names read back whole", what);
    free(raw);
    cJSON_Delete(j);
    free(t);
}

Test(escapes, roster_and_table_names_never_raw_in_referee_detect_check_and_watch)
{
    write_hostile_roster();
    write_hostile_table();
    /* referee: the terminal, report.json, the snapshots, the pages. */
    const int rc = run("referee", "referee %1$s/before.jpg %1$s/after.jpg --table %1$s/table-h.json --out %1$s/o --svg");
    cr_assert_eq(rc, 1, "%s", res.err);
    cr_expect(strstr(res.out, "spears" SHOWN), "the unit's id is shown as text: %s", res.out);
    expect_json_carries_names("report.json", fxd_tmp("o/report.json"));
    expect_json_carries_names("before.json", fxd_tmp("o/before.json"));
    expect_clean_file("report.svg", fxd_tmp("o/report.svg"));
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "pdftotext '%s' '%s' 2>/dev/null", fxd_tmp("o/report.pdf"), fxd_tmp("report.txt"));
    if (system(cmd) == 0) {
        expect_clean_file("report.pdf's text", fxd_tmp("report.txt"));
        size_t n;
        char *text = slurp(fxd_tmp("report.txt"), &n);
        cr_expect(strstr(text, "\\x1b"), "the page shows the names' escapes as text: %.300s", text);
        free(text);
    }
    /* detect: the snapshot on stdout, the report with --json. */
    run("detect", "detect %1$s/after.jpg --table %1$s/table-h.json --out %1$s/d.json");
    expect_json_carries_names("detect --out", fxd_tmp("d.json"));
    run("detect --json", "detect %1$s/after.jpg --table %1$s/table-h.json --json");
    run("table-check", "table-check %1$s/before.jpg --table %1$s/table-h.json");
    run("table-check --json", "table-check %1$s/before.jpg --table %1$s/table-h.json --json");
    /* check and reach on the snapshots the referee wrote. */
    run("check", "check %1$s/o/before.json %1$s/o/after.json");
    cr_expect(strstr(res.out, SHOWN), "%s", res.out);
    run("check --json", "check %1$s/o/before.json %1$s/o/after.json --json --out %1$s/c.json");
    expect_json_carries_names("check --out", fxd_tmp("c.json"));
    run("reach", "reach %1$s/o/before.json --move march --unit \"$(printf 'spears\\033[31m\\033]0;pwn\\007\\302\\2332J\\177')\"");
    cr_expect_eq(res.status, 0, "%s", res.err);
    run("an argument quoted", "check %1$s/o/before.json %1$s/o/after.json --unit \"$(printf 'x\\033]0;t\\007\\302\\233')\"");
    cr_expect(strstr(res.out, "x\\x1b]0;t\\x07\\xc2\\x9b") || strstr(res.err, "x\\x1b]0;t\\x07\\xc2\\x9b"),
              "the argument is quoted as text: %s%s", res.out, res.err);
    /* watch: the terminal, the event log and the subtitles. */
    snprintf(cmd, sizeof cmd,
             "mkdir '%1$s/frames' && for i in 01 02 03 04 05 06 07 08; do cp '%1$s/before.jpg' \"%1$s/frames/0$i.jpg\"; "
             "done && for i in 09 10 11 12 13 14 15 16; do cp '%1$s/after.jpg' \"%1$s/frames/0$i.jpg\"; done",
             fxd_dir());
    cr_assert_eq(system(cmd), 0);
    run("watch", "watch --table %1$s/table-h.json --source %1$s/frames --log %1$s/w.jsonl --vtt %1$s/w.vtt "
                 "--settle-ms 400 --fps 5 </dev/null");
    cr_expect(strstr(res.out, SHOWN), "the watch shows the names as text: %s%s", res.out, res.err);
    expect_clean_file("the event log", fxd_tmp("w.jsonl"));
    expect_clean_file("the subtitles", fxd_tmp("w.vtt"));
    size_t n;
    char *vtt = slurp(fxd_tmp("w.vtt"), &n);
    cr_expect(strstr(vtt, "spears" SHOWN), "the subtitles show the names as text: %s", vtt);
    free(vtt);
    char *log = slurp(fxd_tmp("w.jsonl"), &n);
    cr_expect(strstr(log, "\\u009b2J\\u007f"), "the log carries the names as JSON escapes");
    free(log);
}

/* An army list's names through roster import (terminal, the roster's JSON) and tags sheet (its page's text). */
Test(escapes, army_list_names_never_raw_in_the_roster_or_the_sheet)
{
    FILE *f = fopen(fxd_tmp("list.txt"), "w");
    cr_assert_not_null(f);
    fputs("Orcs" HOSTILE_LIST "\n250 - 12 Rabble" HOSTILE_LIST ", Spear and Shield\n", f);
    fclose(f);
    run("roster import", "roster import %1$s/list.txt --out %1$s/army.json --no-ask --set 'Rabble" HOSTILE_LIST
                         ":base=20x20' --set 'Rabble" HOSTILE_LIST ":adv=4' --set 'Rabble" HOSTILE_LIST ":mar=8'");
    cr_expect(res.status == 0 || res.status == 1, "%s", res.err);
    cr_expect(strstr(res.out, SHOWN_LIST) || strstr(res.err, SHOWN_LIST), "the names are shown as text: %s%s",
              res.out, res.err);
    expect_json_carries_names("the roster", fxd_tmp("army.json"));
    run("tags sheet", "tags sheet %1$s/army.json --out %1$s/army.pdf --layout %1$s/layout.json");
    cr_expect_eq(res.status, 0, "%s", res.err);
    expect_clean_file("the sheet's layout", fxd_tmp("layout.json"));
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "pdftotext '%s' '%s' 2>/dev/null", fxd_tmp("army.pdf"), fxd_tmp("army.txt"));
    if (system(cmd) == 0)
        expect_clean_file("the sheet's text", fxd_tmp("army.txt"));
}
