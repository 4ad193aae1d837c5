#include "rules_move_int.h"
#include "rules_words.h"

#include <stdlib.h>
#include <string.h>

void rules_check_options_default(rules_check_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->move = RULES_MOVE_AUTO;
    opt->formation.position_tolerance_mm = RULES_FORMATION_POSITION_TOLERANCE_MM;
    opt->formation.facing_tolerance_rad = RULES_FORMATION_FACING_TOLERANCE_RAD;
    opt->limit_tolerance_mm = 0.5;
    opt->still_mm = 1.0;
    opt->still_rad = base_deg_to_rad(0.5);
    opt->rigid_tolerance_mm = 4.0;
    opt->straight_tolerance_mm = 4.0;
    opt->straight_tolerance_rad = base_deg_to_rad(2.0);
    opt->reform_centre_tolerance_mm = 5.0;
}

const rules_check_options *rules_check_options_or_default(const rules_check_options *opt,
                                                          rules_check_options *defaults)
{
    if (opt)
        return opt;
    rules_check_options_default(defaults);
    return defaults;
}

static base_vec2 apply_rigid(const rules_move_ctx *c, base_vec2 p)
{
    return base_v2_add(base_v2_rot(p, c->rot), c->trans);
}

/* 2-D Kabsch: the rotation and translation that best carry the before models onto the after ones. */
static void fit_rigid(rules_move_ctx *c)
{
    const rules_model *m0 = c->u0->models, *m1 = c->u1->models;
    if (c->n_pairs == 1) {
        const rules_model *a = &m0[c->pair0[0]], *b = &m1[c->pair1[0]];
        c->rot = base_angle_wrap(b->facing - a->facing);
        c->trans = base_v2_sub(b->pos, base_v2_rot(a->pos, c->rot));
    } else {
        base_vec2 c0 = {0, 0}, c1 = {0, 0};
        for (size_t i = 0; i < c->n_pairs; i++) {
            c0 = base_v2_add(c0, m0[c->pair0[i]].pos);
            c1 = base_v2_add(c1, m1[c->pair1[i]].pos);
        }
        c0 = base_v2_scale(c0, 1.0 / c->n_pairs);
        c1 = base_v2_scale(c1, 1.0 / c->n_pairs);
        double sc = 0, sd = 0;
        for (size_t i = 0; i < c->n_pairs; i++) {
            base_vec2 a = base_v2_sub(m0[c->pair0[i]].pos, c0), b = base_v2_sub(m1[c->pair1[i]].pos, c1);
            sc += base_v2_cross(a, b);
            sd += base_v2_dot(a, b);
        }
        c->rot = atan2(sc, sd);
        c->trans = base_v2_sub(c1, base_v2_rot(c0, c->rot));
    }
    c->rigid_residual_mm = 0;
    c->rigid_worst = 0;
    for (size_t i = 0; i < c->n_pairs; i++) {
        double r = base_v2_dist(apply_rigid(c, m0[c->pair0[i]].pos), m1[c->pair1[i]].pos);
        if (r > c->rigid_residual_mm) {
            c->rigid_residual_mm = r;
            c->rigid_worst = i;
        }
    }
}

static bool is_rigid(const rules_move_ctx *c)
{
    return c->rigid_residual_mm <= c->opt->rigid_tolerance_mm;
}

static double pair_distance(const rules_move_ctx *c, size_t i)
{
    return base_v2_dist(c->u0->models[c->pair0[i]].pos, c->u1->models[c->pair1[i]].pos);
}

static bool over(const rules_move_ctx *c, double measured, double limit)
{
    return measured > limit + c->opt->limit_tolerance_mm;
}

/* No model's centre ends farther than `limit` from its start (seed 004, every move). */
static void check_model_distances(const rules_move_ctx *c, rules_unit_report *ur, double limit, const char *rate_name)
{
    size_t n_over = 0, worst = 0;
    double worst_d = -1;
    for (size_t i = 0; i < c->n_pairs; i++) {
        double d = pair_distance(c, i);
        if (over(c, d, limit)) {
            n_over++;
            if (d > worst_d) {
                worst_d = d;
                worst = i;
            }
        }
    }
    if (!n_over)
        return;
    const char *worst_id = c->u0->models[c->pair0[worst]].id;
    rules_violation *v;
    if (n_over == 1)
        v = rules_unit_report_add_violation(ur, "MU-MODEL-DIST", RULES_QTY_LENGTH, worst_d, limit,
                                            "Model %s ends %.2f\" from where it started, farther than its %s of "
                                            "%.2f\".",
                                            worst_id, base_mm_to_in(worst_d), rate_name, base_mm_to_in(limit));
    else
        v = rules_unit_report_add_violation(ur, "MU-MODEL-DIST", RULES_QTY_LENGTH, worst_d, limit,
                                            "%zu models end farther than their %s of %.2f\" from where they "
                                            "started (worst: %s, %.2f\").",
                                            n_over, rate_name, base_mm_to_in(limit), worst_id,
                                            base_mm_to_in(worst_d));
    for (size_t i = 0; v && i < c->n_pairs; i++)
        if (over(c, pair_distance(c, i), limit))
            rules_violation_add_model(v, c->u0->models[c->pair0[i]].id);
}

