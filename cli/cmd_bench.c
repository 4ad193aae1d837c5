#include <stdio.h>
#include <string.h>

#include "commands.h"

static const struct {
    const char *area;
    int (*run)(int, char **);
    const char *what;
} benches[] = {
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

int cmd_bench(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out, "usage: tableref bench AREA [OPTIONS]\n\nPrints measured figures; it is not a test.\n\n");
        for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
            fprintf(out, "  %-8s %s\n", benches[i].area, benches[i].what);
        return argc < 2 ? EXIT_BAD_INPUT : 0;
    }
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
        if (strcmp(argv[1], benches[i].area) == 0)
            return benches[i].run(argc - 1, argv + 1);
    fprintf(stderr, "tableref bench: unknown area '%s' (try --help)\n", argv[1]);
    return EXIT_BAD_INPUT;
}
