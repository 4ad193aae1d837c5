/*
 * army_text: New Recruit's text export, the way most T9A lists circulate:
 *
 *   Orcs and Goblins                          (or "Player (alias) - Army")
 *   560 - Goblin Witch, General (Darrmu), Light Troops, Wizard Master, ...
 *   313 - 15 Goblin Reavers, Lance and Shield, Standard Bearer (Goga Cauldron)
 *   3998                                      (the total)
 *
 * A unit line is "COST - [COUNT[x]] NAME, OPTION, OPTION (DETAIL), ...". A
 * count is written only when the unit has more than one model ("15 Goblin
 * Reavers", "27x Goblin Rabble"); "3 x 10 Corsairs" is three units of ten.
 * A line that starts with neither a cost nor a total continues the unit
 * above (lists copied out of PDFs break lines anywhere). Several lists in one
 * text are told apart by their headers. Typographic quotes and dashes are
 * read as ASCII.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army_list.h"
#include "base_text.h"
#include "army_read.h"

typedef struct text_unit {
    size_t army;
    int line;
    char body[1024];
} text_unit;

/* ASCII dashes for en/em dashes and minus signs, trimmed. */
static void clean_line(const char *in, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < cap; i++) {
        const unsigned char *p = (const unsigned char *)in + i;
        if (p[0] == 0xE2 && i + 2 < len && p[1] == 0x80 && (p[2] == 0x93 || p[2] == 0x94)) {
            out[n++] = '-';
            i += 2;
        } else if (p[0] == '\r' || p[0] == '\t') {
            out[n++] = ' ';
        } else {
            out[n++] = (char)p[0];
        }
    }
    out[n] = '\0';
    base_text_trim_cut(out); /* a line longer than the buffer is cut between characters, never inside one */
    n = strlen(out);
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    size_t s = 0;
    while (out[s] == ' ')
        s++;
    memmove(out, out + s, n - s + 1);
}

/* "560 - body": 1 with *body set. */
static int unit_line(const char *s, const char **body)
{
    const char *p = s;
    if (!isdigit((unsigned char)*p))
        return 0;
    while (isdigit((unsigned char)*p))
        p++;
    while (*p == ' ')
        p++;
    if (*p != '-')
        return 0;
    p++;
    while (*p == ' ')
        p++;
    if (!*p)
        return 0;
    *body = p;
    return 1;
}

/* "3998" or "3998 pts": 1 with *points set. */
static int total_line(const char *s, int *points)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0 || v > 100000)
        return 0;
    while (*end == ' ')
        end++;
    if (*end && strcmp(end, "pts") != 0 && strcmp(end, "points") != 0 && strcmp(end, "pts.") != 0)
        return 0;
    *points = (int)v;
    return 1;
}

/* "Simon (Sparta) - Undying Dynasties": the army after the last " - ", the player before it. */
static void header(army_list *a, const char *s)
{
    const char *dash = NULL;
    for (const char *p = strstr(s, " - "); p; p = strstr(p + 1, " - "))
        dash = p;
    if (dash) {
        army_span_copy(a->name, sizeof a->name < 96 ? sizeof a->name : 96, dash + 3, strlen(dash + 3));
        army_span_copy(a->player, sizeof a->player < 96 ? sizeof a->player : 96, s, (size_t)(dash - s));
    } else {
        army_span_copy(a->name, sizeof a->name < 96 ? sizeof a->name : 96, s, strlen(s));
    }
}

/* Reads a leading count: "15 ", "27x ", "27 x ". Returns the text after it, or `s` when there is none. */
static const char *leading_count(const char *s, int *count)
{
    const char *p = s;
    if (!isdigit((unsigned char)*p))
        return s;
    long v = 0;
    while (isdigit((unsigned char)*p)) { /* saturating: "99999999999999999999 Goblins" is out of range, not wrapped */
        v = v > ARMY_MAX_MODELS ? v : v * 10 + (*p - '0');
        p++;
    }
    const char *q = p;
    while (*q == ' ')
        q++;
    if (*q == 'x' || *q == 'X') {
        q++;
        if (*q != ' ' && !isdigit((unsigned char)*q) && *q != '\0' && q - p > 1)
            return s;
        while (*q == ' ')
            q++;
    } else if (q == p) {
        return s; /* "2nd Legion": a name that starts with digits */
    }
    if (!*q)
        return s;
    *count = v < 1 || v > ARMY_MAX_MODELS ? -1 : (int)v; /* -1: a count out of range, refused by the caller */
    return q;
}

