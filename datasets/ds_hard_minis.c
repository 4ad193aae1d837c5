/*
 * ds_hard_minis: the miniatures set (ds_hard.h, ds_hard_minis_preset): real
 * bases, skirmishers standing apart, characters on their own bases, and the
 * marks the bases carry. Internal parts through ds_hard_parts.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ds_hard_parts.h"
#include "ds_math.h"

static const ds_hard_params MINIS[] = {
    /* seed, frame, board, height, tilt, tilt dir, k1, hands, models, palette, jitter, camera */
    {111, 4056, 3040, 1830, 1220, 1500, 10, 70, -0.18, 2, 250, 0, 0.3, DS_HARD_CAMERA_HQ12, 1, 0},
    {222, 4056, 3040, 1830, 1220, 1450, 14, 200, -0.25, 3, 250, 1, 0.3, DS_HARD_CAMERA_HQ12, 1, 0},
    {333, 4056, 3040, 1830, 1220, 1550, 7, 300, -0.12, 4, 250, 2, 0.3, DS_HARD_CAMERA_HQ12, 1, 0},
    {444, 3840, 2160, 1830, 1220, 1400, 10, 240, -0.22, 3, 250, 0, 0.3, DS_HARD_CAMERA_WEBCAM4K, 1, 0},
};

int ds_hard_minis_count(void) { return (int)(sizeof MINIS / sizeof MINIS[0]); }

void ds_hard_minis_preset(int k, ds_hard_marks marks, ds_hard_params *p)
{
    *p = MINIS[k >= 1 && k <= ds_hard_minis_count() ? k - 1 : 0];
    p->marks = marks;
}

const char *ds_hard_marks_name(ds_hard_marks m)
{
    return m == DS_HARD_MARKS_MAST    ? "rim labels and masts"
           : m == DS_HARD_MARKS_RIM   ? "rim labels"
           : m == DS_HARD_MARKS_SHEET ? "square tags as printed today"
                                      : "tags";
}

/* Ranked units on real bases; a tag entry is the hard set's (the marks are laid afterwards). */
static const unit_type TYPES[] = {
    {"infantry 20x20", 20, 20, 0, 0, 5, 8, 15, 30, 5, 10, 0.36},
    {"infantry 25x25", 25, 25, 0, 0, 4, 6, 10, 24, 5, 10, 0.26},
    {"cavalry 25x50", 25, 50, 0, 0, 3, 5, 5, 10, 8, 16, 0.14},
    {"monstrous infantry 40x40", 40, 40, 0, 0, 2, 3, 3, 6, 6, 12, 0.1},
    {"monster 50x100", 50, 100, 0, 0, 1, 1, 1, 1, 7, 14, 0.07},
    {"monster 50x50", 50, 50, 0, 0, 1, 1, 1, 1, 6, 12, 0.07},
};

const unit_type *ds_hard_minis_types(int *n)
{
    *n = (int)(sizeof TYPES / sizeof TYPES[0]);
    return TYPES;
}

/* A new unit of the roster and the truth snapshot; NULL when out of room or memory. */
static roster_unit *new_unit(ds_hard_table *t, int army, int index, const char *kind, double w, double d,
                             double adv_in, double march_in, rules_unit **su)
{
    roster_file *ro = t->scene->roster;
    roster_unit *u = &ro->units[ro->n_units];
    memset(u, 0, sizeof *u);
    snprintf(u->id, sizeof u->id, "%s-%d", army ? "blue" : "red", index);
    snprintf(u->side, sizeof u->side, "%s", army ? "blue" : "red");
    u->base_width = w, u->base_depth = d;
    u->advance_rate = base_in_to_mm(adv_in), u->march_rate = base_in_to_mm(march_in);
    u->mobility = NAN;
    u->first_model = ro->n_models;
    t->kind[ro->n_units] = kind;
    t->align[ro->n_units] = DS_RANK_FULL;
    if (!(*su = rules_snapshot_add_unit(t->scene->snapshot, u->id, u->side)))
        return NULL;
    (*su)->base_width = w, (*su)->base_depth = d;
    (*su)->advance_rate = u->advance_rate, (*su)->march_rate = u->march_rate, (*su)->mobility = u->mobility;
    ro->n_units++;
    return u;
}

static int add_model(ds_hard_table *t, roster_unit *u, rules_unit *su, int *tag, base_vec2 pos, double facing)
{
    roster_file *ro = t->scene->roster;
    roster_model *rm = &ro->models[ro->n_models];
    memset(rm, 0, sizeof *rm);
    snprintf(rm->id, sizeof rm->id, "%.40s-%zu", u->id, u->n_models + 1);
    rm->tag_id = (*tag)++;
    rm->unit = (size_t)(u - ro->units);
    rm->file = (int)u->n_models, rm->rank = 0;
    t->slots[ro->n_models] = (ds_hard_slot){(double)u->n_models, 0};
    if (!rules_unit_add_model(su, rm->id, pos, facing))
        return -1;
    ro->n_models++;
    u->n_models++;
    u->files = (int)u->n_models;
    return 0;
}

