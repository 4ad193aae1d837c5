#define _GNU_SOURCE /* O_NOFOLLOW, O_CLOEXEC, fsync */
#include "base_file.h"

#include "base_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the command's inputs ------------------------------------------------ */

/* Every file read is noted in the command's plan (base_plan.h) by device and inode: a write onto one is refused. */
static pthread_mutex_t refuse_lock = PTHREAD_MUTEX_INITIALIZER;
static bool refuse_inputs;

static bool refused_input(dev_t dev, ino_t ino)
{
    pthread_mutex_lock(&refuse_lock);
    bool on = refuse_inputs;
    pthread_mutex_unlock(&refuse_lock);
    return on && base_plan_is_read(dev, ino);
}

int base_file_note_input(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -1;
    base_plan_note_read(path, st.st_dev, st.st_ino);
    return 0;
}

void base_file_forget_input(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        base_plan_forget_read(st.st_dev, st.st_ino);
}

bool base_file_is_input(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && base_plan_is_read(st.st_dev, st.st_ino);
}

void base_file_refuse_inputs(bool on)
{
    pthread_mutex_lock(&refuse_lock);
    refuse_inputs = on;
    pthread_mutex_unlock(&refuse_lock);
}

void base_file_forget_inputs(void)
{
    base_plan_forget_reads();
}

/* ---- reading ---------------------------------------------------------------- */

static int open_error(const char *path, int e, base_error *err)
{
    return base_error_setc(err, e == ENOENT || e == ENOTDIR ? BASE_E_NOT_FOUND : BASE_E_IO, "%s: cannot open: %s",
                           path, strerror(e));
}

int base_file_open_read(const char *path, size_t max_bytes, const char *what, size_t *size, base_error *err)
{
    /* O_NONBLOCK: opening a FIFO with no writer would itself wait for ever. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return open_error(path, errno, err);
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) < 0)
        base_error_setc(err, BASE_E_IO, "%s: cannot read: %s", path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        base_error_setc(err, BASE_E_NOT_REGULAR, "%s: a directory, not %s", path, what ? what : "a file");
    else if (!S_ISREG(st.st_mode))
        base_error_setc(err, BASE_E_NOT_REGULAR, "%s: not a regular file, not %s", path, what ? what : "a file");
    else if (max_bytes && (uintmax_t)st.st_size > (uintmax_t)max_bytes)
        base_error_setc(err, BASE_E_TOO_LARGE, "%s: %jd bytes, over the cap of %zu bytes for %s", path,
                        (intmax_t)st.st_size, max_bytes, what ? what : "this file");
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
        base_error_setc(err, BASE_E_IO, "%s: cannot read: %s", path, strerror(errno));
    else
        rc = 0;
    if (rc < 0) {
        close(fd);
        return -1;
    }
    base_plan_note_read(path, st.st_dev, st.st_ino);
    if (size)
        *size = (size_t)st.st_size;
    return fd;
}

int base_file_read_all(const char *path, size_t max_bytes, const char *what, char **data, size_t *len,
                       base_error *err)
{
    size_t size;
    int fd = base_file_open_read(path, max_bytes, what, &size, err);
    if (fd < 0)
        return -1;
    /* The size is a hint: a file that grows while read is read up to the cap. */
    size_t cap = size + 1 > 4096 ? size + 1 : 4096, n = 0;
    char *buf = malloc(cap);
    int rc = buf ? 0 : base_error_setc(err, BASE_E_NOMEM, "%s: out of memory", path);
    while (rc == 0) {
        if (n + 1 >= cap) {
            if (max_bytes && n >= max_bytes) {
                rc = base_error_setc(err, BASE_E_TOO_LARGE, "%s: grew past the cap of %zu bytes for %s", path,
                                     max_bytes, what ? what : "this file");
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                rc = base_error_setc(err, BASE_E_NOMEM, "%s: out of memory", path);
                break;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + n, cap - n - 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            rc = base_error_setc(err, BASE_E_IO, "%s: read error: %s", path, strerror(errno));
        else if (k == 0)
            break;
        else
            n += (size_t)k;
    }
    close(fd);
    if (rc < 0) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *data = buf;
    if (len)
        *len = n;
    return 0;
}

/* ---- writing ---------------------------------------------------------------- */

struct base_file_writer {
    char *path;
    char *tmp;   /* our temporary file; NULL when writing a character device in place */
    char *what;  /* a copy; NULL when not named */
    FILE *f;
    int failed_errno; /* the first write error seen by base_file_writer_write */
    mode_t keep_mode; /* the replaced file's permissions (0: a new file, the umask's) */
};

static int write_error(const char *path, const char *what, base_error_code code, const char *why, base_error *err)
{
    return base_error_setc(err, code, "%s: cannot write%s%s: %s", path, what ? " " : "", what ? what : "", why);
}

/* Checks the target before anything is created: refuse what must not be replaced. Sets *device
 * for a character device that is written in place. */
static int check_target(const char *path, const char *what, bool *device, mode_t *mode, base_error *err)
{
    struct stat st;
    *device = false;
    *mode = 0;
    if (lstat(path, &st) < 0) {
        if (errno == ENOENT)
            return 0;
        return write_error(path, what, BASE_E_IO, strerror(errno), err);
    }
    if (S_ISLNK(st.st_mode))
        return write_error(path, what, BASE_E_REFUSED,
                           "a symbolic link (its target is not replaced: give the real path)", err);
    if (S_ISCHR(st.st_mode)) {
        *device = true;
        return 0;
    }
    if (!S_ISREG(st.st_mode))
        return write_error(path, what, BASE_E_NOT_REGULAR,
                           S_ISDIR(st.st_mode) ? "a directory" : "not a regular file (a FIFO, socket or disk)", err);
    if (refused_input(st.st_dev, st.st_ino))
        return write_error(path, what, BASE_E_REFUSED, "it is an input of this command: write elsewhere", err);
    *mode = st.st_mode & 07777;
    return 0;
}

int base_file_check_output(const char *path, const char *what, base_error *err)
{
    bool device;
    mode_t mode;
    return check_target(path, what, &device, &mode, err);
}

/* A new file beside path, created with O_EXCL|O_NOFOLLOW so nothing there is reused or followed. Its name is
 * short and fixed in length (".tableref-PID-N.tmp" in the target's folder): a target whose own name is as long as
 * the system allows still has a temporary name. */
static int create_tmp(base_file_writer *w, base_error *err)
{
    static unsigned counter;
    const char *slash = strrchr(w->path, '/');
    const size_t dir_len = slash ? (size_t)(slash - w->path) + 1 : 0, cap = dir_len + 64;
    w->tmp = malloc(cap);
    if (!w->tmp)
        return write_error(w->path, w->what, BASE_E_NOMEM, "out of memory", err);
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(w->tmp, cap, "%.*s.tableref-%ld-%u.tmp", (int)dir_len, w->path, (long)getpid(), k);
        int fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0) {
            int e = errno;
            free(w->tmp);
            w->tmp = NULL;
            return write_error(w->path, w->what, BASE_E_IO, strerror(e), err);
        }
        if (w->keep_mode)
            fchmod(fd, w->keep_mode); /* a private file stays private */
        if (!(w->f = fdopen(fd, "wb"))) {
            close(fd);
            unlink(w->tmp);
            return write_error(w->path, w->what, BASE_E_NOMEM, "out of memory", err);
        }
        return 0;
    }
    return write_error(w->path, w->what, BASE_E_IO, "no free temporary name beside it", err);
}

