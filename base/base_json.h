/*
 * base_json: reading and writing JSON files, and the field readers every
 * tableref JSON format (snapshot, roster, calibration, report, table file,
 * scene) shares, over cJSON.
 *
 * Readers name the file and the field in every error ("after.json:
 * units[1].base_mm[0]: expected a finite number"); nothing here prints or
 * exits. Range, unknown-key and unique-id checks are base_fields'. A file is
 * read whole: a NUL byte, an invalid UTF-8 sequence or a key given twice
 * anywhere in it is an error before any reader sees it.
 *
 * How to use:
 *   base_error err;
 *   cJSON *root = base_json_parse_file("roster.json", &err);   // NULL: err says why
 *   double w;
 *   if (base_json_number(root, "width_mm", "board", true, &w, &err) < 0) ...
 *   base_json_write_file(root, "copy.json", &err);
 *   cJSON_Delete(root);
 */
#ifndef BASE_JSON_H
#define BASE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "base_error.h"

/*
 * Parses a whole file, all of it: a NUL byte anywhere (cJSON would stop there and take what came
 * before) or an invalid UTF-8 sequence is an error naming its byte offset, line and column; so is
 * a key given twice in one object (readers disagree on which copy wins), naming its place
 * ("units[2].id: given twice"). Errors are BASE_E_INVALID naming the file, line and column.
 * Caller frees with cJSON_Delete.
 */
cJSON *base_json_parse_file(const char *path, base_error *err);
/* The same for the len bytes at text, which must have a NUL at text[len]; `name` is used in errors
 * in place of a file name. */
cJSON *base_json_parse_bytes(const char *text, size_t len, const char *name, base_error *err);
/* The same for a NUL-terminated string. */
cJSON *base_json_parse_string(const char *text, const char *name, base_error *err);
/* `root` as text (pretty-printed or on one line) with DEL and the C1 controls written as \u
 * escapes (base_text_escape_json): what every JSON tableref writes goes through here. Caller
 * frees; NULL when out of memory. */
char *base_json_print(const cJSON *root, bool formatted);
/* Writes `root` pretty-printed with a trailing newline; "-" means stdout. */
int base_json_write_file(const cJSON *root, const char *path, base_error *err);

/*
 * Field readers. `where` is the path of `obj` for messages ("units[2]").
 * With required == false a missing field leaves *out untouched and returns 0;
 * a present field of the wrong type is always an error.
 */
int base_json_number(const cJSON *obj, const char *key, const char *where, bool required,
                      double *out, base_error *err);
int base_json_int(const cJSON *obj, const char *key, const char *where, bool required,
                   int *out, base_error *err);
int base_json_bool(const cJSON *obj, const char *key, const char *where, bool required,
                    bool *out, base_error *err);
/* Copies a string of at most cap-1 bytes; longer is an error. */
int base_json_string(const cJSON *obj, const char *key, const char *where, bool required,
                      char *out, size_t cap, base_error *err);
/* A JSON array of exactly n finite numbers. */
int base_json_numbers(const cJSON *obj, const char *key, const char *where, bool required,
                       double *out, size_t n, base_error *err);
/* The array at `key` (or NULL when absent and not required; sets err when wrong type). */
const cJSON *base_json_array(const cJSON *obj, const char *key, const char *where, bool required,
                              base_error *err);
const cJSON *base_json_object(const cJSON *obj, const char *key, const char *where, bool required,
                               base_error *err);
/* Adds a number rounded to `decimals` places (stable, readable output). */
cJSON *base_json_add_number(cJSON *obj, const char *key, double value, int decimals);

/* The member `key` of `obj`; NULL when obj is not an object or has no such key. */
const cJSON *base_json_field(const cJSON *obj, const char *key);

#endif
