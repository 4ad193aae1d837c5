/*
 * overlay_video: what the recorded video shows (OV_DETAIL_BRIEF, as
 * watch_show draws it). Brief labels: the verdict, the farthest model,
 * models over their limit, what broke a rule; no wheel or path lengths, no
 * numbers in bases. Nothing is written for a wheel of zero length (a
 * straight move, or one turned by measurement noise). A unit being moved
 * is drawn faint and unlabelled. The rules' own words ("March Rate", never
 * "move rate"). The players' colours and the key from the first frame,
 * before any snapshot (watch_show); a selected unit's reach shown until
 * cleared (watch_show_set_reach). Exact texts; colours within 6 levels.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ov_scene.h"
#include "overlay_test_util.h"
#include "rules_formation.h"
#include "rules_robust.h"
#include "roster.h"
#include "vision_test_util.h"
#include "watch_show.h"

static ov_scene *scene_of(const ot_turn *t, ov_detail detail, const char *const *faded, size_t n_faded)
{
    ov_options o;
    ov_options_default(&o);
    o.detail = detail;
    o.faded = faded, o.n_faded = n_faded;
    base_error err;
    ov_scene *sc = ov_scene_new(&o, &err);
    cr_assert_not_null(sc);
    cr_assert_eq(ov_scene_add_verdict(sc, t->before, t->after, &t->report, &err), 0, "%s", err.msg);
    return sc;
}

/* How many labels start with `prefix` (numbers in bases counted in *numbers). */
static size_t labels_with(const ov_scene *sc, const char *prefix, size_t *numbers)
{
    size_t n = 0;
    if (numbers)
        *numbers = 0;
    for (size_t i = 0; i < ov_scene_label_count(sc); i++) {
        bool number;
        const char *s = ov_scene_label_text(sc, i, &number);
        if (number && numbers)
            (*numbers)++;
        if (prefix && strncmp(s, prefix, strlen(prefix)) == 0)
            n++;
        cr_expect_null(strstr(s, "move rate"), "the rules' own words: \"%s\"", s);
        cr_expect_null(strstr(s, "Move rate"), "the rules' own words: \"%s\"", s);
    }
    return n;
}

Test(overlay_video, brief_labels_only_where_they_add_information)
{
    ot_turn t;
    ot_demo_turn(&t);
    size_t numbers;
    ov_scene *full = scene_of(&t, OV_DETAIL_FULL, NULL, 0);
    cr_expect_eq(labels_with(full, "wheel ", &numbers), 2, "the report writes both wheels");
    cr_expect_eq(numbers, 9, "and 9 distances in the bases (spears 7, knights 2)");
    ov_scene_free(full);

    ov_scene *brief = scene_of(&t, OV_DETAIL_BRIEF, NULL, 0);
    cr_expect_eq(labels_with(brief, "wheel ", &numbers), 0, "no wheel lengths in the video");
    cr_expect_eq(numbers, 0, "no numbers in the bases");
    cr_expect_eq(labels_with(brief, "path ", NULL), 0, "no path length when the path broke no rule");
    cr_expect_eq(labels_with(brief, "\xE2\x9C\x97 spears \xC2\xB7 March \xC2\xB7 ILLEGAL", NULL), 1);
    cr_expect_eq(labels_with(brief, "\xE2\x9C\x93 knights \xC2\xB7 Advance \xC2\xB7 LEGAL", NULL), 1);
    cr_expect_eq(labels_with(brief, "\xE2\x9C\x97 10.38\"", NULL), 1, "the model over its limit");
    cr_expect_eq(labels_with(brief, "farthest 3.5", NULL), 1, "the knights' farthest model");
    cr_expect_eq(labels_with(brief, "March Rate 10.00\"", NULL), 1, "the limit, in the rules' words");
    ov_scene_free(brief);
    ot_turn_clear(&t);
}

/* The knights moved straight ahead by 3", their facing turned by `turn` radians about their centre. */
static void knights_forward(ot_turn *t, double turn)
{
    ot_demo_turn(t);
    rules_unit *k0 = rules_snapshot_find_unit(t->before, "knights"), *k1 = rules_snapshot_find_unit(t->after, "knights");
    cr_assert(k0 && k1);
    rules_formation f;
    cr_assert_eq(rules_formation_fit(k0, NULL, &f, NULL), 0);
    base_vec2 ahead = base_v2_scale(base_v2_dir(f.heading), base_in_to_mm(3));
    base_vec2 c = base_v2_add(f.centre, ahead);
    for (size_t m = 0; m < k1->n_models; m++) {
        const rules_model *b = rules_unit_find_model(k0, k1->models[m].id);
        cr_assert_not_null(b);
        base_vec2 p = base_v2_add(b->pos, ahead);
        k1->models[m].pos = base_v2_add(c, base_v2_rot(base_v2_sub(p, c), turn));
        k1->models[m].facing = b->facing + turn;
    }
    rules_report_clear(&t->report);
    rules_robust_options o;
    rules_robust_options_default(&o);
    rules_report_init(&t->report);
    base_error err;
    cr_assert_eq(rules_robust_check(t->before, t->after, &o, &t->report, &err), 0, "%s", err.msg);
}

