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

static const army_rename renames[] = {
#define ARMY_RENAME(army, old, now, book, commit) {army, old, now, book, commit},
#include "army_renames.def"
#undef ARMY_RENAME
};

const army_rename *army_names_renamed(const char *army, const char *name)
{
    char want[128], key[128], a[128], b[128];
    army_names_key(name, want, sizeof want);
    if (army && army[0])
        army_names_fold(army, a, sizeof a);
    const army_rename *close = NULL;
    for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++) {
        const army_rename *r = &renames[i];
        army_names_fold(r->army, b, sizeof b);
        if (army && army[0] && strcmp(a, b) != 0)
            continue;
        if (strcasecmp(r->old, name) == 0)
            return r;
        army_names_key(r->old, key, sizeof key);
        if (!close && strlen(want) >= 8 && army_names_distance(want, key, 1) <= 1)
            close = r;
    }
    return close;
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

/* U+00C0..U+017F: the letter each is read as, lower case; digits stand for two letters ('1' ae, '2' th, '3' ss,
 * '4' ij, '5' oe), '_' for signs that are no letter (x, division). */
static const char latin[] = "aaaaaa1ceeeeiiiidnooooo_ouuuuy23aaaaaa1ceeeeiiiidnooooo_ouuuuy2y"
                            "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii44jjkkkllllllllllnnnnnnnnnoooooo55rrrrrrsss"
                            "sssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

void army_names_fold(const char *name, char *out, size_t cap)
{
    static const char *const pairs[] = {"ae", "th", "ss", "ij", "oe"};
    size_t n = 0;
    if (!cap)
        return;
    for (const unsigned char *p = (const unsigned char *)name; *p && n + 2 < cap; p++) {
        unsigned cp = 0;
        if ((p[0] == 0xC3 || p[0] == 0xC4 || p[0] == 0xC5) && (p[1] & 0xC0) == 0x80)
            cp = ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
        if (cp >= 0xC0 && cp < 0x180) {
            char c = latin[cp - 0xC0];
            if (c >= '1' && c <= '5') {
                out[n++] = pairs[c - '1'][0];
                out[n++] = pairs[c - '1'][1];
            } else {
                out[n++] = c;
            }
            p++;
            continue;
        }
        out[n++] = (char)tolower(*p);
    }
    out[n] = '\0';
}

bool army_names_contains(const char *name, const char *part)
{
    char a[256], b[256];
    army_names_fold(name, a, sizeof a);
    army_names_fold(part, b, sizeof b);
    return b[0] && strstr(a, b) != NULL;
}
