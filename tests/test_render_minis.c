/*
 * The miniatures set (datasets/ds_hard.h, ds_hard_minis_preset): figures
 * stand as real ones do, and rim labels are drawn where the roster says.
 *   - Seen from straight above (a camera 30 m up, ~1 mm a pixel, no lean of
 *     the view), an infantry figure covers the middle 60-75% of its 20 or
 *     25 mm base (median over the table's bases, +-5% for the mask's edge
 *     pixels), cavalry about half of a 25x50 base along its middle, a
 *     monster most of its base.
 *   - Through the hard camera (1.5 m up), the square tag the sheet printed
 *     before rim labels is mostly hidden: no more than a third of them 90%
 *     visible (the independent render: none; this crop: none of 62).
 *   - A rim label's cells are drawn where roster_rim_make puts them: on a
 *     crop with no figure and no hand, at least 99% of the cells of the
 *     labels away from the crop's edges show the roster's colour at their
 *     centre's pixel (grey above or below 128; the camera's blur and JPEG
 *     are the 1% allowed; measured: all 2944).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>

#include "ds_hard.h"
#include "ds_marks.h"
#include "ds_render.h"
#include "roster_mark.h"
#include "vis_camera.h"

static int cmp_dbl(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median share of the base covered, over the models whose unit kind begins with `kind`. */
static double median_covered(const ds_hard_table *t, const ds_truth *truth, const char *kind, size_t *n_out)
{
    const roster_file *ro = t->scene->roster;
    double *v = malloc((truth->n_models + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < truth->n_models; i++) {
        const long rm = truth->models[i].roster_model;
        if (rm >= 0 && strncmp(t->kind[ro->models[rm].unit], kind, strlen(kind)) == 0)
            v[n++] = truth->models[i].base_covered;
    }
    qsort(v, n, sizeof *v, cmp_dbl);
    const double med = n ? v[n / 2] : NAN;
    free(v);
    *n_out = n;
    return med;
}

Test(render_minis, figures_cover_the_middle_of_their_bases_seen_from_above)
{
    base_error err;
    ds_hard_params hp;
    ds_hard_minis_preset(1, DS_HARD_MARKS_RIM, &hp);
    ds_hard_table *t = ds_hard_generate(&hp, &err);
    cr_assert_not_null(t, "%s", err.msg);
    /* Straight down from 30 m: 1 mm a pixel, every figure seen as from right above it. */
    ds_camera_params cp = {1900, 1300, 30000, 30000, 0, 0, {915, 610}, {0, 0, 0, 0, 0}};
    cr_assert_eq(ds_camera_make(&cp, &t->scene->calib, &err), 0, "%s", err.msg);
    ds_render_params p = t->scene->render;
    p.hands = 0, p.shadows = 0;
    base_image *img = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render(t->scene->snapshot, t->scene->roster, &t->scene->calib, &p, &img, &truth, &err), 0, "%s",
                 err.msg);
    static const struct { const char *kind; double lo, hi; } want[] = {
        {"infantry 20x20", 0.55, 0.8}, {"infantry 25x25", 0.55, 0.8}, {"cavalry 25x50", 0.4, 0.75},
        {"monstrous infantry", 0.55, 0.9}, {"monster", 0.6, 0.95}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        size_t n;
        const double med = median_covered(t, &truth, want[k].kind, &n);
        cr_log_info("%s: %zu bases, median %.0f%% covered from above", want[k].kind, n, 100 * med);
        if (n)
            cr_expect(med >= want[k].lo && med <= want[k].hi, "%s: median %.2f covered, want %.2f..%.2f", want[k].kind,
                      med, want[k].lo, want[k].hi);
    }
    ds_truth_clear(&truth);
    base_image_free(img);
    ds_hard_free(t);
}

/* A 1600 x 1200 crop of minis table 1 (12 MP camera, 0.45 mm a pixel), marked `marks`, figures and hands as given. */
static ds_hard_table *minis_crop(ds_hard_marks marks, int figures, base_image **img, ds_truth *truth)
{
    base_error err;
    ds_hard_params hp;
    ds_hard_minis_preset(1, marks, &hp);
    ds_hard_table *t = ds_hard_generate(&hp, &err);
    cr_assert_not_null(t, "%s", err.msg);
    cr_assert_eq(ds_hard_crop(&t->scene->calib, 1200, 900, 1600, 1200, &err), 0, "%s", err.msg);
    ds_render_params p = t->scene->render;
    if (!figures)
        p.figures = 0, p.hands = 0;
    cr_assert_eq(ds_render(t->scene->snapshot, t->scene->roster, &t->scene->calib, &p, img, truth, &err), 0, "%s",
                 err.msg);
    return t;
}

