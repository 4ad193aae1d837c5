#include "rules_reach.h"

#include <stdlib.h>
#include <string.h>

#include "rules_bisect.h"
#include "rules_judge.h"
#include "rules_json.h"
#include "rules_words.h"

#define FINE_MM 0.1   /* boundaries found to this */
#define SCAN_MM 5.0   /* steps while looking for a boundary */

void rules_reach_options_default(rules_reach_options *o)
{
    memset(o, 0, sizeof *o);
    o->facing_step_rad = base_deg_to_rad(15);
    o->lateral_step_mm = 5;
    rules_check_options_default(&o->check);
}

void rules_reach_clear(rules_reach *r)
{
    for (size_t i = 0; i < r->n_facings; i++) {
        free(r->facings[i].far);
        free(r->facings[i].near);
        free(r->facings[i].envelope);
    }
    free(r->facings);
    memset(r, 0, sizeof *r);
}

typedef struct reacher {
    rules_judge *j;
    rules_move_type move;
    rules_pose start;
    double width, bound;     /* front width; no front centre ends farther than `bound` from the start's */
    double rate2;            /* the move's rate, squared: no model may end farther from its start (MU-MODEL-DIST) */
    const rules_unit *unit;  /* the unit before the move */
    base_vec2 *pos;
    /* the facing being followed: its frame */
    double heading;
    base_vec2 right, fwd;
} reacher;

static bool legal(reacher *r, rules_pose q)
{
    if (base_v2_dist(q.front_centre, r->start.front_centre) > r->bound)
        return false; /* cheaper than a path search: farther than any path this long */
    double turn;
    rules_judge_place(r->j, q, r->pos, &turn);
    /* A model past the rate is illegal (the check's MU-MODEL-DIST, limits exact): no path search needed. */
    for (size_t k = 0; k < r->unit->n_models; k++) {
        base_vec2 d = base_v2_sub(r->pos[k], r->unit->models[k].pos);
        if (base_v2_dot(d, d) > r->rate2)
            return false;
    }
    return rules_judge_legal(r->j, r->pos, turn, r->move);
}

/* The pose of the facing being followed with its Front centred at (u across, v along) from the start's. */
static rules_pose at(const reacher *r, double u, double v)
{
    base_vec2 c = base_v2_add(r->start.front_centre, base_v2_add(base_v2_scale(r->right, u), base_v2_scale(r->fwd, v)));
    return (rules_pose){c, r->heading};
}

static rules_pose wheel(const reacher *r, rules_pose from, double angle)
{
    rules_step s = {angle > 0 ? RULES_STEP_WHEEL_LEFT : RULES_STEP_WHEEL_RIGHT, 0, angle};
    return rules_path_apply_step(from, &s, r->width);
}

/* ---- the largest wheel ------------------------------------------------------- */

/* A line of candidate positions for rules_bisect: a wheel from the start
 * (along: the side, +1 or -1) or a column of the reach (along: its u). */
typedef struct reach_line {
    reacher *r;
    double along;
} reach_line;

static bool wheel_is_legal(void *ctx, double angle)
{
    const reach_line *w = ctx;
    return legal(w->r, wheel(w->r, w->r->start, w->along * angle));
}

static double largest_wheel(reacher *r, int side)
{
    const double step = base_deg_to_rad(1);
    double lo = 0, hi = -1;
    for (double a = step; a <= BASE_PI + 1e-9; a += step) {
        if (!legal(r, wheel(r, r->start, side * a))) {
            hi = a;
            break;
        }
        lo = a;
    }
    if (hi < 0)
        return lo;
    reach_line line = {r, side};
    return rules_bisect(lo, hi, r->width, FINE_MM, wheel_is_legal, &line);
}

/* ---- one facing ------------------------------------------------------------ */

static bool column_is_legal(void *ctx, double v)
{
    const reach_line *c = ctx;
    return legal(c->r, at(c->r, c->along, v));
}

/* Bisects between a legal v and an illegal v on column u; returns the legal end. */
static double bisect(reacher *r, double u, double good, double bad)
{
    reach_line line = {r, u};
    return rules_bisect(good, bad, 1.0, FINE_MM, column_is_legal, &line);
}

/*
 * On column u, the end on side `dir` (+1 far, -1 near) of the legal run
 * nearest `hint`: a legal hint is walked outwards; from an illegal one the
 * nearest legal position is looked for both ways first. False when the
 * column holds no legal position within `span`.
 */
