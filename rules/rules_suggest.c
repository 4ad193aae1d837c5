#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_judge.h"
#include "rules_reform.h"
#include "rules_suggest_int.h"

/* ---- one unit, whatever judges it -------------------------------------------------- */

typedef struct unit_search {
    sg_finder f;
    const rules_unit *u0, *u1;
    size_t *index;                  /* before model k -> the model of u1 with its id */
    rules_slot *slots;
    rules_suggested_model *models;
    void *block;
} unit_search;

static void unit_search_free(unit_search *us)
{
    free(us->block);
    us->block = NULL;
}

/*
 * Sets up the search for u0 (before the move) whose models the player put as
 * in u1: where each model is, and the template: the block as it stood
 * before (`players_formation` false: Advance, March) or the formation the
 * player made, each model in its fitted slot (Reform, Reform Move). Returns
 * 0; 1 when no suggestion can be made (why in out->text); -1 out of memory.
 */
static int prepare(unit_search *us, const rules_unit *u0, const rules_unit *u1, bool players_formation,
                   const rules_check_options *opt, const rules_ruleset *rs, rules_suggestion *out)
{
    const size_t n = u0->n_models;
    memset(us, 0, sizeof *us);
    us->u0 = u0;
    us->u1 = u1;
    if (!u1) {
        snprintf(out->text, sizeof out->text, "%s is not on the table after the move", u0->id);
        return 1;
    }
    us->block = malloc(n * (3 * sizeof(base_vec2) + sizeof(size_t) + sizeof(rules_slot) + sizeof(rules_suggested_model)));
    if (!us->block)
        return -1;
    sg_finder *f = &us->f;
    f->n = n;
    f->target = us->block;
    f->tmpl = f->target + n;
    f->pos = f->tmpl + n;
    us->index = (size_t *)(f->pos + n);
    us->slots = (rules_slot *)(us->index + n);
    us->models = (rules_suggested_model *)(us->slots + n);
    for (size_t k = 0; k < n; k++) {
        const rules_model *m = k < u1->n_models && strcmp(u1->models[k].id, u0->models[k].id) == 0
                                   ? &u1->models[k]
                                   : rules_unit_find_model(u1, u0->models[k].id);
        if (!m) {
            snprintf(out->text, sizeof out->text,
                     "model %s is not on the table after the move, so no position is suggested", u0->models[k].id);
            return 1;
        }
        f->target[k] = m->pos;
        us->index[k] = (size_t)(m - u1->models);
    }
    rules_formation_fit(u0, &opt->formation, &f->form, NULL);
    f->start = (rules_pose){f->form.front_centre, f->form.heading};
    f->start_centre = f->form.centre;
    f->width = f->form.boundary.width;
    f->rs = rs;
    f->keeps_centre = players_formation;
    if (players_formation) {
        rules_formation f1;
        rules_formation_fit(u1, &opt->formation, &f1, us->slots);
        for (size_t k = 0; k < n; k++) {
            const rules_slot *sl = &us->slots[us->index[k]];
            f->tmpl[k] = rules_formation_slot_position(&f1, sl->file, sl->rank, sl->offset);
        }
        f->tmpl_ref = f->player = (rules_pose){f1.front_centre, f1.heading};
        f->tmpl_centre = f1.centre;
    } else {
        for (size_t k = 0; k < n; k++)
            f->tmpl[k] = u0->models[k].pos;
        f->tmpl_ref = f->start;
        f->tmpl_centre = f->form.centre;
        f->player = sg_carried(f->tmpl, f->target, n, f->start);
    }
    f->radius = 1;
    for (size_t k = 0; k < n; k++)
        f->radius = fmax(f->radius, base_v2_dist(f->tmpl[k], f->tmpl_ref.front_centre));
    return 0;
}

/*
 * Searches and fills `out`. A unit that may not move, or one with no legal
 * position to start from, is sent back where it started (a move of nothing
 * is legal).
 */
