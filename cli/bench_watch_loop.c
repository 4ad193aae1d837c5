/*
 * tableref bench watch --projector: the watch in the closed loop
 * (datasets/ds_loop.h) on a hard-set turn (ds_sequence_hard: a 4.5"
 * advance, legal, and an 11" march, illegal), each frame lit by what the
 * watch projects 100 ms earlier, with the projector off and at 1.5x, 2.5x
 * and 4x the room's light. Per run: settles (one per move plus the first),
 * the calls, models placed at each settle from their own tags and wrong
 * ids (a model placed over 10 mm from where the truth has it) against the
 * keyframe's truth, the others' position error (median, p99) and facing
 * p99 beside the unlit run's, stalls (frames still but refused a settle),
 * and frames lit. Settle-to-alert is the settle frame's tracking, detection
 * and judging (wall time, and the process's CPU time: the machine may be
 * shared); each call also says where its time went and how long its
 * projector picture took to draw (the call on the table). The watch draws
 * as `tableref watch --projector` without --record does: the projector's
 * picture only. Prints figures; not a test.
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

/* Where a call's time went, ms: the settle frame's tracking (wall and this thread's CPU), its detection and
 * judging, the share of the frame detected, and drawing the projector picture that throws the call. */
typedef struct call_time {
    double wall, cpu, detect, check, share, draw, draw_cpu;
} call_time;

typedef struct loop_figures {
    int settles, calls, legal[MAX_SETTLES], placed[MAX_SETTLES], wrong, stalls;
    call_time call[MAX_SETTLES];
    double *pos_err, *facing_err; /* mm and degrees, every model placed from its tags at every settle */
    size_t n_err, cap_err;
    long frames, frames_lit;
    double wall_s;
} loop_figures;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The process's CPU time (every thread of the detector): on a shared machine, what the work cost whatever else runs. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void add_error(loop_figures *f, double mm, double deg)
{
    if (f->n_err == f->cap_err) {
        size_t cap = f->cap_err ? 2 * f->cap_err : 1024;
        double *p = realloc(f->pos_err, cap * sizeof *p), *q = p ? realloc(f->facing_err, cap * sizeof *q) : NULL;
        if (p)
            f->pos_err = p;
        if (!q)
            return; /* out of memory: the figure is over fewer models */
        f->facing_err = q, f->cap_err = cap;
    }
    f->pos_err[f->n_err] = mm, f->facing_err[f->n_err++] = deg;
}

/* Models placed from their own tags, those placed over 10 mm from the truth (a wrong id), and the others'
 * position and facing errors. */
static void score_settle(const rules_snapshot *seen, const rules_snapshot *truth, loop_figures *f)
{
    int *placed = &f->placed[f->settles];
    *placed = 0;
    for (size_t u = 0; u < seen->n_units; u++)
        for (size_t m = 0; m < seen->units[u].n_models; m++) {
            const rules_model *sm = &seen->units[u].models[m];
            if (sm->evidence == RULES_EVIDENCE_INFERRED)
                continue;
            (*placed)++;
            for (size_t v = 0; v < truth->n_units; v++)
                for (size_t k = 0; k < truth->units[v].n_models; k++) {
                    const rules_model *tm = &truth->units[v].models[k];
                    if (strcmp(tm->id, sm->id) != 0)
                        continue;
                    const double d = base_v2_len(base_v2_sub(tm->pos, sm->pos));
                    if (d > 10)
                        f->wrong++;
                    else
                        add_error(f, d, fabs(base_rad_to_deg(base_angle_wrap(tm->facing - sm->facing))));
                }
        }
}

typedef struct loop_run {
    const ds_sequence *q;
    ds_loop *L;
    bool trace;
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
    /* As watch_session does when it records nothing: the projector's picture without the camera's layer. */
    watch_show_follow(R->sh, frame, &c);
    const base_image *pic = watch_show_projector(R->sh, frame, &c);
    if (pic == frame)
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
    const double t0 = now_ms(), c0 = cpu_ms();
    int rc = watch_tracker_frame(R->w, g->data, g->width, g->height, g->stride, t, &res, err);
    const call_time ct = {.wall = now_ms() - t0, .cpu = cpu_ms() - c0, .detect = res.detect_ms,
                          .check = res.check_ms, .share = res.detect_share};
    if (rc == 0 && R->trace)
        printf("    frame %ld %.2f s: %s%s%s\n", index, t / 1000, watch_tracker_state_word(res.state),
               res.note[0] ? ": " : "", res.note);
    if (rc == 0 && res.state == WATCH_TRACKER_MOVING && R->showing)
        R->showing = false, R->generation++;
    const bool call = rc == 0 && res.settled && res.moved && f->settles < MAX_SETTLES;
    if (rc == 0 && res.settled && f->settles < MAX_SETTLES) {
        const long period = ds_sequence_hold_frames(R->q) + ds_sequence_move_frames(R->q);
        rules_snapshot *truth = ds_sequence_keyframe(R->q, (size_t)(index / period), err);
        if (truth)
            score_settle(watch_tracker_snapshot(R->w), truth, f);
        rules_snapshot_free(truth);
        if (res.moved) {
            f->legal[f->calls] = res.report->legal;
            f->call[f->calls++] = ct;
            R->showing = true, R->show_move = res.move;
        }
        f->settles++;
        R->generation++;
    } else if (rc == 0 && res.state == WATCH_TRACKER_WAITING_TAGS) {
        f->stalls++;
    }
    const double d0 = now_ms(), dc0 = cpu_ms();
    if (rc == 0 && !project(R, img, &res, t, err) && err->msg[0])
        rc = -1;
    if (call)
        f->call[f->calls - 1].draw = now_ms() - d0, f->call[f->calls - 1].draw_cpu = cpu_ms() - dc0;
    base_image_free(gray);
    return rc;
}

