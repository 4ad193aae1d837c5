#include "watch_tracker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cvshim.h"
#include "ref_judge.h"
#include "ref_snapshot.h"
#include "watch_motion.h"
#include "watch_echo.h"
#include "watch_tracker_int.h"

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
    c->projector_latency_ms = -1;
    rules_check_options_default(&c->check);
    c->setup_checks = 1;
}

const char *watch_tracker_state_word(watch_tracker_state s)
{
    switch (s) {
    case WATCH_TRACKER_MOVING: return "moving";
    case WATCH_TRACKER_STILLING: return "stilling";
    case WATCH_TRACKER_WAITING_TAGS: return "waiting-for-tags";
    case WATCH_TRACKER_SETTLED: return "settled";
    case WATCH_TRACKER_SETUP: return "cannot-judge-setup";
    }
    return "?";
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void watch_tracker_entry_clear(entry *e)
{
    ref_snapshot_free(e->read);
    base_image_free(e->small);
    rules_report_clear(&e->report);
    memset(e, 0, sizeof *e);
}

watch_tracker *watch_tracker_new_setup(ref_setup *setup, const watch_tracker_config *cfg, base_error *err)
{
    watch_tracker *w = calloc(1, sizeof *w);
    if (!w) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    if (cfg)
        w->cfg = *cfg;
    else
        watch_tracker_config_default(&w->cfg);
    if (!(w->cfg.settle_ms >= 0) || !(w->cfg.motion_level > 0) || w->cfg.motion_width < 16 ||
        !(w->cfg.lean_reach_mm >= 0)) {
        base_error_set(err, "watch: settle_ms >= 0, motion_level > 0, motion_width >= 16, "
                             "lean_reach_mm >= 0");
        free(w);
        return NULL;
    }
    w->setup = setup;
    w->roster = setup->roster;
    w->calib = setup->calib;
    w->calib_width = w->calib.width, w->calib_height = w->calib.height;
    w->state = WATCH_TRACKER_MOVING;
    return w;
}

watch_tracker *watch_tracker_new(const roster_file *roster, const calib_file *calib, const watch_tracker_config *cfg,
                                 base_error *err)
{
    ref_setup *s = ref_setup_wrap(calib, roster, NULL, NULL, err);
    watch_tracker *w = s ? watch_tracker_new_setup(s, cfg, err) : NULL;
    if (!w) {
        ref_setup_free(s);
        return NULL;
    }
    w->own_setup = true;
    return w;
}

void watch_tracker_free(watch_tracker *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_hist; i++)
        watch_tracker_entry_clear(&w->hist[i]);
    free(w->hist);
    base_image_free(w->prev_small);
    base_image_free(w->run_small);
    if (w->own_setup)
        ref_setup_free(w->setup);
    free(w->calls);
    free(w->statuses);
    free(w->status_refs);
    free(w->rolls);
    watch_echo_free(w->echo);
    free(w->dirty);
    free(w);
}

ref_setup *watch_tracker_setup(watch_tracker *w) { return w->setup; }

const rules_snapshot *watch_tracker_snapshot(const watch_tracker *w)
{
    return w->n_hist ? w->hist[w->n_hist - 1].read->snap : NULL;
}

