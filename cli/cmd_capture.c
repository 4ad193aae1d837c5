/*
 * tableref capture: stills for calibration from the very source `watch`
 * uses (any row of capture's table of sources, capture/cap_rows.h:
 * libcamera, V4L2, a video file, a folder, pattern or picture), at the size
 * `watch` will use, with feedback while they are taken: where in the frame
 * the target has been seen so far, which board tags are in view. Whether the
 * source is a camera (stills spaced in time) is its row's answer.
 * tableref cameras: which cameras this machine has (the rows that list
 * their devices).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "calib_coverage.h"
#include "calib_target.h"
#include "base_geom.h"
#include "cli_args.h"
#include "commands.h"
#include "table_file.h"
#include "cap_rows.h"
#include "cap_source.h"
#include "roster.h"
#include "vis_tag.h"
#include "media.h"

static const cli_doc doc = {
    "capture",
    "usage: tableref capture --source SRC --out DIR [--for camera|board|projector|stills]\n"
    "                        [--size WxH] [--count N] [--every S] [--target TARGET.json]\n"
    "                        [--roster R.json | --table T.json]\n"
    "\n"
    "Takes calibration stills from the source `tableref watch` uses, at the size\n"
    "it will use (calibrate at the size you watch at: a calibration holds for one\n"
    "image size only), and says how they are going.\n"
    "\n",
    "\n"
    "Exit status: 0 done, 1 done but short (the target or a board tag never seen;\n"
    "what is missing is said), 2 bad input, or a camera that cannot be opened.\n",
};

typedef struct capture_job {
    const char *out;
    int count;
    double every_s;
    int live;
    int frame_w, frame_h;
    int kept;
} capture_job;

static int save_still(capture_job *j, const cap_frame *f, const char *name, char *path, size_t cap, base_error *err)
{
    if (name)
        snprintf(path, cap, "%s/%s", j->out, name);
    else
        snprintf(path, cap, "%s/still-%04d.jpg", j->out, j->kept + 1);
    if (media_image_save(f->image, path, 95, err) < 0)
        return -1;
    j->kept++;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Checks the frame size once; -1 with a message naming both sizes. */
static int check_size(capture_job *j, const cap_frame *f, const char *src, base_error *err)
{
    if (j->frame_w && (f->image->width != j->frame_w || f->image->height != j->frame_h))
        return base_error_set(err, "%s delivers %dx%d frames, not the %dx%d asked: %s", src, f->image->width,
                               f->image->height, j->frame_w, j->frame_h,
                               j->live ? "the camera cannot give that size (`tableref cameras` lists its sizes)"
                                       : "a recording is not resized: record or calibrate at one size");
    return 0;
}

/* Where and how the target lies in a still: its centre, size and the direction of its longer axis. */
typedef struct view {
    double cx, cy, spread, axis;
    int n;
} view;

static view view_of(const calib_target_points *p)
{
    view v = {0, 0, 0, 0, p->n};
    for (int i = 0; i < p->n; i++)
        v.cx += p->img[2 * i] / p->n, v.cy += p->img[2 * i + 1] / p->n;
    double sxx = 0, syy = 0, sxy = 0;
    for (int i = 0; i < p->n; i++) {
        const double dx = p->img[2 * i] - v.cx, dy = p->img[2 * i + 1] - v.cy;
        sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
    }
    v.spread = sqrt((sxx + syy) / (p->n ? p->n : 1));
    v.axis = 0.5 * atan2(2 * sxy, sxx - syy);
    return v;
}

/* The same view again (a target held still): same place, size, shape and points, within a few percent. */
static int same_view(const view *a, const view *b, double diag)
{
    double turn = fabs(a->axis - b->axis);
    turn = fmin(turn, BASE_PI - turn);
    return a->n == b->n && hypot(a->cx - b->cx, a->cy - b->cy) < 0.02 * diag &&
           fabs(a->spread / b->spread - 1) < 0.03 && turn < 0.03;
}

