/*
 * rules_robust_free: an ILLEGAL that stands although vision kept fewer
 * placements of a unit's unseen models than the evidence allows, because the
 * violation does not depend on where they stand (a model measured in both
 * pictures ended past the largest rate its move could be judged by, beyond
 * its own reach), and the cases where it must not: the excess on a doubted
 * model only, within the seen models' reach, a seen model whose place vision
 * still doubts, a rate the move inferred could exceed, and the legal
 * counterpart. Every snapshot is built here from exact geometry.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "robust_scene.h"
#include "rules_move.h"
#include "rules_robust.h"
#include "rules_robust_free.h"

/* The spears (rear two inferred, their rear rank open) marched `inches` straight ahead; vision kept fewer
 * placements than the evidence allows in the after picture. */
static void doubted_rear_march(rules_snapshot *b, rules_snapshot *a, double inches)
{
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_ambiguous_rear(u, 1);
    rules_unit *c = robust_translated(a, u, robust_ahead(ROBUST_START.heading, inches));
    robust_ambiguous_rear(c, 1);
    c->placements_complete = false;
}

static void judge(const rules_snapshot *b, const rules_snapshot *a, rules_move_type move, rules_report *r)
{
    base_error err;
    rules_robust_options o;
    rules_robust_options_default(&o);
    o.check.move = move;
    rules_report_init(r);
    cr_assert_eq(rules_robust_check(b, a, &o, r, &err), 0, "%s", err.msg);
    cr_assert_eq(r->n_units, 1);
}

static const char *note_with(const rules_unit_report *ur, const char *part)
{
    for (size_t i = 0; i < ur->n_notes; i++)
        if (strstr(ur->notes[i], part))
            return ur->notes[i];
    return NULL;
}

/*
 * (a) An 11" March at March 10", the front two ranks seen in both pictures
 * (sigma 0.25 mm), the rear two inferred with their rank's placement open and
 * not every placement kept. Before rules_robust_free this was CANNOT TELL
 * ("illegal (MU-MODEL-DIST) under every placement judged, but the models seen
 * leave more placements than could be judged"); the 8 seen models went 11"
 * wherever the rear two stand: ILLEGAL, MU-MODEL-DIST leading, the note
 * naming the models. Declared or inferred (the bound then is the larger of
 * Advance 5" and March 10").
 */
Test(robust_free, doubted_rear_seen_front_marched_too_far_is_illegal)
{
    static const rules_move_type moves[] = {RULES_MOVE_AUTO, RULES_MOVE_MARCH};
    for (size_t k = 0; k < 2; k++) {
        rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        doubted_rear_march(b, a, 11);
        rules_report r;
        judge(b, a, moves[k], &r);
        const rules_unit_report *ur = &r.units[0];
        cr_expect_eq(ur->verdict, RULES_VERDICT_ILLEGAL, "%s: %s", rules_verdict_word(ur->verdict), ur->why);
        cr_expect_not(r.legal);
        cr_expect_eq(ur->move, RULES_MOVE_MARCH);
        cr_assert_gt(ur->n_violations, 0);
        cr_expect_str_eq(ur->violations[0].code, "MU-MODEL-DIST", "the violation that stands leads the call");
        cr_expect_float_eq(ur->violations[0].measured, base_in_to_mm(11), 1e-6);
        /* 2 x hypot(0.25, 0.25) mm + the rules' 0.5 mm = 1.21 mm = 0.05" */
        char want[RULES_TEXT_MAX];
        snprintf(want, sizeof want, "Illegal (MU-MODEL-DIST) wherever its models in doubt stand (more placements than "
                                    "could be judged): models spears-1 and 7 more, seen in both pictures, ended at "
                                    "least 11.00\" (+/-0.05\") from where they started, past 10.00\"%s.",
                 moves[k] == RULES_MOVE_AUTO ? ", the largest of its rates" : "");
        const char *note = note_with(ur, "wherever its models in doubt stand");
        cr_assert_not_null(note);
        cr_expect_str_eq(note, want);
        rules_report_clear(&r);
        rules_snapshot_free(b);
        rules_snapshot_free(a);
    }
}

/*
 * (b) The excess is on the doubted models only: the block marched 9.5" (the
 * seen models are legal), and every place vision kept for the rear two is
 * 1.2" farther on (10.7"). Illegal under every placement judged, but another
 * placement of the rear two could be legal: CANNOT TELL, never ILLEGAL. With
 * every placement kept the same pictures are ILLEGAL (control: the placements
 * left out are what keeps it open).
 */
