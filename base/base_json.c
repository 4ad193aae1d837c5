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

/* The first key given twice in any object of the tree (depth first, file order): "where.key" into path. */
static bool find_twice(const cJSON *node, char *path, size_t cap, size_t len)
{
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return false;
    int index = 0;
    for (const cJSON *it = node->child; it; it = it->next, index++) {
        int n = cJSON_IsObject(node) ? snprintf(path + len, cap - len, "%s%s", len ? "." : "", it->string ? it->string : "")
                                     : snprintf(path + len, cap - len, "[%d]", index);
        size_t at = n < 0 ? len : len + (size_t)n < cap ? len + (size_t)n : cap - 1;
        if (cJSON_IsObject(node))
            for (const cJSON *before = node->child; before != it; before = before->next)
                if (before->string && it->string && strcmp(before->string, it->string) == 0)
                    return true;
        if (find_twice(it, path, cap, at))
            return true;
        path[len] = '\0';
    }
    return false;
}

cJSON *base_json_parse_bytes(const char *text, size_t len, const char *name, base_error *err)
{
    int line, col;
    /* A NUL ends cJSON's reading: what follows it would be ignored without a word. */
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        line_col(text, nul, &line, &col);
        base_error_setc(err, BASE_E_INVALID, "%s: a NUL byte at byte offset %zu (line %d, column %d): not JSON text",
                        name, (size_t)(nul - text), line, col);
        return NULL;
    }
    /* JSON is UTF-8 (RFC 8259) and cJSON does not check it: a name with an invalid byte would be
     * written back as a file that is not JSON, and Pango warns on it. */
    size_t good = base_text_valid_prefix(text, len);
    if (good < len) {
        line_col(text, text + good, &line, &col);
        base_error_setc(err, BASE_E_INVALID, "%s: not valid UTF-8 at byte offset %zu (line %d, column %d, byte 0x%02x)",
                        name, good, line, col, (unsigned char)text[good]);
        return NULL;
    }
    if (len == 0 || text[strspn(text, " \t\r\n")] == '\0') {
        base_error_setc(err, BASE_E_INVALID, "%s: empty file, expected a JSON object", name);
        return NULL;
    }
    /* text[len] is the NUL that ends it: with it counted, cJSON refuses anything after the value. */
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, true);
    if (!root) {
        line_col(text, end ? end : cJSON_GetErrorPtr(), &line, &col);
        base_error_setc(err, BASE_E_INVALID, "%s: malformed JSON at line %d, column %d", name, line, col);
        return NULL;
    }
    char path[512] = "";
    if (find_twice(root, path, sizeof path, 0)) {
        /* JSON readers disagree on which copy wins: the file means two things. */
        base_error_setc(err, BASE_E_INVALID, "%s: %s: given twice", name, path);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

cJSON *base_json_parse_string(const char *text, const char *name, base_error *err)
{
    return base_json_parse_bytes(text, strlen(text), name, err);
}

cJSON *base_json_parse_file(const char *path, base_error *err)
{
    if (err)
        err->msg[0] = '\0';
    char *text;
    size_t len;
    /* A snapshot is kilobytes; the cap refuses a disk image, the check a FIFO. */
    if (base_file_read_all(path, BASE_FILE_MAX_BYTES, "a JSON file", &text, &len, err) < 0)
        return NULL;
    cJSON *root = base_json_parse_bytes(text, len, path, err);
    free(text);
    return root;
}

char *base_json_print(const cJSON *root, bool formatted)
{
    char *raw = formatted ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
    if (!raw)
        return NULL;
    char *text = base_text_escape_json(raw);
    cJSON_free(raw);
    return text;
}

int base_json_write_file(const cJSON *root, const char *path, base_error *err)
{
    char *text = base_json_print(root, true);
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
