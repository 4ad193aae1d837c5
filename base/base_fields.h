/*
 * base_fields: the checks every tableref JSON reader shares beyond a
 * field's type: which keys an object may hold, the range of each number, and
 * ids that must be unique across a whole file. Readers of the snapshot,
 * roster, calibration and scene formats call them, so each refuses a typo,
 * an impossible number or a repeated id the same way, naming the file and
 * the field.
 *
 * How to use (inside a reader):
 *   static const char *const unit_keys[] = {"id", "side", "advance_in", "march_in", NULL};
 *   if (base_fields_known(ju, "units[3]", unit_keys, err) < 0) return -1;
 *       // "units[3].march: unknown field; did you mean \"march_in\"?"
 *   if (base_fields_number(ju, "advance_in", "units[3]", false, 0, 100, &in, err) < 0) return -1;
 *       // "units[3].advance_in: -5 is out of range (0 to 100)"
 *   base_fields_id ids[n] = {{"spears", 0, 0}, ...};   // text (or number) and file order
 *   size_t a, b;
 *   if (base_fields_duplicate(ids, n, true, &a, &b)) ... name both places a and b
 *
 *   base_fields_names(ju_rates);          // an object whose keys are names (unit ids), not fields
 *   ...
 *   if (base_fields_all_checked(root, "table.json", err) < 0) return -1;   // at the reader's end
 *       // "table.json: terrain[0].hill: not read (...)": an object no key table looked at
 *
 * A new field in a format is one more key in its reader's table (and a line
 * in docs/formats.md); nothing else changes. A new object is strict the same
 * way: a reader that forgets its key table is caught by base_fields_all_checked
 * (every reader calls it at its end), so no part of a file is ever ignored.
 */
#ifndef BASE_FIELDS_H
#define BASE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "base_error.h"

/* Ranges the formats share (docs/formats.md, "Limits"). */
#define BASE_FIELDS_MAX_BOARD_MM 20000.0   /* a board side: 20 m holds any table */
#define BASE_FIELDS_MAX_PLACE_MM 100000.0  /* |x|, |y| of anything placed: 100 m */
#define BASE_FIELDS_MAX_BASE_MM 1000.0     /* a base side, a tag, a tolerance */
#define BASE_FIELDS_MAX_RATE_IN 100.0      /* a rate or distance characteristic, inches */
#define BASE_FIELDS_MAX_ANGLE_DEG 360.0    /* |an angle| */
#define BASE_FIELDS_MAX_WILL 20            /* a WILL (or Discipline) characteristic */
#define BASE_FIELDS_MAX_POLYGON 10000      /* points of one terrain polygon */
#define BASE_FIELDS_MAX_MODELS 1000000     /* models counted in one unit */

/*
 * What a roster may say of a model on a table (docs/formats.md, "Limits"): the
 * largest base a model stands on (a 170 x 105 mm monster; 250 x 400 mm is a
 * typo or another unit) and the largest rate (Advance, March, Mobility: 20"
 * is the fastest March of the seed rules; an Advance of 40" is a typo).
 */
#define BASE_FIELDS_PLAUSIBLE_BASE_MM 200.0
#define BASE_FIELDS_PLAUSIBLE_RATE_IN 30.0

/* The longest key table a reader may pass (keys per object). */
#define BASE_FIELDS_MAX_KEYS 128

/*
 * Every key of `obj` must be in `known` (NULL-terminated). An unknown key is
 * an error that names the closest known key when one is close (a typo, a
 * missing unit suffix such as "march" for "march_in"), or lists the known
 * keys. A key given twice is an error: JSON readers disagree on which copy
 * wins. Keys beginning with '_' are comments and are skipped. Not an object:
 * no check (the type readers report that). Linear in keys x table length.
 */
int base_fields_known(const cJSON *obj, const char *where, const char *const *known, base_error *err);

/* Marks an object whose keys are names (a map from unit ids to rates), not fields, as checked by its reader. */
void base_fields_names(const cJSON *obj);

/* A reader that reads a copy (cJSON_Duplicate) of part of a file: the copy's checks count for the original. */
void base_fields_checked_as(const cJSON *copy, const cJSON *orig);

/*
 * Every object in the tree under root (skipping comment keys beginning with '_') had its keys checked by
 * base_fields_known or base_fields_names: 0, or -1 (BASE_E_INVALID) naming the first one no reader looked at,
 * "NAME: units[2].extra: not read ..." (name NULL: no "NAME: "). A reader calls it at its end over the whole file it
 * read.
 */
int base_fields_all_checked(const cJSON *root, const char *name, base_error *err);

/* The index in `known` of the key `word` was most likely meant to be, or -1 when none is close: a key the word
 * begins or ends first ("march": "march_in", not "marks"), else the nearest by edits. */
int base_fields_closest(const char *word, const char *const *known);

/*
 * A finite number in [min, max]; with required == false a missing field
 * leaves *out untouched. Errors: "where.key: missing required field",
 * "where.key: expected a finite number", "where.key: -5 is out of range (0 to 100)".
 */
int base_fields_number(const cJSON *obj, const char *key, const char *where, bool required, double min, double max,
                        double *out, base_error *err);
/* The same for a whole number. */
int base_fields_int(const cJSON *obj, const char *key, const char *where, bool required, int min, int max, int *out,
                     base_error *err);

/* One id for base_fields_duplicate: its text (or number) and its place in the file (any order key). */
typedef struct base_fields_id {
    const char *text;
    long long number;
    size_t order;
} base_fields_id;

/*
 * Finds a repeated id in O(n log n) (ids is sorted in place). Compares text
 * when by_text, else number. Returns true with *first < *second the `order`
 * of the two places: among all repeats, the pair whose second place comes
 * first in the file (what reading the file top to bottom meets first).
 */
bool base_fields_duplicate(base_fields_id *ids, size_t n, bool by_text, size_t *first, size_t *second);

#endif
