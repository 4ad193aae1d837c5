/*
 * army_catalogue: an army's data, BSData's game system and catalogues
 * (.gst/.cat XML, or .gstz/.catz zipped), used to complete a list that lacks
 * rates or base sizes (New Recruit's text lists never carry them).
 *
 * How to use:
 *   const char *paths[] = {"t9a/"};                      // files or folders of .gst/.cat
 *   army_catalogue *c = army_catalogue_load(paths, 1, &err);
 *   if (!c) { fprintf(stderr, "%s\n", err.msg); return 2; }
 *   army_fill_report rep;
 *   army_file_fill(f, c, &rep);                           // missing values from the data
 *   army_catalogue_free(c);
 *
 * Entries are found by name (a unit's name as the list writes it, then
 * without a trailing "(...)", then an alias or the name a unit had in an
 * older version of its army book: armylist/army_renames.def, with its
 * source; then its spelling), in the catalogues whose name starts with the
 * army's name when any does, else in all of them. A name found otherwise
 * than exactly is said under the unit with how ("renamed since Dread Elves
 * 2020; armylist/army_renames.def, BSData caff6e9"). Entries of the same name
 * that disagree fill nothing: the unit stays flagged ("ambiguous").
 * A character's mount is found among its options by name. Ids are read
 * only to resolve the data files' own category and entry links. A unit's
 * listed points are checked against the range its model count allows by
 * the data's costs (army_costs.h): a line that cannot be made is said.
 */
#ifndef ARMY_CATALOGUE_H
#define ARMY_CATALOGUE_H

#include <stddef.h>

#include "army_list.h"

typedef struct army_catalogue army_catalogue;

/* Each path a .gst/.cat/.gstz/.catz file or a folder of them. NULL with a message naming the file. */
army_catalogue *army_catalogue_load(const char *const *paths, size_t n, base_error *err);
void army_catalogue_free(army_catalogue *c);
/* Files loaded and selection entries indexed. */
size_t army_catalogue_files(const army_catalogue *c);
size_t army_catalogue_entries(const army_catalogue *c);
/* "Warriors of the Dark Gods 2024 (2nd-warriorsOfTheDarkGods.cat)" for file i. */
const char *army_catalogue_file_name(const army_catalogue *c, size_t i);

typedef struct army_fill_report {
    int units_filled;       /* units that gained at least one value */
    int units_not_found;    /* units no entry is named after */
    int units_ambiguous;    /* units whose entries disagree */
    int units;              /* every unit looked at */
    int units_complete;     /* units with nothing missing afterwards */
    int units_incomplete;   /* units still missing a value afterwards (found or not): these are asked for */
    int units_points_checked; /* units whose listed points were checked against their model count */
    int units_points_misfit;  /* ... and could not be made from it (army_unit.points_misfit, said) */
    char points_data[256];    /* the data file of the first that could not: "Orcs and Goblins 2024 (2nd-....cat)" */
    int points_data_more;     /* ... and others came from other files (a pack of several armies) */
} army_fill_report;

/* Fills what every unit of every army still misses; `rep` may be NULL. */
void army_file_fill(army_file *f, const army_catalogue *c, army_fill_report *rep);
/* The same for list `only` of the file (a pack's chosen list; -1 every list): `rep` counts its units only. */
void army_file_fill_list(army_file *f, long only, const army_catalogue *c, army_fill_report *rep);

#endif
