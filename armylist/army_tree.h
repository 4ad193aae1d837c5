/*
 * army_tree: the BattleScribe roster schema as a plain tree, whether it came
 * from XML (.ros, .rosz, and the .gst/.cat data files) or from New Recruit's
 * JSON. Internal to armylist/.
 *
 * How to use:
 *   army_node *root = army_tree_from_xml(doc_root);       // or army_tree_from_json(cjson)
 *   army_tree_units(root, list, &err);                     // a roster: its units into an army_list
 *   const army_node *e = ...; army_tree_profile_fill(e, unit);  // rates and bases from profiles
 *   army_tree_free(root);
 *
 * A node (army_node.h: the types and reading their profiles) is a roster,
 * force, selection, or (in a data file) a selection entry; its profiles
 * keep only characteristic names and values. Matching is by those names,
 * never by ids. A unit's rates come from army_rates.h.
 */
#ifndef ARMY_TREE_H
#define ARMY_TREE_H

#include <stddef.h>

#include "army_list.h"
#include "army_node.h"

void army_tree_free(army_node *n);

/* From a libxml2 element (xmlNode *), any of the roster and data file schemas. NULL when out of memory. */
army_node *army_tree_from_xml(const void *xml_root);
/* From New Recruit's JSON roster ({"roster": {...}} or the roster object). NULL when out of memory. */
army_node *army_tree_from_json(const void *cjson_root);

/* The units of a roster tree, appended to `list` (forces in order, nested forces included). */
int army_tree_units(const army_node *roster, army_list *list, base_error *err);

/*
 * Fills the unit's rates, Height, Type and, for groups without a base, the
 * base, from the profiles of `n` and its descendants (a mount's profile
 * wins over the rider's). `origin` records where they came from. Values the
 * unit already has are kept.
 */
void army_tree_profile_fill(const army_node *n, army_unit *u, army_origin origin);

#endif
