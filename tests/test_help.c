/*
 * Help that helps: a missing argument is named (not the whole usage), a
 * mistyped command gets its nearest name, the man page generated from the
 * help texts documents every command, the bash completion completes, and
 * `meson install` installs the program, the man page, the completion, the
 * documents and the licence.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

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
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s.log'", dest, dest);
    (void)!system(cmd);
}
