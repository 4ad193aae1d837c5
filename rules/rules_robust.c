#include "rules_robust.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_pairing.h"
#include "rules_robust_free.h"
#include "rules_words.h"

void rules_robust_options_default(rules_robust_options *o)
{
    memset(o, 0, sizeof *o);
    rules_check_options_default(&o->check);
    o->coverage = RULES_COVERAGE_DEFAULT;
    o->jitter_mm = 2.0;
    o->jitter_rad = base_deg_to_rad(1.0);
    o->sigma_rough_mm = RULES_SIGMA_ROUGH_MM_DEFAULT;
    o->sigma_inferred_mm = RULES_SIGMA_INFERRED_MM_DEFAULT;
    o->max_pairs = 64;
}

/* snprintf for sentences: a long list of ids is cut, never overflows. */
static void text(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void text(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

/* ---- working copies, placements, motion ------------------------------- */

typedef struct work {
    const rules_robust_options *o;
    rules_pairing_params pp;               /* from o */
    const rules_snapshot *before, *after;  /* as given */
    rules_snapshot *b, *a;                 /* clones: the judged unit takes each placement in turn */
} work;

/* Puts placement h (0: `models` as they are, k: alternative k-1) of `src` into its working copy `dst`. */
static void apply_placement(const rules_unit *src, size_t h, rules_unit *dst)
{
    memcpy(dst->models, src->models, src->n_models * sizeof *src->models);
    if (h == 0)
        return;
    const rules_placement *alt = &src->alternatives[h - 1];
    for (size_t j = 0; j < alt->n_models; j++) {
        rules_model *m = rules_unit_find_model(dst, alt->models[j].id);
        if (!m)
            continue;
        m->pos = alt->models[j].pos;
        m->facing = alt->models[j].facing;
        if (!isnan(alt->models[j].sigma_mm))
            m->sigma_mm = alt->models[j].sigma_mm;
    }
}

static const char *placement_label(const rules_unit *u, size_t h)
{
    const char *l = h ? u->alternatives[h - 1].label : u->placement_label;
    return l[0] ? l : "as placed";
}

/* ---- one pair of placements ------------------------------------------- */

typedef enum pair_outcome {
    PAIR_STILL,    /* the unit did not move */
    PAIR_LEGAL,
    PAIR_UNSURE,   /* a rule broken as measured, but only within the measurement's reach (or by identities) */
    PAIR_ILLEGAL,  /* a violation stands */
} pair_outcome;

typedef struct pair {
    size_t h0, h1;        /* placements: 0 = as placed, k = alternative k-1 */
    bool slots_kept;
    bool identity;        /* ILLEGAL only with the unseen models paired by slot: cleared by their nearest places */
    bool placement_free;  /* a violation stands wherever the doubted models stand (rules_robust_free.h) */
    pair_outcome outcome;
    rules_report r;       /* the unit's report under this pair (when it moved) */
    char close[RULES_TEXT_MAX];
    size_t free_at;                 /* when placement_free: the first such violation in r's unit report ... */
    char free_why[RULES_TEXT_MAX];  /* ... and its models and measure */
} pair;

static bool min_limit(const char *code) { return strncmp(code, "MU-SPACING", 10) == 0; }
static bool after_frame_only(const char *code)
{
    return min_limit(code) || strcmp(code, "MU-BOARD-EDGE") == 0 || strcmp(code, "MU-FORMATION") == 0;
}

static double model_reach(const work *w, const rules_unit *w0, const rules_unit *w1, const char *id, bool after_only)
{
    const rules_model *a = rules_unit_find_model(w0, id), *b = rules_unit_find_model(w1, id);
    double sa = a ? rules_pairing_sigma(&w->pp, a) : 0, sb = b ? rules_pairing_sigma(&w->pp, b) : 0;
    /* A gap or an edge is measured in the after frame only, against something placed as well as this model. */
    return after_only ? sqrt(2.0) * sb : hypot(sa, sb);
}

/* +/- of a violation's measured value (coverage sigmas), in its own unit. */
static double violation_reach(const work *w, const rules_unit *w0, const rules_unit *w1, const rules_unit_report *ur,
                              const rules_violation *v)
{
    if (v->quantity == RULES_QTY_COUNT)
        return 0;
    const bool ao = after_frame_only(v->code);
    double s = 0;
    if (v->n_models) {
        for (size_t i = 0; i < v->n_models; i++)
            s = fmax(s, model_reach(w, w0, w1, v->models[i], ao));
    } else {
        /* A unit-wide figure (path, centre) comes from the fitted formation: the models' RMS. */
        double s2 = 0;
        for (size_t j = 0; j < w1->n_models; j++)
            s2 += pow(model_reach(w, w0, w1, w1->models[j].id, ao), 2);
        s = w1->n_models ? sqrt(s2 / w1->n_models) : 0;
    }
    s *= w->o->coverage;
    if (v->quantity == RULES_QTY_ANGLE)
        return ur->front_width_mm > 0 ? s / ur->front_width_mm : 0;
    return s;
}

static bool measured_in_both(const rules_unit *w0, const rules_unit *w1, const char *id)
{
    const rules_model *a = rules_unit_find_model(w0, id), *b = rules_unit_find_model(w1, id);
    return a && b && rules_pairing_measured(a) && rules_pairing_measured(b);
}

static void list_models(const rules_violation *v, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < v->n_models && i < 4 && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", v->models[i]);
    if (v->n_models > 4 && len < cap)
        snprintf(buf + len, cap - len, " and %zu more", v->n_models - 4);
}

/*
 * The pair's outcome from the unit's report: which violations stand beyond the measurement's reach. A violation
 * that stands wherever the doubted models stand (rules_robust_free.h: carried by a model measured in both frames
 * beyond its own reach) stands here too, and makes the pair placement_free: the same under the placements never
 * judged.
 */
static pair_outcome classify(const work *w, const rules_unit *w0, const rules_unit *w1, const rules_unit_report *ur,
                             pair *p)
{
    bool any = false, standing = false, identity_only = true, any_free = false;
    /* The units as given, not the working copies: which models are in doubt is the snapshots' own. */
    const rules_robust_free_in fin = {rules_snapshot_find_unit(w->before, w0->id),
                                      rules_snapshot_find_unit(w->after, w1->id), &w->pp,
                                      w->o->check.limit_tolerance_mm, w->o->check.still_mm, w->o->check.move};
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        const double reach = violation_reach(w, w0, w1, ur, v);
        const double tol = v->quantity == RULES_QTY_LENGTH ? w->o->check.limit_tolerance_mm : 0;
        const bool past = min_limit(v->code) ? v->measured < v->limit : v->measured > v->limit;
        char fwhy[RULES_TEXT_MAX];
        const bool carried = fin.before && fin.after && rules_robust_free_distance(&fin, v, fwhy, sizeof fwhy) > 0;
        if (carried && !any_free) {
            p->free_at = i;
            text(p->free_why, sizeof p->free_why, "%s", fwhy);
        }
        any_free |= carried;
        any = true;
        if (carried || v->quantity == RULES_QTY_COUNT || !past || fabs(v->measured - v->limit) - tol > reach) {
            standing = true;
            bool dist = strcmp(v->code, "MU-MODEL-DIST") == 0;
            bool all_measured = dist && v->n_models > 0;
            for (size_t k = 0; k < v->n_models && all_measured; k++)
                all_measured = measured_in_both(w0, w1, v->models[k]);
            identity_only &= dist && !all_measured && !carried;
        } else if (!p->close[0]) {
            char ids[160], meas[32], lim[32], pm[32];
            list_models(v, ids, sizeof ids);
            bool len = v->quantity == RULES_QTY_LENGTH;
            text(meas, sizeof meas, len ? "%.2f\"" : "%.1f deg",
                 len ? base_mm_to_in(v->measured) : base_rad_to_deg(v->measured));
            text(lim, sizeof lim, len ? "%.2f\"" : "%.1f deg",
                 len ? base_mm_to_in(v->limit) : base_rad_to_deg(v->limit));
            text(pm, sizeof pm, len ? "%.2f\"" : "%.1f deg",
                 len ? base_mm_to_in(reach + tol) : base_rad_to_deg(reach));
            text(p->close, sizeof p->close, "%s measured %s against a limit of %s, within the +/-%s the pictures "
                     "allow%s%s%s", v->code, meas, lim, pm, ids[0] ? " (models " : "", ids, ids[0] ? ")" : "");
        }
    }
    p->identity = standing && identity_only;
    p->placement_free = any_free;
    return standing ? PAIR_ILLEGAL : any ? PAIR_UNSURE : PAIR_LEGAL;
}

/* Judges the unit (index u0i before, u1i after) under placements (p->h0, p->h1). */
static int judge_pair(work *w, size_t u0i, size_t u1i, pair *p, base_error *err)
{
    const rules_unit *U0 = &w->before->units[u0i], *U1 = &w->after->units[u1i];
    rules_unit *w0 = &w->b->units[u0i], *w1 = &w->a->units[u1i];
    rules_check_options opt = w->o->check;
    opt.unit_id = U0->id;
    for (int pass = 0; pass < 2; pass++) {
        apply_placement(U0, p->h0, w0);
        apply_placement(U1, p->h1, w1);
        rules_motion mo;
        rules_motion_fit(&w->pp, w0, w1, &mo);
        /* Pass 0: slots kept through the motion; pass 1: each unseen model by its own nearest place. */
        const bool through_motion = pass == 0 && mo.rigid;
        if (rules_pairing_pair(w0, w1, &mo, through_motion) < 0)
            return base_error_set(err, "out of memory");
        if (pass == 0) {
            p->slots_kept = mo.rigid && rules_pairing_slots_kept(&w->pp, w0, w1, &mo);
            if (rules_pairing_still(&w->pp, w0, w1, &mo)) {
                p->outcome = PAIR_STILL;
                return 0;
            }
        }
        rules_report r;
        rules_report_init(&r);
        if (rules_move_check(w->b, w->a, &opt, &r, err) < 0)
            return -1;
        pair trial = {0};
        pair_outcome o = r.n_units ? classify(w, w0, w1, &r.units[0], &trial) : PAIR_STILL;
        if (pass == 0) {
            p->r = r;
            p->outcome = o;
            p->identity = trial.identity;
            p->placement_free = trial.placement_free;
            memcpy(p->close, trial.close, sizeof p->close);
            p->free_at = trial.free_at;
            memcpy(p->free_why, trial.free_why, sizeof p->free_why);
            if (!(o == PAIR_ILLEGAL && p->identity && mo.rigid))
                return 0;
        } else {
            rules_report_clear(&r);
            if (o != PAIR_ILLEGAL) {
                p->outcome = PAIR_UNSURE;
                text(p->close, sizeof p->close, "it depends on which of its models not seen in both pictures "
                                                    "stands where");
            }
        }
    }
    return 0;
}

/* ---- combining the pairs into one call -------------------------------- */

/* The models whose place differs between placements (listed in an alternative), for `why`. */
static void doubtful_models(const rules_unit *U0, const rules_unit *U1, char *buf, size_t cap)
{
    size_t len = 0, listed = 0, more = 0;
    buf[0] = 0;
    const rules_unit *us[2] = {U0, U1};
    for (int f = 0; f < 2; f++)
        for (size_t a = 0; a < us[f]->n_alternatives; a++)
            for (size_t j = 0; j < us[f]->alternatives[a].n_models; j++) {
                const char *id = us[f]->alternatives[a].models[j].id;
                if (strstr(buf, id)) /* ids are unique, prefixes rare: a repeat is only skipped in the text */
                    continue;
                if (listed == 5) {
                    more++;
                    continue;
                }
                len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s", listed ? ", " : "", id);
                listed++;
            }
    if (more && len < cap)
        snprintf(buf + len, cap - len, " and %zu more", more);
    if (!listed)
        text(buf, cap, "none listed");
}

static void first_code(const rules_report *r, char *buf, size_t cap)
{
    text(buf, cap, "%s", r->n_units && r->units[0].n_violations ? r->units[0].violations[0].code : "?");
}

static int take_not_seen(rules_report *out, const char *id, const char *side, const char *where)
{
    rules_unit_report ur;
    rules_unit_report_init(&ur, id, side, RULES_MOVE_NONE, false);
    rules_unit_report_set_verdict(&ur, RULES_VERDICT_NOT_SEEN, "unit %s: not seen %s, cannot judge", id, where);
    if (rules_report_take_unit(out, &ur) < 0) {
        rules_unit_report_clear(&ur);
        return -1;
    }
    return 0;
}

typedef struct tally {
    size_t judged, still, legal, unsure, illegal;
    long first[4];  /* first pair of each outcome, -1 when none */
} tally;

static void count_pairs(const pair *pairs, size_t n, tally *t)
{
    bool any_kept = false;
    for (size_t k = 0; k < n; k++)
        any_kept |= pairs[k].slots_kept;
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 4; i++)
        t->first[i] = -1;
    for (size_t k = 0; k < n; k++) {
        /* A block that moved as a block kept its unseen models' slots: only such pairs are judged. */
        if (any_kept && !pairs[k].slots_kept)
            continue;
        t->judged++;
        size_t *c[4] = {&t->still, &t->legal, &t->unsure, &t->illegal};
        (*c[pairs[k].outcome])++;
        if (t->first[pairs[k].outcome] < 0)
            t->first[pairs[k].outcome] = (long)k;
    }
}

