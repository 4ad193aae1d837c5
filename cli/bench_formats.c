/*
 * tableref bench formats: how long the strict readers take on the largest
 * files (issue 10): a snapshot of 100,000 models, with and without a model id
 * repeated at its very end; the largest roster a tag family allows (2,115
 * models of tagStandard41h12); a 100,000-model roster (refused: no family has
 * that many codes). Every id check is O(n log n); the pairwise checks they
 * replace took 11 s on the 100,000-model roster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cli_args.h"
#include "commands.h"
#include "rules_json.h"
#include "roster.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* units x per_unit models; the last model takes the first one's id when `repeat`. */
static char *snapshot_text(int units, int per_unit, int repeat)
{
    cJSON *root = cJSON_CreateObject(), *board = cJSON_AddObjectToObject(root, "board");
    cJSON_AddNumberToObject(board, "width_mm", 1828.8);
    cJSON_AddNumberToObject(board, "depth_mm", 1219.2);
    cJSON *us = cJSON_AddArrayToObject(root, "units");
    for (int u = 0; u < units; u++) {
        char id[64];
        cJSON *ju = cJSON_CreateObject();
        snprintf(id, sizeof id, "u%d", u);
        cJSON_AddStringToObject(ju, "id", id);
        cJSON_AddStringToObject(ju, "side", u % 2 ? "blue" : "red");
        double base[2] = {25, 25};
        cJSON_AddItemToObject(ju, "base_mm", cJSON_CreateDoubleArray(base, 2));
        cJSON_AddNumberToObject(ju, "advance_in", 5);
        cJSON *ms = cJSON_AddArrayToObject(ju, "models");
        for (int m = 0; m < per_unit; m++) {
            cJSON *jm = cJSON_CreateObject();
            snprintf(id, sizeof id, "u%d-m%d", u, m);
            cJSON_AddStringToObject(jm, "id", repeat && u == units - 1 && m == per_unit - 1 ? "u0-m0" : id);
            cJSON_AddNumberToObject(jm, "x_mm", 10 + (u % 60) * 30);
            cJSON_AddNumberToObject(jm, "y_mm", 10 + (u / 60) * 7 + m * 0.1);
            cJSON_AddNumberToObject(jm, "facing_deg", 90);
            cJSON_AddItemToArray(ms, jm);
        }
        cJSON_AddItemToArray(us, ju);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

static char *roster_text(const char *family, int units, int per_unit)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", ROSTER_FORMAT);
    cJSON_AddNumberToObject(root, "version", ROSTER_VERSION);
    cJSON_AddStringToObject(root, "family", family);
    cJSON *board = cJSON_AddObjectToObject(root, "board");
    cJSON_AddNumberToObject(board, "width_mm", 1828.8);
    cJSON_AddNumberToObject(board, "depth_mm", 1219.2);
    cJSON *us = cJSON_AddArrayToObject(root, "units");
    int tag = 0;
    for (int u = 0; u < units; u++) {
        char id[64];
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
        for (int m = 0; m < per_unit; m++) {
            cJSON *jm = cJSON_CreateObject();
            snprintf(id, sizeof id, "u%d-m%d", u, m);
            cJSON_AddStringToObject(jm, "id", id);
            cJSON_AddNumberToObject(jm, "tag_id", tag++);
            cJSON_AddItemToArray(ms, jm);
        }
        cJSON_AddItemToArray(us, ju);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* Parses and reads `text` `reps` times; prints the median time and the outcome. */
static void time_snapshot(const char *what, const char *text, int reps)
{
    double best = 1e300;
    base_error err = {0};
    int ok = 0;
    for (int i = 0; i < reps; i++) {
        const double t0 = now_ms();
        cJSON *root = base_json_parse_string(text, "bench.json", &err);
        rules_snapshot *s = root ? rules_json_to_snapshot(root, "bench.json", &err) : NULL;
        const double t = now_ms() - t0;
        best = t < best ? t : best;
        ok = s != NULL;
        rules_snapshot_free(s);
        cJSON_Delete(root);
    }
    printf("formats: %-44s %8.1f ms  %s\n", what, best, ok ? "read" : err.msg);
}

static void time_roster(const char *what, const char *text, int reps)
{
    double best = 1e300;
    base_error err = {0};
    int ok = 0;
    for (int i = 0; i < reps; i++) {
        const double t0 = now_ms();
        cJSON *root = base_json_parse_string(text, "roster.json", &err);
        roster_file *r = root ? roster_from_json(root, "roster.json", &err) : NULL;
        const double t = now_ms() - t0;
        best = t < best ? t : best;
        ok = r != NULL;
        roster_free(r);
        cJSON_Delete(root);
    }
    printf("formats: %-44s %8.1f ms  %s\n", what, best, ok ? "read" : err.msg);
}

int bench_formats(int argc, char **argv)
{
    static const cli_doc doc = {"bench formats",
                                "usage: tableref bench formats\n\nTimes the strict snapshot and roster readers on "
                                "the largest files (best of 3,\nJSON parsing included).\n",
                                NULL};
    int n_pos = cli_parse(&doc, argc, argv, NULL, 0, NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    char *a = snapshot_text(10000, 10, 0), *b = snapshot_text(10000, 10, 1);
    char *c = roster_text("tagStandard41h12", 211, 10), *d = roster_text("tag36h11", 10000, 10);
    if (!a || !b || !c || !d) {
        fprintf(stderr, "tableref bench formats: out of memory\n");
        return EXIT_BAD_INPUT;
    }
    printf("formats: file sizes: snapshot %.1f MB, roster (2110 models) %.2f MB, roster (100000) %.1f MB\n",
           strlen(a) / 1e6, strlen(c) / 1e6, strlen(d) / 1e6);
    time_snapshot("snapshot, 100000 models", a, 3);
    time_snapshot("snapshot, 100000 models, last id repeated", b, 3);
    time_roster("roster, 2110 models (tagStandard41h12)", c, 3);
    time_roster("roster, 100000 models", d, 3);
    free(a), free(b), free(c), free(d);
    return 0;
}
