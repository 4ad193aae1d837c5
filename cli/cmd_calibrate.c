/* tableref calibrate camera|board|projector: measure the camera, the board's place, the projector. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_file.h"
#include "calib_board.h"
#include "calib_camera.h"
#include "calib_file.h"
#include "calib_projector.h"
#include "calib_projector_loop.h"
#include "calibrate_loop.h"
#include "calib_target.h"
#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "media_image_read.h"
#include "roster.h"
#include "media.h"

static const cli_doc doc = {
    "calibrate",
    "usage: tableref calibrate camera IMAGES... (--target TARGET.json | --chessboard COLSxROWS\n"
    "                          --square-mm S) --out CALIB.json [options]\n"
    "       tableref calibrate board IMAGE --calib CALIB.json --roster ROSTER.json [--out CALIB.json]\n"
    "       tableref calibrate projector (--image CAMERA.jpg | --show) --calib CALIB.json\n"
    "                          [--size WxH] [--pattern-out PATTERN.png] [--out CALIB.json]\n"
    "\n"
    "steps ('tableref calibrate STEP --help' describes one):\n",
    "\nExit status: 0 done, 2 bad input, usage or a failed calibration.\n",
};

static const cli_doc camera_doc = {
    "calibrate camera",
    "usage: tableref calibrate camera IMAGES... (--target TARGET.json | --chessboard COLSxROWS\n"
    "                          --square-mm S) --out CALIB.json [options]\n"
    "\n"
    "camera: intrinsics and lens distortion from 10-20 photos of the target\n"
    "  (`tableref target`) or of a chessboard (COLSxROWS counts INNER corners).\n"
    "  A view is rejected when the target is not found, has fewer than 12\n"
    "  points, is seen more than --max-tilt-deg (70) off its normal, or\n"
    "  reprojects 3x worse than the median view. Prints the RMS reprojection\n"
    "  error, each parameter's standard deviation, the position error this\n"
    "  uncertainty causes on the board at --table-distance-mm (1400), and\n"
    "  which photos to take next.\n"
    "\n",
    "\nExit status: 0 done, 2 bad input, usage or a failed calibration.\n",
    "IMAGES...",
};

static const cli_doc board_doc = {
    "calibrate board",
    "usage: tableref calibrate board IMAGE --calib CALIB.json --roster ROSTER.json [--out CALIB.json]\n"
    "\n"
    "board: the board's pose from its reference tags (in the roster) in one\n"
    "  overhead photo; prints each reference tag's residual in mm, warns when\n"
    "  the board moved more than --moved-mm (2) since the pose in CALIB.json,\n"
    "  and writes the new pose to --out (default: CALIB.json itself).\n"
    "\n",
    "\nExit status: 0 done, 2 bad input, usage or a failed calibration.\n",
    "IMAGE",
};

static const cli_doc projector_doc = {
    "calibrate projector",
    "usage: tableref calibrate projector (--image CAMERA.jpg | --show) --calib CALIB.json\n"
    "                          [--size WxH] [--pattern-out PATTERN.png] [--out CALIB.json]\n"
    "\n"
    "projector: fits where projector pixels land on the board (a homography,\n"
    "  RANSAC then least squares). The pattern (a grid of tags) is shown\n"
    "  full-screen with --show (needs a display: --screen-x/--screen-y place\n"
    "  the window on the projector, --wait-ms 1500 before the camera photo\n"
    "  --image is read) or written with --pattern-out to show by other means.\n"
    "  Reports the residual in mm on the table and stores the mapping in --out.\n"
    "  With --show and --camera SRC (a live camera, as `watch --source`), also\n"
    "  measures the loop: the latency from a new projector picture to the camera\n"
    "  seeing it (black to white, frames read until the board's level crosses half\n"
    "  way), and projected white against the room's light at the board; both are\n"
    "  stored (latency_frames, latency_ms, brightness_ratio). --position X,Y,Z\n"
    "  stores where the projector's lens is (board mm, Z above the board), for\n"
    "  the keep-out's parallax. The section is stamped with the camera\n"
    "  calibration it was made through (made_with: docs/formats.md).\n"
    "\n",
    "\nExit status: 0 done, 2 bad input, usage or a failed calibration.\n",
};

static int parse_size(const char *s, int *a, int *b)
{
    char x;
    return sscanf(s, "%d%c%d", a, &x, b) == 3 && (x == 'x' || x == 'X') && *a > 0 && *b > 0 ? 0 : -1;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Checks the calibration and writes it to `out`, then says so (with `note`) or, for `step`, why not.
 * Returns the exit status. */
