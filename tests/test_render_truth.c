/*
 * The renderer's truth (datasets/ds_render.h, ds_hard.h): what it says is
 * hidden, and by what, is what the pixels show; the hard set's formations
 * stand as players place them; the before/after pairs move exactly what they
 * say. Small frames (640x480 or crops of the hard tables), rendered at test
 * time. Tolerances are stated per test.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>

#include "ds_hard.h"
#include "ds_render.h"
#include "ds_scene.h"
#include "rules_move.h"
#include "vis_camera.h"
#include "roster.h"

/* One unit of one file and two ranks: model 0 in front, model 1 right behind it. */
static ds_scene *two_in_a_file(void)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    g.units = 1, g.files = 1, g.ranks = 2;
    g.board_tag_size = 0;
    ds_scene *s = ds_scene_generate(&g, &err);
    cr_assert_not_null(s, "%s", err.msg);
    ds_render_params *p = &s->render;
    p->style = DS_STYLE_REAL;
    p->figure_lean_max_deg = 0;   /* upright: only the camera's angle makes them lean over */
    p->weapons = 0;
    p->figures_one_colour = 1;
    p->shadows = 0;
    p->hands = 0;
    return s;
}

/*
 * A 640x480 camera looking at `target` from `view_deg` off vertical,
 * standing on the side `from` points to; a long lens, so a 16 mm tag is
 * ~40 px and its edge pixels weigh little.
 */
static void aim(ds_scene *s, base_vec2 target, base_vec2 from, double view_deg)
{
    base_error err;
    ds_camera_params cp = {640, 480, 2400, 800, view_deg, 0, {target.x, target.y}, {-0.2, 0.07, 0, 0, 0}};
    cp.tilt_dir_deg = base_rad_to_deg(atan2(-from.y, -from.x));
    cr_assert_eq(ds_camera_make(&cp, &s->calib, &err), 0, "%s", err.msg);
}

/*
 * Share of the polygon's pixels where the two pictures differ by more than
 * `threshold` levels in some channel. 60 for magenta figures (>= 120 from
 * tag paper and ink in some channel: a pixel about half covered), 25 for
 * hands (human skin, shaded, is >= 30 from both).
 */
static double changed_share(const base_image *a, const base_image *b, const double corners[4][2], int threshold)
{
    base_image *m = base_image_new(a->width, a->height, 1, 0);
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++) {
            int d = 0;
            for (int c = 0; c < a->channels; c++) {
                int v = abs(a->data[y * a->stride + a->channels * x + c] - b->data[y * b->stride + b->channels * x + c]);
                d = v > d ? v : d;
            }
            m->data[y * m->stride + x] = d > threshold ? 255 : 0;
        }
    double xy[8];
    for (int k = 0; k < 4; k++)
        xy[2 * k] = corners[k][0], xy[2 * k + 1] = corners[k][1];
    double share = cvs_render_coverage(m, xy, 4);
    base_image_free(m);
    return share;
}

/* The optics with and without figures (or hands); the truth of the first. */
static void render_twice(ds_scene *s, ds_render_params with, ds_render_params without, base_image **a, base_image **b,
                         ds_truth *truth)
{
    base_error err;
    ds_truth t2 = {0};
    cr_assert_eq(ds_render_optics(s->snapshot, s->roster, &s->calib, &with, a, truth, &err), 0, "%s", err.msg);
    cr_assert_eq(ds_render_optics(s->snapshot, s->roster, &s->calib, &without, b, &t2, &err), 0, "%s", err.msg);
    ds_truth_clear(&t2);
}

/*
 * Seen 38 degrees off vertical from the front, the front model's 25-35 mm
 * figure (upright, 10.5 mm behind its base centre) lies over the tag of the
 * model behind it (whose black square starts 13 mm further back): the truth
 * records it as hidden by a figure, and the pixels that changed when the
 * figures were drawn cover the same share of that tag within 0.05 (edge
 * pixels are shared).
 */
