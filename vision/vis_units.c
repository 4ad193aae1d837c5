#include "vis_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"
#include "vis_formation.h"
#include "vis_units_rear.h"

/* A model's measured place moves at most this far from where its unit's rigid motion carries it. */
#define RIGID_MM 4.0

static bool measured_now(const vis_seen_model *s) { return s->seen || s->rough; }

/*
 * The rigid motion (rotation about the board origin, then translation)
 * taking the prior frame's measured positions to this frame's, from the
 * models measured in both; false when there are none or they did not move
 * as a block (a reformed unit's slots say nothing about its hidden models).
 */
static bool motion_from_prior(const roster_map *r, const roster_map_unit *u, const vis_seen_model *seen,
                              const rules_unit *pu, double *rot, base_vec2 *shift)
{
    double sc = 0, ss = 0;
    base_vec2 ma = {0, 0}, mb = {0, 0};
    size_t n = 0;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t k = 0; k < u->n_models; k++) {
            const vis_seen_model *s = &seen[u->first_model + k];
            const rules_model *pm = rules_unit_find_model(pu, r->models[u->first_model + k].id);
            if (!measured_now(s) || !pm || pm->evidence == RULES_EVIDENCE_INFERRED)
                continue;
            if (pass == 0) {
                sc += cos(s->facing - pm->facing), ss += sin(s->facing - pm->facing);
                ma = base_v2_add(ma, pm->pos), mb = base_v2_add(mb, s->pos);
                n++;
            } else if (pass == 2) {
                base_vec2 carried = base_v2_add(base_v2_rot(pm->pos, *rot), *shift);
                if (base_v2_dist(carried, s->pos) > RIGID_MM)
                    return false;
            }
        }
        if (pass == 0) {
            if (n == 0)
                return false;
            *rot = atan2(ss, sc);
            ma = base_v2_scale(ma, 1.0 / n), mb = base_v2_scale(mb, 1.0 / n);
            *shift = base_v2_sub(mb, base_v2_rot(ma, *rot));
        }
    }
    return true;
}

/* The formation problem of one unit: its models' evidence, the roster's slots, the widths to try. */
static void gather(const roster_map *r, const roster_map_unit *ru, const vis_seen_model *seen, const rules_unit *pu,
                   bool have_motion, double rot, base_vec2 shift, vis_formation_model *fm, double *prior_sigma)
{
    for (size_t k = 0; k < ru->n_models; k++) {
        const roster_map_model *rm = &r->models[ru->first_model + k];
        const vis_seen_model *s = &seen[ru->first_model + k];
        const rules_model *pm = pu ? rules_unit_find_model(pu, rm->id) : NULL;
        vis_formation_model *m = &fm[k];
        *m = (vis_formation_model){VIS_FORMATION_NONE, s->pos, s->facing, rm->file, rm->rank, 0};
        prior_sigma[k] = NAN;
        if (s->seen || s->rough) {
            m->evidence = s->seen ? VIS_FORMATION_SEEN : VIS_FORMATION_ROUGH;
            m->sway_mm = s->sway_mm;
        } else if (pm && have_motion && pm->evidence != RULES_EVIDENCE_INFERRED) {
            m->evidence = VIS_FORMATION_PRIOR;
            m->pos = base_v2_add(base_v2_rot(pm->pos, rot), shift);
            m->facing = base_angle_wrap(pm->facing + rot);
            prior_sigma[k] = pm->sigma_mm;
        }
    }
}

/* The largest sway of the unit's models placed by masts (0: none). */
static double unit_sway(const roster_map_unit *ru, const vis_seen_model *seen)
{
    double w = 0;
    for (size_t k = 0; k < ru->n_models; k++) {
        const vis_seen_model *s = &seen[ru->first_model + k];
        if (s->seen || s->rough)
            w = fmax(w, s->sway_mm);
    }
    return w;
}

/* A measured model's evidence and sigma: its mark's (at the base mark's height h, or a mast's, whose sway adds). */
static void measured_sigma(const vis_uncert_source *unc, const vis_seen_model *s, base_vec2 pos, double h,
                           rules_model *m)
{
    const double at = s->mark_height_mm > 0 ? s->mark_height_mm : h;
    m->evidence = s->seen ? RULES_EVIDENCE_SEEN : RULES_EVIDENCE_ROUGH;
    m->sigma_mm = hypot(s->seen ? vis_uncert_seen(unc, pos, at) : vis_uncert_rough(unc, pos, at, s->residual_mm),
                        s->sway_mm);
}

