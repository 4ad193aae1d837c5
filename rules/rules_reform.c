#include "rules_reform.h"

#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"

double rules_reform_model_radius(const rules_unit *u)
{
    return 0.5 * hypot(u->base_width, u->base_depth);
}

int rules_reform_load_obstacles(rules_visgraph *g, const rules_snapshot *s, const rules_formation *fits,
                                const rules_unit *self, double clearance)
{
    rules_visgraph_reset(g, s->board_width, s->board_depth);
    for (size_t i = 0; i < s->n_units; i++) {
        if (self && strcmp(s->units[i].id, self->id) == 0)
            continue; /* the unit's own models are ignored */
        base_vec2 k[4];
        base_obb_corners(&fits[i].boundary, k);
        if (rules_visgraph_add_obstacle(g, k, 4, clearance) < 0)
            return -1;
    }
    for (size_t i = 0; i < s->n_terrain; i++) {
        const rules_terrain *t = &s->terrain[i];
        if (t->kind == RULES_TERRAIN_IMPASSABLE && rules_visgraph_add_obstacle(g, t->points, t->n_points, clearance) < 0)
            return -1;
    }
    return 0;
}

static int fit_all(const rules_snapshot *s, const rules_check_options *opt, rules_formation **out, base_error *err)
{
    *out = calloc(s->n_units ? s->n_units : 1, sizeof **out);
    if (!*out)
        return base_error_set(err, "out of memory");
    for (size_t i = 0; i < s->n_units; i++)
        if (rules_formation_fit(&s->units[i], &opt->formation, &(*out)[i], NULL) < 0)
            return base_error_set(err, "unit %s has no models", s->units[i].id);
    return 0;
}

static bool over(const rules_check_options *opt, double measured, double limit)
{
    return measured > limit + opt->limit_tolerance_mm;
}

/* Smallest gap from unit boundary `box` to any other unit's boundary or impassable terrain in `s`. */
static double nearest_gap(const rules_snapshot *s, const rules_formation *fits, const rules_unit *self,
                          const base_obb *box, const char **who)
{
    base_vec2 mine[4];
    base_obb_corners(box, mine);
    double best = INFINITY;
    *who = NULL;
    for (size_t i = 0; i < s->n_units; i++) {
        if (strcmp(s->units[i].id, self->id) == 0)
            continue;
        base_vec2 k[4];
        base_obb_corners(&fits[i].boundary, k);
        double d = base_poly_dist(mine, 4, k, 4);
        if (d < best) {
            best = d;
            *who = s->units[i].id;
        }
    }
    for (size_t i = 0; i < s->n_terrain; i++) {
        const rules_terrain *t = &s->terrain[i];
        if (t->kind != RULES_TERRAIN_IMPASSABLE)
            continue;
        double d = base_poly_dist(mine, 4, t->points, t->n_points);
        if (d < best) {
            best = d;
            *who = t->id[0] ? t->id : "impassable terrain";
        }
    }
    return best;
}

static void check_formation(const rules_check_options *opt, const rules_ruleset *rs, const rules_formation *f,
                            const rules_unit *u, rules_unit_report *ur, const char *code, const char *when)
{
    if (f->issues) {
        char why[256];
        rules_formation_describe(f, u, why, sizeof why);
        rules_violation *v = rules_unit_report_add_violation(ur, code, RULES_QTY_LENGTH, f->max_residual_mm,
                                                             opt->formation.position_tolerance_mm,
                                                             "The unit must be %s in a viable formation: %s.", when,
                                                             why);
        if (v && (f->issues & RULES_FORMATION_OFF_GRID))
            rules_violation_add_model(v, u->models[f->worst_model].id);
    }
    (void)rs;
}

typedef struct reform_ctx {
    const rules_snapshot *before, *mid, *after;
    const rules_formation *fits0, *fitsm, *fits1;
    const rules_unit *u0, *um, *u1;
    rules_formation f0, fm, f1;
    const rules_ruleset *rs;
    const rules_check_options *opt;
    rules_visgraph *graph;
} reform_ctx;

