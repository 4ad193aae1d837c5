/*
 * `tableref referee` from the outside: on the bundled demo's rendered
 * pictures it must reach the verdict `tableref check` reaches on the
 * pictures' ground-truth snapshots (same legal flag, same violation codes,
 * same models), write every output asked for (report.png only with --png or
 * --report-dpi, report.svg only with --svg, projector.png only for a known projector), and refuse bad input with exit status 2
 * without touching what an earlier run wrote. The camera picture's shrinking by whole blocks against its mean.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_error.h"
#include "base_image.h"
#include "base_json.h"
#include "cvshim.h"
#include "media.h"
#include "media_image_read.h"
#include "rules_json.h"
#include "vision_test_util.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-reftest-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

static void png_size(const char *path, int *w, int *h);

static const char *demo(const char *name)
{
    static char buf[8][1024];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/datasets/demo/%s", vt_source_root(), name);
    return buf[k];
}

/* Runs a command with stderr kept in dir/stderr.txt; returns the exit status. */
static int run(const char *cmd, char *err, size_t cap)
{
    char full[4096], errfile[300];
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", dir);
    snprintf(full, sizeof full, "%s 2>'%s' >/dev/null", cmd, errfile);
    int st = vt_exit_status(system(full));
    if (err) {
        err[0] = 0;
        FILE *f = fopen(errfile, "r");
        if (f) {
            size_t n = fread(err, 1, cap - 1, f);
            err[n] = 0;
            fclose(f);
        }
    }
    return st;
}

static int referee(const char *before, const char *after, const char *calib, const char *out, const char *extra,
                   char *err, size_t cap)
{
    char cmd[3000];
    snprintf(cmd, sizeof cmd, "'%s' referee '%s' '%s' --calib '%s' --roster '%s' --out '%s' %s", vt_tableref_bin(),
             before, after, calib, demo("roster.json"), out, extra ? extra : "");
    return run(cmd, err, cap);
}

/* "CODE:model,model;CODE:..." per unit, in report order: what must agree. */
static void verdict_key(const cJSON *report, const char *unit, char *out, size_t cap)
{
    out[0] = 0;
    const cJSON *u;
    cJSON_ArrayForEach(u, cJSON_GetObjectItem(report, "units"))
    {
        if (strcmp(cJSON_GetObjectItem(u, "unit")->valuestring, unit) != 0)
            continue;
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "legal=%d;", cJSON_IsTrue(cJSON_GetObjectItem(u, "legal")));
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItem(u, "violations"))
        {
            l = strlen(out);
            snprintf(out + l, cap - l, "%s:", cJSON_GetObjectItem(v, "code")->valuestring);
            const cJSON *m;
            cJSON_ArrayForEach(m, cJSON_GetObjectItem(v, "models"))
            {
                l = strlen(out);
                snprintf(out + l, cap - l, "%s,", m->valuestring);
            }
            l = strlen(out);
            snprintf(out + l, cap - l, ";");
        }
    }
}

TestSuite(referee, .init = setup, .fini = teardown, .timeout = 120);

