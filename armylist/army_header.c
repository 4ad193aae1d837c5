/* army_header: what a list's header lines say (see the header). */
#include "army_header.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "army_lines.h"

/* Separators a paste leaves between a header's parts (ASCII: army_text made every dash one). */
static bool separating(char c)
{
    return c == ' ' || c == '-' || c == ':' || c == ',' || c == '|' || c == '/';
}

/* [s, s+n) without separators at either end: the start, and *n the length left. */
static const char *trim_span(const char *s, size_t *n)
{
    while (*n && separating(*s))
        s++, (*n)--;
    while (*n && separating(s[*n - 1]))
        (*n)--;
    return s;
}

void army_header_player(army_list *a, const char *s, size_t n)
{
    s = trim_span(s, &n);
    army_span_copy(a->player, sizeof a->player, s, n);
}

/* "2,045" or "4500": the value, *end past it; -1 when s holds no digit. Thousands separators are ',' or '.'
 * followed by three digits. */
static long number_at(const char *s, const char **end)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    long v = 0;
    for (;;) {
        while (isdigit((unsigned char)*s))
            v = v > 1000000 ? v : v * 10 + (*s++ - '0');
        if ((*s == ',' || *s == '.') && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2]) &&
            isdigit((unsigned char)s[3]) && !isdigit((unsigned char)s[4])) {
            s++;
            continue;
        }
        break;
    }
    *end = s;
    return v;
}

/* The points word after a number ("pts", "points", "p"), or NULL. */
static const char *points_word(const char *s)
{
    while (*s == ' ')
        s++;
    static const char *const words[] = {"points", "pts.", "pts", "p.", "p"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (strncasecmp(s, words[i], n) == 0 && !isalpha((unsigned char)s[n]))
            return s + n;
    }
    return NULL;
}

int army_header_points(const char *line, size_t *len)
{
    size_t n = strlen(line);
    while (n && line[n - 1] == ' ')
        n--;
    bool bracket = n && (line[n - 1] == ']' || line[n - 1] == ')');
    size_t e = bracket ? n - 1 : n;
    /* back to the start of the number: digits, thousands separators, the points word */
    size_t s = e;
    while (s && (isalnum((unsigned char)line[s - 1]) || line[s - 1] == ',' || line[s - 1] == '.' ||
                 line[s - 1] == ' '))
        s--;
    while (s < e && !isdigit((unsigned char)line[s]))
        s++;
    if (s == e || (s > 0 && isalpha((unsigned char)line[s - 1])))
        return 0;
    const char *end = line + s;
    long v = number_at(line + s, &end);
    const char *after = points_word(end);
    if (!after)
        after = bracket ? end : NULL; /* "(4500)": a bare number in brackets */
    while (after && *after == ' ')
        after++;
    if (v < 100 || v > 100000 || !after || (size_t)(after - line) != e)
        return 0;
    if (bracket) {
        while (s && line[s - 1] == ' ')
            s--;
        if (!s || (line[s - 1] != '[' && line[s - 1] != '('))
            return 0;
        s--;
    }
    while (s && separating(line[s - 1]))
        s--;
    *len = s;
    return (int)v;
}

bool army_header_is_name(const char *line)
{
    static const char *const titles[] = {"list", "lists", "army", "army list", "armylist", "round", "team", "table",
                                         "player", "players", "name", "total"};
    size_t n = strlen(line);
    const char *s = trim_span(line, &n);
    if (!n || n > 60 || !(isalpha((unsigned char)*s) || (unsigned char)*s >= 0x80))
        return false;
    int words = 1;
    for (size_t i = 0; i < n; i++) {
        if (strchr(",;:!?[]{}=+*\"", s[i]))
            return false;
        words += s[i] == ' ' && i + 1 < n && s[i + 1] != ' ';
    }
    if (words > 6 || s[n - 1] == '.')
        return false;
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (strlen(titles[i]) == n && strncasecmp(s, titles[i], n) == 0)
            return false;
    /* "Round 2", "Table 12": a title and its number */
    const char *sp = memchr(s, ' ', n);
    if (sp && isdigit((unsigned char)sp[1]) && (strncasecmp(s, "round", 5) == 0 || strncasecmp(s, "table", 5) == 0))
        return false;
    return true;
}

