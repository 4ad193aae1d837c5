/*
 * tableref bench vision: recall, accuracy and speed of tableref's vision
 * against the stock apriltag detector, on the normal scene set (classic
 * renderer) and the hard set (datasets/ds_hard.h), reported separately.
 * Prints figures; not a test.
 *
 * Honest baseline: the stock apriltag 3.3 library, called directly, on the
 * same frames, with the same thread count (2; --cores N: the process pinned
 * to N CPUs and N threads on both sides), its detector and decode
 * tables built before any timing, in a sweep of decimate (1, 1.5, 2) and
 * quad_sigma (0, 0.4, 0.8); every configuration's recall is printed beside
 * its time. The speed ratio is taken against the fastest configuration
 * whose recall is at least tableref's, or reported as none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_cores.h"
#include "bench_facing.h"
#include "bench_vision_bases.h"
#include "bench_vision_options.h"
#include "bench_vision_referee.h"
#include "bench_vision_stages.h"
#include "bench_vision_stock.h"
#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "ds_hard.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "ds_score.h"
#include "rules_move.h"
#include "ref_judge.h"
#include "vis_detect.h"
#include "vis_tag.h"


/* What one set (normal or hard) adds up to. */
typedef struct set_result {
    const char *name;
    int frames;
    double render_ms;
    ds_score ours;           /* tableref, the whole pipeline */
    double ours_ms;
    bv_stock stock[BV_STOCK_CONFIGS];
    ds_score via_stock;      /* the stock detector's tags (decimate 1, sigma 0) through tableref's pipeline */
    ds_score raised, flat;   /* tableref's models standing on a hill and on the board, apart */
    bf_facing facing;        /* tableref's facings and units of one model (bench_facing.h) */
    size_t pairs, false_illegal, advance_illegal, march_caught, unmoved_called, not_seen, truth_agrees;
    bv_stages stages;        /* where tableref's time went, summed over frames (bench_vision_stages.h) */
    ds_score blind;          /* the first pass alone (no predicted read): the tags it decoded */
} set_result;

/* The tags tableref read: the quad finder's and those read by their pattern (recovered units, predicted places). */
static void score_our_tags(ds_score *sc, const ds_truth *truth, const vis_tag_list *tags, const vis_report *rep)
{
    size_t n = tags->n + rep->n;
    int *ids = malloc((n + 1) * sizeof *ids);
    double(*c)[2] = malloc((n + 1) * sizeof *c);
    size_t k = 0;
    for (size_t i = 0; ids && c && i < tags->n; i++, k++) {
        ids[k] = tags->items[i].id;
        c[k][0] = tags->items[i].centre[0], c[k][1] = tags->items[i].centre[1];
    }
    for (size_t i = 0; ids && c && i < rep->n; i++)
        if (rep->items[i].kind == VIS_ISSUE_RECOVERED || rep->items[i].kind == VIS_ISSUE_READ) {
            ids[k] = rep->items[i].tag_id;
            c[k][0] = rep->items[i].px[0], c[k][1] = rep->items[i].px[1];
            k++;
        }
    if (ids && c)
        ds_score_tags(sc, truth, ids, (const double(*)[2])c, k);
    free(ids);
    free(c);
}

/* Each model not placed within 5 mm: its id, how far off (or not placed), how it was placed. */
static void list_misses(const rules_snapshot *truth, const rules_snapshot *got)
{
    for (size_t u = 0; u < truth->n_units; u++)
        for (size_t k = 0; k < truth->units[u].n_models; k++) {
            const rules_model *want = &truth->units[u].models[k];
            const rules_model *m = got ? rules_snapshot_find_model(got, want->id, NULL) : NULL;
            if (!m)
                printf("    %s: not placed\n", want->id);
            else if (base_v2_dist(m->pos, want->pos) > 5)
                printf("    %s: %.1f mm off (%s)\n", want->id, base_v2_dist(m->pos, want->pos),
                       m->inferred ? "inferred" : "seen");
        }
}

/*
 * A before/after pair: both frames through tableref, then the rules as
 * `tableref referee` judges them (ref_judge: ILLEGAL only under every
 * placement the evidence allows). The legal advance must never be called
 * ILLEGAL, nor any unit that did not move. The truth itself is judged with
 * rules_move_check (exact positions).
 */
