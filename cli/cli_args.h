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
 * the range beside the option. Options naming files say so (CLI_INPUT,
 * CLI_OUTPUT, CLI_APPEND, CLI_OUT_DIR, CLI_SOURCE instead of CLI_STRING):
 * what a command reads and writes is then checked before it works. Commands with steps (calibrate camera|board,
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

/* What an option's value names on disk (the command's plan of files, base/base_plan.h). */
typedef enum cli_io {
    CLI_IO_NONE = 0,
    CLI_IO_IN,      /* a file (or folder) the command reads */
    CLI_IO_SOURCE,  /* a camera source: a file or folder it reads when it names one (SRC, or SCHEME:PATH) */
    CLI_IO_OUT,     /* a file the command writes whole */
    CLI_IO_APPEND,  /* a file written in place: appended to or streamed (the event log, a recording) */
    CLI_IO_OUT_DIR, /* a folder the command writes into: `files` lists what it puts there */
} cli_io;

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
    cli_io io;          /* what the value names on disk */
    const char *files;  /* CLI_IO_OUT_DIR: the files written into the folder ("report.json camera.png";
                         * a '*' stands for any text: "*.jpg"); CLI_IO_OUT: those written into it when the
                         * value names a folder that exists */
    const char *same_as; /* an output that may be this input option (updated in place by design), or NULL */
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
/* Options naming files: what the command reads and writes is checked before it works (cli_parse). */
#define CLI_INPUT(n, d, a, h) {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_IN}
#define CLI_INPUTS(n, d, a, h) {.name = (n), .kind = CLI_OPT_LIST, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_IN}
#define CLI_SOURCE(n, d, a, h)                                                                                        \
    {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_SOURCE}
#define CLI_OUTPUT(n, d, a, h)                                                                                        \
    {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_OUT}
#define CLI_APPEND(n, d, a, h)                                                                                        \
    {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_APPEND}
#define CLI_OUT_DIR(n, d, a, f, h)                                                                                    \
    {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_OUT_DIR, .files = (f)}
/* An output file, or, when it names a folder that exists, a folder receiving `f` (roster import --out with --all). */
#define CLI_OUTPUT_OR_DIR(n, d, a, f, h)                                                                              \
    {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_OUT, .files = (f)}
/* An output that may be the input option `in` (a file updated in place: calibrate board --out, --calib). */
#define CLI_OUTPUT_OR(n, d, a, in, h)                                                                                 \
    {.name = (n), .kind = CLI_OPT_STRING, .dest = (d), .arg = (a), .help = (h), .io = CLI_IO_OUT, .same_as = (in)}
/* The options every command that reads a camera picture takes, worded the same everywhere. */
#define CLI_CALIB_OPT(d) CLI_INPUT("--calib", (d), "C.json", "the camera's calibration")
#define CLI_ROSTER_OPT(d) CLI_INPUT("--roster", (d), "R.json", "the roster (`tableref roster import`)")
#define CLI_N(opts) ((int)(sizeof(opts) / sizeof(opts)[0]))

/* A command's help around its option table. */
typedef struct cli_doc {
    const char *command; /* "calibrate camera": in messages, the help and the dump */
    const char *head;    /* the usage line(s) and what the command does, printed before the options */
    const char *tail;    /* printed after the options (notes, the exit status); may be NULL */
    const char *inputs;  /* the positional arguments that are files read, by name ("BEFORE AFTER"; a last
                          * name ending in "..." takes the rest: "IMAGES..."); NULL: none */
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
 *
 * Then the files: every option marked as naming one (CLI_INPUT, CLI_OUTPUT,
 * CLI_OUT_DIR with the files it puts into the folder, ...) and every
 * positional doc->inputs names goes into the command's plan (base_plan.h),
 * and the plan is checked before the command does anything: an output that
 * is an input, two outputs that are one file, an output that is a symbolic
 * link, a folder, a FIFO or in a place that cannot be written are refused
 * (CLI_ERROR, the message naming both options).
 */
int cli_parse(const cli_doc *doc, int argc, char **argv, const cli_opt *opts, int n_opts, const char **pos,
              int max_pos);
/* The exit status after cli_parse returned `r` < 0: 0 after the help, 2 after an error. */
int cli_status(int r);

/* The plan checked again once the command knows more of its files (a table file's references read, files
 * named after an output planned with base_plan_add): 0, or -1 with the message printed ("tableref COMMAND: "). */
int cli_plan_check(const char *command);

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
/* The dump of options every command takes (`tableref --options-dump`): "option\t*\t..." lines; an option naming
 * a file also gets an "io\tCOMMAND\tNAME\tROLE\tFILES\tSAME_AS" line (ROLE: in, source, out, append, outdir). */
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
