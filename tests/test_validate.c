/*
 * The strict readers (issue 10): roster, snapshot, calibration and scene
 * refuse unknown keys with a "did you mean", numbers out of range and ids
 * used twice (both places named), in O(n log n). Each finding of the issue
 * (advance_in -5, files -1, a model id in two units, tag_id 5000, "march"
 * for "march_in", a 100,000-model file) has its test here; each was
 * accepted before.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_file.h"
#include "ds_scene.h"
#include "base_fields.h"
#include "rules_json.h"
#include "roster.h"
#include "vision_test_util.h"

/* ---- helpers -------------------------------------------------------------- */

static const char *ROSTER =
    "{\"format\": \"tableref.roster\", \"version\": 1, \"family\": \"tag36h11\","
    " \"board\": {\"width_mm\": 700, \"depth_mm\": 500, \"tags\": [{\"id\": 0, \"x_mm\": 30, \"y_mm\": 30, \"size_mm\": 30}]},"
    " \"units\": ["
    "  {\"id\": \"spears\", \"side\": \"red\", \"base_mm\": [25, 40], \"advance_in\": 5, \"march_in\": 10, \"files\": 2,"
    "   \"tag\": {\"offset_mm\": [9, 0], \"height_mm\": 4, \"size_mm\": 16},"
    "   \"models\": [{\"id\": \"s1\", \"tag_id\": 10}, {\"id\": \"s2\", \"tag_id\": 11}, {\"id\": \"s3\", \"tag_id\": 12}]},"
    "  {\"id\": \"horse\", \"side\": \"blue\", \"base_mm\": [25, 50], \"advance_in\": 8, \"march_in\": 16,"
    "   \"tag\": {\"height_mm\": 4, \"size_mm\": 16},"
    "   \"models\": [{\"id\": \"h1\", \"tag_id\": 20}, {\"id\": \"h2\", \"tag_id\": 21}]}]}";

static cJSON *roster_json(void)
{
    base_error err;
    cJSON *j = base_json_parse_string(ROSTER, "roster.json", &err);
    cr_assert(j, "%s", err.msg);
    return j;
}

static cJSON *unit_of(cJSON *root, int u) { return cJSON_GetArrayItem(cJSON_GetObjectItem(root, "units"), u); }
static cJSON *model_of(cJSON *root, int u, int m) { return cJSON_GetArrayItem(cJSON_GetObjectItem(unit_of(root, u), "models"), m); }

static void set_number(cJSON *obj, const char *key, double v)
{
    cJSON_DeleteItemFromObject(obj, key);
    cJSON_AddNumberToObject(obj, key, v);
}

static void rename_key(cJSON *obj, const char *from, const char *to)
{
    cJSON *it = cJSON_DetachItemFromObject(obj, from);
    cr_assert(it);
    cJSON_AddItemToObject(obj, to, it);
}

/* The roster must be refused with exactly `want` (after the file name); frees root. */
static void roster_refused(cJSON *root, const char *want)
{
    base_error err = {0};
    roster_file *r = roster_from_json(root, "roster.json", &err);
    cJSON_Delete(root);
    cr_assert_null(r, "accepted; wanted: %s", want);
    char full[600];
    snprintf(full, sizeof full, "roster.json: %s", want);
    cr_expect_str_eq(err.msg, full);
}

static rules_snapshot *snapshot_of(const char *text, base_error *err)
{
    cJSON *root = base_json_parse_string(text, "s.json", err);
    if (!root)
        return NULL;
    rules_snapshot *s = rules_json_to_snapshot(root, "s.json", err);
    cJSON_Delete(root);
    return s;
}

static void snapshot_refused(const char *text, const char *want)
{
    base_error err = {0};
    rules_snapshot *s = snapshot_of(text, &err);
    rules_snapshot_free(s);
    cr_assert_null(s, "accepted: %s", text);
    char full[600];
    snprintf(full, sizeof full, "s.json: %s", want);
    cr_expect_str_eq(err.msg, full);
}

