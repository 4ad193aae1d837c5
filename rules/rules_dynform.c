#include "rules_dynform.h"

#include <stdlib.h>
#include <string.h>

#include "rules_contact.h"

int rules_dynform_centre(const rules_snapshot *s, const rules_dynform_decl *f, base_vec2 *out)
{
    base_vec2 sum = {0, 0};
    size_t n = 0;
    for (size_t k = 0; k < f->n_models; k++) {
        const rules_model *m = rules_snapshot_find_model(s, f->models[k], NULL);
        if (m) {
            sum = base_v2_add(sum, m->pos);
            n++;
        }
    }
    if (!n)
        return -1;
    *out = base_v2_scale(sum, 1.0 / n);
    return 0;
}

double rules_dynform_range(const rules_snapshot *s, const rules_dynform_decl *f, base_vec2 target)
{
    base_vec2 c;
    return rules_dynform_centre(s, f, &c) < 0 ? NAN : base_v2_dist(c, target);
}

bool rules_dynform_areas_touch(const rules_unit *ua, const rules_model *a, const rules_unit *ub,
                               const rules_model *b, double tol)
{
    return base_v2_dist(a->pos, b->pos) <= ua->control_area_mm + ub->control_area_mm + tol;
}

bool rules_dynform_will_test(const rules_ruleset *rs, int will, size_t n)
{
    return rs->formation_will_test_at_equal ? (long)n >= will : (long)n > will;
}

typedef struct member {
    const rules_unit *u;
    const rules_model *m;
} member;

static const char *profile_of(const rules_unit *u)
{
    return u->profile[0] ? u->profile : u->id;
}

/* Members of `f` present in `s`. */
static size_t members(const rules_snapshot *s, const rules_dynform_decl *f, member *out)
{
    size_t n = 0;
    for (size_t k = 0; k < f->n_models; k++) {
        rules_unit *u = NULL;
        const rules_model *m = rules_snapshot_find_model(s, f->models[k], &u);
        if (m)
            out[n++] = (member){u, m};
    }
    return n;
}

static double base_gap(const member *a, const member *b)
{
    base_obb ba = rules_model_base(a->u, a->m), bb = rules_model_base(b->u, b->m);
    return base_obb_dist(&ba, &bb);
}

/* Nearest neighbour gaps (edge to edge); mean returned, min/max through pointers. */
static double neighbour_gaps(const member *mb, size_t n, const bool *keep, double *gmin, double *gmax)
{
    double sum = 0;
    size_t cnt = 0;
    *gmin = INFINITY;
    *gmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (keep && !keep[i])
            continue;
        double g = INFINITY;
        for (size_t j = 0; j < n; j++)
            if (j != i && (!keep || keep[j]))
                g = fmin(g, base_gap(&mb[i], &mb[j]));
        if (!isfinite(g))
            continue;
        sum += g;
        cnt++;
        *gmin = fmin(*gmin, g);
        *gmax = fmax(*gmax, g);
    }
    return cnt ? sum / cnt : 0;
}

