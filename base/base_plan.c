#define _GNU_SOURCE /* realpath with NULL */
#include "base_plan.h"

#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One file of the plan: planned by the command, or noted by a read (who NULL, its identity known). */
typedef struct plan_entry {
    base_plan_role role;
    char *path, *who, *given;
    bool planned;
    bool pattern; /* an output whose name holds a '*': every file of its folder the name matches */
    bool expanded; /* a file a pattern matches now, planned for one check */
    bool has_id;
    dev_t dev;
    ino_t ino;
} plan_entry;

typedef struct plan_pair {
    char *output, *input;
} plan_pair;

static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
static plan_entry *entries;
static size_t n_entries, cap_entries;
static plan_pair *pairs;
static size_t n_pairs;

static void entry_free(plan_entry *e)
{
    free(e->path);
    free(e->who);
    free(e->given);
}

/* Keeps the entries for which keep() holds; frees the others. Called with the lock held. */
static void filter(bool (*keep)(const plan_entry *))
{
    size_t k = 0;
    for (size_t i = 0; i < n_entries; i++) {
        if (keep(&entries[i]))
            entries[k++] = entries[i];
        else
            entry_free(&entries[i]);
    }
    n_entries = k;
}

static bool is_read_note(const plan_entry *e) { return !e->planned; }
static bool is_planned(const plan_entry *e) { return e->planned; }

void base_plan_reset(void)
{
    pthread_mutex_lock(&plan_lock);
    filter(is_read_note);
    for (size_t i = 0; i < n_pairs; i++)
        free(pairs[i].output), free(pairs[i].input);
    free(pairs);
    pairs = NULL;
    n_pairs = 0;
    pthread_mutex_unlock(&plan_lock);
}

void base_plan_forget_reads(void)
{
    pthread_mutex_lock(&plan_lock);
    filter(is_planned);
    pthread_mutex_unlock(&plan_lock);
}

