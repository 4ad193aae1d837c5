/*
 * Masts in the roster (roster.h, roster_unit_mark; `units[].marks[]`): a
 * square tag held above the figures on a clear rod standing on one model's
 * base.
 *   - Read, written and read again: every field the same (sway given, and
 *     its default 0.02 x height when not given); the map carries them
 *     (roster_map_find_mark_tag) with the carrier's index.
 *   - Refused, naming the file and the field: a kind that is no mast, a
 *     height over 250 mm, a size of 0, a sway over 25 mm, an offset beyond
 *     200 mm, a model not of the unit, an unknown key, a tag id a model
 *     already carries.
 *   - `tags layout` (roster_layout_marks): a ranked 5-file unit of 20x20
 *     gets two masts, on models 1 and 5 (front rank's first and last file),
 *     20 mm tags at 49 mm; skirmishers one a model; a character on 25x50 a
 *     24 mm tag at 63.6 mm; a monster on 50x50 a 30 mm tag at 63 mm; a
 *     two-file unit's tags stand apart (offset 3.5 mm each side); ids from
 *     the highest used + 2 (every model's id even), skipping 300-399; a
 *     unit with marks keeps them; --no-masts gives none; a family with no id
 *     left refuses and leaves the roster without masts.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roster.h"

static const char *ROSTER_MASTS =
    "{\"format\":\"tableref.roster\",\"version\":1,\"family\":\"tag36h11\",\"board\":{\"width_mm\":1800,"
    "\"depth_mm\":1200,\"tags\":[{\"id\":0,\"x_mm\":0,\"y_mm\":0,\"size_mm\":60}]},"
    "\"units\":[{\"id\":\"spears\",\"side\":\"red\",\"base_mm\":[20,20],"
    "\"advance_in\":5,\"march_in\":10,\"files\":2,\"tag\":{\"layout\":\"rim\",\"height_mm\":4,\"cell_mm\":2},"
    "\"models\":[{\"id\":\"s1\",\"tag_id\":10},{\"id\":\"s2\",\"tag_id\":12},{\"id\":\"s3\",\"tag_id\":14}],"
    "\"marks\":[{\"kind\":\"mast\",\"model\":\"s1\",\"tag_id\":40,\"size_mm\":20,\"height_mm\":49,"
    "\"offset_mm\":[1.5,-2],\"rotation_deg\":90,\"sway_mm\":1.5},"
    "{\"kind\":\"mast\",\"model\":\"s2\",\"tag_id\":42,\"size_mm\":20,\"height_mm\":50}]},"
    "{\"id\":\"scouts\",\"side\":\"red\",\"base_mm\":[25,25],\"advance_in\":5,\"march_in\":10,\"loose\":true,"
    "\"tag\":{\"height_mm\":4,\"size_mm\":16},\"models\":[{\"id\":\"c1\",\"tag_id\":20}]}]}";

static roster_file *parse(const char *text, base_error *err)
{
    cJSON *j = cJSON_Parse(text);
    cr_assert_not_null(j);
    roster_file *r = roster_from_json(j, "roster.json", err);
    cJSON_Delete(j);
    return r;
}

static void expect_masts_as_written(const roster_file *r)
{
    cr_assert_eq(r->n_marks, 2);
    const roster_unit_mark *a = &r->marks[0], *b = &r->marks[1];
    cr_expect_eq(a->kind, ROSTER_UNIT_MARK_MAST);
    cr_expect_eq(a->unit, 0);
    cr_expect_eq(a->model, 0);
    cr_expect_eq(a->tag_id, 40);
    cr_expect_eq(a->mount.layout, ROSTER_MARK_SQUARE);
    cr_expect_float_eq(a->mount.size, 20, 1e-9);
    cr_expect_float_eq(a->mount.height, 49, 1e-9);
    cr_expect_float_eq(a->mount.offset.x, 1.5, 1e-9);
    cr_expect_float_eq(a->mount.offset.y, -2, 1e-9);
    cr_expect_float_eq(a->mount.rotation, BASE_PI / 2, 1e-9);
    cr_expect_float_eq(a->sway, 1.5, 1e-9);
    cr_expect_eq(b->model, 1);
    cr_expect_float_eq(b->sway, 1.0, 1e-9, "the default sway: 0.02 x 50 mm");
    cr_expect_float_eq(b->mount.offset.x, 0, 1e-12);
    cr_expect_eq(roster_find_mark_tag(r, 42), b);
    cr_expect_null(roster_find_mark_tag(r, 10), "a model's tag is no mast");
    cr_expect_eq(roster_unit_mark_count(r, 0), 2);
    cr_expect_eq(roster_unit_mark_count(r, 1), 0);
}

Test(roster_masts, read_written_and_read_again)
{
    base_error err;
    roster_file *r = parse(ROSTER_MASTS, &err);
    cr_assert_not_null(r, "%s", err.msg);
    expect_masts_as_written(r);
    roster_file *c = roster_clone(r);
    cr_assert_not_null(c);
    expect_masts_as_written(c);
    roster_free(c);
    cJSON *j = roster_to_json(r);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    roster_free(r);
    cr_expect_null(strstr(text, "\"marks\":[]"), "a unit without marks writes none");
    r = parse(text, &err);
    free(text);
    cr_assert_not_null(r, "%s", err.msg);
    expect_masts_as_written(r);
    roster_map *m = roster_map_new(r, &err);
    cr_assert_not_null(m, "%s", err.msg);
    const roster_map_mark *mk = roster_map_find_mark_tag(m, 40);
    cr_assert_not_null(mk);
    cr_expect_eq(mk->model, 0);
    cr_expect_float_eq(mk->mount.height, 49, 1e-9);
    cr_expect_float_eq(mk->sway, 1.5, 1e-9);
    cr_expect_null(roster_map_find_mark_tag(m, 12));
    roster_map *mc = roster_map_clone(m);
    cr_assert_not_null(mc);
    cr_expect_eq(mc->n_marks, 2);
    cr_expect_eq(roster_map_find_mark_tag(mc, 42)->model, 1);
    roster_map_free(mc);
    roster_map_free(m);
    roster_free(r);
}

Test(roster_masts, bad_fields_are_refused_naming_the_field)
{
    static const struct { const char *from, *to, *why; } bad[] = {
        {"\"kind\":\"mast\",\"model\":\"s1\"", "\"kind\":\"flag\",\"model\":\"s1\"",
         "roster.json: units[0].marks[0].kind: expected \"mast\", found \"flag\""},
        {"\"height_mm\":49,", "\"height_mm\":300,", "roster.json: units[0].marks[0].height_mm"},
        {",\"height_mm\":50}", "}", "roster.json: units[0].marks[1].height_mm: missing"},
        {"\"size_mm\":20,\"height_mm\":49", "\"size_mm\":0,\"height_mm\":49", "units[0].marks[0].size_mm"},
        {"\"sway_mm\":1.5", "\"sway_mm\":30", "units[0].marks[0].sway_mm"},
        {"\"offset_mm\":[1.5,-2]", "\"offset_mm\":[500,-2]", "units[0].marks[0].offset_mm"},
        {"\"model\":\"s2\"", "\"model\":\"c1\"", "units[0].marks[1].model: \"c1\" is none of the unit's models"},
        {"\"sway_mm\":1.5", "\"sway_mm\":1.5,\"colour\":\"red\"", "units[0].marks[0].colour"},
        {"\"tag_id\":42", "\"tag_id\":14",
         "units[0].marks[1].tag_id: tag 14 is also units[0].models[2].tag_id"},
        {"\"tag_id\":40", "\"tag_id\":0", "units[0].marks[0].tag_id: tag 0 is also board.tags[0].id"},
        {"\"tag_id\":42", "\"tag_id\":40", "units[0].marks[1].tag_id: tag 40 is also units[0].marks[0].tag_id"},
        {"\"tag_id\":42", "\"tag_id\":587", "units[0].marks[1].tag_id: 587 is not a tag36h11 code"},
        {"\"marks\":[", "\"marks\":[3,", "units[0].marks[0]: expected an object"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *at = strstr(ROSTER_MASTS, bad[k].from);
        cr_assert_not_null(at, "case %zu", k);
        char text[4096];
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - ROSTER_MASTS), ROSTER_MASTS, bad[k].to,
                 at + strlen(bad[k].from));
        base_error err;
        roster_file *r = parse(text, &err);
        cr_expect_null(r, "case %zu read", k);
        if (!r)
            cr_expect(strstr(err.msg, bad[k].why) != NULL, "case %zu: %s", k, err.msg);
        roster_free(r);
    }
}

/* A roster of units made as a dataset makes them (roster_new), no marks. */
static roster_unit *add_unit(roster_file *r, const char *id, double w, double d, int n, int files, int *tag)
{
    roster_unit *u = &r->units[r->n_units];
    snprintf(u->id, sizeof u->id, "%s", id);
    snprintf(u->side, sizeof u->side, "red");
    u->base_width = w, u->base_depth = d;
    u->files = files;
    u->first_model = r->n_models;
    u->mount = (roster_tag_mount){base_v2(0, 0), 0, 4, 12, ROSTER_MARK_SQUARE, 0};
    for (int k = 0; k < n; k++) {
        roster_model *m = &r->models[r->n_models++];
        snprintf(m->id, sizeof m->id, "%s-%d", id, k + 1);
        m->tag_id = *tag;
        *tag += 2;
        m->unit = r->n_units;
        m->file = k % files, m->rank = k / files;
        u->n_models++;
    }
    r->n_units++;
    return u;
}

