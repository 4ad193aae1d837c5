/*
 * cli_args: the few helpers every subcommand uses to read its arguments.
 *
 * How to use, in a loop over argv[1..]:
 *   const char *v;
 *   int r = cli_value(argc, argv, &i, "--unit", &v);
 *   if (r < 0) return EXIT_BAD_INPUT;   // the option was given without a value (message printed)
 *   if (r > 0) { unit = v; continue; }  // matched "--unit X" or "--unit=X"
 */
#ifndef TABLEREF_CLI_ARGS_H
#define TABLEREF_CLI_ARGS_H

#include <stdbool.h>

/* One option of a command, for cli_parse. */
typedef enum cli_opt_kind {
    CLI_OPT_STRING, /* --name VALUE: dest is const char ** */
    CLI_OPT_NUMBER, /* --name NUMBER: dest is double * */
    CLI_OPT_FLAG,   /* --name: dest is int *, set to `value` */
    CLI_OPT_LIST,   /* --name VALUE, repeatable: dest is cli_list * */
} cli_opt_kind;

#define CLI_LIST_MAX 32
/* The values of a repeatable option, in the order given. */
typedef struct cli_list {
    const char *items[CLI_LIST_MAX];
    int n;
} cli_list;

typedef struct cli_opt {
    const char *name;
    cli_opt_kind kind;
    void *dest;
    int value; /* CLI_OPT_FLAG: what the flag stores (1 to switch on, 0 to switch off) */
} cli_opt;

/*
 * Reads argv[1..] against a table of options ("--name VALUE", "--name=VALUE",
 * flags); every other argument is positional, stored in pos[] (at most
 * max_pos). Unknown options, missing values, bad numbers and too many
 * positionals print one message naming `command` ("calibrate board") and
 * return -1; otherwise
 * the number of positionals.
 */
int cli_parse(const char *command, int argc, char **argv, const cli_opt *opts, int n_opts, const char **pos,
              int max_pos);

/*
 * Prints "tableref COMMAND: missing WHAT (try 'tableref COMMAND --help')" and
 * returns -1: commands name the one argument that is missing instead of
 * printing their whole usage. `what` says what to give: "--out DIR (where to
 * write the report)".
 */
int cli_missing(const char *command, const char *what);

/* 1 when argv[*i] is `name` with a value (advancing *i past it), 0 when not, -1 when the value is missing. */
int cli_value(int argc, char **argv, int *i, const char *name, const char **out);
/* argv[i] is an option (starts with '-' and is not "-" alone). */
bool cli_is_option(const char *arg);
/* Parses a finite double; -1 with a message naming the option when it is not one. */
int cli_number(const char *option, const char *text, double *out);

#endif
