/*
 * tableref referee: two camera images in, the verdict out, drawn.
 *
 * Detects both images (the path `tableref detect` takes), checks the move
 * (`tableref check`'s rules, robust to what the camera could not see),
 * takes each call's +/- from the snapshots' per-model uncertainty, and
 * writes report.json plus the annotated pictures. Every input
 * is read and judged before the first file is written, and every file is
 * written under a temporary name and renamed: bad input never destroys an
 * earlier run's outputs.
 */
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base_fields.h"
#include "base_file.h"
#include "base_plan.h"
#include "cli_args.h"
#include "cli_roll.h"
#include "cmd_referee_projector.h"
#include "commands.h"
#include "cvshim.h"
#include "media.h"
#include "ov_draw.h"
#include "rules_plusminus.h"
#include "ov_scene.h"
#include "ref_check.h"
#include "ref_judge.h"
#include "ref_labels.h"
#include "ref_plausible.h"
#include "ref_setup.h"
#include "ref_snapshot.h"
#include "ref_snapshot_vision.h"
#include "ref_words.h"
#include "rules_json.h"
#include "rules_reach.h"

static const cli_doc doc = {
    "referee",
    "usage: tableref referee BEFORE.jpg AFTER.jpg --calib C.json --roster R.json --out DIR\n"
    "       tableref referee BEFORE.jpg AFTER.jpg --table T.json --out DIR\n"
    "                        [--unit ID] [--move TYPE] [--projector P.json] [--no-refine]\n"
    "                        [--paper a4|letter] [--report-view judged|board] [--reach ID]\n"
    "                        [--camera-full] [--camera-png] [--png] [--report-dpi N] [--svg]\n"
    "\n"
    "The referee's main job: finds the models in both camera images, judges the\n"
    "move between them and writes into DIR (created if needed):\n"
    "  report.json     the rules report (as `tableref check --json`, with the\n"
    "                  nearest legal move of each ILLEGAL call) plus each\n"
    "                  call's measurement uncertainty and the detection notes\n"
    "  before.json, after.json   the two snapshots detected\n"
    "  camera.jpg      the AFTER image with the verdict drawn on it, at the size a\n"
    "                  screen shows (at most 1920x1080: a larger picture shrunk\n"
    "                  by a whole factor; --camera-full: at its own size), JPEG\n"
    "                  at quality 90 (--camera-png: camera.png, lossless, instead)\n"
    "  projector.png   the verdict in projector pixels (to project onto the table),\n"
    "                  only when a projector is known: the calibration's\n"
    "                  \"projector\" section, or --projector P\n"
    "  report.pdf      a top-down report on A4 (or Letter) pages: the board, a\n"
    "                  legend, each call's sentences (to print; every browser\n"
    "                  and viewer shows it); report.png too with --png (its\n"
    "                  pages at 96 dpi, as a screen shows them; --report-dpi N\n"
    "                  asks for it at N), report.svg with --svg\n"
    "An earlier call's camera picture, projector.png, report.png or report.svg\n"
    "that this call does not write is removed once this call's files are in\n"
    "place: DIR never shows one call's verdict beside another's picture.\n"
    "\n",
    "\n"
    "A call is ILLEGAL only when a rule is broken under every placement of the\n"
    "models the pictures allow and beyond the measurement's uncertainty; otherwise\n"
    "CANNOT TELL, with the models and the reason. A unit not seen in a picture is\n"
    "NOT SEEN (\"unit X: not seen, cannot judge\").\n"
    "\n"
    "Exit status: 0 no ILLEGAL call stands, 1 an ILLEGAL call stands, 2 bad input or\n"
    "usage (the message names the file and field; nothing in DIR is touched then).\n",
    "BEFORE AFTER",
};

/* What --out DIR receives: the option table plans them (an input among them is refused before any work). */
/* camera.jpg, or camera.png with --camera-png: both planned, so neither may be an input nor a link. */
#define REFEREE_FILES                                                                                                 \
    "report.json before.json after.json camera.jpg camera.png projector.png report.png report.svg report.pdf"

