/*
 * tableref bench watch: how fast `tableref watch` calls a move at 12 MP.
 * A rendered 4056x3040 table (250 tags of 36 px) is played as a 10 fps
 * stream held in memory (no decoding: a camera hands frames over raw):
 * still frames with sensor noise, then a hand moving one unit, then still
 * again, for several moves. `--set hard:K` plays hard table K instead
 * (datasets/ds_hard: mixed 16-32 mm tags, leaning figures, hands, tilt,
 * lens, the camera chain), moving its units that have room ahead; `--set hills:K` the same table with three
 * hills (70 mm near an edge, 50, 30; a unit on each top), the watch given them as a table file gives them, and
 * at every settle the models on the hills and on the board scored apart (within 5 mm, p99). Measured: the settle frame's processing up to
 * the alert written and fsync'ed (settle_to_alert_ms; wall clock and the
 * process's CPU time, with where the detection's time went: the detector's
 * own counters, vis_detect_times), and frames per second over the whole
 * stream. `--cores N` pins the process to N CPUs and runs the detector's N
 * threads (bench_cores.h). Each call is set against the move judged on the
 * true positions (false ILLEGAL, ILLEGAL called legal) and the models placed
 * at the settles scored against the truth (ds_score.h); `--hidden-everywhere`
 * looks for units of which no tag decodes in the whole frame at every
 * settle (vis_recover_blobs.h), to compare. Prints figures; not a test.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_cores.h"
#include "bench_watch_loop.h"
#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "ds_hard.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "ds_score.h"
#include "ds_sequence.h"
#include "rules_move.h"
#include "rules_report.h"
#include "ref_snapshot_vision.h"
#include "ref_setup.h"
#include "watch_tracker.h"
#include "watch_log.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Two noisy copies of a still picture: consecutive frames differ by sensor noise, as a camera's do. */
static int noisy_pair(const base_image *img, uint32_t seed, base_image *out[2], base_error *err)
{
    for (int k = 0; k < 2; k++) {
        if (!(out[k] = base_image_clone(img)))
            return base_error_set(err, "out of memory");
        cvs_effects fx = {0};
        fx.noise_sigma = 1.5;
        fx.seed = seed * 2 + (uint32_t)k;
        if (cvs_render_effects(out[k], &fx, err) < 0)
            return -1;
    }
    return 0;
}

/* Moves unit `ui` of the snapshot forward by `mm` along its facing; returns its new centre. */
static base_vec2 advance_unit(rules_snapshot *s, size_t ui, double mm)
{
    rules_unit *u = &s->units[ui];
    base_vec2 c = base_v2(0, 0), d = base_v2_dir(u->models[0].facing);
    for (size_t k = 0; k < u->n_models; k++) {
        u->models[k].pos = base_v2_add(u->models[k].pos, base_v2_scale(d, mm));
        c = base_v2_add(c, u->models[k].pos);
    }
    return base_v2_scale(c, 1.0 / (double)u->n_models);
}

/* The table played: the classic bench table or a hard one, and how many of its units may move. */
typedef struct {
    ds_hard_table *hard_table; /* owns scene when the hard set is played */
    ds_scene *scene;
    size_t movable;
    bool hills;                /* a hills:K table: its models on the hills scored apart */
    ds_truth truth;            /* the still frames' truth (hills) */
    bool truth_legal;          /* the last move played, judged on the true positions */
    char truth_why[160];       /* ... when ILLEGAL: the unit and the first rule it broke */
} bw_table;

static int bw_table_load(int hard, bool hills, bw_table *tab, base_error *err)
{
    memset(tab, 0, sizeof *tab);
    tab->hills = hills;
    if (hard) {
        ds_hard_params hp;
        if (hills)
            ds_hard_preset_hills(hard, &hp);
        else
            ds_hard_preset(hard, &hp);
        if ((tab->hard_table = ds_hard_generate(&hp, err)))
            tab->scene = tab->hard_table->scene,
            tab->movable = tab->hard_table->reserved > 0 ? (size_t)tab->hard_table->reserved : 1;
    } else {
        ds_gen_params g;
        ds_gen_params_bench(&g);
        if ((tab->scene = ds_scene_generate(&g, err))) {
            tab->scene->render.supersample = 1; /* the picture's fidelity is not what is measured here */
            tab->movable = tab->scene->snapshot->n_units;
        }
    }
    return tab->scene ? 0 : -1;
}