Test(referee, demo_agrees_with_check_on_the_ground_truth)
{
    char out[512], err[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    int st = referee(demo("before.jpg"), demo("after.jpg"), demo("calib.json"), out, NULL, err, sizeof err);
    cr_assert_eq(st, 1, "the demo turn has an illegal march: exit 1 (got %d): %s", st, err);

    char truth[512], cmd[3000];
    snprintf(truth, sizeof truth, "%s/truth.json", dir);
    snprintf(cmd, sizeof cmd, "'%s' check '%s' '%s' --out '%s'", vt_tableref_bin(), demo("before.json"),
             demo("after.json"), truth);
    cr_assert_eq(run(cmd, err, sizeof err), 1, "check on the truth: %s", err);

    char rp[600];
    snprintf(rp, sizeof rp, "%s/report.json", out);
    base_error e;
    cJSON *got = base_json_parse_file(rp, &e), *want = base_json_parse_file(truth, &e);
    cr_assert_not_null(got, "%s", e.msg);
    cr_assert_not_null(want, "%s", e.msg);
    cr_expect_eq(cJSON_IsTrue(cJSON_GetObjectItem(got, "legal")), cJSON_IsTrue(cJSON_GetObjectItem(want, "legal")));
    const char *units[] = {"spears", "knights"};
    for (size_t k = 0; k < 2; k++) {
        char a[1024], b[1024];
        verdict_key(got, units[k], a, sizeof a);
        verdict_key(want, units[k], b, sizeof b);
        cr_expect_str_eq(a, b, "unit %s: referee %s, check on the truth %s", units[k], a, b);
    }
    /* The illegal model is the one the wheel swings farthest. */
    char key[1024];
    verdict_key(got, "spears", key, sizeof key);
    cr_expect(strstr(key, "MU-MODEL-DIST:spears-7,") != NULL, "%s", key);

    /* The referee's additions: uncertainty per model and the detection notes. */
    const cJSON *ref = cJSON_GetObjectItem(got, "referee");
    cr_assert_not_null(ref);
    cr_expect_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(ref, "after"), "detection"));
    const cJSON *uu = cJSON_GetObjectItem(cJSON_GetObjectItem(ref, "uncertainty"), "units");
    cr_assert(cJSON_GetArraySize(uu) >= 2);
    const cJSON *m0 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(uu, 0), "models"), 0);
    cr_expect(cJSON_IsNumber(cJSON_GetObjectItem(m0, "distance_plusminus_mm")));
    cJSON_Delete(got);
    cJSON_Delete(want);

    /* Every picture, and the vector reports are what they claim. */
    const struct {
        const char *name, *magic;
        long min;
    } files[] = {{"camera.jpg", "\xff\xd8\xff", 50000}, {"report.pdf", "%PDF-", 5000},
                 {"before.json", "{", 500}, {"after.json", "{", 500}};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char p[700], head[16];
        snprintf(p, sizeof p, "%s/%s", out, files[k].name);
        long size = vt_file_head(p, head, sizeof head);
        cr_expect_gt(size, files[k].min, "%s: %ld bytes", files[k].name, size);
        cr_expect_eq(memcmp(head, files[k].magic, strlen(files[k].magic)), 0, "%s: wrong header", files[k].name);
    }
    /* The demo's calibration knows no projector: no projector.png; no report.png unless --png, no report.svg
     * unless --svg. */
    const char *absent[] = {"projector.png", "report.png", "report.svg"};
    for (size_t k = 0; k < 3; k++) {
        char p[700];
        snprintf(p, sizeof p, "%s/%s", out, absent[k]);
        cr_expect_neq(access(p, F_OK), 0, "%s written though not asked for", absent[k]);
    }
}

/* The referee's summary (stdout) of a run into dir/`name` with `extra` options: its exit status. */
static int referee_summary(const char *name, const char *extra, char *out, size_t cap)
{
    char cmd[3000], path[400], err[4096];
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    /* In a subshell: run() sends the command's own stdout to /dev/null. */
    snprintf(cmd, sizeof cmd, "('%s' referee '%s' '%s' --calib '%s' --roster '%s' --out '%s/%s' %s >'%s')",
             vt_tableref_bin(), demo("before.jpg"), demo("after.jpg"), demo("calib.json"), demo("roster.json"), dir,
             name, extra, path);
    int st = run(cmd, err, sizeof err);
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(out, 1, cap - 1, f);
        out[n] = 0;
        fclose(f);
    }
    return st;
}

/* report.png only with --png (or --report-dpi), report.svg only with --svg; projector.png only for a projector
 * known (--projector P, or the calibration's "projector" section): without them the summary says so. */
