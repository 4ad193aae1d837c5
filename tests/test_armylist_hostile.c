/*
 * Hostile army lists (issue 21, part 5): each is refused, or read, in
 * bounded time and memory, with a message naming the file and the field.
 * Counts out of range are refused before any arithmetic (UBSan runs these),
 * entity declarations are refused before libxml2 reads them, 200,000 lines
 * are read in linear time, wrong JSON types are named, unit ids are unique
 * from any names and long non-ASCII names are cut between characters.
 * The timeouts are bounds (a quadratic reader would take minutes), not
 * speed figures.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "army_list.h"
#include "army_roster.h"
#include "base_text.h"

static void refused(const char *bytes, const char *name, const char *must_say)
{
    base_error err = {0};
    army_file *f = army_file_parse(bytes, strlen(bytes), name, &err);
    cr_assert_null(f, "%s was accepted", name);
    cr_assert(strstr(err.msg, name) == err.msg, "the message names the file: %s", err.msg);
    cr_assert(strstr(err.msg, must_say) != NULL, "expected \"%s\" in: %s", must_say, err.msg);
}

static army_file *read_ok(const char *bytes, size_t n, const char *name)
{
    base_error err = {0};
    army_file *f = army_file_parse(bytes, n, name, &err);
    cr_assert_not_null(f, "%s: %s", name, err.msg);
    return f;
}

/* A BattleScribe roster with one unit holding the given model selections (XML fragments). */
static char *ros_with(const char *models)
{
    const char *head = "<?xml version=\"1.0\"?>\n<roster name=\"R\" gameSystemName=\"The 9th Age\"><forces>"
                       "<force name=\"F\" catalogueName=\"Orcs and Goblins\"><selections>"
                       "<selection name=\"Goblins\" type=\"unit\"><selections>";
    const char *tail = "</selections></selection></selections></force></forces></roster>\n";
    size_t n = strlen(head) + strlen(models) + strlen(tail) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%s%s%s", head, models, tail);
    return s;
}

/* ---- counts ------------------------------------------------------------------ */

Test(armylist_hostile, two_billion_models_refused_before_adding, .timeout = 5)
{
    char *s = ros_with("<selection name=\"Goblin\" type=\"model\" number=\"2000000000\"/>"
                       "<selection name=\"Goblin\" type=\"model\" number=\"2000000000\"/>");
    refused(s, "big.ros", "selection \"Goblin\": number: out of range (0..1000)");
    free(s);
    s = ros_with("<selection name=\"Goblin\" type=\"model\" number=\"99999999999999999999999\"/>");
    refused(s, "huge.ros", "number: out of range");
    free(s);
    s = ros_with("<selection name=\"Goblin\" type=\"model\" number=\"ten\"/>");
    refused(s, "ten.ros", "selection \"Goblin\": number: not a number");
    free(s);
    s = ros_with("<selection name=\"Goblin\" type=\"model\" number=\"2.7\"/>");
    refused(s, "frac.ros", "number: not a whole number");
    free(s);
    /* Each in range, their sum is not: the unit is refused, not wrapped. */
    s = ros_with("<selection name=\"Goblin\" type=\"model\" number=\"1000\"/>"
                 "<selection name=\"Goblin\" type=\"model\" number=\"1000\"/>");
    refused(s, "sum.ros", "more than 1000 models of \"Goblin\"");
    free(s);
    s = ros_with("<selection name=\"Goblin\" type=\"model\" number=\"40\"/>"
                 "<selection name=\"Goblin Boss\" type=\"model\" number=\"1\"/>");
    army_file *f = read_ok(s, strlen(s), "ok.ros");
    cr_assert_eq(f->armies[0].n_units, 1);
    cr_assert_eq(f->armies[0].units[0].models, 41, "40 goblins and their boss");
    army_file_free(f);
    free(s);
}

/* A New Recruit JSON roster whose model selection has `number` written as `value`. */
static char *nr_json_with(const char *value)
{
    char *s = malloc(1024);
    snprintf(s, 1024,
             "{\"roster\":{\"name\":\"R\",\"forces\":[{\"catalogueName\":\"Orcs and Goblins\",\"selections\":"
             "[{\"name\":\"Goblins\",\"type\":\"unit\",\"selections\":[{\"name\":\"Goblin\",\"type\":\"model\","
             "\"number\":%s}]}]}]}}",
             value);
    return s;
}

