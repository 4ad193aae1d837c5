/*
 * vis_units: units rebuilt from the models the camera placed, with every
 * unseen model inferred.
 *
 * From 1.4 m, figures lean over their neighbours' tags, so most frames lose
 * a good share of tags: inference is the normal path, not an edge case. An
 * unseen model is placed, in order of preference,
 *   1. from a prior snapshot (the previous frame, when a tracker has one):
 *      its old position moved by the rigid motion its seen unit-mates made;
 *   2. from its unit's formation fitted to the seen models: facing from
 *      their mean, pitches measured when two files/ranks are seen (else the
 *      base size), the roster's listing order giving each model's slot, and
 *      rules_formation_slot_position() giving the board position;
 *   3. from the formation fitted to roughly seen models (partly hidden
 *      tags) when the unit has no cleanly seen model;
 *   4. from the prior position alone when no unit-mate was seen.
 * Inferred models carry `inferred = true` in the snapshot.
 *
 * How to use:
 *   vis_seen_model seen[roster->n_models];   // .seen, .pos, .facing per roster model
 *   rules_snapshot *s = NULL;
 *   vis_units_build(roster, seen, prior_or_NULL, &s, &report, &err);
 *   ... rules_snapshot_free(s);
 */
#ifndef VIS_UNITS_H
#define VIS_UNITS_H

#include <stdbool.h>

#include "rules_error.h"
#include "rules_snapshot.h"
#include "vis_report.h"
#include "vis_roster.h"

typedef struct vis_seen_model {
    bool seen;
    /* A tag read but with corners off its square (partly hidden): its
     * position is only good to a millimetre or two. Used, with seen false,
     * only for a unit that has no cleanly seen model at all. */
    bool rough;
    rules_vec2 pos;   /* base centre, mm */
    double facing;    /* rad */
} vis_seen_model;

/* Builds *out (caller frees) from one entry per roster model. Returns 0 or -1. */
int vis_units_build(const vis_roster *r, const vis_seen_model *seen, const rules_snapshot *prior,
                    rules_snapshot **out, vis_report *rep, rules_error *err);

#endif
