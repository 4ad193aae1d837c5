/*
 * cli_args: one option table per command, from which the command's
 * arguments are read, its --help is written and its options are dumped
 * (`tableref --options-dump`) for the man page and the bash completion
 * (scripts/make-man.py), so the three cannot disagree.
 *
 * How to use, in a command:
 *   static const cli_doc doc = {"reach", "usage: tableref reach SNAPSHOT.json --unit ID ...\n\n...\n",
 *                               "\nExit status: 0 done, 2 bad input or usage.\n"};
 *   const char *unit = NULL, *pos[1];
 *   double seed = 1;
 *   int json = 0;
 *   const cli_opt opts[] = {
 *       CLI_STRING("--unit", &unit, "ID", "the unit that moves"),
 *       CLI_WHOLE("--seed", &seed, "N", 0, 1e9, "the random seed (default 1)"),
 *       CLI_FLAG("--json", &json, 1, "print JSON"),
 *   };
 *   int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), pos, 1);
 *   if (n_pos < 0)
 *       return cli_status(n_pos);   // 0 after --help (printed), 2 after a bad argument (message printed)
 *
 * A number outside its table range [min, max] (NaN and infinities too) is
 * refused with a message naming the option and the range; the help shows
 * the range beside the option. Commands with steps (calibrate camera|board,
 * bench rules|vision, ...) dispatch with cli_dispatch.
 */
#ifndef TABLEREF_CLI_ARGS_H
#define TABLEREF_CLI_ARGS_H

#include <stdbool.h>
#include <stdio.h>

/* What an option takes. */
typedef enum cli_opt_kind {
    CLI_OPT_STRING, /* --name VALUE: dest is const char ** */
    CLI_OPT_NUMBER, /* --name NUMBER in [min, max]: dest is double * */
    CLI_OPT_WHOLE,  /* --name N, a whole number in [min, max]: dest is double * */
    CLI_OPT_FLAG,   /* --name: dest is int *, set to `value` */
    CLI_OPT_LIST,   /* --name VALUE, repeatable: dest is cli_list * */
    CLI_OPT_TEXT,   /* no option: a line of the help (a heading between groups of options) */
} cli_opt_kind;

#define CLI_LIST_MAX 32
/* The values of a repeatable option, in the order given. */
typedef struct cli_list {
    const char *items[CLI_LIST_MAX];
    int n;
} cli_list;

typedef struct cli_opt {
    const char *name; /* "--unit" */
    cli_opt_kind kind;
    void *dest;
    int value;          /* CLI_OPT_FLAG: what the flag stores (1 to switch on, 0 to switch off) */
    const char *arg;    /* the value's name in the help: "ID", "FILE.json" */
    const char *help;   /* what the option does; '\n' starts a continuation line */
    double min, max;    /* CLI_OPT_NUMBER, CLI_OPT_WHOLE: the accepted range, both ends included */
    const char *values; /* the words the completion offers for the value ("a4 letter"), or NULL */
    const char *what;   /* a number's description in messages ("a whole number of pixels >= 1"), or NULL */
} cli_opt;

#define CLI_STRING(n, d, a, h) {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h)}
#define CLI_CHOICE(n, d, a, words, h)                                                                                 \
    {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .values = (words)}
#define CLI_NUMBER(n, d, a, lo, hi, h)                                                                                \
    {.name = (n), .kind = CLI_OPT_NUMBER, .dest = (d), .arg = (a), .help = (h), .min = (lo), .max = (hi)}
#define CLI_WHOLE(n, d, a, lo, hi, h)                                                                                 \
    {.name = (n), .kind = CLI_OPT_WHOLE, .dest = (d), .arg = (a), .help = (h), .min = (lo), .max = (hi)}
#define CLI_FLAG(n, d, v, h) {.name = (n), .kind = CLI_OPT_FLAG, .dest = (d), .value = (v), .help = (h)}
#define CLI_LIST(n, d, a, h) {.name = (n), .kind = CLI_OPT_LIST, .dest = (d), .arg = (a), .help = (h)}
#define CLI_TEXT(t) {.kind = CLI_OPT_TEXT, .help = (t)}
/* The options every command that reads a camera picture takes, worded the same everywhere. */
#define CLI_CALIB_OPT(d) CLI_STRING("--calib", (d), "C.json", "the camera's calibration")
#define CLI_ROSTER_OPT(d) CLI_STRING("--roster", (d), "R.json", "the roster (`tableref roster import`)")
#define CLI_N(opts) ((int)(sizeof(opts) / sizeof(opts)[0]))

