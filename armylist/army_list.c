#include "army_list.h"
#include "base_text.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *army_origin_word(army_origin o)
{
    switch (o) {
    case ARMY_FROM_LIST: return "list";
    case ARMY_FROM_CATALOGUE: return "catalogue";
    case ARMY_FROM_USER: return "user";
    default: return "unknown";
    }
}

const char *army_format_word(army_format f)
{
    switch (f) {
    case ARMY_FORMAT_ROS: return "BattleScribe roster (.ros)";
    case ARMY_FORMAT_ROSZ: return "BattleScribe roster (.rosz)";
    case ARMY_FORMAT_NR_JSON: return "New Recruit JSON roster";
    case ARMY_FORMAT_NR_REPORT: return "New Recruit tournament report";
    default: return "New Recruit text list";
    }
}

void army_file_free(army_file *f)
{
    if (!f)
        return;
    for (size_t a = 0; a < f->n_armies; a++) {
        for (size_t u = 0; u < f->armies[a].n_units; u++)
            free(f->armies[a].units[u].groups);
        free(f->armies[a].units);
    }
    free(f->armies);
    free(f->said);
    free(f);
}

void army_file_say(army_file *f, const char *fmt, ...)
{
    if (f->n_said > ARMY_MAX_SAID)
        return;
    void *grown = army_grow(f->said, f->n_said, sizeof *f->said);
    if (!grown)
        return;
    f->said = grown;
    char *msg = f->said[f->n_said++];
    if (f->n_said > ARMY_MAX_SAID) {
        snprintf(msg, sizeof *f->said, "... and more lines not read (only the first %d are listed)", ARMY_MAX_SAID);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof *f->said, fmt, ap);
    va_end(ap);
    base_text_trim_cut(msg);
}

void army_text_appendv(char *buf, size_t cap, const char *fmt, va_list ap)
{
    size_t n = strlen(buf);
    if (n + 8 >= cap)
        return;
    if (n)
        n += (size_t)snprintf(buf + n, cap - n, "; ");
    vsnprintf(buf + n, cap - n, fmt, ap);
    base_text_trim_cut(buf);
}

void army_unit_say(army_unit *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    army_text_appendv(u->said, sizeof u->said, fmt, ap);
    va_end(ap);
}

void army_unit_note(army_unit *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    army_text_appendv(u->note, sizeof u->note, fmt, ap);
    va_end(ap);
}

void army_name_copy(char *dst, size_t cap, const char *src)
{
    /* Escaped, then cut on a character boundary: a roster written from it is always valid JSON. */
    char *esc = base_text_escape_invalid(src);
    base_text_copy(dst, cap, esc ? esc : "");
    free(esc);
}

void army_span_copy(char *dst, size_t cap, const char *src, size_t n)
{
    char *span = strndup(src, n);
    army_name_copy(dst, cap, span ? span : "");
    free(span);
}

void *army_grow(void *array, size_t n, size_t elem_size)
{
    /* Grows only when n is 0 or a power of two, to twice n: the capacity is implied by n. */
    if (n != 0 && (n & (n - 1)) != 0)
        return array;
    size_t cap = n ? 2 * n : 1;
    if (cap > SIZE_MAX / elem_size)
        return NULL;
    return realloc(array, cap * elem_size);
}

army_list *army_file_add_army(army_file *f, const char *name)
{
    army_list *a = army_grow(f->armies, f->n_armies, sizeof *a);
    if (!a)
        return NULL;
    f->armies = a;
    a = &f->armies[f->n_armies++];
    memset(a, 0, sizeof *a);
    army_name_copy(a->name, sizeof a->name, name ? name : "");
    return a;
}

army_unit *army_list_add_unit(army_list *a, const char *name)
{
    army_unit *u = army_grow(a->units, a->n_units, sizeof *u);
    if (!u)
        return NULL;
    a->units = u;
    u = &a->units[a->n_units++];
    memset(u, 0, sizeof *u);
    army_name_copy(u->name, sizeof u->name, name);
    u->adv_in = u->mar_in = NAN;
    return u;
}

army_group *army_unit_add_group(army_unit *u, const char *name, int count)
{
    army_group *g = army_grow(u->groups, u->n_groups, sizeof *g);
    if (!g)
        return NULL;
    u->groups = g;
    g = &u->groups[u->n_groups++];
    memset(g, 0, sizeof *g);
    army_name_copy(g->name, sizeof g->name, name);
    g->count = count;
    return g;
}

void army_unit_update_missing(army_unit *u)
{
    u->missing = 0;
    long long sum = 0; /* the readers keep each count within ARMY_MAX_MODELS: no overflow here */
    bool counted = u->n_groups > 0;
    for (size_t g = 0; g < u->n_groups; g++) {
        if (u->groups[g].count <= 0 || u->groups[g].count > ARMY_MAX_MODELS)
            counted = false;
        sum += u->groups[g].count;
        if (!(u->groups[g].base.front_mm > 0))
            u->missing |= ARMY_MISSING_BASE;
    }
    if (counted && sum <= ARMY_MAX_MODELS)
        u->models = (int)sum;
    else if (counted)
        u->models = 0; /* more than a unit can hold: unknown, asked for */
    if (u->models <= 0)
        u->missing |= ARMY_MISSING_COUNT;
    if (u->n_groups == 0)
        u->missing |= ARMY_MISSING_BASE;
    if (isnan(u->adv_in) && !u->adv_dice[0])
        u->missing |= ARMY_MISSING_ADV;
    if (isnan(u->mar_in) && !u->mar_dice[0] && !(u->mar_none && (!isnan(u->adv_in) || u->adv_dice[0])))
        u->missing |= ARMY_MISSING_MAR;
}

