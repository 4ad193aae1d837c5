/*
 * rules_robust: verdicts that hold under every placement of the models a
 * camera's snapshot leaves open, within each model's uncertainty. Every
 * snapshot is built here from exact geometry; each test states its answer
 * exactly and, where the old judging (rules_move_check on the likeliest
 * placement alone) gets it wrong, shows that too, so the test would catch it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "robust_scene.h"
#include "rules_json.h"
#include "rules_move.h"
#include "rules_robust.h"
#include "rules_words.h"

typedef struct judged {
    rules_report robust, plain;
} judged;

static void judge(const rules_snapshot *b, const rules_snapshot *a, rules_move_type move, judged *j)
{
    base_error err;
    rules_robust_options o;
    rules_robust_options_default(&o);
    o.check.move = move;
    rules_report_init(&j->robust);
    rules_report_init(&j->plain);
    cr_assert_eq(rules_robust_check(b, a, &o, &j->robust, &err), 0, "%s", err.msg);
    cr_assert_eq(rules_move_check(b, a, &o.check, &j->plain, &err), 0, "%s", err.msg);
}

static void judged_clear(judged *j)
{
    rules_report_clear(&j->robust);
    rules_report_clear(&j->plain);
}

/*
 * The case that must stay ILLEGAL: an 11" March at March 10" with every
 * model seen (sigma 0.25 mm). Robustness must not hide a real violation.
 */
Test(robust, march_11in_every_model_seen_stays_illegal)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    const rules_unit *u = robust_spears(b, ROBUST_START);
    robust_translated(a, u, robust_ahead(ROBUST_START.heading, 11));
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_assert_eq(j.robust.n_units, 1);
    const rules_unit_report *ur = &j.robust.units[0];
    cr_expect_eq(ur->verdict, RULES_VERDICT_ILLEGAL, "verdict %s: %s", rules_verdict_word(ur->verdict), ur->why);
    cr_expect_eq(ur->move, RULES_MOVE_MARCH);
    cr_expect_not(j.robust.legal);
    const rules_violation *v = rules_unit_report_find(ur, "MU-MODEL-DIST");
    cr_assert_not_null(v);
    cr_expect_float_eq(v->measured, base_in_to_mm(11), 1e-6, "measured %.3f mm", v->measured);
    cr_expect_eq(v->n_models, 10);
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/*
 * The same March with the two rear models inferred in both pictures and
 * their rear rank open (left, centred or right): still ILLEGAL, because it
 * is broken under every placement (the seen models alone went 11").
 */
Test(robust, march_11in_with_ambiguous_rear_stays_illegal)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_ambiguous_rear(u, 1);
    rules_unit *c = robust_translated(a, u, robust_ahead(ROBUST_START.heading, 11));
    robust_ambiguous_rear(c, 0);
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_assert_eq(j.robust.n_units, 1);
    cr_expect_eq(j.robust.units[0].verdict, RULES_VERDICT_ILLEGAL, "%s: %s",
                 rules_verdict_word(j.robust.units[0].verdict), j.robust.units[0].why);
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/*
 * Issue 9: a legal 4.5" Advance (Advance 5") whose rear two models were
 * not seen; vision placed them centred before but left-aligned after (its
 * alternatives hold the others). The old judging calls MU-FORMATION-KEPT;
 * judged under every placement the evidence allows, with the hidden rear
 * rank moving with its block, it is LEGAL (never ILLEGAL).
 */
