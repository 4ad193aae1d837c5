/* The report as JSON (docs/formats.md, "Report") and as a readable table. */
#include "rules_report.h"

#include <string.h>

#include "rules_json.h"
#include "rules_words.h"

/* ---- JSON ------------------------------------------------------------- */

/* Adds "<key>_mm" and "<key>_in" for a length. */
static void add_length(cJSON *o, const char *key, double mm)
{
    char k[64];
    snprintf(k, sizeof k, "%s_mm", key);
    base_json_add_number(o, k, mm, 2);
    snprintf(k, sizeof k, "%s_in", key);
    base_json_add_number(o, k, base_mm_to_in(mm), 3);
}

static void add_quantity(cJSON *o, const char *key, rules_quantity q, double v)
{
    char k[64];
    switch (q) {
    case RULES_QTY_LENGTH: add_length(o, key, v); break;
    case RULES_QTY_ANGLE:
        snprintf(k, sizeof k, "%s_deg", key);
        base_json_add_number(o, k, base_rad_to_deg(v), 2);
        break;
    case RULES_QTY_COUNT: base_json_add_number(o, key, v, 3); break;
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
            base_json_add_number(js, "angle_deg", base_rad_to_deg(s->angle_rad), 2);
        char text[128];
        rules_step_describe(s, text, sizeof text);
        cJSON_AddStringToObject(js, "text", text);
        cJSON_AddItemToArray(steps, js);
    }
    cJSON *start = cJSON_AddObjectToObject(p, "start");
    base_json_add_number(start, "x_mm", ur->pose_before.front_centre.x, 2);
    base_json_add_number(start, "y_mm", ur->pose_before.front_centre.y, 2);
    base_json_add_number(start, "facing_deg", base_rad_to_deg(ur->pose_before.heading), 2);
    base_json_add_number(p, "front_width_mm", ur->front_width_mm, 2);
    return p;
}

static cJSON *suggestion_to_json(const rules_suggestion *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "found", s->found);
    cJSON_AddStringToObject(o, "text", s->text);
    if (!s->found)
        return o;
    cJSON_AddStringToObject(o, "move", rules_move_token(s->move));
    cJSON_AddBoolToObject(o, "remove", s->remove);
    add_length(o, "shift", s->shift_mm);
    if (s->back_along_path_mm > 0)
        add_length(o, "back_along_path", s->back_along_path_mm);
    if (s->remove)
        return o;
    cJSON *pose = cJSON_AddObjectToObject(o, "pose");
    base_json_add_number(pose, "x_mm", s->pose.front_centre.x, 2);
    base_json_add_number(pose, "y_mm", s->pose.front_centre.y, 2);
    base_json_add_number(pose, "facing_deg", base_rad_to_deg(s->pose.heading), 2);
    cJSON *models = cJSON_AddArrayToObject(o, "models");
    for (size_t i = 0; i < s->n_models; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "id", s->models[i].id);
        base_json_add_number(m, "x_mm", s->models[i].pos.x, 3);
        base_json_add_number(m, "y_mm", s->models[i].pos.y, 3);
        base_json_add_number(m, "facing_deg", base_rad_to_deg(s->models[i].facing), 3);
        cJSON_AddItemToArray(models, m);
    }
    return o;
}

/* The unit's centre, rotation, formation and the path its centre took. */
static void add_unit_geometry(cJSON *u, const rules_unit_report *ur)
{
    cJSON *centre = cJSON_AddObjectToObject(u, "centre");
    double before[2] = {round(ur->centre_before.x * 100) / 100, round(ur->centre_before.y * 100) / 100};
    double after[2] = {round(ur->centre_after.x * 100) / 100, round(ur->centre_after.y * 100) / 100};
    cJSON_AddItemToObject(centre, "before_mm", cJSON_CreateDoubleArray(before, 2));
    cJSON_AddItemToObject(centre, "after_mm", cJSON_CreateDoubleArray(after, 2));
    add_length(centre, "displacement", ur->centre_displacement_mm);
    base_json_add_number(u, "rotation_deg", base_rad_to_deg(ur->rotation_rad), 2);
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
}

static cJSON *model_path_to_json(const rules_model_path *mp)
{
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
    return jp;
}

