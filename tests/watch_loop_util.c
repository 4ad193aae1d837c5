/* watch_loop_util: the closed-loop watch suites' shared run (watch_loop_util.h). */
#include "watch_loop_util.h"

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cap_source.h"
#include "ds_loop.h"
#include "vis_camera.h"
#include "watch_session.h"

static void on_event(void *ctx, const cJSON *ev)
{
    wl_run *r = ctx;
    const char *k = cJSON_GetObjectItem(ev, "event")->valuestring;
    const long frame = (long)cJSON_GetObjectItem(ev, "frame")->valuedouble;
    if (strcmp(k, "settled") == 0 && r->settles < WL_MAX_EVENTS) {
        r->full_frame[r->settles] = cJSON_IsTrue(cJSON_GetObjectItem(ev, "full_frame"));
        r->models_read[r->settles] = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "models_read"));
        r->settle_frame[r->settles++] = frame;
    }
    const cJSON *what = cJSON_GetObjectItem(ev, "what");
    if (strcmp(k, "warning") == 0 && cJSON_IsString(what) && strcmp(what->valuestring, "exposure") == 0)
        r->exposure_warnings++;
    if (strcmp(k, "move_checked") == 0 && r->checks < WL_MAX_EVENTS) {
        r->check_frame[r->checks] = frame;
        r->legal[r->checks++] = cJSON_IsTrue(cJSON_GetObjectItem(ev, "legal"));
    }
}

void wl_watch(const ds_sequence *q, const calib_file *cam, const double P[3], const wl_options *o, wl_run *r)
{
    base_error err = {0};
    cr_assert_lt(q->n_moves, WL_MAX_EVENTS);
    ds_loop_params lp;
    ds_loop_params_default(&lp);
    lp.ratio = o->ratio, lp.supersample = 1;
    lp.save_dir = getenv("TABLEREF_LOOP_FRAMES"); /* a folder to look at the frames in (it must exist) */
    ds_loop *L = ds_loop_new(q, cam, P, &lp, &err);
    cr_assert_not_null(L, "%s", err.msg);
    cap_source_callbacks cb = {ds_loop_read, L, q->fps, ds_sequence_frame_count(q), o->source_name};
    cap_source *cap = cap_source_open_callbacks(&cb, &err);
    cr_assert_not_null(cap, "%s", err.msg);
    watch_session_config cfg;
    watch_session_config_default(&cfg);
    cfg.tracker.settle_ms = o->settle_ms;
    cfg.quiet = true;
    cfg.project = ds_loop_project, cfg.project_ctx = L;
    watch_session *s = o->setup ? watch_session_new_setup(o->setup, &cfg, &err)
                                : watch_session_new(q->scene->roster, cam, &cfg, &err);
    cr_assert_not_null(s, "%s", err.msg);
    memset(r, 0, sizeof *r);
    cr_assert_eq(watch_session_add_sink(s, &(watch_sink){on_event, r}, &err), 0);
    r->status = watch_session_run(s, cap, NULL);
    r->frames_lit = ds_loop_frames_lit(L);
    for (size_t k = 1; k <= q->n_moves; k++) /* the first frame of move k: the hand is over the table */
        r->lit_at_move_start[k] = ds_loop_was_lit(L, ds_sequence_hold_start(q, k - 1) + ds_sequence_hold_frames(q));
    watch_session_free(s);
    cap_source_close(cap);
    ds_loop_free(L);
}

void wl_turn_crop(const ds_sequence *q, double margin_px, char *crop, size_t cap)
{
    base_error err;
    const calib_file *cam = &q->scene->calib;
    vis_camera vc;
    vis_camera_init(&vc, cam);
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (size_t k = 0; k <= q->n_moves; k++) {
        rules_snapshot *s = ds_sequence_keyframe(q, k, &err);
        cr_assert_not_null(s, "%s", err.msg);
        for (size_t m = 0; m < q->n_moves; m++) {
            const rules_unit *u = rules_snapshot_find_unit(s, q->moves[m].unit);
            cr_assert_not_null(u, "unit %s", q->moves[m].unit);
            for (size_t i = 0; i < u->n_models; i++) {
                double px[2];
                cr_assert(vis_camera_project(&vc, (const double[3]){u->models[i].pos.x, u->models[i].pos.y, 0}, px));
                x0 = fmin(x0, px[0]), y0 = fmin(y0, px[1]), x1 = fmax(x1, px[0]), y1 = fmax(y1, px[1]);
            }
        }
        rules_snapshot_free(s);
    }
    /* The crop keeps the principal point (a calibration must have it inside its image). */
    x0 = fmin(x0, cam->cx), y0 = fmin(y0, cam->cy);
    x1 = fmax(x1, cam->cx), y1 = fmax(y1, cam->cy);
    const double margin = fmax(margin_px, WL_EDGE_PX + 8);
    const int cx0 = (int)fmax(0, x0 - margin) & ~1, cy0 = (int)fmax(0, y0 - margin) & ~1;
    const int cx1 = (int)fmin(cam->width, x1 + margin), cy1 = (int)fmin(cam->height, y1 + margin);
    snprintf(crop, cap, "%dx%d+%d+%d", (cx1 - cx0) & ~1, (cy1 - cy0) & ~1, cx0, cy0);
}

/* Does every model of unit `id`, at every keyframe, stand at least WL_EDGE_PX inside the (cropped) frame? */
static bool unit_wholly_inside(const ds_sequence *q, const vis_camera *vc, const char *id)
{
    base_error err;
    bool inside = true;
    for (size_t k = 0; k <= q->n_moves && inside; k++) {
        rules_snapshot *s = ds_sequence_keyframe(q, k, &err);
        cr_assert_not_null(s, "%s", err.msg);
        const rules_unit *u = rules_snapshot_find_unit(s, id);
        for (size_t i = 0; u && i < u->n_models && inside; i++) {
            double px[2];
            inside = vis_camera_project(vc, (const double[3]){u->models[i].pos.x, u->models[i].pos.y, 0}, px) &&
                     px[0] >= WL_EDGE_PX && px[1] >= WL_EDGE_PX && px[0] < q->scene->calib.width - WL_EDGE_PX &&
                     px[1] < q->scene->calib.height - WL_EDGE_PX;
        }
        rules_snapshot_free(s);
    }
    return inside;
}

/* Whole units only (watch_loop_util.h). */
size_t wl_keep_whole_units(ds_sequence *q)
{
    vis_camera vc;
    vis_camera_init(&vc, &q->scene->calib);
    rules_snapshot *snap = q->scene->snapshot;
    bool *whole = calloc(snap->n_units + 1, sizeof *whole);
    cr_assert_not_null(whole);
    for (size_t u = 0; u < snap->n_units; u++) /* decided first: the keyframes are made from this snapshot */
        whole[u] = unit_wholly_inside(q, &vc, snap->units[u].id);
    size_t kept = 0;
    for (size_t u = 0; u < snap->n_units; u++) {
        rules_unit *un = &snap->units[u];
        if (whole[u]) {
            snap->units[kept++] = *un;
            continue;
        }
        for (size_t m = 0; m < q->n_moves; m++)
            cr_assert_str_neq(q->moves[m].unit, un->id, "the crop cuts the moving unit %s", un->id);
        rules_unit_clear_alternatives(un);
        free(un->models);
    }
    snap->n_units = kept;
    free(whole);
    return kept;
}
