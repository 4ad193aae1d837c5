/* army_lines: what one line of a text army list is (see the header for the layouts). */
#include "army_lines.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The T9A armies (2nd edition and the older names players still write), as players spell them. */
static const struct {
    const char *spelled, *army;
} armies[] = {
    {"Beast Herds", "Beast Herds"},
    {"Daemon Legions", "Daemon Legions"},
    {"Dread Elves", "Dread Elves"},
    {"Dwarven Holds", "Dwarven Holds"},
    {"Empire of Sonnstahl", "Empire of Sonnstahl"},
    {"Highborn Elves", "Highborn Elves"},
    {"Infernal Dwarves", "Infernal Dwarves"},
    {"Kingdom of Equitaine", "Kingdom of Equitaine"},
    {"Ogre Khans", "Ogre Khans"},
    {"Orcs and Goblins", "Orcs and Goblins"},
    {"Orcs & Goblins", "Orcs and Goblins"},
    {"Saurian Ancients", "Saurian Ancients"},
    {"Sylvan Elves", "Sylvan Elves"},
    {"Undying Dynasties", "Undying Dynasties"},
    {"Vampire Covenant", "Vampire Covenant"},
    {"Vermin Swarm", "Vermin Swarm"},
    {"Warriors of the Dark Gods", "Warriors of the Dark Gods"},
    {"Asklanders", "Asklanders"},
    {"Cult of Errahman", "Cult of Errahman"},
    {"Dread Fleet", "Dread Fleet"},
    {"Makhar", "Makhar"},
};

/* Case-insensitive search for `word` as whole words in s. */
static const char *find_words(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = s; *p; p++)
        if (strncasecmp(p, word, n) == 0 && (p == s || !isalnum((unsigned char)p[-1])) &&
            !isalnum((unsigned char)p[n]))
            return p;
    return NULL;
}

const char *army_line_army_span(const char *line, size_t *at, size_t *len)
{
    for (size_t i = 0; i < sizeof armies / sizeof armies[0]; i++) {
        const char *p = find_words(line, armies[i].spelled);
        if (p) {
            *at = (size_t)(p - line), *len = strlen(armies[i].spelled);
            return armies[i].army;
        }
    }
    return NULL;
}

const char *army_line_army(const char *line)
{
    size_t at, len;
    return army_line_army_span(line, &at, &len);
}

/* "Player: Bob", "Army: Dwarven Holds": the key, when the line starts with a header's key. */
static bool header_key(const char *line)
{
    static const char *keys[] = {"player", "army", "faction", "team", "name", "list", "nickname"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        size_t n = strlen(keys[i]);
        if (strncasecmp(line, keys[i], n) == 0) {
            const char *p = line + n;
            while (*p == ' ')
                p++;
            if (*p == ':')
                return true;
        }
    }
    return false;
}

bool army_line_headerish(const char *line)
{
    const char *dash = strstr(line, " - ");
    return (dash && dash > line && dash[3]) || army_line_army(line) || header_key(line);
}

/* Digits at s: the value (saturated at 1,000,000) and where they end; -1 when s is not a digit. */
static long digits(const char *s, const char **end)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    long v = 0;
    while (isdigit((unsigned char)*s)) {
        v = v > 1000000 ? v : v * 10 + (*s - '0');
        s++;
    }
    *end = s;
    return v;
}

static const char *spaces(const char *s)
{
    while (*s == ' ')
        s++;
    return s;
}

static bool section(const char *line)
{
    static const char *words[] = {"characters", "core", "special", "rare", "heroes", "lords", "units", "core units",
                                  "special units", "rare units", "mounts"};
    size_t n = 0;
    while (line[n] && line[n] != ':' && line[n] != '(' && line[n] != '[')
        n++;
    while (n && line[n - 1] == ' ')
        n--;
    const char *rest = spaces(line + n);
    if (*rest == ':')
        rest = spaces(rest + 1);
    if (*rest && *rest != '(' && *rest != '[')
        return false;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && strncasecmp(line, words[i], n) == 0)
            return true;
    return false;
}

