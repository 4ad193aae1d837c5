/* bench_vision_bases: the miniatures set per base size and camera (see the header). */
#include "bench_vision_bases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cores.h"
#include "commands.h"
#include "ds_hard.h"
#include "ds_render.h"
#include "ref_judge.h"
#include "roster.h"
#include "rules_move.h"
#include "vis_detect.h"

enum { N_CAMERAS = 2, MAX_GROUPS = 24, OFF_MM = 5, MIN_FOR_99 = 100 };
static const char *const CAMERA_NAME[N_CAMERAS] = {"12 MP", "4K webcam"};

/* One kind of base (as the set names it: "infantry 20x20", "character 25x50", ...) through one camera. */
typedef struct group {
    const char *kind;
    int camera;
    double cell_mm, cell_px_sum;   /* the mark's cell (a square tag: its black square), mm and px summed */
    size_t units, units_any, units_whole;      /* in view; with a model placed within 5 mm; every model so */
    size_t units_clear, units_clear_any;       /* of them, with a mark in view that no hand covers; placed so */
    size_t models, placed5, seen5, off, unplaced;
    double *err;                   /* placed within 5 mm: their errors, mm */
    size_t n_err, cap;
} group;

typedef struct bases_result {
    group g[MAX_GROUPS];
    size_t n;
    double detect_cpu_ms[N_CAMERAS];
    int frames[N_CAMERAS];
    size_t pairs, false_illegal, march_caught, not_seen, called;
} bases_result;

static group *group_of(bases_result *r, const char *kind, int camera, double cell)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->g[i].camera == camera && strcmp(r->g[i].kind, kind) == 0)
            return &r->g[i];
    if (r->n == MAX_GROUPS)
        return NULL;
    r->g[r->n] = (group){.kind = kind, .camera = camera, .cell_mm = cell};
    return &r->g[r->n++];
}

static int add_err(group *g, double e)
{
    if (g->n_err == g->cap) {
        const size_t cap = g->cap ? 2 * g->cap : 64;
        double *p = realloc(g->err, cap * sizeof *p);
        if (!p)
            return -1;
        g->err = p, g->cap = cap;
    }
    g->err[g->n_err++] = e;
    return 0;
}

static const rules_model *find_model(const rules_snapshot *s, const char *id)
{
    for (size_t u = 0; s && u < s->n_units; u++)
        for (size_t m = 0; m < s->units[u].n_models; m++)
            if (strcmp(s->units[u].models[m].id, id) == 0)
                return &s->units[u].models[m];
    return NULL;
}

/* One frame's models into the groups of its camera, unit by unit. */
static int score_frame(bases_result *r, const ds_hard_table *t, const ds_truth *truth, const rules_snapshot *got,
                       int camera, double tail_mm)
{
    const ds_scene *s = t->scene;
    const roster_file *ro = s->roster;
    for (size_t ui = 0; ui < s->snapshot->n_units; ui++) {
        const rules_unit *su = &s->snapshot->units[ui];
        size_t ri = 0;
        while (ri < ro->n_units && strcmp(ro->units[ri].id, su->id) != 0)
            ri++;
        if (ri == ro->n_units)
            continue;
        const roster_tag_mount *mt = &ro->units[ri].mount;
        group *g = group_of(r, t->kind[ri], camera, mt->layout == ROSTER_MARK_RIM ? mt->cell : mt->size);
        if (!g)
            return -1;
        size_t in_view = 0, placed = 0, clear = 0;
        double best_visible = 0; /* the share of its best base mark that shows (vis_occluded.h reads from it) */
        for (size_t k = 0; k < truth->n_models; k++) {
            const ds_truth_model *tm = &truth->models[k];
            if (tm->unit != ui || tm->tag < 0 || !truth->tags[tm->tag].inside)
                continue;
            const rules_model *want = &su->models[tm->model], *m = find_model(got, want->id);
            in_view++, g->models++;
            clear += !tm->hand_hidden;
            best_visible = fmax(best_visible, ds_truth_tag_visible(&truth->tags[tm->tag]));
            g->cell_px_sum += truth->tags[tm->tag].edge_px;
            if (!m) {
                g->unplaced++;
                continue;
            }
            const double e = base_v2_dist(m->pos, want->pos);
            if (e > OFF_MM) {
                g->off++;
                printf("    %s: %.1f mm off (%s, sigma %.1f mm)\n", want->id, e, m->inferred ? "inferred" : "seen",
                       m->sigma_mm);
                continue;
            }
            if (tail_mm > 0 && e > tail_mm)
                printf("    %s: %.2f mm off, within %d (%s, sigma %.2f mm)\n", want->id, e, OFF_MM,
                       rules_evidence_word(m->evidence), m->sigma_mm);
            placed++, g->placed5++;
            g->seen5 += !m->inferred;
            if (add_err(g, e) < 0)
                return -1;
        }
        if (in_view) {
            g->units++;
            g->units_any += placed > 0;
            g->units_whole += placed == in_view;
            g->units_clear += clear > 0;
            g->units_clear_any += clear > 0 && placed > 0;
        }
        if (in_view && !placed)
            printf("    unit %s: none of its %zu models in view placed within %d mm; %zu of their base marks clear of "
                   "hands, the best %.0f%% visible\n", su->id, in_view, OFF_MM, clear, 100 * best_visible);
    }
    return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double p99(double *v, size_t n)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof *v, cmp_dbl);
    size_t k = (size_t)ceil(0.99 * (double)n);
    return v[k ? k - 1 : 0];
}