static void bench_pair(const ds_hard_table *t, vis_detector *det, const rules_snapshot *before, set_result *res,
                       int table)
{
    const ds_scene *s = t->scene;
    base_error err;
    ds_hard_pair pr = {0};
    base_image *img = NULL;
    ds_truth truth = {0};
    rules_snapshot *after = NULL;
    vis_report rep = {0};
    ref_judgement got;  /* the detected frames, judged as `tableref referee` judges them (ref_judge.h) */
    ref_judgement_init(&got);
    rules_report want;
    rules_report_init(&want);
    rules_check_options opt;
    rules_check_options_default(&opt);
    ref_judge_options ro;
    ref_judge_options_default(&ro);
    ro.suggest = false; /* the verdicts are the bench's figures; the nearest legal moves are not */
    ds_render_params p = s->render;
    if (ds_hard_pair_make(t, &pr, &err) < 0) {
        printf("  pair of table %d: %s\n", table, err.msg);
        goto done;
    }
    p.frame_seed = pr.after_frame_seed;  /* other hands, other sensor noise */
    if (ds_render(pr.after, s->roster, &s->calib, &p, &img, &truth, &err) < 0 ||
        vis_detector_run(det, img->data, img->width, img->height, img->stride, NULL, &after, &rep, &err) < 0 ||
        rules_move_check(s->snapshot, pr.after, &opt, &want, &err) < 0) {
        printf("  pair of table %d: %s\n", table, err.msg);
        goto done;
    }
    res->pairs++;
    const rules_unit_report *wa = rules_report_find_unit(&want, pr.moves[0].unit);
    const rules_unit_report *wm = rules_report_find_unit(&want, pr.moves[1].unit);
    res->truth_agrees += want.n_units == 2 && wa && wa->verdict == RULES_VERDICT_LEGAL && wm &&
                         wm->verdict == RULES_VERDICT_ILLEGAL;
    int jrc = -1;
    if (before && after) { /* judging's time, as the stages count it (the nearest legal moves not sought) */
        const double j0 = bench_wall_ms(), jc0 = bench_cpu_ms();
        jrc = ref_judge(before, after, &ro, &got, &err);
        res->stages.judge += bench_wall_ms() - j0, res->stages.judge_cpu += bench_cpu_ms() - jc0;
        res->stages.judged++;
    }
    if (jrc < 0) {
        printf("  pair of table %d: cannot judge the detected snapshots: %s\n", table,
               before && after ? err.msg : "a frame gave no snapshot");
        goto done;
    }
    printf("  pair of table %d (%s +4.5\" at Advance 5\", %s +11\" at March 10\"):", table, pr.moves[0].unit,
           pr.moves[1].unit);
    for (size_t i = 0; i < got.report.n_units; i++) {
        const rules_unit_report *u = &got.report.units[i];
        const int is_adv = strcmp(u->unit_id, pr.moves[0].unit) == 0, is_march = strcmp(u->unit_id, pr.moves[1].unit) == 0;
        printf(" %s=%s", u->unit_id, rules_verdict_word(u->verdict));
        if (is_march) {
            res->march_caught += u->verdict == RULES_VERDICT_ILLEGAL;
            continue;
        }
        res->advance_illegal += is_adv && u->verdict == RULES_VERDICT_ILLEGAL;
        res->unmoved_called += !is_adv && u->verdict != RULES_VERDICT_NOT_SEEN;
        res->not_seen += u->verdict == RULES_VERDICT_NOT_SEEN;
        res->false_illegal += u->verdict == RULES_VERDICT_ILLEGAL;
    }
    printf("%s\n", got.report.n_units ? "" : " (no unit moved)");
done:
    ref_judgement_clear(&got);
    rules_report_clear(&want);
    rules_snapshot_free(after);
    vis_report_clear(&rep);
    ds_truth_clear(&truth);
    base_image_free(img);
    ds_hard_pair_clear(&pr);
}

/* tableref's detector for the scene, with the tag detector's settings the options override. */
static vis_detector *new_detector(const ds_scene *s, const bv_options *o, base_error *err)
{
    roster_map *map = roster_map_new(s->roster, err); /* vision takes the roster's map */
    vis_detector *det = map ? vis_detector_new(map, &s->calib, err) : NULL;
    roster_map_free(map);
    if (!det)
        return NULL;
    /* The table's hills, as a table file gives them (--no-relief: the table read as flat, as before relief). */
    if (o->relief && vis_detector_set_relief(det, s->snapshot->terrain, s->snapshot->n_terrain, err) < 0) {
        vis_detector_free(det);
        return NULL;
    }
    if (o->decimate >= 1) /* the whole frame at that decimation: the plan's regions carry their own */
        det->tags->cfg.decimate = o->decimate, det->cfg.use_plan = 0;
    if (o->sigma >= 0)
        det->tags->cfg.sigma = det->tags->cfg.sigma_full = o->sigma;
    if (o->hamming >= 0)
        det->tags->cfg.max_hamming = o->hamming;
    return det;
}

