/* ds_climb: the four climbs (see the header). */
#include "ds_climb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds_hard.h"
#include "vis_camera.h"

const char *ds_climb_name(ds_climb_kind k)
{
    static const char *names[] = {"onto the hill", "along its top", "down off it", "too far onto it"};
    return k >= 0 && k < DS_CLIMB_KINDS ? names[k] : "?";
}

void ds_climb_clear(ds_climb *c)
{
    if (!c)
        return;
    ds_scene_free(c->scene);
    rules_snapshot_free(c->after);
    memset(c, 0, sizeof *c);
}

enum { FILES = 10, RANKS = 2 };
#define BASE_W_MM 25.0
#define BASE_D_MM 40.0
#define PITCH_W_MM 25.5
#define PITCH_D_MM 40.5
#define TAG_MM 16.0
#define TAG_UP_MM 4.0
/* The tag at the base's rear, the figure before it: every climb here goes away from the point under the camera,
 * where a figure's head leans forward in the picture, off its own tag. */
#define TAG_AHEAD_MM -9.0

/* The table's units: the climbers, and two that stand by on the board either side of the hill (the rest of
 * the table a unit is compared with: vis_height.h). */
typedef struct unit_spec {
    const char *id;
    int files, ranks;
    double side;  /* across the move, in hill widths from the hill's centre line (0: the climbers) */
} unit_spec;
static const unit_spec UNITS[] = {{"spears", FILES, RANKS, 0}, {"archers", 5, 2, -1}, {"guards", 5, 2, 1}};
enum { N_UNITS = sizeof UNITS / sizeof UNITS[0] };

/* The roster: tags 10.. (even: the first army), Advance 4", March 8". */
static int make_roster(ds_scene *s, base_error *err)
{
    size_t models = 0;
    for (int u = 0; u < N_UNITS; u++)
        models += (size_t)(UNITS[u].files * UNITS[u].ranks);
    roster_file *r = s->roster = roster_new(N_UNITS, models, 4);
    if (!r)
        return base_error_set(err, "out of memory");
    r->board_width = s->snapshot->board_width, r->board_depth = s->snapshot->board_depth;
    const double bt = 40, in = 1.5 * bt, W = r->board_width, D = r->board_depth;
    const double xy[4][2] = {{in, in}, {W - in, in}, {W - in, D - in}, {in, D - in}};
    for (int i = 0; i < 4; i++)
        r->board_tags[r->n_board_tags++] = (roster_board_tag){i, xy[i][0], xy[i][1], 0, 0, bt};
    for (int k = 0; k < N_UNITS; k++) {
        roster_unit *u = &r->units[r->n_units];
        snprintf(u->id, sizeof u->id, "%s", UNITS[k].id);
        snprintf(u->side, sizeof u->side, "red");
        u->base_width = BASE_W_MM, u->base_depth = BASE_D_MM;
        u->advance_rate = base_in_to_mm(4), u->march_rate = base_in_to_mm(8), u->mobility = NAN;
        u->files = UNITS[k].files;
        u->mount = (roster_tag_mount){base_v2(TAG_AHEAD_MM, 0), 0, TAG_UP_MM, TAG_MM};
        u->first_model = r->n_models;
        for (int i = 0; i < UNITS[k].files * UNITS[k].ranks; i++) {
            roster_model *m = &r->models[r->n_models];
            snprintf(m->id, sizeof m->id, "%.40s-%d", u->id, i + 1);
            m->tag_id = 10 + 2 * (int)r->n_models++;
            m->unit = r->n_units;
            m->file = i % u->files, m->rank = i / u->files;
            u->n_models++;
        }
        r->n_units++;
    }
    return 0;
}

/* Unit k with its front rank's centres at `front_t` mm along `ahead` from the hill's near edge, `across` mm
 * to the side of its centre line, facing `facing`. */
static int place_unit(rules_snapshot *s, const roster_file *r, int k, const ds_hill *h, base_vec2 ahead,
                      double front_t, double across, double facing, base_error *err)
{
    const roster_unit *ru = &r->units[k];
    rules_unit *su = rules_snapshot_add_unit(s, ru->id, ru->side);
    if (!su)
        return base_error_set(err, "out of memory");
    su->base_width = BASE_W_MM, su->base_depth = BASE_D_MM;
    su->advance_rate = ru->advance_rate, su->march_rate = ru->march_rate;
    const base_vec2 fwd = base_v2_dir(facing), right = base_v2(fwd.y, -fwd.x);
    const base_vec2 front = base_v2_add(base_v2_sub(h->centre, base_v2_scale(ahead, h->depth / 2 - front_t)),
                                        base_v2_scale(right, across));
    for (size_t i = 0; i < ru->n_models; i++) {
        const int f = (int)i % ru->files, rank = (int)i / ru->files;
        /* A hand-placed base is a little off its slot: a fixed pattern, the same every run. */
        const base_vec2 off = base_v2(0.25 * sin(3.1 * (double)i), 0.25 * cos(1.7 * (double)i));
        const base_vec2 p = base_v2_add(front, base_v2_add(base_v2_scale(right, (f - (ru->files - 1) / 2.0) * PITCH_W_MM),
                                                           base_v2_scale(fwd, -rank * PITCH_D_MM)));
        if (!rules_unit_add_model(su, r->models[ru->first_model + i].id, base_v2_add(p, off), facing))
            return base_error_set(err, "out of memory");
    }
    return 0;
}

