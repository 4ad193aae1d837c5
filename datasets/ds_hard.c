#include "ds_hard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds_canvas.h"
#include "ds_hard_parts.h"
#include "ds_hill.h"
#include "vis_camera.h"

/* ------------------------------------------------------------------ presets */

static const ds_hard_params PRESETS[] = {
    /* seed, frame, board, height, tilt, tilt dir, k1, hands, models, palette, jitter, camera */
    {101, 4056, 3040, 1830, 1220, 1400, 14, 70, -0.22, 2, 250, 0, 0.3, DS_HARD_CAMERA_HQ12},
    {202, 4056, 3040, 1830, 1220, 1250, 7, 200, -0.12, 3, 250, 1, 0.3, DS_HARD_CAMERA_HQ12},
    {303, 4056, 3040, 1830, 1220, 1550, 14, 300, -0.30, 6, 250, 2, 0.3, DS_HARD_CAMERA_HQ12},
    {404, 4056, 3040, 1830, 1220, 1600, 10, 135, -0.17, 4, 250, 0, 0.3, DS_HARD_CAMERA_HQ12},
    {505, 3840, 2160, 1830, 1220, 1350, 10, 240, -0.25, 4, 250, 0, 0.3, DS_HARD_CAMERA_WEBCAM4K},
};

int ds_hard_preset_count(void) { return (int)(sizeof PRESETS / sizeof PRESETS[0]); }

void ds_hard_preset(int k, ds_hard_params *p)
{
    *p = PRESETS[k >= 1 && k <= ds_hard_preset_count() ? k - 1 : 0];
}

void ds_hard_preset_hills(int k, ds_hard_params *p)
{
    ds_hard_preset(k, p);
    p->hills = 3;
}

const char *ds_hard_camera_name(ds_hard_camera c)
{
    return c == DS_HARD_CAMERA_WEBCAM4K ? "4K USB webcam" : "12 MP HQ camera";
}

void ds_hard_camera_apply(ds_hard_camera c, ds_render_params *p)
{
    cvs_sensor_default(&p->sensor);
    p->effects.jpeg_quality = 92;
    p->auto_exposure = 0;
    if (c != DS_HARD_CAMERA_WEBCAM4K)
        return;
    cvs_sensor *s = &p->sensor;
    /* A cheap wide lens: darker corners, softer everywhere, softest at the corners. */
    s->vignetting = 0.45;
    s->blur_centre_px = 0.65, s->blur_corner_px = 1.1;
    /* 1.45 um photosites behind that lens in the same room: about a third of the light, a noisier read-out. */
    s->white_electrons = 450;
    s->read_noise_e = 6.0;
    s->adc_bits = 10;
    s->black_level_dn = 64;
    /* Webcam processors sharpen hard (halos at every edge). */
    s->sharpen = 0.9;
    /* Auto exposure aims the centre-weighted mean 8-bit luma at 100 (UVC webcams aim at ~100-120); MJPEG at quality 75. */
    p->auto_exposure = 100;
    p->effects.jpeg_quality = 75;
}

const char *ds_rank_align_name(ds_rank_align a)
{
    static const char *names[] = {"full", "centred", "left", "right", "gaps"};
    return a >= DS_RANK_FULL && a <= DS_RANK_GAPS ? names[a] : "?";
}

int ds_hard_rnd_int(ds_rng *r, int lo, int hi) { return lo + (int)(ds_rnd(r) * (hi - lo + 1)) % (hi - lo + 1); }

/* ------------------------------------------------------------------ camera */

/* Every board edge point inside the frame with a margin? */
static int board_in_frame(const calib_file *c, double bw, double bd, double margin_px)
{
    vis_camera cam;
    vis_camera_init(&cam, c);
    for (int i = 0; i <= 48; i++)
        for (int side = 0; side < 4; side++) {
            double f = i / 48.0;
            double X[3] = {side < 2 ? f * bw : (side == 2 ? 0 : bw), side >= 2 ? f * bd : (side == 0 ? 0 : bd), 0};
            double px[2];
            if (!vis_camera_project(&cam, X, px) || px[0] < margin_px || px[1] < margin_px ||
                px[0] > c->width - 1 - margin_px || px[1] > c->height - 1 - margin_px)
                return 0;
        }
    return 1;
}

