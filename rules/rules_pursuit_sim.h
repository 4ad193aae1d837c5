/*
 * rules_pursuit_sim: the inside of rules_pursuit, shared by its files (not
 * part of the public API; include rules_pursuit.h to use the Pursuit).
 *
 *   rules_pursuit_sim.c     the table as a Pursuit sees it: roles, boxes,
 *                           gaps, the Front Facing swept ahead
 *   rules_pursuit_charge.c  a Charge: placed in base contact, aligned,
 *                           maximising contact; reached as a Charge Move
 *   rules_pursuit_step.c    one unit's Pursuit Move: the seed's three steps
 *   rules_pursuit.c         several pursuers: who charges, in which order
 *   rules_pursuit_check.c   the prediction against the after snapshot
 *
 * A pu_sim holds every unit of the before snapshot with its fitted
 * formation and current position (pursuers already moved have their end
 * position). Roles are set per pursuer by pu_assign_roles before it moves.
 *
 * How to use (inside the Pursuit's files): build the pu_sim from the before
 * snapshot, set a pursuer's roles with pu_assign_roles, move it one step at
 * a time (rules_pursuit_step.c), record its end position in the sim, then
 * compare the prediction with the after snapshot (rules_pursuit_check.c).
 */
#ifndef RULES_PURSUIT_SIM_H
#define RULES_PURSUIT_SIM_H

#include <stdbool.h>
#include <stddef.h>

#include "rules_formation.h"
#include "rules_pursuit.h"

typedef enum { PU_ENEMY, PU_OBSTRUCTION, PU_OPEN } pu_role;

typedef struct pu_unit {
    const rules_unit *u;
    rules_formation f;
    base_obb box;      /* current boundary (moved pursuers: their end position) */
    pu_role role;       /* for the pursuer being moved: set per pursuer */
    bool gone;          /* pursued off the board */
    bool pursuer;
    base_vec2 *pos;    /* current model centres */
} pu_unit;

typedef struct pu_sim {
    const rules_snapshot *s;
    const rules_pursuit_input *in;
    pu_unit *units;
    size_t n;
    double spacing;     /* Unit Spacing at the end of a move */
    double tol;         /* contact tolerance */
    const char *combat_id; /* the pursuers' combat, "" unknown */
} pu_sim;

/* The combat the pursuers come from: the input's, else the first pursuer's in the snapshot; "" unknown. */
const char *pu_combat_of(const rules_snapshot *s, const rules_pursuit_input *in);
/* Enemy `o` fled from the pursuers' combat: 1 yes, 0 no (Charged if met), -1 the table does not say. */
int pu_fled_from_combat(const rules_pursuit_input *in, const char *combat_id, const rules_unit *o);

typedef struct pu_placement {
    bool ok;
    rules_pose pose;
    size_t engaged;
    double centre_dist;
    size_t extra_enemies; /* other enemy units it would touch (Maximising Contact: as few as possible) */
} pu_placement;

/* ---- rules_pursuit_sim.c ---- */
bool pu_in_list(const char *id, const char *const *list, size_t n);
const rules_pursuer *pu_pursuer_of(const rules_pursuit_input *in, const char *id);
/* Roles for the pursuer `me`: enemies, obstructions, open terrain (seed 003, first paragraph). */
void pu_assign_roles(pu_sim *S, const pu_unit *me);
/* The boundary of `me` with its Front Facing's centre and facing at `p`. */
base_obb pu_box_at(const pu_unit *me, rules_pose p);
void pu_front_edge(const pu_unit *me, rules_pose p, base_vec2 *a, base_vec2 *b);
rules_pose pu_pose_of(const base_obb *box);
/* The segment ab reaches into `box` deeper than `tol` (touching does not count). */
bool pu_seg_hits_box(base_vec2 a, base_vec2 b, const base_obb *box, double tol);
bool pu_seg_hits_poly(base_vec2 a, base_vec2 b, const base_vec2 *poly, size_t n);
bool pu_front_off_board(const pu_sim *S, base_vec2 a, base_vec2 b);
double pu_box_gap(const base_obb *a, const base_obb *b);
double pu_box_poly_gap(const base_obb *a, const base_vec2 *poly, size_t n);
double pu_radius_of(const base_obb *b);
/*
 * Smallest gap from `box` to other units (all of them, or only the
 * obstructions and `extra`) and impassable terrain, skipping `skip`; gaps of
 * `need` or more are not computed exactly (the result is then >= need).
 */
double pu_gap_below(const pu_sim *S, const pu_unit *me, const base_obb *box, const pu_unit *skip,
                    bool obstructions_only, const pu_unit *extra, double need);
/* Step 3: no contact with units other than the target, Unit Spacing to every unit and impassable terrain. */
bool pu_legal_position(const pu_sim *S, const pu_unit *me, const base_obb *box, const pu_unit *target);
/* Model centres of `me` carried rigidly from its start pose to pose `p`. */
void pu_carry(const pu_unit *me, rules_pose p, base_vec2 *out);
/* The Facing of `target` the pursuer is located in (centre of its Front Facing), decided before moving. */
unsigned pu_located_facing(const pu_unit *me, const pu_unit *target);
/* Distance the Front Facing (a..b) can move along `dir` before touching the polygon/box/board edge. */
double pu_sweep_to_poly(base_vec2 a, base_vec2 b, base_vec2 dir, const base_vec2 *poly, size_t n);
double pu_sweep_to_box(base_vec2 a, base_vec2 b, base_vec2 dir, const base_obb *box);
double pu_sweep_to_edge(const pu_sim *S, base_vec2 a, base_vec2 b, base_vec2 dir);

/* ---- rules_pursuit_charge.c ---- */
/*
 * Front Facing in base contact with `target`'s `facing`, aligned, maximising
 * engaged models, then keeping the centre closest to `ref`; not overlapping
 * any other unit or impassable terrain, touching as few other enemy units
 * as possible. When `from`/`range` are given, the position must be reachable
 * as a Charge Move within `range`.
 */
pu_placement pu_place_in_contact(const pu_sim *S, const pu_unit *me, const pu_unit *target, unsigned facing,
                                 base_vec2 ref, const rules_pose *from, double range);

/* ---- rules_pursuit_step.c ---- */
/* One pursuer's Pursuit Move on the table as it stands. */
int pu_predict_one(pu_sim *S, pu_unit *me, const rules_pursuer *pu, const unsigned *facing_of,
                   rules_pursuit_prediction *pr);

#endif