/* "DIR/name" on the heap; NULL (err set) when out of memory. */
static char *out_path(const char *dir, const char *name, base_error *err)
{
    char *p = base_file_join(dir, name);
    if (!p)
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
    return p;
}

/* Each file goes through base_file's writer: tableref holds them all until the call succeeded (a call's folder is
 * written whole or not at all, tableref.c). */
static int write_json(const cJSON *j, const char *dir, const char *name, base_error *err)
{
    char *path = out_path(dir, name, err);
    int rc = path ? base_json_write_file(j, path, err) : -1;
    free(path);
    return rc;
}

static int write_target_png(ov_target *t, const char *dir, const char *name, base_error *err)
{
    char *path = out_path(dir, name, err);
    int rc = path ? ov_target_write_png(t, path, err) : -1;
    free(path);
    return rc;
}

/* The camera picture: a photo drawn on, written as JPEG at this quality (TurboJPEG, 4:2:0 chroma): on hard table
 * 1's 1352x1013 picture the PNG took ~470 M instructions (zlib on a photo's noise), the JPEG a tenth of that. */
enum { CAMERA_JPEG_QUALITY = 90 };

/* camera.jpg, or camera.png when asked (lossless, as the other pictures). */
static int write_camera(ov_target *cam, const char *dir, bool as_png, base_error *err)
{
    if (as_png)
        return write_target_png(cam, dir, "camera.png", err);
    int w, h;
    ov_target_size(cam, &w, &h);
    base_image *bgr = base_image_new(w, h, 3, 0);
    char *path = bgr ? out_path(dir, "camera.jpg", err) : NULL;
    int rc = -1;
    if (!bgr)
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
    else if (path && ov_target_copy_pixels(cam, bgr->data, OV_PIX_BGR24, bgr->stride, err) == 0) {
        base_view v = {bgr->width, bgr->height, 3, bgr->stride, bgr->data};
        rc = media_image_write(&v, path, CAMERA_JPEG_QUALITY, err);
    }
    free(path);
    base_image_free(bgr);
    return rc;
}

/* A picture's part of report.json: the file and what detection noticed. */
static cJSON *frame_json(const ref_snapshot *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "image", f->path);
    cJSON_AddItemToObject(o, "detection", vis_report_to_json(ref_snapshot_report(f)));
    return o;
}

/* The reach of `id` from the BEFORE table for the move asked, else the one judged, else a March. */
static int compute_reach(const rules_snapshot *before, const char *id, rules_move_type asked, const rules_report *r,
                         rules_reach *out, base_error *err)
{
    rules_move_type m = asked;
    for (size_t i = 0; m == RULES_MOVE_AUTO && i < r->n_units; i++)
        if (strcmp(r->units[i].unit_id, id) == 0 && rules_move_has(r->units[i].move, RULES_MOVE_REACH))
            m = r->units[i].move;
    if (m == RULES_MOVE_AUTO)
        m = RULES_MOVE_MARCH;
    if (rules_reach_compute(before, id, m, NULL, out, err) < 0)
        return base_error_prefix(err, "--reach"), -1;
    return 0;
}

/* The reach into the scene, its player's side from the table; a report of the judged area grows to hold it. */
static int add_reach(ov_scene *sc, const rules_snapshot *before, const rules_reach *r, bool whole_board,
                     double view[4], base_error *err)
{
    const rules_unit *u = rules_snapshot_find_unit(before, r->unit_id);
    if (ov_scene_add_reach(sc, r, u ? u->side : NULL, err) < 0)
        return -1;
    double x0 = view[0], y0 = view[1], x1 = view[0] + view[2], y1 = view[1] + view[3];
    const double room = 25.4;
    for (size_t i = 0; !whole_board && i < r->n_facings; i++)
        for (size_t k = 0; k < r->facings[i].n_envelope; k++) {
            base_vec2 p = r->facings[i].envelope[k];
            x0 = fmin(x0, fmax(0, p.x - room)), y0 = fmin(y0, fmax(0, p.y - room));
            x1 = fmax(x1, fmin(before->board_width, p.x + room)), y1 = fmax(y1, fmin(before->board_depth, p.y + room));
        }
    view[0] = x0, view[1] = y0, view[2] = x1 - x0, view[3] = y1 - y0;
    return 0;
}

