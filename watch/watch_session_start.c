/*
 * watch_session_start: the pre-round table check at the watch's start
 * (referee/ref_check_table.h, the same verdict `tableref table-check`
 * gives): the first frame read through the set-up (focus, exposure,
 * resolution, the board tags, the calibration's fit, each unit's tags) and,
 * when the watch projects (--projector, or the table simulator's sink) with
 * a projector mapped, the projector's alignment: marks thrown and read back
 * from the camera after the projector's latency (referee/ref_projcheck.h).
 *
 * The result goes to stdout, the event log and every sink as a "table_check"
 * event (the venue's retained state keeps it). A no-go: from then on the
 * tracker sees no frame -- nothing is settled or judged -- and the session
 * is in "cannot judge: set-up" (a "setup" event) until the check, made again
 * every settle time on the frame then, holds. The frames read for the marks
 * go through the tracker (the marks are the watch's own light to its echo,
 * watch_echo.h), so the start loses no still time; a table check reads
 * frames only after the picture's own checks have gone.
 * Part of watch_session (watch_session_int.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "media.h"
#include "ref_check_table.h"
#include "ref_projcheck.h"
#include "ref_snapshot.h"
#include "watch_echo.h"
#include "watch_session_int.h"

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The projector and the camera for the marks: the session's projector outputs, the frames of its source. */
typedef struct start_loop {
    watch_session *s;
    cap_source *cap;
    bool live;                /* a camera: its clock runs between frames */
    double last_mono;
} start_loop;

static int loop_show(void *ctx, const base_image *pic, base_error *err)
{
    start_loop *l = ctx;
    watch_session *s = l->s;
    if (s->cfg.project)
        s->cfg.project(s->cfg.project_ctx, pic, s->last_t);
    if (s->cfg.projector && !s->projector_failed && media_screen_show("tableref", pic, 1, err) < 0)
        return -1;
    /* The marks are the watch's own light: the tracker does not take them for the table moving. */
    return watch_tracker_projected(s->tracker, pic, s->last_t, err);
}

static const base_image *loop_grab(void *ctx, double *t_ms, base_error *err)
{
    start_loop *l = ctx;
    cap_frame f;
    int r = cap_source_read(l->cap, &f, err);
    if (r != 1) {
        if (r == 0)
            base_error_set(err, "the source ended during the projector's check");
        return NULL;
    }
    l->s->frames++;
    l->s->last_t = *t_ms = f.t_ms, l->s->last_frame = f.index;
    l->last_mono = mono_ms();
    /* The table is watched all along: the frames read for the marks go through the tracker too. */
    if (watch_session_track(l->s, &f, err) < 0) {
        l->s->start_track_failed = true;
        return NULL;
    }
    return f.gray;
}

static double loop_now(void *ctx)
{
    const start_loop *l = ctx;
    return l->s->last_t + (l->live ? mono_ms() - l->last_mono : 0);
}

/* The verdict being made and, for the projector's marks, the table it was made on (the frame read through the
 * set-up: its snapshot and its tags). */
struct watch_start {
    ref_table_check tc;
    ref_snapshot *table;
};

static void start_table_clear(struct watch_start *t)
{
    ref_snapshot_free(t->table);
    t->table = NULL;
}

/* Whether the marks are to be thrown: a projector mapped, and the watch projecting. */
static bool projects(const watch_session *s)
{
    return s->calib.projector.present && (s->cfg.project || (s->cfg.projector && !s->projector_failed));
}

/* The projector's part: marks placed around the table detected, thrown and read back. -1 when the tracker could
 * not take a frame read (err says why); a loop that fails otherwise is said and leaves the projector unchecked. */
