/*
 * ov_scene_unit: one unit's verdict as marks and labels, in board mm, and
 * its sentences for the report.
 *
 * Colour and words follow the verdict: LEGAL bluish green ✓; ILLEGAL
 * vermillion ✗ with an X on each model a rule names; CANNOT TELL orange "?"
 * with the reason (its models are never crossed or drawn vermillion); NOT
 * SEEN grey, "not seen, cannot judge". A wheel shorter than a millimetre is
 * measurement noise: not drawn and not labelled. A rate circle is drawn
 * only when it tells something (a model reaches 3/4 of its limit), and
 * only on the board.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ov_unit_int.h"
#include "rules_words.h"

void ov_fmt_in(char *buf, size_t cap, double mm) { snprintf(buf, cap, "%.2f\"", base_mm_to_in(mm)); }

ov_ink ovu_verdict_ink(rules_verdict v)
{
    return v == RULES_VERDICT_LEGAL ? OV_INK_LEGAL
           : v == RULES_VERDICT_ILLEGAL ? OV_INK_ILLEGAL
           : v == RULES_VERDICT_CANNOT_TELL ? OV_INK_UNSURE : OV_INK_NOT_SEEN;
}

/* Each model's distance limit and its name in the rules: the move's row (rules_moves.def) says which rate limits
 * it (the unit's profile, else the report's) and rules_words its name. */
void ovu_unit_limit(unit_ctx *u)
{
    const rules_unit *src = u->ub ? u->ub : u->ua;
    u->limit_mm = u->ur->rate_mm > 0 ? u->ur->rate_mm : NAN;
    u->limit_name = rules_words_move_limit(u->ur->move);
    if (src && rules_move_rate_of(u->ur->move) != RULES_RATE_REPORT)
        u->limit_mm = rules_move_unit_rate(u->ur->move, src);
    if (!(u->limit_mm > 0))
        u->limit_mm = NAN;
}

bool ovu_named(const rules_unit_report *ur, const char *id, bool dist_only)
{
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        if (dist_only && !strstr(v->code, "DIST"))
            continue;
        for (size_t k = 0; k < v->n_models; k++)
            if (strcmp(v->models[k], id) == 0)
                return true;
    }
    return false;
}

const rules_model_move *ovu_model_move(const rules_unit_report *ur, const char *id)
{
    for (size_t i = 0; i < ur->n_models; i++)
        if (strcmp(ur->models[i].id, id) == 0)
            return &ur->models[i];
    return NULL;
}

double ovu_model_pm(const unit_ctx *u, const char *id) { return rules_pm_distance(&u->pm, u->before, u->after, id); }

bool ovu_over_limit(const unit_ctx *u, const rules_model_move *mm)
{
    return isfinite(u->limit_mm) && mm->distance_mm > u->limit_mm + 0.5;
}

/* A CANNOT TELL unit's models are never BAD: at worst unsure. */
model_state ovu_state_of(const unit_ctx *u, const char *id)
{
    const rules_unit_report *ur = u->ur;
    bool is_named = ovu_named(ur, id, false);
    if (ur->verdict == RULES_VERDICT_ILLEGAL)
        return is_named ? M_BAD : M_FINE;
    if (ur->verdict == RULES_VERDICT_CANNOT_TELL) {
        const rules_model_move *mm = ovu_model_move(ur, id);
        bool close = mm && isfinite(u->limit_mm) && rules_pm_within(mm->distance_mm, u->limit_mm, ovu_model_pm(u, id));
        return is_named || close || (mm && ovu_over_limit(u, mm)) ? M_UNSURE : M_FINE;
    }
    return M_FINE;
}

ov_ink ovu_state_ink(const unit_ctx *u, model_state s)
{
    if (u->ur->verdict == RULES_VERDICT_NOT_SEEN)
        return OV_INK_NOT_SEEN;
    return s == M_BAD ? OV_INK_ILLEGAL : s == M_UNSURE ? OV_INK_UNSURE : OV_INK_LEGAL;
}

ov_paint ovu_paint(const unit_ctx *u, ov_ink ink, double alpha) { return ov_paint_of(ink, alpha * u->fade); }

