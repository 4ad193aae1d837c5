/* The snapshot format: round trip, and every kind of bad input named by file and field. */
#include <criterion/criterion.h>
#include <string.h>

#include "fixtures.h"
#include "rules_json.h"
#include "rules_report.h"

static rules_snapshot *parse(const char *text, base_error *err)
{
    cJSON *root = base_json_parse_string(text, "t.json", err);
    if (!root)
        return NULL;
    rules_snapshot *s = rules_json_to_snapshot(root, "t.json", err);
    cJSON_Delete(root);
    return s;
}

#define UNIT_OK "{\"id\":\"u\",\"side\":\"red\",\"base_mm\":[25,25],\"advance_in\":5,\"march_in\":10,\"models\":["
#define MODEL_OK "{\"id\":\"m1\",\"x_mm\":100,\"y_mm\":200,\"facing_deg\":90}"
#define WRAP(units) "{\"board\":{\"width_mm\":1828.8,\"depth_mm\":1219.2},\"units\":[" units "]}"

static void expect_error(const char *text, const char *needle)
{
    base_error err = {0};
    rules_snapshot *s = parse(text, &err);
    cr_assert_null(s, "accepted bad input: %s", text);
    cr_assert(strstr(err.msg, needle) != NULL, "message '%s' should mention '%s'", err.msg, needle);
    cr_assert(strstr(err.msg, "t.json") != NULL, "message '%s' should name the file", err.msg);
}

Test(json, minimal_snapshot_reads_in_board_units)
{
    base_error err = {0};
    rules_snapshot *s = parse(WRAP(UNIT_OK MODEL_OK "]}"), &err);
    cr_assert_not_null(s, "%s", err.msg);
    cr_assert_eq(s->n_units, 1);
    cr_assert_float_eq(s->units[0].advance_rate, 5 * 25.4, 1e-9);
    cr_assert_float_eq(s->units[0].models[0].facing, BASE_PI / 2, 1e-12);
    cr_assert(isnan(s->units[0].mobility));
    cr_assert_str_eq(s->ruleset.name, "t9a-2ed");
    rules_snapshot_free(s);
}

Test(json, round_trip_keeps_everything)
{
    rules_snapshot *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = fx_block(a, "spears", "red", 25, 5, 13, (rules_pose){{500, 400}, 0.7}, 5, 10);
    u->status = RULES_STATUS_SHAKEN;
    u->mobility = base_in_to_mm(8);
    u->models[3].inferred = true;
    u->models[4].status = RULES_STATUS_SHAKEN;
    base_vec2 rock[3] = {{10, 10}, {50, 10}, {30, 40}};
    rules_snapshot_add_terrain(a, "rock", RULES_TERRAIN_IMPASSABLE, rock, 3);
    a->ruleset.unit_spacing_mm = base_in_to_mm(0.5);
    cJSON *j = rules_json_from_snapshot(a);
    base_error err = {0};
    rules_snapshot *b = rules_json_to_snapshot(j, "mem", &err);
    cr_assert_not_null(b, "%s", err.msg);
    cr_assert_eq(b->n_units, 1);
    cr_assert_eq(b->units[0].n_models, 13);
    cr_assert_eq(b->units[0].status, RULES_STATUS_SHAKEN);
    cr_assert_float_eq(b->units[0].mobility, base_in_to_mm(8), 1e-3);
    cr_assert(b->units[0].models[3].inferred);
    cr_assert_eq(b->units[0].models[4].status, RULES_STATUS_SHAKEN);
    for (size_t k = 0; k < 13; k++) {
        cr_assert_float_eq(b->units[0].models[k].pos.x, u->models[k].pos.x, 1e-3);
        cr_assert_float_eq(b->units[0].models[k].facing, u->models[k].facing, 1e-4);
    }
    cr_assert_eq(b->n_terrain, 1);
    cr_assert_eq(b->terrain[0].kind, RULES_TERRAIN_IMPASSABLE);
    cr_assert_float_eq(b->ruleset.unit_spacing_mm, base_in_to_mm(0.5), 1e-6);
    cJSON_Delete(j);
    rules_snapshot_free(a);
    rules_snapshot_free(b);
}

Test(json, ruleset_by_name_and_with_overrides)
{
    base_error err = {0};
    rules_snapshot *s = parse("{\"board\":{\"width_mm\":100,\"depth_mm\":100},\"ruleset\":{\"name\":\"t9a-mobility\","
                              "\"unit_spacing_in\":0.5,\"wheel_measure\":\"chord\"},\"units\":[]}",
                              &err);
    cr_assert_not_null(s, "%s", err.msg);
    cr_assert_str_eq(s->ruleset.name, "t9a-mobility");
    cr_assert(s->ruleset.ranks_at_most_files);
    cr_assert_float_eq(s->ruleset.unit_spacing_mm, 12.7, 1e-9);
    cr_assert_eq(s->ruleset.wheel_measure, RULES_WHEEL_CHORD);
    rules_snapshot_free(s);
}

Test(json, malformed_json_names_line_and_column)
{
    expect_error("{\n  \"board\": {\"width_mm\": 10,,}\n}", "line 2");
}