static int check_projector(watch_session *s, cap_source *cap, const struct watch_start *t, const char *calib_name,
                           ref_table_check *tc, base_error *err)
{
    const calib_file *c = &s->calib;
    const bool live = cap_source_is_live(cap); /* the source's row says (capture/cap_rows.h) */
    start_loop l = {s, cap, live, mono_ms()};
    const calib_loop loop = {&l, loop_show, loop_grab, loop_now};
    /* The latency the watch takes its own light to have (watch_echo.h): the calibration's, else the default. */
    const double latency = s->cfg.tracker.projector_latency_ms >= 0 ? s->cfg.tracker.projector_latency_ms
                                                                    : watch_echo_latency(c);
    ref_proj_marks m;
    ref_proj_result r;
    s->start_track_failed = false;
    int rc = ref_proj_marks_place(s->roster, t->table->snap, c, &m, err);
    if (rc == 0)
        rc = ref_snapshot_proj_check(s->setup, t->table, c, &m, &loop, latency, live ? 1 : 0, calib_name, &r, err);
    ref_proj_marks_clear(&m);
    if (rc < 0 && s->start_track_failed)
        return -1;
    if (rc < 0) { /* the loop failed: nothing measured, said; the other checks decide */
        watch_session_emit_error(s, "table check", err->msg);
        ref_table_check_set_projector(tc, REF_PROJ_NOT_CHECKED, false, NULL);
        return 0;
    }
    /* None of its marks seen: it lights nothing the camera reads (a projector off): said, not a no-go. */
    ref_table_check_set_projector(tc, r.found ? REF_PROJ_CHECKED : REF_PROJ_NOT_SEEN, cap_source_is_simulated(cap), &r);
    return 0;
}

static const char *calib_name_of(const watch_session *s)
{
    return s->cfg.tracker.calib_name ? s->cfg.tracker.calib_name
           : s->cfg.calib_path       ? s->cfg.calib_path
                                     : "the calibration";
}

/* The picture's part of the table check on frame f into st->tc, the table detected into st. -1 when the
 * frame cannot be read through the set-up. */
static int run_check(watch_session *s, const cap_frame *f, struct watch_start *st, base_error *err)
{
    ref_table_check *tc = &st->tc;
    const base_image *g = f->gray;
    start_table_clear(st);
    char picture[64];
    snprintf(picture, sizeof picture, "the frame at %.1f s", f->t_ms / 1000);
    ref_read_options o;
    ref_read_options_default(&o);
    o.picture = picture;
    o.patches = false;
    const base_view im = base_image_view(g);
    if (!(st->table = ref_snapshot_read(s->setup, &im, &o, err)))
        return -1;
    int rc = ref_snapshot_table_check(s->setup, st->table, &im, tc);
    if (rc < 0) {
        base_error_setc(err, BASE_E_NOMEM, "out of memory");
    } else {
        ref_table_check_units_optional(tc); /* a watch started mid-game: units may be gone as casualties */
        ref_table_check_set_projector(tc, s->calib.projector.present ? REF_PROJ_NOT_CHECKED : REF_PROJ_NOT_MAPPED,
                                      false, NULL);
    }
    return rc;
}

/* The "table_check" event (every figure) and the line on stdout. */
static void tell(watch_session *s, const ref_table_check *tc, double t, long frame)
{
    cJSON *e = watch_log_event_new("table_check", t, frame), *j = ref_table_check_to_json(tc);
    if (e && j) {
        cJSON *item = j->child;
        while (item) { /* the verdict's members into the event */
            cJSON *next = item->next;
            cJSON_AddItemToObject(e, item->string, cJSON_DetachItemViaPointer(j, item));
            item = next;
        }
    }
    cJSON_Delete(j);
    watch_session_emit(s, e);
    char line[3600];
    if (tc->go && tc->projector_status == REF_PROJ_CHECKED)
        snprintf(line, sizeof line, "table check: GO (projector: %s)", tc->projector.msg);
    else if (tc->go && tc->projector_status == REF_PROJ_NOT_SEEN)
        snprintf(line, sizeof line, "table check: GO (projector not seen: %s)", tc->projector.msg);
    else if (tc->go)
        snprintf(line, sizeof line, "table check: GO");
    else
        snprintf(line, sizeof line, "table check: NO-GO: %s: cannot judge: set-up, until it holds", tc->reason);
    watch_session_say(t, "%s", line);
}

