/* The predicted Pursuit Moves compared with where the players put the units. */
#include "rules_pursuit.h"

#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"
#include "rules_arcs.h"

/*
 * The nearest legal move of a Pursuit is the Pursuit itself: the predicted
 * end (a Pursuit is not chosen, so there is no other legal position).
 */
static int suggest_prediction(rules_unit_report *ur, const rules_pursuit_prediction *p, const rules_unit *u0,
                              const rules_unit *u1)
{
    rules_suggestion *sg = &ur->suggestion;
    sg->found = true;
    sg->move = RULES_MOVE_PURSUIT;
    sg->pose = p->end;
    if (p->outcome == RULES_PURSUIT_OFF_BOARD) {
        sg->remove = true;
        snprintf(sg->text, sizeof sg->text, "take the %s off the table: their Pursuit goes off the board", ur->unit_id);
        return 0;
    }
    rules_suggested_model *m = malloc((u0->n_models ? u0->n_models : 1) * sizeof *m);
    if (!m)
        return -1;
    double turn = p->end.heading - p->start.heading, shift = 0;
    for (size_t j = 0; j < u0->n_models; j++) {
        snprintf(m[j].id, sizeof m[j].id, "%s", u0->models[j].id);
        m[j].pos = p->models[j];
        m[j].facing = base_angle_wrap(u0->models[j].facing + turn);
        const rules_model *now = u1 ? rules_unit_find_model(u1, u0->models[j].id) : NULL;
        shift = fmax(shift, now ? base_v2_dist(now->pos, m[j].pos) : base_v2_dist(u0->models[j].pos, m[j].pos));
    }
    int rc = rules_suggestion_set_models(sg, m, u0->n_models);
    free(m);
    sg->shift_mm = shift;
    snprintf(sg->text, sizeof sg->text, "put the %s where their Pursuit ends (%s; no model moves more than %.2f\")",
             ur->unit_id, rules_pursuit_outcome_word(p->outcome), base_mm_to_in(shift));
    return rc;
}

static bool on_board(const rules_snapshot *s, const rules_unit *u)
{
    for (size_t j = 0; j < u->n_models; j++) {
        base_vec2 p = u->models[j].pos;
        if (p.x >= 0 && p.y >= 0 && p.x <= s->board_width && p.y <= s->board_depth)
            return true;
    }
    return false;
}

static const char *facing_word(unsigned f)
{
    return f == RULES_ARC_FRONT ? "Front" : f == RULES_ARC_REAR ? "Rear" : f == RULES_ARC_LEFT ? "left Flank"
                                                                                               : "right Flank";
}

/* The predicted Pursuit in one sentence: which step ended it and how. */
static void note_outcome(rules_unit_report *ur, const rules_snapshot *before, const rules_pursuit_input *in,
                         const rules_pursuit_prediction *p)
{
    switch (p->outcome) {
    case RULES_PURSUIT_OFF_BOARD:
        rules_unit_report_add_note(ur, "Step %d: the Front Facing reaches the Board Edge; the unit Pursues off "
                                       "the Board.",
                                   p->step);
        break;
    case RULES_PURSUIT_CHARGE:
    {
        const rules_unit *target = rules_snapshot_find_unit(before, p->target);
        bool fleeing = target && (rules_unit_status(target) & RULES_STATUS_FLEEING);
        rules_unit_report_add_note(ur, "Step %d: the unit declares a Charge against %s (its %s) and is placed "
                                       "in base contact, %zu models engaged. The Charged unit may not perform "
                                       "Charge Reactions%s.",
                                   p->step, p->target, facing_word(p->target_facing), p->engaged_models,
                                   fleeing ? " (not even though it is already Fleeing: it fled from another combat)"
                                           : "");
    }
        break;
    case RULES_PURSUIT_PIVOT_BLOCKED:
        rules_unit_report_add_note(ur, "Step 1: an obstruction stops the Pivot after %.1f of %.1f degrees; the "
                                       "unit moves no farther.",
                                   fabs(base_rad_to_deg(p->pivot_rad)),
                                   fabs(base_rad_to_deg(base_angle_wrap(in->pursued_heading - p->start.heading))));
        break;
    case RULES_PURSUIT_FORWARD:
        rules_unit_report_add_note(ur, "Step 2: the unit Pivots %.1f degrees and moves %.2f\" straight ahead.",
                                   base_rad_to_deg(p->pivot_rad), base_mm_to_in(p->forward_mm));
        break;
    case RULES_PURSUIT_BACKTRACKED:
        rules_unit_report_add_note(ur, "Step 3: the end position breaks Unit Spacing; the move is backtracked "
                                       "to the last legal position (%.2f\" ahead after the Pivot).",
                                   base_mm_to_in(p->forward_mm));
        break;
    }
}