static cJSON *violation_to_json(const rules_violation *v)
{
    cJSON *jv = cJSON_CreateObject();
    cJSON_AddStringToObject(jv, "code", v->code);
    cJSON *mids = cJSON_AddArrayToObject(jv, "models");
    for (size_t k = 0; k < v->n_models; k++)
        cJSON_AddItemToArray(mids, cJSON_CreateString(v->models[k]));
    cJSON_AddStringToObject(jv, "quantity", quantity_word(v->quantity));
    add_quantity(jv, "measured", v->quantity, v->measured);
    add_quantity(jv, "limit", v->quantity, v->limit);
    cJSON_AddStringToObject(jv, "message", v->message);
    return jv;
}

void rules_report_add_roll_json(cJSON *u, const rules_unit_report *ur)
{
    if (ur->needs_roll)
        cJSON_AddStringToObject(u, "needs", "roll");
    if (ur->needs_roll || ur->roll_mm > 0)
        cJSON_AddStringToObject(u, "dice", ur->dice);
    if (ur->roll_mm > 0)
        add_length(u, "roll", ur->roll_mm);
}

/* What the unit is (id, side, move, verdict, rate) and each model's distance. */
static void add_unit_call(cJSON *u, const rules_unit_report *ur)
{
    cJSON_AddStringToObject(u, "unit", ur->unit_id);
    cJSON_AddStringToObject(u, "side", ur->side);
    cJSON_AddStringToObject(u, "move", rules_move_token(ur->move));
    cJSON_AddBoolToObject(u, "declared", ur->declared);
    if (ur->direction)
        cJSON_AddStringToObject(u, "direction", ur->direction);
    cJSON_AddBoolToObject(u, "legal", ur->legal);
    cJSON_AddStringToObject(u, "verdict", rules_verdict_word(ur->verdict));
    if (ur->why[0])
        cJSON_AddStringToObject(u, "why", ur->why);
    rules_report_add_roll_json(u, ur);
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
}

static cJSON *unit_to_json(const rules_unit_report *ur, const rules_snapshot *snap_before,
                           const rules_snapshot *snap_after)
{
    cJSON *u = cJSON_CreateObject();
    add_unit_call(u, ur);
    add_unit_geometry(u, ur);
    if (ur->n_measures) {
        cJSON *ms = cJSON_AddObjectToObject(u, "measurements");
        for (size_t i = 0; i < ur->n_measures; i++)
            add_quantity(ms, ur->measures[i].name, ur->measures[i].quantity, ur->measures[i].value);
    }
    if (ur->n_model_paths) {
        cJSON *mps = cJSON_AddArrayToObject(u, "model_paths");
        for (size_t i = 0; i < ur->n_model_paths; i++)
            cJSON_AddItemToArray(mps, model_path_to_json(&ur->model_paths[i]));
    }
    cJSON *vs = cJSON_AddArrayToObject(u, "violations");
    for (size_t i = 0; i < ur->n_violations; i++)
        cJSON_AddItemToArray(vs, violation_to_json(&ur->violations[i]));
    cJSON *notes = cJSON_AddArrayToObject(u, "notes");
    for (size_t i = 0; i < ur->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(ur->notes[i]));
    if (ur->verdict == RULES_VERDICT_ILLEGAL && (ur->suggestion.found || ur->suggestion.text[0]))
        cJSON_AddItemToObject(u, "suggestion", suggestion_to_json(&ur->suggestion));
    char sentence[RULES_WORDS_MAX];
    rules_words_call(ur, snap_before, snap_after, sentence, sizeof sentence);
    cJSON_AddStringToObject(u, "sentence", sentence);
    return u;
}

cJSON *rules_report_to_json(const rules_report *r) { return rules_report_to_json_judged(r, NULL, NULL); }

cJSON *rules_report_to_json_judged(const rules_report *r, const rules_snapshot *before, const rules_snapshot *after)
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
        cJSON_AddItemToArray(units, unit_to_json(&r->units[i], before, after));
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    for (size_t i = 0; i < r->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(r->notes[i]));
    return root;
}

/* ---- text ------------------------------------------------------------- */

static void format_quantity(char *buf, size_t cap, rules_quantity q, double v)
{
    switch (q) {
    case RULES_QTY_LENGTH: snprintf(buf, cap, "%.2f\"", base_mm_to_in(v)); break;
    case RULES_QTY_ANGLE: snprintf(buf, cap, "%.1f deg", base_rad_to_deg(v)); break;
    case RULES_QTY_COUNT: snprintf(buf, cap, "%g", v); break;
    }
}


/* Was the unit placed only in part in this picture (rules_unit_partly_placed: its formation not told)? */
static bool read_in_part(const rules_snapshot *s, const char *unit_id)
{
    const rules_unit *u = s ? rules_snapshot_find_unit(s, unit_id) : NULL;
    return u && rules_unit_partly_placed(u);
}

