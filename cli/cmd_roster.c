/*
 * tableref roster import: an army list file in (BattleScribe .ros/.rosz, New
 * Recruit JSON, a New Recruit tournament report, New Recruit's text), a
 * tableref roster out, with a tag for every model. Values the list lacks
 * come from --catalogue (BSData .gst/.cat), from --set, or from the user at
 * the terminal; anything still unknown is listed, never guessed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base_text.h"
#include "army_catalogue.h"
#include "army_list.h"
#include "army_names.h"
#include "army_roster.h"
#include "base_file.h"
#include "base_plan.h"
#include "cmd_roster_paths.h"
#include "cli_args.h"
#include "cmd_roster_lists.h"
#include "commands.h"
#include "rules_json.h"
#include "roster.h"

static const cli_doc import_doc = {
    "roster import",
    "usage: tableref roster import LIST --out ROSTER.json [options]\n"
    "\n"
    "Reads an army list as New Recruit or BattleScribe export it -- a .ros (XML),\n"
    ".rosz (zipped), New Recruit's JSON roster, a New Recruit tournament report\n"
    "(both players' lists), or New Recruit's text (\"560 - Goblin Witch, General,\n"
    "...\") -- and writes the roster `tableref detect`, `referee` and `tags sheet`\n"
    "read: every unit with its models, base size, Advance and March Rates, and\n"
    "an AprilTag ID for every model, and its marks laid out as `tableref tags\n"
    "layout` lays them out: a rim label round the figure's feet on every base\n"
    "that takes one (square and oblong bases of 18 mm and more), a square tag\n"
    "sized to fit the base on the others (round bases), and every unit's masts\n"
    "(tags on rods above the figures). --square-tags keeps a square tag on\n"
    "every base, as rosters had before rim labels, and gives no masts;\n"
    "--no-masts lays out the bases' marks alone.\n"
    "\n",
    "\n"
    "Exit status: 0 written and complete, 1 written but some values are still\n"
    "unknown (listed on stderr and under \"unresolved\" in the roster: give them\n"
    "with --set or --catalogue), 2 bad input or usage (the message names the file).\n",
    "LIST",
};

static const cli_doc roster_doc = {
    "roster",
    "usage: tableref roster import LIST --out ROSTER.json [options]\n\n",
    "\n'tableref roster import --help' describes it.\n",
};

typedef struct set_value {
    char name[ARMY_NAME_MAX];
    char key[16];
    char value[64];
} set_value;

static int parse_set(const char *arg, set_value *s)
{
    const char *colon = strrchr(arg, ':'), *eq = colon ? strchr(colon, '=') : NULL;
    if (!colon || !eq || colon == arg || eq == colon + 1 || !eq[1])
        return -1;
    /* Stored as the list's names are (army_span_copy: cut on a character boundary) so they compare equal. */
    army_span_copy(s->name, sizeof s->name, arg, (size_t)(colon - arg));
    snprintf(s->key, sizeof s->key, "%.*s", (int)(eq - colon - 1), colon + 1);
    snprintf(s->value, sizeof s->value, "%s", eq + 1);
    return 0;
}

/* Applies one answer ("base", "adv", "mar", "models") to a unit; -1 with a message when the value is not one. */
static int apply_value(army_unit *u, const char *key, const char *value, const char *who)
{
    double v;
    army_base b;
    if (strcasecmp(key, "base") == 0) {
        if (!army_parse_base(value, &b)) {
            fprintf(stderr, "tableref roster import: %s: base: expected FRONTxSIDE in mm (20x20) or a round "
                            "base's diameter (60o), got '%s'\n",
                    who, value);
            return -1;
        }
        if (u->n_groups == 0)
            army_unit_add_group(u, u->name, u->models);
        for (size_t g = 0; g < u->n_groups; g++)
            u->groups[g].base = b, u->groups[g].base_from = ARMY_FROM_USER;
    } else if (strcasecmp(key, "adv") == 0 || strcasecmp(key, "mar") == 0) {
        const bool adv = strcasecmp(key, "adv") == 0;
        rules_dice d;
        if (rules_dice_parse(value, &d) == 0) { /* random movement: judged against the roll declared */
            rules_dice_format(&d, adv ? u->adv_dice : u->mar_dice, RULES_DICE_MAX);
            *(adv ? &u->adv_in : &u->mar_in) = NAN;
        } else if (army_parse_rate(value, &v, NULL) == 1) {
            *(adv ? &u->adv_in : &u->mar_in) = v;
            (adv ? u->adv_dice : u->mar_dice)[0] = '\0';
        } else {
            fprintf(stderr, "tableref roster import: %s: %s: expected inches (4 or 4\") or dice (3D6), got '%s'\n", who,
                    key, value);
            return -1;
        }
        u->rates_from = ARMY_FROM_USER;
    } else if (strcasecmp(key, "models") == 0) {
        char *end;
        long n = strtol(value, &end, 10);
        if (*end || n < 1 || n > 500) {
            fprintf(stderr, "tableref roster import: %s: models: expected a whole number 1..500, got '%s'\n", who,
                    value);
            return -1;
        }
        if (u->n_groups == 1)
            u->groups[0].count = (int)n;
        u->models = (int)n;
    } else {
        fprintf(stderr, "tableref roster import: --set: unknown key '%s' (base, adv, mar, models)\n", key);
        return -1;
    }
    army_unit_update_missing(u);
    return 0;
}