static int build_unit(army_file *f, const text_unit *t, const char *name, base_error *err)
{
    army_list *a = &f->armies[t->army];
    const char *p = t->body;
    int count = 0, units = 1;
    p = leading_count(p, &count);
    if (count > 0 && isdigit((unsigned char)*p)) {
        int per = 0;
        const char *q = leading_count(p, &per);
        if (per != 0 && q != p) {
            units = count; /* "3 x 10 Corsairs" */
            count = per;
            p = q;
        }
    }
    if (count < 0)
        return base_error_set(err, "%s: line %d: a model count out of range (1..%d)", name, t->line, ARMY_MAX_MODELS);
    if (a->n_units + (size_t)units > ARMY_MAX_UNITS)
        return base_error_set(err, "%s: line %d: more than %d units: not an army list", name, t->line, ARMY_MAX_UNITS);
    /* The name runs to the first comma outside brackets. */
    int depth = 0;
    const char *e = p;
    for (; *e && !(*e == ',' && depth == 0); e++)
        depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
    char uname[ARMY_NAME_MAX];
    army_span_copy(uname, sizeof uname, p, (size_t)(e - p));
    size_t n = strlen(uname);
    while (n && uname[n - 1] == ' ')
        uname[--n] = '\0';
    if (!uname[0])
        return base_error_set(err, "%s: line %d: a unit line without a unit name", name, t->line);
    for (int k = 0; k < units; k++) {
        army_unit *u = army_list_add_unit(a, uname);
        if (!u || !army_unit_add_group(u, uname, count > 0 ? count : 1))
            return base_error_set(err, "%s: out of memory", name);
        snprintf(u->where, sizeof u->where, "line %d", t->line);
        army_name_copy(u->options, sizeof u->options, *e == ',' ? e + 1 : "");
        u->models = count > 0 ? count : 1;
        army_unit_update_missing(u);
    }
    return 0;
}

/* Where reading a text has got to. */
typedef struct text_reader {
    army_file *f;
    const char *name;
    base_error *err;
    text_unit *units;
    size_t n_units;
    army_list *cur;  /* the list being read */
    int finished;    /* its total line was read */
    int line_no;
} text_reader;

static int add_unit_line(text_reader *r, const char *body)
{
    if (!r->cur && !(r->cur = army_file_add_army(r->f, "")))
        return base_error_set(r->err, "%s: out of memory", r->name);
    if (r->n_units >= ARMY_MAX_UNITS)
        return base_error_set(r->err, "%s: line %d: more than %d units: not an army list", r->name, r->line_no,
                              ARMY_MAX_UNITS);
    text_unit *t = army_grow(r->units, r->n_units, sizeof *t);
    if (!t)
        return base_error_set(r->err, "%s: out of memory", r->name);
    r->units = t;
    t = &r->units[r->n_units++];
    t->army = r->f->n_armies - 1;
    t->line = r->line_no;
    army_name_copy(t->body, sizeof t->body, body);
    r->finished = 0;
    return 0;
}

static int read_line(text_reader *r, const char *line)
{
    const char *body;
    int points;
    bool cur_has_units = r->n_units > 0 && r->units[r->n_units - 1].army == r->f->n_armies - 1;
    if (!line[0])
        return 0;
    if (unit_line(line, &body))
        return add_unit_line(r, body);
    if (r->cur && !r->finished && total_line(line, &points)) {
        r->cur->points = points;
        r->finished = 1;
    } else if (r->cur && !r->finished && cur_has_units) {
        /* A unit line broken in two: join it back. */
        text_unit *t = &r->units[r->n_units - 1];
        size_t used = strlen(t->body);
        snprintf(t->body + used, sizeof t->body - used, " %s", line);
        base_text_trim_cut(t->body);
    } else {
        /* A header. One after another header with no units between them replaces it (a title, a
         * comment; the last line before the units names the list): memory stays bounded by the units. */
        if ((!r->cur || cur_has_units) && !(r->cur = army_file_add_army(r->f, "")))
            return base_error_set(r->err, "%s: out of memory", r->name);
        memset(r->cur->name, 0, sizeof r->cur->name);
        memset(r->cur->player, 0, sizeof r->cur->player);
        header(r->cur, line);
        r->finished = 0;
    }
    return 0;
}

/* Headers with no units after them (a title, a comment) are dropped. */
static void drop_empty_armies(army_file *f, size_t first_army)
{
    size_t w = first_army;
    for (size_t a = first_army; a < f->n_armies; a++) {
        if (f->armies[a].n_units == 0) {
            free(f->armies[a].units);
            continue;
        }
        f->armies[w++] = f->armies[a];
    }
    f->n_armies = w;
}

int army_read_text(const char *text, const char *name, army_file *f, base_error *err)
{
    text_reader r = {.f = f, .name = name, .err = err, .finished = 1};
    size_t first_army = f->n_armies, line_cap = 0;
    char *line = NULL; /* as long as the longest line: a header is never cut before its " - Army" */
    int rc = 0;
    for (const char *s = text; *s && rc == 0;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len + 1 > line_cap) {
            char *grown = realloc(line, len + 1);
            if (!grown) {
                rc = base_error_set(err, "%s: out of memory", name);
                break;
            }
            line = grown, line_cap = len + 1;
        }
        clean_line(s, len, line, line_cap);
        s += len + (nl ? 1 : 0);
        r.line_no++;
        rc = read_line(&r, line);
    }
    free(line);
    for (size_t i = 0; i < r.n_units && rc == 0; i++)
        rc = build_unit(f, &r.units[i], name, err);
    free(r.units);
    if (rc < 0)
        return -1;
    drop_empty_armies(f, first_army);
    if (f->n_armies == first_army)
        return base_error_set(err, "%s: no unit lines (\"COST - UNIT, OPTIONS\") found: not a New Recruit list", name);
    return 0;
}
