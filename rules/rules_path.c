#include "rules_path.h"

#include <stdio.h>
#include <string.h>

/* Angle in [0, 2pi), with round-off just below 2pi read as 0: a turn of -1e-12 is no turn, not a full circle. */
static double mod2pi(double a)
{
    a = base_angle_wrap_2pi(a);
    return 2 * BASE_PI - a < 1e-9 ? 0.0 : a;
}

static base_vec2 left_of(double heading)
{
    return base_v2_dir(heading + BASE_PI / 2);
}

rules_pose rules_path_apply_step(rules_pose p, const rules_step *s, double w)
{
    base_vec2 h = base_v2_dir(p.heading);
    switch (s->kind) {
    case RULES_STEP_FORWARD:
    case RULES_STEP_BACKWARD:
    case RULES_STEP_SIDEWAYS_LEFT:
    case RULES_STEP_SIDEWAYS_RIGHT: {
        /* Moved distance: straight steps count exactly what they move. */
        base_vec2 dir = s->kind == RULES_STEP_FORWARD    ? h
                         : s->kind == RULES_STEP_BACKWARD ? base_v2_scale(h, -1)
                         : s->kind == RULES_STEP_SIDEWAYS_LEFT ? left_of(p.heading)
                                                               : base_v2_scale(left_of(p.heading), -1);
        p.front_centre = base_v2_add(p.front_centre, base_v2_scale(dir, s->length_mm));
        break;
    }
    case RULES_STEP_WHEEL_LEFT:
    case RULES_STEP_WHEEL_RIGHT: {
        double side = s->kind == RULES_STEP_WHEEL_LEFT ? 1.0 : -1.0;
        base_vec2 pivot = base_v2_add(p.front_centre, base_v2_scale(left_of(p.heading), side * w / 2));
        p.front_centre = base_v2_add(pivot, base_v2_rot(base_v2_sub(p.front_centre, pivot), s->angle_rad));
        p.heading = base_angle_wrap(p.heading + s->angle_rad);
        break;
    }
    case RULES_STEP_PIVOT:
        p.heading = base_angle_wrap(p.heading + s->angle_rad);
        break;
    }
    return p;
}

rules_pose rules_path_apply(rules_pose p, const rules_path *path, double w)
{
    for (size_t i = 0; i < path->n_steps; i++)
        p = rules_path_apply_step(p, &path->steps[i], w);
    return p;
}

double rules_path_wheel_cost(double angle, double w, const rules_ruleset *rs)
{
    angle = fabs(angle);
    if (rs->wheel_measure == RULES_WHEEL_ARC || rs->wheel_chord_max_rad <= 0)
        return w * angle;
    /* Chords: a wheel longer than the allowed angle counts as equal parts. */
    double parts = ceil(angle / rs->wheel_chord_max_rad - 1e-12);
    if (parts < 1)
        parts = 1;
    return parts * 2 * w * sin(angle / (2 * parts));
}

/* ---- Dubins words ------------------------------------------------------ */

typedef enum { SEG_L, SEG_S, SEG_R } seg_type;

static const seg_type words[6][3] = {
    {SEG_L, SEG_S, SEG_L}, {SEG_R, SEG_S, SEG_R}, {SEG_L, SEG_S, SEG_R},
    {SEG_R, SEG_S, SEG_L}, {SEG_R, SEG_L, SEG_R}, {SEG_L, SEG_R, SEG_L},
};

typedef struct {
    double a, b, ca, cb, sa, sb, c_ab, d, d_sq;
} dubins_in;

