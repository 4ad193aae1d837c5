/*
 * ds_score (datasets/ds_score.h) on a hand-made truth and detection with
 * known errors: every count exact, quantiles exact (nearest rank).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ds_score.h"

typedef struct fixture {
    rules_snapshot *truth_snap, *detected;
    ds_truth truth;
    ds_truth_tag tags[5];
    ds_truth_model models[5];
} fixture;

/* Five models in a row; model 3's tag is under a hand. */
static void make(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->truth_snap = rules_snapshot_new(1000, 1000);
    f->detected = rules_snapshot_new(1000, 1000);
    rules_unit *u = rules_snapshot_add_unit(f->truth_snap, "u", "red");
    rules_unit *d = rules_snapshot_add_unit(f->detected, "u", "red");
    cr_assert(u && d);
    const double off[5] = {0.5, 4.9, 7.0, NAN, 0};       /* detection error, mm (NAN: not placed) */
    const double turn[5] = {1.0, 0.2, 0, 0, 0};          /* facing error, degrees */
    for (int i = 0; i < 5; i++) {
        char id[8];
        snprintf(id, sizeof id, "m%d", i);
        base_vec2 p = base_v2(100 + 30 * i, 200);
        cr_assert(rules_unit_add_model(u, id, p, 0));
        if (!isnan(off[i])) {
            rules_model *m = rules_unit_add_model(d, id, base_v2(p.x, p.y + off[i]), base_deg_to_rad(turn[i]));
            cr_assert(m);
            m->inferred = i == 1;
        }
        ds_truth_tag *t = &f->tags[i];
        t->id = 10 + i, t->model = i, t->inside = 1, t->edge_px = 30;
        t->centre[0] = 100 + 50 * i, t->centre[1] = 100;
        f->models[i] = (ds_truth_model){0, (size_t)i, i, i, 0};
    }
    f->tags[1].occluded = f->tags[1].occluded_figure = 0.05;  /* 95% visible: counts */
    f->tags[2].occluded = f->tags[2].occluded_figure = 0.2;   /* 80%: does not */
    f->tags[3].occluded = f->tags[3].occluded_hand = 1.0;
    f->tags[0].fully_visible = f->tags[4].fully_visible = 1;  /* white border unhidden too */
    f->models[3].hand_hidden = 1;
    f->truth = (ds_truth){f->tags, 5, f->models, 5, 640, 480};
}

static void unmake(fixture *f)
{
    rules_snapshot_free(f->truth_snap);
    rules_snapshot_free(f->detected);
}

Test(render_score, models_counted_against_the_truth)
{
    fixture f;
    make(&f);
    ds_score s;
    ds_score_init(&s);
    cr_assert_eq(ds_score_models(&s, f.truth_snap, &f.truth, f.detected), 0);
    cr_expect_eq(s.models, 5);
    cr_expect_eq(s.placed5, 3);        /* 0.5, 4.9 (inferred), 0 */
    cr_expect_eq(s.free_models, 4);
    cr_expect_eq(s.free_placed5, 3);
    cr_expect_eq(s.hand_models, 1);
    cr_expect_eq(s.hand_placed5, 0);
    cr_expect_eq(s.wrong, 1);          /* 7 mm off */
    cr_expect_eq(s.hand_wrong, 0);
    cr_expect_eq(s.unplaced, 1);
    cr_expect_eq(s.seen5, 2);
    cr_expect_eq(s.inferred5, 1);
    cr_expect_float_eq(ds_score_pct(s.placed5, s.models), 60.0, 1e-12);
    cr_expect_float_eq(ds_score_pct(s.free_placed5, s.free_models), 75.0, 1e-12);
    cr_expect_float_eq(ds_score_p99_mm(&s), 4.9, 1e-9);
    cr_expect_float_eq(ds_score_median_mm(&s), 0.5, 1e-9);
    cr_expect_float_eq(ds_score_max_mm(&s), 4.9, 1e-9);
    cr_expect_float_eq(ds_score_seen_p99_mm(&s), 0.5, 1e-9);
    cr_expect_float_eq(ds_score_facing_p99_deg(&s), 1.0, 1e-9);
    /* A second frame adds up; the quantiles stay. */
    cr_assert_eq(ds_score_models(&s, f.truth_snap, &f.truth, f.detected), 0);
    cr_expect_eq(s.models, 10);
    cr_expect_eq(s.wrong, 2);
    cr_expect_float_eq(ds_score_p99_mm(&s), 4.9, 1e-9);
    ds_score_clear(&s);
    unmake(&f);
}

