/*
 * army_names: names as players write them against the names the army's data
 * uses (internal to armylist/). Editions rename units, mounts and options;
 * players abbreviate, pluralise and mistype. Every match that is not exact is
 * reported by the caller ("Winged Chimera -> Chimera"), never applied silently.
 *
 * How to use:
 *   const char *to = army_names_alias("Winged Chimera");          // "Chimera", or NULL
 *   const army_rename *r = army_names_renamed("Dread Elves", "Repeater Auxiliaries");  // -> "Silexian Auxiliaries"
 *   army_names_key("King's Guards", key, sizeof key);             // "kingsguard": case, spaces, plural gone
 *   int d = army_names_distance("Clan Warriers", "Clan Warriors", 3);  // 1 (edits; 4 when over the limit)
 *   army_names_contains("Lasse Lindström", "lindstrom")             // true: case and accents ignored
 */
#ifndef ARMY_NAMES_H
#define ARMY_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* The data's name for an old or variant name (the table in army_names.c), or NULL. */
const char *army_names_alias(const char *name);

/* A unit renamed between versions of its army book (a row of army_renames.def, with its source). */
typedef struct army_rename {
    const char *army, *old, *now;  /* "Dread Elves", "Repeater Auxilliaries", "Silexian Auxiliaries" */
    const char *book, *commit;     /* the version that last used the old name, and its BSData commit */
} army_rename;
/*
 * The renaming of `name` for `army` ("" or NULL: any army's): its old name exactly (case ignored), or within one
 * edit of its key for names of eight letters or more (a list's own spelling: "Repeater Auxiliaries" of BSData's
 * "Repeater Auxilliaries"). NULL when no row has it.
 */
const army_rename *army_names_renamed(const char *army, const char *name);
/* Lower case, letters and digits only, a final plural "s" dropped: equal keys are the same name. */
void army_names_key(const char *name, char *out, size_t cap);
/* A name to compare as people read it: lower case, the accents of Latin letters gone ("Lindström" and
 * "lindstrom" fold alike; "ß" -> "ss", "æ" -> "ae"), other characters kept. Always terminated. */
void army_names_fold(const char *name, char *out, size_t cap);
/* Does `part` (folded) occur in `name` (folded)? "lindstrom" in "Lasse Lindström". */
bool army_names_contains(const char *name, const char *part);
/* Edit distance between two keys, or limit + 1 when it is over `limit` (bounded work: names are short). */
int army_names_distance(const char *a, const char *b, int limit);

#endif
