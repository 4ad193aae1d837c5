/*
 * Bad pictures through every command that reads one (issue 10): tags,
 * detect, referee, calibrate camera / board / projector and watch. Each
 * refuses a tiny picture, a picture claiming 400 MP and a JPEG cut in half
 * with exit status 2 and the same message naming the file. Before the
 * checked loader, a 1x1 picture crashed apriltag, the 400 MP claim was
 * decoded (4 GB, exit 0) and `referee` judged a cut after-picture as "no
 * unit moved" (exit 0).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "fixture_demo.h"
#include "image_test_util.h"
#include "vision_test_util.h"

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("faults"));
}

static void teardown(void)
{
    cr_expect_eq(fxd_scratch_remove(), 0);
}

TestSuite(faults, .init = setup, .fini = teardown, .timeout = 240);

/* The three bad pictures, made in the scratch folder, and the message each gets after "PATH: ". */
typedef struct bad_picture {
    char path[128];
    const char *message;
} bad_picture;

static void make_bad(bad_picture bad[3])
{
    snprintf(bad[0].path, sizeof bad[0].path, "%s/one.png", fxd_dir());
    cr_assert_eq(it_write_flat(bad[0].path, 1, 1, 128), 0);
    bad[0].message = "1 x 1 px is too small: a picture must be at least 10 x 10 px";
    snprintf(bad[1].path, sizeof bad[1].path, "%s/bomb.png", fxd_dir());
    cr_assert_eq(it_write_png_header_only(bad[1].path, 20000, 20000), 0);
    bad[1].message = "20000 x 20000 px = 400000000 px is over the cap of 100000000 px, refused before decoding; "
                     "if the picture is real, raise the cap with --max-pixels 400000000";
    /* The demo's after picture cut in half, an end marker appended. */
    char src[1024];
    snprintf(src, sizeof src, "%s/datasets/demo/after.jpg", vt_source_root());
    size_t n;
    free(it_read(src, &n));
    static const uint8_t eoi[2] = {0xFF, 0xD9};
    snprintf(bad[2].path, sizeof bad[2].path, "%s/cut.jpg", fxd_dir());
    cr_assert_eq(it_write_cut(src, bad[2].path, (long)n / 2, eoi, 2), 0);
    bad[2].message = "corrupt or truncated JPEG: Corrupt JPEG data: premature end of data segment";
}

/* The command lines that read one picture; %1$s is the picture, %2$s the demo folder, %3$s a scratch folder. */
static const struct {
    const char *name;
    const char *args;
} commands[] = {
    {"tags", "tags '%1$s'"},
    {"detect", "detect '%1$s' --calib '%2$s/calib.json' --roster '%2$s/roster.json'"},
    {"referee", "referee '%2$s/before.jpg' '%1$s' --calib '%2$s/calib.json' --roster '%2$s/roster.json' --out '%3$s/ref'"},
    {"calibrate camera", "calibrate camera '%1$s' --chessboard 9x6 --square-mm 25 --out '%3$s/cam.json'"},
    {"calibrate board", "calibrate board '%1$s' --calib '%2$s/calib.json' --roster '%2$s/roster.json' --out '%3$s/b.json'"},
    {"calibrate projector", "calibrate projector --calib '%2$s/calib.json' --image '%1$s' --out '%3$s/p.json'"},
};

static void run(const char *fmt, const char *picture, cli_result *r)
{
    char demo[1024], args[4096];
    snprintf(demo, sizeof demo, "%s/datasets/demo", vt_source_root());
    snprintf(args, sizeof args, fmt, picture, demo, fxd_dir());
    cr_assert_eq(cli_run(args, r), 0, "could not run: %s", args);
}

Test(faults, every_command_refuses_the_same_bad_pictures_with_the_same_message)
{
    bad_picture bad[3];
    make_bad(bad);
    for (size_t b = 0; b < 3; b++)
        for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
            static cli_result r;
            run(commands[c].args, bad[b].path, &r);
            char want[700];
            snprintf(want, sizeof want, "tableref %s: %s: %s\n", commands[c].name, bad[b].path, bad[b].message);
            cr_expect_eq(r.status, 2, "%s on %s: exit %d (%s)", commands[c].name, bad[b].path, r.status, r.err);
            cr_expect(strstr(r.err, want), "%s on %s:\n  got  '%s'\n  want '%s'", commands[c].name, bad[b].path,
                      r.err, want);
        }
    /* referee wrote nothing: a bad input leaves the output folder alone. */
    char out[200];
    struct stat st;
    snprintf(out, sizeof out, "%s/ref/report.json", fxd_dir());
    cr_expect_neq(stat(out, &st), 0, "referee wrote %s from a bad picture", out);
}

