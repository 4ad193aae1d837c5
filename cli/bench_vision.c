/*
 * tableref bench vision: accuracy and speed of tag detection on rendered
 * 12 MP tables with miniatures hiding tags. Prints figures; not a test.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "commands.h"
#include "cvshim.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "vis_detect.h"
#include "vis_tag.h"

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

static double pct(double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_d);
    size_t k = (size_t)ceil(p * n) - 1;
    return v[k >= n ? n - 1 : k];
}

typedef struct tally {
    size_t visible, found, wrong;
    double ms;
} tally;

/*
 * Scores detections against the truth: a fully visible tag counts as found
 * when a detection with its ID has its centre within 3 px; a detection whose
 * ID has no truth tag within 3 px is a wrong ID.
 */
static void score(const ds_truth *t, const int *ids, const double (*centres)[2], size_t n, tally *out)
{
    for (size_t i = 0; i < t->n_tags; i++) {
        const ds_truth_tag *tt = &t->tags[i];
        if (!tt->fully_visible)
            continue;
        out->visible++;
        size_t before = out->found;
        for (size_t k = 0; k < n; k++)
            if (ids[k] == tt->id && hypot(centres[k][0] - tt->centre[0], centres[k][1] - tt->centre[1]) < 3) {
                out->found++;
                break;
            }
        if (before == out->found && getenv("TABLEREF_BENCH_DEBUG"))
            fprintf(stderr, "  missed tag %d at %.0f,%.0f px\n", tt->id, tt->centre[0], tt->centre[1]);
    }
    for (size_t k = 0; k < n; k++) {
        int ok = 0;
        for (size_t i = 0; i < t->n_tags && !ok; i++)
            ok = t->tags[i].id == ids[k] &&
                 hypot(centres[k][0] - t->tags[i].centre[0], centres[k][1] - t->tags[i].centre[1]) < 3;
        out->wrong += !ok;
    }
}

static void score_tags(const ds_truth *t, const vis_tag_list *l, tally *out)
{
    int *ids = malloc((l->n + 1) * sizeof *ids);
    double(*c)[2] = malloc((l->n + 1) * sizeof *c);
    for (size_t k = 0; k < l->n; k++) {
        ids[k] = l->items[k].id;
        c[k][0] = l->items[k].centre[0];
        c[k][1] = l->items[k].centre[1];
    }
    score(t, ids, (const double(*)[2])c, l->n, out);
    free(ids);
    free(c);
}

