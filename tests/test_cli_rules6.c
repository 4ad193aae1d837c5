/* tableref check --move reform-move|combat-reform|pursuit|formation on the bundled examples (issue 6). */
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

#define EX "datasets/examples/rules/"

Test(cli_rules6, reform_move_around_a_rock_is_too_long_for_one_model)
{
    cli_result r = *run("check " EX "reform-move/before.json " EX "reform-move/after.json --move reform-move");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "RM-MODEL-PATH"), "%s", r.out);
    r = *run("check " EX "reform-move/before.json " EX "reform-move/after-legal.json --move reform-move --mid "
            EX "reform-move/mid.json");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "mid-move placement"));
}

Test(cli_rules6, reform_move_json_has_the_routes)
{
    cli_result r = *run("check " EX "reform-move/before.json " EX "reform-move/after.json --move reform-move --json");
    cr_assert_eq(r.status, 1);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert_not_null(j, "%s", r.out);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "move")->valuestring, "reform-move");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(u, "model_paths")), 7);
    cJSON_Delete(j);
}

Test(cli_rules6, combat_reform_figure_is_legal_and_losing_contact_is_not)
{
    cli_result r = *run("check " EX "combat-reform/before.json " EX "combat-reform/after.json --move combat-reform");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    r = *run("check " EX "combat-reform/before.json " EX "combat-reform/after-lost-contact.json --move combat-reform "
            "--losing-side red");
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.out, "CR-LOST-CONTACT"));
    cr_assert(strstr(r.out, "Command Test required"));
    r = *run("check " EX "combat-reform/before.json " EX "combat-reform/after.json --move combat-reform --reforming B");
    cr_assert_eq(r.status, 0, "B did not move: nothing broken");
}

Test(cli_rules6, pursuit_backtracks_and_a_unit_too_far_is_illegal)
{
    cli_result r = *run("check " EX "pursuit/before.json " EX "pursuit/after.json --move pursuit --pursuer E=6 "
                       "--pursued G");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "backtracked"));
    r = *run("check " EX "pursuit/before.json " EX "pursuit/after-too-far.json --move pursuit --pursuer E=6 "
            "--pursued-facing 90");
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.out, "PU-POSITION"));
    r = *run("check " EX "pursuit/before.json " EX "pursuit/after-too-far.json --move pursuit --pursuer E=6 "
            "--pursued G --tolerance-in 2");
    cr_assert_eq(r.status, 0, "1.82\" off is within a 2\" tolerance");
}

Test(cli_rules6, pursuit_needs_its_inputs)
{
    cli_result r = *run("check " EX "pursuit/before.json " EX "pursuit/after.json --move pursuit");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--pursuer"));
    r = *run("check " EX "pursuit/before.json " EX "pursuit/after.json --move pursuit --pursuer E6 --pursued G");
    cr_assert_eq(r.status, 2);
    r = *run("check " EX "pursuit/before.json " EX "pursuit/after.json --move pursuit --pursuer E=6 --pursued nobody");
    cr_assert_eq(r.status, 2);
    r = *run("check " EX "pursuit/before.json " EX "pursuit/after.json --move march --mid " EX "pursuit/after.json");
    cr_assert_eq(r.status, 2);
}

Test(cli_rules6, formation_of_sylvan_knights)
{
    cli_result r = *run("check " EX "formation/before.json " EX "formation/after.json --move formation --json");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    const cJSON *m = cJSON_GetObjectItem(u, "measurements");
    cr_assert_float_eq(cJSON_GetObjectItem(m, "movement_left_in")->valuedouble, 2.0, 1e-3);
    cJSON_Delete(j);
}

Test(cli_rules6, formation_fields_survive_a_round_trip)
{
    cli_result r = *run("check " EX "formation/after.json " EX "formation/after.json --move formation");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "members: 3"));
}
