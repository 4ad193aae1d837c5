/*
 * venue_setup_check: every value `tableref venue setup` writes into a file is
 * checked here first, whether it came from the command line or from
 * credentials.json (--add): a newline in a name or a path would add a line to
 * mosquitto.conf or the ACL (`allow_anonymous true`, `topic readwrite #`).
 */
#define _GNU_SOURCE /* getpwnam_r */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_fields.h"
#include "base_text.h"
#include "venue_command.h"
#include "venue_setup_int.h"

/* A value as a message may show it: controls and invalid bytes as \xNN, cut to fit. */
static const char *shown(char *out, size_t cap, const char *v)
{
    char *e = base_text_escape_terminal(v ? v : "");
    snprintf(out, cap, "%s", e ? e : "?");
    base_text_trim_cut(out);
    free(e);
    return out;
}

bool venue_setup_name_ok(const char *name)
{
    return venue_command_judge_name_ok(name); /* the same rule: a judge's name is a command topic's last level */
}

int setup_check_line(const char *what, const char *value, size_t max, base_error *err)
{
    size_t n = value ? strlen(value) : 0;
    if (n == 0)
        return base_error_set(err, "%s: empty", what);
    if (n > max)
        return base_error_set(err, "%s: longer than %zu bytes", what, max);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c < 0x20 || c == 0x7f)
            return base_error_set(err, "%s: a control character (byte 0x%02x at %zu) would break the line it is "
                                       "written into", what, c, i);
    }
    char buf[200];
    if (value[0] == ' ' || value[n - 1] == ' ')
        return base_error_set(err, "%s: \"%s\" begins or ends with a blank", what, shown(buf, sizeof buf, value));
    if (!base_text_valid(value, n))
        return base_error_set(err, "%s: not valid UTF-8", what);
    return 0;
}

int setup_check_bind(const char *what, const char *value, base_error *err)
{
    if (setup_check_line(what, value, 253, err) < 0)
        return -1;
    char buf[200];
    unsigned char addr[16];
    if (inet_pton(AF_INET, value, addr) == 1 || inet_pton(AF_INET6, value, addr) == 1)
        return 0;
    /* A host name: labels of letters, digits and '-', joined by dots. */
    for (const char *p = value; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '.'))
            return base_error_set(err, "%s: \"%s\" is neither an IPv4 or IPv6 address nor a host name", what,
                                  shown(buf, sizeof buf, value));
    if (value[0] == '.' || value[0] == '-' || strstr(value, ".."))
        return base_error_set(err, "%s: \"%s\" is not a host name", what, shown(buf, sizeof buf, value));
    return 0;
}

static int check_port(const char *what, int port, base_error *err)
{
    return port >= 1 && port <= 65535 ? 0 : base_error_set(err, "%s: %d is outside 1..65535", what, port);
}

static int check_names(const venue_setup_options *o, base_error *err)
{
    const char *const *lists[2] = {o->judges, o->streamers};
    int counts[2] = {o->n_judges, o->n_streamers};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < counts[l]; i++) {
            char buf[120];
            if (!venue_setup_name_ok(lists[l][i]))
                return base_error_set(err, "%s: \"%s\": 1-32 letters, digits, '-' or '_' (and not table-...)",
                                      l ? "--streamers" : "--judges", shown(buf, sizeof buf, lists[l][i]));
            for (int m = 0; m < 2; m++)
                for (int k = 0; k < counts[m]; k++)
                    if ((m != l || k != i) && strcmp(lists[l][i], lists[m][k]) == 0)
                        return base_error_set(err, "--judges/--streamers: \"%s\" named twice", lists[l][i]);
        }
    return 0;
}

static int check_paths(const venue_setup_options *o, base_error *err)
{
    if (setup_check_line("--out", o->dir, PATH_MAX / 2, err) < 0)
        return -1;
    if (!o->tls_cert != !o->tls_key)
        return base_error_set(err, "--tls: give both CERT and KEY");
    if (o->tls_cert && (setup_check_line("--tls CERT", o->tls_cert, PATH_MAX / 2, err) < 0 ||
                        setup_check_line("--tls KEY", o->tls_key, PATH_MAX / 2, err) < 0))
        return -1;
    if (o->http_dir && setup_check_line("--http-dir", o->http_dir, PATH_MAX / 2, err) < 0)
        return -1;
    if (o->run_as && setup_check_line("--run-as", o->run_as, 32, err) < 0)
        return -1;
    return 0;
}

