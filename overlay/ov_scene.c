/*
 * ov_scene: the scene itself: its storage (strings, marks, labels, the
 * legend, the report's blocks), its players (sides, colours, edges), a new
 * scene and its end. Below every file that adds to a scene
 * (ov_scene_layers.c and the unit's files), so that none of them calls
 * back up.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ov_scene_int.h"
#include "base_text.h"

static bool grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *p = realloc(*arr, c * size);
    if (!p)
        return false;
    *arr = p;
    *cap = c;
    return true;
}

ov_paint ov_paint_of(ov_ink ink, double alpha) { return (ov_paint){ink, 0, {0, 0, 0}, alpha}; }
ov_paint ov_paint_side(const ov_scene *sc, int side, double alpha)
{
    int slot = side >= 0 && (size_t)side < sc->n_sides ? sc->side_slot[side] : 3;
    return (ov_paint){OV_INK_SIDE, slot, {0, 0, 0}, alpha};
}

/* A side named after a colour gets the players' colour nearest to it, so "red" is never drawn blue;
 * the others take the first colour free. Slots: 0 sky blue, 1 reddish purple, 2 light grey, 3 grey. */
static int colour_slot(const ov_scene *sc, const char *name)
{
    static const struct {
        const char *word;
        int slot;
    } words[] = {{"blue", 0}, {"cyan", 0}, {"teal", 0}, {"sky", 0}, {"green", 0}, {"red", 1}, {"purple", 1},
                 {"pink", 1}, {"magenta", 1}, {"crimson", 1}, {"violet", 1}, {"white", 2}, {"yellow", 2},
                 {"gold", 2}, {"orange", 1}, {"black", 3}, {"grey", 3}, {"gray", 3}};
    char low[RULES_ID_MAX];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)name[n]);
    low[n] = 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(low, words[i].word))
            return words[i].slot;
    bool used[4] = {false};
    for (size_t i = 0; i < sc->n_sides; i++)
        used[sc->side_slot[i] & 3] = true;
    for (int k = 0; k < 4; k++)
        if (!used[k])
            return k;
    return 3;
}

size_t ov_sc_str(ov_scene *sc, const char *s)
{
    size_t n = strlen(s) + 1;
    if (!grow((void **)&sc->str, &sc->cap_str, sc->n_str + n, 1)) {
        sc->oom = true;
        return 0; /* offset 0 holds "" */
    }
    memcpy(sc->str + sc->n_str, s, n);
    sc->n_str += n;
    return sc->n_str - n;
}

size_t ov_sc_strf(ov_scene *sc, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ov_sc_str(sc, buf);
}

const char *ov_sc_text(const ov_scene *sc, size_t off) { return off < sc->n_str ? sc->str + off : ""; }

ov_mark *ov_sc_mark(ov_scene *sc, ov_mark_kind kind, const base_vec2 *p, size_t n, int layer)
{
    if (!grow((void **)&sc->pts, &sc->cap_pts, sc->n_pts + n, sizeof *sc->pts) ||
        !grow((void **)&sc->marks, &sc->cap_marks, sc->n_marks + 1, sizeof *sc->marks)) {
        sc->oom = true;
        return NULL;
    }
    memcpy(sc->pts + sc->n_pts, p, n * sizeof *p);
    ov_mark *m = &sc->marks[sc->n_marks++];
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->p0 = sc->n_pts;
    m->n = n;
    m->line = ov_paint_of(OV_INK_NEUTRAL, 1);
    m->width = 1;
    m->layer = layer;
    sc->n_pts += n;
    return m;
}

ov_label *ov_sc_label(ov_scene *sc, ov_label_kind kind, const char *text, base_vec2 anchor, int priority)
{
    size_t off = ov_sc_str(sc, text);
    if (!grow((void **)&sc->labels, &sc->cap_labels, sc->n_labels + 1, sizeof *sc->labels)) {
        sc->oom = true;
        return NULL;
    }
    ov_label *l = &sc->labels[sc->n_labels++];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->text = off;
    l->anchor = anchor;
    l->size = OV_SIZE_LABEL;
    l->bold = true;
    l->bg = ov_paint_of(OV_INK_NEUTRAL, 1);
    l->priority = priority;
    l->side = -1;
    l->leader_ok = true;
    return l;
}

void ov_sc_legend(ov_scene *sc, ov_sample sample, ov_paint paint, ov_dash dash, const char *text)
{
    for (size_t i = 0; i < sc->n_legend; i++)
        if (sc->legend[i].sample == sample && sc->legend[i].paint.ink == paint.ink &&
            sc->legend[i].paint.side == paint.side && strcmp(ov_sc_text(sc, sc->legend[i].text), text) == 0)
            return;
    size_t off = ov_sc_str(sc, text);
    if (!grow((void **)&sc->legend, &sc->cap_legend, sc->n_legend + 1, sizeof *sc->legend)) {
        sc->oom = true;
        return;
    }
    sc->legend[sc->n_legend++] = (ov_legend){sample, paint, dash, off};
}

