/*
 * army_lines: what one line of a text army list is, in the layouts players
 * and organisers write (internal to armylist/, used by army_text):
 *
 *   560 - Goblin Witch, General, ...      cost first (New Recruit)
 *   660 15 Warriors, FC                    cost first without the dash
 *   King, General, Shield - 280            cost after the name (dotted leaders read as the dash)
 *   Kadim Titan 540                        a bare cost at the end (inside a list: ARMY_LINE_BARE_COSTS)
 *   King (615), Shield                     cost in brackets after the name
 *   Warriors [620pts]: 20x Warriors, ...   the same in square brackets (BattleScribe's text)
 *   25 x Clan Warriors, Shield             a count, no cost
 *   Clan Warriors: Shield, Standard        a name and its options, no cost
 *   4500 / Total: 4500 pts / Sum: 4500     the list's total
 *   Dik-Jan Meijvogel - Dwarven Holds      a header: player and army
 *   Characters / Core (1200 pts)           a section heading (skipped)
 *
 * How to use:
 *   army_line l;
 *   army_line_read("660 - 15 Warriors, FC", ARMY_LINE_COLON_UNITS, &l);   // l.kind ARMY_LINE_UNIT, l.cost 660, l.body "15 Warriors, FC"
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
    bool cost_last;    /* ARMY_LINE_UNIT: its cost was written after the entry ("King, General - 280"): a line
                          above it without a cost of its own may be the entry's beginning, wrapped */
    const char *guess; /* a reading that had to be assumed ("a cost without a dash after it"), or NULL */
    char buf[1024];    /* the body when it is not a span of the line */
} army_line;

/* How army_line_read may read a line (bits). */
enum {
    ARMY_LINE_COLON_UNITS = 1u << 0, /* "Name: options" is a unit (inside a list; a header's "Player: Bob" is not) */
    ARMY_LINE_BARE_COSTS = 1u << 1,  /* "Kadim Titan 540": a bare number at the end is a cost (inside a list that
                                        has units: a title's year, "NORDIC CUP 2026", never is one) */
};
/* Classifies a cleaned line (ASCII dashes, trimmed). A line that names a T9A army is never a unit. */
void army_line_read(const char *line, unsigned flags, army_line *out);
/* A line that names a list: "Player - Army", a T9A army's name, "Army: X" / "Player: X". */
bool army_line_headerish(const char *line);
/* The T9A army named in the line ("Dwarven Holds"), or NULL. */
const char *army_line_army(const char *line);
/* The same, and where the line names it: *at its first byte, *len its length in the line. */
const char *army_line_army_span(const char *line, size_t *at, size_t *len);

#endif
