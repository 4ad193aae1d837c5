/*
 * The blind first pass (vis_detector_detect_in: the plan's regions, no roster position, no prediction) on a crop
 * of the hard set's table 3 (the 12 MP camera, a wide lens, k1 -0.30), where its plan decimates by 2 over tags
 * of 27-33 px. At decimate 2 apriltag keeps one pixel in four and blurs that picture (sigma 0.6, 1.2 of the
 * camera's pixels): a tag under 31 px is under 2 px a cell there and the blur merges its cells. The plan
 * searches such parts unblurred (cfg.plan_unblurred_px, vis_plan.h). Exact counts: fixed seed, deterministic
 * renderer and detector.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "ds_hard.h"
#include "ds_render.h"
#include "ds_score.h"
#include "rendered_util.h"
#include "vis_detect.h"
#include "vt_detector.h"

/* The regions of the plan searched unblurred, and of them those at decimate 2. */
static size_t unblurred_regions(const vis_plan *p, size_t *at2)
{
    size_t n = 0;
    *at2 = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->regions[i].unblurred)
            n++, *at2 += p->regions[i].decimate == 2;
    return n;
}

/*
 * Table 3's crop of 1024 x 1024 px from (2048, 1280): 59 clear tags, 27-54 px. Its plan decimates by 2 and cuts
 * out 3 parts whose smallest tags are predicted under 31 px (15.5 after decimation): searched unblurred there,
 * the blind pass reads 31 of them; searched as before (the blur everywhere: plan_unblurred_px 0), 26. No wrong
 * read either way.
 */
Test(render_blind, table_3s_small_decimated_tags_are_read_unblurred)
{
    ds_hard_params hp;
    ds_hard_preset(3, &hp);
    cr_assert_eq(hp.camera, DS_HARD_CAMERA_HQ12);
    base_error err = {0};
    ds_hard_table *t = ds_hard_generate(&hp, &err);
    cr_assert_not_null(t, "%s", err.msg);
    ds_scene *s = t->scene;
    cr_assert_eq(ds_hard_crop(&s->calib, 2048, 1280, 1024, 1024, &err), 0, "%s", err.msg);
    base_image *img = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err), 0, "%s", err.msg);
    vis_detector *det = vt_detector_new(s->roster, &s->calib, &err);
    cr_assert_not_null(det, "%s", err.msg);
    cr_expect_float_eq(det->cfg.plan_unblurred_px, 15.5, 1e-12);
    cr_expect_float_eq(det->tags->cfg.sigma, 0.6, 1e-12, "the blur elsewhere");
    size_t at2 = 0;
    cr_expect_eq(unblurred_regions(&det->plan, &at2), 3, "unblurred regions");
    cr_expect_eq(at2, 3, "all at decimate 2: %zu", at2);
    size_t clear = 0, now = 0, before = 0;
    rendered_blind_reads(det, img, &truth, &clear, &now);
    cr_expect_eq(clear, 59, "clear tags in the crop: %zu", clear);
    cr_expect_eq(now, 31, "read blind now: %zu", now);
    det->cfg.plan_unblurred_px = 0;
    rendered_blind_reads(det, img, &truth, &clear, &before);
    cr_expect_eq(unblurred_regions(&det->plan, &at2), 0, "the plan as before: nothing unblurred");
    cr_expect_eq(before, 26, "read blind as before: %zu", before);
    vis_detector_free(det);
    base_image_free(img);
    ds_truth_clear(&truth);
    ds_hard_free(t);
}
