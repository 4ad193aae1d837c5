/*
 * Readers read all of a file (issue 31, point 3): every reader of tableref (snapshot, roster, calibration, table
 * file, scene, the sim: sequence, the target's layout, the renderer's truth, a New Recruit list, referee's projector
 * mapping) fed its bundled file with a NUL byte in the middle (refused naming the byte offset: cJSON stopped there
 * and the reader took what came before), a key given twice (at the top and in the deepest last object), and, for
 * tableref's own formats, an unknown field put into every object of the file one at a time (refused, never
 * ignored). The roster with a second roster after a NUL, and 4096 NULs, are refused too.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army_list.h"
#include "base_json.h"
#include "calib_file.h"
#include "calib_target.h"
#include "cli_run.h"
#include "ds_scene.h"
#include "ds_sequence.h"
#include "ds_truth.h"
#include "fixture_demo.h"
#include "roster.h"
#include "rules_json.h"
#include "table_file.h"

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("readers"));
    /* The table file names the demo's calibration, roster and picture; the sequence its scene: beside them. */
    char cmd[2400];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && cp datasets/demo/*.json datasets/demo/before.jpg '%s/' && "
             "cp datasets/sequences/turn/scene.json '%s/turn-scene.json' && "
             "sed 's/\"scene.json\"/\"turn-scene.json\"/' datasets/sequences/turn/sequence.json > '%s/sequence.json' && "
             "'%s' render --generate small --out '%s/small' >/dev/null 2>&1",
             getenv("TABLEREF_SOURCE_ROOT"), fxd_dir(), fxd_dir(), fxd_dir(), getenv("TABLEREF_BIN"), fxd_dir());
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    calib_target t;
    calib_target_tags_default(&t);
    base_error err;
    cr_assert_eq(calib_target_save(&t, fxd_tmp("target.json"), &err), 0, "%s", err.msg);
}

static void teardown(void)
{
    (void)fxd_scratch_remove();
}

TestSuite(readers, .init = setup, .fini = teardown, .timeout = 120);

/* ---- every reader, by its sample --------------------------------------------------------------- */

static int read_snapshot(const char *p, base_error *e)
{
    rules_snapshot *s = rules_json_load_snapshot(p, e);
    rules_snapshot_free(s);
    return s ? 0 : -1;
}
static int read_roster(const char *p, base_error *e)
{
    roster_file *r = roster_load(p, e);
    roster_free(r);
    return r ? 0 : -1;
}
static int read_calib(const char *p, base_error *e)
{
    calib_file c;
    return calib_file_load(p, &c, e);
}
static int read_table(const char *p, base_error *e)
{
    table_file t;
    int rc = table_file_load(p, &t, e);
    if (rc == 0)
        table_file_clear(&t);
    return rc;
}
static int read_scene(const char *p, base_error *e)
{
    ds_scene *s = ds_scene_load(p, e);
    ds_scene_free(s);
    return s ? 0 : -1;
}
static int read_sequence(const char *p, base_error *e)
{
    ds_sequence *q = ds_sequence_load(p, e);
    ds_sequence_free(q);
    return q ? 0 : -1;
}
static int read_target(const char *p, base_error *e)
{
    calib_target t;
    return calib_target_load(p, &t, e);
}
static int read_truth(const char *p, base_error *e)
{
    cJSON *root = base_json_parse_file(p, e);
    int rc = root ? ds_truth_check_keys(root, e) : -1;
    cJSON_Delete(root);
    return rc;
}
static int read_army(const char *p, base_error *e)
{
    army_file *f = army_file_read(p, e);
    army_file_free(f);
    return f ? 0 : -1;
}

typedef struct reader {
    const char *format;
    const char *sample; /* in the scratch folder; NULL: from the source tree */
    const char *source; /* from the source tree */
    int (*read)(const char *path, base_error *err);
    bool own_format;    /* tableref's format: every unknown field refused (a New Recruit list is another's) */
} reader;