#define SNAP_UNIT(id, m1, m2)                                                                                          \
    "{\"id\": \"" id "\", \"side\": \"red\", \"base_mm\": [25, 25], \"advance_in\": 5, \"march_in\": 10,"             \
    " \"models\": [{\"id\": \"" m1 "\", \"x_mm\": 100, \"y_mm\": 100, \"facing_deg\": 90},"                          \
    " {\"id\": \"" m2 "\", \"x_mm\": 125, \"y_mm\": 100, \"facing_deg\": 90}]}"
#define SNAP(units, extra) "{\"board\": {\"width_mm\": 1800, \"depth_mm\": 1200}, \"units\": [" units "]" extra "}"

/* ---- the shared helper ---------------------------------------------------------- */

Test(validate, did_you_mean_finds_the_key_a_typo_was_meant_to_be)
{
    static const char *const keys[] = {"id", "side", "advance_in", "march_in", "mobility_in", "files", "tag", NULL};
    static const struct {
        const char *typo, *meant;
    } cases[] = {{"march", "march_in"}, {"advance", "advance_in"}, {"advnce_in", "advance_in"}, {"March_In", "march_in"},
                 {"marhc_in", "march_in"}, {"file", "files"},      {"sied", "side"},            {"tags", "tag"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = base_fields_closest(cases[i].typo, keys);
        cr_expect(k >= 0 && strcmp(keys[k], cases[i].meant) == 0, "%s -> %s, wanted %s", cases[i].typo,
                  k >= 0 ? keys[k] : "nothing", cases[i].meant);
    }
    cr_expect_eq(base_fields_closest("colour", keys), -1, "nothing close: no guess");
    cr_expect_eq(base_fields_closest("x", keys), -1);
}

Test(validate, duplicates_are_found_in_file_order_among_many)
{
    enum { N = 200000 };
    base_fields_id *ids = malloc(N * sizeof *ids);
    for (size_t i = 0; i < N; i++)
        ids[i] = (base_fields_id){NULL, (long long)(i * 7919 % N), i};
    size_t a = 0, b = 0;
    cr_expect(!base_fields_duplicate(ids, N, false, &a, &b), "all distinct");
    for (size_t i = 0; i < N; i++)
        ids[i] = (base_fields_id){NULL, (long long)i, i};
    ids[N - 1].number = 5;       /* the last repeats the 6th */
    ids[150000].number = 149999; /* an earlier pair, met first reading top to bottom */
    cr_expect(base_fields_duplicate(ids, N, false, &a, &b));
    cr_expect_eq(a, 149999);
    cr_expect_eq(b, 150000);
    free(ids);
}

/* ---- roster ---------------------------------------------------------------------- */

Test(validate, the_roster_template_reads)
{
    base_error err;
    cJSON *j = roster_json();
    roster_file *r = roster_from_json(j, "roster.json", &err);
    cJSON_Delete(j);
    cr_assert(r, "%s", err.msg);
    cr_expect_eq(r->n_models, 5);
    cr_expect_eq(r->models[2].rank, 1, "files 2: the third model is in the second rank");
    roster_free(r);
}

Test(validate, roster_findings_of_the_issue_are_refused)
{
    cJSON *j = roster_json();
    set_number(unit_of(j, 0), "advance_in", -5);
    roster_refused(j, "units[0].advance_in: -5 is out of range (0 to 30)");
    j = roster_json();
    set_number(unit_of(j, 0), "files", -1);
    roster_refused(j, "units[0].files: -1 is out of range (1 to 3)");
    j = roster_json();
    set_number(model_of(j, 1, 0), "tag_id", 5000);
    roster_refused(j, "units[1].models[0].tag_id: 5000 is not a tag36h11 code (0 to 586)");
    j = roster_json();
    cJSON_SetValuestring(cJSON_GetObjectItem(model_of(j, 1, 1), "id"), "s2");
    roster_refused(j, "units[1].models[1].id: \"s2\" is also units[0].models[1].id (a model id names one model)");
    j = roster_json();
    rename_key(unit_of(j, 0), "march_in", "march");
    roster_refused(j, "units[0].march: unknown field; did you mean \"march_in\"?");
}

Test(validate, roster_keys_ranges_and_ids_everywhere)
{
    cJSON *j = roster_json();
    rename_key(cJSON_GetObjectItem(unit_of(j, 1), "tag"), "size_mm", "size");
    roster_refused(j, "units[1].tag.size: unknown field; did you mean \"size_mm\"?");
    j = roster_json();
    cJSON_AddNumberToObject(cJSON_GetObjectItem(j, "board"), "width_mm", 800); /* a second width_mm */
    roster_refused(j, "board.width_mm: given twice");
    j = roster_json();
    set_number(model_of(j, 0, 2), "tag_id", 0);
    roster_refused(j, "units[0].models[2].tag_id: tag 0 is also board.tags[0].id (a tag is on one base or the board)");
    j = roster_json();
    cJSON_SetValuestring(cJSON_GetObjectItem(unit_of(j, 1), "id"), "spears");
    roster_refused(j, "units[1].id: \"spears\" is also units[0].id");
    j = roster_json();
    set_number(cJSON_GetObjectItem(unit_of(j, 0), "tag"), "height_mm", 500);
    roster_refused(j, "units[0].tag.height_mm: 500 is out of range (0 to 200)");
    j = roster_json();
    set_number(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "board"), "tags"), 0), "x_mm", 5000);
    roster_refused(j, "board.tags[0].x_mm: 5000 is out of range (-1000 to 1700)");
    j = roster_json();
    cJSON_AddStringToObject(j, "colour", "red");
    roster_refused(j, "colour: unknown field (this object takes: format, version, family, army, board, units, unresolved)");
    /* A comment key is no field. */
    j = roster_json();
    cJSON_AddStringToObject(unit_of(j, 0), "_note", "the general's own unit");
    base_error err;
    roster_file *r = roster_from_json(j, "roster.json", &err);
    cJSON_Delete(j);
    cr_expect(r, "keys beginning with _ are comments: %s", err.msg);
    roster_free(r);
    /* tagStandard41h12 has 2115 codes. */
    j = roster_json();
    cJSON_SetValuestring(cJSON_GetObjectItem(j, "family"), "tagStandard41h12");
    set_number(model_of(j, 0, 0), "tag_id", 2114);
    r = roster_from_json(j, "roster.json", &err);
    cr_expect(r, "%s", err.msg);
    roster_free(r);
    set_number(model_of(j, 0, 0), "tag_id", 2115);
    roster_refused(j, "units[0].models[0].tag_id: 2115 is not a tagStandard41h12 code (0 to 2114)");
}