const char *army_unit_missing(const army_unit *u, char *buf, size_t cap)
{
    static const struct {
        unsigned bit;
        const char *what;
    } words[] = {{ARMY_MISSING_COUNT, "model count"},
                 {ARMY_MISSING_BASE, "base size"},
                 {ARMY_MISSING_ADV, "Advance Rate"},
                 {ARMY_MISSING_MAR, "March Rate"}};
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (u->missing & words[i].bit) {
            int w = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", words[i].what);
            if (w < 0 || (size_t)w >= cap - n)
                break;
            n += (size_t)w;
        }
    return buf;
}

/* Copies `text` with typographic quotes and the multiplication sign made ASCII, lower-cased. */
static void normalise(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)text;
    while (*p && n + 1 < cap) {
        if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0x9C || p[2] == 0x9D || p[2] == 0xB3)) {
            out[n++] = '"', p += 3; /* " " and the double prime */
        } else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0x98 || p[2] == 0x99)) {
            out[n++] = '\'', p += 3;
        } else if (strncmp((const char *)p, "&quot;", 6) == 0) {
            out[n++] = '"', p += 6; /* some exports escape the inch mark twice */
        } else if (p[0] == 0xC3 && p[1] == 0x97) {
            out[n++] = 'x', p += 2; /* U+00D7 multiplication sign */
        } else if (p[0] == 0xC3 && p[1] == 0x98) {
            out[n++] = 'o', p += 2; /* U+00D8: a round base's diameter */
        } else if (p[0] == 0xE2 && p[1] == 0x8C && p[2] == 0x80) {
            out[n++] = 'o', p += 3; /* U+2300 diameter sign */
        } else {
            out[n++] = (char)tolower(*p++);
        }
    }
    out[n] = '\0';
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

int army_parse_rate(const char *text, double *out, const char **why)
{
    static const char *dummy;
    if (!why)
        why = &dummy;
    char buf[128];
    normalise(text ? text : "", buf, sizeof buf);
    const char *s = buf;
    /* "Ground 7", Fly 7"": the ground rate is the one a move on the table is judged by. */
    const char *g = strstr(s, "ground");
    if (g)
        s = g + 6;
    s = skip_space(s);
    if (*s == '\0') {
        *why = "not given";
        return 0;
    }
    if (*s == '-' && (s[1] == '\0' || s[1] == ' ' || s[1] == ',')) {
        *why = "none (-)";
        return 0;
    }
    if (!isdigit((unsigned char)*s)) {
        *why = *s == 'c' && (s[1] == '\0' || s[1] == ',' || s[1] == ' ') ? "the rider's (C)" : "not a number";
        return 0;
    }
    char *end;
    double v = strtod(s, &end);
    end = (char *)skip_space(end);
    if (*end == 'd') {
        *why = "random (dice)";
        return 0;
    }
    if (!(v >= 0 && v <= 100)) {
        *why = "out of range";
        return 0;
    }
    if (*end != '\0' && *end != '"' && *end != '(' && *end != ',' && strncmp(end, "in", 2) != 0) {
        *why = "not a number";
        return 0;
    }
    *out = v;
    return 1;
}

int army_parse_base(const char *text, army_base *out)
{
    char buf[128];
    normalise(text ? text : "", buf, sizeof buf);
    const char *s = skip_space(buf);
    if (!isdigit((unsigned char)*s))
        return 0;
    char *end;
    double a = strtod(s, &end);
    s = skip_space(end);
    if (strncmp(s, "mm", 2) == 0)
        s = skip_space(s + 2);
    if (*s == 'x') {
        s = skip_space(s + 1);
        if (!isdigit((unsigned char)*s))
            return 0;
        double b = strtod(s, &end);
        if (!(a > 0 && a <= 500 && b > 0 && b <= 500))
            return 0;
        *out = (army_base){a, b, false};
        return 1;
    }
    if (*s == 'o' || strncmp(s, "round", 5) == 0 || strncmp(s, "dia", 3) == 0) {
        if (!(a > 0 && a <= 500))
            return 0;
        *out = (army_base){a, a, true};
        return 1;
    }
    return 0;
}

void army_slug(const char *name, char *out, size_t cap)
{
    size_t n = 0;
    bool dash = false;
    for (const unsigned char *p = (const unsigned char *)name; *p && n + 2 < cap; p++) {
        if (isalnum(*p)) {
            if (dash && n > 0)
                out[n++] = '-';
            out[n++] = (char)tolower(*p);
            dash = false;
        } else {
            dash = true;
        }
    }
    if (n == 0 && cap > 5)
        n = (size_t)snprintf(out, cap, "unit");
    out[n] = '\0';
}
