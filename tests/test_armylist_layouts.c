/*
 * Tournament packs in the six layouts of tests/data/packs/ (issue 29, point
 * 3): player and army lines in either order, on one line or two, with or
 * without a separator; costs first or last, with a dash, in brackets, after
 * dotted leaders or bare; entries wrapped over lines; "NxM Unit" as N units
 * of M; a count among the options; implausible counts said; names kept
 * whole; every list's total checked against its lines. Every line of every
 * pack is accounted for: read into a list's header or total, into a unit,
 * or said with its number.
 *
 * Counted by hand: each list read line by line in the file; an entry is one
 * unit ("2x5" two units of five, its cost on the first), its models the
 * number before its name (or "20x" among its options; none written: one
 * model); points the sum of its entries' costs, against the total the pack
 * states for it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "army_list.h"
#include "armylist_test_util.h"
#include "base_json.h"
#include "cli_run.h"

#define DIR "tests/data/packs/"

static army_file *read_pack(const char *file)
{
    char path[1024];
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    snprintf(path, sizeof path, "%s/" DIR "%s", root ? root : ".", file);
    base_error err = {0};
    army_file *f = army_file_read(path, &err);
    cr_assert_not_null(f, "%s", err.msg);
    return f;
}

typedef struct want_list {
    const char *player, *army;
    size_t units;
    int models, total, sum;
} want_list;

static int points_of(const army_list *a)
{
    int n = 0;
    for (size_t i = 0; i < a->n_units; i++)
        n += a->units[i].points;
    return n;
}

static void lists_are(const army_file *f, const want_list *w, size_t n)
{
    cr_assert_eq(f->n_armies, n, "%zu lists, got %zu", n, f->n_armies);
    for (size_t i = 0; i < n; i++) {
        const army_list *a = &f->armies[i];
        cr_assert_str_eq(a->player, w[i].player, "list %zu", i + 1);
        cr_assert_str_eq(a->name, w[i].army, "%s", a->player);
        cr_assert_eq(a->n_units, w[i].units, "%s: %zu units", a->player, a->n_units);
        cr_assert_eq(at_models(a), w[i].models, "%s: %d models", a->player, at_models(a));
        cr_assert_eq(a->points, w[i].total, "%s: total %d", a->player, a->points);
        cr_assert_eq(points_of(a), w[i].sum, "%s: its lines add up to %d", a->player, points_of(a));
    }
}

static void unit_is(const army_list *a, size_t i, const char *name, int models, int points)
{
    cr_assert_lt(i, a->n_units, "%s: unit %zu", a->player, i);
    cr_assert_str_eq(a->units[i].name, name, "%s unit %zu", a->player, i);
    cr_assert_eq(a->units[i].models, models, "%s: %s has %d models", a->player, name, a->units[i].models);
    cr_assert_eq(a->units[i].points, points, "%s: %s costs %d", a->player, name, a->units[i].points);
}

/* The lines a unit was read from ("line 7", "lines 5-6"). */
static void unit_lines(const army_unit *u, int *first, int *last)
{
    *first = *last = 0;
    if (sscanf(u->where, "lines %d-%d", first, last) == 2)
        return;
    if (sscanf(u->where, "line %d", first) == 1)
        *last = *first;
}

/* Every line holding text is a list's header, player or total line, a unit's, or said with its number. */
static void every_line_accounted_for(const char *file, const army_file *f)
{
    char path[1024];
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    snprintf(path, sizeof path, "%s/" DIR "%s", root ? root : ".", file);
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in, "%s", path);
    char line[2048];
    for (int no = 1; fgets(line, sizeof line, in); no++) {
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        bool used = false;
        for (size_t a = 0; a < f->n_armies && !used; a++) {
            const army_list *l = &f->armies[a];
            used = l->line == no || l->player_line == no || l->total_line == no;
            for (size_t u = 0; u < l->n_units && !used; u++) {
                int first, last;
                unit_lines(&l->units[u], &first, &last);
                used = no >= first && no <= last;
            }
        }
        char mark[32];
        snprintf(mark, sizeof mark, "line %d:", no);
        cr_assert(used || at_said(f, mark), "%s: line %d (%.*s) neither read nor said", file, no, (int)strcspn(line, "\n"),
                  line);
    }
    fclose(in);
}