/* Target views: kept when found and not a repeat of a kept view (the coverage map shows where they were). */
static int capture_camera(cap_source *cap, capture_job *j, const char *src, const calib_target *t, base_error *err)
{
    calib_target_finder *finder = calib_target_finder_new(t, err);
    if (!finder)
        return -1;
    calib_coverage cov;
    view views[64];
    int rc = 0, r, frames = 0;
    double last = -1e9;
    cap_frame f;
    while (j->kept < j->count && (r = cap_source_read(cap, &f, err)) == 1) {
        if ((rc = check_size(j, &f, src, err)) < 0)
            break;
        if (frames++ == 0)
            calib_coverage_init(&cov, f.image->width, f.image->height, 4, 3);
        if (j->live && now_s() - last < j->every_s)
            continue;
        calib_target_points pts = {0};
        int found = calib_target_find(finder, f.gray, &pts, err);
        if (found < 0) {
            rc = -1;
            break;
        }
        if (!found) {
            if (j->live)
                printf("frame %ld: no target in view\n", f.index);
            continue;
        }
        view v = view_of(&pts);
        int same = 0;
        for (int k = 0; k < j->kept && k < 64 && !same; k++)
            same = same_view(&v, &views[k], hypot(f.image->width, f.image->height));
        calib_coverage probe = cov;
        calib_coverage_add(&probe, pts.img, pts.n);
        if (same) {
            calib_target_points_clear(&pts);
            continue; /* the target held still: the same view again */
        }
        char path[4200];
        if (save_still(j, &f, NULL, path, sizeof path, err) < 0) {
            calib_target_points_clear(&pts);
            rc = -1;
            break;
        }
        cov = probe;
        if (j->kept <= 64)
            views[j->kept - 1] = v;
        last = now_s();
        char missing[512];
        printf("still %d of %d: %s (frame %ld, %d tags); the target has been seen in %d of %d parts of the frame:\n",
               j->kept, j->count, path, f.index, pts.tags, calib_coverage_covered(&cov), cov.cols * cov.rows);
        calib_coverage_print(&cov, stdout);
        if (calib_coverage_missing(&cov, missing, sizeof missing)[0])
            printf("    still to cover: %s\n", missing);
        fflush(stdout);
        calib_target_points_clear(&pts);
    }
    calib_target_finder_free(finder);
    if (rc == 0 && r < 0)
        rc = -1;
    if (rc < 0)
        return -1;
    if (j->kept == 0) {
        printf("the target was never found in %s (%d frames): is it the one --target describes, whole, lit and in "
               "focus?\n",
               src, frames);
        return 1;
    }
    char missing[512];
    calib_coverage_missing(&cov, missing, sizeof missing);
    printf("kept %d still%s in %s; coverage %d of %d parts%s%s\n", j->kept, j->kept == 1 ? "" : "s", j->out,
           calib_coverage_covered(&cov), cov.cols * cov.rows, missing[0] ? "; never seen: " : "", missing);
    printf("next: tableref calibrate camera %s/still-*.jpg --target TARGET.json --out calib.json\n", j->out);
    return missing[0] || j->kept < j->count ? 1 : 0;
}

/* The board: the first frame that shows every corner tag; else the best one, naming what is missing. */
static int capture_board(cap_source *cap, capture_job *j, const char *src, const roster_file *roster, base_error *err)
{
    if (roster->n_board_tags == 0)
        return base_error_set(err, "the roster has no board tags (board.tags): nothing to look for");
    vis_tag_detector *det = vis_tag_detector_new(roster->family);
    if (!det)
        return base_error_set(err, "cannot make a %s detector", roster->family);
    int best = -1, r, rc = 0, frames = 0;
    char best_seen[256] = "";
    cap_frame f;
    while (frames < (j->live ? 30 : 1000000) && (r = cap_source_read(cap, &f, err)) == 1) {
        frames++;
        if ((rc = check_size(j, &f, src, err)) < 0)
            break;
        vis_tag_list tags = {0};
        if (vis_tag_detect(det, f.gray->data, f.gray->width, f.gray->height, f.gray->stride, &tags, err) < 0) {
            rc = -1;
            break;
        }
        int seen = 0;
        char list[256] = "";
        size_t used = 0;
        for (size_t b = 0; b < roster->n_board_tags; b++) {
            int here = 0;
            for (size_t k = 0; k < tags.n; k++)
                here |= tags.items[k].id == roster->board_tags[b].id;
            seen += here;
            if (!here && used + 8 < sizeof list)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? ", " : "",
                                         roster->board_tags[b].id);
        }
        vis_tag_list_clear(&tags);
        if (seen > best) {
            char path[4200];
            j->kept = 0;
            if (save_still(j, &f, "board.jpg", path, sizeof path, err) < 0) {
                rc = -1;
                break;
            }
            best = seen;
            snprintf(best_seen, sizeof best_seen, "%s", list);
            printf("frame %ld: %d of %zu board tags in view%s%s -> %s\n", f.index, seen, roster->n_board_tags,
                   list[0] ? "; not seen: " : "", list, path);
            fflush(stdout);
        }
        if (seen == (int)roster->n_board_tags)
            break;
    }
    vis_tag_detector_free(det);
    if (rc < 0 || (best < 0 && r < 0))
        return -1;
    if (best < (int)roster->n_board_tags) {
        printf("board tags %s never seen: are they in view, lit, flat and unhidden?\n", best_seen);
        return 1;
    }
    printf("next: tableref calibrate board %s/board.jpg --calib calib.json --roster ROSTER.json\n", j->out);
    return 0;
}

