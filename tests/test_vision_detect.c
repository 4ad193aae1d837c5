/*
 * Detection on small rendered tables (1280x960, 4 units of 6, tags 16 mm at
 * ~24 px) made at test time with exact truth. Tolerances are stated per test.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rendered_util.h"
#include "rules_json.h"
#include "vis_detect.h"
#include "vt_detector.h"
#include "media_image_read.h"
#include "vis_tag.h"
#include "vision_test_util.h"


static void render_small(rendered *r, double tag_height, int figures)
{
    ds_gen_params g;
    ds_gen_params_small(&g);
    g.tag_height = tag_height;
    rendered_draw(r, &g, figures, 0);
}

static rules_snapshot *detect(const rendered *r, const roster_file *roster, const rules_snapshot *prior,
                              vis_report *rep)
{
    base_error err;
    vis_detector *d = vt_detector_new(roster, &r->scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);
    rules_snapshot *s = NULL;
    cr_assert_eq(vis_detector_run(d, r->img->data, r->img->width, r->img->height, r->img->stride, prior, &s, rep,
                                  &err),
                 0, "%s", err.msg);
    vis_detector_free(d);
    return s;
}

static bool has_issue(const vis_report *rep, vis_issue_kind kind, int tag_id)
{
    for (size_t i = 0; i < rep->n; i++)
        if (rep->items[i].kind == kind && rep->items[i].tag_id == tag_id)
            return true;
    return false;
}

/* Seen models within 0.5 mm and 0.5 degrees; inferred ones within 3 mm; none missing. */
Test(vision_detect, round_trip_places_every_model)
{
    rendered r;
    render_small(&r, 4, 1);
    vis_report rep = {0};
    rules_snapshot *s = detect(&r, r.scene->roster, NULL, &rep);
    size_t seen = 0, total = 0;
    for (size_t u = 0; u < r.scene->snapshot->n_units; u++)
        for (size_t m = 0; m < r.scene->snapshot->units[u].n_models; m++) {
            const rules_model *tm = &r.scene->snapshot->units[u].models[m];
            const rules_model *dm = rules_snapshot_find_model(s, tm->id, NULL);
            total++;
            cr_assert_not_null(dm, "model %s not placed", tm->id);
            double e = base_v2_dist(dm->pos, tm->pos);
            double fe = fabs(base_rad_to_deg(base_angle_wrap(dm->facing - tm->facing)));
            if (dm->inferred) {
                cr_expect_lt(e, 3.0, "inferred %s off by %.3f mm", tm->id, e);
            } else {
                seen++;
                cr_expect_lt(e, 0.5, "%s off by %.3f mm", tm->id, e);
                cr_expect_lt(fe, 0.5, "%s facing off by %.3f deg", tm->id, fe);
            }
        }
    cr_expect_geq(seen, total / 2, "only %zu of %zu models seen", seen, total);
    cr_expect_eq(rep.models_missing, 0);
    /* The snapshot survives its own JSON round trip (what `tableref check` reads). */
    cJSON *j = rules_json_from_snapshot(s);
    base_error err;
    rules_snapshot *back = rules_json_to_snapshot(j, "detected", &err);
    cr_expect_not_null(back, "%s", err.msg);
    rules_snapshot_free(back);
    cJSON_Delete(j);
    rules_snapshot_free(s);
    vis_report_clear(&rep);
    rendered_free(&r);
}

/*
 * Parallax: tags printed 0 mm and 5 mm above the board give the same board
 * positions (within 0.3 mm) once each tag is cast onto its own plane; and
 * ignoring the 5 mm (a roster that says 0) would move the far models by
 * more than 0.5 mm, so the test can tell the difference.
 */
