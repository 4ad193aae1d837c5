/* ref_setup: a table set up for refereeing (see the header). */
#include "ref_setup.h"
#include "base_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table_file.h"
#include "vis_detect.h"

int ref_setup_check(const char *table_path, const char *calib_path, const char *roster_path, const char **missing,
                    base_error *err)
{
    const char *what = NULL;
    if (missing)
        *missing = NULL;
    if (table_path && (calib_path || roster_path))
        return base_error_set(err, "--table holds the calibration and the rosters: give either --table or --calib "
                                   "and --roster");
    if (!table_path && !calib_path)
        what = "--calib C.json (or --table T.json)";
    else if (!table_path && !roster_path)
        what = "--roster R.json (or --table T.json)";
    if (!what)
        return 0;
    if (missing)
        *missing = what;
    return base_error_set(err, "missing %s", what);
}

int ref_setup_check_rates(const roster_file *r, const char *name, base_error *err)
{
    char units[320] = "";
    size_t n = 0, without = 0;
    const char *first = NULL;
    for (size_t i = 0; i < r->n_units; i++) {
        const roster_unit *u = &r->units[i];
        if (!isnan(u->advance_rate) || !isnan(u->march_rate) || u->advance_dice[0] || u->march_dice[0])
            continue; /* a rate of dice is judged against the roll declared */
        if (without++ == 0)
            first = u->name[0] ? u->name : u->id;
        if (n + 8 < sizeof units) { /* every unit while they fit, then "..." */
            int w = snprintf(units + n, sizeof units - n, "%s%s%s%s%s", n ? ", " : "", u->id, u->name[0] ? " (" : "",
                             u->name, u->name[0] ? ")" : "");
            n = w < 0 || (size_t)w >= sizeof units - n ? sizeof units : n + (size_t)w;
        }
    }
    if (without == 0)
        return 0;
    if (n >= sizeof units) { /* cut between characters, then "..." */
        units[sizeof units - 4] = '\0';
        base_text_trim_cut(units);
        strcat(units, "...");
    }
    return base_error_set(err,
                          "%s: %zu unit%s no Advance or March Rate, needed to judge a move: %s. Give them with "
                          "`tableref roster import LIST --set '%s:adv=N' --set '%s:mar=N'` (for each unit) or write "
                          "advance_in and march_in into the roster's units",
                          name ? name : "the roster", without, without == 1 ? " has" : "s have", units, first, first);
}

/* The map and the detector over the set-up's roster and calibration. 0 or -1. */
static int build_detector(ref_setup *s, base_error *err)
{
    if (!(s->map = roster_map_new(s->roster, err)) || !(s->det = vis_detector_new(s->map, &s->calib, err)))
        return -1;
    /* The table's hills: every tag placed at the height it stands at. */
    const rules_snapshot *t = s->from_table ? s->table->setting : NULL;
    return t ? vis_detector_set_relief(s->det, t->terrain, t->n_terrain, err) : 0;
}

/* The files a table file names, for the self-checks' messages: its calibration's, its rosters' ("a.json and
 * b.json"). */
static void name_table_parts(ref_setup *s)
{
    const table_file *t = s->table;
    snprintf(s->calib_path, sizeof s->calib_path, "%s", t->calib_name);
    size_t n = 0;
    s->roster_path[0] = '\0';
    for (size_t i = 0; i < t->n_rosters && n + 8 < sizeof s->roster_path; i++) {
        int w = snprintf(s->roster_path + n, sizeof s->roster_path - n, "%s%s", i == 0 ? "" : i + 1 == t->n_rosters ? " and " : ", ",
                         t->roster_names[i]);
        n = w < 0 ? sizeof s->roster_path : n + (size_t)w;
    }
    base_text_trim_cut(s->roster_path);
}

