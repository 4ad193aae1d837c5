#define _GNU_SOURCE /* realpath, open_memstream, getrandom */
#include "venue_setup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base_file.h"
#include "base_json.h"

/* Every account of the set-up: the old ones (with add) first, then the new ones. */
typedef struct setup_accounts {
    cJSON *creds; /* credentials.json as it will be written */
    char dir[PATH_MAX];
    char tls_cert[PATH_MAX], tls_key[PATH_MAX]; /* --tls, made absolute (Mosquitto reads them from its own folder) */
    char new_lines[VENUE_SETUP_MAX_TABLES + 2 * VENUE_SETUP_MAX_NAMES][160]; /* "user:password" to hash */
    int n_new;
} setup_accounts;

void venue_setup_options_default(venue_setup_options *o)
{
    memset(o, 0, sizeof *o);
    o->mqtt_port = 1883;
    o->ws_port = 9001;
    o->bind = "0.0.0.0";
}

bool venue_setup_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 32 || strncmp(name, "table-", 6) == 0)
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_'))
            return false;
    return true;
}

/* 32 characters from 24 random bytes of the kernel's (192 bits), in an alphabet safe in any file or shell. */
static int random_password(char out[33], base_error *err)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned char bytes[24];
    size_t have = 0;
    while (have < sizeof bytes) {
        ssize_t got = getrandom(bytes + have, sizeof bytes - have, 0);
        if (got < 0 && errno != EINTR)
            return base_error_setc(err, BASE_E_IO, "getrandom: %s", strerror(errno));
        if (got > 0)
            have += (size_t)got;
    }
    for (int i = 0; i < 8; i++) {
        unsigned v = (unsigned)bytes[3 * i] << 16 | (unsigned)bytes[3 * i + 1] << 8 | bytes[3 * i + 2];
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = alphabet[(v >> (18 - 6 * k)) & 63];
    }
    out[32] = 0;
    return 0;
}

/* A new file of ours, mode 0600, never over an existing one (a password already handed out stays). */
static int write_private_new(const char *path, const char *text, base_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return base_error_setc(err, BASE_E_IO, "%s: cannot create: %s", path, strerror(errno));
    size_t n = strlen(text);
    bool ok = write(fd, text, n) == (ssize_t)n && fsync(fd) == 0;
    if (close(fd) != 0 || !ok)
        return base_error_setc(err, BASE_E_IO, "%s: cannot write: %s", path, strerror(errno));
    return 0;
}

/* One account in credentials.json's `group` under `key`; a new one gets a password file. */
static int add_account(setup_accounts *a, const char *group, const char *key, const char *user, base_error *err)
{
    cJSON *g = cJSON_GetObjectItemCaseSensitive(a->creds, group);
    if (cJSON_GetObjectItemCaseSensitive(g, key))
        return 0;
    char path[PATH_MAX + 64], password[33];
    snprintf(path, sizeof path, "%s/passwords/%s", a->dir, user);
    if (random_password(password, err) < 0)
        return -1;
    char line[40];
    snprintf(line, sizeof line, "%s\n", password);
    if (write_private_new(path, line, err) < 0)
        return -1;
    snprintf(a->new_lines[a->n_new++], sizeof a->new_lines[0], "%s:%s", user, password);
    memset(password, 0, sizeof password);
    cJSON *acc = cJSON_AddObjectToObject(g, key);
    cJSON_AddStringToObject(acc, "user", user);
    cJSON_AddStringToObject(acc, "password_file", path);
    return 0;
}