Test(vision_detect, parallax_corrected_by_tag_height)
{
    rendered flat, raised;
    render_small(&flat, 0, 0);
    render_small(&raised, 5, 0);
    vis_report r1 = {0}, r2 = {0}, r3 = {0};
    rules_snapshot *a = detect(&flat, flat.scene->roster, NULL, &r1);
    rules_snapshot *b = detect(&raised, raised.scene->roster, NULL, &r2);
    /* The raised picture read with a roster that forgets the height. */
    roster_file *wrong = raised.scene->roster;
    double saved[16];
    for (size_t u = 0; u < wrong->n_units; u++)
        saved[u] = wrong->units[u].mount.height, wrong->units[u].mount.height = 0;
    rules_snapshot *c = detect(&raised, wrong, NULL, &r3);
    for (size_t u = 0; u < wrong->n_units; u++)
        wrong->units[u].mount.height = saved[u];
    double worst_ab = 0, worst_bc = 0;
    size_t compared = 0;
    for (size_t u = 0; u < a->n_units; u++)
        for (size_t m = 0; m < a->units[u].n_models; m++) {
            const rules_model *ma = &a->units[u].models[m];
            const rules_model *mb = rules_snapshot_find_model(b, ma->id, NULL);
            const rules_model *mc = rules_snapshot_find_model(c, ma->id, NULL);
            if (!mb || !mc || ma->inferred || mb->inferred || mc->inferred)
                continue;
            compared++;
            worst_ab = fmax(worst_ab, base_v2_dist(ma->pos, mb->pos));
            worst_bc = fmax(worst_bc, base_v2_dist(mb->pos, mc->pos));
        }
    cr_assert_geq(compared, 12, "only %zu models seen in all three", compared);
    cr_expect_lt(worst_ab, 0.3, "0 mm vs 5 mm tags differ by %.3f mm", worst_ab);
    cr_expect_gt(worst_bc, 0.5, "ignoring the height moved models only %.3f mm", worst_bc);
    rules_snapshot_free(a);
    rules_snapshot_free(b);
    rules_snapshot_free(c);
    vis_report_clear(&r1);
    vis_report_clear(&r2);
    vis_report_clear(&r3);
    rendered_free(&flat);
    rendered_free(&raised);
}

/* Tags of the rendered picture, detected once, for the list-editing tests. */
static size_t detect_tags(const rendered *r, vis_tag_detection **out)
{
    base_error err;
    vis_detector *d = vt_detector_new(r->scene->roster, &r->scene->calib, &err);
    vis_tag_list l = {0};
    cr_assert_eq(vis_tag_detect(d->tags, r->img->data, r->img->width, r->img->height, r->img->stride, &l, &err), 0);
    vis_detector_free(d);
    *out = l.items;
    return l.n;
}

static size_t drop_tag(vis_tag_detection *t, size_t n, int id)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i].id != id)
            t[w++] = t[i];
    return w;
}

/* A hidden model is placed from its unit's formation within 1.5 mm and marked inferred. */
Test(vision_detect, occluded_model_inferred_from_formation)
{
    rendered r;
    render_small(&r, 4, 0);
    vis_tag_detection *tags;
    size_t n = detect_tags(&r, &tags);
    const roster_model *victim = &r.scene->roster->models[4]; /* rear rank of unit 1 */
    size_t n2 = drop_tag(tags, n, victim->tag_id);
    cr_assert_eq(n2, n - 1, "tag %d was not detected in the first place", victim->tag_id);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    rules_snapshot *s = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_from_tags(d, tags, n2, NULL, &s, &rep, &err), 0, "%s", err.msg);
    const rules_model *m = rules_snapshot_find_model(s, victim->id, NULL);
    const rules_model *t = rules_snapshot_find_model(r.scene->snapshot, victim->id, NULL);
    cr_assert_not_null(m);
    cr_expect(m->inferred);
    cr_expect_lt(base_v2_dist(m->pos, t->pos), 1.5, "inferred %.3f mm away", base_v2_dist(m->pos, t->pos));
    cr_expect(has_issue(&rep, VIS_ISSUE_INFERRED, victim->tag_id));
    rules_snapshot_free(s);
    vis_report_clear(&rep);
    vis_detector_free(d);
    free(tags);
    rendered_free(&r);
}

/*
 * With a prior snapshot (the previous frame) in which the unit stood 40 mm
 * away and turned 10 degrees, a model hidden now follows its unit-mates'
 * motion: within 1 mm of the truth.
 */