static const reader readers[] = {
    {"snapshot", "before.json", NULL, read_snapshot, true},
    {"roster", "roster.json", NULL, read_roster, true},
    {"calibration", "calib.json", NULL, read_calib, true},
    {"table file", "table.json", NULL, read_table, true},
    {"scene", "turn-scene.json", NULL, read_scene, true},
    {"sequence", "sequence.json", NULL, read_sequence, true},
    {"target layout", "target.json", NULL, read_target, true},
    {"truth", "small/truth.json", NULL, read_truth, true},
    {"New Recruit list", NULL, "datasets/armylists/nr-report-ong-vs-ud.json", read_army, false},
};
#define N_READERS (sizeof readers / sizeof readers[0])

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return b;
}

static const char *sample_path(const reader *r)
{
    static char path[2048];
    if (r->sample)
        snprintf(path, sizeof path, "%s", fxd_tmp(r->sample));
    else
        snprintf(path, sizeof path, "%s/%s", getenv("TABLEREF_SOURCE_ROOT"), r->source);
    return path;
}

/* The mutated text written beside the sample (its references still found), read, its error into err: the rc. */
static int read_mutated(const reader *r, const char *text, size_t len, base_error *err)
{
    char path[2100];
    snprintf(path, sizeof path, "%s/mutated.json", fxd_dir());
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fwrite(text, 1, len, f);
    fclose(f);
    memset(err, 0, sizeof *err);
    return r->read(path, err);
}

Test(readers, every_sample_reads)
{
    for (size_t i = 0; i < N_READERS; i++) {
        base_error err = {0};
        cr_expect_eq(readers[i].read(sample_path(&readers[i]), &err), 0, "%s: %s", readers[i].format, err.msg);
    }
}

Test(readers, a_nul_in_the_middle_is_refused_with_its_offset)
{
    for (size_t i = 0; i < N_READERS; i++) {
        size_t len;
        char *text = slurp(sample_path(&readers[i]), &len);
        const size_t at = len / 2;
        text[at] = '\0';
        base_error err;
        cr_expect_lt(read_mutated(&readers[i], text, len, &err), 0, "%s: a NUL at %zu was read", readers[i].format,
                     at);
        char want[64];
        snprintf(want, sizeof want, "a NUL byte at byte offset %zu", at);
        cr_expect(strstr(err.msg, want), "%s: %s", readers[i].format, err.msg);
        free(text);
    }
}

/* The roster: the demo's, a NUL, and another roster after it (read as the first before); 4096 NULs. */
Test(readers, what_follows_a_nul_is_never_ignored)
{
    size_t len;
    char *text = slurp(fxd_tmp("roster.json"), &len);
    static const char tail[] = "{\"units\": []}";
    text = realloc(text, len + sizeof tail + 1);
    text[len] = '\0';
    memcpy(text + len + 1, tail, sizeof tail);
    base_error err;
    cr_expect_lt(read_mutated(&readers[1], text, len + sizeof tail, &err), 0);
    char want[64];
    snprintf(want, sizeof want, "a NUL byte at byte offset %zu", len);
    cr_expect(strstr(err.msg, want), "%s", err.msg);
    free(text);
    char zeros[4096] = {0};
    cr_expect_lt(read_mutated(&readers[1], zeros, sizeof zeros, &err), 0);
    cr_expect(strstr(err.msg, "a NUL byte at byte offset 0"), "not an empty file: %s", err.msg);
}

/* The deepest, last object of the tree (what a reader reaches last). */
static cJSON *deepest_last(cJSON *node, int depth, int *best_depth)
{
    cJSON *best = NULL;
    if (cJSON_IsObject(node) && depth >= *best_depth)
        best = node, *best_depth = depth;
    for (cJSON *c = node->child; c && (cJSON_IsObject(node) || cJSON_IsArray(node)); c = c->next) {
        cJSON *b = deepest_last(c, depth + 1, best_depth);
        if (b)
            best = b;
    }
    return best;
}

/* A copy of the object's first member, added again (cJSON keeps both). */
static void twice(cJSON *obj)
{
    cJSON *first = obj->child;
    cr_assert_not_null(first);
    cJSON_AddItemToObject(obj, first->string, cJSON_Duplicate(first, 1));
}