/* Advance and March carry the block as it is: models keep their places. */
static void check_rigid(const rules_move_ctx *c, rules_unit_report *ur, const char *move_name)
{
    if (is_rigid(c))
        return;
    rules_violation *v = rules_unit_report_add_violation(
        ur, "MU-FORMATION-KEPT", RULES_QTY_LENGTH, c->rigid_residual_mm, c->opt->rigid_tolerance_mm,
        "An %s moves the unit as a block, but model %s ends %.2f\" away from its place in the formation.",
        move_name, c->u0->models[c->pair0[c->rigid_worst]].id, base_mm_to_in(c->rigid_residual_mm));
    if (v)
        rules_violation_add_model(v, c->u0->models[c->pair0[c->rigid_worst]].id);
}

static void check_path_length(const rules_move_ctx *c, rules_unit_report *ur, const char *rate_name)
{
    if (!over(c, ur->path.length_mm, ur->rate_mm))
        return;
    rules_unit_report_add_violation(ur, "MU-PATH-LENGTH", RULES_QTY_LENGTH, ur->path.length_mm, ur->rate_mm,
                                    "The shortest way to reach this position moving %s is %.2f\", more than the "
                                    "unit's %s of %.2f\".",
                                    ur->direction ? ur->direction : "forwards with wheels",
                                    base_mm_to_in(ur->path.length_mm), rate_name, base_mm_to_in(ur->rate_mm));
}

static void set_forward_path(const rules_move_ctx *c, rules_unit_report *ur)
{
    ur->has_path = true;
    ur->pose_before = c->pose0;
    ur->front_width_mm = c->f0.boundary.width;
    ur->path = c->forward;
}

static void solve_forward_path(rules_move_ctx *c)
{
    if (c->u0->n_models == 1 && c->rs->single_model_free_pivot) {
        const rules_model *a = &c->u0->models[c->pair0[0]], *b = &c->u1->models[c->pair1[0]];
        rules_path_single_model(a->pos, a->facing, b->pos, b->facing, &c->forward);
    } else {
        rules_path_forward_wheels(c->pose0, c->pose1, c->f0.boundary.width, c->rs, &c->forward);
    }
}

/* A straight backward or sideways step (no wheels, no turning). */
static void set_straight_path(const rules_move_ctx *c, rules_unit_report *ur, rules_step_kind kind, double len)
{
    ur->has_path = true;
    ur->pose_before = c->pose0;
    ur->front_width_mm = c->f0.boundary.width;
    memset(&ur->path, 0, sizeof ur->path);
    ur->path.steps[0] = (rules_step){kind, len, 0};
    ur->path.n_steps = 1;
    ur->path.length_mm = len;
}

/*
 * The block moved straight (no turn) both along its facing and across it,
 * and no forward move with wheels within the rate explains it: the reason
 * is MU-ONE-DIRECTION itself, not the length of a forward path that turns
 * the unit round. The path shown is what the player did: two straight steps.
 */
static void combined_directions(const rules_move_ctx *c, rules_unit_report *ur, base_vec2 local)
{
    const double fwd_len = ur->path.length_mm, rate = rules_move_unit_rate(RULES_MOVE_ADVANCE, c->u0);
    ur->direction = "combined";
    ur->rate_mm = rate;
    set_straight_path(c, ur, local.y < 0 ? RULES_STEP_BACKWARD : RULES_STEP_FORWARD, fabs(local.y));
    ur->path.steps[1] = (rules_step){local.x < 0 ? RULES_STEP_SIDEWAYS_LEFT : RULES_STEP_SIDEWAYS_RIGHT, fabs(local.x), 0};
    ur->path.n_steps = 2;
    ur->path.length_mm = fabs(local.x) + fabs(local.y);
    rules_unit_report_add_violation(ur, "MU-ONE-DIRECTION", RULES_QTY_LENGTH, fmin(fabs(local.x), fabs(local.y)),
                                    c->opt->straight_tolerance_mm,
                                    "An Advance goes forwards, backwards or sideways, not in two of these "
                                    "directions: the unit moved %s %.2f\" and sideways %.2f\" (as a forward move "
                                    "with wheels it would take %.2f\", more than its Advance Rate of %.2f\").",
                                    local.y < 0 ? "back" : "forward", base_mm_to_in(fabs(local.y)),
                                    base_mm_to_in(fabs(local.x)), base_mm_to_in(fwd_len), base_mm_to_in(rate));
}