/* "PART; WHY" for a unit read in part (rules_words_partial): its call says that first. */
static void lead_with(const char *part, char *why, size_t cap)
{
    if (!part[0])
        return;
    char rest[RULES_TEXT_MAX];
    text(rest, sizeof rest, "%s", why);
    text(why, cap, "%s; %s", part, rest);
}

/*
 * A unit whose tags read at another height than the table's relief (rules_unit_height_unsettled) in either
 * picture: where it stood cannot be told, so its move cannot be measured. The report it stands on: the
 * first illegal pair's, else the first judged.
 */
static const pair *unsettled(const rules_unit *U0, const rules_unit *U1, const pair *pairs, const tally *t,
                             rules_verdict *v, char *why, size_t cap)
{
    const bool after = rules_unit_height_unsettled(U1);
    const rules_unit *u = after ? U1 : U0;
    *v = RULES_VERDICT_CANNOT_TELL;
    text(why, cap, "its tags read as standing %.0f mm up in the %s picture, where the table's relief has %.0f mm "
                   "(a hill missing from the table file, or a base raised on something?): where it stands, and so "
                   "how far it moved, cannot be told",
         u->height_seen_mm, after ? "after" : "before", u->height_table_mm);
    for (int o = PAIR_ILLEGAL; o >= PAIR_LEGAL; o--)
        if (t->first[o] >= 0)
            return &pairs[t->first[o]];
    return NULL;
}