static bool column_end(reacher *r, double u, double hint, int dir, double span, double *out)
{
    if (!legal(r, at(r, u, hint))) {
        bool found = false;
        for (int k = 1; !found && (hint - k * SCAN_MM >= -span - SCAN_MM || hint + k * SCAN_MM <= span + SCAN_MM); k++)
            for (int s = -1; s <= 1 && !found; s += 2) {
                double v = hint + dir * s * k * SCAN_MM; /* towards `dir` second: the run's inner side first */
                if (fabs(v) <= span + SCAN_MM && legal(r, at(r, u, v))) {
                    hint = v;
                    found = true;
                }
            }
        if (!found)
            return false;
    }
    double good = hint;
    for (double v = hint + dir * SCAN_MM; fabs(v) <= span + SCAN_MM; v += dir * SCAN_MM) {
        if (!legal(r, at(r, u, v))) {
            *out = bisect(r, u, good, v);
            return true;
        }
        good = v;
    }
    *out = good;
    return true;
}

/* A legal pose with this facing to follow the outline from: one wheel, or forward and then the wheel. */
static bool seed(reacher *r, double turn, rules_pose *out)
{
    if (fabs(turn) < 1e-12) {
        *out = r->start; /* not moving at all is a legal end */
        return true;
    }
    for (double s = 0; s <= r->bound; s += SCAN_MM) {
        rules_pose p = r->start;
        p.front_centre = base_v2_add(p.front_centre, base_v2_scale(base_v2_dir(p.heading), s));
        rules_pose q = wheel(r, p, turn);
        if (legal(r, q)) {
            *out = q;
            return true;
        }
    }
    return false;
}

typedef struct column {
    double u, far, near;
} column;

static int cmp_column(const void *a, const void *b)
{
    double x = ((const column *)a)->u, y = ((const column *)b)->u;
    return (x > y) - (x < y);
}

/* The outline of every front edge centred on a column's far (near) end. */
static int envelope(const reacher *r, const column *cols, size_t n, rules_reach_facing *f, double du)
{
    const double half = r->width / 2;
    double x0 = cols[0].u - half, x1 = cols[n - 1].u + half;
    size_t m = (size_t)ceil((x1 - x0) / du) + 1;
    f->envelope = malloc(2 * m * sizeof *f->envelope);
    if (!f->envelope)
        return -1;
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; i < m; i++) {
            double x = side == 0 ? fmin(x0 + (double)i * du, x1) : fmax(x1 - (double)i * du, x0);
            double v = side == 0 ? -INFINITY : INFINITY;
            for (size_t k = 0; k < n; k++)
                if (fabs(cols[k].u - x) <= half + 1e-9)
                    v = side == 0 ? fmax(v, cols[k].far) : fmin(v, cols[k].near);
            f->envelope[f->n_envelope++] = at(r, x, v).front_centre;
        }
    return 0;
}

/* Columns left and right of the seed's, each boundary started from its neighbour's. */
static int follow(reacher *r, double turn, rules_pose s, double du, rules_reach_facing *f)
{
    r->heading = base_angle_wrap(r->start.heading + turn);
    r->fwd = base_v2_dir(r->heading);
    r->right = base_v2(r->fwd.y, -r->fwd.x);
    base_vec2 d = base_v2_sub(s.front_centre, r->start.front_centre);
    double us = base_v2_dot(d, r->right), vs = base_v2_dot(d, r->fwd);
    size_t cap = (size_t)(2 * r->bound / du) + 4, n = 0;
    column *cols = malloc(cap * sizeof *cols);
    if (!cols)
        return -1;
    for (int dir = -1; dir <= 1; dir += 2) {
        double far_hint = vs, near_hint = vs;
        for (int k = dir < 0 ? 0 : 1; n < cap; k++) {
            double u = us + dir * k * du;
            double span = sqrt(fmax(0.0, r->bound * r->bound - u * u));
            column c = {u, 0, 0};
            if (fabs(u) > r->bound || !column_end(r, u, far_hint, +1, span, &c.far))
                break;
            if (!column_end(r, u, fmin(near_hint, c.far), -1, span, &c.near))
                c.near = c.far;
            c.near = fmin(c.near, c.far);
            cols[n++] = c;
            far_hint = c.far;
            near_hint = c.near;
        }
    }
    qsort(cols, n, sizeof *cols, cmp_column);
    f->heading = r->heading;
    f->turn = turn;
    f->far = malloc((n ? n : 1) * sizeof *f->far);
    f->near = malloc((n ? n : 1) * sizeof *f->near);
    int rc = f->far && f->near ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        f->far[i] = at(r, cols[i].u, cols[i].far);
        f->near[i] = at(r, cols[i].u, cols[i].near);
    }
    f->n_columns = rc == 0 ? n : 0;
    if (rc == 0 && n)
        rc = envelope(r, cols, n, f, du);
    free(cols);
    return rc;
}

