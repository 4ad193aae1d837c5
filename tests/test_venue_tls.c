/*
 * --tls end to end in a browser (issue 32, point 4): a certificate made in
 * the test (openssl, CN and SAN 127.0.0.1), `tableref venue setup --tls
 * CERT KEY --http-dir web/`, Mosquitto started from its mosquitto.conf (the
 * pages' listener wss:// only), the page served over https by `tableref
 * venue serve DIR` (HTTP/1.1 only: Mosquitto 2.0.11's own http_dir over TLS
 * offers HTTP/2 and Chromium stops with ERR_HTTP2_PROTOCOL_ERROR,
 * docs/venue.md). In headless Chromium (tests/web/tls_page.mjs) the judge's
 * page loads over https (200), alice logs in over wss:// and sees table 1's
 * alert, and the streamer's overlay (obs) shows the call. Screenshots:
 * build/tests/venue-web/tls-judge.png, tls-overlay.png.
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fixture_venue.h"
#include "venue_broker.h"
#include "venue_proc.h"

static char g_root[256], g_dir[300];
static venue_broker g_broker;
static venue_proc g_serve = {.pid = -1}, g_node = {.pid = -1};
static venue_feed *g_table;

static void teardown(void)
{
    venue_proc_kill(&g_node, SIGKILL);
    venue_proc_kill(&g_serve, SIGTERM);
    venue_feed_free(g_table);
    venue_broker_stop(&g_broker);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_root);
    if (g_root[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", g_root);
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    cr_assert(v && *v, "%s is not set", name);
    return v;
}

static void password_of(const char *user, char *out, size_t cap)
{
    char path[400];
    snprintf(path, sizeof path, "%s/passwords/%s", g_dir, user);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    cr_assert_not_null(fgets(out, (int)cap, f));
    fclose(f);
    out[strcspn(out, "\n")] = 0;
}

/* Whether 127.0.0.1:port accepts a connection within timeout_ms. */
static bool accepts(int port, int timeout_ms)
{
    for (int waited = 0; waited < timeout_ms; waited += 50) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bool ok = s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0;
        if (s >= 0)
            close(s);
        if (ok)
            return true;
        nanosleep(&(struct timespec){0, 50000000L}, NULL);
    }
    return false;
}

static void publish(const char *json)
{
    base_error e;
    cr_assert_eq(fxv_publish(g_table, json, &e), 0, "%s", e.msg);
}

Test(venue_tls, page_and_overlay_over_https_and_the_call_over_wss_in_chromium, .fini = teardown, .timeout = 240)
{
    snprintf(g_root, sizeof g_root, "%s/tableref-venue-tls-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(g_root));
    chmod(g_root, 0711); /* the broker's account enters it (as root the broker runs as mosquitto) */
    snprintf(g_dir, sizeof g_dir, "%s/venue", g_root);
    char cmd[2400];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 "
             "-keyout '%s/key.pem' -out '%s/cert.pem' 2>/dev/null",
             g_root, g_root);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    int port = venue_broker_free_port(), ws = venue_broker_free_port(), https = venue_broker_free_port();
    cr_assert(port && ws && https && port != ws && ws != https && port != https);
    snprintf(cmd, sizeof cmd,
             "'%s' venue setup --out '%s' --event tls --tables 2 --judges alice --streamers obs --bind 127.0.0.1 "
             "--mqtt-port %d --ws-port %d --https-port %d --tls '%s/cert.pem' '%s/key.pem' --http-dir '%s/web' >/dev/null",
             env("TABLEREF_BIN"), g_dir, port, ws, https, g_root, g_root, env("TABLEREF_SOURCE_ROOT"));
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char conf[400];
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", g_dir);
    base_error e;
    cr_assert_eq(venue_broker_start_conf(conf, g_dir, port, ws, &g_broker, &e), 0, "%s", e.msg);
    char *serve[] = {(char *)env("TABLEREF_BIN"), "venue", "serve", g_dir, NULL};
    cr_assert_eq(venue_proc_spawn(&g_serve, serve, NULL, 0), 0);
    cr_assert(accepts(https, 10000), "tableref venue serve does not listen on %d", https);

    char pw[128], judge[160], ov[160];
    password_of("table-1", pw, sizeof pw);
    g_table = fxv_table_feed(port, "tls", 1, pw, 15000, &e);
    cr_assert_not_null(g_table, "%s", e.msg);
    publish("{\"seq\":1,\"event\":\"started\",\"wall\":\"2026-11-28T10:00:00.000Z\"}");
    publish("{\"seq\":2,\"event\":\"move_checked\",\"move\":1,\"legal\":false,\"units\":[{\"unit\":\"spears\","
            "\"verdict\":\"illegal\",\"codes\":[\"MU-MODEL-DIST\"]}]}");
    publish("{\"seq\":3,\"event\":\"alert\",\"move\":1,\"unit\":\"spears\",\"codes\":[\"MU-MODEL-DIST\"],"
            "\"sentence\":\"spears: march, ILLEGAL\"}");
    cr_assert_eq(venue_feed_flush(g_table, 10000), 0);

    password_of("alice", pw, sizeof pw);
    snprintf(judge, sizeof judge, "alice:%s", pw);
    password_of("obs", pw, sizeof pw);
    snprintf(ov, sizeof ov, "obs:%s", pw);
    setenv("JUDGE_LOGIN", judge, 1);
    setenv("OVERLAY_LOGIN", ov, 1);
    char script[1024], out[1024], base[64], line[8192] = "";
    snprintf(script, sizeof script, "%s/tests/web/tls_page.mjs", env("TABLEREF_SOURCE_ROOT"));
    snprintf(out, sizeof out, "%s/tests/venue-web", env("TABLEREF_BUILD_ROOT"));
    mkdir(out, 0755);
    snprintf(base, sizeof base, "https://127.0.0.1:%d", https);
    char *argv[] = {(char *)venue_proc_node(), script, base, "tls", out, NULL};
    cr_assert_eq(venue_proc_spawn(&g_node, argv, NULL, 0), 0, "cannot start node");
    cr_assert_eq(venue_proc_read_line(&g_node, line, sizeof line, 150000), 0, "node said nothing");
    cr_assert_eq(strncmp(line, "result ", 7), 0, "node said: %s", line);
    fprintf(stderr, "%s\n", line);
    cJSON *res = cJSON_Parse(line + 7);
    cr_assert_not_null(res, "%s", line);
    const cJSON *loaded = cJSON_GetObjectItem(res, "loaded");
    cr_assert_eq(cJSON_GetObjectItem(loaded, "status")->valueint, 200, "%s", line);
    cr_assert_str_eq(cJSON_GetObjectItem(loaded, "protocol")->valuestring, "https:");
    cr_assert_str_eq(cJSON_GetObjectItem(res, "overlayProtocol")->valuestring, "https:");
    cr_assert(strstr(cJSON_GetObjectItem(res, "banner")->valuestring, "spears"), "%s", line);
    const cJSON *sockets = cJSON_GetObjectItem(res, "sockets");
    cr_assert_gt(cJSON_GetArraySize(sockets), 0, "%s", line);
    char wss[64];
    snprintf(wss, sizeof wss, "wss://127.0.0.1:%d/", ws);
    for (int i = 0; i < cJSON_GetArraySize(sockets); i++)
        cr_assert_str_eq(cJSON_GetArrayItem(sockets, i)->valuestring, wss, "%s", line);
    cJSON_Delete(res);
    cr_assert_eq(venue_proc_finish(&g_node), 0, "the page test did not exit cleanly");
}
