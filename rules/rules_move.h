/*
 * rules_move: the Moving Units rules (seed 004) checked on two snapshots.
 *
 * Compares the table before and after, finds every unit that moved, and
 * judges its move as an Advance (forwards with wheels, or backwards or
 * sideways), a March or a Reform, declared or inferred. It reports each
 * model's distance, the shortest forward-and-wheels path that explains the
 * end pose, and every rule broken (codes in docs/rules.md).
 *
 * How to use:
 *   rules_check_options opt;
 *   rules_check_options_default(&opt);
 *   opt.move = RULES_MOVE_MARCH;             // or AUTO (default)
 *   rules_report r; rules_report_init(&r);
 *   if (rules_move_check(before, after, &opt, &r, &err) < 0) -> bad input
 *   r.legal ...; rules_report_clear(&r);
 */
#ifndef RULES_MOVE_H
#define RULES_MOVE_H

#include "base_error.h"
#include "rules_formation.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct rules_check_options {
    rules_move_type move;       /* RULES_MOVE_AUTO: infer per unit */
    const char *unit_id;        /* only this unit (reported even if it did not move); NULL: all that moved */
    rules_formation_params formation;
    /* A limit counts as kept up to this much over: exactly at the rate is legal, 1 mm over is not. */
    double limit_tolerance_mm;
    /* A unit whose models all moved less than this and turned less than still_rad did not move. */
    double still_mm;
    double still_rad;
    /* Advance and March keep the formation: every model within this of where the block carries it. */
    double rigid_tolerance_mm;
    /* A backward or sideways Advance is straight: off-axis drift and turning up to these. */
    double straight_tolerance_mm;
    double straight_tolerance_rad;
    /* Reform keeps the centre in place within this. */
    double reform_centre_tolerance_mm;
} rules_check_options;

void rules_check_options_default(rules_check_options *opt);
/* opt itself, or (opt NULL) the defaults, written into *defaults: for the checks that take NULL for "the defaults". */
const rules_check_options *rules_check_options_or_default(const rules_check_options *opt,
                                                          rules_check_options *defaults);

/*
 * Checks every moved unit (or opt->unit_id). The ruleset is the before
 * snapshot's (the after snapshot's if only it names one). Returns 0 with the
 * verdict in `out`, or -1 for input that cannot be judged (a model in two
 * different units, an unknown --unit, a missing rate the move needs), with
 * `err` naming the unit, model and field.
 */
int rules_move_check(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt,
                     rules_report *out, base_error *err);

/*
 * Every model of `u` on the board of `board` (within tol_mm); otherwise adds
 * a violation `code` listing the models past the edge. Shared by the rules
 * whose moves end with the same requirement.
 */
void rules_check_board_edge(const rules_unit *u, const rules_snapshot *board, double tol_mm, const char *code,
                            rules_unit_report *ur);

#endif
