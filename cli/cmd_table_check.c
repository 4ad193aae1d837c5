/*
 * tableref table-check: the pre-round check of a table, as goal-line
 * technology has its check before every match. One picture of the table
 * set up for the round, read through its set-up; every figure the referee's
 * self-checks look at (referee/ref_check.h), the resolution margin, each
 * unit's tags and, with a projector mapped, its alignment
 * (referee/ref_projcheck.h): marks thrown by the projector window and read
 * back from the camera (--projector), or lit onto the picture by a simulated
 * projector (--simulate-projector, datasets/ds_light.h). Go or no-go each
 * (referee/ref_check_table.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_json.h"
#include "calibrate_loop.h"
#include "cli_args.h"
#include "commands.h"
#include "ds_calibview.h"
#include "ds_light.h"
#include "ds_render.h"
#include "ref_check_table.h"
#include "ref_projcheck.h"
#include "ref_setup.h"
#include "ref_snapshot.h"
#include "table_file.h"

static const cli_doc doc = {
    "table-check",
    "usage: tableref table-check IMAGE --table T.json [--json] [--projector | --simulate-projector]\n"
    "       tableref table-check IMAGE --calib C.json --roster R.json [--json] [...]\n"
    "\n"
    "Checks a table before a round from one camera picture of it, every unit\n"
    "set up: focus at the tags (the worst place named), exposure (tag pixels\n"
    "clipped, the tags' white level), resolution margin (pixels per tag cell at\n"
    "the smallest tag), the board tags against the roster's board (the pose's\n"
    "residual, their sizes), the calibration's fit (model tag sizes, the share\n"
    "of the roster seen, what the picture proves against the roster: a unit in\n"
    "two places, bases overlapping, tags it does not hold) and each unit's\n"
    "models seen (placed from their tags, as detect places them), each with\n"
    "its figure and a go or no-go. With a projector mapped (the calibration's\n"
    "projector section) and --projector or --simulate-projector, its\n"
    "alignment: marks thrown on bare board, found in the camera, their\n"
    "residual in mm (median and worst).\n"
    "Limits: docs/setup-checks.md.\n"
    "\n",
    "\n"
    "Exit status: 0 go, 1 no-go (the reasons printed), 2 bad input or usage.\n",
    "IMAGE",
};

typedef struct proj_opts {
    int live, simulate;
    const char *source;
    double sx, sy;
} proj_opts;

/* ---- the simulated projector: IMAGE lit through datasets/ds_light by what is shown ---- */

#define SIM_FRAME_MS (1000.0 / 30) /* the simulated camera's frame period */

typedef struct sim_projector {
    const base_image *table;       /* IMAGE: the table under the room's light */
    ds_light_map *map;             /* camera pixel -> the true projector's pixel */
    double ratio, latency_ms, t_ms;
    base_image *shown, *before;    /* the newest picture (shown at shown_at) and the one before it */
    double shown_at;
    base_image *frame;             /* the frame handed out, lit by frame_of */
    const base_image *frame_of;
    uint32_t frames;
} sim_projector;

static int sim_show(void *ctx, const base_image *pic, base_error *err)
{
    sim_projector *s = ctx;
    base_image *copy = base_image_clone(pic);
    if (!copy)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    if (s->frame && s->frame_of == s->before) { /* its picture goes: the frame lit by it is no longer cached */
        base_image_free(s->frame);
        s->frame = NULL;
    }
    base_image_free(s->before);
    s->before = s->shown, s->shown = copy, s->shown_at = s->t_ms;
    return 0;
}

/* The next frame: the table lit by the picture due (shown a latency ago), with the camera's noise. A still table
 * under a still picture gives the same frame: it is rendered again only when the picture due changes. */