/* The stock detector's tags at decimate 1 through tableref's board, units and inference. */
static void score_via_stock(vis_detector *det, const bv_reads *reads, const ds_scene *s, const ds_truth *truth,
                            set_result *res)
{
    base_error err;
    rules_snapshot *via = NULL;
    vis_report vr = {0};
    vis_tag_detection *d = bv_reads_as_detections(reads);
    if (d && vis_detector_from_tags(det, d, reads->n, NULL, &via, &vr, &err) == 0)
        ds_score_models(&res->via_stock, s->snapshot, truth, via);
    free(d);
    rules_snapshot_free(via);
    vis_report_clear(&vr);
}

/* The stock configuration that reads most of one frame's tags (the fastest of equals): its recall beside ours. */
static int best_reading_stock(const bv_reads reads[BV_STOCK_CONFIGS], const double ms[BV_STOCK_CONFIGS],
                              const ds_truth *truth)
{
    int top = 0;
    for (int k = 1; k < BV_STOCK_CONFIGS; k++) {
        const size_t a = bv_reads_count_visible(&reads[k], truth), b = bv_reads_count_visible(&reads[top], truth);
        if (a > b || (a == b && ms[k] < ms[top]))
            top = k;
    }
    return top;
}

/* What the timed runs of one frame leave: tableref's best run and its stages, every stock configuration's. */
typedef struct frame_runs {
    rules_snapshot *snap;
    vis_report rep;
    vis_tag_list tags;
    double best_ours, best_stock[BV_STOCK_CONFIGS], best_stock_cpu[BV_STOCK_CONFIGS];
    bv_reads reads[BV_STOCK_CONFIGS];
    bv_stages stages;
} frame_runs;

/* tableref and every stock configuration on the frame, best of `reps` runs each (tableref's stages: its best run's). */
static void time_runs(vis_detector *det, const base_image *img, const bv_options *o, set_result *res, frame_runs *fr)
{
    base_error err;
    fr->best_ours = INFINITY;
    for (int k = 0; k < BV_STOCK_CONFIGS; k++)
        fr->best_stock[k] = fr->best_stock_cpu[k] = INFINITY;
    for (int r = 0; r < o->reps; r++) {
        rules_snapshot_free(fr->snap);
        fr->snap = NULL;
        vis_report_clear(&fr->rep);
        det->times = (vis_detect_times){0};
        const double t0 = bench_wall_ms(), c0 = bench_cpu_ms();
        vis_detector_run_tags(det, img->data, img->width, img->height, img->stride, NULL, &fr->snap, &fr->rep,
                              &fr->tags, &err);
        const double ms = bench_wall_ms() - t0, cpu = bench_cpu_ms() - c0;
        if (ms < fr->best_ours)
            bv_stages_take_run(&fr->stages, &det->times, ms, cpu);
        fr->best_ours = fmin(fr->best_ours, ms);
        for (int k = 0; k < BV_STOCK_CONFIGS; k++) {
            double sms = bv_stock_run(&res->stock[k], img, &fr->reads[k]);
            fr->best_stock[k] = fmin(fr->best_stock[k], sms);
            fr->best_stock_cpu[k] = fmin(fr->best_stock_cpu[k], res->stock[k].last_cpu_ms);
        }
    }
}

static void frame_runs_clear(frame_runs *fr)
{
    for (int k = 0; k < BV_STOCK_CONFIGS; k++)
        bv_reads_clear(&fr->reads[k]);
    rules_snapshot_free(fr->snap);
    vis_report_clear(&fr->rep);
    vis_tag_list_clear(&fr->tags);
}