Test(roster_masts, tags_layout_gives_each_kind_of_unit_its_masts)
{
    roster_file *r = roster_new(6, 30, 0);
    cr_assert_not_null(r);
    int tag = 290;  /* the masts' ids run into the calibration target's 300-399 */
    add_unit(r, "spears", 20, 20, 10, 5, &tag);
    add_unit(r, "scouts", 25, 25, 3, 3, &tag)->loose = true;
    add_unit(r, "captain", 25, 50, 1, 1, &tag)->character = true;
    add_unit(r, "dragon", 50, 50, 1, 1, &tag);
    add_unit(r, "pair", 20, 20, 4, 2, &tag);
    add_unit(r, "ogres", 40, 40, 3, 3, &tag);
    /* the models' highest id: 290 + 2 x 21 = 332 */
    size_t changed;
    cr_assert_eq(roster_layout_marks(r, false, &changed), 0);
    cr_expect_eq(changed, 6);
    cr_assert_eq(r->n_marks, 2 + 3 + 1 + 1 + 2 + 3);
    const roster_unit_mark *k = r->marks;
    cr_expect_eq(k[0].model, 0, "the front rank's first file");
    cr_expect_eq(k[1].model, 4, "the front rank's last file");
    cr_expect_float_eq(k[0].mount.size, 20, 1e-9);
    cr_expect_float_eq(k[0].mount.height, 49, 1e-9);
    cr_expect_float_eq(k[0].sway, 0.98, 1e-9);
    cr_expect_float_eq(k[0].mount.offset.y, 0, 1e-12);
    cr_expect_eq(k[0].tag_id, 400, "above 332, even, past 300-399");
    cr_expect_eq(k[1].tag_id, 402);
    for (int i = 2; i < 5; i++) {
        cr_expect_eq(k[i].unit, 1);
        cr_expect_eq(k[i].model, 10 + (size_t)i - 2, "every skirmisher carries one");
        cr_expect_float_eq(k[i].mount.size, 20, 1e-9);
    }
    cr_expect_float_eq(k[5].mount.size, 24, 1e-9);
    cr_expect_float_eq(k[5].mount.height, 63.6, 1e-9);
    cr_expect_float_eq(k[6].mount.size, 30, 1e-9);
    cr_expect_float_eq(k[6].mount.height, 63, 1e-9);
    cr_expect_eq(k[7].model, 15);
    cr_expect_eq(k[8].model, 16);
    cr_expect_float_eq(k[7].mount.offset.y, 3.5, 1e-9, "two files: the 25 mm tags lean 3.5 mm apart");
    cr_expect_float_eq(k[8].mount.offset.y, -3.5, 1e-9);
    cr_expect_float_eq(k[9].mount.size, 24, 1e-9);
    cr_expect_float_eq(k[9].mount.height, 63, 1e-9);
    cr_expect_eq(k[11].tag_id, 422);
    /* Again: every unit has marks and named its layout; nothing changes. */
    cr_assert_eq(roster_layout_marks(r, false, &changed), 0);
    cr_expect_eq(changed, 0);
    cr_expect_eq(r->n_marks, 12);
    roster_free(r);
}

Test(roster_masts, no_masts_and_no_ids_left)
{
    roster_file *r = roster_new(2, 20, 0);
    cr_assert_not_null(r);
    int tag = 570;
    add_unit(r, "spears", 20, 20, 6, 3, &tag);
    add_unit(r, "scouts", 20, 20, 2, 2, &tag)->loose = true;
    size_t changed;
    const roster_layout_options none = {false, true, 0, 300, 399};
    cr_assert_eq(roster_layout_marks_with(r, &none, &changed, NULL), 0);
    cr_expect_eq(r->n_marks, 0);
    cr_expect_eq(changed, 2, "the bases laid out");
    /* Models 570..584: masts 586, then no even id under 587. */
    const roster_layout_options masts = {false, false, 0, 300, 399};
    base_error err;
    cr_expect_eq(roster_layout_marks_with(r, &masts, &changed, &err), -1);
    cr_expect(strstr(err.msg, "no tag36h11 id left above 586") != NULL, "%s", err.msg);
    cr_expect_eq(r->n_marks, 0, "the roster as it was");
    roster_free(r);
}
