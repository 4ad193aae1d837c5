/*
 * Help that helps: a missing argument is named (not the whole usage), a
 * mistyped command gets its nearest name, the man page generated from the
 * help texts documents every command, the bash completion completes, every
 * option of every command's table (`tableref --options-dump`) is in its
 * --help (numbers with their range), its man page section and its completion
 * and the completion offers nothing else, and `meson install` installs the
 * program, the man page, the completion (in
 * share/bash-completion/completions), the documents and the licence.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "options_dump.h"

static const char *build_root(void)
{
    const char *b = getenv("TABLEREF_BUILD_ROOT");
    return b ? b : "build";
}

Test(help, a_missing_argument_is_named, .timeout = 60)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"check", "missing the BEFORE and AFTER snapshots"},
        {"check datasets/examples/turn/before.json", "missing the AFTER snapshot"},
        {"detect", "missing the camera IMAGE"},
        {"detect datasets/demo/after.jpg --roster datasets/demo/roster.json", "missing --calib C.json (or --table T.json)"},
        {"referee datasets/demo/before.jpg", "missing the AFTER image"},
        {"referee a.jpg b.jpg --table datasets/demo/table.json", "missing --out DIR"},
        {"tags", "missing the IMAGE"},
        {"target", "missing --out TARGET.pdf or TARGET.png"},
        {"render", "missing the SCENE.json"},
        {"render-sequence s.json", "missing --out DIR"},
        {"calibrate camera a.jpg --out c.json", "missing --target TARGET.json"},
        {"calibrate board b.jpg --calib c.json", "missing --roster ROSTER.json"},
        {"roster import --out r.json", "missing the army list file"},
        {"tags sheet r.json", "missing --out TAGS.pdf"},
        {"tags layout", "missing the roster (ROSTER.json)"},
        {"tags layout r.json", "missing --out ROSTER2.json"},
        {"capture --out d", "missing --source SRC"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r;
        cr_assert_eq(cli_run(cases[i].args, &r), 0);
        cr_assert_eq(r.status, 2, "tableref %s: exit %d", cases[i].args, r.status);
        cr_assert(strstr(r.err, cases[i].says) != NULL, "tableref %s: expected \"%s\" in: %s", cases[i].args,
                  cases[i].says, r.err);
        cr_assert(strstr(r.err, "usage:") == NULL, "tableref %s printed its whole usage: %s", cases[i].args, r.err);
        cr_assert(strchr(r.err, '\n') == strrchr(r.err, '\n'), "tableref %s: one line, got: %s", cases[i].args, r.err);
    }
}

Test(help, a_mistyped_command_gets_its_nearest_name)
{
    cli_result r;
    cr_assert_eq(cli_run("refere x y", &r), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "did you mean 'referee'?") != NULL, "%s", r.err);
    cr_assert_eq(cli_run("--version", &r), 0);
    cr_assert_eq(r.status, 0);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s is missing: is it generated at build time?", path);
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

Test(help, the_man_page_documents_every_command, .timeout = 60)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/tableref.1", build_root());
    const char *man = slurp(path);
    cr_assert(strncmp(man, ".TH TABLEREF 1", 14) == 0);
    cli_result r;
    cr_assert_eq(cli_run("--help", &r), 0);
    /* Every command of `tableref --help` has its section, with its usage line. */
    const char *p = strstr(r.out, "commands:\n");
    cr_assert_not_null(p);
    int n = 0;
    for (p = strchr(p, '\n') + 1; strncmp(p, "  ", 2) == 0; p = strchr(p, '\n') + 1) {
        char name[64], section[96], usage[96];
        cr_assert_eq(sscanf(p, " %63s", name), 1);
        snprintf(section, sizeof section, ".SH \"TABLEREF %s\"", name);
        for (char *c = section + 13; *c; c++)
            *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
        cr_assert(strstr(man, section) != NULL, "no %s in the man page", section);
        snprintf(usage, sizeof usage, "tableref %s", name);
        cr_assert(strstr(man, usage) != NULL, "no \"%s\" in the man page", usage);
        n++;
    }
    cr_assert_geq(n, 10, "%d commands", n);
    cr_assert(strstr(man, ".SH \"TABLEREF ROSTER IMPORT\"") != NULL && strstr(man, ".SH \"TABLEREF TAGS SHEET\"") != NULL);
    cr_assert(strstr(man, ".SH EXIT STATUS") != NULL);
}