/* Adds the model of roster index `k` as the primary placement has it; false when out of memory. */
static bool add_model(const roster_map *r, const roster_map_unit *ru, size_t k, const vis_seen_model *seen,
                      const vis_formation_model *fm, const vis_formation_place *pl, double prior_sigma,
                      const vis_uncert_source *unc, const char *label, rules_unit *u, vis_report *rep)
{
    const roster_map_model *rm = &r->models[ru->first_model + k];
    const vis_seen_model *s = &seen[ru->first_model + k];
    const double h = ru->mount.height;
    if (!pl->placed) {
        rep->models_missing++;
        vis_report_add(rep, VIS_ISSUE_MISSING, rm->tag_id, rm->id, NULL,
                       "model %s (tag %d) not seen and no free place in its unit's formation: left out", rm->id,
                       rm->tag_id);
        return true;
    }
    rules_model *m = rules_unit_add_model(u, rm->id, pl->pos, pl->facing);
    if (!m)
        return false;
    roster_map_model_apply(rm, m);
    switch (fm[k].evidence) {
    case VIS_FORMATION_SEEN:
    case VIS_FORMATION_ROUGH:
    case VIS_FORMATION_LOCATED:
        measured_sigma(unc, s, pl->pos, h, m);
        rep->models_seen++;
        return true;
    case VIS_FORMATION_PRIOR:
        m->sigma_mm = hypot(isnan(prior_sigma) ? vis_uncert_seen(unc, pl->pos, h) : prior_sigma,
                            vis_uncert_seen(unc, pl->pos, h));
        break;
    case VIS_FORMATION_NONE:
        /* Placed from its unit's models read: a mast's sway moves them, and this one with them. */
        m->sigma_mm = hypot(vis_uncert_inferred(unc, pl->pos, h, pl->fit_mm), unit_sway(ru, seen));
        break;
    }
    m->evidence = RULES_EVIDENCE_INFERRED;
    m->inferred = true;
    rep->models_inferred++;
    if (fm[k].evidence == VIS_FORMATION_PRIOR)
        vis_report_add(rep, VIS_ISSUE_INFERRED, rm->tag_id, rm->id, NULL,
                       "model %s (tag %d) not seen: moved with its unit from the prior snapshot", rm->id, rm->tag_id);
    else
        vis_report_add(rep, VIS_ISSUE_INFERRED, rm->tag_id, rm->id, NULL,
                       "model %s (tag %d) not seen: placed in its unit's fitted formation%s%s%s", rm->id, rm->tag_id,
                       label[0] ? " (" : "", label, label[0] ? ")" : "");
    return true;
}

/*
 * TABLEREF_DEBUG_PLACED set: one stderr line per model placed from a formation, saying how (a mark read: rim label,
 * square tag or mast; rough; carried from the prior frame; inferred from the formation, or in a rear rank whose
 * place the picture told), its slot, the grid's pitches and its sigma. What `bench vision --set minis` joins with
 * the truth to say which kinds of placement make the error's tail (`--tail`); nothing else reads it.
 */
static void debug_placed(const roster_map *r, const roster_map_unit *ru, size_t k, const vis_seen_model *seen,
                         const vis_formation_model *fm, const vis_formation_result *res, bool told,
                         bool located, const vis_units_options *opt, const rules_unit *u)
{
    static int on = -1;
    if (on < 0)
        on = getenv("TABLEREF_DEBUG_PLACED") != NULL;
    const vis_formation_place *pl = &res->placements[0].models[k];
    if (!on || opt->likeliest_sigma || !pl->placed || u->n_models == 0) /* an estimate to read around: not said */
        return;
    const vis_seen_model *s = &seen[ru->first_model + k];
    const char *how = located                               ? "located"
                      : fm[k].evidence == VIS_FORMATION_PRIOR ? "prior"
                      : fm[k].evidence == VIS_FORMATION_NONE
                          ? (told && pl->rank == res->grid.ranks - 1 ? "rear-told" : "formation")
                      : s->mark_height_mm > 0 ? "mast"
                      : s->rough              ? "rough"
                      : ru->mount.layout == ROSTER_MARK_RIM ? "rim"
                                                            : "tag";
    fprintf(stderr, "placed %s %s rank %d/%d file %d pitch %.2f x %.2f sigma %.2f residual %.2f\n",
            r->models[ru->first_model + k].id, how, pl->rank, res->grid.ranks, pl->file, res->grid.pitch_across,
            res->grid.pitch_along, u->models[u->n_models - 1].sigma_mm, res->grid.residual_mm);
}