Test(armylist_layouts, a_army_first_costs_last_entries_wrapped)
{
    static const want_list w[] = {
        {"Lasse Lindström", "Dwarven Holds", 6, 55, 2265, 2265},
        {"Jere Mäkinen", "Warriors of the Dark Gods", 7, 53, 2850, 2850},
        {"Vilhelm Åberg", "Warriors of the Dark Gods", 5, 37, 2095, 2095},
    };
    army_file *f = read_pack("pack-a-army-first-cost-last.txt");
    lists_are(f, w, 3);
    const army_list *a = &f->armies[0];
    unit_is(a, 0, "King", 1, 615);
    cr_assert_str_eq(a->units[0].where, "lines 5-6", "a character's entry wrapped before its cost");
    cr_assert(strstr(a->units[0].options, "Rune of Destruction") != NULL, "%s", a->units[0].options);
    unit_is(a, 1, "Runic Smith", 1, 175);
    cr_assert(strstr(a->units[1].options, "Rune of Dragon's Breath") != NULL, "%s", a->units[1].options);
    unit_is(a, 2, "Thane", 1, 265);
    unit_is(a, 3, "Clan Warriors", 30, 540);
    unit_is(a, 4, "King's Shieldbearers", 20, 470); /* "King`s": a backtick read as the apostrophe, the name whole */
    unit_is(a, 5, "Bolt Throwers", 2, 200);
    unit_is(&f->armies[1], 0, "Chosen Lord", 1, 555);
    unit_is(&f->armies[2], 3, "Warrior Knights", 10, 720);
    cr_assert(strstr(f->armies[2].units[3].options, "(Stalker's Standard), Musician") != NULL, "%s",
              f->armies[2].units[3].options);
    cr_assert(at_said(f, "line 2: \"(as the players sent them)\" not read"));
    every_line_accounted_for("pack-a-army-first-cost-last.txt", f);
    army_file_free(f);
}

Test(armylist_layouts, b_army_then_player_costs_first_n_x_m)
{
    static const want_list w[] = {
        {"Kalle Järvinen", "Warriors of the Dark Gods", 7, 34, 2130, 2130},
        {"Tuomas Ødegaard", "Dwarven Holds", 5, 34, 1630, 1630},
        {"Iñaki Nuñez", "Dread Elves", 4, 31, 1065, 1065},
    };
    army_file *f = read_pack("pack-b-army-then-player.txt");
    lists_are(f, w, 3);
    const army_list *a = &f->armies[0];
    unit_is(a, 2, "Warriors", 20, 620);
    unit_is(a, 3, "Warhounds", 5, 220); /* "220 2x5 Warhounds": two units of five, the cost on the first */
    unit_is(a, 4, "Warhounds", 5, 0);
    unit_is(a, 5, "Feldrak Elder", 1, 340); /* "2x1 Feldrak Elder": two units of one */
    unit_is(a, 6, "Feldrak Elder", 1, 0);
    cr_assert(strstr(a->units[5].said, "2 units of 1") != NULL, "%s", a->units[5].said);
    unit_is(&f->armies[1], 3, "Steam Copter", 1, 300);
    unit_is(&f->armies[1], 4, "Steam Copter", 1, 0);
    unit_is(&f->armies[2], 1, "Repeater Auxiliaries", 15, 190);
    cr_assert(at_said(f, "line 2: \"Lists as received by the organiser, points first.\" not read"));
    every_line_accounted_for("pack-b-army-then-player.txt", f);
    army_file_free(f);
}

Test(armylist_layouts, c_player_then_army_costs_in_brackets_total_checked)
{
    static const want_list w[] = {
        {"Matti Kovačević", "Infernal Dwarves", 5, 48, 2213, 2213},
        {"Emma Müller", "Warriors of the Dark Gods", 4, 27, 1700, 1680},
        {"Sofia Lindqvist", "Warriors of the Dark Gods", 3, 36, 1170, 1170},
    };
    army_file *f = read_pack("pack-c-player-then-army.txt");
    lists_are(f, w, 3);
    unit_is(&f->armies[0], 4, "Kadim Titan", 1, 540);
    unit_is(&f->armies[1], 2, "Warriors", 20, 620);
    cr_assert_str_eq(f->armies[1].units[2].where, "lines 16-17");
    cr_assert(at_said(f, "line 13: the list \"Warriors of the Dark Gods\" gives its total as 1700 points, its lines add up "
                      "to 1680"));
    every_line_accounted_for("pack-c-player-then-army.txt", f);
    army_file_free(f);
}

