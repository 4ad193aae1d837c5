/*
 * army_lines: what one line of a text army list is, in the layouts players
 * and organisers write (internal to armylist/, used by army_text):
 *
 *   560 - Goblin Witch, General, ...      cost first (New Recruit)
 *   660 15 Warriors, FC                    cost first without the dash
 *   King, General, Shield - 280            cost after the name
 *   King (615), Shield                     cost in brackets after the name
 *   25 x Clan Warriors, Shield             a count, no cost
 *   Clan Warriors: Shield, Standard        a name and its options, no cost
 *   4500 / Total: 4500 pts / Sum: 4500     the list's total
 *   Dik-Jan Meijvogel - Dwarven Holds      a header: player and army
 *   Characters / Core (1200 pts)           a section heading (skipped)
 *
 * How to use:
 *   army_line l;
 *   army_line_read("660 - 15 Warriors, FC", true, &l);   // l.kind ARMY_LINE_UNIT, l.cost 660, l.body "15 Warriors, FC"
 *   if (army_line_headerish(text)) ...                    // "Player - Army", an army's name, "Army: ..."
 */
#ifndef ARMY_LINES_H
#define ARMY_LINES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum army_line_kind {
    ARMY_LINE_OTHER = 0, /* a header, a title or a piece of a broken line */
    ARMY_LINE_UNIT,
    ARMY_LINE_TOTAL,
    ARMY_LINE_SECTION,
} army_line_kind;

typedef struct army_line {
    army_line_kind kind;
    int cost;          /* ARMY_LINE_UNIT: its points, 0 when the layout gives none */
    int total;         /* ARMY_LINE_TOTAL */
    const char *body;  /* ARMY_LINE_UNIT: "[COUNT] NAME, OPTIONS", in the line or in buf */
    size_t body_len;   /* its length (a cost after the name is left out) */
    const char *guess; /* a reading that had to be assumed ("a cost without a dash after it"), or NULL */
    char buf[1024];    /* the body when it is not a span of the line */
} army_line;

/* Classifies a cleaned line (ASCII dashes, trimmed). `colon_units`: "Name: options" is a unit (inside a
 * list; a header's "Player: Bob" is not). */
void army_line_read(const char *line, bool colon_units, army_line *out);
/* A line that names a list: "Player - Army", a T9A army's name, "Army: X" / "Player: X". */
bool army_line_headerish(const char *line);
/* The T9A army named in the line ("Dwarven Holds"), or NULL. */
const char *army_line_army(const char *line);

#endif
