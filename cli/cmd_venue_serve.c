/*
 * tableref venue serve DIR: the judge's page of a set-up made with --tls,
 * over https (venue/venue_https.h): Mosquitto 2.0.11 cannot serve it over TLS
 * to a browser (docs/venue.md). Binds the set-up's https port, loads its
 * certificate, then runs as the account that owns DIR/www (the broker's).
 */
#define _GNU_SOURCE /* setgroups */
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base_json.h"
#include "cli_args.h"
#include "commands.h"
#include "venue_https.h"

static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

static const cli_doc doc = {
    "venue serve",
    "usage: tableref venue serve DIR\n\n"
    "Serves the judge's page of the set-up in DIR (made by `tableref venue setup --tls\n"
    "CERT KEY --http-dir WEB`) over https, HTTP/1.1, on its https port (--https-port,\n"
    "default 8443), with its certificate: https://HOST:PORT/index.html?event=NAME.\n"
    "The page then talks to the broker over wss://HOST:WS_PORT/. Run as root, it binds\n"
    "the port, reads the key, and then runs as the account that owns DIR/www (the\n"
    "broker's). Ctrl-C or SIGTERM stops it.\n\n",
    "\nExit status: 0 stopped, 2 bad input (no set-up with --tls in DIR, a port in use).\n",
};

/* The https listener of DIR/credentials.json: 0, or -1 (said). */
static int read_setup(const char *dir, venue_https_options *o, char *cert, char *key, char *bind, size_t cap)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/credentials.json", dir);
    base_error err;
    cJSON *c = base_json_parse_file(path, &err);
    if (!c) {
        fprintf(stderr, "tableref venue serve: %s\n", err.msg);
        return -1;
    }
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "broker");
    const cJSON *port = cJSON_GetObjectItemCaseSensitive(b, "https_port");
    const cJSON *addr = cJSON_GetObjectItemCaseSensitive(b, "bind");
    const cJSON *crt = cJSON_GetObjectItemCaseSensitive(b, "tls_cert"), *k = cJSON_GetObjectItemCaseSensitive(b, "tls_key");
    int rc = 0;
    if (!cJSON_IsNumber(port) || !cJSON_IsString(crt) || !cJSON_IsString(k) || !cJSON_IsString(addr) ||
        port->valuedouble < 1 || port->valuedouble > 65535) {
        fprintf(stderr, "tableref venue serve: %s: broker: no https_port, tls_cert and tls_key: make the set-up with "
                        "--tls CERT KEY\n", path);
        rc = -1;
    } else {
        snprintf(cert, cap, "%s", crt->valuestring);
        snprintf(key, cap, "%s", k->valuestring);
        snprintf(bind, cap, "%s", addr->valuestring);
        o->port = (int)port->valuedouble;
    }
    cJSON_Delete(c);
    return rc;
}

/* Root no more: the account that owns the page (the broker's). 0, or -1 (said). */
static int drop_root(const char *www)
{
    struct stat st;
    if (geteuid() != 0)
        return 0;
    if (stat(www, &st) != 0 || st.st_uid == 0) {
        fprintf(stderr, "tableref venue serve: %s belongs to root: run tableref venue setup as root, which gives it "
                        "to the broker's unprivileged account\n", www);
        return -1;
    }
    if (setgroups(0, NULL) != 0 || setgid(st.st_gid) != 0 || setuid(st.st_uid) != 0 || setuid(0) == 0) {
        fprintf(stderr, "tableref venue serve: cannot give up root\n");
        return -1;
    }
    return 0;
}

int cmd_venue_serve(int argc, char **argv)
{
    const char *pos[1] = {NULL};
    int n_pos = cli_parse(&doc, argc, argv, NULL, 0, pos, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!pos[0])
        return cli_missing(doc.command, "DIR (a set-up made with --tls)"), EXIT_BAD_INPUT;
    venue_https_options o;
    venue_https_options_default(&o);
    char cert[PATH_MAX], key[PATH_MAX], bind[300], www[PATH_MAX + 8];
    if (read_setup(pos[0], &o, cert, key, bind, sizeof cert) < 0)
        return EXIT_BAD_INPUT;
    snprintf(www, sizeof www, "%s/www", pos[0]);
    o.root = www, o.cert = cert, o.key = key, o.bind = bind;
    base_error err;
    venue_https *s = venue_https_new(&o, &err);
    if (!s) {
        fprintf(stderr, "tableref venue serve: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    if (drop_root(www) < 0) {
        venue_https_free(s);
        return EXIT_BAD_INPUT;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    printf("serving %s at https://%s:%d/ (HTTP/1.1)\n", www, bind, venue_https_port(s));
    fflush(stdout);
    int rc = venue_https_run(s, &g_stop);
    venue_https_free(s);
    return rc == 0 ? 0 : EXIT_BAD_INPUT;
}