Test(referee, png_svg_and_projector_picture_only_when_asked)
{
    char text[8192], p[700], head[16];
    cr_assert_eq(referee_summary("plain", "", text, sizeof text), 1, "%s", text);
    cr_expect(strstr(text, "no projector calibrated: projector.png not written; --projector P") != NULL, "%s", text);
    cr_expect(strstr(text, "projector.png,") == NULL && strstr(text, "report.svg") == NULL, "%s", text);
    cr_expect(strstr(text, ",report.png") == NULL && strstr(text, "; report.png with --png") != NULL, "%s", text);
    snprintf(p, sizeof p, "%s/plain/report.pdf", dir);
    cr_expect_eq(access(p, F_OK), 0, "report.pdf always written");
    snprintf(p, sizeof p, "%s/plain/report.png", dir);
    cr_expect_neq(access(p, F_OK), 0, "report.png written without --png");

    /* The frame the referee once fitted over the demo's 700x500 mm board: 1.6 px/mm, centred in 1280x800. */
    char mapping[400];
    snprintf(mapping, sizeof mapping, "%s/projector.json", dir);
    FILE *f = fopen(mapping, "w");
    cr_assert_not_null(f);
    fputs("{\"width\": 1280, \"height\": 800, \"H\": [1.6, 0, 80, 0, -1.6, 800, 0, 0, 1]}\n", f);
    fclose(f);
    char extra[600];
    snprintf(extra, sizeof extra, "--svg --png --camera-png --projector '%s'", mapping);
    cr_assert_eq(referee_summary("asked", extra, text, sizeof text), 1, "%s", text);
    cr_expect(strstr(text, "no projector calibrated") == NULL, "%s", text);
    cr_expect(strstr(text, "projector.png") != NULL && strstr(text, "report.svg") != NULL, "%s", text);
    cr_expect(strstr(text, ",report.png") != NULL && strstr(text, "with --png") == NULL, "%s", text);
    snprintf(p, sizeof p, "%s/asked/report.png", dir);
    cr_expect_gt(vt_file_head(p, head, sizeof head), 20000, "report.png with --png");
    cr_expect_eq(memcmp(head, "\x89PNG", 4), 0, "report.png: wrong header");
    snprintf(p, sizeof p, "%s/asked/report.svg", dir);
    cr_expect_gt(vt_file_head(p, head, sizeof head), 10000, "report.svg with --svg");
    cr_expect_eq(memcmp(head, "<?xml", 5), 0, "report.svg: wrong header");
    snprintf(p, sizeof p, "%s/asked/projector.png", dir);
    cr_expect_gt(vt_file_head(p, head, sizeof head), 5000, "projector.png with --projector");
    cr_expect_eq(memcmp(head, "\x89PNG", 4), 0, "projector.png: wrong header");
    int w, h;
    png_size(p, &w, &h);
    cr_expect(w == 1280 && h == 800, "projector.png in the mapping's frame: %dx%d", w, h);

    /* The same folder judged again without them: the earlier call's PNG and SVG reports and projector picture
     * go, so the folder never shows this call's verdict beside the last one's pictures; what this call writes
     * stays. */
    cr_assert_eq(referee_summary("asked", "", text, sizeof text), 1, "%s", text);
    const char *gone[] = {"report.png", "report.svg", "projector.png", "camera.png"},
               *kept[] = {"camera.jpg", "report.pdf"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/asked/%s", dir, gone[i]);
        cr_expect_neq(access(p, F_OK), 0, "%s of the earlier call should be removed", gone[i]);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/asked/%s", dir, kept[i]);
        cr_expect_eq(access(p, F_OK), 0, "%s written", kept[i]);
    }
}