static int open_device(base_file_writer *w, base_error *err)
{
    int fd = open(w->path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return write_error(w->path, w->what, BASE_E_IO, strerror(errno), err);
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
        close(fd);
        return write_error(w->path, w->what, BASE_E_NOT_REGULAR, "changed while opened", err);
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!(w->f = fdopen(fd, "wb"))) {
        close(fd);
        return write_error(w->path, w->what, BASE_E_NOMEM, "out of memory", err);
    }
    return 0;
}

static void writer_free(base_file_writer *w)
{
    free(w->path);
    free(w->tmp);
    free(w->what);
    free(w);
}

/* ---- holding every output until the command's end ------------------------------ */

/* A finished temporary file waiting for base_file_release: tmp renamed over path. */
typedef struct held_file {
    char *path, *tmp;
} held_file;

static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static bool holding;
static held_file *held;
static size_t n_held, cap_held;
static char **made_dirs;
static size_t n_made_dirs;
static char **stale;
static size_t n_stale;

/* Removes path when it is a regular file: an earlier call's output, never a link, folder or device. */
static void remove_stale(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        unlink(path);
}

void base_file_hold(void)
{
    pthread_mutex_lock(&hold_lock);
    holding = true;
    pthread_mutex_unlock(&hold_lock);
}

/* Takes w's finished temporary file into the held list when holding: 0 taken, -1 not holding (or no memory:
 * then it is renamed at once, as without a hold). */
static int hold_add(base_file_writer *w)
{
    pthread_mutex_lock(&hold_lock);
    int rc = -1;
    if (holding && n_held == cap_held) {
        size_t cap = cap_held ? cap_held * 2 : 16;
        held_file *n = realloc(held, cap * sizeof *n);
        if (n)
            held = n, cap_held = cap;
    }
    if (holding && n_held < cap_held) {
        held[n_held++] = (held_file){w->path, w->tmp};
        rc = 0;
    }
    pthread_mutex_unlock(&hold_lock);
    return rc;
}

void base_file_hold_made_dir(const char *dir)
{
    pthread_mutex_lock(&hold_lock);
    char **n = realloc(made_dirs, (n_made_dirs + 1) * sizeof *n);
    if (n) {
        made_dirs = n;
        if ((made_dirs[n_made_dirs] = strdup(dir)))
            n_made_dirs++;
    }
    pthread_mutex_unlock(&hold_lock);
}

void base_file_hold_stale(const char *path)
{
    pthread_mutex_lock(&hold_lock);
    char **n = holding ? realloc(stale, (n_stale + 1) * sizeof *n) : NULL;
    if (n)
        stale = n;
    if (n && (stale[n_stale] = strdup(path)))
        n_stale++;
    else if (!holding)
        remove_stale(path);
    pthread_mutex_unlock(&hold_lock);
}