Test(readers, a_key_given_twice_is_refused)
{
    for (size_t i = 0; i < N_READERS; i++) {
        for (int where = 0; where < 2; where++) {
            base_error err = {0};
            cJSON *root = base_json_parse_file(sample_path(&readers[i]), &err);
            cr_assert_not_null(root, "%s", err.msg);
            int depth = 0;
            twice(where == 0 ? root : deepest_last(root, 0, &depth));
            char *text = cJSON_Print(root);
            cr_expect_lt(read_mutated(&readers[i], text, strlen(text), &err), 0, "%s: a key given twice was read",
                         readers[i].format);
            cr_expect(strstr(err.msg, ": given twice"), "%s: %s", readers[i].format, err.msg);
            free(text);
            cJSON_Delete(root);
        }
    }
}

/* Every object of the tree (comments under '_' keys aside), in file order, into list. */
static size_t objects(cJSON *node, cJSON **list, size_t n, size_t cap)
{
    if (cJSON_IsObject(node) && n < cap)
        list[n++] = node;
    for (cJSON *c = node->child; c && (cJSON_IsObject(node) || cJSON_IsArray(node)); c = c->next)
        if (!(c->string && c->string[0] == '_'))
            n = objects(c, list, n, cap);
    return n;
}

Test(readers, an_unknown_field_in_any_object_is_refused)
{
    size_t total = 0;
    for (size_t i = 0; i < N_READERS; i++) {
        if (!readers[i].own_format)
            continue;
        base_error err = {0};
        cJSON *root = base_json_parse_file(sample_path(&readers[i]), &err);
        cr_assert_not_null(root, "%s", err.msg);
        static cJSON *list[4096];
        const size_t n = objects(root, list, 0, 4096);
        for (size_t k = 0; k < n; k++) {
            cJSON_AddNumberToObject(list[k], "zz_unknown", 1);
            char *text = cJSON_Print(root);
            cJSON_DeleteItemFromObjectCaseSensitive(list[k], "zz_unknown");
            int rc = read_mutated(&readers[i], text, strlen(text), &err);
            cr_expect_lt(rc, 0, "%s: object %zu of %zu: an unknown field was ignored", readers[i].format, k, n);
            cr_expect(rc == 0 || strstr(err.msg, "zz_unknown") || strstr(err.msg, "not read"), "%s: %s",
                      readers[i].format, err.msg);
            free(text);
        }
        total += n;
        cJSON_Delete(root);
    }
    cr_expect_geq(total, 200, "objects tried: %zu", total);
}

/* referee's plain projector mapping {"width", "height", "H"} is read by the command itself. */
Test(readers, the_projector_mapping_is_strict_too)
{
    static const char *const texts[] = {
        "{\"width\": 1280, \"height\": 800, \"H\": [1,0,0,0,1,0,0,0,1], \"hieght\": 800}",
        "{\"width\": 1280, \"height\": 800, \"H\": [1,0,0,0,1,0,0,0,1], \"width\": 640}",
        "{\"width\": 1280, \"height\": 800,\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
        "\"H\": [1,0,0,0,1,0,0,0,1]}",
    };
    static const char *const want[] = {"hieght: unknown field; did you mean \"height\"?", "width: given twice",
                                       "a NUL byte at byte offset 30"};
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(fxd_tmp("p.json"), "wb");
        size_t n = strlen(texts[i]);
        char *t = strdup(texts[i]);
        if (i == 2)
            t[30] = '\0';
        fwrite(t, 1, n, f);
        fclose(f);
        free(t);
        char args[4096];
        snprintf(args, sizeof args,
                 "referee datasets/demo/before.jpg datasets/demo/after.jpg --calib datasets/demo/calib.json "
                 "--roster datasets/demo/roster.json --projector '%s' --out '%s'",
                 fxd_tmp("p.json"), fxd_tmp("o"));
        static cli_result r;
        cr_assert_eq(cli_run(args, &r), 0);
        cr_expect_eq(r.status, 2, "%s", r.err);
        cr_expect(strstr(r.err, want[i]), "%s", r.err);
    }
}