Test(robust, legal_advance_with_ambiguous_rear_models_is_not_illegal)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_ambiguous_rear(u, 1);
    rules_unit *c = robust_translated(a, u, robust_ahead(ROBUST_START.heading, 4.5));
    rules_unit_clear_alternatives(c);
    robust_ambiguous_rear(c, 0);
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_assert_eq(j.plain.n_units, 1);
    cr_expect_not_null(rules_unit_report_find(&j.plain.units[0], "MU-FORMATION-KEPT"),
                       "control: the likeliest placements alone break the block");
    cr_assert_eq(j.robust.n_units, 1);
    const rules_unit_report *ur = &j.robust.units[0];
    cr_expect_eq(ur->verdict, RULES_VERDICT_LEGAL, "verdict %s: %s", rules_verdict_word(ur->verdict), ur->why);
    cr_expect_eq(ur->move, RULES_MOVE_ADVANCE);
    cr_expect(j.robust.legal);
    for (size_t i = 0; i < ur->n_models; i++)
        cr_expect_float_eq(ur->models[i].distance_mm, base_in_to_mm(4.5), 1e-6, "%s moved %.3f mm",
                           ur->models[i].id, ur->models[i].distance_mm);
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/*
 * Issue 9: a unit that did not move, its hidden rear rank placed
 * differently in the two pictures, is not judged as a Reform (the old
 * judging calls one): it did not move, so it is not in the report.
 */
Test(robust, unmoved_unit_is_not_a_reform)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_ambiguous_rear(u, 1);
    rules_unit *c = robust_translated(a, u, base_v2(0.3, -0.2));
    rules_unit_clear_alternatives(c);
    robust_ambiguous_rear(c, 0);
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_assert_eq(j.plain.n_units, 1, "control: the old judging reports the unit as moved");
    cr_expect_eq(j.plain.units[0].move, RULES_MOVE_REFORM);
    cr_expect_eq(j.robust.n_units, 0, "the unmoved unit was judged (%s)",
                 j.robust.n_units ? rules_move_word(j.robust.units[0].move) : "");
    cr_expect(j.robust.legal);
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/* Vision could not tell which hidden rear model is which: swapped ids in a rigidly moved block keep their slots. */
Test(robust, unseen_models_keep_their_slots)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_infer(u, "spears-9");
    robust_infer(u, "spears-10");
    rules_unit *c = robust_translated(a, u, robust_ahead(ROBUST_START.heading, 4.5));
    rules_model *m9 = rules_unit_find_model(c, "spears-9"), *m10 = rules_unit_find_model(c, "spears-10");
    base_vec2 t = m9->pos;
    m9->pos = m10->pos, m10->pos = t;
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_expect_not_null(rules_unit_report_find(&j.plain.units[0], "MU-FORMATION-KEPT"), "control");
    cr_assert_eq(j.robust.n_units, 1);
    cr_expect_eq(j.robust.units[0].verdict, RULES_VERDICT_LEGAL, "%s", j.robust.units[0].why);
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/* Four models read from partly hidden tags (sigma 1 mm) end 2 mm past the March Rate: within reach, CANNOT TELL. */
Test(robust, over_the_limit_within_uncertainty_cannot_tell)
{
    for (int rough = 0; rough < 2; rough++) {
        rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        rules_unit *u = fx_block(b, "riders", "blue", 25, 2, 4, ROBUST_START, 5, 10);
        for (size_t k = 0; k < u->n_models; k++) {
            u->models[k].evidence = rough ? RULES_EVIDENCE_ROUGH : RULES_EVIDENCE_SEEN;
            u->models[k].sigma_mm = rough ? 1.0 : 0.2;
        }
        robust_translated(a, u, base_v2_add(robust_ahead(ROBUST_START.heading, 10), robust_ahead(ROBUST_START.heading, 2.0 / 25.4)));
        judged j;
        judge(b, a, RULES_MOVE_MARCH, &j);
        cr_assert_eq(j.robust.n_units, 1);
        const rules_unit_report *ur = &j.robust.units[0];
        cr_expect_eq(j.plain.units[0].verdict, RULES_VERDICT_ILLEGAL, "control: 2 mm over is a violation");
        if (rough) {
            cr_expect_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "%s", rules_verdict_word(ur->verdict));
            cr_expect(strstr(ur->why, "within the +/-") != NULL, "why: %s", ur->why);
            cr_expect(j.robust.legal, "a call within the uncertainty is not an ILLEGAL that stands");
        } else {
            cr_expect_eq(ur->verdict, RULES_VERDICT_ILLEGAL, "seen to 0.2 mm, 2 mm over stands: %s", ur->why);
        }
        judged_clear(&j);
        rules_snapshot_free(b);
        rules_snapshot_free(a);
    }
}

