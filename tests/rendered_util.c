#include "rendered_util.h"

#include "ds_score.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

void rendered_draw(rendered *r, const ds_gen_params *g, int figures, int supersample)
{
    base_error err;
    r->scene = ds_scene_generate(g, &err);
    cr_assert_not_null(r->scene, "%s", err.msg);
    r->scene->render.figures = figures;
    if (supersample > 0)
        r->scene->render.supersample = supersample;
    memset(&r->truth, 0, sizeof r->truth);
    r->img = NULL;
    cr_assert_eq(ds_render(r->scene->snapshot, r->scene->roster, &r->scene->calib, &r->scene->render, &r->img,
                           &r->truth, &err),
                 0, "%s", err.msg);
}

void rendered_free(rendered *r)
{
    base_image_free(r->img);
    ds_truth_clear(&r->truth);
    ds_scene_free(r->scene);
}

void rendered_blind_reads(vis_detector *det, const base_image *img, const ds_truth *truth, size_t *clear,
                          size_t *read)
{
    base_error err = {0};
    const base_view v = base_image_view(img);
    const vis_tag_region whole = {0, 0, img->width, img->height, 0, 0, 0, img->width, img->height, 0};
    vis_tag_list tags = {0};
    cr_assert_eq(vis_detector_detect_in(det, &v, &whole, 1, &tags, &err), 0, "%s", err.msg);
    int *ids = malloc((tags.n + 1) * sizeof *ids);
    double(*c)[2] = malloc((tags.n + 1) * sizeof *c);
    cr_assert(ids && c);
    for (size_t i = 0; i < tags.n; i++)
        ids[i] = tags.items[i].id, c[i][0] = tags.items[i].centre[0], c[i][1] = tags.items[i].centre[1];
    ds_score sc;
    ds_score_init(&sc);
    ds_score_tags(&sc, truth, ids, (const double(*)[2])c, tags.n);
    *clear = sc.tags90, *read = sc.tags90_read;
    cr_expect_eq(sc.wrong_reads, 0, "wrong reads: %zu", sc.wrong_reads);
    ds_score_clear(&sc);
    free(ids);
    free(c);
    vis_tag_list_clear(&tags);
}