static const base_image *sim_grab(void *ctx, double *t_ms, base_error *err)
{
    sim_projector *s = ctx;
    s->t_ms += SIM_FRAME_MS;
    *t_ms = s->t_ms;
    const base_image *due = s->t_ms >= s->shown_at + s->latency_ms ? s->shown : s->before;
    if (s->frame && due == s->frame_of)
        return s->frame;
    base_image *light = due ? ds_light_map_apply(s->map, due, err) : base_image_new(s->table->width, s->table->height, 1, 0);
    if (!light)
        return NULL;
    ds_render_params p;
    ds_render_params_default(&p);
    p.style = DS_STYLE_CLASSIC;
    memset(&p.effects, 0, sizeof p.effects);
    p.effects.noise_sigma = 1.0;
    p.sensor.light = light, p.sensor.light_ratio = s->ratio, p.sensor.light_black = DS_LIGHT_BLACK;
    base_image *gray = NULL;
    int rc = ds_render_capture(s->table, &p, ++s->frames, &gray, NULL, err);
    base_image_free(light);
    if (rc < 0)
        return NULL;
    base_image_free(s->frame);
    s->frame = gray, s->frame_of = due;
    return gray;
}

static double sim_now(void *ctx) { return ((sim_projector *)ctx)->t_ms; }

/*
 * The simulated projector hangs where `calibrate projector` would find the simulated one (ds_projector_default:
 * 1280x800 beside the camera): its true mapping lights the picture. A calibration without a projector section is
 * given that projector's exact mapping; one with a section is checked against it.
 */
static int sim_open(const base_image *table, calib_file *c, double board_w, double board_d, sim_projector *s,
                    base_error *err)
{
    memset(s, 0, sizeof *s);
    ds_projector pj;
    ds_projector_default(&pj, board_w, board_d);
    double H[9], P[3];
    ds_projector_board_to_px(&pj, H);
    for (int i = 0; i < 3; i++) /* the lens: -R^T t */
        P[i] = -(pj.R[i] * pj.t[0] + pj.R[3 + i] * pj.t[1] + pj.R[6 + i] * pj.t[2]);
    if (!c->projector.present) {
        c->projector.present = 1;
        c->projector.width = pj.width, c->projector.height = pj.height;
        memcpy(c->projector.H, H, sizeof H);
    }
    s->table = table;
    s->ratio = c->projector.brightness_ratio > 0 ? c->projector.brightness_ratio : DS_LIGHT_RATIO_DEFAULT;
    s->latency_ms = ref_proj_latency_ms(&c->projector);
    s->shown_at = -1e9;
    return (s->map = ds_light_map_new(c, H, P, NULL, err)) ? 0 : -1;
}

static void sim_close(sim_projector *s)
{
    ds_light_map_free(s->map);
    base_image_free(s->shown);
    base_image_free(s->before);
    base_image_free(s->frame);
}

/* ---- the check ---- */

