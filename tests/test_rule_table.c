/*
 * rule_table: the table of rules (rules/rules_moves.def) walked row by row
 * through every interface that names, offers, draws or judges a move
 * (issue 27): its token and words; `tableref check` (--move's choices,
 * help and messages, the judge, the JSON and the sentence) and `tableref
 * referee` (its --move) with the referee library's judge; the watch (its
 * "reach UNIT MOVE" command and its event log's words); the overlay (the
 * headline on the table, the report page's text); the venue feed's words
 * (venue_payload); the man page and the bash completion. Nothing here names
 * a move type: a row added to the table is walked like the others. A test
 * build (meson setup -Dtest_rule=true) adds the dummy row of
 * tests/rule_dummy.c, whose word ("dummy move") is not its token
 * ("dummy-move"), and walks it too.
 */
#include <criterion/criterion.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli_run.h"
#include "ov_draw.h"
#include "ov_scene.h"
#include "ref_judge.h"
#include "rules_json.h"
#include "rules_moves.h"
#include "rules_words.h"
#include "venue_payload.h"
#include "watch_control.h"
#include "watch_log.h"

#define EX "datasets/examples/wheel-a/"

static const char *env(const char *name)
{
    const char *v = getenv(name);
    cr_assert(v && v[0], "%s is not set (meson test sets it)", name);
    return v;
}

static cli_result *run(const char *args)
{
    static cli_result r;
    cr_assert_eq(cli_run(args, &r), 0, "could not start tableref (TABLEREF_BIN, TABLEREF_SOURCE_ROOT)");
    return &r;
}

static rules_snapshot *load(const char *rel)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", env("TABLEREF_SOURCE_ROOT"), rel);
    base_error err = {0};
    rules_snapshot *s = rules_json_load_snapshot(path, &err);
    cr_assert_not_null(s, "%s: %s", path, err.msg);
    return s;
}

/* Whitespace runs (a help's line breaks and indents) read as one space. */
static void squeeze(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    bool space = false;
    for (; *in && n + 1 < cap; in++) {
        if (isspace((unsigned char)*in)) {
            space = n > 0;
            continue;
        }
        if (space && n + 2 < cap)
            out[n++] = ' ';
        space = false;
        out[n++] = *in;
    }
    out[n] = 0;
}

/* `word` in `text` as a whole token (not inside "reform-move" when looking for "reform"). */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '-');
        bool right = !(isalnum((unsigned char)p[n]) || p[n] == '-');
        if (left && right)
            return true;
    }
    return false;
}

/* The section of a help text (or the man page) from "usage: tableref CMD " to the next "usage:". */
static void section(const char *text, const char *cmd, char *out, size_t cap)
{
    char head[64];
    snprintf(head, sizeof head, "usage: tableref %s ", cmd);
    const char *a = strstr(text, head);
    cr_assert_not_null(a, "no section for %s", cmd);
    const char *b = strstr(a + 1, "usage: tableref");
    size_t n = b ? (size_t)(b - a) : strlen(a);
    n = n < cap - 1 ? n : cap - 1;
    memcpy(out, a, n);
    out[n] = 0;
}

/* The help lines of `option` in a help section, squeezed: from the option to the next line starting "  --". */
static void option_help(const char *sec, const char *option, char *out, size_t cap)
{
    char key[48];
    snprintf(key, sizeof key, "  %s ", option);
    const char *a = strstr(sec, key);
    cr_assert_not_null(a, "no %s in the section", option);
    const char *b = strstr(a + 2, "\n  --");
    char raw[2048];
    size_t n = b ? (size_t)(b - a) : strlen(a);
    n = n < sizeof raw - 1 ? n : sizeof raw - 1;
    memcpy(raw, a, n);
    raw[n] = 0;
    squeeze(raw, out, cap);
}