Test(faults, a_calibration_for_a_1x1_camera_is_refused)
{
    char calib[200], text[4096], demo[1024];
    snprintf(demo, sizeof demo, "%s/datasets/demo/calib.json", vt_source_root());
    size_t n;
    char *c = (char *)it_read(demo, &n);
    cr_assert(c);
    c = realloc(c, n + 1);
    c[n] = 0;
    char *size = strstr(c, "\"image_size\"");
    cr_assert(size);
    char *end = strchr(size, ']');
    snprintf(text, sizeof text, "%.*s\"image_size\": [1, 1%s", (int)(size - c), c, end);
    free(c);
    snprintf(calib, sizeof calib, "%s/tiny-calib.json", fxd_dir());
    cr_assert_eq(it_write(calib, (const uint8_t *)text, strlen(text)), 0);
    bad_picture bad[3];
    make_bad(bad);
    static const char *fmts[] = {"detect '%1$s' --calib '%3$s/tiny-calib.json' --roster '%2$s/roster.json'",
                                 "referee '%1$s' '%1$s' --calib '%3$s/tiny-calib.json' --roster '%2$s/roster.json' "
                                 "--out '%3$s/ref'"};
    for (int i = 0; i < 2; i++) {
        static cli_result r;
        run(fmts[i], bad[0].path, &r);
        cr_expect_eq(r.status, 2, "%s", r.err);
        cr_expect(strstr(r.err, "tiny-calib.json: image_size: expected two whole numbers of pixels, 10 to 100000"),
                  "%s", r.err);
    }
}

Test(faults, max_pixels_moves_the_cap_for_every_command)
{
    char demo[1024], args[4096];
    snprintf(demo, sizeof demo, "%s/datasets/demo", vt_source_root());
    static cli_result r;
    snprintf(args, sizeof args, "tags '%s/after.jpg' --max-pixels 1000000", demo);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "1280 x 960 px = 1228800 px is over the cap of 1000000 px"), "%s", r.err);
    snprintf(args, sizeof args, "tags --max-pixels=1228800 '%s/after.jpg'", demo);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_expect_eq(r.status, 0, "exactly at the cap: %s", r.err);
    snprintf(args, sizeof args, "detect '%1$s/after.jpg' --calib '%1$s/calib.json' --roster '%1$s/roster.json' "
                                "--max-pixels 1000000", demo);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_assert_eq(cli_run("tags x.png --max-pixels lots", &r), 0);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "--max-pixels: expected a whole number of pixels >= 1, got 'lots'"), "%s", r.err);
}

/* watch on an image sequence: a frame of a size no camera gives is bad input (2); a frame cut short is a camera
 * dying mid-write (3). Either way the message names the frame. */
Test(faults, watch_refuses_a_bad_frame_with_its_name)
{
    bad_picture bad[3];
    make_bad(bad);
    static const int want[3] = {2, 2, 3};
    for (int b = 0; b < 3; b++) {
        char frames[200], cmd[4096], demo[1024];
        snprintf(demo, sizeof demo, "%s/datasets/demo", vt_source_root());
        snprintf(frames, sizeof frames, "%s/frames%d", fxd_dir(), b);
        mkdir(frames, 0700);
        snprintf(cmd, sizeof cmd, "cp '%s' '%s/000000%s'", bad[b].path, frames, strrchr(bad[b].path, '.'));
        cr_assert_eq(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "watch --source '%s' --calib '%s/calib.json' --roster '%s/roster.json' --quiet",
                 frames, demo, demo);
        static cli_result r;
        cr_assert_eq(cli_run(cmd, &r), 0);
        cr_expect_eq(r.status, want[b], "%s: exit %d: %s", bad[b].path, r.status, r.err);
        /* Bad input is an error on stderr; a lost camera is an alert (stdout) too. */
        cr_expect(strstr(r.err, bad[b].message) || strstr(r.out, bad[b].message), "%s: %s%s", bad[b].path, r.err,
                  r.out);
    }
}

/* A misspelt roster key ("march" for "march_in") used to be ignored: the unit's March became an Advance. */
Test(faults, detect_refuses_a_misspelt_or_repeated_roster_entry)
{
    char demo[1024], path[1100], args[4096];
    snprintf(demo, sizeof demo, "%s/datasets/demo", vt_source_root());
    snprintf(path, sizeof path, "%s/roster.json", demo);
    size_t n;
    char *text = (char *)it_read(path, &n);
    cr_assert(text);
    text = realloc(text, n + 1);
    text[n] = 0;
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"\"march_in\"", "\"march\"", "roster.json: units[0].march: unknown field; did you mean \"march_in\"?"},
        {"\"spears-2\"", "\"spears-1\"", "roster.json: units[0].models[1].id: \"spears-1\" is also units[0].models[0].id"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *at = strstr(text, cases[i].from);
        cr_assert(at, "the demo roster has %s", cases[i].from);
        char out[8192];
        snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, cases[i].to, at + strlen(cases[i].from));
        char bad[200];
        snprintf(bad, sizeof bad, "%s/roster.json", fxd_dir());
        cr_assert_eq(it_write(bad, (const uint8_t *)out, strlen(out)), 0);
        snprintf(args, sizeof args, "detect '%1$s/after.jpg' --calib '%1$s/calib.json' --roster '%2$s'", demo, bad);
        static cli_result r;
        cr_assert_eq(cli_run(args, &r), 0);
        cr_expect_eq(r.status, 2, "%s", r.err);
        cr_expect(strstr(r.err, cases[i].want), "%s", r.err);
    }
    free(text);
}
