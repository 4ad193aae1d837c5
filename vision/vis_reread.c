/* vis_reread: a frame read whole or only where it changed (see the header). */
#include "vis_reread.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_camera.h"

static bool in_core(const vis_tag_region *r, const double c[2])
{
    return c[0] >= r->core_x0 && c[0] < r->core_x1 && c[1] >= r->core_y0 && c[1] < r->core_y1;
}

static bool in_any_core(const vis_tag_region *regions, size_t n, const double c[2])
{
    for (size_t b = 0; b < n; b++)
        if (in_core(&regions[b], c))
            return true;
    return false;
}

static int tag_list_push(vis_tag_list *l, const vis_tag_detection *t)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        vis_tag_detection *a = realloc(l->items, nc * sizeof *a);
        if (!a)
            return -1;
        l->items = a, l->cap = nc;
    }
    l->items[l->n++] = *t;
    return 0;
}

/* The tags of `since` whose centres lie in no region's core, then those found in the regions. 0 or -1. */
static int tags_in(vis_detector *d, const base_view *frame, const vis_since *since, const vis_tag_region *regions,
                   size_t n, vis_tag_list *out, base_error *err)
{
    out->n = 0;
    for (size_t i = 0; i < since->tags->n; i++)
        if (!in_any_core(regions, n, since->tags->items[i].centre) && tag_list_push(out, &since->tags->items[i]) < 0)
            return base_error_set(err, "out of memory");
    vis_tag_list found = {0};
    int rc = vis_detector_detect_in(d, frame, regions, n, &found, err);
    for (size_t k = 0; rc == 0 && k < found.n; k++)
        if (tag_list_push(out, &found.items[k]) < 0)
            rc = base_error_set(err, "out of memory");
    vis_tag_list_clear(&found);
    return rc;
}

/*
 * The units the changed regions touch (one flag per roster unit): a model
 * of `since` inside a region's core, or a tag read there, or a unit `since`
 * had not seen (looked for where the frame changed: it cannot have appeared
 * elsewhere, vis_recover_blobs.h). Others did not change: their models are
 * taken from `since` as they were. NULL when out of memory.
 */
static unsigned char *touched_units(const vis_detector *d, const rules_snapshot *since,
                                    const vis_tag_region *regions, size_t n, const vis_tag_list *tags)
{
    const roster_map *r = d->map;
    unsigned char *t = calloc(r->n_units + 1, 1);
    if (!t)
        return NULL;
    vis_camera cam;
    vis_camera_init(&cam, &d->calib);
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const roster_map_unit *ru = &r->units[ui];
        const rules_unit *un = rules_snapshot_find_unit(since, ru->id);
        for (size_t k = 0; un && k < un->n_models && !t[ui]; k++) {
            double px[2];
            const double X[3] = {un->models[k].pos.x, un->models[k].pos.y,
                                 vis_relief_tag_z(&d->relief, &ru->mount, un->models[k].pos)};
            for (size_t b = 0; b < n && vis_camera_project(&cam, X, px); b++)
                t[ui] |= in_core(&regions[b], px);
        }
    }
    /* A mast where the reading had its carrier: a unit whose mast was moved away is touched there too. */
    for (size_t k = 0; k < r->n_marks && since; k++) {
        const roster_map_mark *mk = &r->marks[k];
        const size_t ui = r->models[mk->model].unit;
        const rules_unit *un = rules_snapshot_find_unit(since, r->units[ui].id);
        const rules_model *cm = un ? rules_unit_find_model(un, r->models[mk->model].id) : NULL;
        base_vec2 at;
        double heading, px[2];
        if (!cm || t[ui])
            continue;
        roster_tag_mount_place(&mk->mount, cm->pos, cm->facing, &at, &heading);
        const double X[3] = {at.x, at.y, vis_relief_tag_z(&d->relief, &mk->mount, cm->pos)};
        for (size_t b = 0; b < n && vis_camera_project(&cam, X, px); b++)
            t[ui] |= in_core(&regions[b], px);
    }
    for (size_t i = 0; i < tags->n; i++) {
        const roster_map_model *m = roster_map_find_model_tag(r, tags->items[i].id);
        const roster_map_mark *mk = m ? NULL : roster_map_find_mark_tag(r, tags->items[i].id);
        if (mk)
            m = &r->models[mk->model]; /* a mast: its carrier's unit */
        for (size_t b = 0; m && b < n; b++)
            if (in_core(&regions[b], tags->items[i].centre))
                t[m->unit] = 1;
    }
    /* A unit the reading did not have (not seen then) is read from the picture, where it changed. */
    for (size_t ui = 0; ui < r->n_units; ui++)
        if (!rules_snapshot_find_unit(since, r->units[ui].id))
            t[ui] = 1;
    return t;
}

/* Units nothing touched keep `since`'s models exactly (what was seen stays seen). */
static void keep_untouched(const roster_map *r, const rules_snapshot *since, const unsigned char *touched,
                           rules_snapshot *now)
{
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (touched[ui])
            continue;
        rules_unit *un = rules_snapshot_find_unit(now, r->units[ui].id);
        const rules_unit *ur = rules_snapshot_find_unit(since, r->units[ui].id);
        if (!un || !ur)
            continue;
        for (size_t k = 0; k < un->n_models; k++) {
            const rules_model *m = rules_unit_find_model(ur, un->models[k].id);
            if (m)
                un->models[k] = *m;
        }
    }
}

/* A unit whose every model seen then and now moved less than stayed_mm: it stayed (NULL unit: nothing
 * shared). */