Test(help, bash_completion_completes, .timeout = 60)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "bash -c 'source \"%s/docs/tableref\" || exit 9; "
             "COMP_WORDS=(tableref ro); COMP_CWORD=1; _tableref; [ \"${COMPREPLY[*]}\" = roster ] || exit 1; "
             "COMP_WORDS=(tableref roster \"\"); COMP_CWORD=2; _tableref; [ \"${COMPREPLY[*]}\" = import ] || exit 2; "
             "COMP_WORDS=(tableref tags sheet r.json --pa); COMP_CWORD=4; _tableref; [ \"${COMPREPLY[*]}\" = --paper ] || exit 3; "
             "COMP_WORDS=(tableref capture --for b); COMP_CWORD=3; _tableref; [ \"${COMPREPLY[*]}\" = board ] || exit 4'",
             build_root());
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "completion check %d failed", WEXITSTATUS(st));
}

Test(help, meson_install_installs_program_man_completion_docs, .timeout = 120)
{
    char dest[] = "/tmp/tableref-install-XXXXXX";
    cr_assert_not_null(mkdtemp(dest));
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "meson install -C '%s' --no-rebuild --destdir '%s' >'%s.log' 2>&1", build_root(), dest,
             dest);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "meson install failed (see %s.log)", dest);
    static const char *files[] = {"bin/tableref", "share/man/man1/tableref.1",
                                  "share/bash-completion/completions/tableref", "share/doc/tableref/getting-started.md",
                                  "share/doc/tableref/formats.md", "share/doc/tableref/LICENSE",
                                  "share/doc/tableref/pictures/camera-height.png"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(cmd, sizeof cmd, "find '%s' -path '*/%s' | grep -q .", dest, files[i]);
        st = system(cmd);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s not installed", files[i]);
    }
    /* The completion beside the program's prefix: PREFIX/bin/tableref, PREFIX/share/bash-completion/completions. */
    snprintf(cmd, sizeof cmd,
             "p=$(find '%s' -path '*/bin/tableref' | head -1); test -f \"${p%%/bin/tableref}/share/bash-completion/"
             "completions/tableref\"",
             dest);
    st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the completion is not in PREFIX/share/bash-completion/completions");
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s.log'", dest, dest);
    (void)!system(cmd);
}

static od_table table;

/* The lines of `text` from the option's label ("\n  --name " at a line start) to the next label; NULL when absent. */
static const char *option_block(const char *text, const char *name, char *out, size_t cap)
{
    char label[64];
    const char *p = text;
    snprintf(label, sizeof label, "\n  %s", name);
    size_t n = strlen(label);
    while ((p = strstr(p, label)) != NULL && p[n] != ' ' && p[n] != '\n')
        p += n;
    if (!p)
        return NULL;
    const char *end = strstr(p + n, "\n  -");
    size_t len = end ? (size_t)(end - p) : strlen(p);
    snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), p);
    return out;
}

/* The man page's section for `command` ("calibrate camera"), up to the next section. */
static const char *man_section(const char *man, const char *command, char *out, size_t cap)
{
    char head[96];
    snprintf(head, sizeof head, ".SH \"TABLEREF %s\"\n", command);
    for (char *c = head + 13; *c; c++)
        *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    const char *p = strstr(man, head);
    if (!p)
        return NULL;
    const char *end = strstr(p + strlen(head), "\n.SH ");
    size_t len = end ? (size_t)(end - p) : strlen(p);
    snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), p);
    return out;
}

