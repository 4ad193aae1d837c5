/* army_entry: one entry of a text list into its units (see the header). */
#include "army_entry.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "army_names.h"
#include "base_text.h"

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

bool army_entry_open_end(const char *line)
{
    size_t n = strlen(line);
    while (n && line[n - 1] == ' ')
        n--;
    if (!n)
        return false;
    if (strchr(",(&/-+", line[n - 1]))
        return true;
    static const char *const words[] = {"and", "of", "with", "the", "or"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t w = strlen(words[i]);
        if (n > w && line[n - w - 1] == ' ' && strncasecmp(line + n - w, words[i], w) == 0)
            return true;
    }
    return false;
}

/* BattleScribe's text writes the count among the options ("Warriors [620pts]: 20x Warriors, Great Weapon"): the
 * options written "Nx NAME" where NAME is the unit's model ("20x Warrior" of "Warriors"; never "3x Rune of
 * Shielding"), summed. 0 when none is. */
static int options_count(const char *options, const char *unit)
{
    char want[ARMY_NAME_MAX], key[ARMY_NAME_MAX], opt[ARMY_NAME_MAX];
    army_names_key(unit, want, sizeof want);
    int sum = 0;
    for (const char *p = options; *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        int n = 0;
        const char *q = p, *e = p;
        while (isdigit((unsigned char)*q) && n <= ARMY_MAX_MODELS)
            n = n * 10 + (*q++ - '0');
        while (*e && *e != ',')
            e++;
        if (q > p && (*q == 'x' || *q == 'X') && q[1] == ' ' && n >= 1 && n <= ARMY_MAX_MODELS) {
            army_span_copy(opt, sizeof opt, q + 2, (size_t)(e - q - 2));
            army_names_key(opt, key, sizeof key);
            if (strcmp(key, want) == 0)
                sum += n;
        }
        p = e;
    }
    return sum <= ARMY_MAX_MODELS ? sum : 0;
}

/* The name: up to the first separator outside brackets ("," or, as players also write, ";" and ":"). */
static const char *name_end(const char *p)
{
    int depth = 0;
    const char *e = p;
    for (; *e && !((*e == ',' || *e == ';' || *e == ':') && depth == 0); e++)
        depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
    return e;
}

/* What one unit of the entry says: how its lines were read, what had to be assumed. */
static void say_unit(army_unit *u, const army_entry *e, int count, bool glued, int counted, int units)
{
    if (e->said[0])
        army_unit_say(u, "%s", e->said);
    if (glued)
        army_unit_say(u, "line %d: %d models read from \"%.*s\" (a count glued to the name)", e->line, count,
                      (int)base_text_cut(e->body, 40), e->body);
    if (counted)
        army_unit_say(u, "line %d: %d models read from the options (\"%dx ...\")", e->line, counted, counted);
    if (units > 1)
        army_unit_say(u, "line %d: %d units of %d read from \"%.*s\"", e->line, units, count > 0 ? count : 1,
                      (int)base_text_cut(e->body, 30), e->body);
    if (count > ARMY_PLAUSIBLE_MODELS)
        army_unit_say(u, "line %d: %d models in one unit is more than any unit holds (%d at most): check the count "
                         "(--set 'NAME:models=N')",
                      e->line, count, ARMY_PLAUSIBLE_MODELS);
    if (e->guess)
        army_unit_say(u, "line %d: %s", e->line, e->guess);
}

int army_entry_build(army_file *f, const army_entry *e, const char *name, base_error *err)
{
    army_list *a = &f->armies[e->army];
    const char *p = e->body;
    int count = 0, units = 1, counted = 0;
    bool glued = false;
    p = leading_count(p, &count, &glued);
    if (count > 0 && isdigit((unsigned char)*p)) {
        int per = 0;
        const char *q = leading_count(p, &per, NULL);
        if (per != 0 && q != p) {
            units = count; /* "3 x 10 Corsairs", "2x1 Feldrak Elder" */
            count = per;
            p = q;
        }
    }
    if (count < 0)
        return base_error_set(err, "%s: line %d: a model count out of range (1..%d)", name, e->line, ARMY_MAX_MODELS);
    if (a->n_units + (size_t)units > ARMY_MAX_UNITS)
        return base_error_set(err, "%s: line %d: more than %d units: not an army list", name, e->line, ARMY_MAX_UNITS);
    const char *end = name_end(p);
    char uname[ARMY_NAME_MAX];
    army_span_copy(uname, sizeof uname, p, (size_t)(end - p));
    size_t n = strlen(uname);
    while (n && uname[n - 1] == ' ')
        uname[--n] = '\0';
    if (!uname[0])
        return base_error_set(err, "%s: line %d: a unit line without a unit name", name, e->line);
    if (count == 0 && *end && (counted = options_count(end + 1, uname)) > 0)
        count = counted;
    for (int k = 0; k < units; k++) {
        army_unit *u = army_list_add_unit(a, uname);
        if (!u || !army_unit_add_group(u, uname, count > 0 ? count : 1))
            return base_error_set(err, "%s: out of memory", name);
        if (e->last_line > e->line)
            snprintf(u->where, sizeof u->where, "lines %d-%d", e->line, e->last_line);
        else
            snprintf(u->where, sizeof u->where, "line %d", e->line);
        army_name_copy(u->options, sizeof u->options, *end ? end + 1 : "");
        u->models = count > 0 ? count : 1;
        u->points = k == 0 ? e->cost : 0; /* "3 x 10 Corsairs" costs once for the three */
        u->points_units = k == 0 ? units : 0;
        say_unit(u, e, count, glued, counted, units);
        army_unit_update_missing(u);
    }
    return 0;
}
