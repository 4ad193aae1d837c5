/* ref_judge: two snapshots judged as the referee judges them (see the header). */
#include "ref_judge.h"

#include <stdlib.h>
#include <time.h>

#include "rules_dynform.h"
#include "rules_reform.h"
#include "rules_robust.h"
#include "rules_suggest.h"

void ref_judge_options_default(ref_judge_options *o)
{
    *o = (ref_judge_options){0};
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    o->check = ro.check;
    o->robust = true;
    o->suggest = true;
    o->jitter_mm = ro.jitter_mm;
}

void ref_judgement_init(ref_judgement *j)
{
    *j = (ref_judgement){0};
    rules_report_init(&j->report);
}

void ref_judgement_clear(ref_judgement *j)
{
    rules_report_clear(&j->report);
    ref_judgement_init(j);
}

ref_judgement *ref_judgement_new(void)
{
    ref_judgement *j = malloc(sizeof *j);
    if (j)
        ref_judgement_init(j);
    return j;
}

void ref_judgement_free(ref_judgement *j)
{
    if (!j)
        return;
    rules_report_clear(&j->report);
    free(j);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Advance, March, Reform (and auto): under every placement the evidence allows, or the snapshots as they are. */
static int judge_plain(const rules_snapshot *before, const rules_snapshot *after, const ref_judge_options *o,
                       rules_report *r, base_error *err)
{
    if (!o->robust)
        return rules_move_check(before, after, &o->check, r, err);
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    ro.check = o->check;
    ro.jitter_mm = o->jitter_mm;
    return rules_robust_check(before, after, &ro, r, err);
}

/* The call, by the rules of the move asked. */
static int judge_call(const rules_snapshot *before, const rules_snapshot *after, const ref_judge_options *o,
                      rules_report *r, base_error *err)
{
    switch (o->check.move) {
    case RULES_MOVE_REFORM_MOVE: return rules_reform_check(before, o->mid, after, &o->check, r, err);
    case RULES_MOVE_COMBAT_REFORM:
        if (!o->combat)
            return base_error_set(err, "a Combat Reform is judged with the losing side and the reforming units");
        return rules_combat_reform_check(before, after, &o->check, o->combat, r, err);
    case RULES_MOVE_PURSUIT:
        if (!o->pursuit)
            return base_error_set(err, "a Pursuit is judged with its pursuers and the direction pursued");
        return rules_pursuit_check(before, after, o->pursuit, &o->check, r, err);
    case RULES_MOVE_FORMATION: return rules_dynform_check(before, after, &o->check, r, err);
    default: return judge_plain(before, after, o, r, err);
    }
}

/* The nearest legal move of each ILLEGAL call, where its rules have one. */
static int suggest(const rules_snapshot *before, const rules_snapshot *after, const ref_judge_options *o,
                   rules_report *r, base_error *err)
{
    switch (o->check.move) {
    case RULES_MOVE_REFORM_MOVE: return rules_suggest_reform_moves(before, o->mid, after, &o->check, r, err);
    case RULES_MOVE_COMBAT_REFORM:
    case RULES_MOVE_PURSUIT:
    case RULES_MOVE_FORMATION: return 0; /* their rules say where the unit must end, in the violation */
    default: return rules_suggest_moves(before, after, &o->check, r, err);
    }
}

int ref_judge(const rules_snapshot *before, const rules_snapshot *after, const ref_judge_options *o, ref_judgement *j,
              base_error *err)
{
    ref_judgement_clear(j);
    ref_judge_options dflt;
    if (!o) {
        ref_judge_options_default(&dflt);
        o = &dflt;
    }
    j->before = before, j->after = after;
    double t0 = now_ms();
    if (judge_call(before, after, o, &j->report, err) < 0) {
        ref_judgement_clear(j);
        return -1;
    }
    double t1 = now_ms();
    j->check_ms = t1 - t0;
    if (o->suggest && suggest(before, after, o, &j->report, err) < 0) {
        ref_judgement_clear(j);
        return -1;
    }
    j->suggest_ms = now_ms() - t1;
    return 0;
}
