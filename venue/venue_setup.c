/*
 * venue_setup: `tableref venue setup` (venue_setup.h). This file holds the
 * run: the options and credentials.json checked, the accounts and their
 * passwords, the hashed password file, then the texts and the page staged
 * and committed together (or everything this run made removed).
 */
#define _GNU_SOURCE /* getrandom */
#include "venue_setup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base_file.h"
#include "base_json.h"
#include "venue_setup_int.h"

void venue_setup_options_default(venue_setup_options *o)
{
    memset(o, 0, sizeof *o);
    o->mqtt_port = 1883;
    o->ws_port = 9001;
    o->https_port = 8443;
    o->bind = "0.0.0.0";
}

int setup_run_init(setup_run *r, const venue_setup_options *o, base_error *err)
{
    memset(r, 0, sizeof *r);
    r->eff = *o;
    r->as_root = geteuid() == 0;
    r->new_lines = calloc(SETUP_MAX_NEW, sizeof *r->new_lines);
    return r->new_lines ? 0 : base_error_setc(err, BASE_E_NOMEM, "out of memory");
}

void setup_run_free(setup_run *r)
{
    if (r->new_lines)
        memset(r->new_lines, 0, SETUP_MAX_NEW * sizeof *r->new_lines); /* clear passwords */
    free(r->new_lines);
    for (int i = 0; i < r->n_made; i++)
        free(r->made[i]);
    for (int i = 0; i < r->n_staged; i++)
        free(r->staged[i]);
    free(r->made);
    free(r->staged);
    cJSON_Delete(r->creds);
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
        return base_error_setc(err, BASE_E_IO, "%s: cannot create: %s%s", path, strerror(errno),
                               errno == EEXIST ? " (no account in credentials.json names it: remove it)" : "");
    size_t n = strlen(text);
    bool ok = write(fd, text, n) == (ssize_t)n && fsync(fd) == 0;
    if (close(fd) != 0 || !ok) {
        unlink(path); /* ours: made just now */
        return base_error_setc(err, BASE_E_IO, "%s: cannot write: %s", path, strerror(errno));
    }
    return 0;
}

/* One account in credentials.json's `group` under `key`; a new one gets a password file (noted as made). */
static int add_account(setup_run *r, const char *group, const char *key, const char *user, base_error *err)
{
    cJSON *g = cJSON_GetObjectItemCaseSensitive(r->creds, group);
    if (cJSON_GetObjectItemCaseSensitive(g, key))
        return 0;
    char path[PATH_MAX + 64], password[33], line[40];
    snprintf(path, sizeof path, "%s/passwords/%s", r->dir, user);
    if (random_password(password, err) < 0)
        return -1;
    snprintf(line, sizeof line, "%s\n", password);
    if (write_private_new(path, line, err) < 0 || setup_note_made(r, path, err) < 0)
        return -1;
    snprintf(r->new_lines[r->n_new++], sizeof r->new_lines[0], "%s:%s", user, password);
    memset(password, 0, sizeof password);
    memset(line, 0, sizeof line);
    cJSON *acc = cJSON_AddObjectToObject(g, key);
    cJSON_AddStringToObject(acc, "user", user);
    cJSON_AddStringToObject(acc, "password_file", path);
    return 0;
}

static int add_all_accounts(setup_run *r, base_error *err)
{
    const venue_setup_options *o = &r->eff;
    for (int t = 1; t <= o->tables; t++) {
        char key[16], user[32];
        snprintf(key, sizeof key, "%d", t);
        snprintf(user, sizeof user, "table-%d", t);
        if (add_account(r, "tables", key, user, err) < 0)
            return -1;
    }
    const cJSON *judges = cJSON_GetObjectItemCaseSensitive(r->creds, "judges");
    const cJSON *streamers = cJSON_GetObjectItemCaseSensitive(r->creds, "streamers");
    for (int i = 0; i < o->n_judges; i++) {
        if (cJSON_GetObjectItemCaseSensitive(streamers, o->judges[i]))
            return base_error_set(err, "--judges: %s is a streamer already", o->judges[i]);
        if (add_account(r, "judges", o->judges[i], o->judges[i], err) < 0)
            return -1;
    }
    for (int i = 0; i < o->n_streamers; i++) {
        if (cJSON_GetObjectItemCaseSensitive(judges, o->streamers[i]))
            return base_error_set(err, "--streamers: %s is a judge already", o->streamers[i]);
        if (add_account(r, "streamers", o->streamers[i], o->streamers[i], err) < 0)
            return -1;
    }
    return 0;
}

