#include "rules_table.h"

#include <stdlib.h>
#include <string.h>

rules_aabb rules_aabb_of_poly(const base_vec2 *p, size_t n)
{
    rules_aabb b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < n; i++) {
        b.x0 = fmin(b.x0, p[i].x);
        b.y0 = fmin(b.y0, p[i].y);
        b.x1 = fmax(b.x1, p[i].x);
        b.y1 = fmax(b.y1, p[i].y);
    }
    return b;
}

rules_aabb rules_aabb_of_obb(const base_obb *b)
{
    /* half extents of a rotated rectangle, without building its corners */
    double c = fabs(cos(b->heading)), s = fabs(sin(b->heading));
    double hx = 0.5 * (b->width * s + b->depth * c), hy = 0.5 * (b->width * c + b->depth * s);
    return (rules_aabb){b->centre.x - hx, b->centre.y - hy, b->centre.x + hx, b->centre.y + hy};
}

double rules_aabb_dist2(const rules_aabb *a, const rules_aabb *b)
{
    double dx = fmax(0.0, fmax(a->x0 - b->x1, b->x0 - a->x1));
    double dy = fmax(0.0, fmax(a->y0 - b->y1, b->y0 - a->y1));
    return dx * dx + dy * dy;
}

/* ---- id map: FNV-1a, open addressing ---------------------------------------- */

static uint64_t hash_id(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int build_ids(rules_table *t)
{
    size_t n = t->s->n_units, cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    t->slots = calloc(cap, sizeof *t->slots);
    if (!t->slots)
        return -1;
    t->n_slots = cap;
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)hash_id(t->s->units[i].id) & (cap - 1);
        while (t->slots[k])
            k = (k + 1) & (cap - 1);
        t->slots[k] = i + 1;
    }
    return 0;
}

size_t rules_table_find(const rules_table *t, const char *id)
{
    if (!t->n_slots)
        return RULES_TABLE_NONE;
    size_t k = (size_t)hash_id(id) & (t->n_slots - 1);
    for (; t->slots[k]; k = (k + 1) & (t->n_slots - 1))
        if (strcmp(t->s->units[t->slots[k] - 1].id, id) == 0)
            return t->slots[k] - 1;
    return RULES_TABLE_NONE;
}

/* Sides as small integers: the index of the first unit with the same side. */
static void intern_sides(rules_table *t)
{
    const size_t n = t->s->n_units;
    for (size_t i = 0; i < n; i++) {
        t->side[i] = (int)i;
        for (size_t k = 0; k < i; k++) /* sides are few: the scan stops at the first of each */
            if (t->side[k] == (int)k && strcmp(t->s->units[k].side, t->s->units[i].side) == 0) {
                t->side[i] = (int)k;
                break;
            }
    }
}

/* ---- grid ------------------------------------------------------------------ */

static int clampi(double v, int lo, int hi)
{
    if (!(v > lo)) /* also NaN */
        return lo;
    return v > hi ? hi : (int)v;
}

static void cell_range(const rules_table *t, const rules_aabb *b, int r[4])
{
    r[0] = clampi(floor((b->x0 - t->gx0) / t->cell), 0, t->nx - 1);
    r[1] = clampi(floor((b->y0 - t->gy0) / t->cell), 0, t->ny - 1);
    r[2] = clampi(floor((b->x1 - t->gx0) / t->cell), 0, t->nx - 1);
    r[3] = clampi(floor((b->y1 - t->gy0) / t->cell), 0, t->ny - 1);
}

static int build_grid(rules_table *t)
{
    const size_t n = t->s->n_units;
    rules_aabb all = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < n; i++) {
        all.x0 = fmin(all.x0, t->box[i].x0);
        all.y0 = fmin(all.y0, t->box[i].y0);
        all.x1 = fmax(all.x1, t->box[i].x1);
        all.y1 = fmax(all.y1, t->box[i].y1);
    }
    if (n == 0)
        all = (rules_aabb){0, 0, 1, 1};
    /* About one unit per cell, never finer than 50 mm nor coarser than needed for 4096 cells. */
    double w = fmax(all.x1 - all.x0, 1.0), d = fmax(all.y1 - all.y0, 1.0);
    t->cell = fmax(50.0, fmax(sqrt(w * d / (double)(n ? n : 1)), sqrt(w * d / 4096.0)));
    t->gx0 = all.x0;
    t->gy0 = all.y0;
    t->nx = (int)fmin(4096, floor(w / t->cell) + 1);
    t->ny = (int)fmin(4096, floor(d / t->cell) + 1);
    const size_t cells = (size_t)t->nx * (size_t)t->ny;
    t->cell_start = calloc(cells + 1, sizeof *t->cell_start);
    t->cell_range = malloc((n ? n : 1) * 4 * sizeof *t->cell_range);
    if (!t->cell_start || !t->cell_range)
        return -1;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int *r = &t->cell_range[4 * i];
        cell_range(t, &t->box[i], r);
        for (int y = r[1]; y <= r[3]; y++)
            for (int x = r[0]; x <= r[2]; x++)
                t->cell_start[(size_t)y * t->nx + x + 1]++;
        total += (size_t)(r[2] - r[0] + 1) * (size_t)(r[3] - r[1] + 1);
    }
    for (size_t c = 0; c < cells; c++)
        t->cell_start[c + 1] += t->cell_start[c];
    t->cell_items = malloc((total ? total : 1) * sizeof *t->cell_items);
    size_t *fill = malloc((cells ? cells : 1) * sizeof *fill);
    if (!t->cell_items || !fill) {
        free(fill);
        return -1;
    }
    memcpy(fill, t->cell_start, cells * sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        const int *r = &t->cell_range[4 * i];
        for (int y = r[1]; y <= r[3]; y++)
            for (int x = r[0]; x <= r[2]; x++)
                t->cell_items[fill[(size_t)y * t->nx + x]++] = i;
    }
    free(fill);
    return 0;
}

