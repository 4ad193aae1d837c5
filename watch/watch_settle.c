/* What a settle frame shows (watch_tracker_int.h): the tags of the changed regions, the units they touch, the hidden-tag rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_camera.h"
#include "watch_patch.h"
#include "watch_tracker_int.h"

static int tag_list_push(vis_tag_detection **arr, size_t *n, size_t *cap, const vis_tag_detection *t)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        vis_tag_detection *a = realloc(*arr, nc * sizeof *a);
        if (!a)
            return -1;
        *arr = a, *cap = nc;
    }
    (*arr)[(*n)++] = *t;
    return 0;
}

/*
 * The tags of this frame: detected in the changed regions (*boxes, *nb:
 * malloc'ed, the caller's), carried over from the reference elsewhere; or
 * all detected (*full) when there is no reference or the change is global.
 * *out is malloc'ed.
 */
/* With the watch's own light on the table: the changed blocks where the table may have moved (dirty, grown by a
 * block), not where only the light changed. Returns the count left. */
static size_t keep_where_the_table_moved(uint8_t *mask, const uint8_t *dirty, int bw, int bh)
{
    size_t n = 0;
    for (int y = 0; y < bh; y++)
        for (int x = 0; x < bw; x++) {
            int near = 0;
            for (int dy = -1; dy <= 1 && !near; dy++)
                for (int dx = -1; dx <= 1 && !near; dx++) {
                    const int xx = x + dx, yy = y + dy;
                    near = xx >= 0 && yy >= 0 && xx < bw && yy < bh && dirty[yy * bw + xx];
                }
            mask[y * bw + x] = (uint8_t)(mask[y * bw + x] && near);
            n += mask[y * bw + x];
        }
    return n;
}

int watch_settle_detect_tags(watch_tracker *w, const uint8_t *gray, size_t stride, const base_image *small,
                             vis_tag_detection **out, size_t *n_out, watch_motion_box **boxes_out, size_t *nb_out,
                             bool *full, base_error *err)
{
    vis_tag_detection *arr = NULL;
    size_t n = 0, cap = 0;
    const entry *ref = w->n_hist ? &w->hist[w->n_hist - 1] : NULL;
    watch_motion_box *boxes = NULL;
    vis_tag_region *regions = NULL;
    size_t nb = 0;
    *full = true;
    if (ref && ref->small && ref->small->width == small->width && ref->small->height == small->height) {
        const int bw = small->width / BLOCK, bh = small->height / BLOCK;
        uint8_t *mask = calloc((size_t)bw * bh + 1, 1);
        if (!mask)
            return base_error_set(err, "out of memory");
        size_t changed = watch_motion_moving_blocks(small, ref->small, w->cfg.motion_level, mask);
        if (w->echo && w->dirty)
            changed = keep_where_the_table_moved(mask, w->dirty, bw, bh);
        double margin = fmax(3 * w->det->expected_tag_px, 24);
        nb = changed ? watch_motion_changed_boxes(mask, bw, bh, w->factor, margin, w->width, w->height, &boxes) : 0;
        free(mask);
        if (changed && !boxes)
            return base_error_set(err, "out of memory");
        double area = 0;
        for (size_t i = 0; i < nb; i++)
            area += (double)(boxes[i].x1 - boxes[i].x0) * (boxes[i].y1 - boxes[i].y0);
        *full = area > w->cfg.roi_max_fraction * w->width * w->height;
    }
    if (*full) {
        free(boxes);
        boxes = NULL, nb = 0;
        if (vis_tag_detect(w->det->tags, gray, w->width, w->height, stride, &w->scratch, err) < 0)
            goto fail;
    } else {
        for (size_t i = 0; i < ref->n_tags; i++) {
            bool inside = false;
            for (size_t b = 0; b < nb && !inside; b++)
                inside = watch_motion_in_core(&boxes[b], ref->tags[i].centre);
            if (!inside && tag_list_push(&arr, &n, &cap, &ref->tags[i]) < 0)
                goto oom;
        }
        if (!(regions = malloc((nb ? nb : 1) * sizeof *regions)))
            goto oom;
        for (size_t b = 0; b < nb; b++)
            regions[b] = (vis_tag_region){boxes[b].x0, boxes[b].y0, boxes[b].x1, boxes[b].y1, 0,
                                          boxes[b].cx0, boxes[b].cy0, boxes[b].cx1, boxes[b].cy1};
        if (vis_tag_detect_regions(w->det->tags, gray, w->width, w->height, stride, regions, nb, &w->scratch, err) < 0)
            goto fail;
    }
    for (size_t k = 0; k < w->scratch.n; k++)
        if (tag_list_push(&arr, &n, &cap, &w->scratch.items[k]) < 0)
            goto oom;
    free(regions);
    *boxes_out = boxes, *nb_out = nb;
    *out = arr, *n_out = n;
    return 0;
oom:
    base_error_set(err, "out of memory");
fail:
    free(regions);
    free(boxes);
    free(arr);
    return -1;
}