/* Hashes the new accounts with mosquitto_passwd -U (PBKDF2-SHA512) and appends them to DIR/passwd. */
static int hash_new_accounts(setup_accounts *a, base_error *err)
{
    if (a->n_new == 0)
        return 0;
    char tmp[PATH_MAX + 32], passwd[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s/passwd.new", a->dir);
    snprintf(passwd, sizeof passwd, "%s/passwd", a->dir);
    unlink(tmp);
    size_t cap = (size_t)a->n_new * sizeof a->new_lines[0] + 1, len = 0;
    char *text = calloc(1, cap);
    if (!text)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    for (int i = 0; i < a->n_new; i++)
        len += (size_t)snprintf(text + len, cap - len, "%s\n", a->new_lines[i]);
    int rc = write_private_new(tmp, text, err);
    memset(text, 0, cap);
    free(text);
    if (rc < 0)
        return -1;
    /* The passwords go through a file, never the command line (`ps` shows that). */
    pid_t pid = fork();
    if (pid == 0) {
        execlp("mosquitto_passwd", "mosquitto_passwd", "-U", tmp, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        unlink(tmp);
        return base_error_setc(err, BASE_E_IO, "%s: mosquitto_passwd -U failed (exit %d): is mosquitto installed?",
                               tmp, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    char *hashed = NULL;
    size_t n = 0;
    if (base_file_read_all(tmp, 1 << 20, "the new password lines", &hashed, &n, err) < 0)
        return unlink(tmp), -1;
    unlink(tmp);
    int fd = open(passwd, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    bool ok = fd >= 0 && write(fd, hashed, n) == (ssize_t)n && fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    free(hashed);
    return ok ? 0 : base_error_setc(err, BASE_E_IO, "%s: cannot write: %s", passwd, strerror(errno));
}

static const char *const public_topics[] = {"status", "state", "picture", "event/#"};

static void acl_table(FILE *f, const char *event, int t)
{
    fprintf(f, "user table-%d\n", t);
    for (int i = 0; i < 4; i++)
        fprintf(f, "topic write tableref/%s/table/%d/%s\n", event, t, public_topics[i]);
    /* readwrite: the table clears a retained command it finds by publishing an empty retained message. */
    fprintf(f, "topic readwrite tableref/%s/table/%d/command/#\n\n", event, t);
}

static char *acl_text(const venue_setup_options *o, const cJSON *creds)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    const char *event = o->event;
    fprintf(f, "# Written by `tableref venue setup` for event %s (docs/venue.md): who may read and write what.\n"
               "# No anonymous access: every client logs in, and its client id is its user name.\n\n",
            event);
    const cJSON *acc;
    cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(creds, "tables"))
        acl_table(f, event, atoi(acc->string));
    cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(creds, "judges"))
    {
        fprintf(f, "user %s\ntopic read tableref/%s/#\n", acc->string, event);
        fprintf(f, "topic write tableref/%s/table/+/command/%s\n\n", event, acc->string);
    }
    cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(creds, "streamers"))
    {
        fprintf(f, "user %s\n", acc->string);
        for (int i = 0; i < 4; i++)
            fprintf(f, "topic read tableref/%s/table/+/%s\n", event, public_topics[i]);
        fprintf(f, "\n");
    }
    fclose(f);
    return buf;
}

/* A dotted IPv4 address (what --bind takes for an IPv4 listener), not a host name or an IPv6 address. */
static bool bind_is_ipv4(const char *addr)
{
    int dots = 0;
    for (const char *p = addr; *p; p++) {
        if (*p == '.')
            dots++;
        else if (*p < '0' || *p > '9')
            return false;
    }
    return dots == 3;
}

static void conf_listener(FILE *f, const venue_setup_options *o, int port, bool websockets)
{
    fprintf(f, "listener %d %s\n", port, o->bind);
    if (websockets) {
        fprintf(f, "protocol websockets\n");
        /* Mosquitto 2.0.11 (Debian 12) hands this listener to libwebsockets, which binds every interface
         * ("*", IPv6 and IPv4) whatever ADDR says, unless it is told IPv4 only: then it binds ADDR
         * (measured: test venue_setup, docs/venue.md). */
        if (bind_is_ipv4(o->bind))
            fprintf(f, "socket_domain ipv4\n");
        if (o->http_dir)
            fprintf(f, "http_dir %s\n", o->http_dir);
    }
    fprintf(f, "use_username_as_clientid true\n");
    /* The pages' listener only: the judges' passwords cross the hall's Wi-Fi there. The tables' feed has no
     * TLS yet (docs/venue.md: keep the tables on the wired network). */
    if (o->tls_cert && websockets)
        fprintf(f, "certfile %s\nkeyfile %s\n", o->tls_cert, o->tls_key);
    fprintf(f, "\n");
}

static char *conf_text(const venue_setup_options *o, const char *dir, const char *run_as)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "# Written by `tableref venue setup` for event %s (docs/venue.md).\n"
               "# Start: mosquitto -c %s/mosquitto.conf\n"
               "# After `tableref venue setup --add`: kill -HUP the broker (it reads the password and ACL files\n"
               "# again).\n\n",
            o->event, dir);
    fprintf(f, "per_listener_settings false\nallow_anonymous false\npassword_file %s/passwd\nacl_file %s/acl\n\n",
            dir, dir);
    fprintf(f, "# The retained status, state and picture of each table survive a restart.\n"
               "persistence true\npersistence_location %s/data/\nautosave_interval 60\n\n", dir);
    fprintf(f, "# Size limits: a packet over max_packet_size is refused from its header, before its body is read.\n"
               "message_size_limit %d\nmax_packet_size %d\n",
            VENUE_SETUP_MESSAGE_LIMIT, VENUE_SETUP_MESSAGE_LIMIT + 4096);
    fprintf(f, "# QoS 1 messages kept for one slow client (a tablet on weak Wi-Fi); 100 tables send ~300/s.\n"
               "max_queued_messages 10000\nset_tcp_nodelay true\n");
    fprintf(f, "# The files above are the set-up's owner's (mode 0600): the broker runs as that account.\nuser %s\n\n",
            run_as);
    fprintf(f, "# MQTT for the tables: tableref watch --mqtt HOST:%d\n", o->mqtt_port);
    conf_listener(f, o, o->mqtt_port, false);
    fprintf(f, "# MQTT over WebSockets for the pages (and the pages over HTTP with http_dir)\n");
    conf_listener(f, o, o->ws_port, true);
    fclose(f);
    return buf;
}