/* The projector's part: marks placed on the table seen in `f`, thrown through the live or the simulated loop. */
static int check_projector(ref_setup *s, const ref_snapshot *f, const proj_opts *o, const char *table_source,
                           ref_table_check *tc, base_error *err)
{
    calib_file c = s->calib;
    char why[300];
    /* --projector asks for it: a missing or stale section is bad input, as for watch --projector. */
    int st = o->live ? calib_file_projector_stale(&c, f->image->width, f->image->height, f->snap->board_width,
                                                  f->snap->board_depth, why, sizeof why)
                     : CALIB_PROJ_OK;
    if (st != CALIB_PROJ_OK && st != CALIB_PROJ_UNSTAMPED)
        return base_error_set(err, "%s: projector: %s", s->calib_path, why);
    if (!o->simulate && !c.projector.present) {
        ref_table_check_set_projector(tc, REF_PROJ_NOT_MAPPED, false, NULL);
        return 0;
    }
    if (!o->simulate && !o->live) {
        ref_table_check_set_projector(tc, REF_PROJ_NOT_CHECKED, false, NULL);
        return 0;
    }
    sim_projector sim;
    calibrate_live *live = NULL;
    calib_loop loop;
    int rc = -1;
    if (o->simulate) {
        if (sim_open(f->image, &c, f->snap->board_width, f->snap->board_depth, &sim, err) < 0)
            goto done;
        loop = (calib_loop){&sim, sim_show, sim_grab, sim_now};
    } else {
        const char *src = o->source ? o->source : table_source;
        if (!src || !src[0]) {
            base_error_set(err, "--projector: give the camera with --source SRC (the table file names none)");
            goto done;
        }
        if (!(live = calibrate_live_open(src, (int)o->sx, (int)o->sy, &loop, err)))
            goto done;
    }
    ref_proj_marks m;
    ref_proj_result r;
    if (ref_proj_marks_place(s->roster, f->snap, &c, &m, err) == 0) {
        /* One frame more for a live camera, whose frame time may be its exposure's start (its row says). */
        const int extra_frames = live && calibrate_live_is_live(live) ? 1 : 0;
        rc = ref_snapshot_proj_check(s, f, &c, &m, &loop, ref_proj_latency_ms(&c.projector), extra_frames,
                                     s->calib_path, &r, err);
        if (rc == 0)
            ref_table_check_set_projector(tc, REF_PROJ_CHECKED, o->simulate != 0, &r);
    }
    ref_proj_marks_clear(&m);
done:
    if (o->simulate)
        sim_close(&sim);
    calibrate_live_close(live);
    return rc;
}

static void print_text(const ref_table_check *tc)
{
    const ref_checks *c = &tc->checks;
    for (int i = 0; i < REF_CHECK_N; i++) {
        const ref_check_result *r = &c->items[i];
        printf("%-6s %-15s ", !r->measured ? "-" : r->ok ? "go" : "NO-GO", ref_check_rules[i].name);
        if (!r->measured)
            printf("not measured (nothing to measure it on)\n");
        else if (!r->ok)
            printf("%s\n", r->msg);
        else
            printf("%.3g%s%s (limit %.3g)%s%s\n", r->value, ref_check_rules[i].unit[0] ? " " : "",
                   ref_check_rules[i].unit, ref_check_rules[i].limit, r->where[0] ? ", worst at " : "", r->where);
    }
    printf("%-6s %-15s clipped %.1f%% of the tags' pixels, white level %.0f of 255\n",
           c->items[REF_CHECK_EXPOSURE].ok ? "go" : "NO-GO", "exposure-parts", 100 * c->clipped_share,
           c->dark_white_level);
    printf("%-6s %-15s %.2f px per tag cell at the smallest tag (limit %.1f)\n", tc->resolution_ok ? "go" : "NO-GO",
           "resolution", c->min_cell_px, REF_TABLE_MIN_CELL_PX);
    for (size_t i = 0; i < tc->n_units; i++)
        printf("%-6s unit %-10s %zu/%zu models seen%s%s%s\n", tc->units[i].seen ? "go" : "NO-GO", tc->units[i].id,
               tc->units[i].seen, tc->units[i].total, tc->units[i].seen ? "" : " (",
               tc->units[i].seen ? "" : (tc->units[i].roster ? tc->units[i].roster : "its roster"),
               tc->units[i].seen ? "" : "): a hand or a figure over its tags? clear them and check again");
    if (tc->projector_status == REF_PROJ_NOT_MAPPED)
        printf("%-6s %-15s not mapped\n", "-", "projector");
    else if (tc->projector_status == REF_PROJ_NOT_CHECKED)
        printf("%-6s %-15s mapped, not checked (--projector throws its marks, --simulate-projector simulates them)\n",
               "-", "projector");
    else
        printf("%-6s %-15s %s%s\n", tc->projector.ok ? "go" : "NO-GO", "projector", tc->projector.msg,
               tc->projector_simulated ? " (simulated projector)" : "");
    printf("table-check: %s\n", tc->go ? "GO" : "NO-GO");
}

