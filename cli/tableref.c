/* tableref: a referee for tabletop wargames that watches the table from above. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base_file.h"
#include "base_text.h"
#include "cli_args.h"
#include "commands.h"
#if TABLEREF_HAVE_VISION
#include "ds_loop_source.h"
#include "media_image_read.h"
#endif

static const tableref_command commands[] = {
    {"check", "check moves between two snapshots against the rules", cmd_check, 1},
    {"reach", "where a unit can legally end a March or an Advance, before it moves", cmd_reach, 1},
#if TABLEREF_HAVE_VISION
    {"tags", "list the AprilTags found in an image", cmd_tags, 1},
    {"detect", "turn a camera image into a snapshot", cmd_detect, 1},
    {"table-check", "check a table before a round: focus, exposure, resolution, board, calibration, units",
     cmd_table_check},
    {"survey", "measure the heights of a table's hills from the camera, each with its +/-", cmd_survey, 1},
    {"render", "render a synthetic table with exact ground truth", cmd_render, 1},
    {"target", "draw a printable calibration target (AprilTag grid) and its layout", cmd_target, 1},
    {"calibrate", "calibrate the camera, the board pose or the projector", cmd_calibrate, 1},
    {"capture", "take calibration stills from the watch source, with coverage feedback", cmd_capture},
    {"cameras", "list the cameras (libcamera, V4L2) a --source can name", cmd_cameras},
    {"watch", "referee live from the camera (or a recording): call each move as the table settles", cmd_watch},
    {"watch-ctl", "send a judge's command (overrule, confirm, undo, stop) to a running watch", cmd_watch_ctl},
    {"render-sequence", "render a game turn as video frames with exact truth", cmd_render_sequence},
#endif
#if TABLEREF_HAVE_VISION && TABLEREF_HAVE_OVERLAY
    {"referee", "judge a move from two camera images and draw the verdict (camera, projector, report)", cmd_referee, 1},
#endif
#if TABLEREF_HAVE_ARMYLIST
    {"roster", "import an army list (.ros, .rosz, New Recruit JSON or text) into a roster with tag IDs", cmd_roster, 1},
#endif
#if TABLEREF_HAVE_VENUE
    {"venue", "the venue's broker: a whole Mosquitto set-up with one account per table", cmd_venue},
#endif
    {"bench", "run a benchmark and print its figures (rules, vision)", cmd_bench},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* Levenshtein distance of two short words (commands are under 32 letters). */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31)
        return 99;
    int d[32][32];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

#if TABLEREF_HAVE_VISION
/* The options every command takes, read before the command runs (the picture loader's cap for this run). */
static double max_pixels = (double)MEDIA_IMAGE_DEFAULT_MAX_PIXELS;
static const cli_opt global_opts[] = {
    {.name = "--max-pixels", .kind = CLI_OPT_WHOLE, .dest = &max_pixels, .arg = "N", .min = 1, .max = 1e12,
     .what = "a whole number of pixels >= 1",
     .help = "pictures (JPEG, PNG) over N pixels are refused before decoding\n(default 100000000, 100 MP)"},
};
#define N_GLOBAL_OPTS CLI_N(global_opts)
#else
static const cli_opt *const global_opts = NULL;
#define N_GLOBAL_OPTS 0
#endif

static void usage(FILE *out)
{
    fprintf(out, "usage: tableref COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'tableref COMMAND --help' describes a command. Exit status: 0 legal or done,\n"
                 "1 a rule was broken, 2 bad input or usage.\n");
    if (N_GLOBAL_OPTS > 0) {
        static const cli_doc doc = {"", "\nEvery command takes these options, anywhere after the command:\n", NULL};
        cli_help(out, &doc, global_opts, N_GLOBAL_OPTS);
    }
}

