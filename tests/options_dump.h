/*
 * options_dump: `tableref --options-dump` read back, for the suites that
 * check every option of every command (test_help, test_options).
 *
 *   static od_table t;
 *   cr_assert_eq(od_read(&t), 0);
 *   for (int i = 0; i < t.n_options; i++) ... t.options[i].command, .name, .kind, .min, .max
 */
#ifndef TABLEREF_TEST_OPTIONS_DUMP_H
#define TABLEREF_TEST_OPTIONS_DUMP_H

#define OD_MAX_COMMANDS 64
#define OD_MAX_OPTIONS 400

typedef struct od_option {
    char command[48]; /* "calibrate camera", or "*" for the options every command takes */
    char name[48];    /* "--fps" */
    char kind[8];     /* string, number, whole, flag, list */
    char min[32], max[32]; /* a number's range as printed (%.15g), "" otherwise */
    char io[8];       /* what the value names on disk: in, source, out, append, outdir; "" for none */
    char files[400];  /* io outdir (or out): the files put into the folder ("report.json camera.png") */
    char same_as[48]; /* an input option this output may be (updated in place by design), or "" */
} od_option;

typedef struct od_table {
    char commands[OD_MAX_COMMANDS][48]; /* every command and step, in order */
    char inputs[OD_MAX_COMMANDS][48];   /* the positionals of each that are files read ("BEFORE AFTER"), or "" */
    int n_commands;
    od_option options[OD_MAX_OPTIONS];
    int n_options;
} od_table;

/* Runs `tableref --options-dump` (cli_run) and reads it: 0, or -1 when it fails or is malformed. */
int od_read(od_table *t);
/* The option `name` of `command`, or NULL. */
const od_option *od_find(const od_table *t, const char *command, const char *name);
/* The option is a number (kind number or whole). */
int od_is_number(const od_option *o);

#endif
