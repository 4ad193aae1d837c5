/*
 * The miniatures on the bases and the hands over the table, for both of
 * ds_render's styles (see ds_render.h). Internal to datasets/.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <apriltag/tag36h11.h>
#include <apriltag/tagStandard41h12.h>

#include "ds_figures.h"
#include "ds_marks.h"
#include "ds_math.h"
#include "ds_terrain.h"
#include "ds_solid.h"

/* ------------------------------------------------------------ classic style */

/* A solid of revolution approximated by stacked circles: hull of their projections. */
static int classic_solid(ds_canvas *c, base_vec2 at, const double *z, const double *radius, int levels,
                         uint8_t value)
{
    enum { SEG = 20 };
    double pts[2 * SEG * 4], out[2 * SEG * 4 + 4];
    int n = 0;
    for (int l = 0; l < levels && l < 4; l++)
        for (int s = 0; s < SEG; s++) {
            double a = 2 * BASE_PI * s / SEG;
            double X[3] = {at.x + radius[l] * cos(a), at.y + radius[l] * sin(a), z[l]};
            if (!ds_canvas_point(c, X, pts + 2 * n))
                return 0;
            n++;
        }
    int k = ds_canvas_hull(pts, n, out);
    return cvs_render_fill_poly(c->img, out, k, value, c->mask_figure, 255, c->err);
}

static int classic_line(ds_canvas *c, const double A[3], const double B[3], double width_mm, uint8_t value,
                        base_image *mask)
{
    double a[2], b[2];
    if (!ds_canvas_point(c, A, a) || !ds_canvas_point(c, B, b))
        return 0;
    /* Thickness from the depth of the midpoint. */
    double M[3] = {(A[0] + B[0]) / 2, (A[1] + B[1]) / 2, (A[2] + B[2]) / 2};
    double d = ds_hypot(ds_hypot(M[0] - c->cam.centre[0], M[1] - c->cam.centre[1]), M[2] - c->cam.centre[2]);
    return cvs_render_line(c->img, a[0], a[1], b[0], b[1], c->K[0] * width_mm / d, value, mask, 255, c->err);
}

static int classic_figure(ds_canvas *c, const rules_model *m, int tag_id, double h, const ds_render_params *p)
{
    /* Per-model randomness from its id keeps figures stable when others move. */
    ds_rng fr = {.s = p->seed * 131ull + (uint64_t)tag_id * 977ull};
    double H = ds_rnd_in(&fr, p->figure_min_mm, p->figure_max_mm), rad = p->figure_radius_mm;
    base_vec2 at = base_v2_add(m->pos, base_v2_rot(base_v2(-p->figure_back_mm, 0), m->facing));
    uint8_t shade = (uint8_t)ds_rnd_in(&fr, 40, 190);
    double z[4] = {h, h + 0.55 * H, h + 0.85 * H, h + H};
    double rr[4] = {rad * 0.9, rad, rad * 0.8, rad * 0.45};
    if (classic_solid(c, at, z, rr, 4, shade) < 0)
        return -1;
    double zt[2] = {h + 0.8 * H, h + H}, rt[2] = {rad * 0.55, rad * 0.45};
    if (classic_solid(c, at, zt, rt, 2, (uint8_t)fmin(255, shade + 40)) < 0)
        return -1;
    double roll = ds_rnd(&fr);
    if (roll < p->spear_fraction) {
        double dir = m->facing + ds_rnd_in(&fr, -0.5, 0.5), elev = ds_rnd_in(&fr, 0.25, 0.8);
        double len = ds_rnd_in(&fr, 45, 70);
        double A[3] = {at.x, at.y, h + 0.6 * H};
        double B[3] = {A[0] + len * cos(elev) * cos(dir), A[1] + len * cos(elev) * sin(dir), A[2] + len * sin(elev)};
        return classic_line(c, A, B, 1.6, (uint8_t)ds_rnd_in(&fr, 60, 160), c->mask_figure);
    }
    if (roll < p->spear_fraction + p->banner_fraction) {
        double A[3] = {at.x, at.y, h}, B[3] = {at.x, at.y, h + H + 25};
        if (classic_line(c, A, B, 1.5, 90, c->mask_figure) < 0)
            return -1;
        base_vec2 back = base_v2_rot(base_v2(-20, 0), m->facing + ds_rnd_in(&fr, -0.6, 0.6));
        double Q[4][3] = {{at.x, at.y, h + H + 25},
                          {at.x + back.x, at.y + back.y, h + H + 25},
                          {at.x + back.x, at.y + back.y, h + H + 8},
                          {at.x, at.y, h + H + 8}};
        double q[8];
        int ok = 1;
        for (int k = 0; k < 4; k++)
            ok &= ds_canvas_point(c, Q[k], q + 2 * k);
        if (ok && cvs_render_fill_poly(c->img, q, 4, (uint8_t)ds_rnd_in(&fr, 30, 220), c->mask_figure, 255, c->err) < 0)
            return -1;
    }
    return 0;
}

