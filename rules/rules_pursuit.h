/*
 * rules_pursuit: the Pursuit Move (seed 003) predicted from the table after
 * the Flee moves, and compared with where the players put the units.
 *
 * The prediction follows the seed's three steps for each Pursuing unit:
 *   1 Pivot about the unit's centre to the Pursued unit's direction. Then, the
 *     uppermost that applies: the Front Facing overlaps the Board Edge (pursue
 *     off the board) / an enemy Unit Boundary (Charge: placed in base contact,
 *     aligned, in the Facing it was located in before the Pivot, maximising
 *     engaged models and keeping the centre closest to its start) / an
 *     obstruction (pivot only as far as Unit Spacing allows, then stop).
 *   2 Forward Ahead: the first obstacle in the rectangle swept by the Front
 *     Facing over the rolled distance decides: Board Edge (move to it, pursue
 *     off), enemy (Charge within the roll, else treat it as an obstruction),
 *     obstruction or nothing (move the roll, stopping at an obstruction).
 *   3 Legal Position: no contact with units it did not charge and Unit Spacing
 *     kept (friendly units of the combat included), else backtrack along the
 *     move to the last legal position.
 * Obstructions: impassable terrain, enemy units that fled from the combat of
 * the pursuers, friendly units not in the combat; friendly units of the
 * combat (and the other pursuers) are open terrain in steps 1 and 2. Any
 * other enemy unit, Fleeing or not, is Charged; when the table does not say
 * which combat a Fleeing enemy fled from, the check judges both ways and
 * says "cannot tell" when the call depends on it. A Charge in step 2 is a
 * Charge Move: forward, one wheel of at most the ruleset's charge wheel,
 * forward, the Front touching the Facing (a corner first, then aligned about
 * it), all within the roll. Chargers move first, in the order that
 * brings most chargers and then most models into contact (every order of up
 * to 5 chargers is tried); the others follow in the given order.
 *
 * Codes: PU-POSITION (a model is farther than the tolerance from where the
 * prediction puts it), PU-OFF-BOARD (the unit should have pursued off the
 * board but is still on it), PU-MISSING (the unit left the table but should
 * not have).
 *
 * How to use:
 *   rules_pursuer p[] = {{"knights", base_in_to_mm(7), false}};
 *   rules_pursuit_input in = {.pursuers = p, .n_pursuers = 1, .pursued_heading = h,
 *                             .tolerance_mm = 10};
 *   rules_pursuit_prediction pred[1];
 *   rules_pursuit_predict(before, &in, pred, &err);          // the prediction alone, or
 *   rules_pursuit_check(before, after, &in, &opt, &report, &err);
 *   rules_pursuit_prediction_clear(&pred[0]);
 */
#ifndef RULES_PURSUIT_H
#define RULES_PURSUIT_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "rules_move.h"
#include "rules_path.h"
#include "rules_report.h"
#include "rules_snapshot.h"
#include "rules_arcs.h"

typedef struct rules_pursuer {
    const char *unit_id;
    double distance_mm;      /* the rolled Pursuit Distance */
    bool post_combat_reform; /* it made a Post-Combat Reform in the previous Player Turn: enemies are obstructions */
} rules_pursuer;

/* A Fleeing enemy unit of unknown combat: which the prediction takes it for (the check tries both). */
typedef enum rules_pursuit_unknown {
    RULES_PURSUIT_UNKNOWN_OBSTRUCTION = 0, /* fled from this combat */
    RULES_PURSUIT_UNKNOWN_TARGET,          /* fled from another combat: Charged */
} rules_pursuit_unknown;

typedef struct rules_pursuit_input {
    const rules_pursuer *pursuers;
    size_t n_pursuers;
    double pursued_heading;       /* rad: the Pursued unit's facing (or the one it would have had) */
    const char *const *combat;    /* other friendly units of the same combat; NULL/0 when none */
    size_t n_combat;
    double tolerance_mm;          /* a model this far from the prediction is still accepted */
    /*
     * Seed 003, 2.2: only enemies that fled from the combat of the pursuers
     * are obstructions; any other enemy, Fleeing or not, is Charged. The
     * combat is `combat_id` (NULL or "": the first pursuer's `combat` in the
     * snapshot); enemies fled from it are those listed in `fled` and the
     * Fleeing units whose `combat` is it.
     */
    const char *combat_id;
    const char *const *fled;
    size_t n_fled;
    rules_pursuit_unknown unknown_fleeing;
} rules_pursuit_input;

/*
 * The Fleeing enemy units of the pursuers whose combat the inputs do not
 * tell (neither listed in `fled` nor with a `combat` in the snapshot, or no
 * combat known for the pursuers): written to `names` ("a, b"), counted.
 */
size_t rules_pursuit_unknown_fleeing(const rules_snapshot *before, const rules_pursuit_input *in, char *names,
                                     size_t cap);

typedef enum rules_pursuit_outcome {
    RULES_PURSUIT_OFF_BOARD = 0,  /* pursues off the board */
    RULES_PURSUIT_CHARGE,         /* declared a Charge and is placed in contact */
    RULES_PURSUIT_PIVOT_BLOCKED,  /* step 1: an obstruction stopped the pivot; no move ahead */
    RULES_PURSUIT_FORWARD,        /* moved forward (the roll, or up to an obstruction) */
    RULES_PURSUIT_BACKTRACKED,    /* step 3 moved it back to its last legal position */
} rules_pursuit_outcome;

const char *rules_pursuit_outcome_word(rules_pursuit_outcome o);

typedef struct rules_pursuit_prediction {
    char unit_id[RULES_ID_MAX];
    rules_pursuit_outcome outcome;
    int step;                     /* the step that decided it: 1, 2 or 3 */
    rules_pose start, pivoted, end; /* centre of the Front Facing and facing */
    double pivot_rad;             /* turn made (signed) */
    double forward_mm;            /* distance moved straight ahead after the pivot */
    char target[RULES_ID_MAX];    /* charged unit, "" when none */
    unsigned target_facing;       /* its Facing charged (RULES_ARC_*) */
    size_t engaged_models;        /* models of both units in contact after the charge */
    int order;                    /* position in the order units were moved (0 first) */
    base_vec2 *models;           /* predicted centre of each model, in the unit's model order */
    size_t n_models;
} rules_pursuit_prediction;

/* Frees the model positions and empties the prediction. */
void rules_pursuit_prediction_clear(rules_pursuit_prediction *p);

/*
 * Predicts every pursuer of `in` on `before`. `out` has in->n_pursuers
 * entries, in the same order as the pursuers. Returns 0, or -1 for input
 * that cannot be judged (unknown unit, a pursuer without models).
 */
int rules_pursuit_predict(const rules_snapshot *before, const rules_pursuit_input *in,
                          rules_pursuit_prediction *out, base_error *err);

/* The prediction compared with `after`, one unit report per pursuer. */
int rules_pursuit_check(const rules_snapshot *before, const rules_snapshot *after, const rules_pursuit_input *in,
                        const rules_check_options *opt, rules_report *out, base_error *err);

#endif