static int save_calib(const calib_file *c, const char *out, const char *step, const char *note)
{
    base_error err;
    if (calib_file_validate(c, out, &err) < 0 || calib_file_save(c, out, &err) < 0) {
        fprintf(stderr, "tableref calibrate %s: %s\n", step, err.msg);
        return EXIT_BAD_INPUT;
    }
    printf("wrote %s%s\n", out, note);
    return 0;
}

/* ---- camera ------------------------------------------------------------ */

/* The arguments calibrate camera cannot go without; says what is missing and returns -1. */
static int camera_check_args(int n_images, const char *target_path, const char *chess, const char *out)
{
    if (n_images == 0) {
        cli_missing("calibrate camera", "the IMAGES (10-20 photos of the target; `tableref capture --for camera` "
                                        "takes them)");
        return -1;
    }
    if (!target_path && !chess) {
        cli_missing("calibrate camera", "--target TARGET.json (the layout `tableref target` wrote) or --chessboard "
                                        "COLSxROWS");
        return -1;
    }
    if (target_path && chess) {
        fprintf(stderr, "tableref calibrate camera: give --target or --chessboard, not both\n");
        return -1;
    }
    if (!out) {
        cli_missing("calibrate camera", "--out CALIB.json (where to write the calibration)");
        return -1;
    }
    return 0;
}