/*
 * An inferred model placed off is not a wrong id when one of its unit's
 * alternative placements holds its true place (within 5 mm): the snapshot
 * said it could not tell. Placed off with no such alternative, it is wrong.
 */
Test(render_score, inferred_model_held_by_an_alternative_is_not_wrong)
{
    fixture f;
    make(&f);
    rules_unit *d = &f.detected->units[0];
    rules_model *m2 = rules_snapshot_find_model(f.detected, "m2", NULL);
    m2->inferred = true;                                   /* 7 mm off */
    rules_placement *far = rules_unit_add_alternative(d, "rear rank left-aligned");
    rules_placement *near = rules_unit_add_alternative(d, "rear rank with gaps");
    cr_assert(far && near);
    cr_assert_eq(rules_placement_add_model(far, "m2", base_v2(160, 230), 0, 2), 0);   /* 30 mm off */
    ds_score s;
    ds_score_init(&s);
    cr_assert_eq(ds_score_models(&s, f.truth_snap, &f.truth, f.detected), 0);
    cr_expect_eq(s.wrong, 1, "no alternative holds m2 yet");
    cr_expect_eq(s.among_alternatives, 0);
    cr_assert_eq(rules_placement_add_model(near, "m2", base_v2(160, 204.9), 0, 2), 0);  /* 4.9 mm off */
    cr_assert_eq(ds_score_models(&s, f.truth_snap, &f.truth, f.detected), 0);
    cr_expect_eq(s.wrong, 1, "the second frame's m2 is held by an alternative");
    cr_expect_eq(s.among_alternatives, 1);
    cr_expect_eq(s.placed5, 6, "3 + 3: an alternative is not a placement within 5 mm");
    ds_score_clear(&s);
    unmake(&f);
}

Test(render_score, models_out_of_view_and_nothing_detected)
{
    fixture f;
    make(&f);
    f.tags[4].inside = 0;
    ds_score s;
    ds_score_init(&s);
    cr_assert_eq(ds_score_models(&s, f.truth_snap, &f.truth, NULL), 0);
    cr_expect_eq(s.models, 4, "a model whose tag is out of the frame is not counted");
    cr_expect_eq(s.unplaced, 4);
    cr_expect_eq(s.placed5, 0);
    cr_expect(isnan(ds_score_p99_mm(&s)));
    ds_score_clear(&s);
    unmake(&f);
}

/*
 * Tags >= 90% visible: 10, 11 and 14. Reads: 10 on the spot, 11 2.9 px off
 * (within 3 px), 14 3.5 px off (out: not read, and a wrong read), 12 on the
 * spot (a right read of a tag that does not count), 99 (no such tag: wrong).
 */
Test(render_score, tags_read_and_wrong_reads)
{
    fixture f;
    make(&f);
    ds_score s;
    ds_score_init(&s);
    const int ids[5] = {10, 11, 14, 12, 99};
    const double c[5][2] = {{100, 100}, {150 + 2.9, 100}, {300, 103.5}, {200, 100}, {400, 100}};
    ds_score_tags(&s, &f.truth, ids, c, 5);
    cr_expect_eq(s.tags90, 3);
    cr_expect_eq(s.tags90_read, 2);
    cr_expect_eq(s.tags_full, 2);
    cr_expect_eq(s.tags_full_read, 1);
    cr_expect_eq(s.reads, 5);
    cr_expect_eq(s.wrong_reads, 2);
    ds_score_clear(&s);
    unmake(&f);
}
