#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"

static const cli_step benches[] = {
    {"rules", bench_rules, "full-board move checks and the wheel-path search"},
#if TABLEREF_HAVE_VISION
    {"vision", bench_vision, "tags and models read against the truth, speed against a stock apriltag sweep (normal and hard sets)"},
    {"watch", bench_watch, "watch at 12 MP: settle frame to alert latency and frames per second"},
    {"calib", bench_calib, "calibration: board error against views used and distortion model"},
    {"formation", bench_formation, "units rebuilt from partial evidence and the calls on rendered before/after pairs"},
    {"formats", bench_formats, "the strict snapshot and roster readers on 100,000-model files"},
#endif
#if TABLEREF_HAVE_VENUE
    {"venue", bench_venue, "one MQTT broker, many tables: lost alerts, latency, load"},
#endif
};

static const cli_doc doc = {
    "bench",
    "usage: tableref bench AREA [OPTIONS]\n\nPrints measured figures; it is not a test.\n\n",
    NULL,
};

int cmd_bench(int argc, char **argv)
{
    return cli_dispatch(&doc, benches, CLI_N(benches), argc, argv);
}