/* The frame's figures: its scores into the set's, one line of tags read beside stock's, one of the stages. */
/* The models on hills and on the board apart: this frame's figures printed, the set's added to. */
static void score_raised_flat(const ds_scene *s, const ds_truth *truth, const rules_snapshot *snap, set_result *res,
                              const char *label)
{
    ds_score raised, flat;
    ds_score_init(&raised), ds_score_init(&flat);
    ds_score_models_on(&raised, s->snapshot, truth, snap, DS_SCORE_RAISED);
    ds_score_models_on(&flat, s->snapshot, truth, snap, DS_SCORE_FLAT);
    ds_score_models_on(&res->raised, s->snapshot, truth, snap, DS_SCORE_RAISED);
    ds_score_models_on(&res->flat, s->snapshot, truth, snap, DS_SCORE_FLAT);
    if (raised.models) {
        char line[160];
        snprintf(line, sizeof line, "  %s, on hills", label);
        ds_score_print(stdout, line, &raised);
        snprintf(line, sizeof line, "  %s, on the board", label);
        ds_score_print(stdout, line, &flat);
    }
    ds_score_clear(&raised), ds_score_clear(&flat);
}

/* The blind first pass (apriltag over the plan, before any predicted read) beside stock at decimate 1, sigma 0:
 * tags >= 90% visible read, wrong reads, the candidate quads it tried to decode (each one chance of a wrong id:
 * vis_tag_detector.quads) and CPU ms, one frame; its reads added to *sum. */
static void print_blind(FILE *f, const char *label, const ds_truth *truth, const vis_tag_list *tags, size_t quads,
                        const bv_stages *st, const bv_reads *stock, double stock_cpu, ds_score *sum)
{
    ds_score one;
    ds_score_init(&one);
    score_our_tags(&one, truth, tags, &(vis_report){0});
    score_our_tags(sum, truth, tags, &(vis_report){0});
    ds_score s1;
    ds_score_init(&s1);
    ds_score_tags(&s1, truth, stock->ids, (const double(*)[2])stock->centres, stock->n);
    fprintf(f, "%s: blind first pass %zu/%zu read, %zu wrong, %zu candidate quads, %.0f ms CPU; stock decimate 1 "
               "%zu/%zu read, %zu wrong, %.0f ms CPU\n",
            label, one.tags90_read, one.tags90, one.wrong_reads, quads, st->first_cpu, s1.tags90_read, s1.tags90,
            s1.wrong_reads, stock_cpu);
    ds_score_clear(&one);
    ds_score_clear(&s1);
}

static void score_frame(const ds_scene *s, set_result *res, const char *label,
                        const ds_truth *truth, vis_detector *det, frame_runs *fr)
{
    ds_score one;
    ds_score_init(&one);
    ds_score_models(&one, s->snapshot, truth, fr->snap);
    score_our_tags(&one, truth, &fr->tags, &fr->rep);
    ds_score_models(&res->ours, s->snapshot, truth, fr->snap);
    bf_facing_add(&res->facing, s->snapshot, truth, fr->snap);
    if (getenv("TABLEREF_BENCH_LIST"))  /* which models, for whoever digs into a figure */
        list_misses(s->snapshot, fr->snap);
    score_our_tags(&res->ours, truth, &fr->tags, &fr->rep);
    res->ours_ms += fr->best_ours;
    for (int k = 0; k < BV_STOCK_CONFIGS; k++) {
        res->stock[k].ms += fr->best_stock[k];
        res->stock[k].cpu_ms += fr->best_stock_cpu[k];
        ds_score_tags(&res->stock[k].score, truth, fr->reads[k].ids, (const double(*)[2])fr->reads[k].centres,
                      fr->reads[k].n);
    }
    score_via_stock(det, &fr->reads[0], s, truth, res);
    char line[128];
    snprintf(line, sizeof line, "  %s", label);
    ds_score_print(stdout, line, &one);
    const int top = best_reading_stock(fr->reads, fr->best_stock, truth);
    printf("  %s: %zu tags (%zu >= 90%% visible, edge %.0f-%.0f px), %zu models under a hand; tableref %.0f ms "
           "(%zu/%zu read), stock d=1 s=0 %.0f ms (%zu/%zu read), stock at its best here d=%.1f s=%.1f %.0f ms "
           "(%zu/%zu read)\n",
           label, truth->n_tags, one.tags90, bv_min_edge(truth), bv_max_edge(truth), one.hand_models, fr->best_ours,
           one.tags90_read, one.tags90, fr->best_stock[0], bv_reads_count_visible(&fr->reads[0], truth), one.tags90,
           res->stock[top].decimate, res->stock[top].sigma, fr->best_stock[top],
           bv_reads_count_visible(&fr->reads[top], truth), one.tags90);
    bv_stages_print(stdout, line, &fr->stages); /* line: "  label" still */
    /* The detector's last run was a timed one (time_runs): its quads are that run's first pass's. */
    print_blind(stdout, line, truth, &fr->tags, det->tags->quads, &fr->stages, &fr->reads[0], fr->best_stock_cpu[0],
                &res->blind);
    bv_stages_add(&res->stages, &fr->stages);
    score_raised_flat(s, truth, fr->snap, res, label);
    ds_score_clear(&one);
}