/* ---- snapshot ---------------------------------------------------------------------- */

Test(validate, a_snapshot_typo_never_changes_a_verdict)
{
    /* "march" for "march_in" used to leave the March Rate unknown: the move was judged as an Advance. */
    snapshot_refused(SNAP("{\"id\": \"u\", \"side\": \"red\", \"base_mm\": [25, 25], \"advance_in\": 5, \"march\": 10,"
                          " \"models\": [{\"id\": \"m\", \"x_mm\": 1, \"y_mm\": 1, \"facing_deg\": 0}]}", ""),
                     "units[0].march: unknown field; did you mean \"march_in\"?");
    snapshot_refused(SNAP(SNAP_UNIT("u", "a", "b"), ", \"ruleset\": {\"name\": \"t9a-2ed\", \"unit_spacing\": 2}"),
                     "ruleset.unit_spacing: unknown field; did you mean \"unit_spacing_in\"?");
    snapshot_refused(SNAP(SNAP_UNIT("u", "a", "b"), ", \"ruleset\": {\"backward_fraction\": 1.5}"),
                     "ruleset.backward_fraction: 1.5 is out of range (0 to 1)");
    snapshot_refused(SNAP(SNAP_UNIT("u", "a", "b"), ", \"terrian\": []"),
                     "terrian: unknown field; did you mean \"terrain\"?");
    snapshot_refused("{\"board\": {\"width_mm\": 1800, \"depth_mm\": 1200, \"depth_mm\": 900}, \"units\": []}",
                     "board.depth_mm: given twice");
}

