/*
 * rules_words: a judged unit's call in one sentence, for people, with the
 * +/- of what it measured: the one function every place that describes a
 * move takes its words from (the terminal's report of `referee` and
 * `check`, the report's JSON, the watch's event log, subtitles and venue
 * feed, the overlay's path words). Pure C, in rules/ so that every folder
 * above (overlay, venue, watch, referee) can include it without a cycle;
 * referee/ref_words.h hands it on to the programs.
 *
 *   "knights: advance forward (forward 2.99\", wheel 0.62\" about the left front corner (12.1 deg left)),
 *    legal [knights-3 moved 3.53\" ± 0.02\", limit 8.00\"]"
 *   "spears: march, ILLEGAL: Model spears-7 ends 10.38\" from where it started, farther than its March
 *    Rate of 10.00\". [measured 10.38\" ± 0.02\", limit 10.00\"]"
 *   "spears: advance, cannot tell: spears-9, spears-10 ... [spears-9 moved 4.98\" ± 0.05\", limit 5.00\"]"
 *   "red-2: advance forward, cannot tell: 2 of 30 models seen in the after picture, its formation cannot be
 *    told [red-2-18 moved 4.50\" ± 0.08\", limit 5.00\"]"   (a unit read in part: rules_words_partial)
 *   "archers: not seen, cannot judge: unit archers: not seen in the after picture, cannot judge"
 *   "spawn: march, needs the roll: its March Rate is 3D6\" (random movement); declare the roll (inches) to
 *    judge the move"   (rules_unit_report.needs_roll; with "auto" the move is not named)
 *
 * One rule hides the path's tiny steps (the search's vanishing wheels that
 * match an end pose exactly): a step is left out when what it would print
 * is zero, a length under 0.005" (it reads 0.00"), a pivot under 0.05 deg.
 * The JSON's "path" keeps every step.
 *
 * The +/- is rules_plusminus.h's (as the pictures print it), shown when it
 * is at least 0.005"; without the two snapshots (NULL) there is none.
 *
 * The words of a move and of a verdict are here too, and nowhere else: a
 * move's word and title are its row's (rules_moves.def), apart from its
 * token (rules_moves.h), which the formats and options keep whatever the
 * words say.
 *
 * How to use:
 *   rules_words_move(RULES_MOVE_MARCH)           // "march": the move in a sentence (the terminal too)
 *   rules_words_move_title(RULES_MOVE_MARCH)     // "March": a headline, the report page
 *   rules_words_move_limit(RULES_MOVE_MARCH)     // "March Rate": each model's distance limit
 *   rules_words_verdict_title(RULES_VERDICT_CANNOT_TELL)   // "CANNOT TELL": a headline, the terminal
 *   char s[RULES_WORDS_MAX];
 *   rules_words_call(&report.units[i], before, after, s, sizeof s);
 *   char how[RULES_WORDS_MAX];
 *   rules_words_path(&report.units[i], how, sizeof how);   // "forward 5.00\", wheel 2.24\" ..." or ""
 */
#ifndef RULES_WORDS_H
#define RULES_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "rules_path.h"
#include "rules_report.h"
#include "rules_snapshot.h"

/* Room for any sentence rules_words_call writes (longer ones are cut, never overrun). */
#define RULES_WORDS_MAX 1024

/* The move in a sentence: its row's word ("march", "reform-move"); "?" for a value that is no row. */
const char *rules_words_move(rules_move_type t);
/* The move's name as a heading: its row's title ("March", "Reform Move", "no move"). */
const char *rules_words_move_title(rules_move_type t);
/* The name of each model's distance limit in the move: its row's ("March Rate", "twice its Mobility", "limit"). */
const char *rules_words_move_limit(rules_move_type t);
/*
 * The moves of the rows that have every one of `flags` (rules_moves.h), for a sentence, in table order:
 * "an Advance or a March" (titles) or "an advance or a march" (words).
 */
void rules_words_moves_either(unsigned flags, bool titles, char *buf, size_t cap);
/* The verdict as a heading: "LEGAL", "ILLEGAL", "CANNOT TELL", "NOT SEEN". */
const char *rules_words_verdict_title(rules_verdict v);
/* One unit's call as a heading: its verdict's, or "NEEDS THE ROLL" for random movement without a declared roll. */
const char *rules_words_call_title(const rules_unit_report *u);

/* The one rule for tiny steps: true when the step is worth reading. */
bool rules_words_step_shown(const rules_step *s);
/* The path's steps worth reading, ", "-joined; "" when the unit has no path or none is worth reading. */
void rules_words_path(const rules_unit_report *u, char *buf, size_t cap);
/* A length with its +/-: "3.53\" ± 0.02\"", or "3.53\"" when pm is NAN or under 0.005". */
void rules_words_length(double mm, double pm_mm, char *buf, size_t cap);
/*
 * A unit read in part (rules_unit_partly_placed in either picture) in the
 * words every call on it uses: "2 of 30 models seen in the after picture,
 * its formation cannot be told" (of the models the other picture holds);
 * "3 models seen in the before picture and 2 in the after, its formation
 * cannot be told" when both are read in part. "" when neither is.
 */
void rules_words_partial(const rules_unit *before, const rules_unit *after, char *buf, size_t cap);
/*
 * The same words for one picture alone (a detection's warning): `seen` of
 * `total` models, `picture` "before" or "after" ("2 of 30 models seen in the
 * after picture, its formation cannot be told"); NULL: "in the picture".
 */
void rules_words_partial_in(size_t seen, size_t total, const char *picture, char *buf, size_t cap);
/* The call on one unit in one sentence (see above); before/after may be NULL (then no +/-). */
void rules_words_call(const rules_unit_report *u, const rules_snapshot *before, const rules_snapshot *after,
                      char *buf, size_t cap);

#endif