/* One frame: tableref and every stock configuration, best of `reps` timed runs each. */
static int bench_frame(const ds_scene *s, const bv_options *o, set_result *res, const char *label,
                       const ds_hard_table *hard, int table)
{
    base_error err;
    base_image *img = NULL, *colour = NULL;
    ds_truth truth = {0};
    double t0 = bench_wall_ms();
    if (ds_render_colour(s->snapshot, s->roster, &s->calib, &s->render, &img, &colour, &truth, &err) < 0) {
        fprintf(stderr, "tableref bench vision: %s\n", err.msg);
        return -1;
    }
    res->render_ms += bench_wall_ms() - t0;
    res->frames++;
    frame_runs fr = {0};
    vis_detector *det = new_detector(s, o, &err);
    /* The picture as the camera writes it, read as `detect` reads it (not part of tableref's time above). */
    if (!det || bv_stages_time_decode(img, colour, s->render.effects.jpeg_quality, o->reps, &fr.stages, &err) < 0) {
        fprintf(stderr, "tableref bench vision: %s\n", err.msg);
        vis_detector_free(det);
        ds_truth_clear(&truth);
        base_image_free(img);
        base_image_free(colour);
        return -1;
    }
    base_image_free(colour);
    const bv_stages decoded = fr.stages;
    time_runs(det, img, o, res, &fr);
    fr.stages.decode = decoded.decode, fr.stages.decode_cpu = decoded.decode_cpu;
    score_frame(s, res, label, &truth, det, &fr);
    if (hard && o->pairs)
        bench_pair(hard, det, fr.snap, res, table);
    fflush(stdout);
    frame_runs_clear(&fr);
    vis_detector_free(det);
    ds_truth_clear(&truth);
    base_image_free(img);
    return 0;
}

