/*
 * relief_climb: a unit climbing onto, along and off a hill is measured as
 * the rules measure it, on the board seen from above (issue 28). The four
 * climbs of datasets/ds_climb.h: a 20-model unit (Advance 4") before a
 * 50 mm hill towards the edge of a 6x4 ft table, hard table 1's camera
 * (1.4 m, 14 degrees, 12 MP, Bayer, JPEG) cut to the move; both pictures
 * read through the referee's door (ref_snapshot_read) with the table's
 * terrain (ref_setup_set_terrain), judged as `tableref referee` judges.
 * Read as if the board were flat, the tags on the hill are pushed ~30 mm
 * outward and the legal 3.5" climb measures 4.6": a false ILLEGAL.
 * Tolerances: the farthest model's distance within 0.05" of the true move
 * (every model moves the same).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base_geom.h"
#include "ds_climb.h"
#include "ds_render.h"
#include "ref_judge.h"
#include "ref_snapshot.h"
#include "ref_snapshot_vision.h"
#include "rules_moves.h"

typedef struct climb_run {
    ds_climb c;
    ref_setup *setup;
    ref_snapshot *before, *after;
} climb_run;

static base_image *render(const ds_climb *c, const rules_snapshot *snap, uint32_t frame_seed)
{
    base_error err = {0};
    ds_render_params p = c->scene->render;
    p.frame_seed = frame_seed;
    base_image *img = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render(snap, c->scene->roster, &c->scene->calib, &p, &img, &truth, &err), 0, "%s", err.msg);
    ds_truth_clear(&truth);
    return img;
}

static ref_snapshot *read_picture(ref_setup *s, const base_image *img, const char *name)
{
    base_error err = {0};
    ref_read_options o;
    ref_read_options_default(&o);
    o.picture = name;
    o.patches = false;
    const base_view v = base_image_view(img);
    ref_snapshot *r = ref_snapshot_read(s, &v, &o, &err);
    cr_assert_not_null(r, "%s", err.msg);
    return r;
}

/* How the table is set up: its hill in the table file, left out, or left out and its units' heights not
 * cross-checked (the referee before relief was known). */
typedef enum setup_kind { WITH_HILL, HILL_LEFT_OUT, FLAT_AS_BEFORE } setup_kind;

/* The climb rendered and read. */
static void run_climb(climb_run *r, ds_climb_kind k, setup_kind how)
{
    base_error err = {0};
    cr_assert_eq(ds_climb_make(k, true, &r->c, &err), 0, "%s", err.msg);
    r->setup = ref_setup_wrap(&r->c.scene->calib, r->c.scene->roster, "the camera", "the roster", &err);
    cr_assert_not_null(r->setup, "%s", err.msg);
    ref_setup_keep_pose(r->setup); /* a crop shows no board tag */
    if (how == FLAT_AS_BEFORE)
        ref_setup_detector(r->setup)->cfg.height_sigmas = 0;
    if (how == WITH_HILL)
        cr_assert_eq(ref_setup_set_terrain(r->setup, r->c.scene->snapshot->terrain, r->c.scene->snapshot->n_terrain,
                                           &err),
                     0, "%s", err.msg);
    base_image *a = render(&r->c, r->c.scene->snapshot, r->c.scene->render.seed);
    base_image *b = render(&r->c, r->c.after, r->c.after_seed);
    r->before = read_picture(r->setup, a, "before");
    r->after = read_picture(r->setup, b, "after");
    base_image_free(a);
    base_image_free(b);
}

static void climb_free(climb_run *r)
{
    ref_snapshot_free(r->before);
    ref_snapshot_free(r->after);
    ref_setup_free(r->setup);
    ds_climb_clear(&r->c);
}

/* The call on the unit with `move`; *farthest the farthest model's distance (mm). */
static rules_verdict judge(const climb_run *r, rules_move_type move, double *farthest, rules_move_type *judged_as)
{
    base_error err = {0};
    ref_judge_options o;
    ref_judge_options_default(&o);
    o.check.move = move;
    ref_judgement j;
    ref_judgement_init(&j);
    cr_assert_eq(ref_judge(r->before->snap, r->after->snap, &o, &j, &err), 0, "%s", err.msg);
    const rules_unit_report *u = rules_report_find_unit(&j.report, r->c.unit);
    cr_assert_not_null(u, "no call on %s", r->c.unit);
    *farthest = 0;
    for (size_t i = 0; i < u->n_models; i++)
        if (isfinite(u->models[i].distance_mm))
            *farthest = fmax(*farthest, u->models[i].distance_mm);
    if (judged_as)
        *judged_as = u->move;
    const rules_verdict v = u->verdict;
    ref_judgement_clear(&j);
    return v;
}