Test(vision_detect, occluded_model_follows_prior)
{
    rendered r;
    render_small(&r, 4, 0);
    vis_tag_detection *tags;
    size_t n = detect_tags(&r, &tags);
    const roster_model *victim = &r.scene->roster->models[6 + 1];
    n = drop_tag(tags, n, victim->tag_id);
    rules_snapshot *prior = rules_snapshot_clone(r.scene->snapshot);
    rules_unit *pu = &prior->units[victim->unit];
    const double rot = base_deg_to_rad(-10);
    const base_vec2 shift = base_v2(-40, 25);
    for (size_t k = 0; k < pu->n_models; k++) {
        pu->models[k].pos = base_v2_add(base_v2_rot(pu->models[k].pos, rot), shift);
        pu->models[k].facing = base_angle_wrap(pu->models[k].facing + rot);
    }
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    rules_snapshot *s = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_from_tags(d, tags, n, prior, &s, &rep, &err), 0, "%s", err.msg);
    const rules_model *m = rules_snapshot_find_model(s, victim->id, NULL);
    const rules_model *t = rules_snapshot_find_model(r.scene->snapshot, victim->id, NULL);
    cr_assert_not_null(m);
    cr_expect(m->inferred);
    cr_expect_lt(base_v2_dist(m->pos, t->pos), 1.0, "%.3f mm away", base_v2_dist(m->pos, t->pos));
    rules_snapshot_free(prior);
    rules_snapshot_free(s);
    vis_report_clear(&rep);
    vis_detector_free(d);
    free(tags);
    rendered_free(&r);
}

/* A tag the roster does not know, and an ID read twice, are reported and not used. */
Test(vision_detect, unknown_and_duplicate_ids_reported)
{
    rendered r;
    render_small(&r, 4, 0);
    vis_tag_detection *tags;
    size_t n = detect_tags(&r, &tags);
    cr_assert_gt(n, 3);
    tags = realloc(tags, (n + 2) * sizeof *tags);
    const roster_model *dup = roster_find_model_tag(r.scene->roster, tags[n - 1].id);
    cr_assert_not_null(dup);
    tags[n] = tags[n - 1]; /* the same ID again, 60 px away */
    for (int k = 0; k < 4; k++)
        tags[n].corners[k][0] += 60;
    tags[n].centre[0] += 60;
    tags[n + 1] = tags[n - 2];
    tags[n + 1].id = 499; /* not in the roster */
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    rules_snapshot *s = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_from_tags(d, tags, n + 2, NULL, &s, &rep, &err), 0, "%s", err.msg);
    cr_expect(has_issue(&rep, VIS_ISSUE_UNKNOWN_ID, 499));
    cr_expect(has_issue(&rep, VIS_ISSUE_DUPLICATE_ID, dup->tag_id));
    const rules_model *m = rules_snapshot_find_model(s, dup->id, NULL);
    cr_assert_not_null(m);
    cr_expect(m->inferred, "a duplicated tag must not place its model");
    rules_snapshot_free(s);
    vis_report_clear(&rep);
    vis_detector_free(d);
    free(tags);
    rendered_free(&r);
}

/* A tag whose ID belongs to nobody in this roster (a unit left out) is reported from a real picture. */
Test(vision_detect, tags_of_unlisted_unit_are_unknown)
{
    rendered r;
    render_small(&r, 4, 0);
    roster_file *ro = r.scene->roster;
    size_t saved = ro->n_units, saved_m = ro->n_models;
    ro->n_units -= 1; /* the last unit's models are listed last */
    ro->n_models = ro->units[ro->n_units].first_model;
    vis_report rep = {0};
    rules_snapshot *s = detect(&r, ro, NULL, &rep);
    size_t unknown = 0;
    for (size_t i = 0; i < rep.n; i++)
        unknown += rep.items[i].kind == VIS_ISSUE_UNKNOWN_ID;
    cr_expect_geq(unknown, 3, "only %zu unknown tags reported", unknown);
    cr_expect_null(rules_snapshot_find_model(s, ro->models[saved_m - 1].id, NULL));
    ro->n_units = saved, ro->n_models = saved_m;
    rules_snapshot_free(s);
    vis_report_clear(&rep);
    rendered_free(&r);
}

