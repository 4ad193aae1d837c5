/*
 * `tableref capture` from a file source (a folder of rendered target views,
 * the way a camera would see the printed target held around the frame): the
 * stills kept are the new views, the coverage map says where the target has
 * been, the kept stills calibrate the camera; frames of the wrong size and
 * board tags out of view are named. `tableref cameras` runs without a camera.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib_coverage.h"
#include "calib_target.h"
#include "cli_run.h"
#include "cvshim.h"
#include "ds_calibview.h"
#include "media.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-capture-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

/* The camera: 1280x960 with barrel distortion (as in the calibration suite). */
static void camera(calib_file *c)
{
    memset(c, 0, sizeof *c);
    c->width = 1280, c->height = 960;
    c->fx = 1100, c->fy = 1104, c->cx = 652.7, c->cy = 471.2;
    const double d[5] = {-0.14, 0.09, 0.0006, -0.0004, 0};
    memcpy(c->dist, d, sizeof d);
    c->pose_missing = 1;
}

/* n views of the default A4 target into DIR/views/view-II.jpg, view k repeated (a target held still). */
static void render_views(int n, int repeat)
{
    base_error err;
    calib_file cam;
    camera(&cam);
    calib_target t;
    calib_target_tags_default(&t);
    cr_assert_eq(calib_target_fit_page(&t, 210, 297, 15, &err), 0, "%s", err.msg);
    char path[512];
    snprintf(path, sizeof path, "%s/target.json", dir);
    cr_assert_eq(calib_target_save(&t, path, &err), 0, "%s", err.msg);
    const double k = 6.0;
    base_image *tex = calib_target_raster(&t, k, 3, &err);
    cr_assert_not_null(tex, "%s", err.msg);
    const double A[9] = {1 / k, 0, 0.5 / k - t.origin_mm[0], 0, 1 / k, 0.5 / k - t.origin_mm[1], 0, 0, 1};
    double ext[2];
    calib_target_extent(&t, ext);
    snprintf(path, sizeof path, "mkdir -p '%s/views'", dir);
    cr_assert_eq(system(path), 0);
    int out = 0;
    for (int i = 0; i < n; i++) {
        double R[9], tv[3];
        ds_calibview_pose(&cam, ext, i, n, 7, R, tv);
        cvs_effects fx = {0};
        fx.blur_sigma_px = 0.6, fx.noise_sigma = 1.5, fx.jpeg_quality = 95, fx.seed = 100 + (uint32_t)i;
        base_image *img = NULL;
        cr_assert_eq(ds_calibview_plane(&cam, R, tv, tex, A, 70, &fx, 2, &img, &err), 0, "%s", err.msg);
        for (int r = 0; r < (i == repeat ? 3 : 1); r++) {
            snprintf(path, sizeof path, "%s/views/view-%02d.jpg", dir, out++);
            cr_assert_eq(media_image_save(img, path, 95, &err), 0, "%s", err.msg);
        }
        base_image_free(img);
    }
    /* A frame with nothing in it: the target put down. */
    base_image *empty = base_image_new(1280, 960, 1, 90);
    snprintf(path, sizeof path, "%s/views/view-%02d.jpg", dir, out++);
    cr_assert_eq(media_image_save(empty, path, 95, &err), 0, "%s", err.msg);
    base_image_free(empty);
    base_image_free(tex);
}

static int count_files(const char *pattern)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls %s 2>/dev/null | wc -l", pattern);
    FILE *p = popen(cmd, "r");
    int n = -1;
    cr_assert_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

