/*
 * tableref table-check: the pre-round check of a table, as goal-line
 * technology has its check before every match. One picture of the table
 * set up for the round, read through its set-up; every figure the referee's
 * self-checks look at (referee/ref_check.h), the resolution margin and each
 * unit's tags, with a go or no-go each.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "ref_check.h"
#include "ref_setup.h"
#include "ref_snapshot.h"

static const cli_doc doc = {
    "table-check",
    "usage: tableref table-check IMAGE --table T.json [--json]\n"
    "       tableref table-check IMAGE --calib C.json --roster R.json [--json]\n"
    "\n"
    "Checks a table before a round from one camera picture of it, every unit\n"
    "set up: focus at the tags (the worst place named), exposure (tag pixels\n"
    "clipped, the tags' white level), resolution margin (pixels per tag cell at\n"
    "the smallest tag), the board tags against the roster's board (the pose's\n"
    "residual, their sizes), the calibration's fit (model tag sizes, the share\n"
    "of the roster seen) and each unit's tags seen, each with its figure and a\n"
    "go or no-go. Limits: docs/setup-checks.md. The projector's alignment is\n"
    "reported \"not mapped\" without a projector section.\n"
    "\n",
    "\n"
    "Exit status: 0 go, 1 no-go (the reasons printed), 2 bad input or usage.\n",
};

/* Pixels per tag cell below this at the smallest tag: too few to read a tag reliably. */
#define MIN_CELL_PX 2.0

typedef struct unit_tags {
    size_t seen, total;
} unit_tags;

/* Each roster unit's model tags decoded in the picture. Caller frees. */
static unit_tags *count_unit_tags(const ref_setup *s, const ref_snapshot *f)
{
    const vis_roster *r = s->roster;
    unit_tags *u = calloc(r->n_units ? r->n_units : 1, sizeof *u);
    if (!u)
        return NULL;
    for (size_t i = 0; i < r->n_units; i++)
        u[i].total = r->units[i].n_models;
    for (size_t i = 0; i < f->tags.n; i++) {
        const vis_roster_model *m = vis_roster_find_model_tag(r, f->tags.items[i].id);
        if (m)
            u[m->unit].seen++;
    }
    return u;
}

static void print_text(const ref_setup *s, const ref_checks *c, const unit_tags *u, bool res_ok, bool go)
{
    for (int i = 0; i < REF_CHECK_N; i++) {
        const ref_check_result *r = &c->items[i];
        printf("%-6s %-15s ", !r->measured ? "-" : r->ok ? "go" : "NO-GO", ref_check_rules[i].name);
        if (!r->measured)
            printf("not measured (nothing to measure it on)\n");
        else if (!r->ok)
            printf("%s\n", r->msg);
        else
            printf("%.3g%s%s (limit %.3g)%s%s\n", r->value, ref_check_rules[i].unit[0] ? " " : "",
                   ref_check_rules[i].unit, ref_check_rules[i].limit, r->where[0] ? ", worst at " : "", r->where);
    }
    printf("%-6s %-15s clipped %.1f%% of the tags' pixels, white level %.0f of 255\n",
           c->items[REF_CHECK_EXPOSURE].ok ? "go" : "NO-GO", "exposure-parts", 100 * c->clipped_share,
           c->dark_white_level);
    printf("%-6s %-15s %.2f px per tag cell at the smallest tag (limit %.1f)\n", res_ok ? "go" : "NO-GO",
           "resolution", c->min_cell_px, MIN_CELL_PX);
    for (size_t i = 0; i < s->roster->n_units; i++)
        printf("%-6s unit %-10s %zu/%zu tags seen\n", u[i].seen ? "go" : "NO-GO", s->roster->units[i].id, u[i].seen,
               u[i].total);
    printf("%-6s %-15s not mapped\n", "-", "projector");
    printf("table-check: %s\n", go ? "GO" : "NO-GO");
}