/* The table's before/after pair judged as `tableref referee` does (as bench_vision.c's hard pairs). */
static void judge_pair(const ds_hard_table *t, vis_detector *det, const rules_snapshot *before, int table,
                       bases_result *r)
{
    const ds_scene *s = t->scene;
    base_error err = {0};
    ds_hard_pair pr = {0};
    base_image *img = NULL;
    ds_truth truth = {0};
    rules_snapshot *after = NULL;
    vis_report rep = {0};
    ref_judgement got;
    ref_judgement_init(&got);
    ref_judge_options ro;
    ref_judge_options_default(&ro);
    ro.suggest = false;
    ds_render_params p = s->render;
    if (ds_hard_pair_make(t, &pr, &err) < 0) {
        printf("  pair of minis table %d: %s\n", table, err.msg);
        goto done;
    }
    p.frame_seed = pr.after_frame_seed;
    if (ds_render(pr.after, s->roster, &s->calib, &p, &img, &truth, &err) < 0 ||
        vis_detector_run(det, img->data, img->width, img->height, img->stride, NULL, &after, &rep, &err) < 0 ||
        !before || !after || ref_judge(before, after, &ro, &got, &err) < 0) {
        printf("  pair of minis table %d: not judged: %s\n", table, before && after ? err.msg : "a frame gave no snapshot");
        goto done;
    }
    r->pairs++;
    printf("  pair of minis table %d (%s +4.5\" at Advance 5\", %s +11\" at March 10\"):", table, pr.moves[0].unit,
           pr.moves[1].unit);
    int adv_called = 0, march_called = 0;
    for (size_t i = 0; i < got.report.n_units; i++) {
        const rules_unit_report *u = &got.report.units[i];
        const int is_adv = strcmp(u->unit_id, pr.moves[0].unit) == 0, is_march = strcmp(u->unit_id, pr.moves[1].unit) == 0;
        printf(" %s=%s", u->unit_id, rules_verdict_word(u->verdict));
        adv_called |= is_adv, march_called |= is_march;
        r->march_caught += is_march && u->verdict == RULES_VERDICT_ILLEGAL;
        r->false_illegal += !is_march && u->verdict == RULES_VERDICT_ILLEGAL;
        r->not_seen += u->verdict == RULES_VERDICT_NOT_SEEN;
        r->called++;
    }
    printf("%s%s%s\n", got.report.n_units ? "" : " (no unit moved)", adv_called ? "" : "; the advance: no call",
           march_called ? "" : "; the march: no call");
done:
    ref_judgement_clear(&got);
    rules_snapshot_free(after);
    vis_report_clear(&rep);
    ds_truth_clear(&truth);
    base_image_free(img);
    ds_hard_pair_clear(&pr);
}