/*
 * The units the changed regions touch (one flag per roster unit): a model
 * of the reference inside a region, or a tag detected there. NULL when the
 * whole frame was detected (every unit). Others did not change: their
 * models are taken from the reference as they were.
 */
unsigned char *watch_settle_touched_units(const watch_tracker *w, const entry *ref, const watch_motion_box *boxes,
                                          size_t nb, const vis_tag_detection *tags, size_t n)
{
    const roster_file *r = w->roster;
    unsigned char *t = calloc(r->n_units + 1, 1);
    if (!t)
        return NULL;
    vis_camera cam;
    vis_camera_init(&cam, &w->det->calib);
    for (size_t ui = 0; ref && ui < r->n_units; ui++) {
        const roster_unit *ru = &r->units[ui];
        const rules_unit *un = rules_snapshot_find_unit(ref->snap, ru->id);
        for (size_t k = 0; un && k < un->n_models && !t[ui]; k++) {
            double px[2];
            const double X[3] = {un->models[k].pos.x, un->models[k].pos.y, ru->mount.height};
            for (size_t b = 0; b < nb && vis_camera_project(&cam, X, px); b++)
                t[ui] |= watch_motion_in_core(&boxes[b], px);
        }
    }
    for (size_t i = 0; i < n; i++) {
        const roster_model *m = roster_find_model_tag(r, tags[i].id);
        for (size_t b = 0; m && b < nb; b++)
            if (watch_motion_in_core(&boxes[b], tags[i].centre))
                t[m->unit] = 1;
    }
    /* A unit the reference did not have (not seen then) is looked for everywhere. */
    for (size_t ui = 0; ref && ui < r->n_units; ui++)
        if (!rules_snapshot_find_unit(ref->snap, r->units[ui].id))
            t[ui] = 1;
    return t;
}

/* Units outside the changed regions keep the reference's models exactly (what was seen stays seen). */
void watch_settle_keep_untouched(const watch_tracker *w, const rules_snapshot *ref, const unsigned char *touched,
                                 rules_snapshot *now)
{
    const roster_file *r = w->roster;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (touched[ui])
            continue;
        rules_unit *un = rules_snapshot_find_unit(now, r->units[ui].id);
        const rules_unit *ur = rules_snapshot_find_unit(ref, r->units[ui].id);
        if (!un || !ur)
            continue;
        for (size_t k = 0; k < un->n_models; k++) {
            const rules_model *m = rules_unit_find_model(ur, un->models[k].id);
            if (m)
                un->models[k] = *m;
        }
    }
}

