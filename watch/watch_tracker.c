#include "watch_tracker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cvshim.h"
#include "rules_robust.h"
#include "rules_suggest.h"
#include "watch_motion.h"
#include "vis_camera.h"

#define BLOCK WATCH_MOTION_BLOCK

/* One settled moment: what the table was, and what was seen to know it. */
typedef struct entry {
    rules_snapshot *snap;
    vis_tag_detection *tags;  /* full-frame px */
    size_t n_tags;
    cvs_image *small;         /* the motion picture at that moment */
    rules_report report;      /* the call that led here (empty for the first) */
    int move;                 /* 0 for the first snapshot */
} entry;

/* What became of the call on one move. */
typedef struct call_record {
    bool made;                /* the move was judged */
    bool illegal;             /* the call had an ILLEGAL unit */
    bool undone;              /* the judge undid the snapshot */
    watch_call_ruling ruling;
} call_record;

/* A status the judge set on a unit; it holds for every snapshot from then on. */
typedef struct unit_status {
    char unit[RULES_ID_MAX];
    unsigned bits;            /* RULES_STATUS_* */
} unit_status;

struct watch_tracker {
    watch_tracker_config cfg;
    const vis_roster *roster;
    vis_detector *det;
    entry *hist;
    size_t n_hist, cap_hist;
    cvs_image *prev_small;    /* the previous frame's motion picture */
    cvs_image *run_small;     /* the first frame of the current still run */
    double run_t0;
    bool in_run;
    double next_try_t;        /* frame time of the next settle attempt */
    watch_tracker_state state;
    int width, height, factor;
    int calib_width, calib_height;  /* the size the calibration was made at (0: unknown) */
    int moves;                /* moves judged so far */
    call_record *calls;       /* by move number (index 0 unused) */
    unit_status *statuses;
    size_t n_statuses;
    size_t cap_calls;
    vis_tag_list scratch;
};

void watch_tracker_config_default(watch_tracker_config *c)
{
    memset(c, 0, sizeof *c);
    c->settle_ms = 1000;
    c->jitter_mm = 2.0;
    c->motion_level = 6;
    c->motion_width = 320;
    c->force_settle_factor = 4;
    c->roi_max_fraction = 0.5;
    c->lean_reach_mm = 60;
    rules_check_options_default(&c->check);
}

const char *watch_tracker_state_word(watch_tracker_state s)
{
    switch (s) {
    case WATCH_TRACKER_MOVING: return "moving";
    case WATCH_TRACKER_STILLING: return "stilling";
    case WATCH_TRACKER_WAITING_TAGS: return "waiting-for-tags";
    case WATCH_TRACKER_SETTLED: return "settled";
    }
    return "?";
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void entry_clear(entry *e)
{
    rules_snapshot_free(e->snap);
    free(e->tags);
    cvs_image_free(e->small);
    rules_report_clear(&e->report);
    memset(e, 0, sizeof *e);
}

watch_tracker *watch_tracker_new(const vis_roster *roster, const calib_file *calib, const watch_tracker_config *cfg,
                         rules_error *err)
{
    watch_tracker *w = calloc(1, sizeof *w);
    if (!w) {
        rules_error_set(err, "out of memory");
        return NULL;
    }
    if (cfg)
        w->cfg = *cfg;
    else
        watch_tracker_config_default(&w->cfg);
    if (!(w->cfg.settle_ms >= 0) || !(w->cfg.motion_level > 0) || w->cfg.motion_width < 16 ||
        !(w->cfg.lean_reach_mm >= 0)) {
        rules_error_set(err, "watch: settle_ms >= 0, motion_level > 0, motion_width >= 16, "
                             "lean_reach_mm >= 0");
        free(w);
        return NULL;
    }
    w->roster = roster;
    w->calib_width = calib->width, w->calib_height = calib->height;
    w->det = vis_detector_new(roster, calib, err);
    if (!w->det) {
        free(w);
        return NULL;
    }
    w->state = WATCH_TRACKER_MOVING;
    return w;
}

void watch_tracker_free(watch_tracker *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_hist; i++)
        entry_clear(&w->hist[i]);
    free(w->hist);
    cvs_image_free(w->prev_small);
    cvs_image_free(w->run_small);
    vis_detector_free(w->det);
    free(w->calls);
    free(w->statuses);
    vis_tag_list_clear(&w->scratch);
    free(w);
}

vis_detector *watch_tracker_detector(watch_tracker *w) { return w->det; }