/* The names of list `only`'s units (-1: every list's), each once, in the list's order, on stderr. */
static void say_unit_names(const army_file *f, long only)
{
    fprintf(stderr, "  the units are called:");
    int shown_names = 0;
    for (size_t a = 0; a < f->n_armies; a++)
        for (size_t k = 0; k < f->armies[a].n_units && (only < 0 || a == (size_t)only); k++) {
            const army_list *al = &f->armies[a];
            bool before = false;
            for (size_t b = 0; b <= a && !before; b++)
                for (size_t j = 0; j < (b == a ? k : f->armies[b].n_units) && !before; j++)
                    before = (only < 0 || b == (size_t)only) && strcmp(f->armies[b].units[j].name, al->units[k].name) == 0;
            if (!before)
                fprintf(stderr, "%s\"%s\"", shown_names++ ? ", " : " ", roster_shown(al->units[k].name, 0, 0));
        }
    fprintf(stderr, "\n");
}

/* Each --set on every unit of that name (of list `only`, -1 every list); a name no unit has is refused, with the
 * names there are. */
static int apply_sets(army_file *f, long only, const set_value *sets, int n)
{
    for (int i = 0; i < n; i++) {
        int hits = 0;
        for (size_t a = 0; a < f->n_armies; a++)
            for (size_t k = 0; k < f->armies[a].n_units && (only < 0 || a == (size_t)only); k++) {
                army_unit *u = &f->armies[a].units[k];
                if (strcasecmp(u->name, sets[i].name) != 0)
                    continue;
                hits++;
                if (apply_value(u, sets[i].key, sets[i].value, u->name) < 0)
                    return -1;
            }
        if (!hits) {
            fprintf(stderr, "tableref roster import: --set '%s:%s=%s': no unit is called \"%s\"%s\n",
                    roster_shown(sets[i].name, 0, 0), sets[i].key, roster_shown(sets[i].value, 0, 1), roster_shown(sets[i].name, 0, 2),
                    only >= 0 ? " in the list picked" : "");
            say_unit_names(f, only);
            return -1;
        }
    }
    return 0;
}

/* Asks at the terminal for each value still unknown; an empty answer leaves it flagged. */
/* Asks, at the terminal, for what the units of list `only` (-1: every list) still miss. */
static void ask(army_file *f, long only)
{
    static const struct {
        unsigned bit;
        const char *key, *prompt;
    } asks[] = {{ARMY_MISSING_COUNT, "models", "how many models"},
                {ARMY_MISSING_BASE, "base", "base size, front x side in mm (e.g. 20x20; 60o for round)"},
                {ARMY_MISSING_ADV, "adv", "Advance Rate in inches"},
                {ARMY_MISSING_MAR, "mar", "March Rate in inches"}};
    char line[128];
    for (size_t a = 0; a < f->n_armies; a++)
        for (size_t k = 0; k < f->armies[a].n_units && (only < 0 || a == (size_t)only); k++) {
            army_unit *u = &f->armies[a].units[k];
            if (u->missing)
                fprintf(stderr, "%s (%s)%s%s\n", roster_shown(u->name, 0, 0), roster_shown(u->where, 0, 2), u->note[0] ? ": " : "",
                        roster_shown(u->note, 0, 1));
            for (size_t q = 0; q < sizeof asks / sizeof asks[0]; q++) {
                while (u->missing & asks[q].bit) {
                    fprintf(stderr, "  %s? [empty: leave it unknown] ", asks[q].prompt);
                    if (!fgets(line, sizeof line, stdin))
                        return;
                    line[strcspn(line, "\r\n")] = '\0';
                    if (!line[0])
                        break;
                    apply_value(u, asks[q].key, line, u->name);
                }
            }
        }
}

