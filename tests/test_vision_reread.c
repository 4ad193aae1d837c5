/*
 * A frame reread only where it changed (vision/vis_reread.h) looks for a
 * unit of which no tag decodes (the hidden-unit search) where the frame
 * changed and where the reading it changed from placed that unit, not in
 * the whole frame: a unit cannot have appeared where nothing changed. On
 * small rendered tables (1280x960, 4 units of 6, tags 16 mm at ~24 px)
 * made at test time with exact truth; the pixels searched are counted by
 * the detector (times.hidden_searched_px), so these tests pin where it
 * looks, not how long it takes.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rendered_util.h"
#include "vis_reread.h"
#include "vt_detector.h"


static void render_small(rendered *r)
{
    ds_gen_params g;
    ds_gen_params_small(&g);
    g.tag_height = 4;
    rendered_draw(r, &g, 0, 0);
}

/* Is truth tag i a tag of roster unit ui? */
static bool tag_of_unit(const rendered *r, size_t i, size_t ui)
{
    const roster_model *rm = roster_find_model_tag(r->scene->roster, r->truth.tags[i].id);
    return rm && rm->unit == ui;
}

/*
 * Paints over part of every tag of unit `ui` in `img`, in tag coordinates (s
 * along corner 0 -> 1, t along corner 0 -> 3, the black square is [0,1]^2):
 * a figure leaning over its base, or (the whole square and more) a cloth
 * laid over the unit.
 */
static void cover_unit_tags(const rendered *r, base_image *img, size_t ui, double s0, double s1, double t0, double t1)
{
    for (size_t i = 0; i < r->truth.n_tags; i++) {
        if (!tag_of_unit(r, i, ui))
            continue;
        const ds_truth_tag *tt = &r->truth.tags[i];
        const double *c0 = tt->corners[0], *c1 = tt->corners[1], *c3 = tt->corners[3];
        const double ax = c1[0] - c0[0], ay = c1[1] - c0[1], bx = c3[0] - c0[0], by = c3[1] - c0[1];
        const double det = ax * by - ay * bx;
        for (int y = (int)tt->centre[1] - 40; y <= (int)tt->centre[1] + 40; y++)
            for (int x = (int)tt->centre[0] - 40; x <= (int)tt->centre[0] + 40; x++) {
                if (x < 0 || y < 0 || x >= img->width || y >= img->height)
                    continue;
                const double px = x - c0[0], py = y - c0[1];
                const double s = (px * by - py * bx) / det, t = (ax * py - ay * px) / det;
                if (s >= s0 && s <= s1 && t >= t0 && t <= t1)
                    img->data[(size_t)y * img->stride + x] = 200;
            }
    }
}

/* A changed region whose core is the box of unit ui's tags grown by 30 px, searched 3 tags (72 px) wider, as the
 * watch's motion boxes are. */
static vis_tag_region region_over_unit(const rendered *r, size_t ui)
{
    double b[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < r->truth.n_tags; i++)
        if (tag_of_unit(r, i, ui)) {
            b[0] = fmin(b[0], r->truth.tags[i].centre[0]), b[1] = fmin(b[1], r->truth.tags[i].centre[1]);
            b[2] = fmax(b[2], r->truth.tags[i].centre[0]), b[3] = fmax(b[3], r->truth.tags[i].centre[1]);
        }
    cr_assert(b[0] <= b[2], "unit %zu has no tag in the picture", ui);
    vis_tag_region g = {0};
    g.core_x0 = fmax(0, b[0] - 30), g.core_y0 = fmax(0, b[1] - 30);
    g.core_x1 = fmin(r->img->width, b[2] + 30), g.core_y1 = fmin(r->img->height, b[3] + 30);
    g.x0 = (int)fmax(0, g.core_x0 - 72), g.y0 = (int)fmax(0, g.core_y0 - 72);
    g.x1 = (int)fmin(r->img->width, g.core_x1 + 72), g.y1 = (int)fmin(r->img->height, g.core_y1 + 72);
    return g;
}

static base_view view_of(const base_image *img) { return (base_view){img->width, img->height, 1, img->stride, img->data}; }

