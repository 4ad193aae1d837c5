/* bench_vision_options: the command line of `tableref bench vision` (bench_vision_options.h). */
#include "bench_vision_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "ds_hard.h"

static const char *const help_text =
    "usage: tableref bench vision [--set normal|hard|hills|minis|all] [--frames N] [--tables K,..] [--reps N]\n"
    "                             [--seed S] [--crop WxH+X+Y] [--no-pairs] [--no-relief] [--no-masts]\n"
    "                             [--tail MM]\n"
    "                             [--cores N]\n"
    "                             [--decimate D] [--sigma S] [--max-hamming H]\n\n"
    "Renders the normal set (N frames, default 3, of 4056x3040 tables with 250 tags of\n"
    "16 mm, classic renderer) and the hard set (tables 1-%d of datasets/hard: ~250\n"
    "mixed models, 16-32 mm tags, leaning figures, hands, 7-15 deg tilt, k1 -0.1..-0.3,\n"
    "Bayer sensor; tables 1-4 a 12 MP camera with colour JPEG 92, table 5 a 4K USB\n"
    "webcam: 3840x2160, ~0.6 mm/px, a small noisy sensor, auto exposure, MJPEG 75),\n"
    "and the hills set (the same tables with three hills of 70, 50 and 30 mm, the\n"
    "70 mm one near a long edge, a unit on each top: datasets/ds_hill.h),\n"
    "and reports for each table and each set separately (--set minis, not in all:\n"
    "the miniatures set, figures standing as real ones do, rim labels and masts\n"
    "above the figures (--no-masts: rim labels alone), per base\n"
    "size and camera: units and models placed, p99, models placed off, the pairs'\n"
    "calls, the smallest mark placed at 99%%: cli/bench_vision_bases.h):\n"
    "  - tags at least 90%% visible read, and wrong reads, by tableref (the whole\n"
    "    pipeline, vis_detector_run_tags) and by stock apriltag 3.3 in a sweep of\n"
    "    decimate 1, 1.5, 2 x quad_sigma 0, 0.4, 0.8; times side by side, 2 threads\n"
    "    each (--cores N: the process pinned to N CPUs, N threads each), detectors\n"
    "    and decode tables built before timing, best of --reps runs;\n"
    "  - where tableref's time goes, wall and CPU ms: the JPEG read (the picture as\n"
    "    the camera writes it, read as `detect` reads it), the first pass, the\n"
    "    predicted reads, the formation fit, the rest, and judging a pair;\n"
    "  - the speed ratio against the fastest stock configuration that reads at least\n"
    "    as many of those tags as tableref (or none);\n"
    "  - models placed within 5 mm of all models, and of those no hand hides; wrong\n"
    "    ids; p99 centre error; facing p99 (datasets/ds_score.h); on a table with\n"
    "    hills, the models on the hills and those on the board side by side;\n"
    "  - facing p99 of the models placed from their own tag, a unit's facing p99\n"
    "    (its fitted formation), units of one model placed (cli/bench_facing.h);\n"
    "  - hard set: each table's before/after pair (a 4.5\" advance at Advance 5\", an\n"
    "    11\" march at March 10\", nothing else moved) judged as `tableref referee` does.\n"
    "  - the whole `tableref referee` on the first hard table's 12 MP pair: its wall\n"
    "    and CPU time, beside one `detect` (a picture read and detected) and beside\n"
    "    one whole `tableref detect` command on its AFTER picture: the CPU ratio\n"
    "    issue 33 bounds (at most 2.5x).\n"
    "--crop renders only that part of each hard table (quick runs). --no-relief\n"
    "reads the hills tables as flat (the referee before it knew relief). --decimate,\n"
    "--sigma and --max-hamming override tableref's tuned tag detector.\n"
    "Prints figures; it is not a test.\n\n";

/* "1,3" into o->tables; -1 with a message when it is not such a list. */
static int parse_tables(const char *text, bv_options *o)
{
    o->n_tables = 0;
    for (const char *p = text; *p && o->n_tables < 8;) {
        o->tables[o->n_tables++] = (int)strtol(p, (char **)&p, 10);
        if (*p == ',')
            p++;
        else if (*p)
            return fprintf(stderr, "tableref bench vision: --tables takes a list like 1,3\n"), -1;
    }
    return 0;
}

