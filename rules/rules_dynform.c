#include "rules_dynform.h"

#include <stdarg.h>
#include <stdio.h>
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

/* One formation being judged: its members in the after snapshot and the report it fills. */
typedef struct df_judge {
    const rules_snapshot *before, *after;
    const rules_dynform_decl *f;
    bool declared_after;
    const rules_check_options *opt;
    const rules_ruleset *rs;
    double tol;
    member *mb;      /* the members in `after` */
    size_t n;
    bool *touching;  /* member i's Control Area touches another's */
    size_t n_touch;
    rules_unit_report ur;
} df_judge;

static void add_model_violation(rules_unit_report *ur, const char *rule, double value, double limit,
                                const char *model_id, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* A violation about one model, which it names. */
static void add_model_violation(rules_unit_report *ur, const char *rule, double value, double limit,
                                const char *model_id, const char *fmt, ...)
{
    char text[RULES_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    rules_violation *v = rules_unit_report_add_violation(ur, rule, RULES_QTY_COUNT, value, limit, "%s", text);
    if (v)
        rules_violation_add_model(v, model_id);
}

/* Heroes never; identical models only (one card or several: a Combined Formation). */
static void check_members(df_judge *J)
{
    const member *mb = J->mb;
    for (size_t i = 0; i < J->n; i++) {
        if (mb[i].u->heroic)
            add_model_violation(&J->ur, "DF-HEROIC", 1, 0, mb[i].m->id,
                                "Model %s is a Hero, Heroic Mount or Heroic Beast and cannot enter a Formation.",
                                mb[i].m->id);
        if (strcmp(profile_of(mb[i].u), profile_of(mb[0].u)) != 0)
            add_model_violation(&J->ur, "DF-IDENTICAL", 1, 0, mb[i].m->id,
                                "Model %s (%s) is not identical to %s (%s); a Formation is made of identical models.",
                                mb[i].m->id, profile_of(mb[i].u), mb[0].m->id, profile_of(mb[0].u));
    }
    size_t cards = 0;
    char card_list[RULES_TEXT_MAX / 2] = "";
    for (size_t i = 0; i < J->n; i++) {
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
        rules_unit_report_add_note(&J->ur, "Combined Formation: cards %s count as one card while it lasts and are all "
                                           "activated together (those models outside it too).",
                                   card_list);
}

/* Cohesion: every member's Control Area touches another member's. */
static void check_cohesion(df_judge *J)
{
    const member *mb = J->mb;
    const rules_ruleset *rs = J->rs;
    for (size_t i = 0; i < J->n; i++) {
        for (size_t j = 0; j < J->n && !J->touching[i]; j++)
            J->touching[i] = j != i && rules_dynform_areas_touch(mb[i].u, mb[i].m, mb[j].u, mb[j].m, 1e-6);
        J->n_touch += J->touching[i];
        if (J->touching[i])
            continue;
        if (J->declared_after)
            add_model_violation(&J->ur, "DF-COHESION", 0, 1, mb[i].m->id,
                                "Model %s's Control Area touches no other member's: it is not part of the Formation.",
                                mb[i].m->id);
        else
            rules_unit_report_add_note(&J->ur, "Model %s moved away (its Control Area touches no other member's) and "
                                               "leaves the Formation.",
                                       mb[i].m->id);
    }
    rules_unit_report_add_measure(&J->ur, "members", RULES_QTY_COUNT, (double)J->n_touch);
    if ((int)J->n_touch < rs->formation_min_models) {
        if (J->declared_after && (int)J->n < rs->formation_min_models)
            rules_unit_report_add_violation(&J->ur, "DF-TOO-FEW", RULES_QTY_COUNT, (double)J->n,
                                            rs->formation_min_models,
                                            "A Formation needs at least %d identical models; %s has %zu.",
                                            rs->formation_min_models, J->f->id, J->n);
        else
            rules_unit_report_add_note(&J->ur, "Fewer than %d models remain together: the Formation is broken.",
                                       rs->formation_min_models);
    }
}

/* Spacing: at most the Widen limit, and the same distance between
 * neighbours. Returns the mean gap (edge to edge) of the members together. */
static double check_spacing(df_judge *J)
{
    const rules_ruleset *rs = J->rs;
    double gmin, gmax, gmean = neighbour_gaps(J->mb, J->n, J->touching, &gmin, &gmax);
    if (J->n_touch >= 2) {
        rules_unit_report_add_measure(&J->ur, "spacing", RULES_QTY_LENGTH, gmean);
        if (gmax > rs->formation_widen_max_mm + J->opt->limit_tolerance_mm)
            rules_unit_report_add_violation(&J->ur, "DF-WIDEN", RULES_QTY_LENGTH, gmax, rs->formation_widen_max_mm,
                                            "Members stand %.2f\" from their nearest neighbour; a Formation may "
                                            "Widen to at most %.2f\".",
                                            base_mm_to_in(gmax), base_mm_to_in(rs->formation_widen_max_mm));
        if (gmax - gmin > J->tol)
            rules_unit_report_add_violation(&J->ur, "DF-EVEN-SPACING", RULES_QTY_LENGTH, gmax - gmin, J->tol,
                                            "Members must stand at the same distance from one another: the gaps "
                                            "run from %.2f\" to %.2f\".",
                                            base_mm_to_in(gmin), base_mm_to_in(gmax));
    }
    base_vec2 c;
    if (rules_dynform_centre(J->after, J->f, &c) == 0) {
        rules_unit_report_add_measure(&J->ur, "centre_x", RULES_QTY_LENGTH, c.x);
        rules_unit_report_add_measure(&J->ur, "centre_y", RULES_QTY_LENGTH, c.y);
        J->ur.centre_after = c;
    }
    return gmean;
}

/* Movement, when the members (mb0, as many as in `after`) are in the before
 * snapshot too: declaring is free; a formation that was one already pays its
 * Tighten/Widen and may move no more than its slowest member. */
static void judge_movement(df_judge *J, const member *mb0, double gmean)
{
    const rules_ruleset *rs = J->rs;
    const member *mb = J->mb;
    double slowest = INFINITY, moved = 0, left = INFINITY;
    bool have_rate = true;
    for (size_t i = 0; i < J->n; i++) {
        double d = base_v2_dist(mb0[i].m->pos, mb[i].m->pos);
        moved = fmax(moved, d);
        have_rate &= !isnan(mb[i].u->mobility);
        slowest = fmin(slowest, mb[i].u->mobility);
        left = fmin(left, mb[i].u->mobility - d);
    }
    bool was_formation = false;
    for (size_t k = 0; k < J->before->n_dynforms; k++)
        was_formation |= strcmp(J->before->dynforms[k].id, J->f->id) == 0;
    if (!have_rate) {
        rules_unit_report_add_note(&J->ur, "No mobility_in on a card: the formation's movement is not judged.");
        return;
    }
    if (!was_formation) {
        /* Moving into Formation is free; what is left is counted by the model with least Movement left. */
        rules_unit_report_add_measure(&J->ur, "movement_left", RULES_QTY_LENGTH, fmax(0.0, left));
        rules_unit_report_add_note(&J->ur, "Formation declared: it has %.2f\" of Movement left.",
                                   base_mm_to_in(fmax(0.0, left)));
        return;
    }
    double g0min, g0max, g0 = neighbour_gaps(mb0, J->n, NULL, &g0min, &g0max);
    bool adjusted = fabs(g0 - gmean) > J->tol;
    double cost = moved + (adjusted ? rs->formation_adjust_cost_mm : 0);
    rules_unit_report_add_measure(&J->ur, "movement_used", RULES_QTY_LENGTH, cost);
    if (adjusted)
        rules_unit_report_add_note(&J->ur, "The Formation %s (spacing %.2f\" -> %.2f\"): %.2f\" of its Movement.",
                                   gmean < g0 ? "Tightened" : "Widened", base_mm_to_in(g0), base_mm_to_in(gmean),
                                   base_mm_to_in(rs->formation_adjust_cost_mm));
    J->ur.rate_mm = slowest;
    if (cost > slowest + J->opt->limit_tolerance_mm)
        rules_unit_report_add_violation(&J->ur, "DF-MOVE", RULES_QTY_LENGTH, cost, slowest,
                                        "The Formation moved %.2f\"%s, more than the %.2f\" Movement of its "
                                        "slowest member.",
                                        base_mm_to_in(cost), adjusted ? " (with its Tighten/Widen)" : "",
                                        base_mm_to_in(slowest));
}

/* A single enemy model that came into base contact charged: WILL Test against a big formation. */
static void note_will_tests(df_judge *J)
{
    const rules_ruleset *rs = J->rs;
    const member *mb = J->mb;
    for (size_t k = 0; k < J->after->n_units && J->n; k++) {
        const rules_unit *e = &J->after->units[k];
        if (e->n_models != 1 || strcmp(e->side, mb[0].u->side) == 0)
            continue;
        bool in_contact = false, was = false;
        const rules_unit *e0 = rules_snapshot_find_unit(J->before, e->id);
        for (size_t i = 0; i < J->n; i++) {
            in_contact |= rules_contact_models(e, &e->models[0], mb[i].u, mb[i].m, rs->contact_tolerance_mm);
            const rules_model *m0 = rules_snapshot_find_model(J->before, mb[i].m->id, NULL);
            if (e0 && m0)
                was |= rules_contact_models(e0, &e0->models[0], mb[i].u, m0, rs->contact_tolerance_mm);
        }
        if (!in_contact || was || e->will < 0)
            continue;
        if (rules_dynform_will_test(rs, e->will, J->n_touch))
            rules_unit_report_add_note(&J->ur, "%s (WILL %d) charged a Formation of %zu models: it needed to pass a "
                                               "WILL Test%s.",
                                       e->models[0].id, e->will, J->n_touch,
                                       e->heroic ? " (a Heroic model failing it gets 1 Torment)" : "");
    }
}

static int judge(const rules_snapshot *before, const rules_snapshot *after, const rules_dynform_decl *f,
                 bool declared_after, const rules_check_options *opt, rules_report *out, base_error *err)
{
    df_judge J = {.before = before, .after = after, .f = f, .declared_after = declared_after, .opt = opt,
                  .rs = &out->ruleset, .tol = opt->formation.position_tolerance_mm};
    J.mb = malloc((f->n_models ? f->n_models : 1) * sizeof *J.mb);
    member *mb0 = malloc((f->n_models ? f->n_models : 1) * sizeof *mb0);
    J.touching = calloc(f->n_models ? f->n_models : 1, sizeof *J.touching);
    if (!J.mb || !mb0 || !J.touching) {
        free(J.mb);
        free(mb0);
        free(J.touching);
        return base_error_set(err, "out of memory");
    }
    J.n = members(after, f, J.mb);
    rules_unit_report_init(&J.ur, f->id, J.n ? J.mb[0].u->side : "", RULES_MOVE_FORMATION, declared_after);
    int rc = 0;
    for (size_t i = 0; i < J.n; i++)
        if (isnan(J.mb[i].u->control_area_mm)) {
            rc = base_error_set(err, "formation %s: card %s has no control_area_in", f->id, J.mb[i].u->id);
            goto done;
        }
    check_members(&J);
    check_cohesion(&J);
    double gmean = check_spacing(&J);
    size_t n0 = members(before, f, mb0);
    if (before != after && n0 == J.n && J.n > 0)
        judge_movement(&J, mb0, gmean);
    note_will_tests(&J);
    if (rules_report_take_unit(out, &J.ur) < 0)
        rc = base_error_set(err, "out of memory");
done:
    if (rc < 0)
        rules_unit_report_clear(&J.ur);
    free(J.mb);
    free(mb0);
    free(J.touching);
    return rc;
}

int rules_dynform_check(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt_in,
                        rules_report *out, base_error *err)
{
    rules_check_options defaults;
    opt_in = rules_check_options_or_default(opt_in, &defaults);
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