/* The renderer is deterministic: the same seed gives the same pixels. */
Test(vision_detect, render_same_seed_same_image)
{
    rendered a, b;
    render_small(&a, 4, 1);
    render_small(&b, 4, 1);
    cr_assert_eq(a.img->stride * a.img->height, b.img->stride * b.img->height);
    cr_expect_eq(memcmp(a.img->data, b.img->data, a.img->stride * a.img->height), 0);
    rendered_free(&a);
    rendered_free(&b);
}

/*
 * Paints over part of every tag of unit `ui` in the picture, in tag
 * coordinates (s along corner 0 -> 1, t along corner 0 -> 3, the black
 * square is [0,1]^2): what a figure leaning over a base does.
 */
static void cover_unit_tags(rendered *r, size_t ui, double s0, double s1, double t0, double t1, uint8_t grey)
{
    const roster_file *ro = r->scene->roster;
    for (size_t i = 0; i < r->truth.n_tags; i++) {
        const ds_truth_tag *tt = &r->truth.tags[i];
        const roster_model *rm = roster_find_model_tag(ro, tt->id);
        if (!rm || rm->unit != ui)
            continue;
        const double *c0 = tt->corners[0], *c1 = tt->corners[1], *c3 = tt->corners[3];
        const double ax = c1[0] - c0[0], ay = c1[1] - c0[1], bx = c3[0] - c0[0], by = c3[1] - c0[1];
        const double det = ax * by - ay * bx;
        for (int y = (int)tt->centre[1] - 40; y <= (int)tt->centre[1] + 40; y++)
            for (int x = (int)tt->centre[0] - 40; x <= (int)tt->centre[0] + 40; x++) {
                if (x < 0 || y < 0 || x >= r->img->width || y >= r->img->height)
                    continue;
                const double px = x - c0[0], py = y - c0[1];
                const double s = (px * by - py * bx) / det, t = (ax * py - ay * px) / det;
                if (s >= s0 && s <= s1 && t >= t0 && t <= t1)
                    r->img->data[(size_t)y * r->img->stride + x] = grey;
            }
    }
}

/* No model of unit ui placed by a seen tag; every report's tag id of another unit's tag is a real tag there. */
static size_t models_of_unit_placed(const rules_snapshot *s, const roster_file *ro, size_t ui, bool *any_seen)
{
    size_t placed = 0;
    *any_seen = false;
    const roster_unit *u = &ro->units[ui];
    for (size_t k = 0; k < u->n_models; k++) {
        const rules_model *m = rules_snapshot_find_model(s, ro->models[u->first_model + k].id, NULL);
        placed += m != NULL;
        *any_seen |= m && !m->inferred;
    }
    return placed;
}

/*
 * A unit whose every tag is a third hidden (by a light grey shape over one
 * side, like a leaning figure): apriltag reads none of them, so without
 * recovery nothing places the unit; the pattern reader recovers it. Every
 * model of it lands within 2 mm of the truth, marked rough (a partly hidden
 * tag read, sigma over 1 mm) or inferred; every tag
 * it reports recovered is a tag of that unit within 2 px of where that tag
 * really is (no wrong ID); no other model moves.
 */
