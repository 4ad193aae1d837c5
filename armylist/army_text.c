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
 * above (lists copied out of PDFs break lines anywhere) unless it names a
 * list. Several lists in one text (an organiser's pack) are told apart by
 * their headers ("Player - Army", an army's name, "Army: X"), and the other
 * layouts players write are read too (army_lines.h). A line that is not read
 * is said (army_file.said), never dropped. Typographic quotes and dashes are
 * read as ASCII.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "army_list.h"
#include "base_text.h"
#include "army_read.h"
#include "army_lines.h"

typedef struct text_unit {
    size_t army;
    int line, cost;
    const char *guess; /* a static phrase from army_lines, or NULL */
    char body[1024];
} text_unit;

/* ASCII dashes for en/em dashes, ASCII apostrophes, "King 's" as "King's", trimmed. */
static void clean_line(const char *in, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < cap; i++) {
        const unsigned char *p = (const unsigned char *)in + i;
        if (p[0] == 0xE2 && i + 2 < len && p[1] == 0x80 && (p[2] == 0x93 || p[2] == 0x94)) {
            out[n++] = '-';
            i += 2;
        } else if (p[0] == 0xE2 && i + 2 < len && p[1] == 0x80 && (p[2] == 0x98 || p[2] == 0x99)) {
            if (n && out[n - 1] == ' ' && i + 3 < len && (p[3] == 's' || p[3] == 'S') &&
                (i + 4 >= len || !isalpha(p[4])))
                n--; /* "King ’s Guard": the space a PDF put before the apostrophe */
            out[n++] = '\'';
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

/* A player's name as a header writes it, without the dash or colon a PDF left after it ("Jrock (Jared) NZ -"). */
static void player_copy(army_list *a, const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '-' || s[n - 1] == ':'))
        n--;
    army_span_copy(a->player, sizeof a->player, s, n);
}

/* The army's name: a T9A army named in the text is called as the data calls it ("List Empire of Sonnstahl",
 * "Vermin Swarm: Legio XII Fulminata"); else the text as written. */
static void army_copy(army_list *a, const char *s)
{
    const char *known = army_line_army(s);
    army_name_copy(a->name, sizeof a->name, known ? known : s);
}

/* The side of "A - B" that names an army, the other the player ("Dwarven Holds - Dik-Jan" reads too). */
static void header(army_list *a, const char *s)
{
    const char *dash = NULL;
    for (const char *p = strstr(s, " - "); p; p = strstr(p + 1, " - "))
        dash = p;
    const char *colon = strchr(s, ':');
    if (colon && !dash && !army_line_army(s)) { /* "Army: Wood Folk" */
        const char *v = colon + 1;
        while (*v == ' ')
            v++;
        army_name_copy(a->name, sizeof a->name, v);
        return;
    }
    if (!dash) {
        army_copy(a, s);
        return;
    }
    char left[ARMY_NAME_MAX];
    army_span_copy(left, sizeof left, s, (size_t)(dash - s));
    const char *right = dash + 3;
    bool swap = army_line_army(left) && !army_line_army(right);
    army_copy(a, swap ? left : right);
    player_copy(a, swap ? right : left, strlen(swap ? right : left));
}

/* Reads a leading count: "15 ", "27x ", "27 x ". Returns the text after it, or `s` when there is none. */
static const char *leading_count(const char *s, int *count, bool *glued)
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
        /* "2nd Legion": a name that starts with digits; "15Warriors": a count glued to its name, read and said */
        bool ordinal = (strncasecmp(p, "st", 2) == 0 || strncasecmp(p, "nd", 2) == 0 || strncasecmp(p, "rd", 2) == 0 ||
                        strncasecmp(p, "th", 2) == 0) && !isalpha((unsigned char)p[2]);
        if (ordinal || !isalpha((unsigned char)*p) || !glued)
            return s;
        *glued = true;
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
    bool glued = false;
    p = leading_count(p, &count, &glued);
    if (count > 0 && isdigit((unsigned char)*p)) {
        int per = 0;
        const char *q = leading_count(p, &per, NULL);
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
    /* The name runs to the first separator outside brackets: "," or, as players also write, ";" and ":". */
    int depth = 0;
    const char *e = p;
    for (; *e && !((*e == ',' || *e == ';' || *e == ':') && depth == 0); e++)
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
        army_name_copy(u->options, sizeof u->options, *e ? e + 1 : "");
        u->models = count > 0 ? count : 1;
        u->points = k == 0 ? t->cost : 0; /* "3 x 10 Corsairs" costs once for the three */
        u->points_units = k == 0 ? units : 0;
        if (glued)
            army_unit_say(u, "line %d: %d models read from \"%.*s\" (a count glued to the name)", t->line, count,
                          (int)base_text_cut(t->body, 40), t->body);
        if (t->guess)
            army_unit_say(u, "line %d: %s", t->line, t->guess);
        army_unit_update_missing(u);
    }
    return 0;
}

/* A line waiting to be read as a header or as the end of a broken unit line. */
typedef struct pending_line {
    int line;
    char *text;
} pending_line;

/* Where reading a text has got to. */
typedef struct text_reader {
    army_file *f;
    const char *name;
    base_error *err;
    text_unit *units;
    size_t n_units;
    army_list *cur;        /* the list being read */
    int finished;          /* its total line was read */
    int line_no;
    int gap;               /* a blank line since its last unit */
    pending_line pend[32]; /* lines since the last unit or total, not yet placed */
    size_t n_pend;
    int pend_gap;          /* a blank line came before the first of them */
    int costed;            /* the list writes costs: "Name: options" is then a broken line, not a unit */
} text_reader;

static bool cur_has_units(const text_reader *r)
{
    return r->cur && r->n_units > 0 && r->units[r->n_units - 1].army == r->f->n_armies - 1;
}

static void join_to_last_unit(text_reader *r, const char *line)
{
    text_unit *t = &r->units[r->n_units - 1];
    size_t used = strlen(t->body);
    snprintf(t->body + used, sizeof t->body - used, " %s", line);
    base_text_trim_cut(t->body);
}

static void clear_pending(text_reader *r)
{
    for (size_t i = 0; i < r->n_pend; i++)
        free(r->pend[i].text);
    r->n_pend = 0;
}

/* "Player: Bob" -> "Bob" when the line starts with `key` and a colon; NULL otherwise. */
static const char *key_value(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncasecmp(line, key, n) != 0)
        return NULL;
    const char *p = line + n;
    while (*p == ' ')
        p++;
    if (*p != ':')
        return NULL;
    for (p++; *p == ' ';)
        p++;
    return p;
}