/* The "setup" event: the session's own hold starts or ends. */
static void note_hold(watch_session *s, bool holds, const char *check, double t, long frame)
{
    s->setup_failing = !holds;
    cJSON *e = watch_log_event_new("setup", t, frame);
    if (e) {
        cJSON_AddBoolToObject(e, "holds", holds);
        cJSON_AddStringToObject(e, "state", holds ? "judging" : "cannot judge: set-up");
        if (!holds)
            cJSON_AddStringToObject(e, "check", check);
    }
    watch_session_emit(s, e);
}

/* The verdict known: said (the first, and when it goes), the hold started or ended. */
static void conclude(watch_session *s, ref_table_check *tc, bool said, double t, long frame)
{
    if (!said && (s->start_state == WATCH_START_PENDING || tc->go))
        tell(s, tc, t, frame);
    if (tc->go) {
        if (s->start_state == WATCH_START_HOLDING)
            note_hold(s, true, NULL, s->last_t, s->last_frame);
        s->start_state = WATCH_START_DONE;
    } else {
        if (s->start_state == WATCH_START_PENDING)
            note_hold(s, false, tc->reason, s->last_t, s->last_frame);
        s->start_state = WATCH_START_HOLDING;
        s->start_next_t = s->last_t + s->cfg.tracker.settle_ms;
    }
    start_table_clear(s->start);
}

int watch_session_start_check(watch_session *s, cap_source *cap, const cap_frame *f)
{
    (void)cap;
    if (s->start_state == WATCH_START_DONE)
        return WATCH_START_JUDGE;
    const base_image *g = f->gray;
    /* Off: no set-up checks asked for. A frame the calibration does not fit is the tracker's to refuse. */
    if (!s->cfg.tracker.setup_checks || (s->calib.width && (g->width != s->calib.width || g->height != s->calib.height))) {
        s->start_state = WATCH_START_DONE;
        return WATCH_START_JUDGE;
    }
    if (s->start_state == WATCH_START_HOLDING && f->t_ms < s->start_next_t)
        return WATCH_START_HOLD;
    if (!s->start && !(s->start = calloc(1, sizeof *s->start)))
        return WATCH_START_HOLD; /* out of memory: nothing judged, tried again at the next frame */
    ref_table_check *tc = &s->start->tc;
    ref_table_check_clear(tc);
    memset(tc, 0, sizeof *tc);
    base_error err = {0};
    bool said = false;
    if (run_check(s, f, s->start, &err) < 0) {
        watch_session_emit_error(s, "table check", err.msg);
        tc->go = false, said = true;
        snprintf(tc->reason, sizeof tc->reason, "%s", err.msg);
    } else if (tc->go && projects(s)) {
        return WATCH_START_PROJECTOR; /* the picture holds: the marks next, then the verdict */
    }
    conclude(s, tc, said, f->t_ms, f->index);
    return tc->go ? WATCH_START_JUDGE : WATCH_START_HOLD;
}

int watch_session_start_projector(watch_session *s, cap_source *cap, base_error *err)
{
    ref_table_check *tc = &s->start->tc;
    const double t = s->last_t;
    const long frame = s->last_frame;
    if (check_projector(s, cap, s->start, calib_name_of(s), tc, err) < 0) {
        start_table_clear(s->start);
        return -1;
    }
    conclude(s, tc, false, t, frame);
    return 0;
}

void watch_session_start_free(watch_session *s)
{
    if (!s->start)
        return;
    ref_table_check_clear(&s->start->tc);
    start_table_clear(s->start);
    free(s->start);
    s->start = NULL;
}
