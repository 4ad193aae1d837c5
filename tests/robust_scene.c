/* robust_scene: the robust judge's tests' units (see the header). */
#include "robust_scene.h"

#include <criterion/criterion.h>
#include <stdio.h>

#include "fixtures.h"
#include "rules_formation.h"

rules_unit *robust_spears(rules_snapshot *s, rules_pose pose)
{
    rules_unit *u = fx_block(s, "spears", "red", 25, 4, 10, pose, 5, 10);
    for (size_t j = 0; j < u->n_models; j++)
        u->models[j].sigma_mm = ROBUST_SEEN_SIGMA;
    return u;
}

void robust_infer(rules_unit *u, const char *id)
{
    rules_model *m = rules_unit_find_model(u, id);
    cr_assert_not_null(m);
    m->evidence = RULES_EVIDENCE_INFERRED;
    m->inferred = true;
    m->sigma_mm = ROBUST_INFERRED_SIGMA;
}

/* The rear two models (spears-9, spears-10) at rear-rank files f9 and f10 of the unit's own grid. */
static void rear_at(const rules_unit *u, double f9, double f10, base_vec2 *p9, base_vec2 *p10)
{
    rules_formation f;
    cr_assert_eq(rules_formation_fit(u, NULL, &f, NULL), 0);
    *p9 = rules_formation_slot_position(&f, 0, 2, f9);
    *p10 = rules_formation_slot_position(&f, 0, 2, f10);
}

void robust_ambiguous_rear(rules_unit *u, double primary)
{
    static const struct {
        double first;
        const char *label;
    } places[] = {{0, "rear rank left-aligned"}, {1, "rear rank centred"}, {2, "rear rank right-aligned"}};
    base_vec2 p9, p10;
    robust_infer(u, "spears-9");
    robust_infer(u, "spears-10");
    double heading = u->models[0].facing;
    for (size_t k = 0; k < 3; k++) {
        rear_at(u, places[k].first, places[k].first + 1, &p9, &p10);
        if (places[k].first == primary)
            continue;
        rules_placement *alt = rules_unit_add_alternative(u, places[k].label);
        cr_assert_not_null(alt);
        rules_placement_add_model(alt, "spears-9", p9, heading, ROBUST_INFERRED_SIGMA);
        rules_placement_add_model(alt, "spears-10", p10, heading, ROBUST_INFERRED_SIGMA);
    }
    rear_at(u, primary, primary + 1, &p9, &p10);
    rules_unit_find_model(u, "spears-9")->pos = p9;
    rules_unit_find_model(u, "spears-10")->pos = p10;
    snprintf(u->placement_label, sizeof u->placement_label, "%s", places[(int)primary].label);
}

rules_unit *robust_translated(rules_snapshot *after, const rules_unit *u, base_vec2 d)
{
    rules_unit *c = rules_snapshot_add_unit(after, u->id, u->side);
    c->base_width = u->base_width, c->base_depth = u->base_depth;
    c->advance_rate = u->advance_rate, c->march_rate = u->march_rate;
    for (size_t j = 0; j < u->n_models; j++) {
        rules_model *m =
            rules_unit_add_model(c, u->models[j].id, base_v2_add(u->models[j].pos, d), u->models[j].facing);
        m->evidence = u->models[j].evidence, m->inferred = u->models[j].inferred, m->sigma_mm = u->models[j].sigma_mm;
    }
    return c;
}

base_vec2 robust_ahead(double heading, double inches)
{
    return base_v2_scale(base_v2_dir(heading), base_in_to_mm(inches));
}
