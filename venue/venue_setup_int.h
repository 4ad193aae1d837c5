/*
 * venue_setup_int: what the files of `tableref venue setup` share (internal
 * to venue/): one run's state, the checks of every value written into a
 * file (venue_setup_check.c), the files' texts (venue_setup_text.c), and the
 * staging folder, copies, ownership, commit and rollback
 * (venue_setup_files.c). venue_setup.c stands on top and calls them; none of
 * them calls it.
 *
 * How to use (inside venue/, as venue_setup.c does):
 *   setup_run r; setup_run_init(&r, options);
 *   setup_check_options(options, &err);  setup_broker_account(&r, &err);
 *   setup_make_dirs(&r, &err);  setup_stage_text(&r, "acl", setup_acl_text(&r), true, &err);  ...
 *   setup_commit(&r, &err) == 0 ? done : setup_rollback(&r);   setup_run_free(&r);
 */
#ifndef VENUE_SETUP_INT_H
#define VENUE_SETUP_INT_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "base_error.h"
#include "venue_setup.h"

#define SETUP_MAX_NEW (VENUE_SETUP_MAX_TABLES + 2 * VENUE_SETUP_MAX_NAMES)

typedef struct setup_run {
    venue_setup_options eff;  /* the options in force: an existing set-up's listeners with add */
    char dir[PATH_MAX];       /* the set-up's folder, absolute */
    char stage[PATH_MAX + 32]; /* DIR/.venue-setup-XXXXXX: every file is written here first */
    cJSON *creds;             /* credentials.json as it will be written */
    bool existed;             /* credentials.json was there (add) */
    /* The broker's account: it owns what the broker reads (as root), never root itself. */
    bool as_root;
    uid_t uid;
    gid_t gid;
    char user[64];
    char http_src[PATH_MAX];  /* the page's folder, absolute ("" without one) */
    /* What this run made outside the staging folder, undone in reverse order if it fails. */
    char **made;
    int n_made, cap_made;
    /* The files staged (paths under STAGE), moved into DIR in this order by setup_commit. */
    char **staged;
    int n_staged, cap_staged;
    /* "user:password" lines of the new accounts, to hash. */
    char (*new_lines)[160];
    int n_new;
} setup_run;

int setup_run_init(setup_run *r, const venue_setup_options *o, base_error *err);
void setup_run_free(setup_run *r);

/* ---- checks (venue_setup_check.c) ---- */

/* A value that goes into a line of a file: 1..`max` bytes of valid UTF-8, no control character, no blank at
 * either end. -1 with err naming `what`. */
int setup_check_line(const char *what, const char *value, size_t max, base_error *err);
/* An IPv4 or IPv6 address or a host name. */
int setup_check_bind(const char *what, const char *value, base_error *err);
/* Every option, before anything is written. */
int setup_check_options(const venue_setup_options *o, base_error *err);
/* credentials.json read back for add: every field that goes into a file, checked as an option is. */
int setup_check_credentials(const cJSON *creds, const char *path, base_error *err);
/* Resolves the broker's account (run_as, or the default) and, as root, checks that it may reach the folder. */
int setup_broker_account(setup_run *r, base_error *err);

/* ---- texts (venue_setup_text.c); malloc'ed, NULL when out of memory ---- */

char *setup_conf_text(const setup_run *r);
char *setup_acl_text(const setup_run *r);
char *setup_page_json(const setup_run *r);

/* ---- files (venue_setup_files.c) ---- */

/* DIR (made if missing, noted), made absolute; refuses a non-empty folder without add, and add without a
 * set-up there. */
int setup_make_dirs(setup_run *r, base_error *err);
/* Its passwords/ and data/ (the broker's), and the staging folder (once the broker's account is known). */
int setup_make_subdirs(setup_run *r, base_error *err);
/* Notes a path this run made (a new password file, a new folder). */
int setup_note_made(setup_run *r, const char *path, base_error *err);
/* Writes `text` (taken and freed; NULL: out of memory) as STAGE/name, mode 0600, owned by the broker's account
 * when `broker_reads`. */
int setup_stage_text(setup_run *r, const char *name, char *text, bool broker_reads, base_error *err);
/* Copies a file into STAGE/name (the page, the certificate), owned by the broker's account. */
int setup_stage_copy(setup_run *r, const char *src, const char *name, base_error *err);
/* The page's files from r->http_src into STAGE/www/ (with venue.json). */
int setup_stage_page(setup_run *r, base_error *err);
/* Moves every staged file into DIR (credentials.json last) and removes the staging folder. */
int setup_commit(setup_run *r, base_error *err);
/* Removes the staging folder and everything noted as made, in reverse order. */
void setup_rollback(setup_run *r);

#endif
