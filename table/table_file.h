/*
 * table_file: everything one table needs in one file ("tableref.table"
 * version 1, docs/formats.md): the camera calibration, the armies' rosters,
 * the ruleset with the house rules, the terrain, and where the pictures come
 * from. `tableref referee --table T`, `detect --table T` (and `watch --table
 * T`) need nothing else.
 *
 * How to use:
 *   table_file t;
 *   base_error err;
 *   if (table_file_load("table7.json", &t, &err) < 0) { fprintf(stderr, "%s\n", err.msg); return 2; }
 *   ... t.calib, t.roster (roster/roster.h: every army, merged; owned by t) ...
 *   ... a snapshot detected through them (programs open the table with referee/ref_setup.h, which does it all) ...
 *   table_file_apply(&t, snap, &err);     // the table's ruleset and terrain into the detected snapshot
 *   ... rules_move_check(before, after, ...) ...
 *   table_file_clear(&t);
 *
 * Files named in a table file are read relative to the table file's folder.
 * Each roster is read and checked on its own first, so that an error names
 * its file and its unit (a roster still holding unknown values is refused
 * with the units that miss them); then they are merged into one: their tag
 * IDs and unit ids must not collide (two rosters imported for the same army
 * slot are refused by name), they must agree on the tag family, and the
 * armies must be enemies: two rosters whose units share a side are refused,
 * both named. The board comes from the table's own "board" when it has one,
 * else from the first roster. table_file_roster_of names the roster file a
 * merged unit came from, table_file.calib_name the calibration's.
 */
#ifndef TABLE_FILE_H
#define TABLE_FILE_H

#include <stddef.h>

#include "calib_file.h"
#include "base_error.h"
#include "rules_snapshot.h"
#include "roster.h"

#define TABLE_FILE_FORMAT "tableref.table"
#define TABLE_FILE_VERSION 1
#define TABLE_MAX_ROSTERS 8

typedef struct table_file {
    char path[1024];
    char name[96];              /* "Table 7"; "" when not given */
    calib_file calib;
    roster_file *roster;        /* every army, merged (roster/roster.h); owned */
    rules_snapshot *setting;    /* board, ruleset (house rules applied), terrain; no units; owned */
    size_t n_rosters;
    char roster_names[TABLE_MAX_ROSTERS][256];  /* the file (or "rosters[i]") each army came from */
    size_t roster_units[TABLE_MAX_ROSTERS];     /* how many of the merged roster's units each brought, in order */
    char calib_name[1024];      /* the calibration's file (or "T: calibration" when inline) */
    char source[512];           /* capture source for watch/capture ("" when not given), as capture's table of
                                   sources takes it (capture/cap_rows.h): a path (a file, a folder, a pattern,
                                   sim:SEQ.json's SEQ.json) is resolved against the table's folder, a camera
                                   (libcamera[:N], v4l2:...) and a URL (rtsp://...) kept as written */
    int width, height;          /* capture size; the calibration's image size when not given */
} table_file;

/* Reads and checks the whole table. -1 with a message naming the file and field; *out is then empty. */
int table_file_load(const char *path, table_file *out, base_error *err);
/* The same from parsed JSON; `name` names it in errors, `dir` is where relative paths start. */
int table_file_from_json(const cJSON *root, const char *name, const char *dir, table_file *out, base_error *err);
/* Frees what the table owns; safe on a zeroed or cleared table. */
void table_file_clear(table_file *t);

/* The roster file (roster_names[i]) unit `unit` of the merged roster came from; NULL past the last unit. */
const char *table_file_roster_of(const table_file *t, size_t unit);

/* Copies the table's ruleset and terrain into a snapshot (one detected from a picture). */
int table_file_apply(const table_file *t, rules_snapshot *s, base_error *err);

#endif