/* The climbers and those standing by, before the move. */
static int place_units(ds_climb *c, base_vec2 ahead, double front_t, double facing, base_error *err)
{
    for (int k = 0; k < N_UNITS; k++) {
        /* Beside the hill's foot, 40 mm clear of it, their front rank level with its centre. */
        const double half_unit = UNITS[k].files * PITCH_W_MM / 2;
        const double across = UNITS[k].side * (c->hill.width / 2 + c->hill.slope_mm + 40 + half_unit);
        const double t = k == 0 ? front_t : c->hill.depth / 2;
        if (place_unit(c->scene->snapshot, c->scene->roster, k, &c->hill, ahead, t, across, facing, err) < 0)
            return -1;
    }
    return 0;
}

/* Where the climb starts: its front rank's centres along the hill's depth from its near edge (every climb goes
 * away from the point under the camera), and how far it goes. */
static void climb_plan(ds_climb_kind k, const ds_hill *h, double *front_t, double *moved)
{
    const double clear = 6, half = BASE_D_MM / 2;
    *moved = base_in_to_mm(k == DS_CLIMB_ALONG ? 3.9 : k == DS_CLIMB_TOO_FAR ? 4.3 : 3.5);
    if (k == DS_CLIMB_ALONG)
        *front_t = 10 + half + PITCH_D_MM;               /* its rear rank 10 mm inside the top */
    else if (k == DS_CLIMB_DOWN)
        *front_t = h->depth - clear - half;              /* its front rank 6 mm inside the far edge */
    else
        *front_t = -h->slope_mm - clear - half;          /* its front rank 6 mm short of the foot */
}

int ds_climb_crop(ds_scene *scene, const ds_hill *hill, const rules_snapshot *const *tables, size_t n,
                  bool principal_point, base_error *err)
{
    vis_camera cam;
    vis_camera_init(&cam, &scene->calib);
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    base_vec2 top[4], foot[4];
    ds_hill_corners(hill, top, foot);
    for (size_t k = 0; k < n; k++)
        for (size_t u = 0; u < tables[k]->n_units; u++)
            for (size_t i = 0; i < tables[k]->units[u].n_models + 4; i++)
                for (int z = 0; z <= 1; z++) {
                    const base_vec2 p = i < 4 ? foot[i] : tables[k]->units[u].models[i - 4].pos;
                    const double X[3] = {p.x, p.y, z * (hill->height_mm + 40)};
                    double px[2];
                    if (vis_camera_project(&cam, X, px))
                        x0 = fmin(x0, px[0]), y0 = fmin(y0, px[1]), x1 = fmax(x1, px[0]), y1 = fmax(y1, px[1]);
                }
    const calib_file *c = &scene->calib;
    if (principal_point) /* a calibration's principal point lies in its image (calib_file_validate) */
        x0 = fmin(x0, c->cx), y0 = fmin(y0, c->cy), x1 = fmax(x1, c->cx), y1 = fmax(y1, c->cy);
    const int m = 60, ax = (int)fmax(0, floor(x0) - m) & ~1, ay = (int)fmax(0, floor(y0) - m) & ~1;
    const int bx = (int)fmin(c->width, ceil(x1) + m) & ~1, by = (int)fmin(c->height, ceil(y1) + m) & ~1;
    return ds_hard_crop(&scene->calib, ax, ay, bx - ax, by - ay, err);
}

int ds_climb_make(ds_climb_kind k, bool crop, ds_climb *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    ds_hard_params hp;
    ds_hard_preset(1, &hp);
    ds_scene *s = out->scene = calloc(1, sizeof *s);
    if (!s || !(s->snapshot = rules_snapshot_new(hp.board_width, hp.board_depth)))
        return ds_climb_clear(out), base_error_set(err, "out of memory");
    if (ds_hard_fit_camera(&hp, &s->calib, err) < 0 || make_roster(s, err) < 0)
        return ds_climb_clear(out), -1;
    /* The hill towards the far corner, its depth along the line from the point under the camera. */
    vis_camera cam;
    vis_camera_init(&cam, &s->calib);
    const base_vec2 centre = base_v2(1380, 860), nadir = base_v2(cam.centre[0], cam.centre[1]);
    const base_vec2 ahead = base_v2_scale(base_v2_sub(centre, nadir), 1 / base_v2_dist(centre, nadir));
    out->hill = (ds_hill){"hill", centre, 300, 240, atan2(ahead.y, ahead.x) - BASE_PI / 2, 50, 25};
    double front_t, moved;
    climb_plan(k, &out->hill, &front_t, &moved);
    const double facing = atan2(ahead.y, ahead.x);
    if (ds_hill_add(s->snapshot, &out->hill) < 0 || place_units(out, ahead, front_t, facing, err) < 0 ||
        !(out->after = rules_snapshot_clone(s->snapshot)))
        return ds_climb_clear(out), err->msg[0] ? -1 : base_error_set(err, "out of memory");
    rules_unit *u = &out->after->units[0];
    for (size_t i = 0; i < u->n_models; i++)
        u->models[i].pos = base_v2_add(u->models[i].pos, base_v2_scale(base_v2_dir(facing), moved));
    snprintf(out->unit, sizeof out->unit, "%s", u->id);
    out->moved_mm = moved;
    out->rate_mm = u->advance_rate;
    out->legal = moved <= u->advance_rate;
    ds_render_params_default(&s->render);
    s->render.seed = 2801 + (uint32_t)k;
    s->render.style = DS_STYLE_REAL;
    /* No hands, no figures: these pictures measure the relief, not what hides tags (the hard set with hills
     * does that, ds_hard.h). */
    s->render.hands = 0;
    s->render.figures = 0;
    ds_hard_camera_apply(hp.camera, &s->render);
    s->render.lamp[0] = 700, s->render.lamp[1] = 500, s->render.lamp[2] = 2300;
    out->after_seed = s->render.seed * 7 + 1;
    const rules_snapshot *both[2] = {s->snapshot, out->after};
    return crop ? ds_climb_crop(s, &out->hill, both, 2, false, err) : 0;
}