static int search_and_fill(unit_search *us, bool may_not_move, rules_suggestion *out)
{
    sg_finder *f = &us->f;
    const rules_unit *u0 = us->u0;
    double cut = 0, turn = 0;
    rules_pose best = f->start;
    bool found = !may_not_move && sg_search(f, &best, &cut);
    if (found) {
        sg_place(f, best, f->pos, &turn);
    } else {
        for (size_t k = 0; k < f->n; k++)
            f->pos[k] = u0->models[k].pos;
        best = f->start;
    }
    double worst2 = 0;
    for (size_t k = 0; k < f->n; k++) {
        snprintf(us->models[k].id, sizeof us->models[k].id, "%s", u0->models[k].id);
        us->models[k].pos = f->pos[k];
        us->models[k].facing = base_angle_wrap(u0->models[k].facing + turn);
        base_vec2 d = base_v2_sub(f->pos[k], f->target[k]);
        worst2 = fmax(worst2, base_v2_dot(d, d));
    }
    if (rules_suggestion_set_models(out, us->models, f->n) < 0)
        return -1;
    out->found = true;
    out->pose = best;
    out->shift_mm = sqrt(worst2);
    out->back_along_path_mm = found ? cut : 0;
    if (found)
        sg_describe(out, f, u0->id, f->player, cut);
    else
        snprintf(out->text, sizeof out->text, "the %s %s: put them back where they started (no model moves more "
                                              "than %.2f\")",
                 u0->id, may_not_move ? "may not move this phase" : "have no legal position near where they stand",
                 base_mm_to_in(out->shift_mm));
    return 0;
}

static bool may_not_move(const rules_unit *u0)
{
    const unsigned stay = RULES_STATUS_CHARGING | RULES_STATUS_ENGAGED | RULES_STATUS_FLEEING | RULES_STATUS_SHAKEN;
    return (rules_unit_status(u0) & stay) != 0;
}

/* After prepare (its return `prepared`): the search with `legal` (given ctx)
 * judging each candidate, when prepare went well; then the search freed. */
static int search_prepared(unit_search *us, int prepared, sg_oracle legal, void *ctx, const rules_unit *u0,
                           rules_suggestion *out)
{
    int rc = prepared;
    if (rc == 0) {
        us->f.legal = legal;
        us->f.ctx = ctx;
        rc = search_and_fill(us, may_not_move(u0), out);
    }
    unit_search_free(us);
    return rc;
}

static rules_check_options exact_limits(const rules_check_options *opt)
{
    rules_check_options strict;
    if (opt)
        strict = *opt;
    else
        rules_check_options_default(&strict);
    strict.limit_tolerance_mm = 0; /* the limits exactly: the check's allowance is then a margin */
    return strict;
}

/* ---- Moving Units ---------------------------------------------------------------- */

typedef struct {
    rules_judge *j;
    rules_move_type type;
} judge_ctx;

static bool judged_legal(void *ctx, const base_vec2 *pos, double turn)
{
    judge_ctx *c = ctx;
    return rules_judge_legal(c->j, pos, turn, c->type);
}

int rules_suggest_unit(const rules_snapshot *before, const rules_snapshot *after, const char *unit_id,
                       rules_move_type type, const rules_check_options *opt, rules_suggestion *out,
                       base_error *err)
{
    rules_check_options strict = exact_limits(opt);
    rules_suggestion_clear(out);
    out->move = type;
    judge_ctx c = {rules_judge_new(before, after, unit_id, &strict, err), type};
    if (!c.j)
        return -1;
    unit_search us;
    const rules_unit *u0 = rules_judge_unit(c.j);
    int rc = prepare(&us, u0, rules_snapshot_find_unit(after, unit_id), type == RULES_MOVE_REFORM, &strict,
                     rules_judge_ruleset(c.j), out);
    rc = search_prepared(&us, rc, judged_legal, &c, u0, out);
    rules_judge_free(c.j);
    return rc < 0 ? base_error_set(err, "out of memory") : 0;
}

/* ---- Reform Move ------------------------------------------------------------------- */

typedef struct {
    const rules_snapshot *before, *mid;
    rules_snapshot *scratch;   /* the after snapshot, the unit's models moved to the candidate */
    rules_unit *unit;          /* in scratch */
    const rules_unit *u0;
    const size_t *index;       /* before model k -> the unit's model in scratch */
    rules_check_options opt;   /* exact limits, this unit only */
} reform_ctx;

static bool reform_legal(void *ctx, const base_vec2 *pos, double turn)
{
    reform_ctx *c = ctx;
    for (size_t k = 0; k < c->u0->n_models; k++) {
        rules_model *m = &c->unit->models[c->index[k]];
        m->pos = pos[k];
        m->facing = base_angle_wrap(c->u0->models[k].facing + turn);
    }
    rules_report r;
    rules_report_init(&r);
    bool legal = rules_reform_check(c->before, c->mid, c->scratch, &c->opt, &r, NULL) == 0 && r.n_units == 1 &&
                 r.units[0].verdict == RULES_VERDICT_LEGAL;
    rules_report_clear(&r);
    return legal;
}

