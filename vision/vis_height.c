/* vis_height: every unit's height cross-checked with its tags' apparent size (see the header). */
#include "vis_height.h"

#include "vis_board.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One tag's corner noise (px, 1 sigma) for the floor of a unit's spread: its edge is the mean of two edge
 * pairs, each corner entering with weight 1/2, so sigma(edge) ~ 0.7 corner. */
#define CORNER_NOISE_PX 0.1

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[n] (sorted in place); NAN when empty. */
static double median(double *v, size_t n)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool measured(const vis_seen_model *s)
{
    return s->seen && s->sized && isfinite(s->size_ratio) && s->size_ratio > 0 && s->edge_px > 0;
}

/* The bias of one measured tag: its edge were it where the table says, less its edge as read (px). */
static double tag_bias(double edge_px, double size_ratio) { return edge_px / size_ratio - edge_px; }

/* The board's vote: the median bias of its reference tags seen, each at its own height; NAN when none. */
static double board_vote(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *tags, size_t n)
{
    double *b = malloc((n ? n : 1) * sizeof *b);
    size_t k = 0;
    for (size_t i = 0; b && i < n; i++) {
        const roster_board_tag *bt = roster_map_find_board_tag(d->map, tags[i].id);
        vis_board_tag_pose p;
        if (bt && bt->size > 0 && vis_board_locate_tag(cam, &tags[i], bt->z, &p) && p.size_mm > 0)
            b[k++] = tag_bias(vis_tag_edge_px(&tags[i]), p.size_mm / bt->size);
    }
    const double vote = b && k ? median(b, k) : NAN;
    free(b);
    return vote;
}

double vis_height_bias(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *tags, size_t n,
                       const vis_seen_model *seen, size_t *votes)
{
    const roster_map *r = d->map;
    double *v = malloc((r->n_units + 1) * sizeof *v), *b = malloc((r->n_models ? r->n_models : 1) * sizeof *b);
    size_t nv = 0;
    for (size_t ui = 0; v && b && ui < r->n_units; ui++) {
        const roster_map_unit *ru = &r->units[ui];
        size_t k = 0;
        for (size_t m = 0; m < ru->n_models; m++) {
            const vis_seen_model *s = &seen[ru->first_model + m];
            if (measured(s))
                b[k++] = tag_bias(s->edge_px, s->size_ratio);
        }
        if (k)
            v[nv++] = median(b, k);
    }
    const double board = board_vote(d, cam, tags, n);
    double bias = NAN;
    if (v && b) {
        /* Two votes, the board's one of them: the board's, whose height and print the roster states. */
        if (isfinite(board) && nv == 1)
            bias = board;
        else {
            if (isfinite(board))
                v[nv++] = board;
            bias = nv ? median(v, nv) : NAN;
        }
    }
    if (votes)
        *votes = nv + (isfinite(board) && nv == 1);
    free(v);
    free(b);
    return bias;
}

double vis_height_apparent(const vis_camera *cam, const vis_seen_model *s, double bias_px)
{
    const double ratio = s->size_ratio * (1 + bias_px / s->edge_px), Cz = cam->centre[2];
    return Cz - (Cz - s->tag_z) / ratio;
}

void vis_height_measure(const vis_detector *d, const vis_camera *cam, const vis_seen_model *seen, double bias_px,
                        size_t ui, vis_height_unit *h)
{
    const roster_map_unit *ru = &d->map->units[ui];
    *h = (vis_height_unit){0, NAN, NAN, NAN, NAN, false};
    const size_t m = ru->n_models ? ru->n_models : 1;
    double *v = malloc(4 * m * sizeof *v);
    if (!v)
        return;
    double *off = v, *seen_z = v + m, *table_z = v + 2 * m, *noise = v + 3 * m;
    size_t n = 0;
    for (size_t k = 0; k < ru->n_models; k++) {
        const vis_seen_model *s = &seen[ru->first_model + k];
        if (!measured(s))
            continue;
        const double z = vis_height_apparent(cam, s, bias_px);
        off[n] = z - s->tag_z;
        seen_z[n] = z - ru->mount.height;
        table_z[n] = s->tag_z - ru->mount.height;
        /* One tag's height noise: its distance times its edge's relative noise. */
        noise[n] = (cam->centre[2] - s->tag_z) * 0.7 * CORNER_NOISE_PX / s->edge_px;
        n++;
    }
    h->tags = n;
    if (n) {
        h->offset_mm = median(off, n);
        for (size_t k = 0; k < n; k++)
            off[k] = fabs(off[k] - h->offset_mm);
        const double spread = n >= 3 ? 1.4826 * median(off, n) : 0, floor = median(noise, n);
        /* The median's standard error: sqrt(pi / 2) of the mean's. */
        h->se_mm = 1.2533 * fmax(spread, floor) / sqrt((double)n);
        h->seen_mm = median(seen_z, n);
        h->table_mm = median(table_z, n);
        h->unsettled = d->cfg.height_sigmas > 0 && fabs(h->offset_mm) > d->cfg.height_min_mm &&
                       fabs(h->offset_mm) > d->cfg.height_sigmas * h->se_mm;
    }
    free(v);
}

void vis_height_check(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *tags, size_t n,
                      const vis_seen_model *seen, rules_snapshot *s, vis_report *rep)
{
    const roster_map *r = d->map;
    size_t votes = 0;
    const double bias = vis_height_bias(d, cam, tags, n, seen, &votes);
    if (votes < 2) /* nothing to read a unit's tags against */
        return;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        rules_unit *u = rules_snapshot_find_unit(s, r->units[ui].id);
        if (!u)
            continue;
        vis_height_unit h;
        vis_height_measure(d, cam, seen, bias, ui, &h);
        if (h.tags) {
            vis_unit_height kept = {"", h.tags, h.seen_mm, h.se_mm, h.table_mm};
            snprintf(kept.unit, sizeof kept.unit, "%s", u->id);
            vis_report_add_height(rep, &kept);
        }
        if (!h.unsettled)
            continue;
        u->height_seen_mm = h.seen_mm;
        u->height_table_mm = h.table_mm;
        vis_report_add_unit(rep, VIS_ISSUE_HEIGHT, u->id,
                            "unit %s: its tags read as standing %.0f mm up (+-%.0f), where the table's relief has "
                            "%.0f mm: a hill missing from the table file, or a base raised on something? Its "
                            "height is not settled: no call on its move",
                            u->id, h.seen_mm, 2 * h.se_mm, h.table_mm);
    }
}
