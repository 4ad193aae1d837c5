#include "base_json.h"

#include "base_file.h"
#include "base_text.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* Line and column (from 1) of the byte at `at` in text. */
static void line_col(const char *text, const char *at, int *line, int *col)
{
    *line = 1, *col = 1;
    for (const char *p = text; at && p < at && *p; p++) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

cJSON *base_json_parse_string(const char *text, const char *name, base_error *err)
{
    int line, col;
    /* JSON is UTF-8 (RFC 8259) and cJSON does not check it: a name with an invalid byte would be
     * written back as a file that is not JSON, and Pango warns on it. */
    size_t len = strlen(text), good = base_text_valid_prefix(text, len);
    if (good < len) {
        line_col(text, text + good, &line, &col);
        base_error_set(err, "%s: not valid UTF-8 at line %d, column %d (byte 0x%02x)", name, line, col,
                       (unsigned char)text[good]);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, true);
    if (!root) {
        line_col(text, end ? end : cJSON_GetErrorPtr(), &line, &col);
        if (!*text)
            base_error_set(err, "%s: empty file, expected a JSON object", name);
        else
            base_error_set(err, "%s: malformed JSON at line %d, column %d", name, line, col);
    }
    return root;
}

cJSON *base_json_parse_file(const char *path, base_error *err)
{
    if (err)
        err->msg[0] = '\0';
    char *text;
    /* A snapshot is kilobytes; the cap refuses a disk image, the check a FIFO. */
    if (base_file_read_all(path, BASE_FILE_MAX_BYTES, "a JSON file", &text, NULL, err) < 0)
        return NULL;
    if (strlen(text) == 0) {
        free(text);
        base_error_set(err, "%s: empty file, expected a JSON object", path);
        return NULL;
    }
    cJSON *root = base_json_parse_string(text, path, err);
    free(text);
    return root;
}

int base_json_write_file(const cJSON *root, const char *path, base_error *err)
{
    char *text = cJSON_Print(root);
    if (!text)
        return base_error_setc(err, BASE_E_NOMEM, "%s: out of memory while formatting JSON", path);
    int rc = 0;
    if (strcmp(path, "-") == 0) {
        bool ok = fputs(text, stdout) >= 0 && fputc('\n', stdout) != EOF;
        if (fflush(stdout) != 0 || !ok)
            rc = base_error_setc(err, BASE_E_IO, "%s: write failed: %s", path, strerror(errno));
    } else {
        /* A temporary file renamed over the target: never half a file, never through a link,
         * never onto a file this command read. */
        base_file_writer *w = base_file_writer_open(path, NULL, err);
        if (!w)
            rc = -1;
        else if (base_file_writer_write(w, text, strlen(text)) < 0 || base_file_writer_write(w, "\n", 1) < 0)
            rc = base_file_writer_commit(w, err); /* reports the write error, removes the tmp */
        else
            rc = base_file_writer_commit(w, err);
    }
    free(text);
    return rc;
}

const cJSON *base_json_field(const cJSON *obj, const char *key)
{
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static const cJSON *field(const cJSON *obj, const char *key)
{
    return base_json_field(obj, key);
}

static int missing(const char *where, const char *key, base_error *err)
{
    return base_error_set(err, "%s%s%s: missing required field", where, *where ? "." : "", key);
}

static int wrong(const char *where, const char *key, const char *expected, base_error *err)
{
    return base_error_set(err, "%s%s%s: expected %s", where, *where ? "." : "", key, expected);
}

int base_json_number(const cJSON *obj, const char *key, const char *where, bool required,
                      double *out, base_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return wrong(where, key, "a finite number", err);
    *out = it->valuedouble;
    return 0;
}

int base_json_int(const cJSON *obj, const char *key, const char *where, bool required, int *out,
                   base_error *err)
{
    double v = 0;
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (base_json_number(obj, key, where, required, &v, err) < 0)
        return -1;
    if (v != floor(v) || fabs(v) > 1e9)
        return wrong(where, key, "a whole number", err);
    *out = (int)v;
    return 0;
}

int base_json_bool(const cJSON *obj, const char *key, const char *where, bool required, bool *out,
                    base_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsBool(it))
        return wrong(where, key, "true or false", err);
    *out = cJSON_IsTrue(it);
    return 0;
}

int base_json_string(const cJSON *obj, const char *key, const char *where, bool required, char *out,
                      size_t cap, base_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsString(it) || !it->valuestring)
        return wrong(where, key, "a string", err);
    size_t n = strlen(it->valuestring);
    if (n >= cap)
        return base_error_set(err, "%s%s%s: longer than %zu characters", where, *where ? "." : "", key,
                               cap - 1);
    memcpy(out, it->valuestring, n + 1);
    return 0;
}

int base_json_numbers(const cJSON *obj, const char *key, const char *where, bool required, double *out,
                       size_t n, base_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it)
        return required ? missing(where, key, err) : 0;
    if (!cJSON_IsArray(it) || (size_t)cJSON_GetArraySize(it) != n) {
        char what[64];
        snprintf(what, sizeof what, "an array of %zu numbers", n);
        return wrong(where, key, what, err);
    }
    size_t i = 0;
    const cJSON *el;
    cJSON_ArrayForEach(el, it)
    {
        if (!cJSON_IsNumber(el) || !isfinite(el->valuedouble))
            return base_error_set(err, "%s%s%s[%zu]: expected a finite number", where, *where ? "." : "",
                                   key, i);
        out[i++] = el->valuedouble;
    }
    return 0;
}

/* The member `key` when it is of the kind `is_kind` tests (named `kind` in the message); NULL when it is
 * absent (an error only when required) or of another kind. */
static const cJSON *typed_member(const cJSON *obj, const char *key, const char *where, bool required,
                                 cJSON_bool (*is_kind)(const cJSON *const), const char *kind, base_error *err)
{
    const cJSON *it = field(obj, key);
    if (!it) {
        if (required)
            missing(where, key, err);
        return NULL;
    }
    if (!is_kind(it)) {
        wrong(where, key, kind, err);
        return NULL;
    }
    return it;
}

const cJSON *base_json_array(const cJSON *obj, const char *key, const char *where, bool required,
                              base_error *err)
{
    return typed_member(obj, key, where, required, cJSON_IsArray, "an array", err);
}

const cJSON *base_json_object(const cJSON *obj, const char *key, const char *where, bool required,
                               base_error *err)
{
    return typed_member(obj, key, where, required, cJSON_IsObject, "an object", err);
}

cJSON *base_json_add_number(cJSON *obj, const char *key, double value, int decimals)
{
    double scale = pow(10.0, decimals);
    double r = round(value * scale) / scale;
    if (r == 0)
        r = 0; /* no "-0" in output */
    return cJSON_AddNumberToObject(obj, key, r);
}
