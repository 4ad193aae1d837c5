/* rules_moves: the rows of rules_moves.def as data: tokens, flags, rates (see the header). */
#include "rules_moves.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct move_row {
    const char *token;
    rules_move_rate rate;
    const char *key;
    unsigned flags;
} move_row;

static const move_row rows[RULES_MOVE_COUNT] = {
#define RULES_MOVE_ROW(ID, token, word, title, limit, rate, key, flags, judge, suggest)                               \
    [RULES_MOVE_##ID] = {token, rate, key, flags},
#include "rules_moves.def"
#undef RULES_MOVE_ROW
};

static const move_row *row_of(rules_move_type t)
{
    return (int)t >= 0 && t < RULES_MOVE_COUNT ? &rows[t] : NULL;
}

const char *rules_move_token(rules_move_type t)
{
    const move_row *r = row_of(t);
    return r ? r->token : "?";
}

const char *rules_move_word(rules_move_type t)
{
    return rules_move_token(t);
}

int rules_move_from_token(const char *token, rules_move_type *out)
{
    for (int i = 0; token && i < RULES_MOVE_COUNT; i++)
        if ((rows[i].flags & RULES_MOVE_OPTION) && strcmp(rows[i].token, token) == 0) {
            *out = (rules_move_type)i;
            return 0;
        }
    return -1;
}

bool rules_move_has(rules_move_type t, unsigned flags)
{
    const move_row *r = row_of(t);
    return r && (r->flags & flags) == flags;
}

rules_move_rate rules_move_rate_of(rules_move_type t)
{
    const move_row *r = row_of(t);
    return r ? r->rate : RULES_RATE_REPORT;
}

const char *rules_move_key(rules_move_type t)
{
    const move_row *r = row_of(t);
    return r ? r->key : NULL;
}

const char *rules_move_unit_dice(rules_move_type t, const rules_unit *u)
{
    switch (rules_move_rate_of(t)) {
    case RULES_RATE_ADVANCE: return u->advance_dice[0] ? u->advance_dice : NULL;
    case RULES_RATE_MARCH: return u->march_dice[0] ? u->march_dice : NULL;
    default: return NULL;
    }
}

double rules_move_unit_rate(rules_move_type t, const rules_unit *u)
{
    if (rules_move_unit_dice(t, u))
        return u->roll_mm;
    switch (rules_move_rate_of(t)) {
    case RULES_RATE_ADVANCE: return u->advance_rate;
    case RULES_RATE_MARCH: return u->march_rate;
    default: return NAN;
    }
}

size_t rules_move_tokens(unsigned with, unsigned without, const char *sep, const char *last, char *buf, size_t cap)
{
    const char *pick[RULES_MOVE_COUNT];
    size_t n = 0, off = 0;
    for (int i = 0; i < RULES_MOVE_COUNT; i++)
        if (i != RULES_MOVE_NONE && i != RULES_MOVE_AUTO && (rows[i].flags & with) == with && !(rows[i].flags & without))
            pick[n++] = rows[i].token;
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; i < n && off + 1 < cap; i++) {
        int w = snprintf(buf + off, cap - off, "%s%s", i == 0 ? "" : i + 1 == n ? last : sep, pick[i]);
        off = w < 0 ? cap : off + (size_t)w;
    }
    return n;
}
