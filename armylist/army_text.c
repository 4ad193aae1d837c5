/*
 * army_text: New Recruit's text export, the way most T9A lists circulate,
 * and the packs organisers paste together from players' own formats:
 *
 *   Orcs and Goblins                          (or "Player (alias) - Army")
 *   560 - Goblin Witch, General (Darrmu), Light Troops, Wizard Master, ...
 *   313 - 15 Goblin Reavers, Lance and Shield, Standard Bearer (Goga Cauldron)
 *   3998                                      (the total)
 *
 * A unit line is "COST - [COUNT[x]] NAME, OPTION, OPTION (DETAIL), ...", or
 * with the cost after the entry (army_lines.h has every layout read). An
 * entry may be wrapped over lines (lists copied out of PDFs break lines
 * anywhere): with its cost first, the lines after it continue it; with its
 * cost last, the lines before it on the lines just above begin it. A line
 * without a cost that reads as an entry of its own (a capital after a
 * finished line) is a unit without a cost, said. Several lists in one text
 * (an organiser's pack) are told apart by their headers (army_header.h: the
 * player and the army in either order, on one line or two, with or without
 * a separator), and each entry becomes its units (army_entry.h). Every line
 * is read into a unit or said (army_file.said) with its number and why:
 * nothing is dropped. Typographic quotes, apostrophes and dashes are read as
 * ASCII, dotted leaders as a dash.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "army_text.h"
#include "army_list.h"
#include "base_text.h"
#include "army_entry.h"
#include "army_header.h"
#include "army_lines.h"

typedef army_entry text_unit;

/* An apostrophe as players type it: ’ ‘ ´ ʼ ′ and the backtick ("King`s Shieldbearers"); its length in bytes at p,
 * 0 when p holds none. */
static size_t apostrophe(const unsigned char *p, size_t left)
{
    if (p[0] == '`')
        return 1;
    if (left >= 2 && ((p[0] == 0xC2 && p[1] == 0xB4) || (p[0] == 0xCA && p[1] == 0xBC)))
        return 2;
    if (left >= 3 && p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0x98 || p[2] == 0x99 || p[2] == 0xB2))
        return 3;
    return 0;
}

/* Dotted leaders between an entry and its cost ("Shield ........ 555", "… 555"): three dots or more (or an
 * ellipsis) before a number, read as a dash. Their length in bytes at p, 0 when p holds none. */
static size_t leader(const unsigned char *p, size_t left)
{
    size_t n = 0;
    while (n < left && (p[n] == '.' || (n + 2 < left && p[n] == 0xE2 && p[n + 1] == 0x80 && p[n + 2] == 0xA6)))
        n += p[n] == '.' ? 1 : 3;
    size_t k = n;
    while (k < left && (p[k] == ' ' || p[k] == '[' || p[k] == '('))
        k++;
    return n >= 3 && k < left && isdigit(p[k]) ? n : 0;
}

