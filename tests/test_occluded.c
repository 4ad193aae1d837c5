/*
 * A unit under a hand read from the marks the hand leaves (vision/vis_occluded.h, issue 30): a roster with no
 * marks (cavalry, 4 files of 25x50 bases in 2 ranks; 8 infantry on 20x20 beside it; a monster on 50x50) laid out by
 * `tags layout` (rim labels of 2.77, 2 and 5 mm cells, masts on each front rank's end files and on the monster),
 * drawn with figures standing as real miniatures do at the 12 MP camera's scale (0.45 mm a pixel, 1.5 m up) and a
 * hand laid flat over the cavalry, its arm across the rest, so that only part of two of its labels show:
 *   - read as `tableref detect` reads it: the cavalry's two labels that show place their models (nothing else of it
 *     is placed: a unit of which two models of eight are read is not guessed), no wrong id;
 *   - vis_occluded_place alone: only models of units nothing of is seen are named, each at its truth; nothing is
 *     searched when every unit is seen; a label whose best reading is a model seen elsewhere names nothing; a mast
 *     is read over a label too weak to name its carrier (the monster's, under its figure) and places it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_geom.h"
#include "readback_util.h"
#include "roster_map.h"
#include "vis_camera.h"
#include "vis_occluded.h"
#include "vis_rim.h"
#include "vt_detector.h"

typedef struct block {
    const char *id;
    double w, d;
    int files, n;
    double cx, cy, facing;
} block;

static const block BLOCKS[] = {
    {"cav", 25, 50, 4, 8, 150, 140, 90},
    {"inf", 20, 20, 4, 8, 280, 140, 90},
    {"monster", 50, 50, 1, 1, 270, 220, 80},
};
#define N_BLOCKS (sizeof BLOCKS / sizeof BLOCKS[0])

static void model_at(const block *b, int k, double *x, double *y)
{
    const int f = k % b->files, r = k / b->files, ranks = (b->n + b->files - 1) / b->files;
    const double a = base_deg_to_rad(b->facing), fx = cos(a), fy = sin(a), lx = -fy, ly = fx;
    const double across = (f - (b->files - 1) / 2.0) * b->w, along = -(r - (ranks - 1) / 2.0) * b->d;
    *x = b->cx - across * lx + along * fx, *y = b->cy - across * ly + along * fy;
}

static void table_json(cJSON **roster, cJSON **snap)
{
    cJSON *ru, *su;
    rb_table_start(roster, snap, 360, 270, 20, 24, &ru, &su);
    int tag = 10;
    for (size_t i = 0; i < N_BLOCKS; i++) {
        const block *b = &BLOCKS[i];
        cJSON *u, *s;
        rb_unit_start(ru, su, b->id, b->w, b->d, &u, &s);
        cJSON_AddNumberToObject(u, "files", b->files);
        rb_old_square_tag(u, 12);
        cJSON *um = cJSON_AddArrayToObject(u, "models"), *sm = cJSON_AddArrayToObject(s, "models");
        for (int k = 0; k < b->n; k++) {
            char id[32];
            snprintf(id, sizeof id, "%s-%d", b->id, k + 1);
            double x, y;
            model_at(b, k, &x, &y);
            rb_model(um, sm, id, tag, x, y, b->facing);
            tag += 2;
        }
    }
}

/* The roster laid out, the truth, and the picture's camera and drawing: seed 5's figures, one hand laid flat 90 mm
 * up with its palm over the cavalry's second file, its fingers over the third and fourth, its arm over the front
 * rank's masts. Of the cavalry only the rear rank's first two labels show in part (cav-5: three corner blocks,
 * cav-6: two) and the fourth file's mast in part (under the fingers: not read). */