static void print_unit(const army_unit *u, const cJSON *ju)
{
    char miss[128];
    const cJSON *models = cJSON_GetObjectItemCaseSensitive(ju, "models");
    const cJSON *m0 = cJSON_GetArrayItem(models, 0), *mn = cJSON_GetArrayItem(models, cJSON_GetArraySize(models) - 1);
    const cJSON *jtag = cJSON_GetObjectItemCaseSensitive(ju, "tag");
    const cJSON *tag = cJSON_GetObjectItemCaseSensitive(jtag, "size_mm");
    const cJSON *cell = cJSON_GetObjectItemCaseSensitive(jtag, "cell_mm");
    printf("  %-26s %-26s %3d %-9s", cJSON_GetObjectItemCaseSensitive(ju, "id")->valuestring, roster_shown(u->name, 26, 0), u->models,
           u->character ? "character" : "");
    const army_base *b = u->n_groups ? &u->groups[0].base : NULL;
    if (b && b->front_mm > 0)
        printf(b->round ? " %3.0fo     " : " %3.0fx%-3.0f ", b->front_mm, b->side_mm);
    else
        printf("   ?      ");
    if (u->adv_dice[0])
        printf("%3s", u->adv_dice);
    else
        printf(isnan(u->adv_in) ? "  ?" : "%3.0f", u->adv_in);
    if (u->mar_dice[0])
        printf("%4s", u->mar_dice);
    else
        printf(isnan(u->mar_in) ? (u->mar_none ? "   -" : "   ?") : "%4.0f", u->mar_in);
    if (m0 && mn)
        printf("  tags %d-%d", cJSON_GetObjectItemCaseSensitive(m0, "tag_id")->valueint,
               cJSON_GetObjectItemCaseSensitive(mn, "tag_id")->valueint);
    if (cJSON_IsNumber(tag))
        printf(" (%.1f mm)", tag->valuedouble);
    else if (cJSON_IsNumber(cell))
        printf(" (rim, %.2f mm cells)", cell->valuedouble);
    if (u->rates_from == ARMY_FROM_CATALOGUE || (u->n_groups && u->groups[0].base_from == ARMY_FROM_CATALOGUE))
        printf("  [catalogue]");
    printf("\n");
    if (u->said[0]) /* what had to be assumed: said, so that it can be checked */
        fprintf(stderr, "    %s: %s\n", roster_shown(u->name, 0, 0), roster_shown(u->said, 0, 1));
    if (u->missing)
        fprintf(stderr, "    %s: unknown %s%s%s\n", roster_shown(u->name, 0, 0), army_unit_missing(u, miss, sizeof miss),
                u->note[0] ? ": " : "", roster_shown(u->note, 0, 1));
}

static int write_army(const army_file *f, size_t a, int slot, const char *path, const army_roster_options *base,
                      int *incomplete)
{
    army_roster_options o = *base;
    o.army_slot = slot;
    base_error err;
    const army_list *al = &f->armies[a];
    cJSON *root = army_roster_json(al, f, &o, &err);
    if (!root) { /* a pack's list named: the others may be fine */
        if (f->n_armies > 1)
            fprintf(stderr, "tableref roster import: %s: list %zu (%s): %s\n", f->path, a + 1,
                    roster_shown(al->player[0] ? al->player : al->name, 60, 0), err.msg);
        else
            fprintf(stderr, "tableref roster import: %s: %s\n", f->path, err.msg);
        return -1;
    }
    const cJSON *unresolved = cJSON_GetObjectItemCaseSensitive(root, "unresolved");
    if (!unresolved) {
        /* What we write must be a roster the rest of tableref reads. */
        roster_file *check = roster_from_json(root, path, &err);
        if (!check) {
            fprintf(stderr, "tableref roster import: internal error, the roster does not read back: %s\n", err.msg);
            cJSON_Delete(root);
            return -1;
        }
        roster_free(check);
    }
    if (base_json_write_file(root, path, &err) < 0) {
        fprintf(stderr, "tableref roster import: %s\n", err.msg);
        cJSON_Delete(root);
        return -1;
    }
    char side[64];
    army_roster_side(al, &o, side, sizeof side);
    printf("%s%s%s (%s), army slot %d, %s tag IDs, side %s:\n",
           al->name[0] ? roster_shown(al->name, 0, 0) : "(army not named)", al->player[0] ? " -- " : "",
           roster_shown(al->player, 0, 1), army_format_word(f->format), slot, slot == 1 ? "even" : "odd",
           roster_shown(side, 0, 2));
    printf("  %-26s %-26s %3s %-9s %-9s %3s %4s\n", "unit id", "name", "n", "", "base mm", "Adv", "Mar");
    const cJSON *units = cJSON_GetObjectItemCaseSensitive(root, "units");
    for (size_t k = 0; k < al->n_units; k++)
        print_unit(&al->units[k], cJSON_GetArrayItem(units, (int)k));
    int models = 0;
    for (size_t k = 0; k < al->n_units; k++)
        models += al->units[k].models;
    printf("wrote %s: %zu units, %d models", path, al->n_units, models);
    if (unresolved) {
        printf(", %d with values still unknown (see \"unresolved\")", cJSON_GetArraySize(unresolved));
        *incomplete = 1;
    }
    printf("\n");
    cJSON_Delete(root);
    return 0;
}