size_t rules_table_near(const rules_table *t, const rules_aabb *q, double reach, size_t *out, size_t cap)
{
    rules_aabb grown = {q->x0 - reach, q->y0 - reach, q->x1 + reach, q->y1 + reach};
    int r[4];
    cell_range(t, &grown, r);
    const double reach2 = reach * reach;
    size_t n = 0;
    for (int y = r[1]; y <= r[3]; y++)
        for (int x = r[0]; x <= r[2]; x++) {
            size_t c = (size_t)y * t->nx + x;
            for (size_t k = t->cell_start[c]; k < t->cell_start[c + 1]; k++) {
                size_t i = t->cell_items[k];
                const int *ir = &t->cell_range[4 * i];
                /* an item spanning several cells is reported from the first cell both ranges share */
                if (x != (ir[0] > r[0] ? ir[0] : r[0]) || y != (ir[1] > r[1] ? ir[1] : r[1]))
                    continue;
                if (rules_aabb_dist2(&t->box[i], q) > reach2)
                    continue;
                if (n < cap)
                    out[n] = i;
                n++;
            }
        }
    return n;
}

/* ---- the table ----------------------------------------------------------- */

/* The unit stands exactly as `o`: same base, same models in the same order and places. */
static bool unchanged(const rules_unit *u, const rules_unit *o)
{
    if (u->n_models != o->n_models || u->base_width != o->base_width || u->base_depth != o->base_depth)
        return false;
    for (size_t j = 0; j < u->n_models; j++) {
        const rules_model *a = &u->models[j], *b = &o->models[j];
        if (a->pos.x != b->pos.x || a->pos.y != b->pos.y || a->facing != b->facing || strcmp(a->id, b->id) != 0)
            return false;
    }
    return true;
}

void rules_table_clear(rules_table *t)
{
    free(t->fits);
    free(t->status);
    free(t->side);
    free(t->box);
    free(t->corners);
    free(t->terrain_box);
    free(t->slots);
    free(t->cell_start);
    free(t->cell_items);
    free(t->cell_range);
    memset(t, 0, sizeof *t);
}

int rules_table_build(rules_table *t, const rules_snapshot *s, const rules_formation_params *fp,
                      const rules_table *same_as, base_error *err)
{
    memset(t, 0, sizeof *t);
    t->s = s;
    const size_t n = s->n_units ? s->n_units : 1;
    t->fits = calloc(n, sizeof *t->fits);
    t->status = calloc(n, sizeof *t->status);
    t->side = calloc(n, sizeof *t->side);
    t->box = calloc(n, sizeof *t->box);
    t->corners = calloc(n, sizeof *t->corners);
    t->terrain_box = calloc(s->n_terrain ? s->n_terrain : 1, sizeof *t->terrain_box);
    if (!t->fits || !t->status || !t->side || !t->box || !t->corners || !t->terrain_box)
        goto oom;
    for (size_t i = 0; i < s->n_units; i++) {
        size_t k = same_as ? rules_table_find(same_as, s->units[i].id) : RULES_TABLE_NONE;
        if (k != RULES_TABLE_NONE && unchanged(&s->units[i], &same_as->s->units[k]))
            t->fits[i] = same_as->fits[k];
        else if (rules_formation_fit(&s->units[i], fp, &t->fits[i], NULL) < 0) {
            base_error_set(err, "unit %s has no models", s->units[i].id);
            rules_table_clear(t);
            return -1;
        }
        t->status[i] = rules_unit_status(&s->units[i]);
        base_obb_corners(&t->fits[i].boundary, t->corners[i]);
        t->box[i] = rules_aabb_of_poly(t->corners[i], 4);
    }
    for (size_t i = 0; i < s->n_terrain; i++)
        t->terrain_box[i] = rules_aabb_of_poly(s->terrain[i].points, s->terrain[i].n_points);
    intern_sides(t);
    if (build_ids(t) < 0 || build_grid(t) < 0)
        goto oom;
    return 0;
oom:
    rules_table_clear(t);
    return base_error_set(err, "out of memory");
}