static void evaluate_advance(const rules_move_ctx *c, rules_unit_report *ur)
{
    const double rate = rules_move_unit_rate(RULES_MOVE_ADVANCE, c->u0);
    ur->move = RULES_MOVE_ADVANCE;

    /* Forwards with any number of wheels, up to the Advance Rate. */
    rules_unit_report fwd = *ur;
    fwd.direction = "forward";
    fwd.rate_mm = rate;
    set_forward_path(c, &fwd);
    double best_ratio = fwd.path.length_mm / rate;
    *ur = fwd;

    /* Backwards or sideways, straight, up to a fraction of it (not for free-pivoting single models). */
    bool straight = fabs(c->rot) <= c->opt->straight_tolerance_rad && c->n_pairs > 0 &&
                    !(c->u0->n_models == 1 && c->rs->single_model_free_pivot);
    base_vec2 local = base_frame_to_local((base_frame){c->pose0.front_centre, c->pose0.heading},
                                            c->pose1.front_centre);
    const double stol = c->opt->straight_tolerance_mm;
    double len = base_v2_len(local);
    if (straight && local.y < -stol && fabs(local.x) <= stol) {
        double limit = rate * c->rs->backward_fraction;
        if (len / limit < best_ratio) {
            ur->direction = "backward";
            ur->rate_mm = limit;
            set_straight_path(c, ur, RULES_STEP_BACKWARD, len);
            best_ratio = len / limit;
        }
    } else if (straight && fabs(local.y) <= stol && fabs(local.x) > stol) {
        double limit = rate * c->rs->sideways_fraction;
        if (len / limit < best_ratio) {
            ur->direction = "sideways";
            ur->rate_mm = limit;
            set_straight_path(c, ur, local.x < 0 ? RULES_STEP_SIDEWAYS_LEFT : RULES_STEP_SIDEWAYS_RIGHT, len);
            best_ratio = len / limit;
        }
    }
    if (straight && fabs(local.x) > stol && fabs(local.y) > stol && over(c, ur->path.length_mm, ur->rate_mm)) {
        combined_directions(c, ur, local);
    } else {
        const char *rate_name = strcmp(ur->direction, "forward") == 0    ? "Advance Rate"
                                : strcmp(ur->direction, "backward") == 0 ? "backward limit (half its Advance Rate)"
                                                                         : "sideways limit (half its Advance Rate)";
        check_path_length(c, ur, rate_name);
    }
    check_rigid(c, ur, "Advance");
    /* Every model within the Advance Rate, whatever the direction (seed 004). */
    check_model_distances(c, ur, rate, "Advance Rate");
}

static void evaluate_march(const rules_move_ctx *c, rules_unit_report *ur)
{
    ur->move = RULES_MOVE_MARCH;
    ur->rate_mm = rules_move_unit_rate(RULES_MOVE_MARCH, c->u0);
    set_forward_path(c, ur);
    check_path_length(c, ur, "March Rate");
    check_rigid(c, ur, "March");
    check_model_distances(c, ur, ur->rate_mm, "March Rate");
    rules_unit_report_add_note(ur, "A unit that Marched cannot shoot in the following Shooting Phase.");
}

static void check_formation_legal(const rules_move_ctx *c, rules_unit_report *ur)
{
    if (c->f1.issues) {
        char why[256];
        rules_formation_describe(&c->f1, c->u1, why, sizeof why);
        rules_violation *v = rules_unit_report_add_violation(
            ur, "MU-FORMATION", RULES_QTY_LENGTH, c->f1.max_residual_mm, c->opt->formation.position_tolerance_mm,
            "The unit must end in a legal formation: %s.", why);
        if (v && (c->f1.issues & RULES_FORMATION_OFF_GRID))
            rules_violation_add_model(v, c->u1->models[c->f1.worst_model].id);
    }
    int proper;
    if (rules_formation_too_deep(c->rs, c->u0, &c->f1, &proper))
        rules_unit_report_add_violation(ur, "MU-RANKS-FILES", RULES_QTY_COUNT, c->f1.ranks, c->f1.files,
                                        "The unit ends with %d ranks but only %d files; it may not have more "
                                        "ranks than files unless it is %d models wide%s%s%s.",
                                        c->f1.ranks, c->f1.files, proper, c->u0->height >= 0 ? " (a Proper Rank of " : "",
                                        rules_formation_height_class(c->rs, c->u0),
                                        c->u0->height >= 0 ? " height)" : "");
}

