/* ref_snapshot: a picture of the table into a snapshot (see the header). */
#include "ref_snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media_image_read.h"
#include "rules_words.h"

ref_snapshot *ref_snapshot_new(ref_setup *s, const char *picture_path, const rules_snapshot *prior, base_error *err)
{
    ref_snapshot *r = calloc(1, sizeof *r);
    if (!r) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
        return NULL;
    }
    snprintf(r->path, sizeof r->path, "%s", picture_path);
    if (!(r->image = media_image_load(picture_path, MEDIA_IMAGE_GRAY, err))) {
        ref_snapshot_free(r);
        return NULL;
    }
    const base_image *im = r->image;
    if (vis_detector_run_tags(s->det, im->data, im->width, im->height, im->stride, prior, &r->snap, &r->report,
                              &r->tags, err) < 0) {
        base_error_prefix(err, picture_path);
        ref_snapshot_free(r);
        return NULL;
    }
    if (ref_setup_apply(s, r->snap, err) < 0) {
        ref_snapshot_free(r);
        return NULL;
    }
    return r;
}

void ref_snapshot_free(ref_snapshot *r)
{
    if (!r)
        return;
    vis_report_clear(&r->report);
    vis_tag_list_clear(&r->tags);
    rules_snapshot_free(r->snap);
    base_image_free(r->image);
    free(r);
}

/* A model the detection left out because its unit was read in part: that unit's own line says so. */
static bool left_out_of_a_unit_read_in_part(const ref_setup *s, const ref_snapshot *r, const vis_issue *is)
{
    if (is->kind != VIS_ISSUE_MISSING || !is->model[0])
        return false;
    const roster_model *rm = roster_find_model_tag(s->roster, is->tag_id);
    if (!rm || rm->unit >= s->roster->n_units)
        return false;
    const rules_unit *u = rules_snapshot_find_unit(r->snap, s->roster->units[rm->unit].id);
    return u && rules_unit_partly_placed(u);
}

/* The unit issue `i` of the report names, when it is read in part (rules_unit_partly_placed); else NULL. */
static const rules_unit *unit_read_in_part(const ref_snapshot *r, size_t i)
{
    const vis_issue *is = &r->report.items[i];
    const rules_unit *u = is->unit[0] ? rules_snapshot_find_unit(r->snap, is->unit) : NULL;
    return u && rules_unit_partly_placed(u) ? u : NULL;
}

/* Did an earlier warning of the report name the same unit (one line per unit read in part)? */
static bool unit_said_before(const ref_snapshot *r, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (vis_issue_is_warning(r->report.items[k].kind) &&
            strcmp(r->report.items[k].unit, r->report.items[i].unit) == 0)
            return true;
    return false;
}

/* Unit `u` read in part: its line, in the rules' words its call uses (vision's own account stays in the report). */
static void print_unit_read_in_part(const ref_setup *s, const rules_unit *u, const char *picture, FILE *out,
                                    const char *prefix)
{
    size_t total = u->n_models; /* the roster's count: the picture holds only the models read */
    for (size_t k = 0; k < s->roster->n_units; k++)
        if (strcmp(s->roster->units[k].id, u->id) == 0)
            total = s->roster->units[k].n_models;
    char words[RULES_WORDS_MAX];
    rules_words_partial_in(u->n_models, total, picture, words, sizeof words);
    fprintf(out, "%swarning: unit %s: %s\n", prefix, u->id, words);
}

void ref_snapshot_print_warnings(const ref_setup *s, const ref_snapshot *r, const char *picture, FILE *out,
                                 const char *prefix)
{
    for (size_t i = 0; i < r->report.n; i++) {
        const vis_issue *is = &r->report.items[i];
        if (!vis_issue_is_warning(is->kind) || left_out_of_a_unit_read_in_part(s, r, is))
            continue;
        const rules_unit *u = unit_read_in_part(r, i);
        if (!u)
            fprintf(out, "%swarning: %s\n", prefix, is->msg);
        else if (!unit_said_before(r, i))
            print_unit_read_in_part(s, u, picture, out, prefix);
    }
}