/* Each model's route start -> (mid ->) end around the obstacles of the before snapshot. */
static int check_model_routes(const reform_ctx *c, rules_unit_report *ur, base_error *err)
{
    const double limit = 2 * c->u0->mobility;
    const double clearance = rules_reform_model_radius(c->u0) + c->rs->unit_spacing_during_mm;
    if (rules_reform_load_obstacles(c->graph, c->before, c->fits0, c->u0, clearance) < 0)
        return base_error_set(err, "out of memory");
    rules_route leg = {0}, total = {0};
    double longest = 0;
    size_t n_over = 0, n_blocked = 0;
    const char *worst = NULL;
    rules_violation *v_over = NULL, *v_blocked = NULL;
    int rc = 0;
    for (size_t j = 0; j < c->u0->n_models; j++) {
        const rules_model *m0 = &c->u0->models[j];
        const rules_model *m1 = rules_unit_find_model(c->u1, m0->id);
        if (!m1)
            continue;
        const rules_model *mm = c->um ? rules_unit_find_model(c->um, m0->id) : NULL;
        total.n_points = 0;
        total.length_mm = 0;
        base_vec2 stops[3] = {m0->pos, mm ? mm->pos : m1->pos, m1->pos};
        size_t n_stops = mm ? 3 : 2;
        bool blocked = false;
        for (size_t s = 0; s + 1 < n_stops; s++) {
            int r = rules_visgraph_route(c->graph, stops[s], stops[s + 1], &leg);
            if (r < 0 || rules_route_append(&total, &leg) < 0) {
                rc = base_error_set(err, "out of memory");
                goto done;
            }
            blocked |= r == 1;
        }
        if (rules_unit_report_add_model_path(ur, m0->id, total.points, total.n_points, total.length_mm) < 0) {
            rc = base_error_set(err, "out of memory");
            goto done;
        }
        if (blocked) {
            n_blocked++;
            if (!v_blocked)
                v_blocked = rules_unit_report_add_violation(
                    ur, "RM-NO-ROUTE", RULES_QTY_COUNT, 1, 0,
                    "Model %s cannot reach its end position: other units or impassable terrain block every route "
                    "at %.2f\" spacing.",
                    m0->id, base_mm_to_in(c->rs->unit_spacing_during_mm));
            if (v_blocked)
                rules_violation_add_model(v_blocked, m0->id);
            continue;
        }
        if (total.length_mm > longest) {
            longest = total.length_mm;
            worst = m0->id;
        }
        if (over(c->opt, total.length_mm, limit))
            n_over++;
    }
    rules_unit_report_add_measure(ur, "longest_model_path", RULES_QTY_LENGTH, longest);
    rules_unit_report_add_measure(ur, "model_path_limit", RULES_QTY_LENGTH, limit);
    if (n_over) {
        v_over = rules_unit_report_add_violation(
            ur, "RM-MODEL-PATH", RULES_QTY_LENGTH, longest, limit,
            "%zu model%s move%s farther than twice the unit's Mobility (%.2f\") going around obstructions; model %s "
            "needs %.2f\".",
            n_over, n_over == 1 ? "" : "s", n_over == 1 ? "s" : "", base_mm_to_in(limit), worst,
            base_mm_to_in(longest));
        for (size_t i = 0; v_over && i < ur->n_model_paths; i++)
            if (isfinite(ur->model_paths[i].length_mm) && over(c->opt, ur->model_paths[i].length_mm, limit))
                rules_violation_add_model(v_over, ur->model_paths[i].id);
    }
    if (v_blocked)
        v_blocked->measured = (double)n_blocked;
    if (n_blocked > 1 && v_blocked)
        snprintf(v_blocked->message, sizeof v_blocked->message,
                 "%zu models cannot reach their end positions: other units or impassable terrain block every route "
                 "at %.2f\" spacing.",
                 n_blocked, base_mm_to_in(c->rs->unit_spacing_during_mm));
done:
    rules_route_clear(&leg);
    rules_route_clear(&total);
    return rc;
}

/* The centre travels at most half the Mobility (start -> (mid ->) end); the
 * files change by at most max_file_change; no more ranks than files unless a
 * Proper Rank wide; a viable formation at the end. */
