/* ref_warnings: the detection's warnings for people (see the header). */
#include <stdio.h>
#include <string.h>

#include "ref_warnings.h"
#include "rules_words.h"

/* A model the detection left out because its unit was read in part: that unit's own line says so. */
static bool left_out_of_a_unit_read_in_part(const roster_file *roster, const rules_snapshot *snap, const vis_issue *is)
{
    if (is->kind != VIS_ISSUE_MISSING || !is->model[0])
        return false;
    const roster_model *rm = roster_find_model_tag(roster, is->tag_id);
    if (!rm || rm->unit >= roster->n_units)
        return false;
    const rules_unit *u = rules_snapshot_find_unit(snap, roster->units[rm->unit].id);
    return u && rules_unit_partly_placed(u);
}

/* The unit issue `i` of the report names, when it is read in part (rules_unit_partly_placed); else NULL. */
static const rules_unit *unit_read_in_part(const rules_snapshot *snap, const vis_report *rep, size_t i)
{
    const vis_issue *is = &rep->items[i];
    if (is->kind == VIS_ISSUE_HEIGHT) /* its own line, whatever else is said of its unit */
        return NULL;
    const rules_unit *u = is->unit[0] ? rules_snapshot_find_unit(snap, is->unit) : NULL;
    return u && rules_unit_partly_placed(u) ? u : NULL;
}

/* Did an earlier warning of the report name the same unit (one line per unit read in part)? */
static bool unit_said_before(const vis_report *rep, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (vis_issue_is_warning(rep->items[k].kind) && rep->items[k].kind != VIS_ISSUE_HEIGHT &&
            strcmp(rep->items[k].unit, rep->items[i].unit) == 0)
            return true;
    return false;
}

/* Unit `u` read in part: its line, in the rules' words its call uses (vision's own account stays in the report). */
static void print_unit_read_in_part(const roster_file *roster, const rules_unit *u, const char *picture, FILE *out,
                                    const char *prefix)
{
    size_t total = u->n_models; /* the roster's count: the picture holds only the models read */
    for (size_t k = 0; k < roster->n_units; k++)
        if (strcmp(roster->units[k].id, u->id) == 0)
            total = roster->units[k].n_models;
    char words[RULES_WORDS_MAX];
    rules_words_partial_in(u->n_models, total, picture, words, sizeof words);
    fprintf(out, "%swarning: unit %s: %s\n", prefix, u->id, words);
}

void ref_warnings_print(const roster_file *roster, const rules_snapshot *snap, const vis_report *rep,
                        const char *picture, FILE *out, const char *prefix)
{
    for (size_t i = 0; i < rep->n; i++) {
        const vis_issue *is = &rep->items[i];
        if (!vis_issue_is_warning(is->kind) || left_out_of_a_unit_read_in_part(roster, snap, is))
            continue;
        const rules_unit *u = unit_read_in_part(snap, rep, i);
        if (!u)
            fprintf(out, "%swarning: %s\n", prefix, is->msg);
        else if (!unit_said_before(rep, i))
            print_unit_read_in_part(roster, u, picture, out, prefix);
    }
}