Test(referee, one_legal_unit_exits_0)
{
    char out[512], err[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    int st = referee(demo("before.jpg"), demo("after.jpg"), demo("calib.json"), out, "--unit knights", err,
                     sizeof err);
    cr_expect_eq(st, 0, "knights advanced legally (got %d): %s", st, err);
}

/* Bad input: exit 2, a message naming the file (and field), and the earlier report left as it was. */
static void expect_bad(const char *before, const char *after, const char *calib, const char *must_name)
{
    char out[512], err[4096], rp[600];
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_eq(mkdir(out, 0777) == 0 || access(out, F_OK) == 0, 1);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    FILE *f = fopen(rp, "w");
    cr_assert_not_null(f);
    fputs("{\"earlier\": true}\n", f);
    fclose(f);
    int st = referee(before, after, calib, out, NULL, err, sizeof err);
    cr_expect_eq(st, 2, "exit status %d: %s", st, err);
    cr_expect(strstr(err, must_name) != NULL, "the message should name '%s': %s", must_name, err);
    char head[32];
    cr_expect_eq(vt_file_head(rp, head, sizeof head), 18, "the earlier report.json must be untouched");
    cr_expect_eq(strncmp(head, "{\"earlier\"", 10), 0);
}

Test(referee, missing_image_is_bad_input)
{
    char missing[400];
    snprintf(missing, sizeof missing, "%s/nope.jpg", dir);
    expect_bad(demo("before.jpg"), missing, demo("calib.json"), "nope.jpg");
}

Test(referee, corrupt_image_is_bad_input)
{
    char bad[400];
    snprintf(bad, sizeof bad, "%s/corrupt.jpg", dir);
    FILE *f = fopen(bad, "wb");
    cr_assert_not_null(f);
    /* A JPEG header and then nothing: a truncated upload. */
    fwrite("\xFF\xD8\xFF\xE0\x00\x10JFIF\x00", 1, 11, f);
    fclose(f);
    expect_bad(bad, demo("after.jpg"), demo("calib.json"), "corrupt.jpg");
}

Test(referee, calibration_without_a_field_is_bad_input)
{
    char calib[400];
    snprintf(calib, sizeof calib, "%s/calib.json", dir);
    base_error e;
    cJSON *c = base_json_parse_file(demo("calib.json"), &e);
    cr_assert_not_null(c, "%s", e.msg);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(c, "camera"), "fx");
    cr_assert_eq(base_json_write_file(c, calib, &e), 0);
    cJSON_Delete(c);
    expect_bad(demo("before.jpg"), demo("after.jpg"), calib, "fx");
}

Test(referee, usage_errors_exit_2)
{
    char cmd[1024], err[4096];
    snprintf(cmd, sizeof cmd, "'%s' referee '%s'", vt_tableref_bin(), demo("before.jpg"));
    cr_expect_eq(run(cmd, err, sizeof err), 2);
    snprintf(cmd, sizeof cmd, "'%s' referee a.jpg b.jpg --calib c --roster r --out o --move sideways-ish",
             vt_tableref_bin());
    cr_expect_eq(run(cmd, err, sizeof err), 2);
    cr_expect(strstr(err, "--move") != NULL, "%s", err);
}

/* --reach: the unit's reach from the BEFORE picture drawn and written into report.json (referee.reach). */
Test(referee, reach_is_drawn_and_reported)
{
    char out[512], err[4096], rp[600];
    snprintf(out, sizeof out, "%s/out", dir);
    int st = referee(demo("before.jpg"), demo("after.jpg"), demo("calib.json"), out, "--reach knights", err,
                     sizeof err);
    cr_assert_eq(st, 1, "the spears' march stays illegal (got %d): %s", st, err);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    base_error e;
    cJSON *j = base_json_parse_file(rp, &e);
    cr_assert_not_null(j, "%s", e.msg);
    const cJSON *reach = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "referee"), "reach");
    cr_assert_not_null(reach, "referee.reach written");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(reach, "unit")), "knights");
    /* --move auto: the move judged (the knights advanced). */
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(reach, "move")), "advance");
    cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItem(reach, "facings")), 1);
    cJSON_Delete(j);
    /* A reform has no reach; an unknown unit is bad input naming it. */
    st = referee(demo("before.jpg"), demo("after.jpg"), demo("calib.json"), out, "--reach knights --move reform", err,
                 sizeof err);
    cr_expect_eq(st, 2, "%s", err);
    cr_expect(strstr(err, "--reach") != NULL, "%s", err);
    st = referee(demo("before.jpg"), demo("after.jpg"), demo("calib.json"), out, "--reach dragons", err, sizeof err);
    cr_expect_eq(st, 2, "%s", err);
    cr_expect(strstr(err, "dragons") != NULL, "the message names the unit: %s", err);
}