Test(armylist_layouts, d_one_line_headers_without_separator_implausible_count)
{
    static const want_list w[] = {
        {"Lars Frencken", "Dwarven Holds", 5, 172, 1690, 1690},
        {"Pieter de Vries", "Infernal Dwarves", 3, 27, 1555, 1555},
        {"Sanne Bakker", "Warriors of the Dark Gods", 3, 26, 1285, 1285},
    };
    army_file *f = read_pack("pack-d-one-line-header.txt");
    lists_are(f, w, 3);
    const army_list *a = &f->armies[0];
    unit_is(a, 0, "King", 1, 615);
    cr_assert(strstr(a->units[0].options, "Rune of Destruction") != NULL, "the line after the cost continues it");
    unit_is(a, 2, "Clan Warriors", 140, 140);
    cr_assert(strstr(a->units[2].said, "line 7: 140 models in one unit is more than any unit holds") != NULL, "%s",
              a->units[2].said);
    unit_is(a, 3, "King's Shieldbearers", 20, 470); /* "King´s" */
    unit_is(a, 4, "Marksmen", 10, 200);
    unit_is(&f->armies[1], 1, "Citadel Guard", 25, 595);
    unit_is(&f->armies[1], 2, "Kadim Titan", 1, 540);
    every_line_accounted_for("pack-d-one-line-header.txt", f);
    army_file_free(f);
}

Test(armylist_layouts, e_dotted_leaders_total_in_the_header)
{
    static const want_list w[] = {
        {"Oskar Ström", "Warriors of the Dark Gods", 7, 34, 2110, 2110},
        {"Anni Hämäläinen", "Dread Elves", 5, 42, 1310, 1310},
    };
    army_file *f = read_pack("pack-e-dotted-leaders.txt");
    lists_are(f, w, 2);
    const army_list *a = &f->armies[0];
    unit_is(a, 0, "Chosen Lord", 1, 555);
    unit_is(a, 3, "Feldrak Elder", 1, 170);
    unit_is(a, 5, "Warhounds", 5, 220);
    unit_is(a, 6, "Warhounds", 5, 0);
    unit_is(&f->armies[1], 4, "Dread Reaper", 1, 80);
    every_line_accounted_for("pack-e-dotted-leaders.txt", f);
    army_file_free(f);
}

Test(armylist_layouts, f_brackets_count_among_the_options)
{
    static const want_list w[] = {
        {"Jonas Weiß", "Warriors of the Dark Gods", 5, 28, 2045, 2045},
        {"Lukas Schäfer", "Warriors of the Dark Gods", 4, 37, 1385, 1385},
        {"Julia Kraus", "Dread Elves", 3, 36, 1065, 1065},
    };
    army_file *f = read_pack("pack-f-brackets.txt");
    lists_are(f, w, 3);
    const army_list *a = &f->armies[0];
    unit_is(a, 2, "Warriors", 20, 620);
    cr_assert(strstr(a->units[2].said, "20 models read from the options") != NULL, "%s", a->units[2].said);
    unit_is(a, 4, "Feldrak Elder", 1, 365);
    unit_is(&f->armies[2], 1, "Repeater Auxilliaries", 15, 190);
    every_line_accounted_for("pack-f-brackets.txt", f);
    army_file_free(f);
}

/* --list finds a player by any part of the name, case and accents ignored; a --set naming no unit lists the names. */
Test(armylist_layouts, list_by_part_of_a_name_and_set_lists_the_names, .timeout = 60)
{
    cli_result r;
    cr_assert_eq(cli_run("roster import " DIR "pack-a-army-first-cost-last.txt --list lindstrom --no-ask --out "
                         "/tmp/tableref-layouts-ll.json",
                         &r),
                 0);
    cr_assert_eq(r.status, 1, "written, values unknown: %s", r.err);
    cr_assert(strstr(r.out, "Dwarven Holds -- Lasse Lindström") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "wrote /tmp/tableref-layouts-ll.json: 6 units, 55 models") != NULL, "%s", r.out);
    cr_assert_eq(cli_run("roster import " DIR "pack-a-army-first-cost-last.txt --list ABERG --no-ask --out "
                         "/tmp/tableref-layouts-va.json",
                         &r),
                 0);
    cr_assert(strstr(r.out, "Warriors of the Dark Gods -- Vilhelm Åberg") != NULL, "%s", r.out);
    cr_assert_eq(cli_run("roster import " DIR "pack-a-army-first-cost-last.txt --list lasse --no-ask --out "
                         "/tmp/tableref-layouts-ll.json --set 'King Shieldbearers:base=20x20'",
                         &r),
                 0);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "no unit is called \"King Shieldbearers\" in the list picked") != NULL, "%s", r.err);
    cr_assert(strstr(r.err, "the units are called: \"King\", \"Runic Smith\", \"Thane\", \"Clan Warriors\", "
                            "\"King's Shieldbearers\", \"Bolt Throwers\"") != NULL,
              "%s", r.err);
    cr_assert_eq(cli_run("roster import " DIR "pack-d-one-line-header.txt --no-ask --out /tmp/tableref-layouts.json",
                         &r),
                 0);
    cr_assert_eq(r.status, 2, "a pack is never one army");
    cr_assert(strstr(r.err, "    1  Lars Frencken                  Dwarven Holds                  5    172   1690   1690  3") !=
                  NULL,
              "%s", r.err);
    remove("/tmp/tableref-layouts-ll.json");
    remove("/tmp/tableref-layouts-va.json");
}

