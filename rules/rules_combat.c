#include "rules_combat.h"

#include <stdlib.h>
#include <string.h>

#include "rules_contact.h"
#include "rules_formation.h"
#include "rules_arcs.h"
#include "base_text.h"

static const unsigned FACINGS[4] = {RULES_ARC_FRONT, RULES_ARC_LEFT, RULES_ARC_RIGHT, RULES_ARC_REAR};

static int popcount4(unsigned v)
{
    int n = 0;
    for (int i = 0; i < 4; i++)
        n += (v & FACINGS[i]) != 0;
    return n;
}

static bool enemies(const rules_unit *a, const rules_unit *b)
{
    return strcmp(a->side, b->side) != 0;
}

static int fit(const rules_unit *u, const rules_check_options *opt, rules_formation *f, base_error *err)
{
    if (rules_formation_fit(u, &opt->formation, f, NULL) < 0)
        return base_error_set(err, "unit %s has no models", u->id);
    return 0;
}

/* Models of `u` in `s` (by id) that touch any enemy of u. */
static size_t engaged_models(const rules_snapshot *s, const char *id, double tol)
{
    const rules_unit *u = rules_snapshot_find_unit(s, id);
    return u ? rules_contact_count_engaged(s, u, tol) : 0;
}

static bool model_engaged(const rules_snapshot *s, const rules_unit *u, const rules_model *m, double tol)
{
    for (size_t k = 0; k < s->n_units; k++)
        if (enemies(&s->units[k], u) && rules_contact_model_unit(u, m, &s->units[k], tol))
            return true;
    return false;
}

/* Attachable models of unit `id` engaged before must still be engaged after. */
static void check_attachable(const rules_snapshot *before, const rules_snapshot *after, const char *id, double tol,
                             rules_unit_report *ur)
{
    const rules_unit *u0 = rules_snapshot_find_unit(before, id), *u1 = rules_snapshot_find_unit(after, id);
    if (!u0 || !u1)
        return;
    for (size_t j = 0; j < u0->n_models; j++) {
        const rules_model *m0 = &u0->models[j];
        if (!m0->attachable || !model_engaged(before, u0, m0, tol))
            continue;
        const rules_model *m1 = rules_unit_find_model(u1, m0->id);
        if (m1 && model_engaged(after, u1, m1, tol))
            continue;
        rules_violation *v = rules_unit_report_add_violation(
            ur, "CR-ATTACHABLE", RULES_QTY_COUNT, 0, 1,
            "Attachable Model %s (unit %s) was in contact with an enemy before the Combat Reform and must remain "
            "in contact after it.",
            m0->id, id);
        if (v)
            rules_violation_add_model(v, m0->id);
    }
}

static const char *facing_name(unsigned f)
{
    return f == RULES_ARC_FRONT ? "Front" : f == RULES_ARC_REAR ? "Rear" : f == RULES_ARC_LEFT ? "left Flank"
                                                                                               : "right Flank";
}

/* Angle between two facing edges as lines (0..pi/2). */
static double line_angle(base_vec2 a0, base_vec2 a1, base_vec2 b0, base_vec2 b1)
{
    base_vec2 da = base_v2_sub(a1, a0), db = base_v2_sub(b1, b0);
    double ang = fabs(atan2(base_v2_cross(da, db), base_v2_dot(da, db)));
    return ang > BASE_PI / 2 ? BASE_PI - ang : ang;
}

/* One unit's Combat Reform being judged: the unit before and after, its fitted formations, the report. */
typedef struct cr_judge {
    const rules_snapshot *before, *after;
    const rules_check_options *opt;
    const rules_combat_options *co;
    const rules_unit *u0, *u1;
    rules_formation f0, f1;
    const rules_ruleset *rs;
    double tol;
    rules_unit_report ur;
} cr_judge;

/* Engagements before: which enemy units, on which of our Facings; the
 * Command Test the reform needs. -1 when a unit has no models. */
