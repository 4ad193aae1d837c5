/*
 * vision/vis_patch (the watch's keep rule, read through the referee) on the hard set's 4K webcam (hard table 5: ~0.6 mm/px,
 * 20-27 px tags, sensor noise, sharpening, MJPEG, auto exposure), on a crop
 * about its principal point: a tag that stayed correlates with its patch
 * at VIS_PATCH_SAME or more in a new frame (new sensor noise); a tag
 * moved by the watch's jitter (2 mm), another tag in its place, or an
 * empty board where it stood, below. The watch keeps a model read at the
 * last settle and not now where it was only on that evidence
 * (ref_read_keep_unchanged), so the second half is what keeps a moved
 * model from being taken for one that stayed.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ds_render.h"
#include "ds_sequence.h"
#include "vis_camera.h"
#include "vis_patch.h"

typedef struct table {
    ds_sequence *q;
    ds_render_params p;
    rules_snapshot *snap;
    vis_camera cam;
} table;

static void open_table(table *t)
{
    base_error err;
    ds_sequence *whole = ds_sequence_hard(5, NULL, &err);
    cr_assert_not_null(whole, "%s", err.msg);
    const calib_file *c = &whole->scene->calib;
    char crop[64];
    snprintf(crop, sizeof crop, "1600x1000+%d+%d", ((int)c->cx - 800) & ~1, ((int)c->cy - 500) & ~1);
    ds_sequence_free(whole);
    t->q = ds_sequence_hard(5, crop, &err);
    cr_assert_not_null(t->q, "%s", err.msg);
    t->p = t->q->scene->render;
    t->p.supersample = 1;
    t->snap = ds_sequence_keyframe(t->q, 0, &err);
    cr_assert_not_null(t->snap, "%s", err.msg);
    vis_camera_init(&t->cam, &t->q->scene->calib);
}

static void close_table(table *t)
{
    rules_snapshot_free(t->snap);
    ds_sequence_free(t->q);
}

/* The camera's grey frame of `s` (roster `r`) with sensor noise `seed`. */
static base_image *frame(const table *t, const rules_snapshot *s, const roster_file *r, uint32_t seed)
{
    base_error err;
    base_image *optics = NULL, *gray = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render_optics(s, r, &t->q->scene->calib, &t->p, &optics, &truth, &err), 0, "%s", err.msg);
    cr_assert_eq(ds_render_capture(optics, &t->p, seed, &gray, NULL, &err), 0, "%s", err.msg);
    ds_truth_clear(&truth);
    base_image_free(optics);
    return gray;
}

/* Every model's tag as `frame` shows it at the poses of `s`: the patches take the roster's map, all vision takes. */
static vis_patches *take(const roster_file *r, const vis_camera *cam, const rules_snapshot *s, const base_view *frame)
{
    base_error err;
    roster_map *map = roster_map_new(r, &err);
    cr_assert_not_null(map, "%s", err.msg);
    vis_patches *p = vis_patches_take(map, cam, NULL, s, frame, NULL);
    roster_map_free(map);
    return p;
}

static base_view view_of(const base_image *g)
{
    return (base_view){g->width, g->height, 1, g->stride, g->data};
}

/* Every model with a patch (of `unit`, or all) against `now`: how many, how many lie where they were
 * (vis_patches_still), and the correlation at the pose and the search's shift (min and max over them). */
typedef struct fits {
    size_t n, still;
    double lo, hi, shift_lo, shift_hi;
} fits;

static fits correlate(const vis_patches *pt, const roster_file *r, const base_image *now, const char *unit)
{
    const base_view v = view_of(now);
    fits f = {0, 0, 2, -2, 1e9, -1};
    for (size_t m = 0; m < r->n_models; m++) {
        if (unit && strcmp(r->units[r->models[m].unit].id, unit) != 0)
            continue;
        vis_patch_fit fit;
        f.still += vis_patches_still(pt, m, &v, &fit);
        if (isnan(fit.at_pose))
            continue;
        f.n++;
        f.lo = fmin(f.lo, fit.at_pose), f.hi = fmax(f.hi, fit.at_pose);
        f.shift_lo = fmin(f.shift_lo, fit.shift_mm), f.shift_hi = fmax(f.shift_hi, fit.shift_mm);
    }
    return f;
}

static void log_fits(const char *what, const fits *f)
{
    cr_log_info("%s: %zu tags, %zu still; correlation at the pose %.3f .. %.3f, best %.1f .. %.1f mm away", what,
                f->n, f->still, f->lo, f->hi, f->shift_lo, f->shift_hi);
}