/* `tableref --options-dump`'s value words of `command`'s `option`. */
static void dumped_values(const char *command, const char *option, char *out, size_t cap)
{
    cli_result *r = run("--options-dump");
    cr_assert_eq(r->status, 0);
    char key[96];
    snprintf(key, sizeof key, "option\t%s\t%s\t", command, option);
    const char *a = strstr(r->out, key);
    cr_assert_not_null(a, "no %s %s in the dump", command, option);
    /* option  command  name  kind  arg  min  max  values  help */
    for (int tab = 0; tab < 7; tab++)
        a = strchr(a, '\t') + 1;
    const char *b = strchr(a, '\t');
    size_t n = (size_t)(b - a) < cap - 1 ? (size_t)(b - a) : cap - 1;
    memcpy(out, a, n);
    out[n] = 0;
}

static bool option_row(int t)
{
    return rules_move_has((rules_move_type)t, RULES_MOVE_OPTION);
}

/* A move type of its own (not none, not auto), offered with `flag`: what rules_move_tokens lists. */
static bool listed(int t, unsigned flag)
{
    return t != RULES_MOVE_NONE && t != RULES_MOVE_AUTO && rules_move_has((rules_move_type)t, flag);
}

Test(rule_table, every_row_has_a_token_words_and_a_place)
{
    cr_assert_gt(RULES_MOVE_COUNT, RULES_MOVE_AUTO + 1, "rows beyond none and auto");
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        const rules_move_type m = (rules_move_type)t;
        const char *tok = rules_move_token(m);
        cr_assert(tok[0] && strcmp(tok, "?") != 0, "row %d has a token", t);
        for (int u = 0; u < t; u++)
            cr_assert_str_neq(tok, rules_move_token((rules_move_type)u), "tokens are unique");
        for (const char *c = tok; *c; c++)
            cr_assert(islower((unsigned char)*c) || *c == '-', "token '%s': lower case and '-' only", tok);
        cr_assert(rules_words_move(m)[0] && rules_words_move_title(m)[0] && rules_words_move_limit(m)[0],
                  "row %s has its words", tok);
        rules_move_type back;
        if (option_row(t)) {
            cr_assert_eq(rules_move_from_token(tok, &back), 0, "--move %s is read", tok);
            cr_assert_eq(back, m);
        } else {
            cr_assert_eq(rules_move_from_token(tok, &back), -1, "%s is no --move choice", tok);
        }
        if (rules_move_rate_of(m) != RULES_RATE_REPORT)
            cr_assert_not_null(rules_move_key(m), "row %s names its rate's profile key", tok);
        if (rules_move_has(m, RULES_MOVE_REACH))
            cr_assert_neq(rules_move_rate_of(m), RULES_RATE_REPORT, "a reach needs the profile's rate (%s)", tok);
        if (rules_move_has(m, RULES_MOVE_INFER))
            cr_assert(rules_move_has(m, RULES_MOVE_PICTURES | RULES_MOVE_OPTION), "%s: auto infers it", tok);
    }
    rules_move_type none;
    cr_assert_eq(rules_move_from_token("none", &none), -1);
    cr_assert_eq(rules_move_from_token("teleport", &none), -1);
}

Test(rule_table, check_offers_every_row_in_its_choices_help_and_messages)
{
    char values[1024], want[1024] = "auto";
    dumped_values("check", "--move", values, sizeof values);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (listed(t, RULES_MOVE_OPTION))
            strcat(strcat(want, " "), rules_move_token((rules_move_type)t));
    cr_assert_str_eq(values, want, "check --move's choices (help, completion, man page) are the rows");

    cli_result *r = run("check --help");
    char sec[16384], help[2048];
    section(r->out, "check", sec, sizeof sec);
    option_help(sec, "--move", help, sizeof help);
    r = run("check " EX "before.json " EX "after.json --move none");
    cr_assert_eq(r->status, 2, "none is not a --move choice");
    cr_assert(strstr(r->err, "--move: expected"), "%s", r->err);
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        if (!option_row(t))
            continue;
        const char *tok = rules_move_token((rules_move_type)t);
        cr_assert(has_word(help, tok), "check --help's --move names %s: %s", tok, help);
        cr_assert(has_word(r->err, tok), "the refusal lists %s: %s", tok, r->err);
    }
}