/* The call and the report it stands on; NULL report when the unit did not move. */
static const pair *decide(const work *w, size_t u0i, size_t u1i, const pair *pairs, const tally *t, bool complete,
                          rules_verdict *v, char *why, size_t cap)
{
    const rules_unit *U0 = &w->before->units[u0i], *U1 = &w->after->units[u1i];
    char doubt[200], code[RULES_CODE_MAX], part[RULES_TEXT_MAX / 2];
    doubtful_models(U0, U1, doubt, sizeof doubt);
    rules_words_partial(U0, U1, part, sizeof part);
    why[0] = 0;
    /* Nothing the camera measured moved, and some placement of the rest keeps every model still: no move. */
    if (t->still) {
        *v = RULES_VERDICT_LEGAL;
        return NULL;
    }
    if (rules_unit_height_unsettled(U0) || rules_unit_height_unsettled(U1))
        return unsettled(U0, U1, pairs, t, v, why, cap);
    const pair *p;
    if (t->illegal == t->judged) {
        *v = RULES_VERDICT_ILLEGAL;
        p = &pairs[t->first[PAIR_ILLEGAL]];
        if (!complete && !p->placement_free) {
            *v = RULES_VERDICT_CANNOT_TELL;
            first_code(&p->r, code, sizeof code);
            if (part[0])
                text(why, cap, "%s; illegal (%s) as far as the models seen tell", part, code);
            else
                text(why, cap, "illegal (%s) under every placement judged, but the models seen leave more "
                                   "placements than could be judged; models in doubt: %s", code, doubt);
        }
        return p;
    }
    if (t->illegal + t->unsure == 0) {
        *v = RULES_VERDICT_LEGAL;
        p = &pairs[t->first[PAIR_LEGAL]];
        if (!complete) {
            *v = RULES_VERDICT_CANNOT_TELL;
            if (part[0]) /* the models seen are all there is: nothing else was judged */
                text(why, cap, "%s", part);
            else
                text(why, cap, "legal under the %zu placements judged, but the models seen leave more placements "
                                   "than could be judged; models in doubt: %s", t->judged, doubt);
        }
        return p;
    }
    *v = RULES_VERDICT_CANNOT_TELL;
    if (t->illegal) {
        p = &pairs[t->first[PAIR_ILLEGAL]];
        first_code(&p->r, code, sizeof code);
        text(why, cap, "illegal (%s) under %zu of the %zu placements of its unseen models the evidence allows "
                           "(before: %s; after: %s), not under the others; models in doubt: %s",
                 code, t->illegal, t->judged, placement_label(U0, p->h0), placement_label(U1, p->h1), doubt);
        lead_with(part, why, cap);
        return p;
    }
    p = &pairs[t->first[PAIR_UNSURE]];
    text(why, cap, "%s", p->close);
    lead_with(part, why, cap);
    return p;
}

