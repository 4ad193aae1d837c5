/*
 * ov_scene_extra: issue 14's layers. The nearest legal move of an ILLEGAL
 * call, drawn as a ghost: every model's base where it would be legal,
 * dashed in pale bluish green, the Front Facing's arrow, and the rules
 * engine's sentence ("move the spears back 0.38" along their path"). The
 * reach before a move: for each end facing the outline of where the Front
 * Facing may end (rules_reach), the straight-on one bold, and the largest
 * legal wheel each way as the outer front corner's arc with its angle.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ov_unit_int.h"
#include "rules_words.h"
#include "base_text.h"
#include "rules_reach.h"

enum { L_GHOST = 47, L_REACH = 36 };
enum { P_GHOST = 11, P_REACH = 22, P_REACH_WHEEL = 30 };

/* The ghost's look: dashed, faintly filled, the target's main line width. */
static void ghost_paint(ov_mark *m, double width, double fade)
{
    m->line = ov_paint_of(OV_INK_GHOST, fade);
    m->fill = ov_paint_of(OV_INK_GHOST, 0.18 * fade);
    m->width = width;
    m->dash = OV_DASH_DASHED;
}

/* Cuts `cut` out of s (every occurrence). */
static void cut_out(char *s, const char *cut)
{
    size_t n = strlen(cut);
    char *p;
    while (n && (p = strstr(s, cut)))
        memmove(p, p + n, strlen(p + n) + 1);
}

/*
 * The rules' sentence made short for a label on the table (the report's text keeps it whole): without the
 * unit's name (the ghost stands beside it) or the "(no model moves more than ...)" tail, degrees as a sign,
 * on two lines: "nearest legal:" then "move back 0.38\" along their path" or "turn 4.0° left about their
 * right front corner" (a longer one breaks again before "about" or ", then").
 */
static void ghost_words(const char *text, const char *unit, char *out, size_t cap)
{
    char s[RULES_TEXT_MAX], name[RULES_ID_MAX + 16];
    base_text_copy(s, sizeof s, text);
    char *tail = strstr(s, " (no model");
    if (tail)
        *tail = 0;
    snprintf(name, sizeof name, " the %s's", unit);
    cut_out(s, name);
    snprintf(name, sizeof name, " the %s", unit);
    cut_out(s, name);
    char *deg = strstr(s, " degrees");
    if (deg) {
        memmove(deg + 2, deg + 8, strlen(deg + 8) + 1);
        memcpy(deg, "\xC2\xB0", 2);
    }
    const char *brk = strlen(s) > 34 ? strstr(s, ", then") : NULL;
    if (!brk && strlen(s) > 34)
        brk = strstr(s, " about ");
    if (brk) {
        size_t at = (size_t)(brk - s) + (brk[0] == ',' ? 1 : 0);
        base_text_format(out, cap, "nearest legal: %.*s\n%s", (int)at, s, s + at + 1);
    } else {
        base_text_format(out, cap, "nearest legal: %s", s);
    }
}

void ov_sc_add_suggestion(ov_scene *sc, const rules_unit *ua, const rules_unit_report *ur, bool labels, double fade)
{
    const rules_suggestion *sg = &ur->suggestion;
    if (ur->verdict != RULES_VERDICT_ILLEGAL || !sg->found || sg->remove || !ua || sg->n_models == 0)
        return;
    for (size_t i = 0; i < sg->n_models; i++) {
        const rules_model *m0 = rules_unit_find_model(ua, sg->models[i].id);
        if (!m0)
            continue;
        rules_model m = *m0;
        m.pos = sg->models[i].pos, m.facing = sg->models[i].facing;
        ov_mark *mk = ov_sc_base(sc, ua, &m, L_GHOST, OV_ROLE_OLD_BASE);
        if (mk)
            ghost_paint(mk, 1.1, fade);
    }
    base_vec2 fc = sg->pose.front_centre;
    double len = ur->front_width_mm > 0 ? 0.25 * ur->front_width_mm : 15;
    base_vec2 arrow[2] = {fc, base_v2_add(fc, base_v2_scale(base_v2_dir(sg->pose.heading), len))};
    ov_mark *mk = ov_sc_mark(sc, OV_MARK_ARROW, arrow, 2, L_GHOST);
    if (mk)
        mk->line = ov_paint_of(OV_INK_GHOST, fade), mk->width = 1.3;
    ov_sc_legend(sc, OV_SAMPLE_LAYER, ov_paint_of(OV_INK_GHOST, 1), OV_DASH_DASHED,
                 "the nearest legal position of an illegal move (dashed)");
    if (!labels || !sg->text[0])
        return;
    /* Beside the ghost's Front Facing, the side it is moved towards. */
    char words[RULES_TEXT_MAX + 32];
    ghost_words(sg->text, ur->unit_id, words, sizeof words);
    ov_label *l = ov_sc_label(sc, OV_LABEL_PILL, "", fc, P_GHOST);
    if (l) {
        l->text = ov_sc_strf(sc, "%s", words);
        l->bg = ov_paint_of(OV_INK_GHOST, 1);
        l->side = ov_sc_side(sc, ur->side);
        l->clear_mm = 0.3 * len;
    }
}

/* The straight-on facing (turn nearest 0), or -1. */
static long straight_on(const rules_reach *r)
{
    long best = -1;
    for (size_t i = 0; i < r->n_facings; i++)
        if (r->facings[i].n_envelope >= 3 && (best < 0 || fabs(r->facings[i].turn) < fabs(r->facings[best].turn)))
            best = (long)i;
    return best;
}

