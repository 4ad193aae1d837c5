/* tableref check: the referee's verdict on a move, from two snapshots. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "cli_roll.h"
#include "ref_judge.h"
#include "ref_words.h"
#include "rules_combat.h"
#include "rules_formation.h"
#include "rules_json.h"
#include "rules_move.h"
#include "rules_pursuit.h"
#include "rules_suggest.h"

#define MAX_LIST 16

static const cli_doc doc = {
    "check",
    "usage: tableref check BEFORE.json AFTER.json [--unit ID] [--move TYPE] [--json] [--out FILE]\n"
    "                      [--suggest FILE]\n"
    "\n"
    "Compares two snapshots of the table and judges every unit that moved.\n"
    "\n",
    "formation:      the formations declared in the snapshots (docs/formats.md)\n"
    "\n"
    "Advance, March and Reform (and auto) are judged under every placement of the\n"
    "models a camera's snapshot leaves open (alternatives, sigma_mm, unseen_units):\n"
    "a call that changes between them is CANNOT TELL, a unit not seen NOT SEEN.\n"
    "\n"
    "Exit status: 0 no ILLEGAL call stands, 1 an ILLEGAL call stands, 2 bad input\n"
    "or usage.\n",
    "BEFORE AFTER",
};

/* A pursuer's roll in "ID=INCHES": read as this option's number. */
static const cli_opt pursuer_roll = CLI_NUMBER("--pursuer", NULL, "INCHES", 0, 100, "a pursuer's roll");

/* "a,b,c" into `out` (pointers into `buf`, a copy of the text). */
static int split_list(const char *option, const char *text, char *buf, size_t cap, const char **out, size_t *n)
{
    if (strlen(text) >= cap) {
        fprintf(stderr, "tableref check: %s: list too long\n", option);
        return -1;
    }
    strcpy(buf, text);
    *n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (*n == MAX_LIST) {
            fprintf(stderr, "tableref check: %s: at most %d units\n", option, MAX_LIST);
            return -1;
        }
        out[(*n)++] = tok;
    }
    if (*n == 0) {
        fprintf(stderr, "tableref check: %s: expected unit ids separated by commas\n", option);
        return -1;
    }
    return 0;
}

/* "ID=INCHES" or "ID=INCHES:reformed". */
static int parse_pursuer(const char *text, char *id_buf, rules_pursuer *list, size_t *n)
{
    const char *eq = strchr(text, '=');
    if (*n == MAX_LIST || !eq || eq == text || (size_t)(eq - text) >= RULES_ID_MAX) {
        fprintf(stderr, "tableref check: --pursuer: expected ID=INCHES[:reformed], got '%s'\n", text);
        return -1;
    }
    memcpy(id_buf, text, (size_t)(eq - text));
    id_buf[eq - text] = '\0';
    char num[64];
    snprintf(num, sizeof num, "%s", eq + 1);
    char *colon = strchr(num, ':');
    bool reformed = false;
    if (colon) {
        if (strcmp(colon + 1, "reformed") != 0) {
            fprintf(stderr, "tableref check: --pursuer: expected ':reformed' after the roll, got '%s'\n", colon);
            return -1;
        }
        *colon = '\0';
        reformed = true;
    }
    double inches;
    if (cli_number_in("check", &pursuer_roll, num, &inches) < 0)
        return -1;
    list[(*n)++] = (rules_pursuer){id_buf, base_in_to_mm(inches), reformed};
    return 0;
}

/* AFTER with every suggestion applied, for `tableref check BEFORE FILE` to confirm. */
static int write_suggestion(const rules_snapshot *after, const rules_report *report, const char *path)
{
    base_error err = {0};
    rules_snapshot *fixed = rules_suggest_apply(after, report);
    cJSON *j = fixed ? rules_json_from_snapshot(fixed) : NULL;
    int rc = j ? base_json_write_file(j, path, &err) : base_error_set(&err, "out of memory");
    if (rc < 0)
        fprintf(stderr, "tableref check: --suggest: %s\n", err.msg);
    cJSON_Delete(j);
    rules_snapshot_free(fixed);
    return rc;
}