Test(rule_table, check_judges_every_row_with_its_judge)
{
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        if (!option_row(t))
            continue;
        const rules_move_type m = (rules_move_type)t;
        char args[512];
        snprintf(args, sizeof args, "check " EX "before.json " EX "after.json --move %s --json", rules_move_token(m));
        cli_result *r = run(args);
        cr_assert(!strstr(r->err, "--move: expected"), "--move %s is taken: %s", rules_move_token(m), r->err);
        if (!rules_move_has(m, RULES_MOVE_PICTURES))
            continue; /* its judge needs more than two snapshots (--mid, --pursuer, ...): its own suites */
        cr_assert(r->status == 0 || r->status == 1, "--move %s: %d %s", rules_move_token(m), r->status, r->err);
        cJSON *j = cJSON_Parse(r->out);
        cr_assert_not_null(j, "%s", r->out);
        const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
        cr_assert_not_null(u);
        const char *tok = cJSON_GetStringValue(cJSON_GetObjectItem(u, "move"));
        rules_move_type judged;
        cr_assert_eq(rules_move_from_token(tok, &judged), 0, "the JSON's move is a token: %s", tok);
        if (m == RULES_MOVE_AUTO)
            cr_assert(rules_move_has(judged, RULES_MOVE_INFER), "auto infers a row it may: %s", tok);
        else
            cr_assert_eq(judged, m, "judged by its row's judge: %s", tok);
        char head[128];
        snprintf(head, sizeof head, "regiment: %s", rules_words_move(judged));
        const char *sentence = cJSON_GetStringValue(cJSON_GetObjectItem(u, "sentence"));
        cr_assert(sentence && strncmp(sentence, head, strlen(head)) == 0, "the sentence says its word: %s", sentence);
        cJSON_Delete(j);
    }
}

Test(rule_table, the_referee_offers_the_rows_judged_from_pictures)
{
    char values[512], want[512] = "auto";
    dumped_values("referee", "--move", values, sizeof values);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (listed(t, RULES_MOVE_PICTURES))
            strcat(strcat(want, " "), rules_move_token((rules_move_type)t));
    cr_assert_str_eq(values, want);
    char help[2048], sec[16384];
    cli_result *r = run("referee --help");
    section(r->out, "referee", sec, sizeof sec);
    option_help(sec, "--move", help, sizeof help);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (listed(t, RULES_MOVE_PICTURES))
            cr_assert(has_word(help, rules_move_token((rules_move_type)t)), "%s", help);
    /* The options are read before the pictures: a --move taken fails on the missing pictures, not on itself. */
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        char args[1024];
        snprintf(args, sizeof args,
                 "referee /nonexistent/before.jpg /nonexistent/after.jpg --calib datasets/demo/calib.json "
                 "--roster datasets/demo/roster.json --out /nonexistent/out --move %s",
                 rules_move_token((rules_move_type)t));
        r = run(args);
        cr_assert_eq(r->status, 2);
        cr_assert_eq(strstr(r->err, "--move: expected") != NULL, !option_row(t), "--move %s: %s",
                     rules_move_token((rules_move_type)t), r->err);
    }
}

/* The demo's two snapshots judged by the referee library for each row judged from pictures. */
Test(rule_table, the_referee_library_judges_each_row_by_its_row)
{
    rules_snapshot *before = load("datasets/demo/before.json"), *after = load("datasets/demo/after.json");
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        const rules_move_type m = (rules_move_type)t;
        if (!rules_move_has(m, RULES_MOVE_PICTURES))
            continue;
        ref_judge_options o;
        ref_judge_options_default(&o);
        o.check.move = m;
        ref_judgement j;
        ref_judgement_init(&j);
        base_error err = {0};
        cr_assert_eq(ref_judge(before, after, &o, &j, &err), 0, "%s: %s", rules_move_token(m), err.msg);
        cr_assert_gt(j.report.n_units, 0);
        for (size_t i = 0; i < j.report.n_units; i++)
            cr_assert(m == RULES_MOVE_AUTO ? rules_move_has(j.report.units[i].move, RULES_MOVE_INFER)
                                           : j.report.units[i].move == m,
                      "%s: unit %s judged as %s", rules_move_token(m), j.report.units[i].unit_id,
                      rules_move_token(j.report.units[i].move));
        ref_judgement_clear(&j);
    }
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}