Test(capture, target_views_from_a_folder_are_kept_with_coverage, .init = setup, .fini = teardown, .timeout = 180)
{
    render_views(12, 4);
    char args[1024], pat[600];
    cli_result r;
    snprintf(args, sizeof args,
             "capture --source '%s/views' --for camera --target '%s/target.json' --out '%s/stills' --size 1280x960",
             dir, dir, dir);
    cr_assert_eq(cli_run(args, &r), 0);
    /* 12 distinct views, one held still for three frames, one empty frame: 12 stills kept. */
    cr_assert_eq(r.status, 1, "12 < the default 15 stills asked: short, and says so: %s%s", r.out, r.err);
    snprintf(pat, sizeof pat, "'%s'/stills/still-*.jpg", dir);
    cr_assert_eq(count_files(pat), 12, "%s", r.out);
    cr_assert(strstr(r.out, "still 1 of 15:") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "the target has been seen in") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "    |") != NULL, "a coverage map: %s", r.out);
    cr_assert(strstr(r.out, "coverage 12 of 12 parts") != NULL, "the views visit the whole frame: %s", r.out);
    /* The stills calibrate the camera. */
    snprintf(args, sizeof args, "calibrate camera '%s'/stills/still-*.jpg --target '%s/target.json' --out '%s/calib.json'",
             dir, dir, dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    /* Asking for fewer stops early; asking for another size is refused by name. */
    snprintf(args, sizeof args,
             "capture --source '%s/views' --for camera --target '%s/target.json' --out '%s/few' --count 4", dir, dir,
             dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1, "4 stills cannot cover the frame: short, and says where: %s%s", r.out, r.err);
    snprintf(pat, sizeof pat, "'%s'/few/still-*.jpg", dir);
    cr_assert_eq(count_files(pat), 4);
    cr_assert(strstr(r.out, "still to cover:") != NULL, "%s", r.out);
    snprintf(args, sizeof args,
             "capture --source '%s/views' --for camera --target '%s/target.json' --out '%s/x' --size 4056x3040", dir,
             dir, dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "delivers 1280x960 frames, not the 4056x3040 asked") != NULL, "%s", r.err);
}

Test(capture, board_tags_in_view_are_named, .init = setup, .fini = teardown, .timeout = 120)
{
    char args[1024];
    cli_result r;
    snprintf(args, sizeof args, "capture --table datasets/demo/table.json --for board --out '%s/b'", dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "4 of 4 board tags in view") != NULL, "%s", r.out);
    snprintf(args, sizeof args, "%s/b/board.jpg", dir);
    cr_assert_eq(access(args, F_OK), 0);
    /* A picture of the calibration target shows none of them. */
    render_views(1, -1);
    snprintf(args, sizeof args,
             "capture --source '%s/views/view-00.jpg' --roster datasets/demo/roster.json --for board --out '%s/nb'", dir,
             dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "board tags 0, 1, 2, 3 never seen") != NULL, "%s", r.out);
}

Test(capture, stills_and_missing_arguments, .init = setup, .fini = teardown, .timeout = 60)
{
    char args[1024];
    cli_result r;
    snprintf(args, sizeof args, "capture --source datasets/demo --out '%s/s' --count 2", dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "still 2 of 2") != NULL, "%s", r.out);
    cr_assert_eq(cli_run("capture --source datasets/demo --for camera --out /tmp/x", &r), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "missing --target TARGET.json") != NULL, "%s", r.err);
    cr_assert_eq(cli_run("capture --source v4l2:/dev/video99 --out /tmp/x", &r), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "list the cameras with `tableref cameras`") != NULL, "%s", r.err);
    cr_assert_eq(cli_run("cameras", &r), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "no camera found") != NULL || strstr(r.out, "v4l2:/dev/video") != NULL ||
                  strstr(r.out, "libcamera:") != NULL,
              "%s", r.out);
}

Test(capture, coverage_map_and_words)
{
    calib_coverage c;
    calib_coverage_init(&c, 1200, 900, 4, 3);
    const double corner[] = {10, 10, 290, 290};          /* the top-left part only */
    cr_assert_eq(calib_coverage_add(&c, corner, 2), 1);
    cr_assert_eq(calib_coverage_add(&c, corner, 2), 0, "nothing new");
    const double centre[] = {600, 450, 1199, 899, -5, 10}; /* a middle part, the bottom-right one, one off the frame */
    cr_assert_eq(calib_coverage_add(&c, centre, 3), 2);
    cr_assert_eq(calib_coverage_covered(&c), 3);
    char buf[512];
    calib_coverage_missing(&c, buf, sizeof buf);
    cr_assert(strstr(buf, "top right") != NULL && strstr(buf, "bottom left") != NULL, "%s", buf);
    cr_assert(strstr(buf, "top left") == NULL && strstr(buf, "bottom right") == NULL, "%s", buf);
    cr_assert_eq(c.stills, 3);
}