/* What the options asked for, read: the work after them. */
typedef struct check_job {
    const char *files[2], *unit, *move, *out_path, *suggest_path, *mid_path, *pursued;
    double pursued_deg, tolerance_in;
    int json;
    rules_combat_options *combat;
    rules_pursuit_input *pursuit;
    const char **fled;  /* room for one more: the Pursued unit */
    const cli_list *rolls;  /* --roll UNIT=INCHES */
} check_job;

/* The move type and what it needs; -1 (said on stderr) when the options do not fit together. */
static int job_options(const check_job *job, ref_judge_options *o)
{
    ref_judge_options_default(o);
    o->check.unit_id = job->unit;
    if (rules_move_from_token(job->move, &o->check.move) < 0) {
        char inferred[256], others[256];
        rules_move_tokens(RULES_MOVE_INFER, 0, ", ", ", ", inferred, sizeof inferred);
        rules_move_tokens(RULES_MOVE_OPTION, RULES_MOVE_INFER, ", ", " or ", others, sizeof others);
        fprintf(stderr, "tableref check: --move: expected %s, auto, %s, got '%s'\n", inferred, others, job->move);
        return -1;
    }
    if (o->check.move == RULES_MOVE_PURSUIT &&
        (job->pursuit->n_pursuers == 0 || (!job->pursued && isnan(job->pursued_deg)))) {
        fprintf(stderr, "tableref check: --move pursuit needs --pursuer ID=INCHES and --pursued ID or "
                        "--pursued-facing DEG\n");
        return -1;
    }
    if (job->mid_path && o->check.move != RULES_MOVE_REFORM_MOVE) {
        fprintf(stderr, "tableref check: --mid applies to --move reform-move only\n");
        return -1;
    }
    o->combat = job->combat;
    o->pursuit = job->pursuit;
    return 0;
}

/* A Pursuit's direction: the Pursued unit's facing in BEFORE (it fled from this combat too), else the one given. */
static int pursuit_direction(const check_job *job, const rules_snapshot *before, const rules_check_options *opt)
{
    rules_pursuit_input *pin = job->pursuit;
    pin->tolerance_mm = base_in_to_mm(job->tolerance_in);
    pin->pursued_heading = base_deg_to_rad(job->pursued_deg);
    if (!job->pursued)
        return 0;
    rules_formation pf;
    const rules_unit *pu = rules_snapshot_find_unit(before, job->pursued);
    if (!pu || rules_formation_fit(pu, &opt->formation, &pf, NULL) < 0) {
        fprintf(stderr, "tableref check: --pursued: no unit %s in %s\n", job->pursued, job->files[0]);
        return -1;
    }
    pin->pursued_heading = pf.heading;
    job->fled[pin->n_fled++] = job->pursued; /* the Pursued unit fled from this combat */
    pin->fled = job->fled;
    return 0;
}

/* The judgement out: --out, --suggest, then the JSON or the table on stdout. 0 or -1 (said on stderr). */
static int write_outputs(const check_job *job, const ref_judgement *j)
{
    base_error err = {0};
    cJSON *out = (job->json || job->out_path) ? ref_words_json(j) : NULL;
    if ((job->json || job->out_path) && !out) {
        fprintf(stderr, "tableref check: out of memory\n");
        return -1;
    }
    int rc = 0;
    if (job->out_path && base_json_write_file(out, job->out_path, &err) < 0) {
        fprintf(stderr, "tableref check: %s\n", err.msg);
        rc = -1;
    } else if (job->suggest_path && write_suggestion(j->after, &j->report, job->suggest_path) < 0) {
        rc = -1;
    } else if (job->json) {
        base_json_write_file(out, "-", &err);
    } else {
        ref_words_print(j, stdout);
    }
    cJSON_Delete(out);
    return rc;
}