Test(render_minis, the_square_tags_printed_today_are_mostly_hidden_by_their_figures)
{
    base_image *img = NULL;
    ds_truth truth = {0};
    ds_hard_table *t = minis_crop(DS_HARD_MARKS_SHEET, 1, &img, &truth);
    int in = 0, clear = 0;
    for (size_t i = 0; i < truth.n_models; i++) {
        const ds_truth_tag *tt = &truth.tags[truth.models[i].tag];
        if (!tt->inside)
            continue;
        in++;
        clear += tt->occluded <= 0.1;
    }
    cr_log_info("square tags as printed today: %d of %d in the crop at least 90%% visible", clear, in);
    cr_assert_geq(in, 40);
    cr_expect_leq(clear * 3, in, "%d of %d 90%% visible: the figures flatter the tags", clear, in);
    ds_truth_clear(&truth);
    base_image_free(img);
    ds_hard_free(t);
}

Test(render_minis, rim_cells_are_drawn_where_the_roster_puts_them)
{
    base_image *img = NULL;
    ds_truth truth = {0};
    ds_hard_table *t = minis_crop(DS_HARD_MARKS_RIM, 0, &img, &truth);
    const ds_scene *s = t->scene;
    vis_camera cam;
    vis_camera_init(&cam, &s->calib);
    apriltag_family_t *fam = tag36h11_create();
    long cells = 0, right = 0;
    for (size_t i = 0; i < truth.n_models; i++) {
        const ds_truth_model *tm = &truth.models[i];
        const ds_truth_tag *tt = &truth.tags[tm->tag];
        /* Away from the crop's edges (the rendered crop's outer pixels are not the frame's). */
        if (!tt->inside || tt->centre[0] < 100 || tt->centre[1] < 100 || tt->centre[0] > img->width - 100 ||
            tt->centre[1] > img->height - 100)
            continue;
        const roster_model *rm = &s->roster->models[tm->roster_model];
        const roster_unit *u = &s->roster->units[rm->unit];
        const rules_model *m = &s->snapshot->units[tm->unit].models[tm->model];
        const base_obb box = rules_model_base(&s->snapshot->units[tm->unit], m);
        roster_rim rim;
        base_error err;
        cr_assert_eq(roster_rim_make(box.width, box.depth, u->mount.cell, &rim, &err), 0, "%s", err.msg);
        unsigned char data[36];
        cr_assert(ds_marks_data(fam, rm->tag_id, data));
        const base_vec2 fwd = base_v2_dir(m->facing), left = base_v2(-fwd.y, fwd.x);
        for (size_t k = 0; k < rim.n; k++) {
            const base_vec2 p = base_v2_add(m->pos, base_v2_add(base_v2_scale(fwd, rim.cells[k].x),
                                                               base_v2_scale(left, rim.cells[k].y)));
            const double X[3] = {p.x, p.y, u->mount.height};
            double px[2];
            cr_assert(vis_camera_project(&cam, X, px));
            const int x = (int)lround(px[0]), y = (int)lround(px[1]);
            const uint8_t *q = img->data + (size_t)y * img->stride + (size_t)x * (size_t)img->channels;
            const int grey = img->channels == 1 ? q[0] : (q[0] + 2 * q[1] + q[2]) / 4;
            cells++;
            right += (grey > 128) == (roster_rim_colour(&rim.cells[k], data) == 1);
        }
        roster_rim_clear(&rim);
    }
    tag36h11_destroy(fam);
    cr_log_info("rim cells sampled at their centres with no figure: %ld of %ld the roster's colour", right, cells);
    cr_assert_geq(cells, 2000);
    cr_expect_geq(right, cells * 99 / 100, "%ld of %ld cells right", right, cells);
    ds_truth_clear(&truth);
    base_image_free(img);
    ds_hard_free(t);
}

/* `tags layout` (roster_layout_marks) of the roster marked as the sheet printed before gives exactly the rim labels
 * the set draws: the render from its roster is the one the rim tests read. */
Test(render_minis, tags_layout_of_the_old_roster_gives_the_rim_labels_drawn)
{
    base_error err;
    ds_hard_params hs, hr;
    ds_hard_minis_preset(1, DS_HARD_MARKS_SHEET, &hs);
    ds_hard_minis_preset(1, DS_HARD_MARKS_RIM, &hr);
    ds_hard_table *s = ds_hard_generate(&hs, &err), *r = ds_hard_generate(&hr, &err);
    cr_assert(s && r, "%s", err.msg);
    roster_file *ro = s->scene->roster;
    size_t changed;
    roster_layout_marks(ro, false, &changed);
    cr_expect_eq(changed, ro->n_units);
    cr_assert_eq(ro->n_units, r->scene->roster->n_units);
    for (size_t i = 0; i < ro->n_units; i++) {
        const roster_tag_mount *a = &ro->units[i].mount, *b = &r->scene->roster->units[i].mount;
        cr_expect_eq(a->layout, ROSTER_MARK_RIM, "unit %zu", i);
        cr_expect(a->layout == b->layout && a->cell == b->cell && a->height == b->height && a->size == b->size,
                  "unit %zu: %g mm cells, the set's %g", i, a->cell, b->cell);
    }
    ds_hard_free(s);
    ds_hard_free(r);
}