static int classic_hands(ds_canvas *c, const roster_file *roster, const ds_render_params *p, ds_rng *r)
{
    /* A palm and five fingers reaching in, 12-20 cm above the table. */
    for (int hnd = 0; hnd < p->hands; hnd++) {
        double hz = ds_rnd_in(r, 120, 200), ang = ds_rnd_in(r, 0, 2 * BASE_PI);
        const double ay = ds_rnd_in(r, 0, roster->board_depth); /* drawn before x: DS_RND_ORDER */
        base_vec2 at = base_v2(ds_rnd_in(r, 0, roster->board_width), ay);
        double xy[48];
        int ok = 1;
        for (int k = 0; k < 24; k++) {
            double a = 2 * BASE_PI * k / 24;
            base_vec2 q = base_v2_add(at, base_v2_rot(base_v2(50 * cos(a), 42 * sin(a)), ang));
            double X[3] = {q.x, q.y, hz};
            ok &= ds_canvas_point(c, X, xy + 2 * k);
        }
        if (ok && cvs_render_fill_poly(c->img, xy, 24, 175, c->mask_hand, 255, c->err) < 0)
            return -1;
        for (int f = 0; f < 5; f++) {
            double fa = ang + (f - 2) * 0.28 + (f == 0 ? -0.5 : 0);
            base_vec2 base = base_v2_add(at, base_v2_rot(base_v2(40, 0), fa));
            base_vec2 tip = base_v2_add(at, base_v2_rot(base_v2(f == 0 ? 85 : 115 - 8 * abs(f - 2), 0), fa));
            double A[3] = {base.x, base.y, hz}, B[3] = {tip.x, tip.y, hz - 10};
            if (classic_line(c, A, B, 17, 180, c->mask_hand) < 0)
                return -1;
        }
        /* The arm, back towards the table edge. */
        base_vec2 wrist = base_v2_add(at, base_v2_rot(base_v2(-45, 0), ang));
        base_vec2 elbow = base_v2_add(at, base_v2_rot(base_v2(-300, 0), ang));
        double A[3] = {wrist.x, wrist.y, hz}, B[3] = {elbow.x, elbow.y, hz + 150};
        if (classic_line(c, A, B, 60, 150, c->mask_hand) < 0)
            return -1;
    }
    return 0;
}

/* --------------------------------------------------------------- real style */

static const cvs_colour CLOTH[] = {{150, 30, 30},  {40, 60, 140},  {30, 100, 50}, {200, 170, 40},
                                   {100, 40, 110}, {220, 220, 210}, {30, 30, 35},  {180, 90, 30}};
static const cvs_colour METAL[] = {{170, 170, 175}, {160, 120, 60}, {90, 90, 95}};
static const cvs_colour SKIN[] = {{225, 180, 150}, {190, 140, 105}, {120, 85, 60}, {95, 140, 80}};
static const cvs_colour COAT[] = {{110, 70, 40}, {40, 30, 25}, {200, 195, 185}, {150, 110, 70}};

#define PICK(arr, r) (arr[(int)(ds_rnd(r) * (sizeof arr / sizeof arr[0])) % (int)(sizeof arr / sizeof arr[0])])