/* One minis table: rendered, read (its CPU time), scored, its pair judged. 0 or -1 with err. */
static int run_table(const bv_options *o, int table, bases_result *r, base_error *err)
{
    ds_hard_params hp;
    ds_hard_minis_preset(table, o->no_masts ? DS_HARD_MARKS_RIM : DS_HARD_MARKS_MAST, &hp);
    ds_hard_table *t = ds_hard_generate(&hp, err);
    if (!t)
        return -1;
    const int camera = hp.camera == DS_HARD_CAMERA_WEBCAM4K;
    const ds_scene *s = t->scene;
    base_image *img = NULL;
    ds_truth truth = {0};
    rules_snapshot *got = NULL;
    vis_report rep = {0};
    vis_detector *det = NULL;
    roster_map *map = NULL;
    int rc = -1;
    const double r0 = bench_cpu_ms();
    if (ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, err) < 0)
        goto done;
    const double render_ms = bench_cpu_ms() - r0;
    if (!(map = roster_map_new(s->roster, err)) || !(det = vis_detector_new(map, &s->calib, err)))
        goto done;
    const double c0 = bench_cpu_ms();
    if (vis_detector_run(det, img->data, img->width, img->height, img->stride, NULL, &got, &rep, err) < 0)
        goto done;
    const double cpu = bench_cpu_ms() - c0;
    r->detect_cpu_ms[camera] += cpu, r->frames[camera]++;
    printf("  minis table %d (%s, %dx%d): rendered in %.0f CPU ms, read in %.0f CPU ms\n", table, CAMERA_NAME[camera],
           img->width, img->height, render_ms, cpu);
    if (score_frame(r, t, &truth, got, camera, o->tail_mm) < 0) {
        base_error_set(err, "out of memory");
        goto done;
    }
    if (o->pairs)
        judge_pair(t, det, got, table, r);
    rc = 0;
done:
    vis_detector_free(det);
    roster_map_free(map);
    rules_snapshot_free(got);
    vis_report_clear(&rep);
    ds_truth_clear(&truth);
    base_image_free(img);
    ds_hard_free(t);
    return rc;
}

static void print_row(const char *camera, const char *kind, const group *g, double *err, size_t n_err)
{
    printf("%-10s %-26s %5.2f %5.1f %5zu/%-5zu %5zu %6zu/%-6zu %5.1f%% %5zu %5zu %7.2f\n", camera, kind, g->cell_mm,
           g->models ? g->cell_px_sum / (double)g->models : 0, g->units_any, g->units, g->units_whole, g->placed5,
           g->models, g->models ? 100.0 * (double)g->placed5 / (double)g->models : 0, g->seen5, g->off,
           p99(err, n_err));
}