/* Plain stills: projector or timed. */
static int capture_stills(cap_source *cap, capture_job *j, const char *src, const char *name, base_error *err)
{
    int r;
    double last = -1e9;
    cap_frame f;
    while (j->kept < j->count && (r = cap_source_read(cap, &f, err)) == 1) {
        if (check_size(j, &f, src, err) < 0)
            return -1;
        if (j->live && now_s() - last < j->every_s)
            continue;
        char path[4200];
        if (save_still(j, &f, name, path, sizeof path, err) < 0)
            return -1;
        last = now_s();
        printf("still %d of %d: %s (frame %ld, %dx%d)\n", j->kept, j->count, path, f.index, f.image->width,
               f.image->height);
        fflush(stdout);
    }
    if (r < 0)
        return -1;
    if (name && j->kept)
        printf("next: tableref calibrate projector --image %s/%s --calib calib.json\n", j->out, name);
    return j->kept < j->count ? 1 : 0;
}

static int parse_size(const char *s, int *w, int *h)
{
    char x;
    return sscanf(s, "%d%c%d", w, &x, h) == 3 && (x == 'x' || x == 'X') && *w > 0 && *h > 0 && *w <= 16384 &&
                   *h <= 16384
               ? 0
               : -1;
}

/* The arguments capture cannot go without; says what is missing and returns -1. */
static int capture_check_args(const char *source, const char *out, bool needs_target, bool needs_roster)
{
    if (!source) {
        cli_missing("capture", "--source SRC (a camera: see `tableref cameras`; or a file or folder)");
        return -1;
    }
    if (!out) {
        cli_missing("capture", "--out DIR (where the stills go)");
        return -1;
    }
    if (needs_target) {
        cli_missing("capture", "--target TARGET.json (the layout `tableref target` wrote beside the target)");
        return -1;
    }
    if (needs_roster) {
        cli_missing("capture", "--roster R.json or --table T.json (which board tags to look for)");
        return -1;
    }
    return 0;
}

/* Creates the folder, opens the source and keeps stills: of the target (target given), of the board
 * (is_board: board_roster's corner tags), else plain stills (named projector.jpg for the projector).
 * Returns the exit status. */
