/*
 * tableref bench watch: how fast `tableref watch` calls a move at 12 MP.
 * A rendered 4056x3040 table (250 tags of 36 px) is played as a 10 fps
 * stream held in memory (no decoding: a camera hands frames over raw):
 * still frames with sensor noise, then a hand moving one unit, then still
 * again, for several moves. `--set hard:K` plays hard table K instead
 * (datasets/ds_hard: mixed 16-32 mm tags, leaning figures, hands, tilt,
 * lens, the camera chain), moving its units that have room ahead. Measured: the settle frame's processing up to
 * the alert written and fsync'ed (settle_to_alert_ms), and frames per
 * second over the whole stream. Prints figures; not a test.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_watch_loop.h"
#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "ds_hard.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "ds_sequence.h"
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

int bench_watch(int argc, char **argv)
{
    static const cli_doc doc = {"bench watch",
                                "usage: tableref bench watch [--moves N] [--full-frame] [--set hard[:K]]\n"
                                "       tableref bench watch --projector [--set hard[:K]] [--crop WxH+X+Y] "
                                "[--supersample N]\n",
                                NULL};
    int moves = 3, hard = 0;
    bool full = false;
    double n_moves = 3;
    int full_frame = 0;
    const char *set = NULL, *crop = NULL;
    int projector = 0;
    double supersample = 0;
    const cli_opt opts[] = {
        CLI_FLAG("--projector", &projector, 1,
                 "the closed loop on a hard-set turn: each frame lit by what the\n"
                 "watch projects, off and at 1.5x, 2.5x and 4x the room's light"),
        CLI_STRING("--crop", &crop, "WxH+X+Y", "with --projector: render this part of the 12 MP frame"),
        CLI_WHOLE("--supersample", &supersample, "N", 1, 4, "with --projector: the renderer's supersampling"),
        CLI_WHOLE("--moves", &n_moves, "N", 1, 20, "moves played (3)"),
        CLI_FLAG("--full-frame", &full_frame, 1,
                 "detect on the whole settle frame (no regions of interest), for comparison"),
        CLI_CHOICE("--set", &set, "hard[:K]", "hard",
                   "play hard table K (1-4) of the hard set instead of the classic table"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (n_pos < 0)
        return cli_status(n_pos);
    moves = (int)n_moves, full = full_frame;
    if (set) {
        hard = set[4] == ':' ? atoi(set + 5) : 1;
        if (strncmp(set, "hard", 4) != 0 || (set[4] != 0 && set[4] != ':') || hard < 1 || hard > 4) {
            fprintf(stderr, "tableref bench watch: --set: hard or hard:1 .. hard:4, not %s\n", set);
            return EXIT_BAD_INPUT;
        }
    }
    if (projector)
        return bench_watch_projector(hard ? hard : 1, crop, (int)supersample);
    base_error err;
    ds_hard_table *ht = NULL;
    ds_scene *s = NULL;
    size_t movable = 0;
    if (hard) {
        ds_hard_params hp;
        ds_hard_preset(hard, &hp);
        if ((ht = ds_hard_generate(&hp, &err)))
            s = ht->scene, movable = ht->reserved > 0 ? (size_t)ht->reserved : 1;
    } else {
        ds_gen_params g;
        ds_gen_params_bench(&g);
        if ((s = ds_scene_generate(&g, &err))) {
            s->render.supersample = 1;  /* the picture's fidelity is not what is measured here */
            movable = s->snapshot->n_units;
        }
    }
    if (!s) {
        fprintf(stderr, "tableref bench watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    const double fps = 10, settle_ms = 1000;
    const int hold = (int)(settle_ms / 1000 * fps) + 3, hand = 4;
    watch_tracker_config cfg;
    watch_tracker_config_default(&cfg);
    cfg.settle_ms = settle_ms;
    if (full)
        cfg.roi_max_fraction = 0;
    watch_tracker *w = watch_tracker_new(s->roster, &s->calib, &cfg, &err);
    char log_path[] = "/tmp/tableref-bench-watch-XXXXXX";
    int lfd = mkstemp(log_path);
    if (lfd >= 0)
        close(lfd);
    watch_log *log = lfd >= 0 ? watch_log_open(log_path, &err) : NULL;
    if (!w || !log) {
        fprintf(stderr, "tableref bench watch: %s\n", lfd < 0 ? "cannot create a temporary log" : err.msg);
        watch_tracker_free(w);
        if (ht)
            ds_hard_free(ht);
        else
            ds_scene_free(s);
        return EXIT_BAD_INPUT;
    }
    printf("bench watch: %s, %dx%d frames, %zu tags, %.0f fps stream, settle %.0f ms, %d moves\n",
           hard ? "hard table" : "classic table (tags of 36 px)", s->calib.width, s->calib.height,
           s->roster->n_models + s->roster->n_board_tags, fps, settle_ms, moves);
    fflush(stdout);

    double *latency = calloc((size_t)moves, sizeof *latency), *frame_ms = NULL;
    size_t n_lat = 0, n_frames = 0, cap_frames = 0;
    double busy = 0, render_ms = 0, t = 0, motion_max = 0;
    long frame = 0;
    int rc = EXIT_BAD_INPUT, calls = 0;
    base_image *still[2] = {0}, *img = NULL;
    ds_truth truth = {0};
    for (int m = 0; m <= moves; m++) {
        /* The move into this still: a hand over the unit, the unit placed. */
        base_vec2 at = base_v2(0, 0);
        if (m > 0)
            at = advance_unit(s->snapshot, (size_t)(m - 1) % movable, 40.0);
        double r0 = now_ms();
        base_image_free(img);
        img = NULL;
        ds_truth_clear(&truth);
        if (ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err) < 0)
            goto done;
        if (img->channels != 1) {  /* the camera's Y plane, as watch takes it */
            base_image *gray = cvs_image_to_gray(img, &err);
            base_image_free(img);
            if (!(img = gray))
                goto done;
        }
        base_image_free(still[0]), base_image_free(still[1]);
        still[0] = still[1] = NULL;
        if (noisy_pair(img, (uint32_t)m, still, &err) < 0)
            goto done;
        base_image *with_hand[2] = {0};
        if (m > 0) {
            for (int k = 0; k < 2; k++) {
                base_vec2 a = base_v2_add(at, base_v2(k ? 40 : -40, k ? -30 : 30));
                if (!(with_hand[k] = base_image_clone(still[k])) ||
                    ds_sequence_draw_hand(with_hand[k], &s->calib, a, &err) < 0) {
                    base_image_free(with_hand[0]), base_image_free(with_hand[1]);
                    goto done;
                }
            }
        }
        render_ms += now_ms() - r0;
        const int n = (m > 0 ? hand : 0) + hold;
        for (int j = 0; j < n; j++) {
            const base_image *f = m > 0 && j < hand ? with_hand[j % 2] : still[j % 2];
            watch_tracker_result res;
            double t0 = now_ms();
            int wr = watch_tracker_frame(w, f->data, f->width, f->height, f->stride, t, &res, &err);
            if (wr == 0 && res.settled && res.moved) {
                /* What watch does at a call: log the call and the alert, each fsync'ed. */
                cJSON *ev = watch_log_event_new("move_checked", t, frame);
                if (ev)
                    watch_log_add_call(ev, res.move, res.report, res.before, res.after);
                if (watch_log_write(log, ev, &err) < 0)
                    wr = -1;
                cJSON_Delete(ev);
                ev = watch_log_event_new("alert", t, frame);
                if (wr == 0 && watch_log_write(log, ev, &err) < 0)
                    wr = -1;
                cJSON_Delete(ev);
            }
            double dt = now_ms() - t0;
            if (wr < 0) {
                base_image_free(with_hand[0]), base_image_free(with_hand[1]);
                goto done;
            }
            busy += dt;
            if (n_frames == cap_frames) {
                cap_frames = cap_frames ? 2 * cap_frames : 64;
                frame_ms = realloc(frame_ms, cap_frames * sizeof *frame_ms);
            }
            if (!res.settled) {
                frame_ms[n_frames++] = dt;
                motion_max = fmax(motion_max, dt);
            }
            if (res.settled && res.moved) {
                latency[n_lat++] = dt;
                calls++;
                printf("  move %d: %s, settle frame to alert %.1f ms (detect %.1f ms on %s, check %.2f ms, "
                       "%zu tags)\n",
                       res.move, res.report->n_units ? res.report->units[0].unit_id : "?", dt, res.detect_ms,
                       res.full_frame ? "the whole frame" : "changed regions", res.check_ms, res.tags_seen);
                fflush(stdout);
            } else if (res.settled && res.first) {
                printf("  first settle: %.1f ms (full-frame detection of %zu tags)\n", dt, res.tags_seen);
            } else if (res.note[0]) {
                printf("  frame %ld: %s\n", frame, res.note);
            }
            t += 1000 / fps;
            frame++;
        }
        base_image_free(with_hand[0]), base_image_free(with_hand[1]);
    }
    if (n_lat == 0) {
        fprintf(stderr, "tableref bench watch: no move was called\n");
        goto done;
    }
    qsort(latency, n_lat, sizeof *latency, cmp_d);
    qsort(frame_ms, n_frames, sizeof *frame_ms, cmp_d);
    const double med = latency[n_lat / 2], worst = latency[n_lat - 1];
    const double fps_all = frame * 1000.0 / busy;
    printf("per-frame tracking (shrink + motion, no settle): median %.1f ms, max %.1f ms\n",
           frame_ms[n_frames / 2], motion_max);
    printf("settle frame to alert: median %.1f ms, worst %.1f ms (target < 200 ms) over %d calls\n", med, worst,
           calls);
    printf("throughput: %.1f frames/s over %ld frames (rendering %.1f s excluded)\n", fps_all, frame,
           render_ms / 1000);
    printf("watch: settle_to_alert_ms=%.1f fps=%.1f frames=%ld\n", med, fps_all, frame);
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "tableref bench watch: %s\n", err.msg);
    base_image_free(still[0]), base_image_free(still[1]), base_image_free(img);
    ds_truth_clear(&truth);
    free(latency);
    free(frame_ms);
    watch_log_close(log);
    unlink(log_path);
    watch_tracker_free(w);
    if (ht)
        ds_hard_free(ht);
    else
        ds_scene_free(s);
    return rc;
}
