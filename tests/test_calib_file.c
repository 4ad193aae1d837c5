/*
 * The calibration file (versions 1 and 2) and the target layout file: every
 * bad file is an error naming the file and the field, and through the CLI
 * an exit status of 2. Good files survive a save/load round trip.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib_file.h"
#include "calib_target.h"
#include "rules_json.h"
#include "vision_test_util.h"

static char dir[256];

static void mkdir_tmp(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-ctest-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void rm_tmp(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

static const char *GOOD_V1 =
    "{\"format\": \"tableref-calibration\", \"version\": 1, \"image_size\": [1280, 960],"
    " \"camera\": {\"fx\": 1100, \"fy\": 1100, \"cx\": 639.5, \"cy\": 479.5},"
    " \"distortion\": [-0.1, 0.05, 0, 0, 0],"
    " \"board_pose\": {\"rotation\": [1, 0, 0, 0, -1, 0, 0, 0, -1], \"translation_mm\": [-350, 250, 1400]}}";

/* GOOD_V1 with the first occurrence of `from` replaced by `to`. */
static void variant(const char *from, const char *to, char *out, size_t cap)
{
    const char *p = strstr(GOOD_V1, from);
    cr_assert_not_null(p, "fixture lacks %s", from);
    snprintf(out, cap, "%.*s%s%s", (int)(p - GOOD_V1), GOOD_V1, to, p + strlen(from));
}

static int parse(const char *text, calib_file *c, base_error *err)
{
    cJSON *j = base_json_parse_string(text, "c.json", err);
    cr_assert_not_null(j, "%s", err->msg);
    int rc = calib_file_from_json(j, "c.json", c, err);
    cJSON_Delete(j);
    return rc;
}

static void expect_error(const char *text, const char *field)
{
    calib_file c;
    base_error err = {0};
    cr_expect_eq(parse(text, &c, &err), -1, "accepted a file with a bad %s", field);
    cr_expect(strstr(err.msg, "c.json") != NULL, "no file name in: %s", err.msg);
    cr_expect(strstr(err.msg, field) != NULL, "no '%s' in: %s", field, err.msg);
}

Test(calib, file_v1_still_reads)
{
    calib_file c;
    base_error err;
    cr_assert_eq(parse(GOOD_V1, &c, &err), 0, "%s", err.msg);
    cr_expect_eq(c.pose_missing, 0);
    cr_expect_eq(c.quality.present, 0);
    cr_expect_eq(c.projector.present, 0);
    /* Nothing of version 2 in it: written back as version 1. */
    cJSON *j = calib_file_to_json(&c);
    cr_expect_eq(cJSON_GetObjectItem(j, "version")->valueint, 1);
    cJSON_Delete(j);
}

Test(calib, file_bad_values_name_file_and_field)
{
    char t[2048];
    variant("\"version\": 1", "\"version\": 3", t, sizeof t);
    expect_error(t, "version");
    variant("\"version\": 1", "\"version\": 0", t, sizeof t);
    expect_error(t, "version");
    variant("\"fx\": 1100, ", "", t, sizeof t);
    expect_error(t, "fx");
    variant("\"fx\": 1100", "\"fx\": -1100", t, sizeof t);
    expect_error(t, "camera.fx");
    variant("\"fy\": 1100", "\"fy\": 0", t, sizeof t);
    expect_error(t, "camera.fy");
    variant("\"cx\": 639.5", "\"cx\": 5000", t, sizeof t);
    expect_error(t, "camera.cx");
    variant("[1, 0, 0, 0, -1, 0, 0, 0, -1]", "[1, 0, 0, 0, 0, 0, 0, 0, -1]", t, sizeof t);
    expect_error(t, "board_pose.rotation");
    variant("[1, 0, 0, 0, -1, 0, 0, 0, -1]", "[2, 0, 0, 0, -2, 0, 0, 0, -2]", t, sizeof t);
    expect_error(t, "board_pose.rotation");
    variant("[-0.1, 0.05, 0, 0, 0]", "[-0.1, 0.05, 0, 0]", t, sizeof t);
    expect_error(t, "distortion");
    variant("\"board_pose\"", "\"board_pos\"", t, sizeof t);
    expect_error(t, "board_pose");
}