Test(rule_table, the_watch_reads_a_reach_for_the_rows_with_one)
{
    watch_command c;
    cr_assert_eq(watch_command_parse("reach regiment", "x", &c), 0);
    cr_assert(rules_move_has(c.reach_move, RULES_MOVE_REACH), "the default has a reach");
    cr_assert_eq(watch_command_parse("reach regiment none", "x", &c), -1);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (listed(t, RULES_MOVE_REACH))
            cr_assert(has_word(c.error, rules_move_token((rules_move_type)t)), "the error lists it: %s", c.error);
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        const rules_move_type m = (rules_move_type)t;
        char line[128];
        snprintf(line, sizeof line, "reach regiment %s", rules_move_token(m));
        int rc = watch_command_parse(line, "x", &c);
        if (rules_move_has(m, RULES_MOVE_REACH)) {
            cr_assert_eq(rc, 0, "%s: %s", line, c.error);
            cr_assert_eq(c.action, WATCH_CMD_REACH);
            cr_assert_eq(c.reach_move, m, "%s", line);
        } else {
            cr_assert_eq(rc, -1, "%s has no reach", line);
            cr_assert(strstr(c.error, rules_move_token(m)), "the error names the word: %s", c.error);
        }
    }
}

/* wheel-a's regiment judged as a March, then said as each row's move (its words, not its judge, are walked). */
static void judged_as_each_row(rules_snapshot **before, rules_snapshot **after, ref_judgement *j)
{
    *before = load(EX "before.json");
    *after = load(EX "after.json");
    ref_judge_options o;
    ref_judge_options_default(&o);
    o.check.move = RULES_MOVE_MARCH;
    ref_judgement_init(j);
    base_error err = {0};
    cr_assert_eq(ref_judge(*before, *after, &o, j, &err), 0, "%s", err.msg);
    cr_assert_eq(j->report.n_units, 1);
}

Test(rule_table, the_event_log_and_the_venue_feed_say_each_rows_words)
{
    rules_snapshot *before, *after;
    ref_judgement j;
    judged_as_each_row(&before, &after, &j);
    rules_unit_report *u = &j.report.units[0];
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        u->move = (rules_move_type)t;
        char head[128];
        snprintf(head, sizeof head, "regiment: %s", rules_words_move(u->move));
        /* the watch's event log: the token in "move", the word in "sentence" */
        cJSON *ev = cJSON_CreateObject();
        cr_assert_eq(watch_log_add_call(ev, 1, &j.report, before, after), 0);
        const cJSON *lu = cJSON_GetArrayItem(cJSON_GetObjectItem(ev, "units"), 0);
        cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(lu, "move")), rules_move_token(u->move));
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(lu, "sentence"));
        cr_assert(strncmp(s, head, strlen(head)) == 0, "the log's sentence: %s", s);
        cJSON_Delete(ev);
        /* the venue feed's MQTT payload */
        ev = cJSON_Parse("{\"event\":\"alert\",\"move\":1,\"unit\":\"regiment\"}");
        cr_assert_eq(venue_call_add_words(ev, &j.report, before, after), 0);
        s = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "sentence"));
        cr_assert(s && strncmp(s, head, strlen(head)) == 0, "the feed's sentence: %s", s);
        cJSON_Delete(ev);
    }
    ref_judgement_clear(&j);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}

static bool scene_says(const ov_scene *sc, const char *want)
{
    for (size_t i = 0; i < ov_scene_label_count(sc); i++)
        if (strstr(ov_scene_label_text(sc, i, NULL), want))
            return true;
    return false;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    return buf;
}

