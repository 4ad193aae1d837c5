/* tableref: a referee for tabletop wargames that watches the table from above. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_file.h"
#include "commands.h"
#if TABLEREF_HAVE_VISION
#include "media_image_read.h"
#endif

static const tableref_command commands[] = {
    {"check", "check moves between two snapshots against the rules", cmd_check},
    {"reach", "where a unit can legally end a March or an Advance, before it moves", cmd_reach},
#if TABLEREF_HAVE_VISION
    {"tags", "list the AprilTags found in an image", cmd_tags},
    {"detect", "turn a camera image into a snapshot", cmd_detect},
    {"render", "render a synthetic table with exact ground truth", cmd_render},
    {"target", "draw a printable calibration target (AprilTag grid) and its layout", cmd_target},
    {"calibrate", "calibrate the camera, the board pose or the projector", cmd_calibrate},
    {"capture", "take calibration stills from the watch source, with coverage feedback", cmd_capture},
    {"cameras", "list the cameras (libcamera, V4L2) a --source can name", cmd_cameras},
    {"watch", "referee live from the camera (or a recording): call each move as the table settles", cmd_watch},
    {"watch-ctl", "send a judge's command (overrule, confirm, undo, stop) to a running watch", cmd_watch_ctl},
    {"render-sequence", "render a game turn as video frames with exact truth", cmd_render_sequence},
#endif
#if TABLEREF_HAVE_VISION && TABLEREF_HAVE_OVERLAY
    {"referee", "judge a move from two camera images and draw the verdict (camera, projector, report)", cmd_referee},
#endif
#if TABLEREF_HAVE_ARMYLIST
    {"roster", "import an army list (.ros, .rosz, New Recruit JSON or text) into a roster with tag IDs", cmd_roster},
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

static void usage(FILE *out)
{
    fprintf(out, "usage: tableref COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'tableref COMMAND --help' describes a command. Exit status: 0 legal or done,\n"
                 "1 a rule was broken, 2 bad input or usage.\n");
#if TABLEREF_HAVE_VISION
    fprintf(out, "\nEvery command that reads pictures (JPEG, PNG) also takes --max-pixels N: pictures\n"
                 "over N pixels are refused before decoding (default %lld, 100 MP).\n",
            (long long)MEDIA_IMAGE_DEFAULT_MAX_PIXELS);
#endif
}

#if TABLEREF_HAVE_VISION
/*
 * `--max-pixels N` (or `=N`), anywhere after the command: the picture
 * loader's cap for this run, read here once so every command that reads
 * pictures takes it the same way. Removed from argv. -1 on a bad value.
 */
static int take_max_pixels(int *argc, char **argv)
{
    for (int i = 2; i < *argc; i++) {
        const char *v = NULL;
        int used = 1;
        if (strcmp(argv[i], "--max-pixels") == 0) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "tableref: --max-pixels needs a number of pixels\n");
                return -1;
            }
            v = argv[i + 1];
            used = 2;
        } else if (strncmp(argv[i], "--max-pixels=", 13) == 0) {
            v = argv[i] + 13;
        } else {
            continue;
        }
        char *end;
        double n = strtod(v, &end);
        if (end == v || *end || !(n >= 1) || n > 1e12 || n != floor(n)) {
            fprintf(stderr, "tableref: --max-pixels: expected a whole number of pixels >= 1, got '%s'\n", v);
            return -1;
        }
        media_image_set_max_pixels((long long)n);
        memmove(&argv[i], &argv[i + used], (size_t)(*argc - i - used + 1) * sizeof *argv);
        *argc -= used;
        i--;
    }
    return 0;
}
#endif

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
#if TABLEREF_HAVE_VISION
    if (take_max_pixels(&argc, argv) < 0)
        return EXIT_BAD_INPUT;
#endif
    /* One run is one command: nothing it writes may land on a file it read. */
    base_file_refuse_inputs(true);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
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
