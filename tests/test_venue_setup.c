/*
 * `tableref venue setup`'s own output, started as it says (mosquitto -c
 * DIR/mosquitto.conf, on 127.0.0.1 and free ports, stopped by pid): the
 * files and their modes, the MQTT listener bound to the given address only, one
 * account per table (cross-table forgery refused), client ids bound to
 * accounts (nobody takes a table's place), no anonymous access, streamers
 * read only the public topics, a 10 MB publish refused and not persisted,
 * --add keeping the passwords handed out.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli_run.h"
#include "fixture_venue.h"
#include "venue_broker.h"
#include "venue_feed.h"
#include "venue_site.h"
#include "venue_sub.h"

static venue_site g_site;          /* the generated set-up and its broker (start_generated_broker) */
static venue_broker g_tls_broker;  /* tls_on_the_pages_listener's broker */
static venue_broker *g_broker;     /* the one the test runs */
static char g_dir[256];            /* the set-up's folder */
static char g_pass[8][64];         /* table-1, table-2, alice, bob, obs */

static void teardown(void)
{
    venue_site_stop(&g_site);
    venue_broker_stop(&g_tls_broker);
    if (g_dir[0]) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", g_dir);
    }
}

static void read_password(const char *user, char *out, size_t cap)
{
    char path[400];
    snprintf(path, sizeof path, "%s/passwords/%s", g_dir, user);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "%s", path);
    cr_assert_eq(st.st_mode & 0777, 0600, "%s: mode %o", path, st.st_mode & 0777);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(out, (int)cap, f));
    fclose(f);
    out[strcspn(out, "\n")] = 0;
    cr_assert_eq(strlen(out), 32, "%s: a 32-character password", path);
}

static void run_setup(const char *extra, int port, int ws)
{
    static cli_result r;
    char args[900];
    snprintf(args, sizeof args, "venue setup --out %s --event gt --mqtt-port %d --ws-port %d --bind 127.0.0.1 %s",
             g_dir, port, ws, extra);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
}

/* The set-up written (--tables 2 --judges alice,bob --streamers obs) and the broker started from it, exactly as
 * written (tests/venue_site.h); every account's password file read as handed out. */
static void start_generated_broker(void)
{
    char err[600];
    cr_assert_eq(venue_site_start(&g_site, "gt", 2, "alice,bob", "obs", NULL, err, sizeof err), 0, "%s", err);
    g_broker = &g_site.broker;
    cr_assert_lt(strlen(g_site.dir) + 7, sizeof g_dir);
    snprintf(g_dir, sizeof g_dir, "%.*s/venue", (int)(sizeof g_dir - 7), g_site.dir);
    static const char *users[] = {"table-1", "table-2", "alice", "bob", "obs"};
    for (int i = 0; i < 5; i++)
        read_password(users[i], g_pass[i], sizeof g_pass[i]);
}

/* Table N's feed, connected (15 s at most). */
static venue_feed *table_feed(int table, const char *password)
{
    base_error err;
    venue_feed *f = fxv_table_feed(g_broker->port, "gt", table, password, 15000, &err);
    cr_assert_not_null(f, "%s", err.msg);
    return f;
}

static void publish(venue_feed *f, const char *json)
{
    base_error err;
    cr_assert_eq(fxv_publish(f, json, &err), 0, "%s", err.msg);
}

/* Whether /proc/net/tcp{,6} shows a listening socket on `port` bound to anything but 127.0.0.1. */
static bool listens_beyond_loopback(int port, bool *seen)
{
    static const char *files[] = {"/proc/net/tcp", "/proc/net/tcp6"};
    bool beyond = false;
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f)
            continue;
        char line[512], addr[80];
        unsigned lport, state;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, " %*d: %79[0-9A-Fa-f]:%x %*s %x", addr, &lport, &state) == 3 && (int)lport == port &&
                state == 0x0A) {
                *seen = true;
                if (strcmp(addr, "0100007F") != 0)
                    beyond = true;
            }
        fclose(f);
    }
    return beyond;
}

