/* tableref: a referee for tabletop wargames that watches the table from above. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const tableref_command commands[] = {
    {"check", "check moves between two snapshots against the rules", cmd_check},
    {"reach", "where a unit can legally end a March or an Advance, before it moves", cmd_reach},
#if TABLEREF_HAVE_VISION
    {"tags", "list the AprilTags found in an image", cmd_tags},
    {"detect", "turn a camera image into a snapshot", cmd_detect},
    {"render", "render a synthetic table with exact ground truth", cmd_render},
    {"target", "draw a printable calibration target (AprilTag grid) and its layout", cmd_target},
    {"calibrate", "calibrate the camera, the board pose or the projector", cmd_calibrate},
    {"watch", "referee live from the camera (or a recording): call each move as the table settles", cmd_watch},
    {"watch-ctl", "send a judge's command (overrule, confirm, undo, stop) to a running watch", cmd_watch_ctl},
    {"render-sequence", "render a game turn as video frames with exact truth", cmd_render_sequence},
#endif
#if TABLEREF_HAVE_VISION && TABLEREF_HAVE_OVERLAY
    {"referee", "judge a move from two camera images and draw the verdict (camera, projector, report)", cmd_referee},
#endif
    {"bench", "run a benchmark and print its figures (rules, vision)", cmd_bench},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

int cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: tableref COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'tableref COMMAND --help' describes a command. Exit status: 0 legal or done,\n"
                 "1 a rule was broken, 2 bad input or usage.\n");
}

int main(int argc, char **argv)
{
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
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "tableref: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_BAD_INPUT;
}
