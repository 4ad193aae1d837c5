/*
 * tableref bench watch --projector: the watch in the closed loop
 * (datasets/ds_loop.h) on a hard-set turn (ds_sequence_hard: a 4.5"
 * advance, legal, and an 11" march, illegal), each frame lit by what the
 * watch projects 100 ms earlier, with the projector off and at 1.5x, 2.5x
 * and 4x the room's light. Per run: settles (one per move plus the first),
 * the calls, models placed at each settle from their own tags and wrong
 * ids (a model placed over 10 mm from where the truth has it) against the
 * keyframe's truth, settle-to-alert latency (the settle frame's tracking,
 * detection and judging), stalls (frames still but refused a settle), and
 * frames lit. Prints figures; not a test.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_watch_loop.h"
#include "ds_loop.h"
#include "ds_sequence.h"
#include "rules_snapshot.h"
#include "watch_echo.h"
#include "watch_show.h"
#include "watch_tracker.h"

enum { MAX_SETTLES = 16 };

typedef struct loop_figures {
    int settles, calls, legal[MAX_SETTLES], placed[MAX_SETTLES], wrong, stalls;
    double latency[MAX_SETTLES];
    long frames, frames_lit;
    double wall_s;
} loop_figures;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Models placed from their own tags, and those placed over 10 mm from the truth (a wrong id). */
static void score_settle(const rules_snapshot *seen, const rules_snapshot *truth, int *placed, int *wrong)
{
    *placed = 0;
    for (size_t u = 0; u < seen->n_units; u++)
        for (size_t m = 0; m < seen->units[u].n_models; m++) {
            const rules_model *sm = &seen->units[u].models[m];
            if (sm->evidence == RULES_EVIDENCE_INFERRED)
                continue;
            (*placed)++;
            for (size_t v = 0; v < truth->n_units; v++)
                for (size_t k = 0; k < truth->units[v].n_models; k++)
                    if (strcmp(truth->units[v].models[k].id, sm->id) == 0 &&
                        base_v2_len(base_v2_sub(truth->units[v].models[k].pos, sm->pos)) > 10)
                        (*wrong)++;
        }
}

typedef struct loop_run {
    const ds_sequence *q;
    ds_loop *L;
    watch_tracker *w;
    watch_show *sh;
    bool showing;
    int show_move;
    long generation;
} loop_run;

/* What the watch draws now, as watch_session does: the latest call until the table moves, else the table. */
static const base_image *project(loop_run *R, const base_image *frame, const watch_tracker_result *res, double t,
                                 base_error *err)
{
    watch_show_content c = {.table = watch_tracker_snapshot(R->w), .roster = R->q->scene->roster,
                            .moving = res->state != WATCH_TRACKER_SETTLED,
                            .generation = R->generation * 2 + R->showing};
    if (R->showing && watch_tracker_last_call(R->w, &c.before, &c.after, &c.report) != R->show_move)
        c.before = c.after = NULL, c.report = NULL;
    const base_image *shown = watch_show_camera(R->sh, frame, &c);
    const base_image *pic = watch_show_projector(R->sh, shown, &c);
    if (pic == shown)
        return NULL;
    ds_loop_project(R->L, pic, t);
    return watch_tracker_projected(R->w, pic, t, err) < 0 ? NULL : pic;
}

/* One frame through the tracker; the settle's figures. 0 or -1. */
static int track(loop_run *R, const base_image *img, long index, double t, loop_figures *f, base_error *err)
{
    base_image *gray = img->channels == 3 ? base_image_to_gray(img) : NULL;
    const base_image *g = gray ? gray : img;
    watch_tracker_result res;
    const double t0 = now_ms();
    int rc = watch_tracker_frame(R->w, g->data, g->width, g->height, g->stride, t, &res, err);
    const double dt = now_ms() - t0;
    if (rc == 0 && res.state == WATCH_TRACKER_MOVING && R->showing)
        R->showing = false, R->generation++;
    if (rc == 0 && res.settled && f->settles < MAX_SETTLES) {
        const long period = ds_sequence_hold_frames(R->q) + ds_sequence_move_frames(R->q);
        rules_snapshot *truth = ds_sequence_keyframe(R->q, (size_t)(index / period), err);
        if (truth)
            score_settle(watch_tracker_snapshot(R->w), truth, &f->placed[f->settles], &f->wrong);
        rules_snapshot_free(truth);
        if (res.moved) {
            f->legal[f->calls] = res.report->legal;
            f->latency[f->calls++] = dt;
            R->showing = true, R->show_move = res.move;
        }
        f->settles++;
        R->generation++;
    } else if (rc == 0 && res.state == WATCH_TRACKER_WAITING_TAGS) {
        f->stalls++;
    }
    if (rc == 0 && !project(R, img, &res, t, err) && err->msg[0])
        rc = -1;
    base_image_free(gray);
    return rc;
}

