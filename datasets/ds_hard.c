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

/* -------------------------------------------------------------- unit types */

static const unit_type TYPES[] = {
    {"infantry", 25, 40, 16, 9, 5, 6, 17, 32, 5, 10, 0.45},
    {"heavy infantry", 30, 45, 20, 9.5, 4, 5, 11, 20, 5, 10, 0.2},
    {"cavalry", 25, 60, 18, 16, 4, 5, 5, 10, 8, 16, 0.12},
    {"monstrous infantry", 40, 50, 24, 9, 3, 3, 3, 8, 6, 12, 0.12},
    {"monster", 50, 75, 32, 17, 1, 2, 1, 2, 7, 14, 0.11},
};
enum { N_TYPES = sizeof TYPES / sizeof TYPES[0], MAX_UNITS = 64 };

static const unit_type *pick_type(ds_rng *r, const unit_type *types, int n)
{
    double x = ds_rnd(r), acc = 0;
    for (int i = 0; i < n; i++)
        if (x < (acc += types[i].weight))
            return &types[i];
    return &types[0];
}

int ds_hard_rnd_int(ds_rng *r, int lo, int hi) { return lo + (int)(ds_rnd(r) * (hi - lo + 1)) % (hi - lo + 1); }
#define rnd_int ds_hard_rnd_int

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

/* -------------------------------------------------------------- the armies */

/* The file positions of a rear rank of m models in F files. */
static void rear_files(ds_rank_align a, int m, int F, ds_rng *r, double *files)
{
    if (a == DS_RANK_GAPS) {
        /* m distinct files of F, never all side by side. */
        int take[16] = {0};
        do {
            memset(take, 0, sizeof take);
            for (int k = 0; k < m;) {
                int f = rnd_int(r, 0, F - 1);
                if (!take[f])
                    take[f] = 1, k++;
            }
            int first = 0, last = F - 1;
            while (!take[first])
                first++;
            while (!take[last])
                last--;
            if (last - first + 1 > m)
                break;
        } while (1);
        for (int f = 0, k = 0; f < F; f++)
            if (take[f])
                files[k++] = f;
        return;
    }
    const double start = a == DS_RANK_CENTRED ? (F - m) / 2.0 : a == DS_RANK_RIGHT ? F - m : 0;
    for (int k = 0; k < m; k++)
        files[k] = start + k;
}

static ds_rank_align pick_align(int m, int F, ds_rng *r)
{
    if (m == F)
        return DS_RANK_FULL;
    const double x = ds_rnd(r);
    if (x < 0.15)
        return DS_RANK_LEFT;
    if (x < 0.30)
        return DS_RANK_RIGHT;
    /* A gap needs two models and two empty files. */
    if (x < 0.50 && m >= 2 && F - m >= 2)
        return DS_RANK_GAPS;
    return DS_RANK_CENTRED;
}

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

/* Where a table's units may stand: its board, its hills, the camera that sees them. */
typedef struct spot_ctx {
    const ds_hard_params *p;
    const rules_snapshot *s;   /* its terrain: the hills */
    double camera[3];          /* the camera's centre, board mm */
} spot_ctx;

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
        b.centre = base_v2(ds_rnd_in(r, x0, x1), ds_rnd_in(r, y0, y1));
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
static int find_spot(const spot_ctx *x, int army, double w, double d, const rules_terrain *on,
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

/* Where a table's units may stand, for the table t being laid out (its terrain and its camera). */
static spot_ctx spot_ctx_of(const ds_hard_table *t, const ds_hard_params *p)
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
    const spot_ctx x = spot_ctx_of(t, p);
    return find_spot(&x, army, w, d, NULL, others, n, corridor, r, out, kept);
}

