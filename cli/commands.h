/*
 * The tableref subcommands. Each takes its own argv (argv[0] is the
 * subcommand name), prints its own --help, and returns the process exit
 * status: 0 success (and "every move legal"), 1 a rule broken, 2 bad input
 * or usage.
 */
#ifndef TABLEREF_COMMANDS_H
#define TABLEREF_COMMANDS_H

#include <stdio.h>

#include "tableref_config.h"

#include "base_error.h"

/* The exit statuses are base_error.h's (BASE_EXIT_*), defined there once; these are their names here. */
#define EXIT_LEGAL BASE_EXIT_OK
#define EXIT_ILLEGAL BASE_EXIT_ILLEGAL
#define EXIT_BAD_INPUT BASE_EXIT_BAD_INPUT

typedef struct tableref_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    /* Its outputs are written whole or not at all: every file it commits waits until it returns, then all are
     * renamed over their targets together (unless it exits 2, bad input: then none is). Off for the commands that
     * stream their outputs as they go (watch, capture, render-sequence, the benchmarks). */
    int whole;
} tableref_command;

int cmd_check(int argc, char **argv);
int cmd_reach(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* Benchmarks, dispatched by `tableref bench AREA`. */
int bench_rules(int argc, char **argv);
#if TABLEREF_HAVE_VISION
int bench_vision(int argc, char **argv);
int cmd_tags(int argc, char **argv);
int cmd_detect(int argc, char **argv);
/* The pre-round check of a table (issue 19). */
int cmd_table_check(int argc, char **argv);
/* The hills' heights measured from the camera (issue 28). */
int cmd_survey(int argc, char **argv);
int cmd_render(int argc, char **argv);
/* Calibration (issue 4). */
int cmd_target(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int bench_calib(int argc, char **argv);
/* The strict readers at scale (issue 10). */
int bench_formats(int argc, char **argv);
/* Watching (issue 5). */
int cmd_watch(int argc, char **argv);
int cmd_watch_ctl(int argc, char **argv);
int cmd_render_sequence(int argc, char **argv);
int bench_watch(int argc, char **argv);
/* Formation from evidence and honest verdicts (issue 9). */
int bench_formation(int argc, char **argv);
/* Calibration stills and the cameras (issue 11). */
int cmd_capture(int argc, char **argv);
int cmd_cameras(int argc, char **argv);
#endif
#if TABLEREF_HAVE_VISION && TABLEREF_HAVE_OVERLAY
/* The referee's main job (issue 5): two images in, the verdict drawn. */
int cmd_referee(int argc, char **argv);
#endif

#if TABLEREF_HAVE_VENUE
/* The venue feed (issue 12): one broker, many tables. */
int bench_venue(int argc, char **argv);
/* A whole broker set-up, one account per table (issue 20): `tableref venue setup`. */
int cmd_venue(int argc, char **argv);
/* The judge's page over https (issue 32): `tableref venue serve DIR`. */
int cmd_venue_serve(int argc, char **argv);
#endif
/* A roster's marks laid out from its bases (issue 30): `tableref tags layout`. */
int cmd_tags_layout(int argc, char **argv);
#if TABLEREF_HAVE_SHEET
/* Tag sheets to print (issue 11): `tableref tags sheet`. */
int cmd_tags_sheet(int argc, char **argv);
#endif
#if TABLEREF_HAVE_ARMYLIST
/* Army lists in (issue 11). */
int cmd_roster(int argc, char **argv);
#endif

#endif