static int run_loop(const ds_sequence *q, const calib_file *cam, const double P[3], double ratio, loop_figures *f,
                    base_error *err)
{
    memset(f, 0, sizeof *f);
    ds_loop_params lp;
    ds_loop_params_default(&lp);
    ds_loop_params_from_calib(cam, &lp);
    lp.ratio = ratio;
    watch_tracker_config cfg;
    watch_tracker_config_default(&cfg);
    cfg.settle_ms = 800;
    loop_run R = {.q = q};
    int rc = -1;
    const double w0 = now_ms();
    if (!(R.L = ds_loop_new(q, cam, P, &lp, err)) || !(R.w = watch_tracker_new(q->scene->roster, cam, &cfg, err)) ||
        !(R.sh = watch_show_new(cam, err)))
        goto done;
    for (long i = 0;; i++) {
        const base_image *img = NULL;
        err->msg[0] = 0;
        int r = ds_loop_read(R.L, i, &img, err);
        if (r < 0)
            goto done;
        if (r == 0)
            break;
        if (track(&R, img, i, i * 1000.0 / q->fps, f, err) < 0)
            goto done;
        f->frames++;
    }
    f->frames_lit = ds_loop_frames_lit(R.L);
    rc = 0;
done:
    f->wall_s = (now_ms() - w0) / 1000;
    watch_show_free(R.sh);
    watch_tracker_free(R.w);
    ds_loop_free(R.L);
    return rc;
}

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_run(const char *name, const loop_figures *f, const loop_figures *off, size_t n_moves)
{
    double lat[MAX_SETTLES];
    memcpy(lat, f->latency, sizeof lat);
    qsort(lat, (size_t)f->calls, sizeof *lat, cmp_d);
    int same = f->calls == off->calls, fewest = 1 << 30, drop = 0;
    for (int k = 0; k < f->calls && k < off->calls; k++)
        same &= f->legal[k] == off->legal[k];
    for (int k = 0; k < f->settles; k++) {
        fewest = f->placed[k] < fewest ? f->placed[k] : fewest;
        if (k < off->settles && off->placed[k] - f->placed[k] > drop)
            drop = off->placed[k] - f->placed[k];
    }
    printf("  %-13s settles %d (%.2f per move), calls %d (%s), models placed min %d (at most %d fewer than off), "
           "wrong ids %d, settle-to-alert median %.1f ms worst %.1f ms, stalls %d, frames lit %ld/%ld, %.0f s\n",
           name, f->settles, n_moves ? (f->settles - 1) / (double)n_moves : 0, f->calls,
           same ? "the same as off" : "DIFFERENT from off", f->settles ? fewest : 0, drop, f->wrong,
           f->calls ? lat[f->calls / 2] : NAN, f->calls ? lat[f->calls - 1] : NAN, f->stalls, f->frames_lit,
           f->frames, f->wall_s);
    fflush(stdout);
}

int bench_watch_projector(int table, const char *crop, int supersample)
{
    base_error err = {0};
    ds_sequence *q = ds_sequence_hard(table, crop, &err);
    calib_file cam;
    double P[3];
    if (!q || ds_loop_calib(q, &cam, P, &err) < 0) {
        fprintf(stderr, "tableref bench watch: %s\n", err.msg);
        ds_sequence_free(q);
        return 2;
    }
    if (supersample > 0)
        q->scene->render.supersample = supersample;
    printf("bench watch --projector: hard table %d, %dx%d frames, %zu models, %zu moves at %.0f fps, projector "
           "%dx%d, latency %.0f ms\n",
           table, cam.width, cam.height, q->scene->roster->n_models, q->n_moves, q->fps, cam.projector.width,
           cam.projector.height, watch_echo_latency(&cam));
    fflush(stdout);
    static const double ratios[] = {0, 1.5, 2.5, 4};
    loop_figures off = {0}, f;
    int rc = 0;
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0] && rc == 0; i++) {
        if (run_loop(q, &cam, P, ratios[i], i ? &f : &off, &err) < 0) {
            fprintf(stderr, "tableref bench watch: %s\n", err.msg);
            rc = 2;
            break;
        }
        char name[32];
        snprintf(name, sizeof name, i ? "light %.1fx:" : "off:", ratios[i]);
        print_run(name, i ? &f : &off, &off, q->n_moves);
    }
    ds_sequence_free(q);
    return rc;
}