Test(venue_setup, files_and_listeners_as_asked, .fini = teardown, .timeout = 60)
{
    start_generated_broker();
    char path[400];
    snprintf(path, sizeof path, "%s/credentials.json", g_dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    static char text[65536];
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    cJSON *c = cJSON_Parse(text);
    cr_assert_not_null(c);
    const cJSON *t2 = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "tables"), "2");
    cr_assert_str_eq(cJSON_GetObjectItem(t2, "user")->valuestring, "table-2");
    snprintf(path, sizeof path, "%s/passwords/table-2", g_dir);
    cr_assert_str_eq(cJSON_GetObjectItem(t2, "password_file")->valuestring, path);
    cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(c, "judges"), "bob"));
    cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(c, "streamers"), "obs"));
    cJSON_Delete(c);
    static const char *private[] = {"passwd", "acl", "mosquitto.conf", "credentials.json"};
    for (int i = 0; i < 4; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", g_dir, private[i]);
        cr_assert_eq(stat(path, &st), 0, "%s", path);
        cr_assert_eq(st.st_mode & 077, 0, "%s: mode %o, readable by others", path, st.st_mode & 0777);
    }
    /* What the broker binds, from the kernel's own table (/proc/net/tcp, tcp6): both listeners on
     * 127.0.0.1 only. Mosquitto 2.0.11's WebSockets listener binds every interface unless the set-up says
     * `socket_domain ipv4` (issue 20). */
    bool seen_mqtt = false, seen_ws = false;
    cr_assert_not(listens_beyond_loopback(g_broker->port, &seen_mqtt), "the MQTT listener binds beyond 127.0.0.1");
    cr_assert_not(listens_beyond_loopback(g_broker->ws_port, &seen_ws), "the WebSockets listener binds beyond 127.0.0.1");
    cr_assert(seen_mqtt && seen_ws, "both listeners listen (%d %d)", seen_mqtt, seen_ws);

    /* An existing set-up is never overwritten without --add. */
    static cli_result r;
    char args[600];
    snprintf(args, sizeof args, "venue setup --out %s --event gt --tables 2 --judges alice", g_dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "credentials.json") && strstr(r.err, "--add"), "%s", r.err);
}