/* A unit whose every model seen then and now moved less than the jitter: it stayed (NULL unit: nothing shared). */
static bool unit_stayed(const watch_tracker *w, const rules_unit *then, const rules_unit *now, bool *shared)
{
    *shared = false;
    for (size_t k = 0; then && now && k < now->n_models; k++) {
        const rules_model *b = &now->models[k], *a = rules_unit_find_model(then, b->id);
        if (!a || a->inferred || b->inferred)
            continue;
        *shared = true;
        if (base_v2_dist(a->pos, b->pos) >= w->cfg.jitter_mm)
            return false;
    }
    return *shared;
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

size_t watch_settle_keep_unchanged(const watch_tracker *w, const entry *ref, const base_view *gray,
                                   rules_snapshot *now)
{
    const roster_file *r = w->roster;
    size_t kept = 0;
    for (size_t ui = 0; ref->patches && ui < r->n_units; ui++) {
        rules_unit *un = rules_snapshot_find_unit(now, r->units[ui].id);
        const rules_unit *then = rules_snapshot_find_unit(ref->snap, r->units[ui].id);
        bool shared;
        if (!un || !then || !unit_stayed(w, then, un, &shared))
            continue;
        for (size_t m = r->units[ui].first_model; m < r->units[ui].first_model + r->units[ui].n_models; m++) {
            rules_model *b = rules_unit_find_model(un, r->models[m].id);
            const rules_model *a = rules_unit_find_model(then, r->models[m].id);
            if (!a || !b || a->inferred || !b->inferred)
                continue;
            watch_patch_fit fit;
            if (watch_patches_still(ref->patches, m, gray, &fit)) {
                *b = *a, kept++;
                drop_from_alternatives(un, b->id);
            }
        }
    }
    return kept;
}

/* Is `p` within a figure's reach of a model of a unit that moved? */
static bool near_moved_unit(const watch_tracker *w, const rules_snapshot *now, const bool *moved, base_vec2 p)
{
    for (size_t u = 0; u < now->n_units; u++)
        for (size_t k = 0; moved[u] && k < now->units[u].n_models; k++)
            if (base_v2_dist(now->units[u].models[k].pos, p) <= w->cfg.lean_reach_mm)
                return true;
    return false;
}

/*
 * The hidden-tag rule (see the header): must the table wait? True with the
 * reason in `why` when a board tag is hidden, a unit seen before is not
 * seen at all now, or a model of a unit that stayed is hidden now with no
 * moved unit near enough for its figures to hide it (a hand resting on the
 * table). A moved unit's own tags may be hidden by its own figures, and a
 * neighbour's by the moved unit's figures: neither waits.
 */
bool watch_settle_must_wait(const watch_tracker *w, const entry *ref, const vis_tag_detection *tags, size_t n,
                            const rules_snapshot *now, size_t *missing, char *why, size_t why_cap)
{
    const roster_file *r = w->roster;
    *missing = 0;
    why[0] = 0;
    for (size_t i = 0; i < r->n_board_tags; i++) {
        bool then = false, seen = false;
        for (size_t k = 0; k < ref->n_tags; k++)
            then |= ref->tags[k].id == r->board_tags[i].id;
        for (size_t k = 0; k < n; k++)
            seen |= tags[k].id == r->board_tags[i].id;
        if (then && !seen) {
            snprintf(why, why_cap, "board tag %d is hidden", r->board_tags[i].id);
            return true;
        }
    }
    bool *moved = calloc(now->n_units + 1, sizeof *moved);
    if (!moved)
        return false; /* cannot judge: do not block the game */
    for (size_t u = 0; u < now->n_units; u++) {
        bool shared;
        moved[u] = !unit_stayed(w, rules_snapshot_find_unit(ref->snap, now->units[u].id), &now->units[u], &shared);
    }
    bool wait = false;
    for (size_t u = 0; u < now->n_units && !wait; u++) {
        const rules_unit *un = &now->units[u], *then = rules_snapshot_find_unit(ref->snap, un->id);
        size_t seen_then = 0, seen_now = 0;
        for (size_t k = 0; k < un->n_models; k++) {
            const rules_model *b = &un->models[k], *a = then ? rules_unit_find_model(then, b->id) : NULL;
            seen_now += !b->inferred;
            seen_then += a && !a->inferred;
            if (!a || a->inferred || !b->inferred)
                continue;
            (*missing)++;
            if (!moved[u] && !near_moved_unit(w, now, moved, b->pos)) {
                snprintf(why, why_cap, "%s of unit %s is hidden and no unit moved near it", b->id, un->id);
                wait = true;
            }
        }
        if (seen_then > 0 && seen_now == 0) {
            snprintf(why, why_cap, "every tag of unit %s is hidden", un->id);
            wait = true;
        }
    }
    free(moved);
    return wait;
}

/* Units that moved less than the jitter keep their reference positions exactly. */
void watch_settle_freeze_jitter(const watch_tracker *w, const rules_snapshot *ref, rules_snapshot *now)
{
    for (size_t u = 0; u < now->n_units; u++) {
        rules_unit *un = &now->units[u];
        rules_unit *ur = rules_snapshot_find_unit(ref, un->id);
        if (!ur || ur->n_models != un->n_models)
            continue;
        bool still = true;
        for (size_t k = 0; k < un->n_models && still; k++) {
            const rules_model *mr = rules_unit_find_model(ur, un->models[k].id);
            still = mr && base_v2_dist(mr->pos, un->models[k].pos) < w->cfg.jitter_mm &&
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