static int push_entry(watch_tracker *w, entry *e, base_error *err)
{
    if (w->n_hist == w->cap_hist) {
        size_t nc = w->cap_hist ? 2 * w->cap_hist : 8;
        entry *h = realloc(w->hist, nc * sizeof *h);
        if (!h)
            return base_error_set(err, "out of memory");
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

ref_status *watch_tracker_statuses(const watch_tracker *w, size_t *n)
{
    *n = w->status_refs ? w->n_statuses : 0;
    return w->status_refs;
}

/* Records the call on `move` (growing the table). */
static int record_call(watch_tracker *w, int move, bool illegal, base_error *err)
{
    if ((size_t)move >= w->cap_calls) {
        size_t nc = (size_t)move * 2 + 8;
        call_record *a = realloc(w->calls, nc * sizeof *a);
        if (!a)
            return base_error_set(err, "out of memory");
        memset(a + w->cap_calls, 0, (nc - w->cap_calls) * sizeof *a);
        w->calls = a, w->cap_calls = nc;
    }
    w->calls[move] = (call_record){.made = true, .illegal = illegal};
    return 0;
}

/* The share of a w x h frame the changed regions cover (they may overlap: an upper bound). */
static double searched_share(const ref_region *regions, size_t n, int w, int h)
{
    double area = 0;
    for (size_t b = 0; b < n; b++)
        area += (double)(regions[b].x1 - regions[b].x0) * (regions[b].y1 - regions[b].y0);
    return fmin(1, area / w / h);
}

/* How the settle frame is read (referee/ref_snapshot.h): only where it changed since the reference, its
 * statuses, the self-checks on a whole frame named as the tracker names its files. */
static void read_options(const watch_tracker *w, const entry *ref, const ref_region *regions, size_t n, bool whole,
                         const char *picture, ref_read_options *o)
{
    ref_read_options_default(o);
    o->since = ref ? ref->read : NULL;
    o->regions = whole ? NULL : regions;
    o->n_regions = whole ? 0 : n;
    o->stayed_mm = w->cfg.jitter_mm;
    o->statuses = watch_tracker_statuses(w, &o->n_statuses);
    o->checks = w->cfg.setup_checks != 0;
    o->picture = picture;
    o->calib_name = w->cfg.calib_name ? w->cfg.calib_name : "the calibration";
    o->roster_name = w->cfg.roster_name ? w->cfg.roster_name : "the roster";
}

/*
 * The settle frame read into e through the referee's door: only the regions that changed since the reference
 * (or the whole frame), the units nothing touched kept, models read then but not now kept where their tag's
 * pixels say they still are, the judge's statuses and the table's rules applied, the set-up checked on a whole
 * frame. Returns 1 done, 0 not (no model's mark read), 2 not (the set-up check fails), -1 error.
 */
static int settle_snapshot(watch_tracker *w, const base_view *im, const base_image *small, double t_ms, entry *e,
                           watch_tracker_result *res, base_error *err)
{
    bool whole;
    ref_region *regions = NULL;
    size_t n = 0;
    if (watch_settle_changed(w, small, &regions, &n, &whole, err) < 0)
        return -1;
    res->full_frame = whole;
    res->detect_share = whole ? 1 : searched_share(regions, n, w->width, w->height);
    const entry *ref = w->n_hist ? &w->hist[w->n_hist - 1] : NULL;
    char picture[64];
    snprintf(picture, sizeof picture, "the frame at %.1f s", t_ms / 1000);
    ref_read_options o;
    read_options(w, ref, regions, n, whole, picture, &o);
    e->read = ref_snapshot_read(w->setup, im, &o, err);
    free(regions);
    if (!e->read)
        return -1;
    res->tags_seen = e->read->tags_seen;
    res->models_read = e->read->models_read;
    if (!ref && e->read->models_read == 0) {
        snprintf(res->note, sizeof res->note, "not settled: no model's mark in view");
        return 0;
    }
    if (!ref_snapshot_checks_held(e->read)) {
        snprintf(res->setup_check, sizeof res->setup_check, "%.500s", ref_snapshot_check_failure(e->read));
        snprintf(res->note, sizeof res->note, "cannot judge: set-up: %.200s", res->setup_check);
        return 2;
    }
    res->tags_kept = e->read->tags_kept;
    return 1;
}

/* A settle where no unit moved (a hand passed over): the reference keeps its snapshot and takes this frame's
 * picture, tags and patches, so that later changes are measured from now. Consumes e. */
static int refresh_reference(entry *ref, entry *e, watch_tracker_result *res)
{
    ref_snapshot_take_view(ref->read, e->read);
    base_image_free(ref->small);
    ref->small = e->small;
    e->small = NULL;
    watch_tracker_entry_clear(e);
    res->before = res->after = ref->read->snap;
    if (!res->note[0])
        snprintf(res->note, sizeof res->note, "settled: no unit moved");
    return 1;
}

/* The rolls held (watch_tracker_roll) onto `before`'s units, for the move judged from it. */
static void watch_tracker_apply_rolls(const watch_tracker *w, rules_snapshot *before)
{
    base_error ignored;
    for (size_t i = 0; i < before->n_units; i++)
        before->units[i].roll_mm = NAN; /* a roll left from a move judged before (then undone) is no roll now */
    for (size_t i = 0; i < w->n_rolls; i++) {
        rules_unit *u = rules_snapshot_find_unit(before, w->rolls[i].unit);
        if (u)
            rules_unit_declare_roll(u, w->rolls[i].roll_mm, &ignored); /* checked when it was declared */
    }
}

/* The rolls of the units `report` judged a move of are used: no longer held. */
static void watch_tracker_use_rolls(watch_tracker *w, const rules_report *report)
{
    size_t k = 0;
    for (size_t i = 0; i < w->n_rolls; i++) {
        const rules_unit_report *ur = rules_report_find_unit(report, w->rolls[i].unit);
        if (!(ur && ur->move != RULES_MOVE_NONE && ur->verdict != RULES_VERDICT_NOT_SEEN))
            w->rolls[k++] = w->rolls[i];
    }
    w->n_rolls = k;
}

/* The move from the reference to e judged; e becomes the newest entry (or refreshes the reference when no unit
 * moved). Consumes e. Returns 1 or -1. */
static int judge_move(watch_tracker *w, entry *e, watch_tracker_result *res, base_error *err)
{
    entry *ref = &w->hist[w->n_hist - 1];
    /* Judged as the referee judges (ref_judge.h): under every placement the evidence allows, ILLEGAL only when
     * it holds under all; then the nearest legal move of each ILLEGAL unit, the ghost the video and the
     * projector draw. */
    ref_judge_options jo;
    ref_judge_options_default(&jo);
    jo.check = w->cfg.check;
    jo.jitter_mm = w->cfg.jitter_mm;
    ref_judgement judged;
    ref_judgement_init(&judged);
    watch_tracker_apply_rolls(w, ref->read->snap); /* the rolls declared for random movement */
    if (ref_judge(ref->read->snap, e->read->snap, &jo, &judged, err) < 0)
        goto fail;
    e->report = judged.report; /* the entry keeps the report; its snapshots are the entries' own */
    watch_tracker_use_rolls(w, &e->report);
    res->check_ms = judged.check_ms + judged.suggest_ms;
    if (judged_units(&e->report, res->note, sizeof res->note) == 0)
        return refresh_reference(ref, e, res);
    e->move = ++w->moves;
    if (record_call(w, e->move, !e->report.legal, err) < 0 || push_entry(w, e, err) < 0)
        goto fail;
    entry *top = &w->hist[w->n_hist - 1];
    res->moved = true;
    res->move = top->move;
    res->before = w->hist[w->n_hist - 2].read->snap;
    res->after = top->read->snap;
    res->report = &top->report;
    return 1;
fail:
    watch_tracker_entry_clear(e);
    return -1;
}

/* The settle pipeline at a still frame. Returns 1 settled, 0 not (tags hidden), 2 not (the set-up check fails),
 * -1 error. */
static int try_settle(watch_tracker *w, const uint8_t *gray, size_t stride, const base_image *small, double t_ms,
                      watch_tracker_result *res, base_error *err)
{
    const double t0 = now_ms();
    const base_view im = {w->width, w->height, 1, stride, gray};
    entry e = {0};
    int rc = settle_snapshot(w, &im, small, t_ms, &e, res, err);
    entry *ref = w->n_hist ? &w->hist[w->n_hist - 1] : NULL;
    char why[200];
    if (rc == 1 && ref && watch_settle_must_wait(w, ref, e.read, &res->tags_missing, why, sizeof why)) {
        const double still_for = t_ms - w->run_t0;
        if (still_for < w->cfg.force_settle_factor * w->cfg.settle_ms) {
            snprintf(res->note, sizeof res->note, "not settled: %s (a hand over the table?)", why);
            rc = 0;
        } else {
            snprintf(res->note, sizeof res->note, "settled after %.1f s still although %s", still_for / 1000, why);
        }
    }
    if (rc == 1 && !(e.small = base_image_clone(small)))
        rc = base_error_set(err, "out of memory");
    res->detect_ms = now_ms() - t0;
    if (rc != 1) {
        watch_tracker_entry_clear(&e);
        return rc;
    }
    res->settled = true;
    if (ref)
        return judge_move(w, &e, res, err);
    res->first = true;
    if (push_entry(w, &e, err) < 0) {
        watch_tracker_entry_clear(&e);
        return -1;
    }
    res->after = e.read->snap;
    return 1;
}

int watch_tracker_projected(watch_tracker *w, const base_image *picture, double t_ms, base_error *err)
{
    if (!w->calib.projector.present || w->width == 0)
        return 0;
    if (!w->echo) {
        const double latency =
            w->cfg.projector_latency_ms >= 0 ? w->cfg.projector_latency_ms : watch_echo_latency(&w->calib);
        const int bw = w->width / w->factor / BLOCK, bh = w->height / w->factor / BLOCK;
        if (!(w->echo = watch_echo_new(&w->calib, w->factor, bw, bh, latency, err)))
            return -1;
    }
    return watch_echo_picture(w->echo, picture, t_ms, err);
}

/* Moving blocks between two motion pictures, leaving out the echo blocks (`skip`, may be NULL); marks in
 * `dirty` (may be NULL) where the table may have changed. */
static size_t moving_blocks(const base_image *a, const base_image *b, double level, const uint8_t *skip,
                            uint8_t *dirty)
{
    if (!skip && !dirty)
        return watch_motion_moving_blocks(a, b, level, NULL);
    const int bw = a->width / BLOCK, bh = a->height / BLOCK;
    uint8_t *mask = malloc((size_t)bw * (size_t)bh);
    if (!mask) /* everything may have changed */
        return dirty ? (memset(dirty, 1, (size_t)bw * (size_t)bh), watch_motion_moving_blocks(a, b, level, NULL))
                     : watch_motion_moving_blocks(a, b, level, NULL);
    watch_motion_moving_blocks(a, b, level, mask);
    size_t n = 0;
    for (int i = 0; i < bw * bh; i++)
        n += mask[i] && !(skip && skip[i]);
    if (dirty)
        for (int i = 0; i < bw * bh; i++)
            if (mask[i] && (n > 0 || !(skip && skip[i])))
                dirty[i] = 1;
    free(mask);
    return n;
}

/* The still run's first picture takes the echo blocks' new look: the light changed there, not the table. */
static void run_takes_echo(base_image *run, const base_image *now, const uint8_t *skip)
{
    const int bw = now->width / BLOCK, bh = now->height / BLOCK;
    for (int by = 0; by < bh; by++)
        for (int bx = 0; bx < bw; bx++)
            if (skip[by * bw + bx])
                for (int y = by * BLOCK; y < (by + 1) * BLOCK; y++)
                    memcpy(run->data + (size_t)y * run->stride + bx * BLOCK,
                           now->data + (size_t)y * now->stride + bx * BLOCK, BLOCK);
}

/* At a settle: the tags' white paper against projected white (the settle's tags are the newest entry's). */
static void check_exposure(const watch_tracker *w, const uint8_t *gray, size_t stride, watch_tracker_result *res)
{
    const entry *top = w->n_hist ? &w->hist[w->n_hist - 1] : NULL;
    const base_view frame = {w->width, w->height, 1, stride, gray};
    res->paper_level = top ? ref_snapshot_paper_level(top->read, &frame) : 0;
    res->white_clips = w->calib.projector.present && res->paper_level > 0 &&
                       watch_echo_would_clip(res->paper_level, watch_echo_brightness(&w->calib));
}

int watch_tracker_frame(watch_tracker *w, const uint8_t *gray, int width, int height, size_t stride, double t_ms,
                    watch_tracker_result *res, base_error *err)
{
    memset(res, 0, sizeof *res);
    if (w->width == 0) {
        /* Intrinsics hold for one image size only: half-size frames would put every model in the wrong place. */
        if (w->calib_width > 0 && (width != w->calib_width || height != w->calib_height))
            return base_error_set(err, "frame size %dx%d does not match the calibration's %dx%d (ask the camera for "
                                        "that size with --size %dx%d, or calibrate at %dx%d)",
                                   width, height, w->calib_width, w->calib_height, w->calib_width, w->calib_height,
                                   width, height);
        w->width = width, w->height = height;
        w->factor = watch_motion_factor(width, w->cfg.motion_width);
    } else if (width != w->width || height != w->height) {
        return base_error_set(err, "watch: frame size changed from %dx%d to %dx%d", w->width, w->height, width,
                               height);
    }
    base_image *small = watch_motion_shrink(gray, width, height, stride, w->factor, err);
    if (!small)
        return -1;
    if (small->width < BLOCK || small->height < BLOCK) {
        base_image_free(small);
        return base_error_set(err, "watch: frame too small (%dx%d)", width, height);
    }
    bool still = false;
    if (w->prev_small) {
        w->period_ms = t_ms - w->prev_t;
        const uint8_t *echo = w->echo ? watch_echo_mask(w->echo, t_ms, w->period_ms) : NULL;
        if (!w->dirty)
            w->dirty = calloc((size_t)(small->width / BLOCK) * (size_t)(small->height / BLOCK) + 1, 1);
        res->moving_blocks = moving_blocks(small, w->prev_small, w->cfg.motion_level, echo, w->dirty);
        still = res->moving_blocks == 0 &&
                (!w->in_run || moving_blocks(small, w->run_small, w->cfg.motion_level, echo, w->dirty) == 0);
        if (still && echo && w->in_run)
            run_takes_echo(w->run_small, small, echo);
    }
    w->prev_t = t_ms;
    if (!still) {
        /* This frame starts a new candidate still run. */
        base_image_free(w->run_small);
        w->run_small = base_image_clone(small);
        w->run_t0 = t_ms;
        w->in_run = w->run_small != NULL;
        w->next_try_t = t_ms + w->cfg.settle_ms;
        if (w->prev_small)
            w->state = WATCH_TRACKER_MOVING;
    }
    base_image_free(w->prev_small);
    w->prev_small = small;

    int rc = 0;
    if (w->state != WATCH_TRACKER_SETTLED) {
        if (t_ms >= w->next_try_t) {
            rc = try_settle(w, gray, stride, small, t_ms, res, err);
            if (rc == 1) {
                w->state = WATCH_TRACKER_SETTLED;
                check_exposure(w, gray, stride, res);
                if (w->dirty) /* changes are measured from this settle on */
                    memset(w->dirty, 0, (size_t)(small->width / BLOCK) * (size_t)(small->height / BLOCK));
            } else if (rc == 2) {
                /* Nothing is judged from this set-up; look again a settle time later (focus, light, roster). */
                w->state = WATCH_TRACKER_SETUP;
                w->next_try_t = t_ms + w->cfg.settle_ms;
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
    if (w->state == WATCH_TRACKER_SETUP && !res->setup_check[0])
        snprintf(res->setup_check, sizeof res->setup_check, "%s", w->setup_check);
    else if (rc == 2)
        snprintf(w->setup_check, sizeof w->setup_check, "%s", res->setup_check);
    return rc < 0 ? -1 : 0;
}

