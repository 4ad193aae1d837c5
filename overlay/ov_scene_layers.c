/*
 * ov_scene_layers: the layers added to a scene (ov_scene.h): a verdict
 * (each unit's through ov_scene_words.c), a snapshot for tracking frames, a
 * caller's ghost and polylines, the units a verdict does not judge. The
 * scene's storage and players are ov_scene.c's, below every file that adds
 * to it.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ov_scene_int.h"
#include "rules_relief.h"
#include "base_text.h"
#include "rules_formation.h"
#include "rules_words.h"

enum { L_TERRAIN = 5, L_OTHERS = 25, L_LAYER = 35, L_SNAPSHOT = 40 };
enum { P_LAYER = 25, P_LAYER_LINE = 35, P_NAME = 60 };

static int done(const ov_scene *sc, base_error *err)
{
    return sc->oom ? base_error_set(err, "overlay: out of memory building the picture") : 0;
}

static void set_rules(ov_scene *sc, const rules_ruleset *rs)
{
    base_text_copy(sc->ruleset, sizeof sc->ruleset, rs->name);
    snprintf(sc->convention, sizeof sc->convention, "%s",
             rs->wheel_measure == RULES_WHEEL_CHORD ? "wheels measured by chord (outer front corner, straight)"
                                                    : "wheels measured by arc (outer front corner)");
}

static void terrain(ov_scene *sc, const rules_snapshot *s)
{
    /* Its hills, for the targets it is drawn on (ov_scene_draw). */
    if (!sc->relief && rules_relief_any(s->terrain, s->n_terrain)) {
        sc->relief = rules_snapshot_new(1, 1);
        for (size_t i = 0; sc->relief && i < s->n_terrain; i++)
            if (s->terrain[i].relief == RULES_RELIEF_HILL && !rules_snapshot_copy_terrain(sc->relief, &s->terrain[i]))
                sc->oom = true;
        sc->oom |= !sc->relief;
    }
    for (size_t i = 0; i < s->n_terrain; i++) {
        const rules_terrain *tr = &s->terrain[i];
        ov_mark *m = ov_sc_mark(sc, OV_MARK_AREA, tr->points, tr->n_points, L_TERRAIN);
        if (m) {
            m->closed = true;
            m->fill = ov_paint_of(OV_INK_NEUTRAL, tr->kind == RULES_TERRAIN_IMPASSABLE ? 0.3 : 0.12);
            m->line = ov_paint_of(OV_INK_NEUTRAL, 0.7);
            m->width = 0.5;
        }
    }
}

/* A unit in its player's colour: bases, outline, facing, name (unless it is being moved). */
static void side_unit(ov_scene *sc, const rules_unit *un, int layer, double strength)
{
    int side = ov_sc_side(sc, un->side);
    bool faded = ov_sc_faded(sc, un->id);
    double a = faded ? 0.25 : strength;
    for (size_t m = 0; sc->opt.bases && m < un->n_models; m++) {
        ov_mark *mk = ov_sc_base(sc, un, &un->models[m], layer, faded ? OV_ROLE_NONE : OV_ROLE_BASE);
        if (mk) {
            mk->fill = ov_paint_side(sc, side, 0.3 * a);
            mk->line = ov_paint_side(sc, side, a);
            mk->width = 0.6;
            mk->dash = un->models[m].evidence == RULES_EVIDENCE_INFERRED ? OV_DASH_DOTTED : OV_DASH_SOLID;
        }
    }
    rules_formation f;
    if (!un->n_models || rules_formation_fit(un, NULL, &f, NULL) < 0)
        return;
    if (sc->opt.outlines) {
        base_vec2 k[4];
        base_obb_corners(&f.boundary, k);
        ov_mark *mk = ov_sc_mark(sc, OV_MARK_LINE, k, 4, layer + 1);
        if (mk)
            mk->closed = true, mk->line = ov_paint_side(sc, side, a), mk->width = 0.9, mk->around = true;
        base_vec2 arrow[2] = {f.front_centre, base_v2_add(f.front_centre, base_v2_scale(base_v2_dir(f.heading),
                                                                                         0.25 * f.boundary.width))};
        if ((mk = ov_sc_mark(sc, OV_MARK_ARROW, arrow, 2, layer + 1)))
            mk->line = ov_paint_side(sc, side, a), mk->width = 0.9;
    }
    char words[RULES_ID_MAX + 16];
    snprintf(words, sizeof words, "units of %s", un->side);
    ov_sc_legend(sc, OV_SAMPLE_SIDE, ov_paint_side(sc, side, 1), OV_DASH_SOLID, words);
    if (!faded) {
        ov_label *l = ov_sc_label(sc, OV_LABEL_NAME, un->id, f.centre, P_NAME);
        if (l)
            l->size = OV_SIZE_SMALL, l->bg = ov_paint_side(sc, side, 1), l->side = side, l->leader_ok = true,
            l->clear_mm = 0.5 * fmin(f.boundary.width, f.boundary.depth);
    }
}