static void bw_table_free(bw_table *tab)
{
    ds_truth_clear(&tab->truth);
    if (tab->hard_table)
        ds_hard_free(tab->hard_table);
    else
        ds_scene_free(tab->scene);
}

/* --cores N (bench_cores.h): the process pinned before any thread, the detector's threads N. 0, or the exit status. */
static int bw_pin(int cores)
{
    char cpus[256];
    base_error err;
    if (cores <= 0)
        return 0;
    if (bench_cores_pin(cores, cpus, sizeof cpus, &err) < 0) {
        fprintf(stderr, "tableref bench watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    printf("bench watch: the process pinned to CPU %s, %d detector thread%s (the machine may be shared: CPU time "
           "beside wall)\n",
           cpus, cores, cores == 1 ? "" : "s");
    return 0;
}

/* Parses the options; returns -1 to go on, else the exit status. */
static int bw_parse_args(int argc, char **argv, int *moves, bool *full, int *hard, bool *hills, bool *everywhere)
{
    static const cli_doc doc = {"bench watch",
                                "usage: tableref bench watch [--moves N] [--full-frame] [--hidden-everywhere] [--set hard[:K]|hills[:K]]\n"
                                "       [--cores N]\n"
                                "       tableref bench watch --projector [--set hard[:K]] [--crop WxH+X+Y] "
                                "[--supersample N] [--light R] [--trace] [--cores N]\n",
                                NULL};
    double n_moves = 3;
    int full_frame = 0, hidden_everywhere = 0;
    const char *set = NULL, *crop = NULL;
    int projector = 0;
    double supersample = 0, light = 0, cores = 0;
    int trace = 0;
    const cli_opt opts[] = {
        CLI_FLAG("--projector", &projector, 1,
                 "the closed loop on a hard-set turn: each frame lit by what the\n"
                 "watch projects, off and at 1.5x, 2.5x and 4x the room's light"),
        CLI_STRING("--crop", &crop, "WxH+X+Y", "with --projector: render this part of the 12 MP frame"),
        CLI_WHOLE("--supersample", &supersample, "N", 1, 4, "with --projector: the renderer's supersampling"),
        CLI_NUMBER("--light", &light, "R", 0.1, 10, "with --projector: off and this ratio to the room's light only"),
        CLI_FLAG("--trace", &trace, 1, "with --projector: every frame's state and why it waits"),
        CLI_WHOLE("--moves", &n_moves, "N", 1, 20, "moves played (3)"),
        CLI_FLAG("--full-frame", &full_frame, 1,
                 "detect on the whole settle frame (no regions of interest), for comparison"),
        CLI_FLAG("--hidden-everywhere", &hidden_everywhere, 1,
                 "look for units of which no tag decodes in the whole frame at\nevery settle, not only where it "
                 "changed, for comparison"),
        CLI_CHOICE("--set", &set, "hard[:K]", "hard hills",
                   "play hard table K (1-5: 5 is the 4K webcam) of the hard set\ninstead of the classic table; "
                   "hills:K the same with three hills,\nits models on them and on the board scored apart"),
        CLI_WHOLE("--cores", &cores, "N", 1, 64,
                  "pin the process to N CPUs and run the detector's N threads\n(default: not pinned, 2 threads)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    *moves = (int)n_moves, *full = full_frame, *hard = 0, *hills = false, *everywhere = hidden_everywhere;
    if (set) {
        *hills = strncmp(set, "hills", 5) == 0;
        const char *k = set + (*hills ? 5 : 4);
        *hard = *k == ':' ? atoi(k + 1) : 1;
        if ((!*hills && strncmp(set, "hard", 4) != 0) || (*k != 0 && *k != ':') || *hard < 1 ||
            *hard > ds_hard_preset_count()) {
            fprintf(stderr, "tableref bench watch: --set: hard[:1 .. %d] or hills[:1 .. %d], not %s\n",
                    ds_hard_preset_count(), ds_hard_preset_count(), set);
            return EXIT_BAD_INPUT;
        }
    }
    const int pinned = bw_pin((int)cores);
    if (pinned)
        return pinned;
    if (projector) {
        const bench_watch_loop_options o = {.table = *hard ? *hard : 1, .crop = crop, .supersample = (int)supersample,
                                            .light = light, .trace = trace};
        return bench_watch_projector(&o);
    }
    return -1;
}

/* Move m played on the true positions: unit (m - 1) % movable advanced 40 mm, and judged there (the call the
 * watch should make). Returns the moved unit's new centre. */
static base_vec2 bw_truth_move(bw_table *tab, int m, base_error *err)
{
    ds_scene *s = tab->scene;
    rules_snapshot *before = rules_snapshot_clone(s->snapshot);
    const base_vec2 at = advance_unit(s->snapshot, (size_t)(m - 1) % tab->movable, 40.0);
    rules_report rep;
    rules_report_init(&rep);
    tab->truth_legal = true, tab->truth_why[0] = 0;
    if (before && rules_move_check(before, s->snapshot, NULL, &rep, err) == 0) {
        tab->truth_legal = rep.legal;
        for (size_t u = 0; u < rep.n_units && !tab->truth_why[0]; u++)
            if (!rep.units[u].legal && rep.units[u].n_violations)
                snprintf(tab->truth_why, sizeof tab->truth_why, "%s: %s", rep.units[u].unit_id,
                         rep.units[u].violations[0].code);
    }
    rules_report_clear(&rep);
    rules_snapshot_free(before);
    return at;
}

/* The still frames after move m (m = 0: the table as set up) and, for a move, two frames with the
 * hand over the unit just moved. The caller frees all four pictures. */
static int bw_render_move(bw_table *tab, int m, base_image *still[2], base_image *with_hand[2], base_error *err)
{
    ds_scene *s = tab->scene;
    base_vec2 at = base_v2(0, 0);
    if (m > 0)
        at = bw_truth_move(tab, m, err);
    base_image *img = NULL;
    ds_truth_clear(&tab->truth);
    int rc = ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &tab->truth, err);
    if (rc == 0 && img->channels != 1) { /* the camera's Y plane, as watch takes it */
        base_image *gray = cvs_image_to_gray(img, err);
        base_image_free(img);
        if (!(img = gray))
            rc = -1;
    }
    if (rc == 0)
        rc = noisy_pair(img, (uint32_t)m, still, err);
    base_image_free(img);
    for (int k = 0; rc == 0 && m > 0 && k < 2; k++) {
        base_vec2 a = base_v2_add(at, base_v2(k ? 40 : -40, k ? -30 : 30));
        if (!(with_hand[k] = base_image_clone(still[k])) || ds_sequence_draw_hand(with_hand[k], &s->calib, a, err) < 0)
            rc = -1;
    }
    return rc;
}

/* What watch does at a call: log the call and the alert, each fsync'ed. */
static int bw_log_call(watch_log *log, const watch_tracker_result *res, double t, long frame, base_error *err)
{
    cJSON *ev = watch_log_event_new("move_checked", t, frame);
    if (ev)
        watch_log_add_call(ev, res->move, res->report, res->before, res->after);
    int wr = watch_log_write(log, ev, err) < 0 ? -1 : 0;
    cJSON_Delete(ev);
    ev = watch_log_event_new("alert", t, frame);
    if (wr == 0 && watch_log_write(log, ev, err) < 0)
        wr = -1;
    cJSON_Delete(ev);
    return wr;
}

/* The stream as played so far and what was measured on it. */
typedef struct {
    watch_tracker *tracker;
    watch_log *log;
    double *latency; /* settle frame to alert, one per call */
    double *latency_cpu; /* ... the process's CPU time over it */
    size_t n_lat;
    double *frame_ms; /* per-frame tracking time of frames that did not settle */
    size_t n_frames, cap_frames;
    double busy, t, motion_max;
    long frame;
    int calls, moves;
    const bw_table *tab;        /* hills: the table and its truth, to score each settle */
    ds_score raised, flat;      /* hills: the models on the hills and on the board at every settle */
    ds_score placed;            /* every model at every settle after a move */
    int false_illegal, missed_illegal; /* calls unlike the move judged on the true positions */
} bw_stream;

static int bw_record_frame_ms(bw_stream *st, double dt, base_error *err)
{
    if (st->n_frames == st->cap_frames) {
        size_t cap = st->cap_frames ? 2 * st->cap_frames : 64;
        double *grown = realloc(st->frame_ms, cap * sizeof *grown);
        if (!grown)
            return base_error_set(err, "out of memory");
        st->frame_ms = grown, st->cap_frames = cap;
    }
    st->frame_ms[st->n_frames++] = dt;
    st->motion_max = fmax(st->motion_max, dt);
    return 0;
}

/* Why an ILLEGAL call is: each unit called ILLEGAL and its first rule broken. */
static void bw_print_illegal(const rules_report *r)
{
    for (size_t u = 0; u < r->n_units; u++)
        if (!r->units[u].legal && r->units[u].n_violations)
            printf("    %s ILLEGAL: %s: %s\n", r->units[u].unit_id, r->units[u].violations[0].code,
                   r->units[u].violations[0].message);
}

/* Hands one frame to the tracker as watch does, times it and says what happened. */
static int bw_play_frame(bw_stream *st, const base_image *f, double fps, base_error *err)
{
    watch_tracker_result res;
    vis_detector *det = ref_setup_detector(watch_tracker_setup(st->tracker));
    det->times = (vis_detect_times){0}; /* this frame's stages */
    const double t0 = now_ms(), c0 = bench_cpu_ms();
    int wr = watch_tracker_frame(st->tracker, f->data, f->width, f->height, f->stride, st->t, &res, err);
    if (wr == 0 && res.settled && res.moved)
        wr = bw_log_call(st->log, &res, st->t, st->frame, err);
    const double dt = now_ms() - t0, cpu = bench_cpu_ms() - c0;
    if (wr < 0)
        return -1;
    st->busy += dt;
    if (!res.settled && bw_record_frame_ms(st, dt, err) < 0)
        return -1;
    if (res.settled && res.after && st->tab && st->tab->hills) {
        const ds_scene *s = st->tab->scene;
        ds_score_models_on(&st->raised, s->snapshot, &st->tab->truth, res.after, DS_SCORE_RAISED);
        ds_score_models_on(&st->flat, s->snapshot, &st->tab->truth, res.after, DS_SCORE_FLAT);
    }
    if (res.settled && res.moved) {
        const bool legal = res.report->legal;
        st->false_illegal += !legal && st->tab->truth_legal;
        st->missed_illegal += legal && !st->tab->truth_legal;
        if (ds_score_models(&st->placed, st->tab->scene->snapshot, &st->tab->truth, res.after) < 0)
            return base_error_set(err, "out of memory");
        st->latency_cpu[st->n_lat] = cpu;
        st->latency[st->n_lat++] = dt;
        st->calls++;
        const vis_detect_times *tm = &det->times;
        printf("  move %d: %s %s (true positions: %s%s%s), settle frame to alert %.1f ms (CPU %.1f ms): detect %.1f ms on %s (%.0f%% of the "
               "frame; ms wall/CPU: first pass %.1f/%.1f, predicted reads %.1f/%.1f, formation fit %.1f/%.1f, "
               "the rest %.1f; hidden units looked for on %.0f%% of it), judging %.2f ms, %zu tags\n",
               res.move, res.report->n_units ? res.report->units[0].unit_id : "?", legal ? "legal" : "ILLEGAL",
               st->tab->truth_legal ? "legal" : "ILLEGAL", st->tab->truth_why[0] ? ", " : "", st->tab->truth_why, dt,
               cpu, res.detect_ms,
               res.full_frame ? "the whole frame" : "changed regions", 100 * res.detect_share, tm->first_pass_ms,
               tm->first_pass_cpu_ms, tm->reads_ms, tm->reads_cpu_ms, tm->fit_ms, tm->fit_cpu_ms,
               res.detect_ms - tm->first_pass_ms - tm->reads_ms - tm->fit_ms,
               100.0 * (double)tm->hidden_searched_px / ((double)f->width * f->height), res.check_ms, res.tags_seen);
        bw_print_illegal(res.report);
        fflush(stdout);
    } else if (res.settled && res.first) {
        printf("  first settle: %.1f ms (full-frame detection of %zu tags)\n", dt, res.tags_seen);
    } else if (res.note[0]) {
        printf("  frame %ld: %s\n", st->frame, res.note);
    }
    st->t += 1000 / fps;
    st->frame++;
    return 0;
}

static void bw_print_summary(bw_stream *st, double render_ms)
{
    qsort(st->latency, st->n_lat, sizeof *st->latency, cmp_d);
    qsort(st->latency_cpu, st->n_lat, sizeof *st->latency_cpu, cmp_d);
    qsort(st->frame_ms, st->n_frames, sizeof *st->frame_ms, cmp_d);
    const double med = st->latency[st->n_lat / 2], worst = st->latency[st->n_lat - 1];
    const double fps_all = st->frame * 1000.0 / st->busy;
    printf("per-frame tracking (shrink + motion, no settle): median %.1f ms, max %.1f ms\n",
           st->frame_ms[st->n_frames / 2], st->motion_max);
    printf("settle frame to alert: median %.1f ms, worst %.1f ms (target < 200 ms) over %d calls; its CPU time "
           "median %.1f ms, worst %.1f ms (no JPEG decode: frames handed over raw)\n",
           med, worst, st->calls, st->latency_cpu[st->n_lat / 2], st->latency_cpu[st->n_lat - 1]);
    printf("throughput: %.1f frames/s over %ld frames (rendering %.1f s excluded)\n", fps_all, st->frame,
           render_ms / 1000);
    printf("calls: %d of %d moves called, %d false ILLEGAL, %d ILLEGAL called legal (against each move judged on "
           "the true positions); models placed within %.0f mm at the settles: %zu of %zu, %zu wrong, %zu unplaced\n",
           st->calls, st->moves, st->false_illegal, st->missed_illegal, DS_SCORE_PLACED_MM, st->placed.placed5,
           st->placed.models, st->placed.wrong, st->placed.unplaced);
    printf("watch: settle_to_alert_ms=%.1f fps=%.1f frames=%ld\n", med, fps_all, st->frame);
    if (st->raised.models) { /* raised and flat side by side, over every settle */
        ds_score_print(stdout, "models on hills, at the settles", &st->raised);
        ds_score_print(stdout, "models on the board, at the settles", &st->flat);
    }
}

/* Plays the set-up and `moves` moves: each a hand over the unit for a few frames, then still frames
 * long enough to settle. Returns the time spent rendering, or -1. */
static double bw_play(bw_table *tab, bw_stream *st, int moves, double fps, int hold, int hand, base_error *err)
{
    double render_ms = 0;
    for (int m = 0; m <= moves; m++) {
        base_image *still[2] = {0}, *with_hand[2] = {0};
        double r0 = now_ms();
        int rc = bw_render_move(tab, m, still, with_hand, err);
        render_ms += now_ms() - r0;
        const int n = (m > 0 ? hand : 0) + hold;
        for (int j = 0; rc == 0 && j < n; j++)
            rc = bw_play_frame(st, m > 0 && j < hand ? with_hand[j % 2] : still[j % 2], fps, err);
        base_image_free(still[0]), base_image_free(still[1]);
        base_image_free(with_hand[0]), base_image_free(with_hand[1]);
        if (rc < 0)
            return -1;
    }
    return render_ms;
}

/* The watch's tracker over the table: with hills, a set-up given its terrain as a table file gives it (*setup,
 * the caller frees it after the tracker). */
static watch_tracker *bw_tracker_new(const bw_table *tab, const watch_tracker_config *cfg, ref_setup **setup,
                                     base_error *err)
{
    const ds_scene *s = tab->scene;
    *setup = NULL;
    if (!tab->hills)
        return watch_tracker_new(s->roster, &s->calib, cfg, err);
    *setup = ref_setup_wrap(&s->calib, s->roster, "the camera", "the roster", err);
    if (!*setup || ref_setup_set_terrain(*setup, s->snapshot->terrain, s->snapshot->n_terrain, err) < 0)
        return NULL;
    return watch_tracker_new_setup(*setup, cfg, err);
}

int bench_watch(int argc, char **argv)
{
    int moves = 3, hard = 0;
    bool full = false;
    bool hills = false, everywhere = false;
    int status = bw_parse_args(argc, argv, &moves, &full, &hard, &hills, &everywhere);
    if (status >= 0)
        return status;
    base_error err;
    bw_table tab;
    if (bw_table_load(hard, hills, &tab, &err) < 0) {
        fprintf(stderr, "tableref bench watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    ds_scene *s = tab.scene;
    const double fps = 10, settle_ms = 1000;
    const int hold = (int)(settle_ms / 1000 * fps) + 3, hand = 4;
    watch_tracker_config cfg;
    watch_tracker_config_default(&cfg);
    cfg.settle_ms = settle_ms;
    if (full)
        cfg.roi_max_fraction = 0;
    bw_stream st = {.tab = &tab};
    ds_score_init(&st.raised), ds_score_init(&st.flat), ds_score_init(&st.placed);
    st.moves = moves;
    ref_setup *setup = NULL;
    st.tracker = bw_tracker_new(&tab, &cfg, &setup, &err);
    char log_path[] = "/tmp/tableref-bench-watch-XXXXXX";
    int lfd = mkstemp(log_path);
    if (lfd >= 0)
        close(lfd);
    st.log = lfd >= 0 ? watch_log_open(log_path, &err) : NULL;
    if (!st.tracker || !st.log) {
        fprintf(stderr, "tableref bench watch: %s\n", lfd < 0 ? "cannot create a temporary log" : err.msg);
        watch_tracker_free(st.tracker);
        ref_setup_free(setup);
        bw_table_free(&tab);
        return EXIT_BAD_INPUT;
    }
    ref_setup_detector(watch_tracker_setup(st.tracker))->cfg.hidden_where_changed = !everywhere;
    printf("bench watch: %s, %dx%d frames, %zu tags, %.0f fps stream, settle %.0f ms, %d moves\n",
           hills ? "hills table" : hard ? "hard table" : "classic table (tags of 36 px)", s->calib.width, s->calib.height,
           s->roster->n_models + s->roster->n_board_tags, fps, settle_ms, moves);
    fflush(stdout);
    st.latency = calloc((size_t)moves, sizeof *st.latency);
    st.latency_cpu = calloc((size_t)moves, sizeof *st.latency_cpu);
    int rc = EXIT_BAD_INPUT;
    double render_ms = st.latency && st.latency_cpu ? bw_play(&tab, &st, moves, fps, hold, hand, &err)
                                                    : base_error_set(&err, "out of memory");
    if (render_ms >= 0 && st.n_lat == 0) {
        fprintf(stderr, "tableref bench watch: no move was called\n");
    } else if (render_ms >= 0) {
        bw_print_summary(&st, render_ms);
        rc = 0;
    } else {
        fprintf(stderr, "tableref bench watch: %s\n", err.msg);
    }
    free(st.latency);
    free(st.latency_cpu);
    free(st.frame_ms);
    watch_log_close(st.log);
    unlink(log_path);
    watch_tracker_free(st.tracker);
    ref_setup_free(setup);
    ds_score_clear(&st.raised), ds_score_clear(&st.flat), ds_score_clear(&st.placed);
    bw_table_free(&tab);
    return rc;
}