static void print_json(const ref_table_check *tc)
{
    cJSON *root = ref_table_check_to_json(tc);
    char *txt = root ? base_json_print(root, true) : NULL;
    if (txt)
        printf("%s\n", txt);
    free(txt);
    cJSON_Delete(root);
}

static int run_table_check(const char *image, const char *table, const char *calib, const char *roster, int json,
                           const proj_opts *po)
{
    base_error err = {0};
    ref_setup *s = ref_setup_new(table, calib, roster, &err);
    ref_snapshot *f = s ? ref_snapshot_new(s, image, NULL, &err) : NULL;
    ref_table_check tc = {0};
    int rc = EXIT_BAD_INPUT;
    if (f && ref_snapshot_table_check(s, f, NULL, &tc) < 0)
        base_error_setc(&err, BASE_E_NOMEM, "out of memory");
    else if (f && check_projector(s, f, po, s->from_table ? s->table->source : NULL, &tc, &err) == 0)
        rc = tc.go ? EXIT_LEGAL : EXIT_ILLEGAL;
    if (rc == EXIT_BAD_INPUT) {
        fprintf(stderr, "tableref table-check: %s\n", err.msg);
    } else {
        if (json)
            print_json(&tc);
        else
            print_text(&tc);
        for (int i = 0; !tc.go && i < REF_CHECK_N; i++)
            if (!tc.checks.items[i].ok)
                fprintf(stderr, "tableref table-check: no-go: %s\n", tc.checks.items[i].msg);
        if (tc.projector_status == REF_PROJ_CHECKED && !tc.projector.ok)
            fprintf(stderr, "tableref table-check: no-go: %s\n", tc.projector.msg);
    }
    ref_table_check_clear(&tc);
    ref_snapshot_free(f);
    ref_setup_free(s);
    return rc;
}

int cmd_table_check(int argc, char **argv)
{
    const char *image = NULL, *calib_path = NULL, *roster_path = NULL, *table_path = NULL;
    int json = 0;
    proj_opts po = {0};
    const cli_opt opts[] = {
        CLI_INPUT("--table", &table_path, "T", "the table file (calibration, rosters); replaces --calib and --roster"),
        CLI_CALIB_OPT(&calib_path),
        CLI_ROSTER_OPT(&roster_path),
        CLI_FLAG("--json", &json, 1, "print every figure as JSON on stdout"),
        CLI_FLAG("--projector", &po.live, 1,
                 "check the projector's alignment: its marks shown full-screen\n"
                 "(needs a display and the calibration's projector section, not\n"
                 "stale) and read from the camera after the projector's latency"),
        CLI_SOURCE("--source", &po.source, "SRC", "with --projector: the camera (default: the table file's)"),
        CLI_WHOLE("--screen-x", &po.sx, "X", -32768, 32767, "with --projector: where its window goes (0)"),
        CLI_WHOLE("--screen-y", &po.sy, "Y", -32768, 32767, "with --projector: where its window goes (0)"),
        CLI_FLAG("--simulate-projector", &po.simulate, 1,
                 "check the alignment with a simulated projector lighting IMAGE\n"
                 "(datasets/ds_light.h), hung where calibrate projector's own\n"
                 "simulation hangs it: the calibration's projector section is\n"
                 "checked against it (without one, its exact mapping is used)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), &image, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!image)
        return cli_missing("table-check", "the camera IMAGE"), EXIT_BAD_INPUT;
    if (po.live && po.simulate) {
        fprintf(stderr, "tableref table-check: give --projector or --simulate-projector, not both\n");
        return EXIT_BAD_INPUT;
    }
    const char *missing = NULL;
    base_error err;
    if (ref_setup_check(table_path, calib_path, roster_path, &missing, &err) < 0)
        return missing ? cli_missing("table-check", missing) : fprintf(stderr, "tableref table-check: %s\n", err.msg),
               EXIT_BAD_INPUT;
    return run_table_check(image, table_path, calib_path, roster_path, json, &po);
}