/* The snapshot with every model of `unit` (every model: NULL) moved `mm` along its facing. */
static rules_snapshot *moved(const rules_snapshot *s, const char *unit, double mm)
{
    rules_snapshot *c = rules_snapshot_clone(s);
    cr_assert_not_null(c);
    for (size_t u = 0; u < c->n_units; u++)
        for (size_t k = 0; (!unit || strcmp(c->units[u].id, unit) == 0) && k < c->units[u].n_models; k++) {
            rules_model *m = &c->units[u].models[k];
            m->pos.x += mm * cos(m->facing), m->pos.y += mm * sin(m->facing);
        }
    return c;
}

Test(watch_patch, a_tag_that_stayed_matches_one_moved_by_the_jitter_does_not, .timeout = 300)
{
    table t;
    open_table(&t);
    const roster_file *r = t.q->scene->roster;
    base_image *then = frame(&t, t.snap, r, 11), *again = frame(&t, t.snap, r, 12);
    const base_view tv = view_of(then);
    vis_patches *pt = take(r, &t.cam, t.snap, &tv);
    cr_assert_not_null(pt);
    const fits stayed = correlate(pt, r, again, NULL);
    log_fits("stayed", &stayed);
    cr_assert_geq(stayed.n, 40, "%zu tags on the crop", stayed.n);
    cr_expect_eq(stayed.still, stayed.n, "%zu of %zu tags that stayed found still", stayed.still, stayed.n);

    rules_snapshot *s1 = moved(t.snap, NULL, 1.0), *s2 = moved(t.snap, NULL, 2.0);
    base_image *one = frame(&t, s1, r, 12), *two = frame(&t, s2, r, 12);
    const fits f1 = correlate(pt, r, one, NULL), f2 = correlate(pt, r, two, NULL);
    log_fits("moved 1 mm", &f1);
    log_fits("moved 2 mm", &f2);
    cr_expect_eq(f2.n, stayed.n);
    cr_expect_eq(f2.still, 0, "%zu tags moved by 2 mm found still", f2.still);
    base_image_free(one);
    base_image_free(two);
    rules_snapshot_free(s1);
    rules_snapshot_free(s2);
    vis_patches_free(pt);
    base_image_free(then);
    base_image_free(again);
    close_table(&t);
}

Test(watch_patch, another_tag_or_the_empty_board_in_its_place_does_not_match, .timeout = 300)
{
    table t;
    open_table(&t);
    roster_file *r = t.q->scene->roster;
    base_image *then = frame(&t, t.snap, r, 11);
    const base_view tv = view_of(then);
    vis_patches *pt = take(r, &t.cam, t.snap, &tv);
    cr_assert_not_null(pt);
    /* The unit with the most tags on the crop. */
    const roster_unit *ru = NULL;
    size_t most = 0;
    for (size_t u = 0; u < r->n_units; u++) {
        const fits f = correlate(pt, r, then, r->units[u].id);
        if (f.n > most)
            most = f.n, ru = &r->units[u];
    }
    cr_assert_geq(most, 8, "the fullest unit has %zu tags on the crop", most);
    /* Each model of the unit carries its neighbour's tag. */
    const int first_tag = r->models[ru->first_model].tag_id;
    for (size_t k = 0; k + 1 < ru->n_models; k++)
        r->models[ru->first_model + k].tag_id = r->models[ru->first_model + k + 1].tag_id;
    r->models[ru->first_model + ru->n_models - 1].tag_id = first_tag;
    base_image *swapped = frame(&t, t.snap, r, 12);
    const fits fs = correlate(pt, r, swapped, ru->id);
    log_fits("neighbours' tags", &fs);
    cr_expect_eq(fs.n, most);
    cr_expect_eq(fs.still, 0, "%zu of %s's tags found still under their neighbours' tags", fs.still, ru->id);
    /* The unit gone (200 mm back: the board where it stood). */
    rules_snapshot *gone = moved(t.snap, ru->id, -200);
    base_image *empty = frame(&t, gone, r, 12);
    const fits fe = correlate(pt, r, empty, ru->id);
    log_fits("unit gone", &fe);
    cr_expect_eq(fe.still, 0, "%zu of %s's tags found still on the empty board", fe.still, ru->id);
    base_image_free(empty);
    rules_snapshot_free(gone);
    base_image_free(swapped);
    vis_patches_free(pt);
    base_image_free(then);
    close_table(&t);
}