ov_label *ovu_label(unit_ctx *u, ov_label_kind kind, const char *text, base_vec2 at, int prio, ov_ink bg)
{
    if (!u->labels)
        return NULL;
    ov_label *l = ov_sc_label(u->sc, kind, text, at, prio);
    if (l) {
        l->bg = ov_paint_of(bg, 1);
        l->side = u->side;
    }
    return l;
}

/* ---- marks ---- */

void ovu_arcs(unit_ctx *u)
{
    const base_obb *b = &u->fa.boundary;
    double len = fmax(60, 0.6 * fmax(b->width, b->depth));
    base_vec2 k[4];
    base_obb_corners(b, k);
    base_vec2 f = base_v2_dir(b->heading), l = base_v2_dir(b->heading + BASE_PI / 2);
    const double sf[4] = {1, -1, -1, 1}, sl[4] = {1, 1, -1, -1};
    for (int i = 0; i < 4; i++) {
        base_vec2 d = base_v2_scale(base_v2_add(base_v2_scale(f, sf[i]), base_v2_scale(l, sl[i])), 0.70710678118654752);
        base_vec2 seg[2] = {k[i], base_v2_add(k[i], base_v2_scale(d, len))};
        ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, seg, 2, L_ARCS);
        if (m) {
            m->line = ovu_paint(u, OV_INK_NEUTRAL, 0.7);
            m->width = 0.45;
            m->dash = OV_DASH_FINE;
        }
    }
    ov_sc_legend(u->sc, OV_SAMPLE_ARCS, ov_paint_of(OV_INK_NEUTRAL, 0.7), OV_DASH_FINE,
                 "the Arcs: lines at 135\xC2\xB0 from the unit's corners");
}

/* The circle of each model's limit around the farthest model's start, where it tells something. */
void ovu_limit_circle(unit_ctx *u)
{
    const rules_unit_report *ur = u->ur;
    if (!u->ub || u->far < 0 || !isfinite(u->limit_mm))
        return;
    const rules_model_move *far = &ur->models[u->far];
    if (far->distance_mm < CIRCLE_SHARE * u->limit_mm)
        return;
    const rules_model *m0 = rules_unit_find_model(u->ub, far->id), *m1 = u->ua ? rules_unit_find_model(u->ua, far->id) : NULL;
    if (!m0)
        return;
    base_vec2 pts[181];
    for (int i = 0; i <= 180; i++)
        pts[i] = base_v2_add(m0->pos, base_v2_scale(base_v2_dir(i * BASE_PI / 90), u->limit_mm));
    ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, pts, 181, L_LIMIT);
    if (!m)
        return;
    m->line = ovu_paint(u, OV_INK_LIMIT, 0.95);
    m->width = 0.8;
    m->dash = OV_DASH_DASHED;
    m->clip_board = true;
    ov_sc_legend(u->sc, OV_SAMPLE_LIMIT, ov_paint_of(OV_INK_LIMIT, 1), OV_DASH_DASHED,
                 "the limit (its rate) around the start of the farthest model");
    /* Its name on the circle, on the board, as near as can be to where the model went. */
    double dir = m1 ? atan2(m1->pos.y - m0->pos.y, m1->pos.x - m0->pos.x) : 0;
    base_vec2 on = base_v2_add(m0->pos, base_v2_scale(base_v2_dir(dir + 0.3), u->limit_mm));
    for (int k = 0; k < 24; k++) {
        double a = dir + 0.3 + (k % 2 ? -1 : 1) * 0.26 * ((k + 1) / 2);
        base_vec2 q = base_v2_add(m0->pos, base_v2_scale(base_v2_dir(a), u->limit_mm));
        if (u->sc->board_w <= 0 || (q.x > 20 && q.y > 20 && q.x < u->sc->board_w - 20 && q.y < u->sc->board_d - 20)) {
            on = q;
            break;
        }
    }
    char len[24];
    ov_fmt_in(len, sizeof len, u->limit_mm);
    ov_label *l = ovu_label(u, OV_LABEL_PILL, "", on, P_LIMIT, OV_INK_LIMIT);
    if (l) {
        l->text = ov_sc_strf(u->sc, "%s %s", u->limit_name, len);
        l->size = OV_SIZE_SMALL;
        l->leader_ok = true;
    }
}