/* Normalised segment parameters for word `w` (arcs in radians, straight in radii); up to 2 solutions. */
static int word_params(int w, const dubins_in *in, double out[2][3])
{
    const double a = in->a, b = in->b, ca = in->ca, cb = in->cb, sa = in->sa, sb = in->sb;
    const double c_ab = in->c_ab, d = in->d, d_sq = in->d_sq;
    double p_sq, tmp0, tmp1, p;
    switch (w) {
    case 0: /* LSL */
        p_sq = 2 + d_sq - 2 * c_ab + 2 * d * (sa - sb);
        if (p_sq < 0)
            return 0;
        tmp1 = atan2(cb - ca, d + sa - sb);
        out[0][0] = mod2pi(tmp1 - a);
        out[0][1] = sqrt(p_sq);
        out[0][2] = mod2pi(b - tmp1);
        return 1;
    case 1: /* RSR */
        p_sq = 2 + d_sq - 2 * c_ab + 2 * d * (sb - sa);
        if (p_sq < 0)
            return 0;
        tmp1 = atan2(ca - cb, d - sa + sb);
        out[0][0] = mod2pi(a - tmp1);
        out[0][1] = sqrt(p_sq);
        out[0][2] = mod2pi(tmp1 - b);
        return 1;
    case 2: /* LSR */
        p_sq = -2 + d_sq + 2 * c_ab + 2 * d * (sa + sb);
        if (p_sq < 0)
            return 0;
        p = sqrt(p_sq);
        tmp0 = atan2(-ca - cb, d + sa + sb) - atan2(-2.0, p);
        out[0][0] = mod2pi(tmp0 - a);
        out[0][1] = p;
        out[0][2] = mod2pi(tmp0 - mod2pi(b));
        return 1;
    case 3: /* RSL */
        p_sq = -2 + d_sq + 2 * c_ab - 2 * d * (sa + sb);
        if (p_sq < 0)
            return 0;
        p = sqrt(p_sq);
        tmp0 = atan2(ca + cb, d - sa - sb) - atan2(2.0, p);
        out[0][0] = mod2pi(a - tmp0);
        out[0][1] = p;
        out[0][2] = mod2pi(b - tmp0);
        return 1;
    case 4: { /* RLR */
        tmp0 = (6 - d_sq + 2 * c_ab + 2 * d * (sa - sb)) / 8;
        if (fabs(tmp0) > 1)
            return 0;
        double phi = atan2(ca - cb, d - sa + sb);
        int n = 0;
        for (int k = 0; k < 2; k++) {
            p = k == 0 ? mod2pi(2 * BASE_PI - acos(tmp0)) : acos(tmp0);
            out[n][0] = mod2pi(a - phi + mod2pi(p / 2));
            out[n][1] = p;
            out[n][2] = mod2pi(a - b - out[n][0] + mod2pi(p));
            n++;
        }
        return n;
    }
    default: { /* LRL */
        tmp0 = (6 - d_sq + 2 * c_ab + 2 * d * (sb - sa)) / 8;
        if (fabs(tmp0) > 1)
            return 0;
        double phi = atan2(ca - cb, d + sa - sb);
        int n = 0;
        for (int k = 0; k < 2; k++) {
            p = k == 0 ? mod2pi(2 * BASE_PI - acos(tmp0)) : acos(tmp0);
            out[n][0] = mod2pi(-a - phi + p / 2);
            out[n][1] = p;
            out[n][2] = mod2pi(mod2pi(b) - a - out[n][0] + mod2pi(p));
            n++;
        }
        return n;
    }
    }
}

static void push_step(rules_path *p, rules_step_kind kind, double moved, double angle, double counted)
{
    /* Zero-length pieces are artefacts of the word, not steps a player makes. */
    if (fabs(moved) < 1e-9 && fabs(angle) < 1e-9)
        return;
    if (p->n_steps >= RULES_PATH_MAX_STEPS)
        return;
    p->steps[p->n_steps++] = (rules_step){kind, counted, angle};
    p->length_mm += counted;
}

static void build_path(int w, const double prm[3], double rho, double width, const rules_ruleset *rs,
                       rules_path *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++) {
        switch (words[w][i]) {
        case SEG_S: push_step(out, RULES_STEP_FORWARD, prm[i] * rho, 0, prm[i] * rho); break;
        case SEG_L: push_step(out, RULES_STEP_WHEEL_LEFT, 0, prm[i], rules_path_wheel_cost(prm[i], width, rs)); break;
        case SEG_R: push_step(out, RULES_STEP_WHEEL_RIGHT, 0, -prm[i], rules_path_wheel_cost(prm[i], width, rs)); break;
        }
    }
}

/* ---- words beyond Dubins ------------------------------------------------ */

/*
 * Displacement of the Front Facing's centre over a wheel of a >= 0 radians,
 * turning d = +1 (left) or -1 (right), starting at heading th. It depends on
 * the heading only, not on where the wheel happens: that is what lets us
 * solve the straights of a word as a small linear system.
 */