int bench_vision(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        printf("usage: tableref bench vision [--frames N] [--seed S] [--decimate D] [--sigma S]\n"
               "                             [--max-hamming H]\n\n"
               "Renders N (default 3) 4056x3040 tables with 250 tags of 16 mm (~36 px) under\n"
               "miniatures that hide tags, then measures tableref's detection (recall of\n"
               "fully visible tags, wrong IDs, base-centre and facing errors, models placed\n"
               "within 5 mm including inferred ones) and the speed of tableref, the stock\n"
               "apriltag detector (library defaults) and OpenCV ArUco (DICT_APRILTAG_36h11,\n"
               "minMarkerPerimeterRate 0.01). Each frame is followed by a next frame of the\n"
               "same table with 5 units moved, detected with and without the first frame's\n"
               "snapshot as prior (tracking). Prints figures; it is not a test.\n"
               "--decimate, --sigma and --max-hamming override tableref's tuned tag detector.\n");
        return 0;
    }
    int frames = 3, hamming = -1;
    unsigned seed = 1;
    double decimate = 0, sigma = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--decimate") == 0 && i + 1 < argc)
            decimate = atof(argv[++i]);
        else if (strcmp(argv[i], "--sigma") == 0 && i + 1 < argc)
            sigma = atof(argv[++i]);
        else if (strcmp(argv[i], "--max-hamming") == 0 && i + 1 < argc)
            hamming = atoi(argv[++i]);
        else {
            fprintf(stderr, "tableref bench vision: unexpected argument '%s' (try --help)\n", argv[i]);
            return EXIT_BAD_INPUT;
        }
    }
    if (frames < 1 || frames > 100) {
        fprintf(stderr, "tableref bench vision: --frames must be 1..100\n");
        return EXIT_BAD_INPUT;
    }
    tally ours = {0}, stock = {0}, aruco = {0};
    size_t trk_models = 0, trk_placed5 = 0, trk_single5 = 0;
    size_t cap = 512 * (size_t)frames, n_seen = 0, n_models = 0, n_placed5 = 0, n_inferred = 0, n_inf_ok = 0;
    double *pos_err = malloc(cap * sizeof *pos_err), *fac_err = malloc(cap * sizeof *fac_err);
    double render_ms = 0;
    size_t n_recovered = 0, n_recovered_wrong = 0;
    int rc = 0;
    for (int f = 0; f < frames && rc == 0; f++) {
        rules_error err;
        ds_gen_params g;
        ds_gen_params_bench(&g);
        g.seed = seed + (unsigned)f;
        ds_scene *s = ds_scene_generate(&g, &err);
        cvs_image *img = NULL;
        ds_truth truth = {0};
        double t0 = now_ms();
        if (!s || ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err) < 0) {
            fprintf(stderr, "tableref bench vision: %s\n", err.msg);
            ds_scene_free(s);
            rc = EXIT_BAD_INPUT;
            break;
        }
        render_ms += now_ms() - t0;

        /* tableref: the whole pipeline, tags to snapshot. */
        vis_detector *det = vis_detector_new(s->roster, &s->calib, &err);
        if (!det) {
            fprintf(stderr, "tableref bench vision: %s\n", err.msg);
            rc = EXIT_BAD_INPUT;
            ds_truth_clear(&truth);
            cvs_image_free(img);
            ds_scene_free(s);
            break;
        }
        if (decimate >= 1)
            det->tags->cfg.decimate = decimate;
        if (sigma >= 0)
            det->tags->cfg.sigma = sigma;
        if (hamming >= 0)
            det->tags->cfg.max_hamming = hamming;
        vis_tag_list tags = {0};
        rules_snapshot *snap = NULL;
        vis_report rep = {0};
        t0 = now_ms();
        vis_detector_run_tags(det, img->data, img->width, img->height, img->stride, NULL, &snap, &rep, &tags, &err);
        ours.ms += now_ms() - t0;
        score_tags(&truth, &tags, &ours);
        /* Tags read by the partly-hidden-unit recovery: each must be where a tag of its ID really is. */
        for (size_t i = 0; i < rep.n; i++) {
            if (rep.items[i].kind != VIS_ISSUE_RECOVERED)
                continue;
            int ok = 0;
            for (size_t k = 0; k < truth.n_tags && !ok; k++)
                ok = truth.tags[k].id == rep.items[i].tag_id &&
                     hypot(truth.tags[k].centre[0] - rep.items[i].px[0], truth.tags[k].centre[1] - rep.items[i].px[1]) < 3;
            n_recovered++;
            n_recovered_wrong += !ok;
        }
        if (f == 0)
            printf("tableref detector: decimate %.0f, sigma %.1f, %d threads, refine %d, max_hamming %d "
                   "(expected tag %.1f px)\n",
                   det->tags->cfg.decimate, det->tags->cfg.sigma, det->tags->cfg.threads,
                   det->tags->cfg.refine_edges, det->tags->cfg.max_hamming, det->expected_tag_px);
        for (size_t u = 0; snap && u < s->snapshot->n_units; u++)
            for (size_t m = 0; m < s->snapshot->units[u].n_models; m++) {
                const rules_model *tm = &s->snapshot->units[u].models[m];
                const rules_model *dm = rules_snapshot_find_model(snap, tm->id, NULL);
                n_models++;
                if (!dm) {
                    if (getenv("TABLEREF_BENCH_DEBUG"))
                        fprintf(stderr, "  model %s not placed\n", tm->id);
                    continue;
                }
                double e = rules_v2_dist(dm->pos, tm->pos);
                n_placed5 += e <= 5.0;
                if (dm->inferred) {
                    n_inferred++;
                    n_inf_ok += e <= 5.0;
                } else if (n_seen < cap) {
                    pos_err[n_seen] = e;
                    fac_err[n_seen++] = fabs(rules_rad_to_deg(rules_angle_wrap(dm->facing - tm->facing)));
                }
            }
        printf("frame %d: %zu tags, %zu fully visible; tableref decoded %zu, placed %zu seen + %zu inferred, "
               "pose %s (board tags rms %.3f px)\n",
               f + 1, truth.n_tags, ours.visible - (f ? 0 : 0), tags.n, rep.models_seen, rep.models_inferred,
               rep.pose_refined ? "refined" : "from calibration", rep.pose_rms_px);
        vis_report_clear(&rep);

        /* Tracking: the next frame of the same table after a few units moved
         * (every fifth unit turns 25 degrees and steps 60 mm), detected with
         * this frame's snapshot as the prior, and once without it. */
        {
            rules_snapshot *next = rules_snapshot_clone(s->snapshot);
            for (size_t u = 0; next && u < next->n_units; u += 5) {
                rules_unit *nu = &next->units[u];
                rules_vec2 c = {0, 0};
                for (size_t m = 0; m < nu->n_models; m++)
                    c = rules_v2_add(c, rules_v2_scale(nu->models[m].pos, 1.0 / nu->n_models));
                const double rot = rules_deg_to_rad(25);
                const rules_vec2 step = rules_v2_scale(rules_v2_dir(nu->models[0].facing), 60);
                for (size_t m = 0; m < nu->n_models; m++) {
                    nu->models[m].pos = rules_v2_add(rules_v2_add(c, rules_v2_rot(rules_v2_sub(nu->models[m].pos, c), rot)), step);
                    nu->models[m].facing = rules_angle_wrap(nu->models[m].facing + rot);
                }
            }
            cvs_image *img2 = NULL;
            ds_truth truth2 = {0};
            if (next && ds_render(next, s->roster, &s->calib, &s->render, &img2, &truth2, &err) == 0) {
                rules_snapshot *with = NULL, *without = NULL;
                vis_report r2 = {0}, r3 = {0};
                vis_detector_run(det, img2->data, img2->width, img2->height, img2->stride, snap, &with, &r2, &err);
                vis_detector_run(det, img2->data, img2->width, img2->height, img2->stride, NULL, &without, &r3, &err);
                for (size_t u = 0; u < next->n_units; u++)
                    for (size_t m = 0; m < next->units[u].n_models; m++) {
                        const rules_model *tm = &next->units[u].models[m];
                        const rules_model *a = with ? rules_snapshot_find_model(with, tm->id, NULL) : NULL;
                        const rules_model *b = without ? rules_snapshot_find_model(without, tm->id, NULL) : NULL;
                        trk_models++;
                        trk_placed5 += a && rules_v2_dist(a->pos, tm->pos) <= 5.0;
                        trk_single5 += b && rules_v2_dist(b->pos, tm->pos) <= 5.0;
                    }
                rules_snapshot_free(with);
                rules_snapshot_free(without);
                vis_report_clear(&r2);
                vis_report_clear(&r3);
            }
            cvs_image_free(img2);
            ds_truth_clear(&truth2);
            rules_snapshot_free(next);
        }
        rules_snapshot_free(snap);

        /* Stock apriltag: the library's defaults (decimate 2, 1 thread). */
        vis_tag_config_stock(&det->tags->cfg, 1);
        t0 = now_ms();
        vis_tag_detect(det->tags, img->data, img->width, img->height, img->stride, &tags, &err);
        stock.ms += now_ms() - t0;
        score_tags(&truth, &tags, &stock);
        vis_tag_list_clear(&tags);
        vis_detector_free(det);

        /* OpenCV ArUco, made able to see 36 px tags on a 4056 px frame. */
        cvs_marker *mk = NULL;
        size_t nm = 0;
        t0 = now_ms();
        if (cvs_aruco_detect_36h11(img, 0.01, 0, &mk, &nm, &err) < 0)
            fprintf(stderr, "tableref bench vision: %s\n", err.msg);
        aruco.ms += now_ms() - t0;
        int *ids = malloc((nm + 1) * sizeof *ids);
        double(*c)[2] = malloc((nm + 1) * sizeof *c);
        for (size_t k = 0; k < nm; k++) {
            ids[k] = mk[k].id;
            c[k][0] = (mk[k].corners[0][0] + mk[k].corners[1][0] + mk[k].corners[2][0] + mk[k].corners[3][0]) / 4;
            c[k][1] = (mk[k].corners[0][1] + mk[k].corners[1][1] + mk[k].corners[2][1] + mk[k].corners[3][1]) / 4;
        }
        score(&truth, ids, (const double(*)[2])c, nm, &aruco);
        free(ids);
        free(c);
        free(mk);
        ds_truth_clear(&truth);
        cvs_image_free(img);
        ds_scene_free(s);
    }
    if (rc == 0) {
        double *pe = malloc((n_seen + 1) * sizeof *pe);
        memcpy(pe, pos_err, n_seen * sizeof *pe);
        double median = pct(pe, n_seen, 0.5), p99 = pct(pos_err, n_seen, 0.99), f99 = pct(fac_err, n_seen, 0.99);
        free(pe);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("\nrendering: %.0f ms per frame (not part of detection)\n", render_ms / frames);
        printf("%-10s %9s %12s %10s\n", "detector", "ms/frame", "recall", "wrong_ids");
        const struct {
            const char *name;
            tally *t;
        } rows[] = {{"tableref", &ours}, {"apriltag", &stock}, {"aruco", &aruco}};
        for (int i = 0; i < 3; i++)
            printf("%-10s %9.1f %11.2f%% %10zu\n", rows[i].name, rows[i].t->ms / frames,
                   100.0 * rows[i].t->found / (rows[i].t->visible ? rows[i].t->visible : 1), rows[i].t->wrong);
        printf("models: %zu, seen %zu, inferred %zu (%zu within 5 mm)\n", n_models, n_seen, n_inferred, n_inf_ok);
        printf("recovered units: %zu partly hidden tags read by pattern, %zu of them not where a tag of their ID is\n",
               n_recovered, n_recovered_wrong);
        printf("tracking (next frame, 5 of 25 units moved): model_recall %.2f%% with the previous snapshot as "
               "prior, %.2f%% without\n",
               100.0 * trk_placed5 / (trk_models ? trk_models : 1), 100.0 * trk_single5 / (trk_models ? trk_models : 1));
        printf("peak memory: %.1f MB (ru_maxrss; includes rendering)\n", ru.ru_maxrss / 1024.0);
        printf("accuracy: recall=%.2f%% model_recall=%.2f%% wrong_ids=%zu median_mm=%.3f p99_mm=%.3f "
               "facing_p99_deg=%.3f\n",
               100.0 * ours.found / (ours.visible ? ours.visible : 1), 100.0 * n_placed5 / (n_models ? n_models : 1),
               ours.wrong, median, p99, f99);
        printf("speed: tableref_ms=%.1f apriltag_ms=%.1f aruco_ms=%.1f ratio_vs_apriltag=%.2f\n", ours.ms / frames,
               stock.ms / frames, aruco.ms / frames, stock.ms / (ours.ms > 0 ? ours.ms : 1));
    }
    free(pos_err);
    free(fac_err);
    return rc;
}