static roster_file *scene(rules_snapshot **truth, ds_camera_params *cp, ds_render_params *p)
{
    cJSON *rj, *sj;
    table_json(&rj, &sj);
    roster_file *r = rb_laid_out(rj, "occluded roster", NULL);
    *truth = rb_truth(sj);
    cJSON_Delete(rj);
    cJSON_Delete(sj);
    *cp = (ds_camera_params){800, 600, 1500 / 0.45, 1500, 6, 30, {180, 135}, {0, 0, 0, 0, 0}};
    ds_render_params_default(p);
    p->style = DS_STYLE_REAL, p->miniatures = 1, p->figures = 1, p->seed = 5;
    p->hands = 1, p->n_hand_at = 1;
    p->hand_at[0] = (ds_hand_place){135, 160, 90, 0};
    return r;
}

/* A label's centre within LABEL_MM of its base's truth: the two labels read measured 0.09 and 0.02 mm off. */
#define LABEL_MM 0.5
/* Its facing within LABEL_DEG. */
#define LABEL_DEG 1.0

static const rules_model *truth_of(const rules_snapshot *truth, const roster_map *m, size_t model)
{
    const rules_unit *u = rules_snapshot_find_unit(truth, m->units[m->models[model].unit].id);
    return u ? rules_unit_find_model(u, m->models[model].id) : NULL;
}

Test(occluded, a_unit_under_a_hand_is_placed_by_the_labels_that_show, .timeout = 120)
{
    rules_snapshot *truth;
    ds_camera_params cp;
    ds_render_params p;
    roster_file *r = scene(&truth, &cp, &p);
    rb_read rd;
    rb_render_and_read(r, truth, &cp, &p, &rd);
    const rules_unit *cav = rules_snapshot_find_unit(rd.got, "cav"), *tcav = rules_snapshot_find_unit(truth, "cav");
    cr_assert_not_null(cav, "the cavalry is not in the snapshot");
    size_t placed = 0;
    for (size_t k = 0; k < tcav->n_models; k++) {
        const rules_model *gm = rules_unit_find_model(cav, tcav->models[k].id);
        if (!gm)
            continue;
        placed++;
        cr_expect(!strcmp(gm->id, "cav-5") || !strcmp(gm->id, "cav-6"), "%s placed", gm->id);
        cr_expect_leq(base_v2_dist(gm->pos, tcav->models[k].pos), LABEL_MM, "%s %.2f mm off", gm->id,
                      base_v2_dist(gm->pos, tcav->models[k].pos));
        /* Honest: its sigma covers its miss three times over, and is no larger than a label's read (1 mm). */
        cr_expect_geq(3 * gm->sigma_mm, base_v2_dist(gm->pos, tcav->models[k].pos), "%s sigma %.2f", gm->id,
                      gm->sigma_mm);
        cr_expect_leq(gm->sigma_mm, 1.0, "%s sigma %.2f", gm->id, gm->sigma_mm);
    }
    cr_expect_eq(placed, 2, "cavalry placed: %zu (the two labels that show; the rest of a unit read from two of its "
                            "eight labels is not guessed)", placed);
    cr_expect_eq(rd.sc.wrong, 0, "wrong ids: %zu", rd.sc.wrong);
    cr_expect_eq(rd.sc.placed5, 8 + 2 + 1, "within 5 mm: %zu (the infantry's 8, the cavalry's 2, the monster)",
                 rd.sc.placed5);
    rb_read_clear(&rd);
    rules_snapshot_free(truth);
    roster_free(r);
}

/* The picture of scene() drawn, the roster's map and book, and a camera: what vis_occluded_place reads. */
typedef struct bench_scene {
    roster_file *r;
    rules_snapshot *truth;
    roster_map *map;
    vis_tag_detector *td;
    vis_rim_book book;
    vis_camera cam;
    base_image *img;
    ds_truth dt;
    vis_seen_model *seen;
    unsigned char *partial;
} bench_scene;

