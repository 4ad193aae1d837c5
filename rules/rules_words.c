/* rules_words: a judged unit's call in one sentence (see the header). */
#include "rules_words.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base_geom.h"
#include "base_text.h"
#include "rules_plusminus.h"

/* The rows' words (rules_moves.def): the one place a move's words are read from. */
static const struct {
    const char *word, *title, *limit;
} move_words[RULES_MOVE_COUNT] = {
#define RULES_MOVE_ROW(ID, token, word, title, limit, rate, key, flags, judge, suggest)                               \
    [RULES_MOVE_##ID] = {word, title, limit},
#include "rules_moves.def"
#undef RULES_MOVE_ROW
};

static bool is_row(rules_move_type t)
{
    return (int)t >= 0 && t < RULES_MOVE_COUNT;
}

const char *rules_words_move(rules_move_type t)
{
    return is_row(t) ? move_words[t].word : "?";
}

const char *rules_words_move_title(rules_move_type t)
{
    return is_row(t) ? move_words[t].title : "move";
}

const char *rules_words_move_limit(rules_move_type t)
{
    return is_row(t) ? move_words[t].limit : "limit";
}

void rules_words_moves_either(unsigned flags, bool titles, char *buf, size_t cap)
{
    size_t n = 0, off = 0, total = 0;
    for (int t = 0; t < RULES_MOVE_COUNT; t++)
        total += t != RULES_MOVE_NONE && t != RULES_MOVE_AUTO && rules_move_has((rules_move_type)t, flags);
    if (cap)
        buf[0] = 0;
    for (int t = 0; t < RULES_MOVE_COUNT && off + 1 < cap; t++) {
        if (t == RULES_MOVE_NONE || t == RULES_MOVE_AUTO || !rules_move_has((rules_move_type)t, flags))
            continue;
        const char *w = titles ? move_words[t].title : move_words[t].word;
        const char *sep = n == 0 ? "" : n + 1 == total ? " or " : ", ";
        int k = snprintf(buf + off, cap - off, "%s%s %s", sep, strchr("aeiouAEIOU", w[0]) ? "an" : "a", w);
        off = k < 0 ? cap : off + (size_t)k;
        n++;
    }
}

const char *rules_words_verdict_title(rules_verdict v)
{
    switch (v) {
    case RULES_VERDICT_LEGAL: return "LEGAL";
    case RULES_VERDICT_ILLEGAL: return "ILLEGAL";
    case RULES_VERDICT_CANNOT_TELL: return "CANNOT TELL";
    case RULES_VERDICT_NOT_SEEN: return "NOT SEEN";
    }
    return "LEGAL";
}

const char *rules_words_call_title(const rules_unit_report *u)
{
    return u->needs_roll ? "NEEDS THE ROLL" : rules_words_verdict_title(u->verdict);
}

/* What rounds to 0.00" or to 0.0 deg in print. */
#define ZERO_PRINTED_MM (0.005 * BASE_MM_PER_INCH)
#define ZERO_PRINTED_DEG 0.05

bool rules_words_step_shown(const rules_step *s)
{
    if (s->kind == RULES_STEP_PIVOT)
        return base_rad_to_deg(fabs(s->angle_rad)) >= ZERO_PRINTED_DEG;
    return s->length_mm >= ZERO_PRINTED_MM;
}

void rules_words_path(const rules_unit_report *u, char *buf, size_t cap)
{
    size_t off = 0;
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; u->has_path && i < u->path.n_steps && off + 1 < cap; i++) {
        const rules_step *st = &u->path.steps[i];
        if (!rules_words_step_shown(st))
            continue;
        char step[128];
        rules_step_describe(st, step, sizeof step);
        int n = snprintf(buf + off, cap - off, "%s%s", off ? ", " : "", step);
        off = n < 0 ? cap : off + (size_t)n;
    }
}

void rules_words_length(double mm, double pm_mm, char *buf, size_t cap)
{
    if (isfinite(pm_mm) && pm_mm >= ZERO_PRINTED_MM)
        snprintf(buf, cap, "%.2f\" \xC2\xB1 %.2f\"", base_mm_to_in(mm), base_mm_to_in(pm_mm));
    else
        snprintf(buf, cap, "%.2f\"", base_mm_to_in(mm));
}

/* Appends printf-style to buf at *off, never past cap. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void add(char *buf, size_t cap, size_t *off, const char *fmt, ...)
{
    if (*off + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *off, cap - *off, fmt, ap);
    va_end(ap);
    *off = n < 0 || *off + (size_t)n >= cap ? cap - 1 : *off + (size_t)n;
}

/* " [spears-7 moved 3.53\" ± 0.02\", limit 8.00\"]": the model that went farthest, with its +/-. */
static void add_farthest(const rules_unit_report *u, const rules_snapshot *before, const rules_snapshot *after,
                         char *buf, size_t cap, size_t *off)
{
    const rules_model_move *far = NULL;
    for (size_t i = 0; i < u->n_models; i++)
        if (isfinite(u->models[i].distance_mm) && (!far || u->models[i].distance_mm > far->distance_mm))
            far = &u->models[i];
    if (!far)
        return;
    rules_pm_params p;
    rules_pm_params_default(&p);
    char d[64];
    rules_words_length(far->distance_mm, rules_pm_distance(&p, before, after, far->id), d, sizeof d);
    add(buf, cap, off, " [%s moved %s", far->id, d);
    if (u->rate_mm > 0)
        add(buf, cap, off, ", limit %.2f\"", base_mm_to_in(u->rate_mm));
    add(buf, cap, off, "]");
}

