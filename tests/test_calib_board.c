/*
 * Board pose from the reference tags (`calibrate board`) and the projector
 * mapping (`calibrate projector`), on rendered tables with exact truth: the
 * generated small scene (1280x960, four 30 mm reference tags, figures
 * standing on the bases) and a simulated projector whose picture is carried
 * onto the board and into the camera.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib_board.h"
#include "calib_projector.h"
#include "ds_calibview.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "vis_camera.h"
#include "vision_test_util.h"

/* Largest distance over the board's corners between where two poses put the same camera-frame point. */
static double pose_distance(const calib_file *a, const double R[9], const double t[3], double w, double d)
{
    const double X[4][2] = {{0, 0}, {w, 0}, {w, d}, {0, d}};
    double worst = 0;
    for (int k = 0; k < 4; k++) {
        double c[3], Y[3];
        for (int i = 0; i < 3; i++)
            c[i] = a->R[3 * i] * X[k][0] + a->R[3 * i + 1] * X[k][1] + a->t[i] - t[i];
        for (int i = 0; i < 3; i++)
            Y[i] = R[i] * c[0] + R[3 + i] * c[1] + R[6 + i] * c[2];
        worst = fmax(worst, sqrt((Y[0] - X[k][0]) * (Y[0] - X[k][0]) + (Y[1] - X[k][1]) * (Y[1] - X[k][1]) + Y[2] * Y[2]));
    }
    return worst;
}

static ds_scene *small_scene(base_image **img)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    ds_scene *s = ds_scene_generate(&g, &err);
    cr_assert_not_null(s, "%s", err.msg);
    ds_truth truth = {0};
    cr_assert_eq(ds_render(s->snapshot, s->roster, &s->calib, &s->render, img, &truth, &err), 0, "%s", err.msg);
    ds_truth_clear(&truth);
    return s;
}

Test(calib, board_pose_recovered_and_move_reported, .timeout = 60)
{
    base_image *img = NULL;
    ds_scene *s = small_scene(&img);
    base_error err;
    /* The stored pose is from before the board was pushed 6 mm along x. */
    calib_file old = s->calib;
    for (int i = 0; i < 3; i++)
        old.t[i] -= 6.0 * old.R[3 * i]; /* X_cam = R (X - 6 ex) + t: the board was 6 mm further along -x */
    calib_board_result br;
    cr_assert_eq(calib_board_measure(&old, s->roster, img, &br, &err), 0, "%s", err.msg);
    cr_expect_eq(br.n_tags, 4);
    const double W = s->roster->board_width, D = s->roster->board_depth;
    double err_mm = pose_distance(&s->calib, br.R, br.t, W, D);
    fprintf(stderr, "board: pose error %.3f mm at the board's corners, moved %.3f mm, residual %.3f mm RMS (%.3f px)\n",
            err_mm, br.moved_mm, br.rms_mm, br.rms_px);
    /* Tolerances: the pose within 1 mm at the board's corners, each tag's residual within 0.5 mm. */
    cr_expect(err_mm < 1.0, "pose error %.3f mm", err_mm);
    cr_expect(fabs(br.moved_mm - 6.0) < 1.0, "moved %.3f mm (truth 6)", br.moved_mm);
    for (int i = 0; i < br.n_tags; i++)
        cr_expect(br.tags[i].residual_mm < 0.5, "tag %d residual %.3f mm", br.tags[i].id, br.tags[i].residual_mm);
    /* Without a previous pose it still finds the board, and reports no move. */
    calib_file fresh = s->calib;
    fresh.pose_missing = 1;
    memset(fresh.R, 0, sizeof fresh.R);
    memset(fresh.t, 0, sizeof fresh.t);
    cr_assert_eq(calib_board_measure(&fresh, s->roster, img, &br, &err), 0, "%s", err.msg);
    cr_expect(pose_distance(&s->calib, br.R, br.t, W, D) < 1.0);
    cr_expect_eq(br.moved_mm, 0);
    base_image_free(img);
    ds_scene_free(s);
}

Test(calib, board_too_few_reference_tags_is_an_error, .timeout = 60)
{
    base_image *img = NULL;
    ds_scene *s = small_scene(&img);
    base_error err;
    /* A roster whose reference tags are not on this board (IDs 500-503). */
    for (size_t i = 0; i < s->roster->n_board_tags; i++)
        s->roster->board_tags[i].id = 500 + (int)i;
    calib_board_result br;
    cr_expect_eq(calib_board_measure(&s->calib, s->roster, img, &br, &err), -1);
    cr_expect(strstr(err.msg, "found 0 of the roster's 4 reference tags"), "%s", err.msg);
    base_image_free(img);
    ds_scene_free(s);
}

