/*
 * Inputs are sacred (issue 31, point 1), generated from the option tables: every output option of every command
 * (`tableref --options-dump`'s "io" lines: out, append, outdir with the files it puts into the folder) against
 * every input of the same command (the "in" and "source" options and the positionals its "inputs" line names), the
 * output landing on the input four ways: by the same path, through a hard link, the input given through a symbolic
 * link, and the output being a symbolic link to the input. Each run is refused before the command does any work
 * (exit 2, the message naming both options) and the input keeps its bytes. Nothing here is written by hand: a new
 * option marked as a file in its table is tested the day it is added.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "fixture_demo.h"
#include "options_dump.h"

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("matrix"));
}

static void teardown(void)
{
    (void)fxd_scratch_remove();
}

TestSuite(plan_matrix, .init = setup, .fini = teardown, .timeout = 240);

/* One input of a command: an option ("--calib") or the k-th positional ("BEFORE", k = 0). */
typedef struct matrix_input {
    char name[48];
    int positional; /* -1: an option */
} matrix_input;

/* The inputs of `command`: its in/source options, then its positionals that are files. */
static int inputs_of(const od_table *t, int c, matrix_input *in, int cap)
{
    int n = 0;
    for (int i = 0; i < t->n_options && n < cap; i++) {
        const od_option *o = &t->options[i];
        if (strcmp(o->command, t->commands[c]) == 0 && (strcmp(o->io, "in") == 0 || strcmp(o->io, "source") == 0)) {
            snprintf(in[n].name, sizeof in[n].name, "%s", o->name);
            in[n++].positional = -1;
        }
    }
    char names[48];
    snprintf(names, sizeof names, "%s", t->inputs[c]);
    int k = 0;
    for (char *w = strtok(names, " "); w && n < cap; w = strtok(NULL, " "), k++) {
        char *dots = strstr(w, "...");
        if (dots)
            *dots = '\0';
        snprintf(in[n].name, sizeof in[n].name, "%s", w);
        in[n++].positional = k;
    }
    return n;
}

/* The first file an output folder receives, its star made a name ("frames/STAR.jpg" -> "frames/000001.jpg"). */
static void first_file(const char *files, char *out, size_t cap)
{
    char word[160];
    size_t n = strcspn(files, " ");
    snprintf(word, sizeof word, "%.*s", (int)n, files);
    char *star = strchr(word, '*');
    if (star)
        snprintf(out, cap, "%.*s000001%s", (int)(star - word), word, star + 1);
    else
        snprintf(out, cap, "%s", word);
}

static void put(const char *path, const char *text)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    cr_assert_eq(system(cmd), 0);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static const char *slurp(const char *path)
{
    static char buf[256];
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
        fclose(f);
    }
    return buf;
}

/* The four ways an output may land on an input. */
enum way { BY_PATH, BY_HARD_LINK, INPUT_THROUGH_LINK, OUTPUT_IS_LINK, N_WAYS };
static const char *const way_words[] = {"by path", "by hard link", "input through a symbolic link",
                                        "output a symbolic link to the input"};