/* Reads DIR/credentials.json (add) or starts a new one (refused when one is there). */
static int load_credentials(const venue_setup_options *o, setup_accounts *a, const char *path, base_error *err)
{
    if (access(path, F_OK) != 0) {
        if (o->add)
            return base_error_setc(err, BASE_E_NOT_FOUND, "%s: no set-up to --add to", path);
        a->creds = cJSON_CreateObject();
        cJSON_AddStringToObject(a->creds, "event", o->event);
        cJSON_AddObjectToObject(a->creds, "tables");
        cJSON_AddObjectToObject(a->creds, "judges");
        cJSON_AddObjectToObject(a->creds, "streamers");
        return 0;
    }
    if (!o->add)
        return base_error_setc(err, BASE_E_REFUSED, "%s: a set-up is already there (--add adds to it)", path);
    a->creds = base_json_parse_file(path, err);
    if (!a->creds)
        return -1;
    base_file_forget_input(path); /* rewritten in place on purpose */
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(a->creds, "event");
    if (!cJSON_IsString(ev) || strcmp(ev->valuestring, o->event) != 0)
        return base_error_set(err, "%s: event: the set-up is for \"%s\", not \"%s\"", path,
                              cJSON_IsString(ev) ? ev->valuestring : "?", o->event);
    static const char *groups[] = {"tables", "judges", "streamers"};
    for (int i = 0; i < 3; i++)
        if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(a->creds, groups[i])))
            return base_error_set(err, "%s: %s: expected an object", path, groups[i]);
    return 0;
}

