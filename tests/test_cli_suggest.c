/* tableref check --suggest and tableref reach, run as a user would. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli_run.h"

static cli_result *run(const char *args)
{
    static cli_result r;
    cr_assert_eq(cli_run(args, &r), 0, "could not start tableref (TABLEREF_BIN, TABLEREF_SOURCE_ROOT)");
    return &r;
}

/* A scratch file name unique to this test process. */
static const char *scratch(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/tableref-%ld-%s", (long)getpid(), name);
    return path;
}

#define EX "datasets/examples/"

Test(cli_suggest, the_suggested_snapshot_of_seed_figure_b_checks_legal)
{
    char out[256], args[1024];
    snprintf(out, sizeof out, "%s", scratch("wheel-b-suggested.json"));
    snprintf(args, sizeof args, "check " EX "wheel-b/before.json " EX "wheel-b/after.json --move march --suggest %s",
             out);
    cli_result r = *run(args);
    cr_assert_eq(r.status, 1, "figure b is illegal:\n%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "nearest legal move: "), "%s", r.out);
    snprintf(args, sizeof args, "check " EX "wheel-b/before.json %s --move march", out);
    r = *run(args);
    cr_assert_eq(r.status, 0, "the suggestion is legal:\n%s%s", r.out, r.err);
    unlink(out);
}

Test(cli_suggest, the_report_json_names_the_suggested_pose_and_every_model)
{
    cli_result r = *run("check " EX "wheel-b/before.json " EX "wheel-b/after.json --json");
    cr_assert_eq(r.status, 1);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert_not_null(j, "JSON on stdout");
    const cJSON *s = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0), "suggestion");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(s, "found")));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(s, "models")), 18);
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "pose"), "facing_deg")));
    cr_assert_gt(cJSON_GetObjectItem(s, "shift_in")->valuedouble, 1.8, "regiment-16 ends 1.81\" too far");
    cr_assert(strstr(cJSON_GetObjectItem(s, "text")->valuestring, "no model moves more than"));
    cJSON_Delete(j);
}

Test(cli_suggest, a_pursuit_put_where_its_prediction_ends_checks_legal)
{
    char out[256], args[1024];
    snprintf(out, sizeof out, "%s", scratch("pursuit-suggested.json"));
    snprintf(args, sizeof args,
             "check " EX "rules/pursuit/before.json " EX "rules/pursuit/after-too-far.json --move pursuit "
             "--pursuer E=6 --pursued G --suggest %s",
             out);
    cli_result r = *run(args);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "where their Pursuit ends"), "%s", r.out);
    snprintf(args, sizeof args, "check " EX "rules/pursuit/before.json %s --move pursuit --pursuer E=6 --pursued G",
             out);
    r = *run(args);
    cr_assert_eq(r.status, 0, "the predicted position is legal:\n%s%s", r.out, r.err);
    unlink(out);
}

Test(cli_suggest, reach_prints_the_largest_wheel_and_every_facing)
{
    cli_result r = *run("reach " EX "wheel-b/before.json --unit regiment --move march");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "largest wheel: left 114.4 deg"), "%s", r.out);
    cr_assert(strstr(r.out, "0.0 deg      10.00\""), "straight on: the whole March Rate\n%s", r.out);
}

Test(cli_suggest, reach_json_holds_an_outline_per_facing)
{
    cli_result r = *run("reach " EX "wheel-b/before.json --unit regiment --move advance --facing-step 45 --json");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert_not_null(j);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "format")->valuestring, "tableref.reach");
    const cJSON *facings = cJSON_GetObjectItem(j, "facings");
    cr_assert_geq(cJSON_GetArraySize(facings), 3);
    const cJSON *f;
    cJSON_ArrayForEach(f, facings)
    {
        cr_assert_geq(cJSON_GetArraySize(cJSON_GetObjectItem(f, "envelope_mm")), 4);
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(f, "far")), cJSON_GetArraySize(cJSON_GetObjectItem(f, "near")));
    }
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "largest_wheel"), "left"),
                                                 "angle_deg")));
    cJSON_Delete(j);
}

Test(cli_suggest, reach_input_errors_exit_2_and_say_why)
{
    cli_result r = *run("reach " EX "wheel-b/before.json --move march");
    cr_assert_eq(r.status, 2);
    r = *run("reach " EX "wheel-b/before.json --unit nobody --move march");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "nobody"), "%s", r.err);
    r = *run("reach " EX "wheel-b/before.json --unit regiment --move reform");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "advance or march"), "%s", r.err);
    r = *run("reach " EX "wheel-b/before.json --unit regiment --move march --facing-step 0");
    cr_assert_eq(r.status, 2);
    cr_assert_eq(run("reach --help")->status, 0);
}

Test(cli_suggest, a_reform_move_suggestion_checks_legal)
{
    char out[256], args[1024];
    snprintf(out, sizeof out, "%s", scratch("reform-move-suggested.json"));
    snprintf(args, sizeof args,
             "check " EX "rules/reform-move/before.json " EX "rules/reform-move/after.json --move reform-move "
             "--suggest %s",
             out);
    cli_result r = *run(args);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "nearest legal move: "), "%s", r.out);
    snprintf(args, sizeof args, "check " EX "rules/reform-move/before.json %s --move reform-move", out);
    r = *run(args);
    cr_assert_eq(r.status, 0, "the suggested Reform Move is legal:\n%s%s", r.out, r.err);
    unlink(out);
}