static int run_check(check_job *job)
{
    ref_judge_options o;
    if (job_options(job, &o) < 0)
        return EXIT_BAD_INPUT;
    base_error err = {0};
    rules_snapshot *before = NULL, *after = NULL, *mid = NULL;
    ref_judgement j;
    ref_judgement_init(&j);
    int status = EXIT_BAD_INPUT;
    if (!(before = rules_json_load_snapshot(job->files[0], &err)) ||
        !(after = rules_json_load_snapshot(job->files[1], &err)) ||
        (job->mid_path && !(mid = rules_json_load_snapshot(job->mid_path, &err)))) {
        fprintf(stderr, "tableref check: %s\n", err.msg);
        goto done;
    }
    o.mid = mid;
    if (cli_rolls_apply(job->rolls, before, "check") < 0)
        goto done;
    if (o.check.move == RULES_MOVE_PURSUIT && pursuit_direction(job, before, &o.check) < 0)
        goto done;
    /* Every placement a camera's snapshot leaves open, within each model's uncertainty, and the nearest legal
     * move for the calls that stand ILLEGAL under all of them (ref_judge.h); the special moves by their rules. */
    if (ref_judge(before, after, &o, &j, &err) < 0) {
        fprintf(stderr, "tableref check: %s vs %s: %s\n", job->files[0], job->files[1], err.msg);
        goto done;
    }
    if (write_outputs(job, &j) == 0)
        status = j.report.legal ? EXIT_LEGAL : EXIT_ILLEGAL;
done:
    ref_judgement_clear(&j);
    rules_snapshot_free(mid);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    return status;
}

/* --move's choices and help, from the table of rules: every row (rules_moves.def). */
static void move_option(char *choices, size_t choices_cap, char *help, size_t help_cap)
{
    char list[400], inferred[256], others[256];
    rules_move_tokens(RULES_MOVE_OPTION, 0, " ", " ", list, sizeof list);
    snprintf(choices, choices_cap, "auto %s", list);
    rules_move_tokens(RULES_MOVE_INFER, 0, ", ", ", ", inferred, sizeof inferred);
    rules_move_tokens(RULES_MOVE_OPTION, RULES_MOVE_INFER, ", ", " or ", others, sizeof others);
    snprintf(help, help_cap,
             "%s or auto (default: auto infers the legal type, or the closest one if none is legal); %s for those "
             "rules",
             inferred, others);
    cli_wrap(help, 62);
}