static void bench_scene_make(bench_scene *s)
{
    memset(s, 0, sizeof *s);
    ds_camera_params cp;
    ds_render_params p;
    s->r = scene(&s->truth, &cp, &p);
    base_error err = {0};
    calib_file cal;
    cr_assert_eq(ds_camera_make(&cp, &cal, &err), 0, "%s", err.msg);
    cr_assert_eq(ds_render(s->truth, s->r, &cal, &p, &s->img, &s->dt, &err), 0, "%s", err.msg);
    vis_camera_init(&s->cam, &cal);
    cr_assert_not_null(s->map = roster_map_new(s->r, &err), "%s", err.msg);
    cr_assert_not_null(s->td = vis_tag_detector_new("tag36h11"));
    cr_assert_eq(vis_rim_book_make(s->td, s->map, &s->book), 0);
    cr_assert_not_null(s->seen = calloc(s->map->n_models, sizeof *s->seen));
    cr_assert_not_null(s->partial = calloc(s->map->n_units, 1));
}

static void bench_scene_clear(bench_scene *s)
{
    free(s->seen);
    free(s->partial);
    vis_rim_book_clear(&s->book);
    vis_tag_detector_free(s->td);
    roster_map_free(s->map);
    base_image_free(s->img);
    ds_truth_clear(&s->dt);
    rules_snapshot_free(s->truth);
    roster_free(s->r);
}

/* Marks unit u's models seen at their truth, moved by dy mm. */
static void mark_seen(bench_scene *s, const char *unit, double dy)
{
    for (size_t i = 0; i < s->map->n_models; i++)
        if (!strcmp(s->map->units[s->map->models[i].unit].id, unit)) {
            const rules_model *t = truth_of(s->truth, s->map, i);
            s->seen[i] = (vis_seen_model){.seen = true, .certain = true, .pos = {t->pos.x, t->pos.y + dy},
                                          .facing = t->facing};
        }
}

static int run(bench_scene *s, vis_occluded_stats *st)
{
    const base_view v = {s->img->width, s->img->height, 1, s->img->stride, s->img->data};
    return vis_occluded_place(&s->cam, &v, &s->book, s->td, s->map, 1, NULL, s->seen, s->partial, st);
}

/* A unit taken as seen before vis_occluded runs: at its truth moved `dy` mm. */
typedef struct seen_as {
    const char *unit;
    double dy;
} seen_as;

/* scene() drawn, the units in `seen` (ended by a NULL unit) marked seen, vis_occluded run; `candidates` units left
 * for it (those nothing of is seen). */
static void make_and_run(bench_scene *s, vis_occluded_stats *st, const seen_as *seen, size_t candidates)
{
    bench_scene_make(s);
    for (; seen->unit; seen++)
        mark_seen(s, seen->unit, seen->dy);
    cr_assert_eq(run(s, st), 0);
    cr_expect_eq(st->candidates, candidates, "candidates: %zu", st->candidates);
}

Test(occluded, names_only_models_of_units_nothing_of_is_seen, .timeout = 120)
{
    bench_scene s;
    vis_occluded_stats st;
    make_and_run(&s, &st, (const seen_as[]){{"inf", 0}, {"monster", 0}, {NULL, 0}}, 1);
    cr_expect_gt(st.labels, 0);
    cr_expect_eq(st.models, 2, "models named: %zu", st.models);
    size_t named = 0;
    for (size_t i = 0; i < s.map->n_models; i++) {
        if (strcmp(s.map->units[s.map->models[i].unit].id, "cav") || !s.seen[i].seen)
            continue;
        named++;
        const rules_model *t = truth_of(s.truth, s.map, i);
        cr_expect(!strcmp(t->id, "cav-5") || !strcmp(t->id, "cav-6"), "%s named", t->id);
        cr_expect(s.seen[i].certain);
        cr_expect_leq(base_v2_dist(s.seen[i].pos, t->pos), LABEL_MM, "%s %.2f mm off", t->id,
                      base_v2_dist(s.seen[i].pos, t->pos));
        cr_expect_leq(fabs(base_angle_wrap(s.seen[i].facing - t->facing)), base_deg_to_rad(LABEL_DEG), "%s facing",
                      t->id);
    }
    cr_expect_eq(named, 2);
    const size_t cav = 0; /* the roster's first unit: two models named of eight, so only those are placed */
    cr_expect_str_eq(s.map->units[cav].id, "cav");
    cr_expect_eq(s.partial[cav], 1);
    bench_scene_clear(&s);
}