static int run_loop(const ds_sequence *q, const calib_file *cam, const double P[3], double ratio, bool trace,
                    loop_figures *f, base_error *err)
{
    ds_loop_params lp;
    ds_loop_params_default(&lp);
    ds_loop_params_from_calib(cam, &lp);
    lp.ratio = ratio;
    watch_tracker_config cfg;
    watch_tracker_config_default(&cfg);
    cfg.settle_ms = 800;
    loop_run R = {.q = q, .trace = trace};
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

/* The q-quantile (0..1) of v[0..n) (sorted in place); NAN when empty. */
static double quantile(double *v, size_t n, double q)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof *v, cmp_d);
    size_t k = (size_t)ceil(q * (double)n);
    return v[k ? k - 1 : 0];
}

typedef struct accuracy {
    double pos_p50, pos_p99, facing_p99;
} accuracy;

static accuracy accuracy_of(loop_figures *f)
{
    return (accuracy){quantile(f->pos_err, f->n_err, 0.5), quantile(f->pos_err, f->n_err, 0.99),
                      quantile(f->facing_err, f->n_err, 0.99)};
}

static void print_run(const char *name, loop_figures *f, const loop_figures *off, const accuracy *off_acc,
                      size_t n_moves)
{
    double lat[MAX_SETTLES];
    for (int k = 0; k < f->calls; k++)
        lat[k] = f->call[k].wall;
    qsort(lat, (size_t)f->calls, sizeof *lat, cmp_d);
    double cpu = 0, lit = 0; /* the worst call's CPU, and its settle frame to its picture drawn (wall) */
    for (int k = 0; k < f->calls; k++)
        cpu = fmax(cpu, f->call[k].cpu), lit = fmax(lit, f->call[k].wall + f->call[k].draw);
    int same = f->calls == off->calls, fewest = 1 << 30, drop = 0;
    for (int k = 0; k < f->calls && k < off->calls; k++)
        same &= f->legal[k] == off->legal[k];
    for (int k = 0; k < f->settles; k++) {
        fewest = f->placed[k] < fewest ? f->placed[k] : fewest;
        if (k < off->settles && off->placed[k] - f->placed[k] > drop)
            drop = off->placed[k] - f->placed[k];
    }
    const accuracy a = f == off ? *off_acc : accuracy_of(f);
    printf("  %-13s settles %d (%.2f per move), calls %d (%s), models placed min %d (at most %d fewer than off), "
           "wrong ids %d, settle-to-alert median %.1f ms worst %.1f ms (CPU worst %.1f ms; to the call's picture worst %.1f ms), stalls %d, frames lit %ld/%ld, %.0f s\n",
           name, f->settles, n_moves ? (f->settles - 1) / (double)n_moves : 0, f->calls,
           same ? "the same as off" : "DIFFERENT from off", f->settles ? fewest : 0, drop, f->wrong,
           f->calls ? (lat[(f->calls - 1) / 2] + lat[f->calls / 2]) / 2 : NAN, f->calls ? lat[f->calls - 1] : NAN, cpu, lit,
           f->stalls, f->frames_lit, f->frames, f->wall_s);
    printf("  %-13s position error median %.3f mm, p99 %.3f mm (off %.3f, %+.3f), facing p99 %.2f deg (off %.2f, "
           "%+.2f), over %zu model placings\n",
           "", a.pos_p50, a.pos_p99, off_acc->pos_p99, a.pos_p99 - off_acc->pos_p99, a.facing_p99,
           off_acc->facing_p99, a.facing_p99 - off_acc->facing_p99, f->n_err);
    for (int k = 0; k < f->calls; k++) {
        const call_time *c = &f->call[k];
        printf("  %-13s call %d: settle frame %.1f ms (CPU %.1f ms): detect %.1f ms on %.0f%% of the frame, judge "
               "%.1f ms; projector picture %.1f ms (CPU %.1f ms)\n",
               "", k + 1, c->wall, c->cpu, c->detect, 100 * c->share, c->check, c->draw, c->draw_cpu);
    }
    fflush(stdout);
}

static void figures_clear(loop_figures *f)
{
    free(f->pos_err);
    free(f->facing_err);
    memset(f, 0, sizeof *f);
}

int bench_watch_projector(const bench_watch_loop_options *o)
{
    const int table = o->table, supersample = o->supersample;
    const char *crop = o->crop;
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
    const double every[] = {0, 1.5, 2.5, 4}, one[] = {0, o->light};
    const double *ratios = o->light > 0 ? one : every;
    const size_t n_ratios = o->light > 0 ? 2 : 4;
    loop_figures off = {0}, f = {0};
    accuracy off_acc = {0};
    int rc = 0;
    for (size_t i = 0; i < n_ratios && rc == 0; i++) {
        loop_figures *run = i ? &f : &off;
        figures_clear(run);
        if (o->trace)
            printf("  %s\n", i ? "lit:" : "off:");
        if (run_loop(q, &cam, P, ratios[i], o->trace, run, &err) < 0) {
            fprintf(stderr, "tableref bench watch: %s\n", err.msg);
            rc = 2;
            break;
        }
        if (!i)
            off_acc = accuracy_of(&off);
        char name[32];
        snprintf(name, sizeof name, i ? "light %.1fx:" : "off:", ratios[i]);
        print_run(name, run, &off, &off_acc, q->n_moves);
    }
    figures_clear(&off);
    figures_clear(&f);
    ds_sequence_free(q);
    return rc;
}
