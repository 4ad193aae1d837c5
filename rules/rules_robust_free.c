/* rules_robust_free: a violation that stands wherever the models in doubt stand (see the header). */
#include "rules_robust_free.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool listed_in_alternative(const rules_unit *u, const char *id)
{
    for (size_t a = 0; a < u->n_alternatives; a++)
        for (size_t j = 0; j < u->alternatives[a].n_models; j++)
            if (strcmp(u->alternatives[a].models[j].id, id) == 0)
                return true;
    return false;
}

/*
 * Fixed: measured (seen or rough) in both frames and listed in no alternative of either. Only such a model has
 * the same place and sigma in every placement, judged or not (see rules_robust_free_distance).
 */
static bool fixed(const rules_unit *u0, const rules_unit *u1, const char *id, const rules_model **a,
                  const rules_model **b)
{
    *a = rules_unit_find_model(u0, id), *b = rules_unit_find_model(u1, id);
    return *a && *b && rules_pairing_measured(*a) && rules_pairing_measured(*b) && !listed_in_alternative(u0, id) &&
           !listed_in_alternative(u1, id);
}

/*
 * The largest limit MU-MODEL-DIST could have under any placement. Declared, the move's own rate (v->limit: the
 * profile's, the same in every placement). Inferred (auto), the judge takes per placement the first legal of the
 * rows flagged RULES_MOVE_INFER, else the one nearest to legal, and each of them checks every model against its own
 * rate (Advance: the Advance Rate; March and Reform: the March Rate): past the largest, every row it could take is
 * broken. A row whose limit is no profile rate cannot be bounded here (INFINITY); a row whose rate is NAN (dice not
 * yet rolled) is never evaluated, in any placement.
 */
static double limit_bound(const rules_robust_free_in *in, const rules_violation *v)
{
    double bound = v->limit;
    if (in->move != RULES_MOVE_AUTO)
        return bound;
    for (int t = 0; t < RULES_MOVE_COUNT; t++) {
        if (!rules_move_has((rules_move_type)t, RULES_MOVE_INFER))
            continue;
        if (rules_move_rate_of((rules_move_type)t) == RULES_RATE_REPORT)
            return INFINITY;
        const double rate = rules_move_unit_rate((rules_move_type)t, in->before);
        if (!isnan(rate))
            bound = fmax(bound, rate);
    }
    return bound;
}

/*
 * Why a fixed model past the bound makes the move illegal under every placement, judged or not:
 *  - What a placement changes. rules_robust puts a placement into its working copies by rewriting the models its
 *    alternative lists (place, facing, sigma), and re-pairs identities only among the models inferred in a frame
 *    (rules_pairing_pair); the placements vision did not keep are, by the snapshot's contract (rules_snapshot.h,
 *    `alternatives`), other places of its inferred models. A fixed model is none of these: its place and sigma in
 *    each frame are the same under every placement, and rules_move pairs it by its id.
 *  - The rule is per model (seed 004): "no model can end its movement with its centre farther away than its
 *    [rate] from its starting position". One model past its rate breaks it whatever the others do, so the
 *    doubted models can neither add to nor take from this model's distance.
 *  - The limit: at most limit_bound (above), whichever move the judge takes under a placement never judged.
 *  - The measurement: the model's true distance is within `coverage` sigmas of its two measurements of the one
 *    measured (the reach rules_robust judges every distance with), so past bound + tolerance + that reach it is
 *    past the limit in truth, not only as measured.
 *  - The unit moved under every placement: this model moved more than the rules' still_mm and more than the
 *    watch's jitter (rules_pairing_still needs every model within max(jitter, its reach)).
 * So under every placement the unit's report carries MU-MODEL-DIST beyond the measurement's reach: it stands.
 */
size_t rules_robust_free_distance(const rules_robust_free_in *in, const rules_violation *v, char *why, size_t cap)
{
    if (cap)
        why[0] = 0;
    if (strcmp(v->code, "MU-MODEL-DIST") != 0 || v->quantity != RULES_QTY_LENGTH)
        return 0;
    const double bound = limit_bound(in, v);
    if (!isfinite(bound))
        return 0;
    size_t n = 0;
    const char *first = NULL;
    double least = INFINITY, reach_of_least = 0;
    for (size_t i = 0; i < v->n_models; i++) {
        const rules_model *a, *b;
        if (!fixed(in->before, in->after, v->models[i], &a, &b))
            continue;
        const double d = base_v2_dist(a->pos, b->pos);
        const double reach =
            in->pp->coverage * hypot(rules_pairing_sigma(in->pp, a), rules_pairing_sigma(in->pp, b));
        if (d - bound - in->tolerance_mm <= reach || d <= in->still_mm || d <= in->pp->jitter_mm)
            continue;
        if (!n)
            first = v->models[i];
        n++;
        if (d < least)
            least = d, reach_of_least = reach;
    }
    if (!n || !cap)
        return n;
    char who[RULES_ID_MAX + 32];
    if (n == 1)
        snprintf(who, sizeof who, "model %s, seen in both pictures, ended", first);
    else
        snprintf(who, sizeof who, "models %s and %zu more, seen in both pictures, ended at least", first, n - 1);
    snprintf(why, cap, "%s %.2f\" (+/-%.2f\") from where %s started, past %.2f\"%s", who, base_mm_to_in(least),
             base_mm_to_in(reach_of_least + in->tolerance_mm), n > 1 ? "they" : "it", base_mm_to_in(bound),
             in->move == RULES_MOVE_AUTO ? ", the largest of its rates" : "");
    return n;
}

void rules_robust_free_lead(rules_unit_report *ur, size_t at, const char *part, const char *why)
{
    if (at < ur->n_violations) {
        const rules_violation lead = ur->violations[at];
        memmove(ur->violations + 1, ur->violations, at * sizeof *ur->violations);
        ur->violations[0] = lead;
    }
    rules_unit_report_add_note(ur, "%s%s%cllegal (%s) wherever its models in doubt stand (more placements than could "
                                   "be judged): %s.",
                               part, part[0] ? "; " : "", part[0] ? 'i' : 'I',
                               ur->n_violations ? ur->violations[0].code : "?", why);
}