Test(occluded, nothing_is_searched_when_every_unit_is_seen, .timeout = 120)
{
    bench_scene s;
    vis_occluded_stats st;
    make_and_run(&s, &st, (const seen_as[]){{"inf", 0}, {"cav", 0}, {"monster", 0}, {NULL, 0}}, 0);
    cr_expect_eq(st.labels, 0, "the picture was searched: %zu labels", st.labels);
    cr_expect_eq(st.models, 0);
    bench_scene_clear(&s);
}

/* The cavalry seen elsewhere (100 mm off: its labels here stand on no model seen): the two labels that show read best
 * as its models (the test above), which are no candidates now, so they name nothing. The infantry, nothing seen of
 * it, is the candidate: its 2 mm labels, half under its figures, read no name alone (vis_rim_units reads them
 * as a block): nothing named at all. */
Test(occluded, a_label_read_best_as_a_model_seen_names_nothing, .timeout = 120)
{
    bench_scene s;
    vis_occluded_stats st;
    make_and_run(&s, &st, (const seen_as[]){{"cav", 100}, {"monster", 0}, {NULL, 0}}, 1);
    for (size_t i = 0; i < s.map->n_models; i++) {
        const rules_model *t = truth_of(s.truth, s.map, i);
        if (!strcmp(s.map->units[s.map->models[i].unit].id, "cav"))
            cr_expect_float_eq(s.seen[i].pos.y, t->pos.y + 100, 1e-9, "%s moved", t->id);
        else if (s.seen[i].seen)
            cr_expect_leq(base_v2_dist(s.seen[i].pos, t->pos), LABEL_MM, "%s %.2f mm off", t->id,
                          base_v2_dist(s.seen[i].pos, t->pos));
    }
    cr_expect_eq(st.models, 0, "models named: %zu", st.models);
    bench_scene_clear(&s);
}

/* The monster's mast over its label at the carrier's place: 63 mm up, its rod leaning up to 1.26 mm; read 1.11 mm
 * off. */
#define MAST_MM 1.5

/* The monster (nothing of it seen: the blind pass's read of its mast left out here): its label, under its figure, is
 * too weak to name it (it names nothing) but is taken for it, and its mast, read over it, places it. */
Test(occluded, a_mast_is_read_over_a_label_taken_for_its_carrier, .timeout = 120)
{
    bench_scene s;
    vis_occluded_stats st;
    make_and_run(&s, &st, (const seen_as[]){{"inf", 0}, {"cav", 0}, {NULL, 0}}, 1);
    /* Four labels of its layout found on no model seen fit it within 25 nats: its mast is read for over each. */
    cr_expect_eq(st.mast_tries, 4, "masts read for: %zu", st.mast_tries);
    cr_expect_eq(st.masts, 1);
    cr_expect_eq(st.models, 1);
    const size_t monster = s.map->units[2].first_model;
    cr_assert_str_eq(s.map->models[monster].id, "monster-1");
    const rules_model *t = truth_of(s.truth, s.map, monster);
    const vis_seen_model *m = &s.seen[monster];
    cr_expect(m->seen && m->certain);
    cr_expect_float_eq(m->mark_height_mm, 63, 1e-9);
    cr_expect_float_eq(m->sway_mm, s.map->marks[s.map->n_marks - 1].sway, 1e-9);
    cr_expect_leq(base_v2_dist(m->pos, t->pos), MAST_MM, "%.2f mm off", base_v2_dist(m->pos, t->pos));
    cr_expect_leq(fabs(base_angle_wrap(m->facing - t->facing)), base_deg_to_rad(LABEL_DEG), "facing");
    cr_expect_eq(s.partial[2], 0, "a unit of one model named whole");
    bench_scene_clear(&s);
}