static int check_engaged_before(cr_judge *J, base_error *err)
{
    unsigned own_facings = 0;
    size_t n_enemies = 0;
    for (size_t k = 0; k < J->before->n_units; k++) {
        const rules_unit *e = &J->before->units[k];
        if (!enemies(e, J->u0) || !rules_contact_units(J->u0, e, J->tol))
            continue;
        rules_formation fe;
        if (fit(e, J->opt, &fe, err) < 0)
            return -1;
        own_facings |= rules_contact_facing(&J->f0.boundary, &fe.boundary, J->tol);
        n_enemies++;
    }
    rules_unit_report_add_measure(&J->ur, "enemy_units_before", RULES_QTY_COUNT, (double)n_enemies);
    if (n_enemies == 0)
        rules_unit_report_add_violation(&J->ur, "CR-NOT-ENGAGED", RULES_QTY_COUNT, 0, 1,
                                        "Unit %s was not in contact with an enemy, so it cannot Combat Reform.",
                                        J->u0->id);
    if (popcount4(own_facings) > 1) {
        char list[96] = "";
        for (int i = 0; i < 4; i++)
            if (own_facings & FACINGS[i])
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                         facing_name(FACINGS[i]));
        rules_unit_report_add_violation(&J->ur, "CR-MULTI-FACING", RULES_QTY_COUNT, popcount4(own_facings), 1,
                                        "Unit %s is Engaged in more than one Facing (%s) and can never Combat "
                                        "Reform.",
                                        J->u0->id, list);
    }
    bool losing = J->co && J->co->losing_side && strcmp(J->co->losing_side, J->u0->side) == 0;
    bool flank_rear = own_facings & (RULES_ARC_LEFT | RULES_ARC_RIGHT | RULES_ARC_REAR);
    if (losing || flank_rear)
        rules_unit_report_add_note(&J->ur, "Command Test required (%s%s%s): the Combat Reform is legal only if it "
                                           "was passed.",
                                   losing ? "on the losing side" : "", losing && flank_rear ? "; " : "",
                                   flank_rear ? "engaged in a Flank or the Rear" : "");
    return 0;
}

/* The formation it ends in: files changed by at most the limit, viable, no more ranks than files. */
static void check_formation_after(cr_judge *J)
{
    const rules_ruleset *rs = J->rs;
    const rules_formation *f0 = &J->f0, *f1 = &J->f1;
    int dfiles = abs(f1->files - f0->files);
    rules_unit_report_add_measure(&J->ur, "file_change", RULES_QTY_COUNT, dfiles);
    if (dfiles > rs->max_file_change)
        rules_unit_report_add_violation(&J->ur, "CR-FILES", RULES_QTY_COUNT, dfiles, rs->max_file_change,
                                        "The unit went from %d to %d files; a Combat Reform may change the number "
                                        "of files by at most %d.",
                                        f0->files, f1->files, rs->max_file_change);
    if (f1->issues) {
        char why[256];
        rules_formation_describe(f1, J->u1, why, sizeof why);
        rules_unit_report_add_violation(&J->ur, "CR-FORMATION", RULES_QTY_LENGTH, f1->max_residual_mm,
                                        J->opt->formation.position_tolerance_mm,
                                        "The unit must end in a viable formation: %s.", why);
    }
    if (rules_formation_too_deep(rs, J->u0, f1, NULL))
        rules_unit_report_add_violation(&J->ur, "CR-RANKS-FILES", RULES_QTY_COUNT, f1->ranks, f1->files,
                                        "The unit ends with %d ranks but only %d files.", f1->ranks, f1->files);
}

/* Fewer models in contact after than before (c1 < c0): the reforming unit's own count or, `was_contacted`, an enemy's. */
static void contact_count_violation(cr_judge *J, const char *id, bool was_contacted, size_t c1, size_t c0)
{
    if (c1 >= c0)
        return;
    rules_unit_report_add_violation(&J->ur, "CR-CONTACT-COUNT", RULES_QTY_COUNT, (double)c1, (double)c0,
                                    "Unit %s%s has %zu models in contact with the enemy after the reform, fewer "
                                    "than the %zu before.",
                                    id, was_contacted ? ", which was in contact," : "", c1, c0);
}

