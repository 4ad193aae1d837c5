/*
 * The two armies of a table are enemies (issue 29, point 2): two lists of
 * one army (a mirror match, Jere's and Vilhelm's Warriors of the Dark Gods
 * from tests/data/packs/pack-a-army-first-cost-last.txt), imported as armies
 * 1 and 2, are each on its player's side; a table file of both judges a
 * March with an enemy unit 4" away with the March Test note. Two rosters
 * that put their units on one side are refused by the table file, both
 * named.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base_geom.h"
#include "base_json.h"
#include "cli_run.h"
#include "rules_json.h"
#include "table_file.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-mirror-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(mirror_match, .init = setup, .fini = teardown, .timeout = 120);

/* Every unit of both lists: base and rates, as the army's data would give them. */
#define WDG_SETS                                                                                                      \
    "--set 'Chosen Lord:base=25x50' --set 'Chosen Lord:adv=8' --set 'Chosen Lord:mar=16' "                            \
    "--set 'Sorcerer:base=25x25' --set 'Sorcerer:adv=4' --set 'Sorcerer:mar=8' "                                      \
    "--set 'Warriors:base=25x25' --set 'Warriors:adv=4' --set 'Warriors:mar=8' "                                      \
    "--set 'Barbarians:base=25x25' --set 'Barbarians:adv=4' --set 'Barbarians:mar=8' "                                \
    "--set 'Flayers:base=25x25' --set 'Flayers:adv=5' --set 'Flayers:mar=10' "                                        \
    "--set 'Chosen Chariot:base=50x100' --set 'Chosen Chariot:adv=7' --set 'Chosen Chariot:mar=7' "

#define VILHELM_SETS                                                                                                  \
    "--set 'Sorcerer:base=25x25' --set 'Sorcerer:adv=4' --set 'Sorcerer:mar=8' "                                      \
    "--set 'Barbarian Chief:base=25x25' --set 'Barbarian Chief:adv=4' --set 'Barbarian Chief:mar=8' "                 \
    "--set 'Warriors:base=25x25' --set 'Warriors:adv=4' --set 'Warriors:mar=8' "                                      \
    "--set 'Warrior Knights:base=30x60' --set 'Warrior Knights:adv=7' --set 'Warrior Knights:mar=14' "                \
    "--set 'Warhounds:base=25x50' --set 'Warhounds:adv=8' --set 'Warhounds:mar=16' "

/* `roster import` of list `list` of pack A into DIR/file as army `slot` (extra options after). */
static void import(const char *list, int slot, const char *sets, const char *file, const char *extra)
{
    char args[4096];
    cli_result r;
    snprintf(args, sizeof args,
             "roster import tests/data/packs/pack-a-army-first-cost-last.txt --list %s --army %d --no-ask %s %s "
             "--out '%s/%s'",
             list, slot, sets, extra, dir, file);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s: %s", list, r.err);
}