/* Reads `frame` whole (since NULL) or only in `regions` since `since`, with the detector's counters zeroed first. */
static void reread(vis_detector *d, const base_image *frame, const vis_reading *since, const vis_tag_region *regions,
                   size_t n, vis_reading *out)
{
    vis_since s = {0};
    vis_reread_options o = {.stayed_mm = 2, .patches = true};
    if (since) {
        s = (vis_since){since->snap, &since->tags, since->patches};
        o.since = &s, o.regions = regions, o.n_regions = n;
    }
    base_error err;
    const base_view v = view_of(frame);
    d->times = (vis_detect_times){0};
    cr_assert_eq(vis_detector_reread(d, &v, &o, out, &err), 0, "%s", err.msg);
}

/* Models of unit ui placed in s; every one of them within tol_mm of the truth. */
static size_t placed_near_truth(const rendered *r, const rules_snapshot *s, size_t ui, double tol_mm)
{
    const roster_unit *u = &r->scene->roster->units[ui];
    size_t placed = 0;
    for (size_t k = 0; k < u->n_models; k++) {
        const char *id = r->scene->roster->models[u->first_model + k].id;
        const rules_model *m = rules_snapshot_find_model(s, id, NULL);
        const rules_model *t = rules_snapshot_find_model(r->scene->snapshot, id, NULL);
        if (!m)
            continue;
        placed++;
        cr_expect_lt(base_v2_dist(m->pos, t->pos), tol_mm, "%s placed %.2f mm from the truth", id,
                     base_v2_dist(m->pos, t->pos));
    }
    return placed;
}

/*
 * A unit hidden under a cloth at one settle (not placed at all), then
 * uncovered but for a third of every tag (apriltag decodes none of them):
 * the reread of the part that changed finds it by the hidden-unit search,
 * every model within 2 mm of the truth, as a whole-frame reading does; and
 * the search looked at less than half the frame (the changed part grown by
 * the unit's reach), where the whole-frame reading looks at all of it.
 */
Test(vision_reread, unit_hidden_then_revealed_in_a_changed_region_is_found)
{
    rendered r;
    render_small(&r);
    const size_t ui = 1;
    const size_t frame_px = (size_t)r.img->width * r.img->height;
    base_image *cloth = base_image_clone(r.img), *partly = base_image_clone(r.img);
    cr_assert(cloth && partly);
    cover_unit_tags(&r, cloth, ui, -0.3, 1.3, -0.3, 1.3);
    cover_unit_tags(&r, partly, ui, -0.25, 0.25, -0.25, 1.25);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);

    vis_reading first = {0};
    reread(d, cloth, NULL, NULL, 0, &first);
    cr_assert_eq(placed_near_truth(&r, first.snap, ui, 2.0), 0, "the unit under the cloth was placed");
    cr_expect_eq(d->times.hidden_searched_px, frame_px, "a whole reading looks for it in the whole frame");

    const vis_tag_region changed = region_over_unit(&r, ui);
    vis_reading next = {0};
    reread(d, partly, &first, &changed, 1, &next);
    cr_expect(!next.whole);
    cr_expect_eq(placed_near_truth(&r, next.snap, ui, 2.0), r.scene->roster->units[ui].n_models,
                 "the uncovered unit is not placed whole");
    cr_expect_gt(d->times.hidden_searched_px, 0, "the hidden-unit search did not run");
    cr_expect_lt(d->times.hidden_searched_px, frame_px / 2, "searched %zu px of %zu", d->times.hidden_searched_px,
                 frame_px);

    /* The same frame read whole finds it too (the same rule, searched everywhere). */
    vis_reading whole = {0};
    reread(d, partly, NULL, NULL, 0, &whole);
    cr_expect_eq(placed_near_truth(&r, whole.snap, ui, 2.0), r.scene->roster->units[ui].n_models);
    cr_expect_eq(d->times.hidden_searched_px, frame_px, "a whole reading looks for it in the whole frame");

    vis_reading_clear(&whole);
    vis_reading_clear(&next);
    vis_reading_clear(&first);
    vis_detector_free(d);
    base_image_free(cloth);
    base_image_free(partly);
    rendered_free(&r);
}

/*
 * A unit under a cloth at one settle and still under it when another unit's
 * part of the table changes: it is not looked for in the whole frame (it
 * cannot have appeared where nothing changed), only in the changed part
 * grown by its reach (under half the frame), and it stays unplaced; the
 * unit in the changed part is placed as before.
 */