/* A new entry at the end (lock held); NULL when out of memory. */
static plan_entry *push(void)
{
    if (n_entries == cap_entries) {
        size_t cap = cap_entries ? cap_entries * 2 : 32;
        plan_entry *n = realloc(entries, cap * sizeof *n);
        if (!n)
            return NULL;
        entries = n;
        cap_entries = cap;
    }
    plan_entry *e = &entries[n_entries++];
    memset(e, 0, sizeof *e);
    return e;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

int base_plan_add(base_plan_role role, const char *path, const char *who, const char *given)
{
    if (!path || strcmp(path, "-") == 0)
        return 0;
    pthread_mutex_lock(&plan_lock);
    bool known = false; /* planned again (a command checking again after more is known): once is enough */
    for (size_t i = 0; i < n_entries && !known; i++)
        known = entries[i].planned && entries[i].role == role && strcmp(entries[i].path, path) == 0 &&
                (entries[i].who && who ? strcmp(entries[i].who, who) == 0 : entries[i].who == who);
    plan_entry *e = known ? NULL : push();
    int rc = known ? 0 : -1;
    if (e) {
        *e = (plan_entry){.role = role, .planned = true, .path = strdup(path), .who = dup_or_null(who),
                          .given = dup_or_null(given)};
        e->pattern = role != BASE_PLAN_READ && strchr(given && strncmp(path, given, strlen(given)) == 0
                                                          ? path + strlen(given) : path, '*');
        if (e->path && (!who || e->who) && (!given || e->given))
            rc = 0;
        else
            entry_free(e), n_entries--;
    }
    pthread_mutex_unlock(&plan_lock);
    return rc;
}

static const char *drop_who;
static bool not_dropped(const plan_entry *e)
{
    return !e->planned || !e->who || strcmp(e->who, drop_who) != 0;
}

void base_plan_drop(const char *who)
{
    pthread_mutex_lock(&plan_lock);
    drop_who = who;
    filter(not_dropped);
    pthread_mutex_unlock(&plan_lock);
}

void base_plan_allow(const char *output_who, const char *input_who)
{
    pthread_mutex_lock(&plan_lock);
    plan_pair *n = realloc(pairs, (n_pairs + 1) * sizeof *n);
    if (n) {
        pairs = n;
        pairs[n_pairs].output = strdup(output_who);
        pairs[n_pairs].input = strdup(input_who);
        if (pairs[n_pairs].output && pairs[n_pairs].input)
            n_pairs++;
        else
            free(pairs[n_pairs].output), free(pairs[n_pairs].input);
    }
    pthread_mutex_unlock(&plan_lock);
}

void base_plan_note_read(const char *path, dev_t dev, ino_t ino)
{
    pthread_mutex_lock(&plan_lock);
    bool known = false;
    for (size_t i = 0; i < n_entries && !known; i++)
        known = !entries[i].planned && entries[i].dev == dev && entries[i].ino == ino;
    plan_entry *e = known ? NULL : push();
    if (e) {
        *e = (plan_entry){.role = BASE_PLAN_READ, .path = strdup(path ? path : "?"), .has_id = true, .dev = dev,
                          .ino = ino};
        if (!e->path)
            n_entries--;
    }
    pthread_mutex_unlock(&plan_lock);
}

void base_plan_forget_read(dev_t dev, ino_t ino)
{
    pthread_mutex_lock(&plan_lock);
    for (size_t i = 0; i < n_entries; i++)
        if (!entries[i].planned && entries[i].dev == dev && entries[i].ino == ino) {
            entry_free(&entries[i]);
            entries[i] = entries[--n_entries]; /* noted once: note_read never adds a twin */
            break;
        }
    pthread_mutex_unlock(&plan_lock);
}

bool base_plan_is_read(dev_t dev, ino_t ino)
{
    pthread_mutex_lock(&plan_lock);
    bool known = false;
    for (size_t i = 0; i < n_entries && !known; i++)
        known = !entries[i].planned && entries[i].dev == dev && entries[i].ino == ino;
    pthread_mutex_unlock(&plan_lock);
    return known;
}

/* ---- the check ------------------------------------------------------------------ */

/* What the check learns of one entry. */
typedef struct plan_fact {
    char *canon;    /* the absolute path with every existing part resolved */
    bool pattern;   /* canon is a pattern (fnmatch) */
    bool exists, device;
    dev_t dev;
    ino_t ino;
} plan_fact;

/* path made absolute, its existing part resolved (links followed), the rest appended as written. */
static char *canonical(const char *path)
{
    char *r = realpath(path, NULL);
    if (r)
        return r;
    char *copy = strdup(path);
    if (!copy)
        return NULL;
    size_t n = strlen(copy);
    while (n > 1 && copy[n - 1] == '/')
        copy[--n] = '\0';
    char *slash = strrchr(copy, '/');
    const char *base = slash ? slash + 1 : copy;
    char *dir = slash ? (slash == copy ? strdup("/") : strndup(copy, (size_t)(slash - copy))) : strdup(".");
    char *cdir = dir ? canonical(dir) : NULL;
    char *out = NULL;
    if (cdir && asprintf(&out, "%s%s%s", cdir, strcmp(cdir, "/") == 0 ? "" : "/", base) < 0)
        out = NULL;
    free(dir);
    free(cdir);
    free(copy);
    return out;
}

/* How an entry is named in messages, into buf. */
static const char *shown(const plan_entry *e, char *buf, size_t cap)
{
    if (!e->who)
        snprintf(buf, cap, "%s (a file this command reads)", e->path);
    else if (e->given && strcmp(e->given, e->path) != 0)
        snprintf(buf, cap, "%s %s (%s)", e->who, e->given, e->path);
    else
        snprintf(buf, cap, "%s %s", e->who, e->path);
    return buf;
}

static int place_error(const plan_entry *e, base_error_code code, const char *why, base_error *err)
{
    char a[2200];
    return base_error_setc(err, code, "%s: cannot write: %s", shown(e, a, sizeof a), why);
}

/* Every name in the path within NAME_MAX, the whole within PATH_MAX. */
static bool name_fits(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return false;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n > NAME_MAX)
            return false;
        p += n + (p[n] == '/');
    }
    return true;
}

