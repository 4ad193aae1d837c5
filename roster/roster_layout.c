/*
 * roster_layout: `tableref tags layout`, the marks of a roster laid out from
 * its bases (roster.h, roster_layout_marks; the rim label's cells:
 * roster_mark.h), and the masts above the figures (roster_unit_mark).
 */
#include "roster.h"

#include <math.h>
#include <stdlib.h>

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

double roster_mast_size_for(double w, double d)
{
    return fmax(w, d) <= 25 ? 20 : fmin(w, d) < 50 ? 24 : 30;
}

double roster_mast_height_for(double w, double d)
{
    if (w >= 50)
        return fmax(63, 0.6 * d + 15);  /* a beast (ds_figures.c: 0.6 x its length, wings folded about it) */
    if (w >= 40)
        return 48 + 15;                 /* an ogre, 40 to 48 mm */
    if (d >= 1.8 * w)
        return 45 * d / 50 * 1.08 + 15;  /* a rider, 45 mm on a 50 mm base, up to 8% taller */
    return 34 + 15;                     /* a man, 28 to 34 mm */
}

/* The highest tag id the roster uses (board, models, marks); -1 when none. */
static int highest_id(const roster_file *r)
{
    int top = -1;
    for (size_t i = 0; i < r->n_board_tags; i++)
        top = r->board_tags[i].id > top ? r->board_tags[i].id : top;
    for (size_t i = 0; i < r->n_models; i++)
        top = r->models[i].tag_id > top ? r->models[i].tag_id : top;
    for (size_t i = 0; i < r->n_marks; i++)
        top = r->marks[i].tag_id > top ? r->marks[i].tag_id : top;
    return top;
}

/* The step between masts' ids: the options', or (0) 2 when every model's tag id has one parity (an army slot's,
 * `roster import`), else 1. */
static int id_step(const roster_file *r, const roster_layout_options *o)
{
    if (o->id_step > 0)
        return o->id_step;
    for (size_t i = 1; i < r->n_models; i++)
        if ((r->models[i].tag_id - r->models[0].tag_id) % 2 != 0)
            return 1;
    return r->n_models > 0 ? 2 : 1;
}

/* The next id a mast may take after `last`; -1 when the family has none left. */
static int next_id(const roster_file *r, const roster_layout_options *o, int last, int codes)
{
    const int step = id_step(r, o);
    int id = last + step;
    while (id >= o->skip_lo && id <= o->skip_hi)
        id += step;
    return id < codes ? id : -1;
}

/* Does every model of the unit carry a mast (a loose unit, a character, a monster, a lone model), or only the
 * front rank's first and last file of a ranked one? */
static bool mast_per_model(const roster_unit *u)
{
    return u->loose || u->character || u->base_width >= 40 || u->n_models == 1;
}

/* Masts for unit i; -1 with err when no id is left or out of memory. */
static int give_masts(roster_file *r, size_t i, const roster_layout_options *o, int *last, base_error *err)
{
    const roster_unit *u = &r->units[i];
    const int codes = roster_family_codes(r->family);
    const size_t files = u->files > 0 && (size_t)u->files <= u->n_models ? (size_t)u->files : u->n_models;
    size_t carriers[2], n = 0;
    if (!mast_per_model(u)) {
        carriers[n++] = 0;
        if (files > 1)
            carriers[n++] = files - 1;
    }
    const size_t count = mast_per_model(u) ? u->n_models : n;
    for (size_t c = 0; c < count; c++) {
        const size_t k = mast_per_model(u) ? c : carriers[c];
        const roster_model *m = &r->models[u->first_model + k];
        const double w = m->base_width > 0 ? m->base_width : u->base_width;
        const double d = m->base_width > 0 ? m->base_depth : u->base_depth;
        roster_unit_mark mk = {ROSTER_UNIT_MARK_MAST, i, u->first_model + k, next_id(r, o, *last, codes), {{0}}, 0};
        if (mk.tag_id < 0)
            return base_error_set(err, "units[%zu] (\"%s\"): no %s id left above %d for its mast", i, u->id,
                                  r->family, *last);
        mk.mount = (roster_tag_mount){base_v2(0, 0), 0, roster_mast_height_for(w, d), roster_mast_size_for(w, d),
                                      ROSTER_MARK_SQUARE, 0};
        /* Two files side by side: the two tags (a border wider than the base) lean apart so they do not touch. */
        if (n == 2 && files == 2) {
            const double apart = fmax(0, (mk.mount.size * 1.25 + 2 - u->base_width) / 2);
            mk.mount.offset = base_v2(0, c == 0 ? apart : -apart);
        }
        mk.sway = ROSTER_MAST_SWAY_PER_MM * mk.mount.height;
        if (roster_add_mark(r, &mk) < 0)
            return base_error_set(err, "out of memory");
        *last = mk.tag_id;
    }
    return 0;
}

/* Masts for every unit with a known base and no marks; the roster as it was when it fails. */
static int lay_out_masts(roster_file *r, const roster_layout_options *o, bool *given, base_error *err)
{
    const size_t before = r->n_marks;
    int last = highest_id(r);
    for (size_t i = 0; i < r->n_units; i++) {
        given[i] = false;
        if (!(r->units[i].base_width > 0) || r->units[i].n_models == 0 || roster_unit_mark_count(r, i) > 0)
            continue;
        if (give_masts(r, i, o, &last, err) < 0) {
            r->n_marks = before;
            return -1;
        }
        given[i] = true;
    }
    return 0;
}

int roster_layout_marks(roster_file *r, bool redo, size_t *changed)
{
    const roster_layout_options o = {redo, false, 0, ROSTER_LAYOUT_SKIP_LO, ROSTER_LAYOUT_SKIP_HI};
    return roster_layout_marks_with(r, &o, changed, NULL);
}

int roster_layout_marks_with(roster_file *r, const roster_layout_options *o, size_t *changed, base_error *err)
{
    *changed = 0;
    bool *given = calloc(r->n_units ? r->n_units : 1, sizeof *given);
    if (!given)
        return base_error_set(err, "out of memory");
    if (!o->no_masts && lay_out_masts(r, o, given, err) < 0) {
        free(given);
        return -1;
    }
    for (size_t i = 0; i < r->n_units; i++) {
        roster_unit *u = &r->units[i];
        if ((u->layout_given && !o->redo) || !(u->base_width > 0)) {
            *changed += given[i];
            continue;
        }
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
    free(given);
    return 0;
}