/* The target photographed: a chessboard COLSxROWS of `square` mm, or the layout in target_path. */
static int camera_load_target(const char *chess, double square, const char *target_path, calib_target *t)
{
    base_error err;
    if (chess) {
        int c, r;
        if (parse_size(chess, &c, &r) < 0) {
            fprintf(stderr, "tableref calibrate camera: --chessboard: expected COLSxROWS (inner corners), got '%s'\n",
                    chess);
            return -1;
        }
        if (calib_target_chessboard(t, c, r, square, &err) < 0) {
            fprintf(stderr, "tableref calibrate camera: %s (give --square-mm)\n", err.msg);
            return -1;
        }
    } else if (calib_target_load(target_path, t, &err) < 0) {
        fprintf(stderr, "tableref calibrate camera: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int camera_add_images(calib_camera *cc, const char **images, int n_images)
{
    base_error err;
    for (int i = 0; i < n_images; i++) {
        base_image *img = media_image_load(images[i], MEDIA_IMAGE_GRAY, &err);
        if (!img) {
            fprintf(stderr, "tableref calibrate camera: %s\n", err.msg);
            return -1;
        }
        int r = calib_camera_add_image(cc, img, base_name(images[i]), &err);
        base_image_free(img);
        if (r < 0) {
            fprintf(stderr, "tableref calibrate camera: %s: %s\n", images[i], err.msg);
            return -1;
        }
    }
    return 0;
}

/* One line per view: used (with its error once solved), or rejected and why. */
static void camera_print_views(const calib_camera *cc, int solved)
{
    printf("%-24s %6s  %s\n", "view", "points", "result");
    for (size_t i = 0; i < cc->n_views; i++) {
        const calib_view *w = &cc->views[i];
        if (w->status == CALIB_VIEW_USED && solved == 0)
            printf("%-24s %6d  used: %.3f px RMS, tilted %.0f deg\n", w->name, w->n, w->rms_px, w->tilt_deg);
        else if (w->status == CALIB_VIEW_USED)
            printf("%-24s %6d  usable\n", w->name, w->n);
        else
            printf("%-24s %6d  rejected (%s): %s\n", w->name, w->n, calib_view_status_name(w->status), w->why);
    }
}

/* The solved lens, each parameter's uncertainty, the error it causes on the board, and advice. */
static void camera_print_result(const calib_camera *cc)
{
    const cvs_calib_result *res = &cc->res;
    int points = 0;
    for (size_t i = 0; i < cc->n_views; i++)
        if (cc->views[i].status == CALIB_VIEW_USED)
            points += cc->views[i].n;
    printf("\n%d of %zu views used, %d points, image %dx%d\n", cc->used, cc->n_views, points, cc->width,
           cc->height);
    printf("RMS reprojection error: %.3f px\n", res->rms_px);
    static const char *names[9] = {"fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"};
    const double val[9] = {res->lens.fx, res->lens.fy, res->lens.cx, res->lens.cy, res->lens.dist[0],
                           res->lens.dist[1], res->lens.dist[2], res->lens.dist[3], res->lens.dist[4]};
    for (int i = 0; i < 9; i++) {
        if (i < 4)
            printf("  %-3s %11.3f px  +- %.3f\n", names[i], val[i], res->std[i]);
        else if (res->std[i] > 0 || val[i] != 0)
            printf("  %-3s %11.5f     +- %.5f\n", names[i], val[i], res->std[i]);
        else
            printf("  %-3s %11.5f     (fixed)\n", names[i], val[i]);
    }
    printf("expected position error on the board, camera %.0f mm above it: %.3f mm RMS (95%% of draws below "
           "%.3f mm)\n",
           cc->table_distance_mm, cc->board_rms_mm, cc->board_p95_mm);
    if (cc->n_advice == 0)
        printf("advice: none; the views cover the frame, are tilted and agree\n");
    for (int i = 0; i < cc->n_advice; i++)
        printf("advice: %s\n", cc->advice[i]);
}

/* Loads the target and the photos, solves, prints the result and writes `out`. */
static int camera_run(const calib_camera_options *o, const char *chess, double square, const char *target_path,
                      const char **images, int n_images, const char *out)
{
    calib_target t;
    base_error err;
    if (camera_load_target(chess, square, target_path, &t) < 0)
        return EXIT_BAD_INPUT;
    calib_camera *cc = calib_camera_new(&t, &err);
    if (!cc) {
        fprintf(stderr, "tableref calibrate camera: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    int rc = EXIT_BAD_INPUT;
    if (camera_add_images(cc, images, n_images) < 0)
        goto done;
    int solved = calib_camera_solve(cc, o, &err);
    camera_print_views(cc, solved);
    if (solved < 0) {
        fprintf(stderr, "tableref calibrate camera: %s\n", err.msg);
        goto done;
    }
    camera_print_result(cc);
    calib_file cf;
    calib_camera_to_file(cc, &cf);
    rc = save_calib(&cf, out, "camera", " (no board pose yet: run `tableref calibrate board`)");
done:
    calib_camera_free(cc);
    return rc;
}

static int calibrate_camera(int argc, char **argv)
{
    const char *target_path = NULL, *chess = NULL, *out = NULL;
    double square = 0, dist_mm = 1400, max_tilt = 70;
    calib_camera_options o;
    calib_camera_options_default(&o);
    const char **images = calloc((size_t)argc, sizeof *images);
    if (!images)
        return EXIT_BAD_INPUT;
    int fix_aspect = 0, zero_tangent = 0, k3 = 0, keep_outliers = 0, no_distortion = 0;
    const cli_opt opts[] = {
        CLI_INPUT("--target", &target_path, "TARGET.json", "the target's layout (`tableref target`)"),
        CLI_STRING("--chessboard", &chess, "COLSxROWS", "a chessboard instead, by its INNER corners"),
        CLI_NUMBER("--square-mm", &square, "S", 1, 500, "the chessboard's square edge"),
        CLI_OUTPUT("--out", &out, "CALIB.json", "where to write the calibration"),
        CLI_NUMBER("--table-distance-mm", &dist_mm, "D", 100, 20000,
                   "camera to table, for the position error on the board (1400)"),
        CLI_NUMBER("--max-tilt-deg", &max_tilt, "A", 1, 89, "views seen further off their normal are rejected (70)"),
        CLI_FLAG("--fix-aspect", &fix_aspect, 1, "fy/fx fixed at 1 (square pixels)"),
        CLI_FLAG("--zero-tangent", &zero_tangent, 1, "p1 = p2 = 0"),
        CLI_FLAG("--k3", &k3, 1, "also fit k3 (wide-angle lenses)"),
        CLI_FLAG("--no-distortion", &no_distortion, 1, "a pure pinhole (for comparison)"),
        CLI_FLAG("--keep-outliers", &keep_outliers, 1, "never reject a view for its reprojection error"),
    };
    int n_images = cli_parse(&camera_doc, argc, argv, opts, CLI_N(opts), images, argc);
    int rc = EXIT_BAD_INPUT;
    if (n_images < 0) {
        rc = cli_status(n_images);
    } else if (camera_check_args(n_images, target_path, chess, out) == 0) {
        if (fix_aspect)
            o.flags |= CVS_CALIB_FIX_ASPECT;
        if (zero_tangent)
            o.flags |= CVS_CALIB_ZERO_TANGENT;
        if (k3)
            o.flags &= ~(unsigned)CVS_CALIB_FIX_K3;
        if (keep_outliers)
            o.outlier_factor = 0;
        if (no_distortion)
            o.flags |= CVS_CALIB_NO_DISTORTION;
        o.table_distance_mm = dist_mm;
        o.max_tilt_deg = max_tilt;
        rc = camera_run(&o, chess, square, target_path, images, n_images, out);
    }
    free(images);
    return rc;
}

/* ---- board ------------------------------------------------------------- */

static int calibrate_board(int argc, char **argv)
{
    const char *image = NULL, *calib_path = NULL, *roster_path = NULL, *out = NULL;
    double moved_mm = 2.0;
    const cli_opt opts[] = {
        CLI_INPUT("--calib", &calib_path, "CALIB.json", "the camera's calibration (`tableref calibrate camera`)"),
        CLI_INPUT("--roster", &roster_path, "ROSTER.json", "the roster with the board's reference tags"),
        CLI_OUTPUT_OR("--out", &out, "CALIB.json", "--calib", "where to write the new pose (default: --calib itself)"),
        CLI_NUMBER("--moved-mm", &moved_mm, "MM", 0, 1000, "warn when the board moved more than this (2)"),
    };
    int n_pos = cli_parse(&board_doc, argc, argv, opts, CLI_N(opts), &image, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!image)
        return cli_missing("calibrate board", "the IMAGE (an overhead photo of the board and its corner tags)"),
               EXIT_BAD_INPUT;
    if (!calib_path)
        return cli_missing("calibrate board", "--calib CALIB.json (from `tableref calibrate camera`)"), EXIT_BAD_INPUT;
    if (!roster_path)
        return cli_missing("calibrate board", "--roster ROSTER.json (it holds the board's tags)"), EXIT_BAD_INPUT;
    if (!out)
        out = calib_path;
    base_error err;
    calib_file c;
    roster_file *roster = NULL;
    base_image *img = NULL;
    int rc = EXIT_BAD_INPUT;
    if (calib_file_load_ex(calib_path, CALIB_FILE_POSE_OPTIONAL, &c, &err) < 0 ||
        !(roster = roster_load(roster_path, &err)) || !(img = media_image_load(image, MEDIA_IMAGE_GRAY, &err))) {
        fprintf(stderr, "tableref calibrate board: %s\n", err.msg);
        goto done;
    }
    if (img->width != c.width || img->height != c.height) {
        fprintf(stderr, "tableref calibrate board: %s: %dx%d px, but %s: image_size is %dx%d\n", image, img->width,
                img->height, calib_path, c.width, c.height);
        goto done;
    }
    calib_board_result br;
    if (calib_board_measure(&c, roster, img, &br, &err) < 0) {
        fprintf(stderr, "tableref calibrate board: %s\n", err.msg);
        goto done;
    }
    printf("%-8s %10s %10s %12s\n", "tag", "x_mm", "y_mm", "residual_mm");
    for (int i = 0; i < br.n_tags; i++)
        printf("%-8d %10.2f %10.2f %12.3f\n", br.tags[i].id, br.tags[i].x, br.tags[i].y, br.tags[i].residual_mm);
    for (size_t i = 0; i < roster->n_board_tags; i++) {
        int found = 0;
        for (int k = 0; k < br.n_tags; k++)
            found |= br.tags[k].id == roster->board_tags[i].id;
        if (!found)
            printf("%-8d not found in the image\n", roster->board_tags[i].id);
    }
    printf("%d reference tags used, RMS reprojection %.3f px, RMS residual %.3f mm, worst %.3f mm\n", br.n_tags,
           br.rms_px, br.rms_mm, br.max_mm);
    if (!c.pose_missing) {
        printf("board moved since the last calibration: %.2f mm at most over the board (threshold %.2f mm)\n",
               br.moved_mm, moved_mm);
        if (br.moved_mm > moved_mm)
            printf("warning: the board (or the camera) moved by %.2f mm since %s was made; the new pose "
                   "replaces it\n",
                   br.moved_mm, calib_path);
    }
    memcpy(c.R, br.R, sizeof c.R);
    memcpy(c.t, br.t, sizeof c.t);
    c.pose_missing = 0;
    base_file_forget_input(calib_path); /* the calibration is updated in place, by design */
    rc = save_calib(&c, out, "board", "");
done:
    base_image_free(img);
    roster_free(roster);
    return rc;
}

/* ---- projector ---------------------------------------------------------- */

/* --position X,Y,Z (mm) into the section. */
static int parse_position(const char *s, calib_projector *p)
{
    double v[3];
    char tail;
    if (sscanf(s, "%lf,%lf,%lf%c", &v[0], &v[1], &v[2], &tail) != 3 || !isfinite(v[0]) || !isfinite(v[1]) ||
        !(v[2] > 0) || fabs(v[0]) > 1e5 || fabs(v[1]) > 1e5 || v[2] > 1e5) {
        fprintf(stderr, "tableref calibrate projector: --position: expected X,Y,Z in board mm with Z > 0 (above the "
                        "board), got '%s'\n", s);
        return -1;
    }
    p->position_present = 1;
    memcpy(p->position_mm, v, sizeof v);
    return 0;
}

/* The fit, the loop (--camera) and the lens position (--position) into the calibration, saved to `out`
 * (default: the calibration itself). 0, or -1 said on stderr. */
static int store_projector(calib_file *c, const calib_projector_pattern *pat, const calib_projector_result *pr,
                           const calib_projector *at, const char *camera, int sx, int sy, const char *calib_path,
                           const char *out)
{
    printf("%d of %d pattern tags found, %d of %d corners kept by RANSAC\n", pr->tags_found,
           pat->grid.cols * pat->grid.rows, pr->inliers, pr->points);
    printf("residual on the table: %.3f mm RMS, %.3f mm worst\n", pr->rms_mm, pr->max_mm);
    printf("projector pixel size on the table: %.2f mm (at the board centre)\n", pr->px_mm);
    c->projector = pr->mapping;
    calib_file_projector_stamp(c);
    if (at) {
        c->projector.position_present = 1;
        memcpy(c->projector.position_mm, at->position_mm, sizeof at->position_mm);
    }
    if (camera && calibrate_measure_live_loop(c, camera, sx, sy) < 0)
        return -1;
    if (!out)
        out = calib_path;
    base_file_forget_input(calib_path); /* the calibration is updated in place, by design */
    return save_calib(c, out, "projector", "") == 0 ? 0 : -1;
}

/* Fits the mapping from the camera's photo of the projected pattern and stores it with the loop and the
 * lens position (store_projector). 0, or EXIT_BAD_INPUT said on stderr. */
static int projector_fit_and_save(const char *image, const char *calib_path, calib_file *c,
                                  const calib_projector_pattern *pat, const calib_projector *at, const char *camera,
                                  int sx, int sy, const char *out)
{
    base_error err;
    base_image *img = media_image_load(image, MEDIA_IMAGE_GRAY, &err);
    if (!img) {
        fprintf(stderr, "tableref calibrate projector: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    calib_projector_result pr;
    int fitted = calib_projector_fit(c, pat, img, &pr, &err);
    base_image_free(img);
    if (fitted < 0) {
        fprintf(stderr, "tableref calibrate projector: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    return store_projector(c, pat, &pr, at, camera, sx, sy, calib_path, out) < 0 ? EXIT_BAD_INPUT : 0;
}

static int calibrate_projector(int argc, char **argv)
{
    const char *image = NULL, *calib_path = NULL, *out = NULL, *pattern_out = NULL, *size = NULL, *camera = NULL,
               *position = NULL;
    int show = 0, pw = 1280, ph = 800;
    double sx = 0, sy = 0, wait_ms = 1500;
    const cli_opt opts[] = {
        CLI_INPUT("--image", &image, "CAMERA.jpg", "the camera's photo of the pattern on the table"),
        CLI_FLAG("--show", &show, 1, "show the pattern full-screen, then take the photo from the camera"),
        CLI_INPUT("--calib", &calib_path, "CALIB.json", "the camera's calibration with the board's pose"),
        CLI_STRING("--size", &size, "WxH", "the projector's size in pixels (default 1280x800)"),
        CLI_OUTPUT("--pattern-out", &pattern_out, "PATTERN.png", "write the pattern, to show by other means"),
        CLI_OUTPUT_OR("--out", &out, "CALIB.json", "--calib", "where to store the mapping (default: --calib itself)"),
        CLI_WHOLE("--screen-x", &sx, "X", -32768, 32767, "where the --show window goes on the desktop (0)"),
        CLI_WHOLE("--screen-y", &sy, "Y", -32768, 32767, "where the --show window goes on the desktop (0)"),
        CLI_WHOLE("--wait-ms", &wait_ms, "MS", 0, 600000, "wait before the camera photo is read (1500)"),
        CLI_SOURCE("--camera", &camera, "SRC", "with --show: measure the loop's latency and brightness on this\n"
                                               "live camera (a source as `watch --source`)"),
        CLI_STRING("--position", &position, "X,Y,Z", "where the projector's lens is, board mm (Z above the board)"),
    };
    int n_pos = cli_parse(&projector_doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (size && parse_size(size, &pw, &ph) < 0) {
        fprintf(stderr, "tableref calibrate projector: --size: expected WxH, got '%s'\n", size);
        return EXIT_BAD_INPUT;
    }
    calib_projector at = {0};
    if (position && parse_position(position, &at) < 0)
        return EXIT_BAD_INPUT;
    if (camera && !show) {
        fprintf(stderr, "tableref calibrate projector: --camera needs --show (the loop shows its own pictures)\n");
        return EXIT_BAD_INPUT;
    }
    if (!pattern_out && !calib_path)
        return cli_missing("calibrate projector", "--calib CALIB.json (or --pattern-out alone, to write the pattern)"),
               EXIT_BAD_INPUT;
    base_error err;
    calib_projector_pattern pat;
    calib_projector_pattern_default(&pat, pw, ph);
    base_image *pattern = calib_projector_pattern_draw(&pat, &err);
    calib_file c;
    int rc = EXIT_BAD_INPUT;
    if (!pattern) {
        fprintf(stderr, "tableref calibrate projector: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    if (pattern_out) {
        if (media_image_save(pattern, pattern_out, 95, &err) < 0) {
            fprintf(stderr, "tableref calibrate projector: %s\n", err.msg);
            goto done;
        }
        printf("wrote the %dx%d projector pattern (%d tags) to %s\n", pw, ph, pat.grid.cols * pat.grid.rows, pattern_out);
        if (!calib_path) {
            rc = 0;
            goto done;
        }
    }
    if (calib_file_load(calib_path, &c, &err) < 0) {
        fprintf(stderr, "tableref calibrate projector: %s\n", err.msg);
        goto done;
    }
    if (show && media_projector_show(pattern, (int)sx, (int)sy, (int)wait_ms, &err) < 0) {
        fprintf(stderr, "tableref calibrate projector: %s\n", err.msg);
        goto done;
    }
    if (!image) {
        fprintf(stderr, "tableref calibrate projector: need --image, the camera's photo of the projected pattern "
                        "(tableref has no live capture of its own here)\n");
        goto done;
    }
    rc = projector_fit_and_save(image, calib_path, &c, &pat, position ? &at : NULL, camera, (int)sx, (int)sy, out);
done:
    if (show)
        media_projector_close();
    base_image_free(pattern);
    return rc;
}

int cmd_calibrate(int argc, char **argv)
{
    static const cli_step steps[] = {
        {"camera", calibrate_camera, "intrinsics and lens distortion from photos of the target"},
        {"board", calibrate_board, "the board's pose from its reference tags in one photo"},
        {"projector", calibrate_projector, "where projector pixels land on the board"},
    };
    return cli_dispatch(&doc, steps, CLI_N(steps), argc, argv);
}
