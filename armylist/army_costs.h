/*
 * army_costs: what the army's data (BSData .cat/.gst) says a unit can cost
 * for a number of models, so that a list's points can be checked against
 * its model count (internal to armylist/; army_catalogue uses it).
 *
 * How to use (inside armylist/):
 *   army_costs_from_xml(xml_element, node);        // army_tree: every entry, group and link keeps its costs
 *   army_cost_index *ix = army_cost_index_new();
 *   army_cost_index_add(ix, file_tree);            // each data file: entries and groups by id, for links
 *   army_cost_index_sort(ix);
 *   army_cost_range r;
 *   army_cost_range_of(unit_entry, 15, ix, &r);    // 15 models
 *   if (!army_cost_fits(&r, 660)) ... "660 points, but 15 models cost r.lo..r.hi"
 *   army_costs_check(hits, n, ix, unit, true);        // a list's unit against its entries: said when it does not fit
 *   army_cost_index_free(ix);
 *
 * The range is a bound, not a price: the least is the unit's own cost, its
 * models at the cheapest model's cost and every option that lowers a cost;
 * the most is its models at the dearest model's cost plus every option at
 * its dearest, each taken as often as the data allows (a group of options
 * as often as the group allows, at its dearest option). An option the data
 * lets be taken without a limit makes the most unknown (INFINITY): then
 * only the least is checked. Conditions on options are not evaluated, so a
 * list that fits is not proven legal; a list that does not fit cannot be
 * made from the data's costs. Constraints raised by modifiers are not
 * followed (a maximum of 0 is taken as 1).
 */
#ifndef ARMY_COSTS_H
#define ARMY_COSTS_H

#include <stdbool.h>

#include "army_list.h"
#include "army_node.h"

/* Reads a data-file element's <costs> ("pts"), <modifiers> on that cost and <constraints> on its selections. */
void army_costs_from_xml(const void *xml_element, army_node *n);

typedef struct army_cost_index army_cost_index;
army_cost_index *army_cost_index_new(void);
/* Indexes every selection entry and group of `tree` by id; -1 when out of memory. */
int army_cost_index_add(army_cost_index *ix, const army_node *tree);
void army_cost_index_sort(army_cost_index *ix);
void army_cost_index_free(army_cost_index *ix);

typedef struct army_cost_range {
    double base;                       /* the unit entry's own cost (its lowest) */
    double per_model_lo, per_model_hi; /* its model entries' costs; 0 when it has none */
    bool per_model;                    /* the data prices models one by one (else the unit is one entry) */
    double lo, hi;                     /* the bounds for the count asked; hi INFINITY when unbounded */
} army_cost_range;

/* The range of points unit entry `unit` can cost with `models` models. -1 when the data gives no cost. */
int army_cost_range_of(const army_node *unit, int models, const army_cost_index *ix, army_cost_range *out);
/* Whether `points` lies in the range (to half a point: costs are whole points). */
bool army_cost_fits(const army_cost_range *r, int points);

/*
 * Checks u->points (for u->points_units units) against what entries `hits` (all of one name; the "unit" ones when
 * the name is also a model's) allow for u->models: sets u->points_lo/hi, and when it cannot be made sets
 * u->points_misfit and says it in u->said with the line, both figures and (`counts`: up to a thousand ranges
 * more, so the caller limits how many units get it) the model counts the points would fit.
 * 1 fits, 0 does not, -1 not checked (no points, no count, or no costs in the data).
 */
int army_costs_check(const army_node *const *hits, size_t n, const army_cost_index *ix, army_unit *u, bool counts);

#endif