static base_vec2 arc_disp(double rho, double th, double a, int d)
{
    return base_v2_scale(base_v2(sin(th + d * a) - sin(th), cos(th) - cos(th + d * a)), rho * d);
}

typedef struct {
    rules_pose from, to;
    double width, rho, delta;
    const rules_ruleset *rs;
    double pos_tol, ang_tol;
    rules_path *best;
    bool *found;
} word_search;

/* Builds the path of segments (kinds/values), keeps it when it lands on `to` and is cheaper. */
static void consider(const word_search *ws, const seg_type *kinds, const double *values, int n)
{
    rules_path cand;
    memset(&cand, 0, sizeof cand);
    for (int i = 0; i < n; i++) {
        double v = values[i];
        if (v < 0)
            return;
        if (kinds[i] == SEG_S)
            push_step(&cand, RULES_STEP_FORWARD, v, 0, v);
        else
            push_step(&cand, kinds[i] == SEG_L ? RULES_STEP_WHEEL_LEFT : RULES_STEP_WHEEL_RIGHT, 0,
                      kinds[i] == SEG_L ? v : -v, rules_path_wheel_cost(v, ws->width, ws->rs));
    }
    if (*ws->found && cand.length_mm >= ws->best->length_mm)
        return;
    rules_pose end = rules_path_apply(ws->from, &cand, ws->width);
    if (base_v2_dist(end.front_centre, ws->to.front_centre) > ws->pos_tol ||
        fabs(base_angle_wrap(end.heading - ws->to.heading)) > ws->ang_tol)
        return;
    *ws->best = cand;
    *ws->found = true;
}

/* Two arcs (d, then -d) whose turns sum to the heading change; a1 is free. */
static double second_arc(const word_search *ws, double a1, int d)
{
    return mod2pi(a1 - d * ws->delta);
}

/*
 * Straight-arc-straight and the two-straight words with an S-bend
 * (arc, straight, opposite arc, straight and its mirror): v = s1*h1 + s2*h2.
 */
static double two_straights(const word_search *ws, base_vec2 v, double th1, double th2, double *s1, double *s2)
{
    base_vec2 h1 = base_v2_dir(th1), h2 = base_v2_dir(th2);
    double det = base_v2_cross(h1, h2);
    if (fabs(det) < 1e-12)
        return INFINITY;
    *s1 = base_v2_cross(v, h2) / det;
    *s2 = base_v2_cross(h1, v) / det;
    (void)ws;
    return *s1 >= -1e-9 && *s2 >= -1e-9 ? fmax(*s1, 0) + fmax(*s2, 0) : INFINITY;
}

/* Cost of arc, straight, opposite arc, straight (first_straight: straight, arc, straight, opposite arc). */
static double sbend_cost(const word_search *ws, double a1, int d, bool first_straight, double *s1, double *s2)
{
    double a2 = second_arc(ws, a1, d), th0 = ws->from.heading, thm = th0 + d * a1;
    base_vec2 disp = base_v2_add(arc_disp(ws->rho, th0, a1, d), arc_disp(ws->rho, thm, a2, -d));
    base_vec2 v = base_v2_sub(base_v2_sub(ws->to.front_centre, ws->from.front_centre), disp);
    double straight = first_straight ? two_straights(ws, v, th0, thm, s1, s2) : two_straights(ws, v, thm, ws->to.heading, s1, s2);
    return straight + rules_path_wheel_cost(a1, ws->width, ws->rs) + rules_path_wheel_cost(a2, ws->width, ws->rs);
}

/* Residual of arc, opposite arc, straight (or straight first): zero when the straight closes the gap. */
static double ccs_residual(const word_search *ws, double a1, int d, bool first_straight, double *s)
{
    double a2 = second_arc(ws, a1, d), th0 = ws->from.heading;
    base_vec2 disp = base_v2_add(arc_disp(ws->rho, th0, a1, d), arc_disp(ws->rho, th0 + d * a1, a2, -d));
    base_vec2 v = base_v2_sub(base_v2_sub(ws->to.front_centre, ws->from.front_centre), disp);
    base_vec2 h = base_v2_dir(first_straight ? th0 : ws->to.heading);
    *s = base_v2_dot(v, h);
    return base_v2_cross(h, v);
}

#define WORD_SCAN 48