static bool same_models(const rules_model *a, size_t na, const rules_model *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i].id, b[i].id) != 0 || a[i].pos.x != b[i].pos.x || a[i].pos.y != b[i].pos.y ||
            a[i].facing != b[i].facing)
            return false;
    return true;
}

/* Exactly the same unit in both snapshots: its models where they were, and the same alternative placements. */
static bool same_unit(const rules_unit *a, const rules_unit *b)
{
    if (!same_models(a->models, a->n_models, b->models, b->n_models) || a->n_alternatives != b->n_alternatives ||
        a->placements_complete != b->placements_complete)
        return false;
    for (size_t k = 0; k < a->n_alternatives; k++) {
        const rules_placement *p = &a->alternatives[k], *q = &b->alternatives[k];
        if (p->n_models != q->n_models)
            return false;
        for (size_t i = 0; i < p->n_models; i++)
            if (strcmp(p->models[i].id, q->models[i].id) != 0 || p->models[i].pos.x != q->models[i].pos.x ||
                p->models[i].pos.y != q->models[i].pos.y || p->models[i].facing != q->models[i].facing)
                return false;
    }
    return true;
}

/* An ILLEGAL with placements left unjudged rests on a violation that stands wherever the doubted models stand. */
static void say_placement_free(const rules_unit *U0, const rules_unit *U1, const pair *p, rules_unit_report *ur)
{
    char part[RULES_TEXT_MAX / 2];
    rules_words_partial(U0, U1, part, sizeof part);
    rules_robust_free_lead(ur, p->free_at, part, p->free_why);
}