/* The report: the scene on PDF pages (printable; every browser and viewer shows it); report.png (png_dpi > 0:
 * --png or --report-dpi) its pages replayed at png_dpi, not drawn again; with --svg on SVG pages. Both only when
 * asked: on hard table 1 report.png cost ~315 M instructions (~155 M of it zlib), the SVG ~140 M. */
static int write_reports(const char *dir, ov_scene *sc, const double view[4], ov_paper paper, double png_dpi,
                         bool svg, base_error *err)
{
    static const struct {
        ov_format f;
        const char *name;
    } kinds[] = {{OV_FORMAT_SVG, "report.svg"}, {OV_FORMAT_PDF, "report.pdf"}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (kinds[k].f == OV_FORMAT_SVG && !svg)
            continue;
        char *path = out_path(dir, kinds[k].name, err);
        ov_target *t = path ? ov_target_new_report_view(view[0], view[1], view[2], view[3], paper, kinds[k].f, path, err)
                            : NULL;
        free(path);
        if (!t)
            return -1;
        int rc = ov_scene_draw(sc, t, err);
        if (rc == 0)
            rc = ov_target_finish(t, err);
        char *png = rc == 0 && png_dpi > 0 && kinds[k].f == OV_FORMAT_PDF ? out_path(dir, "report.png", err) : NULL;
        if (png)
            rc = ov_target_write_report_png(t, png_dpi, png, err);
        free(png);
        ov_target_free(t);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* What the options asked for, read and checked: the work after them. */
typedef struct referee_job {
    const char *images[2], *dir, *unit, *proj_path, *table_path, *calib_path, *roster_path, *reach_unit;
    const cli_list *rolls;  /* --roll UNIT=INCHES */
    bool refine, whole_board, camera_full, camera_png, svg;
    double report_dpi; /* report.png's pixels per inch; 0: no report.png (asked by --png or --report-dpi) */
    ov_paper paper;
    rules_move_type move;
} referee_job;

/* What the work makes, freed together. */
typedef struct referee_work {
    ref_setup *setup;
    ref_snapshot *fr[2];
    ref_judgement judged;
    rules_reach reach;
    ov_scene *scene;
    ov_target *cam, *proj; /* proj: NULL when no projector is known */
    cJSON *root;
    double H[9], view[4];
    int pw, ph, proj_calibrated;
    calib_projector proj_section;  /* the projector's calibration (present = 0: a plain mapping or none) */
} referee_work;

/* 1. Read and judge everything; nothing is written yet. */
static int judge_pictures(const referee_job *job, referee_work *w, base_error *err)
{
    if (!(w->setup = ref_setup_new(job->table_path, job->calib_path, job->roster_path, err)) ||
        (job->proj_path && ref_cli_load_projector(job->proj_path, w->H, &w->pw, &w->ph, &w->proj_section, err) < 0))
        return -1;
    /* The files a table file names are known now: none of them may be an output either. */
    if (base_plan_check(err) < 0)
        return -1;
    if (!job->refine)
        ref_setup_keep_pose(w->setup);
    for (int k = 0; k < 2; k++) {
        if (!(w->fr[k] = ref_snapshot_new(w->setup, job->images[k], NULL, err)))
            return -1;
        /* Never a call from a set-up the picture contradicts (docs/setup-checks.md). */
        ref_checks checks;
        ref_snapshot_check(w->setup, w->fr[k], &checks);
        if (!checks.ok)
            return base_error_setc(err, BASE_E_INVALID, "set-up check failed: %s",
                                   ref_checks_first_failure(&checks)->msg);
        char prefix[1100];
        snprintf(prefix, sizeof prefix, "tableref referee: %s: ", job->images[k]);
        ref_snapshot_print_warnings(w->setup, w->fr[k], k ? "after" : "before", stderr, prefix);
    }
    if (cli_rolls_apply(job->rolls, w->fr[0]->snap, "referee") < 0)
        return base_error_setc(err, BASE_E_INVALID, "--roll: see above (no call made)");
    /* Under every placement the two pictures leave open, with the nearest legal move of each ILLEGAL call. */
    ref_judge_options o;
    ref_judge_options_default(&o);
    o.check.unit_id = job->unit;
    o.check.move = job->move;
    size_t moved = 0;
    if (ref_plausible_all_backwards(w->fr[0]->snap, w->fr[1]->snap, &moved))
        return base_error_setc(err, BASE_E_INVALID,
                               "%s, %s: every unit that moved (%zu) went backwards: were BEFORE and AFTER given the "
                               "other way round? (no call made)",
                               job->images[0], job->images[1], moved);
    if (ref_judge(w->fr[0]->snap, w->fr[1]->snap, &o, &w->judged, err) < 0)
        return base_error_prefix(err, job->images[1]), -1;
    /* A tag seen twice: its unit is not judged from these pictures (docs/setup-checks.md). */
    for (int k = 0; k < 2; k++)
        ref_snapshot_mark_duplicates(w->setup, w->fr[k], job->images[k], &w->judged.report, stderr,
                                     "tableref referee");
    const calib_file *calib = &w->setup->calib;
    if (job->proj_path && ref_cli_check_projector_fresh(job->proj_path, &w->proj_section, calib, w->fr[1]->snap,
                                                w->fr[1]->image->width, w->fr[1]->image->height, err) < 0)
        return -1;
    if (!job->proj_path) {
        if (calib->projector.present) {
            char why[256];
            int st = calib_file_projector_stale(calib, w->fr[1]->image->width, w->fr[1]->image->height,
                                                w->fr[1]->snap->board_width, w->fr[1]->snap->board_depth, why,
                                                sizeof why);
            if (st != CALIB_PROJ_OK && st != CALIB_PROJ_UNSTAMPED)
                fprintf(stderr, "tableref referee: %s: warning: %s (pass it as --projector to refuse it)\n",
                        job->calib_path ? job->calib_path : job->table_path, why);
            w->proj_section = calib->projector;
            memcpy(w->H, calib->projector.H, sizeof w->H);
            w->pw = calib->projector.width;
            w->ph = calib->projector.height;
        } else {
            w->proj_calibrated = 0; /* nothing to draw for: no projector.png */
        }
    }
    if (job->reach_unit &&
        compute_reach(w->fr[0]->snap, job->reach_unit, job->move, &w->judged.report, &w->reach, err) < 0)
        return base_error_prefix(err, job->images[0]), -1;
    return 0;
}

/* The projector never lights a label: every label of the after picture's snapshot and every board tag. */
static int set_keepout(referee_work *w, base_error *err)
{
    base_label *labels = NULL;
    size_t n = 0;
    int rc = ref_labels_of(w->setup->roster, w->fr[1]->snap, &labels, &n, err);
    if (rc == 0)
        rc = ov_target_keep_labels_dark(w->proj, &w->proj_section, labels, n, err);
    free(labels);
    return rc;
}

/* The camera picture's largest size unless --camera-full: a full-HD screen. A 12 MP picture drawn and written
 * whole (a 12 MB PNG) cost a third of the referee's time; shrunk by 3 it is what a screen shows whole, at a fifth
 * of that. */
enum { SCREEN_W = 1920, SCREEN_H = 1080 };
/* report.png's pixels per inch with --png: an A4 page 1123 px tall, what a full-HD screen shows whole (150 dpi,
 * for print, is 2.4 times the pixels: on hard table 1 ~850 M instructions). */
#define REFEREE_REPORT_DPI 96

/* The camera target: on the AFTER picture, shrunk by the smallest whole factor that fits the screen (each f x f
 * block averaged; the calibration's intrinsics scale by 1/f), or at its own size when asked. */
static ov_target *camera_target(const referee_job *job, const referee_work *w, base_error *err)
{
    const base_image *img = w->fr[1]->image;
    int f = 1;
    while (!job->camera_full && (img->width / f > SCREEN_W || img->height / f > SCREEN_H))
        f++;
    base_image *small = f > 1 ? cvs_image_downsample(img, f, err) : NULL;
    if (f > 1 && !small)
        return NULL;
    const base_image *pic = small ? small : img;
    /* The shrunk picture averages whole blocks (cvs_image_downsample): it maps the calibrated frame's top-left
     * width x height blocks, one row fewer than 3040 by 3, so the intrinsics scale by exactly 1/f. */
    calib_file calib = w->setup->calib;
    if (small)
        calib.width = pic->width * f, calib.height = pic->height * f;
    ov_target *t = ov_target_new_camera(&calib, pic->width, pic->height, pic->data, OV_PIX_GRAY8, pic->stride, err);
    base_image_free(small);
    return t;
}

/* The projector's picture, only for a projector known: with none, a frame fitted over the board lit nothing real
 * and cost ~200 M instructions on hard table 1. */
static int draw_projector(referee_work *w, base_error *err)
{
    if (!(w->proj = ov_target_new_projector(w->H, w->pw, w->ph, err)) || set_keepout(w, err) < 0)
        return -1;
    if (w->proj_section.position_present) /* a label on a hill is lit along the projector's ray */
        ov_target_set_light_source(w->proj, w->proj_section.position_mm);
    return ov_scene_draw(w->scene, w->proj, err);
}

/* 2. Draw in memory: one scene (the verdict, the reach) laid out on each picture; the report's JSON. */
static int draw(const referee_job *job, referee_work *w, base_error *err)
{
    const rules_snapshot *before = w->fr[0]->snap, *after = w->fr[1]->snap;
    const rules_report *report = &w->judged.report;
    ov_options o;
    ov_options_default(&o);
    o.unit_id = job->unit;
    ov_report_view(before, after, report, job->unit, job->whole_board, w->view);
    if (!(w->scene = ov_scene_new(&o, err)) || ov_scene_add_verdict(w->scene, before, after, report, err) < 0 ||
        (job->reach_unit && add_reach(w->scene, before, &w->reach, job->whole_board, w->view, err) < 0))
        return -1;
    if (!(w->cam = camera_target(job, w, err)) || ov_scene_draw(w->scene, w->cam, err) < 0)
        return -1;
    if (w->proj_calibrated && draw_projector(w, err) < 0)
        return -1;
    if (!(w->root = ref_words_json(&w->judged)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    rules_pm_params pm;
    rules_pm_params_default(&pm);
    cJSON *ref = cJSON_AddObjectToObject(w->root, "referee");
    cJSON_AddItemToObject(ref, "before", frame_json(w->fr[0]));
    cJSON_AddItemToObject(ref, "after", frame_json(w->fr[1]));
    cJSON_AddItemToObject(ref, "uncertainty", rules_pm_to_json(&pm, before, after, report));
    cJSON_AddBoolToObject(ref, "projector_calibrated", w->proj_calibrated);
    if (job->reach_unit)
        cJSON_AddItemToObject(ref, "reach", rules_reach_to_json(&w->reach));
    return 0;
}

static int write_snapshot(const rules_snapshot *s, const char *dir, const char *name, base_error *err)
{
    cJSON *sj = rules_json_from_snapshot(s);
    int rc = sj ? write_json(sj, dir, name, err) : base_error_setc(err, BASE_E_NOMEM, "out of memory");
    cJSON_Delete(sj);
    return rc;
}

/* The outputs an earlier call may have left in DIR that this one does not write (the other camera format, a
 * projector picture, the PNG or SVG report): removed when this call's files are in place, so DIR never shows one
 * call's verdict beside another's picture. */
static int drop_stale(const referee_job *job, const referee_work *w, base_error *err)
{
    const char *names[] = {job->camera_png ? "camera.jpg" : "camera.png", w->proj ? NULL : "projector.png",
                           job->report_dpi > 0 ? NULL : "report.png", job->svg ? NULL : "report.svg"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *p = names[i] ? out_path(job->dir, names[i], err) : NULL;
        if (names[i] && !p)
            return -1;
        if (p)
            base_file_hold_stale(p);
        free(p);
    }
    return 0;
}

/* 3. Write (held by tableref until the call is whole: a failure leaves the earlier call's files as they were). */
static int write_all(const referee_job *job, referee_work *w, base_error *err)
{
    if (mkdir(job->dir, 0777) == 0)
        base_file_hold_made_dir(job->dir); /* removed again when nothing is written */
    else if (errno != EEXIST)
        return base_error_set(err, "%s: cannot create the output folder: %s", job->dir, strerror(errno));
    if (write_json(w->root, job->dir, "report.json", err) < 0 ||
        write_snapshot(w->fr[0]->snap, job->dir, "before.json", err) < 0 ||
        write_snapshot(w->fr[1]->snap, job->dir, "after.json", err) < 0 ||
        write_camera(w->cam, job->dir, job->camera_png, err) < 0 ||
        (w->proj && write_target_png(w->proj, job->dir, "projector.png", err) < 0) ||
        write_reports(job->dir, w->scene, w->view, job->paper, job->report_dpi, job->svg, err) < 0 ||
        drop_stale(job, w, err) < 0)
        return -1;
    return 0;
}

static void print_summary(const referee_job *job, const referee_work *w)
{
    ref_words_print(&w->judged, stdout);
    const vis_report *b = ref_snapshot_report(w->fr[0]), *a = ref_snapshot_report(w->fr[1]);
    printf("referee: %zu/%zu models seen before, %zu/%zu after%s\n", b->models_seen,
           b->models_seen + b->models_inferred + b->models_missing, a->models_seen,
           a->models_seen + a->models_inferred + a->models_missing,
           w->proj_calibrated ? "" : "; no projector calibrated: projector.png not written; --projector P");
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < w->fr[k]->snap->n_unseen; i++)
            printf("referee: unit %s not seen in the %s picture\n", w->fr[k]->snap->unseen[i].id,
                   k ? "after" : "before");
    printf("referee: wrote %s/{report.json,before.json,after.json,%s%s,report.pdf%s%s}%s\n", job->dir,
           job->camera_png ? "camera.png" : "camera.jpg", w->proj ? ",projector.png" : "",
           job->report_dpi > 0 ? ",report.png" : "", job->svg ? ",report.svg" : "",
           job->report_dpi > 0 ? "" : "; report.png with --png");
}

/* The second picture's detection reuses the first's memory: glibc's malloc otherwise hands a 12 MP picture and
 * the detector's working images back to the kernel when they are freed (mmapped, or trimmed off the heap's
 * top) and faults in fresh zeroed pages for the next picture. Kept, the kernel's share of the referee's CPU on
 * a 12 MP pair goes from about 0.14 s to 0.09 s. The process ends soon after: nothing is held for long. */
static void keep_freed_memory(void)
{
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

static int run_referee(const referee_job *job)
{
    keep_freed_memory();
    base_error err = {0};
    referee_work w = {.pw = 1280, .ph = 800, .proj_calibrated = 1};
    ref_judgement_init(&w.judged);
    int rc = EXIT_BAD_INPUT;
    if (judge_pictures(job, &w, &err) == 0 && draw(job, &w, &err) == 0 && write_all(job, &w, &err) == 0) {
        print_summary(job, &w);
        rc = w.judged.report.legal ? EXIT_LEGAL : EXIT_ILLEGAL;
    } else {
        fprintf(stderr, "tableref referee: %s\n", err.msg);
    }
    cJSON_Delete(w.root);
    ov_target_free(w.cam);
    ov_target_free(w.proj);
    ov_scene_free(w.scene);
    rules_reach_clear(&w.reach);
    ref_judgement_clear(&w.judged);
    ref_snapshot_free(w.fr[0]);
    ref_snapshot_free(w.fr[1]);
    ref_setup_free(w.setup);
    return rc;
}

/* The options' words into a job; 0, or EXIT_BAD_INPUT said on stderr. */
static int job_from_words(referee_job *job, const char *paper_word, const char *view_word, const char *move)
{
    const char *missing = NULL;
    base_error err;
    if (ref_setup_check(job->table_path, job->calib_path, job->roster_path, &missing, &err) < 0)
        return missing ? cli_missing("referee", missing) : fprintf(stderr, "tableref referee: %s\n", err.msg),
               EXIT_BAD_INPUT;
    if (!job->dir)
        return cli_missing("referee", "--out DIR (where to write the report and pictures)"), EXIT_BAD_INPUT;
    if (ov_paper_from_word(paper_word, &job->paper) < 0) {
        fprintf(stderr, "tableref referee: --paper: expected a4 or letter, got '%s'\n", paper_word);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(view_word, "judged") != 0 && strcmp(view_word, "board") != 0) {
        fprintf(stderr, "tableref referee: --report-view: expected judged or board, got '%s'\n", view_word);
        return EXIT_BAD_INPUT;
    }
    job->whole_board = strcmp(view_word, "board") == 0;
    if (rules_move_from_token(move, &job->move) < 0) {
        char list[256];
        rules_move_tokens(RULES_MOVE_PICTURES, 0, ", ", ", ", list, sizeof list);
        fprintf(stderr, "tableref referee: --move: expected %s or auto, got '%s'\n", list, move);
        return EXIT_BAD_INPUT;
    }
    if (job->reach_unit && job->move != RULES_MOVE_AUTO && !rules_move_has(job->move, RULES_MOVE_REACH)) {
        char reach[256];
        rules_words_moves_either(RULES_MOVE_REACH, false, reach, sizeof reach);
        fprintf(stderr, "tableref referee: --reach: a reach is drawn for %s, not for --move %s\n", reach, move);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

int cmd_referee(int argc, char **argv)
{
    const char *images[2] = {NULL, NULL}, *calib_path = NULL, *roster_path = NULL, *dir = NULL, *unit = NULL,
               *move = "auto", *proj_path = NULL, *table_path = NULL, *paper_word = "a4", *view_word = "judged",
               *reach_unit = NULL;
    int n_images = 0, refine = 1, camera_full = 0, camera_png = 0, png = 0, svg = 0;
    double report_dpi = 0; /* 0: not given */
    cli_list rolls = {{0}, 0};
    /* --move: the rows judged from two pictures (rules_moves.def) */
    char move_list[256], move_choices[300], move_help[300];
    rules_move_tokens(RULES_MOVE_PICTURES, 0, " ", " ", move_list, sizeof move_list);
    snprintf(move_choices, sizeof move_choices, "auto %s", move_list);
    rules_move_tokens(RULES_MOVE_PICTURES, 0, ", ", ", ", move_list, sizeof move_list);
    snprintf(move_help, sizeof move_help, "%s or auto (default: auto)", move_list);
    cli_wrap(move_help, 62);
    const cli_opt opts[] = {
        CLI_CALIB_OPT(&calib_path),
        CLI_ROSTER_OPT(&roster_path),
        CLI_OUT_DIR("--out", &dir, "DIR", REFEREE_FILES, "where to write the report and pictures"),
        CLI_INPUT("--table", &table_path, "T",
                   "the table file: calibration, rosters, ruleset with house\n"
                   "rules, terrain (docs/formats.md); replaces --calib and --roster"),
        CLI_STRING("--unit", &unit, "ID", "judge only this unit"),
        CLI_LIST("--roll", &rolls, "UNIT=INCHES", CLI_ROLL_HELP),
        CLI_CHOICE("--move", &move, "TYPE", move_choices, move_help),
        CLI_INPUT("--projector", &proj_path, "P",
                   "a calibration file with a \"projector\" section (refused when\n"
                   "it has none, or when it is stale: made through another\n"
                   "board pose or image size than the camera's), or a plain\n"
                   "board->projector homography {\"width\", \"height\", \"H\": [9]}\n"
                   "(default: the calibration file's \"projector\" section; with\n"
                   "neither, no projector.png is written)"),
        CLI_FLAG("--no-refine", &refine, 0, "keep the calibration's board pose"),
        CLI_FLAG("--camera-full", &camera_full, 1,
                 "the camera picture at the AFTER picture's own size\n"
                 "(default: at most 1920x1080, what a screen shows, at a\n"
                 "fraction of the cost)"),
        CLI_FLAG("--camera-png", &camera_png, 1,
                 "the camera picture as camera.png, lossless (default:\n"
                 "camera.jpg, JPEG at quality 90: a PNG of a photo costs\n"
                 "about ten times as much to write)"),
        CLI_FLAG("--png", &png, 1,
                 "also write the report's pages as report.png (default:\n"
                 "report.pdf only: it prints, and every browser shows it)"),
        CLI_WHOLE("--report-dpi", &report_dpi, "N", OV_REPORT_DPI_MIN, OV_REPORT_DPI_MAX,
                  "report.png's pixels per inch, and write it (default with\n"
                  "--png: 96, an A4 page 794x1123 as a screen shows it; 150\n"
                  "for print)"),
        CLI_FLAG("--svg", &svg, 1,
                 "also write the report as report.svg (its text as <text>;\n"
                 "default: report.pdf only)"),
        CLI_CHOICE("--paper", &paper_word, "P", "a4 letter", "report pages: a4 (default) or letter"),
        CLI_CHOICE("--report-view", &view_word, "V", "judged board",
                   "judged: the judged units and what they touch (default);\n"
                   "board: the whole board"),
        CLI_STRING("--reach", &reach_unit, "ID",
                   "also draw where unit ID could legally end from the BEFORE\n"
                   "picture (tableref reach): for the move --move names (advance\n"
                   "or march; auto: the move judged, else march), on every\n"
                   "picture, and its JSON in report.json (referee.reach)"),
    };
    n_images = cli_parse(&doc, argc, argv, opts, CLI_N(opts), images, 2);
    if (n_images < 0)
        return cli_status(n_images);
    if (n_images < 2)
        return cli_missing("referee", n_images == 0 ? "the BEFORE and AFTER images" : "the AFTER image"),
               EXIT_BAD_INPUT;
    referee_job job = {.images = {images[0], images[1]}, .dir = dir, .unit = unit, .proj_path = proj_path,
                       .table_path = table_path, .calib_path = calib_path, .roster_path = roster_path,
                       .reach_unit = reach_unit, .refine = refine != 0, .rolls = &rolls,
                       .camera_full = camera_full != 0, .camera_png = camera_png != 0, .svg = svg != 0,
                       .report_dpi = report_dpi > 0 ? report_dpi : png ? REFEREE_REPORT_DPI : 0};
    if (job_from_words(&job, paper_word, view_word, move) != 0)
        return EXIT_BAD_INPUT;
    return run_referee(&job);
}