static bool unit_stayed(double stayed_mm, const rules_unit *then, const rules_unit *now)
{
    bool shared = false;
    for (size_t k = 0; then && now && k < now->n_models; k++) {
        const rules_model *b = &now->models[k], *a = rules_unit_find_model(then, b->id);
        if (!a || a->inferred || b->inferred)
            continue;
        shared = true;
        if (base_v2_dist(a->pos, b->pos) >= stayed_mm)
            return false;
    }
    return shared;
}

/* The unit's other placements no longer move model `id` (it is placed from evidence now). */
static void drop_from_alternatives(rules_unit *un, const char *id)
{
    for (size_t a = 0; a < un->n_alternatives; a++) {
        rules_placement *pl = &un->alternatives[a];
        size_t kept = 0;
        for (size_t k = 0; k < pl->n_models; k++)
            if (strcmp(pl->models[k].id, id) != 0)
                pl->models[kept++] = pl->models[k];
        pl->n_models = kept;
    }
}

/* Models read then, not now, of units that stayed, whose tag's pixels are unchanged (vis_patch.h): placed as
 * then. Returns how many. */
static size_t keep_unchanged(const roster_map *r, const vis_since *since, const base_view *frame, double stayed_mm,
                             rules_snapshot *now)
{
    const vis_patches *patches = since->patches;
    size_t kept = 0;
    for (size_t ui = 0; patches && ui < r->n_units; ui++) {
        rules_unit *un = rules_snapshot_find_unit(now, r->units[ui].id);
        const rules_unit *then = rules_snapshot_find_unit(since->snap, r->units[ui].id);
        if (!un || !then || !unit_stayed(stayed_mm, then, un))
            continue;
        for (size_t m = r->units[ui].first_model; m < r->units[ui].first_model + r->units[ui].n_models; m++) {
            rules_model *b = rules_unit_find_model(un, r->models[m].id);
            const rules_model *a = rules_unit_find_model(then, r->models[m].id);
            if (!a || !b || a->inferred || !b->inferred)
                continue;
            vis_patch_fit fit;
            if (vis_patches_still(patches, m, frame, &fit)) {
                *b = *a, kept++;
                drop_from_alternatives(un, b->id);
            }
        }
    }
    return kept;
}

/* Units whose every model moved less than stayed_mm and turned less than a degree keep `since`'s poses. */
static void freeze(const rules_snapshot *since, double stayed_mm, rules_snapshot *now)
{
    for (size_t u = 0; u < now->n_units; u++) {
        rules_unit *un = &now->units[u];
        rules_unit *ur = rules_snapshot_find_unit(since, un->id);
        if (!ur || ur->n_models != un->n_models)
            continue;
        bool still = true;
        for (size_t k = 0; k < un->n_models && still; k++) {
            const rules_model *mr = rules_unit_find_model(ur, un->models[k].id);
            still = mr && base_v2_dist(mr->pos, un->models[k].pos) < stayed_mm &&
                    fabs(base_angle_wrap(mr->facing - un->models[k].facing)) < base_deg_to_rad(1.0);
        }
        if (!still)
            continue;
        for (size_t k = 0; k < un->n_models; k++) {
            const rules_model *mr = rules_unit_find_model(ur, un->models[k].id);
            un->models[k].pos = mr->pos;
            un->models[k].facing = mr->facing;
        }
    }
}

void vis_reading_clear(vis_reading *r)
{
    rules_snapshot_free(r->snap);
    vis_report_clear(&r->report);
    vis_tag_list_clear(&r->tags);
    vis_patches_free(r->patches);
    memset(r, 0, sizeof *r);
}

/* The tags of the regions (and those carried over) and the snapshot they make, the units nothing touched kept. */
static int read_regions(vis_detector *d, const base_view *frame, const vis_reread_options *o, vis_reading *out,
                        base_error *err)
{
    if (tags_in(d, frame, o->since, o->regions, o->n_regions, &out->tags, err) < 0)
        return -1;
    unsigned char *touched = touched_units(d, o->since->snap, o->regions, o->n_regions, &out->tags);
    if (!touched)
        return base_error_set(err, "out of memory");
    const vis_changed changed = {o->regions, o->n_regions};
    int rc = vis_detector_run_focused(d, frame, out->tags.items, out->tags.n, o->since->snap, touched, &changed,
                                      &out->snap, &out->report, err);
    if (rc == 0)
        keep_untouched(d->map, o->since->snap, touched, out->snap);
    free(touched);
    return rc;
}

int vis_detector_reread(vis_detector *d, const base_view *frame, const vis_reread_options *o, vis_reading *out,
                        base_error *err)
{
    memset(out, 0, sizeof *out);
    int rc;
    if (o->since && o->regions) {
        rc = read_regions(d, frame, o, out, err);
    } else {
        out->whole = true;
        rc = vis_detector_run_tags(d, frame->data, frame->width, frame->height, frame->stride,
                                   o->since ? o->since->snap : o->prior, &out->snap, &out->report, &out->tags, err);
    }
    if (rc == 0 && o->since) {
        out->kept = keep_unchanged(d->map, o->since, frame, o->stayed_mm, out->snap);
        freeze(o->since->snap, o->stayed_mm, out->snap);
    }
    if (rc == 0 && o->patches) {
        /* Models not placed from a tag now keep their patch from since's. */
        vis_camera cam;
        vis_camera_init(&cam, &d->calib);
        if (!(out->patches = vis_patches_take(d->map, &cam, &d->relief, out->snap, frame, o->since ? o->since->patches : NULL)))
            rc = base_error_set(err, "out of memory");
    }
    if (rc < 0)
        vis_reading_clear(out);
    return rc;
}