Test(render_truth, figure_seen_off_axis_hides_the_tag_behind_as_the_truth_says)
{
    ds_scene *s = two_in_a_file();
    const rules_model *front = &s->snapshot->units[0].models[0], *rear = &s->snapshot->units[0].models[1];
    const base_vec2 fwd = base_v2_dir(front->facing);
    aim(s, base_v2_scale(base_v2_add(front->pos, rear->pos), 0.5), fwd, 38);
    ds_render_params without = s->render;
    without.figures = 0;
    base_image *a = NULL, *b = NULL;
    ds_truth truth = {0};
    render_twice(s, s->render, without, &a, &b, &truth);
    cr_assert_eq(truth.n_models, 2);
    const ds_truth_tag *t = &truth.tags[truth.models[1].tag];
    cr_assert(t->inside);
    cr_expect_gt(t->occluded_figure, 0.1, "the rear tag is %.3f hidden", t->occluded_figure);
    cr_expect_eq(t->occluded_hand, 0.0);
    cr_expect_float_eq(t->occluded, t->occluded_figure, 1e-12);
    const double changed = changed_share(a, b, t->corners, 60);
    cr_expect(fabs(changed - t->occluded_figure) <= 0.05, "pixels changed on %.3f of the tag, truth says %.3f", changed,
              t->occluded_figure);
    /* The front model's own tag lies ahead of its figure: nothing falls on it from this side. */
    cr_expect_eq(truth.tags[truth.models[0].tag].occluded, 0.0);
    base_image_free(a);
    base_image_free(b);
    ds_truth_clear(&truth);
    ds_scene_free(s);
}

/* Straight from above the same figure hides nothing of the tag behind it: exactly 0, and no pixel of it changes. */
Test(render_truth, figure_seen_from_above_hides_nothing_behind_it)
{
    ds_scene *s = two_in_a_file();
    const rules_model *front = &s->snapshot->units[0].models[0], *rear = &s->snapshot->units[0].models[1];
    aim(s, base_v2_scale(base_v2_add(front->pos, rear->pos), 0.5), base_v2_dir(front->facing), 0);
    ds_render_params without = s->render;
    without.figures = 0;
    base_image *a = NULL, *b = NULL;
    ds_truth truth = {0};
    render_twice(s, s->render, without, &a, &b, &truth);
    const ds_truth_tag *t = &truth.tags[truth.models[1].tag];
    cr_expect_eq(t->occluded, 0.0);
    cr_expect_eq(t->border_occluded, 0.0);
    cr_expect(t->fully_visible);
    cr_expect_leq(changed_share(a, b, t->corners, 60), 0.01);
    base_image_free(a);
    base_image_free(b);
    ds_truth_clear(&truth);
    ds_scene_free(s);
}

/*
 * A hand 60 mm above a tag hides it (>= 0.95, pixels agree within 0.05) and
 * the truth says so for its model; a model on the far half of the board,
 * away from the arm, has nothing of a hand on its tag: exactly 0.
 */
Test(render_truth, hand_over_a_tag_is_recorded_for_its_model)
{
    base_error err;
    ds_gen_params g;
    ds_gen_params_small(&g);
    ds_scene *s = ds_scene_generate(&g, &err);
    cr_assert_not_null(s, "%s", err.msg);
    ds_render_params with = s->render;
    with.style = DS_STYLE_REAL;
    with.figures = 0;
    with.shadows = 0;
    /* Over the tag of the model nearest the board's near edge (the arm comes in from there). */
    size_t under = 0, far = 0, k = 0;
    double best = 1e9, far_d = -1;
    const rules_unit *u = NULL;
    for (size_t ui = 0; ui < s->snapshot->n_units; ui++)
        for (size_t mi = 0; mi < s->snapshot->units[ui].n_models; mi++, k++)
            if (s->snapshot->units[ui].models[mi].pos.y < best)
                best = s->snapshot->units[ui].models[mi].pos.y, under = k, u = &s->snapshot->units[ui];
    base_vec2 tc;
    double th;
    const roster_model *rm = &s->roster->models[under];
    const rules_model *m = rules_snapshot_find_model(s->snapshot, rm->id, NULL);
    roster_tag_mount_place(&s->roster->units[rm->unit].mount, m->pos, m->facing, &tc, &th);
    (void)u;
    with.n_hand_at = 1;
    with.hand_at[0] = (ds_hand_place){tc.x, tc.y, 60, 0.2};
    /* The model farthest from the hand on the far half of the board (the arm reaches in from the near edge). */
    k = 0;
    for (size_t ui = 0; ui < s->snapshot->n_units; ui++)
        for (size_t mi = 0; mi < s->snapshot->units[ui].n_models; mi++, k++) {
            const base_vec2 q = s->snapshot->units[ui].models[mi].pos;
            if (q.y > s->roster->board_depth / 2 && base_v2_dist(q, tc) > far_d)
                far_d = base_v2_dist(q, tc), far = k;
        }
    cr_assert_gt(far_d, 200, "a model far from the hand and its arm (%.0f mm)", far_d);
    ds_render_params without = with;
    without.n_hand_at = 0;
    base_image *a = NULL, *b = NULL;
    ds_truth truth = {0};
    render_twice(s, with, without, &a, &b, &truth);
    const ds_truth_tag *t = &truth.tags[truth.models[under].tag];
    cr_expect_geq(t->occluded_hand, 0.95, "hand over %.3f of the tag", t->occluded_hand);
    cr_expect_eq(t->occluded_figure, 0.0);
    cr_expect(truth.models[under].hand_hidden);
    const double changed = changed_share(a, b, t->corners, 25);
    cr_expect(fabs(changed - t->occluded_hand) <= 0.05, "pixels changed on %.3f, truth %.3f", changed, t->occluded_hand);
    cr_expect_eq(truth.tags[truth.models[far].tag].occluded_hand, 0.0);
    cr_expect_not(truth.models[far].hand_hidden);
    base_image_free(a);
    base_image_free(b);
    ds_truth_clear(&truth);
    ds_scene_free(s);
}