static void check_centre_and_formation(reform_ctx *c, rules_unit_report *ur)
{
    double centre = c->um ? base_v2_dist(c->f0.centre, c->fm.centre) + base_v2_dist(c->fm.centre, c->f1.centre)
                          : ur->centre_displacement_mm;
    const double half = 0.5 * c->u0->mobility;
    rules_unit_report_add_measure(ur, "centre_travel", RULES_QTY_LENGTH, centre);
    rules_unit_report_add_measure(ur, "centre_limit", RULES_QTY_LENGTH, half);
    if (over(c->opt, centre, half))
        rules_unit_report_add_violation(ur, "RM-CENTRE", RULES_QTY_LENGTH, centre, half,
                                        "The unit's centre travelled %.2f\", more than half its Mobility (%.2f\").",
                                        base_mm_to_in(centre), base_mm_to_in(half));

    int dfiles = abs(c->f1.files - c->f0.files);
    rules_unit_report_add_measure(ur, "file_change", RULES_QTY_COUNT, dfiles);
    if (dfiles > c->rs->max_file_change)
        rules_unit_report_add_violation(ur, "RM-FILES", RULES_QTY_COUNT, dfiles, c->rs->max_file_change,
                                        "The unit went from %d to %d files; a Reform Move may change the number "
                                        "of files by at most %d.",
                                        c->f0.files, c->f1.files, c->rs->max_file_change);
    int proper;
    if (rules_formation_too_deep(c->rs, c->u0, &c->f1, &proper))
        rules_unit_report_add_violation(ur, "RM-RANKS-FILES", RULES_QTY_COUNT, c->f1.ranks, c->f1.files,
                                        "The unit ends with %d ranks but only %d files; it may not have more ranks "
                                        "than files unless it is %d models wide (a Proper Rank%s%s%s).",
                                        c->f1.ranks, c->f1.files, proper, c->u0->height >= 0 ? " of " : "",
                                        rules_formation_height_class(c->rs, c->u0), c->u0->height >= 0 ? " height" : "");
    check_formation(c->opt, c->rs, &c->f1, c->u1, ur, "RM-FORMATION", "placed back");
}

/* Mid-move placement: viable formation at Unit Spacing (during a move). */
static void check_mid_placement(reform_ctx *c, rules_unit_report *ur)
{
    check_formation(c->opt, c->rs, &c->fm, c->um, ur, "RM-MID-FORMATION", "placed mid-move");
    const char *who;
    double gap = nearest_gap(c->mid, c->fitsm, c->um, &c->fm.boundary, &who);
    if (who && gap < c->rs->unit_spacing_during_mm - c->opt->limit_tolerance_mm)
        rules_unit_report_add_violation(ur, "RM-MID-SPACING", RULES_QTY_LENGTH, gap, c->rs->unit_spacing_during_mm,
                                        "Placed mid-move, the unit is %.2f\" from %s; it must keep %.2f\" (Unit "
                                        "Spacing), or the move cannot be performed.",
                                        base_mm_to_in(gap), who, base_mm_to_in(c->rs->unit_spacing_during_mm));
    rules_unit_report_add_note(ur, "Model routes are measured start -> mid-move placement -> end.");
}

/* Straight distances for the model table; one note for the models not in the
 * after snapshot. -1 when out of memory. */
static int add_model_table(reform_ctx *c, rules_unit_report *ur, base_error *err)
{
    ur->models = calloc(c->u0->n_models ? c->u0->n_models : 1, sizeof *ur->models);
    if (!ur->models)
        return base_error_set(err, "out of memory");
    for (size_t j = 0; j < c->u0->n_models; j++) {
        const rules_model *m1 = rules_unit_find_model(c->u1, c->u0->models[j].id);
        if (!m1)
            continue; /* noted below, all in one note */
        rules_model_move *mm = &ur->models[ur->n_models++];
        snprintf(mm->id, sizeof mm->id, "%s", c->u0->models[j].id);
        mm->distance_mm = base_v2_dist(c->u0->models[j].pos, m1->pos);
        mm->inferred = c->u0->models[j].inferred || m1->inferred;
    }
    if (rules_unit_report_note_missing(ur, c->u0, c->u1) < 0)
        return base_error_set(err, "out of memory");
    return 0;
}

