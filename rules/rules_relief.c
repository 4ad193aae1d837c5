/* rules_relief: the height of the table's surface (see the header). */
#include "rules_relief.h"

#include <math.h>

/* Distance from p to a polygon's outline. */
static double outline_dist(const base_vec2 *poly, size_t n, base_vec2 p)
{
    double d = INFINITY;
    for (size_t i = 0; i < n; i++)
        d = fmin(d, base_seg_point_dist(poly[i], poly[(i + 1) % n], p));
    return d;
}

double rules_relief_piece_height(const rules_terrain *t, base_vec2 p)
{
    if (t->relief != RULES_RELIEF_HILL || !t->n_points)
        return -1;
    if (base_poly_contains(t->points, t->n_points, p))
        return t->height_mm;
    if (!t->foot || !base_poly_contains(t->foot, t->n_foot, p))
        return -1;
    /* On the slope: as far up as it is from the foot towards the top. */
    const double d_foot = outline_dist(t->foot, t->n_foot, p), d_top = outline_dist(t->points, t->n_points, p);
    return d_foot + d_top > 0 ? t->height_mm * d_foot / (d_foot + d_top) : 0;
}

double rules_relief_sigma(const rules_terrain *t)
{
    return isfinite(t->height_sigma_mm) ? t->height_sigma_mm : RULES_RELIEF_DEFAULT_SIGMA_MM;
}

double rules_relief_height(const rules_terrain *t, size_t n, base_vec2 p, double *sigma_mm)
{
    double h = 0, s = 0;
    for (size_t i = 0; i < n; i++) {
        const double hi = rules_relief_piece_height(&t[i], p);
        if (hi > h) {
            h = hi;
            /* A slope's height is a share of the top's: so is its uncertainty. */
            s = rules_relief_sigma(&t[i]) * hi / t[i].height_mm;
        }
    }
    if (sigma_mm)
        *sigma_mm = s;
    return h;
}

double rules_relief_top(const rules_terrain *t, size_t n)
{
    double top = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i].relief == RULES_RELIEF_HILL)
            top = fmax(top, t[i].height_mm);
    return top;
}

bool rules_relief_any(const rules_terrain *t, size_t n) { return rules_relief_top(t, n) > 0; }