static int judge(const rules_snapshot *before, const rules_snapshot *after, const rules_dynform_decl *f,
                 bool declared_after, const rules_check_options *opt, rules_report *out, base_error *err)
{
    const rules_ruleset *rs = &out->ruleset;
    const double tol = opt->formation.position_tolerance_mm;
    member *mb = malloc((f->n_models ? f->n_models : 1) * sizeof *mb);
    member *mb0 = malloc((f->n_models ? f->n_models : 1) * sizeof *mb0);
    bool *touching = calloc(f->n_models ? f->n_models : 1, sizeof *touching);
    if (!mb || !mb0 || !touching) {
        free(mb);
        free(mb0);
        free(touching);
        return base_error_set(err, "out of memory");
    }
    size_t n = members(after, f, mb);
    rules_unit_report ur;
    rules_unit_report_init(&ur, f->id, n ? mb[0].u->side : "", RULES_MOVE_FORMATION, declared_after);
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        if (isnan(mb[i].u->control_area_mm)) {
            rc = base_error_set(err, "formation %s: card %s has no control_area_in", f->id, mb[i].u->id);
            goto done;
        }

    /* Heroes never; identical models only (one card or several: a Combined Formation). */
    for (size_t i = 0; i < n; i++) {
        if (mb[i].u->heroic) {
            rules_violation *v = rules_unit_report_add_violation(
                &ur, "DF-HEROIC", RULES_QTY_COUNT, 1, 0,
                "Model %s is a Hero, Heroic Mount or Heroic Beast and cannot enter a Formation.", mb[i].m->id);
            if (v)
                rules_violation_add_model(v, mb[i].m->id);
        }
        if (strcmp(profile_of(mb[i].u), profile_of(mb[0].u)) != 0) {
            rules_violation *v = rules_unit_report_add_violation(
                &ur, "DF-IDENTICAL", RULES_QTY_COUNT, 1, 0,
                "Model %s (%s) is not identical to %s (%s); a Formation is made of identical models.", mb[i].m->id,
                profile_of(mb[i].u), mb[0].m->id, profile_of(mb[0].u));
            if (v)
                rules_violation_add_model(v, mb[i].m->id);
        }
    }
    size_t cards = 0;
    char card_list[RULES_TEXT_MAX / 2] = "";
    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen |= mb[j].u == mb[i].u;
        if (!seen) {
            cards++;
            snprintf(card_list + strlen(card_list), sizeof card_list - strlen(card_list), "%s%s",
                     card_list[0] ? ", " : "", mb[i].u->id);
        }
    }
    if (cards > 1)
        rules_unit_report_add_note(&ur, "Combined Formation: cards %s count as one card while it lasts and are all "
                                        "activated together (those models outside it too).",
                                   card_list);

    /* Cohesion: every member's Control Area touches another member's. */
    size_t n_touch = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n && !touching[i]; j++)
            touching[i] = j != i && rules_dynform_areas_touch(mb[i].u, mb[i].m, mb[j].u, mb[j].m, 1e-6);
        n_touch += touching[i];
        if (touching[i])
            continue;
        if (declared_after) {
            rules_violation *v = rules_unit_report_add_violation(
                &ur, "DF-COHESION", RULES_QTY_COUNT, 0, 1,
                "Model %s's Control Area touches no other member's: it is not part of the Formation.", mb[i].m->id);
            if (v)
                rules_violation_add_model(v, mb[i].m->id);
        } else {
            rules_unit_report_add_note(&ur, "Model %s moved away (its Control Area touches no other member's) and "
                                            "leaves the Formation.",
                                       mb[i].m->id);
        }
    }
    rules_unit_report_add_measure(&ur, "members", RULES_QTY_COUNT, (double)n_touch);
    if ((int)n_touch < rs->formation_min_models) {
        if (declared_after && (int)n < rs->formation_min_models)
            rules_unit_report_add_violation(&ur, "DF-TOO-FEW", RULES_QTY_COUNT, (double)n, rs->formation_min_models,
                                            "A Formation needs at least %d identical models; %s has %zu.",
                                            rs->formation_min_models, f->id, n);
        else
            rules_unit_report_add_note(&ur, "Fewer than %d models remain together: the Formation is broken.",
                                       rs->formation_min_models);
    }

    /* Spacing: at most the Widen limit, and the same distance between neighbours. */
    double gmin, gmax, gmean = neighbour_gaps(mb, n, touching, &gmin, &gmax);
    if (n_touch >= 2) {
        rules_unit_report_add_measure(&ur, "spacing", RULES_QTY_LENGTH, gmean);
        if (gmax > rs->formation_widen_max_mm + opt->limit_tolerance_mm)
            rules_unit_report_add_violation(&ur, "DF-WIDEN", RULES_QTY_LENGTH, gmax, rs->formation_widen_max_mm,
                                            "Members stand %.2f\" from their nearest neighbour; a Formation may "
                                            "Widen to at most %.2f\".",
                                            base_mm_to_in(gmax), base_mm_to_in(rs->formation_widen_max_mm));
        if (gmax - gmin > tol)
            rules_unit_report_add_violation(&ur, "DF-EVEN-SPACING", RULES_QTY_LENGTH, gmax - gmin, tol,
                                            "Members must stand at the same distance from one another: the gaps "
                                            "run from %.2f\" to %.2f\".",
                                            base_mm_to_in(gmin), base_mm_to_in(gmax));
    }
    base_vec2 c;
    if (rules_dynform_centre(after, f, &c) == 0) {
        rules_unit_report_add_measure(&ur, "centre_x", RULES_QTY_LENGTH, c.x);
        rules_unit_report_add_measure(&ur, "centre_y", RULES_QTY_LENGTH, c.y);
        ur.centre_after = c;
    }

    /* Movement, when the members are in the before snapshot too. */
    size_t n0 = members(before, f, mb0);
    if (before != after && n0 == n && n > 0) {
        double slowest = INFINITY, moved = 0, left = INFINITY;
        bool have_rate = true;
        for (size_t i = 0; i < n; i++) {
            double d = base_v2_dist(mb0[i].m->pos, mb[i].m->pos);
            moved = fmax(moved, d);
            have_rate &= !isnan(mb[i].u->mobility);
            slowest = fmin(slowest, mb[i].u->mobility);
            left = fmin(left, mb[i].u->mobility - d);
        }
        bool was_formation = false;
        for (size_t k = 0; k < before->n_dynforms; k++)
            was_formation |= strcmp(before->dynforms[k].id, f->id) == 0;
        if (!have_rate) {
            rules_unit_report_add_note(&ur, "No mobility_in on a card: the formation's movement is not judged.");
        } else if (!was_formation) {
            /* Moving into Formation is free; what is left is counted by the model with least Movement left. */
            rules_unit_report_add_measure(&ur, "movement_left", RULES_QTY_LENGTH, fmax(0.0, left));
            rules_unit_report_add_note(&ur, "Formation declared: it has %.2f\" of Movement left.",
                                       base_mm_to_in(fmax(0.0, left)));
        } else {
            double g0min, g0max, g0 = neighbour_gaps(mb0, n, NULL, &g0min, &g0max);
            bool adjusted = fabs(g0 - gmean) > tol;
            double cost = moved + (adjusted ? rs->formation_adjust_cost_mm : 0);
            rules_unit_report_add_measure(&ur, "movement_used", RULES_QTY_LENGTH, cost);
            if (adjusted)
                rules_unit_report_add_note(&ur, "The Formation %s (spacing %.2f\" -> %.2f\"): %.2f\" of its Movement.",
                                           gmean < g0 ? "Tightened" : "Widened", base_mm_to_in(g0),
                                           base_mm_to_in(gmean), base_mm_to_in(rs->formation_adjust_cost_mm));
            ur.rate_mm = slowest;
            if (cost > slowest + opt->limit_tolerance_mm)
                rules_unit_report_add_violation(&ur, "DF-MOVE", RULES_QTY_LENGTH, cost, slowest,
                                                "The Formation moved %.2f\"%s, more than the %.2f\" Movement of its "
                                                "slowest member.",
                                                base_mm_to_in(cost), adjusted ? " (with its Tighten/Widen)" : "",
                                                base_mm_to_in(slowest));
        }
    }

    /* A single enemy model that came into base contact charged: WILL Test against a big formation. */
    for (size_t k = 0; k < after->n_units && n; k++) {
        const rules_unit *e = &after->units[k];
        if (e->n_models != 1 || strcmp(e->side, mb[0].u->side) == 0)
            continue;
        bool in_contact = false, was = false;
        const rules_unit *e0 = rules_snapshot_find_unit(before, e->id);
        for (size_t i = 0; i < n; i++) {
            in_contact |= rules_contact_models(e, &e->models[0], mb[i].u, mb[i].m, rs->contact_tolerance_mm);
            const rules_model *m0 = rules_snapshot_find_model(before, mb[i].m->id, NULL);
            if (e0 && m0)
                was |= rules_contact_models(e0, &e0->models[0], mb[i].u, m0, rs->contact_tolerance_mm);
        }
        if (!in_contact || was || e->will < 0)
            continue;
        if (rules_dynform_will_test(rs, e->will, n_touch))
            rules_unit_report_add_note(&ur, "%s (WILL %d) charged a Formation of %zu models: it needed to pass a "
                                            "WILL Test%s.",
                                       e->models[0].id, e->will, n_touch,
                                       e->heroic ? " (a Heroic model failing it gets 1 Torment)" : "");
    }
    if (rules_report_take_unit(out, &ur) < 0)
        rc = base_error_set(err, "out of memory");
done:
    if (rc < 0)
        rules_unit_report_clear(&ur);
    free(mb);
    free(mb0);
    free(touching);
    return rc;
}

int rules_dynform_check(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt_in,
                        rules_report *out, base_error *err)
{
    rules_check_options defaults;
    if (!opt_in) {
        rules_check_options_default(&defaults);
        opt_in = &defaults;
    }
    rules_report_begin(out, before, after);
    bool declared_after = after->n_dynforms > 0;
    const rules_snapshot *decl = declared_after ? after : before;
    for (size_t k = 0; k < decl->n_dynforms; k++) {
        if (opt_in->unit_id && strcmp(opt_in->unit_id, decl->dynforms[k].id) != 0)
            continue;
        if (judge(before, after, &decl->dynforms[k], declared_after, opt_in, out, err) < 0) {
            rules_report_clear(out);
            return -1;
        }
    }
    if (decl->n_dynforms == 0)
        rules_report_add_note(out, "No formation is declared in either snapshot.");
    return 0;
}