static int judge_unit(reform_ctx *c, rules_report *out, base_error *err)
{
    rules_unit_report ur;
    rules_unit_report_init(&ur, c->u0->id, c->u0->side, RULES_MOVE_REFORM_MOVE, true);
    ur.rate_mm = 2 * c->u0->mobility;
    ur.centre_before = c->f0.centre;
    ur.centre_after = c->f1.centre;
    ur.centre_displacement_mm = base_v2_dist(c->f0.centre, c->f1.centre);
    ur.rotation_rad = base_angle_wrap(c->f1.heading - c->f0.heading);
    ur.files_before = c->f0.files;
    ur.ranks_before = c->f0.ranks;
    ur.files_after = c->f1.files;
    ur.ranks_after = c->f1.ranks;

    /* Which units may move at all is the Moving Units rule (seed 004). */
    unsigned st = rules_unit_status(c->u0);
    if (st & (RULES_STATUS_CHARGING | RULES_STATUS_ENGAGED | RULES_STATUS_FLEEING | RULES_STATUS_SHAKEN))
        rules_unit_report_add_violation(&ur, "RM-ELIGIBLE", RULES_QTY_COUNT, 1, 0,
                                        "Unit %s is Charging, Engaged, Fleeing or Shaken, so it cannot move.",
                                        c->u0->id);
    check_centre_and_formation(c, &ur);
    if (c->um)
        check_mid_placement(c, &ur);
    if (check_model_routes(c, &ur, err) < 0) {
        rules_unit_report_clear(&ur);
        return -1;
    }
    /* End of the move: Unit Spacing from other units (after) and impassable terrain. */
    const char *who;
    double gap = nearest_gap(c->after, c->fits1, c->u1, &c->f1.boundary, &who);
    if (who && gap < c->rs->unit_spacing_mm - c->opt->limit_tolerance_mm)
        rules_unit_report_add_violation(&ur, "RM-SPACING", RULES_QTY_LENGTH, gap, c->rs->unit_spacing_mm,
                                        "The unit ends %.2f\" from %s; it must end at least %.2f\" away.",
                                        base_mm_to_in(gap), who, base_mm_to_in(c->rs->unit_spacing_mm));
    rules_check_board_edge(c->u1, c->after, c->opt->limit_tolerance_mm, "RM-BOARD-EDGE", &ur);
    if (add_model_table(c, &ur, err) < 0) {
        rules_unit_report_clear(&ur);
        return -1;
    }
    if (rules_report_take_unit(out, &ur) < 0) {
        rules_unit_report_clear(&ur);
        return base_error_set(err, "out of memory");
    }
    return 0;
}

static bool unit_moved(const rules_unit *u0, const rules_unit *u1, const rules_check_options *opt)
{
    for (size_t j = 0; j < u0->n_models; j++) {
        const rules_model *m1 = rules_unit_find_model(u1, u0->models[j].id);
        if (m1 && (base_v2_dist(u0->models[j].pos, m1->pos) > opt->still_mm ||
                   fabs(base_angle_wrap(m1->facing - u0->models[j].facing)) > opt->still_rad))
            return true;
    }
    return u0->n_models != u1->n_models;
}

int rules_reform_check(const rules_snapshot *before, const rules_snapshot *mid, const rules_snapshot *after,
                       const rules_check_options *opt_in, rules_report *out, base_error *err)
{
    rules_check_options defaults;
    opt_in = rules_check_options_or_default(opt_in, &defaults);
    rules_report_begin(out, before, after);
    if (opt_in->unit_id && !rules_snapshot_find_unit(before, opt_in->unit_id))
        return base_error_set(err, "unit %s is not in the before snapshot", opt_in->unit_id);

    reform_ctx c = {.before = before, .mid = mid, .after = after, .rs = &out->ruleset, .opt = opt_in};
    rules_formation *fits0 = NULL, *fitsm = NULL, *fits1 = NULL;
    int rc = fit_all(before, opt_in, &fits0, err);
    if (rc == 0)
        rc = fit_all(after, opt_in, &fits1, err);
    if (rc == 0 && mid)
        rc = fit_all(mid, opt_in, &fitsm, err);
    c.graph = rc == 0 ? rules_visgraph_new() : NULL;
    if (rc == 0 && !c.graph)
        rc = base_error_set(err, "out of memory");
    c.fits0 = fits0;
    c.fitsm = fitsm;
    c.fits1 = fits1;
    for (size_t i = 0; rc == 0 && i < before->n_units; i++) {
        c.u0 = &before->units[i];
        if (opt_in->unit_id && strcmp(opt_in->unit_id, c.u0->id) != 0)
            continue;
        c.u1 = rules_snapshot_find_unit(after, c.u0->id);
        if (!c.u1) {
            rules_report_add_note(out, "Unit %s is not in the after snapshot (removed or not seen).", c.u0->id);
            continue;
        }
        const rules_unit *um = mid ? rules_snapshot_find_unit(mid, c.u0->id) : NULL;
        if (!opt_in->unit_id && !unit_moved(c.u0, c.u1, opt_in) && !(um && unit_moved(c.u0, um, opt_in)))
            continue;
        if (isnan(c.u0->mobility)) {
            rc = base_error_set(err, "unit %s: its profile has no mobility_in, needed to judge a Reform Move",
                                 c.u0->id);
            break;
        }
        c.um = um;
        c.f0 = fits0[i];
        c.f1 = fits1[c.u1 - after->units];
        if (c.um)
            c.fm = fitsm[c.um - mid->units];
        rc = judge_unit(&c, out, err);
    }
    rules_visgraph_free(c.graph);
    free(fits0);
    free(fitsm);
    free(fits1);
    if (rc < 0)
        rules_report_clear(out);
    return rc;
}
