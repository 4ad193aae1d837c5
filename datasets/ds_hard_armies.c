/*
 * ds_hard_armies: the two armies laid out on a hard-set table
 * (ds_hard.h, ds_hard_generate): unit types, ranks and their rear-rank
 * alignment, hill tops first, the miniatures set's own units and marks
 * (ds_hard_minis.c). It sits above ds_hard.c (where units may stand, the
 * camera) and ds_hard_minis.c, which never call it. Internal parts through
 * ds_hard_parts.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds_canvas.h"
#include "ds_hard.h"
#include "ds_hard_parts.h"
#include "ds_hill.h"

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

/* The file positions of a rear rank of m models in F files. */
static void rear_files(ds_rank_align a, int m, int F, ds_rng *r, double *files)
{
    if (a == DS_RANK_GAPS) {
        /* m distinct files of F, never all side by side. */
        int take[16] = {0};
        do {
            memset(take, 0, sizeof take);
            for (int k = 0; k < m;) {
                int f = ds_hard_rnd_int(r, 0, F - 1);
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

static int add_unit(ds_hard_table *t, const spot_ctx *x, const unit_type *ty, int army, int index,
                    const rules_terrain *on, placed_unit *placed, int *n_placed, ds_rng *r, int *tag, base_error *err)
{
    const ds_hard_params *p = x->p;
    roster_file *ro = t->scene->roster;
    int F = ds_hard_rnd_int(r, ty->files_lo, ty->files_hi);
    int n = ds_hard_rnd_int(r, ty->models_lo, ty->models_hi);
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
    if (!ds_hard_spot_find(x, army, F * pw, R * pd, on, placed, *n_placed, corridor, r, &spot, &kept))
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
        const double dy = ds_rnd_in(r, -1, 1) * p->jitter_mm; /* drawn before x: DS_RND_ORDER */
        pos = base_v2_add(pos, base_v2(ds_rnd_in(r, -1, 1) * p->jitter_mm, dy));
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
    const spot_ctx x = ds_hard_spot_ctx(t, p);
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

