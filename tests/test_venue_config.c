/*
 * The venue's broker set up as docs/venue.md says, from the very files it
 * ships (venue/mosquitto/tableref.conf and tableref.acl, only paths and
 * ports changed for a test on loopback), with a password file made by
 * mosquitto_passwd: the page is served over HTTP on the WebSockets port;
 * the tables write, the public only reads; a judge commands under their own
 * name and no other; anonymous commands never reach a table; the retained
 * state survives a broker restart (persistence).
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "venue_broker.h"
#include "venue_feed.h"
#include "venue_sub.h"

static venue_broker g_broker;
static char g_dir[256];

static void teardown(void)
{
    venue_broker_stop(&g_broker);
    if (g_dir[0]) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", g_dir);
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    static char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* Replaces the one line starting with `from` by `to` (the test's paths and ports). */
static void replace_line(char *text, size_t cap, const char *from, const char *to)
{
    char *p = strstr(text, from);
    cr_assert_not_null(p, "tableref.conf has no line \"%s\"", from);
    char *eol = strchr(p, '\n');
    cr_assert_not_null(eol);
    size_t tail = strlen(eol);
    cr_assert_lt((size_t)(p - text) + strlen(to) + tail, cap);
    memmove(p + strlen(to), eol, tail + 1);
    memcpy(p, to, strlen(to));
}

static void make_passwords(void)
{
    static const char *users[][2] = {{"tables", "t-pass"}, {"alice", "a-pass"}, {"bob", "b-pass"}};
    for (int i = 0; i < 3; i++) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "mosquitto_passwd -b %s '%s/passwd' %s %s", i == 0 ? "-c" : "", g_dir, users[i][0],
                 users[i][1]);
        cr_assert_eq(system(cmd), 0, "%s", cmd);
    }
}

static void start_shipped_broker(void)
{
    const char *root = getenv("TABLEREF_SOURCE_ROOT");
    cr_assert_not_null(root);
    snprintf(g_dir, sizeof g_dir, "%s/tableref-venue-conf-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(g_dir));
    make_passwords();
    char path[600];
    snprintf(path, sizeof path, "%s/venue/mosquitto/tableref.conf", root);
    static char conf[20000];
    snprintf(conf, sizeof conf, "%s", read_text(path));
    int port = venue_broker_free_port(), ws = venue_broker_free_port();
    cr_assert(port && ws && port != ws);
    /* The test's paths and loopback ports in place of the venue's. */
    char values[6][700];
    snprintf(values[0], sizeof values[0], "password_file %s/passwd", g_dir);
    snprintf(values[1], sizeof values[1], "acl_file %s/venue/mosquitto/tableref.acl", root);
    snprintf(values[2], sizeof values[2], "persistence_location %s/", g_dir);
    snprintf(values[3], sizeof values[3], "http_dir %s/web", root);
    snprintf(values[4], sizeof values[4], "listener %d 127.0.0.1", port);
    snprintf(values[5], sizeof values[5], "listener %d 127.0.0.1", ws);
    const char *lines[6] = {"password_file ", "acl_file ", "persistence_location ", "http_dir ", "listener 1883",
                            "listener 9001"};
    for (int i = 0; i < 6; i++)
        replace_line(conf, sizeof conf, lines[i], values[i]);
    if (geteuid() == 0)
        strncat(conf, "user root\n", sizeof conf - strlen(conf) - 1); /* as root it would switch to a user who cannot read g_dir */
    snprintf(path, sizeof path, "%s/mosquitto.conf", g_dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(conf, f);
    fclose(f);
    base_error err;
    cr_assert_eq(venue_broker_start_conf(path, g_dir, port, ws, &g_broker, &err), 0, "%s", err.msg);
}

/* GET `path` from 127.0.0.1:port; the whole answer in buf. */
static void http_get(int port, const char *path, char *buf, size_t cap)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(s, (struct sockaddr *)&a, sizeof a), 0);
    char req[300];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
    cr_assert_eq(write(s, req, (size_t)n), n);
    size_t have = 0;
    ssize_t got;
    while (have + 1 < cap && (got = read(s, buf + have, cap - 1 - have)) > 0)
        have += (size_t)got;
    buf[have] = 0;
    close(s);
}