/* One option of the table in a help text (or a man page section): its label, and a number's range beside it. */
static void expect_option_in(const char *text, const od_option *o, const char *where)
{
    char block[4096], range[80];
    cr_assert_not_null(option_block(text, o->name, block, sizeof block), "%s: no %s in %s", o->command, o->name,
                       where);
    if (od_is_number(o)) {
        snprintf(range, sizeof range, "[%s..%s]", o->min, o->max);
        cr_expect(strstr(block, range) != NULL, "%s %s: no range %s in %s: %s", o->command, o->name, range, where,
                  block);
    }
}

Test(help, every_option_is_in_the_help_and_the_man_page, .timeout = 120)
{
    cr_assert_eq(od_read(&table), 0, "tableref --options-dump");
    cr_assert_geq(table.n_commands, 25, "%d commands and steps", table.n_commands);
    cr_assert_geq(table.n_options, 150, "%d options", table.n_options);
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/tableref.1", build_root());
    const char *man = slurp(path);
    static cli_result r;
    static char section[1 << 16];
    int checked = 0;
    for (int c = 0; c < table.n_commands; c++) {
        const char *name = table.commands[c];
        char args[128];
        snprintf(args, sizeof args, "%s --help", name);
        cr_assert_eq(cli_run(args, &r), 0);
        cr_assert_eq(r.status, 0, "tableref %s: exit %d", args, r.status);
        cr_assert(strncmp(r.out, "usage: tableref ", 16) == 0, "tableref %s: %s", args, r.out);
        cr_assert_not_null(man_section(man, name, section, sizeof section), "no section for %s in the man page", name);
        cr_assert(strstr(section, "usage: tableref ") != NULL, "the man page's section for %s is empty", name);
        for (int i = 0; i < table.n_options; i++) {
            if (strcmp(table.options[i].command, name) != 0)
                continue;
            expect_option_in(r.out, &table.options[i], "its --help");
            expect_option_in(section, &table.options[i], "its man page section");
            checked++;
        }
    }
    /* The options every command takes: in `tableref --help` and the man page's OPTIONS. */
    cr_assert_eq(cli_run("--help", &r), 0);
    const char *options = strstr(man, ".SH OPTIONS\n");
    for (int i = 0; i < table.n_options; i++)
        if (strcmp(table.options[i].command, "*") == 0) {
            expect_option_in(r.out, &table.options[i], "tableref --help");
            char label[64];
            snprintf(label, sizeof label, "\n.B %s ", table.options[i].name);
            cr_assert(options && strstr(options, label) != NULL, "no %s under OPTIONS in the man page",
                      table.options[i].name);
            checked++;
        }
    cr_assert_eq(checked, table.n_options);
}

/* The words the completion offers after `tableref COMMAND -` (a step's words after its command). */
static void completion_words(const char *command, char *out, size_t cap)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "bash -c 'source \"%s/docs/tableref\" || exit 9; COMP_WORDS=(tableref %s -); "
             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _tableref; printf \"%%s\\n\" \"${COMPREPLY[@]}\" | sort'",
             build_root(), command);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    cr_assert_eq(pclose(p), 0, "completion of %s", command);
}

/* `word` is a whole line of `lines`. */
static int has_line(const char *lines, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = lines; (p = strstr(p, word)) != NULL; p += n)
        if ((p == lines || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
            return 1;
    return 0;
}

Test(help, the_completion_offers_every_option_and_nothing_else, .timeout = 120)
{
    cr_assert_eq(od_read(&table), 0, "tableref --options-dump");
    for (int c = 0; c < table.n_commands; c++) {
        const char *name = table.commands[c];
        char words[8192];
        completion_words(name, words, sizeof words);
        int expected = 1; /* --help */
        cr_expect(has_line(words, "--help"), "%s: no --help in its completion: %s", name, words);
        for (int i = 0; i < table.n_options; i++) {
            const od_option *o = &table.options[i];
            if (strcmp(o->command, name) != 0 && strcmp(o->command, "*") != 0)
                continue;
            expected++;
            cr_expect(has_line(words, o->name), "%s: %s missing from its completion", name, o->name);
        }
        int offered = 0;
        for (const char *p = words; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
            offered++;
        cr_expect_eq(offered, expected, "%s: the completion offers %d words, its table has %d: %s", name, offered,
                     expected, words);
    }
}