static cvs_colour vary(cvs_colour c, ds_rng *r, double amount)
{
    double k = 1 + amount * (2 * ds_rnd(r) - 1);
    return (cvs_colour){(uint8_t)fmin(255, c.r * k), (uint8_t)fmin(255, c.g * k), (uint8_t)fmin(255, c.b * k)};
}

/*
 * Where the figure stands on its base: in the larger part the printed tag
 * (white border included) leaves free, behind it or before it (a tag at the
 * base's rear), or at the back third when the tag leaves neither.
 */
static double figure_offset(const roster_unit *u)
{
    const double printed = u->mount.size * 1.25, back = -u->base_depth / 2, front = u->base_depth / 2;
    const double behind_tag = u->mount.offset.x - printed / 2, before_tag = u->mount.offset.x + printed / 2;
    if (behind_tag - back >= front - before_tag)
        return behind_tag - back > 10 ? (back + behind_tag) / 2 : back + u->base_depth / 3;
    return front - before_tag > 10 ? (before_tag + front) / 2 : back + u->base_depth / 3;
}

/* One unit's look: every model of a unit is of one kind, armed alike, in one livery. */
static void unit_look(const ds_render_params *p, const roster_unit *u, size_t unit_index, ds_figure *f)
{
    ds_rng ur = {.s = p->seed * 7717ull + unit_index * 104729ull + 3};
    memset(f, 0, sizeof *f);
    f->kind = u->base_depth >= 1.8 * u->base_width && u->base_depth >= 50 ? DS_FIG_CAVALRY
              : u->base_width >= 40                                       ? DS_FIG_MONSTER
                                                                          : DS_FIG_INFANTRY;
    f->bulk = f->kind == DS_FIG_MONSTER ? 1.8 : 1.0;
    const double roll = ds_rnd(&ur);
    f->weapon = f->kind == DS_FIG_MONSTER ? DS_WEAPON_CLUB
                : roll < 0.4              ? DS_WEAPON_SPEAR
                : roll < 0.75             ? DS_WEAPON_SWORD_SHIELD
                : roll < 0.92             ? DS_WEAPON_HALBERD
                                          : DS_WEAPON_NONE;
    f->cloth = PICK(CLOTH, &ur);
    f->cloth2 = PICK(CLOTH, &ur);
    f->metal = PICK(METAL, &ur);
    f->skin = PICK(SKIN, &ur);
    f->coat = PICK(COAT, &ur);
    f->wood = (cvs_colour){120, 85, 50};
    f->cloak = ds_rnd(&ur) < 0.4;
}

/* The model's own base (a character's may differ from its unit's). */
static void model_base(const roster_unit *u, const roster_model *rm, double *w, double *d)
{
    *w = rm->base_width > 0 ? rm->base_width : u->base_width;
    *d = rm->base_width > 0 ? rm->base_depth : u->base_depth;
}

/*
 * A figure as real miniatures stand (p->miniatures): feet in the middle of
 * the base on its own round footing, heroic bulk, a shield held out and
 * tilted, cloaks flaring; riders along a cavalry base, ogres on 40 mm, a
 * beast over most of a 50 mm or larger base. Seen from straight above a
 * man covers about two thirds of a 20 or 25 mm base (test render_minis).
 */