int ds_hard_fit_camera(const ds_hard_params *p, calib_file *out, base_error *err)
{
    const double k1 = p->k1;
    ds_camera_params cp = {p->width, p->height, 0, p->camera_height_mm, p->tilt_deg, p->tilt_dir_deg,
                           {p->board_width / 2, p->board_depth / 2}, {k1, -0.35 * k1, 0.0004, -0.0003, 0}};
    double lo = 200, hi = 20000;
    for (int it = 0; it < 40; it++) {
        cp.focal_px = (lo + hi) / 2;
        if (ds_camera_make(&cp, out, err) < 0)
            return -1;
        if (board_in_frame(out, p->board_width, p->board_depth, 0.012 * p->width))
            lo = cp.focal_px;
        else
            hi = cp.focal_px;
    }
    cp.focal_px = floor(lo);
    return ds_camera_make(&cp, out, err);
}

int ds_hard_crop(calib_file *cam, int x0, int y0, int w, int h, base_error *err)
{
    if (w < 16 || h < 16 || (w & 1) || (h & 1) || x0 < 0 || y0 < 0 || x0 + w > cam->width || y0 + h > cam->height)
        return base_error_set(err, "crop %dx%d+%d+%d: must be even-sized and inside the %dx%d frame", w, h, x0, y0,
                               cam->width, cam->height);
    /* The principal point may fall outside a crop: no calib_file_validate here. */
    cam->cx -= x0, cam->cy -= y0;
    cam->width = w, cam->height = h;
    return 0;
}

/* ------------------------------------------------------- where units stand */

/* The footprint swept `ahead` mm forward. */
static base_obb swept(const base_obb *b, double ahead)
{
    base_obb s = *b;
    s.depth += ahead;
    s.centre = base_v2_add(b->centre, base_v2_scale(base_v2_dir(b->heading), ahead / 2));
    return s;
}

static int inside_board(const ds_hard_params *p, const base_obb *b, double inset)
{
    base_vec2 c[4];
    base_obb_corners(b, c);
    for (int k = 0; k < 4; k++)
        if (c[k].x < inset || c[k].y < inset || c[k].x > p->board_width - inset || c[k].y > p->board_depth - inset)
            return 0;
    return 1;
}

/* A footprint on the board: inside it, off its corners' reference tags, clear of the hills. */
static int on_board(const spot_ctx *x, const base_obb *b)
{
    const double corner_keep = 120, inset = 25;
    base_vec2 c[4];
    base_obb_corners(b, c);
    for (int k = 0; k < 4; k++) {
        if (!(c[k].x > inset && c[k].y > inset && c[k].x < x->p->board_width - inset &&
              c[k].y < x->p->board_depth - inset))
            return 0;
        int near_x = c[k].x < corner_keep || c[k].x > x->p->board_width - corner_keep;
        int near_y = c[k].y < corner_keep || c[k].y > x->p->board_depth - corner_keep;
        if (near_x && near_y)
            return 0;
    }
    return ds_hill_clear(x->s, x->camera, b, 25);
}

