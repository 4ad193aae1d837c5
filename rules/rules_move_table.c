/* What every move must keep against the rest of the table: eligibility, March Test, Unit Spacing, the board. */
#include <stdlib.h>
#include <string.h>

#include "rules_move_int.h"

void rules_move_check_eligible(const rules_move_ctx *c, rules_unit_report *ur)
{
    unsigned st = c->t0->status[c->i0];
    const unsigned bad = RULES_STATUS_CHARGING | RULES_STATUS_ENGAGED | RULES_STATUS_FLEEING | RULES_STATUS_SHAKEN;
    if (!(st & bad))
        return;
    const char *why = st & RULES_STATUS_FLEEING    ? "is Fleeing"
                      : st & RULES_STATUS_ENGAGED  ? "is Engaged in Combat"
                      : st & RULES_STATUS_CHARGING ? "is Charging"
                                                   : "contains Shaken models";
    rules_violation *v = rules_unit_report_add_violation(
        ur, "MU-ELIGIBLE", RULES_QTY_COUNT, 1, 0, "Unit %s %s, so it cannot move in the Movement Phase.",
        c->u0->id, why);
    for (size_t j = 0; v && j < c->u0->n_models; j++)
        if (c->u0->models[j].status & RULES_STATUS_SHAKEN)
            rules_violation_add_model(v, c->u0->models[j].id);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/*
 * The units of `t` within `reach` of `box` (by their bounds); `sorted`: in
 * table order, so that reports listing several do not depend on the grid. *out is `buf` or a heap
 * block the caller frees (when more than `cap` are near); NULL when out of
 * memory.
 */
static size_t near_units(const rules_table *t, const base_obb *box, double reach, size_t *buf, size_t cap,
                         size_t **out, bool sorted)
{
    rules_aabb q = rules_aabb_of_obb(box);
    size_t n = rules_table_near(t, &q, reach, buf, cap);
    *out = buf;
    if (n > cap) {
        *out = malloc(n * sizeof **out);
        if (!*out)
            return 0;
        rules_table_near(t, &q, reach, *out, n);
    }
    if (sorted)
        qsort(*out, n, sizeof **out, cmp_size);
    return n;
}

void rules_move_check_march_test(const rules_move_ctx *c, rules_unit_report *ur)
{
    const rules_table *t = c->t0;
    const double radius = c->rs->march_test_radius_mm;
    size_t buf[64], *near;
    size_t n = near_units(t, &c->f0.boundary, radius, buf, 64, &near, false);
    const rules_aabb mine = t->box[c->i0];
    const base_vec2 *my_corners = t->corners[c->i0];
    double nearest = INFINITY;
    size_t who_i = RULES_TABLE_NONE;
    for (size_t k = 0; k < n; k++) {
        size_t i = near[k];
        if (i == c->i0 || t->side[i] == t->side[c->i0] || (t->status[i] & RULES_STATUS_FLEEING))
            continue;
        /* the bounds' gap never exceeds the boundaries' gap: skip what cannot be nearer (squared, no root) */
        double limit = fmin(nearest, radius);
        if (rules_aabb_dist2(&mine, &t->box[i]) > limit * limit)
            continue;
        double d = base_quad_dist(my_corners, t->corners[i]);
        if (d < nearest || (d == nearest && i < who_i)) { /* ties: the first in the table, whatever the grid */
            nearest = d;
            who_i = i;
        }
    }
    if (near != buf)
        free(near);
    if (who_i == RULES_TABLE_NONE || nearest > radius)
        return;
    const char *who = t->s->units[who_i].id;
    rules_unit_report_add_measure(ur, "nearest_enemy", RULES_QTY_LENGTH, nearest);
    if (ur->move == RULES_MOVE_MARCH)
        rules_unit_report_add_note(ur,
                                   "March Test required: enemy unit %s was %.2f\" away (within %.0f\"). The March "
                                   "is legal only if the test was passed.",
                                   who, base_mm_to_in(nearest), base_mm_to_in(radius));
    else
        rules_unit_report_add_note(ur, "March Test required: enemy unit %s was %.2f\" away (within %.0f\").", who,
                                   base_mm_to_in(nearest), base_mm_to_in(radius));
}

/* Models of the moving unit within `limit` of `poly`: a unit boundary (rect: 4 corners counter-clockwise,
 * the rectangle distance) or a terrain polygon (any orientation, maybe concave: the polygon distance). */
static void add_models_near(const rules_move_ctx *c, rules_violation *v, const base_vec2 *poly, size_t n, bool rect,
                            double limit)
{
    for (size_t j = 0; v && j < c->u1->n_models; j++) {
        base_obb base = rules_model_base(c->u1, &c->u1->models[j]);
        base_vec2 corners[4];
        base_obb_corners(&base, corners);
        double d = rect ? base_quad_dist(corners, poly) : base_poly_dist(corners, 4, poly, n);
        if (d < limit)
            rules_violation_add_model(v, c->u1->models[j].id);
    }
}

static void check_spacing_units(const rules_move_ctx *c, rules_unit_report *ur)
{
    const rules_table *t = c->t1;
    const double spacing = c->rs->unit_spacing_mm, tol = c->opt->limit_tolerance_mm;
    size_t buf[64], *near;
    size_t n = near_units(t, &c->f1.boundary, spacing, buf, 64, &near, true);
    base_vec2 mine[4];
    base_obb_corners(&c->f1.boundary, mine);
    for (size_t k = 0; k < n; k++) {
        size_t i = near[k];
        if (i == c->i1)
            continue;
        double gap = base_quad_dist(mine, t->corners[i]);
        if (gap >= spacing - tol)
            continue;
        const char *id = t->s->units[i].id;
        rules_violation *v =
            gap > 0 ? rules_unit_report_add_violation(
                          ur, "MU-SPACING-UNIT", RULES_QTY_LENGTH, gap, spacing,
                          "The unit ends %.2f\" from unit %s; units must end a move at least %.2f\" apart.",
                          base_mm_to_in(gap), id, base_mm_to_in(spacing))
                    : rules_unit_report_add_violation(
                          ur, "MU-SPACING-UNIT", RULES_QTY_LENGTH, gap, spacing,
                          "The unit ends touching or overlapping unit %s; units must end a move at least %.2f\" "
                          "apart.",
                          id, base_mm_to_in(spacing));
        add_models_near(c, v, t->corners[i], 4, true, spacing - tol);
    }
    if (near != buf)
        free(near);
}

void rules_move_check_spacing(const rules_move_ctx *c, rules_unit_report *ur)
{
    check_spacing_units(c, ur);
    const rules_table *t = c->t1;
    const double spacing = c->rs->unit_spacing_mm, tol = c->opt->limit_tolerance_mm;
    base_vec2 mine[4];
    base_obb_corners(&c->f1.boundary, mine);
    const rules_aabb mbox = rules_aabb_of_obb(&c->f1.boundary);
    for (size_t i = 0; i < t->s->n_terrain; i++) {
        const rules_terrain *tr = &t->s->terrain[i];
        if (tr->kind != RULES_TERRAIN_IMPASSABLE || rules_aabb_dist2(&mbox, &t->terrain_box[i]) >= spacing * spacing)
            continue;
        double gap = base_poly_dist(mine, 4, tr->points, tr->n_points);
        if (gap >= spacing - tol)
            continue;
        rules_violation *v = rules_unit_report_add_violation(
            ur, "MU-SPACING-TERRAIN", RULES_QTY_LENGTH, gap, spacing,
            "The unit ends %.2f\" from impassable terrain%s%s; it must stay at least %.2f\" away.",
            base_mm_to_in(gap), tr->id[0] ? " " : "", tr->id, base_mm_to_in(spacing));
        add_models_near(c, v, tr->points, tr->n_points, false, spacing - tol);
    }
}

void rules_check_board_edge(const rules_unit *u, const rules_snapshot *board, double tol_mm, const char *code,
                            rules_unit_report *ur)
{
    /* No base reaches farther from its centre than its half-diagonal: most units need no corner. */
    const double r = 0.5 * hypot(u->base_width, u->base_depth);
    rules_aabb centres = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (size_t j = 0; j < u->n_models; j++) {
        centres.x0 = fmin(centres.x0, u->models[j].pos.x);
        centres.y0 = fmin(centres.y0, u->models[j].pos.y);
        centres.x1 = fmax(centres.x1, u->models[j].pos.x);
        centres.y1 = fmax(centres.y1, u->models[j].pos.y);
    }
    if (centres.x0 >= r && centres.y0 >= r && centres.x1 <= board->board_width - r &&
        centres.y1 <= board->board_depth - r)
        return;
    double worst = 0;
    rules_violation *v = NULL;
    for (size_t j = 0; j < u->n_models; j++) {
        base_obb base = rules_model_base(u, &u->models[j]);
        base_vec2 k[4];
        base_obb_corners(&base, k);
        double out = 0;
        for (int q = 0; q < 4; q++) {
            out = fmax(out, fmax(-k[q].x, k[q].x - board->board_width));
            out = fmax(out, fmax(-k[q].y, k[q].y - board->board_depth));
        }
        if (out <= tol_mm)
            continue;
        if (!v)
            v = rules_unit_report_add_violation(ur, code, RULES_QTY_LENGTH, 0, 0, "past the board edge");
        if (!v)
            return;
        worst = fmax(worst, out);
        rules_violation_add_model(v, u->models[j].id);
    }
    if (v) {
        v->measured = worst;
        snprintf(v->message, sizeof v->message,
                 "The unit ends %.2f\" past the board edge; every model must stay on the board.", base_mm_to_in(worst));
    }
}
