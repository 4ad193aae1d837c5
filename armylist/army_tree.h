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
 * A node is a roster, force, selection, or (in a data file) a selection
 * entry; its profiles keep only characteristic names and values. Matching
 * is by those names, never by ids.
 */
#ifndef ARMY_TREE_H
#define ARMY_TREE_H

#include <stddef.h>

#include "army_list.h"

typedef struct army_char {
    char *name, *value;
} army_char;

typedef struct army_profile {
    char *name, *type_name;
    army_char *chars;
    size_t n_chars;
} army_profile;

typedef enum army_node_kind {
    ARMY_NODE_ROSTER = 0,
    ARMY_NODE_FORCE,
    ARMY_NODE_SELECTION,  /* roster selection, or a data file's selectionEntry */
    ARMY_NODE_GROUP,      /* a data file's selectionEntryGroup */
    ARMY_NODE_LINK,       /* a data file's entryLink (extra: its targetId, resolved inside the data files) */
    ARMY_NODE_CATEGORY,   /* a data file's categoryEntry (extra: its id) */
    ARMY_NODE_OTHER,      /* a container (catalogue, sharedSelectionEntries, ...) */
} army_node_kind;

typedef struct army_node {
    army_node_kind kind;
    char *name;
    char *type;           /* "unit", "model", "upgrade", "crew"; "" when absent */
    int number;           /* roster selections: how many; 1 when absent; -1 when not a count (number_why says why) */
    const char *number_why; /* a static phrase ("not a whole number"), NULL when number is good */
    char *extra;          /* force: catalogueName; roster: gameSystemName; data file: its name */
    army_profile *profiles;
    size_t n_profiles;
    char **categories;    /* category names; a data file's categoryLink also adds "#targetId" */
    size_t n_categories;
    struct army_node *children;
    size_t n_children;
    /* Data files only (army_costs.c reads them; 0 / -1 elsewhere): the entry's points (its "pts" cost; the lowest
     * and highest a "set" modifier can make it), what its "increment" modifiers add for each selection they repeat
     * over (a model) and once, and how many times it may be taken (constraint on "selections" in its parent). */
    double cost_lo, cost_hi, add_per_model, add_once;
    int has_cost;         /* it gives a "pts" cost (a link's own cost replaces its target's) */
    int min_sel, max_sel; /* -1: no such constraint */
} army_node;

void army_tree_free(army_node *n);

/* From a libxml2 element (xmlNode *), any of the roster and data file schemas. NULL when out of memory. */
army_node *army_tree_from_xml(const void *xml_root);
/* From New Recruit's JSON roster ({"roster": {...}} or the roster object). NULL when out of memory. */
army_node *army_tree_from_json(const void *cjson_root);

/* The units of a roster tree, appended to `list` (forces in order, nested forces included). */
int army_tree_units(const army_node *roster, army_list *list, base_error *err);

/* The value of characteristic `name` (case-insensitive) in the node's own profiles, or NULL. */
const char *army_node_char(const army_node *n, const char *name);
/* True when the node or its profiles say "character" (category, or Type). */
int army_node_is_character(const army_node *n);
/*
 * Fills the unit's rates, Height, Type and, for groups without a base, the
 * base, from the profiles of `n` and its descendants (a mount's profile
 * wins over the rider's). `origin` records where they came from. Values the
 * unit already has are kept.
 */
void army_tree_profile_fill(const army_node *n, army_unit *u, army_origin origin);
/* First value of characteristic `name` in n, then in its model descendants (a mount's are not taken by accident). */
const char *army_node_find_char(const army_node *n, const char *name);
/* One rate ("Adv" or "Mar") from n's profiles, a mount's first (army_rates.c): *rate when fixed, `dice` when a roll
 * of dice (random movement, said under the unit), u->mar_none for "Mar -"; else why in u->note. Nothing when the
 * unit has it already. */
void army_tree_fill_rate(army_unit *u, double *rate, char *dice, const char *word, const army_node *mount,
                         const army_node *n);

#endif
