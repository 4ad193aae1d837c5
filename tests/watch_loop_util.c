/* watch_loop_util: the closed-loop watch suites' shared run (watch_loop_util.h). */
#include "watch_loop_util.h"

#include <criterion/criterion.h>

#include <string.h>

#include <cjson/cJSON.h>

#include "cap_source.h"
#include "ds_loop.h"
#include "watch_session.h"

static void on_event(void *ctx, const cJSON *ev)
{
    wl_run *r = ctx;
    const char *k = cJSON_GetObjectItem(ev, "event")->valuestring;
    const long frame = (long)cJSON_GetObjectItem(ev, "frame")->valuedouble;
    if (strcmp(k, "settled") == 0 && r->settles < WL_MAX_EVENTS) {
        r->full_frame[r->settles] = cJSON_IsTrue(cJSON_GetObjectItem(ev, "full_frame"));
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