static int capture_open_and_run(const char *source, const char *out, const char *size, capture_job *j,
                                const calib_target *target, bool is_board, const roster_file *board_roster,
                                bool is_proj)
{
    base_error err = {0};
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tableref capture: %s: cannot create the folder: %s\n", out, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    cap_source_config cfg;
    cap_source_config_default(&cfg);
    cfg.width = j->frame_w, cfg.height = j->frame_h;
    cap_source *cap = cap_source_open(source, &cfg, &err);
    if (!cap) {
        fprintf(stderr, "tableref capture: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    /* A folder's frames are known now: no still may land on one. */
    if (cli_plan_check("capture") < 0) {
        cap_source_close(cap);
        return EXIT_BAD_INPUT;
    }
    j->live = cap_source_is_live(cap); /* the source's row says (capture/cap_rows.h) */
    printf("capture: %s%s%s\n", cap_source_describe(cap), j->frame_w ? ", frames must be " : "",
           j->frame_w ? size ? size : "the calibration's size" : "");
    int r = target         ? capture_camera(cap, j, source, target, &err)
            : is_board     ? capture_board(cap, j, source, board_roster, &err)
                           : capture_stills(cap, j, source, is_proj ? "projector.jpg" : NULL, &err);
    cap_source_close(cap);
    if (r < 0) {
        fprintf(stderr, "tableref capture: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    return r;
}

int cmd_capture(int argc, char **argv)
{
    const char *source = NULL, *out = NULL, *mode = "stills", *size = NULL, *target_path = NULL, *roster_path = NULL,
               *table_path = NULL;
    double count = -1, every = 2;
    /* The sources as capture's table has them (docs/formats.md, "capture"), every row. */
    char usages[1024], source_help[1280];
    cap_rows_usages(usages, sizeof usages, 0, 62);
    snprintf(source_help, sizeof source_help,
             "%s;\n`tableref cameras` lists the cameras (default: the table\nfile's source)", usages);
    const cli_opt opts[] = {
        CLI_CHOICE("--for", &mode, "MODE", "camera board projector stills",
                   "what the stills are for:\n"
                   "camera     stills of the calibration target (`tableref target`, give\n"
                   "           its layout with --target) held all over the frame; a still\n"
                   "           is kept when the target is found and it covers new parts of\n"
                   "           the frame or a new place; a map shows where the target has\n"
                   "           been seen so far (default 15 stills)\n"
                   "board      one still of the board with its corner tags (from --roster or\n"
                   "           --table): says which are in view, keeps the first frame that\n"
                   "           shows them all\n"
                   "projector  one still while `tableref calibrate projector --show` lights\n"
                   "           the table\n"
                   "stills     N stills, one every S seconds (the default)"),
        CLI_SOURCE("--source", &source, "SRC", source_help),
        CLI_STRING("--size", &size, "WxH",
                   "frame size asked of the camera; a file must already be that\n"
                   "size (default: the table file's calibration size)"),
        CLI_OUT_DIR("--out", &out, "DIR", "*.jpg", "where the stills go (created if needed)"),
        CLI_WHOLE("--count", &count, "N", 1, 500, "stills to keep"),
        CLI_NUMBER("--every", &every, "S", 0, 600,
                   "seconds between stills from a camera (default 2: time to move\n"
                   "the target); every frame of a recording is considered"),
        CLI_INPUT("--target", &target_path, "TARGET.json", "the target's layout (--for camera)"),
        CLI_INPUT("--roster", &roster_path, "R.json", "the roster with the board's corner tags (--for board)"),
        CLI_INPUT("--table", &table_path, "T.json", "the table file: source, size, board tags"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    const int is_camera = strcmp(mode, "camera") == 0, is_board = strcmp(mode, "board") == 0,
              is_proj = strcmp(mode, "projector") == 0, is_stills = strcmp(mode, "stills") == 0;
    if (!is_camera && !is_board && !is_proj && !is_stills) {
        fprintf(stderr, "tableref capture: --for: expected camera, board, projector or stills, got '%s'\n", mode);
        return EXIT_BAD_INPUT;
    }
    base_error err = {0};
    table_file table;
    memset(&table, 0, sizeof table);
    if (table_path && table_file_load(table_path, &table, &err) < 0) {
        fprintf(stderr, "tableref capture: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    capture_job j = {out, count > 0 ? (int)count : is_camera ? 15 : 1, every, 0, 0, 0, 0};
    if (!source && table.source[0])
        source = table.source;
    if (size && parse_size(size, &j.frame_w, &j.frame_h) < 0) {
        fprintf(stderr, "tableref capture: --size: expected WxH in pixels (4056x3040), got '%s'\n", size);
        table_file_clear(&table);
        return EXIT_BAD_INPUT;
    }
    if (!size && table_path)
        j.frame_w = table.width, j.frame_h = table.height;
    int rc = EXIT_BAD_INPUT;
    roster_file *roster = NULL;
    calib_target target;
    if (capture_check_args(source, out, is_camera && !target_path, is_board && !roster_path && !table_path) < 0)
        goto done;
    if ((is_camera && calib_target_load(target_path, &target, &err) < 0) ||
        (is_board && roster_path && !(roster = roster_load(roster_path, &err)))) {
        fprintf(stderr, "tableref capture: %s\n", err.msg);
        goto done;
    }
    rc = capture_open_and_run(source, out, size, &j, is_camera ? &target : NULL, is_board,
                              roster ? roster : table.roster, is_proj);
done:
    roster_free(roster);
    table_file_clear(&table);
    return rc;
}

static const cli_doc cameras_doc = {
    "cameras",
    "usage: tableref cameras\n"
    "\n"
    "Lists the cameras this machine has, as `--source` takes them: libcamera\n"
    "cameras (Raspberry Pi) as libcamera:N, V4L2 devices (USB webcams) as\n"
    "v4l2:/dev/videoN, with the frame sizes they offer. A video file or a folder\n"
    "of pictures works as a source too.\n",
    "\nExit status: 0 (even with no camera), 2 when libcamera cannot start.\n",
};

int cmd_cameras(int argc, char **argv)
{
    int n_pos = cli_parse(&cameras_doc, argc, argv, NULL, 0, NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    cap_source_info list[32];
    base_error err;
    int n = cap_source_list(list, 32, &err);
    if (n < 0) {
        fprintf(stderr, "tableref cameras: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    for (int i = 0; i < n; i++)
        printf("%-20s %s%s%s\n", list[i].source, list[i].name, list[i].sizes[0] ? "\n                     sizes: " : "",
               list[i].sizes);
    if (n == 0)
        printf("no camera found%s. A video file, a folder of pictures or a pattern (frames/%%04d.jpg) works as a "
               "--source too.\n",
               TABLEREF_HAVE_LIBCAMERA ? "" : " (this tableref was built without libcamera)");
    return 0;
}