/*
 * A word's wheels cost at least this fraction of W per radian (1 by arc;
 * chords of at most 90 degrees are at least 0.9 of their arc). Used to skip
 * parts of the scan that cannot beat the best path found so far, which is
 * nearly all of it for ordinary moves.
 */
static double min_cost_per_rad(const word_search *ws)
{
    return ws->rs->wheel_measure == RULES_WHEEL_ARC ? ws->width : 0.9 * ws->width;
}

/* Lower bound on the wheels' cost over first-arc angles [lo, hi]. */
static double turning_bound(const word_search *ws, double lo, double hi, int d)
{
    double wrap = mod2pi(d * ws->delta); /* where the second arc drops back to zero */
    double a2_min = (wrap >= lo && wrap <= hi) ? 0.0 : second_arc(ws, lo, d);
    return min_cost_per_rad(ws) * (lo + a2_min) - 1e-9;
}

static bool hopeless(const word_search *ws, double lo, double hi, int d)
{
    return *ws->found && turning_bound(ws, lo, hi, d) >= ws->best->length_mm;
}

/* S C S: one wheel through the whole turn, straights at the start and end headings. */
static void consider_scs(word_search *ws)
{
    for (int d = -1; d <= 1; d += 2) {
        double turn = mod2pi(d * ws->delta), s1, s2;
        base_vec2 v = base_v2_sub(base_v2_sub(ws->to.front_centre, ws->from.front_centre),
                                  arc_disp(ws->rho, ws->from.heading, turn, d));
        if (turn > 1e-9 && isfinite(two_straights(ws, v, ws->from.heading, ws->to.heading, &s1, &s2))) {
            seg_type k[3] = {SEG_S, d > 0 ? SEG_L : SEG_R, SEG_S};
            consider(ws, k, (double[]){fmax(s1, 0), turn, fmax(s2, 0)}, 3);
        }
    }
}

/* C C S and S C C (turning d first): every root of the residual in the
 * first arc's angle, bracketed by a scan and bisected. */
static void consider_ccs(word_search *ws, int d, int first_straight)
{
    const double step = 2 * BASE_PI / WORD_SCAN;
    seg_type c1 = d > 0 ? SEG_L : SEG_R, c2 = d > 0 ? SEG_R : SEG_L;
    double s_prev, r_prev = ccs_residual(ws, 0, d, first_straight, &s_prev);
    for (int i = 1; i <= WORD_SCAN; i++) {
        double a = i * step;
        if (hopeless(ws, a - step, a, d)) {
            r_prev = NAN; /* no root is looked for across a skipped interval */
            continue;
        }
        double s_cur, r_cur = ccs_residual(ws, a, d, first_straight, &s_cur);
        if (!isnan(r_prev) && (r_prev <= 0) != (r_cur <= 0)) {
            double lo = a - step, hi = a, rlo = r_prev;
            for (int it = 0; it < 60; it++) {
                double mid = (lo + hi) / 2, s_mid, rm = ccs_residual(ws, mid, d, first_straight, &s_mid);
                if ((rm <= 0) == (rlo <= 0)) {
                    lo = mid;
                    rlo = rm;
                } else {
                    hi = mid;
                }
            }
            double a1 = (lo + hi) / 2, s;
            ccs_residual(ws, a1, d, first_straight, &s);
            double a2 = second_arc(ws, a1, d);
            if (first_straight)
                consider(ws, (seg_type[]){SEG_S, c1, c2}, (double[]){s, a1, a2}, 3);
            else
                consider(ws, (seg_type[]){c1, c2, SEG_S}, (double[]){a1, a2, s}, 3);
        }
        r_prev = r_cur;
    }
}

