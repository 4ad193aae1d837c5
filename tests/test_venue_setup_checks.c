/*
 * `tableref venue setup` refuses what would break a line (issue 32, point
 * 7), run as an organiser runs it (tests/cli_run.h, through the shell, so
 * that a value can hold a newline): each injection into an option, and into
 * a credentials.json field read back by --add, is exit 2 naming the option
 * or the field, and writes nothing (a new set-up leaves no folder; --add
 * leaves mosquitto.conf and the ACL as they were). A run that fails (no
 * mosquitto_passwd) leaves nothing that blocks the next; a file it did not
 * create (passwd.new) is never removed; the broker never runs as root.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"

static char g_root[256];

static void setup(void)
{
    snprintf(g_root, sizeof g_root, "%s/tableref-venue-checks-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(g_root));
    chmod(g_root, 0711); /* the broker's account enters it (as root the broker runs as mosquitto) */
}

static void teardown(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", g_root);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* `venue setup --out ROOT/NAME ... EXTRA`: its result in *r. */
static void setup_run(const char *name, const char *extra, cli_result *r)
{
    char args[2048];
    snprintf(args, sizeof args, "venue setup --out '%s/%s' --event gt --tables 2 --judges alice --bind 127.0.0.1 %s",
             g_root, name, extra);
    cr_assert_eq(cli_run(args, r), 0);
}

/* A whole file's text (at most 64 kB). */
static void slurp(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    fclose(f);
}

Test(venue_setup_checks, each_injection_into_an_option_is_exit_2_naming_it_and_writes_nothing, .init = setup,
     .fini = teardown, .timeout = 60)
{
    static const char *const cases[][2] = {
        /* the option's value (shell words), the name the message must give */
        {"--ws-port 9001 --http-dir \"$(printf '/tmp\\nallow_anonymous true')\"", "--http-dir"},
        {"--run-as \"$(printf 'nobody\\nuser root')\"", "--run-as"},
        {"--run-as root", "--run-as"},
        {"--streamers \"$(printf 'obs\\ntopic readwrite #')\"", "--streamers"},
        {"--mqtt-port 1e308", "--mqtt-port"},
        {"--ws-port 70000", "--ws-port"},
        {"--mqtt-port 1.5", "--mqtt-port"},
        {"--mqtt-port 0", "--mqtt-port"},
    };
    cli_result r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[16], path[400];
        snprintf(name, sizeof name, "v%zu", i);
        setup_run(name, cases[i][0], &r);
        cr_assert_eq(r.status, 2, "%s: exit %d\n%s", cases[i][0], r.status, r.err);
        cr_assert(strstr(r.err, cases[i][1]), "%s: the message does not name %s: %s", cases[i][0], cases[i][1], r.err);
        snprintf(path, sizeof path, "%s/%s", g_root, name);
        cr_assert_not(exists(path), "%s: a refused run left %s", cases[i][0], path);
    }
    /* A newline in --bind (after the fixed --bind above: the last one counts), --event and --judges. */
    char args[1024];
    snprintf(args, sizeof args, "venue setup --out '%s/b' --event gt --tables 2 --judges alice "
             "--bind \"$(printf '127.0.0.1\\nallow_anonymous true')\"", g_root);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert(r.status == 2 && strstr(r.err, "--bind") && strstr(r.err, "control character"), "%d %s", r.status, r.err);
    snprintf(args, sizeof args, "venue setup --out '%s/e' --event \"$(printf 'gt\\nx')\" --tables 2 --judges alice", g_root);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert(r.status == 2 && strstr(r.err, "--event"), "%d %s", r.status, r.err);
    snprintf(args, sizeof args, "venue setup --out '%s/j' --event gt --tables 2 --judges \"$(printf 'alice\\ntopic readwrite #')\"",
             g_root);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert(r.status == 2 && strstr(r.err, "--judges"), "%d %s", r.status, r.err);
    for (const char *n = "bej"; *n; n++) {
        char path[400];
        snprintf(path, sizeof path, "%s/%c", g_root, *n);
        cr_assert_not(exists(path), "a refused run left %s", path);
    }
}

