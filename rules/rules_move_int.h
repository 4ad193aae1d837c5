/*
 * rules_move_int: the inside of rules_move, shared by its files and by the
 * modules that judge hypothetical end positions with the same code
 * (rules_judge). Not a public API: include rules_move.h or rules_judge.h.
 *
 *   rules_move.c        the driver and the move types (Advance, March, Reform)
 *   rules_move_table.c  what every move must keep against the rest of the
 *                       table: eligibility, March Test, Unit Spacing, board
 *   rules_move_roll.c   random movement: a rate that is dice, judged by the
 *                       roll declared, or the call needs it
 */
#ifndef RULES_MOVE_INT_H
#define RULES_MOVE_INT_H

#include "rules_move.h"
#include "rules_table.h"

/* Everything about one unit's move that does not depend on the move type. */
typedef struct rules_move_ctx {
    const rules_table *t0, *t1;  /* the table before and after (t1 may describe a hypothetical after) */
    size_t i0, i1;               /* the unit's index in each table */
    const rules_unit *u0, *u1;   /* u1 may be a unit that is not in t1's snapshot (hypothetical positions) */
    rules_formation f0, f1;
    size_t *pair0, *pair1;       /* indices of models present in both snapshots */
    size_t n_pairs;
    double rot;                  /* rigid fit: rotation and translation taking before to after */
    base_vec2 trans;
    double rigid_residual_mm;    /* worst model's distance from where the rigid motion puts it */
    size_t rigid_worst;          /* index into pair arrays */
    bool moved;
    rules_pose pose0, pose1;     /* centre of the Front Facing, before and after */
    rules_path forward;          /* shortest forward-and-wheels path pose0 -> pose1 (Advance and March share it) */
    const rules_ruleset *rs;
    const rules_check_options *opt;
} rules_move_ctx;

/*
 * Pairs the models, fits the rigid motion and decides whether the unit
 * moved; solves the forward path when it did. `pairs` has room for
 * 2 * u0->n_models indices. Returns the number of pairs.
 */
size_t rules_move_ctx_prepare(rules_move_ctx *c, size_t *pairs);

/*
 * Judges the move as `type` (ADVANCE, MARCH, REFORM; AUTO infers as
 * rules_move_check does) into `ur`, which must be initialised with the
 * unit's id. Every check of the move type and the common ones (eligibility,
 * spacing, board edge, March Test note) is made. Returns -1 only when the
 * unit's profile lacks the rate the type needs (err says which).
 */
int rules_move_ctx_judge(const rules_move_ctx *c, rules_move_type type, bool declared, rules_unit_report *ur,
                         base_error *err);

/* ---- rules_move_roll.c ---- */
/* The Moving Units type `t` is judged as: its own (rules_moves.def rows flagged RULES_MOVE_INFER), else a Reform. */
rules_move_type rules_move_judged_as(rules_move_type t);
/* Random movement: a move whose rate is dice (inferred: a unit with any rate of dice) and no roll declared needs
 * the roll; the report says so (rules_unit_report_needs_roll). True when so. */
bool rules_move_needs_roll(const rules_move_ctx *c, rules_move_type type, bool declared, rules_unit_report *ur);
/* A move judged by a declared roll: the roll and its dice in the report, and a note. */
void rules_move_note_roll(const rules_move_ctx *c, rules_unit_report *ur);

/* ---- rules_move_table.c ---- */
void rules_move_check_eligible(const rules_move_ctx *c, rules_unit_report *ur);
void rules_move_check_march_test(const rules_move_ctx *c, rules_unit_report *ur);
void rules_move_check_spacing(const rules_move_ctx *c, rules_unit_report *ur);

#endif
