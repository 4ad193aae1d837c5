/* ref_plausible: is a judged pair of pictures plausible as a move? (see the header) */
#include "ref_plausible.h"

#include <math.h>
#include <string.h>

/* The unit's centre (mean of its bases) and facing (circular mean). False for an empty unit. */
static bool unit_centre(const rules_unit *u, base_vec2 *centre, double *facing)
{
    if (!u || !u->n_models)
        return false;
    double x = 0, y = 0, c = 0, s = 0;
    for (size_t i = 0; i < u->n_models; i++) {
        x += u->models[i].pos.x, y += u->models[i].pos.y;
        c += cos(u->models[i].facing), s += sin(u->models[i].facing);
    }
    *centre = base_v2(x / (double)u->n_models, y / (double)u->n_models);
    *facing = atan2(s, c);
    return true;
}

bool ref_plausible_all_backwards(const rules_snapshot *before, const rules_snapshot *after, size_t *moved)
{
    size_t n_moved = 0, n_back = 0;
    for (size_t i = 0; i < before->n_units; i++) {
        const rules_unit *ub = &before->units[i], *ua = rules_snapshot_find_unit(after, ub->id);
        base_vec2 cb, ca;
        double fb, fa;
        if (!unit_centre(ub, &cb, &fb) || !unit_centre(ua, &ca, &fa))
            continue;
        base_vec2 d = base_v2(ca.x - cb.x, ca.y - cb.y);
        double len = hypot(d.x, d.y);
        if (len < REF_PLAUSIBLE_MOVED_MM)
            continue;
        n_moved++;
        /* Behind where it faced before and where it faces after: a wheel forwards moves the centre ahead of
         * both, the same wheel played backwards behind both. */
        if (d.x * cos(fb) + d.y * sin(fb) < 0 && d.x * cos(fa) + d.y * sin(fa) < 0)
            n_back++;
    }
    if (moved)
        *moved = n_moved;
    return n_moved > 0 && n_back == n_moved;
}
