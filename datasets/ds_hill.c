/* ds_hill: hills on a rendered table (see the header). */
#include "ds_hill.h"
#include "ds_math.h"

#include <math.h>
#include <stdio.h>

void ds_hill_corners(const ds_hill *h, base_vec2 top[4], base_vec2 foot[4])
{
    const base_vec2 a = base_v2_dir(h->turn), b = base_v2(-a.y, a.x);
    static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; k++) {
        const double x = h->width / 2, y = h->depth / 2;
        top[k] = base_v2_add(h->centre, base_v2_add(base_v2_scale(a, sx[k] * x), base_v2_scale(b, sy[k] * y)));
        foot[k] = base_v2_add(h->centre, base_v2_add(base_v2_scale(a, sx[k] * (x + h->slope_mm)),
                                                     base_v2_scale(b, sy[k] * (y + h->slope_mm))));
    }
}

int ds_hill_add(rules_snapshot *s, const ds_hill *h)
{
    base_vec2 top[4], foot[4];
    ds_hill_corners(h, top, foot);
    rules_terrain *t = rules_snapshot_add_terrain(s, h->id, RULES_TERRAIN_OPEN, top, 4);
    if (!t)
        return -1;
    return rules_terrain_set_relief(t, RULES_RELIEF_HILL, h->height_mm, NAN, h->slope_mm > 0 ? foot : NULL,
                                    h->slope_mm > 0 ? 4 : 0);
}

static const base_vec2 *foot_of(const rules_terrain *t, size_t *n)
{
    *n = t->foot ? t->n_foot : t->n_points;
    return t->foot ? t->foot : t->points;
}

/* How far behind a hill (away from the camera) it hides the board: its height's parallax at its far side. */
static double hidden_behind(const rules_terrain *t, const double camera[3])
{
    size_t n;
    const base_vec2 *f = foot_of(t, &n);
    double r = 0;
    for (size_t i = 0; i < n; i++)
        r = fmax(r, ds_hypot(f[i].x - camera[0], f[i].y - camera[1]));
    return camera[2] > t->height_mm ? t->height_mm * r / (camera[2] - t->height_mm) : 0;
}

bool ds_hill_clear(const rules_snapshot *s, const double camera[3], const base_obb *b, double margin_mm)
{
    base_vec2 c[4];
    base_obb_corners(b, c);
    for (size_t i = 0; i < s->n_terrain; i++) {
        const rules_terrain *t = &s->terrain[i];
        if (t->relief != RULES_RELIEF_HILL)
            continue;
        size_t n;
        const base_vec2 *f = foot_of(t, &n);
        if (base_poly_dist(c, 4, f, n) < margin_mm + hidden_behind(t, camera))
            return false;
    }
    return true;
}

bool ds_hill_holds(const rules_terrain *t, const base_obb *b, double inset_mm)
{
    base_vec2 c[4];
    base_obb_corners(b, c);
    for (int k = 0; k < 4; k++) {
        if (!base_poly_contains(t->points, t->n_points, c[k]))
            return false;
        for (size_t i = 0; i < t->n_points; i++)
            if (base_seg_point_dist(t->points[i], t->points[(i + 1) % t->n_points], c[k]) < inset_mm)
                return false;
    }
    return true;
}

/* A hill of height h at random: its top 230-300 x 170-230 mm, its slope 20-40 mm, turned at random; the first
 * (`edge`) with its foot 40-80 mm from a long edge of the board. */
static ds_hill random_hill(const rules_snapshot *s, int k, double h, bool edge, ds_rng *r)
{
    ds_hill hl;
    snprintf(hl.id, sizeof hl.id, "hill-%d", k + 1);
    hl.width = ds_rnd_in(r, 230, 300), hl.depth = ds_rnd_in(r, 170, 230);
    hl.height_mm = h, hl.slope_mm = ds_rnd_in(r, 20, 40);
    const double W = s->board_width, D = s->board_depth;
    if (edge) {
        /* Square to the edge: its depth across it. */
        hl.turn = 0;
        const double off = hl.depth / 2 + hl.slope_mm + ds_rnd_in(r, 40, 80);
        const double y = ds_rnd(r) < 0.5 ? off : D - off; /* drawn before x: DS_RND_ORDER */
        hl.centre = base_v2(ds_rnd_in(r, 0.25, 0.75) * W, y);
    } else {
        hl.turn = ds_rnd_in(r, -0.8, 0.8);
        const double y = ds_rnd_in(r, 0.22, 0.78) * D; /* drawn before x: DS_RND_ORDER */
        hl.centre = base_v2(ds_rnd_in(r, 0.15, 0.85) * W, y);
    }
    return hl;
}

/* Is the hill on the board, off its corners (the board tags) and 150 mm from every other hill's foot? */
static bool hill_fits(const rules_snapshot *s, const ds_hill *h)
{
    base_vec2 top[4], foot[4];
    ds_hill_corners(h, top, foot);
    for (int k = 0; k < 4; k++) {
        const base_vec2 p = foot[k];
        if (p.x < 30 || p.y < 30 || p.x > s->board_width - 30 || p.y > s->board_depth - 30)
            return false;
        const bool near_x = p.x < 160 || p.x > s->board_width - 160, near_y = p.y < 160 || p.y > s->board_depth - 160;
        if (near_x && near_y)
            return false;
    }
    for (size_t i = 0; i < s->n_terrain; i++) {
        size_t n;
        const base_vec2 *f = foot_of(&s->terrain[i], &n);
        if (base_poly_dist(foot, 4, f, n) < 150)
            return false;
    }
    return true;
}

int ds_hill_layout(rules_snapshot *s, const double *heights, int n, ds_rng *r)
{
    /* The tallest goes near an edge: the worst parallax, where a referee reading a flat table errs most. */
    int tallest = 0;
    for (int k = 1; k < n; k++)
        if (heights[k] > heights[tallest])
            tallest = k;
    int placed = 0;
    for (int i = 0; i < n; i++) {
        const int k = i == 0 ? tallest : i <= tallest ? i - 1 : i;
        for (int attempt = 0; attempt < 400; attempt++) {
            const ds_hill h = random_hill(s, placed, heights[k], i == 0, r);
            if (!hill_fits(s, &h))
                continue;
            if (ds_hill_add(s, &h) < 0)
                return -1;
            placed++;
            break;
        }
    }
    return placed;
}
