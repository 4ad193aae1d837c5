/*
 * `tableref referee` carries the nearest legal move of each ILLEGAL call
 * into report.json (issue 14), the same as `tableref check` finds on the two
 * snapshots the referee detected, and none for the calls that are not ILLEGAL.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli_run.h"

static char dir[128];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-refsug-%ld", (long)getpid());
}
static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(referee_suggest, .init = setup, .fini = teardown, .timeout = 120);

static cJSON *load(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *j = cJSON_Parse(buf);
    cr_assert_not_null(j, "%s is JSON", path);
    return j;
}

static const cJSON *unit(const cJSON *report, const char *id)
{
    const cJSON *u;
    cJSON_ArrayForEach(u, cJSON_GetObjectItem(report, "units"))
    if (strcmp(cJSON_GetObjectItem(u, "unit")->valuestring, id) == 0)
        return u;
    cr_assert_fail("unit %s in the report", id);
    return NULL;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    cr_assert(cJSON_IsNumber(v), "%s is a number", key);
    return v->valuedouble;
}

Test(referee_suggest, the_demo_report_carries_the_spears_nearest_legal_move)
{
    cli_result r;
    char args[1024], path[256];
    snprintf(args, sizeof args,
             "referee datasets/demo/before.jpg datasets/demo/after.jpg --calib datasets/demo/calib.json "
             "--roster datasets/demo/roster.json --out %s",
             dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1, "the demo's spears March is illegal:\n%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "nearest legal move: "), "%s", r.out);
    snprintf(path, sizeof path, "%s/report.json", dir);
    cJSON *got = load(path);
    const cJSON *sp = unit(got, "spears");
    cr_assert_str_eq(cJSON_GetObjectItem(sp, "verdict")->valuestring, "illegal");
    const cJSON *sg = cJSON_GetObjectItem(sp, "suggestion");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(sg, "found")));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(sg, "models")), 8);
    /* spears-7 ends 10.38" on a 10" March: at least 0.38" must go, and a turn of a few degrees is enough */
    cr_assert_geq(num(sg, "shift_in"), 0.37);
    cr_assert_leq(num(sg, "shift_in"), 0.45);
    cr_assert_null(cJSON_GetObjectItem(unit(got, "knights"), "suggestion"), "a legal call gets none");

    /* The same answer from `tableref check` on the snapshots the referee detected, and it checks legal. */
    char fixed[256];
    snprintf(fixed, sizeof fixed, "%s/suggested.json", dir);
    snprintf(args, sizeof args, "check %s/before.json %s/after.json --json --suggest %s", dir, dir, fixed);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1);
    cJSON *chk = cJSON_Parse(r.out);
    cr_assert_not_null(chk);
    const cJSON *cs = cJSON_GetObjectItem(unit(chk, "spears"), "suggestion");
    cr_assert_float_eq(num(cs, "shift_in"), num(sg, "shift_in"), 1e-9);
    const cJSON *pa = cJSON_GetObjectItem(sg, "pose"), *pb = cJSON_GetObjectItem(cs, "pose");
    cr_assert_float_eq(num(pa, "x_mm"), num(pb, "x_mm"), 1e-9);
    cr_assert_float_eq(num(pa, "y_mm"), num(pb, "y_mm"), 1e-9);
    cr_assert_float_eq(num(pa, "facing_deg"), num(pb, "facing_deg"), 1e-9);
    snprintf(args, sizeof args, "check %s/before.json %s --json", dir, fixed);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "the suggested snapshot checks legal:\n%s%s", r.out, r.err);
    cJSON *again = cJSON_Parse(r.out);
    cr_assert_not_null(again);
    cr_assert_str_eq(cJSON_GetObjectItem(unit(again, "spears"), "verdict")->valuestring, "legal",
                     "LEGAL, not merely not ILLEGAL");
    cJSON_Delete(again);
    cJSON_Delete(chk);
    cJSON_Delete(got);
}
