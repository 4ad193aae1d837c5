#include "overlay_test_util.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds_scene.h"
#include "ov_layout.h"
#include "rules_formation.h"
#include "rules_json.h"
#include "rules_robust.h"
#include "rules_suggest.h"
#include "vision_test_util.h"

static void judge(ot_turn *t)
{
    rules_robust_options o;
    rules_robust_options_default(&o);
    rules_report_init(&t->report);
    base_error err;
    cr_assert_eq(rules_robust_check(t->before, t->after, &o, &t->report, &err), 0, "%s", err.msg);
}

void ot_demo_turn(ot_turn *t)
{
    memset(t, 0, sizeof *t);
    char p[1024];
    base_error err;
    snprintf(p, sizeof p, "%s/datasets/demo/before.json", vt_source_root());
    cr_assert_not_null(t->before = rules_json_load_snapshot(p, &err), "%s", err.msg);
    snprintf(p, sizeof p, "%s/datasets/demo/after.json", vt_source_root());
    cr_assert_not_null(t->after = rules_json_load_snapshot(p, &err), "%s", err.msg);
    snprintf(p, sizeof p, "%s/datasets/demo/calib.json", vt_source_root());
    cr_assert_eq(calib_file_load(p, &t->calib, &err), 0, "%s", err.msg);
    t->width = 1280, t->height = 960;
    judge(t);
    cr_assert_not(t->report.legal, "the demo turn has an illegal march");
    /* With its nearest legal move, as the referee has it (drawn as a ghost). */
    rules_check_options co;
    rules_check_options_default(&co);
    cr_assert_eq(rules_suggest_moves(t->before, t->after, &co, &t->report, &err), 0, "%s", err.msg);
}

void ot_crowded_turn(ot_turn *t)
{
    memset(t, 0, sizeof *t);
    ds_gen_params g;
    ds_gen_params_bench(&g);
    base_error err;
    ds_scene *sc = ds_scene_generate(&g, &err);
    cr_assert_not_null(sc, "%s", err.msg);
    t->before = rules_snapshot_clone(sc->snapshot);
    t->after = rules_snapshot_clone(sc->snapshot);
    t->calib = sc->calib;
    t->width = sc->calib.width, t->height = sc->calib.height;
    ds_scene_free(sc);
    for (size_t i = 0; i < t->before->n_units; i++) {
        rules_unit *u0 = &t->before->units[i], *u1 = &t->after->units[i];
        u0->advance_rate = u1->advance_rate = base_in_to_mm(5);
        u0->march_rate = u1->march_rate = base_in_to_mm(10);
        /* Forward 3, 7 or 11 inches, every third unit wheeling 20 degrees about its front's left end. */
        rules_formation f;
        cr_assert_eq(rules_formation_fit(u0, NULL, &f, NULL), 0);
        double d = base_in_to_mm(i % 3 == 0 ? 3 : i % 3 == 1 ? 7 : 11), turn = i % 3 == 2 ? 0.35 : 0;
        base_vec2 fwd = base_v2_dir(f.heading);
        for (size_t m = 0; m < u1->n_models; m++) {
            base_vec2 p = base_v2_add(u0->models[m].pos, base_v2_scale(fwd, d));
            base_vec2 pivot = base_v2_add(f.front_centre, base_v2_scale(fwd, d));
            u1->models[m].pos = base_v2_add(pivot, base_v2_rot(base_v2_sub(p, pivot), turn));
            u1->models[m].facing = u0->models[m].facing + turn;
        }
    }
    judge(t);
}

void ot_turn_clear(ot_turn *t)
{
    rules_report_clear(&t->report);
    rules_snapshot_free(t->before);
    rules_snapshot_free(t->after);
    memset(t, 0, sizeof *t);
}

ot_geometry ot_check_geometry(const ov_target *t, const rules_snapshot *const *snaps, size_t n_snaps)
{
    ot_geometry g;
    memset(&g, 0, sizeof g);
    const ov_layout *L = ov_target_layout(t);
    const ov_box b = ov_layout_bounds(L);
    const size_t n = ov_layout_count(L);
    for (size_t i = 0; i < n; i++) {
        const ov_obstacle *o = ov_layout_get(L, i);
        if (o->kind == OV_OBST_NUMBER)
            g.numbers++;
        if (o->kind != OV_OBST_LABEL)
            continue;
        g.labels++;
        ov_box bb = ov_quad_bbox(&o->q);
        if (bb.x0 < b.x0 - 0.01 || bb.y0 < b.y0 - 0.01 || bb.x1 > b.x1 + 0.01 || bb.y1 > b.y1 + 0.01)
            g.outside++;
        for (size_t j = 0; j < n; j++) {
            const ov_obstacle *p = ov_layout_get(L, j);
            if (j > i && p->kind == OV_OBST_LABEL && ov_quad_overlap(&o->q, &p->q, 0.5))
                g.label_overlaps++;
            if (p->kind == OV_OBST_NUMBER && ov_quad_overlap(&o->q, &p->q, 0.5))
                g.label_on_number++;
        }
        /* Base centres from the snapshots themselves, mapped here: not the layout's own record of them. */
        for (size_t s = 0; s < n_snaps; s++)
            for (size_t u = 0; snaps[s] && u < snaps[s]->n_units; u++)
                for (size_t m = 0; m < snaps[s]->units[u].n_models; m++) {
                    double px[2];
                    if (!ov_map_point(ov_target_map(t), snaps[s]->units[u].models[m].pos, px))
                        continue;
                    g.centres_checked++;
                    /* Rasters draw at +0.5 (cairo's pixel centres); SVG/PDF reports are not checked here. */
                    if (ov_quad_contains(&o->q, px[0] + 0.5, px[1] + 0.5))
                        g.label_on_centre++;
                }
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const ov_obstacle *o = ov_layout_get(L, i), *p = ov_layout_get(L, j);
            if (o->kind == OV_OBST_NUMBER && p->kind == OV_OBST_NUMBER && ov_quad_overlap(&o->q, &p->q, 0.5))
                g.number_overlaps++;
        }
    return g;
}

void ot_keep(ov_target *t, const char *name)
{
    const char *dir = getenv("OV_TEST_KEEP");
    if (!dir || !dir[0])
        return;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s.png", dir, name);
    ov_target_write_png(t, p, NULL);
}
