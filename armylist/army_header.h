/*
 * army_header: what the header lines of a list in a text pack say: the
 * army, the player and the list's total, in the orders and with the
 * separators organisers paste them (internal to armylist/, used by
 * army_text):
 *
 *   Lasse Lindström - Dwarven Holds          player, a dash, army
 *   Dwarven Holds - Lasse Lindström          army, a dash, player
 *   Lars Frencken Dwarven Holds              no separator, either order
 *   Oskar Ström - Warriors of the Dark Gods - 2110 points
 *   Warriors of the Dark Gods [2,045pts]     a total in brackets
 *   Vermin Swarm: Legio XII Fulminata        a list's own title after a colon (not a player)
 *   Kalle Järvinen                           a player's name on a line of its own (army_header_is_name)
 *
 * How to use:
 *   army_list a = {0};
 *   army_header_read("Lars Frencken Dwarven Holds", &a);   // a.name "Dwarven Holds", a.player "Lars Frencken"
 *   if (army_header_is_name("Kalle Järvinen")) ...          // a player's line above or below the army's
 */
#ifndef ARMY_HEADER_H
#define ARMY_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "army_list.h"

/* Reads one header line into `a`: the army (a T9A army's name as the data calls it, else the text as
 * written), the player and the total. What the line does not give is left as it is. */
void army_header_read(const char *line, army_list *a);
/* A line that reads as a person's name: one to six words, no commas, colons or sentence stops, not a word
 * organisers title lists with ("List", "Army list", "Round 2"). */
bool army_header_is_name(const char *line);
/* A total at the end of a header ("[2,045pts]", "(4500 pts)", "- 2110 points"): its points, and in *len the
 * length of the line before it (separators left out). 0 when the line ends with none. */
int army_header_points(const char *line, size_t *len);
/* A player's name as a line writes it, without the separators a paste left round it ("Jrock (Jared) NZ -"). */
void army_header_player(army_list *a, const char *s, size_t n);

#endif
