/*
 * Recall where a single decimation lost tags or refused them: small tags on
 * the far side of a tilted camera, and a tag with one corner covered.
 * Small rendered tables (datasets/ds_scene.h), figures off so that the test
 * alone decides what is hidden. Tolerances stated per test.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "rendered_util.h"
#include "vis_detect.h"
#include "vt_detector.h"


/* Figures off, supersampled 3x: the tags' edges as sharp as the scene draws them. */
static void render(rendered *r, const ds_gen_params *g) { rendered_draw(r, g, 0, 3); }

static double edge_px(const ds_truth_tag *t)
{
    return hypot(t->corners[1][0] - t->corners[0][0], t->corners[1][1] - t->corners[0][1]);
}

/* Model tags visible in full that the run's tag list (apriltag's quads) holds. */
static size_t decoded_of_visible(const rendered *r, const vis_tag_list *l, size_t *visible, double *smallest)
{
    size_t found = 0;
    *visible = 0, *smallest = INFINITY;
    for (size_t i = 0; i < r->truth.n_tags; i++) {
        const ds_truth_tag *t = &r->truth.tags[i];
        if (t->model < 0 || !t->fully_visible)
            continue;
        (*visible)++;
        *smallest = fmin(*smallest, edge_px(t));
        size_t before = found;
        for (size_t k = 0; k < l->n; k++)
            if (l->items[k].id == t->id && hypot(l->items[k].centre[0] - t->centre[0], l->items[k].centre[1] - t->centre[1]) < 2) {
                found++;
                break;
            }
        if (found == before)
            cr_log_info("tag %d (%.1f px at %.0f,%.0f) not decoded", t->id, edge_px(t), t->centre[0], t->centre[1]);
    }
    return found;
}

Test(vision_recall, small_tags_on_the_far_side_of_a_15_degree_tilt_are_all_decoded, .timeout = 120)
{
    ds_gen_params g;
    ds_gen_params_small(&g);
    /* Tilted 15 degrees: the near side sees a 14 mm tag ~24 px wide, the far side ~19 px. */
    g.tag_size = 14, g.tag_forward = 8;
    g.camera.tilt_deg = 15;
    g.camera.tilt_dir_deg = 90;
    rendered r;
    render(&r, &g);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);
    vis_tag_list l = {0};
    rules_snapshot *s = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_run_tags(d, r.img->data, r.img->width, r.img->height, r.img->stride, NULL, &s, &rep, &l,
                                       &err),
                 0, "%s", err.msg);
    size_t visible;
    double smallest;
    const size_t found = decoded_of_visible(&r, &l, &visible, &smallest);
    cr_assert_lt(smallest, 20.0, "the scene must have small far tags (smallest %.1f px)", smallest);
    cr_expect_eq(found, visible, "every fully visible tag decoded: %zu of %zu (smallest %.1f px)", found, visible,
                 smallest);
    for (size_t u = 0; u < r.scene->snapshot->n_units; u++)
        for (size_t m = 0; m < r.scene->snapshot->units[u].n_models; m++) {
            const rules_model *tm = &r.scene->snapshot->units[u].models[m];
            const rules_model *dm = rules_snapshot_find_model(s, tm->id, NULL);
            cr_assert_not_null(dm, "%s placed", tm->id);
            cr_expect_lt(base_v2_dist(dm->pos, tm->pos), 0.3, "%s within 0.3 mm (%.3f)", tm->id,
                         base_v2_dist(dm->pos, tm->pos));
        }
    /* The control: one decimation for the whole frame that suits the near tags (2) loses far ones. */
    vis_tag_list one = {0};
    d->tags->cfg.decimate = 2;
    cr_assert_eq(vis_tag_detect(d->tags, r.img->data, r.img->width, r.img->height, r.img->stride, &one, &err), 0);
    const size_t found_one = decoded_of_visible(&r, &one, &visible, &smallest);
    cr_expect_lt(found_one, visible, "control: a single decimation %.0f should miss far tags (found %zu of %zu)",
                 d->tags->cfg.decimate, found_one, visible);
    vis_tag_list_clear(&l);
    vis_tag_list_clear(&one);
    vis_report_clear(&rep);
    rules_snapshot_free(s);
    vis_detector_free(d);
    rendered_free(&r);
}

/* Paints a disc of the board's grey over corner `k` of tag `id`, reaching `reach` of the way to its centre. */
static void cover_corner(base_image *img, const ds_truth_tag *t, int k, double reach)
{
    const double cx = t->corners[k][0] + (t->centre[0] - t->corners[k][0]) * 0.1;
    const double cy = t->corners[k][1] + (t->centre[1] - t->corners[k][1]) * 0.1;
    const double rad = reach * hypot(t->centre[0] - t->corners[k][0], t->centre[1] - t->corners[k][1]);
    for (int y = (int)(cy - rad); y <= (int)(cy + rad); y++)
        for (int x = (int)(cx - rad); x <= (int)(cx + rad); x++)
            if (x >= 0 && y >= 0 && x < img->width && y < img->height && hypot(x - cx, y - cy) <= rad)
                img->data[(size_t)y * img->stride + x] = 95;
}

Test(vision_recall, a_tag_with_one_corner_covered_is_placed_from_what_remains, .timeout = 120)
{
    ds_gen_params g;
    ds_gen_params_small(&g);
    rendered r;
    render(&r, &g);
    /* Three tags of three units, a corner each covered to 45 % of the way to the centre. */
    const int ids[3] = {11, 18, 26};
    for (int i = 0; i < 3; i++)
        for (size_t k = 0; k < r.truth.n_tags; k++)
            if (r.truth.tags[k].id == ids[i])
                cover_corner(r.img, &r.truth.tags[k], i, 0.45);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);
    rules_snapshot *s = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_run(d, r.img->data, r.img->width, r.img->height, r.img->stride, NULL, &s, &rep, &err), 0,
                 "%s", err.msg);
    for (int i = 0; i < 3; i++) {
        const roster_model *rm = roster_find_model_tag(r.scene->roster, ids[i]);
        cr_assert_not_null(rm);
        const rules_model *tm = rules_snapshot_find_model(r.scene->snapshot, rm->id, NULL);
        const rules_model *dm = rules_snapshot_find_model(s, rm->id, NULL);
        cr_assert_not_null(dm, "%s placed", rm->id);
        /* apriltag finds no quad for them: they are read by their pattern where the formation has a place. */
        cr_expect_not(dm->inferred, "%s placed from its own tag, not inferred", rm->id);
        const double e = base_v2_dist(dm->pos, tm->pos);
        const double fe = fabs(base_rad_to_deg(base_angle_wrap(dm->facing - tm->facing)));
        cr_expect_lt(e, 0.3, "%s within 0.3 mm (%.3f)", rm->id, e);
        cr_expect_lt(fe, 0.5, "%s facing within 0.5 degree (%.3f)", rm->id, fe);
    }
    vis_report_clear(&rep);
    rules_snapshot_free(s);
    vis_detector_free(d);
    rendered_free(&r);
}
