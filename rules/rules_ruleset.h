/*
 * rules_ruleset: the numbers of a rules edition, as data.
 *
 * Every distance a rule mentions lives here, not in code: the March Test
 * radius, Unit Spacing, how far a backward step may go, how a wheel is
 * measured. A snapshot names its ruleset ("ruleset": "t9a-2ed") and may
 * override single values (see docs/formats.md). Millimetres and radians.
 *
 * How to use: rules_ruleset_find("t9a-2ed") returns a pointer into a static
 * table (never free it); copy it into a snapshot to override a value.
 */
#ifndef RULES_RULESET_H
#define RULES_RULESET_H

#include <stdbool.h>
#include <stddef.h>

#define RULES_NAME_MAX 64

typedef enum rules_wheel_measure {
    RULES_WHEEL_ARC = 0, /* distance along the outer front corner's arc (project default) */
    RULES_WHEEL_CHORD,   /* straight line between the outer corner's start and end */
} rules_wheel_measure;

typedef struct rules_ruleset {
    char name[RULES_NAME_MAX];
    const char *title;

    /* Moving Units (seed 004) */
    double march_test_radius_mm;    /* enemy within this of the unit boundary: March Test */
    double unit_spacing_mm;         /* minimum gap to other units / impassable terrain at move end */
    double unit_spacing_during_mm;  /* minimum gap while moving (paths, mid-move placement) */
    double backward_fraction;       /* backward Advance: this fraction of the Advance Rate */
    double sideways_fraction;       /* sideways Advance: this fraction of the Advance Rate */
    rules_wheel_measure wheel_measure;
    double wheel_chord_max_rad;     /* chord convention: a longer wheel is split into equal parts */
    bool single_model_free_pivot;   /* single-model units pivot for free when moving */

    /* Formations */
    int max_file_change;            /* Reform Move / Combat Reform: files may change by this much */
    bool ranks_at_most_files;       /* no more ranks than files unless wide enough for a Proper Rank */
    int proper_rank_width;          /* models of standard height making a Proper (Full) Rank */
    int proper_rank_width_large;    /* ... of Large height (Height from height_large_from) */
    int proper_rank_width_gigantic; /* ... of Gigantic height (Height from height_gigantic_from) */
    int height_large_from;          /* Height classes [B]: 0-2 standard, 3-4 large, 5 gigantic */
    int height_gigantic_from;

    /* Contact (Combat Reforms, Pursuit) */
    double contact_tolerance_mm;    /* bases this close count as touching */
    double alignment_tolerance_rad; /* facings this close to parallel count as aligned */
    double charge_max_wheel_rad;    /* a Charge Move may make one wheel of at most this (Pursuit charges) */

    /* Dynamic Formations (seed 002) */
    int formation_min_models;       /* a formation needs at least this many identical models */
    double formation_widen_max_mm;  /* Widen: at most this far apart */
    double formation_adjust_cost_mm;/* Tighten or Widen costs this much movement */
    /* The seed's rule says a WILL Test is needed against a formation "greater" than the WILL, its
     * example (Goblin WILL 3 vs 3 models) needs one at equal numbers too: true follows the example. */
    bool formation_will_test_at_equal;
} rules_ruleset;

/* The ruleset used when a snapshot names none. */
#define RULES_DEFAULT_RULESET "t9a-2ed"

/* Built-in ruleset by name, or NULL. The pointer refers to static storage. */
const rules_ruleset *rules_ruleset_find(const char *name);
/* The i-th built-in ruleset, or NULL past the end (for listing). */
const rules_ruleset *rules_ruleset_at(size_t i);

#endif