/* A candidate footprint of w x d facing the enemy: on the board in the army's half, or on the hill `on`. */
static base_obb candidate(const spot_ctx *x, int army, double w, double d, const rules_terrain *on, ds_rng *r)
{
    base_obb b;
    b.width = w, b.depth = d;
    if (on) {
        double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
        for (size_t i = 0; i < on->n_points; i++) {
            x0 = fmin(x0, on->points[i].x), x1 = fmax(x1, on->points[i].x);
            y0 = fmin(y0, on->points[i].y), y1 = fmax(y1, on->points[i].y);
        }
        const double y = ds_rnd_in(r, y0, y1); /* drawn before x: DS_RND_ORDER */
        b.centre = base_v2(ds_rnd_in(r, x0, x1), y);
    } else {
        b.centre.x = ds_rnd_in(r, 0.05, 0.95) * x->p->board_width;
        b.centre.y = (army == 0 ? ds_rnd_in(r, 0.07, 0.62) : ds_rnd_in(r, 0.38, 0.93)) * x->p->board_depth;
    }
    b.heading = (army == 0 ? BASE_PI / 2 : -BASE_PI / 2) + ds_rnd_in(r, -0.6, 0.6);
    return b;
}

/*
 * A free spot for a footprint of w x d, facing the enemy, on the board or wholly on the top of hill `on`; 0
 * when none was found. With `corridor` > 0 the ground that far ahead must be free too (the pairs' units need
 * room to march), and is kept free of later units.
 */
int ds_hard_spot_find(const spot_ctx *x, int army, double w, double d, const rules_terrain *on,
                      const placed_unit *others, int n, double corridor, ds_rng *r, base_obb *out, base_obb *kept)
{
    for (int attempt = 0; attempt < 600; attempt++) {
        const base_obb b = candidate(x, army, w, d, on, r);
        int ok = on ? ds_hill_holds(on, &b, 6) : on_board(x, &b);
        for (int i = 0; i < n && ok; i++)
            ok = base_obb_dist(&b, &others[i].box) > (others[i].margin > 0 ? others[i].margin : ds_rnd_in(r, 12, 40));
        const base_obb ahead = swept(&b, corridor);
        if (ok && corridor > 0) {
            ok = inside_board(x->p, &ahead, 30) && ds_hill_clear(x->s, x->camera, &ahead, 25);
            for (int i = 0; i < n && ok; i++)
                ok = base_obb_dist(&ahead, &others[i].box) > 45;
        }
        if (ok) {
            *out = b;
            *kept = ahead;
            return 1;
        }
    }
    return 0;
}

spot_ctx ds_hard_spot_ctx(const ds_hard_table *t, const ds_hard_params *p)
{
    spot_ctx x = {p, t->scene->snapshot, {0, 0, 0}};
    vis_camera cam;
    vis_camera_init(&cam, &t->scene->calib);
    memcpy(x.camera, cam.centre, sizeof x.camera);
    return x;
}

int ds_hard_find_spot(const ds_hard_table *t, const ds_hard_params *p, int army, double w, double d,
                      const placed_unit *others, int n, double corridor, ds_rng *r, base_obb *out, base_obb *kept)
{
    const spot_ctx x = ds_hard_spot_ctx(t, p);
    return ds_hard_spot_find(&x, army, w, d, NULL, others, n, corridor, r, out, kept);
}

void ds_hard_free(ds_hard_table *t)
{
    if (!t)
        return;
    ds_scene_free(t->scene);
    free(t->slots);
    free(t->align);
    free(t->kind);
    free(t);
}

/* ------------------------------------------------------------------- pairs */

/* The unit's footprint: the box over its bases (facing from its first model). */
static base_obb unit_box(const rules_unit *u)
{
    base_vec2 mean = base_v2(0, 0);
    for (size_t i = 0; i < u->n_models; i++)
        mean = base_v2_add(mean, base_v2_dir(u->models[i].facing));
    base_obb b = {base_v2(0, 0), atan2(mean.y, mean.x), 0, 0};
    double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
    base_frame f = {u->models[0].pos, b.heading};
    for (size_t i = 0; i < u->n_models; i++) {
        base_obb mb = rules_model_base(u, &u->models[i]);
        base_vec2 c[4];
        base_obb_corners(&mb, c);
        for (int k = 0; k < 4; k++) {
            base_vec2 l = base_frame_to_local(f, c[k]);
            x0 = fmin(x0, l.x), x1 = fmax(x1, l.x), y0 = fmin(y0, l.y), y1 = fmax(y1, l.y);
        }
    }
    /* base_frame: local x to the right, y forward. */
    b.centre = base_frame_to_board(f, base_v2((x0 + x1) / 2, (y0 + y1) / 2));
    b.width = x1 - x0, b.depth = y1 - y0;
    return b;
}