static void print_set(const set_result *r, int threads)
{
    const double n = r->frames ? r->frames : 1;
    const double our_recall = ds_score_pct(r->ours.tags90_read, r->ours.tags90);
    printf("\n== %s set: %d frame(s); rendering %.0f ms per frame (not timed)\n", r->name, r->frames,
           r->render_ms / n);
    char who[40];
    snprintf(who, sizeof who, "detector (%d thread%s)", threads, threads == 1 ? "" : "s");
    printf("%-34s %14s %9s %14s %11s %10s %10s\n", who, "tags >=90% vis", "recall", "fully visible",
           "wrong reads", "ms/frame", "CPU ms");
    printf("%-34s %7zu/%-6zu %8.2f%% %7zu/%-6zu %11zu %10.1f %10.1f\n", "tableref (whole pipeline)",
           r->ours.tags90_read, r->ours.tags90, our_recall, r->ours.tags_full_read, r->ours.tags_full,
           r->ours.wrong_reads, r->ours_ms / n, r->stages.whole_cpu / n);
    int best = -1;
    for (int k = 0; k < BV_STOCK_CONFIGS; k++) {
        const bv_stock *s = &r->stock[k];
        char name[64];
        snprintf(name, sizeof name, "apriltag 3.3 decimate %.1f sigma %.1f", s->decimate, s->sigma);
        const double rec = ds_score_pct(s->score.tags90_read, s->score.tags90);
        printf("%-34s %7zu/%-6zu %8.2f%% %7zu/%-6zu %11zu %10.1f %10.1f\n", name, s->score.tags90_read,
               s->score.tags90, rec, s->score.tags_full_read, s->score.tags_full, s->score.wrong_reads, s->ms / n,
               s->cpu_ms / n);
        if (s->score.tags90_read >= r->ours.tags90_read && (best < 0 || s->ms < r->stock[best].ms))
            best = k;
    }
    if (best >= 0)
        printf("speed at equal or better recall: apriltag decimate %.1f sigma %.1f (%.2f%% >= %.2f%%) %.1f ms / "
               "tableref %.1f ms = %.2fx\n",
               r->stock[best].decimate, r->stock[best].sigma,
               ds_score_pct(r->stock[best].score.tags90_read, r->stock[best].score.tags90), our_recall,
               r->stock[best].ms / n, r->ours_ms / n, r->stock[best].ms / (r->ours_ms > 0 ? r->ours_ms : 1));
    else {
        /* Still say how fast the best-reading stock configuration is, with both recalls. */
        int top = 0;
        for (int k = 1; k < BV_STOCK_CONFIGS; k++)
            if (r->stock[k].score.tags90_read > r->stock[top].score.tags90_read ||
                (r->stock[k].score.tags90_read == r->stock[top].score.tags90_read && r->stock[k].ms < r->stock[top].ms))
                top = k;
        printf("speed at equal or better recall: none (no stock configuration reads as many tags as tableref); "
               "against the best-reading one, decimate %.1f sigma %.1f (%.2f%% < %.2f%%): %.1f ms / %.1f ms = %.2fx\n",
               r->stock[top].decimate, r->stock[top].sigma,
               ds_score_pct(r->stock[top].score.tags90_read, r->stock[top].score.tags90), our_recall,
               r->stock[top].ms / n, r->ours_ms / n, r->stock[top].ms / (r->ours_ms > 0 ? r->ours_ms : 1));
    }
    bv_stages_print(stdout, "tableref per frame", &r->stages);
    const bv_stock *d1 = &r->stock[0]; /* decimate 1, sigma 0 */
    printf("blind first pass (no predicted read): %zu/%zu read (%.2f%%), %zu wrong, %.1f ms CPU per frame; stock "
           "decimate 1 sigma 0: %zu/%zu (%.2f%%), %zu wrong, %.1f ms CPU per frame\n",
           r->blind.tags90_read, r->blind.tags90, ds_score_pct(r->blind.tags90_read, r->blind.tags90),
           r->blind.wrong_reads, r->stages.first_cpu / n, d1->score.tags90_read, d1->score.tags90,
           ds_score_pct(d1->score.tags90_read, d1->score.tags90), d1->score.wrong_reads, d1->cpu_ms / n);
    ds_score_print(stdout, "models, tableref", &r->ours);
    if (r->raised.models) { /* raised and flat side by side */
        ds_score_print(stdout, "models on hills, tableref", &r->raised);
        ds_score_print(stdout, "models on the board, tableref", &r->flat);
    }
    bf_facing_print(stdout, "facing, tableref", &r->facing);
    ds_score_print(stdout, "models, stock decimate 1 tags + tableref's inference", &r->via_stock);
    if (r->pairs)
        printf("pairs: %zu judged (the truth itself judged as meant in %zu); false ILLEGAL %zu (on the legal "
               "advance %zu, on unmoved units %zu); unmoved units judged as moved %zu; units NOT SEEN %zu; the 11\" "
               "march called ILLEGAL in %zu\n",
               r->pairs, r->truth_agrees, r->false_illegal, r->advance_illegal, r->false_illegal - r->advance_illegal,
               r->unmoved_called, r->not_seen, r->march_caught);
}

/* The normal set's frames; 0 or EXIT_BAD_INPUT. */
static int run_normal(const bv_options *o, set_result *res)
{
    printf("\n-- normal set\n");
    for (int f = 0; f < o->frames; f++) {
        base_error err;
        ds_gen_params g;
        ds_gen_params_bench(&g);
        g.seed = o->seed + (unsigned)f;
        ds_scene *s = ds_scene_generate(&g, &err);
        char label[32];
        snprintf(label, sizeof label, "frame %d", f + 1);
        if (!s)
            fprintf(stderr, "tableref bench vision: %s\n", err.msg);
        const int rc = s ? bench_frame(s, o, res, label, NULL, 0) : -1;
        ds_scene_free(s);
        if (rc < 0)
            return EXIT_BAD_INPUT;
    }
    return 0;
}

/* --cores N pins the process (bench_cores.h) before any thread; the bench's first line says how it runs. -1 when
 * the pinning is refused. */
