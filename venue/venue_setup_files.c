/*
 * venue_setup_files: the files of one `tableref venue setup` run. Every file
 * is written into a staging folder inside the set-up (DIR/.venue-setup-XXXXXX)
 * and moved into place at the end, credentials.json last; what the run made
 * outside it (the folder, new password files) is noted. A run that fails
 * removes the staging folder and exactly what it noted: never a file it did
 * not create, and nothing that would block the next run.
 */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_file.h"
#include "venue_setup_int.h"

static int push_path(char ***list, int *n, int *cap, const char *path)
{
    if (*n == *cap) {
        int grown = *cap ? *cap * 2 : 32;
        char **l = realloc(*list, (size_t)grown * sizeof *l);
        if (!l)
            return -1;
        *list = l, *cap = grown;
    }
    if (!((*list)[*n] = strdup(path)))
        return -1;
    (*n)++;
    return 0;
}

int setup_note_made(setup_run *r, const char *path, base_error *err)
{
    return push_path(&r->made, &r->n_made, &r->cap_made, path) == 0
               ? 0
               : base_error_setc(err, BASE_E_NOMEM, "out of memory");
}

/* As root, what the broker reads belongs to its account (it reads after dropping root). */
static int give_to_broker(const setup_run *r, int fd, const char *path, base_error *err)
{
    if (!r->as_root)
        return 0;
    int rc = fd >= 0 ? fchown(fd, r->uid, r->gid) : lchown(path, r->uid, r->gid);
    return rc == 0 ? 0 : base_error_setc(err, BASE_E_IO, "%s: cannot give it to %s: %s", path, r->user, strerror(errno));
}

/* A folder this run makes (noted), mode `mode` whatever the umask; an existing one is left as it is. */
static int make_dir(setup_run *r, const char *path, mode_t mode, bool broker_reads, base_error *err)
{
    if (mkdir(path, 0700) != 0) {
        if (errno == EEXIST)
            return 0;
        return base_error_setc(err, BASE_E_IO, "%s: cannot make the folder: %s", path, strerror(errno));
    }
    if (setup_note_made(r, path, err) < 0)
        return -1;
    if (chmod(path, mode) != 0)
        return base_error_setc(err, BASE_E_IO, "%s: %s", path, strerror(errno));
    return broker_reads ? give_to_broker(r, -1, path, err) : 0;
}

/* Whether a folder holds anything but . and .. */
static bool dir_has_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    struct dirent *e;
    bool any = false;
    while (!any && (e = readdir(d)))
        any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return any;
}

int setup_make_dirs(setup_run *r, base_error *err)
{
    const char *dir = r->eff.dir;
    /* As root the broker's account must enter the folder (it reads its files after dropping root). */
    if (make_dir(r, dir, r->as_root ? 0711 : 0700, false, err) < 0)
        return -1;
    if (!realpath(dir, r->dir))
        return base_error_setc(err, BASE_E_IO, "%s: %s", dir, strerror(errno));
    char creds[PATH_MAX + 32];
    snprintf(creds, sizeof creds, "%s/credentials.json", r->dir);
    r->existed = access(creds, F_OK) == 0;
    if (r->eff.add && !r->existed)
        return base_error_setc(err, BASE_E_NOT_FOUND, "%s: no set-up to --add to", creds);
    if (!r->eff.add && r->existed)
        return base_error_setc(err, BASE_E_REFUSED, "%s: a set-up is already there (--add adds to it)", creds);
    /* A new set-up goes into a new or empty folder: it never writes over files it did not make. */
    if (!r->eff.add && dir_has_entries(r->dir))
        return base_error_setc(err, BASE_E_REFUSED,
                               "%s: not empty: a new set-up goes into a new or empty folder (--add adds to a set-up "
                               "there)", r->dir);
    return 0;
}

int setup_make_subdirs(setup_run *r, base_error *err)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/passwords", r->dir);
    if (make_dir(r, path, 0700, false, err) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/data", r->dir);
    if (make_dir(r, path, 0700, true, err) < 0)
        return -1;
    snprintf(r->stage, sizeof r->stage, "%s/.venue-setup-XXXXXX", r->dir);
    if (!mkdtemp(r->stage)) {
        int e = errno;
        r->stage[0] = 0;
        return base_error_setc(err, BASE_E_IO, "%s: cannot make a staging folder: %s", r->dir, strerror(e));
    }
    return 0;
}

/* STAGE/rel's parent folders, made inside the staging folder. */
static int stage_parents(const setup_run *r, const char *rel, base_error *err)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", r->stage, rel);
    for (char *p = path + strlen(r->stage) + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            return base_error_setc(err, BASE_E_IO, "%s: %s", path, strerror(errno));
        *p = '/';
    }
    return 0;
}

