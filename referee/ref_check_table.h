/*
 * ref_check_table: the pre-round table check's verdict, one for every
 * program that gives it (`tableref table-check`, `watch` at its start): the
 * set-up's self-checks (ref_check.h), the resolution margin, each unit's tags
 * seen and, with a projector mapped and thrown, its alignment
 * (ref_projcheck.h); go only when every one holds. Limits:
 * docs/setup-checks.md.
 *
 * How to use:
 *   ref_table_check tc;
 *   ref_snapshot_table_check(setup, shot, NULL, &tc);  // ref_snapshot.h (from the parts: ref_table_parts.h)
 *   ref_table_check_set_projector(&tc, REF_PROJ_CHECKED, &proj_result);      // optional
 *   if (!tc.go) puts(tc.reason);                       // the first no-go, as a sentence
 *   cJSON *j = ref_table_check_to_json(&tc);           // every figure
 *   ref_table_check_clear(&tc);
 */
#ifndef REF_CHECK_TABLE_H
#define REF_CHECK_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "ref_check.h"
#include "ref_projcheck.h"

/* Pixels per tag cell below this at the smallest tag: too few to read a tag reliably. */
#define REF_TABLE_MIN_CELL_PX 2.0

typedef enum ref_proj_status {
    REF_PROJ_NOT_MAPPED = 0,  /* the calibration has no projector section */
    REF_PROJ_NOT_CHECKED,     /* mapped, no marks thrown (no projector shown, no simulation) */
    REF_PROJ_CHECKED,
    /* Thrown, and none of its marks seen (a projector off or aimed elsewhere): it lights nothing the camera
     * reads, so for the watch not a no-go; the result says it. `table-check` asks for the check: CHECKED. */
    REF_PROJ_NOT_SEEN,
} ref_proj_status;

typedef struct ref_table_unit {
    const char *id;           /* borrowed from the set-up's roster */
    const char *roster;       /* the roster file it came from (borrowed), or NULL */
    size_t seen, total;       /* seen: its models placed from their own tags (ref_unit_models_seen), as detect
                               * places them; total: the roster's */
} ref_table_unit;

typedef struct ref_table_check {
    ref_checks checks;
    bool resolution_ok;
    ref_table_unit *units;    /* one per roster unit; owned */
    size_t n_units;
    bool units_optional;      /* a unit none of whose tags is seen is said, not a no-go (ref_table_check_units_optional) */
    ref_proj_status projector_status;
    bool projector_simulated;
    ref_proj_result projector;
    bool go;
    char reason[3400];        /* the first no-go in words; "" when go */
} ref_table_check;

/* The projector's part (status, and the result when CHECKED or NOT_SEEN); go and reason are updated. */
void ref_table_check_set_projector(ref_table_check *tc, ref_proj_status status, bool simulated,
                                   const ref_proj_result *r);
/* Units may be missing: a watch started mid-game has units removed as casualties. go and reason updated. */
void ref_table_check_units_optional(ref_table_check *tc);
void ref_table_check_clear(ref_table_check *tc);
/* {"go", "reason", "ok", "checks": [...] (ref_checks_to_json), "resolution", "exposure", "units_required", "units",
 * "projector":
 * {"status": "not mapped" | "not checked" | "checked" | "not seen", "simulated", ...ref_proj_result_to_json}}. */
cJSON *ref_table_check_to_json(const ref_table_check *tc);

#endif