/* Models in contact: the reforming unit, then every unit it was in contact
 * with, which must stay in contact on the same Facing. -1 when a unit has no models. */
static int check_contact_kept(cr_judge *J, base_error *err)
{
    const double tol = J->tol;
    size_t c0 = rules_contact_count_engaged(J->before, J->u0, tol), c1 = rules_contact_count_engaged(J->after, J->u1, tol);
    rules_unit_report_add_measure(&J->ur, "models_in_contact_before", RULES_QTY_COUNT, (double)c0);
    rules_unit_report_add_measure(&J->ur, "models_in_contact_after", RULES_QTY_COUNT, (double)c1);
    contact_count_violation(J, J->u0->id, false, c1, c0);
    check_attachable(J->before, J->after, J->u0->id, tol, &J->ur);

    for (size_t k = 0; k < J->before->n_units; k++) {
        const rules_unit *e0 = &J->before->units[k];
        if (!enemies(e0, J->u0) || !rules_contact_units(J->u0, e0, tol))
            continue;
        const rules_unit *e1 = rules_snapshot_find_unit(J->after, e0->id);
        size_t ec0 = rules_contact_count_engaged(J->before, e0, tol), ec1 = engaged_models(J->after, e0->id, tol);
        contact_count_violation(J, e0->id, true, ec1, ec0);
        check_attachable(J->before, J->after, e0->id, tol, &J->ur);
        if (!e1 || !rules_contact_units(J->u1, e1, tol)) {
            rules_unit_report_add_violation(&J->ur, "CR-LOST-CONTACT", RULES_QTY_COUNT, 0, 1,
                                            "The unit must stay in contact with enemy unit %s.", e0->id);
            continue;
        }
        rules_formation fe0, fe1;
        if (fit(e0, J->opt, &fe0, err) < 0 || fit(e1, J->opt, &fe1, err) < 0)
            return -1;
        unsigned side0 = rules_contact_facing(&fe0.boundary, &J->f0.boundary, tol);
        unsigned side1 = rules_contact_facing(&fe1.boundary, &J->f1.boundary, tol);
        if (side0 != side1)
            rules_unit_report_add_violation(&J->ur, "CR-FACING", RULES_QTY_COUNT, 0, 1,
                                            "The unit touched the %s of enemy unit %s before the reform but its %s "
                                            "after; contact must stay with the same Facing.",
                                            facing_name(side0), e0->id, facing_name(side1));
    }
    return 0;
}

/* Models of the reformed unit that overlap unit o: one CR-OVERLAP violation naming them all. */
static void check_overlap(cr_judge *J, const rules_unit *o)
{
    const rules_unit *u1 = J->u1;
    for (size_t i = 0; i < u1->n_models; i++) {
        const rules_model *m = &u1->models[i];
        bool hit = false;
        for (size_t j = 0; j < o->n_models && !hit; j++)
            hit = rules_contact_overlap_models(u1, m, o, &o->models[j], J->tol);
        if (!hit)
            continue;
        rules_violation *v = (rules_violation *)rules_unit_report_find(&J->ur, "CR-OVERLAP");
        if (!v)
            v = rules_unit_report_add_violation(&J->ur, "CR-OVERLAP", RULES_QTY_COUNT, 1, 0,
                                                "The unit overlaps unit %s; a Combat Reform may ignore Unit "
                                                "Spacing but not overlap other units.",
                                                o->id);
        if (v)
            rules_violation_add_model(v, m->id);
    }
}

/* An enemy in contact after the reform: it must have been in contact before
 * and the two must end perfectly aligned. -1 when it has no models. */