/* C S C S and S C S C (turning d first): the cheapest first arc, by scan then golden section. */
static void consider_sbend(word_search *ws, int d, int first_straight)
{
    const double step = 2 * BASE_PI / WORD_SCAN;
    seg_type c1 = d > 0 ? SEG_L : SEG_R, c2 = d > 0 ? SEG_R : SEG_L;
    double best_a = -1, best_c = INFINITY, s1, s2;
    for (int i = 0; i < WORD_SCAN; i++) {
        if (hopeless(ws, fmax(i * step - step, 0), i * step + step, d))
            continue;
        double c = sbend_cost(ws, i * step, d, first_straight, &s1, &s2);
        if (c < best_c) {
            best_c = c;
            best_a = i * step;
        }
    }
    if (best_a < 0 || (*ws->found && best_c > ws->best->length_mm + ws->width * step))
        return;
    double lo = best_a - step, hi = best_a + step;
    const double g = 0.6180339887498949;
    for (int it = 0; it < 50; it++) {
        double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
        if (sbend_cost(ws, fmax(x1, 0), d, first_straight, &s1, &s2) <
            sbend_cost(ws, fmax(x2, 0), d, first_straight, &s1, &s2))
            hi = x2;
        else
            lo = x1;
    }
    double a1 = fmax((lo + hi) / 2, 0);
    if (!isfinite(sbend_cost(ws, a1, d, first_straight, &s1, &s2)))
        return;
    double a2 = second_arc(ws, a1, d);
    if (first_straight)
        consider(ws, (seg_type[]){SEG_S, c1, SEG_S, c2}, (double[]){fmax(s1, 0), a1, fmax(s2, 0), a2}, 4);
    else
        consider(ws, (seg_type[]){c1, SEG_S, c2, SEG_S}, (double[]){a1, fmax(s1, 0), a2, fmax(s2, 0)}, 4);
}

static void search_extra_words(rules_pose from, rules_pose to, double width, const rules_ruleset *rs,
                               double pos_tol, double ang_tol, rules_path *best, bool *found)
{
    word_search ws = {from, to, width, width / 2, base_angle_wrap(to.heading - from.heading), rs,
                      pos_tol, ang_tol, best, found};
    consider_scs(&ws);
    for (int d = -1; d <= 1; d += 2)
        for (int first_straight = 0; first_straight <= 1; first_straight++) {
            consider_ccs(&ws, d, first_straight);
            consider_sbend(&ws, d, first_straight);
        }
}

/* The Dubins words' closed forms (every word that has one), cheapest first:
 * the first that verifiably closes on `to` goes into *out. Simulating each
 * would cost more than solving. Returns whether one closed. */
static bool best_dubins_word(rules_pose from, rules_pose to, double width, const rules_ruleset *rs, double pos_tol,
                             double ang_tol, rules_path *out)
{
    const double rho = width / 2;
    base_vec2 delta = base_v2_sub(to.front_centre, from.front_centre);
    double dist = base_v2_len(delta);
    double theta = dist > 0 ? mod2pi(atan2(delta.y, delta.x)) : 0.0;
    dubins_in in;
    in.d = dist / rho;
    in.d_sq = in.d * in.d;
    in.a = mod2pi(from.heading - theta);
    in.b = mod2pi(to.heading - theta);
    in.sa = sin(in.a);
    in.sb = sin(in.b);
    in.ca = cos(in.a);
    in.cb = cos(in.b);
    in.c_ab = cos(in.a - in.b);
    rules_path cands[12];
    int order[12], n_cands = 0;
    for (int w = 0; w < 6; w++) {
        double prm[2][3];
        int n = word_params(w, &in, prm);
        for (int k = 0; k < n; k++) {
            build_path(w, prm[k], rho, width, rs, &cands[n_cands]);
            int j = n_cands++;
            while (j > 0 && cands[order[j - 1]].length_mm > cands[n_cands - 1].length_mm) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = n_cands - 1;
        }
    }
    for (int i = 0; i < n_cands; i++) {
        rules_pose end = rules_path_apply(from, &cands[order[i]], width);
        if (base_v2_dist(end.front_centre, to.front_centre) > pos_tol ||
            fabs(base_angle_wrap(end.heading - to.heading)) > ang_tol)
            continue; /* a word whose closed form does not close: not a path */
        *out = cands[order[i]];
        return true;
    }
    return false;
}

/*
 * The closed forms, and camera jitter, leave wheels of a tenth of a
 * millimetre where a player made none. Drop steps shorter than 0.005"
 * (what rounds to 0.00") when the path still lands within 0.05 mm
 * without them: the referee decides to 1 mm, and a player should not
 * read "wheel 0.00"".
 */
