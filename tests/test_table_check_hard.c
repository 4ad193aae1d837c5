/*
 * table-check's verdict means what it says (issue 29, point 6): on a clear
 * table of the hard set (hard table 1, ~290 models of mixed units with
 * leaning figures on their bases, no hands: `render --generate hard:1
 * --hands 0`) it says GO, roster_fit finds nothing against the right roster
 * (ranks with gaps, characters, figures crossing tags), and each unit's
 * "models seen" is the count `detect` places from the models' own tags
 * (the snapshot's models that are not inferred): one count, exactly.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base_json.h"
#include "cli_run.h"
#include "fixture_demo.h"

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("tchard"));
}

static void teardown(void)
{
    (void)fxd_scratch_remove();
}

TestSuite(table_check_hard, .init = setup, .fini = teardown, .timeout = 600);

/* Models of the snapshot's unit placed from their tags (not "inferred"). */
static int placed(const cJSON *snap, const char *unit)
{
    const cJSON *u, *m;
    cJSON_ArrayForEach(u, cJSON_GetObjectItem(snap, "units"))
    {
        if (strcmp(cJSON_GetObjectItem(u, "id")->valuestring, unit) != 0)
            continue;
        int n = 0;
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(u, "models")) n += !cJSON_IsTrue(cJSON_GetObjectItem(m, "inferred"));
        return n;
    }
    return 0; /* not seen at all: listed among unseen_units */
}

Test(table_check_hard, go_on_a_clear_hard_table_with_detects_counts)
{
    char args[4096];
    cli_result r;
    snprintf(args, sizeof args, "render --generate hard:1 --hands 0 --out '%s'", fxd_dir());
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "0 models under a hand"), "%s", r.out);
    snprintf(args, sizeof args, "table-check '%s' --calib '%s' --roster '%s' --json", fxd_tmp("image.jpg"),
             fxd_tmp("calib.json"), fxd_tmp("roster.json"));
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "GO on a clear table: %s%s", r.out, r.err);
    cJSON *tc = cJSON_Parse(r.out);
    cr_assert_not_null(tc, "%s", r.out);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(tc, "go")));
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(tc, "checks")) if (strcmp(cJSON_GetObjectItem(c, "name")->valuestring,
                                                                         "roster_fit") == 0)
        cr_assert_float_eq(cJSON_GetObjectItem(c, "value")->valuedouble, 0, 1e-12, "nothing against the right roster");
    snprintf(args, sizeof args, "detect '%s' --calib '%s' --roster '%s' --out '%s'", fxd_tmp("image.jpg"),
             fxd_tmp("calib.json"), fxd_tmp("roster.json"), fxd_tmp("snap.json"));
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    base_error err;
    cJSON *snap = base_json_parse_file(fxd_tmp("snap.json"), &err);
    cr_assert_not_null(snap, "%s", err.msg);
    const cJSON *u;
    int units = 0, seen = 0, total = 0;
    cJSON_ArrayForEach(u, cJSON_GetObjectItem(tc, "units"))
    {
        const char *id = cJSON_GetObjectItem(u, "unit")->valuestring;
        const int n = (int)cJSON_GetObjectItem(u, "models_seen")->valuedouble;
        cr_expect_eq(n, placed(snap, id), "unit %s: table-check %d, detect %d", id, n, placed(snap, id));
        cr_expect_gt(n, 0, "unit %s", id);
        units++, seen += n, total += (int)cJSON_GetObjectItem(u, "models")->valuedouble;
    }
    cr_expect_gt(units, 10);
    cr_expect_geq(seen, total * 95 / 100, "%d of %d models placed from their tags", seen, total);
    cJSON_Delete(snap);
    cJSON_Delete(tc);
}