/* The lines of a header block before a list's first unit: the army, the player, the rest said. */
static int start_list(text_reader *r, int first_unit_line)
{
    size_t h = r->n_pend - 1; /* the header: the last line that names a list, else the last line */
    while (h > 0 && !army_line_headerish(r->pend[h].text))
        h--;
    if (!army_line_headerish(r->pend[h].text))
        h = r->n_pend - 1;
    if (!(r->cur = army_file_add_army(r->f, "")))
        return base_error_set(r->err, "%s: out of memory", r->name);
    r->cur->line = r->pend[h].line;
    r->finished = 0;
    r->costed = 0;
    bool used[32] = {false};
    for (size_t i = 0; i < r->n_pend; i++) { /* "Player: Bob", "Army: Dwarven Holds", "Team: X" */
        const char *t = r->pend[i].text, *v;
        if ((v = key_value(t, "player")) || (v = key_value(t, "name")) || (v = key_value(t, "nickname")))
            player_copy(r->cur, v, strlen(v)), used[i] = true;
        else if ((v = key_value(t, "army")) || (v = key_value(t, "faction")))
            army_copy(r->cur, v), used[i] = true, h = i;
    }
    if (!r->cur->name[0]) {
        char player[ARMY_NAME_MAX];
        snprintf(player, sizeof player, "%s", r->cur->player);
        header(r->cur, r->pend[h].text);
        if (player[0] && !r->cur->player[0])
            snprintf(r->cur->player, sizeof r->cur->player, "%s", player);
        used[h] = true;
        /* "Ville Oinio" above "Dwarven Holds": the player on the line before the army's name. */
        if (!r->cur->player[0] && h > 0 && !used[h - 1] && !army_line_headerish(r->pend[h - 1].text))
            player_copy(r->cur, r->pend[h - 1].text, strlen(r->pend[h - 1].text)), used[h - 1] = true;
    }
    for (size_t i = 0; i < r->n_pend; i++) {
        if (used[i])
            continue;
        const char *t = r->pend[i].text;
        if (army_line_headerish(t)) {
            int stop = i + 1 < r->n_pend ? r->pend[i + 1].line : first_unit_line;
            army_file_say(r->f, "%s: line %d: the list \"%.*s\" could not be read: no unit line after it (reading "
                                "stopped at line %d)", r->name, r->pend[i].line, (int)base_text_cut(t, 80), t, stop);
        } else {
            army_file_say(r->f, "%s: line %d: \"%.*s\" not read (a title or a note above the list \"%.*s\")", r->name,
                          r->pend[i].line, (int)base_text_cut(t, 80), t, (int)base_text_cut(r->cur->name, 60),
                          r->cur->name);
        }
    }
    return 0;
}

