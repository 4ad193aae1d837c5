#include "rules_report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rules_json.h"

static const struct {
    rules_move_type type;
    const char *word;
} move_words[] = {
    {RULES_MOVE_NONE, "none"},
    {RULES_MOVE_AUTO, "auto"},
    {RULES_MOVE_ADVANCE, "advance"},
    {RULES_MOVE_MARCH, "march"},
    {RULES_MOVE_REFORM, "reform"},
    {RULES_MOVE_REFORM_MOVE, "reform-move"},
    {RULES_MOVE_COMBAT_REFORM, "combat-reform"},
    {RULES_MOVE_PURSUIT, "pursuit"},
    {RULES_MOVE_FORMATION, "formation"},
};

const char *rules_move_word(rules_move_type t)
{
    for (size_t i = 0; i < sizeof move_words / sizeof move_words[0]; i++)
        if (move_words[i].type == t)
            return move_words[i].word;
    return "?";
}

int rules_move_from_word(const char *word, rules_move_type *out)
{
    for (size_t i = 0; i < sizeof move_words / sizeof move_words[0]; i++)
        if (strcmp(move_words[i].word, word) == 0 && move_words[i].type != RULES_MOVE_NONE) {
            *out = move_words[i].type;
            return 0;
        }
    return -1;
}

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
    rules_report_clear(r);
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
    ur->verdict = v;
    ur->legal = v != RULES_VERDICT_ILLEGAL;
    ur->why[0] = 0;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ur->why, sizeof ur->why, fmt, ap);
        va_end(ap);
    }
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

int rules_unit_report_add_model_path(rules_unit_report *ur, const char *model_id, const rules_vec2 *points,
                                     size_t n, double length_mm)
{
    if (!grow((void **)&ur->model_paths, &ur->cap_model_paths, ur->n_model_paths, sizeof *ur->model_paths))
        return -1;
    rules_vec2 *copy = malloc((n ? n : 1) * sizeof *copy);
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

/* ---- JSON ------------------------------------------------------------- */

/* Adds "<key>_mm" and "<key>_in" for a length. */
static void add_length(cJSON *o, const char *key, double mm)
{
    char k[64];
    snprintf(k, sizeof k, "%s_mm", key);
    rules_json_add_number(o, k, mm, 2);
    snprintf(k, sizeof k, "%s_in", key);
    rules_json_add_number(o, k, rules_mm_to_in(mm), 3);
}

static void add_quantity(cJSON *o, const char *key, rules_quantity q, double v)
{
    char k[64];
    switch (q) {
    case RULES_QTY_LENGTH: add_length(o, key, v); break;
    case RULES_QTY_ANGLE:
        snprintf(k, sizeof k, "%s_deg", key);
        rules_json_add_number(o, k, rules_rad_to_deg(v), 2);
        break;
    case RULES_QTY_COUNT: rules_json_add_number(o, key, v, 3); break;
    }
}

static const char *quantity_word(rules_quantity q)
{
    return q == RULES_QTY_LENGTH ? "length" : q == RULES_QTY_ANGLE ? "angle" : "count";
}

static cJSON *path_to_json(const rules_unit_report *ur)
{
    cJSON *p = cJSON_CreateObject();
    add_length(p, "length", ur->path.length_mm);
    cJSON *steps = cJSON_AddArrayToObject(p, "steps");
    for (size_t i = 0; i < ur->path.n_steps; i++) {
        const rules_step *s = &ur->path.steps[i];
        cJSON *js = cJSON_CreateObject();
        cJSON_AddStringToObject(js, "kind", rules_step_word(s->kind));
        add_length(js, "length", s->length_mm);
        if (s->kind == RULES_STEP_WHEEL_LEFT || s->kind == RULES_STEP_WHEEL_RIGHT || s->kind == RULES_STEP_PIVOT)
            rules_json_add_number(js, "angle_deg", rules_rad_to_deg(s->angle_rad), 2);
        char text[128];
        rules_step_describe(s, text, sizeof text);
        cJSON_AddStringToObject(js, "text", text);
        cJSON_AddItemToArray(steps, js);
    }
    cJSON *start = cJSON_AddObjectToObject(p, "start");
    rules_json_add_number(start, "x_mm", ur->pose_before.front_centre.x, 2);
    rules_json_add_number(start, "y_mm", ur->pose_before.front_centre.y, 2);
    rules_json_add_number(start, "facing_deg", rules_rad_to_deg(ur->pose_before.heading), 2);
    rules_json_add_number(p, "front_width_mm", ur->front_width_mm, 2);
    return p;
}

static cJSON *suggestion_to_json(const rules_suggestion *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "found", s->found);
    cJSON_AddStringToObject(o, "text", s->text);
    if (!s->found)
        return o;
    cJSON_AddStringToObject(o, "move", rules_move_word(s->move));
    cJSON_AddBoolToObject(o, "remove", s->remove);
    add_length(o, "shift", s->shift_mm);
    if (s->back_along_path_mm > 0)
        add_length(o, "back_along_path", s->back_along_path_mm);
    if (s->remove)
        return o;
    cJSON *pose = cJSON_AddObjectToObject(o, "pose");
    rules_json_add_number(pose, "x_mm", s->pose.front_centre.x, 2);
    rules_json_add_number(pose, "y_mm", s->pose.front_centre.y, 2);
    rules_json_add_number(pose, "facing_deg", rules_rad_to_deg(s->pose.heading), 2);
    cJSON *models = cJSON_AddArrayToObject(o, "models");
    for (size_t i = 0; i < s->n_models; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "id", s->models[i].id);
        rules_json_add_number(m, "x_mm", s->models[i].pos.x, 3);
        rules_json_add_number(m, "y_mm", s->models[i].pos.y, 3);
        rules_json_add_number(m, "facing_deg", rules_rad_to_deg(s->models[i].facing), 3);
        cJSON_AddItemToArray(models, m);
    }
    return o;
}

