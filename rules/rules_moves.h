/*
 * rules_moves: the table of rules, one row per move type (rules_moves.def),
 * and what every part reads from it: the move's token, where it is offered,
 * which profile rate limits it. Everything that names or offers a move reads
 * the rows, as curl's protocols are rows of Curl_handler: no other list of
 * move types exists. The rows' display words are rules_words.h's
 * (rules_words_move, _move_title, _move_limit) and their judges
 * rules_rulebook.h's; this part holds no function of a rule, so that
 * everything below the judges (the report, its JSON, the words) can read it.
 *
 * Tokens never change: they are the formats' and the options' ("move":
 * "march", --move march, the watch's "reach spears march"). What people read
 * is the row's word (rules_words.h), which may differ from its token.
 *
 * How to use:
 *   rules_move_type t;
 *   if (rules_move_from_token("march", &t) < 0) ... not a --move choice ...
 *   rules_move_token(t)                       // "march": JSON, options, commands
 *   rules_move_has(t, RULES_MOVE_REACH)       // may a reach be computed for it?
 *   double rate = rules_move_unit_rate(t, unit);  // the profile rate limiting each model, NAN: none
 *   char list[256];
 *   rules_move_tokens(RULES_MOVE_PICTURES, 0, ", ", " or ", list, sizeof list);  // "advance, march or reform"
 *   for (int i = 0; i < RULES_MOVE_COUNT; i++) ... every row, in table order ...
 *
 * Adding a rule (docs/rules.md, "Adding a rule"): write its judge, a file
 * pair with a rules_judge_fn (rules_rule.h), and add its row to
 * rules_moves.def. The enum, --move's choices and help, the man page, the
 * watch's commands, the overlay's names and the words all follow the row.
 */
#ifndef RULES_MOVES_H
#define RULES_MOVES_H

#include <stdbool.h>
#include <stddef.h>

#include "rules_snapshot.h"

/* Which of the unit's profile rates limits each model's distance. */
typedef enum rules_move_rate {
    RULES_RATE_REPORT = 0, /* none of the profile's: the rate the judge wrote in the report (rate_mm) */
    RULES_RATE_ADVANCE,    /* the unit's Advance Rate (advance_in) */
    RULES_RATE_MARCH,      /* the unit's March Rate (march_in) */
} rules_move_rate;

/* Where a move is offered (a row's flags). */
enum {
    RULES_MOVE_OPTION = 1u << 0,   /* a --move choice of `check` (every row but none) */
    RULES_MOVE_PICTURES = 1u << 1, /* judged from two pictures alone: `referee --move`, the watch */
    RULES_MOVE_INFER = 1u << 2,    /* --move auto tries it, in table order (Moving Units) */
    RULES_MOVE_REACH = 1u << 3,    /* a reach before the move (tableref reach, --reach, watch "reach") */
};

typedef enum rules_move_type {
#define RULES_MOVE_ROW(ID, token, word, title, limit, rate, key, flags, judge, suggest) RULES_MOVE_##ID,
#include "rules_moves.def"
#undef RULES_MOVE_ROW
    RULES_MOVE_COUNT /* the number of rows */
} rules_move_type;

/* The token ("march"); "?" for a value that is no row. */
const char *rules_move_token(rules_move_type t);
/* The same, by its name from before the table (the tests of the formats call it so). */
const char *rules_move_word(rules_move_type t);
/* The row whose token this is, among the --move choices (RULES_MOVE_OPTION: "none" is not one); -1 when none. */
int rules_move_from_token(const char *token, rules_move_type *out);
/* The row has every one of `flags`. */
bool rules_move_has(rules_move_type t, unsigned flags);
rules_move_rate rules_move_rate_of(rules_move_type t);
/* The profile field the row's rate is read from ("march_in"), or NULL. */
const char *rules_move_key(rules_move_type t);
/* The unit's profile rate that limits each model in this move (mm); NAN for RULES_RATE_REPORT rows. A rate that is
 * dice (random movement) is the roll declared for the move (rules_unit.roll_mm): NAN until one is. */
double rules_move_unit_rate(rules_move_type t, const rules_unit *u);
/* The dice of that rate ("3D6") when it is a roll, else NULL. */
const char *rules_move_unit_dice(rules_move_type t, const rules_unit *u);
/*
 * The tokens of the move types that have every one of `with` and none of
 * `without`, in table order, joined by `sep` and the last two by `last`
 * ("advance, march or reform"). "none" and "auto" are no move type of their
 * own (no move; infer one) and never listed: an option offering auto says
 * so itself. `buf` is always terminated. Returns how many were listed.
 */
size_t rules_move_tokens(unsigned with, unsigned without, const char *sep, const char *last, char *buf, size_t cap);

#endif