void ov_sc_block(ov_scene *sc, ov_block_kind kind, ov_paint paint, const char *text, const char *text2)
{
    size_t a = ov_sc_str(sc, text), b = text2 ? ov_sc_str(sc, text2) : 0;
    if (!grow((void **)&sc->blocks, &sc->cap_blocks, sc->n_blocks + 1, sizeof *sc->blocks)) {
        sc->oom = true;
        return;
    }
    sc->blocks[sc->n_blocks++] = (ov_block){kind, paint, a, b};
}

int ov_sc_side(ov_scene *sc, const char *side)
{
    if (!side || !side[0])
        return -1;
    for (size_t i = 0; i < sc->n_sides; i++)
        if (strcmp(sc->sides[i], side) == 0)
            return (int)i;
    if (sc->n_sides == OV_MAX_SIDES)
        return -1;
    base_text_copy(sc->sides[sc->n_sides], RULES_ID_MAX, side);
    sc->side_slot[sc->n_sides] = colour_slot(sc, side);
    sc->side_edge[sc->n_sides] = OV_EDGE_AUTO;
    for (size_t i = 0; i < sc->opt.n_edges; i++)
        if (sc->opt.edges[i].side && strcmp(sc->opt.edges[i].side, side) == 0)
            sc->side_edge[sc->n_sides] = sc->opt.edges[i].edge;
    return (int)sc->n_sides++;
}

bool ov_sc_faded(const ov_scene *sc, const char *unit_id)
{
    for (size_t i = 0; i < sc->opt.n_faded; i++)
        if (sc->opt.faded[i] && strcmp(sc->opt.faded[i], unit_id) == 0)
            return true;
    return false;
}

void ov_sc_guess_edges(ov_scene *sc, const rules_snapshot *s)
{
    if (!s)
        return;
    if (sc->board_w <= 0)
        sc->board_w = s->board_width, sc->board_d = s->board_depth;
    double sum[OV_MAX_SIDES] = {0};
    size_t n[OV_MAX_SIDES] = {0};
    for (size_t i = 0; i < s->n_units; i++) {
        int k = ov_sc_side(sc, s->units[i].side);
        for (size_t m = 0; k >= 0 && m < s->units[i].n_models; m++)
            sum[k] += s->units[i].models[m].pos.y, n[k]++;
    }
    /* A side stands at the long edge nearer its models. */
    for (size_t k = 0; k < sc->n_sides; k++)
        if (sc->side_edge[k] == OV_EDGE_AUTO && n[k])
            sc->side_edge[k] = sum[k] / n[k] <= s->board_depth / 2 ? OV_EDGE_NEAR : OV_EDGE_FAR;
}

ov_mark *ov_sc_base(ov_scene *sc, const rules_unit *u, const rules_model *m, int layer, ov_mark_role role)
{
    base_obb b = rules_model_base(u, m);
    base_vec2 k[4];
    base_obb_corners(&b, k);
    ov_mark *mk = ov_sc_mark(sc, OV_MARK_AREA, k, 4, layer);
    if (mk) {
        mk->closed = true;
        mk->role = role;
        mk->centre = m->pos;
        mk->is_base = true;
    }
    return mk;
}

ov_scene *ov_scene_new(const ov_options *opt, base_error *err)
{
    ov_scene *sc = calloc(1, sizeof *sc);
    if (!sc) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    if (opt)
        sc->opt = *opt;
    else
        ov_options_default(&sc->opt);
    ov_sc_str(sc, ""); /* offset 0 is the empty string */
    for (size_t i = 0; sc->opt.sides && i < sc->opt.n_sides; i++)
        ov_sc_side(sc, sc->opt.sides[i]);
    return sc;
}

void ov_scene_free(ov_scene *sc)
{
    if (!sc)
        return;
    free(sc->pts);
    free(sc->marks);
    free(sc->labels);
    free(sc->str);
    free(sc->legend);
    free(sc->blocks);
    rules_snapshot_free(sc->relief);
    free(sc);
}

size_t ov_scene_unplaced(const ov_scene *sc) { return sc->unplaced; }

size_t ov_scene_label_count(const ov_scene *sc) { return sc->n_labels; }

const char *ov_scene_label_text(const ov_scene *sc, size_t i, bool *number)
{
    if (i >= sc->n_labels)
        return NULL;
    if (number)
        *number = sc->labels[i].kind == OV_LABEL_NUMBER;
    return ov_sc_text(sc, sc->labels[i].text);
}
