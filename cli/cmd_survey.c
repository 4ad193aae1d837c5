/*
 * tableref survey: the heights of a table's hills measured from the camera
 * (referee/ref_survey.h), checked against the table file and, with --write,
 * written into a copy of it with each height's +/- (height_sigma_mm).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "base_json.h"
#include "cli_args.h"
#include "commands.h"
#include "media_image_read.h"
#include "ref_setup.h"
#include "ref_survey.h"

static const cli_doc doc = {
    "survey",
    "usage: tableref survey IMAGE --table T.json [--write OUT.json] [--json]\n"
    "\n"
    "Measures the height of every hill of the table file (terrain with \"relief\":\n"
    "\"hill\") from one camera picture of the table: each hill's outline and a\n"
    "rough height (a ruler's, within ~10 mm) come from the table file; a unit (or\n"
    "a few based tags) standing wholly on each hill's top and some on the board\n"
    "give the heights by their tags' apparent size. Prints each hill's height\n"
    "measured with its +/- (1 sigma) beside the file's, and whether they agree\n"
    "(within 3 combined sigmas). --write writes the table file with the heights\n"
    "measured (height_mm, height_sigma_mm), every other field as it was.\n"
    "How the heights are measured: docs/rules.md, \"Relief\".\n"
    "\n",
    "\n"
    "Exit status: 0 every hill measured and agreeing with the table file (or\n"
    "written with --write), 1 a hill not measured or disagreeing, 2 bad input.\n",
    "IMAGE",
};

static void print_text(const ref_survey *sv)
{
    for (size_t i = 0; i < sv->n; i++) {
        const ref_survey_hill *h = &sv->hills[i];
        if (!isfinite(h->height_mm)) {
            printf("hill %s: not measured (no unit stands wholly on its top); the table file says %.1f mm\n",
                   h->id[0] ? h->id : "(no id)", h->file_mm);
            continue;
        }
        printf("hill %s: %.1f mm +- %.1f (1 sigma; %zu units, %zu tags); the table file says %.1f +- %.1f: %s\n",
               h->id[0] ? h->id : "(no id)", h->height_mm, h->sigma_mm, h->units, h->tags, h->file_mm,
               h->file_sigma_mm, h->agrees ? "agrees" : "DISAGREES");
    }
    printf("%zu readings; the frame's scale from %zu units on the board, +- %.1f mm\n", sv->rounds, sv->flat_units,
           sv->scale_sigma_mm);
}

static void print_json(const ref_survey *sv)
{
    cJSON *root = cJSON_CreateObject(), *hills = cJSON_AddArrayToObject(root, "hills");
    for (size_t i = 0; i < sv->n; i++) {
        const ref_survey_hill *h = &sv->hills[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "id", h->id);
        cJSON_AddNumberToObject(j, "terrain_index", (double)h->piece);
        base_json_add_number(j, "file_mm", h->file_mm, 2);
        base_json_add_number(j, "file_sigma_mm", h->file_sigma_mm, 2);
        if (isfinite(h->height_mm)) {
            base_json_add_number(j, "height_mm", h->height_mm, 2);
            base_json_add_number(j, "sigma_mm", h->sigma_mm, 2);
        }
        cJSON_AddNumberToObject(j, "units", (double)h->units);
        cJSON_AddNumberToObject(j, "tags", (double)h->tags);
        cJSON_AddBoolToObject(j, "agrees", h->agrees);
        cJSON_AddItemToArray(hills, j);
    }
    cJSON_AddNumberToObject(root, "readings", (double)sv->rounds);
    cJSON_AddNumberToObject(root, "flat_units", (double)sv->flat_units);
    base_json_add_number(root, "scale_sigma_mm", sv->scale_sigma_mm, 2);
    char *txt = cJSON_Print(root);
    if (txt)
        printf("%s\n", txt);
    free(txt);
    cJSON_Delete(root);
}

/* The table file with the heights measured written to `out`, every other field as it was. */
static int write_table(const char *table, const char *out, const ref_survey *sv, base_error *err)
{
    cJSON *root = base_json_parse_file(table, err);
    if (!root)
        return -1;
    const cJSON *terrain = cJSON_GetObjectItemCaseSensitive(root, "terrain");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sv->n; i++) {
        const ref_survey_hill *h = &sv->hills[i];
        cJSON *piece = cJSON_GetArrayItem(terrain, (int)h->piece);
        if (!cJSON_IsObject(piece))
            rc = base_error_setc(err, BASE_E_INVALID, "%s: terrain[%zu]: not found (the file changed?)", table,
                                 h->piece);
        else if (isfinite(h->height_mm) && h->height_mm > 0) {
            cJSON_DeleteItemFromObjectCaseSensitive(piece, "height_mm");
            cJSON_DeleteItemFromObjectCaseSensitive(piece, "height_sigma_mm");
            base_json_add_number(piece, "height_mm", h->height_mm, 1);
            base_json_add_number(piece, "height_sigma_mm", fmax(0.1, h->sigma_mm), 1);
        }
    }
    if (rc == 0)
        rc = base_json_write_file(root, out, err);
    cJSON_Delete(root);
    return rc;
}

static int run_survey(const char *image, const char *table, const char *out, int json)
{
    base_error err = {0};
    ref_setup *s = ref_setup_new(table, NULL, NULL, &err);
    base_image *img = s ? media_image_load(image, MEDIA_IMAGE_GRAY, &err) : NULL;
    ref_survey sv = {0};
    int rc = EXIT_BAD_INPUT;
    if (img) {
        const base_view v = base_image_view(img);
        if (ref_survey_read(s, &v, &sv, &err) == 0 && (!out || write_table(table, out, &sv, &err) == 0)) {
            json ? print_json(&sv) : print_text(&sv);
            rc = EXIT_LEGAL;
            for (size_t i = 0; i < sv.n; i++)
                if (!isfinite(sv.hills[i].height_mm) || (!out && !sv.hills[i].agrees))
                    rc = EXIT_ILLEGAL;
        }
    }
    if (rc == EXIT_BAD_INPUT)
        fprintf(stderr, "tableref survey: %s\n", err.msg);
    ref_survey_clear(&sv);
    base_image_free(img);
    ref_setup_free(s);
    return rc;
}

int cmd_survey(int argc, char **argv)
{
    const char *image = NULL, *table = NULL, *out = NULL;
    int json = 0;
    const cli_opt opts[] = {
        CLI_INPUT("--table", &table, "T", "the table file: calibration, rosters and the hills' outlines"),
        CLI_OUTPUT("--write", &out, "OUT.json", "write the table file with the heights measured"),
        CLI_FLAG("--json", &json, 1, "print the figures as JSON on stdout"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), &image, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!image)
        return cli_missing("survey", "the camera IMAGE"), EXIT_BAD_INPUT;
    if (!table)
        return cli_missing("survey", "--table"), EXIT_BAD_INPUT;
    return run_survey(image, table, out, json);
}