/* The demo picture `name` at twice its size (each pixel 2 x 2) into dir/`out`. */
static void twice_as_large(const char *name, const char *out)
{
    base_error e;
    base_image *im = media_image_load(demo(name), MEDIA_IMAGE_GRAY, &e);
    cr_assert_not_null(im, "%s", e.msg);
    base_image *big = base_image_new(2 * im->width, 2 * im->height, 1, 0);
    cr_assert_not_null(big);
    for (int y = 0; y < big->height; y++)
        for (int x = 0; x < big->width; x++)
            big->data[(size_t)y * big->stride + (size_t)x] = im->data[(size_t)(y / 2) * im->stride + (size_t)(x / 2)];
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, out);
    cr_assert_eq(media_image_save(big, path, 95, &e), 0, "%s", e.msg);
    base_image_free(big);
    base_image_free(im);
}

/* The width and height a PNG's header states (0 when it is not a PNG). */
/* A JPEG's size from its header (media_image_probe): 0 x 0 when it cannot be read. */
static void jpeg_size(const char *path, int *w, int *h)
{
    *w = *h = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    media_image_info info;
    base_error e;
    if (media_image_probe(buf, n, path, 0, &info, &e) == 0)
        *w = info.width, *h = info.height;
}

static void png_size(const char *path, int *w, int *h)
{
    unsigned char head[24] = {0};
    FILE *f = fopen(path, "rb");
    *w = *h = 0;
    if (!f)
        return;
    if (fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, "\x89PNG", 4) == 0) {
        *w = head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
        *h = head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
    }
    fclose(f);
}

/* A picture larger than a full-HD screen is drawn shrunk by the smallest whole factor that fits it (2560x1920 by 2),
 * written as camera.jpg; --camera-full draws it at its own size, --camera-png writes it as camera.png; report.png
 * (with --png) at 96 dpi, --report-dpi N asks for it at N. The demo pair at twice its size, the calibration scaled
 * alike. */
Test(referee, camera_picture_at_screen_size_unless_full)
{
    twice_as_large("before.jpg", "b2.jpg");
    twice_as_large("after.jpg", "a2.jpg");
    base_error e;
    cJSON *c = base_json_parse_file(demo("calib.json"), &e);
    cr_assert_not_null(c, "%s", e.msg);
    cJSON *size = cJSON_GetObjectItem(c, "image_size"), *cam = cJSON_GetObjectItem(c, "camera");
    for (int k = 0; k < 2; k++)
        cJSON_SetNumberValue(cJSON_GetArrayItem(size, k), 2 * cJSON_GetArrayItem(size, k)->valuedouble);
    const char *focal[] = {"fx", "fy"}, *centre[] = {"cx", "cy"};
    for (int k = 0; k < 2; k++) {
        cJSON *f = cJSON_GetObjectItem(cam, focal[k]), *p = cJSON_GetObjectItem(cam, centre[k]);
        cJSON_SetNumberValue(f, 2 * f->valuedouble);
        cJSON_SetNumberValue(p, 2 * (p->valuedouble + 0.5) - 0.5); /* pixel centres: (0, 0) is the first's */
    }
    char calib[600], pic[2][600], out[600], full[600], png[700], err[4096];
    snprintf(calib, sizeof calib, "%s/c2.json", dir);
    cr_assert_eq(base_json_write_file(c, calib, &e), 0, "%s", e.msg);
    cJSON_Delete(c);
    snprintf(pic[0], sizeof pic[0], "%s/b2.jpg", dir);
    snprintf(pic[1], sizeof pic[1], "%s/a2.jpg", dir);
    snprintf(out, sizeof out, "%s/screen", dir);
    snprintf(full, sizeof full, "%s/full", dir);
    int st = referee(pic[0], pic[1], calib, out, "--png", err, sizeof err);
    cr_assert(st == 0 || st == 1, "exit %d: %s", st, err);
    int w, h;
    snprintf(png, sizeof png, "%s/camera.jpg", out);
    jpeg_size(png, &w, &h);
    cr_expect(w == 1280 && h == 960, "camera.jpg of a 2560x1920 picture: %dx%d, expected 1280x960", w, h);
    /* report.png at 96 dpi: A4's 595 pt across are 794 px. */
    snprintf(png, sizeof png, "%s/report.png", out);
    png_size(png, &w, &h);
    cr_expect(w == 794, "report.png at 96 dpi: %d px across, expected 794", w);
    st = referee(pic[0], pic[1], calib, full, "--camera-full --camera-png --report-dpi 150", err, sizeof err);
    cr_assert(st == 0 || st == 1, "exit %d: %s", st, err);
    snprintf(png, sizeof png, "%s/camera.png", full);
    png_size(png, &w, &h);
    cr_expect(w == 2560 && h == 1920, "camera.png with --camera-full: %dx%d, expected 2560x1920", w, h);
    snprintf(png, sizeof png, "%s/camera.jpg", full);
    cr_expect(access(png, F_OK) != 0, "--camera-png writes camera.png instead of camera.jpg");
    snprintf(png, sizeof png, "%s/report.png", full);
    png_size(png, &w, &h);
    cr_expect(w == 1241, "report.png at --report-dpi 150: %d px across, expected 1241", w);
}