static int start(const bv_options *o)
{
    char cpus[256] = "";
    base_error err;
    if (o->cores > 0 && bench_cores_pin(o->cores, cpus, sizeof cpus, &err) < 0)
        return fprintf(stderr, "tableref bench vision: %s\n", err.msg), -1;
    const int threads = vis_detector_threads();
    printf("tableref bench vision: %d thread%s on both sides%s%s%s, stock detectors and decode tables built before "
           "timing, best of %d runs per frame\n",
           threads, threads == 1 ? "" : "s", o->cores ? ", the process pinned to CPU " : " (not pinned)", cpus,
           o->cores ? " (the machine may be shared: CPU time beside wall)" : "", o->reps);
    return 0;
}

/* The hard set's tables (hills: with hills), each through bench_frame. 0 or EXIT_BAD_INPUT. */
static int run_hard_set(const bv_options *o, int hills, set_result *res)
{
    printf("\n-- %s set\n", hills ? "hills" : "hard");
    for (int k = 0; k < o->n_tables; k++) {
        base_error err;
        ds_hard_params hp;
        (hills ? ds_hard_preset_hills : ds_hard_preset)(o->tables[k], &hp);
        ds_hard_table *t = ds_hard_generate(&hp, &err);
        int w, h, x0, y0;
        if (t && o->crop &&
            (sscanf(o->crop, "%dx%d+%d+%d", &w, &h, &x0, &y0) != 4 ||
             ds_hard_crop(&t->scene->calib, x0, y0, w, h, &err) < 0))
            ds_hard_free(t), t = NULL, base_error_set(&err, "--crop: expected WxH+X+Y inside the frame");
        char label[128];
        if (t)
            snprintf(label, sizeof label, "table %d%s (%s %dx%d, %.0f deg tilt, %d hands, k1 %.2f, %.2f m)",
                     o->tables[k], hills ? " with hills" : "", ds_hard_camera_name(hp.camera), hp.width, hp.height,
                     hp.tilt_deg, hp.hands, hp.k1, hp.camera_height_mm / 1000);
        const int rc = !t ? (fprintf(stderr, "tableref bench vision: %s\n", err.msg), EXIT_BAD_INPUT)
                       : bench_frame(t->scene, o, res, label, t, o->tables[k]) < 0 ? EXIT_BAD_INPUT
                                                                                    : 0;
        ds_hard_free(t);
        if (rc)
            return rc;
    }
    return 0;
}

int bench_vision(int argc, char **argv)
{
    bv_options o;
    int r = bv_options_parse(argc, argv, &o);
    if (r < 0)
        return cli_status(r);
    if (start(&o) < 0)
        return EXIT_BAD_INPUT;
    if (o.minis) /* a set of its own (--set minis): its detectors only, no stock sweep built */
        return bv_bases_run(&o);
    const int threads = vis_detector_threads();
    set_result sets[3] = {{.name = "normal"}, {.name = "hard"}, {.name = "hills"}};
    int rc = 0;
    for (int k = 0; k < 3 && rc == 0; k++) {
        if (bv_stock_sweep_init(sets[k].stock, threads) < 0) {
            fprintf(stderr, "tableref bench vision: cannot create the stock apriltag detectors\n");
            return EXIT_BAD_INPUT;
        }
        ds_score_init(&sets[k].ours);
        ds_score_init(&sets[k].via_stock);
        ds_score_init(&sets[k].blind);
        ds_score_init(&sets[k].raised), ds_score_init(&sets[k].flat);
    }
    if (o.normal)
        rc = run_normal(&o, &sets[0]);
    for (int hills = 0; hills <= 1 && rc == 0; hills++)
        if (hills ? o.hills : o.hard)
            rc = run_hard_set(&o, hills, &sets[1 + hills]);
    if (rc == 0) {
        if (o.normal)
            print_set(&sets[0], threads);
        if (o.hard)
            print_set(&sets[1], threads);
        if (o.hills)
            print_set(&sets[2], threads);
        if (o.hard && o.pairs && !o.crop)
            bv_referee_print(o.tables[0]);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("\npeak memory: %.1f MB (ru_maxrss; includes rendering)\n", ru.ru_maxrss / 1024.0);
    }
    for (int k = 0; k < 3; k++) {
        bv_stock_sweep_free(sets[k].stock);
        ds_score_clear(&sets[k].ours);
        ds_score_clear(&sets[k].via_stock);
        ds_score_clear(&sets[k].blind);
        ds_score_clear(&sets[k].raised), ds_score_clear(&sets[k].flat);
        bf_facing_clear(&sets[k].facing);
    }
    return rc;
}