/* Places the pending lines: the end of the last unit's broken line, or the header of a new list. */
static int place_pending(text_reader *r, bool at_end, int next_line)
{
    if (r->n_pend == 0)
        return 0;
    bool headerish = false;
    for (size_t i = 0; i < r->n_pend; i++)
        headerish |= army_line_headerish(r->pend[i].text);
    int rc = 0;
    if (cur_has_units(r) && !r->finished && !r->pend_gap && !headerish) {
        for (size_t i = 0; i < r->n_pend; i++)
            join_to_last_unit(r, r->pend[i].text);
    } else if (at_end) {
        for (size_t i = 0; i < r->n_pend; i++)
            army_file_say(r->f, "%s: line %d: \"%.*s\" not read: %s", r->name, r->pend[i].line,
                          (int)base_text_cut(r->pend[i].text, 80), r->pend[i].text,
                          army_line_headerish(r->pend[i].text) ? "a list with no unit line after it"
                                                               : "after the last list");
    } else {
        rc = start_list(r, next_line);
    }
    clear_pending(r);
    return rc;
}

static int add_unit_line(text_reader *r, const army_line *l)
{
    if (place_pending(r, false, r->line_no) < 0)
        return -1;
    if (!r->cur) { /* units before any header: a list named by the file */
        if (!(r->cur = army_file_add_army(r->f, "")))
            return base_error_set(r->err, "%s: out of memory", r->name);
        r->cur->line = r->line_no;
    }
    if (r->finished) /* units after a list's total, with no header between: a list of their own, said */
        army_file_say(r->f, "%s: line %d: a unit after the total of the list above, with no header", r->name,
                      r->line_no);
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
    t->cost = l->cost;
    t->guess = l->guess;
    r->costed |= l->cost > 0;
    army_span_copy(t->body, sizeof t->body, l->body, l->body_len);
    r->gap = 0;
    return 0;
}

/* Where a second unit line starts inside a line ("..., Champion 280 - 20x Citizen Spears, ..."), as a PDF copied
 * into a document glues them: a cost of two to four digits after a space, then " - " and a name or a count. */
static const char *glued_unit(const char *line)
{
    for (const char *p = line + 1; *p; p++) {
        if (p[-1] != ' ' || !isdigit((unsigned char)*p) || (p >= line + 2 && p[-2] == '-'))
            continue;
        const char *d = p;
        while (isdigit((unsigned char)*d))
            d++;
        if (d - p >= 2 && d - p <= 4 && strncmp(d, " - ", 3) == 0 && isalnum((unsigned char)d[3]))
            return p;
    }
    return NULL;
}

/* A line of dashes, underscores, equals signs or stars: a separator, nothing to read. */
static bool separator(const char *line)
{
    if (!*line)
        return false;
    for (const char *p = line; *p; p++)
        if (!strchr("-_=*~. ", *p))
            return false;
    return true;
}

static int read_one_line(text_reader *r, const char *line);

/* A line, or the units glued on it one after another (each read, and said, so that a merged unit is never taken
 * for one); in one pass over the line however many it holds. */
static int read_line(text_reader *r, const char *line)
{
    if (separator(line))
        return 0;
    char *part = NULL;
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        const char *second = isdigit((unsigned char)line[0]) ? glued_unit(line) : NULL;
        if (!second) {
            rc = read_one_line(r, line);
            break;
        }
        army_file_say(r->f, "%s: line %d: two unit lines on one line, read as two: \"%.*s\"", r->name, r->line_no,
                      (int)base_text_cut(second, 60), second);
        size_t n = (size_t)(second - line);
        while (n && line[n - 1] == ' ')
            n--;
        if (n + 1 > cap) {
            char *grown = realloc(part, n + 1);
            if (!grown) {
                rc = base_error_set(r->err, "%s: out of memory", r->name);
                break;
            }
            part = grown, cap = n + 1;
        }
        memcpy(part, line, n);
        part[n] = '\0';
        if ((rc = read_one_line(r, part)) < 0)
            break;
        line = second;
    }
    free(part);
    return rc;
}

/* A list's total glued to the end of a unit line that gives its cost first ("130 - Scorpion 4500"): a number of four
 * or five digits after the name, 1000 or more (no T9A unit is named so); taken off the body. 0 when none. */
