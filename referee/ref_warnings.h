/*
 * ref_warnings: the detection's warnings for people, as every program
 * prints them (ref_snapshot_print_warnings says a reading's): one
 * "PREFIXwarning: MESSAGE" line each, a unit read in part said once in the
 * rules' words its call uses.
 *
 * How to use:
 *   ref_warnings_print(roster, snap, &report, "after", stderr, "tableref referee: ");
 */
#ifndef REF_WARNINGS_H
#define REF_WARNINGS_H

#include <stdio.h>

#include "roster.h"
#include "rules_snapshot.h"
#include "vis_report.h"

/* The detection's warnings of `rep` for people, as ref_snapshot_print_warnings says them (ref_snapshot.h). */
void ref_warnings_print(const roster_file *roster, const rules_snapshot *snap, const vis_report *rep,
                        const char *picture, FILE *out, const char *prefix);

#endif