int rules_reach_compute(const rules_snapshot *table, const char *unit_id, rules_move_type move,
                        const rules_reach_options *o, rules_reach *out, base_error *err)
{
    rules_reach_options defaults;
    if (!o) {
        rules_reach_options_default(&defaults);
        o = &defaults;
    }
    memset(out, 0, sizeof *out);
    if (!rules_move_has(move, RULES_MOVE_REACH)) {
        char which[128];
        rules_words_moves_either(RULES_MOVE_REACH, true, which, sizeof which);
        return base_error_set(err, "a reach is computed for %s, not a %s", which, rules_words_move(move));
    }
    if (!(o->facing_step_rad > 0) || !(o->lateral_step_mm > 0))
        return base_error_set(err, "the facing and lateral steps must be > 0");
    rules_check_options strict = o->check;
    strict.limit_tolerance_mm = 0; /* the exact limits: the check's allowance is a margin beyond the outline */
    rules_judge *j = rules_judge_new(table, NULL, unit_id, &strict, err);
    if (!j)
        return -1;
    const rules_unit *u = rules_judge_unit(j);
    const rules_formation *form = rules_judge_formation(j);
    double rate = rules_move_unit_rate(move, u);
    if (isnan(rate)) {
        rules_judge_free(j);
        return base_error_set(err, "unit %s: its profile has no %s", unit_id, rules_move_key(move));
    }
    reacher r = {.j = j, .move = move, .start = rules_judge_start(j), .width = form->boundary.width,
                 .bound = rate + form->boundary.depth, .rate2 = rate * rate, .unit = u};
    r.pos = malloc(u->n_models * sizeof *r.pos);
    snprintf(out->unit_id, sizeof out->unit_id, "%s", u->id);
    out->move = move;
    out->rate_mm = rate;
    out->start = r.start;
    out->front_width_mm = form->boundary.width;
    out->depth_mm = form->boundary.depth;
    out->facing_step_rad = o->facing_step_rad;
    out->lateral_step_mm = o->lateral_step_mm;
    size_t cap = (size_t)(2 * BASE_PI / o->facing_step_rad) + 3;
    out->facings = calloc(cap, sizeof *out->facings);
    int rc = r.pos && out->facings ? 0 : base_error_set(err, "out of memory");
    if (rc == 0) {
        out->wheel_left.angle_rad = largest_wheel(&r, +1);
        out->wheel_right.angle_rad = largest_wheel(&r, -1);
        out->wheel_left.distance_mm = rules_path_wheel_cost(out->wheel_left.angle_rad, r.width, rules_judge_ruleset(j));
        out->wheel_right.distance_mm = rules_path_wheel_cost(out->wheel_right.angle_rad, r.width, rules_judge_ruleset(j));
    }
    /* facings: straight on, then right (negative turns) and left, as far as a legal end exists */
    for (int side = -1; rc == 0 && side <= 1; side += 2)
        for (int k = side < 0 ? 0 : 1; rc == 0 && k * o->facing_step_rad <= BASE_PI + 1e-9 && out->n_facings < cap; k++) {
            double turn = side * k * o->facing_step_rad;
            rules_pose s;
            if (!seed(&r, turn, &s))
                break;
            rules_reach_facing *f = &out->facings[out->n_facings];
            if (follow(&r, turn, s, o->lateral_step_mm, f) < 0)
                rc = base_error_set(err, "out of memory");
            else if (f->n_columns)
                out->n_facings++;
        }
    /* rightmost first: the order of the turns */
    for (size_t a = 0, b = out->n_facings; rc == 0 && a + 1 < b; a++)
        for (size_t c = a + 1; c < b; c++)
            if (out->facings[c].turn < out->facings[a].turn) {
                rules_reach_facing t = out->facings[a];
                out->facings[a] = out->facings[c];
                out->facings[c] = t;
            }
    free(r.pos);
    rules_judge_free(j);
    if (rc < 0)
        rules_reach_clear(out);
    return rc;
}

/* ---- output ------------------------------------------------------------------- */

static cJSON *pose_json(rules_pose p)
{
    cJSON *o = cJSON_CreateObject();
    base_json_add_number(o, "x_mm", p.front_centre.x, 2);
    base_json_add_number(o, "y_mm", p.front_centre.y, 2);
    base_json_add_number(o, "facing_deg", base_rad_to_deg(p.heading), 2);
    return o;
}

static cJSON *wheel_json(const rules_reach_wheel *w)
{
    cJSON *o = cJSON_CreateObject();
    base_json_add_number(o, "angle_deg", base_rad_to_deg(w->angle_rad), 2);
    base_json_add_number(o, "distance_mm", w->distance_mm, 2);
    base_json_add_number(o, "distance_in", base_mm_to_in(w->distance_mm), 3);
    return o;
}