Test(armylist_hostile, new_recruit_counts_of_the_wrong_type_name_the_field, .timeout = 5)
{
    static const struct {
        const char *value, *says;
    } bad[] = {{"\"ten\"", "selection \"Goblin\": number: a string, not a number"},
               {"2.7", "selection \"Goblin\": number: not a whole number"},
               {"[10]", "selection \"Goblin\": number: not a number"},
               {"true", "number: not a number"},
               {"null", "number: not a number"},
               {"-3", "number: out of range (0..1000)"},
               {"2000000000", "number: out of range (0..1000)"},
               {"1e300", "number: out of range (0..1000)"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *s = nr_json_with(bad[i].value);
        refused(s, "nr.json", bad[i].says);
        free(s);
    }
    char *s = nr_json_with("10");
    army_file *f = read_ok(s, strlen(s), "nr.json");
    cr_assert_eq(f->armies[0].units[0].models, 10);
    army_file_free(f);
    free(s);
}

Test(armylist_hostile, text_counts_out_of_range_name_the_line, .timeout = 5)
{
    refused("Goblins\n100 - 99999999999999999999 Goblins, Shield\n", "t.txt", "t.txt: line 2: a model count out of range");
    refused("Goblins\n100 - 0 Goblins, Shield\n", "t0.txt", "line 2: a model count out of range (1..1000)");
    army_file *f = read_ok("Goblins\n100 - 1000 Goblins\n", 27, "t1000.txt");
    cr_assert_eq(f->armies[0].units[0].models, 1000);
    army_file_free(f);
}

/* ---- XML that expands itself --------------------------------------------------- */

Test(armylist_hostile, entity_expansion_refused_before_parsing, .timeout = 5)
{
    /* "a" 100 bytes, "b" 100 references to it: 10 kB; referenced 20,000 times: 200 MB if expanded. */
    size_t cap = 400000;
    char *s = malloc(cap);
    size_t n = (size_t)snprintf(s, cap, "<?xml version=\"1.0\"?>\n<!-- a list -->\n<!DOCTYPE roster [\n<!ENTITY a \"");
    for (int i = 0; i < 100; i++)
        s[n++] = 'a';
    n += (size_t)snprintf(s + n, cap - n, "\">\n<!ENTITY b \"");
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(s + n, cap - n, "&a;");
    n += (size_t)snprintf(s + n, cap - n, "\">\n]>\n<roster name=\"");
    for (int i = 0; i < 20000; i++)
        n += (size_t)snprintf(s + n, cap - n, "&b;");
    snprintf(s + n, cap - n, "\"><forces/></roster>\n");
    refused(s, "laughs.ros", "laughs.ros: line 3: a <!DOCTYPE> (entity declarations are refused");
    /* The same inside a zipped roster's catalogue path is the same function; an external entity too. */
    refused("<?xml version=\"1.0\"?><!DOCTYPE roster SYSTEM \"http://example.com/x.dtd\"><roster/>", "ext.ros",
            "line 1: a <!DOCTYPE>");
    free(s);
}

/* ---- many lines ------------------------------------------------------------------ */

Test(armylist_hostile, two_hundred_thousand_lines_read_in_linear_time, .timeout = 20)
{
    /* One header, then 10,000 units (the most a file may hold) each broken over 20 lines. */
    size_t cap = 8u << 20, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "Orcs and Goblins\n");
    for (int u = 0; u < 10000; u++) {
        n += (size_t)snprintf(s + n, cap - n, "%d - %d Goblins, Shield\n", 100 + u % 7, 10 + u % 20);
        for (int k = 0; k < 19; k++)
            n += (size_t)snprintf(s + n, cap - n, "Opt%d\n", k);
    }
    army_file *f = read_ok(s, n, "long.txt");
    cr_assert_eq(f->n_armies, 1);
    cr_assert_eq(f->armies[0].n_units, 10000);
    long models = 0;
    for (size_t i = 0; i < f->armies[0].n_units; i++)
        models += f->armies[0].units[i].models;
    cr_assert_eq(models, 500 * (10 + 29) * 10, "each of 10..29 models 500 times");
    cr_assert_str_eq(f->armies[0].units[9999].options, " Shield Opt0 Opt1 Opt2 Opt3 Opt4 Opt5 Opt6 Opt7 Opt8 Opt9 "
                                                        "Opt10 Opt11 Opt12 Opt13 Opt14 Opt15 Opt16 Opt17 Opt18");
    army_file_free(f);

    /* 200,000 unit lines: refused at the line of the 10,001st unit, without building 200,000 units. */
    n = (size_t)snprintf(s, cap, "Orcs and Goblins\n");
    for (int u = 0; u < 200000; u++)
        n += (size_t)snprintf(s + n, cap - n, "10 - Goblin\n");
    refused(s, "units.txt", "units.txt: line 10002: more than 10000 units");

    /* 200,000 lines that are not units: one header replaced by the next, never 200,000 armies. */
    n = 0;
    for (int u = 0; u < 200000; u++)
        n += (size_t)snprintf(s + n, cap - n, "Player %d - Dwarven Holds\n", u);
    refused(s, "headers.txt", "no unit lines");
    n += (size_t)snprintf(s + n, cap - n, "100 - King, General\n");
    f = read_ok(s, n, "headers.txt");
    cr_assert_eq(f->n_armies, 1);
    cr_assert_str_eq(f->armies[0].player, "Player 199999");
    cr_assert_str_eq(f->armies[0].units[0].name, "King");
    army_file_free(f);
    free(s);
}

