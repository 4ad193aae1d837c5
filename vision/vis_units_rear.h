/*
 * vis_units_rear: where an incomplete rear rank stands, read from the
 * picture. The rules let a rear rank not full stand left, right, centred or
 * with gaps, and vis_formation keeps each placement the models read allow,
 * centred first. A base whose mark was not read is often still there to be
 * seen in part: its rim label's corner blocks at the rank's outer edge. Each
 * place a kept placement puts a rear-rank model is looked at once
 * (vis_units_options.base_seen); a placement that leaves empty a place where
 * a base is seen is contradicted by the picture. The placements are ordered
 * again: those the picture does not contradict first, the ones with most of
 * their rear places seen first among them, else in vis_formation's order;
 * the contradicted ones last. Where the first ones tie (as many places seen
 * filled, alike contradicted or not), the places where no base is seen are
 * asked for less (options.base_hint: one corner block, none contradicted; a
 * hint alone is no evidence of a base, a neighbour's code cells show one by
 * chance): the one filling most hinted places and leaving fewest empty goes
 * first, a tie stays. None is dropped: a base not seen may be under
 * a figure or a hand, so the picture only reorders what the models read
 * allowed, and every call still holds under every kept placement (with
 * options.base_at given, it is asked instead of base_seen: the same answer;
 * how far off the place the mark was located is said under
 * TABLEREF_DEBUG_PLACED). Where the picture leaves more than one placement,
 * the first one's inferred models are not placed as if certain: each one's
 * sigma holds every place the others allow it, within two sigma
 * (vis_units_rear_spread).
 * Where the fit leaves the inferred places loose (a unit placed from one or
 * two masts: pitches and heading extrapolated over several files), the
 * bases seen at those places (options.base_at: where their corner blocks
 * put them) are measurements of the grid: the formation is fitted again on
 * them, a base off its slot on the new grid dropped (vis_units.c,
 * vis_units_rear_locate); their models stay inferred, their IDs unread.
 * Part of vis_units (not the vision library's interface).
 *
 * How to use (vis_units.c, after vis_formation_infer):
 *   size_t allowed;
 *   vis_units_rear_settle(opt, first_model, n_models, &res, &allowed);   // res.placements[0] the likeliest again
 *   sigma_k = fmax(sigma_k, vis_units_rear_spread(&res, allowed, k) / 2);  // every allowed place within 2 sigma
 * and before it, where the fit is loose (a unit placed from a mast or two):
 *   if (vis_units_rear_locate(opt, first_model, n_models, &res, fm, located) >= 2) ... fit fm again
 */
#ifndef VIS_UNITS_REAR_H
#define VIS_UNITS_REAR_H

#include <stddef.h>

#include "vis_formation_types.h"
#include "vis_units.h"

/* Reorders res's placements by what opt->base_seen (or base_at; base_hint for a tie) shows at their rear places (roster model `first_model` names the
 * unit's mark); *allowed (may be NULL) gets how many placements, first in the new order, the picture does not
 * contradict (all of them when nothing was asked or seen; 0 when it contradicts every one). Returns 1 when the first
 * placement changed, 0 when not (nothing asked, nothing seen, or the picture agrees), -1 when out of memory. */
int vis_units_rear_settle(const vis_units_options *opt, size_t first_model, size_t n_models,
                          vis_formation_result *res, size_t *allowed);

/* How far model k of res's first placement stands from where any other of the first `allowed` placements puts it
 * (mm; 0 when no other places it): what its sigma must hold while the evidence allows them all. */
double vis_units_rear_spread(const vis_formation_result *res, size_t allowed, size_t k);

/* A unit's fit leaves an inferred place loose when its slot sigma exceeds this (mm): a unit placed from one or two
 * masts, its pitches not measured (minis 12 MP: every model placed 1.5 mm or more off was so). */
#define VIS_UNITS_LOOSE_FIT_MM 1.0

/* Where res's first placement leaves an inferred place loose, each of its inferred places (not an incomplete rear
 * rank's while more than one placement is kept) is looked at (opt->base_at); a base seen there turns fm[k] into a
 * rough measurement at the base's measured centre, located[k] set, for the formation to be fitted again on. Returns
 * how many were located (0 when nothing was asked or nothing loose). */
size_t vis_units_rear_locate(const vis_units_options *opt, size_t first_model, size_t n_models,
                             const vis_formation_result *res, vis_formation_model *fm, bool *located);

#endif