/* The folder an output lands in (the nearest part of its path that exists) must be a folder we may write in. */
static int check_folder(const plan_entry *e, base_error *err)
{
    char *dir = strdup(e->path);
    if (!dir)
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    int rc = 0;
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash) {
            strcpy(dir, ".");
        } else {
            slash[slash == dir] = '\0';
        }
        struct stat st;
        if (stat(dir, &st) == 0) {
            char why[4200];
            if (!S_ISDIR(st.st_mode)) {
                snprintf(why, sizeof why, "%s is not a folder", dir);
                rc = place_error(e, BASE_E_INVALID, why, err);
            } else if (access(dir, W_OK | X_OK) != 0) {
                snprintf(why, sizeof why, "cannot write in %s: %s", dir, strerror(errno));
                rc = place_error(e, BASE_E_IO, why, err);
            }
            break;
        }
        if (strcmp(dir, ".") == 0 || strcmp(dir, "/") == 0)
            break;
    }
    free(dir);
    return rc;
}

/* What an output may be: not a link, a folder, a FIFO, a socket or a disk; writable; its name within limits. */
static int check_place(const plan_entry *e, plan_fact *f, base_error *err)
{
    if (!name_fits(e->path))
        return place_error(e, BASE_E_INVALID, "the name is too long for this system", err);
    struct stat st;
    if (lstat(e->path, &st) < 0) {
        if (errno == ENOTDIR)
            return place_error(e, BASE_E_INVALID, "a part of the path is a file, not a folder", err);
        if (errno != ENOENT)
            return place_error(e, BASE_E_IO, strerror(errno), err);
        return check_folder(e, err);
    }
    if (S_ISLNK(st.st_mode))
        return place_error(e, BASE_E_REFUSED, "a symbolic link (its target is not replaced: give the real path)", err);
    if (S_ISCHR(st.st_mode)) {
        f->device = true; /* /dev/null, /dev/full: written in place */
        return 0;
    }
    if (S_ISDIR(st.st_mode))
        return place_error(e, BASE_E_NOT_REGULAR, "a directory", err);
    if (!S_ISREG(st.st_mode))
        return place_error(e, BASE_E_NOT_REGULAR, "not a regular file (a FIFO, socket or disk)", err);
    if (e->role == BASE_PLAN_APPEND && access(e->path, W_OK) != 0)
        return place_error(e, BASE_E_IO, strerror(errno), err);
    f->exists = true, f->dev = st.st_dev, f->ino = st.st_ino;
    return e->role == BASE_PLAN_WRITE ? check_folder(e, err) : 0;
}

/* An input's facts: its identity (from the read that noted it, or its path now) and its canonical path. */
static void input_facts(const plan_entry *e, plan_fact *f)
{
    struct stat st;
    if (e->has_id)
        f->exists = true, f->dev = e->dev, f->ino = e->ino;
    else if (stat(e->path, &st) == 0)
        f->exists = true, f->dev = st.st_dev, f->ino = st.st_ino, f->device = S_ISCHR(st.st_mode);
    f->canon = canonical(e->path);
}

static bool allowed_pair(const plan_entry *out, const plan_entry *in)
{
    for (size_t i = 0; i < n_pairs; i++)
        if (out->who && in->who && strcmp(pairs[i].output, out->who) == 0 && strcmp(pairs[i].input, in->who) == 0)
            return true;
    return false;
}

static bool same_file(const plan_fact *a, const plan_fact *b);

/* Output o may be input i: their pair is allowed, or i is the same file as an input whose pair is. */
static bool allowed(size_t o, size_t i, const plan_fact *facts)
{
    for (size_t j = 0; j < n_entries; j++)
        if (entries[j].role == BASE_PLAN_READ && (j == i || same_file(&facts[j], &facts[i])) &&
            allowed_pair(&entries[o], &entries[j]))
            return true;
    return false;
}

