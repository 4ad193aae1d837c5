/*
 * Test fixtures: snapshots built from formations and paths, so every
 * assertion compares against an exact answer.
 */
#ifndef TABLEREF_TEST_FIXTURES_H
#define TABLEREF_TEST_FIXTURES_H

#include "rules_formation.h"
#include "rules_path.h"
#include "rules_snapshot.h"

#define FX_BOARD_W 1828.8 /* 72" */
#define FX_BOARD_D 1219.2 /* 48" */

/* A unit in a regular block, its Front Facing centred on pose.front_centre. */
rules_unit *fx_block(rules_snapshot *s, const char *id, const char *side, double base_mm, int files, int n_models,
                     rules_pose pose, double advance_in, double march_in);

/* Adds to `after` the same unit as `u` carried along `path` (positions move rigidly). */
rules_unit *fx_moved_copy(rules_snapshot *after, const rules_unit *u, rules_pose start, const rules_path *path);

/* The same unit translated by `d` and turned by `angle` about its front centre. */
rules_unit *fx_shifted_copy(rules_snapshot *after, const rules_unit *u, rules_pose start, base_vec2 d, double angle);

/* A path from a list of (kind, inches moved, degrees turned). */
rules_path fx_path(size_t n, const rules_step *steps);

/* A wheel that moves the outer front corner `inches` for a unit `front_mm` wide. */
rules_step fx_wheel(rules_step_kind kind, double inches, double front_mm);
rules_step fx_forward(double inches);

/*
 * The three wheel examples of seed 004 (Moving Units), figure a, b and c:
 * before and after snapshots with one unit, "regiment". Caller frees both.
 */
void fx_seed_wheel_example(char figure, rules_snapshot **before, rules_snapshot **after);

#endif