/*
 * "formation 5x6 -> 5x6 (files x ranks); centre moved ...". For a unit read
 * in part the files and ranks it was rebuilt with (and so its centre) stand
 * on the models read alone: said as not told, here only; the JSON keeps
 * the numbers (its format unchanged) and the call says why.
 */
static void print_formation(const rules_unit_report *ur, const rules_snapshot *before, const rules_snapshot *after,
                            FILE *out)
{
    const bool in_part[2] = {read_in_part(before, ur->unit_id), read_in_part(after, ur->unit_id)};
    if (!in_part[0] && !in_part[1]) {
        fprintf(out, "  formation %dx%d -> %dx%d (files x ranks); centre moved %.2f\", rotated %.1f deg\n",
                ur->files_before, ur->ranks_before, ur->files_after, ur->ranks_after,
                base_mm_to_in(ur->centre_displacement_mm), base_rad_to_deg(ur->rotation_rad));
        return;
    }
    fprintf(out, "  formation cannot be told");
    if (!in_part[0] || !in_part[1])
        fprintf(out, " in the %s picture (%dx%d in the %s, files x ranks)", in_part[0] ? "before" : "after",
                in_part[0] ? ur->files_after : ur->files_before, in_part[0] ? ur->ranks_after : ur->ranks_before,
                in_part[0] ? "after" : "before");
    fprintf(out, "; nor how far its centre moved or turned\n");
}

static void print_unit(const rules_unit_report *ur, const rules_snapshot *before, const rules_snapshot *after,
                       FILE *out)
{
    fprintf(out, "unit %s (%s): %s%s%s%s: %s%s\n", ur->unit_id, ur->side, rules_words_move(ur->move),
            ur->direction ? " " : "", ur->direction ? ur->direction : "", ur->declared ? "" : " (inferred)",
            rules_words_call_title(ur), ur->verdict == RULES_VERDICT_NOT_SEEN ? ", cannot judge" : "");
    char sentence[RULES_WORDS_MAX];
    rules_words_call(ur, before, after, sentence, sizeof sentence);
    fprintf(out, "  call: %s\n", sentence);
    if (ur->why[0] && !ur->needs_roll)
        fprintf(out, "  %s: %s\n", ur->verdict == RULES_VERDICT_NOT_SEEN ? "not seen" : "cannot tell", ur->why);
    if (ur->files_before > 0) /* rules without ranks and files (Dynamic Formations) leave them at 0 */
        print_formation(ur, before, after, out);
    if (ur->has_path) {
        /* The steps worth reading (rules_words: one rule for tiny steps everywhere); the JSON keeps them all. */
        char how[RULES_WORDS_MAX];
        rules_words_path(ur, how, sizeof how);
        fprintf(out, "  shortest path: %s = %.2f\"", how[0] ? how : "none needed", base_mm_to_in(ur->path.length_mm));
        if (ur->rate_mm > 0)
            fprintf(out, " (limit %.2f\")", base_mm_to_in(ur->rate_mm));
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
                snprintf(lim, sizeof lim, "%.2f\"", base_mm_to_in(ur->rate_mm));
            fprintf(out, "  %-20s %8.2f\" %9s%s%s\n", m->id, base_mm_to_in(m->distance_mm), lim,
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
    if (ur->verdict == RULES_VERDICT_ILLEGAL && ur->suggestion.text[0])
        fprintf(out, "  %s: %s\n", ur->suggestion.found ? "nearest legal move" : "no suggestion",
                ur->suggestion.text);
}

void rules_report_print(const rules_report *r, FILE *out) { rules_report_print_judged(r, NULL, NULL, out); }

void rules_report_print_judged(const rules_report *r, const rules_snapshot *before, const rules_snapshot *after,
                               FILE *out)
{
    fprintf(out, "ruleset %s (wheels measured by %s)\n\n", r->ruleset.name,
            r->ruleset.wheel_measure == RULES_WHEEL_CHORD ? "chord" : "arc");
    if (r->n_units == 0)
        fprintf(out, "no unit moved\n");
    size_t broken = 0;
    for (size_t i = 0; i < r->n_units; i++) {
        print_unit(&r->units[i], before, after, out);
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
        fprintf(out, "verdict: %s\n", rules_words_verdict_title(RULES_VERDICT_LEGAL));
    else
        fprintf(out, "verdict: %s (%zu violation%s)\n", rules_words_verdict_title(RULES_VERDICT_ILLEGAL), broken,
                broken == 1 ? "" : "s");
}
