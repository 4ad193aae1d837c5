/* ref_snapshot: the one door for frames (see the header). */
#include "ref_snapshot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media_image_read.h"
#include "ref_check.h"
#include "ref_snapshot_int.h"
#include "ref_check_parts.h"
#include "ref_proj_parts.h"
#include "ref_table_parts.h"
#include "ref_warnings.h"
#include "ref_snapshot_vision.h"
#include "rules_words.h"

void ref_read_options_default(ref_read_options *o)
{
    memset(o, 0, sizeof *o);
    o->stayed_mm = 2.0;
    o->patches = true;
}

static ref_snapshot *snapshot_alloc(base_error *err)
{
    ref_snapshot *r = calloc(1, sizeof *r);
    if (r && !(r->seen = calloc(1, sizeof *r->seen))) {
        free(r);
        r = NULL;
    }
    if (!r)
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
    return r;
}

void ref_snapshot_free(ref_snapshot *r)
{
    if (!r)
        return;
    if (r->seen) {
        vis_reading_clear(&r->seen->read);
        free(r->seen);
    }
    free(r->checks);
    rules_snapshot_free(r->snap);
    base_image_free(r->image);
    free(r);
}

/* Vision's reading of the frame, in one call (vis_reread.h): the whole frame (vision's plan of it, as every
 * program reads a picture), or only where it changed since o->since; the snapshot moves to r->snap. 0 or -1. */
static int detect(ref_setup *s, const base_view *frame, const ref_read_options *o, ref_snapshot *r, base_error *err)
{
    vis_tag_region *parts = NULL;
    if (o->since && o->regions && !(parts = malloc((o->n_regions ? o->n_regions : 1) * sizeof *parts)))
        return base_error_set(err, "out of memory");
    for (size_t b = 0; parts && b < o->n_regions; b++) {
        const ref_region *g = &o->regions[b];
        parts[b] = (vis_tag_region){g->x0, g->y0, g->x1, g->y1, 0, g->core_x0, g->core_y0, g->core_x1, g->core_y1};
    }
    const vis_reading *then = o->since ? &o->since->seen->read : NULL;
    const vis_since since = {o->since ? o->since->snap : NULL, then ? &then->tags : NULL, then ? then->patches : NULL};
    const vis_reread_options vo = {o->since ? &since : NULL, o->prior, parts, parts ? o->n_regions : 0,
                                   o->stayed_mm, o->patches};
    vis_reading *v = &r->seen->read;
    const int rc = vis_detector_reread(s->det, frame, &vo, v, err);
    free(parts);
    if (rc < 0)
        return -1;
    r->snap = v->snap, v->snap = NULL;
    r->whole = v->whole;
    r->tags_kept = v->kept;
    return 0;
}

/* The self-checks on the frame just read, named as the options say. */
static int check(const ref_setup *s, const base_view *frame, const ref_read_options *o, ref_snapshot *r,
                 base_error *err)
{
    if (!(r->checks = malloc(sizeof *r->checks)))
        return base_error_setc(err, BASE_E_NOMEM, "out of memory");
    const ref_check_names names = {r->path, o->calib_name ? o->calib_name : s->calib_path,
                                   o->roster_name ? o->roster_name : s->roster_path};
    const vis_reading *v = &r->seen->read;
    ref_check_parts(s->det, &names, frame, v->tags.items, v->tags.n, &v->report, r->checks);
    return 0;
}

/* What the reading adds to vision's: the judge's statuses, the table's rules, the self-checks. */
static int complete(ref_setup *s, const base_view *frame, const ref_read_options *o, ref_snapshot *r,
                    base_error *err)
{
    const vis_tag_list *tags = &r->seen->read.tags;
    r->tags_seen = tags->n;
    for (size_t i = 0; i < tags->n; i++)
        r->model_tags += roster_map_find_model_tag(s->map, tags->items[i].id) != NULL;
    for (size_t u = 0; u < r->snap->n_units; u++)
        for (size_t m = 0; m < r->snap->units[u].n_models; m++)
            r->models_read += r->snap->units[u].models[m].evidence != RULES_EVIDENCE_INFERRED;
    if (o->since)
        ref_statuses_apply(o->statuses, o->n_statuses, r->snap);
    if (ref_setup_apply(s, r->snap, err) < 0)
        return -1;
    return o->checks && r->whole ? check(s, frame, o, r, err) : 0;
}