Test(venue_setup, one_account_per_table_and_client_ids_bound_to_accounts, .fini = teardown, .timeout = 90)
{
    start_generated_broker();
    cr_assert_null(venue_sub_new(g_broker->port, "tableref/#", 1), "an anonymous client was let in");
    venue_sub *alice = venue_sub_new_as(g_broker->port, "tableref/gt/#", 1, NULL, "alice", g_pass[2]);
    venue_sub *obs = venue_sub_new_as(g_broker->port, "tableref/#", 1, NULL, "obs", g_pass[4]);
    cr_assert(alice && obs);
    venue_feed *t1 = table_feed(1, g_pass[0]);
    publish(t1, "{\"seq\":1,\"event\":\"alert\",\"move\":1,\"unit\":\"spears\"}");
    cr_assert_not_null(venue_sub_wait(alice, "tableref/gt/table/1/event/alert", "spears", 15000));
    cr_assert_not_null(venue_sub_wait(obs, "tableref/gt/table/1/event/alert", "spears", 15000), "the streamer reads");

    /* Cross-table forgery: table 2's account writes table 1's state and a command to table 1. */
    venue_sub *t2 = venue_sub_new_as(g_broker->port, "tableref/gt/table/1/command/#", 1, NULL, "table-2", g_pass[1]);
    cr_assert_not_null(t2);
    venue_sub_publish(t2, "tableref/gt/table/1/state", "{\"forged\":true}", true);
    venue_sub_publish(t2, "tableref/gt/table/1/event/alert", "{\"forged\":true}", false);
    venue_sub_publish(t2, "tableref/gt/table/1/command/alice", "overrule 1 forged", false);
    /* A streamer commands nothing either; a judge commands under their own name only. */
    venue_sub_publish(obs, "tableref/gt/table/1/command/obs", "overrule 1 forged", false);
    venue_sub_publish(alice, "tableref/gt/table/1/command/bob", "overrule 1 forged", false);
    venue_sub_publish(alice, "tableref/gt/table/1/command/alice", "overrule 1 measured again", false);
    venue_command cmd;
    bool got = false;
    for (int i = 0; i < 1500 && !got; i++) {
        got = venue_feed_poll_command(t1, &cmd) == 1;
        if (!got)
            nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    cr_assert(got, "alice's command did not reach table 1");
    cr_assert_str_eq(cmd.by, "alice");
    cr_assert_str_eq(cmd.reason, "measured again", "the first command to reach the table is alice's own");
    cr_assert_eq(venue_feed_poll_command(t1, &cmd), 0, "a forged command reached the table: %s", cmd.line);
    cr_assert_eq(venue_sub_count_matching(alice, NULL, "forged"), 0, "a forgery reached a judge");
    cr_assert_eq(venue_sub_count_matching(t2, NULL, "measured again"), 0, "table 2 reads table 1's commands");
    cr_assert_eq(venue_sub_count_matching(obs, NULL, "measured again"), 0, "a streamer reads commands");

    /* Client-id takeover: the streamer and table 2 connect with table 1's client ids; table 1 stays on. */
    venue_sub *thief = venue_sub_new_as(g_broker->port, "tableref/#", 1, "table-1", "obs", g_pass[4]);
    venue_sub *thief2 = venue_sub_new_as(g_broker->port, "tableref/#", 1, "tableref-gt-table-1", "table-2", g_pass[1]);
    cr_assert(thief && thief2, "their own accounts may connect (under their own client ids)");
    sleep(2);
    venue_stats st;
    venue_feed_stats(t1, &st);
    cr_assert(st.connected && st.connects == 1, "table 1 was kicked off (%ld connections)", st.connects);
    cr_assert_eq(venue_sub_count_matching(alice, "tableref/gt/table/1/status", "\"offline\""), 0,
                 "table 1's last will fired");
    venue_sub_free(thief);
    venue_sub_free(thief2);
    venue_sub_free(t2);
    venue_feed_free(t1);
    venue_sub_free(alice);
    venue_sub_free(obs);
}

Test(venue_setup, ten_megabytes_refused_and_not_persisted, .fini = teardown, .timeout = 90)
{
    start_generated_broker();
    venue_sub *t1 = venue_sub_new_as(g_broker->port, "tableref/gt/table/1/command/#", 1, NULL, "table-1", g_pass[0]);
    cr_assert_not_null(t1);
    size_t n = 10u << 20;
    char *big = malloc(n + 1);
    cr_assert_not_null(big);
    memset(big, 'x', n);
    big[n] = 0;
    cr_assert_neq(venue_sub_publish(t1, "tableref/gt/table/1/picture", big, true), 0, "a 10 MB publish acknowledged");
    free(big);
    venue_sub_free(t1);
    base_error err;
    cr_assert_eq(venue_broker_restart(g_broker, &err), 0, "%s", err.msg); /* writes the persistence file */
    venue_sub *alice = venue_sub_new_as(g_broker->port, "tableref/gt/#", 1, NULL, "alice", g_pass[2]);
    cr_assert_not_null(alice);
    cr_assert_null(venue_sub_wait(alice, "tableref/gt/table/1/picture", NULL, 1000), "the 10 MB picture was kept");
    venue_sub_free(alice);
    char path[400];
    snprintf(path, sizeof path, "%s/data/mosquitto.db", g_dir);
    struct stat st;
    if (stat(path, &st) == 0)
        cr_assert_lt(st.st_size, 1 << 20, "the broker's database holds %lld bytes", (long long)st.st_size);
}

Test(venue_setup, add_keeps_the_passwords_handed_out, .fini = teardown, .timeout = 90)
{
    start_generated_broker();
    static cli_result r;
    char args[600];
    /* Without the ports: --add keeps the set-up's listeners. */
    snprintf(args, sizeof args, "venue setup --out %s --event gt --add --tables 3 --judges carol", g_dir);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char path[400], listener[64];
    snprintf(path, sizeof path, "%s/mosquitto.conf", g_dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    static char conf[16384];
    conf[fread(conf, 1, sizeof conf - 1, f)] = 0;
    fclose(f);
    snprintf(listener, sizeof listener, "listener %d 127.0.0.1\n", g_broker->port);
    cr_assert(strstr(conf, listener), "--add moved the listener: %s", conf);
    char again[64], t3[64], carol[64];
    read_password("table-1", again, sizeof again);
    cr_assert_str_eq(again, g_pass[0], "--add changed table 1's password");
    read_password("table-3", t3, sizeof t3);
    read_password("carol", carol, sizeof carol);
    cr_assert_eq(kill(g_broker->pid, SIGHUP), 0); /* the broker reads the password and ACL files again */
    sleep(1);
    venue_feed *f1 = table_feed(1, g_pass[0]), *f3 = table_feed(3, t3);
    venue_sub *c = venue_sub_new_as(g_broker->port, "tableref/gt/#", 1, NULL, "carol", carol);
    cr_assert_not_null(c, "the new judge cannot log in");
    publish(f3, "{\"seq\":1,\"event\":\"alert\",\"move\":1,\"unit\":\"knights\"}");
    cr_assert_not_null(venue_sub_wait(c, "tableref/gt/table/3/event/alert", "knights", 15000));
    venue_sub_free(c);
    venue_feed_free(f1);
    venue_feed_free(f3);
}

/* --tls CERT KEY: the pages' WebSockets listener speaks TLS (wss://); the tables' MQTT listener stays plain. */
Test(venue_setup, tls_on_the_pages_listener, .fini = teardown, .timeout = 90)
{
    snprintf(g_dir, sizeof g_dir, "%s/tableref-venue-tls-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(g_dir));
    chmod(g_dir, 0711); /* the broker's account enters it (as root the broker runs as mosquitto) */
    char cmd[1600];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -keyout '%s/key.pem' "
             "-out '%s/cert.pem' 2>/dev/null",
             g_dir, g_dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    int port = venue_broker_free_port(), ws = venue_broker_free_port();
    char extra[800];
    snprintf(extra, sizeof extra, "--tables 1 --judges alice --tls %s/cert.pem %s/key.pem", g_dir, g_dir);
    static char sub[240];
    cr_assert_lt(strlen(g_dir) + 7, sizeof sub);
    snprintf(sub, sizeof sub, "%.*s/venue", (int)(sizeof sub - 7), g_dir);
    char saved[256];
    snprintf(saved, sizeof saved, "%s", g_dir);
    snprintf(g_dir, sizeof g_dir, "%s", sub); /* the set-up in a folder of its own, the certificate beside it */
    run_setup(extra, port, ws);
    snprintf(g_dir, sizeof g_dir, "%s", saved);
    char conf[400];
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", sub);
    base_error err;
    g_broker = &g_tls_broker;
    cr_assert_eq(venue_broker_start_conf(conf, sub, port, ws, g_broker, &err), 0, "%s", err.msg);
    /* A TLS handshake on the WebSockets port; the tables' port answers plain MQTT (a table logs in). */
    static const char *handshake =
        "openssl s_client -connect 127.0.0.1:%d </dev/null 2>/dev/null | grep -q 'BEGIN CERT'";
    snprintf(cmd, sizeof cmd, handshake, ws);
    cr_assert_eq(system(cmd), 0, "no TLS on the WebSockets listener");
    snprintf(cmd, sizeof cmd, handshake, port);
    cr_assert_neq(system(cmd), 0, "the tables' listener speaks TLS: tableref watch cannot connect");
    char password[64], path[400];
    snprintf(path, sizeof path, "%s/passwords/table-1", sub);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(password, sizeof password, f));
    fclose(f);
    password[strcspn(password, "\n")] = 0;
    venue_feed *t1 = table_feed(1, password);
    venue_feed_free(t1);
}

/* A password file whose first line is over what the watch reads: an error naming the file, never a cut password. */
Test(venue_setup, a_password_over_the_limit_is_an_error_naming_the_file, .fini = teardown, .timeout = 60)
{
    snprintf(g_dir, sizeof g_dir, "%s/tableref-venue-pw-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(g_dir));
    char path[400];
    snprintf(path, sizeof path, "%s/long-password", g_dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < 5000; i++)
        fputc('a' + i % 26, f);
    fputc('\n', f);
    fclose(f);
    static cli_result r;
    char args[900];
    snprintf(args, sizeof args,
             "watch --table datasets/demo/table.json --mqtt 127.0.0.1:1 --event e --table 1 --mqtt-user u "
             "--mqtt-password-file '%s' --quiet",
             path);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, path) && strstr(r.err, "over 4095 bytes"), "%s", r.err);
}