/* "4500", "4500 pts", "Total: 4500", "Sum: 4500 points", "4500/4500". */
static bool total(const char *line, int *points)
{
    static const char *words[] = {"total points", "army total", "total", "sum", "points", "pts"};
    const char *p = line;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strncasecmp(p, words[i], strlen(words[i])) == 0 && !isalpha((unsigned char)p[strlen(words[i])])) {
            p = spaces(p + strlen(words[i]));
            if (*p == ':' || *p == '=')
                p = spaces(p + 1);
            break;
        }
    const char *end;
    long v = digits(p, &end);
    if (v < 0 || v > 100000)
        return false;
    p = spaces(end);
    if (*p == '/') { /* "4500/4500": spent of allowed */
        const char *e2;
        if (digits(spaces(p + 1), &e2) < 0)
            return false;
        p = spaces(e2);
    }
    if (*p && strcasecmp(p, "pts") != 0 && strcasecmp(p, "points") != 0 && strcasecmp(p, "pts.") != 0 &&
        strcasecmp(p, "p") != 0)
        return false;
    *points = (int)v;
    return true;
}

static void set_unit(army_line *out, int cost, const char *body, size_t len)
{
    while (len && (body[len - 1] == ' ' || body[len - 1] == ','))
        len--;
    out->kind = ARMY_LINE_UNIT;
    out->cost = cost;
    out->body = body;
    out->body_len = len;
}

/* A cost after the name, at the end of the line: "... - 280", "... (280)", "... [280 pts]", "... 280 pts", and with
 * `bare` "... 280". */
static bool cost_at_end(const char *line, bool bare, army_line *out)
{
    size_t n = strlen(line);
    const char *e = line + n;
    bool bracket = n && (e[-1] == ')' || e[-1] == ']');
    const char *p = bracket ? e - 1 : e;
    const char *q = p;
    while (q > line && (isalpha((unsigned char)q[-1]) || q[-1] == '.' || q[-1] == ' '))
        q--; /* a unit word: "pts", "points" */
    bool unit_word = q < p && (strncasecmp(spaces(q), "pts", 3) == 0 || strncasecmp(spaces(q), "points", 6) == 0);
    if (!unit_word)
        q = p;
    const char *d = q;
    while (d > line && isdigit((unsigned char)d[-1]))
        d--;
    if (d == q || q - d > 5)
        return false;
    int cost = atoi(d);
    const char *before = d;
    while (before > line && before[-1] == ' ')
        before--;
    if (bracket) {
        if (before == line || (before[-1] != '(' && before[-1] != '['))
            return false;
        before--;
    } else if (before > line && before[-1] == '-') {
        before--;
    } else if (!unit_word && (!bare || q - d < 2 || before == d)) {
        return false; /* a bare number at the end is part of a name ("Ordo 2") unless costs are bare here */
    }
    /* "(Stalker's Standard), Musician - 720": the end of an entry wrapped over lines starts with its bracket */
    if (cost < 10 || cost > 5000 || before == line || !(isalnum((unsigned char)line[0]) || line[0] == '('))
        return false;
    set_unit(out, cost, line, (size_t)(before - line));
    out->cost_last = true;
    return true;
}

/* A name's cost in brackets before its options: "King (615), Shield", "Warriors [620pts]: 20x Warriors". Copies
 * the line without it. */
static bool cost_after_name(const char *line, army_line *out, char *buf, size_t cap)
{
    const char *comma = strpbrk(line, ",:");
    const char *open = strpbrk(line, "([");
    if (!open || (comma && open > comma) || open == line)
        return false;
    const char close = *open == '(' ? ')' : ']';
    const char *end = NULL;
    long cost = digits(spaces(open + 1), &end);
    if (cost < 0)
        return false;
    end = spaces(end);
    if (strncasecmp(end, "pts", 3) == 0)
        end = spaces(end + 3);
    else if (strncasecmp(end, "points", 6) == 0)
        end = spaces(end + 6);
    if (cost < 10 || cost > 5000 || *end != close)
        return false;
    int w = snprintf(buf, cap, "%.*s%s", (int)(open - line), line, end + 1);
    if (w < 0 || (size_t)w >= cap)
        return false;
    set_unit(out, (int)cost, buf, strlen(buf));
    return true;
}