Test(vision_detect, unit_with_all_tags_partly_hidden_recovered)
{
    rendered r;
    render_small(&r, 4, 0);
    const size_t ui = 1;
    cover_unit_tags(&r, ui, -0.25, 0.25, -0.25, 1.25, 200);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);
    /* Without recovery: the unit is lost (the case this is for). */
    d->cfg.recover_hidden_units = 0;
    rules_snapshot *off = NULL;
    vis_report rep0 = {0};
    cr_assert_eq(vis_detector_run(d, r.img->data, r.img->width, r.img->height, r.img->stride, NULL, &off, &rep0, &err), 0);
    bool any_seen;
    cr_assert_eq(models_of_unit_placed(off, r.scene->roster, ui, &any_seen), 0, "the covered unit was placed anyway");
    /* With it. */
    d->cfg.recover_hidden_units = 1;
    rules_snapshot *s = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_run(d, r.img->data, r.img->width, r.img->height, r.img->stride, NULL, &s, &rep, &err), 0);
    const roster_unit *u = &r.scene->roster->units[ui];
    for (size_t k = 0; k < u->n_models; k++) {
        const char *id = r.scene->roster->models[u->first_model + k].id;
        const rules_model *m = rules_snapshot_find_model(s, id, NULL);
        const rules_model *t = rules_snapshot_find_model(r.scene->snapshot, id, NULL);
        cr_assert_not_null(m, "model %s not recovered", id);
        /* Read from a partly hidden tag: placed where it was read, but never as cleanly seen. */
        cr_expect(m->inferred || m->evidence == RULES_EVIDENCE_ROUGH, "%s: a recovered model counts as seen", id);
        cr_expect_gt(m->sigma_mm, 1.0, "%s: a recovered model's sigma %.2f mm", id, m->sigma_mm);
        cr_expect_lt(base_v2_dist(m->pos, t->pos), 2.0, "%s recovered %.2f mm away", id, base_v2_dist(m->pos, t->pos));
    }
    size_t recovered = 0;
    for (size_t i = 0; i < rep.n; i++) {
        if (rep.items[i].kind != VIS_ISSUE_RECOVERED)
            continue;
        recovered++;
        const roster_model *rm = roster_find_model_tag(r.scene->roster, rep.items[i].tag_id);
        cr_assert_not_null(rm);
        cr_expect_eq(rm->unit, ui, "tag %d recovered for another unit", rep.items[i].tag_id);
        double dist = INFINITY;
        for (size_t k = 0; k < r.truth.n_tags; k++)
            if (r.truth.tags[k].id == rep.items[i].tag_id)
                dist = hypot(r.truth.tags[k].centre[0] - rep.items[i].px[0], r.truth.tags[k].centre[1] - rep.items[i].px[1]);
        cr_expect_lt(dist, 2.0, "tag %d recovered %.2f px from where it is", rep.items[i].tag_id, dist);
    }
    cr_expect_geq(recovered, 3, "only %zu tags recovered", recovered);
    /* Everybody else is where the run without recovery put them. */
    for (size_t ku = 0; ku < off->n_units; ku++)
        for (size_t k = 0; k < off->units[ku].n_models; k++) {
            const rules_model *a = &off->units[ku].models[k];
            const rules_model *b = rules_snapshot_find_model(s, a->id, NULL);
            cr_assert_not_null(b);
            cr_expect_lt(base_v2_dist(a->pos, b->pos), 1e-9, "%s moved", a->id);
        }
    (void)any_seen;
    rules_snapshot_free(off);
    rules_snapshot_free(s);
    vis_report_clear(&rep0);
    vis_report_clear(&rep);
    vis_detector_free(d);
    rendered_free(&r);
}

/*
 * The safety rule: dark squares of the right size in exactly the missing
 * unit's formation, but with their data bits hidden (a grey patch over the
 * middle of every tag), are a grid of unidentified quads. Front and back
 * (and which model is which) cannot be told apart, so the unit is not
 * placed at all, rather than placed mirrored; nothing is reported
 * recovered. And when only two tags can be read (fewer than the three the
 * rule needs), the unit is refused too, with a reason in the report.
 */