static void expect_call(ds_climb_kind k)
{
    climb_run r;
    run_climb(&r, k, WITH_HILL);
    double far = 0;
    rules_move_type as;
    const rules_verdict v = judge(&r, RULES_MOVE_ADVANCE, &far, NULL);
    printf("%s: advance %s %.3f\"\n", ds_climb_name(k), rules_verdict_word(v), base_mm_to_in(far));
    cr_expect_eq(v, r.c.legal ? RULES_VERDICT_LEGAL : RULES_VERDICT_ILLEGAL, "%s: %s", ds_climb_name(k),
                 rules_verdict_word(v));
    cr_expect(fabs(base_mm_to_in(far - r.c.moved_mm)) <= 0.05, "%s: farthest %.3f\", moved %.3f\"", ds_climb_name(k),
              base_mm_to_in(far), base_mm_to_in(r.c.moved_mm));
    const rules_verdict va = judge(&r, RULES_MOVE_AUTO, &far, &as);
    printf("%s: auto %s as %s\n", ds_climb_name(k), rules_verdict_word(va), rules_move_token(as));
    if (r.c.legal)
        cr_expect(va == RULES_VERDICT_LEGAL && as == RULES_MOVE_ADVANCE, "%s: auto %s as %s", ds_climb_name(k),
                  rules_verdict_word(va), rules_move_token(as));
    climb_free(&r);
}

Test(relief_climb, onto_the_hill_is_legal) { expect_call(DS_CLIMB_ONTO); }
Test(relief_climb, along_its_top_is_legal) { expect_call(DS_CLIMB_ALONG); }
Test(relief_climb, down_off_it_is_legal) { expect_call(DS_CLIMB_DOWN); }
Test(relief_climb, too_far_onto_it_is_illegal) { expect_call(DS_CLIMB_TOO_FAR); }

/* The height warning on `unit` in a reading, or NULL. */
static const vis_issue *height_warning(const ref_snapshot *r, const char *unit)
{
    const vis_report *rep = ref_snapshot_report(r);
    for (size_t i = 0; i < rep->n; i++)
        if (rep->items[i].kind == VIS_ISSUE_HEIGHT && strcmp(rep->items[i].unit, unit) == 0)
            return &rep->items[i];
    return NULL;
}

/*
 * The hill left out of the table file: the climbers' tags read ~50 mm up against the units standing by, the
 * after picture warns naming them and that height, their height is unsettled and the call is CANNOT TELL,
 * whether the climb was legal (3.5") or not (4.3"), declared or left to auto. The units standing by are not
 * warned of. Tolerance: the apparent height within 12 mm of the true 50 mm top (the rear rank stands ~40 mm up
 * on the slope).
 */
static void expect_unsettled(ds_climb_kind k)
{
    climb_run r;
    run_climb(&r, k, HILL_LEFT_OUT);
    const vis_issue *w = height_warning(r.after, "spears");
    cr_assert_not_null(w, "%s: no height warning on the climbers", ds_climb_name(k));
    cr_expect(strstr(w->msg, "unit spears") && strstr(w->msg, "mm up"), "%s", w->msg);
    const rules_unit *u = rules_snapshot_find_unit(r.after->snap, "spears");
    cr_assert_not_null(u);
    cr_expect(rules_unit_height_unsettled(u) && fabs(u->height_seen_mm - 50) <= 12 && u->height_table_mm == 0,
              "seen %.1f mm, table %.1f mm", u->height_seen_mm, u->height_table_mm);
    cr_expect_null(height_warning(r.before, "spears"), "the climbers stood on the board before");
    cr_expect_null(height_warning(r.after, "archers"));
    cr_expect_null(height_warning(r.after, "guards"));
    double far;
    const rules_verdict v = judge(&r, RULES_MOVE_ADVANCE, &far, NULL), va = judge(&r, RULES_MOVE_AUTO, &far, NULL);
    cr_expect_eq(v, RULES_VERDICT_CANNOT_TELL, "%s as an Advance: %s", ds_climb_name(k), rules_verdict_word(v));
    cr_expect_eq(va, RULES_VERDICT_CANNOT_TELL, "%s, auto: %s", ds_climb_name(k), rules_verdict_word(va));
    printf("hill left out, %s: %s; seen %.1f mm up\n", ds_climb_name(k), w->msg, u->height_seen_mm);
    climb_free(&r);
}

Test(relief_climb, a_hill_left_out_warns_and_cannot_tell) { expect_unsettled(DS_CLIMB_ONTO); }
Test(relief_climb, a_hill_left_out_never_calls_illegal) { expect_unsettled(DS_CLIMB_TOO_FAR); }

/* What the referee measured before it knew relief (the table read as flat, no cross-check): the legal 3.5"
 * climb pushed ~34 mm outward, a confident false ILLEGAL. Kept as the measure of what relief fixes. */
Test(relief_climb, read_as_flat_the_legal_climb_was_a_false_illegal)
{
    climb_run r;
    run_climb(&r, DS_CLIMB_ONTO, FLAT_AS_BEFORE);
    double far;
    const rules_verdict v = judge(&r, RULES_MOVE_ADVANCE, &far, NULL);
    printf("read as flat, onto the hill: %s, farthest %.3f\"\n", rules_verdict_word(v), base_mm_to_in(far));
    cr_expect_eq(v, RULES_VERDICT_ILLEGAL, "%s", rules_verdict_word(v));
    cr_expect_gt(base_mm_to_in(far), 4.5, "%.3f\"", base_mm_to_in(far));
    climb_free(&r);
}