Test(robust_free, excess_on_doubted_models_only_cannot_tell)
{
    for (int complete = 0; complete < 2; complete++) {
        rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        doubted_rear_march(b, a, 9.5);
        rules_unit *c = &a->units[0];
        c->placements_complete = complete;
        const base_vec2 on = robust_ahead(ROBUST_START.heading, 1.2);
        for (size_t j = 8; j < 10; j++)
            c->models[j].pos = base_v2_add(c->models[j].pos, on);
        for (size_t h = 0; h < c->n_alternatives; h++)
            for (size_t j = 0; j < c->alternatives[h].n_models; j++)
                c->alternatives[h].models[j].pos = base_v2_add(c->alternatives[h].models[j].pos, on);
        rules_report r;
        judge(b, a, RULES_MOVE_MARCH, &r);
        const rules_unit_report *ur = &r.units[0];
        const rules_violation *v = rules_unit_report_find(ur, "MU-MODEL-DIST");
        cr_assert_not_null(v, "the rear two went 10.7\"");
        for (size_t i = 0; i < v->n_models; i++)
            cr_expect(strcmp(v->models[i], "spears-9") == 0 || strcmp(v->models[i], "spears-10") == 0, "%s",
                      v->models[i]);
        if (complete) {
            cr_expect_eq(ur->verdict, RULES_VERDICT_ILLEGAL, "%s: %s", rules_verdict_word(ur->verdict), ur->why);
        } else {
            cr_expect_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "%s", rules_verdict_word(ur->verdict));
            cr_expect(strstr(ur->why, "under every placement judged, but the models seen leave more placements than "
                                      "could be judged; models in doubt: spears-9, spears-10") != NULL,
                      "why: %s", ur->why);
            cr_expect(r.legal);
            cr_expect_null(note_with(ur, "wherever its models in doubt stand"));
        }
        rules_report_clear(&r);
        rules_snapshot_free(b);
        rules_snapshot_free(a);
    }
}

/*
 * (b) The excess is within what the seen models' own measurement allows:
 * the block marched 10" + 3 mm, 2.5 mm past the rules' 0.5 mm tolerance.
 * Tags read to 0.25 mm (reach 0.71 mm): ILLEGAL, although the rear two
 * inferred models' reach (4.5 mm) would have left it open. Tags read rough
 * (1 mm, reach 2.83 mm): CANNOT TELL.
 */
Test(robust_free, excess_within_the_seen_models_reach_cannot_tell)
{
    for (int rough = 0; rough < 2; rough++) {
        rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        doubted_rear_march(b, a, 10 + 3.0 / 25.4);
        for (int f = 0; f < 2 && rough; f++) {
            rules_unit *u = f ? &a->units[0] : &b->units[0];
            for (size_t j = 0; j < 8; j++)
                u->models[j].evidence = RULES_EVIDENCE_ROUGH, u->models[j].sigma_mm = 1.0;
        }
        rules_report r;
        judge(b, a, RULES_MOVE_MARCH, &r);
        const rules_unit_report *ur = &r.units[0];
        if (rough) {
            cr_expect_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "%s: %s", rules_verdict_word(ur->verdict), ur->why);
            cr_expect(r.legal);
        } else {
            cr_expect_eq(ur->verdict, RULES_VERDICT_ILLEGAL, "%s: %s", rules_verdict_word(ur->verdict), ur->why);
            const char *note = note_with(ur, "wherever its models in doubt stand");
            cr_assert_not_null(note);
            cr_expect(strstr(note, "ended at least 10.12\" (+/-0.05\") from where they started, past 10.00\".") != NULL,
                      "%s", note);
        }
        rules_report_clear(&r);
        rules_snapshot_free(b);
        rules_snapshot_free(a);
    }
}

/* A MU-MODEL-DIST violation of `limit` mm carried by `ids`, in a report of its own. */
static const rules_violation *dist_violation(rules_unit_report *ur, double measured, double limit, const char *ids[],
                                             size_t n)
{
    rules_unit_report_init(ur, "spears", "red", RULES_MOVE_ADVANCE, false);
    rules_violation *v =
        rules_unit_report_add_violation(ur, "MU-MODEL-DIST", RULES_QTY_LENGTH, measured, limit, "too far");
    cr_assert_not_null(v);
    for (size_t i = 0; i < n; i++)
        rules_violation_add_model(v, ids[i]);
    return v;
}