static void miniature_pose(ds_figure *f, const roster_unit *u, const roster_model *rm, const rules_model *m,
                           ds_rng *fr, base_vec2 *at)
{
    double w, d;
    model_base(u, rm, &w, &d);
    const double side = fmin(w, d);
    f->kind = w >= 50 ? DS_FIG_BEAST : w >= 40 ? DS_FIG_MONSTER : d >= 1.8 * w ? DS_FIG_CAVALRY : DS_FIG_INFANTRY;
    const double dy = ds_rnd_in(fr, -0.8, 0.8); /* drawn before x: DS_RND_ORDER */
    *at = base_v2_add(m->pos, base_v2(ds_rnd_in(fr, -0.8, 0.8), dy));
    const uint8_t red = (uint8_t)ds_rnd_in(fr, 70, 120); /* then green: DS_RND_ORDER */
    f->ground = (cvs_colour){red, (uint8_t)ds_rnd_in(fr, 60, 100), 45};
    switch (f->kind) {
    case DS_FIG_INFANTRY:
        f->height = ds_rnd_in(fr, 28, 34);
        f->bulk = 1.2 + 0.2 * side / 25;
        f->footing_r = ds_rnd_in(fr, 0.37, 0.43) * side * (0.8 + 0.2 * side / 20);
        f->shield_tilt = ds_rnd_in(fr, 0.3, 0.8);
        if (f->cloak && ds_rnd(fr) < 0.6)
            f->cloak = 2;
        break;
    case DS_FIG_CAVALRY:
        f->height = 45 * d / 50 * ds_rnd_in(fr, 0.95, 1.08);
        f->bulk = 1.2;
        f->shield_tilt = ds_rnd_in(fr, 0.2, 0.6);
        break;
    case DS_FIG_MONSTER:
        f->height = ds_rnd_in(fr, 40, 48);
        f->bulk = 2.1;
        f->footing_r = ds_rnd_in(fr, 0.36, 0.42) * side;
        f->shield_tilt = ds_rnd_in(fr, 0.3, 0.8);
        break;
    case DS_FIG_BEAST:
        f->length = d * ds_rnd_in(fr, 0.9, 1.0), f->width = w * ds_rnd_in(fr, 0.85, 1.0);
        f->height = 0.6 * f->length;
        f->wings = ds_rnd(fr) < 0.5;
        f->weapon = DS_WEAPON_NONE;
        break;
    }
}

static int real_figure(ds_canvas *c, const rules_model *m, const roster_model *rm, const roster_file *roster,
                       const ds_render_params *p, double ground, int shadows_only)
{
    const roster_unit *u = &roster->units[rm->unit];
    ds_figure f;
    unit_look(p, u, rm->unit, &f);
    ds_rng fr = {.s = p->seed * 131ull + (uint64_t)rm->tag_id * 977ull};
    const double h = ground + u->mount.height;
    f.height = ds_rnd_in(&fr, p->figure_min_mm, p->figure_max_mm) * (f.kind == DS_FIG_MONSTER ? 1.25 : 1);
    if (f.kind == DS_FIG_CAVALRY)
        f.height *= 1.4;  /* a rider's head is higher than a man's */
    base_vec2 at = base_v2_add(m->pos, base_v2_rot(base_v2(figure_offset(u), 0), m->facing));
    if (p->miniatures)
        miniature_pose(&f, u, rm, m, &fr, &at);
    f.foot[0] = at.x, f.foot[1] = at.y, f.foot[2] = h;
    f.facing = m->facing + ds_rnd_in(&fr, -0.35, 0.35);
    /* Posed miniatures lean, most often forward. */
    f.lean = base_deg_to_rad(p->figure_lean_max_deg) * sqrt(ds_rnd(&fr));
    f.lean_dir = m->facing + ds_rnd_in(&fr, -1.2, 1.2); /* then the draw for backwards: DS_RND_ORDER */
    f.lean_dir += ds_rnd(&fr) < 0.2 ? BASE_PI : 0;
    f.stride = ds_rnd_in(&fr, -1, 1);
    f.weapon_elev = base_deg_to_rad(rm->rank > 0 ? ds_rnd_in(&fr, 20, 60) : ds_rnd_in(&fr, 55, 88));
    if (rm->rank == 0 && rm->file == 1 && f.kind != DS_FIG_MONSTER && f.kind != DS_FIG_BEAST)
        f.weapon = DS_WEAPON_BANNER;  /* the standard bearer */
    f.cloth = vary(f.cloth, &fr, 0.08), f.skin = vary(f.skin, &fr, 0.1);
    if (!p->weapons)
        f.weapon = DS_WEAPON_NONE;
    if (p->figures_one_colour) {
        const cvs_colour magenta = {255, 0, 255};
        f.skin = f.cloth = f.cloth2 = f.metal = f.wood = f.coat = f.ground = magenta;
    }
    ds_solid s[DS_FIGURE_MAX_SOLIDS];
    int n = ds_figure_solids(&f, s, DS_FIGURE_MAX_SOLIDS);
    if (shadows_only) {
        c->ground_mm = ground;
        const int rc = ds_solids_shadow(c, s, n, p->lamp, 400, 0.8);
        c->ground_mm = 0;
        return rc;
    }
    return ds_solids_draw(c, s, n, DS_OCC_FIGURE, p->lamp);
}