/* Lateral offsets (mm, to the right) of a unit's models in its own frame, from its front rank's left file. */
static void lateral(const rules_unit *u, const roster_file *ro, size_t first, double *off, int *rank)
{
    const double th = u->models[0].facing;
    const base_vec2 right = base_v2(sin(th), -cos(th)), left0 = u->models[0].pos;
    for (size_t i = 0; i < u->n_models; i++) {
        off[i] = base_v2_dot(base_v2_sub(u->models[i].pos, left0), right);
        rank[i] = ro->models[first + i].rank;
    }
}

/*
 * In the hard tables (placement error off), an incomplete rear rank stands
 * as the generator says: centred (its middle on the front rank's middle,
 * half a file step when the parity differs), left- or right-aligned (its
 * end file on the front rank's), or with gaps (on the front rank's files,
 * not side by side). Exact to 1e-6 mm. The roster keeps listing order
 * (file = index mod files) whatever the alignment, as an army list would.
 */
Test(render_truth, incomplete_rear_ranks_stand_as_players_place_them)
{
    int seen[5] = {0};
    for (int table = 1; table <= ds_hard_preset_count(); table++) {
        base_error err;
        ds_hard_params hp;
        ds_hard_preset(table, &hp);
        hp.jitter_mm = 0;
        ds_hard_table *t = ds_hard_generate(&hp, &err);
        cr_assert_not_null(t, "%s", err.msg);
        const roster_file *ro = t->scene->roster;
        cr_expect_geq(ro->n_models, 230, "table %d has %zu models", table, ro->n_models);
        for (size_t ui = 0; ui < ro->n_units; ui++) {
            const roster_unit *ru = &ro->units[ui];
            const rules_unit *u = rules_snapshot_find_unit(t->scene->snapshot, ru->id);
            cr_assert_not_null(u);
            double off[64];
            int rank[64];
            lateral(u, ro, ru->first_model, off, rank);
            const int F = ru->files, R = (int)((u->n_models + F - 1) / F), m = (int)u->n_models - (R - 1) * F;
            const double pitch = R > 1 || F > 1 ? (F > 1 ? off[1] - off[0] : 0) : 0;
            double rmin = 1e9, rmax = -1e9, rsum = 0;
            for (size_t i = (size_t)(R - 1) * F; i < u->n_models; i++) {
                cr_expect_eq(ro->models[ru->first_model + i].file, (int)(i % F), "roster keeps listing order");
                rmin = fmin(rmin, off[i]), rmax = fmax(rmax, off[i]), rsum += off[i];
            }
            seen[t->align[ui]]++;
            if (R < 2 || F < 2)
                continue;
            const double front_mid = (F - 1) * pitch / 2;
            switch (t->align[ui]) {
            case DS_RANK_CENTRED:
                cr_expect(fabs(rsum / m - front_mid) < 1e-6, "%s: rear middle %.6f, front %.6f", ru->id, rsum / m, front_mid);
                break;
            case DS_RANK_LEFT:
                cr_expect(fabs(rmin) < 1e-6, "%s: left-aligned rear starts at %.6f", ru->id, rmin);
                break;
            case DS_RANK_RIGHT:
                cr_expect(fabs(rmax - (F - 1) * pitch) < 1e-6, "%s: right-aligned rear ends at %.6f", ru->id, rmax);
                break;
            case DS_RANK_GAPS:
                cr_expect(rmax - rmin > (m - 1) * pitch + 1e-3, "%s: a gap in the rear rank", ru->id);
                for (size_t i = (size_t)(R - 1) * F; i < u->n_models; i++) {
                    const double f = off[i] / pitch;
                    cr_expect(fabs(f - round(f)) < 1e-6, "%s: on a file", ru->id);
                }
                break;
            default:
                cr_expect_eq(m, F);
            }
        }
        ds_hard_free(t);
    }
    cr_expect_gt(seen[DS_RANK_CENTRED], 0, "the set has centred rear ranks");
    cr_expect_gt(seen[DS_RANK_LEFT] + seen[DS_RANK_RIGHT], 0, "and aligned ones");
    cr_expect_gt(seen[DS_RANK_GAPS], 0, "and gapped ones");
}