Test(vision_detect, unidentified_grid_or_too_few_tags_refused)
{
    rendered r;
    render_small(&r, 4, 0);
    const size_t ui = 2;
    cover_unit_tags(&r, ui, 0.15, 0.85, 0.15, 0.85, 128);
    base_error err;
    vis_detector *d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    cr_assert_not_null(d, "%s", err.msg);
    rules_snapshot *s = NULL;
    vis_report rep = {0};
    cr_assert_eq(vis_detector_run(d, r.img->data, r.img->width, r.img->height, r.img->stride, NULL, &s, &rep, &err), 0);
    bool any_seen;
    cr_expect_eq(models_of_unit_placed(s, r.scene->roster, ui, &any_seen), 0, "a unit of unreadable tags was placed");
    for (size_t i = 0; i < rep.n; i++)
        cr_expect_neq(rep.items[i].kind, VIS_ISSUE_RECOVERED, "%s", rep.items[i].msg);
    rules_snapshot_free(s);
    vis_report_clear(&rep);
    rendered_free(&r);

    /* Two readable tags: a third hidden like a leaning figure; the others fully covered. */
    render_small(&r, 4, 0);
    cover_unit_tags(&r, ui, -0.25, 0.25, -0.25, 1.25, 200);
    const roster_unit *u = &r.scene->roster->units[ui];
    for (size_t i = 0; i < r.truth.n_tags; i++) {
        const roster_model *rm = roster_find_model_tag(r.scene->roster, r.truth.tags[i].id);
        if (!rm || rm->unit != ui || rm - r.scene->roster->models < (long)u->first_model + 2)
            continue;
        const double *c = r.truth.tags[i].centre;
        for (int y = (int)c[1] - 20; y <= (int)c[1] + 20; y++)
            for (int x = (int)c[0] - 20; x <= (int)c[0] + 20; x++)
                r.img->data[(size_t)y * r.img->stride + x] = 150;
    }
    vis_detector_free(d);
    d = vt_detector_new(r.scene->roster, &r.scene->calib, &err);
    s = NULL;
    memset(&rep, 0, sizeof rep);
    cr_assert_eq(vis_detector_run(d, r.img->data, r.img->width, r.img->height, r.img->stride, NULL, &s, &rep, &err), 0);
    cr_expect_eq(models_of_unit_placed(s, r.scene->roster, ui, &any_seen), 0, "a unit with two readable tags was placed");
    bool reason = false;
    for (size_t i = 0; i < rep.n; i++)
        reason |= rep.items[i].kind == VIS_ISSUE_MISSING && rep.items[i].tag_id == -1 && strstr(rep.items[i].msg, u->id);
    cr_expect(reason, "the refusal is not explained in the report");
    for (size_t i = 0; i < rep.n; i++)
        if (rep.items[i].kind == VIS_ISSUE_MISSING && rep.items[i].tag_id == -1)
            cr_log_info("%s", rep.items[i].msg);
    rules_snapshot_free(s);
    vis_report_clear(&rep);
    vis_detector_free(d);
    rendered_free(&r);
}

/*
 * The tag detector never changes the caller's picture: apriltag 3.3 blurs
 * the image it is given in place at decimate 1 with sigma 0.8 (its kernel is
 * 3 px wide), which would change the frame under the pattern reader and the
 * recording. Same detections as on a private copy, every byte unchanged.
 */
Test(vision_detect, tag_detection_leaves_the_callers_picture_untouched)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/apriltag-test/34139872896_defdb2f8d9_c.jpg", vt_source_root());
    base_error err;
    base_image *img = media_image_load(path, MEDIA_IMAGE_GRAY, &err);
    cr_assert_not_null(img, "%s", err.msg);
    const size_t bytes = img->stride * (size_t)img->height;
    uint8_t *before = malloc(bytes);
    cr_assert_not_null(before);
    memcpy(before, img->data, bytes);
    vis_tag_detector *d = vis_tag_detector_new("tag36h11");
    cr_assert_not_null(d);
    d->cfg.decimate = 1;
    d->cfg.sigma = 0.8;
    vis_tag_list tags = {0};
    cr_assert_eq(vis_tag_detect(d, img->data, img->width, img->height, img->stride, &tags, &err), 0, "%s", err.msg);
    cr_expect_gt(tags.n, 0, "the photo's tags are found");
    cr_expect_eq(memcmp(before, img->data, bytes), 0, "the picture was changed by the detector");
    vis_tag_list_clear(&tags);
    vis_tag_detector_free(d);
    free(before);
    base_image_free(img);
}