Test(json, empty_input) { expect_error("", "empty"); }
Test(json, top_level_not_object) { expect_error("[1,2]", "top level"); }
Test(json, missing_board) { expect_error("{\"units\":[]}", "board"); }
Test(json, missing_model_field) { expect_error(WRAP(UNIT_OK "{\"id\":\"m1\",\"x_mm\":1,\"facing_deg\":0}]}"), "units[0].models[0].y_mm"); }
Test(json, non_number) { expect_error(WRAP(UNIT_OK "{\"id\":\"m1\",\"x_mm\":\"12\",\"y_mm\":1,\"facing_deg\":0}]}"), "units[0].models[0].x_mm: expected a finite number"); }
Test(json, nan_is_rejected) { expect_error(WRAP(UNIT_OK "{\"id\":\"m1\",\"x_mm\":NaN,\"y_mm\":1,\"facing_deg\":0}]}"), "malformed JSON"); }
Test(json, nan_string_is_rejected) { expect_error(WRAP(UNIT_OK "{\"id\":\"m1\",\"x_mm\":\"NaN\",\"y_mm\":1,\"facing_deg\":0}]}"), "x_mm"); }
Test(json, infinity_is_rejected) { expect_error(WRAP(UNIT_OK "{\"id\":\"m1\",\"x_mm\":1e999,\"y_mm\":1,\"facing_deg\":0}]}"), "x_mm: expected a finite number"); }
Test(json, duplicate_model_ids) { expect_error(WRAP(UNIT_OK MODEL_OK "," MODEL_OK "]}"), "duplicate model id \"m1\""); }
Test(json, duplicate_model_ids_across_units)
{
    expect_error(WRAP(UNIT_OK MODEL_OK "]}, {\"id\":\"v\",\"side\":\"red\",\"base_mm\":[25,25],\"models\":[" MODEL_OK "]}"),
                 "units[1].models[0].id: duplicate model id");
}
Test(json, duplicate_unit_ids) { expect_error(WRAP(UNIT_OK MODEL_OK "]}," UNIT_OK "{\"id\":\"m2\",\"x_mm\":1,\"y_mm\":1,\"facing_deg\":0}]}"), "duplicate unit id"); }
Test(json, unknown_status_word) { expect_error(WRAP("{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25,25],\"status\":[\"sleepy\"],\"models\":[" MODEL_OK "]}"), "units[0].status[0]"); }
Test(json, base_needs_two_positive_numbers) { expect_error(WRAP("{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25],\"models\":[" MODEL_OK "]}"), "units[0].base_mm"); }
Test(json, negative_rate) { expect_error(WRAP("{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25,25],\"march_in\":-3,\"models\":[" MODEL_OK "]}"), "units[0].march_in"); }
Test(json, unit_without_models) { expect_error(WRAP("{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25,25],\"models\":[]}"), "at least one model"); }
Test(json, unknown_ruleset) { expect_error("{\"board\":{\"width_mm\":1,\"depth_mm\":1},\"ruleset\":\"chess\",\"units\":[]}", "unknown ruleset \"chess\""); }
Test(json, bad_terrain_kind) { expect_error("{\"board\":{\"width_mm\":1,\"depth_mm\":1},\"units\":[],\"terrain\":[{\"kind\":\"lava\",\"points_mm\":[[0,0],[1,0],[0,1]]}]}", "terrain[0].kind"); }
Test(json, terrain_point_not_a_pair) { expect_error("{\"board\":{\"width_mm\":1,\"depth_mm\":1},\"units\":[],\"terrain\":[{\"kind\":\"open\",\"points_mm\":[[0,0],[1],[0,1]]}]}", "terrain[0].points_mm[1]"); }
Test(json, unknown_version) { expect_error("{\"version\":7,\"board\":{\"width_mm\":1,\"depth_mm\":1},\"units\":[]}", "version"); }

Test(json, missing_file_names_the_path)
{
    base_error err = {0};
    cr_assert_null(rules_json_load_snapshot("/nonexistent/before.json", &err));
    cr_assert(strstr(err.msg, "/nonexistent/before.json") && strstr(err.msg, "cannot open"), "%s", err.msg);
}

/* A call found unsure is CANNOT TELL, never ILLEGAL: the report stands legal and says why. */
Test(json, cannot_tell_verdict_is_not_an_illegal_call)
{
    rules_report r;
    rules_report_init(&r);
    rules_unit_report ur;
    rules_unit_report_init(&ur, "spears", "red", RULES_MOVE_ADVANCE, false);
    rules_unit_report_add_violation(&ur, "MU-FORMATION-KEPT", RULES_QTY_LENGTH, 6.0, 4.0, "formation not kept");
    cr_assert_eq(ur.verdict, RULES_VERDICT_ILLEGAL);
    cr_assert_not(ur.legal);
    rules_unit_report_set_verdict(&ur, RULES_VERDICT_CANNOT_TELL, "spears-9, spears-10: rear rank %s", "ambiguous");
    cr_assert(ur.legal);
    cr_assert_eq(rules_report_take_unit(&r, &ur), 0);
    cr_assert(r.legal);
    cJSON *j = rules_report_to_json(&r);
    cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "verdict")->valuestring, "cannot_tell");
    cr_assert_str_eq(cJSON_GetObjectItem(u, "why")->valuestring, "spears-9, spears-10: rear rank ambiguous");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "legal")));
    cJSON_Delete(j);
    /* Turned back to ILLEGAL in place: the report follows after a refresh. */
    rules_unit_report_set_verdict(&r.units[0], RULES_VERDICT_ILLEGAL, NULL);
    rules_report_refresh(&r);
    cr_assert_not(r.legal);
    rules_report_clear(&r);
}