static void print_json(const ref_setup *s, const ref_checks *c, const unit_tags *u, bool res_ok, bool go)
{
    cJSON *root = ref_checks_to_json(c);
    cJSON_AddBoolToObject(root, "go", go);
    cJSON *res = cJSON_AddObjectToObject(root, "resolution");
    if (!isnan(c->min_cell_px))
        cJSON_AddNumberToObject(res, "cell_px", round(c->min_cell_px * 1e3) / 1e3);
    cJSON_AddNumberToObject(res, "limit", MIN_CELL_PX);
    cJSON_AddBoolToObject(res, "ok", res_ok);
    cJSON *ex = cJSON_AddObjectToObject(root, "exposure");
    if (!isnan(c->clipped_share))
        cJSON_AddNumberToObject(ex, "clipped_share", round(c->clipped_share * 1e4) / 1e4);
    if (!isnan(c->dark_white_level))
        cJSON_AddNumberToObject(ex, "white_level", c->dark_white_level);
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t i = 0; i < s->roster->n_units; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "unit", s->roster->units[i].id);
        cJSON_AddNumberToObject(j, "tags_seen", (double)u[i].seen);
        cJSON_AddNumberToObject(j, "models", (double)u[i].total);
        cJSON_AddBoolToObject(j, "ok", u[i].seen > 0);
        cJSON_AddItemToArray(units, j);
    }
    cJSON_AddStringToObject(root, "projector", "not mapped");
    char *txt = cJSON_Print(root);
    if (txt)
        printf("%s\n", txt);
    free(txt);
    cJSON_Delete(root);
}

static int run_table_check(const char *image, const char *table, const char *calib, const char *roster, int json)
{
    base_error err = {0};
    ref_setup *s = ref_setup_new(table, calib, roster, &err);
    ref_snapshot *f = s ? ref_snapshot_new(s, image, NULL, &err) : NULL;
    unit_tags *u = f ? count_unit_tags(s, f) : NULL;
    if (!u) {
        fprintf(stderr, "tableref table-check: %s\n", f ? "out of memory" : err.msg);
        ref_snapshot_free(f);
        ref_setup_free(s);
        return EXIT_BAD_INPUT;
    }
    ref_checks c;
    ref_check_frame(s, f, &c);
    bool res_ok = !isnan(c.min_cell_px) && c.min_cell_px >= MIN_CELL_PX, go = c.ok && res_ok;
    for (size_t i = 0; i < s->roster->n_units; i++)
        go = go && u[i].seen > 0;
    if (json)
        print_json(s, &c, u, res_ok, go);
    else
        print_text(s, &c, u, res_ok, go);
    for (int i = 0; !go && i < REF_CHECK_N; i++)
        if (!c.items[i].ok)
            fprintf(stderr, "tableref table-check: no-go: %s\n", c.items[i].msg);
    free(u);
    ref_snapshot_free(f);
    ref_setup_free(s);
    return go ? EXIT_LEGAL : EXIT_ILLEGAL;
}

int cmd_table_check(int argc, char **argv)
{
    const char *image = NULL, *calib_path = NULL, *roster_path = NULL, *table_path = NULL;
    int json = 0;
    const cli_opt opts[] = {
        CLI_STRING("--table", &table_path, "T", "the table file (calibration, rosters); replaces --calib and --roster"),
        CLI_STRING("--calib", &calib_path, "C.json", "the camera's calibration"),
        CLI_STRING("--roster", &roster_path, "R.json", "the roster (`tableref roster import`)"),
        CLI_FLAG("--json", &json, 1, "print every figure as JSON on stdout"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), &image, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!image)
        return cli_missing("table-check", "the camera IMAGE"), EXIT_BAD_INPUT;
    const char *missing = NULL;
    base_error err;
    if (ref_setup_check(table_path, calib_path, roster_path, &missing, &err) < 0)
        return missing ? cli_missing("table-check", missing) : fprintf(stderr, "tableref table-check: %s\n", err.msg),
               EXIT_BAD_INPUT;
    return run_table_check(image, table_path, calib_path, roster_path, json);
}
