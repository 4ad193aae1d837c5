/* tableref detect: a camera image in, a snapshot out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "base_plan.h"
#include "commands.h"
#include "ds_truth.h"
#include "ref_check.h"
#include "ref_setup.h"
#include "ref_snapshot.h"
#include "ref_snapshot_vision.h"
#include "rules_json.h"

static const cli_doc doc = {
    "detect",
    "usage: tableref detect IMAGE --calib C.json --roster R.json [--out SNAPSHOT.json]\n"
    "       tableref detect IMAGE --table T.json [--out SNAPSHOT.json]\n"
    "                       [--json] [--truth TRUTH.json] [--prior PREV.json] [--no-refine]\n"
    "\n"
    "Finds the tags in IMAGE (JPEG or PNG, from the camera or `tableref render`),\n"
    "places every model of the roster on the board and writes a snapshot that\n"
    "`tableref check` reads. Models whose tag is hidden are inferred from their\n"
    "unit's formation (or from --prior, the previous frame's snapshot) and marked\n"
    "\"inferred\": true. Unknown or duplicate tag IDs and tags off the board are\n"
    "warned about on stderr and never used.\n"
    "\n",
    "\n"
    "Exit status: 0 done, 2 bad input or usage (unreadable image, calibration\n"
    "or roster; the message names the file and field).\n",
    "IMAGE",
};

/* Per-model errors against a truth file; NULL on error (err set). */
static cJSON *truth_errors(const rules_snapshot *s, const char *truth_path, double *median_mm, double *max_mm,
                           base_error *err)
{
    cJSON *root = base_json_parse_file(truth_path, err);
    if (!root)
        return NULL;
    const cJSON *models = ds_truth_check_keys(root, err) < 0 ? NULL : base_json_array(root, "models", "", true, err);
    if (!models) {
        base_error_prefix(err, truth_path);
        cJSON_Delete(root);
        return NULL;
    }
    cJSON *out = cJSON_CreateArray();
    double *errs = calloc((size_t)cJSON_GetArraySize(models) + 1, sizeof *errs);
    size_t ne = 0, i = 0;
    const cJSON *jm;
    cJSON_ArrayForEach(jm, models)
    {
        char id[RULES_ID_MAX], where[48];
        double x, y, fdeg;
        snprintf(where, sizeof where, "models[%zu]", i++);
        if (base_json_string(jm, "id", where, true, id, sizeof id, err) < 0 ||
            base_json_number(jm, "x_mm", where, true, &x, err) < 0 ||
            base_json_number(jm, "y_mm", where, true, &y, err) < 0 ||
            base_json_number(jm, "facing_deg", where, true, &fdeg, err) < 0) {
            base_error_prefix(err, truth_path);
            cJSON_Delete(out);
            cJSON_Delete(root);
            free(errs);
            return NULL;
        }
        const rules_model *m = rules_snapshot_find_model(s, id, NULL);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", id);
        if (!m) {
            cJSON_AddBoolToObject(o, "found", false);
        } else {
            double e = hypot(m->pos.x - x, m->pos.y - y);
            double fe = base_rad_to_deg(base_angle_wrap(m->facing - base_deg_to_rad(fdeg)));
            cJSON_AddBoolToObject(o, "found", true);
            cJSON_AddBoolToObject(o, "inferred", m->inferred);
            base_json_add_number(o, "error_mm", e, 4);
            base_json_add_number(o, "facing_error_deg", fe, 4);
            errs[ne++] = e;
        }
        cJSON_AddItemToArray(out, o);
    }
    /* Median by selection sort on a small array: a few hundred models at most. */
    for (size_t a = 0; a < ne; a++)
        for (size_t b = a + 1; b < ne; b++)
            if (errs[b] < errs[a]) {
                double t = errs[a];
                errs[a] = errs[b];
                errs[b] = t;
            }
    *median_mm = ne ? errs[ne / 2] : NAN;
    *max_mm = ne ? errs[ne - 1] : NAN;
    free(errs);
    cJSON_Delete(root);
    return out;
}

/* What the options asked for: the work after them. */
typedef struct detect_job {
    const char *image, *calib_path, *roster_path, *out_path, *truth, *prior_path, *table_path;
    int json, refine;
} detect_job;

/* No snapshot from a set-up the picture contradicts (docs/setup-checks.md): 0, or -1 with err. */
static int setup_holds(const ref_setup *setup, const ref_snapshot *shot, base_error *err)
{
    ref_checks checks;
    ref_snapshot_check(setup, shot, &checks);
    if (checks.ok)
        return 0;
    return base_error_setc(err, BASE_E_INVALID, "set-up check failed: %s", ref_checks_first_failure(&checks)->msg);
}

