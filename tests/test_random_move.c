/*
 * Random movement (issue 29, point 5): a unit whose rates are dice (Adv and
 * Mar 3D6") is judged against the roll its player declares, and until one
 * is declared its call is "needs the roll", never LEGAL or ILLEGAL. Through
 * `tableref check`: the same 9" March without a roll, with a roll of 10"
 * (legal), of 8" (ILLEGAL), with an impossible roll (refused), and with the
 * roll written in the snapshot ("roll_in").
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base_geom.h"
#include "base_json.h"
#include "cli_run.h"
#include "rules_json.h"
#include "rules_move.h"
#include "rules_words.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-random-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(random_move, .init = setup, .fini = teardown, .timeout = 60);

/* A 5 x 2 block of 40 x 40 bases, its dice rates (and a roll when roll_in > 0), its front rank at y. */
static rules_snapshot *spawn_at(double y_mm, double roll_in)
{
    rules_snapshot *s = rules_snapshot_new(1828.8, 1219.2);
    rules_unit *u = rules_snapshot_add_unit(s, "spawn", "army-1");
    u->base_width = u->base_depth = 40;
    snprintf(u->advance_dice, sizeof u->advance_dice, "3D6");
    snprintf(u->march_dice, sizeof u->march_dice, "3D6");
    if (roll_in > 0)
        u->roll_mm = base_in_to_mm(roll_in);
    for (int k = 0; k < 10; k++) {
        char id[16];
        snprintf(id, sizeof id, "spawn-%d", k + 1);
        cr_assert_not_null(rules_unit_add_model(u, id, base_v2(800 + (k % 5 - 2) * 40.0, y_mm - 20 - (k / 5) * 40.0),
                                                BASE_PI / 2));
    }
    return s;
}

static void write_pair(double roll_in)
{
    base_error err;
    char b[512], a[512];
    snprintf(b, sizeof b, "%s/before.json", dir);
    snprintf(a, sizeof a, "%s/after.json", dir);
    rules_snapshot *before = spawn_at(400, roll_in), *after = spawn_at(400 + base_in_to_mm(9), 0);
    cr_assert_eq(rules_json_save_snapshot(before, b, &err), 0, "%s", err.msg);
    cr_assert_eq(rules_json_save_snapshot(after, a, &err), 0, "%s", err.msg);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
}

static cli_result check(const char *extra)
{
    char args[1200];
    snprintf(args, sizeof args, "check '%s/before.json' '%s/after.json' --move march %s", dir, dir, extra);
    cli_result r;
    cr_assert_eq(cli_run(args, &r), 0);
    return r;
}

Test(random_move, without_the_roll_the_call_needs_it)
{
    write_pair(0);
    cli_result r = check("");
    cr_assert_eq(r.status, 0, "no ILLEGAL call without the roll: %s%s", r.out, r.err);
    cr_assert(strstr(r.out, "unit spawn (army-1): march: NEEDS THE ROLL") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "call: spawn: march, needs the roll: its March Rate is 3D6\" (random movement); declare "
                            "the roll (inches) to judge the move") != NULL,
              "%s", r.out);
    cr_assert_null(strstr(r.out, "LEGAL\n"), "%s", r.out);
    r = check("--json");
    cJSON *j = cJSON_Parse(r.out);
    cr_assert_not_null(j, "%s", r.out);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "verdict")->valuestring, "cannot_tell");
    cr_assert_str_eq(cJSON_GetObjectItem(u, "needs")->valuestring, "roll");
    cr_assert_str_eq(cJSON_GetObjectItem(u, "dice")->valuestring, "3D6");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(u, "legal")), "a call that needs the roll is never ILLEGAL");
    cJSON_Delete(j);
    /* Inferred (auto), the same: no move type can be told without the roll. */
    char args[1200];
    snprintf(args, sizeof args, "check '%s/before.json' '%s/after.json'", dir, dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "call: spawn: needs the roll: its March Rate is 3D6\"") != NULL, "%s", r.out);
}

Test(random_move, with_the_roll_the_move_is_judged_against_it)
{
    write_pair(0);
    cli_result r = check("--roll spawn=10");
    cr_assert_eq(r.status, 0, "9\" on a roll of 10\" is legal: %s%s", r.out, r.err);
    cr_assert(strstr(r.out, "unit spawn (army-1): march: LEGAL") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "Judged by the roll declared for its March Rate: 10.00\" on 3D6.") != NULL, "%s", r.out);
    r = check("--roll spawn=8 --json");
    cr_assert_eq(r.status, 1, "9\" on a roll of 8\" is ILLEGAL: %s%s", r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "verdict")->valuestring, "illegal");
    cr_assert_null(cJSON_GetObjectItem(u, "needs"));
    cr_assert_float_eq(cJSON_GetObjectItem(u, "roll_in")->valuedouble, 8.0, 1e-9);
    cr_assert_float_eq(cJSON_GetObjectItem(u, "rate_in")->valuedouble, 8.0, 1e-9);
    cJSON_Delete(j);
    r = check("--roll spawn=20");
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "--roll spawn=20: unit spawn: a roll of 20.00\" is not one of 3D6 (3\" to 18\")") != NULL,
              "%s", r.err);
    r = check("--roll ghost=10");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "no unit \"ghost\" in the before snapshot") != NULL, "%s", r.err);
}

/* The roll a snapshot carries ("roll_in") is the roll declared, read and written back. */
Test(random_move, a_snapshot_carries_the_roll)
{
    write_pair(10);
    char b[512];
    snprintf(b, sizeof b, "%s/before.json", dir);
    base_error err;
    cJSON *j = base_json_parse_file(b, &err);
    cr_assert_not_null(j, "%s", err.msg);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "advance_dice")->valuestring, "3D6");
    cr_assert_float_eq(cJSON_GetObjectItem(u, "roll_in")->valuedouble, 10.0, 1e-9);
    cJSON_Delete(j);
    cli_result r = check("");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "march: LEGAL") != NULL, "%s", r.out);
}

/* No later verdict turns a call that needs the roll into LEGAL or ILLEGAL (rules_unit_report_set_verdict). */
Test(random_move, a_call_that_needs_the_roll_stays_so)
{
    rules_unit_report ur;
    rules_unit_report_init(&ur, "spawn", "army-1", RULES_MOVE_MARCH, true);
    rules_unit_report_needs_roll(&ur, "3D6", "needs the roll");
    rules_unit_report_set_verdict(&ur, RULES_VERDICT_LEGAL, NULL);
    cr_assert_eq(ur.verdict, RULES_VERDICT_CANNOT_TELL);
    rules_unit_report_add_violation(&ur, "MU-MODEL-DIST", RULES_QTY_LENGTH, 300, 200, "too far");
    rules_unit_report_set_verdict(&ur, RULES_VERDICT_ILLEGAL, NULL);
    cr_assert_eq(ur.verdict, RULES_VERDICT_CANNOT_TELL);
    cr_assert(ur.legal);
    cr_assert_str_eq(rules_words_call_title(&ur), "NEEDS THE ROLL");
    rules_unit_report_set_verdict(&ur, RULES_VERDICT_NOT_SEEN, "not seen");
    cr_assert_eq(ur.verdict, RULES_VERDICT_NOT_SEEN, "a unit not seen is not seen, roll or none");
    rules_unit_report_clear(&ur);
}