int cmd_check(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *unit = NULL, *move = "auto", *out_path = NULL, *suggest_path = NULL;
    const char *mid_path = NULL, *pursued = NULL;
    double pursued_deg = NAN, tolerance_in = 0.4;
    rules_combat_options co = {0};
    const char *reforming[MAX_LIST], *combat[MAX_LIST], *fled[MAX_LIST + 1];
    char reforming_buf[1024], combat_buf[1024], fled_buf[1024];
    rules_pursuer pursuers[MAX_LIST];
    char pursuer_ids[MAX_LIST][RULES_ID_MAX];
    rules_pursuit_input pin = {.pursuers = pursuers};
    const char *reforming_txt = NULL, *combat_txt = NULL, *fled_txt = NULL;
    cli_list pursuer_txt = {{0}, 0}, rolls = {{0}, 0};
    int json = 0;
    char move_choices[512], move_help[768];
    move_option(move_choices, sizeof move_choices, move_help, sizeof move_help);
    const cli_opt opts[] = {
        CLI_STRING("--unit", &unit, "ID", "judge only this unit (reported even if it did not move)"),
        CLI_CHOICE("--move", &move, "TYPE", move_choices, move_help),
        CLI_FLAG("--json", &json, 1, "print the report as JSON (docs/formats.md) instead of a table"),
        CLI_OUTPUT("--out", &out_path, "FILE", "also write the JSON report to FILE"),
        CLI_OUTPUT("--suggest", &suggest_path, "FILE",
                   "write AFTER with every illegal unit at its nearest legal\n"
                   "position (the report names it either way), to check again"),
        CLI_LIST("--roll", &rolls, "UNIT=INCHES", CLI_ROLL_HELP),
        CLI_TEXT("\nreform-move:"),
        CLI_INPUT("--mid", &mid_path, "FILE", "the table mid-move (Sweeping Attack, ...)"),
        CLI_TEXT("combat-reform:"),
        CLI_STRING("--losing-side", &co.losing_side, "SIDE", "the side that lost the combat"),
        CLI_STRING("--reforming", &reforming_txt, "ID[,ID]",
                   "the units that reform (default: every\n"
                   "engaged unit that moved)"),
        CLI_TEXT("pursuit:"),
        CLI_LIST("--pursuer", &pursuer_txt, "ID=INCHES[:reformed]",
                 "a pursuing unit and its roll (INCHES from 0 to 100;\n"
                 "repeat; :reformed after a Post-Combat Reform)"),
        CLI_STRING("--pursued", &pursued, "ID", "the unit pursued: the direction to pursue"),
        CLI_NUMBER("--pursued-facing", &pursued_deg, "DEG", -360, 360, "or the direction to pursue"),
        CLI_STRING("--combat", &combat_txt, "ID[,ID]", "friendly units of the same combat"),
        CLI_STRING("--combat-id", &pin.combat_id, "C",
                   "the combat they come from (default: the\n"
                   "first pursuer's \"combat\" in BEFORE)"),
        CLI_STRING("--fled", &fled_txt, "ID[,ID]",
                   "enemy units that fled from it (with the\n"
                   "Pursued unit and the Fleeing units whose\n"
                   "\"combat\" is it: obstructions; any other\n"
                   "enemy is Charged)"),
        CLI_NUMBER("--tolerance-in", &tolerance_in, "X", 0, 10, "accepted distance from the prediction (0.4)"),
        CLI_TEXT(""),
    };
    int n_files = cli_parse(&doc, argc, argv, opts, CLI_N(opts), files, 2);
    if (n_files < 0)
        return cli_status(n_files);
    if (reforming_txt) {
        if (split_list("--reforming", reforming_txt, reforming_buf, sizeof reforming_buf, reforming, &co.n_reforming) < 0)
            return EXIT_BAD_INPUT;
        co.reforming = reforming;
    }
    if (combat_txt) {
        if (split_list("--combat", combat_txt, combat_buf, sizeof combat_buf, combat, &pin.n_combat) < 0)
            return EXIT_BAD_INPUT;
        pin.combat = combat;
    }
    if (fled_txt) {
        if (split_list("--fled", fled_txt, fled_buf, sizeof fled_buf, fled, &pin.n_fled) < 0)
            return EXIT_BAD_INPUT;
        pin.fled = fled;
    }
    for (int i = 0; i < pursuer_txt.n; i++)
        if (parse_pursuer(pursuer_txt.items[i], pursuer_ids[pin.n_pursuers], pursuers, &pin.n_pursuers) < 0)
            return EXIT_BAD_INPUT;
    if (n_files != 2)
        return cli_missing("check", n_files == 0 ? "the BEFORE and AFTER snapshots" : "the AFTER snapshot"),
               EXIT_BAD_INPUT;
    check_job job = {.files = {files[0], files[1]}, .unit = unit, .move = move, .out_path = out_path,
                     .suggest_path = suggest_path, .mid_path = mid_path, .pursued = pursued,
                     .pursued_deg = pursued_deg, .tolerance_in = tolerance_in, .json = json, .combat = &co,
                     .pursuit = &pin, .fled = fled, .rolls = &rolls};
    return run_check(&job);
}