/* Alternatives: per other placement, the inferred models that stand elsewhere in it. */
static bool add_alternatives(const roster_map *r, const roster_map_unit *ru, const vis_formation_result *res,
                             const vis_uncert_source *unc, rules_unit *u)
{
    const vis_formation_placement *p0 = &res->placements[0];
    for (size_t a = 1; a < res->n_placements; a++) {
        const vis_formation_placement *pa = &res->placements[a];
        rules_placement *alt = rules_unit_add_alternative(u, pa->label);
        if (!alt)
            return false;
        for (size_t k = 0; k < ru->n_models; k++) {
            const vis_formation_place *q = &pa->models[k];
            if (!q->placed || !q->inferred || !p0->models[k].placed || base_v2_dist(q->pos, p0->models[k].pos) < 0.5)
                continue;
            double sd = vis_uncert_inferred(unc, q->pos, ru->mount.height, q->fit_mm);
            if (rules_placement_add_model(alt, r->models[ru->first_model + k].id, q->pos, q->facing, sd) < 0)
                return false;
        }
    }
    u->placements_complete = res->understood && res->n_possible == res->n_placements;
    if (res->n_placements > 1 || !res->understood)
        snprintf(u->placement_label, sizeof u->placement_label, "%s", p0->label);
    return true;
}

/* Nothing of the unit seen now: its prior positions (all inferred now), or listed unseen. */
static int place_unseen(const roster_map *r, const roster_map_unit *ru, const rules_unit *pu, rules_snapshot *s,
                        rules_unit *u, vis_report *rep)
{
    if (pu) {
        for (size_t k = 0; k < ru->n_models; k++) {
            const roster_map_model *rm = &r->models[ru->first_model + k];
            const rules_model *pm = rules_unit_find_model(pu, rm->id);
            if (!pm)
                continue;
            rules_model *m = rules_unit_add_model(u, rm->id, pm->pos, pm->facing);
            if (!m)
                return -1;
            roster_map_model_apply(rm, m);
            m->evidence = RULES_EVIDENCE_INFERRED, m->inferred = true, m->sigma_mm = pm->sigma_mm;
            rep->models_inferred++;
            vis_report_add(rep, VIS_ISSUE_INFERRED, rm->tag_id, rm->id, NULL,
                           "model %s (tag %d) not seen: kept at its prior position (no unit-mate seen)", rm->id,
                           rm->tag_id);
        }
        for (size_t a = 0; a < pu->n_alternatives; a++) {
            rules_placement *alt = rules_unit_add_alternative(u, pu->alternatives[a].label);
            if (!alt)
                return -1;
            for (size_t j = 0; j < pu->alternatives[a].n_models; j++) {
                const rules_placed_model *pm = &pu->alternatives[a].models[j];
                if (rules_placement_add_model(alt, pm->id, pm->pos, pm->facing, pm->sigma_mm) < 0)
                    return -1;
            }
        }
        u->placements_complete = pu->placements_complete;
        snprintf(u->placement_label, sizeof u->placement_label, "%s", pu->placement_label);
        if (u->n_models)
            return 0;
    }
    rep->models_missing += ru->n_models;
    rep->units_unseen++;
    int first = ru->n_models ? r->models[ru->first_model].tag_id : -1;
    int last = ru->n_models ? r->models[ru->first_model + ru->n_models - 1].tag_id : -1;
    vis_report_add_unit(rep, VIS_ISSUE_UNIT_UNSEEN, ru->id,
                        "unit %s (%zu models, tags %d..%d): nothing of it seen: reported unseen, its moves cannot "
                        "be judged",
                        ru->id, ru->n_models, first, last);
    return rules_snapshot_add_unseen(s, ru->id, ru->side, ru->n_models) ? 0 : -1;
}

