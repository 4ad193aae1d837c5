#include "rendered_util.h"

#include <criterion/criterion.h>
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