/* A command's help around its option table. */
typedef struct cli_doc {
    const char *command; /* "calibrate camera": in messages, the help and the dump */
    const char *head;    /* the usage line(s) and what the command does, printed before the options */
    const char *tail;    /* printed after the options (notes, the exit status); may be NULL */
} cli_doc;

/* cli_parse's answers besides a count of positionals. */
enum { CLI_ERROR = -1, CLI_DONE = -2 };

/*
 * Reads argv[1..] against the table ("--name VALUE", "--name=VALUE",
 * flags); every other argument is positional, stored in pos[] (at most
 * max_pos; pos may be NULL when max_pos is 0). -h or --help anywhere prints
 * the help and --options-dump the table (for scripts/make-man.py), both on
 * stdout, and return CLI_DONE. Unknown options, missing values, numbers out
 * of range and too many positionals print one message naming the command
 * and return CLI_ERROR; otherwise the number of positionals.
 */
int cli_parse(const cli_doc *doc, int argc, char **argv, const cli_opt *opts, int n_opts, const char **pos,
              int max_pos);
/* The exit status after cli_parse returned `r` < 0: 0 after the help, 2 after an error. */
int cli_status(int r);

/* Prints the help: doc->head, the options with their ranges, doc->tail. */
void cli_help(FILE *out, const cli_doc *doc, const cli_opt *opts, int n_opts);

/*
 * Reads `text` as option `option`'s number in [opt->min, opt->max] (whole
 * when CLI_OPT_WHOLE), for values cli_parse does not read itself (a number
 * inside "ID=INCHES"). -1 with a message naming the command, the option and
 * the range when it is not one.
 */
int cli_number_in(const char *command, const cli_opt *opt, const char *text, double *out);

/*
 * Takes the options of `opts` out of argv[from..] wherever they are (for
 * the options every command takes, read before the command runs): -1 with a
 * message on a bad value, else 0 with *argc reduced.
 */
int cli_take(const char *command, int *argc, char **argv, int from, const cli_opt *opts, int n_opts);
/* The dump of options every command takes (`tableref --options-dump`): "option\t*\t..." lines. */
void cli_dump_options(FILE *out, const char *command, const cli_opt *opts, int n_opts);

/* A step of a command with steps: `tableref calibrate camera`. */
typedef struct cli_step {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *what; /* one line for the command's help */
} cli_step;

/*
 * Runs the step argv[1] names with argv[1..]. No step or -h/--help: the
 * help (doc->head, the steps, doc->tail); --options-dump: the command's
 * steps and every step's dump; an unknown step: a message. Returns the exit
 * status.
 */
int cli_dispatch(const cli_doc *doc, const cli_step *steps, int n_steps, int argc, char **argv);
/* Dumps `steps` (the "steps" line and each step's own dump), for a command that is also a command itself. */
int cli_dump_steps(const char *command, const cli_step *steps, int n_steps);
/* Runs one command's (or step's) own `NAME --options-dump`; its exit status. */
int cli_run_options_dump(const char *name, int (*run)(int argc, char **argv));
/* argv[1..] holds --options-dump. */
bool cli_dumping(int argc, char **argv);
/* argv[1..] holds -h or --help. */
bool cli_wants_help(int argc, char **argv);

/*
 * Prints "tableref COMMAND: missing WHAT (try 'tableref COMMAND --help')" and
 * returns -1: commands name the one argument that is missing instead of
 * printing their whole usage. `what` says what to give: "--out DIR (where to
 * write the report)".
 */
int cli_missing(const char *command, const char *what);

/* Breaks `text` into help lines of at most `width` characters (a space becomes '\n'), for a help built at run time
 * (the --move choices read from the table of rules). A word longer than `width` stands on its own line. */
void cli_wrap(char *text, size_t width);

/* argv[i] is an option (starts with '-' and is not "-" alone). */
bool cli_is_option(const char *arg);

#endif