Test(calib, file_v2_sections_round_trip_and_validate)
{
    mkdir_tmp();
    calib_file c;
    base_error err;
    cr_assert_eq(parse(GOOD_V1, &c, &err), 0, "%s", err.msg);
    c.quality.present = 1;
    c.quality.views = 14;
    c.quality.rms_px = 0.21;
    for (int i = 0; i < 9; i++)
        c.quality.std[i] = 0.1 * (i + 1);
    c.quality.table_distance_mm = 1400;
    c.quality.board_error_mm = 0.4;
    c.projector.present = 1;
    c.projector.width = 1280, c.projector.height = 800;
    const double H[9] = {1.61, 0.012, 95.3, -0.008, 1.58, 40.2, 1.3e-5, -2.1e-5, 1};
    memcpy(c.projector.H, H, sizeof H);
    c.projector.rms_mm = 0.31, c.projector.max_mm = 0.8, c.projector.points = 96;
    char path[512];
    snprintf(path, sizeof path, "%s/c2.json", dir);
    cr_assert_eq(calib_file_save(&c, path, &err), 0, "%s", err.msg);
    calib_file d;
    cr_assert_eq(calib_file_load(path, &d, &err), 0, "%s", err.msg);
    cr_expect_eq(d.quality.views, 14);
    cr_expect(fabs(d.quality.std[8] - 0.9) < 1e-6);
    cr_expect(fabs(d.quality.board_error_mm - 0.4) < 1e-9);
    for (int i = 0; i < 9; i++)
        cr_expect(fabs(d.projector.H[i] - H[i]) <= 1e-10 * fabs(H[i]), "H[%d]", i);
    cr_expect_eq(d.projector.width, 1280);

    /* A pose-less file: refused where a pose is needed, accepted where it is optional. */
    c.pose_missing = 1;
    cr_assert_eq(calib_file_save(&c, path, &err), 0, "%s", err.msg);
    cr_expect_eq(calib_file_load(path, &d, &err), -1);
    cr_expect(strstr(err.msg, "board_pose") && strstr(err.msg, path), "%s", err.msg);
    cr_expect_eq(calib_file_load_ex(path, CALIB_FILE_POSE_OPTIONAL, &d, &err), 0, "%s", err.msg);
    cr_expect_eq(d.pose_missing, 1);

    /* A singular projector mapping and a negative deviation are impossible values. */
    c.pose_missing = 0;
    memset(c.projector.H, 0, sizeof c.projector.H);
    c.projector.H[0] = 1, c.projector.H[3] = 2, c.projector.H[8] = 1; /* rank 2: the board onto a line */
    cr_expect_eq(calib_file_validate(&c, "c.json", &err), -1);
    cr_expect(strstr(err.msg, "projector.board_to_projector"), "%s", err.msg);
    memcpy(c.projector.H, H, sizeof H);
    c.quality.std[2] = -1;
    cr_expect_eq(calib_file_validate(&c, "c.json", &err), -1);
    cr_expect(strstr(err.msg, "camera_quality.std.cx"), "%s", err.msg);
    rm_tmp();
}