void ovu_before_bases(unit_ctx *u)
{
    for (size_t i = 0; i < u->ub->n_models; i++) {
        ov_mark *m = ov_sc_base(u->sc, u->ub, &u->ub->models[i], L_BEFORE, OV_ROLE_OLD_BASE);
        if (m) {
            m->line = ovu_paint(u, OV_INK_NEUTRAL, 0.85);
            m->width = 0.6;
            m->dash = OV_DASH_DASHED;
        }
    }
    if (u->have_fb && u->sc->opt.outlines) {
        base_vec2 k[4];
        base_obb_corners(&u->fb.boundary, k);
        ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, k, 4, L_BEFORE);
        if (m) {
            m->closed = true;
            m->line = ovu_paint(u, OV_INK_NEUTRAL, 0.85);
            m->width = 0.9;
            m->dash = OV_DASH_DASHED;
        }
    }
    ov_sc_legend(u->sc, OV_SAMPLE_BEFORE, ov_paint_of(OV_INK_NEUTRAL, 1), OV_DASH_DASHED, "where the models were");
}

static bool wheel_drawn(const rules_step *st)
{
    return (st->kind == RULES_STEP_WHEEL_LEFT || st->kind == RULES_STEP_WHEEL_RIGHT) && st->length_mm >= MIN_WHEEL_MM;
}

static bool step_drawn(const rules_step *st)
{
    bool wheel = st->kind == RULES_STEP_WHEEL_LEFT || st->kind == RULES_STEP_WHEEL_RIGHT;
    return wheel ? wheel_drawn(st) : st->length_mm >= 0.05 || fabs(st->angle_rad) >= 0.002;
}

/* A wheel's measured arc on the outer front corner, its pivot, and (FULL) its length. */
static void wheel_marks(unit_ctx *u, rules_pose p, const rules_step *st, double W)
{
    double side = st->kind == RULES_STEP_WHEEL_LEFT ? 1.0 : -1.0;
    base_vec2 left = base_v2_dir(p.heading + BASE_PI / 2);
    base_vec2 pivot = base_v2_add(p.front_centre, base_v2_scale(left, side * W / 2));
    base_vec2 outer = base_v2_sub(p.front_centre, base_v2_scale(left, side * W / 2));
    int k = (int)fmax(8, ceil(fabs(st->angle_rad) / (BASE_PI / 90)));
    base_vec2 arc[400];
    k = k > 399 ? 399 : k;
    for (int j = 0; j <= k; j++)
        arc[j] = base_v2_add(pivot, base_v2_rot(base_v2_sub(outer, pivot), st->angle_rad * j / k));
    ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, arc, (size_t)k + 1, L_PATH);
    if (m) {
        m->line = ovu_paint(u, OV_INK_PATH, 0.95);
        m->width = 0.8;
        m->dash = OV_DASH_DASHED;
    }
    if (u->rs->wheel_measure == RULES_WHEEL_CHORD) {
        base_vec2 ch[2] = {outer, arc[k]};
        if ((m = ov_sc_mark(u->sc, OV_MARK_LINE, ch, 2, L_PATH)))
            m->line = ovu_paint(u, OV_INK_PATH, 0.95), m->width = 0.6;
    }
    if ((m = ov_sc_mark(u->sc, OV_MARK_RING, &pivot, 1, L_PATH)))
        m->line = ovu_paint(u, OV_INK_PATH, 1), m->width = 0.6;
    ov_sc_legend(u->sc, OV_SAMPLE_WHEEL, ov_paint_of(OV_INK_PATH, 1), OV_DASH_DASHED,
                 "a wheel: the outer front corner's measured arc, its pivot ringed");
    if (!u->brief) {
        char len[24];
        ov_fmt_in(len, sizeof len, st->length_mm);
        ov_label *l = ovu_label(u, OV_LABEL_PILL, "", arc[k / 2], P_WHEEL, OV_INK_PATH);
        if (l)
            l->text = ov_sc_strf(u->sc, "wheel %s", len), l->size = OV_SIZE_SMALL;
    }
}