/* The outer front corner's arc for the largest wheel one way (left: about the left corner, counter-clockwise). */
static void wheel_arc(ov_scene *sc, const rules_reach *r, int side, const rules_reach_wheel *w)
{
    if (!(w->angle_rad > 1e-3) || !(r->front_width_mm > 0))
        return;
    const double W = r->front_width_mm, a = side > 0 ? w->angle_rad : -w->angle_rad;
    base_vec2 left = base_v2_dir(r->start.heading + BASE_PI / 2);
    base_vec2 pivot = base_v2_add(r->start.front_centre, base_v2_scale(left, side * W / 2));
    base_vec2 outer = base_v2_sub(r->start.front_centre, base_v2_scale(left, side * W / 2));
    base_vec2 arc[182];
    int k = (int)fmin(180, fmax(8, ceil(fabs(a) / (BASE_PI / 180))));
    for (int j = 0; j <= k; j++)
        arc[j] = base_v2_add(pivot, base_v2_rot(base_v2_sub(outer, pivot), a * j / k));
    ov_mark *m = ov_sc_mark(sc, OV_MARK_LINE, arc, (size_t)k + 1, L_REACH);
    if (m)
        m->line = ov_paint_of(OV_INK_PATH, 1), m->width = 1.0, m->role = OV_ROLE_LINE;
    /* The Front Facing at the end of that wheel. */
    base_vec2 edge[2] = {pivot, arc[k]};
    if ((m = ov_sc_mark(sc, OV_MARK_LINE, edge, 2, L_REACH)))
        m->line = ov_paint_of(OV_INK_PATH, 1), m->width = 1.2;
    char d[24];
    ov_fmt_in(d, sizeof d, w->distance_mm);
    ov_label *l = ov_sc_label(sc, OV_LABEL_PILL, "", arc[k], P_REACH_WHEEL);
    if (l) {
        l->text = ov_sc_strf(sc, "wheel %s up to %.0f\xC2\xB0 (%s)", side > 0 ? "left" : "right",
                             w->angle_rad * 180 / BASE_PI, d);
        l->bg = ov_paint_of(OV_INK_PATH, 1);
        l->size = OV_SIZE_SMALL;
        l->side = -1;
    }
}

int ov_scene_add_reach(ov_scene *sc, const rules_reach *r, const char *side, base_error *err)
{
    if (!sc || !r)
        return base_error_set(err, "overlay: no reach to draw");
    const long s0 = straight_on(r);
    const int who = ov_sc_side(sc, side);
    for (size_t i = 0; i < r->n_facings; i++) {
        const rules_reach_facing *f = &r->facings[i];
        if (f->n_envelope < 3)
            continue;
        bool main = (long)i == s0;
        ov_mark *m = ov_sc_mark(sc, main ? OV_MARK_AREA : OV_MARK_LINE, f->envelope, f->n_envelope, L_REACH);
        if (!m)
            continue;
        m->closed = true;
        /* The other facings thin and faint: together they shade where a wheel can take the front. */
        m->line = ov_paint_of(OV_INK_LIMIT, main ? 1 : 0.35);
        m->fill = ov_paint_of(OV_INK_LIMIT, main ? 0.12 : 0);
        m->width = main ? 1.2 : 0.4;
        m->dash = OV_DASH_SOLID;
        m->role = main ? OV_ROLE_LINE : OV_ROLE_NONE;
    }
    /* The Front Facing where it starts. */
    base_vec2 l2 = base_v2_scale(base_v2_dir(r->start.heading + BASE_PI / 2), r->front_width_mm / 2);
    base_vec2 edge[2] = {base_v2_add(r->start.front_centre, l2), base_v2_sub(r->start.front_centre, l2)};
    ov_mark *m = ov_sc_mark(sc, OV_MARK_LINE, edge, 2, L_REACH);
    if (m)
        m->line = ov_paint_of(OV_INK_LIMIT, 1), m->width = 1.4;
    wheel_arc(sc, r, +1, &r->wheel_left);
    wheel_arc(sc, r, -1, &r->wheel_right);
    ov_sc_legend(sc, OV_SAMPLE_LAYER, ov_paint_of(OV_INK_LIMIT, 1), OV_DASH_SOLID,
                 "the reach: where the Front Facing can end, straight on (bold) and at each end facing");
    if (s0 >= 0) {
        /* At the far edge of the straight-on outline, where the player looks. */
        const rules_reach_facing *f = &r->facings[s0];
        base_vec2 far = f->envelope[0];
        base_vec2 dir = base_v2_dir(r->start.heading);
        for (size_t i = 1; i < f->n_envelope; i++)
            if (base_v2_dot(base_v2_sub(f->envelope[i], far), dir) > 0)
                far = f->envelope[i];
        char rate[24];
        ov_fmt_in(rate, sizeof rate, r->rate_mm);
        ov_label *l = ov_sc_label(sc, OV_LABEL_PILL, "", far, P_REACH);
        if (l) {
            l->text = ov_sc_strf(sc, "%s \xC2\xB7 %s reach \xC2\xB7 %s %s", r->unit_id, rules_words_move_title(r->move),
                                 rules_words_move_limit(r->move), rate);
            l->bg = ov_paint_of(OV_INK_LIMIT, 1);
            l->side = who;
        }
    }
    if (sc->oom)
        return base_error_set(err, "out of memory");
    return 0;
}
