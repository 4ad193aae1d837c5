/*
 * cli_roll: `--roll UNIT=INCHES` (repeatable), the roll a player declares
 * for a unit whose rate is dice (random movement, rules/rules_dice.h), for
 * `check` and `referee`: each goes onto the unit of the BEFORE snapshot, and
 * the move is judged against it (rules_unit_declare_roll). Without one, such
 * a move's call is "needs the roll".
 *
 * How to use:
 *   CLI_LIST("--roll", &rolls, "UNIT=INCHES", CLI_ROLL_HELP),
 *   if (cli_rolls_apply(&rolls, before, "check") < 0) return EXIT_BAD_INPUT;   // said on stderr
 */
#ifndef CLI_ROLL_H
#define CLI_ROLL_H

#include "cli_args.h"
#include "rules_snapshot.h"

#define CLI_ROLL_HELP                                                                                                 \
    "the roll declared for a unit whose rate is dice (random\n"                                                      \
    "movement, 3D6\"): its move is judged against it; without\n"                                                     \
    "one the call needs the roll. Repeatable."

/* Each "UNIT=INCHES" of `rolls` onto its unit of `before`. 0, or -1 with the reason on stderr ("tableref PROG: ..."). */
int cli_rolls_apply(const cli_list *rolls, rules_snapshot *before, const char *prog);

#endif
