/* army_rates: a unit's Advance and March Rates from its profiles (army_rates.h): a fixed rate, a mount's, a roll
 * of dice (random movement), or "-" (no March Rate). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "army_rates.h"

/* A rate of dice ("3D6\"", random movement) into `dice`, said under the unit: judged against the roll declared. */
static bool dice_rate(army_unit *u, char *dice, const char *word, const char *text)
{
    rules_dice d;
    if (!text || rules_dice_parse(text, &d) < 0)
        return false;
    rules_dice_format(&d, dice, RULES_DICE_MAX);
    army_unit_say(u, "%s is %s\" (random movement): judged against the roll a player declares", word, dice);
    return true;
}

void army_rates_fill(army_unit *u, double *rate, char *dice, const char *word, const army_node *mount,
                     const army_node *n)
{
    if (!isnan(*rate) || dice[0])
        return;
    const char *why = NULL, *text = NULL;
    double v;
    /* A mount's rate when it has a fixed one; else the rider's (T9A writes "C" for "the character's"). */
    if (mount && (text = army_node_char(mount, word)) && army_parse_rate(text, &v, &why) == 1) {
        *rate = v;
        return;
    }
    const char *own = army_node_find_char(n, word);
    if (own && army_parse_rate(own, &v, &why) == 1) {
        *rate = v;
        return;
    }
    if (dice_rate(u, dice, word, text) || dice_rate(u, dice, word, own))
        return;
    if (own && strcmp(word, "Mar") == 0 && own[0] == '-' && !own[1]) {
        u->mar_none = true; /* "Mar -": the unit never Marches */
        army_unit_say(u, "Mar is -: the unit has no March Rate");
        return;
    }
    if (own || text)
        army_unit_note(u, "%s is %s: %s", word, own ? own : text, why ? why : "not a rate");
}

