/* The tableref binary: exit codes, messages and the bundled example. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli_run.h"

/* Runs "tableref ARGS" from the source root (tests/cli_run.h). */
static cli_result *run(const char *args)
{
    static cli_result r;
    cr_assert_eq(cli_run(args, &r), 0, "could not start tableref (TABLEREF_BIN, TABLEREF_SOURCE_ROOT)");
    return &r;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

#define EX "datasets/examples/"

Test(cli, help_on_every_command)
{
    cr_assert_eq(run("--help")->status, 0);
    cli_result r = *run("check --help");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "usage: tableref check"));
    cr_assert_eq(run("bench --help")->status, 0);
    cr_assert_eq(run("bench rules --help")->status, 0);
}

Test(cli, usage_errors_exit_2)
{
    cr_assert_eq(run("")->status, 2);
    cr_assert_eq(run("frobnicate")->status, 2);
    cr_assert_eq(run("check " EX "wheel-a/before.json")->status, 2);
    cr_assert_eq(run("check " EX "wheel-a/before.json " EX "wheel-a/after.json --move teleport")->status, 2);
    cr_assert_eq(run("check " EX "wheel-a/before.json " EX "wheel-a/after.json --bogus")->status, 2);
}

Test(cli, seed_wheel_examples_give_the_seed_verdicts)
{
    cli_result r = *run("check " EX "wheel-a/before.json " EX "wheel-a/after.json --move march");
    cr_assert_eq(r.status, 0, "figure a is legal:\n%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "verdict: LEGAL"));
    r = *run("check " EX "wheel-b/before.json " EX "wheel-b/after.json --move march");
    cr_assert_eq(r.status, 1, "figure b is illegal:\n%s", r.out);
    cr_assert(strstr(r.out, "MU-MODEL-DIST"));
    r = *run("check " EX "wheel-c/before.json " EX "wheel-c/after.json --move march");
    cr_assert_eq(r.status, 0, "figure c is legal:\n%s", r.out);
}

Test(cli, demo_turn_reports_json)
{
    cli_result r = *run("check " EX "turn/before.json " EX "turn/after.json --json");
    cr_assert_eq(r.status, 1, "the demo turn has an illegal march:\n%s%s", r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert_not_null(j, "--json prints JSON");
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "legal")));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "units")), 3);
    cJSON_Delete(j);
}

Test(cli, unit_filter)
{
    cli_result r = *run("check " EX "turn/before.json " EX "turn/after.json --unit spearmen --json");
    cJSON *j = cJSON_Parse(r.out);
    cr_assert_not_null(j);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "units")), 1);
    cJSON_Delete(j);
    cr_assert_eq(run("check " EX "turn/before.json " EX "turn/after.json --unit nobody")->status, 2);
}

Test(cli, malformed_json_names_the_file_and_exits_2)
{
    write_file("/tmp/tableref-bad.json", "{\"board\": {\"width_mm\": 10,,}}");
    cli_result r = *run("check /tmp/tableref-bad.json " EX "wheel-a/after.json");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "/tmp/tableref-bad.json") && strstr(r.err, "malformed JSON"), "%s", r.err);
    unlink("/tmp/tableref-bad.json");
}

Test(cli, missing_field_names_the_field)
{
    write_file("/tmp/tableref-nofield.json",
               "{\"board\":{\"width_mm\":10,\"depth_mm\":10},\"units\":[{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25,25],"
               "\"models\":[{\"id\":\"m\",\"x_mm\":1,\"facing_deg\":0}]}]}");
    cli_result r = *run("check /tmp/tableref-nofield.json /tmp/tableref-nofield.json");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "units[0].models[0].y_mm"), "%s", r.err);
    unlink("/tmp/tableref-nofield.json");
}

Test(cli, missing_file_exits_2)
{
    cli_result r = *run("check /nonexistent.json " EX "wheel-a/after.json");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "/nonexistent.json"));
}

Test(cli, bench_rules_prints_its_figures)
{
    cli_result r = *run("bench rules --iterations 20");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "rules: units=40 models=300 check_ms="), "%s", r.out);
}