int ov_scene_add_snapshot(ov_scene *sc, const rules_snapshot *s, base_error *err)
{
    if (!s)
        return base_error_set(err, "overlay: no snapshot to draw");
    ov_sc_guess_edges(sc, s);
    set_rules(sc, &s->ruleset);
    terrain(sc, s);
    for (size_t i = 0; i < s->n_units; i++) {
        if (sc->opt.unit_id && strcmp(sc->opt.unit_id, s->units[i].id) != 0)
            continue;
        side_unit(sc, &s->units[i], L_SNAPSHOT, 1.0);
    }
    for (size_t i = 0; i < s->n_unseen; i++) {
        size_t len = strlen(sc->not_seen);
        base_text_format(sc->not_seen + len, sizeof sc->not_seen - len, "%s%s", len ? ", " : "", s->unseen[i].id);
    }
    return done(sc, err);
}

int ov_scene_add_sides(ov_scene *sc, const char *const *sides, size_t n, base_error *err)
{
    for (size_t i = 0; i < n; i++)
        ov_sc_side(sc, sides[i]);
    return done(sc, err);
}

static bool judged_here(const ov_scene *sc, const rules_report *r, const char *id)
{
    const rules_unit_report *ur = rules_report_find_unit(r, id);
    return ur && (!sc->opt.unit_id || strcmp(sc->opt.unit_id, id) == 0);
}

static void note_not_seen(ov_scene *sc, const char *id)
{
    if (strstr(sc->not_seen, id))
        return;
    size_t len = strlen(sc->not_seen);
    base_text_format(sc->not_seen + len, sizeof sc->not_seen - len, "%s%s", len ? ", " : "", id);
}

static void overall(ov_scene *sc, const rules_report *r)
{
    char ill[200] = "", unsure[200] = "";
    for (size_t i = 0; i < r->n_units; i++) {
        const rules_unit_report *ur = &r->units[i];
        if (sc->opt.unit_id && strcmp(sc->opt.unit_id, ur->unit_id) != 0)
            continue;
        char *dst = ur->verdict == RULES_VERDICT_ILLEGAL ? ill : ur->verdict == RULES_VERDICT_CANNOT_TELL ? unsure : NULL;
        if (dst) {
            size_t len = strlen(dst);
            snprintf(dst + len, 200 - len, "%s%s", len ? ", " : "", ur->unit_id);
        }
        if (ur->verdict == RULES_VERDICT_NOT_SEEN)
            note_not_seen(sc, ur->unit_id);
    }
    sc->verdict_illegal = ill[0] != 0;
    base_text_format(sc->verdict_line, sizeof sc->verdict_line, "%s%s%s%s%s%s",
                     ill[0] ? rules_words_verdict_title(RULES_VERDICT_ILLEGAL) : "No illegal move", ill[0] ? ": " : "",
                     ill, unsure[0] ? ".  Cannot tell: " : "", unsure, ".");
}

int ov_scene_add_verdict(ov_scene *sc, const rules_snapshot *before, const rules_snapshot *after,
                         const rules_report *report, base_error *err)
{
    if (!report)
        return base_error_set(err, "overlay: no report to draw");
    if (sc->opt.unit_id && !rules_report_find_unit(report, sc->opt.unit_id))
        return base_error_set(err, "overlay: unit '%s' is not in the report", sc->opt.unit_id);
    const rules_snapshot *ctx = after ? after : before;
    ov_sc_guess_edges(sc, before ? before : after);
    set_rules(sc, &report->ruleset);
    sc->has_verdict = true;
    if (ctx)
        terrain(sc, ctx);
    /* The units not judged, faintly: what gaps are measured to. */
    for (size_t i = 0; ctx && sc->opt.others && i < ctx->n_units; i++)
        if (!judged_here(sc, report, ctx->units[i].id))
            side_unit(sc, &ctx->units[i], L_OTHERS, 0.55);
    for (size_t i = 0; i < report->n_units; i++) {
        const rules_unit_report *ur = &report->units[i];
        if (!sc->opt.unit_id || strcmp(sc->opt.unit_id, ur->unit_id) == 0)
            ov_sc_add_unit(sc, before, after, ur, &report->ruleset);
    }
    for (size_t k = 0; k < 2; k++) {
        const rules_snapshot *s = k ? after : before;
        for (size_t i = 0; s && i < s->n_unseen; i++)
            note_not_seen(sc, s->unseen[i].id);
    }
    for (size_t i = 0; i < report->n_notes; i++)
        ov_sc_block(sc, OV_BLOCK_NOTE, ov_paint_of(OV_INK_NEUTRAL, 1), report->notes[i], NULL);
    overall(sc, report);
    return done(sc, err);
}

