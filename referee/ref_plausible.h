/*
 * ref_plausible: is a judged pair of pictures plausible as a move? When
 * every unit that moved went backwards (its centre, by more than half an
 * inch, behind both its facing in BEFORE and its facing in AFTER), the two
 * pictures were most likely given the other way round: `referee` makes no
 * call then and says so (docs/setup-checks.md).
 *
 * How to use:
 *   size_t moved = 0;
 *   if (ref_plausible_all_backwards(before, after, &moved))
 *       "every unit that moved (%zu) went backwards: were BEFORE and AFTER given the other way round?"
 */
#ifndef REF_PLAUSIBLE_H
#define REF_PLAUSIBLE_H

#include <stdbool.h>
#include <stddef.h>

#include "rules_snapshot.h"

/* A unit whose centre moved less than this (mm) did not move, for this test. */
#define REF_PLAUSIBLE_MOVED_MM 12.7

/* True when at least one unit moved and every unit that moved went backwards; *moved (optional) counts them. */
bool ref_plausible_all_backwards(const rules_snapshot *before, const rules_snapshot *after, size_t *moved);

#endif
