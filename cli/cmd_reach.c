/* tableref reach: where a unit can legally end a March or an Advance, before it moves. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "rules_json.h"
#include "rules_reach.h"

static const cli_doc doc = {
    "reach",
    "usage: tableref reach SNAPSHOT.json --unit ID --move advance|march [--json] [--out FILE]\n"
    "                      [--facing-step DEG] [--lateral-step MM]\n"
    "\n"
    "Where the unit can legally end the move on the table as it stands: for each end\n"
    "facing, the outline of where its Front Facing can be (sampled), and the largest\n"
    "legal wheel each way. Judged by the same rules as `tableref check`.\n"
    "\n",
    "\nExit status: 0 done, 2 bad input or usage.\n",
    "SNAPSHOT",
};

int cmd_reach(int argc, char **argv)
{
    const char *unit = NULL, *move = NULL, *out_path = NULL, *pos[1] = {NULL};
    int json = 0;
    double facing_step_deg = NAN, lateral_step_mm = NAN;
    /* --move: the rows with a reach (rules_moves.def) */
    char move_choices[128], move_help[128], move_bar[128];
    rules_move_tokens(RULES_MOVE_REACH, 0, " ", " ", move_choices, sizeof move_choices);
    rules_move_tokens(RULES_MOVE_REACH, 0, ", ", " or ", move_help, sizeof move_help);
    rules_move_tokens(RULES_MOVE_REACH, 0, "|", "|", move_bar, sizeof move_bar);
    const cli_opt opts[] = {
        CLI_STRING("--unit", &unit, "ID", "the unit about to move"),
        CLI_CHOICE("--move", &move, "TYPE", move_choices, move_help),
        CLI_FLAG("--json", &json, 1, "print the reach as JSON (docs/formats.md, \"Reach\")"),
        CLI_OUTPUT("--out", &out_path, "FILE", "also write the JSON to FILE"),
        CLI_NUMBER("--facing-step", &facing_step_deg, "DEG", 1, 90, "between end facings (15)"),
        CLI_NUMBER("--lateral-step", &lateral_step_mm, "MM", 1, 100, "between samples across a facing (5)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), pos, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    const char *file = pos[0];
    rules_reach_options o;
    rules_reach_options_default(&o);
    if (!isnan(facing_step_deg))
        o.facing_step_rad = base_deg_to_rad(facing_step_deg);
    if (!isnan(lateral_step_mm))
        o.lateral_step_mm = lateral_step_mm;
    if (!file || !unit || !move) {
        fprintf(stderr, "tableref reach: needs SNAPSHOT.json, --unit ID and --move %s\n", move_bar);
        cli_help(stderr, &doc, opts, CLI_N(opts));
        return EXIT_BAD_INPUT;
    }
    rules_move_type type;
    if (rules_move_from_token(move, &type) < 0 || !rules_move_has(type, RULES_MOVE_REACH)) {
        fprintf(stderr, "tableref reach: --move: expected %s, got '%s'\n", move_help, move);
        return EXIT_BAD_INPUT;
    }
    base_error err = {0};
    rules_snapshot *s = rules_json_load_snapshot(file, &err);
    if (!s) {
        fprintf(stderr, "tableref reach: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    rules_reach reach;
    int status = EXIT_BAD_INPUT;
    if (rules_reach_compute(s, unit, type, &o, &reach, &err) < 0) {
        fprintf(stderr, "tableref reach: %s: %s\n", file, err.msg);
        rules_snapshot_free(s);
        return EXIT_BAD_INPUT;
    }
    cJSON *j = json || out_path ? rules_reach_to_json(&reach) : NULL;
    if ((json || out_path) && !j)
        fprintf(stderr, "tableref reach: out of memory\n");
    else if (out_path && base_json_write_file(j, out_path, &err) < 0)
        fprintf(stderr, "tableref reach: %s\n", err.msg);
    else {
        if (json)
            base_json_write_file(j, "-", &err);
        else
            rules_reach_print(&reach, stdout);
        status = 0;
    }
    cJSON_Delete(j);
    rules_reach_clear(&reach);
    rules_snapshot_free(s);
    return status;
}
