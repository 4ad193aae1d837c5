/*
 * venue_command: a judge's command to one table, as it arrives on the
 * venue feed's topic tableref/{event}/table/{n}/command/{judge}.
 *
 * The payload is JSON (what the judge's page sends):
 *   {"action": "overrule", "move": 3, "reason": "measured again: 9.9\"", "id": "k3x9-1"}
 * or a plain line (handy with mosquitto_pub):  overrule 3 measured again
 *   action  overrule  the judge overrules the call on `move` (the move stands)
 *           confirm   the judge confirms the call on `move`
 *           undo      the latest settled snapshot is undone (the unit goes back)
 *           roll      the roll declared for `unit`, whose rate is dice (random
 *                     movement): {"action": "roll", "unit": "spawn", "roll_in": 11};
 *                     line: roll UNIT INCHES [reason]. Its reason is optional.
 *           "accept" is read as "overrule" (its old name in watch).
 *   move    optional, >= 1; 0 or absent: the latest call. Ignored by undo.
 *   reason  required, non-empty, valid UTF-8 without control characters: a judge says why.
 *   id      optional, at most 63 bytes: the same id twice is one command
 *           (MQTT QoS 1 may deliver a message twice).
 * Who sent it is the topic's last level, never the payload: with the ACLs
 * of docs/venue.md a judge can only write under their own user name, and no
 * other account writes a command topic. A level that cannot be a judge's
 * name (venue_command_judge_name_ok: a table's account, table-N, or what the
 * set-up never names) is refused.
 * A command must not be retained (it would be applied again at every
 * restart): a retained one is refused.
 *
 * How to use:
 *   venue_command c;
 *   if (venue_command_parse(payload, len, "alice", false, &c) < 0) log(c.error);
 *   c.line is "overrule 3 measured again: 9.9\"", the form `watch-ctl` sends.
 */
#ifndef VENUE_COMMAND_H
#define VENUE_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

typedef enum venue_cmd_action {
    VENUE_CMD_INVALID = 0,
    VENUE_CMD_OVERRULE,
    VENUE_CMD_CONFIRM,
    VENUE_CMD_UNDO,
    VENUE_CMD_ROLL,
} venue_cmd_action;

#define VENUE_COMMAND_MAX_PAYLOAD 4096

typedef struct venue_command {
    venue_cmd_action action;
    int move;              /* 0: the latest call */
    char unit[64];         /* VENUE_CMD_ROLL: the unit */
    double roll_in;        /* VENUE_CMD_ROLL: the roll, inches (0 to 100) */
    char reason[256];
    char by[64];           /* the judge: the topic's last level */
    char id[64];           /* "" when the sender gave none */
    char error[160];       /* VENUE_CMD_INVALID: what was wrong */
    char line[352];        /* "ACTION [MOVE] REASON": the control-line form; for an invalid
                              command, what was received (control characters blanked) */
} venue_command;

/* A judge's name as `tableref venue setup` makes it: 1-32 of [A-Za-z0-9_-], not beginning "table-" (the tables'
 * accounts). A command from any other topic level is refused. */
bool venue_command_judge_name_ok(const char *name);

/* "overrule", "confirm", "undo", "roll", "invalid". */
const char *venue_cmd_word(venue_cmd_action a);

/*
 * Parses one payload of `len` bytes (not NUL-terminated) sent by `by`.
 * Returns 0, or -1 with out->action VENUE_CMD_INVALID and out->error set
 * (out->by and out->id are still filled when they could be read).
 */
int venue_command_parse(const char *payload, size_t len, const char *by, bool retained, venue_command *out);

#endif