static int add_unit(ds_hard_table *t, const spot_ctx *x, const unit_type *ty, int army, int index,
                    const rules_terrain *on, placed_unit *placed, int *n_placed, ds_rng *r, int *tag, base_error *err)
{
    const ds_hard_params *p = x->p;
    roster_file *ro = t->scene->roster;
    int F = rnd_int(r, ty->files_lo, ty->files_hi);
    int n = rnd_int(r, ty->models_lo, ty->models_hi);
    /* Never more files than models (the roster reader refuses it): a type that is never narrower than
     * files_lo fills its front rank; one that may stand a single file wide (a lone monster) narrows. */
    if (n < F && ty->files_lo > 1)
        n = F;
    else if (n < F)
        F = n;
    const int R = (n + F - 1) / F, m = n - (R - 1) * F;
    const double gap = ds_rnd_in(r, 0.3, 1.0), pw = ty->base_w + gap, pd = ty->base_d + gap;
    base_obb spot, kept;
    /* The red army's first two 5"/10" units get room to advance and to march (the pairs). */
    const double corridor =
        !on && army == 0 && ty->advance_in == 5 && ty->march_in == 10 && t->reserved < 2 ? 300 : 0;
    if (!find_spot(x, army, F * pw, R * pd, on, placed, *n_placed, corridor, r, &spot, &kept))
        return 0;
    placed[*n_placed].box = kept;
    placed[(*n_placed)++].margin = corridor > 0 ? 45 : 0;
    t->reserved += corridor > 0;
    roster_unit *u = &ro->units[ro->n_units];
    memset(u, 0, sizeof *u);
    snprintf(u->id, sizeof u->id, "%s-%d", army ? "blue" : "red", index);
    snprintf(u->side, sizeof u->side, "%s", army ? "blue" : "red");
    u->base_width = ty->base_w, u->base_depth = ty->base_d;
    u->advance_rate = base_in_to_mm(ty->advance_in), u->march_rate = base_in_to_mm(ty->march_in);
    u->mobility = NAN;
    u->files = F;
    u->mount = (roster_tag_mount){base_v2(ty->tag_fwd, 0), 0, ds_rnd_in(r, 3, 5), ty->tag};
    u->first_model = ro->n_models;
    t->kind[ro->n_units] = ty->kind;
    const ds_rank_align align = pick_align(m, F, r);
    t->align[ro->n_units] = align;
    rules_unit *su = rules_snapshot_add_unit(t->scene->snapshot, u->id, u->side);
    if (!su)
        return base_error_set(err, "out of memory");
    su->base_width = u->base_width, su->base_depth = u->base_depth;
    su->advance_rate = u->advance_rate, su->march_rate = u->march_rate, su->mobility = u->mobility;
    const double th = spot.heading;
    const base_vec2 fwd = base_v2_dir(th), right = base_v2(sin(th), -cos(th));
    double rear[16];
    rear_files(align, m, F, r, rear);
    for (int i = 0; i < n; i++) {
        roster_model *rm = &ro->models[ro->n_models];
        const int k = i / F;
        const double file = k < R - 1 ? i % F : rear[i - (R - 1) * F];
        snprintf(rm->id, sizeof rm->id, "%.40s-%d", u->id, i + 1);
        rm->tag_id = (*tag)++;
        rm->unit = ro->n_units;
        rm->file = i % F, rm->rank = k;   /* the roster's nominal slot: listing order */
        t->slots[ro->n_models] = (ds_hard_slot){file, k};
        base_vec2 pos = base_v2_add(spot.centre, base_v2_add(base_v2_scale(right, (file - (F - 1) / 2.0) * pw),
                                                                 base_v2_scale(fwd, -(k - (R - 1) / 2.0) * pd)));
        pos = base_v2_add(pos, base_v2(ds_rnd_in(r, -1, 1) * p->jitter_mm, ds_rnd_in(r, -1, 1) * p->jitter_mm));
        const double facing = base_angle_wrap(th + ds_rnd_in(r, -0.5, 0.5) * base_deg_to_rad(1.0) * (p->jitter_mm > 0));
        if (!rules_unit_add_model(su, rm->id, pos, facing))
            return base_error_set(err, "out of memory");
        ro->n_models++;
        u->n_models++;
    }
    ro->n_units++;
    return 1;
}

/*
 * Both armies, each up to half the target of models: on a table with hills, each army's first units try the
 * tops (hill k is army k % 2's), falling back to the board. 0 or -1.
 */