static int judge_unit(work *w, size_t u0i, size_t u1i, bool selected, rules_report *out, base_error *err)
{
    const rules_unit *U0 = &w->before->units[u0i], *U1 = &w->after->units[u1i];
    /* A unit that is the same in both snapshots, models and alternatives alike (a watch keeps an untouched
     * unit as it was), stood still under every placement: one pair says so. */
    const bool same = same_unit(U0, U1);
    const size_t n1 = same ? 1 : 1 + U1->n_alternatives, total = (same ? 1 : 1 + U0->n_alternatives) * n1;
    const size_t n = total < w->o->max_pairs ? total : (w->o->max_pairs ? w->o->max_pairs : 1);
    const bool complete = same || (U0->placements_complete && U1->placements_complete && n == total);
    pair *pairs = calloc(n, sizeof *pairs);
    if (!pairs)
        return base_error_set(err, "out of memory");
    int rc = 0;
    /* The likeliest pairs first (placements are listed likeliest first): by h0 + h1, then h0. */
    for (size_t k = 0, sum = 0; k < n; sum++)
        for (size_t h0 = 0; h0 <= sum && k < n; h0++)
            if (h0 <= U0->n_alternatives && sum - h0 < n1)
                pairs[k].h0 = h0, pairs[k++].h1 = sum - h0;
    for (size_t k = 0; k < n && rc == 0; k++)
        rc = judge_pair(w, u0i, u1i, &pairs[k], err);
    apply_placement(U0, 0, &w->b->units[u0i]);
    apply_placement(U1, 0, &w->a->units[u1i]);
    tally t;
    rules_verdict v = RULES_VERDICT_LEGAL;
    char why[RULES_TEXT_MAX];
    const pair *p = NULL;
    if (rc == 0) {
        count_pairs(pairs, n, &t);
        p = decide(w, u0i, u1i, pairs, &t, complete, &v, why, sizeof why);
    }
    rules_unit_report ur;
    bool have = false;
    if (rc == 0 && p && p->r.n_units) {
        ur = p->r.units[0];
        memset(&p->r.units[0], 0, sizeof p->r.units[0]);
        have = true;
    } else if (rc == 0 && selected) {
        rules_unit_report_init(&ur, U0->id, U0->side, RULES_MOVE_NONE, false);
        rules_unit_report_add_note(&ur, "Every model moved less than %.2f\" (or its measurement uncertainty) and "
                                        "the unit turned less than %.1f deg: it did not move.",
                                   base_mm_to_in(w->o->jitter_mm), base_rad_to_deg(w->o->jitter_rad));
        have = true;
    }
    if (have) {
        rules_unit_report_set_verdict(&ur, v, why[0] ? "%s" : NULL, why);
        if (v == RULES_VERDICT_ILLEGAL && !complete && p->placement_free)
            say_placement_free(U0, U1, p, &ur);
        if (t.judged > 1)
            rules_unit_report_add_note(&ur, "Judged under %zu placements of the models the camera did not see "
                                            "(before x after).",
                                       t.judged);
        if (rules_report_take_unit(out, &ur) < 0) {
            rules_unit_report_clear(&ur);
            rc = base_error_set(err, "out of memory");
        }
    }
    for (size_t k = 0; k < n; k++)
        rules_report_clear(&pairs[k].r);
    free(pairs);
    return rc;
}