static int parse_board(const char *text, army_roster_options *o)
{
    double w, d;
    char x;
    if (sscanf(text, "%lf%c%lf", &w, &x, &d) != 3 || (x != 'x' && x != 'X') || !(w >= 12 && w <= 200) ||
        !(d >= 12 && d <= 200))
        return -1;
    o->board_w_mm = w * 25.4;
    o->board_d_mm = d * 25.4;
    return 0;
}

/* The roster options from the command line: family, side, prefix, tag height, board and the --set values. */
static int import_options(const char *family, const char *side, const char *prefix, double tag_h, const char *board,
                          const cli_list *sets_txt, army_roster_options *o, set_value *sets)
{
    army_roster_options_default(o);
    snprintf(o->family, sizeof o->family, "%s", family);
    o->side = side;
    o->prefix = prefix;
    o->tag_height_mm = tag_h;
    if (strcmp(family, "tag36h11") != 0 && strcmp(family, "tagStandard41h12") != 0) {
        fprintf(stderr, "tableref roster import: --family: expected tag36h11 or tagStandard41h12, got '%s'\n", family);
        return -1;
    }
    if (board && parse_board(board, o) < 0) {
        fprintf(stderr, "tableref roster import: --board: expected WxD in inches (72x48, 44x30), got '%s'\n", board);
        return -1;
    }
    for (int i = 0; i < sets_txt->n; i++)
        if (parse_set(sets_txt->items[i], &sets[i]) < 0) {
            fprintf(stderr, "tableref roster import: --set: expected 'UNIT NAME:KEY=VALUE', got '%s'\n",
                    sets_txt->items[i]);
            return -1;
        }
    return 0;
}

/* Whether any unit of the file gives its points (a text list). */
static int any_points(const army_file *f)
{
    for (size_t a = 0; a < f->n_armies; a++)
        for (size_t u = 0; u < f->armies[a].n_units; u++)
            if (f->armies[a].units[u].points > 0)
                return 1;
    return 0;
}

/* The points check's tally; each unit that does not fit is said under it with its line and both figures. */
static void say_points(const army_fill_report *rep)
{
    if (rep->units_points_checked == 0)
        return;
    printf("points: %d units checked against their model counts by the catalogue's costs, %d do not fit%s",
           rep->units_points_checked, rep->units_points_misfit, rep->units_points_misfit ? "" : "\n");
    if (rep->units_points_misfit) /* the data may be another points version than the list's: said, not hidden */
        printf(" (said under each unit; the costs are those of %s%s: a list priced for another version of the "
               "army book differs)\n",
               roster_shown(rep->points_data, 120, 0), rep->points_data_more ? " and the other armies' files" : "");
}

