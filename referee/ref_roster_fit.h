/*
 * ref_roster_fit: does the roster describe the table the camera sees,
 * beyond its tags' sizes? Another player's list of the same army (the same
 * base sizes, other units) reads its tags with no complaint from vision,
 * and every call made through it is wrong. What a picture can prove
 * against a roster, without ever blaming a roster for a hand or a figure:
 *   - a unit's models placed from their own tags stand in two places: no
 *     gap its unseen models could fill (each as wide as its widest base)
 *     joins them;
 *   - two of a unit's bases, as the roster sizes them, overlap by more
 *     than their placements' uncertainty (3 mm and three standard
 *     deviations a side): the roster's base is not the table's;
 *   - tags read on the board that the roster does not hold (where the
 *     calibration's pose puts them: a neighbouring table's or a tag sheet
 *     beside the board is not this roster's business).
 * One figure (the count of such findings) for the self-check
 * REF_CHECK_ROSTER_FIT (ref_check.h): referee and detect make no call
 * ("cannot judge: set-up"), table-check says NO-GO, naming the roster file
 * of each unit at fault.
 *
 * And the one count of a unit's models as seen, for table-check, the
 * referee's words and detect alike: the models the camera placed from their
 * own tags (read cleanly, partly hidden, or read by their pattern where the
 * unit's formation puts a model), not those inferred.
 *
 * In vision's own types (its report), like the *_parts.h headers: the
 * referee's own files include it; programs take the check from
 * ref_snapshot_check / ref_snapshot_table_check and the count from
 * ref_snapshot.h.
 *
 * How to use:
 *   size_t n = ref_unit_models_seen(snap, "knights");   // also declared in ref_snapshot.h
 *   ref_check_result fit;
 *   ref_roster_fit(setup, snap, &report, "after.jpg", &fit);
 *   ref_checks_set(&checks, &fit, "after.jpg");          // ref_check_parts.h
 */
#ifndef REF_ROSTER_FIT_H
#define REF_ROSTER_FIT_H

#include <stddef.h>

#include "ref_check.h"
#include "ref_setup.h"
#include "rules_snapshot.h"
#include "vis_report.h"

/* Margins of the findings (mm): a gap between two of a unit's bases that is not a gap (a skirmish line's half
 * inch); how far two bases may overlap as measured before the roster's base is doubted. */
#define REF_FIT_GAP_MM 13.0
#define REF_FIT_OVERLAP_MM 3.0

/* The unit's models placed from their own tags (evidence seen or rough); 0 when the unit is not in `snap`. */
size_t ref_unit_models_seen(const rules_snapshot *snap, const char *unit_id);

/* The check REF_CHECK_ROSTER_FIT of `snap` (read through `s`, with vision's report `rep`) into *out: its
 * figure, and when it fails a sentence naming the picture, the units, the tags and the roster files. */
void ref_roster_fit(const ref_setup *s, const rules_snapshot *snap, const vis_report *rep, const char *picture,
                    ref_check_result *out);

#endif