static cJSON *unit_to_json(const rules_unit_report *ur)
{
    cJSON *u = cJSON_CreateObject();
    cJSON_AddStringToObject(u, "unit", ur->unit_id);
    cJSON_AddStringToObject(u, "side", ur->side);
    cJSON_AddStringToObject(u, "move", rules_move_word(ur->move));
    cJSON_AddBoolToObject(u, "declared", ur->declared);
    if (ur->direction)
        cJSON_AddStringToObject(u, "direction", ur->direction);
    cJSON_AddBoolToObject(u, "legal", ur->legal);
    cJSON_AddStringToObject(u, "verdict", rules_verdict_word(ur->verdict));
    if (ur->why[0])
        cJSON_AddStringToObject(u, "why", ur->why);
    if (ur->rate_mm > 0)
        add_length(u, "rate", ur->rate_mm);

    cJSON *models = cJSON_AddArrayToObject(u, "models");
    for (size_t i = 0; i < ur->n_models; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "id", ur->models[i].id);
        add_length(m, "distance", ur->models[i].distance_mm);
        if (ur->models[i].inferred)
            cJSON_AddBoolToObject(m, "inferred", true);
        cJSON_AddItemToArray(models, m);
    }
    cJSON *centre = cJSON_AddObjectToObject(u, "centre");
    double before[2] = {round(ur->centre_before.x * 100) / 100, round(ur->centre_before.y * 100) / 100};
    double after[2] = {round(ur->centre_after.x * 100) / 100, round(ur->centre_after.y * 100) / 100};
    cJSON_AddItemToObject(centre, "before_mm", cJSON_CreateDoubleArray(before, 2));
    cJSON_AddItemToObject(centre, "after_mm", cJSON_CreateDoubleArray(after, 2));
    add_length(centre, "displacement", ur->centre_displacement_mm);
    rules_json_add_number(u, "rotation_deg", rules_rad_to_deg(ur->rotation_rad), 2);
    cJSON *form = cJSON_AddObjectToObject(u, "formation");
    cJSON *fb = cJSON_AddObjectToObject(form, "before");
    cJSON_AddNumberToObject(fb, "files", ur->files_before);
    cJSON_AddNumberToObject(fb, "ranks", ur->ranks_before);
    cJSON *fa = cJSON_AddObjectToObject(form, "after");
    cJSON_AddNumberToObject(fa, "files", ur->files_after);
    cJSON_AddNumberToObject(fa, "ranks", ur->ranks_after);
    if (ur->has_path)
        cJSON_AddItemToObject(u, "path", path_to_json(ur));
    else
        cJSON_AddNullToObject(u, "path");

    if (ur->n_measures) {
        cJSON *ms = cJSON_AddObjectToObject(u, "measurements");
        for (size_t i = 0; i < ur->n_measures; i++)
            add_quantity(ms, ur->measures[i].name, ur->measures[i].quantity, ur->measures[i].value);
    }

    if (ur->n_model_paths) {
        cJSON *mps = cJSON_AddArrayToObject(u, "model_paths");
        for (size_t i = 0; i < ur->n_model_paths; i++) {
            const rules_model_path *mp = &ur->model_paths[i];
            cJSON *jp = cJSON_CreateObject();
            cJSON_AddStringToObject(jp, "id", mp->id);
            if (isfinite(mp->length_mm))
                add_length(jp, "length", mp->length_mm);
            else
                cJSON_AddNullToObject(jp, "length_mm");
            cJSON *pts = cJSON_AddArrayToObject(jp, "points_mm");
            for (size_t k = 0; k < mp->n_points; k++) {
                double xy[2] = {round(mp->points[k].x * 100) / 100, round(mp->points[k].y * 100) / 100};
                cJSON_AddItemToArray(pts, cJSON_CreateDoubleArray(xy, 2));
            }
            cJSON_AddItemToArray(mps, jp);
        }
    }

    cJSON *vs = cJSON_AddArrayToObject(u, "violations");
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        cJSON *jv = cJSON_CreateObject();
        cJSON_AddStringToObject(jv, "code", v->code);
        cJSON *mids = cJSON_AddArrayToObject(jv, "models");
        for (size_t k = 0; k < v->n_models; k++)
            cJSON_AddItemToArray(mids, cJSON_CreateString(v->models[k]));
        cJSON_AddStringToObject(jv, "quantity", quantity_word(v->quantity));
        add_quantity(jv, "measured", v->quantity, v->measured);
        add_quantity(jv, "limit", v->quantity, v->limit);
        cJSON_AddStringToObject(jv, "message", v->message);
        cJSON_AddItemToArray(vs, jv);
    }
    cJSON *notes = cJSON_AddArrayToObject(u, "notes");
    for (size_t i = 0; i < ur->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(ur->notes[i]));
    if (ur->suggestion.found || ur->suggestion.text[0])
        cJSON_AddItemToObject(u, "suggestion", suggestion_to_json(&ur->suggestion));
    return u;
}