static int check_options(const venue_setup_options *o, base_error *err)
{
    if (!o->dir || !o->event)
        return base_error_set(err, "--out and --event are required");
    if (!venue_setup_name_ok(o->event))
        return base_error_set(err, "--event: \"%s\": 1-32 letters, digits, '-' or '_'", o->event);
    if (o->tables < 0 || o->tables > VENUE_SETUP_MAX_TABLES)
        return base_error_set(err, "--tables: %d is outside 0..%d", o->tables, VENUE_SETUP_MAX_TABLES);
    if (!o->tls_cert != !o->tls_key)
        return base_error_set(err, "--tls: give both CERT and KEY");
    const char *const *lists[2] = {o->judges, o->streamers};
    int counts[2] = {o->n_judges, o->n_streamers};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < counts[l]; i++) {
            if (!venue_setup_name_ok(lists[l][i]))
                return base_error_set(err, "%s: \"%s\": 1-32 letters, digits, '-' or '_' (and not table-...)",
                                      l ? "--streamers" : "--judges", lists[l][i]);
            for (int m = 0; m < 2; m++)
                for (int k = 0; k < counts[m]; k++)
                    if ((m != l || k != i) && strcmp(lists[l][i], lists[m][k]) == 0)
                        return base_error_set(err, "--judges/--streamers: \"%s\" named twice", lists[l][i]);
        }
    if (!o->add && o->tables < 1)
        return base_error_set(err, "--tables: at least 1");
    return 0;
}

static int make_dirs(setup_accounts *a, const char *dir, base_error *err)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return base_error_setc(err, BASE_E_IO, "%s: cannot make the folder: %s", dir, strerror(errno));
    if (!realpath(dir, a->dir))
        return base_error_setc(err, BASE_E_IO, "%s: %s", dir, strerror(errno));
    static const char *subs[] = {"passwords", "data"};
    for (int i = 0; i < 2; i++) {
        char p[PATH_MAX + 16];
        snprintf(p, sizeof p, "%s/%s", a->dir, subs[i]);
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            return base_error_setc(err, BASE_E_IO, "%s: cannot make the folder: %s", p, strerror(errno));
    }
    return 0;
}

static int add_all_accounts(const venue_setup_options *o, setup_accounts *a, base_error *err)
{
    for (int t = 1; t <= o->tables; t++) {
        char key[16], user[32];
        snprintf(key, sizeof key, "%d", t);
        snprintf(user, sizeof user, "table-%d", t);
        if (add_account(a, "tables", key, user, err) < 0)
            return -1;
    }
    for (int i = 0; i < o->n_judges; i++)
        if (cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a->creds, "streamers"), o->judges[i]) ||
            add_account(a, "judges", o->judges[i], o->judges[i], err) < 0)
            return err->msg[0] ? -1 : base_error_set(err, "--judges: %s is a streamer already", o->judges[i]);
    for (int i = 0; i < o->n_streamers; i++)
        if (cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a->creds, "judges"), o->streamers[i]) ||
            add_account(a, "streamers", o->streamers[i], o->streamers[i], err) < 0)
            return err->msg[0] ? -1 : base_error_set(err, "--streamers: %s is a judge already", o->streamers[i]);
    return 0;
}

static int write_text_file(const char *dir, const char *name, char *text, base_error *err)
{
    if (!text)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    char *path = base_file_join(dir, name);
    int rc = path ? base_file_write_all(path, text, strlen(text), name, err) : -1;
    free(path);
    free(text);
    return rc;
}