/* A hand at `place`, its arm from the player standing at the nearest long edge. */
static void real_hand(const roster_file *roster, const ds_hand_place *place, ds_rng *r, ds_hand *h)
{
    memset(h, 0, sizeof *h);
    h->palm[0] = place->x, h->palm[1] = place->y, h->palm[2] = place->height;
    const int near_side = place->y < roster->board_depth / 2;
    const double edge_y = near_side ? -260 : roster->board_depth + 260;
    h->shoulder[0] = place->x + ds_rnd_in(r, -260, 260);
    h->shoulder[1] = edge_y;
    h->shoulder[2] = ds_rnd_in(r, 380, 480);
    h->dir = atan2(place->y - h->shoulder[1], place->x - h->shoulder[0]) + ds_rnd_in(r, -0.4, 0.4);
    h->curl = place->curl;
    h->scale = ds_rnd_in(r, 0.9, 1.12);
    static const cvs_colour HUMAN[] = {{230, 188, 160}, {205, 155, 120}, {160, 112, 80}, {105, 72, 50}};
    h->skin = vary(PICK(HUMAN, r), r, 0.08);
    static const cvs_colour SLEEVE[] = {{40, 45, 60}, {150, 30, 40}, {200, 200, 200}, {60, 90, 50}, {30, 30, 30}};
    h->sleeve = PICK(SLEEVE, r);
}