/* "Clan Warriors: Shield, Standard": a name of one to six words before the colon. */
static bool colon_unit(const char *line, army_line *out, char *buf, size_t cap)
{
    const char *colon = strchr(line, ':');
    if (!colon || colon == line || header_key(line) || !isalpha((unsigned char)line[0]))
        return false;
    int words = 1;
    for (const char *p = line; p < colon; p++) {
        if (!isalpha((unsigned char)*p) && *p != ' ' && *p != '\'' && *p != '-' && *p != '&' && (unsigned char)*p < 0x80)
            return false;
        words += *p == ' ' && p[1] != ' ' && p + 1 < colon;
    }
    if (words > 6)
        return false;
    size_t name = (size_t)(colon - line);
    while (name && line[name - 1] == ' ')
        name--;
    int w = snprintf(buf, cap, "%.*s,%s", (int)name, line, colon + 1);
    if (w < 0 || (size_t)w >= cap)
        return false;
    set_unit(out, 0, buf, strlen(buf));
    return true;
}

void army_line_read(const char *line, unsigned flags, army_line *out)
{
    const bool colon_units = flags & ARMY_LINE_COLON_UNITS, bare = flags & ARMY_LINE_BARE_COSTS;
    memset(out, 0, sizeof *out);
    char *buf = out->buf;
    const size_t cap = sizeof out->buf;
    const char *end;
    if (!line[0])
        return;
    if (section(line)) {
        out->kind = ARMY_LINE_SECTION;
        return;
    }
    if (total(line, &out->total)) {
        out->kind = ARMY_LINE_TOTAL;
        return;
    }
    long lead = digits(line, &end);
    if (army_line_army(line) && !(lead >= 0 && (*spaces(end) == '-' || *spaces(end) == ':'))) {
        out->kind = ARMY_LINE_OTHER; /* "Oskar Strom - Warriors of the Dark Gods - 2110 points": a header */
        return;
    }
    if (lead >= 0) {
        const char *p = spaces(end);
        if (*p == '-' || *p == ':') { /* "560 - body", "560: body" */
            p = spaces(p + 1);
            if (*p)
                set_unit(out, (int)(lead > 100000 ? 100000 : lead), p, strlen(p));
            return;
        }
        if (p > end && isdigit((unsigned char)*p)) { /* "660 15 Warriors": a cost, then a count */
            set_unit(out, (int)(lead > 100000 ? 100000 : lead), p, strlen(p));
            out->guess = "the first number read as the cost, the second as the model count (no dash)";
            return;
        }
        if (p > end && isalpha((unsigned char)*p) && lead >= 100 && *p != 'x' && *p != 'X') {
            /* "280 King, General": no unit has a hundred models, so a cost */
            set_unit(out, (int)(lead > 100000 ? 100000 : lead), p, strlen(p));
            out->guess = "the number before the name read as its cost (no dash after it)";
            return;
        }
        if (*p == 'x' || *p == 'X' || (p > end && isalpha((unsigned char)*p)) || isalpha((unsigned char)*end)) {
            /* "25 x Clan Warriors", "25 Clan Warriors", "15Warriors"; a cost after the name read too */
            if (!cost_at_end(line, bare, out) && !cost_after_name(line, out, buf, cap))
                set_unit(out, 0, line, strlen(line));
            return;
        }
    }
    if (cost_at_end(line, bare, out) || cost_after_name(line, out, buf, cap))
        return;
    if (colon_units && colon_unit(line, out, buf, cap))
        return;
    out->kind = ARMY_LINE_OTHER;
}
