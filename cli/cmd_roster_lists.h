/*
 * cmd_roster_lists: a file of many lists (a tournament pack) as `tableref
 * roster import` shows and picks them (cli/ only).
 *
 * How to use:
 *   long pick;
 *   if (roster_choose_lists(f, list_arg, all, out, path, &pick) < 0) return 2;  // said on stderr
 *   printf("%s\n", roster_shown(name, 26, 0));                                   // a list's name on a terminal
 */
#ifndef CMD_ROSTER_LISTS_H
#define CMD_ROSTER_LISTS_H

#include <stddef.h>

#include "army_list.h"

/* A name from a list as the terminal shows it: controls and escapes as text ("\x1b"), cut to `width` bytes on a
 * character boundary (0: whole). Returns a static buffer per `slot` (0..2): up to three names per printf. */
const char *roster_shown(const char *name, size_t width, int slot);
/* Which lists to write: *pick the one of --list (a number, or part of a player's name, case and accents
 * ignored; else of an army's), -1 for all (--all, or a file of one or two lists). -1 with a message (and the
 * table of lists) when a pack is given without --list or --all, or --list matches none or several. */
int roster_choose_lists(const army_file *f, const char *list_arg, int all, const char *out, const char *path,
                        long *pick);

#endif