/* A unit still on the board: each model against where the prediction puts
 * it (its predicted path drawn), PU-POSITION naming every model off by more than the tolerance. */
static void judge_positions(rules_unit_report *ur, const rules_unit *u0, const rules_unit *u1,
                            const rules_formation *f0, const rules_pursuit_input *in,
                            const rules_check_options *opt_in, const rules_pursuit_prediction *p)
{
    rules_formation f1;
    rules_formation_fit(u1, &opt_in->formation, &f1, NULL);
    ur->centre_after = f1.centre;
    ur->centre_displacement_mm = base_v2_dist(f0->centre, f1.centre);
    ur->rotation_rad = base_angle_wrap(f1.heading - f0->heading);
    ur->files_after = f1.files;
    ur->ranks_after = f1.ranks;
    ur->models = calloc(u0->n_models ? u0->n_models : 1, sizeof *ur->models);
    double worst = 0;
    const char *worst_id = NULL;
    for (size_t j = 0; ur->models && j < u0->n_models; j++) {
        const rules_model *m1 = rules_unit_find_model(u1, u0->models[j].id);
        base_vec2 path[3] = {u0->models[j].pos, p->models[j], p->models[j]};
        rules_unit_report_add_model_path(ur, u0->models[j].id, path, 2, base_v2_dist(path[0], path[1]));
        if (!m1)
            continue;
        rules_model_move *mm = &ur->models[ur->n_models++];
        snprintf(mm->id, sizeof mm->id, "%s", m1->id);
        double dev = base_v2_dist(m1->pos, p->models[j]);
        mm->distance_mm = base_v2_dist(u0->models[j].pos, m1->pos);
        if (dev > worst) {
            worst = dev;
            worst_id = m1->id;
        }
    }
    rules_unit_report_add_measure(ur, "max_deviation", RULES_QTY_LENGTH, worst);
    if (worst <= in->tolerance_mm)
        return;
    rules_violation *v = rules_unit_report_add_violation(
        ur, "PU-POSITION", RULES_QTY_LENGTH, worst, in->tolerance_mm,
        "The unit is not where its Pursuit Move ends: model %s is %.2f\" from its predicted position (%s).", worst_id,
        base_mm_to_in(worst), rules_pursuit_outcome_word(p->outcome));
    for (size_t j = 0; v && j < u0->n_models; j++) {
        const rules_model *m1 = rules_unit_find_model(u1, u0->models[j].id);
        if (m1 && base_v2_dist(m1->pos, p->models[j]) > in->tolerance_mm)
            rules_violation_add_model(v, m1->id);
    }
}

/* One pursuer's call: its predicted Pursuit (`p`, the k-th pursuer) against where it stands in `after`. */
static void judge_pursuer(const rules_snapshot *before, const rules_snapshot *after, const rules_pursuit_input *in,
                          const rules_check_options *opt_in, const rules_pursuit_prediction *p, size_t k,
                          rules_unit_report *ur_out)
{
    rules_unit_report ur;
    const rules_unit *u0 = rules_snapshot_find_unit(before, p->unit_id);
    const rules_unit *u1 = rules_snapshot_find_unit(after, p->unit_id);
    rules_unit_report_init(&ur, p->unit_id, u0->side, RULES_MOVE_PURSUIT, true);
    ur.direction = rules_pursuit_outcome_word(p->outcome);
    ur.rate_mm = in->pursuers[k].distance_mm;
    rules_unit_report_add_measure(&ur, "pursuit_distance", RULES_QTY_LENGTH, in->pursuers[k].distance_mm);
    rules_unit_report_add_measure(&ur, "predicted_pivot", RULES_QTY_ANGLE, p->pivot_rad);
    rules_unit_report_add_measure(&ur, "predicted_forward", RULES_QTY_LENGTH, p->forward_mm);
    rules_unit_report_add_measure(&ur, "order", RULES_QTY_COUNT, p->order);
    note_outcome(&ur, before, in, p);
    rules_formation f0;
    rules_formation_fit(u0, &opt_in->formation, &f0, NULL);
    ur.centre_before = f0.centre;
    ur.files_before = ur.files_after = f0.files;
    ur.ranks_before = ur.ranks_after = f0.ranks;
    bool should_leave = p->outcome == RULES_PURSUIT_OFF_BOARD;
    bool left = !u1 || !on_board(after, u1);
    if (should_leave && !left)
        rules_unit_report_add_violation(&ur, "PU-OFF-BOARD", RULES_QTY_COUNT, 1, 0,
                                        "The unit should have Pursued off the Board but is still on it.");
    else if (!should_leave && left)
        rules_unit_report_add_violation(&ur, "PU-MISSING", RULES_QTY_COUNT, 0, 1,
                                        "The unit left the table, but its Pursuit Move ends on the board.");
    if (!should_leave && !left)
        judge_positions(&ur, u0, u1, &f0, in, opt_in, p);
    *ur_out = ur;
}