/* Runs COMMAND with input `in` and output option `o` meeting `way`; checks the refusal. Returns 1 (one run). */
static int run_pair(const char *command, const od_option *o, const matrix_input *in, enum way way, int k)
{
    char dir[512], victim[700], out_value[700], in_value[700], other[700];
    snprintf(dir, sizeof dir, "%s/p%d", fxd_dir(), k);
    cr_assert_eq(mkdir(dir, 0777), 0);
    const bool folder = strcmp(o->io, "outdir") == 0;
    char inside[200] = "";
    if (folder)
        first_file(o->files, inside, sizeof inside);
    snprintf(out_value, sizeof out_value, folder ? "%s/od" : "%s/out.dat", dir);
    snprintf(victim, sizeof victim, folder ? "%s/od/%s" : "%s/out.dat", dir, inside);
    snprintf(other, sizeof other, "%s/other.dat", dir);
    /* The input is the victim (or another name of it); with OUTPUT_IS_LINK the output is a link to the input. */
    put(way == OUTPUT_IS_LINK ? other : victim, "precious\n");
    const char *input = way == OUTPUT_IS_LINK ? other : victim;
    snprintf(in_value, sizeof in_value, "%s", input);
    if (way == BY_HARD_LINK) {
        snprintf(in_value, sizeof in_value, "%s/hard.dat", dir);
        cr_assert_eq(link(victim, in_value), 0);
    } else if (way == INPUT_THROUGH_LINK) {
        snprintf(in_value, sizeof in_value, "%s/soft.dat", dir);
        cr_assert_eq(symlink(victim, in_value), 0);
    } else if (way == OUTPUT_IS_LINK) {
        char cmd[1600];
        snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", victim);
        cr_assert_eq(system(cmd), 0);
        cr_assert_eq(symlink(other, victim), 0, "%s", victim);
    }
    char args[4096], first[800] = "";
    if (in->positional > 0) { /* AFTER: some BEFORE first */
        char before[720];
        snprintf(before, sizeof before, "%s/before.dat", dir);
        put(before, "x\n");
        snprintf(first, sizeof first, "'%s'", before);
    }
    if (in->positional >= 0)
        snprintf(args, sizeof args, "%s %s '%s' %s '%s'", command, first, in_value, o->name, out_value);
    else
        snprintf(args, sizeof args, "%s %s '%s' %s '%s'", command, in->name, in_value, o->name, out_value);
    static cli_result r;
    cr_assert_eq(cli_run(args, &r), 0);
    cr_expect_eq(r.status, 2, "%s (%s): exit %d: %s", args, way_words[way], r.status, r.err);
    if (way == OUTPUT_IS_LINK) /* refused for being a link, whatever it points at */
        cr_expect(strstr(r.err, o->name) && strstr(r.err, "cannot write: a symbolic link"), "%s (%s): %s", args,
                  way_words[way], r.err);
    else
        cr_expect(strstr(r.err, o->name) && strstr(r.err, in->name) && strstr(r.err, "nothing written"),
                  "%s (%s): the message names both: %s", args, way_words[way], r.err);
    cr_expect_str_eq(slurp(input), "precious\n", "%s (%s): the input was changed", args, way_words[way]);
    struct stat st;
    if (way == OUTPUT_IS_LINK)
        cr_expect(lstat(victim, &st) == 0 && S_ISLNK(st.st_mode), "%s: the link itself is kept", args);
    return 1;
}

Test(plan_matrix, every_output_against_every_input_of_every_command)
{
    static od_table t;
    cr_assert_eq(od_read(&t), 0, "tableref --options-dump");
    int runs = 0, pairs = 0, commands = 0, k = 0;
    for (int c = 0; c < t.n_commands; c++) {
        matrix_input in[32];
        const int n_in = inputs_of(&t, c, in, 32);
        bool counted = false;
        for (int i = 0; i < t.n_options; i++) {
            const od_option *o = &t.options[i];
            if (strcmp(o->command, t.commands[c]) != 0 ||
                !(strcmp(o->io, "out") == 0 || strcmp(o->io, "append") == 0 || strcmp(o->io, "outdir") == 0))
                continue;
            for (int j = 0; j < n_in; j++) {
                if (strcmp(o->same_as, in[j].name) == 0)
                    continue; /* updated in place by design (calibrate board --out and --calib) */
                pairs++;
                for (int w = 0; w < N_WAYS; w++)
                    runs += run_pair(t.commands[c], o, &in[j], (enum way)w, k++);
                commands += !counted && n_in > 0;
                counted = true;
            }
        }
    }
    /* referee, check, detect, watch, calibrate, capture, roster import, tags sheet, render, ... */
    cr_expect_geq(commands, 12, "commands with an output and an input: %d", commands);
    cr_expect_geq(pairs, 50, "output/input pairs: %d", pairs);
    cr_expect_eq(runs, pairs * N_WAYS);
}

/* The table marks what it should: the options the issue names are files. */
Test(plan_matrix, the_option_tables_mark_the_files)
{
    static od_table t;
    cr_assert_eq(od_read(&t), 0);
    static const struct {
        const char *command, *name, *io;
    } want[] = {
        {"referee", "--out", "outdir"},        {"referee", "--calib", "in"},     {"watch", "--log", "append"},
        {"watch", "--vtt", "append"},          {"watch", "--calib", "in"},       {"watch", "--source", "source"},
        {"calibrate projector", "--image", "in"}, {"calibrate projector", "--pattern-out", "out"},
        {"check", "--out", "out"},             {"check", "--suggest", "out"},    {"tags sheet", "--layout", "out"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const od_option *o = od_find(&t, want[i].command, want[i].name);
        cr_assert_not_null(o, "%s %s", want[i].command, want[i].name);
        cr_expect_str_eq(o->io, want[i].io, "%s %s", want[i].command, want[i].name);
    }
    const od_option *ref = od_find(&t, "referee", "--out");
    cr_expect(strstr(ref->files, "report.json") && strstr(ref->files, "camera.png"), "%s", ref->files);
}