/* The army's name: a T9A army named in the text is called as the data calls it ("List Empire of Sonnstahl",
 * "Vermin Swarm: Legio XII Fulminata"); else the text as written. */
static void army_copy(army_list *a, const char *s, size_t n)
{
    char buf[ARMY_NAME_MAX * 2];
    s = trim_span(s, &n);
    army_span_copy(buf, sizeof buf, s, n);
    const char *known = army_line_army(buf);
    army_name_copy(a->name, sizeof a->name, known ? known : buf);
}

/* "A - B - C": the part naming an army is the army, the other the player (the first that reads as a name). */
static void dashed(const char *s, army_list *a)
{
    const char *parts[8];
    size_t lens[8], np = 0;
    for (const char *p = s;;) {
        const char *d = strstr(p, " - ");
        if (np == 7 || !d) {
            parts[np] = p, lens[np++] = strlen(p);
            break;
        }
        parts[np] = p, lens[np++] = (size_t)(d - p);
        p = d + 3;
    }
    char part[ARMY_NAME_MAX * 2];
    long army = -1, player = -1;
    for (size_t i = 0; i < np; i++) {
        army_span_copy(part, sizeof part, parts[i], lens[i]);
        if (army < 0 && army_line_army(part))
            army = (long)i;
    }
    if (army < 0) { /* no army known: "Player - Army" as most write it */
        army = (long)np - 1;
        player = 0;
    }
    for (size_t i = 0; i < np && player < 0; i++) {
        army_span_copy(part, sizeof part, parts[i], lens[i]);
        if ((long)i != army && army_header_is_name(part))
            player = (long)i;
    }
    for (size_t i = 0; i < np && player < 0; i++)
        if ((long)i != army && lens[i])
            player = (long)i;
    army_copy(a, parts[army], lens[army]);
    if (player >= 0 && player != army && !a->player[0])
        army_header_player(a, parts[player], lens[player]);
}

/* army_header_read on a copy of the line, which it cuts. */
static void header_parts(char *s, army_list *a)
{
    size_t len;
    int points = army_header_points(s, &len);
    if (points) {
        s[len] = '\0';
        if (!a->points)
            a->points = points;
    }
    size_t at = 0, n = 0;
    const char *known = army_line_army_span(s, &at, &n);
    const char *colon = strchr(s, ':');
    if (colon && !known && !strstr(s, " - ")) { /* "Army: Wood Folk" */
        army_copy(a, colon + 1, strlen(colon + 1));
        return;
    }
    if (strstr(s, " - ")) {
        dashed(s, a);
        return;
    }
    if (!known) {
        army_copy(a, s, strlen(s));
        return;
    }
    army_name_copy(a->name, sizeof a->name, known);
    /* No separator: the player before or after the army's name; after a colon, the list's own title. */
    char before[ARMY_NAME_MAX * 2], after[ARMY_NAME_MAX * 2];
    size_t nb = at, na = strlen(s + at + n);
    const char *b = trim_span(s, &nb), *rest = s + at + n;
    bool titled = false;
    for (const char *p = rest; *p == ' ' || *p == ':'; p++)
        titled |= *p == ':';
    const char *af = trim_span(rest, &na);
    army_span_copy(before, sizeof before, b, nb);
    army_span_copy(after, sizeof after, af, na);
    if (a->player[0])
        return;
    if (before[0] && army_header_is_name(before))
        army_header_player(a, before, strlen(before));
    else if (!titled && after[0] && army_header_is_name(after))
        army_header_player(a, after, strlen(after));
}

void army_header_read(const char *line, army_list *a)
{
    char *s = strdup(line); /* whole: a header is never cut before its " - Army" */
    if (!s)
        return;
    header_parts(s, a);
    free(s);
}