/* ASCII dashes for en/em dashes, ASCII apostrophes ("King 's" as "King's"), dotted leaders as " - ", trimmed. */
static void clean_line(const char *in, size_t len, char *out, size_t cap)
{
    size_t n = 0, k;
    for (size_t i = 0; i < len && n + 3 < cap; i++) {
        const unsigned char *p = (const unsigned char *)in + i;
        if (p[0] == 0xE2 && i + 2 < len && p[1] == 0x80 && (p[2] == 0x93 || p[2] == 0x94)) {
            out[n++] = '-';
            i += 2;
        } else if ((k = apostrophe(p, len - i)) > 0) {
            if (n && out[n - 1] == ' ' && i + k < len && (p[k] == 's' || p[k] == 'S') &&
                (i + k + 1 >= len || !isalpha(p[k + 1])))
                n--; /* "King ’s Guard": the space a PDF put before the apostrophe */
            out[n++] = '\'';
            i += k - 1;
        } else if ((k = leader(p, len - i)) > 0 && i > 0) {
            while (n && out[n - 1] == ' ')
                n--;
            memcpy(out + n, " - ", 3);
            n += 3;
            i += k - 1;
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

/* A line waiting to be read as a header, as the beginning of an entry whose cost comes last, or as the rest of the
 * entry above. */
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

/* Appends " line" to an entry's body (and its last line), cut between characters when full. */
static void append_body(text_unit *t, const char *line, int line_no)
{
    size_t used = strlen(t->body);
    snprintf(t->body + used, sizeof t->body - used, " %s", line);
    base_text_trim_cut(t->body);
    t->last_line = line_no;
    t->open_end = army_entry_open_end(line);
}

/* How an entry's lines were put together, said under its unit: "lines 5-6 read as one entry". */
static void say_lines(text_unit *t, int first, int last)
{
    char *dash = strrchr(t->said, '-');
    if (t->said[0] && dash && t->last_line == last - 1 && strstr(dash, "read as one entry")) {
        snprintf(dash + 1, sizeof t->said - (size_t)(dash + 1 - t->said), "%d read as one entry", last); /* grows */
        return;
    }
    size_t n = strlen(t->said);
    if (n + 8 < sizeof t->said)
        snprintf(t->said + n, sizeof t->said - n, "%slines %d-%d read as one entry", n ? "; " : "", first, last);
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

/* "Player: Bob", "Army: Dwarven Holds": 1 player, 2 army, 0 neither; *v the value. */
static int key_line(const char *t, const char **v)
{
    if ((*v = key_value(t, "player")) || (*v = key_value(t, "name")) || (*v = key_value(t, "nickname")))
        return 1;
    return (*v = key_value(t, "army")) || (*v = key_value(t, "faction")) ? 2 : 0;
}

/* A player's name on a line of its own, just above or below the army's line (h): taken when the header gave none. */
static void player_beside(text_reader *r, size_t h, bool *used)
{
    for (int side = 0; side < 2 && !r->cur->player[0]; side++) {
        size_t k = side == 0 ? h - 1 : h + 1;
        if ((side == 0 && h == 0) || k >= r->n_pend || used[k])
            continue;
        const char *t = r->pend[k].text;
        if (!army_line_headerish(t) && (side == 1 ? army_header_is_name(t) : !strchr(t, ','))) {
            army_header_player(r->cur, t, strlen(t));
            r->cur->player_line = r->pend[k].line;
            used[k] = true;
        }
    }
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
    bool used[32] = {false}, named = false;
    for (size_t i = 0; i < r->n_pend; i++) { /* "Player: Bob", "Army: Dwarven Holds", "Team: X" */
        const char *v;
        int k = key_line(r->pend[i].text, &v);
        if (k == 1)
            army_header_player(r->cur, v, strlen(v)), used[i] = true, r->cur->player_line = r->pend[i].line;
        else if (k == 2)
            army_header_read(v, r->cur), used[i] = true, h = i, named = true;
    }
    if (!named) {
        army_header_read(r->pend[h].text, r->cur);
        used[h] = true;
    }
    player_beside(r, h, used);
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

/* A line with no cost after a finished entry that reads as an entry of its own ("Thane, Battle Standard Bearer"
 * after "... Shield"), not as its rest ("Musician" after "Standard Bearer,"). */
static bool own_entry(const text_unit *last, const char *line)
{
    return !last->open_end && (isupper((unsigned char)line[0]) || isdigit((unsigned char)line[0])) &&
           strchr(line, ',') != NULL;
}

/* The pending lines after the last unit, without a blank line between: the rest of its entry, or (said) entries
 * of their own without a cost. -1 only when out of memory. */
static int continue_last(text_reader *r)
{
    for (size_t i = 0; i < r->n_pend; i++) {
        text_unit *last = &r->units[r->n_units - 1];
        const char *t = r->pend[i].text;
        if (!own_entry(last, t)) {
            say_lines(last, last->line, r->pend[i].line);
            append_body(last, t, r->pend[i].line);
            continue;
        }
        text_unit *u = army_grow(r->units, r->n_units, sizeof *u);
        if (!u)
            return base_error_set(r->err, "%s: out of memory", r->name);
        r->units = u;
        u = &r->units[r->n_units++];
        *u = (text_unit){.army = r->f->n_armies - 1, .line = r->pend[i].line, .last_line = r->pend[i].line};
        army_name_copy(u->body, sizeof u->body, t);
        u->open_end = army_entry_open_end(t);
        snprintf(u->said, sizeof u->said, "line %d: an entry without a cost, read as a unit of its own", u->line);
    }
    return 0;
}

/* Places the pending lines: the rest of the last unit's entry, or the header of a new list. */
static int place_pending(text_reader *r, bool at_end, int next_line)
{
    if (r->n_pend == 0)
        return 0;
    bool headerish = false;
    for (size_t i = 0; i < r->n_pend; i++)
        headerish |= army_line_headerish(r->pend[i].text);
    int rc = 0;
    if (cur_has_units(r) && !r->finished && !r->pend_gap && !headerish) {
        rc = continue_last(r);
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

/* A line above an entry whose cost comes last that begins it: not a header, nor a name on its own line. */
static bool entry_start(const char *t)
{
    const char *v;
    return !army_line_headerish(t) && !key_line(t, &v) && (strchr(t, ',') || !army_header_is_name(t));
}

/*
 * An entry whose cost comes last, without a count of its own, begins on the lines just above it: the pending ones
 * (no blank line between), or the unit line without a cost before it when that line ended mid-entry ("20
 * Warriors, Great Weapon, Standard Bearer," then "Musician [620 pts]"). Its beginning goes into t; 1 when the
 * previous unit took it in instead (t is then not a unit), 0 otherwise.
 */
static int wrapped_start(text_reader *r, const army_line *l, text_unit *t)
{
    if (!l->cost_last || isdigit((unsigned char)l->body[0]))
        return 0;
    size_t k = r->n_pend;
    while (k > 0 && r->pend[k - 1].line == (k == r->n_pend ? r->line_no : r->pend[k].line) - 1 &&
           entry_start(r->pend[k - 1].text))
        k--;
    if (k < r->n_pend) {
        t->line = r->pend[k].line;
        t->body[0] = '\0';
        for (size_t i = k; i < r->n_pend; i++)
            snprintf(t->body + strlen(t->body), sizeof t->body - strlen(t->body), "%s%s", i > k ? " " : "",
                     r->pend[i].text);
        snprintf(t->said, sizeof t->said, "lines %d-%d read as one entry", t->line, r->line_no);
        for (size_t i = k; i < r->n_pend; i++)
            free(r->pend[i].text);
        r->n_pend = k;
        return 0;
    }
    text_unit *last = cur_has_units(r) && !r->finished && r->n_pend == 0 ? &r->units[r->n_units - 1] : NULL;
    const bool continuing = l->body[0] == '(' || islower((unsigned char)l->body[0]);
    if (!last || last->cost || !(last->open_end || continuing) || last->last_line != r->line_no - 1)
        return 0;
    char body[1024];
    army_span_copy(body, sizeof body, l->body, l->body_len);
    say_lines(last, last->line, r->line_no);
    append_body(last, body, r->line_no);
    last->cost = l->cost;
    last->cost_last = true;
    return 1;
}

static int add_unit_line(text_reader *r, const army_line *l, const char *line)
{
    text_unit start = {.line = r->line_no};
    if (wrapped_start(r, l, &start))
        return 0;
    if (place_pending(r, false, start.line) < 0)
        return -1;
    if (!r->cur) { /* units before any header: a list named by the file */
        if (!(r->cur = army_file_add_army(r->f, "")))
            return base_error_set(r->err, "%s: out of memory", r->name);
        r->cur->line = start.line;
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
    *t = start;
    t->army = r->f->n_armies - 1;
    t->last_line = r->line_no;
    t->cost = l->cost;
    t->cost_last = l->cost_last;
    t->guess = l->guess;
    r->costed |= l->cost > 0;
    char body[1024];
    army_span_copy(body, sizeof body, l->body, l->body_len);
    size_t used = strlen(t->body);
    snprintf(t->body + used, sizeof t->body - used, "%s%s", used ? " " : "", body);
    base_text_trim_cut(t->body);
    t->open_end = !l->cost_last && army_entry_open_end(line);
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
    army_line_read(line, (r->costed ? 0 : ARMY_LINE_COLON_UNITS) | (cur_has_units(r) && !r->finished ? ARMY_LINE_BARE_COSTS : 0),
                   &l);
    if (l.kind == ARMY_LINE_SECTION)
        return 0;
    if (l.kind == ARMY_LINE_UNIT) {
        int total = trailing_total(&l);
        if (add_unit_line(r, &l, line) < 0)
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
        r->cur->total_line = r->line_no;
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

int army_text_read(const char *text, const char *name, army_file *f, base_error *err)
{
    text_reader r = {.f = f, .name = name, .err = err};
    size_t first_army = f->n_armies, line_cap = 0;
    char *line = NULL; /* as long as the longest line: a header is never cut before its " - Army" */
    int rc = 0;
    for (const char *s = text; *s && rc == 0;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len + 4 > line_cap) { /* room for clean_line's " - " */
            char *grown = realloc(line, len + 4);
            if (!grown) {
                rc = base_error_set(err, "%s: out of memory", name);
                break;
            }
            line = grown, line_cap = len + 4;
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
        rc = army_entry_build(f, &r.units[i], name, err);
    free(r.units);
    if (rc < 0)
        return -1;
    finish_lists(f, first_army, name);
    if (f->n_armies == first_army)
        return base_error_set(err, "%s: no unit lines (\"COST - UNIT, OPTIONS\") found: not a New Recruit list", name);
    return 0;
}