/* Units listed unseen in either snapshot and not judged above: not seen, cannot judge. */
static int report_unseen(const rules_snapshot *before, const rules_snapshot *after, const char *sel,
                         rules_report *out)
{
    for (size_t i = 0; i < before->n_unseen; i++) {
        const rules_unseen_unit *u = &before->unseen[i];
        if ((sel && strcmp(sel, u->id) != 0) || rules_snapshot_find_unit(after, u->id))
            continue; /* seen after: reported with the units that appear only after */
        const char *where = rules_snapshot_find_unseen(after, u->id) ? "in either picture" : "in the before picture";
        if (take_not_seen(out, u->id, u->side, where) < 0)
            return -1;
    }
    for (size_t i = 0; i < after->n_unseen; i++) {
        const rules_unseen_unit *u = &after->unseen[i];
        if ((sel && strcmp(sel, u->id) != 0) || rules_snapshot_find_unit(before, u->id) ||
            rules_snapshot_find_unseen(before, u->id))
            continue;
        if (take_not_seen(out, u->id, u->side, "in the after picture") < 0)
            return -1;
    }
    return 0;
}

static int judge_all(work *w, const char *sel, rules_report *out, base_error *err)
{
    const rules_snapshot *before = w->before, *after = w->after;
    for (size_t i = 0; i < before->n_units; i++) {
        const rules_unit *u0 = &before->units[i];
        if (sel && strcmp(sel, u0->id) != 0)
            continue;
        const rules_unit *u1 = rules_snapshot_find_unit(after, u0->id);
        int rc = 0;
        if (u1)
            rc = judge_unit(w, i, (size_t)(u1 - after->units), sel != NULL, out, err);
        else if (rules_snapshot_find_unseen(after, u0->id))
            rc = take_not_seen(out, u0->id, u0->side, "in the after picture") < 0 ? -1 : 0;
        else
            rc = rules_report_add_note(out, "Unit %s is not in the after snapshot (removed or not seen).", u0->id);
        if (rc < 0)
            return err->msg[0] ? -1 : base_error_set(err, "out of memory");
    }
    for (size_t i = 0; i < after->n_units; i++) {
        const rules_unit *u1 = &after->units[i];
        if ((sel && strcmp(sel, u1->id) != 0) || rules_snapshot_find_unit(before, u1->id))
            continue;
        int rc = rules_snapshot_find_unseen(before, u1->id)
                     ? take_not_seen(out, u1->id, u1->side, "in the before picture")
                 : sel ? 0
                       : rules_report_add_note(out, "Unit %s appears only in the after snapshot; it is not judged.",
                                               u1->id);
        if (rc < 0)
            return base_error_set(err, "out of memory");
    }
    if (report_unseen(before, after, sel, out) < 0)
        return base_error_set(err, "out of memory");
    return 0;
}

