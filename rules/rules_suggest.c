#include "rules_suggest.h"

#include <stdlib.h>
#include <string.h>

#include "rules_judge.h"

/* A step of this much (of the farthest model's displacement) is how finely the boundary is found. */
#define FINE_MM 0.01

typedef struct finder {
    rules_judge *j;
    rules_move_type type;
    const rules_unit *u0;   /* the unit before the move */
    size_t n;
    rules_vec2 *target;     /* where the player put model k */
    rules_vec2 *tmpl;       /* the formation carried: model k when the Front is at tmpl_ref */
    rules_pose tmpl_ref;
    rules_vec2 tmpl_centre; /* the template's unit centre (Reform: it must stay where the unit's was) */
    rules_pose start;       /* the unit before the move */
    rules_pose player;      /* the player's end pose (of the template) */
    double radius;          /* the farthest model from tmpl_ref's front centre: turns are scaled by it */
    rules_vec2 *pos;        /* scratch */
} finder;

static void place(const finder *f, rules_pose q, rules_vec2 *pos, double *turn)
{
    double t = q.heading - f->tmpl_ref.heading, c = cos(t), s = sin(t);
    for (size_t k = 0; k < f->n; k++) {
        rules_vec2 r = rules_v2_sub(f->tmpl[k], f->tmpl_ref.front_centre);
        pos[k] = rules_v2(q.front_centre.x + c * r.x - s * r.y, q.front_centre.y + s * r.x + c * r.y);
    }
    *turn = rules_angle_wrap(q.heading - f->start.heading);
}

/* The farthest any model is from where the player put it. */
static double dist(finder *f, rules_pose q)
{
    double turn, worst2 = 0;
    place(f, q, f->pos, &turn);
    for (size_t k = 0; k < f->n; k++) {
        rules_vec2 d = rules_v2_sub(f->pos[k], f->target[k]);
        worst2 = fmax(worst2, rules_v2_dot(d, d));
    }
    return sqrt(worst2);
}

static bool legal(finder *f, rules_pose q)
{
    double turn;
    place(f, q, f->pos, &turn);
    return rules_judge_legal(f->j, f->pos, turn, f->type);
}

static rules_pose lerp(rules_pose a, rules_pose b, double t)
{
    return (rules_pose){rules_v2_add(a.front_centre, rules_v2_scale(rules_v2_sub(b.front_centre, a.front_centre), t)),
                        a.heading + t * rules_angle_wrap(b.heading - a.heading)};
}

/* How far the farthest model travels from pose a to pose b (an upper bound, no trigonometry per model). */
static double span(const finder *f, rules_pose a, rules_pose b)
{
    return rules_v2_dist(a.front_centre, b.front_centre) + f->radius * fabs(rules_angle_wrap(b.heading - a.heading));
}

/*
 * Along the family fam(t), t in [0, 1], with fam(lo) legal: the first
 * boundary after lo, found by steps of about 1 mm then bisection to
 * FINE_MM. Returns the last legal t.
 */
typedef rules_pose (*family)(const finder *f, const void *ctx, double t);

static double boundary(finder *f, family fam, const void *ctx, double lo, double span_mm)
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
    while ((hi - lo) * span_mm > FINE_MM) {
        double m = (lo + hi) / 2;
        if (legal(f, fam(f, ctx, m)))
            lo = m;
        else
            hi = m;
    }
    return lo;
}

/* ---- families of candidate poses ------------------------------------------ */

typedef struct {
    rules_pose a, b;
} segment;

