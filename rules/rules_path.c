#include "rules_path.h"

#include <stdio.h>
#include <string.h>

/* Angle in [0, 2pi), with round-off just below 2pi read as 0: a turn of -1e-12 is no turn, not a full circle. */
static double mod2pi(double a)
{
    a = rules_angle_wrap_2pi(a);
    return 2 * RULES_PI - a < 1e-9 ? 0.0 : a;
}

static rules_vec2 left_of(double heading)
{
    return rules_v2_dir(heading + RULES_PI / 2);
}

rules_pose rules_path_apply_step(rules_pose p, const rules_step *s, double w)
{
    rules_vec2 h = rules_v2_dir(p.heading);
    switch (s->kind) {
    case RULES_STEP_FORWARD:
    case RULES_STEP_BACKWARD:
    case RULES_STEP_SIDEWAYS_LEFT:
    case RULES_STEP_SIDEWAYS_RIGHT: {
        /* Moved distance: straight steps count exactly what they move. */
        rules_vec2 dir = s->kind == RULES_STEP_FORWARD    ? h
                         : s->kind == RULES_STEP_BACKWARD ? rules_v2_scale(h, -1)
                         : s->kind == RULES_STEP_SIDEWAYS_LEFT ? left_of(p.heading)
                                                               : rules_v2_scale(left_of(p.heading), -1);
        p.front_centre = rules_v2_add(p.front_centre, rules_v2_scale(dir, s->length_mm));
        break;
    }
    case RULES_STEP_WHEEL_LEFT:
    case RULES_STEP_WHEEL_RIGHT: {
        double side = s->kind == RULES_STEP_WHEEL_LEFT ? 1.0 : -1.0;
        rules_vec2 pivot = rules_v2_add(p.front_centre, rules_v2_scale(left_of(p.heading), side * w / 2));
        p.front_centre = rules_v2_add(pivot, rules_v2_rot(rules_v2_sub(p.front_centre, pivot), s->angle_rad));
        p.heading = rules_angle_wrap(p.heading + s->angle_rad);
        break;
    }
    case RULES_STEP_PIVOT:
        p.heading = rules_angle_wrap(p.heading + s->angle_rad);
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

/* Distance a wheel of `angle` counts for, by the ruleset's measure. */
static double wheel_cost(double angle, double w, const rules_ruleset *rs)
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
            p = k == 0 ? mod2pi(2 * RULES_PI - acos(tmp0)) : acos(tmp0);
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
            p = k == 0 ? mod2pi(2 * RULES_PI - acos(tmp0)) : acos(tmp0);
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
        case SEG_L: push_step(out, RULES_STEP_WHEEL_LEFT, 0, prm[i], wheel_cost(prm[i], width, rs)); break;
        case SEG_R: push_step(out, RULES_STEP_WHEEL_RIGHT, 0, -prm[i], wheel_cost(prm[i], width, rs)); break;
        }
    }
}

void rules_path_forward_wheels(rules_pose from, rules_pose to, double width, const rules_ruleset *rs,
                               rules_path *out)
{
    const double rho = width / 2;
    rules_vec2 delta = rules_v2_sub(to.front_centre, from.front_centre);
    double dist = rules_v2_len(delta);
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

    /* Verification tolerance: far below the 1 mm the referee decides on. */
    const double pos_tol = 1e-6 * fmax(1.0, dist + width), ang_tol = 1e-7;
    bool found = false;
    for (int w = 0; w < 6; w++) {
        double prm[2][3];
        int n = word_params(w, &in, prm);
        for (int k = 0; k < n; k++) {
            rules_path cand;
            build_path(w, prm[k], rho, width, rs, &cand);
            rules_pose end = rules_path_apply(from, &cand, width);
            if (rules_v2_dist(end.front_centre, to.front_centre) > pos_tol ||
                fabs(rules_angle_wrap(end.heading - to.heading)) > ang_tol)
                continue; /* a word whose closed form does not close: not a path */
            if (!found || cand.length_mm < out->length_mm) {
                *out = cand;
                found = true;
            }
        }
    }
    /*
     * Straight, wheel, straight. With wheels costing more than their
     * displacement, an about-face can be cheapest as one wheel between two
     * straights at the start and end headings (the Dubins words assume free
     * turning and never need this). The wheel's displacement does not depend
     * on where it happens, so the two straights solve a 2x2 system.
     */
    for (int dir = -1; dir <= 1; dir += 2) {
        double turn = dir > 0 ? mod2pi(to.heading - from.heading) : mod2pi(from.heading - to.heading);
        if (turn < 1e-9)
            continue;
        rules_path arc_only;
        memset(&arc_only, 0, sizeof arc_only);
        push_step(&arc_only, dir > 0 ? RULES_STEP_WHEEL_LEFT : RULES_STEP_WHEEL_RIGHT, 0, dir * turn,
                  wheel_cost(turn, width, rs));
        rules_pose after_arc = rules_path_apply(from, &arc_only, width);
        rules_vec2 v = rules_v2_sub(to.front_centre, after_arc.front_centre);
        rules_vec2 h0 = rules_v2_dir(from.heading), h1 = rules_v2_dir(to.heading);
        double det = rules_v2_cross(h0, h1);
        if (fabs(det) < 1e-12)
            continue;
        double s1 = rules_v2_cross(v, h1) / det, s2 = rules_v2_cross(h0, v) / det;
        if (s1 < -1e-9 || s2 < -1e-9)
            continue;
        rules_path cand;
        memset(&cand, 0, sizeof cand);
        push_step(&cand, RULES_STEP_FORWARD, fmax(s1, 0), 0, fmax(s1, 0));
        push_step(&cand, arc_only.steps[0].kind, 0, dir * turn, arc_only.steps[0].length_mm);
        push_step(&cand, RULES_STEP_FORWARD, fmax(s2, 0), 0, fmax(s2, 0));
        rules_pose end = rules_path_apply(from, &cand, width);
        if (rules_v2_dist(end.front_centre, to.front_centre) > pos_tol ||
            fabs(rules_angle_wrap(end.heading - to.heading)) > ang_tol)
            continue;
        if (!found || cand.length_mm < out->length_mm) {
            *out = cand;
            found = true;
        }
    }
    if (!found) {
        /* Cannot happen for width > 0 (LSL or RSR always closes); keep a truthful fallback. */
        memset(out, 0, sizeof *out);
        out->length_mm = INFINITY;
    }
}

void rules_path_single_model(rules_vec2 from, double from_facing, rules_vec2 to, double to_facing,
                             rules_path *out)
{
    memset(out, 0, sizeof *out);
    rules_vec2 d = rules_v2_sub(to, from);
    double len = rules_v2_len(d);
    double dir = len > 1e-9 ? atan2(d.y, d.x) : from_facing;
    push_step(out, RULES_STEP_PIVOT, 0, rules_angle_wrap(dir - from_facing), 0);
    push_step(out, RULES_STEP_FORWARD, len, 0, len);
    push_step(out, RULES_STEP_PIVOT, 0, rules_angle_wrap(to_facing - dir), 0);
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
    double in = rules_mm_to_in(s->length_mm);
    double deg = rules_rad_to_deg(fabs(s->angle_rad));
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
