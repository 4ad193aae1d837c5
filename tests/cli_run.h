/*
 * cli_run: runs the tableref binary (TABLEREF_BIN) from the source root
 * (TABLEREF_SOURCE_ROOT), the way a user would, capturing its exit status,
 * stdout and stderr, for the suites that test the command line.
 *
 *   cli_result r;
 *   cr_assert_eq(cli_run("check a.json b.json --json", &r), 0);
 *   cr_assert_eq(r.status, 1);  ... r.out, r.err
 */
#ifndef TABLEREF_TEST_CLI_RUN_H
#define TABLEREF_TEST_CLI_RUN_H

typedef struct cli_result {
    int status;       /* exit status, -1 when killed by a signal */
    char out[65536];  /* stdout, truncated to fit */
    char err[16384];  /* stderr, truncated to fit */
} cli_result;

/* Runs "tableref ARGS" through the shell. Returns 0, or -1 when it could not be started. */
int cli_run(const char *args, cli_result *r);

#endif