Test(rule_table, the_overlay_names_each_row_on_the_table_and_the_page)
{
    rules_snapshot *before, *after;
    ref_judgement j;
    judged_as_each_row(&before, &after, &j);
    rules_unit_report *u = &j.report.units[0];
    char svg[2048];
    snprintf(svg, sizeof svg, "%s/tests/rule-table-report.svg", env("TABLEREF_BUILD_ROOT"));
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        u->move = (rules_move_type)t;
        char headline[256];
        snprintf(headline, sizeof headline, "regiment \xC2\xB7 %s \xC2\xB7 %s", rules_words_move_title(u->move),
                 rules_words_verdict_title(u->verdict));
        for (int brief = 0; brief < 2; brief++) { /* the referee's pictures and the watch's (brief) */
            ov_options o;
            ov_options_default(&o);
            o.detail = brief ? OV_DETAIL_BRIEF : OV_DETAIL_FULL;
            base_error err = {0};
            ov_scene *sc = ov_scene_new(&o, &err);
            cr_assert_not_null(sc);
            cr_assert_eq(ov_scene_add_verdict(sc, before, after, &j.report, &err), 0, "%s", err.msg);
            cr_assert(scene_says(sc, headline), "the headline says %s", headline);
            ov_scene_free(sc);
        }
        /* the report page's text: "regiment (red): Title (declared), Limit ..." */
        base_error err = {0};
        ov_target *tg = ov_target_new_report(before->board_width, before->board_depth, OV_PAPER_A4, OV_FORMAT_SVG,
                                             svg, &err);
        cr_assert_not_null(tg, "%s", err.msg);
        cr_assert_eq(ov_draw_verdict(tg, before, after, &j.report, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(ov_target_finish(tg, &err), 0, "%s", err.msg);
        ov_target_free(tg);
        char *page = read_all(svg);
        char title[128];
        snprintf(title, sizeof title, ": %s (declared)", rules_words_move_title(u->move));
        cr_assert(strstr(page, title), "the page says %s", title);
        free(page);
    }
    unlink(svg);
    ref_judgement_clear(&j);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}

Test(rule_table, the_man_page_and_the_completion_offer_every_row)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/docs/tableref.1", env("TABLEREF_BUILD_ROOT"));
    char *man = read_all(path);
    static char sec[65536], help[4096];
    section(man, "check", sec, sizeof sec);
    option_help(sec, "--move", help, sizeof help);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (option_row(t))
            cr_assert(has_word(help, rules_move_token((rules_move_type)t)), "man: check --move: %s", help);
    section(man, "referee", sec, sizeof sec);
    option_help(sec, "--move", help, sizeof help);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (listed(t, RULES_MOVE_PICTURES))
            cr_assert(has_word(help, rules_move_token((rules_move_type)t)), "man: referee --move: %s", help);
    section(man, "reach", sec, sizeof sec);
    option_help(sec, "--move", help, sizeof help);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (listed(t, RULES_MOVE_REACH))
            cr_assert(has_word(help, rules_move_token((rules_move_type)t)), "man: reach --move: %s", help);
    free(man);
    snprintf(path, sizeof path, "%s/docs/tableref", env("TABLEREF_BUILD_ROOT"));
    char *completion = read_all(path);
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        if (option_row(t))
            cr_assert(has_word(completion, rules_move_token((rules_move_type)t)), "the completion offers %s",
                      rules_move_token((rules_move_type)t));
    free(completion);
}

#ifdef RULES_TEST_RULE
/* The test build's row, added as a file pair and a row: judged by its own judge, said in its own words. */
Test(rule_table, the_dummy_rule_reaches_check_by_its_row_alone)
{
    cli_result *r = run("check " EX "before.json " EX "after.json --move dummy-move --json");
    cr_assert(r->status == 0 || r->status == 1, "%d %s", r->status, r->err);
    cJSON *j = cJSON_Parse(r->out);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(u, "move")), "dummy-move", "the token in the JSON");
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(u, "sentence"));
    cr_assert(strncmp(s, "regiment: dummy move", 20) == 0, "the word in the sentence: %s", s);
    cJSON_Delete(j);
    r = run("check " EX "before.json " EX "after.json --move dummy-move");
    cr_assert(strstr(r->out, "unit regiment (red): dummy move"), "the terminal's word: %s", r->out);
}
#endif