/* Ends the hold (lock held): frees the list; removes the temporary files left when `remove`, else the earlier
 * call's outputs this one did not make. */
static void hold_end(bool remove)
{
    for (size_t i = 0; i < n_held; i++) {
        if (remove)
            unlink(held[i].tmp);
        free(held[i].path);
        free(held[i].tmp);
    }
    free(held);
    held = NULL;
    n_held = cap_held = 0;
    for (size_t i = n_made_dirs; i-- > 0;) {
        if (remove)
            rmdir(made_dirs[i]); /* only when empty: never anything but what this command made */
        free(made_dirs[i]);
    }
    free(made_dirs);
    made_dirs = NULL;
    n_made_dirs = 0;
    for (size_t i = 0; i < n_stale; i++) {
        if (!remove)
            remove_stale(stale[i]);
        free(stale[i]);
    }
    free(stale);
    stale = NULL;
    n_stale = 0;
    holding = false;
}

void base_file_discard(void)
{
    pthread_mutex_lock(&hold_lock);
    hold_end(true);
    pthread_mutex_unlock(&hold_lock);
}

int base_file_release(base_error *err)
{
    pthread_mutex_lock(&hold_lock);
    int rc = 0;
    /* Every target checked again first (one may have become a link or a folder meanwhile): all or none. */
    for (size_t i = 0; rc == 0 && i < n_held; i++) {
        bool device;
        mode_t mode;
        rc = check_target(held[i].path, NULL, &device, &mode, err);
    }
    size_t done = 0;
    for (; rc == 0 && done < n_held; done++)
        if (rename(held[done].tmp, held[done].path) != 0)
            rc = write_error(held[done].path, NULL, BASE_E_IO, strerror(errno), err);
    if (rc < 0 && done > 1)
        base_error_prefix(err, "some outputs were replaced before this one failed");
    hold_end(rc < 0);
    pthread_mutex_unlock(&hold_lock);
    return rc;
}

base_file_writer *base_file_writer_open(const char *path, const char *what, base_error *err)
{
    bool device;
    mode_t mode;
    if (!path || !*path) {
        base_error_setc(err, BASE_E_INVALID, "an empty output path");
        return NULL;
    }
    if (check_target(path, what, &device, &mode, err) < 0)
        return NULL;
    base_file_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path)) || (what && !(w->what = strdup(what)))) {
        if (w)
            free(w->path);
        free(w);
        write_error(path, what, BASE_E_NOMEM, "out of memory", err);
        return NULL;
    }
    w->keep_mode = mode;
    if ((device ? open_device(w, err) : create_tmp(w, err)) < 0) {
        writer_free(w);
        return NULL;
    }
    return w;
}

FILE *base_file_writer_stream(base_file_writer *w)
{
    return w->f;
}

int base_file_writer_write(base_file_writer *w, const void *data, size_t len)
{
    if (len && fwrite(data, 1, len, w->f) != len) {
        if (!w->failed_errno)
            w->failed_errno = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

int base_file_writer_commit(base_file_writer *w, base_error *err)
{
    int e = w->failed_errno;
    if (fflush(w->f) != 0 && !e)
        e = errno;
    if (ferror(w->f) && !e)
        e = EIO;
    if (!e && w->tmp && fsync(fileno(w->f)) != 0)
        e = errno;
    if (fclose(w->f) != 0 && !e)
        e = errno;
    w->f = NULL;
    /* The target is checked again: it may have become a link or a folder while we wrote. */
    bool device;
    mode_t mode;
    base_error scratch = {0};
    if (!e && w->tmp && check_target(w->path, w->what, &device, &mode, err ? err : &scratch) < 0) {
        unlink(w->tmp);
        writer_free(w);
        return -1;
    }
    if (!e && w->tmp && hold_add(w) == 0) {
        free(w->what);
        free(w); /* the held entry owns path and tmp now */
        return 0;
    }
    if (!e && w->tmp && rename(w->tmp, w->path) != 0)
        e = errno;
    if (e) {
        if (w->tmp)
            unlink(w->tmp);
        write_error(w->path, w->what, BASE_E_IO, strerror(e), err);
        writer_free(w);
        return -1;
    }
    writer_free(w);
    return 0;
}

void base_file_writer_abort(base_file_writer *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    if (w->tmp)
        unlink(w->tmp);
    writer_free(w);
}

int base_file_write_all(const char *path, const void *data, size_t len, const char *what, base_error *err)
{
    base_file_writer *w = base_file_writer_open(path, what, err);
    if (!w)
        return -1;
    base_file_writer_write(w, data, len);
    return base_file_writer_commit(w, err);
}

char *base_file_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    bool slash = a > 0 && dir[a - 1] != '/';
    char *out = malloc(a + slash + b + 1);
    if (!out)
        return NULL;
    memcpy(out, dir, a);
    if (slash)
        out[a] = '/';
    memcpy(out + a + slash, name, b + 1);
    return out;
}
