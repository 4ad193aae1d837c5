/*
 * roster_layout: `tableref tags layout`, the marks of a roster laid out from
 * its bases (roster.h, roster_layout_marks; the rim label's cells:
 * roster_mark.h).
 */
#include "roster.h"

#include <math.h>

double roster_square_tag_size(double width, double depth, bool round)
{
    const double end = 2.5, side = 0.8;
    const double avail = round ? (width - 2 * end) / sqrt(2.0) : fmin(width - 2 * side, depth - 2 * end);
    const double s = floor(avail / 1.25 * 2) / 2;
    return s > 50 ? 50 : s < 0 ? 0 : s;
}

/* The rim cell for a unit: its own base's, when every model's own base takes it too; 0 when none does. */
static double unit_cell(const roster_file *r, const roster_unit *u)
{
    const double cell = roster_rim_cell_for(u->base_width, u->base_depth, u->round_base);
    for (size_t k = 0; cell > 0 && k < u->n_models; k++) {
        const roster_model *m = &r->models[u->first_model + k];
        if (m->base_width > 0 && !roster_rim_fits(m->base_width, m->base_depth, cell))
            return 0;
    }
    return cell;
}

int roster_layout_marks(roster_file *r, bool redo, size_t *changed)
{
    *changed = 0;
    for (size_t i = 0; i < r->n_units; i++) {
        roster_unit *u = &r->units[i];
        if ((u->layout_given && !redo) || !(u->base_width > 0))
            continue;
        const double cell = unit_cell(r, u);
        roster_tag_mount *m = &u->mount;
        if (cell > 0) {
            *m = (roster_tag_mount){base_v2(0, 0), 0, m->height, 0, ROSTER_MARK_RIM, cell};
        } else {
            const double size = m->size > 0 ? m->size : roster_square_tag_size(u->base_width, u->base_depth, u->round_base);
            *m = (roster_tag_mount){m->layout == ROSTER_MARK_SQUARE ? m->offset : base_v2(0, 0),
                                    m->layout == ROSTER_MARK_SQUARE ? m->rotation : 0, m->height, size,
                                    ROSTER_MARK_SQUARE, 0};
        }
        u->layout_given = true;
        (*changed)++;
    }
    return 0;
}