static rules_pose on_segment(const finder *f, const void *ctx, double t)
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
static rules_pose on_path(const finder *f, const void *ctx, double t)
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
static void improve(finder *f, rules_pose *best, double *best_d, bool *moved)
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
            q = (rules_pose){rules_v2(best->front_centre.x + s * dirs[k][0], best->front_centre.y + s * dirs[k][1]),
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

static void consider(finder *f, rules_pose q, rules_pose *best, double *best_d, bool *on_path_best, bool is_path)
{
    double d = dist(f, q);
    if (d < *best_d) {
        *best = q;
        *best_d = d;
        *on_path_best = is_path;
    }
}

/* The nearest legal end pose; *path_cut > 0 when it is the player's path cut short by that much. */
static rules_pose search(finder *f, double *path_cut)
{
    *path_cut = 0;
    if (legal(f, f->player))
        return f->player;
    rules_pose best = f->start;
    double best_d = dist(f, f->start);
    bool on_path_best = false;
    const rules_ruleset *rs = rules_judge_ruleset(f->j);
    along_path ap = {.width = rules_judge_formation(f->j)->boundary.width};
    if (f->type != RULES_MOVE_REFORM) {
        /* the player's own path, cut short */
        rules_path_forward_wheels(f->start, f->player, ap.width, rs, &ap.path);
        if (isfinite(ap.path.length_mm) && ap.path.length_mm > 0) {
            double t = boundary(f, on_path, &ap, 0, ap.path.length_mm + f->radius * RULES_PI);
            consider(f, on_path(f, &ap, t), &best, &best_d, &on_path_best, true);
            if (on_path_best)
                *path_cut = (1 - t) * ap.path.length_mm;
        }
        /* the straight line back to the start */
        segment back = {f->start, f->player};
        double t = boundary(f, on_segment, &back, 0, span(f, f->start, f->player));
        consider(f, lerp(f->start, f->player, t), &best, &best_d, &on_path_best, false);
    } else {
        /* a Reform keeps its Centre: the player's formation about the start Centre, facing the player's way
         * first, then turned 5, -5, 10, ... degrees */
        const rules_vec2 c0 = rules_judge_formation(f->j)->centre;
        const rules_vec2 arm = rules_v2_sub(f->tmpl_centre, f->tmpl_ref.front_centre);
        for (int k = 0; k < 72; k++) {
            double h = f->player.heading + rules_deg_to_rad(5.0 * (k % 2 ? (k + 1) / 2 : -(k / 2)));
            rules_pose q = {rules_v2_sub(c0, rules_v2_rot(arm, h - f->tmpl_ref.heading)), h};
            if (dist(f, q) < best_d && legal(f, q))
                consider(f, q, &best, &best_d, &on_path_best, false);
        }
    }
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
    return best;
}

/* ---- one unit ------------------------------------------------------------------ */

/* The rigid motion that best carries `a` onto `b` (2-D Kabsch), applied to pose p. */
static rules_pose carried(const rules_vec2 *a, const rules_vec2 *b, size_t n, rules_pose p)
{
    rules_vec2 ca = {0, 0}, cb = {0, 0};
    for (size_t k = 0; k < n; k++) {
        ca = rules_v2_add(ca, a[k]);
        cb = rules_v2_add(cb, b[k]);
    }
    ca = rules_v2_scale(ca, 1.0 / (double)n);
    cb = rules_v2_scale(cb, 1.0 / (double)n);
    double sc = 0, sd = 0;
    for (size_t k = 0; k < n; k++) {
        rules_vec2 u = rules_v2_sub(a[k], ca), v = rules_v2_sub(b[k], cb);
        sc += rules_v2_cross(u, v);
        sd += rules_v2_dot(u, v);
    }
    double rot = n > 1 ? atan2(sc, sd) : 0;
    return (rules_pose){rules_v2_add(cb, rules_v2_rot(rules_v2_sub(p.front_centre, ca), rot)), p.heading + rot};
}

/* " back 0.50\" and 0.20\" to the left" for a shift `d` in the frame of heading h; "" when it rounds to 0.00". */
static void shift_words(char *buf, size_t cap, rules_vec2 d, double h)
{
    const double tiny = 0.127; /* what rounds to 0.00" */
    rules_vec2 l = rules_frame_to_local((rules_frame){{0, 0}, h}, d);
    char along[48] = "", across[48] = "";
    if (fabs(l.y) >= tiny)
        snprintf(along, sizeof along, " %s %.2f\"", l.y < 0 ? "back" : "forward", rules_mm_to_in(fabs(l.y)));
    if (fabs(l.x) >= tiny)
        snprintf(across, sizeof across, "%s %.2f\" to the %s", along[0] ? " and" : "", rules_mm_to_in(fabs(l.x)),
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
static void describe(rules_suggestion *s, const finder *f, const char *unit, rules_pose player, double cut)
{
    char what[256], shift[112];
    double turn = rules_angle_wrap(s->pose.heading - player.heading);
    if (cut > 0) {
        snprintf(what, sizeof what, "move the %s back %.2f\" along their path", unit, rules_mm_to_in(cut));
    } else if (fabs(rules_rad_to_deg(turn)) < 0.05) {
        shift_words(shift, sizeof shift, rules_v2_sub(s->pose.front_centre, player.front_centre), player.heading);
        if (shift[0])
            snprintf(what, sizeof what, "move the %s%s", unit, shift);
        else
            snprintf(what, sizeof what, "put the %s's models back in their places in the formation", unit);
    } else {
        /* the correction x -> S.fc + R (x - P.fc) turns about its fixed point; name the nearest natural pivot */
        const rules_formation *form = rules_judge_formation(f->j);
        rules_vec2 fwd = rules_v2_dir(player.heading), left = rules_v2_dir(player.heading + RULES_PI / 2);
        const rules_vec2 pivots[3] = {
            rules_v2_sub(player.front_centre, rules_v2_scale(fwd, form->boundary.depth / 2)),
            rules_v2_add(player.front_centre, rules_v2_scale(left, form->boundary.width / 2)),
            rules_v2_sub(player.front_centre, rules_v2_scale(left, form->boundary.width / 2))};
        static const char *const names[3] = {"centre", "left front corner", "right front corner"};
        double c = cos(turn), sn = sin(turn);
        rules_vec2 b = rules_v2_sub(s->pose.front_centre, rules_v2_rot(player.front_centre, turn));
        double det = (1 - c) * (1 - c) + sn * sn; /* (I - R) is invertible for any real turn */
        rules_vec2 fixed = rules_v2(((1 - c) * b.x - sn * b.y) / det, (sn * b.x + (1 - c) * b.y) / det);
        int k = 0;
        for (int i = 1; i < 3; i++)
            if (rules_v2_dist(fixed, pivots[i]) < rules_v2_dist(fixed, pivots[k]))
                k = i;
        rules_vec2 moved = rules_v2_add(s->pose.front_centre, rules_v2_rot(rules_v2_sub(pivots[k], player.front_centre), turn));
        shift_words(shift, sizeof shift, rules_v2_sub(moved, pivots[k]), s->pose.heading);
        snprintf(what, sizeof what, "turn the %s %.1f degrees %s about their %s%s%s", unit,
                 fabs(rules_rad_to_deg(turn)), turn > 0 ? "left" : "right", names[k], shift[0] ? ", then move them" : "",
                 shift);
    }
    snprintf(s->text, sizeof s->text, "%s (no model moves more than %.2f\")", what, rules_mm_to_in(s->shift_mm));
}

static int fail(rules_suggestion *out, rules_judge *j, void *block, const char *fmt, const char *a, const char *b)
{
    snprintf(out->text, sizeof out->text, fmt, a, b);
    rules_judge_free(j);
    free(block);
    return 0;
}

int rules_suggest_unit(const rules_snapshot *before, const rules_snapshot *after, const char *unit_id,
                       rules_move_type type, const rules_check_options *opt, rules_suggestion *out,
                       rules_error *err)
{
    rules_check_options strict;
    if (opt)
        strict = *opt;
    else
        rules_check_options_default(&strict);
    strict.limit_tolerance_mm = 0; /* the limits exactly: the check's allowance is then a margin */
    rules_suggestion_clear(out);
    out->move = type;
    rules_judge *j = rules_judge_new(before, after, unit_id, &strict, err);
    if (!j)
        return -1;
    const rules_unit *u0 = rules_judge_unit(j), *u1 = rules_snapshot_find_unit(after, unit_id);
    const size_t n = u0->n_models;
    finder f = {.j = j, .type = type, .u0 = u0, .n = n, .start = rules_judge_start(j)};
    void *block = malloc(n * (3 * sizeof(rules_vec2) + sizeof(rules_slot) + sizeof(rules_suggested_model)));
    if (!block) {
        rules_judge_free(j);
        return rules_error_set(err, "out of memory");
    }
    f.target = block;
    f.tmpl = f.target + n;
    f.pos = f.tmpl + n;
    rules_slot *slots = (rules_slot *)(f.pos + n);
    rules_suggested_model *models = (rules_suggested_model *)(slots + n);
    if (!u1)
        return fail(out, j, block, "%s is not on the table after the move%s", unit_id, "");
    size_t *index = (size_t *)f.pos; /* before model k -> after model (the scratch is free until the search) */
    for (size_t k = 0; k < n; k++) {
        const rules_model *m = k < u1->n_models && strcmp(u1->models[k].id, u0->models[k].id) == 0
                                   ? &u1->models[k]
                                   : rules_unit_find_model(u1, u0->models[k].id);
        if (!m)
            return fail(out, j, block, "model %s is not on the table after the move, so no position is suggested%s",
                        u0->models[k].id, "");
        f.target[k] = m->pos;
        index[k] = (size_t)(m - u1->models);
    }
    rules_formation f1;
    if (type == RULES_MOVE_REFORM) {
        /* the formation the player made, each model in its slot */
        rules_formation_fit(u1, &strict.formation, &f1, slots);
        for (size_t k = 0; k < n; k++) {
            const rules_slot *sl = &slots[index[k]];
            f.tmpl[k] = rules_formation_slot_position(&f1, sl->file, sl->rank, sl->offset);
        }
        f.tmpl_ref = f.player = (rules_pose){f1.front_centre, f1.heading};
        f.tmpl_centre = f1.centre;
    } else {
        for (size_t k = 0; k < n; k++)
            f.tmpl[k] = u0->models[k].pos;
        f.tmpl_ref = f.start;
        f.tmpl_centre = rules_judge_formation(j)->centre;
        f.player = carried(f.tmpl, f.target, n, f.start);
    }
    f.radius = 1;
    for (size_t k = 0; k < n; k++)
        f.radius = fmax(f.radius, rules_v2_dist(f.tmpl[k], f.tmpl_ref.front_centre));

    double cut = 0;
    const unsigned stay = RULES_STATUS_CHARGING | RULES_STATUS_ENGAGED | RULES_STATUS_FLEEING | RULES_STATUS_SHAKEN;
    bool may_not_move = (rules_unit_status(u0) & stay) != 0;
    rules_pose best = may_not_move ? f.start : search(&f, &cut);
    double turn;
    if (may_not_move) {
        for (size_t k = 0; k < n; k++)
            f.pos[k] = u0->models[k].pos;
        turn = 0;
    } else {
        place(&f, best, f.pos, &turn);
    }
    double worst2 = 0;
    for (size_t k = 0; k < n; k++) {
        snprintf(models[k].id, sizeof models[k].id, "%s", u0->models[k].id);
        models[k].pos = f.pos[k];
        models[k].facing = rules_angle_wrap(u0->models[k].facing + turn);
        rules_vec2 d = rules_v2_sub(f.pos[k], f.target[k]);
        worst2 = fmax(worst2, rules_v2_dot(d, d));
    }
    if (rules_suggestion_set_models(out, models, n) < 0) {
        rules_judge_free(j);
        free(block);
        return rules_error_set(err, "out of memory");
    }
    out->found = true;
    out->pose = may_not_move ? f.start : best;
    out->shift_mm = sqrt(worst2);
    out->back_along_path_mm = cut;
    if (may_not_move)
        snprintf(out->text, sizeof out->text,
                 "the %s may not move this phase: put them back where they started (no model moves more than %.2f\")",
                 unit_id, rules_mm_to_in(out->shift_mm));
    else
        describe(out, &f, unit_id, f.player, cut);
    rules_judge_free(j);
    free(block);
    return 0;
}

/* ---- the table ---------------------------------------------------------------- */

static void remove_unit(rules_snapshot *s, rules_unit *u)
{
    size_t i = (size_t)(u - s->units);
    free(u->models);
    memmove(&s->units[i], &s->units[i + 1], (s->n_units - i - 1) * sizeof *s->units);
    s->n_units--;
}

/* Moves the unit's models of `s` to the suggestion (or takes the unit off the table). */
static void apply_one(rules_snapshot *s, const char *unit_id, const rules_suggestion *sg)
{
    rules_unit *u = rules_snapshot_find_unit(s, unit_id);
    if (!u || !sg->found)
        return;
    if (sg->remove) {
        remove_unit(s, u);
        return;
    }
    for (size_t k = 0; k < sg->n_models; k++) {
        rules_model *m = rules_unit_find_model(u, sg->models[k].id);
        if (m) {
            m->pos = sg->models[k].pos;
            m->facing = sg->models[k].facing;
        }
    }
}

rules_snapshot *rules_suggest_apply(const rules_snapshot *after, const rules_report *r)
{
    rules_snapshot *s = rules_snapshot_clone(after);
    for (size_t i = 0; s && i < r->n_units; i++)
        apply_one(s, r->units[i].unit_id, &r->units[i].suggestion);
    return s;
}

static bool suggestable(const rules_unit_report *ur)
{
    return ur->verdict == RULES_VERDICT_ILLEGAL &&
           (ur->move == RULES_MOVE_ADVANCE || ur->move == RULES_MOVE_MARCH || ur->move == RULES_MOVE_REFORM);
}

int rules_suggest_moves(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt,
                        rules_report *r, rules_error *err)
{
    rules_check_options defaults;
    if (!opt) {
        rules_check_options_default(&defaults);
        opt = &defaults;
    }
    rules_snapshot *work = rules_snapshot_clone(after);
    if (!work)
        return rules_error_set(err, "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->n_units; i++) {
        rules_unit_report *ur = &r->units[i];
        if (!suggestable(ur))
            continue;
        rc = rules_suggest_unit(before, work, ur->unit_id, ur->move, opt, &ur->suggestion, err);
        if (rc == 0)
            apply_one(work, ur->unit_id, &ur->suggestion);
    }
    /* Every suggestion, in place together, judged again by the check itself. */
    rules_report again;
    rules_report_init(&again);
    if (rc == 0 && rules_move_check(before, work, opt, &again, err) < 0)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < r->n_units; i++) {
        rules_suggestion *sg = &r->units[i].suggestion;
        const rules_unit_report *now = rules_report_find_unit(&again, r->units[i].unit_id);
        if (sg->found && now && now->verdict != RULES_VERDICT_LEGAL) { /* absent: it did not move, legal */
            rules_suggestion_clear(sg);
            snprintf(sg->text, sizeof sg->text, "the nearest position found did not hold when judged again, so none "
                                                "is suggested");
        }
    }
    rules_report_clear(&again);
    rules_snapshot_free(work);
    return rc;
}