static ov_layer_style default_style(ov_ink ink, ov_dash dash)
{
    ov_layer_style st;
    memset(&st, 0, sizeof st);
    st.line = ov_paint_of(ink, 1);
    st.fill = ov_paint_of(ink, ink == OV_INK_GHOST ? 0.18 : 0);
    st.width = 1;
    st.dash = dash;
    return st;
}

int ov_scene_add_ghost(ov_scene *sc, const rules_unit *unit, const ov_layer_style *style, const char *label,
                       base_error *err)
{
    if (!unit)
        return base_error_set(err, "overlay: no unit to draw as a ghost");
    ov_layer_style st = style ? *style : default_style(OV_INK_GHOST, OV_DASH_DASHED);
    for (size_t m = 0; m < unit->n_models; m++) {
        ov_mark *mk = ov_sc_base(sc, unit, &unit->models[m], L_LAYER, OV_ROLE_OLD_BASE);
        if (mk)
            mk->fill = st.fill, mk->line = st.line, mk->width = 0.8 * st.width, mk->dash = st.dash;
    }
    rules_formation f;
    bool fit = unit->n_models && rules_formation_fit(unit, NULL, &f, NULL) == 0;
    if (fit) {
        base_vec2 arrow[2] = {f.front_centre, base_v2_add(f.front_centre, base_v2_scale(base_v2_dir(f.heading),
                                                                                         0.25 * f.boundary.width))};
        ov_mark *mk = ov_sc_mark(sc, OV_MARK_ARROW, arrow, 2, L_LAYER);
        if (mk)
            mk->line = st.line, mk->width = st.width;
    }
    const char *words = label && label[0] ? label : "ghost";
    ov_sc_legend(sc, OV_SAMPLE_LAYER, st.line, st.dash, words);
    if (label && label[0] && unit->n_models) {
        ov_label *l = ov_sc_label(sc, OV_LABEL_PILL, label, fit ? f.centre : unit->models[0].pos, P_LAYER);
        if (l) {
            l->bg = st.line;
            l->bg.alpha = 1;
            l->side = ov_sc_side(sc, st.side ? st.side : unit->side);
            l->clear_mm = fit ? 0.5 * fmin(f.boundary.width, f.boundary.depth) : 0;
        }
    }
    return done(sc, err);
}

int ov_scene_add_polylines(ov_scene *sc, const ov_polyline *lines, size_t n, const ov_layer_style *style,
                           const char *label, base_error *err)
{
    if (n && !lines)
        return base_error_set(err, "overlay: no polylines to draw");
    ov_layer_style st = style ? *style : default_style(OV_INK_LIMIT, OV_DASH_DASHED);
    for (size_t i = 0; i < n; i++) {
        if (lines[i].n < 2 || !lines[i].points)
            continue;
        ov_mark *mk = ov_sc_mark(sc, lines[i].closed && st.fill.alpha > 0 ? OV_MARK_AREA : OV_MARK_LINE,
                                 lines[i].points, lines[i].n, L_LAYER);
        if (mk)
            mk->closed = lines[i].closed, mk->line = st.line, mk->fill = st.fill, mk->width = st.width,
            mk->dash = st.dash;
    }
    ov_sc_legend(sc, OV_SAMPLE_LAYER, st.line, st.dash, label && label[0] ? label : "lines");
    if (label && label[0] && n && lines[0].n >= 2) {
        /* At the first line's middle, by length. */
        const base_vec2 *p = lines[0].points;
        double total = 0, run = 0;
        for (size_t i = 1; i < lines[0].n; i++)
            total += base_v2_dist(p[i - 1], p[i]);
        base_vec2 at = p[0];
        for (size_t i = 1; i < lines[0].n; i++) {
            double d = base_v2_dist(p[i - 1], p[i]);
            if (run + d >= total / 2 && d > 0) {
                at = base_v2_add(p[i - 1], base_v2_scale(base_v2_sub(p[i], p[i - 1]), (total / 2 - run) / d));
                break;
            }
            run += d;
        }
        ov_label *l = ov_sc_label(sc, OV_LABEL_PILL, label, at, P_LAYER_LINE);
        if (l) {
            l->bg = st.line;
            l->bg.alpha = 1;
            l->size = OV_SIZE_SMALL;
            l->side = st.side ? ov_sc_side(sc, st.side) : -1;
        }
    }
    return done(sc, err);
}
