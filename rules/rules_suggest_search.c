/* The search for the nearest legal pose of a unit (rules_suggest_int.h). */
#include "rules_suggest_int.h"

#include <stdlib.h>
#include <string.h>

#include "rules_bisect.h"

/* A step of this much (of the farthest model's displacement) is how finely the boundary is found. */
#define FINE_MM 0.01

void sg_place(const sg_finder *f, rules_pose q, base_vec2 *pos, double *turn)
{
    double t = q.heading - f->tmpl_ref.heading, c = cos(t), s = sin(t);
    for (size_t k = 0; k < f->n; k++) {
        base_vec2 r = base_v2_sub(f->tmpl[k], f->tmpl_ref.front_centre);
        pos[k] = base_v2(q.front_centre.x + c * r.x - s * r.y, q.front_centre.y + s * r.x + c * r.y);
    }
    *turn = base_angle_wrap(q.heading - f->start.heading);
}

/* The farthest any model is from where the player put it. */
static double dist(sg_finder *f, rules_pose q)
{
    double turn, worst2 = 0;
    sg_place(f, q, f->pos, &turn);
    for (size_t k = 0; k < f->n; k++) {
        base_vec2 d = base_v2_sub(f->pos[k], f->target[k]);
        worst2 = fmax(worst2, base_v2_dot(d, d));
    }
    return sqrt(worst2);
}

static bool legal(sg_finder *f, rules_pose q)
{
    double turn;
    sg_place(f, q, f->pos, &turn);
    return f->legal(f->ctx, f->pos, turn);
}

static rules_pose lerp(rules_pose a, rules_pose b, double t)
{
    return (rules_pose){base_v2_add(a.front_centre, base_v2_scale(base_v2_sub(b.front_centre, a.front_centre), t)),
                        a.heading + t * base_angle_wrap(b.heading - a.heading)};
}

/* How far the farthest model travels from pose a to pose b (an upper bound, no trigonometry per model). */
static double span(const sg_finder *f, rules_pose a, rules_pose b)
{
    return base_v2_dist(a.front_centre, b.front_centre) + f->radius * fabs(base_angle_wrap(b.heading - a.heading));
}

/*
 * Along the family fam(t), t in [0, 1], with fam(lo) legal: the first
 * boundary after lo, found by steps of about 1 mm then bisection to
 * FINE_MM. Returns the last legal t.
 */
typedef rules_pose (*family)(const sg_finder *f, const void *ctx, double t);

/* The family's pose at t, for rules_bisect. */
typedef struct family_line {
    sg_finder *f;
    family fam;
    const void *ctx;
} family_line;

static bool family_is_legal(void *ctx, double t)
{
    family_line *l = ctx;
    return legal(l->f, l->fam(l->f, l->ctx, t));
}

static double boundary(sg_finder *f, family fam, const void *ctx, double lo, double span_mm)
{
    double steps = fmax(1.0, ceil(span_mm / 1.0)), dt = 1.0 / steps, hi = -1;
    for (double t = lo + dt; t <= 1 + 1e-12; t += dt) {
        if (!legal(f, fam(f, ctx, fmin(t, 1.0)))) {
            hi = fmin(t, 1.0);
            break;
        }
        lo = fmin(t, 1.0);
    }
    if (hi < 0)
        return lo;
    family_line line = {f, fam, ctx};
    return rules_bisect(lo, hi, span_mm, FINE_MM, family_is_legal, &line);
}

/* ---- families of candidate poses ------------------------------------------ */

typedef struct {
    rules_pose a, b;
} segment;

static rules_pose on_segment(const sg_finder *f, const void *ctx, double t)
{
    (void)f;
    const segment *s = ctx;
    return lerp(s->a, s->b, t);
}

typedef struct {
    rules_path path;
    double width;
} along_path;

/* The player's shortest path cut short: the pose after the first t of its length. */
static rules_pose on_path(const sg_finder *f, const void *ctx, double t)
{
    const along_path *ap = ctx;
    rules_pose p = f->start;
    double left = t * ap->path.length_mm;
    for (size_t i = 0; i < ap->path.n_steps && left > 0; i++) {
        rules_step s = ap->path.steps[i];
        if (s.length_mm > left) { /* part of this step: turns in proportion to the length counted */
            s.angle_rad *= left / s.length_mm;
            s.length_mm = left;
        }
        left -= s.length_mm;
        p = rules_path_apply_step(p, &s, ap->width);
    }
    return p;
}

/* ---- the search -------------------------------------------------------------- */