static bool same_file(const plan_fact *a, const plan_fact *b)
{
    if (a->device || b->device)
        return false;
    if (a->pattern || b->pattern) {
        const plan_fact *p = a->pattern ? a : b, *q = a->pattern ? b : a;
        return p->canon && q->canon && !q->pattern && fnmatch(p->canon, q->canon, FNM_PATHNAME) == 0;
    }
    if (a->exists && b->exists && a->dev == b->dev && a->ino == b->ino)
        return true;
    return a->canon && b->canon && strcmp(a->canon, b->canon) == 0;
}

/* Output o against every input and every later output. */
static int compare(size_t o, const plan_fact *facts, base_error *err)
{
    const plan_entry *out = &entries[o];
    char a[2200], b[2200];
    for (size_t i = 0; i < n_entries; i++) {
        const plan_entry *other = &entries[i];
        if (i == o || !same_file(&facts[o], &facts[i]))
            continue;
        if (other->role == BASE_PLAN_READ && !allowed(o, i, facts))
            return base_error_setc(err, BASE_E_REFUSED,
                                   "%s is also %s: an output may not be an input of this command (nothing written)",
                                   shown(out, a, sizeof a), shown(other, b, sizeof b));
        /* A pattern and a file its own option names within it are one plan, not two outputs. */
        const bool refines = (out->pattern || other->pattern) && out->who && other->who && strcmp(out->who, other->who) == 0;
        if (other->role != BASE_PLAN_READ && i > o && !refines)
            return base_error_setc(err, BASE_E_REFUSED,
                                   "%s and %s are one file: give each output its own name (nothing written)",
                                   shown(out, a, sizeof a), shown(other, b, sizeof b));
    }
    return 0;
}

static bool not_expanded(const plan_entry *e) { return !e->expanded; }

/* Each file a pattern output matches now is an output too (its link, its inode): planned for this check. */
static void expand_patterns(void)
{
    const size_t n = n_entries;
    for (size_t i = 0; i < n; i++) {
        glob_t g;
        if (!entries[i].pattern || glob(entries[i].path, GLOB_NOSORT, NULL, &g) != 0)
            continue;
        for (size_t k = 0; k < g.gl_pathc; k++) {
            plan_entry *e = push();
            if (!e)
                break;
            const plan_entry *p = &entries[i]; /* after push: entries may have moved */
            *e = (plan_entry){.role = p->role, .planned = true, .expanded = true, .path = strdup(g.gl_pathv[k]),
                              .who = dup_or_null(p->who), .given = dup_or_null(p->given)};
            if (!e->path || (p->who && !e->who) || (p->given && !e->given))
                entry_free(e), n_entries--;
        }
        globfree(&g);
    }
}

int base_plan_check(base_error *err)
{
    pthread_mutex_lock(&plan_lock);
    expand_patterns();
    plan_fact *facts = calloc(n_entries ? n_entries : 1, sizeof *facts);
    int rc = facts ? 0 : base_error_setc(err, BASE_E_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < n_entries; i++) {
        if (entries[i].role == BASE_PLAN_READ) {
            input_facts(&entries[i], &facts[i]);
        } else {
            facts[i].pattern = entries[i].pattern;
            rc = entries[i].pattern ? check_folder(&entries[i], err) : check_place(&entries[i], &facts[i], err);
            facts[i].canon = canonical(entries[i].path);
        }
    }
    for (size_t i = 0; rc == 0 && i < n_entries; i++)
        if (entries[i].role != BASE_PLAN_READ)
            rc = compare(i, facts, err);
    for (size_t i = 0; facts && i < n_entries; i++)
        free(facts[i].canon);
    free(facts);
    filter(not_expanded);
    pthread_mutex_unlock(&plan_lock);
    return rc;
}
