/*
 * rules_dice: a rate that is a roll of dice ("3D6", "2D6+1", "D3"), as army
 * books write random movement (`Adv 3D6"`). A unit whose rate is dice is
 * judged against the roll its player declares (rules_unit.roll_mm; the
 * snapshot's "roll_in", `check --roll`, `referee --roll`, the watch's "roll"
 * command); until one is declared its move's call is "needs the roll"
 * (rules_unit_report.needs_roll), never LEGAL or ILLEGAL.
 *
 * How to use:
 *   rules_dice d;
 *   if (rules_dice_parse("3D6", &d) == 0) ... d.n 3, d.sides 6, d.plus 0 ...
 *   int lo, hi; rules_dice_range(&d, &lo, &hi);          // 3, 18: a roll outside is no roll of these dice
 *   char text[RULES_DICE_MAX]; rules_dice_format(&d, text, sizeof text);   // "3D6"
 */
#ifndef RULES_DICE_H
#define RULES_DICE_H

#include <stddef.h>

#define RULES_DICE_MAX 12 /* "10D6+10" and its terminator */

typedef struct rules_dice {
    int n;      /* dice rolled, 1..10 */
    int sides;  /* 3 or 6 */
    int plus;   /* added to the sum, -10..10 */
} rules_dice;

/* "3D6", "2d6+1", "D3", "3D6\"" (the inch mark and spaces ignored): 0 with *out set, -1 when the text is no
 * roll of dice. */
int rules_dice_parse(const char *text, rules_dice *out);
/* The least and the most a roll of these dice makes. */
void rules_dice_range(const rules_dice *d, int *lo, int *hi);
/* "3D6", "2D6+1": the form snapshots and rosters write. */
void rules_dice_format(const rules_dice *d, char *buf, size_t cap);

#endif