/* Models scattered in a spot as skirmishers stand: bases apart, each within 2" of another. */
static int scatter(ds_hard_table *t, roster_unit *u, rules_unit *su, const base_obb *spot, int n, ds_rng *r, int *tag)
{
    const double diag = ds_hypot(u->base_width, u->base_depth), reach = base_in_to_mm(2);
    base_vec2 at[16];
    int k = 0;
    for (int attempt = 0; attempt < 4000 && k < n; attempt++) {
        const double ly = ds_rnd_in(r, -0.5, 0.5) * (spot->depth - diag); /* drawn before x: DS_RND_ORDER */
        const base_vec2 local = base_v2(ds_rnd_in(r, -0.5, 0.5) * (spot->width - diag), ly);
        const base_vec2 p = base_v2_add(spot->centre, base_v2_rot(local, spot->heading - BASE_PI / 2));
        int ok = 1, near = k == 0;
        for (int i = 0; i < k && ok; i++) {
            const double dd = base_v2_dist(p, at[i]);
            ok = dd > diag + 4;
            near |= dd < reach;
        }
        if (ok && near)
            at[k++] = p;
    }
    for (int i = 0; i < k; i++)
        if (add_model(t, u, su, tag, at[i], base_angle_wrap(spot->heading + ds_rnd_in(r, -0.45, 0.45))) < 0)
            return -1;
    return k;
}

int ds_hard_minis_loose(ds_hard_table *t, const ds_hard_params *p, int army, int *index, placed_unit *placed,
                        int *n_placed, ds_rng *r, int *tag, base_error *err)
{
    /* Characters: on foot (20 or 25 mm), mounted (25x50), on a monster (50x50). */
    static const struct { const char *kind; double w, d; } CHAR[] = {
        {"character 20x20", 20, 20}, {"character 25x25", 25, 25}, {"character 25x50", 25, 50}, {"character 50x50", 50, 50}};
    const int n_char = 2, n_skirm = 1;
    for (int c = 0; c < n_skirm + n_char; c++) {
        const int skirm = c < n_skirm;
        const int pick = skirm ? ds_hard_rnd_int(r, 0, 1) : ds_hard_rnd_int(r, 0, 3);
        const double w = skirm ? (pick ? 25 : 20) : CHAR[pick].w, d = skirm ? w : CHAR[pick].d;
        const int n = skirm ? ds_hard_rnd_int(r, 5, 8) : 1;
        base_obb spot, kept;
        const double fw = skirm ? 160 : w, fd = skirm ? 110 : d;
        if (!ds_hard_find_spot(t, p, army, fw, fd, placed, *n_placed, 0, r, &spot, &kept))
            continue;
        rules_unit *su;
        roster_unit *u = new_unit(t, army, (*index)++, skirm ? (pick ? "skirmishers 25x25" : "skirmishers 20x20")
                                                             : CHAR[pick].kind, w, d, 4, 8, &su);
        if (!u)
            return base_error_set(err, "out of memory");
        placed[*n_placed].box = kept;
        placed[(*n_placed)++].margin = 0;
        u->loose = skirm;
        u->character = !skirm;
        if (skirm ? scatter(t, u, su, &spot, n, r, tag) < 0
                  : add_model(t, u, su, tag, spot.centre, spot.heading) < 0)
            return base_error_set(err, "out of memory");
    }
    return 0;
}

void ds_hard_minis_marks(ds_hard_table *t, const ds_hard_params *p, ds_rng *r)
{
    roster_file *ro = t->scene->roster;
    for (size_t i = 0; i < ro->n_units; i++) {
        roster_unit *u = &ro->units[i];
        const double h = ds_rnd_in(r, 3, 5);
        u->mount = (roster_tag_mount){base_v2(0, 0), 0, h, roster_square_tag_size(u->base_width, u->base_depth, false),
                                      ROSTER_MARK_SQUARE, 0};
        u->layout_given = false;
    }
    if (p->marks == DS_HARD_MARKS_RIM || p->marks == DS_HARD_MARKS_MAST) {
        size_t changed;
        const roster_layout_options o = {true, p->marks == DS_HARD_MARKS_RIM, 0, ROSTER_LAYOUT_SKIP_LO,
                                         ROSTER_LAYOUT_SKIP_HI};
        roster_layout_marks_with(ro, &o, &changed, NULL);
    }
}
