/*
 * army_node: one node of a roster tree (army_tree.h builds them; army_costs.h
 * adds the data files' costs) and reading its profiles. Internal to armylist/.
 *
 * How to use:
 *   const char *adv = army_node_char(n, "Adv");        // the node's own profiles, case-insensitive
 *   const char *h = army_node_find_char(n, "Height");  // then its descendants, a mount's skipped
 *   if (army_node_is_model(k) && army_node_base_char(k)) ...
 *   if (army_node_is_character(n)) ...
 *
 * It owns nothing: the tree (army_tree_free) frees the nodes.
 */
#ifndef ARMY_NODE_H
#define ARMY_NODE_H

#include <stddef.h>

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

/* The value of characteristic `name` (case-insensitive) in the node's own profiles, or NULL. */
const char *army_node_char(const army_node *n, const char *name);
/* True when the node or its profiles say "character" (category, or Type). */
int army_node_is_character(const army_node *n);
/* First value of characteristic `name` in n, then in its model descendants (a mount's are not taken by accident). */
const char *army_node_find_char(const army_node *n, const char *name);
/* Its own "Base" (or "Base Size") characteristic, or NULL. */
const char *army_node_base_char(const army_node *n);
/* A selection of type "model" or "crew". */
int army_node_is_model(const army_node *n);

#endif