/* ---- ids from any names ---------------------------------------------------------- */

static cJSON *roster_of(const char *text)
{
    army_file *f = read_ok(text, strlen(text), "names.txt");
    army_roster_options o;
    army_roster_options_default(&o);
    snprintf(o.family, sizeof o.family, "tagStandard41h12");
    base_error err = {0};
    cJSON *r = army_roster_json(&f->armies[0], f, &o, &err);
    cr_assert_not_null(r, "%s", err.msg);
    army_file_free(f);
    return r;
}

Test(armylist_hostile, ids_are_unique_from_any_names, .timeout = 5)
{
    cJSON *r = roster_of("Goblins\n10 - Goblins!\n10 - Goblins?\n10 - Goblins 2\n10 - \xF0\x9F\x99\x82\n"
                         "10 - \xF0\x9F\x99\x82\xF0\x9F\x99\x82\n10 - Goblins!\n");
    static const char *ids[] = {"goblins-1", "goblins-3", "goblins-2", "unit-1", "unit-2", "goblins-4"};
    static const char *names[] = {"Goblins!", "Goblins?", "Goblins 2", "\xF0\x9F\x99\x82",
                                  "\xF0\x9F\x99\x82\xF0\x9F\x99\x82", "Goblins!"};
    const cJSON *units = cJSON_GetObjectItemCaseSensitive(r, "units");
    cr_assert_eq(cJSON_GetArraySize(units), 6);
    for (int i = 0; i < 6; i++) {
        const cJSON *u = cJSON_GetArrayItem(units, i);
        cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(u, "id")->valuestring, ids[i]);
        cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(u, "name")->valuestring, names[i], "the name is kept");
    }
    cJSON_Delete(r);
}

/* ---- long non-ASCII names ---------------------------------------------------------- */

Test(armylist_hostile, long_non_ascii_names_cut_between_characters, .timeout = 5)
{
    /* 10 kB of "é" (2 bytes) after one ASCII byte, so a byte cut would land inside a character. */
    size_t cap = 32000, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "P");
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(s + n, cap - n, "\xC3\xA9");
    n += (size_t)snprintf(s + n, cap - n, " - Army\n100 - 5 G");
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(s + n, cap - n, "\xC3\xA9");
    n += (size_t)snprintf(s + n, cap - n, ", Shield\n");
    army_file *f = read_ok(s, n, "long-names.txt");
    const army_unit *u = &f->armies[0].units[0];
    cr_assert(base_text_valid(u->name, strlen(u->name)), "the unit's name is valid UTF-8");
    cr_assert(base_text_valid(f->armies[0].player, strlen(f->armies[0].player)), "the player's name too");
    cr_assert_eq(u->models, 5);
    cr_assert_eq(strlen(u->name), 95, "'G' and 47 whole characters: %zu bytes", strlen(u->name));
    cr_assert(strstr(u->name, "\\x") == NULL, "no character cut and escaped: %s", u->name);
    cr_assert_eq(strlen(f->armies[0].player), 95);
    army_roster_options o;
    army_roster_options_default(&o);
    base_error err = {0};
    cJSON *r = army_roster_json(&f->armies[0], f, &o, &err);
    cr_assert_not_null(r, "%s", err.msg);
    char *out = cJSON_PrintUnformatted(r);
    cr_assert(base_text_valid(out, strlen(out)), "the roster written is valid UTF-8");
    free(out);
    cJSON_Delete(r);
    army_file_free(f);
    free(s);
}
