/* army_names: old and variant names, name keys, edit distance (see the header). */
#include "army_names.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/*
 * Old and variant names -> the name in BSData's T9A data. Data, not code: a
 * line per name, added as players' lists show them. Only renames that are
 * certain belong here; anything else goes through the closest-name search,
 * whose every match is said.
 */
static const struct {
    const char *written, *data;
} aliases[] = {
    {"Winged Chimera", "Chimera"}, /* WDG: the mount as lists wrote it before the 2nd edition */
    {"Chimera (Winged)", "Chimera"},
    {"BSB", "Battle Standard Bearer"},
};

const char *army_names_alias(const char *name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(aliases[i].written, name) == 0)
            return aliases[i].data;
    return NULL;
}

void army_names_key(const char *name, char *out, size_t cap)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && n + 1 < cap; p++)
        if (isalnum(*p) || *p >= 0x80)
            out[n++] = (char)tolower(*p);
    if (n > 3 && out[n - 1] == 's' && out[n - 2] != 's')
        n--; /* "Steam Copters" is "Steam Copter" */
    out[n] = '\0';
}

int army_names_distance(const char *a, const char *b, int limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 95 || lb > 95 || (la > lb ? la - lb : lb - la) > (size_t)limit)
        return limit + 1;
    int row[96], prev[96];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        row[0] = (int)i;
        int best = row[0];
        for (size_t j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            best = row[j] < best ? row[j] : best;
        }
        if (best > limit)
            return limit + 1;
        memcpy(prev, row, (lb + 1) * sizeof *row);
    }
    return prev[lb] > limit ? limit + 1 : prev[lb];
}