/*
 * A unit whose formation cannot be told from the models read: each measured
 * model where it was measured, the others reported and left out (never
 * guessed into a formation that may not be theirs), its placements marked
 * incomplete so that no call rests on the models left out.
 */
static int place_partial(const roster_map *r, const roster_map_unit *ru, const vis_seen_model *seen,
                         const vis_uncert_source *unc, rules_unit *u, vis_report *rep)
{
    size_t placed = 0;
    for (size_t k = 0; k < ru->n_models; k++) {
        const roster_map_model *rm = &r->models[ru->first_model + k];
        const vis_seen_model *s = &seen[ru->first_model + k];
        if (!measured_now(s)) {
            rep->models_missing++;
            vis_report_add(rep, VIS_ISSUE_MISSING, rm->tag_id, rm->id, NULL,
                           "model %s (tag %d) not seen, and its unit's formation cannot be told from the models "
                           "read: left out",
                           rm->id, rm->tag_id);
            continue;
        }
        rules_model *m = rules_unit_add_model(u, rm->id, s->pos, s->facing);
        if (!m)
            return -1;
        roster_map_model_apply(rm, m);
        measured_sigma(unc, s, s->pos, ru->mount.height, m);
        rep->models_seen++;
        placed++;
    }
    u->placements_complete = placed == ru->n_models;
    if (!u->placements_complete)
        snprintf(u->placement_label, sizeof u->placement_label, "%zu of its %zu models placed, the others not seen",
                 placed, ru->n_models);
    return 0;
}

/* Bases seen at a loose fit's inferred places: at least this many; each within this of its slot on the grid fitted on
 * them (mm; a real base's centre is a fraction of a millimetre off, minis: RMS 0.3-0.5 mm). */
#define MIN_LOCATED 2
#define LOCATED_SLOT_MM 1.5

/* The located model of res's first placement farthest from its slot on res's grid (-1: none), its distance in *d. */
static long worst_located(const vis_formation_result *res, const vis_formation_model *fm, const bool *located,
                          size_t n, double *d)
{
    const vis_formation_placement *p = &res->placements[0];
    long worst = -1;
    *d = 0;
    for (size_t k = 0; k < n; k++) {
        const vis_formation_place *q = &p->models[k];
        if (!located[k])
            continue;
        const double e = q->placed && q->rank >= 0
                             ? base_v2_dist(fm[k].pos, base_frame_to_board(p->frame,
                                                                           base_v2((q->file + q->offset) *
                                                                                       res->grid.pitch_across,
                                                                                   -q->rank * res->grid.pitch_along)))
                             : INFINITY;
        if (worst < 0 || e > *d)
            worst = (long)k, *d = e;
    }
    return worst;
}

/*
 * A loose fit fitted again on the bases seen at its inferred places (vis_units_rear_locate), the base farthest from
 * its slot dropped and the grid fitted again while it is more than LOCATED_SLOT_MM off (a chance pattern taken for a
 * base pulls the grid). Kept when at least MIN_LOCATED stay, the formation is still understood and its pitches are
 * no shorter than the base (bases do not overlap); otherwise fm and located as before. The bases located count as
 * VIS_FORMATION_LOCATED: their places fit the grid and turn it, their facings (the first fit's) are not read. As
 * rough tags facing as the first fit had them, minis table 3's blue-7 (one mast, its facing 1 degree off the ranks)
 * kept the mast's heading and had 19.95 mm along on 20 mm bases, refused: now 20.54 (true 20.5-21). 0, or -1 when
 * out of memory.
 */