Test(calib, simulated_projector_mapping_within_1mm, .timeout = 60)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    calib_file cam;
    cr_assert_eq(ds_camera_make(&g.camera, &cam, &err), 0, "%s", err.msg);
    ds_projector pj;
    ds_projector_default(&pj, g.board_width, g.board_depth);
    calib_projector_pattern pat;
    calib_projector_pattern_default(&pat, pj.width, pj.height);
    base_image *pattern = calib_projector_pattern_draw(&pat, &err);
    cr_assert_not_null(pattern, "%s", err.msg);
    cvs_effects fx = {0};
    fx.blur_sigma_px = 0.7, fx.noise_sigma = 2.0, fx.jpeg_quality = 92, fx.vignetting = 0.2, fx.seed = 3;
    base_image *photo = NULL;
    cr_assert_eq(ds_projector_render(&pj, pattern, &cam, g.board_width, g.board_depth, &fx, 2, &photo, &err), 0, "%s",
                 err.msg);
    calib_projector_result pr;
    cr_assert_eq(calib_projector_fit(&cam, &pat, photo, &pr, &err), 0, "%s", err.msg);
    /* Compare with the true mapping over the board: board point -> true projector px -> fitted mapping back. */
    double Ht[9];
    ds_projector_board_to_px(&pj, Ht);
    double worst = 0, ss = 0;
    int n = 0;
    for (int j = 0; j <= 10; j++)
        for (int i = 0; i <= 14; i++) {
            double b[2] = {g.board_width * i / 14.0, g.board_depth * j / 10.0}, pt[2], pf[2];
            calib_projector_map(Ht, b, pt);
            if (pt[0] < 0 || pt[1] < 0 || pt[0] > pj.width - 1 || pt[1] > pj.height - 1)
                continue; /* outside the projected picture */
            calib_projector_map(pr.mapping.H, b, pf);
            /* The error in mm on the table: the pixel offset times the pixel's size there. */
            double d = hypot(pf[0] - pt[0], pf[1] - pt[1]) * pr.px_mm;
            worst = fmax(worst, d), ss += d * d, n++;
        }
    fprintf(stderr, "projector: %d/%d tags, %d/%d inliers, residual %.3f mm RMS %.3f max; against the truth over %d "
                    "board points: %.3f mm RMS, %.3f mm max (pixel %.2f mm)\n",
            pr.tags_found, pat.grid.cols * pat.grid.rows, pr.inliers, pr.points, pr.rms_mm, pr.max_mm, n,
            sqrt(ss / n), worst, pr.px_mm);
    fprintf(stderr, "projector: fitted board_to_projector");
    for (int i = 0; i < 9; i++)
        fprintf(stderr, " %.9g", pr.mapping.H[i]);
    fprintf(stderr, "\n");
    cr_expect(n > 100, "the picture covers the board (%d points)", n);
    cr_expect(worst < 1.0, "mapping error %.3f mm on the table", worst);
    cr_expect(pr.rms_mm < 1.0, "residual %.3f mm", pr.rms_mm);
    cr_expect_eq(pr.tags_found, pat.grid.cols * pat.grid.rows);
    base_image_free(photo);
    base_image_free(pattern);
}

/* The CLI end to end: render a table, measure the board from a pose-less calibration, then check the written file. */
Test(calib, cli_calibrate_board_writes_pose, .timeout = 60)
{
    char dir[] = "/tmp/tableref-cboard-XXXXXX", cmd[4096];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'%s' render --generate small --out '%s' >/dev/null", vt_tableref_bin(), dir);
    cr_assert_eq(vt_exit_status(system(cmd)), 0);
    char path[512], out[512];
    snprintf(path, sizeof path, "%s/calib.json", dir);
    snprintf(out, sizeof out, "%s/new.json", dir);
    calib_file truth, c;
    base_error err;
    cr_assert_eq(calib_file_load(path, &truth, &err), 0, "%s", err.msg);
    c = truth;
    c.pose_missing = 1;
    cr_assert_eq(calib_file_save(&c, path, &err), 0, "%s", err.msg);
    snprintf(cmd, sizeof cmd, "'%s' calibrate board '%s/image.jpg' --calib '%s' --roster '%s/roster.json' --out '%s' >'%s/log.txt'",
             vt_tableref_bin(), dir, path, dir, out, dir);
    cr_expect_eq(vt_exit_status(system(cmd)), 0);
    cr_assert_eq(calib_file_load(out, &c, &err), 0, "%s", err.msg);
    cr_expect(pose_distance(&truth, c.R, c.t, 700, 500) < 1.0);
    /* Again from the written file with a nudged pose: the move is reported. */
    for (int i = 0; i < 3; i++)
        c.t[i] += 4.0 * c.R[3 * i + 1];
    cr_assert_eq(calib_file_save(&c, out, &err), 0, "%s", err.msg);
    snprintf(cmd, sizeof cmd, "'%s' calibrate board '%s/image.jpg' --calib '%s' --roster '%s/roster.json' | grep -q 'warning: the board'",
             vt_tableref_bin(), dir, out, dir);
    cr_expect_eq(vt_exit_status(system(cmd)), 0, "no move warning");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}
