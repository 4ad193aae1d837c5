/*
 * army_entry: one entry of a text list, put together from its lines, into
 * its units (internal to armylist/, used by army_text): "[N x] [COUNT]
 * NAME, OPTION, ..." with its cost. "3 x 10 Corsairs" and "2x1 Feldrak
 * Elder" are three (two) units; a count may be glued to the name
 * ("15Warriors") or written among the options as BattleScribe's text does
 * ("Warriors [620pts]: 20x Warriors, Great Weapon"); a count no T9A unit
 * reaches is read and said (ARMY_PLAUSIBLE_MODELS). Everything assumed is
 * said under the unit.
 *
 * How to use:
 *   army_entry e = {.army = 0, .line = 7, .cost = 660};
 *   snprintf(e.body, sizeof e.body, "15 Warriors, FC");
 *   if (army_entry_build(file, &e, "pack.txt", &err) < 0) ... err names the file and line ...
 */
#ifndef ARMY_ENTRY_H
#define ARMY_ENTRY_H

#include <stdbool.h>

#include "army_list.h"

/* More models than any T9A unit fields (the largest hold 60-80): read, and said. */
#define ARMY_PLAUSIBLE_MODELS 100

typedef struct army_entry {
    size_t army;         /* the list it belongs to (index into the file's armies) */
    int line, last_line; /* its first and last line in the text (a wrapped entry spans several) */
    int cost;            /* its points, 0 when the layout gives none */
    bool cost_last;      /* the cost was written after the entry */
    bool open_end;       /* its last line ends mid-entry ("Standard Bearer,", "Rune of"): the next continues it */
    const char *guess;   /* a reading army_lines had to assume, or NULL */
    char said[256];      /* how its lines were put together ("lines 5-6 read as one entry"), "" none */
    char body[1024];     /* "[COUNT] NAME, OPTIONS" */
} army_entry;

/* The entry's units into its list. -1 with err naming the file and the line (a count out of range, no name). */
int army_entry_build(army_file *f, const army_entry *e, const char *name, base_error *err);
/* Does a line end mid-entry: a comma, an opening bracket, a dash or "and", "of", "with", "the" last? */
bool army_entry_open_end(const char *line);

#endif