int rules_suggest_reform_move(const rules_snapshot *before, const rules_snapshot *mid, const rules_snapshot *after,
                              const char *unit_id, const rules_check_options *opt, rules_suggestion *out,
                              base_error *err)
{
    rules_suggestion_clear(out);
    out->move = RULES_MOVE_REFORM_MOVE;
    const rules_unit *u0 = rules_snapshot_find_unit(before, unit_id);
    if (!u0)
        return base_error_set(err, "unit %s is not in the before snapshot", unit_id);
    reform_ctx c = {.before = before, .mid = mid, .scratch = rules_snapshot_clone(after), .u0 = u0,
                    .opt = exact_limits(opt)};
    if (!c.scratch)
        return base_error_set(err, "out of memory");
    c.opt.unit_id = u0->id;
    c.opt.move = RULES_MOVE_REFORM_MOVE;
    c.unit = rules_snapshot_find_unit(c.scratch, unit_id);
    unit_search us;
    const rules_snapshot *rules_of = before->ruleset_given || !after->ruleset_given ? before : after;
    int rc = prepare(&us, u0, c.unit, true, &c.opt, &rules_of->ruleset, out);
    c.index = us.index;
    rc = search_prepared(&us, rc, reform_legal, &c, u0, out);
    rules_snapshot_free(c.scratch);
    return rc < 0 ? base_error_set(err, "out of memory") : 0;
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
            /* where to put it: a prescription, exact, not a camera's measurement */
            m->evidence = RULES_EVIDENCE_SEEN;
            m->inferred = false;
            m->sigma_mm = NAN;
        }
    }
    /* vision's other placements were of where the player put the unit, not of the suggestion */
    rules_unit_clear_alternatives(u);
    u->placement_label[0] = 0;
}

rules_snapshot *rules_suggest_apply(const rules_snapshot *after, const rules_report *r)
{
    rules_snapshot *s = rules_snapshot_clone(after);
    for (size_t i = 0; s && i < r->n_units; i++)
        if (r->units[i].verdict == RULES_VERDICT_ILLEGAL)
            apply_one(s, r->units[i].unit_id, &r->units[i].suggestion);
    return s;
}

static bool suggestable(const rules_unit_report *ur, bool reform_move)
{
    if (ur->verdict != RULES_VERDICT_ILLEGAL)
        return false;
    if (reform_move)
        return ur->move == RULES_MOVE_REFORM_MOVE;
    return rules_move_has(ur->move, RULES_MOVE_INFER); /* the Moving Units' own types (rules_moves.def) */
}

/* Moving Units (mid NULL, reform_move false) or Reform Move: each suggestion in turn, then all judged again. */
static int suggest_all(const rules_snapshot *before, const rules_snapshot *mid, const rules_snapshot *after,
                       bool reform_move, const rules_check_options *opt, rules_report *r, base_error *err)
{
    rules_check_options defaults;
    opt = rules_check_options_or_default(opt, &defaults);
    rules_snapshot *work = rules_snapshot_clone(after);
    if (!work)
        return base_error_set(err, "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->n_units; i++) {
        rules_unit_report *ur = &r->units[i];
        if (!suggestable(ur, reform_move))
            continue;
        rc = reform_move ? rules_suggest_reform_move(before, mid, work, ur->unit_id, opt, &ur->suggestion, err)
                         : rules_suggest_unit(before, work, ur->unit_id, ur->move, opt, &ur->suggestion, err);
        if (rc == 0)
            apply_one(work, ur->unit_id, &ur->suggestion);
    }
    /* Every suggestion, in place together, judged again by the check itself. */
    rules_report again;
    rules_report_init(&again);
    if (rc == 0 && (reform_move ? rules_reform_check(before, mid, work, opt, &again, err)
                                : rules_move_check(before, work, opt, &again, err)) < 0)
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

int rules_suggest_moves(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt,
                        rules_report *r, base_error *err)
{
    return suggest_all(before, NULL, after, false, opt, r, err);
}

int rules_suggest_reform_moves(const rules_snapshot *before, const rules_snapshot *mid, const rules_snapshot *after,
                               const rules_check_options *opt, rules_report *r, base_error *err)
{
    return suggest_all(before, mid, after, true, opt, r, err);
}
