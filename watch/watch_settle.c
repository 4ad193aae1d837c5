/* What a settle frame shows (watch_tracker_int.h): where the picture changed since the last settle, the hidden-tag
 * rule. The frame itself is read through the referee (ref_snapshot.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "watch_tracker_int.h"

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

/*
 * Where the picture changed since the reference settle: the changed blocks
 * of the motion picture grown by three tag widths (at least 24 px), as
 * regions with their cores; or the whole frame (*whole) when there is no
 * reference or the regions cover more than cfg.roi_max_fraction of it.
 */
int watch_settle_changed(const watch_tracker *w, const base_image *small, ref_region **regions, size_t *n,
                         bool *whole, base_error *err)
{
    const entry *ref = w->n_hist ? &w->hist[w->n_hist - 1] : NULL;
    *regions = NULL, *n = 0, *whole = true;
    if (!ref || !ref->small || ref->small->width != small->width || ref->small->height != small->height)
        return 0;
    const int bw = small->width / BLOCK, bh = small->height / BLOCK;
    uint8_t *mask = calloc((size_t)bw * bh + 1, 1);
    if (!mask)
        return base_error_set(err, "out of memory");
    size_t changed = watch_motion_moving_blocks(small, ref->small, w->cfg.motion_level, mask);
    if (w->echo && w->dirty)
        changed = keep_where_the_table_moved(mask, w->dirty, bw, bh);
    const double margin = fmax(3 * ref_setup_tag_px(w->setup), 24);
    watch_motion_box *boxes = NULL;
    const size_t nb =
        changed ? watch_motion_changed_boxes(mask, bw, bh, w->factor, margin, w->width, w->height, &boxes) : 0;
    free(mask);
    if (changed && !boxes)
        return base_error_set(err, "out of memory");
    double area = 0;
    for (size_t i = 0; i < nb; i++)
        area += (double)(boxes[i].x1 - boxes[i].x0) * (boxes[i].y1 - boxes[i].y0);
    *whole = area > w->cfg.roi_max_fraction * w->width * w->height;
    if (!*whole && !(*regions = malloc((nb ? nb : 1) * sizeof **regions))) {
        free(boxes);
        return base_error_set(err, "out of memory");
    }
    for (size_t i = 0; !*whole && i < nb; i++)
        (*regions)[i] = (ref_region){boxes[i].x0,  boxes[i].y0,  boxes[i].x1,  boxes[i].y1,
                                     boxes[i].cx0, boxes[i].cy0, boxes[i].cx1, boxes[i].cy1};
    *n = *whole ? 0 : nb;
    free(boxes);
    return 0;
}

/* A unit whose every model seen then and now moved less than the jitter: it stayed (NULL unit: nothing shared). */
static bool unit_stayed(const watch_tracker *w, const rules_unit *then, const rules_unit *now)
{
    bool shared = false;
    for (size_t k = 0; then && now && k < now->n_models; k++) {
        const rules_model *b = &now->models[k], *a = rules_unit_find_model(then, b->id);
        if (!a || a->inferred || b->inferred)
            continue;
        shared = true;
        if (base_v2_dist(a->pos, b->pos) >= w->cfg.jitter_mm)
            return false;
    }
    return shared;
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

/* A board tag seen at the reference settle and not now: its id, or -1. */
static int board_tag_hidden(const watch_tracker *w, const entry *ref, const ref_snapshot *now)
{
    const roster_file *r = w->roster;
    for (size_t i = 0; i < r->n_board_tags; i++)
        if (ref_snapshot_sees_tag(ref->read, r->board_tags[i].id) && !ref_snapshot_sees_tag(now, r->board_tags[i].id))
            return r->board_tags[i].id;
    return -1;
}

/*
 * The hidden-tag rule (see the header): must the table wait? True with the
 * reason in `why` when a board tag is hidden, a unit seen before is not
 * seen at all now, or a model of a unit that stayed is hidden now with no
 * moved unit near enough for its figures to hide it (a hand resting on the
 * table). A moved unit's own tags may be hidden by its own figures, and a
 * neighbour's by the moved unit's figures: neither waits.
 */
bool watch_settle_must_wait(const watch_tracker *w, const entry *ref, const ref_snapshot *reading, size_t *missing,
                            char *why, size_t why_cap)
{
    const rules_snapshot *now = reading->snap, *then_snap = ref->read->snap;
    *missing = 0;
    why[0] = 0;
    const int hidden = board_tag_hidden(w, ref, reading);
    if (hidden >= 0) {
        snprintf(why, why_cap, "board tag %d is hidden", hidden);
        return true;
    }
    bool *moved = calloc(now->n_units + 1, sizeof *moved);
    if (!moved)
        return false; /* cannot judge: do not block the game */
    for (size_t u = 0; u < now->n_units; u++)
        moved[u] = !unit_stayed(w, rules_snapshot_find_unit(then_snap, now->units[u].id), &now->units[u]);
    bool wait = false;
    for (size_t u = 0; u < now->n_units && !wait; u++) {
        const rules_unit *un = &now->units[u], *then = rules_snapshot_find_unit(then_snap, un->id);
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
