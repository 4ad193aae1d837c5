/*
 * ref_setup: a table set up for refereeing: its calibration, the rosters of
 * its armies and, from a table file, its ruleset (house rules) and terrain,
 * with the tag detector built over them. Opened from `--table T` or from
 * `--calib C --roster R`: the rule "give either" is checked here, once, for
 * every program (referee, detect, table-check, watch); or made from what is
 * in memory (the table simulator, tests: ref_setup_wrap).
 *
 * The referee library (referee/) sits between vision/, rules/, table/ and
 * the programs (cli/, watch/), as curl's lib/ sits under its src/: it opens
 * a set-up (ref_setup.h), reads a frame into a snapshot (ref_snapshot.h:
 * the one door every program's pictures go through), judges two snapshots
 * (ref_judge.h) and puts a judged move into words (ref_words.h). It
 * includes nothing above it: no overlay, venue or watch. The words
 * themselves live in rules/rules_words.c, below the overlay and the venue
 * feed that print them too, so that no two folders include each other;
 * ref_words.h hands them on. The headers a program includes name no type of
 * vision/ or table/ (the detector and the table file are opaque handles
 * here); ref_vision.h hands vision's own account to the programs that show
 * it (detect's report, the benches).
 *
 * How to use:
 *   const char *missing = NULL;
 *   if (ref_setup_check(table, calib, roster, &missing, &err) < 0)
 *       missing ? "missing <missing>" : err.msg;          // usage: say it, exit 2
 *   ref_setup *s = ref_setup_new(table, calib, roster, &err);   // NULL: err names the file and field
 *   ref_setup_keep_pose(s);                                      // optional: the calibration's pose as it is
 *   ... ref_snapshot_new(s, "after.jpg", NULL, &err) ...         // ref_snapshot.h
 *   ref_setup_free(s);
 *   ref_setup *m = ref_setup_wrap(&calib, roster, NULL, NULL, &err);   // from memory; roster borrowed
 *   ref_setup_set_terrain(m, scene->terrain, scene->n_terrain, &err);  // optional: its terrain, hills and all
 * A table's relief (its hills: table file "terrain") goes into the detector: every tag is placed at the
 * height it stands at and every unit's height cross-checked (vision/vis_relief.h, vis_height.h).
 */
#ifndef REF_SETUP_H
#define REF_SETUP_H

#include <stdbool.h>

#include "base_error.h"
#include "calib_file.h"
#include "roster.h"
#include "rules_snapshot.h"

struct table_file;    /* table/table_file.h */
struct vis_detector;  /* vision/vis_detect.h: ref_vision.h hands it to the programs that tune it */

typedef struct ref_setup {
    bool from_table;      /* opened from a table file: its ruleset and terrain go into every snapshot */
    struct table_file *table;     /* from_table: the table (its roster moved to `roster`); owned */
    calib_file calib;
    roster_file *roster;          /* owned, unless made by ref_setup_wrap (borrowed) */
    roster_map *map;              /* the roster's map, what vision takes (roster_map_new); owned */
    struct vis_detector *det;     /* over map and calib; owned */
    bool roster_borrowed;
    rules_snapshot *terrain;      /* a set-up from memory given its terrain (ref_setup_set_terrain); owned, else NULL */
    /* Where each part came from, for the self-checks' messages (ref_check.h): from a table file, the files it
     * names (its calibration's; its rosters', "a.json and b.json"), each as the table file reads it. */
    char calib_path[1024], roster_path[1024];
} ref_setup;

/*
 * Do these arguments make a set-up? 0 when they do. -1 with err (code
 * BASE_E_INVALID) when --table comes with --calib or --roster ("give
 * either"), or when a part is missing: then *missing (optional) names it
 * as a usage line does ("--calib C.json (or --table T.json)") and err says
 * "missing ..." too.
 */
int ref_setup_check(const char *table_path, const char *calib_path, const char *roster_path, const char **missing,
                    base_error *err);
/* Reads everything (after ref_setup_check's rule) and builds the detector. NULL with err naming the file. */
ref_setup *ref_setup_new(const char *table_path, const char *calib_path, const char *roster_path, base_error *err);

/* What ref_setup_open may leave out. */
typedef enum ref_setup_flags {
    REF_SETUP_RATES_LATER = 1u << 0,  /* a unit without rates is taken (the watch: a unit not seen moving needs none) */
} ref_setup_flags;
/* ref_setup_new with flags (ref_setup_flags). */
ref_setup *ref_setup_open(const char *table_path, const char *calib_path, const char *roster_path, unsigned flags,
                          base_error *err);
/*
 * A set-up from memory: the calibration (copied) and a roster (borrowed: it must outlive the set-up), no
 * table file. `calib_name` and `roster_name` name them in the self-checks' messages (NULL: "the
 * calibration", "the roster"). NULL with err when out of memory or the roster's tag family is unknown.
 */
ref_setup *ref_setup_wrap(const calib_file *calib, const roster_file *roster, const char *calib_name,
                          const char *roster_name, base_error *err);

/*
 * Rates are needed to judge, not to print tags: -1 (BASE_E_INVALID) with a message naming every unit
 * (its id and name) that has neither an Advance nor a March Rate, and how to give them, when the
 * roster has such a unit. ref_setup_new checks it. `name` names the roster in the message.
 */
int ref_setup_check_rates(const roster_file *r, const char *name, base_error *err);
void ref_setup_free(ref_setup *s);

/* The roster file the set-up's unit `unit` (an index into roster->units) came from: from a table file, the one
 * of its rosters; else the roster's own name. */
const char *ref_setup_roster_of(const ref_setup *s, size_t unit);
/* A set-up from memory given a table's terrain (copied): its hills into the detector, and every piece into
 * every snapshot read (ref_setup_apply), as a table file's. 0, or -1 when out of memory or made from a table
 * file (which has its own). */
int ref_setup_set_terrain(ref_setup *s, const rules_terrain *t, size_t n, base_error *err);

/* Keep the calibration's board pose as it is (never refined from the board tags in view). */
void ref_setup_keep_pose(ref_setup *s);
/* The smallest model tag's width in the picture, px, at the view's centre (how far a tag's reach goes). */
double ref_setup_tag_px(const ref_setup *s);
/* The table's ruleset and terrain into a snapshot (a set-up from memory: its terrain, if given). 0 or -1. */
int ref_setup_apply(const ref_setup *s, rules_snapshot *snap, base_error *err);

#endif