/* The calibration and the roster from the table file (its roster becomes ours). 0 or -1. */
static int read_table(ref_setup *s, const char *table_path, base_error *err)
{
    if (!(s->table = calloc(1, sizeof *s->table)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    if (table_file_load(table_path, s->table, err) < 0)
        return -1;
    s->from_table = true;
    s->calib = s->table->calib;
    s->roster = s->table->roster; /* ours now: freed with the set-up, not with the table */
    s->table->roster = NULL;
    name_table_parts(s);
    return 0;
}

const char *ref_setup_roster_of(const ref_setup *s, size_t unit)
{
    const char *name = s->from_table ? table_file_roster_of(s->table, unit) : NULL;
    return name ? name : s->roster_path;
}

ref_setup *ref_setup_open(const char *table_path, const char *calib_path, const char *roster_path, unsigned flags,
                          base_error *err)
{
    if (ref_setup_check(table_path, calib_path, roster_path, NULL, err) < 0)
        return NULL;
    ref_setup *s = calloc(1, sizeof *s);
    if (!s) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    snprintf(s->calib_path, sizeof s->calib_path, "%s", table_path ? table_path : calib_path); /* a table's: its files */
    snprintf(s->roster_path, sizeof s->roster_path, "%s", table_path ? table_path : roster_path);
    const int read = table_path ? read_table(s, table_path, err)
                     : calib_file_load(calib_path, &s->calib, err) < 0 || !(s->roster = roster_load(roster_path, err))
                         ? -1
                         : 0;
    if (read < 0 ||
        (!(flags & REF_SETUP_RATES_LATER) &&
         ref_setup_check_rates(s->roster, s->roster_path, err) < 0) ||
        build_detector(s, err) < 0) {
        ref_setup_free(s);
        return NULL;
    }
    return s;
}

ref_setup *ref_setup_new(const char *table_path, const char *calib_path, const char *roster_path, base_error *err)
{
    return ref_setup_open(table_path, calib_path, roster_path, 0, err);
}

ref_setup *ref_setup_wrap(const calib_file *calib, const roster_file *roster, const char *calib_name,
                          const char *roster_name, base_error *err)
{
    ref_setup *s = calloc(1, sizeof *s);
    if (!s) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    s->calib = *calib;
    s->roster = (roster_file *)roster; /* borrowed: never freed here */
    s->roster_borrowed = true;
    snprintf(s->calib_path, sizeof s->calib_path, "%s", calib_name ? calib_name : "the calibration");
    snprintf(s->roster_path, sizeof s->roster_path, "%s", roster_name ? roster_name : "the roster");
    if (build_detector(s, err) < 0) {
        ref_setup_free(s);
        return NULL;
    }
    return s;
}

void ref_setup_free(ref_setup *s)
{
    if (!s)
        return;
    vis_detector_free(s->det);
    roster_map_free(s->map);
    if (!s->roster_borrowed)
        roster_free(s->roster);
    if (s->table)
        table_file_clear(s->table);
    free(s->table);
    rules_snapshot_free(s->terrain);
    free(s);
}

int ref_setup_set_terrain(ref_setup *s, const rules_terrain *t, size_t n, base_error *err)
{
    if (s->from_table)
        return base_error_setc(err, BASE_E_INVALID, "a table file's set-up has its own terrain");
    rules_snapshot_free(s->terrain);
    if (!(s->terrain = rules_snapshot_new(1, 1)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (!rules_snapshot_copy_terrain(s->terrain, &t[i]))
            return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    return vis_detector_set_relief(s->det, t, n, err);
}

void ref_setup_keep_pose(ref_setup *s) { s->det->cfg.refine_pose_min_tags = 0; }

double ref_setup_tag_px(const ref_setup *s) { return s->det->expected_tag_px; }

int ref_setup_apply(const ref_setup *s, rules_snapshot *snap, base_error *err)
{
    if (s->from_table)
        return table_file_apply(s->table, snap, err);
    for (size_t i = 0; s->terrain && i < s->terrain->n_terrain; i++)
        if (!rules_snapshot_copy_terrain(snap, &s->terrain->terrain[i]))
            return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    return 0;
}
