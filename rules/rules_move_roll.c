/* Random movement in a Moving Units judge (rules_move_int.h): a move whose rate is dice is judged by the roll
 * declared for it, or needs it (rules_dice.h). */
#include <math.h>
#include <stdio.h>

#include "rules_move_int.h"
#include "rules_words.h"

rules_move_type rules_move_judged_as(rules_move_type t)
{
    return rules_move_has(t, RULES_MOVE_INFER) ? t : RULES_MOVE_REFORM;
}

/*
 * Random movement: a move whose rate is dice (or, inferred, a unit with any rate of dice) and no roll declared
 * needs the roll: no call, its reason said (rules_unit_report_needs_roll). True when so.
 */
bool rules_move_needs_roll(const rules_move_ctx *c, rules_move_type type, bool declared, rules_unit_report *ur)
{
    const rules_unit *u = c->u0;
    if (!isnan(u->roll_mm) || (!u->advance_dice[0] && !u->march_dice[0]))
        return false;
    const rules_move_type as = type == RULES_MOVE_AUTO ? (u->march_dice[0] ? RULES_MOVE_MARCH : RULES_MOVE_ADVANCE)
                                                       : rules_move_judged_as(type);
    const char *dice = rules_move_unit_dice(as, u);
    if (!dice)
        return false; /* the move declared is limited by a fixed rate */
    ur->move = type;
    ur->declared = declared && type != RULES_MOVE_AUTO;
    rules_unit_report_needs_roll(ur, dice,
                                 "needs the roll: its %s is %s\" (random movement); declare the roll (inches) to judge "
                                 "the move",
                                 rules_words_move_limit(as), dice);
    return true;
}

/* A move judged by a declared roll says so. */
void rules_move_note_roll(const rules_move_ctx *c, rules_unit_report *ur)
{
    const char *dice = ur->move != RULES_MOVE_NONE ? rules_move_unit_dice(rules_move_judged_as(ur->move), c->u0) : NULL;
    if (!dice || isnan(c->u0->roll_mm))
        return;
    ur->roll_mm = c->u0->roll_mm;
    snprintf(ur->dice, sizeof ur->dice, "%s", dice);
    rules_unit_report_add_note(ur, "Judged by the roll declared for its %s: %.2f\" on %s.",
                               rules_words_move_limit(rules_move_judged_as(ur->move)), base_mm_to_in(c->u0->roll_mm), dice);
}