/* Issue 9: a unit hidden entirely in the after picture: "not seen, cannot judge", never "no unit moved". */
Test(robust, unit_not_seen_cannot_judge)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    const rules_unit *u = robust_spears(b, ROBUST_START);
    robust_translated(a, u, base_v2(0, 0));
    rules_unit *w = fx_block(b, "wolves", "blue", 25, 3, 6, (rules_pose){{1200, 700}, 0}, 8, 16);
    cr_assert_not_null(rules_snapshot_add_unseen(a, w->id, w->side, w->n_models));
    cr_assert_not_null(rules_snapshot_add_unseen(b, "ghosts", "blue", 5));
    cr_assert_not_null(rules_snapshot_add_unseen(a, "ghosts", "blue", 5));
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_assert_eq(j.robust.n_units, 2, "spears did not move; wolves and ghosts were not seen");
    const rules_unit_report *wr = rules_report_find_unit(&j.robust, "wolves");
    const rules_unit_report *gr = rules_report_find_unit(&j.robust, "ghosts");
    cr_assert_not_null(wr);
    cr_assert_not_null(gr);
    cr_expect_eq(wr->verdict, RULES_VERDICT_NOT_SEEN);
    cr_expect_str_eq(wr->why, "unit wolves: not seen in the after picture, cannot judge");
    cr_expect_str_eq(gr->why, "unit ghosts: not seen in either picture, cannot judge");
    cr_expect(j.robust.legal, "not seen is not illegal");
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    rules_report_print(&j.robust, f);
    fclose(f);
    cr_expect(strstr(buf, "no unit moved") == NULL, "%s", buf);
    cr_expect(strstr(buf, "NOT SEEN, cannot judge") != NULL, "%s", buf);
    /* Asked about it by name. */
    rules_robust_options o;
    rules_robust_options_default(&o);
    o.check.unit_id = "ghosts";
    rules_report r;
    rules_report_init(&r);
    base_error err;
    cr_assert_eq(rules_robust_check(b, a, &o, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(r.n_units, 1);
    cr_expect_eq(r.units[0].verdict, RULES_VERDICT_NOT_SEEN);
    rules_report_clear(&r);
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/* Vision kept fewer placements than the evidence allows: a legal-looking move cannot be called legal. */
Test(robust, incomplete_placements_cannot_tell)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_ambiguous_rear(u, 1);
    rules_unit *c = robust_translated(a, u, robust_ahead(ROBUST_START.heading, 4.5));
    robust_ambiguous_rear(c, 1);
    c->placements_complete = false;
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_assert_eq(j.robust.n_units, 1);
    cr_expect_eq(j.robust.units[0].verdict, RULES_VERDICT_CANNOT_TELL, "%s",
                 rules_verdict_word(j.robust.units[0].verdict));
    cr_expect(strstr(j.robust.units[0].why, "spears-9") != NULL, "why names the models: %s", j.robust.units[0].why);
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/* Snapshots written by hand (no evidence, no sigma) are judged exactly as before: the three seed figures. */
Test(robust, hand_written_snapshots_judged_as_before)
{
    for (const char *fig = "abc"; *fig; fig++) {
        rules_snapshot *b, *a;
        fx_seed_wheel_example(*fig, &b, &a);
        judged j;
        judge(b, a, RULES_MOVE_AUTO, &j);
        cr_assert_eq(j.robust.n_units, j.plain.n_units);
        for (size_t i = 0; i < j.plain.n_units; i++) {
            const rules_unit_report *p = &j.plain.units[i], *r = &j.robust.units[i];
            cr_expect_eq(p->verdict, r->verdict, "figure %c", *fig);
            cr_expect_eq(p->move, r->move, "figure %c", *fig);
            cr_expect_eq(p->n_violations, r->n_violations, "figure %c", *fig);
            cr_expect_float_eq(p->path.length_mm, r->path.length_mm, 1e-9, "figure %c", *fig);
        }
        cr_expect_eq(j.plain.legal, j.robust.legal, "figure %c", *fig);
        judged_clear(&j);
        rules_snapshot_free(b);
        rules_snapshot_free(a);
    }
}

/* The snapshot's evidence, sigma, alternatives and unseen units survive JSON; bad values name their field. */
Test(robust, snapshot_evidence_round_trip)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_ambiguous_rear(u, 1);
    rules_unit_find_model(u, "spears-1")->evidence = RULES_EVIDENCE_ROUGH;
    u->placements_complete = false;
    rules_snapshot_add_unseen(b, "ghosts", "blue", 5);
    cJSON *j = rules_json_from_snapshot(b);
    base_error err;
    rules_snapshot *c = rules_json_to_snapshot(j, "mem", &err);
    cJSON_Delete(j);
    cr_assert_not_null(c, "%s", err.msg);
    const rules_unit *cu = rules_snapshot_find_unit(c, "spears");
    cr_expect_eq(rules_unit_find_model(cu, "spears-1")->evidence, RULES_EVIDENCE_ROUGH);
    cr_expect_eq(rules_unit_find_model(cu, "spears-9")->evidence, RULES_EVIDENCE_INFERRED);
    cr_expect(rules_unit_find_model(cu, "spears-9")->inferred);
    cr_expect_float_eq(rules_unit_find_model(cu, "spears-9")->sigma_mm, ROBUST_INFERRED_SIGMA, 1e-9);
    cr_expect_eq(cu->n_alternatives, 2);
    cr_expect_str_eq(cu->alternatives[0].label, "rear rank left-aligned");
    cr_expect_eq(cu->alternatives[0].n_models, 2);
    cr_expect_str_eq(cu->placement_label, "rear rank centred");
    cr_expect_not(cu->placements_complete);
    cr_assert_eq(c->n_unseen, 1);
    cr_expect_str_eq(c->unseen[0].id, "ghosts");
    cr_expect_eq(c->unseen[0].n_models, 5);
    rules_snapshot *d = rules_snapshot_clone(c);
    cr_expect_eq(rules_snapshot_find_unit(d, "spears")->n_alternatives, 2);
    cr_expect_eq(d->n_unseen, 1);
    rules_snapshot_free(d);
    rules_snapshot_free(c);
    rules_snapshot_free(b);

    static const struct {
        const char *json, *msg;
    } bad[] = {
        {"{\"board\":{\"width_mm\":100,\"depth_mm\":100},\"units\":[{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25,25],"
         "\"models\":[{\"id\":\"m\",\"x_mm\":1,\"y_mm\":1,\"facing_deg\":0,\"evidence\":\"guessed\"}]}]}",
         "bad.json: units[0].models[0].evidence: expected \"seen\", \"rough\" or \"inferred\""},
        {"{\"board\":{\"width_mm\":100,\"depth_mm\":100},\"units\":[{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25,25],"
         "\"models\":[{\"id\":\"m\",\"x_mm\":1,\"y_mm\":1,\"facing_deg\":0}],"
         "\"alternatives\":[{\"label\":\"x\",\"models\":[{\"id\":\"n\",\"x_mm\":1,\"y_mm\":1,\"facing_deg\":0}]}]}]}",
         "bad.json: units[0].alternatives[0].models[0].id: \"n\" is not a model of unit \"u\""},
        {"{\"board\":{\"width_mm\":100,\"depth_mm\":100},\"units\":[{\"id\":\"u\",\"side\":\"r\",\"base_mm\":[25,25],"
         "\"models\":[{\"id\":\"m\",\"x_mm\":1,\"y_mm\":1,\"facing_deg\":0}]}],\"unseen_units\":[{\"id\":\"u\"}]}",
         "bad.json: unseen_units[0].id: unit \"u\" is listed unseen but is also units[0].id"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *root = cJSON_Parse(bad[i].json);
        cr_assert_not_null(root);
        rules_snapshot *s = rules_json_to_snapshot(root, "bad.json", &err);
        cJSON_Delete(root);
        cr_expect_null(s);
        cr_expect_str_eq(err.msg, bad[i].msg);
        rules_snapshot_free(s);
    }
}

/*
 * Where identities decide the call, it is explicit. A line of 12 turns
 * about (a Reform, March 10"): the end models, not seen in either picture,
 * either crossed to the other end (11.8", too far) or each turned where it
 * stood. Kept slots say ILLEGAL; their nearest places clear it: CANNOT TELL,
 * naming the reason. The same turn with every model seen stays ILLEGAL.
 */
Test(robust, identities_that_decide_the_call_cannot_tell)
{
    for (int all_seen = 0; all_seen < 2; all_seen++) {
        rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
        rules_unit *u = fx_block(b, "line", "red", 25, 12, 12, ROBUST_START, 5, 10);
        rules_formation f;
        cr_assert_eq(rules_formation_fit(u, NULL, &f, NULL), 0);
        rules_unit *c = robust_translated(a, u, base_v2(0, 0));
        for (size_t k = 0; k < 12; k++) {
            c->models[k].pos = base_v2_add(f.centre, base_v2_rot(base_v2_sub(u->models[k].pos, f.centre), BASE_PI));
            c->models[k].facing = base_angle_wrap(u->models[k].facing + BASE_PI);
            bool end = k < 4 || k >= 8;
            u->models[k].sigma_mm = c->models[k].sigma_mm = 0.25;
            if (end && !all_seen) {
                robust_infer(u, u->models[k].id);
                robust_infer(c, c->models[k].id);
            }
        }
        judged j;
        judge(b, a, RULES_MOVE_REFORM, &j);
        cr_expect_eq(j.plain.units[0].verdict, RULES_VERDICT_ILLEGAL, "control: the ends crossed over");
        cr_assert_eq(j.robust.n_units, 1);
        const rules_unit_report *ur = &j.robust.units[0];
        if (all_seen) {
            cr_expect_eq(ur->verdict, RULES_VERDICT_ILLEGAL, "%s", ur->why);
        } else {
            cr_expect_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "%s", rules_verdict_word(ur->verdict));
            cr_expect_str_eq(ur->why, "it depends on which of its models not seen in both pictures stands where");
        }
        judged_clear(&j);
        rules_snapshot_free(b);
        rules_snapshot_free(a);
    }
}

/*
 * A unit exactly the same in both snapshots, alternatives included (what a
 * watch keeps for a unit no change touched), stood still under every
 * placement: one placement pair is judged, not every before x after one.
 * Selected, it is reported as not moved, with no "judged under N
 * placements" note; the same unit with its placements incomplete too.
 */
Test(robust, identical_unit_is_one_still_pair)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    rules_unit *u = robust_spears(b, ROBUST_START);
    robust_ambiguous_rear(u, 1);
    u->placements_complete = false;
    rules_unit *c = robust_translated(a, u, base_v2(0, 0));
    robust_ambiguous_rear(c, 1);
    c->placements_complete = false;
    cr_assert_gt(c->n_alternatives, 1);
    base_error err;
    rules_robust_options o;
    rules_robust_options_default(&o);
    o.check.unit_id = "spears";
    rules_report r;
    rules_report_init(&r);
    cr_assert_eq(rules_robust_check(b, a, &o, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(r.n_units, 1);
    cr_expect_eq(r.units[0].verdict, RULES_VERDICT_LEGAL, "%s: %s", rules_verdict_word(r.units[0].verdict),
                 r.units[0].why);
    cr_expect_eq(r.units[0].move, RULES_MOVE_NONE);
    for (size_t i = 0; i < r.units[0].n_notes; i++)
        cr_expect(strstr(r.units[0].notes[i], "placements") == NULL, "one pair judged: %s", r.units[0].notes[i]);
    rules_report_clear(&r);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}

/* The "  formation ..." line of the report as printed with the two snapshots ("" when none). */
static void print_formation_line(const rules_report *r, const rules_snapshot *b, const rules_snapshot *a, char *line,
                                 size_t cap)
{
    char printed[8192] = "";
    FILE *f = fmemopen(printed, sizeof printed - 1, "w");
    cr_assert_not_null(f);
    rules_report_print_judged(r, b, a, f);
    fclose(f);
    const char *at = strstr(printed, "\n  formation ");
    const char *end = at ? strchr(at + 1, '\n') : NULL;
    snprintf(line, cap, "%.*s", end ? (int)(end - at) : 0, at ? at + 1 : "");
}

/*
 * A unit read in part (vision kept the 2 models it read beyond doubt and left
 * the other 8 out: their formation could not be told) that advanced 4.5":
 * CANNOT TELL, said in one line (rules_words_partial) in its call and its
 * sentence, and one note for the 8 models left out, not one each.
 */
Test(robust, unit_read_in_part_is_said_in_one_line)
{
    rules_snapshot *b = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D), *a = rules_snapshot_new(FX_BOARD_W, FX_BOARD_D);
    const rules_unit *u = robust_spears(b, ROBUST_START);
    rules_unit *c = robust_translated(a, u, robust_ahead(ROBUST_START.heading, 4.5));
    c->n_models = 2; /* spears-1 and spears-2, the front rank's left */
    for (size_t k = 0; k < 2; k++)
        c->models[k].evidence = RULES_EVIDENCE_ROUGH;
    c->placements_complete = false;
    cr_assert(rules_unit_partly_placed(c));
    cr_assert_not(rules_unit_partly_placed(u));
    judged j;
    judge(b, a, RULES_MOVE_AUTO, &j);
    cr_assert_eq(j.robust.n_units, 1);
    const rules_unit_report *ur = &j.robust.units[0];
    cr_expect_eq(ur->verdict, RULES_VERDICT_CANNOT_TELL, "%s: %s", rules_verdict_word(ur->verdict), ur->why);
    cr_expect_str_eq(ur->why, "2 of 10 models seen in the after picture, its formation cannot be told");
    char s[RULES_WORDS_MAX];
    rules_words_call(ur, NULL, NULL, s, sizeof s);
    static const char head[] = "spears: advance forward, cannot tell: 2 of 10 models seen in the after picture, its "
                               "formation cannot be told [spears-";
    cr_expect_eq(strncmp(s, head, strlen(head)), 0, "%s", s);
    cr_expect(strstr(s, " moved 4.50\", limit 5.00\"]") != NULL, "%s", s);
    size_t notes = 0;
    for (size_t i = 0; i < ur->n_notes; i++)
        if (strstr(ur->notes[i], "not in the after snapshot")) {
            notes++;
            cr_expect_str_eq(ur->notes[i], "8 models are not in the after snapshot (removed or not seen): spears-3, "
                                           "spears-4, spears-5, spears-6, spears-7, spears-8, spears-9, spears-10.");
        }
    cr_expect_eq(notes, 1);
    /* The printed report does not give the 2 models' "2x1" as its formation (nor their centre's move). */
    print_formation_line(&j.robust, b, a, s, sizeof s);
    cr_expect_str_eq(s, "  formation cannot be told in the after picture (4x3 in the before, files x ranks); nor how "
                        "far its centre moved or turned\n");
    print_formation_line(&j.robust, b, b, s, sizeof s);
    cr_expect_str_eq(s, "  formation 4x3 -> 2x1 (files x ranks); centre moved 5.57\", rotated 0.0 deg\n",
                     "read in full in both pictures given: the numbers, as before");

    /* Read in full in both: nothing to say. Read in part in both: both counts, and no total (neither holds it). */
    rules_words_partial(u, u, s, sizeof s);
    cr_expect_str_eq(s, "");
    rules_unit *bu = rules_snapshot_find_unit(b, "spears");
    bu->n_models = 3;
    bu->placements_complete = false;
    rules_words_partial(bu, c, s, sizeof s);
    cr_expect_str_eq(s, "3 models seen in the before picture and 2 in the after, its formation cannot be told");
    print_formation_line(&j.robust, b, a, s, sizeof s);
    cr_expect_str_eq(s, "  formation cannot be told; nor how far its centre moved or turned\n");
    /* One picture alone (a detection's warning), in the same words. */
    rules_words_partial_in(2, 10, "after", s, sizeof s);
    cr_expect_str_eq(s, "2 of 10 models seen in the after picture, its formation cannot be told");
    rules_words_partial_in(3, 10, NULL, s, sizeof s);
    cr_expect_str_eq(s, "3 of 10 models seen in the picture, its formation cannot be told");
    judged_clear(&j);
    rules_snapshot_free(b);
    rules_snapshot_free(a);
}
