/* tableref check: the referee's verdict on a move, from two snapshots. */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "rules_json.h"
#include "rules_move.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: tableref check BEFORE.json AFTER.json [--unit ID] [--move TYPE] [--json] [--out FILE]\n"
            "\n"
            "Compares two snapshots of the table and judges every unit that moved.\n"
            "\n"
            "  --unit ID     judge only this unit (reported even if it did not move)\n"
            "  --move TYPE   advance, march, reform or auto (default: auto infers the legal\n"
            "                type, or the closest one if none is legal)\n"
            "  --json        print the report as JSON (docs/formats.md) instead of a table\n"
            "  --out FILE    also write the JSON report to FILE\n"
            "\n"
            "Exit status: 0 every move legal, 1 a rule was broken, 2 bad input or usage.\n");
}

int cmd_check(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help(stdout);
        return 0;
    }
    const char *files[2] = {NULL, NULL}, *unit = NULL, *move = "auto", *out_path = NULL;
    int n_files = 0;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r;
        if ((r = cli_value(argc, argv, &i, "--unit", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            unit = v;
        } else if ((r = cli_value(argc, argv, &i, "--move", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            move = v;
        } else if ((r = cli_value(argc, argv, &i, "--out", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            out_path = v;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (cli_is_option(argv[i])) {
            fprintf(stderr, "tableref check: unknown option '%s'\n", argv[i]);
            help(stderr);
            return EXIT_BAD_INPUT;
        } else if (n_files < 2) {
            files[n_files++] = argv[i];
        } else {
            fprintf(stderr, "tableref check: too many arguments ('%s')\n", argv[i]);
            return EXIT_BAD_INPUT;
        }
    }
    if (n_files != 2) {
        help(stderr);
        return EXIT_BAD_INPUT;
    }
    rules_check_options opt;
    rules_check_options_default(&opt);
    opt.unit_id = unit;
    if (rules_move_from_word(move, &opt.move) < 0) {
        fprintf(stderr, "tableref check: --move: expected advance, march, reform or auto, got '%s'\n", move);
        return EXIT_BAD_INPUT;
    }

    rules_error err = {{0}};
    rules_snapshot *before = rules_json_load_snapshot(files[0], &err);
    if (!before) {
        fprintf(stderr, "tableref check: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    rules_snapshot *after = rules_json_load_snapshot(files[1], &err);
    if (!after) {
        fprintf(stderr, "tableref check: %s\n", err.msg);
        rules_snapshot_free(before);
        return EXIT_BAD_INPUT;
    }
    rules_report report;
    rules_report_init(&report);
    int status = EXIT_BAD_INPUT;
    if (rules_move_check(before, after, &opt, &report, &err) < 0) {
        fprintf(stderr, "tableref check: %s vs %s: %s\n", files[0], files[1], err.msg);
        goto done;
    }
    cJSON *j = (json || out_path) ? rules_report_to_json(&report) : NULL;
    if ((json || out_path) && !j) {
        fprintf(stderr, "tableref check: out of memory\n");
        goto done;
    }
    if (out_path && rules_json_write_file(j, out_path, &err) < 0) {
        fprintf(stderr, "tableref check: %s\n", err.msg);
        cJSON_Delete(j);
        goto done;
    }
    if (json)
        rules_json_write_file(j, "-", &err);
    else
        rules_report_print(&report, stdout);
    cJSON_Delete(j);
    status = report.legal ? EXIT_LEGAL : EXIT_ILLEGAL;
done:
    rules_report_clear(&report);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    return status;
}