/* Through the binary: exit 2 and the file + field on stderr. */
static int run_cli(const char *args, char *err, size_t cap)
{
    char cmd[4096], errfile[300];
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", dir);
    snprintf(cmd, sizeof cmd, "'%s' %s 2>'%s' >/dev/null", vt_tableref_bin(), args, errfile);
    int st = vt_exit_status(system(cmd));
    FILE *f = fopen(errfile, "r");
    size_t k = f ? fread(err, 1, cap - 1, f) : 0;
    err[k] = '\0';
    if (f)
        fclose(f);
    return st;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(calib, cli_bad_calibration_file_exit_2)
{
    mkdir_tmp();
    char t[2048], path[512], args[2048], err[4096];
    snprintf(path, sizeof path, "%s/bad.json", dir);
    variant("\"fx\": 1100", "\"fx\": -5", t, sizeof t);
    write_text(path, t);
    snprintf(args, sizeof args, "calibrate board '%s/none.jpg' --calib '%s' --roster '%s/none.json'", dir, path, dir);
    cr_expect_eq(run_cli(args, err, sizeof err), 2);
    cr_expect(strstr(err, path) && strstr(err, "camera.fx"), "%s", err);

    variant("\"version\": 1", "\"version\": 7", t, sizeof t);
    write_text(path, t);
    snprintf(args, sizeof args, "calibrate projector --image '%s/none.jpg' --calib '%s'", dir, path);
    cr_expect_eq(run_cli(args, err, sizeof err), 2);
    cr_expect(strstr(err, path) && strstr(err, "version"), "%s", err);

    /* A layout file with a missing field. */
    snprintf(path, sizeof path, "%s/target.json", dir);
    write_text(path, "{\"format\": \"tableref-target\", \"version\": 1, \"kind\": \"apriltag-grid\","
                     " \"family\": \"tag36h11\", \"grid\": [4, 6], \"spacing_mm\": 10, \"first_id\": 300}");
    snprintf(args, sizeof args, "calibrate camera '%s/none.jpg' --target '%s' --out '%s/o.json'", dir, path, dir);
    cr_expect_eq(run_cli(args, err, sizeof err), 2);
    cr_expect(strstr(err, path) && strstr(err, "tag_size_mm"), "%s", err);

    /* A chessboard given without its square size. */
    snprintf(args, sizeof args, "calibrate camera '%s/none.jpg' --chessboard 9x6 --out '%s/o.json'", dir, dir);
    cr_expect_eq(run_cli(args, err, sizeof err), 2);
    cr_expect(strstr(err, "square_mm"), "%s", err);
    rm_tmp();
}

Test(calib, target_layout_round_trip)
{
    mkdir_tmp();
    calib_target t, u;
    base_error err;
    calib_target_tags_default(&t);
    cr_assert_eq(calib_target_fit_page(&t, 210, 297, 15, &err), 0, "%s", err.msg);
    cr_expect_eq(t.cols, 4);
    cr_expect_eq(t.rows, 6);
    char path[512];
    snprintf(path, sizeof path, "%s/t.json", dir);
    cr_assert_eq(calib_target_save(&t, path, &err), 0, "%s", err.msg);
    cr_assert_eq(calib_target_load(path, &u, &err), 0, "%s", err.msg);
    cr_expect_eq(u.cols, t.cols);
    cr_expect_eq(u.first_id, t.first_id);
    cr_expect(fabs(u.origin_mm[0] - t.origin_mm[0]) < 1e-3);
    /* Tags too close for their white borders. */
    t.spacing_mm = 2;
    cr_expect_eq(calib_target_validate(&t, "t.json", &err), -1);
    cr_expect(strstr(err.msg, "spacing_mm"), "%s", err.msg);
    rm_tmp();
}

/* Issue 18: the projector section's optional fields (position, loop latency, brightness, made_with). */
Test(calib, file_projector_extras_round_trip_old_sections_still_read)
{
    mkdir_tmp();
    calib_file c, d;
    base_error err = {0};
    cr_assert_eq(parse(GOOD_V1, &c, &err), 0, "%s", err.msg);
    c.projector.present = 1;
    c.projector.width = 1920, c.projector.height = 1080;
    const double H[9] = {1.61, 0.012, 95.3, -0.008, 1.58, 40.2, 1.3e-5, -2.1e-5, 1};
    memcpy(c.projector.H, H, sizeof H);
    char path[512];
    snprintf(path, sizeof path, "%s/p.json", dir);
    /* An older section: none of the new fields; they read as absent. */
    cr_assert_eq(calib_file_save(&c, path, &err), 0, "%s", err.msg);
    cr_assert_eq(calib_file_load(path, &d, &err), 0, "%s", err.msg);
    cr_expect(!d.projector.position_present && !d.projector.latency_present && !d.projector.made_with_present);
    cr_expect_eq(d.projector.brightness_ratio, 0);
    c.projector.position_present = 1;
    c.projector.position_mm[0] = 915.5, c.projector.position_mm[1] = -300, c.projector.position_mm[2] = 2100;
    c.projector.latency_present = 1, c.projector.latency_frames = 3, c.projector.latency_ms = 100;
    c.projector.brightness_ratio = 2.5;
    calib_file_projector_stamp(&c);
    cr_assert_eq(calib_file_save(&c, path, &err), 0, "%s", err.msg);
    cr_assert_eq(calib_file_load(path, &d, &err), 0, "%s", err.msg);
    cr_expect_eq(d.projector.position_present, 1);
    cr_expect_float_eq(d.projector.position_mm[2], 2100, 1e-9);
    cr_expect_float_eq(d.projector.latency_frames, 3, 1e-9);
    cr_expect_float_eq(d.projector.latency_ms, 100, 1e-9);
    cr_expect_float_eq(d.projector.brightness_ratio, 2.5, 1e-9);
    cr_expect_eq(d.projector.made_with_present, 1);
    cr_expect_eq(d.projector.made_width, 1280);
    cr_expect_float_eq(d.projector.made_t[2], 1400, 1e-9);
    cr_expect_eq(calib_file_projector_stale(&d, 0, 0, 700, 500, NULL, 0), CALIB_PROJ_OK);
    /* Impossible values name the field. */
    char bad[2048];
    cJSON *j = calib_file_to_json(&c);
    cJSON *p = cJSON_GetObjectItem(j, "projector");
    cJSON_ReplaceItemInObject(p, "position_mm", cJSON_CreateDoubleArray((double[]){0, 0, -5}, 3));
    char *txt = cJSON_PrintUnformatted(j);
    snprintf(bad, sizeof bad, "%s", txt);
    free(txt);
    cr_expect_eq(parse(bad, &d, &err), -1);
    cr_expect(strstr(err.msg, "c.json") && strstr(err.msg, "projector.position_mm"), "%s", err.msg);
    cJSON_ReplaceItemInObject(p, "position_mm", cJSON_CreateDoubleArray((double[]){0, 0, 2000}, 3));
    cJSON_DeleteItemFromObject(p, "latency_ms");
    txt = cJSON_PrintUnformatted(j);
    snprintf(bad, sizeof bad, "%s", txt);
    free(txt);
    cr_expect_eq(parse(bad, &d, &err), -1);
    cr_expect(strstr(err.msg, "projector.latency_ms"), "%s", err.msg);
    cJSON_Delete(j);
    rm_tmp();
}

/* The staleness rule (calib_file.h, docs/formats.md). */
Test(calib, projector_stale_rule)
{
    calib_file c;
    base_error err = {0};
    char why[256];
    cr_assert_eq(parse(GOOD_V1, &c, &err), 0, "%s", err.msg);
    cr_expect_eq(calib_file_projector_stale(&c, 0, 0, 700, 500, why, sizeof why), CALIB_PROJ_MISSING);
    cr_expect(strstr(why, "calibrate projector"), "%s", why);
    c.projector.present = 1;
    c.projector.width = 1280, c.projector.height = 800;
    c.projector.H[0] = c.projector.H[4] = c.projector.H[8] = 1;
    cr_expect_eq(calib_file_projector_stale(&c, 0, 0, 700, 500, why, sizeof why), CALIB_PROJ_UNSTAMPED);
    calib_file_projector_stamp(&c);
    cr_expect_eq(calib_file_projector_stale(&c, 1280, 960, 700, 500, why, sizeof why), CALIB_PROJ_OK, "%s", why);
    /* Frames of another size than the projector was calibrated through. */
    cr_expect_eq(calib_file_projector_stale(&c, 1920, 1080, 700, 500, why, sizeof why), CALIB_PROJ_STALE_SIZE);
    cr_expect(strstr(why, "1280x960") && strstr(why, "1920x1080"), "%s", why);
    /* The camera's board pose re-measured after the projector: 0.5 mm is the same pose, 1.5 mm is not. */
    c.t[0] += 0.5;
    cr_expect_eq(calib_file_projector_stale(&c, 0, 0, 700, 500, why, sizeof why), CALIB_PROJ_OK, "%s", why);
    c.t[0] += 1.0;
    cr_expect_eq(calib_file_projector_stale(&c, 0, 0, 700, 500, why, sizeof why), CALIB_PROJ_STALE_POSE);
    cr_expect(strstr(why, "1.5 mm") && strstr(why, "board_pose"), "%s", why);
    /* A turn of 0.2 degrees moves the board's far corner by ~3 mm. */
    c.t[0] -= 1.5;
    double a = 0.2 * 3.14159265358979323846 / 180, R0[9];
    memcpy(R0, c.R, sizeof R0);
    for (int i = 0; i < 3; i++) {
        c.R[3 * i] = cos(a) * R0[3 * i] - sin(a) * R0[3 * i + 1];
        c.R[3 * i + 1] = sin(a) * R0[3 * i] + cos(a) * R0[3 * i + 1];
    }
    cr_expect_eq(calib_file_projector_stale(&c, 0, 0, 700, 500, why, sizeof why), CALIB_PROJ_STALE_POSE, "%s", why);
}

/* `referee --projector P`: a calibration without a projector section, or a stale one, exits 2 naming P. */
Test(calib, referee_projector_missing_or_stale_refused, .timeout = 120)
{
    mkdir_tmp();
    char calib[512], proj[512], args[4096], err[4096];
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    snprintf(calib, sizeof calib, "%s/datasets/demo/calib.json", root);
    calib_file c;
    base_error e = {0};
    cr_assert_eq(calib_file_load(calib, &c, &e), 0, "%s", e.msg);
    snprintf(proj, sizeof proj, "%s/proj.json", dir);
#define REFEREE(out)                                                                                                   \
    snprintf(args, sizeof args,                                                                                        \
             "referee '%s/datasets/demo/before.jpg' '%s/datasets/demo/after.jpg' --calib '%s' --roster "               \
             "'%s/datasets/demo/roster.json' --projector '%s' --out '%s/%s'",                                          \
             root, root, calib, root, proj, dir, out)
    /* No projector section. */
    cr_assert_eq(calib_file_save(&c, proj, &e), 0, "%s", e.msg);
    REFEREE("a");
    cr_expect_eq(run_cli(args, err, sizeof err), 2, "%s", err);
    cr_expect(strstr(err, proj) && strstr(err, "projector: missing"), "%s", err);
    /* Made through another board pose (the board re-measured 3 mm away since). */
    c.projector.present = 1;
    c.projector.width = 1280, c.projector.height = 800;
    const double H[9] = {1.7, 0, 40, 0, -1.7, 830, 0, 0, 1};
    memcpy(c.projector.H, H, sizeof H);
    calib_file_projector_stamp(&c);
    c.projector.made_t[1] += 3;
    cr_assert_eq(calib_file_save(&c, proj, &e), 0, "%s", e.msg);
    REFEREE("b");
    cr_expect_eq(run_cli(args, err, sizeof err), 2, "%s", err);
    cr_expect(strstr(err, proj) && strstr(err, "stale"), "%s", err);
    char out[600];
    snprintf(out, sizeof out, "%s/b", dir);
    cr_expect_neq(access(out, F_OK), 0, "nothing is written on refusal");
    /* Fresh: the demo's illegal call (exit 1), the projector picture written. */
    calib_file_projector_stamp(&c);
    cr_assert_eq(calib_file_save(&c, proj, &e), 0, "%s", e.msg);
    REFEREE("c");
    cr_expect_eq(run_cli(args, err, sizeof err), 1, "%s", err);
    snprintf(out, sizeof out, "%s/c/projector.png", dir);
    cr_expect_eq(access(out, F_OK), 0);
#undef REFEREE
    rm_tmp();
}

/* `watch --projector` does not start without a fresh projector section. */
Test(calib, watch_projector_missing_or_stale_refused, .timeout = 60)
{
    mkdir_tmp();
    char calib[512], args[4096], err[4096];
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    snprintf(calib, sizeof calib, "%s/c.json", dir);
    calib_file c;
    base_error e = {0};
    char demo[512];
    snprintf(demo, sizeof demo, "%s/datasets/demo/calib.json", root);
    cr_assert_eq(calib_file_load(demo, &c, &e), 0, "%s", e.msg);
    cr_assert_eq(calib_file_save(&c, calib, &e), 0, "%s", e.msg);
    snprintf(args, sizeof args,
             "watch --source '%s/datasets/demo' --calib '%s' --roster '%s/datasets/demo/roster.json' --projector "
             "--quiet </dev/null",
             root, calib, root);
    cr_expect_eq(run_cli(args, err, sizeof err), 2, "%s", err);
    cr_expect(strstr(err, calib) && strstr(err, "no projector section"), "%s", err);
    c.projector.present = 1;
    c.projector.width = 1280, c.projector.height = 800;
    const double H[9] = {1.7, 0, 40, 0, -1.7, 830, 0, 0, 1};
    memcpy(c.projector.H, H, sizeof H);
    calib_file_projector_stamp(&c);
    c.projector.made_width = 640; /* calibrated through another camera size */
    cr_assert_eq(calib_file_save(&c, calib, &e), 0, "%s", e.msg);
    cr_expect_eq(run_cli(args, err, sizeof err), 2, "%s", err);
    cr_expect(strstr(err, calib) && strstr(err, "stale"), "%s", err);
    rm_tmp();
}
