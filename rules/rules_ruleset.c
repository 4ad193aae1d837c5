#include "rules_ruleset.h"

#include <string.h>

#include "base_geom.h"

#define IN(x) ((x) * BASE_MM_PER_INCH)
#define DEG(x) ((x) * (BASE_PI / 180.0))

/*
 * [A] The Ninth Age 2nd edition (Advance/March Rate): seeds 004.
 * [B] The Ninth Age Mobility text (Mobility, Proper Ranks): seeds 000, 001, 003.
 * Values without a published source are the project's decisions, listed in
 * docs/rules.md; each one is a field here so a group can change it.
 */
/* What both built-in rulesets say: they differ only in the Mobility text's
 * "no more ranks than files" rule (ranks_at_most_files). */
#define T9A_SHARED_VALUES                                                                                              \
    .march_test_radius_mm = IN(8), .unit_spacing_mm = IN(1), .unit_spacing_during_mm = IN(0.5),                      \
    .backward_fraction = 0.5, .sideways_fraction = 0.5, .wheel_measure = RULES_WHEEL_ARC,                             \
    .wheel_chord_max_rad = DEG(90), .single_model_free_pivot = true, .max_file_change = 3, .proper_rank_width = 5,    \
    .proper_rank_width_large = 3, .proper_rank_width_gigantic = 1, .height_large_from = 3,                            \
    .height_gigantic_from = 5, .contact_tolerance_mm = 1.0, .alignment_tolerance_rad = DEG(2),                        \
    .charge_max_wheel_rad = DEG(90), .formation_min_models = 3, .formation_widen_max_mm = IN(2),                      \
    .formation_adjust_cost_mm = IN(1), .formation_will_test_at_equal = true

static const rules_ruleset builtin[] = {
    {
        .name = "t9a-2ed",
        .title = "The Ninth Age, 2nd edition (Advance and March Rates)",
        .ranks_at_most_files = false,
        T9A_SHARED_VALUES,
    },
    {
        .name = "t9a-mobility",
        .title = "The Ninth Age, Mobility rules (Reform Move, Combat Reforms, Pursuit)",
        .ranks_at_most_files = true,
        T9A_SHARED_VALUES,
    },
};

const rules_ruleset *rules_ruleset_find(const char *name)
{
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcmp(builtin[i].name, name) == 0)
            return &builtin[i];
    return NULL;
}

const rules_ruleset *rules_ruleset_at(size_t i)
{
    return i < sizeof builtin / sizeof builtin[0] ? &builtin[i] : NULL;
}