static void drop_crumbs(rules_pose from, rules_pose to, double width, rules_path *out)
{
    rules_path clean = *out;
    size_t kept = 0;
    for (size_t i = 0; i < out->n_steps; i++) {
        if (out->steps[i].length_mm < 0.127) {
            clean.length_mm -= out->steps[i].length_mm;
            continue;
        }
        clean.steps[kept++] = out->steps[i];
    }
    if (kept == out->n_steps)
        return; /* nothing to drop: no second drive needed */
    clean.n_steps = kept;
    rules_pose end = rules_path_apply(from, &clean, width);
    if (base_v2_dist(end.front_centre, to.front_centre) < 0.05 &&
        fabs(base_angle_wrap(end.heading - to.heading)) < 1e-4)
        *out = clean;
}

void rules_path_forward_wheels(rules_pose from, rules_pose to, double width, const rules_ruleset *rs,
                               rules_path *out)
{
    /* Verification tolerance: far below the 1 mm the referee decides on. */
    const double dist = base_v2_len(base_v2_sub(to.front_centre, from.front_centre));
    const double pos_tol = 1e-6 * fmax(1.0, dist + width), ang_tol = 1e-7;
    bool found = best_dubins_word(from, to, width, rs, pos_tol, ang_tol, out);
    /*
     * Families the Dubins words miss once turning costs more than it moves
     * (see search_extra_words). Measured over 300,000 random multi-wheel
     * paths, they only ever won when the best Dubins path wheels 190 degrees
     * or more in all, so below 150 degrees the scan is skipped: it is the
     * costly part, and ordinary moves turn far less.
     */
    double turning = 0;
    for (size_t i = 0; found && i < out->n_steps; i++)
        turning += fabs(out->steps[i].angle_rad);
    if (!found || turning > base_deg_to_rad(150))
        search_extra_words(from, to, width, rs, pos_tol, ang_tol, out, &found);
    if (!found) {
        /* Cannot happen for width > 0 (LSL or RSR always closes); keep a truthful fallback. */
        memset(out, 0, sizeof *out);
        out->length_mm = INFINITY;
        return;
    }
    drop_crumbs(from, to, width, out);
}

void rules_path_single_model(base_vec2 from, double from_facing, base_vec2 to, double to_facing,
                             rules_path *out)
{
    memset(out, 0, sizeof *out);
    base_vec2 d = base_v2_sub(to, from);
    double len = base_v2_len(d);
    double dir = len > 1e-9 ? atan2(d.y, d.x) : from_facing;
    push_step(out, RULES_STEP_PIVOT, 0, base_angle_wrap(dir - from_facing), 0);
    push_step(out, RULES_STEP_FORWARD, len, 0, len);
    push_step(out, RULES_STEP_PIVOT, 0, base_angle_wrap(to_facing - dir), 0);
}

const char *rules_step_word(rules_step_kind kind)
{
    switch (kind) {
    case RULES_STEP_FORWARD: return "forward";
    case RULES_STEP_WHEEL_LEFT: return "wheel_left";
    case RULES_STEP_WHEEL_RIGHT: return "wheel_right";
    case RULES_STEP_BACKWARD: return "backward";
    case RULES_STEP_SIDEWAYS_LEFT: return "sideways_left";
    case RULES_STEP_SIDEWAYS_RIGHT: return "sideways_right";
    case RULES_STEP_PIVOT: return "pivot";
    }
    return "?";
}

void rules_step_describe(const rules_step *s, char *buf, size_t cap)
{
    double in = base_mm_to_in(s->length_mm);
    double deg = base_rad_to_deg(fabs(s->angle_rad));
    switch (s->kind) {
    case RULES_STEP_FORWARD: snprintf(buf, cap, "forward %.2f\"", in); break;
    case RULES_STEP_BACKWARD: snprintf(buf, cap, "backward %.2f\"", in); break;
    case RULES_STEP_SIDEWAYS_LEFT: snprintf(buf, cap, "sideways left %.2f\"", in); break;
    case RULES_STEP_SIDEWAYS_RIGHT: snprintf(buf, cap, "sideways right %.2f\"", in); break;
    case RULES_STEP_WHEEL_LEFT:
        snprintf(buf, cap, "wheel %.2f\" about the left front corner (%.1f deg left)", in, deg);
        break;
    case RULES_STEP_WHEEL_RIGHT:
        snprintf(buf, cap, "wheel %.2f\" about the right front corner (%.1f deg right)", in, deg);
        break;
    case RULES_STEP_PIVOT:
        snprintf(buf, cap, "pivot %.1f deg %s", deg, s->angle_rad >= 0 ? "left" : "right");
        break;
    }
}