static int run_detect(const detect_job *job)
{
    const char *image = job->image, *out_path = job->out_path, *truth = job->truth;
    const int json = job->json;
    base_error err = {0};
    ref_setup *setup = NULL;
    ref_snapshot *shot = NULL;
    rules_snapshot *prior = NULL;
    cJSON *errors = NULL;
    int rc = EXIT_BAD_INPUT;
    if (!(setup = ref_setup_new(job->table_path, job->calib_path, job->roster_path, &err)) ||
        (job->prior_path && !(prior = rules_json_load_snapshot(job->prior_path, &err))))
        goto done;
    /* The files a table file names are read now: checked against --out before any work. */
    if (base_plan_check(&err) < 0)
        goto done;
    if (!job->refine)
        ref_setup_keep_pose(setup);
    if (!(shot = ref_snapshot_new(setup, image, prior, &err)))
        goto done;
    if (setup_holds(setup, shot, &err) < 0)
        goto done;
    const rules_snapshot *snap = shot->snap;
    const vis_report *rep = ref_snapshot_report(shot);
    ref_snapshot_print_warnings(setup, shot, NULL, stderr, "tableref detect: ");
    double med = NAN, worst = NAN;
    if (truth && !(errors = truth_errors(snap, truth, &med, &worst, &err)))
        goto done;
    if (out_path && rules_json_save_snapshot(snap, out_path, &err) < 0)
        goto done;
    FILE *info = out_path || json ? stdout : stderr;
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddItemToObject(root, "report", vis_report_to_json(rep));
        if (!out_path)
            cJSON_AddItemToObject(root, "snapshot", rules_json_from_snapshot(snap));
        if (errors) {
            cJSON_AddItemToObject(root, "truth_errors", errors);
            errors = NULL;
            base_json_add_number(root, "truth_median_mm", med, 4);
            base_json_add_number(root, "truth_max_mm", worst, 4);
        }
        int wrc = base_json_write_file(root, "-", &err);
        cJSON_Delete(root);
        if (wrc < 0)
            goto done;
    } else {
        if (!out_path && rules_json_save_snapshot(snap, "-", &err) < 0)
            goto done;
        fprintf(info, "detect: %zu tags, %zu models seen, %zu inferred, %zu missing%s\n", rep->tags_detected,
                rep->models_seen, rep->models_inferred, rep->models_missing,
                rep->pose_refined ? ", board pose refined" : "");
        const cJSON *e;
        cJSON_ArrayForEach(e, errors)
        {
            const cJSON *f = cJSON_GetObjectItem(e, "found");
            if (!cJSON_IsTrue(f)) {
                fprintf(info, "  %-16s not placed\n", cJSON_GetObjectItem(e, "id")->valuestring);
                continue;
            }
            fprintf(info, "  %-16s %8.3f mm %8.3f deg%s\n", cJSON_GetObjectItem(e, "id")->valuestring,
                    cJSON_GetObjectItem(e, "error_mm")->valuedouble,
                    cJSON_GetObjectItem(e, "facing_error_deg")->valuedouble,
                    cJSON_IsTrue(cJSON_GetObjectItem(e, "inferred")) ? "  (inferred)" : "");
        }
        if (errors)
            fprintf(info, "truth: median %.3f mm, max %.3f mm\n", med, worst);
    }
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "tableref detect: %s\n", err.msg);
    cJSON_Delete(errors);
    ref_snapshot_free(shot);
    rules_snapshot_free(prior);
    ref_setup_free(setup);
    return rc;
}

int cmd_detect(int argc, char **argv)
{
    const char *image = NULL, *calib_path = NULL, *roster_path = NULL, *out_path = NULL, *truth = NULL,
               *prior_path = NULL, *table_path = NULL;
    int json = 0, refine = 1;
    const cli_opt opts[] = {
        CLI_CALIB_OPT(&calib_path),
        CLI_ROSTER_OPT(&roster_path),
        CLI_INPUT("--table", &table_path, "T",
                   "the table file (calibration, rosters, ruleset, terrain) instead\n"
                   "of --calib and --roster; the snapshot carries its ruleset and terrain"),
        CLI_OUTPUT("--out", &out_path, "F", "write the snapshot to F (default: stdout)"),
        CLI_FLAG("--json", &json, 1, "print a JSON report (snapshot, issues, truth errors) on stdout"),
        CLI_INPUT("--truth", &truth, "T",
                   "compare with a ground-truth file from `tableref render`:\n"
                   "per-model position (mm) and facing (deg) errors"),
        CLI_INPUT("--prior", &prior_path, "P", "previous snapshot: unseen models follow their unit's motion"),
        CLI_FLAG("--no-refine", &refine, 0,
                 "keep the calibration's board pose (no refinement from the\n"
                 "board's reference tags)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), &image, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!image)
        return cli_missing("detect", "the camera IMAGE"), EXIT_BAD_INPUT;
    const char *missing = NULL;
    base_error err;
    if (ref_setup_check(table_path, calib_path, roster_path, &missing, &err) < 0)
        return missing ? cli_missing("detect", missing) : fprintf(stderr, "tableref detect: %s\n", err.msg),
               EXIT_BAD_INPUT;
    detect_job job = {.image = image, .calib_path = calib_path, .roster_path = roster_path, .out_path = out_path,
                      .truth = truth, .prior_path = prior_path, .table_path = table_path, .json = json,
                      .refine = refine};
    return run_detect(&job);
}