static int refit_on_bases(const vis_units_options *opt, const roster_map_unit *ru, const vis_formation_input *in,
                          vis_formation_model *fm, bool *located, vis_formation_result *res)
{
    size_t n = vis_units_rear_locate(opt, ru->first_model, ru->n_models, res, fm, located);
    /* Located: its centre measured, its facing only the fit's (not a reading of the model's own). */
    for (size_t k = 0; k < ru->n_models; k++)
        if (located[k])
            fm[k].evidence = VIS_FORMATION_LOCATED;
    while (n >= MIN_LOCATED) {
        vis_formation_result again;
        if (vis_formation_infer(in, &again) < 0)
            return -1;
        double d;
        const long worst = again.n_placements > 0 ? worst_located(&again, fm, located, ru->n_models, &d) : -1;
        const bool fits = again.n_placements > 0 && (again.understood || !res->understood) &&
                          again.grid.pitch_across >= ru->base_width && again.grid.pitch_along >= ru->base_depth;
        if (fits && worst >= 0 && d <= LOCATED_SLOT_MM) {
            vis_formation_result_clear(res);
            *res = again;
            return 0;
        }
        vis_formation_result_clear(&again);
        if (!fits || worst < 0)
            break;
        fm[worst].evidence = VIS_FORMATION_NONE, located[worst] = false;
        n--;
    }
    for (size_t k = 0; k < ru->n_models; k++)
        if (located[k])
            fm[k].evidence = VIS_FORMATION_NONE, located[k] = false;
    return 0;
}

/* A model placed where its base is seen, its ID not read: inferred, its sigma the base's measurement's. */
static void mark_located(const roster_map *r, const roster_map_unit *ru, size_t k, const vis_uncert_source *unc,
                         rules_model *m, vis_report *rep)
{
    const roster_map_model *rm = &r->models[ru->first_model + k];
    m->evidence = RULES_EVIDENCE_INFERRED, m->inferred = true;
    m->sigma_mm = vis_uncert_rough(unc, m->pos, ru->mount.height, NAN);
    rep->models_seen--, rep->models_inferred++;
    vis_report_add(rep, VIS_ISSUE_INFERRED, rm->tag_id, rm->id, NULL,
                   "model %s (tag %d) not read: placed in its unit's formation where a base is seen (its mark's "
                   "corners), its unit's grid fitted on such bases",
                   rm->id, rm->tag_id);
}

