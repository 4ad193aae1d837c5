/*
 * rules_combat: Combat Reforms (seed 001), checked on the table before and
 * after all the reforms of a combat.
 *
 * Contacts, engagements and Facings come from geometry (rules_contact).
 * Everything is checked on the final table, so several units reforming are
 * judged "at the end of all Combat Reforms", not one after another. Codes:
 *   CR-NOT-ENGAGED  the unit was in contact with no enemy
 *   CR-MULTI-FACING engaged in more than one of its Facings: may never reform
 *   CR-FILES        files changed by more than max_file_change
 *   CR-FORMATION / CR-RANKS-FILES  not a viable formation
 *   CR-CONTACT-COUNT fewer models in contact than before, of the reforming
 *                   unit or of a unit it was in contact with
 *   CR-ATTACHABLE   an Attachable Model (either side) in contact before is not after
 *   CR-NEW-CONTACT  contact with an enemy unit it was not in contact with
 *   CR-OVERLAP      overlaps another unit (Unit Spacing is otherwise ignored)
 *   CR-LOST-CONTACT no longer in contact with an enemy unit it was in contact with
 *   CR-FACING       in contact with a different Facing of an enemy unit
 *   CR-ALIGNED      not perfectly aligned (parallel and flush) with the enemy Facing
 * A note says when a Command Test was required (losing side, or engaged in
 * a Flank or the Rear).
 *
 * How to use:
 *   rules_combat_options co = {.losing_side = "blue"};   // reforming NULL: every engaged unit that moved
 *   rules_combat_reform_check(before, after, &opt, &co, &report, &err);
 */
#ifndef RULES_COMBAT_H
#define RULES_COMBAT_H

#include <stddef.h>

#include "base_error.h"
#include "rules_move.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef struct rules_combat_options {
    const char *losing_side;       /* side that lost the combat; NULL when unknown or a draw */
    const char *const *reforming;  /* ids of the units that reform; NULL: every engaged unit that moved */
    size_t n_reforming;
} rules_combat_options;

/* Returns 0 with the verdict in `out`, -1 for input that cannot be judged (unknown unit). */
int rules_combat_reform_check(const rules_snapshot *before, const rules_snapshot *after,
                              const rules_check_options *opt, const rules_combat_options *co, rules_report *out,
                              base_error *err);

#endif