/*
 * Each hard table's pair moves exactly two units straight ahead, 4.5" and
 * 11" (to 1e-9 mm), nothing else; judged on the truth, the advance is legal
 * and the march illegal, and no other unit is called.
 */
Test(render_truth, hard_pairs_move_exactly_two_units)
{
    for (int table = 1; table <= ds_hard_preset_count(); table++) {
        base_error err;
        ds_hard_params hp;
        ds_hard_preset(table, &hp);
        ds_hard_table *t = ds_hard_generate(&hp, &err);
        cr_assert_not_null(t, "%s", err.msg);
        ds_hard_pair pr;
        cr_assert_eq(ds_hard_pair_make(t, &pr, &err), 0, "table %d: %s", table, err.msg);
        const rules_snapshot *a = t->scene->snapshot, *b = pr.after;
        for (size_t ui = 0; ui < a->n_units; ui++) {
            const int k = strcmp(a->units[ui].id, pr.moves[0].unit) == 0 ? 0
                          : strcmp(a->units[ui].id, pr.moves[1].unit) == 0 ? 1 : -1;
            for (size_t mi = 0; mi < a->units[ui].n_models; mi++) {
                const double d = base_v2_dist(a->units[ui].models[mi].pos, b->units[ui].models[mi].pos);
                const double want = k < 0 ? 0 : base_in_to_mm(k == 0 ? 4.5 : 11);
                cr_expect(fabs(d - want) < 1e-9, "table %d %s: moved %.9f mm, want %.3f", table,
                          a->units[ui].models[mi].id, d, want);
            }
        }
        rules_check_options opt;
        rules_check_options_default(&opt);
        rules_report r;
        rules_report_init(&r);
        cr_assert_eq(rules_move_check(a, b, &opt, &r, &err), 0, "%s", err.msg);
        cr_expect_eq(r.n_units, 2, "table %d: only the two units moved", table);
        const rules_unit_report *adv = rules_report_find_unit(&r, pr.moves[0].unit);
        const rules_unit_report *mar = rules_report_find_unit(&r, pr.moves[1].unit);
        cr_assert(adv && mar);
        cr_expect_eq(adv->verdict, RULES_VERDICT_LEGAL, "table %d: the 4.5\" advance", table);
        cr_expect_eq(mar->verdict, RULES_VERDICT_ILLEGAL, "table %d: the 11\" march", table);
        rules_report_clear(&r);
        ds_hard_pair_clear(&pr);
        ds_hard_free(t);
    }
}

/*
 * Every hard table's roster, written as `tableref render --generate hard:K`
 * writes it, is read back by the roster reader `tableref referee` uses: no
 * unit has more files than models, and each unit comes back with its files
 * and models as generated.
 */
Test(render_truth, hard_rosters_are_read_by_the_roster_reader)
{
    for (int table = 1; table <= ds_hard_preset_count(); table++) {
        base_error err;
        ds_hard_params hp;
        ds_hard_preset(table, &hp);
        ds_hard_table *t = ds_hard_generate(&hp, &err);
        cr_assert_not_null(t, "%s", err.msg);
        const roster_file *made = t->scene->roster;
        char path[] = "/tmp/tableref-hard-roster-XXXXXX";
        int fd = mkstemp(path);
        cr_assert(fd >= 0);
        close(fd);
        cr_assert_eq(roster_save(made, path, &err), 0, "table %d: %s", table, err.msg);
        roster_file *read = roster_load(path, &err);
        unlink(path);
        cr_assert_not_null(read, "table %d: the roster reader refuses it: %s", table, err.msg);
        cr_assert_eq(read->n_units, made->n_units, "table %d", table);
        cr_assert_eq(read->n_models, made->n_models, "table %d", table);
        for (size_t ui = 0; ui < made->n_units; ui++) {
            cr_expect_leq(made->units[ui].files, (int)made->units[ui].n_models, "table %d %s: files", table,
                          made->units[ui].id);
            cr_expect_eq(read->units[ui].files, made->units[ui].files, "table %d %s", table, made->units[ui].id);
            cr_expect_eq(read->units[ui].n_models, made->units[ui].n_models, "table %d %s", table,
                         made->units[ui].id);
        }
        roster_free(read);
        ds_hard_free(t);
    }
}