static void evaluate_reform(const rules_move_ctx *c, rules_unit_report *ur)
{
    ur->move = RULES_MOVE_REFORM;
    ur->rate_mm = rules_move_unit_rate(RULES_MOVE_REFORM, c->u0);
    ur->has_path = false; /* the unit is lifted and placed back: no path */
    double shift = base_v2_dist(c->f0.centre, c->f1.centre);
    if (shift > c->opt->reform_centre_tolerance_mm)
        rules_unit_report_add_violation(ur, "MU-REFORM-CENTRE", RULES_QTY_LENGTH, shift,
                                        c->opt->reform_centre_tolerance_mm,
                                        "A Reform keeps the unit's Centre in place, but it moved %.2f\".",
                                        base_mm_to_in(shift));
    check_formation_legal(c, ur);
    check_model_distances(c, ur, ur->rate_mm, "March Rate");
    rules_unit_report_add_note(ur, "A unit that Reformed cannot shoot in the Shooting Phase this Player Turn.");
}

static rules_move_type judged_as(rules_move_type t)
{
    return rules_move_judged_as(t);
}

static bool can_evaluate(const rules_move_ctx *c, rules_move_type t)
{
    return !isnan(rules_move_unit_rate(judged_as(t), c->u0));
}

/* This module's own move types; the table of rules (rules_moves.def) says which they are. */
static void evaluate(const rules_move_ctx *c, rules_move_type t, rules_unit_report *ur)
{
    switch (judged_as(t)) {
    case RULES_MOVE_ADVANCE: evaluate_advance(c, ur); break;
    case RULES_MOVE_MARCH: evaluate_march(c, ur); break;
    default: evaluate_reform(c, ur); break;
    }
}

/* How far from legal a candidate is: fewer broken rules first, then the smaller overshoot. */
static double badness(const rules_unit_report *ur)
{
    double excess = 0;
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        if (v->limit > 0)
            excess += fmax(0.0, v->measured - v->limit) / v->limit;
    }
    return ur->n_violations * 1e6 + excess;
}

/* ---- one unit ---------------------------------------------------------- */

static bool same_id(const rules_model *a, const rules_model *b)
{
    return strcmp(a->id, b->id) == 0;
}

size_t rules_move_ctx_prepare(rules_move_ctx *c, size_t *pairs)
{
    const size_t n = c->u0->n_models;
    c->pair0 = pairs;
    c->pair1 = pairs + n;
    c->n_pairs = 0;
    for (size_t j = 0; j < n; j++) {
        const rules_model *m = &c->u0->models[j];
        /* the same order in both snapshots is the usual case: no search */
        if (j < c->u1->n_models && same_id(m, &c->u1->models[j])) {
            c->pair0[c->n_pairs] = j;
            c->pair1[c->n_pairs++] = j;
            continue;
        }
        for (size_t k = 0; k < c->u1->n_models; k++)
            if (same_id(m, &c->u1->models[k])) {
                c->pair0[c->n_pairs] = j;
                c->pair1[c->n_pairs++] = k;
                break;
            }
    }
    c->moved = false;
    if (c->n_pairs == 0)
        return 0;
    fit_rigid(c);
    double max_move2 = 0;
    for (size_t i = 0; i < c->n_pairs; i++) {
        base_vec2 d = base_v2_sub(c->u0->models[c->pair0[i]].pos, c->u1->models[c->pair1[i]].pos);
        max_move2 = fmax(max_move2, base_v2_dot(d, d));
    }
    c->moved = max_move2 > c->opt->still_mm * c->opt->still_mm || fabs(c->rot) > c->opt->still_rad;
    c->pose0 = (rules_pose){c->f0.front_centre, c->f0.heading};
    if (is_rigid(c))
        c->pose1 = (rules_pose){apply_rigid(c, c->f0.front_centre), base_angle_wrap(c->f0.heading + c->rot)};
    else
        c->pose1 = (rules_pose){c->f1.front_centre, c->f1.heading};
    if (c->moved)
        solve_forward_path(c);
    return c->n_pairs;
}

