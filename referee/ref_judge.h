/*
 * ref_judge: two snapshots of the table judged, as the referee judges them:
 * every placement of the models the evidence leaves open (rules_robust.h:
 * ILLEGAL only when a rule is broken under all of them, else CANNOT TELL),
 * then the nearest legal move of each call that stands ILLEGAL
 * (rules_suggest.h). Each move goes to the judge its row of the table of
 * rules names (rules_moves.def, rules_rulebook.h): Advance, March, Reform
 * and auto to the robust check, Reform Move, Combat Reform, Pursuit and
 * Dynamic Formations to their own rules, a new rule to its own. Every program and
 * bench that judges a move judges it here (referee, check, watch's tracker,
 * the benches), so that they call the same move the same way.
 *
 * How to use:
 *   ref_judge_options o; ref_judge_options_default(&o);
 *   o.check.move = RULES_MOVE_MARCH;                 // optional: one unit, a move type, ...
 *   ref_judgement *j = ref_judgement_new();
 *   if (ref_judge(before, after, &o, j, &err) < 0) ... err.msg ...
 *   ... j->report (the call on every unit), j->check_ms, j->suggest_ms ...
 *   ref_words_print(j, stdout);                      // ref_words.h: the words, with their +/-
 *   ref_judgement_free(j);
 * Or on the stack: ref_judgement j; ref_judgement_init(&j); ... ref_judgement_clear(&j);
 *   rules_reach r; ref_judge_reach(table, "spears", RULES_MOVE_MARCH, &r, &err); ... rules_reach_clear(&r);
 * The judgement borrows the two snapshots (the words take their +/- from
 * them): they must outlive it. A caller that keeps the report alone moves
 * it out (keep = j.report; ref_judgement_init(&j)).
 */
#ifndef REF_JUDGE_H
#define REF_JUDGE_H

#include <stdbool.h>

#include "base_error.h"
#include "rules_combat.h"
#include "rules_move.h"
#include "rules_pursuit.h"
#include "rules_reach.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct ref_judge_options {
    rules_check_options check;  /* move type (default auto), one unit, ... (rules_move.h) */
    bool robust;                /* every placement the evidence allows (default); false: the snapshots as they are */
    bool suggest;               /* the nearest legal move of each ILLEGAL call (default true) */
    double jitter_mm;           /* a unit moved less than this did not move (default: rules_robust's) */
    const rules_snapshot *mid;           /* --move reform-move: the table mid-move (may be NULL) */
    const rules_combat_options *combat;  /* --move combat-reform: who lost, who reforms (required) */
    const rules_pursuit_input *pursuit;  /* --move pursuit: pursuers and direction (required) */
} ref_judge_options;

void ref_judge_options_default(ref_judge_options *o);

typedef struct ref_judgement {
    rules_report report;                   /* the call on every unit; owned */
    const rules_snapshot *before, *after;  /* what was judged; borrowed */
    double check_ms, suggest_ms;           /* time spent judging, and finding the nearest legal moves */
} ref_judgement;

void ref_judgement_init(ref_judgement *j);
/* Frees the report; the judgement is empty again. */
void ref_judgement_clear(ref_judgement *j);
ref_judgement *ref_judgement_new(void);
void ref_judgement_free(ref_judgement *j);

/* Judges before -> after into `j` (cleared first). 0, or -1 with err (the report is then empty). */
int ref_judge(const rules_snapshot *before, const rules_snapshot *after, const ref_judge_options *o, ref_judgement *j,
              base_error *err);

/* Where unit `unit_id` of `table` can legally end by `move` (rules_reach.h, the default options), before it moves:
 * what the watch draws for a judge who asks. 0, or -1 with err. */
int ref_judge_reach(const rules_snapshot *table, const char *unit_id, rules_move_type move, rules_reach *out,
                    base_error *err);

#endif