/* Every group, then each camera's whole; the smallest mark placed at 99%. */
static void print_result(const bv_options *o, bases_result *r)
{
    printf("\n== minis set per base size and camera (%s laid out by `tags layout`, as the sheet prints them)\n"
           "units: with a model placed within %d mm / in view; whole: every model in view so. models: placed within\n"
           "%d mm / in view; seen: of them from their own mark; off: placed more than %d mm from the truth (a wrong\n"
           "id or place); p99: of the errors of the models placed within %d mm. cell: the mark's cell (a square tag:\n"
           "its black square), mm and mean px.\n",
           o->no_masts ? "rim labels" : "rim labels and masts", OFF_MM, OFF_MM, OFF_MM, OFF_MM);
    printf("%-10s %-26s %5s %5s %11s %5s %13s %6s %5s %5s %7s\n", "camera", "base", "cell", "px", "units", "whole",
           "models", "", "seen", "off", "p99 mm");
    for (int c = 0; c < N_CAMERAS; c++) {
        group all = {.camera = c};
        double *errs = NULL;
        size_t n = 0;
        for (size_t i = 0; i < r->n; i++) {
            group *g = &r->g[i];
            if (g->camera != c)
                continue;
            print_row(CAMERA_NAME[c], g->kind, g, g->err, g->n_err);
            all.units += g->units, all.units_any += g->units_any, all.units_whole += g->units_whole;
            all.units_clear += g->units_clear, all.units_clear_any += g->units_clear_any;
            all.models += g->models, all.placed5 += g->placed5, all.seen5 += g->seen5, all.off += g->off;
            all.cell_px_sum += g->cell_px_sum;
            double *p = realloc(errs, (n + g->n_err + 1) * sizeof *p);
            if (!p)
                break;
            errs = p;
            if (g->n_err) /* a kind with nothing placed has no array (memcpy from NULL: UBSan) */
                memcpy(errs + n, g->err, g->n_err * sizeof *errs);
            n += g->n_err;
        }
        if (r->frames[c]) {
            all.cell_mm = NAN;
            print_row(CAMERA_NAME[c], "all", &all, errs, n);
            printf("%-10s units with a base mark in view that no hand covers: %zu of %zu placed (all units: %zu of "
                   "%zu)\n", CAMERA_NAME[c], all.units_clear_any, all.units_clear, all.units_any, all.units);
            printf("%-10s read in %.0f CPU ms a frame (%d frame%s)\n", CAMERA_NAME[c],
                   r->detect_cpu_ms[c] / r->frames[c], r->frames[c], r->frames[c] == 1 ? "" : "s");
        }
        free(errs);
    }
    /* 99% is a claim only over 100 models or more: a kind with 3 bases all placed shows nothing of it. */
    const group *best = NULL, *closest = NULL;
    for (size_t i = 0; i < r->n; i++) {
        const group *g = &r->g[i];
        if (g->models < MIN_FOR_99)
            continue;
        const double share = (double)g->placed5 / (double)g->models;
        if (share >= 0.99 && (!best || g->cell_mm < best->cell_mm))
            best = g;
        if (!closest || share > (double)closest->placed5 / (double)closest->models)
            closest = g;
    }
    if (best)
        printf("smallest mark placed at 99%% (of a kind with %d models or more in view): %s through the %s, cells of "
               "%.2f mm, %.1f px\n", MIN_FOR_99, best->kind,
               CAMERA_NAME[best->camera], best->cell_mm, best->cell_px_sum / (double)best->models);
    else if (!closest)
        printf("smallest mark placed at 99%%: no kind has %d models in view\n", MIN_FOR_99);
    else
        printf("smallest mark placed at 99%% (of a kind with %d models or more in view): none; the best is %s through "
               "the %s (cells of %.2f mm, %.1f px): %.1f%%\n", MIN_FOR_99, closest->kind, CAMERA_NAME[closest->camera], closest->cell_mm,
               closest->cell_px_sum / (double)closest->models, 100.0 * (double)closest->placed5 / (double)closest->models);
    if (r->pairs)
        printf("pairs: %zu judged; calls %zu, false ILLEGAL %zu (any unit but the march), the march caught %zu of %zu, "
               "not seen %zu\n", r->pairs, r->called, r->false_illegal, r->march_caught, r->pairs, r->not_seen);
}

int bv_bases_run(const bv_options *o)
{
    bases_result r = {0};
    base_error err = {0};
    int rc = 0;
    printf("\n-- minis set (figures standing as real miniatures do; tables 1-%d)\n", ds_hard_minis_count());
    for (int k = 0; k < o->n_tables && rc == 0; k++) {
        if (o->tables[k] < 1 || o->tables[k] > ds_hard_minis_count())
            continue; /* the hard set's table numbers run further */
        if (run_table(o, o->tables[k], &r, &err) < 0) {
            fprintf(stderr, "tableref bench vision: minis table %d: %s\n", o->tables[k], err.msg);
            rc = EXIT_BAD_INPUT;
        } else if (k + 1 < o->n_tables) {
            printf("\n(so far)");   /* a long run's figures as they stand, should it be stopped */
            print_result(o, &r);
        }
    }
    if (rc == 0)
        print_result(o, &r);
    for (size_t i = 0; i < r.n; i++)
        free(r.g[i].err);
    return rc;
}
