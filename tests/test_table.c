/*
 * The table file: one file holds the calibration, the rosters, the ruleset
 * with house rules and the terrain, and `referee --table` / `detect --table`
 * need nothing else. The bundled demo turn (datasets/demo/) is judged with
 * the table's house rule and terrain, which change the call; rosters of two
 * armies merge, and collisions are refused by name. Base sizes per model.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "rules_json.h"
#include "rules_snapshot.h"
#include "table_file.h"
#include "roster.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-table-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

static const char *src(void)
{
    const char *r = getenv("TABLEREF_SOURCE_ROOT");
    return r ? r : ".";
}

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* A table file over the demo's calibration and roster, with `extra` JSON members. */
static void demo_table(const char *name, const char *extra)
{
    char text[4096];
    snprintf(text, sizeof text,
             "{\"format\": \"tableref.table\", \"version\": 1, \"calibration\": \"%s/datasets/demo/calib.json\",\n"
             " \"rosters\": [\"%s/datasets/demo/roster.json\"]%s%s}\n",
             src(), src(), extra[0] ? ", " : "", extra);
    write_file(name, text);
}

static int load_err(const char *name, char *msg, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    table_file t;
    base_error err = {0};
    int rc = table_file_load(path, &t, &err);
    snprintf(msg, cap, "%s", err.msg);
    if (rc == 0)
        table_file_clear(&t);
    return rc;
}

Test(table, bundled_demo_table_loads_everything)
{
    char path[512];
    snprintf(path, sizeof path, "%s/datasets/demo/table.json", src());
    table_file t;
    base_error err;
    cr_assert_eq(table_file_load(path, &t, &err), 0, "%s", err.msg);
    cr_assert_str_eq(t.name, "Demo table");
    cr_assert_eq(t.calib.width, 1280);
    cr_assert_eq(t.roster->n_units, 3);
    cr_assert_eq(t.roster->n_board_tags, 4);
    cr_assert_float_eq(t.setting->ruleset.march_test_radius_mm, 6 * 25.4, 1e-9, "the house rule (8\" in the book)");
    cr_assert_eq(t.setting->n_terrain, 1);
    cr_assert_str_eq(t.setting->terrain[0].id, "rocks");
    cr_assert_eq(t.width, 1280);
    cr_assert_eq(t.height, 960);
    rules_snapshot *s = rules_snapshot_new(700, 500);
    cr_assert_eq(table_file_apply(&t, s, &err), 0);
    cr_assert_eq(s->n_terrain, 1);
    cr_assert_float_eq(s->ruleset.march_test_radius_mm, 6 * 25.4, 1e-9);
    rules_snapshot_free(s);
    table_file_clear(&t);
}

Test(table, referee_needs_nothing_else_and_judges_by_the_table, .init = setup, .fini = teardown, .timeout = 120)
{
    /* A house rule (3" Unit Spacing) and a wood the knights end against: they become illegal. */
    demo_table("t.json", "\"ruleset\": {\"name\": \"t9a-2ed\", \"unit_spacing_in\": 3},\n"
                         " \"terrain\": [{\"id\": \"wood\", \"kind\": \"impassable\", "
                         "\"points_mm\": [[400, 120], [470, 120], [470, 150], [400, 150]]}]");
    char args[1024];
    cli_result r;
    snprintf(args, sizeof args,
             "referee datasets/demo/before.jpg datasets/demo/after.jpg --table '%s/t.json' --out '%s/out' --unit knights",
             dir, dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "MU-SPACING-TERRAIN") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "impassable terrain wood") != NULL, "%s", r.out);
    /* The same pictures without the table's rules: the knights' move is legal. */
    snprintf(args, sizeof args,
             "referee datasets/demo/before.jpg datasets/demo/after.jpg --calib datasets/demo/calib.json "
             "--roster datasets/demo/roster.json --out '%s/plain' --unit knights",
             dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    /* detect writes the table's terrain and ruleset into the snapshot. */
    snprintf(args, sizeof args, "detect datasets/demo/after.jpg --table '%s/t.json' --out '%s/after.json'", dir, dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char path[512];
    snprintf(path, sizeof path, "%s/after.json", dir);
    base_error err;
    rules_snapshot *s = rules_json_load_snapshot(path, &err);
    cr_assert_not_null(s, "%s", err.msg);
    cr_assert_eq(s->n_terrain, 1);
    cr_assert_str_eq(s->terrain[0].id, "wood");
    cr_assert_float_eq(s->ruleset.unit_spacing_mm, 3 * 25.4, 1e-6, "the house rule travels with the snapshot");
    rules_snapshot_free(s);
}

Test(table, missing_and_conflicting_arguments_are_named, .timeout = 60)
{
    cli_result r;
    cr_assert_eq(cli_run("referee datasets/demo/before.jpg datasets/demo/after.jpg --out /tmp/x", &r), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "missing --calib C.json (or --table T.json)") != NULL, "%s", r.err);
    cr_assert(strstr(r.err, "usage:") == NULL, "names the argument instead of printing the usage: %s", r.err);
    cr_assert_eq(cli_run("referee datasets/demo/before.jpg datasets/demo/after.jpg --table datasets/demo/table.json", &r),
                 0);
    cr_assert(strstr(r.err, "missing --out DIR") != NULL, "%s", r.err);
    cr_assert_eq(cli_run("detect datasets/demo/after.jpg --table datasets/demo/table.json --calib datasets/demo/calib.json",
                         &r),
                 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "either --table or --calib and --roster") != NULL, "%s", r.err);
}