Test(overlay_video, nothing_is_written_for_a_wheel_of_zero_length)
{
    const double turns[3] = {0, 0.002, -0.004};  /* straight; 0.15 and 0.3 mm of wheel at the knights' corner */
    for (int i = 0; i < 3; i++) {
        ot_turn t;
        knights_forward(&t, turns[i]);
        const rules_unit_report *ur = NULL;
        for (size_t u = 0; u < t.report.n_units; u++)
            if (strcmp(t.report.units[u].unit_id, "knights") == 0)
                ur = &t.report.units[u];
        cr_assert_not_null(ur);
        cr_expect_eq(ur->verdict, RULES_VERDICT_LEGAL);
        for (int d = 0; d < 2; d++) {
            ov_scene *sc = scene_of(&t, d ? OV_DETAIL_BRIEF : OV_DETAIL_FULL, NULL, 0);
            /* The report writes the spears' wheel (2.23"); the video no wheel length at all. */
            cr_expect_eq(labels_with(sc, "wheel ", NULL), d ? 0u : 1u, "turn %g: only the spears' wheel is written",
                         turns[i]);
            ov_scene_free(sc);
        }
        ot_turn_clear(&t);
    }
}

Test(overlay_video, a_unit_being_moved_is_unlabelled)
{
    ot_turn t;
    ot_demo_turn(&t);
    const char *faded[1] = {"spears"};
    ov_scene *sc = scene_of(&t, OV_DETAIL_BRIEF, faded, 1);
    for (size_t i = 0; i < ov_scene_label_count(sc); i++) {
        const char *s = ov_scene_label_text(sc, i, NULL);
        cr_expect_null(strstr(s, "spears"), "no label of the spears: \"%s\"", s);
        cr_expect_null(strstr(s, "10.38"), "no label of the spears: \"%s\"", s);
    }
    cr_expect_eq(labels_with(sc, "\xE2\x9C\x93 knights", NULL), 1, "the knights keep theirs");
    ov_scene_free(sc);
    ot_turn_clear(&t);
}

/* Pixels within 6 levels of bgr in rows [y0, h). */
static size_t count_colour(const base_image *im, int y0, const int bgr[3])
{
    size_t n = 0;
    for (int y = y0; y < im->height; y++)
        for (int x = 0; x < im->width; x++) {
            const uint8_t *p = im->data + (size_t)y * im->stride + 3 * x;
            n += abs(p[0] - bgr[0]) <= 6 && abs(p[1] - bgr[1]) <= 6 && abs(p[2] - bgr[2]) <= 6;
        }
    return n;
}

Test(overlay_video, players_colours_and_the_key_from_the_first_frame)
{
    ot_turn t;
    ot_demo_turn(&t);
    char p[1024];
    snprintf(p, sizeof p, "%s/datasets/demo/roster.json", vt_source_root());
    base_error err;
    roster_file *roster = roster_load(p, &err);
    cr_assert_not_null(roster, "%s", err.msg);
    watch_show *sh = watch_show_new(&t.calib, &err);
    cr_assert_not_null(sh);
    base_image *frame = base_image_new(t.width, t.height, 3, 0);
    /* Before the first settle: no snapshot, only the roster. */
    watch_show_content c = {.roster = roster, .generation = 1};
    const base_image *out = watch_show_camera(sh, frame, &c);
    cr_assert_null(watch_show_failure(sh), "%s", watch_show_failure(sh));
    const int sky[3] = {0xE9, 0xB4, 0x56}, purple[3] = {0xA7, 0x79, 0xCC};  /* Okabe-Ito, BGR */
    size_t a = count_colour(out, t.height - 80, sky), b = count_colour(out, t.height - 80, purple);
    cr_expect_geq(a, 40, "the key's sky blue swatch (%zu px)", a);
    cr_expect_geq(b, 40, "the key's reddish purple swatch (%zu px)", b);
    cr_expect_eq(count_colour(out, 0, sky), a, "nothing else drawn yet");
    /* The first settle: every unit in its player's colour. */
    c.table = t.before, c.generation = 2;
    out = watch_show_camera(sh, frame, &c);
    cr_expect_gt(count_colour(out, 0, sky), a + 100, "the archers (blue) drawn in sky blue");
    cr_expect_gt(count_colour(out, 0, purple), b + 100, "the spears and knights (red) in reddish purple");
    watch_show_free(sh);
    base_image_free(frame);
    roster_free(roster);
    ot_turn_clear(&t);
}

/* watch_show_set_reach: a selected unit's reach on the video until cleared (the lead calls it from watch). */
Test(overlay_video, a_selected_units_reach_is_shown_until_cleared, .timeout = 60)
{
    ot_turn t;
    ot_demo_turn(&t);
    base_error err;
    watch_show *sh = watch_show_new(&t.calib, &err);
    cr_assert_not_null(sh);
    base_image *frame = base_image_new(t.width, t.height, 3, 0);
    const int limit[3] = {0x42, 0xE4, 0xF0}; /* #F0E442, BGR */
    watch_show_content c = {.table = t.before, .generation = 1};
    size_t plain = count_colour(watch_show_camera(sh, frame, &c), 0, limit);
    rules_reach r;
    cr_assert_eq(rules_reach_compute(t.before, "spears", RULES_MOVE_MARCH, NULL, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(watch_show_set_reach(sh, &r, "red", &err), 0, "%s", err.msg);
    rules_reach_clear(&r); /* copied */
    size_t shown = count_colour(watch_show_camera(sh, frame, &c), 0, limit);
    cr_assert_eq(watch_show_set_reach(sh, NULL, NULL, &err), 0);
    size_t cleared = count_colour(watch_show_camera(sh, frame, &c), 0, limit);
    printf("reach on the video: %zu px of its yellow before, %zu shown, %zu cleared\n", plain, shown, cleared);
    cr_expect_gt(shown, plain + 500, "the reach is drawn (1769 px measured) (same generation: the reach alone redraws)");
    cr_expect_eq(cleared, plain, "and gone once cleared");
    cr_expect_null(watch_show_failure(sh));
    watch_show_free(sh);
    base_image_free(frame);
    ot_turn_clear(&t);
}
