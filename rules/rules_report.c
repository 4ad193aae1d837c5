#include "rules_report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool grow(void **arr, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t ncap = *cap ? *cap * 2 : 4;
    void *p = realloc(*arr, ncap * size);
    if (!p)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

void rules_report_init(rules_report *r)
{
    memset(r, 0, sizeof *r);
    r->legal = true;
}

void rules_suggestion_clear(rules_suggestion *s)
{
    free(s->models);
    memset(s, 0, sizeof *s);
}

int rules_suggestion_set_models(rules_suggestion *s, const rules_suggested_model *models, size_t n)
{
    rules_suggested_model *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return -1;
    if (n)
        memcpy(copy, models, n * sizeof *copy);
    free(s->models);
    s->models = copy;
    s->n_models = n;
    return 0;
}

void rules_unit_report_clear(rules_unit_report *ur)
{
    rules_suggestion_clear(&ur->suggestion);
    for (size_t i = 0; i < ur->n_violations; i++)
        free(ur->violations[i].models);
    free(ur->violations);
    free(ur->models);
    free(ur->notes);
    free(ur->measures);
    for (size_t i = 0; i < ur->n_model_paths; i++)
        free(ur->model_paths[i].points);
    free(ur->model_paths);
    memset(ur, 0, sizeof *ur);
    ur->legal = true;
}

void rules_report_clear(rules_report *r)
{
    for (size_t i = 0; i < r->n_units; i++)
        rules_unit_report_clear(&r->units[i]);
    free(r->units);
    free(r->notes);
    rules_report_init(r);
}

/* snprintf(dst, cap, "%s", src) without the formatting machinery: ids are copied a thousand times a check. */
static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strnlen(src, cap - 1) : 0;
    memcpy(dst, src ? src : "", n);
    dst[n] = '\0';
}

void rules_report_begin(rules_report *r, const rules_snapshot *before, const rules_snapshot *after)
{
    /* Keeps the array of unit reports: a thousand-model table's is a few hundred kB, which malloc would
     * map and unmap on every check (page faults were a tenth of a check judging the same table again). */
    rules_unit_report *units = r->units;
    size_t cap = r->cap_units;
    for (size_t i = 0; i < r->n_units; i++)
        rules_unit_report_clear(&units[i]);
    free(r->notes);
    rules_report_init(r);
    r->units = units;
    r->cap_units = cap;
    r->ruleset = before->ruleset_given || !after->ruleset_given ? before->ruleset : after->ruleset;
}

void rules_unit_report_init(rules_unit_report *ur, const char *unit_id, const char *side, rules_move_type move,
                            bool declared)
{
    memset(ur, 0, sizeof *ur);
    ur->legal = true;
    copy_text(ur->unit_id, sizeof ur->unit_id, unit_id);
    copy_text(ur->side, sizeof ur->side, side);
    ur->move = move;
    ur->declared = declared;
}

int rules_report_reserve(rules_report *r, size_t n)
{
    if (n <= r->cap_units)
        return 0;
    void *p = realloc(r->units, n * sizeof *r->units);
    if (!p)
        return -1;
    r->units = p;
    r->cap_units = n;
    return 0;
}

rules_unit_report *rules_report_add_unit(rules_report *r, const char *unit_id, const char *side)
{
    if (!grow((void **)&r->units, &r->cap_units, r->n_units, sizeof *r->units))
        return NULL;
    rules_unit_report *ur = &r->units[r->n_units++];
    memset(ur, 0, sizeof *ur);
    ur->legal = true;
    copy_text(ur->unit_id, sizeof ur->unit_id, unit_id);
    copy_text(ur->side, sizeof ur->side, side);
    return ur;
}

const char *rules_verdict_word(rules_verdict v)
{
    switch (v) {
    case RULES_VERDICT_LEGAL: return "legal";
    case RULES_VERDICT_ILLEGAL: return "illegal";
    case RULES_VERDICT_CANNOT_TELL: return "cannot_tell";
    case RULES_VERDICT_NOT_SEEN: return "not_seen";
    }
    return "legal";
}

void rules_unit_report_set_verdict(rules_unit_report *ur, rules_verdict v, const char *fmt, ...)
{
    if (ur->needs_roll && v != RULES_VERDICT_NOT_SEEN)
        return; /* no call without the roll: it stays CANNOT_TELL, its reason the roll's */
    ur->verdict = v;
    ur->legal = v != RULES_VERDICT_ILLEGAL;
    if (v != RULES_VERDICT_ILLEGAL)
        rules_suggestion_clear(&ur->suggestion); /* suggestions belong to ILLEGAL calls only */
    ur->why[0] = 0;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ur->why, sizeof ur->why, fmt, ap);
        va_end(ap);
    }
}

void rules_unit_report_needs_roll(rules_unit_report *ur, const char *dice, const char *fmt, ...)
{
    ur->needs_roll = false; /* so that the verdict below is taken */
    rules_unit_report_set_verdict(ur, RULES_VERDICT_CANNOT_TELL, NULL);
    ur->needs_roll = true;
    copy_text(ur->dice, sizeof ur->dice, dice);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ur->why, sizeof ur->why, fmt, ap);
    va_end(ap);
}

void rules_report_refresh(rules_report *r)
{
    r->legal = true;
    for (size_t i = 0; i < r->n_units; i++)
        if (r->units[i].verdict == RULES_VERDICT_ILLEGAL)
            r->legal = false;
}