static cJSON *points_json(const base_vec2 *p, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        double xy[2] = {round(p[i].x * 100) / 100, round(p[i].y * 100) / 100};
        cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(xy, 2));
    }
    return a;
}

base_obb rules_reach_boundary(const rules_reach *r, rules_pose front)
{
    base_obb b;
    b.heading = front.heading;
    b.width = r->front_width_mm;
    b.depth = r->depth_mm;
    b.centre = base_v2_sub(front.front_centre, base_v2_scale(base_v2_dir(front.heading), r->depth_mm / 2));
    return b;
}

cJSON *rules_reach_to_json(const rules_reach *r)
{
    cJSON *root = rules_json_document("tableref.reach", 1);
    cJSON_AddStringToObject(root, "unit", r->unit_id);
    cJSON_AddStringToObject(root, "move", rules_move_token(r->move));
    base_json_add_number(root, "rate_mm", r->rate_mm, 2);
    base_json_add_number(root, "rate_in", base_mm_to_in(r->rate_mm), 3);
    cJSON_AddItemToObject(root, "start", pose_json(r->start));
    base_json_add_number(root, "front_width_mm", r->front_width_mm, 2);
    base_json_add_number(root, "depth_mm", r->depth_mm, 2);
    cJSON *wheel = cJSON_AddObjectToObject(root, "largest_wheel");
    cJSON_AddItemToObject(wheel, "left", wheel_json(&r->wheel_left));
    cJSON_AddItemToObject(wheel, "right", wheel_json(&r->wheel_right));
    base_json_add_number(root, "facing_step_deg", base_rad_to_deg(r->facing_step_rad), 3);
    base_json_add_number(root, "lateral_step_mm", r->lateral_step_mm, 3);
    cJSON *facings = cJSON_AddArrayToObject(root, "facings");
    for (size_t i = 0; i < r->n_facings; i++) {
        const rules_reach_facing *f = &r->facings[i];
        cJSON *jf = cJSON_CreateObject();
        base_json_add_number(jf, "facing_deg", base_rad_to_deg(f->heading), 2);
        base_json_add_number(jf, "turn_deg", base_rad_to_deg(f->turn), 2);
        cJSON_AddItemToObject(jf, "envelope_mm", points_json(f->envelope, f->n_envelope));
        cJSON *far = cJSON_AddArrayToObject(jf, "far"), *near = cJSON_AddArrayToObject(jf, "near");
        for (size_t k = 0; k < f->n_columns; k++) {
            double a[2] = {round(f->far[k].front_centre.x * 100) / 100, round(f->far[k].front_centre.y * 100) / 100};
            double b[2] = {round(f->near[k].front_centre.x * 100) / 100, round(f->near[k].front_centre.y * 100) / 100};
            cJSON_AddItemToArray(far, cJSON_CreateDoubleArray(a, 2));
            cJSON_AddItemToArray(near, cJSON_CreateDoubleArray(b, 2));
        }
        cJSON_AddItemToArray(facings, jf);
    }
    return root;
}

void rules_reach_print(const rules_reach *r, FILE *out)
{
    fprintf(out, "unit %s: %s up to %.2f\"\n", r->unit_id, rules_words_move(r->move), base_mm_to_in(r->rate_mm));
    fprintf(out, "largest wheel: left %.1f deg (%.2f\" at the outer corner), right %.1f deg (%.2f\")\n",
            base_rad_to_deg(r->wheel_left.angle_rad), base_mm_to_in(r->wheel_left.distance_mm),
            base_rad_to_deg(r->wheel_right.angle_rad), base_mm_to_in(r->wheel_right.distance_mm));
    fprintf(out, "%10s %12s %12s %16s\n", "end facing", "turn", "farthest", "across");
    for (size_t i = 0; i < r->n_facings; i++) {
        const rules_reach_facing *f = &r->facings[i];
        double far = -INFINITY, lo = INFINITY, hi = -INFINITY;
        base_vec2 fwd = base_v2_dir(f->heading), right = base_v2(fwd.y, -fwd.x);
        for (size_t k = 0; k < f->n_columns; k++) {
            base_vec2 d = base_v2_sub(f->far[k].front_centre, r->start.front_centre);
            far = fmax(far, base_v2_dot(d, fwd));
            lo = fmin(lo, base_v2_dot(d, right));
            hi = fmax(hi, base_v2_dot(d, right));
        }
        fprintf(out, "%8.1f deg %8.1f deg %10.2f\" %7.2f\" .. %.2f\"\n", base_rad_to_deg(f->heading),
                base_rad_to_deg(f->turn), base_mm_to_in(far), base_mm_to_in(lo), base_mm_to_in(hi));
    }
    fprintf(out, "(farthest: how far the centre of the Front can go along the end facing; across: where it can be "
                 "to the right (+) of the start along it)\n");
}