/* Fills what the lists lack: from the catalogues, the --set values, then (at a terminal) by asking. */
static int import_complete(army_file *f, const cli_list *cats, const set_value *sets, int n_sets, int no_ask,
                           long pick, army_catalogue **cat)
{
    base_error err;
    if (cats->n) {
        if (!(*cat = army_catalogue_load(cats->items, (size_t)cats->n, &err))) {
            fprintf(stderr, "tableref roster import: %s\n", err.msg);
            return -1;
        }
        army_fill_report rep;
        army_file_fill_list(f, pick, *cat, &rep); /* --list: that list's units only, counted alone */
        /* Counted honestly: a unit the catalogue gave something to may still miss a value. */
        printf("catalogue: %zu files, %zu entries; of %d units: %d complete, %d still missing values (%d of them "
               "not found, %d ambiguous); %d gained values from it\n",
               army_catalogue_files(*cat), army_catalogue_entries(*cat), rep.units, rep.units_complete,
               rep.units_incomplete, rep.units_not_found, rep.units_ambiguous, rep.units_filled);
        say_points(&rep);
    } else if (any_points(f)) {
        printf("points: not checked against the model counts (no --catalogue: the costs are in the army's data)\n");
    }
    if (apply_sets(f, pick, sets, n_sets) < 0)
        return -1;
    if (!no_ask && isatty(STDIN_FILENO))
        ask(f, pick); /* a pack's other players' lists are not asked about */
    return 0;
}

/* Writes the chosen list (`pick`), every list of a pack (--all: DIR/NN-player[.army2].json) or both lists of a
 * two-list file (numbered) as rosters; returns the exit status. */
static int import_write(const army_file *f, const char *list_path, const char *out, long pick, int all, double slot,
                        const army_roster_options *o)
{
    int incomplete = 0, several = f->n_armies > 1 && pick < 0 && !all;
    if (several && slot != 0) {
        fprintf(stderr, "tableref roster import: %s holds %zu lists: pick one with --list N to give it --army %.0f\n",
                list_path, f->n_armies, slot);
        return EXIT_BAD_INPUT;
    }
    if (several && f->n_armies > 2) {
        fprintf(stderr, "tableref roster import: %s holds %zu lists: pick one with --list N\n", list_path, f->n_armies);
        return EXIT_BAD_INPUT;
    }
    /* Every roster's name first, each planned as an output (an input among them is refused before any is written). */
    char (*paths)[CMD_ROSTER_PATH_MAX] = calloc(f->n_armies ? f->n_armies : 1, sizeof *paths);
    if (!paths || cmd_roster_paths(f, out, pick, all, several, slot, paths) < 0) {
        free(paths);
        return EXIT_BAD_INPUT;
    }
    if (all)
        base_file_discard(); /* --all: every list tried and written on its own, the failures said (none held yet) */
    int rc = 0, failed = 0;
    for (size_t a = 0; a < f->n_armies && (rc == 0 || all); a++) { /* --all: every list tried, the failures said */
        int s = several ? (int)a + 1 : slot > 0 ? (int)slot : 1;
        if (pick >= 0 && a != (size_t)pick)
            continue;
        if (write_army(f, a, s, paths[a], o, &incomplete) < 0)
            rc = EXIT_BAD_INPUT, failed++;
    }
    free(paths);
    if (all && failed)
        fprintf(stderr, "tableref roster import: %d of %zu lists not written (said above); the others were\n", failed,
                f->n_armies);
    if (rc == 0 && incomplete) {
        fprintf(stderr, "tableref roster import: some values are unknown: give them with --set 'NAME:KEY=VALUE' or "
                        "--catalogue (BSData .gst/.cat), or edit the roster\n");
        rc = 1;
    }
    return rc;
}

