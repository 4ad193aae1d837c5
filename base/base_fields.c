#include "base_fields.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base_json.h"

/* ---- known keys ------------------------------------------------------------ */

/* Optimal-string-alignment distance (a swap of two neighbours costs 1), case-insensitive; capped inputs. */
static int distance(const char *a, const char *b)
{
    enum { CAP = 64 };
    size_t n = strlen(a), m = strlen(b);
    if (n >= CAP || m >= CAP)
        return CAP;
    int d[CAP + 1][CAP + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

/* One is the other plus a suffix or prefix ("march" for "march_in", "x" is too short to tell). */
static bool affix_of(const char *word, const char *key)
{
    size_t n = strlen(word), m = strlen(key);
    if (n < 3 || m < 3 || n == m)
        return false;
    const char *s = n < m ? word : key, *l = n < m ? key : word;
    size_t ls = strlen(s), ll = strlen(l);
    return strncasecmp(s, l, ls) == 0 || strcasecmp(s, l + ll - ls) == 0;
}

int base_fields_closest(const char *word, const char *const *known)
{
    int best = -1, best_score = 1 << 20;
    for (int i = 0; known[i]; i++) {
        int d = distance(word, known[i]);
        int limit = (int)strlen(known[i]) / 3;
        if (limit < 2)
            limit = strlen(known[i]) <= 3 ? 1 : 2;
        /* A key the word begins or ends ("march" of "march_in") is likelier meant than one merely near ("marks"). */
        const bool affix = affix_of(word, known[i]), close = d <= limit || affix;
        if (!affix)
            d += 1000;
        if (close && d < best_score) {
            best = i;
            best_score = d;
        }
    }
    return best;
}

static int unknown_key(const char *where, const char *key, const char *const *known, base_error *err)
{
    const char *dot = *where ? "." : "";
    int near = base_fields_closest(key, known);
    if (near >= 0)
        return base_error_set(err, "%s%s%s: unknown field; did you mean \"%s\"?", where, dot, key, known[near]);
    char list[300] = "";
    size_t used = 0;
    for (int i = 0; known[i] && used < sizeof list - 8; i++) {
        int k = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", known[i]);
        used += k > 0 ? (size_t)k : 0;
    }
    if (used >= sizeof list - 8)
        snprintf(list + sizeof list - 8, 8, ", ...");
    return base_error_set(err, "%s%s%s: unknown field (this object takes: %s)", where, dot, key, list);
}

/* A bit of cJSON's type word no cJSON type uses (they stop at 1 << 9, and type tests mask with 0xFF): an object
 * whose keys a reader checked. */
#define CHECKED_BIT (1 << 12)

static void mark_checked(const cJSON *obj)
{
    ((cJSON *)obj)->type |= CHECKED_BIT; /* bookkeeping on the reader's tree, not its content */
}

void base_fields_names(const cJSON *obj)
{
    if (cJSON_IsObject(obj))
        mark_checked(obj);
}

/* The first object under node no reader checked, its place into path; false when there is none. */
static bool find_unchecked(const cJSON *node, char *path, size_t cap, size_t len)
{
    if (cJSON_IsObject(node) && !(node->type & CHECKED_BIT))
        return true;
    int index = 0;
    for (const cJSON *it = node->child; it && (cJSON_IsObject(node) || cJSON_IsArray(node)); it = it->next, index++) {
        if (cJSON_IsObject(node) && it->string && it->string[0] == '_')
            continue; /* a comment, whatever it holds */
        int n = cJSON_IsObject(node) ? snprintf(path + len, cap - len, "%s%s", len ? "." : "", it->string ? it->string : "")
                                     : snprintf(path + len, cap - len, "[%d]", index);
        size_t at = n < 0 ? len : len + (size_t)n < cap ? len + (size_t)n : cap - 1;
        if (find_unchecked(it, path, cap, at))
            return true;
        path[len] = '\0';
    }
    return false;
}

void base_fields_checked_as(const cJSON *copy, const cJSON *orig)
{
    if (!copy || !orig)
        return;
    if ((copy->type & CHECKED_BIT) && cJSON_IsObject(orig))
        mark_checked(orig);
    for (const cJSON *a = copy->child, *b = orig->child; a && b; a = a->next, b = b->next)
        base_fields_checked_as(a, b);
}

int base_fields_all_checked(const cJSON *root, const char *name, base_error *err)
{
    char path[512] = "";
    if (!find_unchecked(root, path, sizeof path, 0))
        return 0;
    return base_error_setc(err, BASE_E_INVALID,
                           "%s%s%s: not read (tableref reads nothing of this object: its fields would be ignored)",
                           name ? name : "", name && *name ? ": " : "", path[0] ? path : "(the whole file)");
}

int base_fields_known(const cJSON *obj, const char *where, const char *const *known, base_error *err)
{
    if (!cJSON_IsObject(obj))
        return 0;
    mark_checked(obj);
    size_t n_known = 0;
    while (known[n_known])
        n_known++;
    if (n_known > BASE_FIELDS_MAX_KEYS)
        return base_error_set(err, "%s: internal error: key table longer than %d", where, BASE_FIELDS_MAX_KEYS);
    unsigned char seen[BASE_FIELDS_MAX_KEYS] = {0};
    const cJSON *it;
    cJSON_ArrayForEach(it, obj)
    {
        const char *key = it->string ? it->string : "";
        if (key[0] == '_')
            continue;
        size_t k = 0;
        while (k < n_known && strcmp(known[k], key) != 0)
            k++;
        if (k == n_known)
            return unknown_key(where, key, known, err);
        if (seen[k]++)
            return base_error_set(err, "%s%s%s: given twice", where, *where ? "." : "", key);
    }
    return 0;
}

/* ---- ranges ---------------------------------------------------------------- */

static int out_of_range(const char *where, const char *key, double v, double min, double max, base_error *err)
{
    return base_error_set(err, "%s%s%s: %g is out of range (%g to %g)", where, *where ? "." : "", key, v, min, max);
}

int base_fields_number(const cJSON *obj, const char *key, const char *where, bool required, double min, double max,
                        double *out, base_error *err)
{
    double v = NAN;
    if (base_json_number(obj, key, where, required, &v, err) < 0)
        return -1;
    if (isnan(v))
        return 0; /* absent and optional */
    if (v < min || v > max)
        return out_of_range(where, key, v, min, max, err);
    *out = v;
    return 0;
}

int base_fields_int(const cJSON *obj, const char *key, const char *where, bool required, int min, int max, int *out,
                     base_error *err)
{
    const cJSON *it = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!it && !required)
        return 0;
    int v = 0;
    if (base_json_int(obj, key, where, required, &v, err) < 0)
        return -1;
    if (v < min || v > max)
        return out_of_range(where, key, v, min, max, err);
    *out = v;
    return 0;
}

/* ---- unique ids ------------------------------------------------------------ */

static int by_text_then_order(const void *pa, const void *pb)
{
    const base_fields_id *a = pa, *b = pb;
    int c = strcmp(a->text, b->text);
    if (c)
        return c;
    return (a->order > b->order) - (a->order < b->order);
}

static int by_number_then_order(const void *pa, const void *pb)
{
    const base_fields_id *a = pa, *b = pb;
    if (a->number != b->number)
        return a->number < b->number ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

bool base_fields_duplicate(base_fields_id *ids, size_t n, bool by_text, size_t *first, size_t *second)
{
    if (n < 2)
        return false;
    qsort(ids, n, sizeof *ids, by_text ? by_text_then_order : by_number_then_order);
    bool found = false;
    for (size_t i = 1; i < n; i++) {
        bool same = by_text ? strcmp(ids[i].text, ids[i - 1].text) == 0 : ids[i].number == ids[i - 1].number;
        /* Only the first two places of each run: the run starts where the id changes. */
        if (!same || (i >= 2 && (by_text ? strcmp(ids[i].text, ids[i - 2].text) == 0
                                         : ids[i].number == ids[i - 2].number)))
            continue;
        if (!found || ids[i].order < *second) {
            *first = ids[i - 1].order;
            *second = ids[i].order;
            found = true;
        }
    }
    return found;
}