ref_snapshot *ref_snapshot_read(ref_setup *s, const base_view *frame, const ref_read_options *o_in, base_error *err)
{
    ref_read_options defaults;
    ref_read_options_default(&defaults);
    const ref_read_options *o = o_in ? o_in : &defaults;
    ref_snapshot *r = snapshot_alloc(err);
    if (!r)
        return NULL;
    snprintf(r->path, sizeof r->path, "%s", o->picture ? o->picture : "");
    if (detect(s, frame, o, r, err) < 0 || complete(s, frame, o, r, err) < 0) {
        ref_snapshot_free(r);
        return NULL;
    }
    return r;
}

ref_snapshot *ref_snapshot_new(ref_setup *s, const char *picture_path, const rules_snapshot *prior, base_error *err)
{
    ref_read_options o;
    ref_read_options_default(&o);
    o.prior = prior;
    o.picture = picture_path;
    o.patches = false; /* a picture read once is never a later reading's `since` */
    ref_snapshot *r = snapshot_alloc(err);
    if (!r)
        return NULL;
    snprintf(r->path, sizeof r->path, "%s", picture_path);
    if (!(r->image = media_image_load(picture_path, MEDIA_IMAGE_GRAY, err))) {
        ref_snapshot_free(r);
        return NULL;
    }
    const base_view view = base_image_view(r->image);
    if (detect(s, &view, &o, r, err) < 0) {
        base_error_prefix(err, picture_path);
        ref_snapshot_free(r);
        return NULL;
    }
    if (complete(s, &view, &o, r, err) < 0) {
        ref_snapshot_free(r);
        return NULL;
    }
    return r;
}

bool ref_snapshot_checks_held(const ref_snapshot *r) { return !r->checks || r->checks->ok; }

const char *ref_snapshot_check_failure(const ref_snapshot *r)
{
    const ref_check_result *f = r->checks ? ref_checks_first_failure(r->checks) : NULL;
    return f ? f->msg : "";
}

bool ref_snapshot_sees_tag(const ref_snapshot *r, int id)
{
    const vis_tag_list *tags = &r->seen->read.tags;
    for (size_t k = 0; k < tags->n; k++)
        if (tags->items[k].id == id)
            return true;
    return false;
}

void ref_snapshot_take_view(ref_snapshot *to, ref_snapshot *from)
{
    struct ref_seen *keep = to->seen;
    to->seen = from->seen;
    from->seen = keep;
    to->tags_seen = from->tags_seen, to->model_tags = from->model_tags, to->models_read = from->models_read;
}

void ref_statuses_apply(const ref_status *statuses, size_t n, rules_snapshot *snap)
{
    for (size_t i = 0; i < n; i++) {
        rules_unit *u = rules_snapshot_find_unit(snap, statuses[i].unit);
        if (u)
            u->status = statuses[i].bits;
    }
}

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ref_paper_level(const base_view *frame, const vis_tag_detection *tags, size_t n)
{
    double *v = malloc(sizeof *v * (4 * n + 1));
    size_t k = 0;
    for (size_t i = 0; v && i < n; i++)
        for (int e = 0; e < 4; e++) {
            const double *a = tags[i].corners[e], *b = tags[i].corners[(e + 1) % 4], *c = tags[i].centre;
            const double mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
            /* Half a cell of a tag36h11 (8 cells across the black square) outside the edge: 1/16 of the way
             * from the centre to the edge's middle, beyond it, times two. */
            const double x = mx + (mx - c[0]) / 8, y = my + (my - c[1]) / 8;
            const int ix = (int)lround(x), iy = (int)lround(y);
            if (ix >= 0 && iy >= 0 && ix < frame->width && iy < frame->height)
                v[k++] = frame->data[(size_t)iy * frame->stride + (size_t)ix];
        }
    double med = 0;
    if (k) {
        qsort(v, k, sizeof *v, cmp_d);
        med = v[k / 2];
    }
    free(v);
    return med;
}

double ref_snapshot_paper_level(const ref_snapshot *r, const base_view *frame)
{
    return ref_paper_level(frame, r->seen->read.tags.items, r->seen->read.tags.n);
}

void ref_snapshot_print_warnings(const ref_setup *s, const ref_snapshot *r, const char *picture, FILE *out,
                                 const char *prefix)
{
    ref_warnings_print(s->roster, r->snap, &r->seen->read.report, picture, out, prefix);
}

vis_detector *ref_setup_detector(ref_setup *s) { return s->det; }

const vis_report *ref_snapshot_report(const ref_snapshot *r) { return &r->seen->read.report; }

const vis_tag_list *ref_snapshot_tags(const ref_snapshot *r) { return &r->seen->read.tags; }
