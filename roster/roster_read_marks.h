/*
 * roster_read_marks: a unit's `marks` (roster.h, roster_unit_mark: masts)
 * read and checked for roster_read.c, each field through the shared field
 * readers so an error names the file's field ("units[2].marks[0].height_mm:
 * 300 is out of range"). Internal to roster/.
 *
 * How to use (roster_read.c, after the unit's models are read; r->marks has
 * room for every mark of the file):
 *   if (roster_read_marks(r, ju, "units[2]", u, codes, &err) < 0) return -1;
 */
#ifndef ROSTER_READ_MARKS_H
#define ROSTER_READ_MARKS_H

#include <cjson/cJSON.h>

#include "roster.h"

/* Unit u's marks (the unit being read: index r->n_units, its models read) appended to r->marks; `codes`: the
 * family's code count. 0, or -1 with err naming the field. */
int roster_read_marks(roster_file *r, const cJSON *ju, const char *where, const roster_unit *u, int codes,
                      base_error *err);

#endif
