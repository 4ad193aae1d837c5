/*
 * watch_control: a judge's commands to a running watch, from wherever they
 * come (a terminal or a pipe on stdin, a named pipe fed by `tableref
 * watch-ctl`, the projector window's keys, the venue feed's MQTT command
 * topic), parsed into one form and queued for the camera loop.
 *
 * A command line reads: ACTION [MOVE] [REASON...]
 *   overrule [N] [reason]   the judge overrules the illegal call on move N
 *                           (default: the latest call): the move stands
 *   confirm [N] [reason]    the judge confirms the call on move N
 *   undo [reason]           the latest snapshot is undone: the player puts the
 *                           unit back or moves it again, judged afresh
 *   status UNIT WORDS [reason]  the unit's status from now on: WORDS is
 *                           engaged, fleeing, shaken, charging, comma-separated,
 *                           or clear
 *   reach UNIT [march|advance]  show where the unit can legally end a March
 *                           (default) or an Advance, on the video and the
 *                           projector, until it moves or "reach clear"; MOVE
 *                           is the token of any move with a reach (the rows
 *                           flagged RULES_MOVE_REACH in rules_moves.def)
 *   roll UNIT INCHES [reason]  the roll declared for a unit whose rate is
 *                           dice (random movement, 3D6"): its latest call,
 *                           when it needs the roll, is judged again against
 *                           it; else its next move is
 *   stop                    end the watch
 * "accept" is read as "overrule" (its old name).
 *
 * How to use:
 *   watch_control *ctl = watch_control_new(&err);
 *   watch_control_add_fd(ctl, STDIN_FILENO, "stdin");      // non-blocking reads, whole lines
 *   watch_control_push_line(ctl, "overrule 3 measured again", "mqtt:judge-1");  // any thread
 *   watch_control_push(ctl, &cmd);                          // a command parsed elsewhere, any thread
 *   per frame:  watch_command c; while (watch_control_poll(ctl, &c) == 1) apply(c);
 *   watch_control_free(ctl);
 * Pushing is thread-safe (the MQTT client calls it from its own thread);
 * polling belongs to the camera loop. A malformed line is returned as a
 * command with action WATCH_CMD_INVALID and `error` set, so the loop can
 * log it: nothing a judge sends is silently dropped.
 */
#ifndef WATCH_CONTROL_H
#define WATCH_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "rules_moves.h"

typedef enum watch_cmd_action {
    WATCH_CMD_INVALID = 0,
    WATCH_CMD_OVERRULE,
    WATCH_CMD_CONFIRM,
    WATCH_CMD_UNDO,
    WATCH_CMD_STOP,
    WATCH_CMD_STATUS,
    WATCH_CMD_REACH,
    WATCH_CMD_ROLL,
} watch_cmd_action;

typedef struct watch_command {
    watch_cmd_action action;
    int move;              /* 0: the latest call */
    char unit[64];         /* WATCH_CMD_STATUS, _REACH, _ROLL: the unit ("" for "reach clear") */
    double roll_in;        /* WATCH_CMD_ROLL: the roll declared, inches */
    rules_move_type reach_move; /* WATCH_CMD_REACH: whose reach (a row with a reach; default RULES_MOVE_MARCH) */
    bool advance;          /* WATCH_CMD_REACH: reach_move is RULES_MOVE_ADVANCE (the field's older form) */
    unsigned status;       /* WATCH_CMD_STATUS: RULES_STATUS_* bits (0: clear) */
    char reason[256];      /* "" when none was given */
    char by[64];           /* where it came from: "stdin", "control", "keyboard", "mqtt:NAME" */
    char error[128];       /* WATCH_CMD_INVALID: what was wrong */
    char line[256];        /* the line as received (truncated) */
    char id[64];           /* the sender's id for it ("" none): a venue page matches the answer by it */
    long refused_count;    /* > 0: this INVALID record stands for that many commands refused because the queue
                              was full (the first of them is what by, id and line show) */
} watch_command;

/* "overrule", "confirm", "undo", "stop", "status", "reach", "roll", "invalid". */
const char *watch_cmd_word(watch_cmd_action a);

/* Parses one line. Returns 0, or -1 (out->action INVALID, out->error set). */
int watch_command_parse(const char *line, const char *by, watch_command *out);

#define WATCH_CONTROL_QUEUE_MAX 256

typedef struct watch_control watch_control;

watch_control *watch_control_new(base_error *err);
/* NULL is fine. Does not close the descriptors it was given. */
void watch_control_free(watch_control *ctl);

/* Reads lines from `fd` (set non-blocking here) at each poll; `name` becomes the commands' `by`. */
int watch_control_add_fd(watch_control *ctl, int fd, const char *name, base_error *err);
/* Queues one command line from any thread; -1 when the queue (WATCH_CONTROL_QUEUE_MAX commands) is full.
 * A command refused for that is never lost unseen: poll returns, after the commands queued before it,
 * one INVALID record with refused_count = how many were refused (and until then every new command is
 * refused too, so the order stays that of arrival). */
int watch_control_push_line(watch_control *ctl, const char *line, const char *by);
/* Queues a command already parsed elsewhere (the venue feed's, with its id), from any thread; -1 when full. */
int watch_control_push(watch_control *ctl, const watch_command *c);
/* The next command: 1 and *out filled, 0 when none is waiting. Reads the descriptors first. */
int watch_control_poll(watch_control *ctl, watch_command *out);

/*
 * Creates the named pipe at `path` when missing and opens it for reading
 * without blocking (and keeps a writer open itself, so the pipe never reads
 * as ended between two `watch-ctl` calls). -1 with a message when `path`
 * exists and is not a pipe, or cannot be created.
 */
int watch_control_open_fifo(const char *path, base_error *err);

#endif
