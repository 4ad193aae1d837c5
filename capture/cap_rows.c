/* cap_rows: the table of sources, its lookup and its help (cap_rows.h). */
#include "cap_rows.h"

#include <stdio.h>
#include <string.h>

/* Rows a layer above registers at its start: a handful (the simulator's, a test's). */
#define CAP_ROWS_REGISTERED_MAX 16

static const cap_row *registered[CAP_ROWS_REGISTERED_MAX];
static size_t n_registered;

void cap_source_config_default(cap_source_config *c)
{
    memset(c, 0, sizeof *c);
    c->fps = 5;
    c->timeout_ms = 3000;
    c->sim_light = -1;
}

int cap_rows_has_scheme(const char *source, const char *scheme)
{
    size_t n = strlen(scheme);
    return strncmp(source, scheme, n) == 0 && source[n] == ':';
}

static size_t n_builtin(void)
{
    size_t n = 0;
    while (cap_rows_builtin[n])
        n++;
    return n;
}

size_t cap_rows_count(void) { return n_builtin() + n_registered; }

const cap_row *cap_rows_at(size_t i)
{
    size_t nb = n_builtin();
    return i < nb ? cap_rows_builtin[i] : i - nb < n_registered ? registered[i - nb] : NULL;
}

/* A row with a scheme that takes the source ("SCHEME:..." or its claims), in table then registration order. */
static const cap_row *find_scheme_row(const char *source)
{
    for (size_t i = 0; i < cap_rows_count(); i++) {
        const cap_row *r = cap_rows_at(i);
        if (r->scheme && (cap_rows_has_scheme(source, r->scheme) || (r->claims && r->claims(source))))
            return r;
    }
    return NULL;
}

/* A row without a scheme whose claims take it: registered ones first (a layer above may be more particular
 * than "any other file is a video"), then the built-in ones in table order. `paths`: also rows of paths,
 * whose claims may look at the disk. */
static const cap_row *find_plain_row(const char *source, bool paths)
{
    for (size_t k = 0; k < cap_rows_count(); k++) {
        const cap_row *r = k < n_registered ? registered[k] : cap_rows_builtin[k - n_registered];
        if (!r->scheme && r->claims && (paths || r->arg != CAP_ARG_PATH) && r->claims(source))
            return r;
    }
    return NULL;
}

const cap_row *cap_rows_find(const char *source)
{
    const cap_row *r = find_scheme_row(source);
    return r ? r : find_plain_row(source, true);
}

cap_arg cap_rows_arg(const char *source, const char **arg)
{
    const cap_row *r = find_scheme_row(source);
    if (arg)
        *arg = r && cap_rows_has_scheme(source, r->scheme) ? source + strlen(r->scheme) + 1 : source;
    if (!r)
        r = find_plain_row(source, false);
    return r ? r->arg : CAP_ARG_PATH;
}

int cap_rows_register(const cap_row *row, base_error *err)
{
    for (size_t i = 0; i < cap_rows_count(); i++) {
        const cap_row *r = cap_rows_at(i);
        if (r == row)
            return 0;
        if (row->scheme && r->scheme && strcmp(row->scheme, r->scheme) == 0)
            return base_error_set(err, "source row %s: the scheme %s: is row %s's", row->name, row->scheme,
                                  r->name);
    }
    if (!row->open || (!row->scheme && !row->claims))
        return base_error_set(err, "source row %s: needs an open and a scheme or a claims function",
                              row->name ? row->name : "?");
    if (n_registered == CAP_ROWS_REGISTERED_MAX)
        return base_error_setc(err, BASE_E_TOO_LARGE, "source row %s: the table holds %d registered rows at most",
                               row->name, CAP_ROWS_REGISTERED_MAX);
    registered[n_registered++] = row;
    return 0;
}

/* Appends to buf at *used, never past cap (the text is cut at the end, still terminated). */
static void add(char *buf, size_t cap, size_t *used, const char *text, size_t n)
{
    if (*used + 1 >= cap)
        return;
    size_t room = cap - 1 - *used;
    size_t k = n < room ? n : room;
    memcpy(buf + *used, text, k);
    *used += k;
    buf[*used] = '\0';
}

size_t cap_rows_help(char *buf, size_t cap, const char *indent)
{
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    for (size_t i = 0; i < cap_rows_count(); i++) {
        const cap_row *r = cap_rows_at(i);
        add(buf, cap, &used, indent, strlen(indent));
        add(buf, cap, &used, r->usage, strlen(r->usage));
        add(buf, cap, &used, "  ", 2);
        /* about's further lines stand under it, 6 columns in. */
        for (const char *p = r->about;;) {
            const char *nl = strchr(p, '\n');
            add(buf, cap, &used, p, nl ? (size_t)(nl - p) : strlen(p));
            add(buf, cap, &used, "\n", 1);
            if (!nl)
                break;
            add(buf, cap, &used, indent, strlen(indent));
            add(buf, cap, &used, "      ", 6);
            p = nl + 1;
        }
    }
    return used;
}

size_t cap_rows_usages(char *buf, size_t cap, size_t first, size_t width)
{
    size_t used = 0, column = first;
    if (cap)
        buf[0] = '\0';
    for (size_t i = 0; i < cap_rows_count(); i++) {
        const char *u = cap_rows_at(i)->usage;
        size_t n = strlen(u) + (i + 1 < cap_rows_count() ? 1 : 0); /* with its comma */
        if (i) {
            add(buf, cap, &used, column + 1 + n > width ? "\n" : " ", 1);
            column = column + 1 + n > width ? 0 : column + 1;
        }
        add(buf, cap, &used, u, strlen(u));
        if (i + 1 < cap_rows_count())
            add(buf, cap, &used, ",", 1);
        column += n;
    }
    return used;
}