Test(vision_reread, unit_unseen_where_nothing_changed_is_not_searched_everywhere)
{
    rendered r;
    render_small(&r);
    const size_t hidden = 1;
    const size_t frame_px = (size_t)r.img->width * r.img->height;
    base_image *cloth = base_image_clone(r.img);
    cr_assert_not_null(cloth);
    cover_unit_tags(&r, cloth, hidden, -0.3, 1.3, -0.3, 1.3);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);

    vis_reading first = {0};
    reread(d, cloth, NULL, NULL, 0, &first);
    cr_assert_eq(placed_near_truth(&r, first.snap, hidden, 2.0), 0);
    cr_expect_eq(d->times.hidden_searched_px, frame_px);

    /* Another unit whose part of the picture does not overlap the covered unit's. */
    const vis_tag_region under = region_over_unit(&r, hidden);
    size_t moved = 0;
    vis_tag_region changed = {0};
    for (moved = 0; moved < r.scene->roster->n_units; moved++) {
        changed = region_over_unit(&r, moved);
        if (moved != hidden && (changed.x1 <= under.x0 || changed.x0 >= under.x1 || changed.y1 <= under.y0 ||
                                changed.y0 >= under.y1))
            break;
    }
    cr_assert_lt(moved, r.scene->roster->n_units, "no unit stands apart from unit %zu", hidden);
    vis_reading next = {0};
    reread(d, cloth, &first, &changed, 1, &next);
    cr_expect_gt(d->times.hidden_searched_px, 0, "the hidden-unit search did not run");
    cr_expect_lt(d->times.hidden_searched_px, frame_px / 2, "searched %zu px of %zu: the whole frame",
                 d->times.hidden_searched_px, frame_px);
    cr_expect_eq(placed_near_truth(&r, next.snap, hidden, 2.0), 0, "the covered unit was placed");
    cr_expect_eq(placed_near_truth(&r, next.snap, moved, 1.0), r.scene->roster->units[moved].n_models);

    vis_reading_clear(&next);
    vis_reading_clear(&first);
    vis_detector_free(d);
    base_image_free(cloth);
    rendered_free(&r);
}

/*
 * A unit placed at one settle only from its partly hidden tags (none
 * decoded, so none carried over), touched by a change over one end of it:
 * it is looked for where that settle placed it and in the changed part, not
 * in the whole frame, and placed again where it was.
 */
Test(vision_reread, unit_placed_from_hidden_tags_and_touched_is_found_where_it_was)
{
    rendered r;
    render_small(&r);
    const size_t ui = 1;
    const size_t frame_px = (size_t)r.img->width * r.img->height;
    base_image *partly = base_image_clone(r.img);
    cr_assert_not_null(partly);
    cover_unit_tags(&r, partly, ui, -0.25, 0.25, -0.25, 1.25);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);

    vis_reading first = {0};
    reread(d, partly, NULL, NULL, 0, &first);
    cr_assert_eq(placed_near_truth(&r, first.snap, ui, 2.0), r.scene->roster->units[ui].n_models);

    /* A change over the unit's first tag only (a hand passed there; the pixels came back as they were). */
    const roster_unit *u = &r.scene->roster->units[ui];
    const int first_tag = r.scene->roster->models[u->first_model].tag_id;
    vis_tag_region changed = {0};
    for (size_t i = 0; i < r.truth.n_tags; i++)
        if (r.truth.tags[i].id == first_tag) {
            const double *c = r.truth.tags[i].centre;
            changed = (vis_tag_region){(int)c[0] - 102, (int)c[1] - 102, (int)c[0] + 102, (int)c[1] + 102, 0,
                                       c[0] - 30,       c[1] - 30,       c[0] + 30,       c[1] + 30};
        }
    cr_assert_gt(changed.x1, changed.x0, "tag %d is not in the picture", first_tag);
    vis_reading next = {0};
    reread(d, partly, &first, &changed, 1, &next);
    cr_expect_gt(d->times.hidden_searched_px, 0, "the hidden-unit search did not run: the unit was not touched");
    cr_expect_lt(d->times.hidden_searched_px, frame_px / 2, "searched %zu px of %zu", d->times.hidden_searched_px,
                 frame_px);
    cr_expect_eq(placed_near_truth(&r, next.snap, ui, 2.0), u->n_models, "the unit is not placed again whole");

    vis_reading_clear(&next);
    vis_reading_clear(&first);
    vis_detector_free(d);
    base_image_free(partly);
    rendered_free(&r);
}