/* Older books' names (issue 29, point 4): found through armylist/army_renames.def, and the import says which row. */
Test(armylist_layouts, older_book_names_found_and_said, .timeout = 60)
{
    cli_result r;
    cr_assert_eq(cli_run("roster import " DIR "pack-e-dotted-leaders.txt --list 2 --no-ask --catalogue "
                         "tests/data/armylist/renames/ --out /tmp/tableref-layouts-de.json",
                         &r),
                 0);
    cr_assert_eq(r.status, 0, "every unit complete: %s", r.err);
    cr_assert(strstr(r.out, "of 5 units: 5 complete, 0 still missing values (0 of them not found") != NULL, "%s",
              r.out);
    cr_assert(strstr(r.err, "\"Repeater Auxiliaries\" -> \"Silexian Auxiliaries\" (renamed since Dread Elves 2020, "
                            "spelt otherwise here; armylist/army_renames.def, BSData caff6e9)") != NULL,
              "%s", r.err);
    cr_assert(strstr(r.err, "\"Dread Legionnaires\" -> \"Silexian Spears\" (renamed since Dread Elves 2021 Alpha 4; "
                            "armylist/army_renames.def, BSData b6a8376)") != NULL,
              "%s", r.err);
    cr_assert(strstr(r.err, "\"Dark Raiders\" -> \"Shadow Riders\"") != NULL, "%s", r.err);
    cr_assert(strstr(r.out, "dark-raiders               Dark Raiders                 5            25x50    9  18") != NULL,
              "the old name kept, the current book's base and rates: %s", r.out);
    cr_assert_eq(cli_run("roster import " DIR "pack-f-brackets.txt --list kraus --no-ask --catalogue "
                         "tests/data/armylist/renames/ --out /tmp/tableref-layouts-de.json",
                         &r),
                 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "\"Repeater Auxilliaries\" -> \"Silexian Auxiliaries\" (renamed since Dread Elves 2020; "
                            "armylist/army_renames.def") != NULL,
              "BSData's own spelling of the old name: %s", r.err);
    cr_assert(strstr(r.err, "\"Tower Guard\" -> \"Obsidian Guard\"") != NULL, "%s", r.err);
    remove("/tmp/tableref-layouts-de.json");
}

/* Issue 29, point 5: a unit whose rate is dice (the fixture's "Adv 3D6\"", "Mar -") is imported with it said, not
 * refused: the roster carries "advance_dice" and no unknown value. */
Test(armylist_layouts, a_random_rate_is_imported_as_dice, .timeout = 60)
{
    FILE *f = fopen("/tmp/tableref-layouts-wretch.txt", "w");
    cr_assert_not_null(f);
    fputs("Fixture Army\n100 - Fixture Wretch\n100\n", f);
    fclose(f);
    cli_result r;
    cr_assert_eq(cli_run("roster import /tmp/tableref-layouts-wretch.txt --no-ask --catalogue "
                         "tests/data/armylist/fixture.gst --catalogue tests/data/armylist/fixture.cat --out "
                         "/tmp/tableref-layouts-wretch.json",
                         &r),
                 0);
    cr_assert_eq(r.status, 0, "written and complete: %s%s", r.out, r.err);
    cr_assert(strstr(r.err, "Fixture Wretch: Adv is 3D6\" (random movement): judged against the roll a player declares") !=
                  NULL,
              "%s", r.err);
    cr_assert(strstr(r.out, "3D6   -") != NULL, "the Adv and Mar columns: %s", r.out);
    base_error err;
    cJSON *j = base_json_parse_file("/tmp/tableref-layouts-wretch.json", &err);
    cr_assert_not_null(j, "%s", err.msg);
    const cJSON *u = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "units"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(u, "advance_dice")->valuestring, "3D6");
    cr_assert_null(cJSON_GetObjectItem(u, "advance_in"));
    cr_assert_null(cJSON_GetObjectItem(j, "unresolved"));
    cJSON_Delete(j);
    remove("/tmp/tableref-layouts-wretch.txt");
    remove("/tmp/tableref-layouts-wretch.json");
}