/* `tableref --options-dump`: every command's option table, for the man page and the completion (make-man.py). */
static int dump_options(void)
{
    cli_dump_options(stdout, "*", global_opts, N_GLOBAL_OPTS);
    fflush(stdout);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        int rc = cli_run_options_dump(commands[i].name, commands[i].run);
        if (rc != 0) {
            fprintf(stderr, "tableref --options-dump: %s exited %d\n", commands[i].name, rc);
            return rc;
        }
    }
    return 0;
}

/* The rows of capture's table of sources that live above capture/: registered before anything reads the table
 * (a source opened, a table file read, a help printed). */
static void register_sources(void)
{
#if TABLEREF_HAVE_VISION
    base_error err;
    if (ds_loop_source_register(&err) < 0) /* only a clash of schemes, a bug */
        fprintf(stderr, "tableref: %s\n", err.msg);
#endif
}

/* Nothing printed reaches the terminal raw: a name from a roster, a table file, an army list or an argument is shown
 * with its control characters and escape sequences as text (base_text_terminal_stream). glibc's stdout and stderr
 * are variables. */
static FILE *g_plain_out, *g_plain_err, *g_escaped_out, *g_escaped_err;

/* At exit: the escaping streams are flushed and closed (their cookies freed), glibc's own streams put back for
 * whatever is printed after (the sanitizers' reports, a later atexit handler). */
static void close_escaped_terminal(void)
{
    if (g_escaped_out) {
        stdout = g_plain_out;
        fclose(g_escaped_out);
        g_escaped_out = NULL;
    }
    if (g_escaped_err) {
        stderr = g_plain_err;
        fclose(g_escaped_err);
        g_escaped_err = NULL;
    }
}

static void escape_terminal(void)
{
    fflush(stdout);
    g_plain_out = stdout;
    g_plain_err = stderr;
    g_escaped_out = base_text_terminal_stream(STDOUT_FILENO, isatty(STDOUT_FILENO));
    g_escaped_err = base_text_terminal_stream(STDERR_FILENO, true);
    if (g_escaped_out)
        stdout = g_escaped_out;
    if (g_escaped_err)
        stderr = g_escaped_err;
    atexit(close_escaped_terminal);
}

/* A command run with its outputs held (tableref_command.whole): released when it succeeded, else discarded. */
static int run_whole(const tableref_command *c, int argc, char **argv)
{
    base_file_hold();
    int rc = c->run(argc, argv);
    if (rc == EXIT_BAD_INPUT) {
        base_file_discard();
        return rc;
    }
    base_error err;
    if (base_file_release(&err) < 0) {
        fprintf(stderr, "tableref %s: %s\n", c->name, err.msg);
        return EXIT_BAD_INPUT;
    }
    return rc;
}

int main(int argc, char **argv)
{
    escape_terminal();
    register_sources();
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("tableref %s\n", TABLEREF_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "--options-dump") == 0)
        return dump_options();
    if (cli_take("", &argc, argv, 2, global_opts, N_GLOBAL_OPTS) < 0)
        return EXIT_BAD_INPUT;
#if TABLEREF_HAVE_VISION
    media_image_set_max_pixels((long long)max_pixels);
#endif
    /* One run is one command: nothing it writes may land on a file it read. */
    base_file_refuse_inputs(true);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].whole ? run_whole(&commands[i], argc - 1, argv + 1)
                                     : commands[i].run(argc - 1, argv + 1);
    /* A typo: name the nearest command rather than print them all. */
    size_t best = N_COMMANDS;
    int best_d = 3;
    for (size_t i = 0; i < N_COMMANDS; i++) {
        int d = edit_distance(argv[1], commands[i].name);
        if (d < best_d)
            best_d = d, best = i;
    }
    if (best < N_COMMANDS) {
        fprintf(stderr, "tableref: unknown command '%s': did you mean '%s'? ('tableref --help' lists them)\n", argv[1],
                commands[best].name);
        return EXIT_BAD_INPUT;
    }
    fprintf(stderr, "tableref: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_BAD_INPUT;
}