/* The listeners of the set-up: kept in credentials.json, so that --add never moves them. */
static int broker_settings(venue_setup_options *eff, setup_accounts *a, const char *path, base_error *err)
{
    cJSON *creds = a->creds;
    cJSON *b = cJSON_GetObjectItemCaseSensitive(creds, "broker");
    if (!eff->add || !b) {
        if (eff->tls_cert && !realpath(eff->tls_cert, a->tls_cert))
            return base_error_setc(err, BASE_E_NOT_FOUND, "--tls: %s: %s", eff->tls_cert, strerror(errno));
        if (eff->tls_key && !realpath(eff->tls_key, a->tls_key))
            return base_error_setc(err, BASE_E_NOT_FOUND, "--tls: %s: %s", eff->tls_key, strerror(errno));
        if (eff->tls_cert)
            eff->tls_cert = a->tls_cert, eff->tls_key = a->tls_key;
        cJSON_DeleteItemFromObjectCaseSensitive(creds, "broker");
        b = cJSON_AddObjectToObject(creds, "broker");
        cJSON_AddNumberToObject(b, "mqtt_port", eff->mqtt_port);
        cJSON_AddNumberToObject(b, "ws_port", eff->ws_port);
        cJSON_AddStringToObject(b, "bind", eff->bind);
        if (eff->tls_cert)
            cJSON_AddStringToObject(b, "tls_cert", eff->tls_cert), cJSON_AddStringToObject(b, "tls_key", eff->tls_key);
        if (eff->http_dir)
            cJSON_AddStringToObject(b, "http_dir", eff->http_dir);
        return 0;
    }
    const cJSON *mp = cJSON_GetObjectItemCaseSensitive(b, "mqtt_port");
    const cJSON *wp = cJSON_GetObjectItemCaseSensitive(b, "ws_port");
    const cJSON *bind = cJSON_GetObjectItemCaseSensitive(b, "bind");
    if (!cJSON_IsNumber(mp) || !cJSON_IsNumber(wp) || !cJSON_IsString(bind))
        return base_error_set(err, "%s: broker: expected mqtt_port, ws_port and bind", path);
    eff->mqtt_port = mp->valueint, eff->ws_port = wp->valueint, eff->bind = bind->valuestring;
    const cJSON *cert = cJSON_GetObjectItemCaseSensitive(b, "tls_cert");
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(b, "tls_key");
    const cJSON *http = cJSON_GetObjectItemCaseSensitive(b, "http_dir");
    eff->tls_cert = cJSON_IsString(cert) ? cert->valuestring : NULL;
    eff->tls_key = cJSON_IsString(key) ? key->valuestring : NULL;
    eff->http_dir = cJSON_IsString(http) ? http->valuestring : NULL;
    return 0;
}

static int write_setup(const venue_setup_options *given, setup_accounts *a, base_error *err)
{
    char creds_path[PATH_MAX + 32];
    snprintf(creds_path, sizeof creds_path, "%s/credentials.json", a->dir);
    venue_setup_options eff = *given;
    const venue_setup_options *o = &eff;
    if (load_credentials(o, a, creds_path, err) < 0 || broker_settings(&eff, a, creds_path, err) < 0 ||
        add_all_accounts(o, a, err) < 0 || hash_new_accounts(a, err) < 0)
        return -1;
    const char *run_as = o->run_as;
    const struct passwd *pw = run_as ? NULL : getpwuid(geteuid());
    if (!run_as)
        run_as = pw ? pw->pw_name : "mosquitto";
    if (write_text_file(a->dir, "acl", acl_text(o, a->creds), err) < 0 ||
        write_text_file(a->dir, "mosquitto.conf", conf_text(o, a->dir, run_as), err) < 0)
        return -1;
    return base_json_write_file(a->creds, creds_path, err);
}

int venue_setup_write(const venue_setup_options *o, base_error *err)
{
    base_error_clear(err);
    if (check_options(o, err) < 0)
        return -1;
    setup_accounts *a = calloc(1, sizeof *a);
    if (!a)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    mode_t old_mask = umask(077); /* every file of the set-up is the owner's alone */
    int rc = make_dirs(a, o->dir, err) < 0 ? -1 : write_setup(o, a, err);
    umask(old_mask);
    memset(a->new_lines, 0, sizeof a->new_lines);
    cJSON_Delete(a->creds);
    free(a);
    return rc;
}