static int check_alignment(cr_judge *J, const rules_unit *o, base_error *err)
{
    const double tol = J->tol;
    const rules_unit *o0 = rules_snapshot_find_unit(J->before, o->id);
    if (!o0 || !rules_contact_units(J->u0, o0, tol)) {
        rules_unit_report_add_violation(&J->ur, "CR-NEW-CONTACT", RULES_QTY_COUNT, 1, 0,
                                        "The unit moved into base contact with enemy unit %s, which it was not "
                                        "in contact with before.",
                                        o->id);
        return 0;
    }
    rules_formation fo;
    if (fit(o, J->opt, &fo, err) < 0)
        return -1;
    const base_obb *mine_box = &J->f1.boundary;
    unsigned mine = rules_contact_facing(mine_box, &fo.boundary, tol);
    unsigned theirs = rules_contact_facing(&fo.boundary, mine_box, tol);
    base_vec2 a0, a1, b0, b1;
    rules_contact_facing_edge(mine_box, mine, &a0, &a1);
    rules_contact_facing_edge(&fo.boundary, theirs, &b0, &b1);
    double angle = line_angle(a0, a1, b0, b1);
    double flush = rules_contact_facing_length(mine_box, mine, &fo.boundary, tol);
    char name[RULES_CODE_MAX];
    snprintf(name, sizeof name, "misalignment_%.*s", (int)base_text_cut(o->id, 16), o->id); /* whole characters */
    rules_unit_report_add_measure(&J->ur, name, RULES_QTY_ANGLE, angle);
    /* flush: more than a corner touches (the stretch within the tolerance is longer than the band) */
    if (angle > J->rs->alignment_tolerance_rad || flush <= 2 * tol)
        rules_unit_report_add_violation(&J->ur, "CR-ALIGNED", RULES_QTY_ANGLE, angle, J->rs->alignment_tolerance_rad,
                                        "A Combat Reform must end perfectly aligned with the enemy: the unit's "
                                        "%s is %.1f degrees off the %s of unit %s%s.",
                                        facing_name(mine), base_rad_to_deg(angle), facing_name(theirs), o->id,
                                        flush <= 2 * tol ? " and touches it only at a corner" : "");
    return 0;
}

static int judge(const rules_snapshot *before, const rules_snapshot *after, const rules_check_options *opt,
                 const rules_combat_options *co, const rules_unit *u0, const rules_unit *u1, rules_report *out,
                 base_error *err)
{
    cr_judge J = {.before = before, .after = after, .opt = opt, .co = co, .u0 = u0, .u1 = u1,
                  .rs = &out->ruleset, .tol = out->ruleset.contact_tolerance_mm};
    if (fit(u0, opt, &J.f0, err) < 0 || fit(u1, opt, &J.f1, err) < 0)
        return -1;
    rules_unit_report_init(&J.ur, u0->id, u0->side, RULES_MOVE_COMBAT_REFORM, true);
    J.ur.centre_before = J.f0.centre;
    J.ur.centre_after = J.f1.centre;
    J.ur.centre_displacement_mm = base_v2_dist(J.f0.centre, J.f1.centre);
    J.ur.rotation_rad = base_angle_wrap(J.f1.heading - J.f0.heading);
    J.ur.files_before = J.f0.files;
    J.ur.ranks_before = J.f0.ranks;
    J.ur.files_after = J.f1.files;
    J.ur.ranks_after = J.f1.ranks;

    if (check_engaged_before(&J, err) < 0)
        goto fail;
    check_formation_after(&J);
    if (check_contact_kept(&J, err) < 0)
        goto fail;
    /* After: new enemies, overlaps, alignment. */
    for (size_t k = 0; k < after->n_units; k++) {
        const rules_unit *o = &after->units[k];
        if (strcmp(o->id, u1->id) == 0)
            continue;
        check_overlap(&J, o);
        if (enemies(o, u1) && rules_contact_units(u1, o, J.tol) && check_alignment(&J, o, err) < 0)
            goto fail;
    }
    if (rules_report_take_unit(out, &J.ur) < 0) {
        base_error_set(err, "out of memory");
        goto fail;
    }
    return 0;
fail:
    rules_unit_report_clear(&J.ur);
    return -1;
}