/*
 * The bound on the limit, and what counts as fixed, asked of the module
 * itself: every model seen, the block advanced 6" (Advance 5", March 10").
 *  - Declared an Advance: past 5" beyond reach, spears-1 carries it.
 *  - Inferred (auto): another placement could be judged a March, whose
 *    limit is 10": 6" carries nothing.
 *  - Declared, but vision listed spears-1's place in an alternative: it is
 *    not fixed, so nothing carries it; spears-2 (in none) still does.
 *  - Another code (MU-PATH-LENGTH: from the fitted formations) is never
 *    carried here.
 */
Test(robust_free, the_limits_bound_and_what_is_fixed)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    const rules_unit *u = robust_spears(b, ROBUST_START);
    rules_unit *c = robust_translated(a, u, robust_ahead(ROBUST_START.heading, 6));
    rules_pairing_params pp = {4.0, 2.0, 2.0, base_deg_to_rad(1), 1.0, 1.5};
    rules_robust_free_in in = {u, c, &pp, 0.5, 1.0, RULES_MOVE_ADVANCE};
    const char *one[] = {"spears-1"}, *two[] = {"spears-1", "spears-2"};
    rules_unit_report ur;
    char why[RULES_TEXT_MAX];
    const rules_violation *v = dist_violation(&ur, base_in_to_mm(6), base_in_to_mm(5), one, 1);
    cr_expect_eq(rules_robust_free_distance(&in, v, why, sizeof why), 1);
    cr_expect_str_eq(why, "model spears-1, seen in both pictures, ended 6.00\" (+/-0.05\") from where it started, past "
                          "5.00\"");
    in.move = RULES_MOVE_AUTO;
    cr_expect_eq(rules_robust_free_distance(&in, v, why, sizeof why), 0, "a March (10\") could be judged");
    cr_expect_str_eq(why, "");
    rules_unit_report_clear(&ur);

    in.move = RULES_MOVE_ADVANCE;
    rules_placement *alt = rules_unit_add_alternative(c, "spears-1 elsewhere");
    cr_assert_not_null(alt);
    cr_assert_eq(rules_placement_add_model(alt, "spears-1", c->models[0].pos, c->models[0].facing, 0.25), 0);
    v = dist_violation(&ur, base_in_to_mm(6), base_in_to_mm(5), two, 2);
    cr_expect_eq(rules_robust_free_distance(&in, v, why, sizeof why), 1, "spears-2 only");
    cr_expect_str_eq(why, "model spears-2, seen in both pictures, ended 6.00\" (+/-0.05\") from where it started, past "
                          "5.00\"");
    rules_unit_report_clear(&ur);

    rules_unit_report_init(&ur, "spears", "red", RULES_MOVE_ADVANCE, false);
    rules_violation *p = rules_unit_report_add_violation(&ur, "MU-PATH-LENGTH", RULES_QTY_LENGTH, base_in_to_mm(6),
                                                         base_in_to_mm(5), "too far");
    cr_assert_not_null(p);
    rules_violation_add_model(p, "spears-2");
    cr_expect_eq(rules_robust_free_distance(&in, p, why, sizeof why), 0);
    rules_unit_report_clear(&ur);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/* (c) The legal counterpart: a 9.5" March at March 10", the same doubt: CANNOT TELL (never ILLEGAL). */
Test(robust_free, legal_counterpart_is_never_illegal)
{
    static const rules_move_type moves[] = {RULES_MOVE_AUTO, RULES_MOVE_MARCH};
    for (size_t k = 0; k < 2; k++) {
        rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        doubted_rear_march(b, a, 9.5);
        rules_report r;
        judge(b, a, moves[k], &r);
        const rules_unit_report *ur = &r.units[0];
        cr_expect_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "%s: %s", rules_verdict_word(ur->verdict), ur->why);
        cr_expect(strstr(ur->why, "legal under the ") == ur->why, "why: %s", ur->why);
        cr_expect(r.legal);
        cr_expect_eq(ur->n_violations, 0);
        rules_report_clear(&r);
        rules_snapshot_free(b);
        rules_snapshot_free(a);
    }
}