const rules_snapshot *watch_tracker_snapshot(const watch_tracker *w)
{
    return w->n_hist ? w->hist[w->n_hist - 1].snap : NULL;
}

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
 * The tags of this frame: detected in the changed regions, carried over
 * from the reference elsewhere (or all detected when there is no reference
 * or the change is global). *out is malloc'ed.
 */
/*
 * The tags of this frame: detected in the changed regions (*boxes, *nb:
 * malloc'ed, the caller's), carried over from the reference elsewhere; or
 * all detected (*full) when there is no reference or the change is global.
 * *out is malloc'ed.
 */
static int detect_tags(watch_tracker *w, const uint8_t *gray, size_t stride, const cvs_image *small,
                       vis_tag_detection **out, size_t *n_out, watch_motion_box **boxes_out, size_t *nb_out,
                       bool *full, rules_error *err)
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
            return rules_error_set(err, "out of memory");
        size_t changed = watch_motion_moving_blocks(small, ref->small, w->cfg.motion_level, mask);
        double margin = fmax(3 * w->det->expected_tag_px, 24);
        nb = changed ? watch_motion_changed_boxes(mask, bw, bh, w->factor, margin, w->width, w->height, &boxes) : 0;
        free(mask);
        if (changed && !boxes)
            return rules_error_set(err, "out of memory");
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
    rules_error_set(err, "out of memory");
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
static unsigned char *touched_units(const watch_tracker *w, const entry *ref, const watch_motion_box *boxes,
                                    size_t nb, const vis_tag_detection *tags, size_t n)
{
    const vis_roster *r = w->roster;
    unsigned char *t = calloc(r->n_units + 1, 1);
    if (!t)
        return NULL;
    vis_camera cam;
    vis_camera_init(&cam, &w->det->calib);
    for (size_t ui = 0; ref && ui < r->n_units; ui++) {
        const vis_roster_unit *ru = &r->units[ui];
        const rules_unit *un = rules_snapshot_find_unit(ref->snap, ru->id);
        for (size_t k = 0; un && k < un->n_models && !t[ui]; k++) {
            double px[2];
            const double X[3] = {un->models[k].pos.x, un->models[k].pos.y, ru->mount.height};
            for (size_t b = 0; b < nb && vis_camera_project(&cam, X, px); b++)
                t[ui] |= watch_motion_in_core(&boxes[b], px);
        }
    }
    for (size_t i = 0; i < n; i++) {
        const vis_roster_model *m = vis_roster_find_model_tag(r, tags[i].id);
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
static void keep_untouched(const watch_tracker *w, const rules_snapshot *ref, const unsigned char *touched,
                           rules_snapshot *now)
{
    const vis_roster *r = w->roster;
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
        if (rules_v2_dist(a->pos, b->pos) >= w->cfg.jitter_mm)
            return false;
    }
    return *shared;
}

/* Is `p` within a figure's reach of a model of a unit that moved? */
static bool near_moved_unit(const watch_tracker *w, const rules_snapshot *now, const bool *moved, rules_vec2 p)
{
    for (size_t u = 0; u < now->n_units; u++)
        for (size_t k = 0; moved[u] && k < now->units[u].n_models; k++)
            if (rules_v2_dist(now->units[u].models[k].pos, p) <= w->cfg.lean_reach_mm)
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
static bool must_wait(const watch_tracker *w, const entry *ref, const vis_tag_detection *tags, size_t n,
                      const rules_snapshot *now, size_t *missing, char *why, size_t why_cap)
{
    const vis_roster *r = w->roster;
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
static void freeze_jitter(const watch_tracker *w, const rules_snapshot *ref, rules_snapshot *now)
{
    for (size_t u = 0; u < now->n_units; u++) {
        rules_unit *un = &now->units[u];
        rules_unit *ur = rules_snapshot_find_unit(ref, un->id);
        if (!ur || ur->n_models != un->n_models)
            continue;
        bool still = true;
        for (size_t k = 0; k < un->n_models && still; k++) {
            const rules_model *mr = rules_unit_find_model(ur, un->models[k].id);
            still = mr && rules_v2_dist(mr->pos, un->models[k].pos) < w->cfg.jitter_mm &&
                    fabs(rules_angle_wrap(mr->facing - un->models[k].facing)) < rules_deg_to_rad(1.0);
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

static int push_entry(watch_tracker *w, entry *e, rules_error *err)
{
    if (w->n_hist == w->cap_hist) {
        size_t nc = w->cap_hist ? 2 * w->cap_hist : 8;
        entry *h = realloc(w->hist, nc * sizeof *h);
        if (!h)
            return rules_error_set(err, "out of memory");
        w->hist = h, w->cap_hist = nc;
    }
    w->hist[w->n_hist++] = *e;
    return 0;
}

/*
 * Units the call judged (not NOT_SEEN). A unit not seen is no move: with
 * nothing else to judge, the settle is "no unit moved" and the note names
 * what was not seen.
 */
static size_t judged_units(const rules_report *r, char *note, size_t cap)
{
    size_t judged = 0, off = 0;
    for (size_t i = 0; i < r->n_units; i++) {
        if (r->units[i].verdict != RULES_VERDICT_NOT_SEEN) {
            judged++;
            continue;
        }
        if (off == 0 && !note[0])
            off = (size_t)snprintf(note, cap, "settled: not seen, cannot judge:");
        if (off > 0 && off < cap)
            off += (size_t)snprintf(note + off, cap - off, " %s", r->units[i].unit_id);
    }
    return judged;
}

/* The judge's statuses (engaged, fleeing, shaken...) on the units they name, in `s`. */
static int apply_statuses(const watch_tracker *w, rules_snapshot *s, rules_error *err)
{
    (void)err;
    for (size_t i = 0; i < w->n_statuses; i++) {
        rules_unit *u = rules_snapshot_find_unit(s, w->statuses[i].unit);
        if (u)
            u->status = w->statuses[i].bits;
    }
    return 0;
}

/* Records the call on `move` (growing the table). */
static int record_call(watch_tracker *w, int move, bool illegal, rules_error *err)
{
    if ((size_t)move >= w->cap_calls) {
        size_t nc = (size_t)move * 2 + 8;
        call_record *a = realloc(w->calls, nc * sizeof *a);
        if (!a)
            return rules_error_set(err, "out of memory");
        memset(a + w->cap_calls, 0, (nc - w->cap_calls) * sizeof *a);
        w->calls = a, w->cap_calls = nc;
    }
    w->calls[move] = (call_record){.made = true, .illegal = illegal};
    return 0;
}

/* The settle pipeline at a still frame. Returns 1 settled, 0 not (tags hidden), -1 error. */
static int try_settle(watch_tracker *w, const uint8_t *gray, size_t stride, const cvs_image *small, double t_ms,
                      watch_tracker_result *res, rules_error *err)
{
    double t0 = now_ms();
    entry e = {0};
    bool full;
    watch_motion_box *boxes = NULL;
    size_t nb = 0;
    if (detect_tags(w, gray, stride, small, &e.tags, &e.n_tags, &boxes, &nb, &full, err) < 0)
        return -1;
    res->full_frame = full;
    res->tags_seen = e.n_tags;
    entry *ref = w->n_hist ? &w->hist[w->n_hist - 1] : NULL;
    if (!ref) {
        size_t models = 0;
        for (size_t i = 0; i < e.n_tags; i++)
            models += vis_roster_find_model_tag(w->roster, e.tags[i].id) != NULL;
        if (models == 0) {
            snprintf(res->note, sizeof res->note, "not settled: no model tag in view");
            res->detect_ms = now_ms() - t0;
            free(e.tags);
            return 0;
        }
    }
    /* The snapshot first (tags the quad finder missed read from the picture): the settle rule looks at units. */
    vis_report rep = {0};
    const vis_image im = {gray, w->width, w->height, stride};
    unsigned char *touched = full || !ref ? NULL : touched_units(w, ref, boxes, nb, e.tags, e.n_tags);
    int rc = (!full && ref && !touched) ? rules_error_set(err, "out of memory")
                                        : vis_detector_run_focused(w->det, &im, e.tags, e.n_tags, ref ? ref->snap : NULL,
                                                                   touched, &e.snap, &rep, err);
    vis_report_clear(&rep);
    free(boxes);
    if (rc == 0 && touched)
        keep_untouched(w, ref->snap, touched, e.snap);
    free(touched);
    if (rc < 0) {
        free(e.tags);
        return -1;
    }
    char why[200];
    if (ref && must_wait(w, ref, e.tags, e.n_tags, e.snap, &res->tags_missing, why, sizeof why)) {
        double still_for = t_ms - w->run_t0;
        if (still_for < w->cfg.force_settle_factor * w->cfg.settle_ms) {
            snprintf(res->note, sizeof res->note, "not settled: %s (a hand over the table?)", why);
            res->detect_ms = now_ms() - t0;
            entry_clear(&e);
            return 0;
        }
        snprintf(res->note, sizeof res->note, "settled after %.1f s still although %s", still_for / 1000, why);
    }
    if (!(e.small = cvs_image_clone(small))) {
        entry_clear(&e);
        return rules_error_set(err, "out of memory");
    }
    if (w->cfg.table && table_file_apply(w->cfg.table, e.snap, err) < 0) {
        entry_clear(&e);
        return -1;
    }
    res->detect_ms = now_ms() - t0;
    res->settled = true;
    if (!ref) {
        res->first = true;
        if (push_entry(w, &e, err) < 0) {
            entry_clear(&e);
            return -1;
        }
        res->after = e.snap;
        return 1;
    }
    freeze_jitter(w, ref->snap, e.snap);
    if (apply_statuses(w, e.snap, err) < 0) {
        entry_clear(&e);
        return -1;
    }
    double t1 = now_ms();
    rules_report_init(&e.report);
    /* Judged under every placement the evidence allows: ILLEGAL only when it holds under all (rules_robust.h). */
    rules_robust_options ro;
    rules_robust_options_default(&ro);
    ro.check = w->cfg.check;
    ro.jitter_mm = w->cfg.jitter_mm;
    /* Then the nearest legal move of each ILLEGAL unit: the ghost the video and the projector draw. */
    if (rules_robust_check(ref->snap, e.snap, &ro, &e.report, err) < 0 ||
        rules_suggest_moves(ref->snap, e.snap, &w->cfg.check, &e.report, err) < 0) {
        entry_clear(&e);
        return -1;
    }
    res->check_ms = now_ms() - t1;
    if (judged_units(&e.report, res->note, sizeof res->note) == 0) {
        /* Nothing moved (a hand passed over): keep the snapshot, refresh the
         * picture and tags so later changes are measured from now. */
        cvs_image_free(ref->small);
        free(ref->tags);
        ref->small = e.small, ref->tags = e.tags, ref->n_tags = e.n_tags;
        e.small = NULL, e.tags = NULL;
        entry_clear(&e);
        res->before = res->after = ref->snap;
        if (!res->note[0])
            snprintf(res->note, sizeof res->note, "settled: no unit moved");
        return 1;
    }
    e.move = ++w->moves;
    if (record_call(w, e.move, !e.report.legal, err) < 0 || push_entry(w, &e, err) < 0) {
        entry_clear(&e);
        return -1;
    }
    entry *top = &w->hist[w->n_hist - 1];
    res->moved = true;
    res->move = top->move;
    res->before = w->hist[w->n_hist - 2].snap;
    res->after = top->snap;
    res->report = &top->report;
    return 1;
}

int watch_tracker_frame(watch_tracker *w, const uint8_t *gray, int width, int height, size_t stride, double t_ms,
                    watch_tracker_result *res, rules_error *err)
{
    memset(res, 0, sizeof *res);
    if (w->width == 0) {
        /* Intrinsics hold for one image size only: half-size frames would put every model in the wrong place. */
        if (w->calib_width > 0 && (width != w->calib_width || height != w->calib_height))
            return rules_error_set(err, "frame size %dx%d does not match the calibration's %dx%d (ask the camera for "
                                        "that size with --size %dx%d, or calibrate at %dx%d)",
                                   width, height, w->calib_width, w->calib_height, w->calib_width, w->calib_height,
                                   width, height);
        w->width = width, w->height = height;
        w->factor = watch_motion_factor(width, w->cfg.motion_width);
    } else if (width != w->width || height != w->height) {
        return rules_error_set(err, "watch: frame size changed from %dx%d to %dx%d", w->width, w->height, width,
                               height);
    }
    cvs_image *small = watch_motion_shrink(gray, width, height, stride, w->factor, err);
    if (!small)
        return -1;
    if (small->width < BLOCK || small->height < BLOCK) {
        cvs_image_free(small);
        return rules_error_set(err, "watch: frame too small (%dx%d)", width, height);
    }
    bool still = false;
    if (w->prev_small) {
        res->moving_blocks = watch_motion_moving_blocks(small, w->prev_small, w->cfg.motion_level, NULL);
        still = res->moving_blocks == 0 &&
                (!w->in_run || watch_motion_moving_blocks(small, w->run_small, w->cfg.motion_level, NULL) == 0);
    }
    if (!still) {
        /* This frame starts a new candidate still run. */
        cvs_image_free(w->run_small);
        w->run_small = cvs_image_clone(small);
        w->run_t0 = t_ms;
        w->in_run = w->run_small != NULL;
        w->next_try_t = t_ms + w->cfg.settle_ms;
        if (w->prev_small)
            w->state = WATCH_TRACKER_MOVING;
    }
    cvs_image_free(w->prev_small);
    w->prev_small = small;

    int rc = 0;
    if (w->state != WATCH_TRACKER_SETTLED) {
        if (t_ms >= w->next_try_t) {
            rc = try_settle(w, gray, stride, small, t_ms, res, err);
            if (rc == 1) {
                w->state = WATCH_TRACKER_SETTLED;
            } else if (rc == 0) {
                /* The same still picture gives the same tags: try again
                 * only when the force time allows settling anyway. */
                w->state = WATCH_TRACKER_WAITING_TAGS;
                w->next_try_t = w->run_t0 + w->cfg.force_settle_factor * w->cfg.settle_ms;
            }
        } else if (still && w->state == WATCH_TRACKER_MOVING) {
            w->state = WATCH_TRACKER_STILLING;
        }
    }
    res->state = w->state;
    return rc < 0 ? -1 : 0;
}

/* The call on `move` (0: the latest still in the history), or NULL with *why set. */
static call_record *find_call(watch_tracker *w, int move, int *move_out, const char **why)
{
    const char *dummy;
    why = why ? why : &dummy;
    if (move == 0) {
        move = w->n_hist >= 2 ? w->hist[w->n_hist - 1].move : 0;
        if (move <= 0) {
            *why = "no call has been made yet";
            return NULL;
        }
    }
    if (move < 0 || (size_t)move >= w->cap_calls || !w->calls[move].made) {
        *why = "no such move";
        return NULL;
    }
    if (w->calls[move].undone) {
        *why = "that move was undone";
        return NULL;
    }
    *move_out = move;
    return &w->calls[move];
}

int watch_tracker_overrule(watch_tracker *w, int move, const char **why)
{
    int m = 0;
    call_record *c = find_call(w, move, &m, why);
    if (!c)
        return 0;
    c->ruling = WATCH_RULING_OVERRULED;
    return m;
}

int watch_tracker_confirm(watch_tracker *w, int move, const char **why)
{
    int m = 0;
    call_record *c = find_call(w, move, &m, why);
    if (!c)
        return 0;
    c->ruling = WATCH_RULING_CONFIRMED;
    return m;
}

watch_call_ruling watch_tracker_ruling(const watch_tracker *w, int move)
{
    return move > 0 && (size_t)move < w->cap_calls ? w->calls[move].ruling : WATCH_RULING_NONE;
}

int watch_tracker_illegal_standing(const watch_tracker *w)
{
    int n = 0;
    for (size_t m = 1; m < w->cap_calls; m++) {
        const call_record *c = &w->calls[m];
        n += c->made && c->illegal && !c->undone && c->ruling != WATCH_RULING_OVERRULED;
    }
    return n;
}

int watch_tracker_undo(watch_tracker *w)
{
    if (w->n_hist < 2)
        return 0;
    entry *top = &w->hist[--w->n_hist];
    int m = top->move;
    if (m > 0 && (size_t)m < w->cap_calls)
        w->calls[m].undone = true;
    entry_clear(top);
    /* Judge the next settle against the restored snapshot; the table itself
     * has not changed yet, so wait for motion first. */
    w->state = WATCH_TRACKER_SETTLED;
    return m;
}

int watch_tracker_last_call(const watch_tracker *w, const rules_snapshot **before, const rules_snapshot **after,
                        const rules_report **report)
{
    if (w->n_hist < 2)
        return 0;
    const entry *top = &w->hist[w->n_hist - 1];
    if (before)
        *before = w->hist[w->n_hist - 2].snap;
    if (after)
        *after = top->snap;
    if (report)
        *report = &top->report;
    return top->move;
}

int watch_tracker_set_status(watch_tracker *w, const char *unit_id, unsigned bits, rules_error *err)
{
    const rules_snapshot *now = watch_tracker_snapshot(w);
    if (!now || !rules_snapshot_find_unit(now, unit_id)) {
        bool known = false;
        for (size_t i = 0; i < w->roster->n_units && !known; i++)
            known = strcmp(w->roster->units[i].id, unit_id) == 0;
        if (!known)
            return rules_error_set(err, "no unit '%s' in the roster", unit_id);
    }
    size_t i = 0;
    while (i < w->n_statuses && strcmp(w->statuses[i].unit, unit_id) != 0)
        i++;
    if (i == w->n_statuses) {
        unit_status *a = realloc(w->statuses, (w->n_statuses + 1) * sizeof *a);
        if (!a)
            return rules_error_set(err, "out of memory");
        w->statuses = a;
        snprintf(a[w->n_statuses].unit, sizeof a[w->n_statuses].unit, "%s", unit_id);
        w->n_statuses++;
    }
    w->statuses[i].bits = bits;
    /* The table as it stands now carries it too: the next move is judged from it. */
    if (w->n_hist)
        apply_statuses(w, w->hist[w->n_hist - 1].snap, err);
    return 0;
}