/* Reads the list file, picks its lists, completes them (catalogue, --set, questions) and writes the rosters. */
static int import_file(const char *path, const char *out, const char *list_arg, int all, double slot, int no_ask,
                       const cli_list *cats, const set_value *sets, int n_sets, const army_roster_options *o)
{
    base_error err;
    army_file *f = army_file_read(path, &err);
    if (!f) {
        fprintf(stderr, "tableref roster import: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    int rc = EXIT_BAD_INPUT;
    army_catalogue *cat = NULL;
    for (size_t k = 0; k < f->n_said; k++) /* lines not read, lists that could not be: said first */
        fprintf(stderr, "tableref roster import: %s\n", roster_shown(f->said[k], 0, 0));
    long pick = -1;
    if (roster_choose_lists(f, list_arg, all, out, path, &pick) < 0)
        goto done;
    if (import_complete(f, cats, sets, n_sets, no_ask, pick, &cat) < 0)
        goto done;
    rc = import_write(f, path, out, pick, all, slot, o);
done:
    army_catalogue_free(cat);
    army_file_free(f);
    return rc;
}

static int roster_import(int argc, char **argv)
{
    const char *out = NULL, *side = NULL, *prefix = NULL, *family = "tag36h11", *board = NULL;
    cli_list cats = {{0}, 0}, sets_txt = {{0}, 0};
    int no_ask = 0, square_tags = 0, no_masts = 0;
    double slot = 0, tag_h = 3.5;
    const char *list_arg = NULL;
    int all = 0;
    const char *pos[1];
    const cli_opt opts[] = {
        CLI_OUTPUT_OR_DIR("--out", &out, "ROSTER.json", "*.json",
                   "where to write (a file holding two lists writes\n"
                   "ROSTER.1.json and ROSTER.2.json)"),
        CLI_INPUTS("--catalogue", &cats, "PATH",
                 "BSData army data: a .gst/.cat file or a folder of them;\n"
                 "fills base sizes and rates a list lacks (text lists\n"
                 "never carry them). Repeatable."),
        {.name = "--army", .kind = CLI_OPT_WHOLE, .dest = &slot, .arg = "1|2", .min = 1, .max = 2, .values = "1 2",
         .help = "the army's slot at the table (default 1; a file with two\n"
                 "lists: 1 and 2; with --all: every list of the pack).\n"
                 "Slot 1 takes even tag IDs, slot 2 odd ones, so two\n"
                 "armies never share a tag."},
        CLI_STRING("--list", &list_arg, "N|NAME",
                   "import one list of a file holding several (a tournament\n"
                   "pack): the N-th, or the one whose player (else army)\n"
                   "name contains NAME, ignoring case and accents"),
        CLI_FLAG("--all", &all, 1,
                 "write every list of a pack, one roster each, into the\n"
                 "folder --out DIR (DIR/NN-player.json), each as army 1;\n"
                 "with --army 2 each as army 2 (DIR/NN-player.army2.json):\n"
                 "every table's second army in one command"),
        CLI_LIST("--set", &sets_txt, "'NAME:KEY=V'",
                 "give a value the list lacks, for every unit called NAME:\n"
                 "base=20x20 (front x side, mm; 60o round), adv=4, mar=8\n"
                 "(inches; adv=3D6 for random movement), models=20.\n"
                 "Repeatable."),
        CLI_FLAG("--no-ask", &no_ask, 1,
                 "never ask at the terminal (the default when stdin is\n"
                 "not a terminal)"),
        CLI_STRING("--side", &side, "NAME",
                   "the side the army's units are on in snapshots: units of\n"
                   "another side are its enemies (default: the player's\n"
                   "name, else army-1 or army-2 by the slot; never the\n"
                   "army's, so two lists of one army are enemies)"),
        CLI_STRING("--prefix", &prefix, "P",
                   "prepended to every unit id (two armies with the same\n"
                   "unit names at one table)"),
        CLI_CHOICE("--family", &family, "F", "tag36h11 tagStandard41h12",
                   "tag36h11 (default) or tagStandard41h12 (for armies over\n"
                   "238 models)"),
        CLI_NUMBER("--tag-height-mm", &tag_h, "H", 0, 50,
                   "height of the printed tag above the table: base\n"
                   "thickness + paper (default 3.5)"),
        CLI_STRING("--board", &board, "WxD", "board size in inches (default 72x48)"),
        CLI_FLAG("--square-tags", &square_tags, 1,
                 "a square tag on every base (default: rim labels where\n"
                 "the base takes one, as `tableref tags layout`; rim\n"
                 "labels need --family tag36h11)"),
        CLI_FLAG("--no-masts", &no_masts, 1,
                 "no masts above the figures (the bases' marks alone)"),
    };
    int n_pos = cli_parse(&import_doc, argc, argv, opts, CLI_N(opts), pos, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (n_pos == 0) {
        fprintf(stderr, "tableref roster import: missing the army list file (LIST); try --help\n");
        return EXIT_BAD_INPUT;
    }
    if (!out) {
        fprintf(stderr, "tableref roster import: missing --out ROSTER.json (where to write the roster)\n");
        return EXIT_BAD_INPUT;
    }
    army_roster_options o;
    set_value sets[CLI_LIST_MAX];
    if (import_options(family, side, prefix, tag_h, board, &sets_txt, &o, sets) < 0)
        return EXIT_BAD_INPUT;
    o.lay_out_marks = !square_tags;
    o.no_masts = no_masts != 0;

    return import_file(pos[0], out, list_arg, all, slot, no_ask, &cats, sets, sets_txt.n, &o);
}

int cmd_roster(int argc, char **argv)
{
    static const cli_step steps[] = {
        {"import", roster_import, "read an army list (.ros, .rosz, New Recruit JSON or text) into a roster"},
    };
    return cli_dispatch(&roster_doc, steps, CLI_N(steps), argc, argv);
}