cJSON *rules_report_to_json(const rules_report *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "tableref.report");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddBoolToObject(root, "legal", r->legal);
    cJSON *rs = cJSON_AddObjectToObject(root, "ruleset");
    cJSON_AddStringToObject(rs, "name", r->ruleset.name);
    cJSON_AddStringToObject(rs, "wheel_measure", r->ruleset.wheel_measure == RULES_WHEEL_CHORD ? "chord" : "arc");
    cJSON *units = cJSON_AddArrayToObject(root, "units");
    for (size_t i = 0; i < r->n_units; i++)
        cJSON_AddItemToArray(units, unit_to_json(&r->units[i]));
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    for (size_t i = 0; i < r->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(r->notes[i]));
    return root;
}

/* ---- text ------------------------------------------------------------- */

static void format_quantity(char *buf, size_t cap, rules_quantity q, double v)
{
    switch (q) {
    case RULES_QTY_LENGTH: snprintf(buf, cap, "%.2f\"", rules_mm_to_in(v)); break;
    case RULES_QTY_ANGLE: snprintf(buf, cap, "%.1f deg", rules_rad_to_deg(v)); break;
    case RULES_QTY_COUNT: snprintf(buf, cap, "%g", v); break;
    }
}

static const char *verdict_caps(rules_verdict v)
{
    switch (v) {
    case RULES_VERDICT_LEGAL: return "LEGAL";
    case RULES_VERDICT_ILLEGAL: return "ILLEGAL";
    case RULES_VERDICT_CANNOT_TELL: return "CANNOT TELL";
    case RULES_VERDICT_NOT_SEEN: return "NOT SEEN, cannot judge";
    }
    return "LEGAL";
}