static int real_hands(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster, const ds_render_params *p)
{
    size_t n_models = 0;
    for (size_t u = 0; u < snap->n_units; u++)
        n_models += snap->units[u].n_models;
    ds_rng r = {.s = (p->frame_seed ? p->frame_seed : p->seed) * 48271ull + 29};
    const int n = p->n_hand_at > 0 ? p->n_hand_at : p->hands;
    for (int i = 0; i < n && i < DS_MAX_HANDS; i++) {
        ds_hand_place place;
        if (p->n_hand_at > 0) {
            place = p->hand_at[i];
        } else {
            /* Players reach over the table, mostly over their units: moving, measuring, pointing. */
            place.x = ds_rnd_in(&r, 0.05, 0.95) * roster->board_width;
            place.y = ds_rnd_in(&r, 0.05, 0.95) * roster->board_depth;
            if (n_models > 0 && ds_rnd(&r) < 0.75) {
                size_t k = (size_t)(ds_rnd(&r) * n_models) % n_models;
                for (size_t u = 0; u < snap->n_units; u++) {
                    if (k < snap->units[u].n_models) {
                        place.x = snap->units[u].models[k].pos.x + ds_rnd_in(&r, -40, 40);
                        place.y = snap->units[u].models[k].pos.y + ds_rnd_in(&r, -40, 40);
                        break;
                    }
                    k -= snap->units[u].n_models;
                }
            }
            place.height = ds_rnd(&r) < 0.4 ? ds_rnd_in(&r, 45, 70) : ds_rnd_in(&r, 70, 220);
            place.curl = ds_rnd_in(&r, 0, 1);
        }
        ds_hand h;
        real_hand(roster, &place, &r, &h);
        ds_solid s[DS_HAND_MAX_SOLIDS];
        int k = ds_hand_solids(&h, s, DS_HAND_MAX_SOLIDS);
        if (p->shadows && ds_solids_shadow(c, s, k, p->lamp, 400, 0.62) < 0)
            return -1;
        if (ds_solids_draw(c, s, k, DS_OCC_HAND, p->lamp) < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- both */

typedef struct fig_order {
    double dist;
    size_t unit, model;
    double ground;  /* the surface under its base */
} fig_order;
static int cmp_far_first(const void *a, const void *b)
{
    const fig_order *x = a, *y = b;
    return (x->dist < y->dist) - (x->dist > y->dist);
}

int ds_draw_figures(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster, const ds_render_params *p)
{
    return ds_draw_figures_level(c, snap, roster, p, DS_LEVEL_ALL);
}

/* The masts of the models on this level (ds_marks.h), far ones first, over the figures. */
static int draw_masts(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster, const ds_render_params *p,
                      ds_level level)
{
    if (roster->n_marks == 0)
        return 0;
    const int is41 = strcmp(roster->family, "tagStandard41h12") == 0;
    apriltag_family_t *fam = is41 ? tagStandard41h12_create() : tag36h11_create();
    fig_order *order = calloc(roster->n_marks, sizeof *order);
    ds_mast_mark *masts = calloc(roster->n_marks, sizeof *masts);
    size_t n = 0;
    int rc = fam && order && masts ? 0 : base_error_set(c->err, "render: out of memory");
    for (size_t k = 0; rc == 0 && k < roster->n_marks; k++) {
        if (!ds_marks_mast_on(snap, roster, k, p->seed, &masts[n]))
            continue; /* the carrier is not on the table */
        const base_vec2 at = masts[n].base_centre;
        const bool raised = ds_terrain_drawn_raised(c, snap, at, masts[n].base_top);
        if ((level == DS_LEVEL_BOARD && raised) || (level == DS_LEVEL_RAISED && !raised))
            continue;
        order[n] = (fig_order){ds_hypot(at.x - c->cam.centre[0], at.y - c->cam.centre[1]), n, 0, 0};
        n++;
    }
    if (rc == 0)
        qsort(order, n, sizeof *order, cmp_far_first);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = ds_marks_draw_mast(c, fam, &masts[order[i].unit]);
    free(order);
    free(masts);
    if (fam)
        (is41 ? tagStandard41h12_destroy : tag36h11_destroy)(fam);
    return rc;
}

int ds_draw_figures_level(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster,
                          const ds_render_params *p, ds_level level)
{
    if (!p->figures)
        return draw_masts(c, snap, roster, p, level);
    size_t n = 0;
    for (size_t ui = 0; ui < snap->n_units; ui++)
        n += snap->units[ui].n_models;
    fig_order *order = calloc(n + 1, sizeof *order);
    if (!order)
        return base_error_set(c->err, "render: out of memory");
    n = 0;
    for (size_t ui = 0; ui < snap->n_units; ui++)
        for (size_t mi = 0; mi < snap->units[ui].n_models; mi++) {
            const rules_model *m = &snap->units[ui].models[mi];
            const double ground = ds_terrain_height(snap, m->pos);
            const roster_model *rm = ds_roster_model(roster, m->id);
            const bool raised = rm && ds_terrain_drawn_raised(c, snap, m->pos, roster->units[rm->unit].mount.height);
            if ((level == DS_LEVEL_BOARD && raised) || (level == DS_LEVEL_RAISED && !raised))
                continue;
            order[n++] = (fig_order){ds_hypot(m->pos.x - c->cam.centre[0], m->pos.y - c->cam.centre[1]), ui, mi, ground};
        }
    qsort(order, n, sizeof *order, cmp_far_first);
    int rc = 0;
    /* Shadows first, so no figure is darkened by its own. */
    for (int pass = p->style == DS_STYLE_REAL && p->shadows ? 0 : 1; pass < 2 && rc == 0; pass++)
        for (size_t i = 0; i < n && rc == 0; i++) {
            const rules_model *m = &snap->units[order[i].unit].models[order[i].model];
            const roster_model *rm = ds_roster_model(roster, m->id);
            if (!rm)
                continue;
            if (p->style == DS_STYLE_REAL)
                rc = real_figure(c, m, rm, roster, p, order[i].ground, pass == 0);
            else
                rc = classic_figure(c, m, rm->tag_id, order[i].ground + roster->units[rm->unit].mount.height, p);
        }
    free(order);
    return rc < 0 ? rc : draw_masts(c, snap, roster, p, level);
}

int ds_draw_hands(ds_canvas *c, const rules_snapshot *snap, const roster_file *roster, const ds_render_params *p,
                  ds_rng *r)
{
    return p->style == DS_STYLE_REAL ? real_hands(c, snap, roster, p) : classic_hands(c, roster, p, r);
}