int setup_check_options(const venue_setup_options *o, base_error *err)
{
    if (!o->dir || !o->event)
        return base_error_set(err, "--out and --event are required");
    char buf[120];
    if (!venue_setup_name_ok(o->event))
        return base_error_set(err, "--event: \"%s\": 1-32 letters, digits, '-' or '_'", shown(buf, sizeof buf, o->event));
    if (o->tables < 0 || o->tables > VENUE_SETUP_MAX_TABLES)
        return base_error_set(err, "--tables: %d is outside 0..%d", o->tables, VENUE_SETUP_MAX_TABLES);
    if (!o->add && o->tables < 1)
        return base_error_set(err, "--tables: at least 1");
    if (check_paths(o, err) < 0 || check_names(o, err) < 0 || setup_check_bind("--bind", o->bind, err) < 0 ||
        check_port("--mqtt-port", o->mqtt_port, err) < 0 || check_port("--ws-port", o->ws_port, err) < 0 ||
        check_port("--https-port", o->https_port, err) < 0)
        return -1;
    if (o->mqtt_port == o->ws_port || (o->tls_cert && (o->https_port == o->mqtt_port || o->https_port == o->ws_port)))
        return base_error_set(err, "--mqtt-port, --ws-port and --https-port: each listener needs its own port "
                                   "(%d, %d, %d)", o->mqtt_port, o->ws_port, o->https_port);
    return 0;
}

/* ---- credentials.json, read back by --add ---- */

/* A port read back: a whole number 1..65535 (a JSON 1e308 is not a port). */
static int cred_port(const cJSON *b, const char *key, const char *where, bool required, base_error *err)
{
    int port = 0;
    return base_fields_int(b, key, where, required, 1, 65535, &port, err);
}

static int cred_string(const cJSON *o, const char *key, const char *where, bool required, base_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    char what[300];
    snprintf(what, sizeof what, "%s.%s", where, key);
    if (!v)
        return required ? base_error_set(err, "%s: missing required field", what) : 0;
    if (!cJSON_IsString(v))
        return base_error_set(err, "%s: expected a string", what);
    return key[0] == 'b' ? setup_check_bind(what, v->valuestring, err)
                         : setup_check_line(what, v->valuestring, PATH_MAX / 2, err);
}

static int check_broker(const cJSON *creds, const char *path, base_error *err)
{
    static const char *const keys[] = {"mqtt_port", "ws_port", "https_port", "bind", "tls_cert", "tls_key",
                                       "http_dir", NULL};
    char where[PATH_MAX + 16];
    snprintf(where, sizeof where, "%s: broker", path);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(creds, "broker");
    if (!cJSON_IsObject(b))
        return base_error_set(err, "%s: expected an object", where);
    if (base_fields_known(b, where, keys, err) < 0 || cred_port(b, "mqtt_port", where, true, err) < 0 ||
        cred_port(b, "ws_port", where, true, err) < 0 || cred_port(b, "https_port", where, false, err) < 0 ||
        cred_string(b, "bind", where, true, err) < 0 || cred_string(b, "tls_cert", where, false, err) < 0 ||
        cred_string(b, "tls_key", where, false, err) < 0 || cred_string(b, "http_dir", where, false, err) < 0)
        return -1;
    return 0;
}

/* One account: {"user": NAME, "password_file": PATH}, its key the name (a judge, a streamer) or the number. */
static int check_account(const cJSON *acc, const char *group, const char *path, base_error *err)
{
    static const char *const keys[] = {"user", "password_file", NULL};
    char where[PATH_MAX + 200], user[48], buf[120];
    snprintf(where, sizeof where, "%s: %s.\"%s\"", path, group, shown(buf, sizeof buf, acc->string));
    if (strcmp(group, "tables") == 0) {
        char *end;
        long n = strtol(acc->string, &end, 10);
        if (*end || end == acc->string || acc->string[0] == '0' || n < 1 || n > VENUE_SETUP_MAX_TABLES)
            return base_error_set(err, "%s: a table's number is 1..%d", where, VENUE_SETUP_MAX_TABLES);
        snprintf(user, sizeof user, "table-%ld", n);
    } else {
        if (!venue_setup_name_ok(acc->string))
            return base_error_set(err, "%s: 1-32 letters, digits, '-' or '_' (and not table-...)", where);
        snprintf(user, sizeof user, "%s", acc->string);
    }
    if (!cJSON_IsObject(acc) || base_fields_known(acc, where, keys, err) < 0 ||
        cred_string(acc, "password_file", where, true, err) < 0)
        return err && err->msg[0] ? -1 : base_error_set(err, "%s: expected an object", where);
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(acc, "user");
    if (!cJSON_IsString(u) || strcmp(u->valuestring, user) != 0)
        return base_error_set(err, "%s.user: expected \"%s\"", where, user);
    return 0;
}

