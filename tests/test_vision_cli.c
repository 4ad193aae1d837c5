/*
 * `tableref detect` and `render` from the outside (TABLEREF_BIN), and the
 * calibration file's error messages. Bad input must give exit status 2 and
 * a message naming the file (and field), never a crash.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib_file.h"
#include "rules_json.h"
#include "vision_test_util.h"

static char dir[256];

/* One small rendered table per test process, in a private temp folder. */
static void setup_scene(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-vtest-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' render --generate small --out '%s' >/dev/null", vt_tableref_bin(), dir);
    cr_assert_eq(vt_exit_status(system(cmd)), 0, "render failed");
}

static void teardown_scene(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

/* Runs a shell command; returns its exit status and the first 4 KB of stderr. */
static int run(const char *cmd, char *err, size_t cap)
{
    char full[3000], errfile[300];
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", dir);
    snprintf(full, sizeof full, "%s 2>'%s' >/dev/null", cmd, errfile);
    int st = vt_exit_status(system(full));
    FILE *f = fopen(errfile, "r");
    size_t k = f ? fread(err, 1, cap - 1, f) : 0;
    err[k] = '\0';
    if (f)
        fclose(f);
    return st;
}

static int detect_with(const char *image, const char *calib, char *err, size_t cap)
{
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "'%s' detect '%s' --calib '%s' --roster '%s/roster.json' --out '%s/out.json'",
             vt_tableref_bin(), image, calib, dir, dir);
    return run(cmd, err, cap);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fwrite(data, 1, n, f);
    fclose(f);
}

TestSuite(vision_cli, .init = setup_scene, .fini = teardown_scene);

Test(vision_cli, detect_writes_a_snapshot_with_truth_errors)
{
    char cmd[2000], err[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' detect '%s/image.jpg' --calib '%s/calib.json' --roster '%s/roster.json' --out '%s/out.json' "
             "--truth '%s/truth.json'",
             vt_tableref_bin(), dir, dir, dir, dir, dir);
    cr_assert_eq(run(cmd, err, sizeof err), 0, "%s", err);
    char path[512];
    snprintf(path, sizeof path, "%s/out.json", dir);
    base_error e;
    rules_snapshot *s = rules_json_load_snapshot(path, &e);
    cr_assert_not_null(s, "%s", e.msg);
    cr_expect_eq(s->n_units, 4);
    rules_snapshot_free(s);
}

static void expect_bad_image(const char *name, const void *bytes, size_t n, const char *why)
{
    char path[512], calib[512], err[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(calib, sizeof calib, "%s/calib.json", dir);
    write_file(path, bytes, n);
    cr_expect_eq(detect_with(path, calib, err, sizeof err), 2, "%s: %s", name, err);
    cr_expect_not_null(strstr(err, name), "message does not name the file: %s", err);
    cr_expect_not_null(strstr(err, why), "message does not say '%s': %s", why, err);
}

Test(vision_cli, empty_image_is_bad_input) { expect_bad_image("empty.jpg", "", 0, "empty"); }

Test(vision_cli, corrupt_image_is_bad_input)
{
    /* A JPEG header and end marker around garbage. */
    unsigned char junk[600];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 37 + 11);
    junk[0] = 0xFF, junk[1] = 0xD8, junk[2] = 0xFF, junk[598] = 0xFF, junk[599] = 0xD9;
    expect_bad_image("corrupt.jpg", junk, sizeof junk, "corrupt");
}

Test(vision_cli, truncated_image_is_bad_input)
{
    char path[512];
    snprintf(path, sizeof path, "%s/image.jpg", dir);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    cr_assert_gt(n, 1000);
    expect_bad_image("truncated.jpg", buf, n / 2, "truncated");
}

Test(vision_cli, text_file_is_bad_input) { expect_bad_image("notes.png", "hello\n", 6, "not a JPEG or PNG"); }

/* Writes calib.json with one edit and expects exit 2 naming the file and `field`. */
static void expect_bad_calib(const char *name, const char *from, const char *to, const char *field)
{
    char src[512], dst[512], err[4096], image[512];
    snprintf(src, sizeof src, "%s/calib.json", dir);
    snprintf(dst, sizeof dst, "%s/%s", dir, name);
    snprintf(image, sizeof image, "%s/image.jpg", dir);
    FILE *f = fopen(src, "r");
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *at = strstr(text, from);
    cr_assert_not_null(at, "'%s' not in calib.json", from);
    static char out[70000];
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    write_file(dst, out, strlen(out));
    cr_expect_eq(detect_with(image, dst, err, sizeof err), 2, "%s", err);
    cr_expect_not_null(strstr(err, name), "message does not name the file: %s", err);
    cr_expect_not_null(strstr(err, field), "message does not name '%s': %s", field, err);
}

Test(vision_cli, calib_missing_field_is_bad_input) { expect_bad_calib("nofx.json", "\"fx\"", "\"fx_typo\"", "fx"); }
Test(vision_cli, calib_unknown_version_is_bad_input)
{
    expect_bad_calib("v9.json", "\"version\":\t1", "\"version\":\t9", "version");
}
Test(vision_cli, calib_negative_focal_is_bad_input)
{
    expect_bad_calib("negfx.json", "\"fx\":\t", "\"fx\":\t-", "fx");
}

Test(vision_cli, help_for_every_vision_command)
{
    const char *cmds[] = {"tags", "detect", "render", "bench vision"};
    for (size_t i = 0; i < 4; i++) {
        char cmd[600], err[4096];
        snprintf(cmd, sizeof cmd, "'%s' %s --help", vt_tableref_bin(), cmds[i]);
        cr_expect_eq(run(cmd, err, sizeof err), 0, "%s --help", cmds[i]);
    }
}

Test(vision_cli, detect_without_roster_is_usage_error)
{
    char cmd[600], err[4096];
    snprintf(cmd, sizeof cmd, "'%s' detect '%s/image.jpg' --calib '%s/calib.json'", vt_tableref_bin(), dir, dir);
    cr_expect_eq(run(cmd, err, sizeof err), 2);
}

/* The calibration reader on its own: a singular pose is refused by name. */
Test(vision_cli, calib_singular_pose_rejected)
{
    const char *text = "{\"format\": \"tableref-calibration\", \"version\": 1, \"image_size\": [640, 480],"
                       " \"camera\": {\"fx\": 500, \"fy\": 500, \"cx\": 320, \"cy\": 240},"
                       " \"distortion\": [0, 0, 0, 0, 0],"
                       " \"board_pose\": {\"rotation\": [1, 0, 0, 0, 1, 0, 0, 0, 0], \"translation_mm\": [0, 0, 1000]}}";
    base_error err;
    cJSON *j = base_json_parse_string(text, "s.json", &err);
    cr_assert_not_null(j);
    calib_file c;
    cr_expect_eq(calib_file_from_json(j, "s.json", &c, &err), -1);
    cr_expect_not_null(strstr(err.msg, "s.json: board_pose.rotation"), "%s", err.msg);
    cJSON_Delete(j);
}