static void print_unit(const rules_unit_report *ur, FILE *out)
{
    fprintf(out, "unit %s (%s): %s%s%s%s: %s\n", ur->unit_id, ur->side, rules_move_word(ur->move),
            ur->direction ? " " : "", ur->direction ? ur->direction : "", ur->declared ? "" : " (inferred)",
            verdict_caps(ur->verdict));
    if (ur->why[0])
        fprintf(out, "  %s: %s\n", ur->verdict == RULES_VERDICT_NOT_SEEN ? "not seen" : "cannot tell", ur->why);
    if (ur->files_before > 0) /* rules without ranks and files (Dynamic Formations) leave them at 0 */
        fprintf(out, "  formation %dx%d -> %dx%d (files x ranks); centre moved %.2f\", rotated %.1f deg\n",
                ur->files_before, ur->ranks_before, ur->files_after, ur->ranks_after,
                rules_mm_to_in(ur->centre_displacement_mm), rules_rad_to_deg(ur->rotation_rad));
    if (ur->has_path) {
        fprintf(out, "  shortest path: ");
        size_t shown = 0;
        for (size_t i = 0; i < ur->path.n_steps; i++) {
            /* A step that rounds to 0.00" (camera jitter's tiny wheels) says nothing to a player; the JSON keeps it. */
            if (ur->path.steps[i].length_mm < 0.127)
                continue;
            char step[128];
            rules_step_describe(&ur->path.steps[i], step, sizeof step);
            fprintf(out, "%s%s", shown++ ? ", " : "", step);
        }
        if (shown == 0)
            fprintf(out, "none needed");
        fprintf(out, " = %.2f\"", rules_mm_to_in(ur->path.length_mm));
        if (ur->rate_mm > 0)
            fprintf(out, " (limit %.2f\")", rules_mm_to_in(ur->rate_mm));
        fprintf(out, "\n");
    }
    for (size_t i = 0; i < ur->n_measures; i++) {
        char v[48];
        format_quantity(v, sizeof v, ur->measures[i].quantity, ur->measures[i].value);
        fprintf(out, "  %s: %s\n", ur->measures[i].name, v);
    }
    if (ur->n_models) {
        fprintf(out, "  %-20s %9s %9s\n", "model", "moved", "limit");
        for (size_t i = 0; i < ur->n_models; i++) {
            const rules_model_move *m = &ur->models[i];
            bool over = ur->rate_mm > 0 && ur->move != RULES_MOVE_NONE && m->distance_mm > ur->rate_mm;
            char lim[16] = "-";
            if (ur->rate_mm > 0)
                snprintf(lim, sizeof lim, "%.2f\"", rules_mm_to_in(ur->rate_mm));
            fprintf(out, "  %-20s %8.2f\" %9s%s%s\n", m->id, rules_mm_to_in(m->distance_mm), lim,
                    over ? "  << too far" : "", m->inferred ? "  (inferred)" : "");
        }
    }
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        char meas[48], lim[48];
        format_quantity(meas, sizeof meas, v->quantity, v->measured);
        format_quantity(lim, sizeof lim, v->quantity, v->limit);
        fprintf(out, "  VIOLATION %s: %s [measured %s, limit %s", v->code, v->message, meas, lim);
        if (v->n_models) {
            fprintf(out, "; models");
            for (size_t k = 0; k < v->n_models; k++)
                fprintf(out, " %s", v->models[k]);
        }
        fprintf(out, "]\n");
    }
    for (size_t i = 0; i < ur->n_notes; i++)
        fprintf(out, "  note: %s\n", ur->notes[i]);
    if (ur->suggestion.text[0])
        fprintf(out, "  %s: %s\n", ur->suggestion.found ? "nearest legal move" : "no suggestion",
                ur->suggestion.text);
}

void rules_report_print(const rules_report *r, FILE *out)
{
    fprintf(out, "ruleset %s (wheels measured by %s)\n\n", r->ruleset.name,
            r->ruleset.wheel_measure == RULES_WHEEL_CHORD ? "chord" : "arc");
    if (r->n_units == 0)
        fprintf(out, "no unit moved\n");
    size_t broken = 0;
    for (size_t i = 0; i < r->n_units; i++) {
        print_unit(&r->units[i], out);
        fprintf(out, "\n");
        broken += r->units[i].n_violations;
    }
    for (size_t i = 0; i < r->n_notes; i++)
        fprintf(out, "note: %s\n", r->notes[i]);
    size_t unsure = 0;
    for (size_t i = 0; i < r->n_units; i++)
        unsure += r->units[i].verdict == RULES_VERDICT_CANNOT_TELL || r->units[i].verdict == RULES_VERDICT_NOT_SEEN;
    if (r->legal && unsure)
        fprintf(out, "verdict: no illegal call; %zu unit%s cannot be judged (see above)\n", unsure,
                unsure == 1 ? "" : "s");
    else if (r->legal)
        fprintf(out, "verdict: LEGAL\n");
    else
        fprintf(out, "verdict: ILLEGAL (%zu violation%s)\n", broken, broken == 1 ? "" : "s");
}
