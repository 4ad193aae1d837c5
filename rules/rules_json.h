/*
 * rules_json: the snapshot's JSON form, and the field readers every
 * tableref JSON format (snapshot, roster, calibration, report) shares.
 *
 * The formats are documented in docs/formats.md. Readers name the file and
 * the field in every error ("after.json: units[1].base_mm[0]: expected a
 * finite number"); nothing here prints or exits.
 *
 * How to use:
 *   rules_error err;
 *   rules_snapshot *s = rules_json_load_snapshot("before.json", &err);
 *   if (!s) { fprintf(stderr, "%s\n", err.msg); return 2; }
 *   ...
 *   rules_json_save_snapshot(s, "copy.json", &err);
 *   rules_snapshot_free(s);
 */
#ifndef RULES_JSON_H
#define RULES_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "rules_error.h"
#include "rules_snapshot.h"

/* Parses a whole file; the error names the file, line and column. Caller frees with cJSON_Delete. */
cJSON *rules_json_parse_file(const char *path, rules_error *err);
/* Parses a string; `name` is used in errors in place of a file name. */
cJSON *rules_json_parse_string(const char *text, const char *name, rules_error *err);
/* Writes `root` pretty-printed with a trailing newline; "-" means stdout. */
int rules_json_write_file(const cJSON *root, const char *path, rules_error *err);

/*
 * Field readers. `where` is the path of `obj` for messages ("units[2]").
 * With required == false a missing field leaves *out untouched and returns 0;
 * a present field of the wrong type is always an error.
 */
int rules_json_number(const cJSON *obj, const char *key, const char *where, bool required,
                      double *out, rules_error *err);
int rules_json_int(const cJSON *obj, const char *key, const char *where, bool required,
                   int *out, rules_error *err);
int rules_json_bool(const cJSON *obj, const char *key, const char *where, bool required,
                    bool *out, rules_error *err);
/* Copies a string of at most cap-1 bytes; longer is an error. */
int rules_json_string(const cJSON *obj, const char *key, const char *where, bool required,
                      char *out, size_t cap, rules_error *err);
/* A JSON array of exactly n finite numbers. */
int rules_json_numbers(const cJSON *obj, const char *key, const char *where, bool required,
                       double *out, size_t n, rules_error *err);
/* The array at `key` (or NULL when absent and not required; sets err when wrong type). */
const cJSON *rules_json_array(const cJSON *obj, const char *key, const char *where, bool required,
                              rules_error *err);
const cJSON *rules_json_object(const cJSON *obj, const char *key, const char *where, bool required,
                               rules_error *err);
/* Adds a number rounded to `decimals` places (stable, readable output). */
cJSON *rules_json_add_number(cJSON *obj, const char *key, double value, int decimals);

/* Snapshot from parsed JSON. `name` (the file) prefixes errors. Caller frees. */
rules_snapshot *rules_json_to_snapshot(const cJSON *root, const char *name, rules_error *err);
rules_snapshot *rules_json_load_snapshot(const char *path, rules_error *err);
/* Snapshot to JSON (positions to 0.001 mm). Caller frees with cJSON_Delete. */
cJSON *rules_json_from_snapshot(const rules_snapshot *s);
int rules_json_save_snapshot(const rules_snapshot *s, const char *path, rules_error *err);

/* A ruleset from a name or an override object ({"name": "...", "unit_spacing_in": 0.5}). */
int rules_json_to_ruleset(const cJSON *item, const char *where, rules_ruleset *out, rules_error *err);
/* A ruleset as JSON: its name when it is a built-in one unchanged, else the override object. */
cJSON *rules_json_from_ruleset(const rules_ruleset *rs);

/* The member `key` of `obj`; NULL when obj is not an object or has no such key. */
const cJSON *rules_json_field(const cJSON *obj, const char *key);

#endif
