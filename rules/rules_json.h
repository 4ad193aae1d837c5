/*
 * rules_json: the snapshot's and the ruleset's JSON forms (the field
 * readers every format shares are base_json's).
 *
 * The formats are documented in docs/formats.md. Readers name the file and
 * the field in every error ("after.json: units[1].base_mm[0]: expected a
 * finite number"); nothing here prints or exits.
 *
 * How to use:
 *   base_error err;
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

#include "base_error.h"
#include "base_json.h"
#include "rules_snapshot.h"

/* Snapshot from parsed JSON. `name` (the file) prefixes errors. Caller frees. */
rules_snapshot *rules_json_to_snapshot(const cJSON *root, const char *name, base_error *err);
rules_snapshot *rules_json_load_snapshot(const char *path, base_error *err);
/* Snapshot to JSON (positions to 0.001 mm). Caller frees with cJSON_Delete. */
cJSON *rules_json_from_snapshot(const rules_snapshot *s);
int rules_json_save_snapshot(const rules_snapshot *s, const char *path, base_error *err);

/* A new JSON document (caller frees) that opens as every tableref file does: {"format": format, "version": version}. */
cJSON *rules_json_document(const char *format, int version);

/* A ruleset from a name or an override object ({"name": "...", "unit_spacing_in": 0.5}). */
int rules_json_to_ruleset(const cJSON *item, const char *where, rules_ruleset *out, base_error *err);
/* A ruleset as JSON: its name when it is a built-in one unchanged, else the override object. */
cJSON *rules_json_from_ruleset(const rules_ruleset *rs);

#endif