static int place_armies(ds_hard_table *t, const spot_ctx *x, ds_rng *r, base_error *err)
{
    const ds_hard_params *p = x->p;
    roster_file *ro = t->scene->roster;
    const size_t cap_models = (size_t)p->target_models + 64;
    placed_unit placed[MAX_UNITS];
    bool taken[16] = {false};
    int tries[16] = {0}, n_placed = 0, tag = 10, n_types = N_TYPES;
    const unit_type *types = p->miniatures ? ds_hard_minis_types(&n_types) : TYPES;
    for (int army = 0; army < 2; army++) {
        int failures = 0, index = 1;
        const size_t start = ro->n_models;
        /* Miniatures: each army's skirmishers and characters first, where they find room. */
        if (p->miniatures && ds_hard_minis_loose(t, p, army, &index, placed, &n_placed, r, &tag, err) < 0)
            return -1;
        while (ro->n_models - start < (size_t)p->target_models / 2 && failures < 8 && ro->n_units < MAX_UNITS) {
            const unit_type *ty = pick_type(r, types, n_types);
            if (ro->n_models + (size_t)ty->models_hi > cap_models)
                break;
            int hill = -1;
            for (size_t k = 0; k < x->s->n_terrain && k < 16 && hill < 0; k++)
                if ((int)k % 2 == army && !taken[k] && x->s->terrain[k].relief == RULES_RELIEF_HILL)
                    hill = (int)k;
            int got = 0;
            if (hill >= 0) {
                got = add_unit(t, x, ty, army, index, &x->s->terrain[hill], placed, &n_placed, r, &tag, err);
                /* A top holds one unit; four kinds of unit too big for it, and it is left bare. */
                taken[hill] = got > 0 || ++tries[hill] >= 4;
            }
            if (got == 0)
                got = add_unit(t, x, ty, army, index, NULL, placed, &n_placed, r, &tag, err);
            if (got < 0)
                return -1;
            failures = got ? 0 : failures + 1;
            index += got;
        }
    }
    if (p->miniatures)
        ds_hard_minis_marks(t, p, r);
    return 0;
}

ds_hard_table *ds_hard_generate(const ds_hard_params *p, base_error *err)
{
    ds_hard_table *t = calloc(1, sizeof *t);
    const size_t cap_models = (size_t)p->target_models + 64;
    if (!t || !(t->scene = calloc(1, sizeof *t->scene)) || !(t->scene->roster = calloc(1, sizeof(roster_file))))
        goto oom;
    ds_scene *s = t->scene;
    roster_file *ro = s->roster;
    t->slots = calloc(cap_models, sizeof *t->slots);
    t->align = calloc(MAX_UNITS, sizeof *t->align);
    t->kind = calloc(MAX_UNITS, sizeof *t->kind);
    ro->units = calloc(MAX_UNITS, sizeof *ro->units);
    ro->models = calloc(cap_models, sizeof *ro->models);
    ro->board_tags = calloc(4, sizeof *ro->board_tags);
    s->snapshot = rules_snapshot_new(p->board_width, p->board_depth);
    if (!t->slots || !t->align || !t->kind || !ro->units || !ro->models || !ro->board_tags || !s->snapshot)
        goto oom;
    if (ds_hard_fit_camera(p, &s->calib, err) < 0)
        goto fail;
    strcpy(ro->family, "tag36h11");
    ro->board_width = p->board_width, ro->board_depth = p->board_depth;
    const double bt = 40, in = 1.5 * bt;
    const double xy[4][2] = {{in, in}, {p->board_width - in, in}, {p->board_width - in, p->board_depth - in},
                             {in, p->board_depth - in}};
    for (int i = 0; i < 4; i++)
        ro->board_tags[ro->n_board_tags++] = (roster_board_tag){i, xy[i][0], xy[i][1], 0, 0, bt};

    ds_rng r = {.s = p->seed * 0x2545F4914F6CDD1Dull + 11};
    const spot_ctx x = spot_ctx_of(t, p);
    static const double heights[] = {70, 50, 30, 80, 45, 60};
    if (p->hills > 0 && ds_hill_layout(s->snapshot, heights, p->hills < 6 ? p->hills : 6, &r) < 0)
        goto oom;
    if (place_armies(t, &x, &r, err) < 0)
        goto fail;
    ds_render_params_default(&s->render);
    s->render.seed = p->seed;
    s->render.style = DS_STYLE_REAL;
    s->render.miniatures = p->miniatures;
    s->render.hands = p->hands;
    s->render.palette = p->palette;
    ds_hard_camera_apply(p->camera, &s->render);
    s->render.lamp[0] = ds_rnd_in(&r, 0.2, 0.8) * p->board_width;
    s->render.lamp[1] = ds_rnd_in(&r, 0.2, 0.8) * p->board_depth;
    s->render.lamp[2] = ds_rnd_in(&r, 2000, 2600);
    return t;
oom:
    base_error_set(err, "out of memory");
fail:
    ds_hard_free(t);
    return NULL;
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