/* Pattern search on the end pose: (x, y, radius * heading), steps halving down to FINE_MM. */
static void improve(sg_finder *f, rules_pose *best, double *best_d, bool *moved)
{
    const double h = 0.70710678118654752;
    static const double dirs[][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},  {0, -1, 0}, {0, 0, 1},  {0, 0, -1},
                                     {1, 1, 0}, {1, -1, 0}, {-1, 1, 0}, {-1, -1, 0}, {1, 0, 1}, {1, 0, -1},
                                     {-1, 0, 1}, {-1, 0, -1}, {0, 1, 1}, {0, 1, -1}, {0, -1, 1}, {0, -1, -1}};
    double step = fmax(*best_d / 2, 1.0);
    while (step > FINE_MM && *best_d > 0) {
        bool better = false;
        /* towards the player's position first: the most likely way to get closer */
        rules_pose q = lerp(*best, f->player, fmin(1.0, step / fmax(*best_d, 1e-9)));
        double d = dist(f, q);
        if (d < *best_d - 1e-9 && legal(f, q)) {
            *best = q, *best_d = d, better = true;
        }
        for (size_t k = 0; !better && k < sizeof dirs / sizeof dirs[0]; k++) {
            double s = step * (dirs[k][0] && dirs[k][1] ? h : dirs[k][2] && (dirs[k][0] || dirs[k][1]) ? h : 1);
            q = (rules_pose){base_v2(best->front_centre.x + s * dirs[k][0], best->front_centre.y + s * dirs[k][1]),
                             best->heading + s * dirs[k][2] / f->radius};
            d = dist(f, q);
            if (d < *best_d - 1e-9 && legal(f, q))
                *best = q, *best_d = d, better = true;
        }
        if (better)
            *moved = true;
        else
            step /= 2;
    }
}

static void consider(sg_finder *f, rules_pose q, rules_pose *best, double *best_d, bool *on_path_best, bool is_path)
{
    double d = dist(f, q);
    if (d < *best_d) {
        *best = q;
        *best_d = d;
        *on_path_best = is_path;
    }
}

bool sg_search(sg_finder *f, rules_pose *out, double *path_cut)
{
    *path_cut = 0;
    if (legal(f, f->player)) {
        *out = f->player;
        return true;
    }
    rules_pose best = f->start;
    double best_d = INFINITY;
    bool on_path_best = false;
    if (legal(f, f->start)) /* the template where the unit stood (a move of nothing, when it is the unit) */
        best_d = dist(f, f->start);
    along_path ap = {.width = f->width};
    if (!f->keeps_centre) {
        /* the player's own path, cut short */
        rules_path_forward_wheels(f->start, f->player, ap.width, f->rs, &ap.path);
        if (isfinite(ap.path.length_mm) && ap.path.length_mm > 0) {
            double t = boundary(f, on_path, &ap, 0, ap.path.length_mm + f->radius * BASE_PI);
            consider(f, on_path(f, &ap, t), &best, &best_d, &on_path_best, true);
            if (on_path_best)
                *path_cut = (1 - t) * ap.path.length_mm;
        }
        /* the straight line back to the start */
        segment back = {f->start, f->player};
        if (isfinite(best_d)) {
            double t = boundary(f, on_segment, &back, 0, span(f, f->start, f->player));
            consider(f, lerp(f->start, f->player, t), &best, &best_d, &on_path_best, false);
        }
    } else {
        /* a Reform keeps its Centre (a Reform Move keeps it near): the player's formation about the start
         * Centre, facing the player's way first, then turned 5, -5, 10, ... degrees */
        const base_vec2 c0 = f->start_centre, cp = f->tmpl_centre; /* the template's centre at the player's pose */
        const base_vec2 arm = base_v2_sub(f->tmpl_centre, f->tmpl_ref.front_centre);
        for (int k = 0; k < 72; k++) {
            double h = f->player.heading + base_deg_to_rad(5.0 * (k % 2 ? (k + 1) / 2 : -(k / 2)));
            base_vec2 r = base_v2_rot(arm, h - f->tmpl_ref.heading);
            rules_pose q = {base_v2_sub(c0, r), h};
            if (dist(f, q) < best_d && legal(f, q))
                consider(f, q, &best, &best_d, &on_path_best, false);
            if (k == 0 && legal(f, q)) { /* and from there straight towards where the player put it */
                segment s = {q, f->player};
                double t = boundary(f, on_segment, &s, 0, span(f, q, f->player));
                consider(f, lerp(q, f->player, t), &best, &best_d, &on_path_best, false);
            }
            rules_pose in_place = {base_v2_sub(cp, r), h}; /* turned about its own centre where it stands */
            if (k > 0 && dist(f, in_place) < best_d && legal(f, in_place))
                consider(f, in_place, &best, &best_d, &on_path_best, false);
        }
    }
    if (!isfinite(best_d))
        return false; /* nothing legal to start from */
    bool moved = false;
    improve(f, &best, &best_d, &moved);
    segment last = {best, f->player};
    double t = boundary(f, on_segment, &last, 0, span(f, best, f->player));
    if (t > 0) {
        best = lerp(best, f->player, t);
        moved = true;
    }
    if (moved || !on_path_best)
        *path_cut = 0;
    *out = best;
    return true;
}

/* ---- for the callers --------------------------------------------------------------- */