int rules_robust_check(const rules_snapshot *before, const rules_snapshot *after, const rules_robust_options *o_in,
                       rules_report *out, base_error *err)
{
    rules_robust_options defaults;
    if (!o_in) {
        rules_robust_options_default(&defaults);
        o_in = &defaults;
    }
    const char *sel = o_in->check.unit_id;
    const bool sel_unseen = sel && !rules_snapshot_find_unit(before, sel) &&
                            (rules_snapshot_find_unseen(before, sel) || rules_snapshot_find_unseen(after, sel));
    /* The rules' own checks of the input (a model in two units, an unknown --unit, a missing rate). */
    rules_check_options vopt = o_in->check;
    if (sel_unseen)
        vopt.unit_id = NULL;
    if (rules_move_check(before, after, &vopt, out, err) < 0)
        return -1;
    rules_report_begin(out, before, after);
    work w = {o_in,
              {o_in->check.rigid_tolerance_mm, o_in->coverage, o_in->jitter_mm, o_in->jitter_rad, o_in->sigma_rough_mm,
               o_in->sigma_inferred_mm},
              before, after, rules_snapshot_clone(before), rules_snapshot_clone(after)};
    int rc = w.b && w.a ? judge_all(&w, sel, out, err) : base_error_set(err, "out of memory");
    rules_snapshot_free(w.b);
    rules_snapshot_free(w.a);
    if (rc < 0) {
        rules_report_clear(out);
        return -1;
    }
    rules_report_refresh(out);
    return 0;
}