static void write_table(const char *file, const char *a, const char *b)
{
    char path[512], text[1024];
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    snprintf(text, sizeof text,
             "{\"format\": \"tableref.table\", \"version\": 1, \"calibration\": \"%s/datasets/demo/calib.json\", "
             "\"rosters\": [\"%s\", \"%s\"]}",
             root ? root : ".", a, b);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* A block of a roster unit's models, `files` wide, its front rank's centre at `front` facing `facing`. */
static void place_block(rules_snapshot *s, const roster_file *ro, const char *id, int files, base_vec2 front,
                        double facing)
{
    size_t k = 0;
    while (k < ro->n_units && strcmp(ro->units[k].id, id) != 0)
        k++;
    cr_assert_lt(k, ro->n_units, "unit %s", id);
    const roster_unit *ru = &ro->units[k];
    rules_unit *u = rules_snapshot_add_unit(s, ru->id, ru->side);
    u->base_width = ru->base_width, u->base_depth = ru->base_depth;
    u->advance_rate = ru->advance_rate, u->march_rate = ru->march_rate;
    const base_vec2 fwd = base_v2(cos(facing), sin(facing)), left = base_v2(-sin(facing), cos(facing));
    for (size_t m = 0; m < ru->n_models; m++) {
        const int file = (int)(m % (size_t)files), rank = (int)(m / (size_t)files);
        const double across = (file - (files - 1) / 2.0) * ru->base_width, back = (rank + 0.5) * ru->base_depth;
        base_vec2 p = base_v2_add(front, base_v2_add(base_v2_scale(left, -across), base_v2_scale(fwd, -back)));
        cr_assert_not_null(rules_unit_add_model(u, ro->models[ru->first_model + m].id, p, facing));
    }
}

Test(mirror_match, two_lists_of_one_army_are_enemies_and_the_march_test_is_said)
{
    import("jere", 1, WDG_SETS, "jere.json", "");
    import("vilhelm", 2, VILHELM_SETS, "vilhelm.json", "--prefix v-"); /* one army, one set of names */
    write_table("table.json", "jere.json", "vilhelm.json");
    char path[512];
    snprintf(path, sizeof path, "%s/table.json", dir);
    table_file t;
    base_error err;
    cr_assert_eq(table_file_load(path, &t, &err), 0, "%s", err.msg);
    const roster_file *ro = t.roster;
    cr_assert_str_eq(ro->units[0].side, "jere-makinen", "a roster's side is its player's, never its army's");
    cr_assert_str_eq(ro->units[ro->n_units - 1].side, "vilhelm-aberg");
    /* Vilhelm's 20 Warriors, five wide, facing up the table; Jere's Flayers beside them, 4" from their left flank. */
    rules_snapshot *before = rules_snapshot_new(ro->board_width, ro->board_depth);
    rules_snapshot *after = rules_snapshot_new(ro->board_width, ro->board_depth);
    const double up = BASE_PI / 2, half = 2.5 * 25.0;
    place_block(before, ro, "v-warriors", 5, base_v2(900, 300), up);
    place_block(before, ro, "flayers-1", 5, base_v2(900 - half - 101.6 - half, 300), up);
    place_block(after, ro, "v-warriors", 5, base_v2(900, 300 + base_in_to_mm(7)), up); /* March 7" of 8" */
    place_block(after, ro, "flayers-1", 5, base_v2(900 - half - 101.6 - half, 300), up);
    char b[512], a[512], args[1200];
    snprintf(b, sizeof b, "%s/before.json", dir);
    snprintf(a, sizeof a, "%s/after.json", dir);
    cr_assert_eq(rules_json_save_snapshot(before, b, &err), 0, "%s", err.msg);
    cr_assert_eq(rules_json_save_snapshot(after, a, &err), 0, "%s", err.msg);
    snprintf(args, sizeof args, "check '%s' '%s' --unit v-warriors --move march", b, a);
    cli_result r;
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "a March of 7\" against 8\" is legal: %s%s", r.out, r.err);
    cr_assert(strstr(r.out, "March Test required: enemy unit flayers-1 was 4.00\" away (within 8\")") != NULL, "%s",
              r.out);
    rules_snapshot_free(before);
    rules_snapshot_free(after);
    table_file_clear(&t);
}

Test(mirror_match, rosters_on_one_side_are_refused_both_named)
{
    import("jere", 1, WDG_SETS, "jere.json", "--side warriors-of-the-dark-gods");
    import("vilhelm", 2, VILHELM_SETS, "vilhelm.json", "--side warriors-of-the-dark-gods --prefix v-");
    write_table("one-side.json", "jere.json", "vilhelm.json");
    char path[512];
    snprintf(path, sizeof path, "%s/one-side.json", dir);
    table_file t;
    base_error err = {0};
    cr_assert_eq(table_file_load(path, &t, &err), -1);
    char want[1200];
    snprintf(want, sizeof want, "%s/jere.json and %s/vilhelm.json put their units on the same side "
                                "\"warriors-of-the-dark-gods\", so neither army would be the other's enemy",
             dir, dir);
    cr_assert(strstr(err.msg, want) != NULL, "%s", err.msg);
    cr_assert(strstr(err.msg, "--side NAME") != NULL, "%s", err.msg);
}