static venue_feed *table_feed(int table)
{
    venue_config cfg;
    venue_config_default(&cfg);
    cfg.port = g_broker.port;
    cfg.event = "gt";
    cfg.table = table;
    cfg.username = "tables";
    cfg.password = "t-pass";
    base_error err;
    venue_feed *f = venue_feed_new(&cfg, &err);
    cr_assert_not_null(f, "%s", err.msg);
    return f;
}

static void publish(venue_feed *f, const char *json)
{
    cJSON *ev = cJSON_Parse(json);
    base_error err;
    cr_assert_eq(venue_feed_publish(f, ev, &err), 0, "%s", err.msg);
    cJSON_Delete(ev);
}

static bool poll_for(venue_feed *f, venue_command *c, int ms)
{
    for (int t = 0; t < ms; t += 10) {
        if (venue_feed_poll_command(f, c) == 1)
            return true;
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    return false;
}

Test(venue_config, the_shipped_broker_config_serves_the_page_and_enforces_who_may_do_what, .fini = teardown,
     .timeout = 60)
{
    start_shipped_broker();
    static char page[65536];
    http_get(g_broker.ws_port, "/index.html", page, sizeof page);
    cr_assert(strstr(page, "200 OK") && strstr(page, "judge.js"), "the page is not served: %.200s", page);
    http_get(g_broker.ws_port, "/node_modules/mqtt/dist/mqtt.min.js", page, sizeof page);
    cr_assert(strstr(page, "200 OK"), "mqtt.js is not served (run scripts/setup-web.sh): %.200s", page);

    venue_feed *f = table_feed(9);
    venue_sub *public = venue_sub_new(g_broker.port, "tableref/gt/#", 1);
    cr_assert_not_null(public, "the public may subscribe");
    publish(f, "{\"seq\":1,\"event\":\"move_checked\",\"move\":1,\"legal\":false,\"units\":[]}");
    publish(f, "{\"seq\":2,\"event\":\"alert\",\"move\":1,\"unit\":\"spears\"}");
    cr_assert_not_null(venue_sub_wait(public, "tableref/gt/table/9/event/alert", NULL, 15000), "the public reads alerts");
    cr_assert_not_null(venue_sub_wait(public, "tableref/gt/table/9/state", NULL, 15000));

    /* The public cannot command, and does not see commands. */
    cr_assert_eq(venue_sub_publish(public, "tableref/gt/table/9/command/alice", "overrule 1 spoofed", false), 0);
    venue_command c;
    cr_assert_not(poll_for(f, &c, 1000), "an anonymous command reached the table");

    /* A judge commands under their own name; not under another's. */
    venue_sub *alice = venue_sub_new_as(g_broker.port, "tableref/gt/table/9/status", 1, NULL, "alice", "a-pass");
    cr_assert_not_null(alice);
    cr_assert_eq(venue_sub_publish(alice, "tableref/gt/table/9/command/bob", "overrule 1 as bob", false), 0);
    cr_assert_not(poll_for(f, &c, 1000), "alice commanded as bob");
    cr_assert_eq(venue_sub_publish(alice, "tableref/gt/table/9/command/alice", "overrule 1 measured again", false), 0);
    cr_assert(poll_for(f, &c, 15000), "alice's command did not reach the table");
    cr_assert_eq(c.action, VENUE_CMD_OVERRULE);
    cr_assert_str_eq(c.by, "alice");
    cr_assert_eq(venue_sub_count_matching(public, NULL, "measured again"), 0, "the public saw a command");

    /* A wrong password is refused, and said so. */
    venue_sub *mallory = venue_sub_new_as(g_broker.port, "tableref/#", 1, NULL, "alice", "wrong");
    cr_assert_null(mallory);

    /* Persistence: the retained state outlives a broker restart, with no table to send it again. */
    venue_feed_free(f);
    venue_sub_free(alice);
    venue_sub_free(public);
    base_error err;
    cr_assert_eq(venue_broker_restart(&g_broker, &err), 0, "%s", err.msg);
    venue_sub *later = venue_sub_new(g_broker.port, "tableref/gt/#", 1);
    cr_assert_not_null(later);
    const venue_sub_msg *state = venue_sub_wait(later, "tableref/gt/table/9/state", "\"move\":1", 15000);
    cr_assert(state && state->retain, "the retained state did not survive the restart");
    cr_assert_not_null(venue_sub_wait(later, "tableref/gt/table/9/status", "\"stopped\"", 15000));
    venue_sub_free(later);
}