/* The shortest legal path: the front centre's track, wheels on the outer corner, each step's front edge. */
void ovu_path_marks(unit_ctx *u)
{
    const rules_unit_report *ur = u->ur;
    if (!ur->has_path || ur->path.n_steps == 0 || !(ur->front_width_mm > 0))
        return;
    const double W = ur->front_width_mm;
    rules_pose p = ur->pose_before;
    base_vec2 pts[2048];
    size_t n = 0;
    pts[n++] = p.front_centre;
    for (size_t s = 0; s < ur->path.n_steps; s++) {
        const rules_step *st = &ur->path.steps[s];
        if (!step_drawn(st)) {
            p = rules_path_apply_step(p, st, W);
            continue;
        }
        bool wheel = st->kind == RULES_STEP_WHEEL_LEFT || st->kind == RULES_STEP_WHEEL_RIGHT;
        int k = wheel ? (int)fmax(4, ceil(fabs(st->angle_rad) / (BASE_PI / 180))) : 1;
        for (int j = 1; j <= k && n < sizeof pts / sizeof pts[0]; j++) {
            rules_step part = *st;
            part.angle_rad = st->angle_rad * j / k;
            part.length_mm = st->length_mm * j / k;
            pts[n++] = rules_path_apply_step(p, &part, W).front_centre;
        }
        if (wheel)
            wheel_marks(u, p, st, W);
        p = rules_path_apply_step(p, st, W);
        base_vec2 l2 = base_v2_scale(base_v2_dir(p.heading + BASE_PI / 2), W / 2);
        base_vec2 edge[2] = {base_v2_add(p.front_centre, l2), base_v2_sub(p.front_centre, l2)};
        ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, edge, 2, L_PATH);
        if (m)
            m->line = ovu_paint(u, OV_INK_PATH, 0.6), m->width = 0.5;
    }
    ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, pts, n, L_PATH);
    if (m)
        m->line = ovu_paint(u, OV_INK_PATH, 0.9), m->width = 1.4, m->role = OV_ROLE_LINE;
    ov_sc_legend(u->sc, OV_SAMPLE_PATH, ov_paint_of(OV_INK_PATH, 1), OV_DASH_SOLID,
                 "the shortest legal path of the front's centre");
    /* Its length half-way along; in the video only when the path is what broke the rule. */
    const rules_violation *v = rules_unit_report_find(ur, "MU-PATH-LENGTH");
    if (u->brief && !v)
        return;
    double total = 0, run = 0;
    for (size_t i = 1; i < n; i++)
        total += base_v2_dist(pts[i - 1], pts[i]);
    size_t mid = 0;
    for (size_t i = 1; i < n && run < total / 2; i++)
        run += base_v2_dist(pts[i - 1], pts[i]), mid = i;
    char len[24], lim[24];
    ov_fmt_in(len, sizeof len, ur->path.length_mm);
    ov_fmt_in(lim, sizeof lim, ur->rate_mm);
    bool bad = v && ur->verdict == RULES_VERDICT_ILLEGAL, unsure = v && !bad;
    ov_label *l = ovu_label(u, OV_LABEL_PILL, "", pts[mid], v ? P_PATH_BAD : P_PATH,
                        bad ? OV_INK_ILLEGAL : unsure ? OV_INK_UNSURE : OV_INK_PATH);
    if (l) {
        l->text = v ? ov_sc_strf(u->sc, "%s path %s > %s", bad ? CROSS : "?", len, lim) : ov_sc_strf(u->sc, "path %s", len);
        l->size = v ? OV_SIZE_LABEL : OV_SIZE_SMALL;
    }
}

/* An X through a base: "this model broke a rule" without colour. */
static void cross(unit_ctx *u, const base_obb *b)
{
    base_vec2 k[4];
    base_obb_corners(b, k);
    for (int i = 0; i < 2; i++) {
        base_vec2 seg[2] = {base_v2_add(b->centre, base_v2_scale(base_v2_sub(k[i], b->centre), 0.6)),
                             base_v2_add(b->centre, base_v2_scale(base_v2_sub(k[i + 2], b->centre), 0.6))};
        ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, seg, 2, L_CROSS);
        if (m)
            m->line = ovu_paint(u, OV_INK_ILLEGAL, 1), m->width = 1.1;
    }
}

