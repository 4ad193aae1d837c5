/*
 * `tableref referee` on rendered before/after pictures (1280 x 960, figures
 * leaning over the tags, JPEG) of three blocks whose incomplete rear ranks
 * are centred, through the command line as a judge runs it:
 *   - spears advance 4.5" at Advance 5" (legal), wolves vanish from the
 *     after picture (hidden entirely), riders stay: exit 0, wolves
 *     "not seen, cannot judge", spears never ILLEGAL, riders not judged;
 *   - the same with riders marching 11" at March 10": exit 1, riders ILLEGAL.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib_file.h"
#include "cli_run.h"
#include "ds_scene.h"
#include "formation_scene.h"
#include "rules_json.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-robust-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

static const rules_pose SPEARS = {{200, 110}, BASE_PI / 2}, RIDERS = {{480, 90}, BASE_PI / 2},
                        WOLVES = {{560, 430}, -BASE_PI / 2};

/* The after table: spears 4.5" ahead, riders `riders_in` ahead, wolves absent from the picture. */
static rules_snapshot *after_table(const fs_table *t, double riders_in)
{
    rules_snapshot *a = rules_snapshot_clone(t->truth);
    for (size_t i = 0; i < a->n_units; i++) {
        rules_unit *u = &a->units[i];
        double in = strcmp(u->id, "spears") == 0 ? 4.5 : strcmp(u->id, "riders") == 0 ? riders_in : 0;
        for (size_t k = 0; k < u->n_models; k++)
            u->models[k].pos = base_v2_add(u->models[k].pos, base_v2_scale(base_v2_dir(u->models[k].facing),
                                                                             base_in_to_mm(in)));
    }
    a->n_units--; /* wolves: last added, not drawn */
    free(a->units[a->n_units].models);
    a->units[a->n_units].models = NULL;
    return a;
}

static void write_scene(const rules_snapshot *s, const char *name, int seed)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "tableref.scene");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddItemToObject(root, "snapshot", rules_json_from_snapshot(s));
    cJSON_AddStringToObject(root, "roster", "roster.json");
    cJSON_AddStringToObject(root, "calibration", "calib.json");
    cJSON *r = cJSON_AddObjectToObject(root, "render");
    cJSON_AddNumberToObject(r, "seed", seed);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    base_error err;
    cr_assert_eq(base_json_write_file(root, path, &err), 0, "%s", err.msg);
    cJSON_Delete(root);
}

static void render(const char *scene, const char *out)
{
    char args[1024];
    cli_result *r = malloc(sizeof *r);
    snprintf(args, sizeof args, "render '%s/%s' --out '%s/%s'", dir, scene, dir, out);
    cr_assert_eq(cli_run(args, r), 0);
    cr_assert_eq(r->status, 0, "render: %s", r->err);
    free(r);
}

/* Writes the table, renders before and the after with riders moved `riders_in`; runs the referee. */
static void referee(double riders_in, cli_result *r, cJSON **report)
{
    fs_table t;
    fs_table_init(&t, 700, 500);
    fs_add_block(&t, "spears", "red", 10, 4, SPEARS);
    fs_add_block(&t, "riders", "blue", 7, 3, RIDERS);
    fs_add_block(&t, "wolves", "blue", 5, 3, WOLVES);
    ds_camera_params cam = {1280, 960, 1500, 1000, 10, 30, {350, 250}, {-0.10, 0.04, 0.0004, -0.0003, 0}};
    calib_file calib;
    base_error err;
    cr_assert_eq(ds_camera_make(&cam, &calib, &err), 0, "%s", err.msg);
    char path[512];
    snprintf(path, sizeof path, "%s/calib.json", dir);
    cr_assert_eq(calib_file_save(&calib, path, &err), 0, "%s", err.msg);
    snprintf(path, sizeof path, "%s/roster.json", dir);
    cr_assert_eq(roster_save(t.roster, path, &err), 0, "%s", err.msg);
    rules_snapshot *a = after_table(&t, riders_in);
    write_scene(t.truth, "scene-before.json", 3);
    write_scene(a, "scene-after.json", 4);
    rules_snapshot_free(a);
    fs_table_clear(&t);
    render("scene-before.json", "before");
    render("scene-after.json", "after");
    char args[2048];
    snprintf(args, sizeof args,
             "referee '%s/before/image.jpg' '%s/after/image.jpg' --calib '%s/calib.json' --roster '%s/roster.json' "
             "--out '%s/out'",
             dir, dir, dir, dir, dir);
    cr_assert_eq(cli_run(args, r), 0);
    snprintf(path, sizeof path, "%s/out/report.json", dir);
    *report = base_json_parse_file(path, &err);
}

static const char *verdict_of(const cJSON *report, const char *unit)
{
    const cJSON *u;
    cJSON_ArrayForEach(u, cJSON_GetObjectItem(report, "units"))
    if (strcmp(cJSON_GetObjectItem(u, "unit")->valuestring, unit) == 0)
        return cJSON_GetObjectItem(u, "verdict")->valuestring;
    return NULL;
}

Test(referee_robust, unit_hidden_entirely_not_seen_exit_0, .init = setup, .fini = teardown, .timeout = 120)
{
    cli_result *r = malloc(sizeof *r);
    cJSON *rep = NULL;
    referee(0, r, &rep);
    cr_expect_eq(r->status, 0, "exit %d\n%s\n%s", r->status, r->out, r->err);
    cr_expect(strstr(r->out, "unit wolves (blue): none (inferred): NOT SEEN, cannot judge") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "not seen: unit wolves: not seen in the after picture, cannot judge") != NULL, "%s",
              r->out);
    cr_expect(strstr(r->out, "referee: unit wolves not seen in the after picture") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "no unit moved") == NULL, "%s", r->out);
    cr_assert_not_null(rep);
    cr_expect_str_eq(verdict_of(rep, "wolves"), "not_seen");
    const char *spears = verdict_of(rep, "spears");
    cr_assert_not_null(spears, "the 4.5\" advance was not judged");
    cr_expect(strcmp(spears, "legal") == 0 || strcmp(spears, "cannot_tell") == 0, "spears: %s", spears);
    cr_expect_null(verdict_of(rep, "riders"), "riders did not move");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(rep, "legal")));
    cJSON_Delete(rep);
    free(r);
}

Test(referee_robust, march_11in_stays_illegal_exit_1, .init = setup, .fini = teardown, .timeout = 120)
{
    cli_result *r = malloc(sizeof *r);
    cJSON *rep = NULL;
    referee(11, r, &rep);
    cr_expect_eq(r->status, 1, "exit %d\n%s\n%s", r->status, r->out, r->err);
    cr_assert_not_null(rep);
    cr_expect_str_eq(verdict_of(rep, "riders"), "illegal");
    const char *spears = verdict_of(rep, "spears");
    cr_assert_not_null(spears);
    cr_expect_neq(strcmp(spears, "illegal"), 0, "the legal advance was called illegal");
    cr_expect_str_eq(verdict_of(rep, "wolves"), "not_seen");
    cJSON_Delete(rep);
    free(r);
}