static int trailing_total(army_line *l)
{
    size_t n = l->body_len;
    while (n && l->body[n - 1] == ' ')
        n--;
    size_t d = n;
    while (d && isdigit((unsigned char)l->body[d - 1]))
        d--;
    if (l->cost <= 0 || n - d < 4 || n - d > 5 || d < 2 || l->body[d - 1] != ' ' ||
        !(isalpha((unsigned char)l->body[d - 2]) || l->body[d - 2] == ')'))
        return 0;
    int v = atoi(l->body + d);
    if (v < 1000)
        return 0;
    l->body_len = d - 1;
    return v;
}

static int read_one_line(text_reader *r, const char *line)
{
    if (!line[0]) {
        r->gap = cur_has_units(r);
        return 0;
    }
    army_line l;
    army_line_read(line, !r->costed, &l);
    if (l.kind == ARMY_LINE_SECTION)
        return 0;
    if (l.kind == ARMY_LINE_UNIT) {
        int total = trailing_total(&l);
        if (add_unit_line(r, &l) < 0)
            return -1;
        if (total && !r->finished) { /* "130 - Scorpion 4500": the list's total glued to its last unit */
            army_file_say(r->f, "%s: line %d: %d at the end of a unit line read as the list's total", r->name,
                          r->line_no, total);
            r->cur->points = total;
            r->finished = 1;
        }
        return 0;
    }
    if (l.kind == ARMY_LINE_TOTAL && (r->cur || r->n_pend) && !r->finished) {
        if (place_pending(r, false, r->line_no) < 0)
            return -1;
        if (!r->cur) /* a header block then its total: a list whose units never come */
            return 0;
        r->cur->points = l.total;
        r->finished = 1;
        return 0;
    }
    /* A header, a title or a piece of a broken line: decided when the next unit or total comes. */
    if (r->n_pend == sizeof r->pend / sizeof r->pend[0]) {
        army_file_say(r->f, "%s: line %d: \"%.*s\" not read (more than %zu lines that are neither units nor headers)",
                      r->name, r->pend[0].line, (int)base_text_cut(r->pend[0].text, 80), r->pend[0].text,
                      sizeof r->pend / sizeof r->pend[0]);
        free(r->pend[0].text);
        memmove(r->pend, r->pend + 1, (r->n_pend - 1) * sizeof r->pend[0]);
        r->n_pend--;
    }
    if (r->n_pend == 0)
        r->pend_gap = r->gap || r->finished;
    char *copy = strdup(line);
    if (!copy)
        return base_error_set(r->err, "%s: out of memory", r->name);
    r->pend[r->n_pend++] = (pending_line){r->line_no, copy};
    return 0;
}

/* Lists with no units (a header whose units never came) are said and dropped; a total is checked. */
static void finish_lists(army_file *f, size_t first_army, const char *name)
{
    size_t w = first_army;
    for (size_t a = first_army; a < f->n_armies; a++) {
        army_list *al = &f->armies[a];
        if (al->n_units == 0) {
            army_file_say(f, "%s: line %d: the list \"%s\" could not be read: no unit line after its header", name,
                          al->line, al->name);
            free(al->units);
            continue;
        }
        if (f->n_armies - first_army > 1 && !al->player[0] && al->name[0] && !army_line_army(al->name)) {
            /* In a pack, a header naming no army above a list ("McCrae") names its player: said, army unknown. */
            army_file_say(f, "%s: line %d: the list of \"%.*s\" names no army (its header is taken as the player's name)",
                          name, al->line, (int)base_text_cut(al->name, 60), al->name);
            snprintf(al->player, sizeof al->player, "%s", al->name);
            al->name[0] = '\0';
        }
        long sum = 0;
        for (size_t u = 0; u < al->n_units; u++)
            sum += al->units[u].points;
        if (al->points > 0 && sum > 0 && sum != al->points)
            army_file_say(f, "%s: line %d: the list \"%s\" gives its total as %d points, its lines add up to %ld", name,
                          al->line, al->name, al->points, sum);
        f->armies[w++] = *al;
    }
    f->n_armies = w;
}

int army_read_text(const char *text, const char *name, army_file *f, base_error *err)
{
    text_reader r = {.f = f, .name = name, .err = err};
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
    if (rc == 0)
        rc = place_pending(&r, true, r.line_no + 1);
    clear_pending(&r);
    free(line);
    for (size_t i = 0; i < r.n_units && rc == 0; i++)
        rc = build_unit(f, &r.units[i], name, err);
    free(r.units);
    if (rc < 0)
        return -1;
    finish_lists(f, first_army, name);
    if (f->n_armies == first_army)
        return base_error_set(err, "%s: no unit lines (\"COST - UNIT, OPTIONS\") found: not a New Recruit list", name);
    return 0;
}
