/*
 * vis_rim_book: every rim layout of a roster and the codes of the models
 * that carry it (vis_rim.h), made once per detector.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vis_rim.h"

static void layout_clear(vis_rim_layout *L)
{
    roster_rim_clear(&L->rim);
    free(L->models);
    free(L->ids);
    free(L->pred);
    free(L->code_bit);
    memset(L, 0, sizeof *L);
}

void vis_rim_book_clear(vis_rim_book *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        layout_clear(&b->layouts[i]);
    free(b->layouts);
    free(b->layout_of);
    memset(b, 0, sizeof *b);
}

const vis_rim_layout *vis_rim_book_layout(const vis_rim_book *b, size_t model)
{
    return model < b->n_models && b->layout_of[model] >= 0 ? &b->layouts[b->layout_of[model]] : NULL;
}

/* The base a model stands on (its own, else its unit's). */
static void model_base(const roster_map *m, size_t i, double *w, double *d)
{
    const roster_map_model *mm = &m->models[i];
    const roster_map_unit *u = &m->units[mm->unit];
    *w = mm->base_width > 0 ? mm->base_width : u->base_width;
    *d = mm->base_width > 0 ? mm->base_depth : u->base_depth;
}

static int cmp_dbl(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fills layout L with the models of the map that carry it (their base and cell match its own). */
static int fill_layout(const vis_tag_detector *td, const roster_map *m, vis_rim_layout *L, long index,
                       long *layout_of)
{
    const size_t nm = m->n_models;
    double *z = malloc((nm + 1) * sizeof *z);
    L->models = malloc((nm + 1) * sizeof *L->models);
    L->ids = malloc((nm + 1) * sizeof *L->ids);
    L->pred = calloc(nm + 1, sizeof *L->pred);
    L->code_bit = malloc((L->rim.n + 1) * sizeof *L->code_bit);
    if (!z || !L->models || !L->ids || !L->pred || !L->code_bit) {
        free(z);
        return -1;
    }
    for (size_t k = 0, bit = 0; k < L->rim.n; k++)
        L->code_bit[k] = L->rim.cells[k].kind == ROSTER_RIM_CODE ? (int)bit++ : -1;
    for (size_t i = 0; i < nm; i++) {
        if (layout_of[i] != index)
            continue;
        uint8_t cells[256];
        int width = 0;
        unsigned char data[36];
        if (!vis_tag_bitmap(td, m->models[i].tag_id, cells, &width) || width != 10) {
            layout_of[i] = -1; /* not a tag36h11 code: never read as a rim */
            continue;
        }
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++)
                data[r * 6 + c] = cells[(r + 2) * width + c + 2] != 0;
        const size_t k = L->n_models++;
        L->models[k] = i;
        L->ids[k] = m->models[i].tag_id;
        z[k] = m->units[m->models[i].unit].mount.height;
        for (int t = 0; t < L->rim.turns; t++)
            for (size_t q = 0; q < L->rim.n; q++) {
                const int bit = L->code_bit[q];
                if (bit >= 0 && roster_rim_colour(&L->rim.cells[L->rim.cells[q].turned[t]], data))
                    L->pred[k][t][bit / 64] |= 1ull << (bit % 64);
            }
    }
    qsort(z, L->n_models, sizeof *z, cmp_dbl);
    L->z = L->n_models ? z[L->n_models / 2] : 0;
    free(z);
    return 0;
}

int vis_rim_book_make(const vis_tag_detector *td, const roster_map *m, vis_rim_book *out)
{
    memset(out, 0, sizeof *out);
    out->n_models = m->n_models;
    out->layout_of = malloc((m->n_models + 1) * sizeof *out->layout_of);
    out->layouts = calloc(m->n_models + 1, sizeof *out->layouts);
    if (!out->layout_of || !out->layouts) {
        vis_rim_book_clear(out);
        return -1;
    }
    /* Group the models by layout: the base they stand on and their unit's cell. */
    for (size_t i = 0; i < m->n_models; i++) {
        const roster_tag_mount *mt = &m->units[m->models[i].unit].mount;
        out->layout_of[i] = -1;
        if (mt->layout != ROSTER_MARK_RIM)
            continue;
        double w, d;
        model_base(m, i, &w, &d);
        size_t k = 0;
        while (k < out->n && !(out->layouts[k].rim.width == w && out->layouts[k].rim.depth == d &&
                               out->layouts[k].rim.cell == mt->cell))
            k++;
        if (k == out->n) {
            base_error err;
            if (roster_rim_make(w, d, mt->cell, &out->layouts[k].rim, &err) < 0 ||
                out->layouts[k].rim.n_code > VIS_RIM_MAX_CODE) {
                roster_rim_clear(&out->layouts[k].rim);
                continue; /* a label the reader does not take: its models are never read as rims */
            }
            out->n++;
        }
        out->layout_of[i] = (long)k;
    }
    for (size_t k = 0; k < out->n; k++)
        if (fill_layout(td, m, &out->layouts[k], (long)k, out->layout_of) < 0) {
            vis_rim_book_clear(out);
            return -1;
        }
    return 0;
}

bool vis_rim_base_at(const vis_rim_book *book, const roster_map *map, const vis_camera *cam, const base_view *im,
                     size_t model, base_vec2 pos, double facing, double z, int min_corners, base_vec2 *at)
{
    const vis_rim_layout *L = vis_rim_book_layout(book, model);
    if (!L)
        return false;
    base_vec2 c;
    double heading, xy[2];
    roster_tag_mount_place(&map->units[map->models[model].unit].mount, pos, facing, &c, &heading);
    const double P[3] = {c.x, c.y, z};
    /* Within a fifth of a base: the slot is known to a few mm, and the next half-base step is half a base away. */
    const double search = 0.2 * fmin(L->rim.width, L->rim.depth);
    if (min_corners < 2)
        return vis_rim_label_hint(cam, im, L, P, heading, search);
    if (!vis_rim_label_at(cam, im, L, P, heading, search, xy))
        return false;
    if (at) /* the label's offset on its base as the slot has it: the heading is the slot's to a degree or so */
        *at = base_v2_add(pos, base_v2_sub(base_v2(xy[0], xy[1]), c));
    return true;
}
