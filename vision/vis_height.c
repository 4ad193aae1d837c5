/* vis_height: every unit's height cross-checked with its tags' apparent size (see the header). */
#include "vis_height.h"

#include <math.h>
#include <stdlib.h>

/* One tag's height noise from its corners' (px, 1 sigma), by the detector's measurement: size = the mean of
 * its two edge pairs, each corner's noise entering it with weight 1/2, so sigma(size) ~ 0.7 corner / edge. */
#define CORNER_NOISE_PX 0.1

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[n] (sorted in place). */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One tag's height noise (1 sigma, mm) at height z for a tag of `size_mm` at board point p. */
static double tag_noise_mm(const vis_camera *cam, base_vec2 p, double z, double size_mm)
{
    const double X[3] = {p.x, p.y, z}, Y[3] = {p.x + size_mm, p.y, z};
    double a[2], b[2];
    if (!vis_camera_project(cam, X, a) || !vis_camera_project(cam, Y, b))
        return NAN;
    const double edge_px = hypot(b[0] - a[0], b[1] - a[1]);
    const double dist = sqrt(pow(p.x - cam->centre[0], 2) + pow(p.y - cam->centre[1], 2) + pow(z - cam->centre[2], 2));
    return edge_px > 0 ? dist * 0.7 * CORNER_NOISE_PX / edge_px : NAN;
}

void vis_height_measure(const vis_detector *d, const vis_camera *cam, const vis_seen_model *seen, size_t ui,
                        vis_height_unit *h)
{
    const roster_map_unit *ru = &d->map->units[ui];
    *h = (vis_height_unit){0, NAN, NAN, NAN, NAN, false};
    double *v = malloc(4 * (ru->n_models ? ru->n_models : 1) * sizeof *v);
    if (!v)
        return;
    double *off = v, *seen_z = v + ru->n_models, *table_z = v + 2 * ru->n_models, *noise = v + 3 * ru->n_models;
    size_t n = 0;
    for (size_t k = 0; k < ru->n_models; k++) {
        const vis_seen_model *s = &seen[ru->first_model + k];
        if (!s->seen || !s->sized || !isfinite(s->apparent_z))
            continue;
        off[n] = s->apparent_z - s->tag_z;
        seen_z[n] = s->apparent_z - ru->mount.height;
        table_z[n] = s->tag_z - ru->mount.height;
        noise[n] = tag_noise_mm(cam, s->pos, s->tag_z, ru->mount.size);
        n++;
    }
    h->tags = n;
    if (n) {
        h->offset_mm = median(off, n);
        for (size_t k = 0; k < n; k++)
            off[k] = fabs(off[k] - h->offset_mm);
        const double spread = n >= 3 ? 1.4826 * median(off, n) : 0, floor = median(noise, n);
        /* The median's standard error: sqrt(pi / 2) of the mean's. */
        h->se_mm = 1.2533 * fmax(spread, isfinite(floor) ? floor : 0) / sqrt((double)n);
        h->seen_mm = median(seen_z, n);
        h->table_mm = median(table_z, n);
        h->unsettled = d->cfg.height_sigmas > 0 && fabs(h->offset_mm) > d->cfg.height_min_mm &&
                       fabs(h->offset_mm) > d->cfg.height_sigmas * h->se_mm;
    }
    free(v);
}

void vis_height_check(const vis_detector *d, const vis_camera *cam, const vis_seen_model *seen, rules_snapshot *s,
                      vis_report *rep)
{
    const roster_map *r = d->map;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        rules_unit *u = rules_snapshot_find_unit(s, r->units[ui].id);
        if (!u)
            continue;
        vis_height_unit h;
        vis_height_measure(d, cam, seen, ui, &h);
        if (!h.unsettled)
            continue;
        u->height_seen_mm = h.seen_mm;
        u->height_table_mm = h.table_mm;
        vis_report_add_unit(rep, VIS_ISSUE_HEIGHT, u->id,
                            "unit %s: its tags read as standing %.0f mm up (+-%.0f), where the table's relief has "
                            "%.0f mm: a hill missing from the table file, a base raised on something, or tags "
                            "printed at another size? Its height is not settled: no call on its move",
                            u->id, h.seen_mm, 2 * h.se_mm, h.table_mm);
    }
}