Test(validate, snapshot_ids_name_both_places)
{
    snapshot_refused(SNAP(SNAP_UNIT("u1", "a", "b") "," SNAP_UNIT("u2", "c", "a"), ""),
                     "units[1].models[1].id: duplicate model id \"a\" (also units[0].models[0].id)");
    snapshot_refused(SNAP(SNAP_UNIT("u1", "a", "b") "," SNAP_UNIT("u1", "c", "d"), ""),
                     "units[1].id: duplicate unit id \"u1\" (also units[0].id)");
    snapshot_refused(SNAP(SNAP_UNIT("u1", "a", "b"), ", \"formations\": [{\"id\": \"f\", \"models\": [\"a\", \"z\"]}]"),
                     "formations[0].models[1]: no model \"z\" on the table");
    snapshot_refused(SNAP(SNAP_UNIT("u1", "a", "b"), ", \"formations\": [{\"id\": \"f\", \"models\": [\"a\"]},"
                                                     " {\"id\": \"g\", \"models\": [\"b\", \"a\"]}]"),
                     "formations[1].models[1]: model \"a\" is also formations[0].models[0]");
    snapshot_refused(SNAP(SNAP_UNIT("u1", "a", "b"),
                          ", \"terrain\": [{\"id\": \"t\", \"kind\": \"open\", \"points_mm\": [[0,0],[1,0],[0,1]]},"
                          " {\"id\": \"t\", \"kind\": \"open\", \"points_mm\": [[0,0],[1,0],[0,1]]}]"),
                     "terrain[1].id: duplicate terrain id \"t\" (also terrain[0].id)");
    snapshot_refused(SNAP("{\"id\": \"u\", \"side\": \"red\", \"base_mm\": [25, 25], \"models\": [{\"id\": \"m\","
                          " \"x_mm\": 1e9, \"y_mm\": 1, \"facing_deg\": 0}]}", ""),
                     "units[0].models[0].x_mm: 1e+09 is out of range (-100000 to 100000)");
}

/* 100,000 models, the last one repeating the first's id. A pairwise check took seconds (11 s for a roster of
 * that size); the sort-based one takes well under one. The timeout is generous: no time is asserted here,
 * `tableref bench formats` measures it. */
Test(validate, a_100000_model_snapshot_is_checked_whole, .timeout = 120)
{
    cJSON *root = cJSON_CreateObject(), *board = cJSON_AddObjectToObject(root, "board");
    cJSON_AddNumberToObject(board, "width_mm", 1800);
    cJSON_AddNumberToObject(board, "depth_mm", 1200);
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (int u = 0; u < 10000; u++) {
        char id[32];
        cJSON *ju = cJSON_CreateObject();
        snprintf(id, sizeof id, "u%d", u);
        cJSON_AddStringToObject(ju, "id", id);
        cJSON_AddStringToObject(ju, "side", "red");
        double base[2] = {25, 25};
        cJSON_AddItemToObject(ju, "base_mm", cJSON_CreateDoubleArray(base, 2));
        cJSON *ms = cJSON_AddArrayToObject(ju, "models");
        for (int m = 0; m < 10; m++) {
            cJSON *jm = cJSON_CreateObject();
            snprintf(id, sizeof id, "u%d-m%d", u, m);
            cJSON_AddStringToObject(jm, "id", u == 9999 && m == 9 ? "u0-m0" : id);
            cJSON_AddNumberToObject(jm, "x_mm", u % 60 * 30);
            cJSON_AddNumberToObject(jm, "y_mm", u / 60 * 7);
            cJSON_AddNumberToObject(jm, "facing_deg", 90);
            cJSON_AddItemToArray(ms, jm);
        }
        cJSON_AddItemToArray(units, ju);
    }
    base_error err;
    rules_snapshot *s = rules_json_to_snapshot(root, "big.json", &err);
    cr_expect_null(s);
    cr_expect_str_eq(err.msg, "big.json: units[9999].models[9].id: duplicate model id \"u0-m0\" (also units[0].models[0].id)");
    rules_snapshot_free(s);
    cJSON_SetValuestring(cJSON_GetObjectItem(model_of(root, 9999, 9), "id"), "u9999-m9");
    s = rules_json_to_snapshot(root, "big.json", &err);
    cr_expect(s, "%s", err.msg);
    cr_expect_eq(s ? s->n_units : 0, 10000);
    rules_snapshot_free(s);
    cJSON_Delete(root);
}

