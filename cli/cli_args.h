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

/* 1 when argv[*i] is `name` with a value (advancing *i past it), 0 when not, -1 when the value is missing. */
int cli_value(int argc, char **argv, int *i, const char *name, const char **out);
/* argv[i] is an option (starts with '-' and is not "-" alone). */
bool cli_is_option(const char *arg);
/* Parses a finite double; -1 with a message naming the option when it is not one. */
int cli_number(const char *option, const char *text, double *out);

#endif
