/*
 * When the table counts as settled: figures that hide tags for good must
 * not hold the settle up (a moved unit's own figures over its own tags);
 * a still hand over a unit that did not move must (until the forced
 * settle). Small rendered tables (1280x960, 4 units of 6), figures off so
 * the test decides exactly which tags are hidden; 10 frames a second.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "ds_render.h"
#include "ds_scene.h"
#include "watch_tracker.h"

#define FRAME_MS 100.0

typedef struct table {
    ds_scene *scene;
    base_image *img;
    ds_truth truth;
} table;

static void render(table *t, const rules_snapshot *snap)
{
    base_error err;
    memset(&t->truth, 0, sizeof t->truth);
    cr_assert_eq(ds_render(snap, t->scene->roster, &t->scene->calib, &t->scene->render, &t->img, &t->truth, &err), 0,
                 "%s", err.msg);
}

static ds_scene *small_scene(void)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    ds_scene *s = ds_scene_generate(&g, &err);
    cr_assert_not_null(s, "%s", err.msg);
    s->render.figures = 0;
    return s;
}

/* A dark disc over tag `id`, white border included (and nothing of its neighbours), as a figure's body leaves. */
static void cover_tag(base_image *img, const ds_truth *t, int id)
{
    for (size_t i = 0; i < t->n_tags; i++) {
        if (t->tags[i].id != id)
            continue;
        const double *c = t->tags[i].centre;
        double r = 0;
        for (int k = 0; k < 4; k++)
            r = fmax(r, hypot(t->tags[i].corners[k][0] - c[0], t->tags[i].corners[k][1] - c[1]));
        r = r * 1.25 + 1; /* the printed tag's corner: its white border is a cell wider than the black square */
        for (int y = (int)(c[1] - r); y <= (int)(c[1] + r); y++)
            for (int x = (int)(c[0] - r); x <= (int)(c[0] + r); x++)
                if (x >= 0 && y >= 0 && x < img->width && y < img->height && hypot(x - c[0], y - c[1]) <= r)
                    img->data[(size_t)y * img->stride + x] = 70;
        return;
    }
    cr_assert_fail("tag %d not in the picture", id);
}

/* Feeds `n` copies of img from *t; returns the frame time of the first settle in the run, or -1. */
static double feed(watch_tracker *w, const base_image *img, int n, double *t, watch_tracker_result *settle,
                   char *notes, size_t notes_cap)
{
    double at = -1;
    base_error err;
    for (int i = 0; i < n; i++, *t += FRAME_MS) {
        watch_tracker_result res;
        cr_assert_eq(watch_tracker_frame(w, img->data, img->width, img->height, img->stride, *t, &res, &err), 0, "%s",
                     err.msg);
        if (res.note[0] && notes && strlen(notes) + strlen(res.note) + 2 < notes_cap) {
            strcat(notes, res.note);
            strcat(notes, "\n");
        }
        if (res.settled && at < 0) {
            at = *t;
            if (settle)
                *settle = res;
        }
    }
    return at;
}

static watch_tracker *tracker_for(const ds_scene *s)
{
    base_error err;
    watch_tracker_config cfg;
    watch_tracker_config_default(&cfg);
    cfg.settle_ms = 1000;
    watch_tracker *w = watch_tracker_new(s->roster, &s->calib, &cfg, &err);
    cr_assert_not_null(w, "%s", err.msg);
    return w;
}

Test(watch_settle, a_moved_units_own_figures_hiding_its_tags_do_not_delay_the_settle, .timeout = 120)
{
    table a = {small_scene(), NULL, {0}}, b = {a.scene, NULL, {0}};
    render(&a, a.scene->snapshot);
    /* Unit 1 advances 60 mm; its figures now hide five of its six tags (over a fifth of the table's 24, which the
     * old rule waited on for 4 s, asking for "a hand over the table?"). */
    rules_snapshot *moved = rules_snapshot_clone(a.scene->snapshot);
    rules_unit *u = &moved->units[0];
    const base_vec2 step = base_v2_scale(base_v2_dir(u->models[0].facing), 60);
    for (size_t k = 0; k < u->n_models; k++)
        u->models[k].pos = base_v2_add(u->models[k].pos, step);
    render(&b, moved);
    const roster_unit *ru = &a.scene->roster->units[0];
    for (size_t k = 0; k < 5; k++)
        cover_tag(b.img, &b.truth, a.scene->roster->models[ru->first_model + k].tag_id);

    watch_tracker *w = tracker_for(a.scene);
    double t = 0;
    cr_assert_eq(feed(w, a.img, 15, &t, NULL, NULL, 0), 1000.0, "the first settle after 1 s still");
    const double moved_at = t;
    watch_tracker_result res;
    char notes[4096] = "";
    const double at = feed(w, b.img, 30, &t, &res, notes, sizeof notes);
    cr_expect_float_eq(at, moved_at + 1000.0, 1e-9, "settled at %.0f ms, 1 s after the move (%.0f); notes: %s", at,
                       moved_at, notes);
    cr_expect(res.moved, "the move is judged");
    cr_expect_eq(res.tags_missing, 5, "the five hidden tags are counted");
    const rules_unit *after = rules_snapshot_find_unit(res.after, ru->id);
    cr_assert_not_null(after);
    for (size_t k = 0; k < after->n_models; k++) {
        const rules_model *m = &after->models[k], *truth = rules_unit_find_model(u, m->id);
        cr_expect_lt(base_v2_dist(m->pos, truth->pos), 2.0, "%s placed within 2 mm (%.2f)", m->id,
                     base_v2_dist(m->pos, truth->pos));
    }
    watch_tracker_free(w);
    rules_snapshot_free(moved);
    base_image_free(a.img), base_image_free(b.img);
    ds_truth_clear(&a.truth), ds_truth_clear(&b.truth);
    ds_scene_free(a.scene);
}

Test(watch_settle, a_still_hand_over_a_unit_that_stayed_waits_until_the_forced_settle, .timeout = 120)
{
    table a = {small_scene(), NULL, {0}};
    render(&a, a.scene->snapshot);
    base_image *hand = base_image_clone(a.img);
    const roster_unit *ru = &a.scene->roster->units[2];
    cover_tag(hand, &a.truth, a.scene->roster->models[ru->first_model + 2].tag_id);

    watch_tracker *w = tracker_for(a.scene);
    double t = 0;
    cr_assert_eq(feed(w, a.img, 15, &t, NULL, NULL, 0), 1000.0);
    const double down = t;
    watch_tracker_result res;
    char notes[8192] = "";
    const double at = feed(w, hand, 50, &t, &res, notes, sizeof notes);
    cr_expect(strstr(notes, "no unit moved near it") != NULL, "it says why it waits: %s", notes);
    cr_expect_float_eq(at, down + 4000.0, 1e-9, "settled only when forced (4 x settle_ms), at %.0f", at);
    cr_expect(strstr(res.note, "although") != NULL, "the forced settle says so: %s", res.note);
    watch_tracker_free(w);
    base_image_free(hand);
    base_image_free(a.img);
    ds_truth_clear(&a.truth);
    ds_scene_free(a.scene);
}