/* Two predictions of one unit end in the same place (0.1 mm) the same way. */
static bool same_prediction(const rules_pursuit_prediction *a, const rules_pursuit_prediction *b)
{
    if (a->outcome != b->outcome || a->n_models != b->n_models || strcmp(a->target, b->target) != 0)
        return false;
    for (size_t j = 0; j < a->n_models; j++)
        if (base_v2_dist(a->models[j], b->models[j]) > 0.1)
            return false;
    return true;
}

int rules_pursuit_check(const rules_snapshot *before, const rules_snapshot *after, const rules_pursuit_input *in,
                        const rules_check_options *opt_in, rules_report *out, base_error *err)
{
    rules_check_options defaults;
    opt_in = rules_check_options_or_default(opt_in, &defaults);
    rules_report_begin(out, before, after);
    rules_pursuit_prediction *pred = calloc(in->n_pursuers ? in->n_pursuers : 1, sizeof *pred);
    if (!pred)
        return base_error_set(err, "out of memory");
    int rc = rules_pursuit_predict(before, in, pred, err);
    /* A Fleeing enemy of unknown combat: predicted as an obstruction above, as a Charge target here. */
    char unknown[RULES_TEXT_MAX / 2];
    size_t n_unknown = rc == 0 ? rules_pursuit_unknown_fleeing(before, in, unknown, sizeof unknown) : 0;
    rules_pursuit_input in_alt = *in;
    in_alt.unknown_fleeing = in->unknown_fleeing == RULES_PURSUIT_UNKNOWN_OBSTRUCTION ? RULES_PURSUIT_UNKNOWN_TARGET
                                                                                      : RULES_PURSUIT_UNKNOWN_OBSTRUCTION;
    rules_pursuit_prediction *alt = n_unknown ? calloc(in->n_pursuers ? in->n_pursuers : 1, sizeof *alt) : NULL;
    if (n_unknown && (!alt || rules_pursuit_predict(before, &in_alt, alt, err) < 0)) {
        rc = alt ? -1 : base_error_set(err, "out of memory");
        free(alt);
        alt = NULL;
    }
    for (size_t k = 0; rc == 0 && k < in->n_pursuers; k++) {
        rules_unit_report ur;
        judge_pursuer(before, after, in, opt_in, &pred[k], k, &ur);
        if (alt && !same_prediction(&pred[k], &alt[k])) {
            /* the call depends on which combat a Fleeing enemy fled from: judged the other way too */
            rules_unit_report other;
            judge_pursuer(before, after, &in_alt, opt_in, &alt[k], k, &other);
            if (other.verdict != ur.verdict)
                rules_unit_report_set_verdict(&ur, RULES_VERDICT_CANNOT_TELL,
                                              "%s %s Fleeing but the table does not say which combat %s fled from: "
                                              "an obstruction if from this one, Charged if not, and the call "
                                              "differs",
                                              unknown, n_unknown == 1 ? "is" : "are", n_unknown == 1 ? "it" : "they");
            rules_unit_report_clear(&other);
        }
        const rules_unit *u0 = rules_snapshot_find_unit(before, pred[k].unit_id);
        const rules_unit *u1 = rules_snapshot_find_unit(after, pred[k].unit_id);
        if (ur.verdict == RULES_VERDICT_ILLEGAL && suggest_prediction(&ur, &pred[k], u0, u1) < 0)
            rc = base_error_set(err, "out of memory");
        if (rc == 0 && rules_report_take_unit(out, &ur) < 0) {
            rules_unit_report_clear(&ur);
            rc = base_error_set(err, "out of memory");
        }
    }
    for (size_t k = 0; k < in->n_pursuers; k++) {
        rules_pursuit_prediction_clear(&pred[k]);
        if (alt)
            rules_pursuit_prediction_clear(&alt[k]);
    }
    free(alt);
    free(pred);
    if (rc < 0)
        rules_report_clear(out);
    return rc;
}