/* The camera picture's shrinking (cvs_image_downsample, its own loops since cv::resize cost the referee ~96 M
 * instructions): each output pixel the nearest of its whole f x f block's mean, the rows and columns past the last
 * whole block dropped; gray and colour, the sizes of a 12 MP frame's last block. Odd blocks have no exact halves;
 * 2 x 2 rounds them up (OpenCV's (sum + 2) >> 2), 4 x 4 to even (its float product, exact at 1/16). */
Test(referee, the_camera_picture_shrinks_by_whole_blocks_rounded_to_nearest)
{
    const int sizes[][2] = {{4056, 40}, {1001, 31}};
    for (size_t si = 0; si < 2; si++)
        for (int c = 1; c <= 3; c += 2)
            for (int f = 2; f <= 5; f++) {
                const int W = sizes[si][0], H = sizes[si][1] + f - 1;
                base_image *img = base_image_new(W, H, c, 0);
                cr_assert_not_null(img);
                uint32_t r = 12345u + (uint32_t)(f * 7 + c);
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W * c; x++)
                        r = r * 1664525u + 1013904223u, img->data[(size_t)y * img->stride + x] = (uint8_t)(r >> 24);
                base_error err = {0};
                base_image *out = cvs_image_downsample(img, f, &err);
                cr_assert_not_null(out, "%s", err.msg);
                cr_assert(out->width == W / f && out->height == H / f && out->channels == c, "%dx%dx%d", out->width,
                          out->height, out->channels);
                int wrong = 0;
                for (int y = 0; y < out->height; y++)
                    for (int x = 0; x < out->width; x++)
                        for (int ch = 0; ch < c; ch++) {
                            unsigned s = 0;
                            for (int j = 0; j < f; j++)
                                for (int i = 0; i < f; i++)
                                    s += img->data[(size_t)(y * f + j) * img->stride + (size_t)(x * f + i) * c + ch];
                            unsigned want = f == 2 ? (s + 2) / 4 : (unsigned)lrint((double)s / (f * f));
                            wrong += out->data[(size_t)y * out->stride + (size_t)x * c + ch] != want;
                        }
                cr_expect_eq(wrong, 0, "%d of %dx%dx%d pixels off (factor %d)", wrong, out->width, out->height, c, f);
                base_image_free(out);
                base_image_free(img);
            }
}