/* Infers the move type: the first legal one of the rows flagged RULES_MOVE_INFER in table order (Advance, March,
 * Reform), else the closest to legal. */
static int judge_auto(const rules_move_ctx *c, rules_unit_report *chosen, base_error *err)
{
    const rules_unit_report base = *chosen; /* filled but owning no arrays yet */
    bool have = false;
    double best = INFINITY;
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        if (!rules_move_has((rules_move_type)t, RULES_MOVE_INFER) || !can_evaluate(c, (rules_move_type)t))
            continue;
        rules_unit_report cand = base;
        evaluate(c, (rules_move_type)t, &cand);
        double b = badness(&cand);
        if (!have || b < best) {
            if (have)
                rules_unit_report_clear(chosen);
            *chosen = cand;
            best = b;
            have = true;
        } else {
            rules_unit_report_clear(&cand);
        }
        if (chosen->legal)
            break;
    }
    if (!have)
        return base_error_set(err, "unit %s: its profile has neither advance_in nor march_in; its move cannot be "
                                    "judged",
                               c->u0->id);
    return 0;
}

int rules_move_ctx_judge(const rules_move_ctx *c, rules_move_type type, bool declared, rules_unit_report *ur,
                         base_error *err)
{
    ur->centre_before = c->f0.centre;
    ur->centre_after = c->f1.centre;
    ur->centre_displacement_mm = base_v2_dist(c->f0.centre, c->f1.centre);
    ur->rotation_rad = base_angle_wrap(c->f1.heading - c->f0.heading);
    ur->files_before = c->f0.files;
    ur->ranks_before = c->f0.ranks;
    ur->files_after = c->f1.files;
    ur->ranks_after = c->f1.ranks;
    if (!c->moved) {
        ur->move = RULES_MOVE_NONE;
    } else if (rules_move_needs_roll(c, type, declared, ur)) {
        rules_move_check_march_test(c, ur); /* a note, whatever the roll */
        return 0;
    } else if (type != RULES_MOVE_AUTO) {
        if (!can_evaluate(c, type))
            return base_error_set(err, "unit %s: its profile has no %s, needed to judge a %s", c->u0->id,
                                   rules_move_key(judged_as(type)), rules_words_move(type));
        ur->declared = declared;
        evaluate(c, type, ur);
    } else if (judge_auto(c, ur, err) < 0) {
        return -1;
    }
    rules_move_note_roll(c, ur);
    if (c->moved) {
        rules_move_check_eligible(c, ur);
        rules_move_check_spacing(c, ur);
        rules_check_board_edge(c->u1, c->t1->s, c->opt->limit_tolerance_mm, "MU-BOARD-EDGE", ur);
    }
    rules_move_check_march_test(c, ur);
    return 0;
}

/* The report's per-model distances and the notes on models missing or inferred. */
static int add_models(const rules_move_ctx *c, rules_unit_report *ur)
{
    ur->models = malloc(c->n_pairs * sizeof *ur->models);
    if (!ur->models)
        return -1;
    for (size_t i = 0; i < c->n_pairs; i++) {
        rules_model_move *mm = &ur->models[ur->n_models++];
        const rules_model *m0 = &c->u0->models[c->pair0[i]], *m1 = &c->u1->models[c->pair1[i]];
        strcpy(mm->id, m0->id); /* both RULES_ID_MAX long */
        mm->distance_mm = pair_distance(c, i);
        mm->inferred = m0->inferred || m1->inferred;
    }
    if (c->n_pairs < c->u0->n_models && rules_unit_report_note_missing(ur, c->u0, c->u1) < 0)
        return -1;
    size_t inferred = 0;
    for (size_t i = 0; i < ur->n_models; i++)
        inferred += ur->models[i].inferred;
    if (inferred)
        rules_unit_report_add_note(ur, "%zu model position%s inferred from the formation, not seen.", inferred,
                                   inferred == 1 ? " was" : "s were");
    return 0;
}