void ovu_after_bases(unit_ctx *u)
{
    for (size_t i = 0; i < u->ua->n_models; i++) {
        const rules_model *md = &u->ua->models[i];
        model_state s = ovu_state_of(u, md->id);
        ov_ink ink = ovu_state_ink(u, s);
        ov_mark *m = ov_sc_base(u->sc, u->ua, md, L_AFTER, u->labels ? OV_ROLE_BASE : OV_ROLE_NONE);
        if (!m)
            continue;
        m->fill = ovu_paint(u, ink, 0.33);
        m->line = ovu_paint(u, ink, 1);
        m->width = s == M_FINE ? 0.7 : 1.3;
        m->dash = md->evidence == RULES_EVIDENCE_INFERRED ? OV_DASH_DOTTED : OV_DASH_SOLID;
        if (s == M_BAD) {
            base_obb b = rules_model_base(u->ua, md);
            cross(u, &b);
            ov_sc_legend(u->sc, OV_SAMPLE_CROSS, ov_paint_of(OV_INK_ILLEGAL, 1), OV_DASH_SOLID, CROSS " a model that broke a rule");
        }
        if (s == M_UNSURE)
            ov_sc_legend(u->sc, OV_SAMPLE_UNSURE, ov_paint_of(OV_INK_UNSURE, 1), OV_DASH_SOLID,
                         "? cannot tell: within the measurement's reach, or placements disagree");
        if (md->evidence == RULES_EVIDENCE_INFERRED)
            ov_sc_legend(u->sc, OV_SAMPLE_INFERRED, ov_paint_of(ink, 1), OV_DASH_DOTTED,
                         "dotted: not seen, placed from its formation");
    }
    if (u->ur->verdict == RULES_VERDICT_NOT_SEEN)
        ov_sc_legend(u->sc, OV_SAMPLE_NOT_SEEN, ov_paint_of(OV_INK_NOT_SEEN, 1), OV_DASH_SOLID, "not seen: cannot judge");
    else
        ov_sc_legend(u->sc, OV_SAMPLE_AFTER, ov_paint_of(OV_INK_LEGAL, 1), OV_DASH_SOLID, TICK " where the models are now");
}

void ovu_outline(unit_ctx *u)
{
    base_vec2 k[4];
    base_obb_corners(&u->fa.boundary, k);
    ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, k, 4, L_OUTLINE);
    if (m)
        m->closed = true, m->line = ovu_paint(u, u->ink, 1), m->width = 1.3, m->around = true;
    base_vec2 fc = u->fa.front_centre;
    base_vec2 arrow[2] = {fc, base_v2_add(fc, base_v2_scale(base_v2_dir(u->fa.heading), 0.25 * u->fa.boundary.width))};
    if ((m = ov_sc_mark(u->sc, OV_MARK_ARROW, arrow, 2, L_OUTLINE)))
        m->line = ovu_paint(u, u->ink, 1), m->width = 1.3;
    if ((m = ov_sc_mark(u->sc, OV_MARK_CENTRE, &u->fa.centre, 1, L_OUTLINE)))
        m->line = ovu_paint(u, u->ink, 1), m->width = 0.9;
    if ((m = ov_sc_mark(u->sc, OV_MARK_FRONT, &fc, 1, L_OUTLINE)))
        m->line = ovu_paint(u, u->ink, 1), m->width = 0.9;
    ov_sc_legend(u->sc, OV_SAMPLE_CENTRE, ov_paint_of(OV_INK_NEUTRAL, 1), OV_DASH_SOLID, "the unit's Centre");
    ov_sc_legend(u->sc, OV_SAMPLE_FRONT, ov_paint_of(OV_INK_NEUTRAL, 1), OV_DASH_SOLID,
                 "the centre of its Front Facing, arrow: its facing");
}

/* An arrow per model; bold for the models that matter, faint for the rest (a reform's arrows cross). */
void ovu_arrows(unit_ctx *u)
{
    for (size_t i = 0; i < u->ua->n_models; i++) {
        const rules_model *m1 = &u->ua->models[i], *m0 = rules_unit_find_model(u->ub, m1->id);
        if (!m0 || base_v2_dist(m0->pos, m1->pos) < 1.0)
            continue;
        model_state s = ovu_state_of(u, m1->id);
        bool key = s != M_FINE || (u->far >= 0 && strcmp(u->ur->models[u->far].id, m1->id) == 0);
        base_vec2 seg[2] = {m0->pos, m1->pos};
        ov_mark *m = ov_sc_mark(u->sc, OV_MARK_ARROW, seg, 2, L_ARROWS);
        if (m) {
            m->line = ovu_paint(u, ovu_state_ink(u, s), key ? 1.0 : u->brief ? 0.45 : 0.75);
            m->width = key ? 0.9 : 0.45;
        }
    }
    ov_sc_legend(u->sc, OV_SAMPLE_ARROW, ov_paint_of(OV_INK_LEGAL, 1), OV_DASH_SOLID, "each model's move");
}