/* credentials.json of the set-up in ROOT/NAME rewritten by a python one-liner `edit` on its object c. */
static void edit_credentials(const char *name, const char *edit)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import json,sys; p=sys.argv[1]; c=json.load(open(p)); %s; json.dump(c, open(p, \"w\"))' "
             "'%s/%s/credentials.json'", edit, g_root, name);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

Test(venue_setup_checks, each_injection_into_credentials_json_on_add_is_exit_2_naming_the_field, .init = setup,
     .fini = teardown, .timeout = 90)
{
    static const char *const cases[][2] = {
        {"c[\"judges\"][\"alice\\nuser x\"] = c[\"judges\"].pop(\"alice\")", "judges."},
        {"c[\"broker\"][\"bind\"] = \"127.0.0.1\\nallow_anonymous true\"", "broker.bind"},
        {"c[\"broker\"][\"mqtt_port\"] = 1e308", "broker.mqtt_port"},
        {"c[\"tables\"][\"1\"][\"user\"] = \"table-1\\ntopic readwrite #\"", "tables.\"1\".user"},
        {"c[\"event\"] = \"gt\\nallow_anonymous true\"", "event"},
    };
    cli_result r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[16], conf[400], acl[400], conf0[8192], acl0[8192], conf1[8192], acl1[8192];
        snprintf(name, sizeof name, "a%zu", i);
        setup_run(name, "", &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
        snprintf(conf, sizeof conf, "%s/%s/mosquitto.conf", g_root, name);
        snprintf(acl, sizeof acl, "%s/%s/acl", g_root, name);
        slurp(conf, conf0, sizeof conf0);
        slurp(acl, acl0, sizeof acl0);
        edit_credentials(name, cases[i][0]);
        setup_run(name, "--add --tables 3", &r);
        cr_assert_eq(r.status, 2, "%s: exit %d\n%s", cases[i][0], r.status, r.err);
        cr_assert(strstr(r.err, "credentials.json") && strstr(r.err, cases[i][1]), "%s: %s", cases[i][0], r.err);
        slurp(conf, conf1, sizeof conf1);
        slurp(acl, acl1, sizeof acl1);
        cr_assert_str_eq(conf1, conf0, "%s: mosquitto.conf changed", cases[i][0]);
        cr_assert_str_eq(acl1, acl0, "%s: the ACL changed", cases[i][0]);
    }
}

Test(venue_setup_checks, a_failed_run_leaves_nothing_in_the_way_and_removes_nothing_it_did_not_make, .init = setup,
     .fini = teardown, .timeout = 60)
{
    /* No mosquitto_passwd on the PATH: the run fails half-way, and leaves nothing. */
    char args[1024], path[400];
    cli_result r;
    snprintf(args, sizeof args, "venue setup --out '%s/f' --event gt --tables 2 --judges alice", g_root);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "PATH=/nonexistent-bin \"$TABLEREF_BIN\" %s 2>/dev/null", args);
    cr_assert_neq(system(cmd), 0, "a run without mosquitto_passwd succeeded");
    snprintf(path, sizeof path, "%s/f", g_root);
    cr_assert_not(exists(path), "the failed run left %s", path);
    /* The same again, into a folder that was there (empty): it stays, empty. */
    mkdir(path, 0711);
    cr_assert_neq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", path);
    cr_assert_eq(system(cmd), 0, "the failed run left files in %s", path);
    /* The next run goes through. */
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);

    /* A folder holding a file of someone else's (passwd.new): refused, and the file is kept as it was. */
    snprintf(path, sizeof path, "%s/g", g_root);
    mkdir(path, 0700);
    snprintf(cmd, sizeof cmd, "printf 'not yours\\n' > '%s/passwd.new'", path);
    cr_assert_eq(system(cmd), 0);
    snprintf(args, sizeof args, "venue setup --out '%s' --event gt --tables 2 --judges alice", path);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert(r.status == 2 && strstr(r.err, "not empty"), "%d %s", r.status, r.err);
    char text[64];
    snprintf(cmd, sizeof cmd, "%s/passwd.new", path);
    slurp(cmd, text, sizeof text);
    cr_assert_str_eq(text, "not yours\n");

    /* The broker's account: never root (as root, mosquitto). */
    char conf[8192];
    snprintf(path, sizeof path, "%s/f/mosquitto.conf", g_root);
    slurp(path, conf, sizeof conf);
    cr_assert_null(strstr(conf, "\nuser root\n"), "the broker runs as root");
    if (geteuid() == 0)
        cr_assert_not_null(strstr(conf, "\nuser mosquitto\n"), "%s", conf);
}
