/*
 * same_picture: the referee and the watch read a picture through one door
 * (referee/ref_snapshot.h), so the same pictures give the same distance.
 * The demo turn (datasets/demo: the knights Advance, knights-3 goes
 * farthest): `tableref referee`'s library path (ref_snapshot_new on each
 * picture, ref_judge) and the watch's tracker (the BEFORE picture held, then
 * the AFTER picture held: its first settle reads the whole frame, its
 * second only the part that changed) must measure the same model the same
 * distance: 3.54" printed (the scene's truth is 89.823 mm, 3.536"; the
 * first pass reads 89.800 mm since it searches the demo's far side, where
 * the plan predicts tags under 22 px, at full resolution; 89.826 mm before
 * that, and 89.786 mm, printed 3.53", before the contrast floors). The
 * watch read the whole frame at one decimation once, and the two differed.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base_geom.h"
#include "fixture_demo.h"
#include "media.h"
#include "media_image_read.h"
#include "ref_judge.h"
#include "ref_snapshot.h"
#include "rules_words.h"
#include "watch_tracker.h"

#define HOLD_FRAMES 10  /* 2 s of each picture at 5 fps: the table settles (600 ms) on both */
#define FRAME_MS 200.0

/* The model of `unit` that went farthest in `r`: its id into id[], its distance (mm). */
static double farthest(const rules_report *r, const char *unit, char id[RULES_ID_MAX])
{
    const rules_unit_report *u = rules_report_find_unit(r, unit);
    cr_assert_not_null(u, "no call on %s", unit);
    const rules_model_move *far = NULL;
    for (size_t i = 0; i < u->n_models; i++)
        if (isfinite(u->models[i].distance_mm) && (!far || u->models[i].distance_mm > far->distance_mm))
            far = &u->models[i];
    cr_assert_not_null(far, "%s: no model measured", unit);
    snprintf(id, RULES_ID_MAX, "%s", far->id);
    return far->distance_mm;
}

/* The referee's way: each picture read from its file through the set-up, the pair judged. */
static double by_the_referee(char id[RULES_ID_MAX])
{
    base_error err = {0};
    ref_setup *s = ref_setup_new(NULL, fxd_demo("calib.json"), fxd_demo("roster.json"), &err);
    cr_assert_not_null(s, "%s", err.msg);
    ref_snapshot *b = ref_snapshot_new(s, fxd_demo("before.jpg"), NULL, &err);
    cr_assert_not_null(b, "%s", err.msg);
    ref_snapshot *a = ref_snapshot_new(s, fxd_demo("after.jpg"), NULL, &err);
    cr_assert_not_null(a, "%s", err.msg);
    ref_judge_options o;
    ref_judge_options_default(&o);
    ref_judgement j;
    ref_judgement_init(&j);
    cr_assert_eq(ref_judge(b->snap, a->snap, &o, &j, &err), 0, "%s", err.msg);
    const double d = farthest(&j.report, "knights", id);
    ref_judgement_clear(&j);
    ref_snapshot_free(a);
    ref_snapshot_free(b);
    ref_setup_free(s);
    return d;
}

/* The watch's way: the tracker over the two pictures held in turn, as `tableref watch --settle-ms 600` sees a
 * picture folder at 5 fps. */
static double by_the_watch(char id[RULES_ID_MAX])
{
    base_error err = {0};
    ref_setup *s = ref_setup_new(NULL, fxd_demo("calib.json"), fxd_demo("roster.json"), &err);
    cr_assert_not_null(s, "%s", err.msg);
    base_image *pic[2] = {media_image_load(fxd_demo("before.jpg"), MEDIA_IMAGE_GRAY, &err),
                          media_image_load(fxd_demo("after.jpg"), MEDIA_IMAGE_GRAY, &err)};
    cr_assert(pic[0] && pic[1], "%s", err.msg);
    watch_tracker_config cfg;
    watch_tracker_config_default(&cfg);
    cfg.settle_ms = 600;
    watch_tracker *w = watch_tracker_new_setup(s, &cfg, &err);
    cr_assert_not_null(w, "%s", err.msg);
    double d = NAN;
    int settles = 0, calls = 0;
    for (int i = 0; i < 2 * HOLD_FRAMES; i++) {
        const base_image *g = pic[i >= HOLD_FRAMES];
        watch_tracker_result r;
        cr_assert_eq(watch_tracker_frame(w, g->data, g->width, g->height, g->stride, i * FRAME_MS, &r, &err), 0,
                     "%s", err.msg);
        settles += r.settled;
        if (r.moved) {
            calls++;
            d = farthest(r.report, "knights", id);
        }
    }
    cr_assert_eq(settles, 2, "the table settles on each picture");
    cr_assert_eq(calls, 1, "one move judged");
    watch_tracker_free(w);
    base_image_free(pic[0]);
    base_image_free(pic[1]);
    ref_setup_free(s);
    return d;
}

Test(same_picture, the_referee_and_the_watch_measure_the_knights_alike, .timeout = 120)
{
    char ref_id[RULES_ID_MAX], watch_id[RULES_ID_MAX];
    const double by_ref = by_the_referee(ref_id), by_watch = by_the_watch(watch_id);
    cr_log_info("knights: %s %.6f mm by the referee, %s %.6f mm by the watch", ref_id, by_ref, watch_id, by_watch);
    cr_expect_str_eq(ref_id, "knights-3");
    cr_expect_str_eq(watch_id, ref_id, "the same model goes farthest");
    /* The same tags read the same way: the same figure to a micrometre (the sentence prints 0.01" = 254 um). */
    cr_expect(fabs(by_watch - by_ref) < 1e-3, "referee %.6f mm, watch %.6f mm", by_ref, by_watch);
    char a[32], b[32];
    snprintf(a, sizeof a, "%.2f", base_mm_to_in(by_ref));
    snprintf(b, sizeof b, "%.2f", base_mm_to_in(by_watch));
    cr_expect_str_eq(a, "3.54", "the referee's knights-3: %s\"", a);
    cr_expect_str_eq(b, "3.54", "the watch's knights-3: %s\"", b);
}