/* The rigid motion that best carries `a` onto `b` (2-D Kabsch), applied to pose p. */
rules_pose sg_carried(const base_vec2 *a, const base_vec2 *b, size_t n, rules_pose p)
{
    base_vec2 ca = {0, 0}, cb = {0, 0};
    for (size_t k = 0; k < n; k++) {
        ca = base_v2_add(ca, a[k]);
        cb = base_v2_add(cb, b[k]);
    }
    ca = base_v2_scale(ca, 1.0 / (double)n);
    cb = base_v2_scale(cb, 1.0 / (double)n);
    double sc = 0, sd = 0;
    for (size_t k = 0; k < n; k++) {
        base_vec2 u = base_v2_sub(a[k], ca), v = base_v2_sub(b[k], cb);
        sc += base_v2_cross(u, v);
        sd += base_v2_dot(u, v);
    }
    double rot = n > 1 ? atan2(sc, sd) : 0;
    return (rules_pose){base_v2_add(cb, base_v2_rot(base_v2_sub(p.front_centre, ca), rot)), p.heading + rot};
}

/* " back 0.50\" and 0.20\" to the left" for a shift `d` in the frame of heading h; "" when it rounds to 0.00". */
static void shift_words(char *buf, size_t cap, base_vec2 d, double h)
{
    const double tiny = 0.127; /* what rounds to 0.00" */
    base_vec2 l = base_frame_to_local((base_frame){{0, 0}, h}, d);
    char along[48] = "", across[48] = "";
    if (fabs(l.y) >= tiny)
        snprintf(along, sizeof along, " %s %.2f\"", l.y < 0 ? "back" : "forward", base_mm_to_in(fabs(l.y)));
    if (fabs(l.x) >= tiny)
        snprintf(across, sizeof across, "%s %.2f\" to the %s", along[0] ? " and" : "", base_mm_to_in(fabs(l.x)),
                 l.x < 0 ? "left" : "right");
    snprintf(buf, cap, "%s%s", along, across);
}

/*
 * "move the spears back 0.38\" along their path" when it is their own path
 * cut short; else the turn about whichever of the unit's centre and front
 * corners the correction turns about most nearly, then what is left as a
 * shift: "turn the spears 12.0 degrees left about their right front corner,
 * then move them 0.10\" back".
 */
void sg_describe(rules_suggestion *s, const sg_finder *f, const char *unit, rules_pose player, double cut)
{
    char what[256], shift[112];
    double turn = base_angle_wrap(s->pose.heading - player.heading);
    if (cut > 0) {
        snprintf(what, sizeof what, "move the %s back %.2f\" along their path", unit, base_mm_to_in(cut));
    } else if (fabs(base_rad_to_deg(turn)) < 0.05) {
        shift_words(shift, sizeof shift, base_v2_sub(s->pose.front_centre, player.front_centre), player.heading);
        if (shift[0])
            snprintf(what, sizeof what, "move the %s%s", unit, shift);
        else
            snprintf(what, sizeof what, "put the %s's models back in their places in the formation", unit);
    } else {
        /* the correction x -> S.fc + R (x - P.fc) turns about its fixed point; name the nearest natural pivot */
        const rules_formation *form = &f->form;
        base_vec2 fwd = base_v2_dir(player.heading), left = base_v2_dir(player.heading + BASE_PI / 2);
        const base_vec2 pivots[3] = {
            base_v2_sub(player.front_centre, base_v2_scale(fwd, form->boundary.depth / 2)),
            base_v2_add(player.front_centre, base_v2_scale(left, form->boundary.width / 2)),
            base_v2_sub(player.front_centre, base_v2_scale(left, form->boundary.width / 2))};
        static const char *const names[3] = {"centre", "left front corner", "right front corner"};
        double c = cos(turn), sn = sin(turn);
        base_vec2 b = base_v2_sub(s->pose.front_centre, base_v2_rot(player.front_centre, turn));
        double det = (1 - c) * (1 - c) + sn * sn; /* (I - R) is invertible for any real turn */
        base_vec2 fixed = base_v2(((1 - c) * b.x - sn * b.y) / det, (sn * b.x + (1 - c) * b.y) / det);
        int k = 0;
        for (int i = 1; i < 3; i++)
            if (base_v2_dist(fixed, pivots[i]) < base_v2_dist(fixed, pivots[k]))
                k = i;
        base_vec2 moved = base_v2_add(s->pose.front_centre, base_v2_rot(base_v2_sub(pivots[k], player.front_centre), turn));
        shift_words(shift, sizeof shift, base_v2_sub(moved, pivots[k]), s->pose.heading);
        snprintf(what, sizeof what, "turn the %s %.1f degrees %s about their %s%s%s", unit,
                 fabs(base_rad_to_deg(turn)), turn > 0 ? "left" : "right", names[k], shift[0] ? ", then move them" : "",
                 shift);
    }
    snprintf(s->text, sizeof s->text, "%s (no model moves more than %.2f\")", what, base_mm_to_in(s->shift_mm));
}
