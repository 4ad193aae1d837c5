/*
 * The survey of a table's hills (issue 28, ref_survey.h): ds_climb's table
 * (a 50 mm hill with a 25 mm slope towards the edge of hard table 1's view,
 * 12 MP, cut to the hill) with the spears standing wholly on its top and two
 * units on the board. The table file states the hill 40 mm high (a wrong
 * ruler's reading): the survey measures it from the models' own tags and
 * says the file's height disagrees; stated 50 mm, it agrees.
 * Tolerances: the height within 4 mm of the true 50 mm (the tags' size is a
 * weak cue: it reads 53.1 mm here, 51.0-52.0 on the other climbs' pictures)
 * and within 3 of its own sigmas; the sigma between 0.5 and 3 mm.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>

#include "ds_climb.h"
#include "ds_render.h"
#include "ref_setup.h"
#include "ref_survey.h"
#include "rules_relief.h"

/* The survey of the picture with the hill stated `stated_mm` high. */
static void survey(const ds_climb *c, const base_image *img, double stated_mm, ref_survey *sv)
{
    base_error err = {0};
    const rules_snapshot *t = c->scene->snapshot;
    rules_snapshot *terrain = rules_snapshot_new(1, 1);
    cr_assert_not_null(terrain);
    for (size_t i = 0; i < t->n_terrain; i++) {
        rules_terrain *p = rules_snapshot_copy_terrain(terrain, &t->terrain[i]);
        cr_assert_not_null(p);
        if (p->relief == RULES_RELIEF_HILL)
            p->height_mm = stated_mm;
    }
    ref_setup *s = ref_setup_wrap(&c->scene->calib, c->scene->roster, "the camera", "the roster", &err);
    cr_assert_not_null(s, "%s", err.msg);
    ref_setup_keep_pose(s); /* a crop shows no board tag */
    cr_assert_eq(ref_setup_set_terrain(s, terrain->terrain, terrain->n_terrain, &err), 0, "%s", err.msg);
    const base_view v = base_image_view(img);
    cr_assert_eq(ref_survey_read(s, &v, sv, &err), 0, "%s", err.msg);
    rules_snapshot_free(terrain);
    ref_setup_free(s);
}

Test(relief_survey, the_hill_is_measured_from_the_models_tags)
{
    base_error err = {0};
    ds_climb c;
    cr_assert_eq(ds_climb_make(DS_CLIMB_ALONG, true, &c, &err), 0, "%s", err.msg);
    base_image *img = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render(c.scene->snapshot, c.scene->roster, &c.scene->calib, &c.scene->render, &img, &truth, &err),
                 0, "%s", err.msg);
    ds_truth_clear(&truth);
    const double stated[2] = {40, 50};
    for (int k = 0; k < 2; k++) {
        ref_survey sv;
        survey(&c, img, stated[k], &sv);
        cr_assert_eq(sv.n, 1, "%zu hills", sv.n);
        const ref_survey_hill *h = &sv.hills[0];
        printf("stated %.0f mm: measured %.2f +- %.2f mm from %zu units (%zu tags), %zu readings, the board's %zu "
               "units giving the scale +- %.2f mm; %s\n",
               stated[k], h->height_mm, h->sigma_mm, h->units, h->tags, sv.rounds, sv.flat_units, sv.scale_sigma_mm,
               h->agrees ? "agrees" : "disagrees");
        cr_expect_eq(h->units, 1, "the spears alone stand on the top (%zu units)", h->units);
        cr_expect(fabs(h->height_mm - c.hill.height_mm) <= 4.0, "measured %.2f mm, true %.0f", h->height_mm,
                  c.hill.height_mm);
        cr_expect(fabs(h->height_mm - c.hill.height_mm) <= 3 * h->sigma_mm, "%.2f +- %.2f mm", h->height_mm,
                  h->sigma_mm);
        cr_expect(h->sigma_mm >= 0.5 && h->sigma_mm <= 3.0, "sigma %.2f mm", h->sigma_mm);
        cr_expect_eq(h->agrees, stated[k] == c.hill.height_mm, "stated %.0f: %s", stated[k],
                     h->agrees ? "agrees" : "disagrees");
        ref_survey_clear(&sv);
    }
    base_image_free(img);
    ds_climb_clear(&c);
}

Test(relief_survey, a_table_without_hills_is_refused)
{
    base_error err = {0};
    ds_climb c;
    cr_assert_eq(ds_climb_make(DS_CLIMB_ALONG, true, &c, &err), 0, "%s", err.msg);
    ref_setup *s = ref_setup_wrap(&c.scene->calib, c.scene->roster, "the camera", "the roster", &err);
    cr_assert_not_null(s, "%s", err.msg);
    base_image *img = base_image_new(c.scene->calib.width, c.scene->calib.height, 1, 200);
    cr_assert_not_null(img);
    const base_view v = base_image_view(img);
    ref_survey sv;
    cr_expect_eq(ref_survey_read(s, &v, &sv, &err), -1);
    cr_expect_eq(err.code, BASE_E_INVALID, "%s", err.msg);
    cr_expect_eq(sv.n, 0);
    base_image_free(img);
    ref_setup_free(s);
    ds_climb_clear(&c);
}