/* Closest points of two convex polygons that do not overlap; along parallel edges, the middle of the stretch. */
static double poly_closest(const base_vec2 *a, const base_vec2 *b, base_vec2 *pa, base_vec2 *pb)
{
    double best = INFINITY;
    base_vec2 sa = {0, 0}, sb = {0, 0};
    int n_best = 0;
    for (int round = 0; round < 2; round++)
        for (int pass = 0; pass < 2; pass++) {
            const base_vec2 *P = pass ? b : a, *Q = pass ? a : b;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    base_vec2 q0 = Q[j], d = base_v2_sub(Q[(j + 1) % 4], q0);
                    double L = base_v2_dot(d, d), s = L > 0 ? base_v2_dot(base_v2_sub(P[i], q0), d) / L : 0;
                    base_vec2 q = base_v2_add(q0, base_v2_scale(d, fmin(1, fmax(0, s))));
                    double dist = base_v2_dist(P[i], q);
                    if (round == 0) {
                        best = fmin(best, dist);
                    } else if (dist <= best + 0.05) {
                        sa = base_v2_add(sa, pass ? q : P[i]);
                        sb = base_v2_add(sb, pass ? P[i] : q);
                        n_best++;
                    }
                }
        }
    if (n_best)
        *pa = base_v2_scale(sa, 1.0 / n_best), *pb = base_v2_scale(sb, 1.0 / n_best);
    return best;
}

/* The smallest gap to another unit, when under Unit Spacing. */
void ovu_gap(unit_ctx *u)
{
    const rules_snapshot *after = u->after;
    base_vec2 mine[4], best_a = {0, 0}, best_b = {0, 0};
    base_obb_corners(&u->fa.boundary, mine);
    double best = INFINITY;
    for (size_t i = 0; i < after->n_units; i++) {
        const rules_unit *o = &after->units[i];
        rules_formation f;
        if (o == u->ua || o->n_models == 0 || rules_formation_fit(o, NULL, &f, NULL) < 0)
            continue;
        base_vec2 theirs[4], pa, pb;
        base_obb_corners(&f.boundary, theirs);
        if (base_poly_overlap(mine, 4, theirs, 4))
            continue; /* an overlap is its own violation */
        double d = poly_closest(mine, theirs, &pa, &pb);
        if (d < best)
            best = d, best_a = pa, best_b = pb;
    }
    const double spacing = u->rs->unit_spacing_mm;
    if (!(best < spacing))
        return;
    ov_ink ink = u->ur->verdict == RULES_VERDICT_ILLEGAL ? OV_INK_ILLEGAL : OV_INK_UNSURE;
    base_vec2 seg[2] = {best_a, best_b}, d = base_v2_sub(best_b, best_a);
    double L = base_v2_len(d);
    base_vec2 nrm = L > 1e-9 ? base_v2_scale(base_v2(-d.y, d.x), 6.0 / L) : base_v2(0, 6);
    base_vec2 t0[2] = {base_v2_add(best_a, nrm), base_v2_sub(best_a, nrm)};
    base_vec2 t1[2] = {base_v2_add(best_b, nrm), base_v2_sub(best_b, nrm)};
    const base_vec2 *segs[3] = {seg, t0, t1};
    for (int i = 0; i < 3; i++) {
        ov_mark *m = ov_sc_mark(u->sc, OV_MARK_LINE, segs[i], 2, L_GAP);
        if (m)
            m->line = ovu_paint(u, ink, 1), m->width = i ? 0.8 : 1.1, m->role = i ? OV_ROLE_NONE : OV_ROLE_LINE;
    }
    ov_sc_legend(u->sc, OV_SAMPLE_GAP, ov_paint_of(ink, 1), OV_DASH_SOLID, "a gap under Unit Spacing");
    char g[24], s[24];
    ov_fmt_in(g, sizeof g, best);
    ov_fmt_in(s, sizeof s, spacing);
    ov_label *l = ovu_label(u, OV_LABEL_PILL, "", base_v2_scale(base_v2_add(best_a, best_b), 0.5), P_GAP, ink);
    if (l)
        l->text = ov_sc_strf(u->sc, "gap %s < %s", g, s);
}
