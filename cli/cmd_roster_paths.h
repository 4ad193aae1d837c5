/*
 * cmd_roster_paths: the rosters one `tableref roster import` writes, named and planned before any is written.
 *
 * --out itself for one list; OUT.1.json and OUT.2.json for a file of two lists; DIR/NN-player.json (as army 2:
 * DIR/NN-player.army2.json) for every list of a pack with --all. Each is planned as an output of the command
 * (base/base_plan.h) in place of what the option table planned for --out, and the plan is checked: a roster that
 * would land on the list read, a catalogue or another roster is refused before any is written.
 *
 * How to use:
 *   char (*paths)[CMD_ROSTER_PATH_MAX] = calloc(f->n_armies, sizeof *paths);
 *   if (cmd_roster_paths(f, out, pick, all, several, slot, paths) < 0) return EXIT_BAD_INPUT;   // said on stderr
 *   ... write list a to paths[a] (every a, or only `pick` when pick >= 0) ...
 */
#ifndef CMD_ROSTER_PATHS_H
#define CMD_ROSTER_PATHS_H

#include "army_list.h"

#define CMD_ROSTER_PATH_MAX 4096

/* The path of list a into paths[a] for each list written (pick >= 0: that one only; several: a two-list file's
 * numbered names; all: a pack's folder; slot: the army slot given, 0 for the default), planned and checked. 0, or
 * -1 with the message printed. */
int cmd_roster_paths(const army_file *f, const char *out, long pick, int all, int several, double slot,
                     char (*paths)[CMD_ROSTER_PATH_MAX]);

#endif