int bv_options_parse(int argc, char **argv, bv_options *o)
{
    *o = (bv_options){.normal = 1, .hard = 1, .hills = 1, .frames = 3, .reps = 2, .pairs = 1, .relief = 1, .seed = 1,
                   .decimate = 0, .sigma = -1, .hamming = -1};
    char head[4096];
    snprintf(head, sizeof head, help_text, ds_hard_preset_count());
    const cli_doc doc = {"bench vision", head, NULL};
    const char *set = NULL, *tables = NULL;
    double frames = o->frames, reps = o->reps, seed = o->seed, hamming = o->hamming, cores = 0;
    const cli_opt opts[] = {
        CLI_CHOICE("--set", &set, "SET", "normal hard hills minis all", "normal, hard, hills, minis or all (default all:\n"
                   "the first three)"),
        CLI_WHOLE("--frames", &frames, "N", 1, 100, "frames of the normal set (3)"),
        CLI_STRING("--tables", &tables, "K,..", "the hard and hills sets' tables (default: all)"),
        CLI_WHOLE("--reps", &reps, "N", 1, 20, "runs per frame, the best kept (2)"),
        CLI_WHOLE("--seed", &seed, "S", 0, 4294967295.0, "the normal set's first seed (1)"),
        CLI_STRING("--crop", &o->crop, "WxH+X+Y", "render only that part of each hard table"),
        CLI_FLAG("--no-pairs", &o->pairs, 0, "skip the hard set's before/after pairs"),
        CLI_FLAG("--no-relief", &o->relief, 0, "read the hills tables as flat (their hills not given)"),
        CLI_FLAG("--no-masts", &o->no_masts, 1, "the minis set's rim labels alone (no masts above the figures)"),
        CLI_NUMBER("--tail", &o->tail_mm, "MM", 0, 5,
                   "the minis set: name every model placed more than MM off (default: over 5 mm), its evidence\n"
                   "and sigma (TABLEREF_DEBUG_PLACED=1 says on stderr how each was placed)"),
        CLI_NUMBER("--decimate", &o->decimate, "D", 1, 8,
                   "tableref's tag detector: quad decimation over the whole frame (no plan)"),
        CLI_NUMBER("--sigma", &o->sigma, "S", 0, 10, "tableref's tag detector: blur before the search"),
        CLI_WHOLE("--max-hamming", &hamming, "H", 0, 3, "tableref's tag detector: bits corrected"),
        CLI_WHOLE("--cores", &cores, "N", 1, 64, "pin the process to N CPUs; N threads on both sides"),
    };
    int r = cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
    if (r < 0)
        return r;
    o->frames = (int)frames, o->reps = (int)reps, o->seed = (unsigned)seed, o->hamming = (int)hamming;
    o->cores = (int)cores;
    if (set) {
        o->normal = strcmp(set, "normal") == 0 || strcmp(set, "all") == 0;
        o->hard = strcmp(set, "hard") == 0 || strcmp(set, "all") == 0;
        o->hills = strcmp(set, "hills") == 0 || strcmp(set, "all") == 0;
        o->minis = strcmp(set, "minis") == 0;
        if (!o->normal && !o->hard && !o->hills && !o->minis)
            return fprintf(stderr, "tableref bench vision: --set takes normal, hard, hills or all\n"), CLI_ERROR;
    }
    if (tables && parse_tables(tables, o) < 0)
        return CLI_ERROR;
    if (o->n_tables == 0)
        for (int k = 1; k <= ds_hard_preset_count(); k++)
            o->tables[o->n_tables++] = k;
    for (int k = 0; k < o->n_tables; k++)
        if (o->tables[k] < 1 || o->tables[k] > ds_hard_preset_count())
            return fprintf(stderr, "tableref bench vision: hard tables are 1..%d\n", ds_hard_preset_count()), CLI_ERROR;
    return 0;
}

