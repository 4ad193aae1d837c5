/* rules_dice: a rate that is a roll of dice (see the header). */
#include "rules_dice.h"

#include <ctype.h>
#include <stdio.h>

/* Digits at *p (at most two), their value; -1 when none. */
static int small_number(const char **p)
{
    int v = -1, k = 0;
    while (isdigit((unsigned char)**p) && k++ < 2) {
        v = (v < 0 ? 0 : v * 10) + (**p - '0');
        (*p)++;
    }
    return isdigit((unsigned char)**p) ? -2 : v;
}

static const char *spaces(const char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

int rules_dice_parse(const char *text, rules_dice *out)
{
    if (!text)
        return -1;
    const char *p = spaces(text);
    int n = small_number(&p);
    if (n == -2 || n == 0 || (*p != 'D' && *p != 'd'))
        return -1;
    p++;
    int sides = small_number(&p);
    if (sides != 3 && sides != 6)
        return -1;
    p = spaces(p);
    int plus = 0;
    if (*p == '+' || *p == '-') {
        const char sign = *p;
        p = spaces(p + 1);
        if ((plus = small_number(&p)) < 0 || plus > 10)
            return -1;
        plus = sign == '-' ? -plus : plus;
        p = spaces(p);
    }
    if (*p == '"')
        p = spaces(p + 1);
    if (*p || (n < 0 ? 1 : n) > 10)
        return -1;
    *out = (rules_dice){n < 0 ? 1 : n, sides, plus};
    return 0;
}

void rules_dice_range(const rules_dice *d, int *lo, int *hi)
{
    *lo = d->n + d->plus;
    *hi = d->n * d->sides + d->plus;
}

void rules_dice_format(const rules_dice *d, char *buf, size_t cap)
{
    if (d->plus)
        snprintf(buf, cap, "%dD%d%+d", d->n, d->sides, d->plus);
    else
        snprintf(buf, cap, "%dD%d", d->n, d->sides);
}