static int place_unit(const roster_map *r, size_t ui, const vis_seen_model *seen, const rules_snapshot *prior,
                      const vis_units_options *opt, const vis_uncert_source *unc, rules_snapshot *s, vis_report *rep)
{
    const roster_map_unit *ru = &r->units[ui];
    rules_unit *u = &s->units[ui];
    const rules_unit *pu = prior ? rules_snapshot_find_unit(prior, ru->id) : NULL;
    size_t measured = 0;
    for (size_t k = 0; k < ru->n_models; k++)
        measured += measured_now(&seen[ru->first_model + k]);
    if (measured == 0)
        return place_unseen(r, ru, pu, s, u, rep);
    double rot = 0;
    base_vec2 shift = {0, 0};
    bool have_motion = pu && motion_from_prior(r, ru, seen, pu, &rot, &shift);
    vis_formation_model *fm = malloc(ru->n_models * (sizeof *fm + sizeof(double) + sizeof(bool)));
    if (!fm)
        return -1;
    double *prior_sigma = (double *)(fm + ru->n_models);
    bool *located = (bool *)(prior_sigma + ru->n_models);
    gather(r, ru, seen, pu, have_motion, rot, shift, fm, prior_sigma);
    /* Too little read to tell the formation: only what was measured, unless the prior frame carries the rest. */
    bool guess = false;
    for (size_t k = 0; k < ru->n_models; k++)
        guess |= fm[k].evidence == VIS_FORMATION_NONE;
    /* A loose unit's models stand apart (skirmishers): no formation places the ones not read, told by labels or by
     * masts alike (masts alone set no partial flag: 3 skirmishers of minis table 3 were placed 58-87 mm off). */
    if (opt->partial && (opt->partial[ui] || ru->loose) && guess) {
        free(fm);
        return place_partial(r, ru, seen, unc, u, rep);
    }
    vis_formation_input in = {ru->n_models, fm, ru->base_width, ru->base_depth, {0, ru->files}, opt->max_placements};
    rules_formation pf;
    if (pu && rules_formation_fit(pu, NULL, &pf, NULL) == 0)
        in.files_hint[0] = pf.files;
    vis_formation_result res;
    int rc = vis_formation_infer(&in, &res);
    if (rc == 0 && refit_on_bases(opt, ru, &in, fm, located, &res) < 0)
        rc = -1;
    size_t allowed = 0;
    const int moved = rc == 0 ? vis_units_rear_settle(opt, ru->first_model, ru->n_models, &res, &allowed) : 0;
    if (moved < 0)
        rc = -1;
    else if (moved)
        vis_report_add(rep, VIS_ISSUE_INFERRED, -1, NULL, NULL,
                       "unit %s: its rear rank placed where the picture shows its bases (%s)", ru->id,
                       res.placements[0].label);
    if (allowed == 0)
        allowed = res.n_placements; /* the picture against every placement: it tells nothing */
    /* Every placement kept (rules_robust judges each): each is a place of its own, its sigma its slot's. More than
     * were kept: the first one's sigma holds every place the kept ones give (those cut off may be further still). */
    const bool widen = !opt->likeliest_sigma && (!res.understood || res.n_possible > res.n_placements);
    for (size_t k = 0; rc == 0 && k < ru->n_models; k++) {
        const vis_formation_place *pl = &res.placements[0].models[k];
        if (!add_model(r, ru, k, seen, fm, pl, prior_sigma[k], unc, res.n_placements > 1 ? res.placements[0].label : "",
                       u, rep))
            rc = -1;
        else if (located[k])
            mark_located(r, ru, k, unc, &u->models[u->n_models - 1], rep);
        /* Not placed as if certain where the evidence allows more than one place: each within two sigma. */
        else if (widen && pl->placed && fm[k].evidence == VIS_FORMATION_NONE)
            u->models[u->n_models - 1].sigma_mm =
                fmax(u->models[u->n_models - 1].sigma_mm, vis_units_rear_spread(&res, allowed, k) / 2);
        if (rc == 0)
            debug_placed(r, ru, k, seen, fm, &res, moved > 0 || allowed < res.n_placements, located[k], opt, u);
    }
    if (rc == 0 && !add_alternatives(r, ru, &res, unc, u))
        rc = -1;
    if (rc == 0 && res.n_placements > 1)
        vis_report_add(rep, VIS_ISSUE_INFERRED, -1, NULL, NULL,
                       "unit %s: %zu placements of its unseen models fit what was seen%s; the likeliest (%s) is used, "
                       "the others are kept as alternatives",
                       ru->id, res.n_possible, u->placements_complete ? "" : " (more than kept)",
                       res.placements[0].label);
    else if (rc == 0 && !res.understood)
        vis_report_add(rep, VIS_ISSUE_INFERRED, -1, NULL, NULL,
                       "unit %s: the models seen fit no formation of %zu models; unseen ones placed in a block just "
                       "wide enough",
                       ru->id, ru->n_models);
    vis_formation_result_clear(&res);
    free(fm);
    return rc;
}

int vis_units_build_ex(const roster_map *r, const vis_seen_model *seen, const rules_snapshot *prior,
                       const vis_units_options *opt_in, rules_snapshot **out, vis_report *rep, base_error *err)
{
    static const vis_units_options defaults = {0};
    const vis_units_options *opt = opt_in ? opt_in : &defaults;
    vis_uncert_source local;
    const vis_uncert_source *unc = opt->uncert;
    if (!unc) {
        vis_uncert_source_default(&local, NULL, NAN);
        unc = &local;
    }
    *out = NULL;
    rules_snapshot *s = roster_map_new_snapshot(r);
    if (!s)
        return base_error_set(err, "out of memory");
    for (size_t ui = 0; ui < r->n_units; ui++)
        if (place_unit(r, ui, seen, prior, opt, unc, s, rep) < 0) {
            rules_snapshot_free(s);
            return base_error_set(err, "out of memory");
        }
    /* A unit with no model placed is listed in s->unseen (above), not among the units. */
    size_t w = 0;
    for (size_t i = 0; i < s->n_units; i++) {
        if (s->units[i].n_models == 0) {
            free(s->units[i].models);
            rules_unit_clear_alternatives(&s->units[i]);
            continue;
        }
        s->units[w++] = s->units[i];
    }
    s->n_units = w;
    *out = s;
    return 0;
}

int vis_units_build(const roster_map *r, const vis_seen_model *seen, const rules_snapshot *prior,
                    rules_snapshot **out, vis_report *rep, base_error *err)
{
    return vis_units_build_ex(r, seen, prior, NULL, out, rep, err);
}