/* n bytes as STAGE/rel, mode 0600, synced; noted for the commit. */
static int stage_bytes(setup_run *r, const char *rel, const void *data, size_t n, bool broker_reads,
                       base_error *err)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", r->stage, rel);
    if (stage_parents(r, rel, err) < 0)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return base_error_setc(err, BASE_E_IO, "%s: cannot create: %s", path, strerror(errno));
    bool ok = write(fd, data, n) == (ssize_t)n && fsync(fd) == 0;
    int e = errno;
    if (ok && broker_reads && give_to_broker(r, fd, path, err) < 0) {
        close(fd);
        return -1;
    }
    if (close(fd) != 0 || !ok)
        return base_error_setc(err, BASE_E_IO, "%s/%s: cannot write: %s", r->dir, rel, strerror(ok ? errno : e));
    if (push_path(&r->staged, &r->n_staged, &r->cap_staged, rel) < 0)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    return 0;
}

int setup_stage_text(setup_run *r, const char *name, char *text, bool broker_reads, base_error *err)
{
    if (!text)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    int rc = stage_bytes(r, name, text, strlen(text), broker_reads, err);
    free(text);
    return rc;
}

int setup_stage_copy(setup_run *r, const char *src, const char *name, base_error *err)
{
    char *data = NULL;
    size_t n = 0;
    if (base_file_read_all(src, 16u << 20, NULL, &data, &n, err) < 0)
        return -1;
    int rc = stage_bytes(r, name, data, n, true, err);
    free(data);
    return rc;
}

static bool page_file(const char *name)
{
    const char *dot = strrchr(name, '.');
    return name[0] != '.' && dot && (strcmp(dot, ".html") == 0 || strcmp(dot, ".js") == 0 || strcmp(dot, ".css") == 0);
}

int setup_stage_page(setup_run *r, base_error *err)
{
    static const char *const needed[] = {"index.html", "judge.js", "node_modules/mqtt/dist/mqtt.min.js"};
    char path[PATH_MAX * 2], rel[PATH_MAX];
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", r->http_src, needed[i]);
        if (access(path, R_OK) != 0)
            return base_error_setc(err, BASE_E_NOT_FOUND, "--http-dir: %s: %s%s", path, strerror(errno),
                                   i == 2 ? " (run bash scripts/setup-web.sh: npm ci brings the page's MQTT client)" : "");
    }
    DIR *d = opendir(r->http_src);
    if (!d)
        return base_error_setc(err, BASE_E_IO, "--http-dir: %s: %s", r->http_src, strerror(errno));
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", r->http_src, e->d_name);
        if (!page_file(e->d_name) || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        snprintf(rel, sizeof rel, "www/%s", e->d_name);
        rc = setup_stage_copy(r, path, rel, err);
    }
    closedir(d);
    snprintf(path, sizeof path, "%s/%s", r->http_src, needed[2]);
    snprintf(rel, sizeof rel, "www/%s", needed[2]);
    if (rc < 0 || setup_stage_copy(r, path, rel, err) < 0)
        return -1;
    return setup_stage_text(r, "www/venue.json", setup_page_json(r), true, err);
}

/* DIR/rel's parent folders (www/..., tls/), made and noted; the broker's. */
static int commit_parents(setup_run *r, const char *rel, base_error *err)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", r->dir, rel);
    for (char *p = path + strlen(r->dir) + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        int rc = make_dir(r, path, 0700, true, err);
        *p = '/';
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_stage(setup_run *r)
{
    if (r->stage[0])
        nftw(r->stage, remove_one, 16, FTW_DEPTH | FTW_PHYS); /* the staging folder and all in it are ours */
    r->stage[0] = 0;
}

int setup_commit(setup_run *r, base_error *err)
{
    for (int i = 0; i < r->n_staged; i++) {
        char from[PATH_MAX * 2], to[PATH_MAX * 2];
        snprintf(from, sizeof from, "%s/%s", r->stage, r->staged[i]);
        snprintf(to, sizeof to, "%s/%s", r->dir, r->staged[i]);
        if (commit_parents(r, r->staged[i], err) < 0)
            return -1;
        if (rename(from, to) != 0)
            return base_error_setc(err, BASE_E_IO, "%s: cannot put it in place: %s", to, strerror(errno));
    }
    remove_stage(r);
    return 0;
}

void setup_rollback(setup_run *r)
{
    remove_stage(r);
    for (int i = r->n_made - 1; i >= 0; i--) {
        struct stat st;
        if (lstat(r->made[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            rmdir(r->made[i]); /* only when empty: a folder of ours someone filled stays */
        else
            unlink(r->made[i]);
    }
}