/* Runs mosquitto_passwd -U on a file of "user:password" lines in the staging folder (never on a command line,
 * which `ps` shows); its hashed lines (PBKDF2-SHA512) into *out. */
static int hash_lines(setup_run *r, char **out, size_t *n, base_error *err)
{
    char clear[PATH_MAX + 64];
    snprintf(clear, sizeof clear, "%s/passwd.clear", r->stage);
    size_t cap = (size_t)r->n_new * sizeof r->new_lines[0] + 1, len = 0;
    char *text = calloc(1, cap);
    if (!text)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    for (int i = 0; i < r->n_new; i++)
        len += (size_t)snprintf(text + len, cap - len, "%s\n", r->new_lines[i]);
    int fd = open(clear, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    bool ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    memset(text, 0, cap);
    free(text);
    if (!ok)
        return base_error_setc(err, BASE_E_IO, "%s: cannot write: %s", clear, strerror(errno));
    pid_t pid = fork();
    if (pid == 0) {
        execlp("mosquitto_passwd", "mosquitto_passwd", "-U", clear, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return base_error_setc(err, BASE_E_IO, "mosquitto_passwd -U failed (exit %d): is mosquitto installed?",
                               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return base_file_read_all(clear, 1 << 24, "the new password lines", out, n, err);
}

/* A line of an existing passwd file is kept when it is an account of credentials.json made before this run (a line
 * for any other name is not ours to keep). */
static bool passwd_line_kept(const setup_run *r, const char *line, size_t n)
{
    const char *colon = memchr(line, ':', n);
    if (!colon || colon == line || colon - line > 63)
        return false;
    char user[64];
    snprintf(user, sizeof user, "%.*s", (int)(colon - line), line);
    for (int i = 0; i < r->n_new; i++)
        if (strncmp(r->new_lines[i], user, strlen(user)) == 0 && r->new_lines[i][strlen(user)] == ':')
            return false;
    static const char *const groups[] = {"tables", "judges", "streamers"};
    for (int g = 0; g < 3; g++) {
        const cJSON *acc;
        cJSON_ArrayForEach(acc, cJSON_GetObjectItemCaseSensitive(r->creds, groups[g]))
        {
            const cJSON *u = cJSON_GetObjectItemCaseSensitive(acc, "user");
            if (cJSON_IsString(u) && strcmp(u->valuestring, user) == 0)
                return true;
        }
    }
    return false;
}

/* The password file: the kept lines of the existing one (add), then the new accounts hashed. */
static int stage_passwd(setup_run *r, base_error *err)
{
    char *old = NULL, *hashed = NULL, path[PATH_MAX + 16];
    size_t n_old = 0, n_hashed = 0;
    snprintf(path, sizeof path, "%s/passwd", r->dir);
    if (r->existed && access(path, F_OK) == 0 && base_file_read_all(path, 1 << 24, "the password file", &old, &n_old, err) < 0)
        return -1;
    if (r->n_new && hash_lines(r, &hashed, &n_hashed, err) < 0) {
        free(old);
        return -1;
    }
    char *text = malloc(n_old + n_hashed + 2), *w = text;
    for (const char *p = old; text && p && p < old + n_old;) {
        const char *end = memchr(p, '\n', (size_t)(old + n_old - p));
        size_t len = end ? (size_t)(end - p) : (size_t)(old + n_old - p);
        if (passwd_line_kept(r, p, len))
            memcpy(w, p, len), w += len, *w++ = '\n';
        p += len + 1;
    }
    if (text && hashed)
        memcpy(w, hashed, n_hashed), w += n_hashed;
    if (text)
        *w = 0;
    free(old);
    free(hashed);
    return setup_stage_text(r, "passwd", text, true, err);
}

/* credentials.json: read back and checked (add), or a new one. */
static int load_credentials(setup_run *r, base_error *err)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/credentials.json", r->dir);
    if (!r->existed) {
        r->creds = cJSON_CreateObject();
        cJSON_AddStringToObject(r->creds, "event", r->eff.event);
        cJSON_AddObjectToObject(r->creds, "tables");
        cJSON_AddObjectToObject(r->creds, "judges");
        cJSON_AddObjectToObject(r->creds, "streamers");
        return r->creds ? 0 : base_error_setc(err, BASE_E_NOMEM, "out of memory");
    }
    if (!(r->creds = base_json_parse_file(path, err)))
        return -1;
    base_file_forget_input(path); /* rewritten in place on purpose */
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(r->creds, "event");
    if (!cJSON_IsString(ev) || strcmp(ev->valuestring, r->eff.event) != 0)
        return base_error_set(err, "%s: event: the set-up is for \"%.64s\", not \"%s\"", path,
                              cJSON_IsString(ev) ? ev->valuestring : "?", r->eff.event);
    return setup_check_credentials(r->creds, path, err);
}

static const char *string_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The listeners: new ones written into credentials.json, or (add) those already there, which never move. */
static int broker_settings(setup_run *r, base_error *err)
{
    venue_setup_options *eff = &r->eff;
    cJSON *b = cJSON_GetObjectItemCaseSensitive(r->creds, "broker");
    char tls_cert[PATH_MAX + 32], tls_key[PATH_MAX + 32];
    snprintf(tls_cert, sizeof tls_cert, "%s/tls/cert.pem", r->dir);
    snprintf(tls_key, sizeof tls_key, "%s/tls/key.pem", r->dir);
    if (r->existed) {
        eff->mqtt_port = cJSON_GetObjectItemCaseSensitive(b, "mqtt_port")->valueint;
        eff->ws_port = cJSON_GetObjectItemCaseSensitive(b, "ws_port")->valueint;
        const cJSON *https = cJSON_GetObjectItemCaseSensitive(b, "https_port");
        eff->https_port = https ? https->valueint : eff->https_port;
        eff->bind = string_at(b, "bind");
        eff->tls_cert = string_at(b, "tls_cert"), eff->tls_key = string_at(b, "tls_key");
        /* --add copies the page again (it may have been updated), from the folder given now or before. */
        eff->http_dir = eff->http_dir ? eff->http_dir : string_at(b, "http_dir");
    } else if (eff->tls_cert) {
        if (setup_stage_copy(r, eff->tls_cert, "tls/cert.pem", err) < 0 ||
            setup_stage_copy(r, eff->tls_key, "tls/key.pem", err) < 0)
            return -1;
        eff->tls_cert = tls_cert, eff->tls_key = tls_key; /* the copies, which the broker's account reads */
    }
    if (eff->http_dir && !realpath(eff->http_dir, r->http_src))
        return base_error_setc(err, BASE_E_NOT_FOUND, "--http-dir: %s: %s", eff->http_dir, strerror(errno));
    cJSON *nb = cJSON_CreateObject();
    cJSON_AddNumberToObject(nb, "mqtt_port", eff->mqtt_port);
    cJSON_AddNumberToObject(nb, "ws_port", eff->ws_port);
    if (eff->tls_cert)
        cJSON_AddNumberToObject(nb, "https_port", eff->https_port);
    cJSON_AddStringToObject(nb, "bind", eff->bind);
    if (eff->tls_cert)
        cJSON_AddStringToObject(nb, "tls_cert", eff->tls_cert), cJSON_AddStringToObject(nb, "tls_key", eff->tls_key);
    if (r->http_src[0])
        cJSON_AddStringToObject(nb, "http_dir", r->http_src);
    /* nb's strings are copies: replacing b (whose strings eff may point at) comes last. */
    cJSON_ReplaceItemInObjectCaseSensitive(r->creds, "broker", nb);
    if (!b)
        cJSON_AddItemToObject(r->creds, "broker", nb);
    eff->bind = string_at(nb, "bind"), eff->tls_cert = string_at(nb, "tls_cert"), eff->tls_key = string_at(nb, "tls_key");
    eff->http_dir = r->http_src[0] ? r->http_src : NULL;
    return 0;
}

static int write_setup(setup_run *r, base_error *err)
{
    if (setup_make_dirs(r, err) < 0 || setup_broker_account(r, err) < 0 || setup_make_subdirs(r, err) < 0 ||
        load_credentials(r, err) < 0 || broker_settings(r, err) < 0 || add_all_accounts(r, err) < 0 ||
        stage_passwd(r, err) < 0)
        return -1;
    if (setup_stage_text(r, "acl", setup_acl_text(r), true, err) < 0 ||
        setup_stage_text(r, "mosquitto.conf", setup_conf_text(r), true, err) < 0 ||
        (r->http_src[0] && setup_stage_page(r, err) < 0))
        return -1;
    char *creds = cJSON_Print(r->creds);
    return setup_stage_text(r, "credentials.json", creds, false, err) < 0 ? -1 : setup_commit(r, err);
}

int venue_setup_write(const venue_setup_options *o, base_error *err)
{
    base_error_clear(err);
    if (setup_check_options(o, err) < 0)
        return -1;
    setup_run r;
    if (setup_run_init(&r, o, err) < 0)
        return -1;
    mode_t old_mask = umask(077); /* every file of the set-up is its owner's alone */
    int rc = write_setup(&r, err);
    if (rc < 0)
        setup_rollback(&r);
    umask(old_mask);
    setup_run_free(&r);
    return rc;
}
