/*
 * army_rates: a unit's Advance and March Rates from its profiles: a fixed
 * rate, a mount's, a roll of dice (random movement), or "-" (no March Rate).
 * Internal to armylist/ (army_tree_profile_fill uses it).
 *
 * How to use:
 *   army_rates_fill(u, &u->adv_in, u->adv_dice, "Adv", mount, n);  // mount: NULL when none
 *   army_rates_fill(u, &u->mar_in, u->mar_dice, "Mar", mount, n);
 */
#ifndef ARMY_RATES_H
#define ARMY_RATES_H

#include "army_list.h"
#include "army_node.h"

/* One rate ("Adv" or "Mar") from n's profiles, a mount's first: *rate when fixed, `dice` when a roll of dice
 * (random movement, said under the unit), u->mar_none for "Mar -"; else why in u->note. Nothing when the unit has
 * it already. */
void army_rates_fill(army_unit *u, double *rate, char *dice, const char *word, const army_node *mount,
                     const army_node *n);

#endif