/* The largest roster a family allows (2,115 tagStandard41h12 codes), its last tag repeating an early one. */
Test(validate, a_full_family_roster_is_checked_whole, .timeout = 120)
{
    cJSON *j = roster_json();
    cJSON_SetValuestring(cJSON_GetObjectItem(j, "family"), "tagStandard41h12");
    cJSON *units = cJSON_GetObjectItem(j, "units");
    while (cJSON_GetArraySize(units) > 0)
        cJSON_DeleteItemFromArray(units, 0);
    int tag = 1; /* board tag 0 is taken */
    for (int u = 0; u < 211; u++) {
        char id[32];
        cJSON *ju = cJSON_CreateObject();
        snprintf(id, sizeof id, "u%d", u);
        cJSON_AddStringToObject(ju, "id", id);
        cJSON_AddStringToObject(ju, "side", "red");
        double base[2] = {25, 25};
        cJSON_AddItemToObject(ju, "base_mm", cJSON_CreateDoubleArray(base, 2));
        cJSON *mount = cJSON_AddObjectToObject(ju, "tag");
        cJSON_AddNumberToObject(mount, "height_mm", 4);
        cJSON_AddNumberToObject(mount, "size_mm", 16);
        cJSON *ms = cJSON_AddArrayToObject(ju, "models");
        for (int m = 0; m < 10; m++) {
            cJSON *jm = cJSON_CreateObject();
            snprintf(id, sizeof id, "u%d-m%d", u, m);
            cJSON_AddStringToObject(jm, "id", id);
            cJSON_AddNumberToObject(jm, "tag_id", tag++);
            cJSON_AddItemToArray(ms, jm);
        }
        cJSON_AddItemToArray(units, ju);
    }
    base_error err;
    roster_file *r = roster_from_json(j, "roster.json", &err);
    cr_expect(r, "%s", err.msg);
    cr_expect_eq(r ? r->n_models : 0, 2110);
    roster_free(r);
    set_number(model_of(j, 210, 9), "tag_id", 57);
    roster_refused(j, "units[210].models[9].tag_id: tag 57 is also units[5].models[6].tag_id (a tag is on one base or "
                      "the board)");
}

/* ---- calibration and scene ---------------------------------------------------------- */

static const char *CALIB =
    "{\"format\": \"tableref-calibration\", \"version\": %d, \"image_size\": [1280, 960],"
    " \"camera\": {\"fx\": %s, \"fy\": 1500, \"cx\": 639.5, \"cy\": 479.5}, \"distortion\": [-0.1, 0.04, 0, 0, 0],"
    " \"board_pose\": {\"rotation\": [1,0,0, 0,-1,0, 0,0,-1], \"translation_mm\": [-350, 250, 1000]}%s}";

static void calib_check(int version, const char *fx, const char *extra, const char *want)
{
    char text[2048];
    snprintf(text, sizeof text, CALIB, version, fx, extra);
    base_error err = {0};
    cJSON *j = base_json_parse_string(text, "c.json", &err);
    cr_assert(j, "%s", err.msg);
    calib_file c;
    int rc = calib_file_from_json(j, "c.json", &c, &err);
    cJSON_Delete(j);
    if (!want) {
        cr_expect_eq(rc, 0, "%s", err.msg);
        return;
    }
    cr_expect_lt(rc, 0, "accepted: %s", text);
    char full[600];
    snprintf(full, sizeof full, "c.json: %s", want);
    cr_expect_str_eq(err.msg, full);
}

Test(validate, calibration_keys_and_ranges)
{
    calib_check(1, "1500", "", NULL);
    calib_check(1, "1500", ", \"distortions\": [0,0,0,0,0]", "distortions: unknown field; did you mean \"distortion\"?");
    calib_check(1, "1500", ", \"projector\": {}", "version: camera_quality and projector need version 2");
    calib_check(1, "2e6", "", "camera.fx: 2e+06 is out of range (1 to 1e+06)");
    calib_check(2, "1500", ", \"projector\": {\"size\": [1280, 800], \"board_to_projector\": [1,0,0,0,1,0,0,0,1],"
                           " \"rms\": 0.1}",
                "projector.rms: unknown field; did you mean \"rms_mm\"?");
    calib_check(2, "1500", ", \"camera_quality\": {\"views\": 0, \"rms_px\": 0.2, \"std\": {}}",
                "camera_quality.views: 0 is out of range (1 to 100000)");
}