Test(table, bad_tables_are_refused_by_file_and_field, .init = setup, .fini = teardown)
{
    char msg[600], path[512];
    write_file("nocal.json", "{\"format\": \"tableref.table\", \"version\": 1, \"rosters\": [\"r.json\"]}");
    cr_assert_eq(load_err("nocal.json", msg, sizeof msg), -1);
    cr_assert(strstr(msg, "nocal.json: calibration: missing") != NULL, "%s", msg);
    demo_table("size.json", "\"capture\": {\"source\": \"libcamera\", \"size\": [4056, 3040]}");
    cr_assert_eq(load_err("size.json", msg, sizeof msg), -1);
    cr_assert(strstr(msg, "capture.size: 4056x3040, but the calibration was made at 1280x960") != NULL, "%s", msg);
    demo_table("terrain.json", "\"terrain\": [{\"kind\": \"lava\", \"points_mm\": [[0, 0], [1, 0], [1, 1]]}]");
    cr_assert_eq(load_err("terrain.json", msg, sizeof msg), -1);
    cr_assert(strstr(msg, "terrain.json") != NULL && strstr(msg, "terrain[0].kind") != NULL, "%s", msg);
    demo_table("rules.json", "\"ruleset\": \"t9a-9th\"");
    cr_assert_eq(load_err("rules.json", msg, sizeof msg), -1);
    cr_assert(strstr(msg, "rules.json") != NULL && strstr(msg, "ruleset") != NULL, "%s", msg);
    /* Relative names are read from the table's folder. */
    write_file("rel.json", "{\"format\": \"tableref.table\", \"version\": 1, \"calibration\": \"calib.json\", "
                           "\"rosters\": [\"roster.json\"]}");
    cr_assert_eq(load_err("rel.json", msg, sizeof msg), -1);
    snprintf(path, sizeof path, "%s/calib.json", dir);
    cr_assert(strstr(msg, path) != NULL, "looked for %s: %s", path, msg);
}