/*
 * The far side of hard table 3 (14 degrees of tilt, k1 -0.30, 1.55 m): a
 * 640x480 crop around its smallest tag, through the whole camera (Bayer,
 * noise, gamma, sharpening, JPEG 92). Its 16 mm tags are under 30 px, most
 * of them partly under figures; the stock detector at full resolution
 * decodes at least two of those small ones, and every decoded tag's corners
 * are within 0.6 px of the truth's.
 */
Test(render_truth, far_side_small_tags_lie_where_the_truth_says)
{
    base_error err;
    ds_hard_params hp;
    ds_hard_preset(3, &hp);
    ds_hard_table *t = ds_hard_generate(&hp, &err);
    cr_assert_not_null(t, "%s", err.msg);
    ds_scene *s = t->scene;
    /* The smallest model tag in the full frame, from the camera model alone. */
    vis_camera cam;
    vis_camera_init(&cam, &s->calib);
    double best = 1e9, at[2] = {0, 0};
    for (size_t i = 0; i < s->roster->n_models; i++) {
        const roster_model *rm = &s->roster->models[i];
        const roster_tag_mount *mt = &s->roster->units[rm->unit].mount;
        const rules_model *m = rules_snapshot_find_model(s->snapshot, rm->id, NULL);
        base_vec2 c;
        double th, p0[2], p1[2];
        roster_tag_mount_place(mt, m->pos, m->facing, &c, &th);
        double A[3] = {c.x - mt->size / 2, c.y, mt->height}, B[3] = {c.x + mt->size / 2, c.y, mt->height};
        vis_camera_project(&cam, A, p0), vis_camera_project(&cam, B, p1);
        const double e = hypot(p1[0] - p0[0], p1[1] - p0[1]);
        if (e < best)
            best = e, at[0] = (p0[0] + p1[0]) / 2, at[1] = (p0[1] + p1[1]) / 2;
    }
    int x0 = (int)fmin(fmax(at[0] - 320, 0), s->calib.width - 640) & ~1;
    int y0 = (int)fmin(fmax(at[1] - 240, 0), s->calib.height - 480) & ~1;
    cr_assert_eq(ds_hard_crop(&s->calib, x0, y0, 640, 480, &err), 0, "%s", err.msg);
    base_image *img = NULL;
    ds_truth truth = {0};
    cr_assert_eq(ds_render(s->snapshot, s->roster, &s->calib, &s->render, &img, &truth, &err), 0, "%s", err.msg);
    apriltag_detector_t *td = apriltag_detector_create();
    apriltag_family_t *tf = tag36h11_create();
    apriltag_detector_add_family(td, tf);
    td->quad_decimate = 1;
    td->nthreads = 1;
    image_u8_t im = {img->width, img->height, (int32_t)img->stride, img->data};
    zarray_t *dets = apriltag_detector_detect(td, &im);
    int decoded_small = 0, checked = 0;
    for (int i = 0; i < zarray_size(dets); i++) {
        apriltag_detection_t *d;
        zarray_get(dets, i, &d);
        for (size_t k = 0; k < truth.n_tags; k++) {
            const ds_truth_tag *tt = &truth.tags[k];
            if (tt->id != d->id || !tt->inside)
                continue;
            checked++;
            decoded_small += tt->edge_px < 30;
            for (int c = 0; c < 4; c++) {
                const double e = hypot(d->p[c][0] - 0.5 - tt->corners[c][0], d->p[c][1] - 0.5 - tt->corners[c][1]);
                cr_expect_leq(e, 0.6, "tag %d corner %d off by %.3f px", d->id, c, e);
            }
        }
    }
    cr_expect_lt(best, 30, "the smallest tag is %.1f px", best);
    cr_expect_geq(decoded_small, 2, "tags under 30 px decoded: %d", decoded_small);
    cr_expect_eq(checked, zarray_size(dets), "every detection is a tag of the truth");
    apriltag_detections_destroy(dets);
    apriltag_detector_destroy(td);
    tag36h11_destroy(tf);
    base_image_free(img);
    ds_truth_clear(&truth);
    ds_hard_free(t);
}
