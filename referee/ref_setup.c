/* ref_setup: a table set up for refereeing (see the header). */
#include "ref_setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

ref_setup *ref_setup_new(const char *table_path, const char *calib_path, const char *roster_path, base_error *err)
{
    if (ref_setup_check(table_path, calib_path, roster_path, NULL, err) < 0)
        return NULL;
    ref_setup *s = calloc(1, sizeof *s);
    if (!s) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    snprintf(s->calib_path, sizeof s->calib_path, "%s", table_path ? table_path : calib_path);
    snprintf(s->roster_path, sizeof s->roster_path, "%s", table_path ? table_path : roster_path);
    if (table_path) {
        if (table_file_load(table_path, &s->table, err) < 0) {
            free(s);
            return NULL;
        }
        s->from_table = true;
        s->calib = s->table.calib;
        s->roster = s->table.roster; /* ours now: freed with the set-up, not with the table */
        s->table.roster = NULL;
    } else if (calib_file_load(calib_path, &s->calib, err) < 0 || !(s->roster = vis_roster_load(roster_path, err))) {
        ref_setup_free(s);
        return NULL;
    }
    if (!(s->det = vis_detector_new(s->roster, &s->calib, err))) {
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
    vis_roster_free(s->roster);
    table_file_clear(&s->table);
    free(s);
}

vis_detector *ref_setup_detector(ref_setup *s) { return s->det; }

int ref_setup_apply(const ref_setup *s, rules_snapshot *snap, base_error *err)
{
    return s->from_table ? table_file_apply(&s->table, snap, err) : 0;
}