/* Two armies imported from real lists, merged by the table. */
Test(table, two_armies_merge_and_collisions_are_named, .init = setup, .fini = teardown, .timeout = 120)
{
    char args[2048], msg[800];
    cli_result r;
    const char *set = "--set 'Tomb King:base=25x25' --set 'Tomb King:adv=4' --set 'Tomb King:mar=8'";
    snprintf(args, sizeof args, "roster import datasets/armylists/MagicItems60.rosz --out '%s/a.json' --army 1 %s", dir,
             set);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(args, sizeof args, "roster import datasets/armylists/MagicItems60.rosz --out '%s/b.json' --army 1 %s", dir,
             set);
    cr_assert_eq(cli_run(args, &r), 0);
    snprintf(args, sizeof args,
             "roster import datasets/armylists/MagicItems60.rosz --out '%s/c.json' --army 2 --prefix b- %s", dir, set);
    cr_assert_eq(cli_run(args, &r), 0);
    snprintf(args, sizeof args, "roster import datasets/armylists/MagicItems60.rosz --out '%s/d.json' --army 2 %s", dir,
             set);
    cr_assert_eq(cli_run(args, &r), 0);
    char text[2048];
    const char *head = "{\"format\": \"tableref.table\", \"version\": 1, \"calibration\": \"%s/datasets/demo/calib.json\", "
                       "\"rosters\": [\"a.json\", \"%s\"]}";
    snprintf(text, sizeof text, head, src(), "b.json");
    write_file("same-slot.json", text);
    cr_assert_eq(load_err("same-slot.json", msg, sizeof msg), -1);
    cr_assert(strstr(msg, "were both imported as army 1") != NULL && strstr(msg, "--army 2") != NULL, "%s", msg);
    snprintf(text, sizeof text, head, src(), "d.json");
    write_file("same-unit.json", text);
    cr_assert_eq(load_err("same-unit.json", msg, sizeof msg), -1);
    cr_assert(strstr(msg, "unit \"tomb-king\" is in") != NULL && strstr(msg, "--prefix") != NULL, "%s", msg);
    snprintf(text, sizeof text, head, src(), "c.json");
    write_file("ok.json", text);
    char path[512];
    snprintf(path, sizeof path, "%s/ok.json", dir);
    table_file t;
    base_error err;
    cr_assert_eq(table_file_load(path, &t, &err), 0, "%s", err.msg);
    cr_assert_eq(t.n_rosters, 2);
    cr_assert_eq(t.roster->n_units, 2);
    cr_assert_eq(t.roster->models[0].tag_id, 10);
    cr_assert_eq(t.roster->models[1].tag_id, 11);
    cr_assert_str_eq(t.roster->units[1].id, "b-tomb-king");
    cr_assert(t.roster->units[0].character && t.roster->models[0].attachable);
    table_file_clear(&t);
}

Test(table, base_sizes_per_model)
{
    /* A champion on the unit's base and a character on a larger one, in one unit. */
    const char *roster = "{\"format\": \"tableref.roster\", \"version\": 1, \"board\": {\"width_mm\": 700, \"depth_mm\": 500},"
                         " \"units\": [{\"id\": \"guard\", \"side\": \"ud\", \"base_mm\": [20, 20],"
                         "  \"tag\": {\"height_mm\": 3, \"size_mm\": 12},"
                         "  \"models\": [{\"id\": \"guard-1\", \"tag_id\": 11},"
                         "              {\"id\": \"guard-2\", \"tag_id\": 13, \"base_mm\": [25, 25], \"attachable\": true}]}]}";
    base_error err;
    cJSON *j = base_json_parse_string(roster, "r.json", &err);
    roster_file *r = roster_from_json(j, "r.json", &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_float_eq(r->models[1].base_width, 25, 1e-12);
    cr_assert_float_eq(r->models[0].base_width, 0, 1e-12, "0: the unit's base");
    rules_snapshot *s = roster_new_snapshot(r);
    rules_model *m0 = rules_unit_add_model(&s->units[0], "guard-1", base_v2(100, 100), 0);
    roster_model_apply(&r->models[0], m0);
    rules_model *m1 = rules_unit_add_model(&s->units[0], "guard-2", base_v2(125, 100), 0);
    roster_model_apply(&r->models[1], m1);
    cr_assert(s->units[0].models[1].attachable);
    base_obb b0 = rules_model_base(&s->units[0], &s->units[0].models[0]);
    base_obb b1 = rules_model_base(&s->units[0], &s->units[0].models[1]);
    cr_assert_float_eq(b0.width, 20, 1e-12);
    cr_assert_float_eq(b1.width, 25, 1e-12);
    cr_assert_float_eq(b1.depth, 25, 1e-12);
    /* The snapshot keeps it through JSON. */
    cJSON *sj = rules_json_from_snapshot(s);
    rules_snapshot *back = rules_json_to_snapshot(sj, "s.json", &err);
    cr_assert_not_null(back, "%s", err.msg);
    cr_assert_float_eq(back->units[0].models[1].base_depth, 25, 1e-12);
    cr_assert_float_eq(back->units[0].models[0].base_depth, 0, 1e-12);
    cJSON_Delete(sj);
    rules_snapshot_free(back);
    rules_snapshot_free(s);
    roster_free(r);
    cJSON_Delete(j);
}