/* " [measured 10.38\" ± 0.02\", limit 10.00\"]" for the first rule broken. */
static void add_measured(const rules_unit_report *u, const rules_violation *v, const rules_snapshot *before,
                         const rules_snapshot *after, char *buf, size_t cap, size_t *off)
{
    rules_pm_params p;
    rules_pm_params_default(&p);
    double pm = rules_pm_violation(&p, before, after, u, v);
    if (v->quantity == RULES_QTY_LENGTH) {
        char m[64];
        rules_words_length(v->measured, pm, m, sizeof m);
        add(buf, cap, off, " [measured %s, limit %.2f\"]", m, base_mm_to_in(v->limit));
    } else if (v->quantity == RULES_QTY_ANGLE) {
        add(buf, cap, off, " [measured %.1f deg", base_rad_to_deg(v->measured));
        if (isfinite(pm) && base_rad_to_deg(pm) >= ZERO_PRINTED_DEG)
            add(buf, cap, off, " \xC2\xB1 %.1f deg", base_rad_to_deg(pm));
        add(buf, cap, off, ", limit %.1f deg]", base_rad_to_deg(v->limit));
    }
}

void rules_words_partial(const rules_unit *before, const rules_unit *after, char *buf, size_t cap)
{
    if (cap == 0)
        return;
    buf[0] = 0;
    const bool in_part[2] = {rules_unit_partly_placed(before), rules_unit_partly_placed(after)};
    if (!in_part[0] && !in_part[1])
        return;
    size_t total = before->n_models, off = 0;
    for (size_t j = 0; j < after->n_models; j++)
        total += !rules_unit_find_model(before, after->models[j].id);
    if (!in_part[0] || !in_part[1]) {
        rules_words_partial_in(in_part[0] ? before->n_models : after->n_models, total, in_part[0] ? "before" : "after",
                               buf, cap);
        return;
    }
    /* neither picture holds them all: no total to give */
    add(buf, cap, &off, "%zu models seen in the before picture and %zu in the after, its formation cannot be told",
        before->n_models, after->n_models);
}

void rules_words_partial_in(size_t seen, size_t total, const char *picture, char *buf, size_t cap)
{
    if (cap == 0)
        return;
    buf[0] = 0;
    size_t off = 0;
    add(buf, cap, &off, "%zu of %zu models seen in the %s%spicture, its formation cannot be told", seen, total,
        picture ? picture : "", picture ? " " : "");
}

static void words_call(const rules_unit_report *u, const rules_snapshot *before, const rules_snapshot *after,
                       char *buf, size_t cap)
{
    if (cap == 0)
        return;
    buf[0] = 0;
    size_t off = 0;
    if (u->verdict == RULES_VERDICT_NOT_SEEN) {
        add(buf, cap, &off, "%s: not seen, cannot judge%s%s", u->unit_id, u->why[0] ? ": " : ".", u->why);
        return;
    }
    const char *dir = u->direction ? u->direction : "";
    if (u->needs_roll) { /* random movement: no call until the roll is declared */
        if (u->move == RULES_MOVE_AUTO)
            add(buf, cap, &off, "%s: %s", u->unit_id, u->why);
        else
            add(buf, cap, &off, "%s: %s, %s", u->unit_id, rules_words_move(u->move), u->why);
        return;
    }
    add(buf, cap, &off, "%s: %s%s%s", u->unit_id, rules_words_move(u->move), dir[0] ? " " : "", dir);
    if (u->verdict == RULES_VERDICT_CANNOT_TELL) {
        add(buf, cap, &off, ", cannot tell: %s",
            u->why[0] ? u->why : "the evidence allows both a legal and an illegal placement");
        add_farthest(u, before, after, buf, cap, &off);
        return;
    }
    if (u->verdict == RULES_VERDICT_ILLEGAL && u->n_violations) {
        add(buf, cap, &off, ", ILLEGAL: %s", u->violations[0].message);
        add_measured(u, &u->violations[0], before, after, buf, cap, &off);
        if (u->n_violations > 1)
            add(buf, cap, &off, " (and %zu more rule%s broken)", u->n_violations - 1,
                u->n_violations == 2 ? "" : "s");
        return;
    }
    char how[RULES_WORDS_MAX / 2];
    rules_words_path(u, how, sizeof how);
    if (how[0])
        add(buf, cap, &off, " (%s)", how);
    add(buf, cap, &off, ", %s", u->verdict == RULES_VERDICT_ILLEGAL ? "ILLEGAL" : "legal");
    add_farthest(u, before, after, buf, cap, &off);
}

void rules_words_call(const rules_unit_report *u, const rules_snapshot *before, const rules_snapshot *after,
                      char *buf, size_t cap)
{
    words_call(u, before, after, buf, cap);
    if (cap)
        base_text_trim_cut(buf); /* a sentence cut to its buffer never ends inside a character */
}