int setup_check_credentials(const cJSON *creds, const char *path, base_error *err)
{
    static const char *const keys[] = {"event", "broker", "tables", "judges", "streamers", NULL};
    static const char *const groups[] = {"tables", "judges", "streamers"};
    if (base_fields_known(creds, path, keys, err) < 0 || check_broker(creds, path, err) < 0)
        return -1;
    for (int g = 0; g < 3; g++) {
        const cJSON *group = cJSON_GetObjectItemCaseSensitive(creds, groups[g]);
        if (!cJSON_IsObject(group))
            return base_error_set(err, "%s: %s: expected an object", path, groups[g]);
        const cJSON *acc;
        cJSON_ArrayForEach(acc, group)
        {
            if (check_account(acc, groups[g], path, err) < 0)
                return -1;
            char buf[120];
            if (g == 1 && cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(creds, "streamers"),
                                                           acc->string))
                return base_error_set(err, "%s: \"%s\" is both a judge and a streamer", path,
                                      shown(buf, sizeof buf, acc->string));
        }
    }
    return 0;
}

/* ---- the broker's account ---- */

/* Whether uid/gid may search (enter) the folder described by st. */
static bool may_enter(const struct stat *st, uid_t uid, gid_t gid)
{
    if (st->st_uid == uid)
        return st->st_mode & S_IXUSR;
    if (st->st_gid == gid)
        return st->st_mode & S_IXGRP;
    return st->st_mode & S_IXOTH;
}

/* As root the broker reads its files as r->user: the set-up's folder and every folder above it must let it in. */
static int check_reachable(const setup_run *r, const char *dir, base_error *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (bool first = true;; first = false) {
        char *slash = strrchr(path, '/');
        if (!first && (!slash || slash == path))
            return 0;
        if (!first)
            *slash = 0;
        struct stat st;
        if (stat(path, &st) != 0)
            return base_error_setc(err, BASE_E_IO, "%s: %s", path, strerror(errno));
        if (!may_enter(&st, r->uid, r->gid))
            return base_error_setc(err, BASE_E_REFUSED,
                                   "%s: the broker's account %s cannot enter this folder (mode %04o): let it "
                                   "(chmod o+x) or choose another --out", path, r->user, st.st_mode & 07777);
    }
}

int setup_broker_account(setup_run *r, base_error *err)
{
    const char *name = r->eff.run_as;
    struct passwd pw, *found = NULL;
    char buf[4096];
    if (!name && r->as_root)
        name = "mosquitto"; /* Debian's package makes it; mosquitto's own default */
    if (name) {
        if (getpwnam_r(name, &pw, buf, sizeof buf, &found) != 0 || !found)
            return base_error_set(err, "--run-as: no account \"%s\" on this machine (the broker must run as an "
                                       "unprivileged account: give --run-as USER)", name);
    } else if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &found) != 0 || !found) {
        return base_error_set(err, "this process's account (uid %u) has no name: give --run-as USER",
                              (unsigned)geteuid());
    }
    if (found->pw_uid == 0)
        return base_error_set(err, "--run-as: \"%s\" is root: the broker must run as an unprivileged account",
                              found->pw_name);
    if (!r->as_root && found->pw_uid != geteuid())
        return base_error_set(err, "--run-as %s: only root can start the broker as another account", found->pw_name);
    snprintf(r->user, sizeof r->user, "%s", found->pw_name);
    r->uid = found->pw_uid, r->gid = found->pw_gid;
    return r->as_root ? check_reachable(r, r->dir, err) : 0;
}