static int check_unit(const rules_table *t0, const rules_table *t1, size_t i0, size_t i1, const rules_ruleset *rs,
                      const rules_check_options *opt, rules_report *out, base_error *err)
{
    rules_move_ctx c = {.t0 = t0, .t1 = t1, .i0 = i0, .i1 = i1, .u0 = &t0->s->units[i0], .u1 = &t1->s->units[i1],
                  .f0 = t0->fits[i0], .f1 = t1->fits[i1], .rs = rs, .opt = opt};
    size_t n = c.u0->n_models, stack[64];
    size_t *pairs = 2 * n <= 64 ? stack : malloc(2 * n * sizeof *pairs);
    if (!pairs)
        return base_error_set(err, "out of memory");
    int rc = 0;
    bool selected = opt->unit_id && strcmp(opt->unit_id, c.u0->id) == 0;
    if (rules_move_ctx_prepare(&c, pairs) == 0) {
        rules_report_add_note(out, "Unit %s has none of its models in both snapshots; its move cannot be judged.",
                              c.u0->id);
        goto done;
    }
    if (!c.moved && !selected)
        goto done;
    rules_unit_report ur;
    rules_unit_report_init(&ur, c.u0->id, c.u0->side, RULES_MOVE_NONE, false);
    if (rules_move_ctx_judge(&c, opt->move, true, &ur, err) < 0) {
        rc = -1;
        rules_unit_report_clear(&ur);
    } else if (add_models(&c, &ur) < 0 || rules_report_take_unit(out, &ur) < 0) {
        rc = base_error_set(err, "out of memory");
        rules_unit_report_clear(&ur);
    }
done:
    if (pairs != stack)
        free(pairs);
    return rc;
}

/* ---- the table -------------------------------------------------------- */

/* A model in both snapshots must belong to the same unit in both. */
static int check_consistent(const rules_table *t0, const rules_table *t1, base_error *err)
{
    const rules_snapshot *before = t0->s, *after = t1->s;
    for (size_t i = 0; i < before->n_units; i++) {
        const rules_unit *u = &before->units[i];
        size_t k = rules_table_find(t1, u->id);
        const rules_unit *same = k == RULES_TABLE_NONE ? NULL : &after->units[k];
        for (size_t j = 0; j < u->n_models; j++) {
            rules_unit *other = NULL;
            if (same && ((j < same->n_models && same_id(&u->models[j], &same->models[j])) ||
                         rules_unit_find_model(same, u->models[j].id)))
                continue; /* the usual case, found without searching the whole table */
            if (rules_snapshot_find_model(after, u->models[j].id, &other) && strcmp(other->id, u->id) != 0)
                return base_error_set(err,
                                       "model %s belongs to unit %s before but to unit %s after; a model cannot "
                                       "change units",
                                       u->models[j].id, u->id, other->id);
        }
    }
    return 0;
}

int rules_move_check(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt_in,
                     rules_report *out, base_error *err)
{
    rules_check_options defaults;
    opt_in = rules_check_options_or_default(opt_in, &defaults);
    const rules_check_options *opt = opt_in;
    rules_report_begin(out, before, after);

    rules_table t0, t1;
    if (rules_table_build(&t0, before, &opt->formation, NULL, err) < 0)
        return -1;
    if (rules_table_build(&t1, after, &opt->formation, &t0, err) < 0) {
        rules_table_clear(&t0);
        return -1;
    }
    int rc = check_consistent(&t0, &t1, err);
    if (rc == 0 && rules_report_reserve(out, opt->unit_id ? 1 : before->n_units) < 0)
        rc = base_error_set(err, "out of memory");
    if (rc == 0 && opt->unit_id && rules_table_find(&t0, opt->unit_id) == RULES_TABLE_NONE)
        rc = base_error_set(err, "unit %s is not in the before snapshot", opt->unit_id);
    for (size_t i = 0; rc == 0 && i < before->n_units; i++) {
        const rules_unit *u0 = &before->units[i];
        if (opt->unit_id && strcmp(opt->unit_id, u0->id) != 0)
            continue;
        size_t i1 = rules_table_find(&t1, u0->id);
        if (i1 == RULES_TABLE_NONE) {
            rules_report_add_note(out, "Unit %s is not in the after snapshot (removed or not seen).", u0->id);
            continue;
        }
        rc = check_unit(&t0, &t1, i, i1, &out->ruleset, opt, out, err);
    }
    for (size_t i = 0; rc == 0 && !opt->unit_id && i < after->n_units; i++)
        if (rules_table_find(&t0, after->units[i].id) == RULES_TABLE_NONE)
            rules_report_add_note(out, "Unit %s appears only in the after snapshot; it is not judged.",
                                  after->units[i].id);
    rules_table_clear(&t0);
    rules_table_clear(&t1);
    if (rc < 0)
        rules_report_clear(out);
    return rc;
}