/* Can unit ui go `d` mm straight ahead on the board (off every hill) without touching another unit or leaving
 * it? */
static int has_room(const rules_snapshot *s, const double camera[3], size_t ui, double d, const double heading)
{
    base_obb b = unit_box(&s->units[ui]);
    base_obb sweep = b;
    sweep.depth += d;
    sweep.centre = base_v2_add(b.centre, base_v2_scale(base_v2_dir(heading), d / 2));
    if (!ds_hill_clear(s, camera, &sweep, 25))
        return 0;
    base_vec2 c[4];
    base_obb_corners(&sweep, c);
    for (int k = 0; k < 4; k++)
        if (c[k].x < 15 || c[k].y < 15 || c[k].x > s->board_width - 15 || c[k].y > s->board_depth - 15)
            return 0;
    /* Units end a move at least 1" apart: keep well clear of that. */
    for (size_t i = 0; i < s->n_units; i++) {
        if (i == ui)
            continue;
        base_obb o = unit_box(&s->units[i]);
        if (base_obb_dist(&sweep, &o) < 40)
            return 0;
    }
    return 1;
}

static void move_unit(rules_unit *u, double heading, double d)
{
    const base_vec2 step = base_v2_scale(base_v2_dir(heading), d);
    for (size_t i = 0; i < u->n_models; i++)
        u->models[i].pos = base_v2_add(u->models[i].pos, step);
}

int ds_hard_pair_make(const ds_hard_table *t, ds_hard_pair *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    const rules_snapshot *s = t->scene->snapshot;
    const roster_file *ro = t->scene->roster;
    const double adv = base_in_to_mm(4.5), march = base_in_to_mm(11);
    long marcher = -1, advancer = -1;
    vis_camera cam;
    vis_camera_init(&cam, &t->scene->calib);
    /* The unit's own heading: the model facings scatter by a fraction of a degree around it. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < s->n_units; i++) {
            const roster_unit *ru = &ro->units[i];
            if (fabs(ru->advance_rate - base_in_to_mm(5)) > 0.01 || fabs(ru->march_rate - base_in_to_mm(10)) > 0.01 ||
                (long)i == marcher)
                continue;
            const double h = unit_box(&s->units[i]).heading;
            if (pass == 0 && marcher < 0 && has_room(s, cam.centre, i, march, h))
                marcher = (long)i;
            else if (pass == 1 && advancer < 0 && has_room(s, cam.centre, i, adv, h))
                advancer = (long)i;
        }
    if (marcher < 0 || advancer < 0)
        return base_error_set(err, "pair: no two 5\"/10\" units have room to advance 4.5\" and march 11\"");
    if (!(out->after = rules_snapshot_clone(s)))
        return base_error_set(err, "out of memory");
    const long who[2] = {advancer, marcher};
    const double how[2] = {adv, march};
    for (int k = 0; k < 2; k++) {
        rules_unit *u = &out->after->units[who[k]];
        move_unit(u, unit_box(&s->units[who[k]]).heading, how[k]);
        ds_hard_move *m = &out->moves[k];
        snprintf(m->unit, sizeof m->unit, "%s", u->id);
        m->forward_mm = how[k];
        m->rate = k == 0 ? "advance" : "march";
        m->rate_mm = k == 0 ? u->advance_rate : u->march_rate;
        m->legal = how[k] <= m->rate_mm;
    }
    out->after_frame_seed = t->scene->render.seed * 7 + 1;
    return 0;
}

void ds_hard_pair_clear(ds_hard_pair *p)
{
    if (!p)
        return;
    rules_snapshot_free(p->after);
    memset(p, 0, sizeof *p);
}