Test(validate, scene_keys_and_ranges)
{
    char path[256], text[4096];
    snprintf(path, sizeof path, "%s/datasets/scenes/demo/scene.json", vt_source_root());
    base_error err;
    cJSON *j = base_json_parse_file(path, &err);
    cr_assert(j, "%s", err.msg);
    /* Its members are file names: refused when file names are not to be followed. */
    ds_scene *s = ds_scene_from_json(j, path, DS_SCENE_INLINE_ONLY, &err);
    cr_expect_null(s);
    cr_expect(strstr(err.msg, "expected an object here (file names are not followed)"), "%s", err.msg);
    ds_scene_free(s);
    cJSON *render = cJSON_GetObjectItem(j, "render");
    if (!render)
        render = cJSON_AddObjectToObject(j, "render");
    set_number(render, "hands", 11);
    s = ds_scene_from_json(j, path, 0, &err);
    cr_expect_null(s);
    snprintf(text, sizeof text, "%s: render.hands: 11 is out of range (0 to 10)", path);
    cr_expect_str_eq(err.msg, text);
    ds_scene_free(s);
    cJSON_DeleteItemFromObject(render, "hands");
    cJSON_AddNumberToObject(render, "hand", 2);
    s = ds_scene_from_json(j, path, 0, &err);
    cr_expect_null(s);
    snprintf(text, sizeof text, "%s: render.hand: unknown field; did you mean \"hands\"?", path);
    cr_expect_str_eq(err.msg, text);
    ds_scene_free(s);
    cJSON_Delete(j);
}

/* ---- every file the repository ships reads with the strict readers ---------------------- */

static int read_any(const char *path, base_error *err)
{
    cJSON *j = base_json_parse_file(path, err);
    if (!j)
        return -1;
    const cJSON *f = cJSON_GetObjectItem(j, "format");
    /* A file without "format" is a snapshot when it has a board; anything else is another tool's file. */
    const char *fmt = cJSON_IsString(f) ? f->valuestring : cJSON_GetObjectItem(j, "board") ? "tableref.snapshot" : "";
    int rc = 0;
    if (strcmp(fmt, "tableref.roster") == 0) {
        roster_file *r = roster_from_json(j, path, err);
        rc = r ? 0 : -1;
        roster_free(r);
    } else if (strcmp(fmt, "tableref-calibration") == 0) {
        calib_file c;
        rc = calib_file_from_json(j, path, &c, err);
    } else if (strcmp(fmt, "tableref.scene") == 0) {
        ds_scene *s = ds_scene_from_json(j, path, 0, err);
        rc = s ? 0 : -1;
        ds_scene_free(s);
    } else if (strcmp(fmt, "tableref.snapshot") == 0) {
        rules_snapshot *s = rules_json_to_snapshot(j, path, err);
        rc = s ? 0 : -1;
        rules_snapshot_free(s);
    } else {
        rc = 1; /* another format (a sequence, a truth file): not one of these readers' */
    }
    cJSON_Delete(j);
    return rc;
}

static int walk(const char *dir, int *files)
{
    DIR *d = opendir(dir);
    cr_assert(d, "%s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        const char *dot = strrchr(e->d_name, '.');
        if (dot && strcmp(dot, ".json") == 0) {
            base_error err = {0};
            int rc = read_any(p, &err);
            cr_expect_geq(rc, 0, "%s", err.msg);
            *files += rc == 0;
        } else if (!dot) {
            walk(p, files);
        }
    }
    closedir(d);
    return 0;
}

Test(validate, every_bundled_file_reads_with_the_strict_readers)
{
    char root[1024];
    snprintf(root, sizeof root, "%s/datasets", vt_source_root());
    int files = 0;
    walk(root, &files);
    cr_expect_geq(files, 30, "found the bundled snapshots, rosters, calibrations and scenes (%d)", files);
}