int rules_report_take_unit(rules_report *r, rules_unit_report *ur)
{
    if (!grow((void **)&r->units, &r->cap_units, r->n_units, sizeof *r->units))
        return -1;
    r->units[r->n_units++] = *ur;
    if (ur->verdict == RULES_VERDICT_ILLEGAL)
        r->legal = false;
    memset(ur, 0, sizeof *ur);
    ur->legal = true;
    return 0;
}

rules_violation *rules_unit_report_add_violation(rules_unit_report *ur, const char *code, rules_quantity q,
                                                 double measured, double limit, const char *fmt, ...)
{
    if (!grow((void **)&ur->violations, &ur->cap_violations, ur->n_violations, sizeof *ur->violations))
        return NULL;
    rules_violation *v = &ur->violations[ur->n_violations++];
    memset(v, 0, sizeof *v);
    copy_text(v->code, sizeof v->code, code);
    v->quantity = q;
    v->measured = measured;
    v->limit = limit;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    /* A violation makes the call ILLEGAL, unless it was already found unsure or unseen. */
    if (ur->verdict == RULES_VERDICT_LEGAL) {
        ur->verdict = RULES_VERDICT_ILLEGAL;
        ur->legal = false;
    }
    return v;
}

int rules_violation_add_model(rules_violation *v, const char *model_id)
{
    for (size_t i = 0; i < v->n_models; i++)
        if (strcmp(v->models[i], model_id) == 0)
            return 0;
    void *p = realloc(v->models, (v->n_models + 1) * sizeof *v->models);
    if (!p)
        return -1;
    v->models = p;
    copy_text(v->models[v->n_models++], RULES_ID_MAX, model_id);
    return 0;
}

static int add_note(char (**notes)[RULES_TEXT_MAX], size_t *n, size_t *cap, const char *fmt, va_list ap)
{
    if (!grow((void **)notes, cap, *n, sizeof **notes))
        return -1;
    if (!strchr(fmt, '%'))
        copy_text((*notes)[*n], RULES_TEXT_MAX, fmt); /* a fixed sentence: no formatting to pay for */
    else
        vsnprintf((*notes)[*n], RULES_TEXT_MAX, fmt, ap);
    (*n)++;
    return 0;
}

int rules_unit_report_add_note(rules_unit_report *ur, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = add_note(&ur->notes, &ur->n_notes, &ur->cap_notes, fmt, ap);
    va_end(ap);
    return rc;
}

int rules_unit_report_note_missing(rules_unit_report *ur, const rules_unit *before, const rules_unit *after)
{
    size_t missing = 0, listed = 0;
    const char *first = NULL;
    for (size_t j = 0; j < before->n_models; j++)
        if (!rules_unit_find_model(after, before->models[j].id))
            first = first ? first : before->models[j].id, missing++;
    if (missing <= 1)
        return missing ? rules_unit_report_add_note(ur, "Model %s is not in the after snapshot (removed or not seen).",
                                                    first)
                       : 0;
    /* The ids while they fit, leaving room for " and NNNN more." */
    char ids[RULES_TEXT_MAX - 80];
    size_t off = 0;
    ids[0] = 0;
    for (size_t j = 0; j < before->n_models; j++) {
        const char *id = before->models[j].id;
        if (rules_unit_find_model(after, id))
            continue;
        if (off + strlen(id) + 2 >= sizeof ids)
            break;
        off += (size_t)snprintf(ids + off, sizeof ids - off, "%s%s", listed ? ", " : "", id);
        listed++;
    }
    if (listed == missing)
        return rules_unit_report_add_note(ur, "%zu models are not in the after snapshot (removed or not seen): %s.",
                                          missing, ids);
    return rules_unit_report_add_note(ur, "%zu models are not in the after snapshot (removed or not seen): %s and %zu "
                                          "more.",
                                      missing, ids, missing - listed);
}

int rules_report_add_note(rules_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = add_note(&r->notes, &r->n_notes, &r->cap_notes, fmt, ap);
    va_end(ap);
    return rc;
}

int rules_unit_report_add_measure(rules_unit_report *ur, const char *name, rules_quantity q, double value)
{
    if (!grow((void **)&ur->measures, &ur->cap_measures, ur->n_measures, sizeof *ur->measures))
        return -1;
    rules_measure *m = &ur->measures[ur->n_measures++];
    copy_text(m->name, sizeof m->name, name);
    m->quantity = q;
    m->value = value;
    return 0;
}

int rules_unit_report_add_model_path(rules_unit_report *ur, const char *model_id, const base_vec2 *points,
                                     size_t n, double length_mm)
{
    if (!grow((void **)&ur->model_paths, &ur->cap_model_paths, ur->n_model_paths, sizeof *ur->model_paths))
        return -1;
    base_vec2 *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return -1;
    if (n)
        memcpy(copy, points, n * sizeof *copy);
    rules_model_path *mp = &ur->model_paths[ur->n_model_paths++];
    memset(mp, 0, sizeof *mp);
    copy_text(mp->id, sizeof mp->id, model_id);
    mp->points = copy;
    mp->n_points = n;
    mp->length_mm = length_mm;
    return 0;
}

const rules_violation *rules_unit_report_find(const rules_unit_report *ur, const char *code)
{
    for (size_t i = 0; i < ur->n_violations; i++)
        if (strcmp(ur->violations[i].code, code) == 0)
            return &ur->violations[i];
    return NULL;
}

rules_unit_report *rules_report_find_unit(const rules_report *r, const char *unit_id)
{
    for (size_t i = 0; i < r->n_units; i++)
        if (strcmp(r->units[i].unit_id, unit_id) == 0)
            return &r->units[i];
    return NULL;
}