static bool moved(const rules_unit *u0, const rules_unit *u1, const rules_check_options *opt)
{
    if (u0->n_models != u1->n_models)
        return true;
    for (size_t j = 0; j < u0->n_models; j++) {
        const rules_model *m1 = rules_unit_find_model(u1, u0->models[j].id);
        if (!m1 || base_v2_dist(m1->pos, u0->models[j].pos) > opt->still_mm ||
            fabs(base_angle_wrap(m1->facing - u0->models[j].facing)) > opt->still_rad)
            return true;
    }
    return false;
}

int rules_combat_reform_check(const rules_snapshot *before, const rules_snapshot *after,
                              const rules_check_options *opt_in, const rules_combat_options *co, rules_report *out,
                              base_error *err)
{
    rules_check_options defaults;
    opt_in = rules_check_options_or_default(opt_in, &defaults);
    rules_report_begin(out, before, after);
    const double tol = out->ruleset.contact_tolerance_mm;
    if (co && co->reforming) {
        for (size_t i = 0; i < co->n_reforming; i++) {
            const rules_unit *u0 = rules_snapshot_find_unit(before, co->reforming[i]);
            const rules_unit *u1 = rules_snapshot_find_unit(after, co->reforming[i]);
            if (!u0 || !u1)
                return base_error_set(err, "unit %s is not in both snapshots", co->reforming[i]);
            if (judge(before, after, opt_in, co, u0, u1, out, err) < 0) {
                rules_report_clear(out);
                return -1;
            }
        }
    } else {
        for (size_t i = 0; i < before->n_units; i++) {
            const rules_unit *u0 = &before->units[i];
            if (opt_in->unit_id && strcmp(opt_in->unit_id, u0->id) != 0)
                continue;
            const rules_unit *u1 = rules_snapshot_find_unit(after, u0->id);
            if (!u1)
                continue;
            if (!opt_in->unit_id && (!moved(u0, u1, opt_in) || rules_contact_count_engaged(before, u0, tol) == 0))
                continue;
            if (judge(before, after, opt_in, co, u0, u1, out, err) < 0) {
                rules_report_clear(out);
                return -1;
            }
        }
    }
    /* Units that had to attempt a reform: engaged but not perfectly aligned, and yet not reformed. */
    for (size_t i = 0; i < before->n_units; i++) {
        const rules_unit *u0 = &before->units[i];
        if (rules_report_find_unit(out, u0->id))
            continue;
        rules_formation f0;
        if (rules_formation_fit(u0, &opt_in->formation, &f0, NULL) < 0)
            continue;
        for (size_t k = 0; k < before->n_units; k++) {
            const rules_unit *e = &before->units[k];
            if (!enemies(e, u0) || !rules_contact_units(u0, e, tol))
                continue;
            rules_formation fe;
            if (rules_formation_fit(e, &opt_in->formation, &fe, NULL) < 0)
                continue;
            base_vec2 a0, a1, b0, b1;
            unsigned mine = rules_contact_facing(&f0.boundary, &fe.boundary, tol);
            unsigned theirs = rules_contact_facing(&fe.boundary, &f0.boundary, tol);
            rules_contact_facing_edge(&f0.boundary, mine, &a0, &a1);
            rules_contact_facing_edge(&fe.boundary, theirs, &b0, &b1);
            double flush = rules_contact_facing_length(&f0.boundary, mine, &fe.boundary, tol);
            if (line_angle(a0, a1, b0, b1) > out->ruleset.alignment_tolerance_rad || flush <= 2 * tol) {
                rules_report_add_note(out,
                                      "Unit %s is not perfectly aligned with enemy unit %s, so it had to attempt a "
                                      "Combat Reform (it did not reform: legal only if a required Command Test "
                                      "failed).",
                                      u0->id, e->id);
                break;
            }
        }
    }
    return 0;
}
